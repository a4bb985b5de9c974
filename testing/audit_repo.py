"""A generated project memory with planted problems, for ``git memory audit`` tests and its bench.

``plant(root, n)`` writes MEMORY.md, ``n`` record files and a small tree (config files, a
Makefile) into ``root`` and returns what was planted, by kind: later copies of earlier entries
(``duplicates``), pairs that give opposite instructions on one subject (``contradictions``),
entries naming paths that do not exist (``stale``), and user-sourced entries without evidence
that carries them (``evidence_free``). Everything else is written to be clean: real paths, real
make targets, supporting evidence, distinct content (two made-up code names per entry).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from chord_git.memory import records

AREAS = ("billing", "search", "checkout", "ledger", "invoices", "payments", "catalog", "shipping", "auth",
         "reports", "exports", "webhooks", "notifications", "pricing", "inventory", "accounts", "sessions",
         "uploads", "analytics", "scheduler", "mailer", "gateway", "profiles", "coupons", "orders", "reviews",
         "refunds", "tenants", "audit", "metrics")
TOOLS = (("pnpm", "npm"), ("pytest", "unittest"), ("ruff", "flake8"), ("vitest", "jest"), ("httpx", "requests"),
         ("poetry", "pip"), ("structlog", "logging"), ("alembic", "yoyo"), ("celery", "rq"), ("orjson", "ujson"))
_SYLLABLES = ("ka", "lo", "mi", "ren", "to", "vas", "qui", "zor", "pel", "dun", "fa", "gri", "hol", "jex", "nub",
              "orb", "sil", "tam", "vek", "wup", "yal", "zim", "bro", "cet")


@dataclass
class Planted:
    ids: list[str] = field(default_factory=list)  # every entry, in index order
    duplicates: set[str] = field(default_factory=set)  # the later copy
    contradictions: set[frozenset[str]] = field(default_factory=set)
    stale: set[str] = field(default_factory=set)
    evidence_free: set[str] = field(default_factory=set)
    # Entries whose text AGENTS.md or the docs now hold: clean ones copied there, and their later
    # copies in the same words (a copy reworded is not the text that stands there).
    promoted: set[str] = field(default_factory=set)
    same_words: dict[str, list[str]] = field(default_factory=dict)  # entry -> its copies in the same words


def _codename(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(4))
        if name not in taken:
            taken.add(name)
            return name


def _record(rid: str, kind: str, source: str, summary: str, statement: str, evidence: str | None,
            why: str, how: str) -> records.Record:
    status = "stated" if source == "user" else "unverified"
    return records.Record(rid, kind, source, status, summary, statement, evidence, "2026-11-01", "gen", None,
                          statement, why, how)


def _clean(i: int, area: str, a: str, b: str) -> tuple[str, str, str]:
    """(type, summary, statement) of a clean entry; every one names only what exists."""
    shape = i % 4
    if shape == 0:
        return ("fact", f"The {area} {a} settings live in `config/{area}.toml`.",
                f"The {area} {a} {b} settings are read from `config/{area}.toml` at startup.")
    if shape == 1:
        return ("workflow", f"Run `make {area}-check` before changing {a} {b}.",
                f"Run `make {area}-check` before changing the {a} {b} module of {area}.")
    if shape == 2:
        return ("lesson", f"The {a} {b} job of {area} retries with backoff.",
                f"The {a} {b} job of {area} retries three times with exponential backoff.")
    return ("preference", f"{a.capitalize()} {b} reports of {area} stay under one page.",
            f"{a.capitalize()} {b} reports of {area} stay under one page each.")


def plant(root: Path, n: int, *, seed: int = 7, share: float = 0.04) -> Planted:
    """Write a memory of ``n`` entries into ``root``; about ``share`` of them per planted kind."""
    rng = random.Random(seed)
    taken: set[str] = set()
    out = Planted()
    rec_dir = root / ".chord" / "memory" / "records"
    rec_dir.mkdir(parents=True, exist_ok=True)
    (root / "config").mkdir(exist_ok=True)
    for area in AREAS:
        (root / "config" / f"{area}.toml").write_text(f"[{area}]\nenabled = true\n", encoding="utf-8")
    (root / "Makefile").write_text("".join(f"{area}-check:\n\t@echo {area}\n" for area in AREAS), encoding="utf-8")
    written: list[records.Record] = []
    clean: list[records.Record] = []
    per_kind = max(1, int(n * share))
    plan = ["duplicate"] * per_kind + ["contradiction"] * per_kind + ["stale"] * per_kind + ["evidence"] * per_kind
    plan += ["clean"] * max(0, n - len(plan) - per_kind)  # a contradiction is two entries
    rng.shuffle(plan)
    plan = ["clean"] * 3 + plan  # a duplicate needs an earlier entry to copy
    for i, kind in enumerate(plan):
        area = AREAS[rng.randrange(len(AREAS))]
        a, b = _codename(rng, taken), _codename(rng, taken)
        rid = f"20261101-e{i:05d}-{rng.randrange(16 ** 4):04x}"
        why = f"The {a} team asked for it after the {area} incident."
        how = f"Check the {area} {a} code against it before changing anything there."
        if kind == "clean":
            rtype, summary, statement = _clean(i, area, a, b)
            source = "user" if i % 3 else "assistant"
            rec = _record(rid, rtype, source, summary, statement, statement if source == "user" else None, why, how)
            clean.append(rec)
        elif kind == "duplicate":
            original = rng.choice(clean)
            if i % 2:  # the same words, other punctuation and spacing
                summary = "  " + original.summary.rstrip(".").replace(" ", "  ") + "!"
                statement = original.statement
                out.same_words.setdefault(original.id, []).append(rid)
            else:  # the same content, reordered
                summary = "Note: " + original.summary
                statement = original.statement.replace(" the ", " ") + " (still true)"
            rec = _record(rid, original.type, "assistant", summary, statement, None, why, how)
            out.duplicates.add(rid)
        elif kind == "contradiction":
            good, bad = TOOLS[rng.randrange(len(TOOLS))]
            first = _record(rid, "preference", "user", f"Use {good} for the {a} {area} client.",
                            f"Use {good} for the {a} {area} client.", f"use {good} for the {a} {area} client", why, how)
            written.append(first)
            rid = f"20261101-e{i:05d}-c{rng.randrange(16 ** 3):03x}"
            if i % 2:
                rec = _record(rid, "preference", "assistant", f"Use {bad} for the {a} {area} client.",
                              f"Use {bad} for the {a} {area} client.", None, why, how)
            else:
                rec = _record(rid, "preference", "assistant", f"Never use {good} for the {a} {area} client.",
                              f"Never use {good} for the {a} {area} client.", None, why, how)
            out.contradictions.add(frozenset({first.id, rid}))
        elif kind == "stale":
            rec = _record(rid, "fact", "assistant", f"The {a} handler of {area} is in `src/{area}/{b}.py`.",
                          f"The {a} handler of {area} lives in `src/{area}/{b}.py`.", None, why, how)
            out.stale.add(rid)
        else:
            statement = f"The {a} {b} exports of {area} are gzipped."
            evidence = None if i % 2 else "please fix the flaky test first"
            rec = _record(rid, "fact", "user", statement, statement, evidence, why, how)
            out.evidence_free.add(rid)
        written.append(rec)
    lines = []
    for rec in written:
        (rec_dir / f"{rec.id}.md").write_text(records.render(rec), encoding="utf-8")
        lines.append(f"- [{rec.type}] {rec.summary} ([{rec.id}](.chord/memory/records/{rec.id}.md))\n")
        out.ids.append(rec.id)
    (root / "MEMORY.md").write_text("# Project memory\n\n<!-- chord:memory:begin -->\n" + "".join(lines)
                                    + "<!-- chord:memory:end -->\n", encoding="utf-8")
    _promote(root, clean, per_kind, random.Random(seed + 1), out)
    return out


def _promote(root: Path, clean: list[records.Record], count: int, rng: random.Random, out: Planted) -> None:
    """AGENTS.md and a docs page as a project holds them: rules of its own, and ``count`` clean
    entries copied in by hand (the statement, or the summary as a list item; half in each file).
    Drawing from a generator of its own leaves every other planted kind as it was."""
    own = [f"- The {area} service owns its database schema; migrations live next to it." for area in AREAS]
    own += ["- Commit messages are written in the imperative mood.", "- Every public function has a docstring.",
            "## Reviews", "Two approvals are needed for anything under `infra/`."]
    agents, docs = list(own[: len(own) // 2]), list(own[len(own) // 2:])
    for number, rec in enumerate(rng.sample(clean, min(count, len(clean)))):
        (agents if number % 2 else docs).append(rec.statement if number % 3 else f"- {rec.summary}")
        out.promoted.update([rec.id, *out.same_words.get(rec.id, [])])
    rng.shuffle(agents)
    rng.shuffle(docs)
    (root / "AGENTS.md").write_text("# Agents\n\n" + "\n".join(agents) + "\n", encoding="utf-8")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "conventions.md").write_text("# Conventions\n\n" + "\n".join(docs) + "\n", encoding="utf-8")
