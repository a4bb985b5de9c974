"""``git memory audit``: can the memory a repository holds today be believed? (R12, R19–R28, R34)

Mechanical checks of every index entry, from the index and the record files as they are, against
the working tree as it is. Nothing is written in the project. Per entry:

* **source and status**, and whether a user-sourced entry has **evidence** that supports its
  statement (a share of its distinctive content) and asserts it (``judge.claims``);
* **near-duplicates**: the same conclusion after normalisation, or the same distinctive content;
* **contradictions**: the same subject with an opposite instruction ("use pnpm" against "never
  npm", "use npm"; "用 pnpm" against "用 npm");
* **staleness**: project-relative paths, ``make`` targets, package scripts and config keys it
  names that no longer exist in the tree; **age**;
* **beyond the injection budget**: entries the summary never shows (R28);
* record files that break a rule (caps, fields: the loader skips them) and **orphans**.

Pairs are found through an inverted index of distinctive content, not by comparing every pair,
so 10,000 entries are audited in a few seconds (bench/audit_bench.py). What an entry's own texts
say (its facts, its evidence verdict) is most of the work and depends on nothing else: the commands
keep it in the check's result cache under those texts and the rules' version (``Memo``), so an
audit of a memory that barely changed judges only what changed.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol
from pathlib import Path

from chord_git.judge import attribution, claims, mood
from chord_git.memory import anchor_lookup, anchors, index_file, records, view
from chord_git.memory.project import Project
from chord_git.review import promoted, staleness
from chord_git.support.dataclass_lazy import dataclass, field

# Near-duplicates: this share of the union of two entries' distinctive content in common.
DUPLICATE_JACCARD = 0.7
# Two "use X" / "use Y" entries are about one subject when this share of the rest is common.
SAME_SUBJECT = 0.75
# A token carried by more entries than this says nothing about which entries are alike.
COMMON_TOKEN = 64
# Walking the tree stops here: a huge checkout still gets an answer (paths beyond count as present).
TREE_FILE_LIMIT = 200_000
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".pytest_cache",
                        ".tox", "dist", "build", ".next", "target"})
_CONFIG_READ_LIMIT = 256 * 1024

# "use X", "用 X": the instruction's object is the first distinctive token after the verb.
_USE = re.compile(r"\b(?:use|uses|using|prefer|prefers|choose|switch\s+to|stick\s+with|go\s+with|run\s+with)\s+"
                  r"(?:the\s+|a\s+|an\s+)?`?([\w.+#-]+)`?"
                  r"|(?:使用|改用|统一用|只用|都用|用)\s*`?([\w.+#-]+)`?")
_NEVER = re.compile(r"\b(?:never|don'?t|do\s+not|not|no|avoid|without)\s+(?:use\s+|using\s+|run\s+|call\s+|the\s+)?`?([\w.+#-]+)`?"
                    r"|(?:不要用|别用|不用|禁止用|禁止|不使用|不要)\s*`?([\w.+#-]+)`?")
# Every alternative of each pattern holds one of these.
_USE_NEEDS = ("us", "prefer", "choose", "switch", "stick", "with", "用")
_NEVER_NEEDS = ("never", "do", "no", "avoid", "without", "不", "别", "禁止")


# ---------------------------------------------------------------------------- the tree
@dataclass(frozen=True)
class Tree:
    """What the working tree holds that memory may name."""

    paths: frozenset[str]  # files and folders, project-relative, POSIX
    make_targets: frozenset[str] | None  # None: no Makefile at the root
    scripts: frozenset[str] | None  # package.json scripts of every package; None: no package.json
    config_words: frozenset[str]  # identifiers in config files (keys of YAML, TOML, JSON, env files)
    complete: bool = True  # False: the walk stopped at TREE_FILE_LIMIT

    def has_path(self, rel: str) -> bool:
        return not self.complete or rel.rstrip("/") in self.paths


def read_tree(root: Path) -> Tree:
    """Walk the working tree once (skipping .git, dependency and build folders)."""
    found: set[str] = set()
    configs: list[Path] = []
    packages: list[Path] = []
    complete = True
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel_folder == "." else rel_folder + "/"
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS]
        found.update(prefix + d for d in dirs)
        for name in files:
            found.add(prefix + name)
            if name == "package.json":
                packages.append(Path(folder) / name)
            elif anchors.is_config(name):
                configs.append(Path(folder) / name)
        if len(found) > TREE_FILE_LIMIT:
            complete = False
            break
    words: set[str] = set()
    for path in configs + packages:
        text = _read_text(path)
        if text is not None:
            words.update(anchors.identifiers(text))
    scripts: set[str] | None = None
    for path in packages:
        text = _read_text(path)
        try:
            data = json.loads(text) if text else None
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("scripts"), dict):
            scripts = (scripts or set()) | {str(k) for k in data["scripts"]}
        elif scripts is None:
            scripts = set()
    makefile = _read_text(root / "Makefile")
    targets = None if makefile is None else anchors.make_targets(makefile)
    return Tree(frozenset(found), targets, frozenset(scripts) if scripts is not None else None,
                frozenset(words), complete)


def _read_text(path: Path) -> str | None:
    return anchor_lookup.read_text(path, _CONFIG_READ_LIMIT)


# ---------------------------------------------------------------------------- one entry
@dataclass(frozen=True)
class Entry:
    """An index entry as the audit reads it (``record`` None: missing or breaking a rule)."""

    id: str
    position: int  # 1-based line order
    type: str
    summary: str
    record: records.Record | None
    problems: tuple[str, ...] = ()  # why the loader skips the record
    source: str | None = None  # as written, even in a record the loader skips
    missing_evidence: bool = False  # user-sourced without the user's words: the loader skips it


@dataclass(frozen=True)
class Finding:
    # duplicate (says what an earlier entry says) | duplicated (a later entry says it again) |
    # contradiction | stale | evidence | beyond-budget | invalid | old
    kind: str
    message: str
    other: str | None = None  # the other entry of a pair
    action: str | None = None  # what review offers: "forget"

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "other": self.other, "action": self.action}


@dataclass(frozen=True)
class EntryReport:
    id: str
    position: int
    type: str
    summary: str
    source: str | None
    status: str | None
    age_days: int | None
    evidence: str  # ok | missing | unsupported | not-asserted | none (assistant) | unknown
    findings: tuple[Finding, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "position": self.position, "type": self.type, "summary": self.summary,
                "source": self.source, "status": self.status, "age_days": self.age_days,
                "evidence": self.evidence, "findings": [f.as_json() for f in self.findings]}


@dataclass(frozen=True)
class Report:
    entries: tuple[EntryReport, ...]
    orphans: tuple[str, ...]
    budget: int
    fit: int  # entries the injected summary shows
    model: Mapping[str, object] | None = None  # the model-judged pass, when asked for
    totals: Mapping[str, object] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {"mechanical": True, "entries": [e.as_json() for e in self.entries], "orphans": list(self.orphans),
                "budget": self.budget, "entries_in_budget": self.fit, "totals": dict(self.totals),
                "model": dict(self.model) if self.model is not None else None}


def _texts(entry: Entry) -> str:
    rec = entry.record
    if rec is None:
        return entry.summary
    return "\n".join((entry.summary, rec.summary, rec.statement, rec.how_to_apply))


class _Words:
    """``claims.distinctive`` over one audit: each word's stem and each text's words worked out
    once (an evidence is often its statement's words again)."""

    def __init__(self) -> None:
        self.stems: dict[str, str] = {}
        self.texts: dict[str, frozenset[str]] = {}

    def of(self, text: str) -> frozenset[str]:
        found = self.texts.get(text)
        if found is None:
            found = self.texts[text] = claims.distinctive(text, self.stems)
        return found


def _evidence(rec: records.Record | None, facts: _Facts, words: _Words) -> str:
    if rec is None:
        return "unknown"
    if rec.source != "user":
        return "none"
    if not rec.evidence:
        return "missing"
    said = words.of(rec.evidence)
    if claims.support_of(rec.evidence, said, (facts.statement, facts.summary)) < attribution.SUPPORT_SHARE:
        return "unsupported"
    if mood.problem(rec.evidence, rec.statement, rec.summary, [rec.evidence]) is not None:
        return "not-asserted"
    return "ok"


def stale_names(text: str, tree: Tree) -> list[str]:
    """What ``text`` names that the tree no longer holds: paths, make targets, scripts, config keys."""
    out = []
    for anchor in anchors.derive(text):
        if anchor.kind == "path" and not tree.has_path(anchor.name):
            out.append(f"names {anchor.name}, which no longer exists")
        elif anchor.kind == "make" and tree.make_targets is None:
            out.append(f"names `make {anchor.name}`, but there is no Makefile")
        elif anchor.kind == "make" and anchor.name not in tree.make_targets:  # type: ignore[operator]
            out.append(f"names `make {anchor.name}`, which the Makefile no longer defines")
        elif anchor.kind == "script" and tree.scripts is None:
            out.append(f"names the script {anchor.name}, but there is no package.json")
        elif anchor.kind == "script" and anchor.name not in tree.scripts:  # type: ignore[operator]
            out.append(f"names the script {anchor.name}, which no package.json defines")
        elif anchor.kind == "key" and anchor.name.rsplit(".", 1)[-1] not in tree.config_words:
            out.append(f"names the config key {anchor.name}, which no config file holds")
    return list(dict.fromkeys(out))


def _instructions(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(what the text says to use, what it says never to use), as folded tokens."""
    folded = claims.fold(text)
    # Each pattern runs only on texts holding a word it needs (``_USE_NEEDS``, ``_NEVER_NEEDS``).
    never = {g.strip(".`") for m in _NEVER.finditer(folded) for g in m.groups() if g} \
        if any(word in folded for word in _NEVER_NEEDS) else set()
    use = {g.strip(".`") for m in _USE.finditer(folded) for g in m.groups() if g} \
        if any(word in folded for word in _USE_NEEDS) else set()
    return (frozenset(w for w in use - never if w not in claims.STOPWORDS and w not in claims.FILLER),
            frozenset(w for w in never if w not in claims.STOPWORDS and w not in claims.FILLER))


@dataclass
class _Facts:
    tokens: frozenset[str]
    use: frozenset[str]
    never: frozenset[str]
    negated: bool
    key: str
    statement: frozenset[str]
    summary: frozenset[str]


def _facts(entry: Entry, words: _Words) -> _Facts:
    rec = entry.record
    text = f"{entry.summary}\n{rec.statement}" if rec is not None else entry.summary
    use, never = _instructions(text)
    summary = words.of(entry.summary)
    statement = words.of(rec.statement) if rec is not None else frozenset()
    return _Facts(summary | statement, use, never, claims.negated(text), claims.conclusion_key(entry.summary),
                  statement, summary)


@dataclass(frozen=True)
class Judged:
    """What an entry's own texts say, worked out alone: its facts and its evidence verdict."""

    facts: _Facts
    evidence: str

    def encode(self) -> str:
        f = self.facts
        return json.dumps([sorted(f.tokens), sorted(f.use), sorted(f.never), f.negated, f.key, sorted(f.statement),
                           sorted(f.summary), self.evidence], ensure_ascii=False, separators=(",", ":"))


def decode(value: str) -> Judged | None:
    """A stored judgement, or None for one that does not read back (it is worked out again)."""
    try:
        tokens, use, never, negated, key, statement, summary, evidence = json.loads(value)
        facts = _Facts(frozenset(tokens), frozenset(use), frozenset(never), bool(negated), str(key),
                       frozenset(statement), frozenset(summary))
    except (ValueError, TypeError):
        return None
    return Judged(facts, str(evidence))


def judge(entry: Entry, words: _Words) -> Judged:
    facts = _facts(entry, words)
    return Judged(facts, "missing" if entry.missing_evidence else _evidence(entry.record, facts, words))


def judgement_key(entry: Entry, version: str) -> str:
    """Everything ``judge`` reads of an entry, under the rules' ``version``, as a store key."""
    rec = entry.record
    parts = [version, "audit-judgement", entry.summary, "missing" if entry.missing_evidence else ""]
    if rec is not None:
        parts += [rec.source, rec.evidence or "", rec.statement, rec.summary]
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogateescape")
        digest.update(b"%d:" % len(data))
        digest.update(data)
    return digest.hexdigest()


class Store(Protocol):
    """Where judgements are kept between runs (the check's result cache, in the state dir)."""

    def get_many(self, keys: Sequence[str]) -> dict[str, str]: ...

    def put_many(self, items: Iterable[tuple[str, str]]) -> None: ...


@dataclass(frozen=True)
class Memo:
    """A store and the version of the rules its judgements were made under."""

    store: Store
    version: str


def judge_all(entries: Sequence[Entry], memo: Memo | None) -> list[Judged]:
    """Each entry's judgement: from ``memo`` when its texts were judged under the same rules, the
    rest worked out and stored (judging is most of an audit; an unchanged memory skips it)."""
    words = _Words()
    if memo is None:
        return [judge(entry, words) for entry in entries]
    keys = [judgement_key(entry, memo.version) for entry in entries]
    known = memo.store.get_many(list(dict.fromkeys(keys)))
    out: list[Judged] = []
    fresh: dict[str, str] = {}
    for entry, key in zip(entries, keys):
        found = decode(known[key]) if key in known else None
        if found is None:
            found = judge(entry, words)
            fresh[key] = found.encode()
        out.append(found)
    if fresh:
        memo.store.put_many(fresh.items())
    return out


def _pairs(facts: Sequence[_Facts]) -> Iterable[tuple[int, int]]:
    """Entry pairs sharing a distinctive token that few entries carry (inverted index)."""
    holders: dict[str, list[int]] = defaultdict(list)
    for number, fact in enumerate(facts):
        for token in fact.tokens | fact.use | fact.never:
            holders[token].append(number)
    seen: set[tuple[int, int]] = set()
    for members in holders.values():
        if len(members) < 2 or len(members) > COMMON_TOKEN:
            continue
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if (a, b) not in seen:
                    seen.add((a, b))
                    yield a, b


def _said_by_user(entry: Entry) -> bool:
    return entry.record is not None and entry.record.source == "user"


def _duplicate(a: _Facts, b: _Facts) -> bool:
    if a.key and a.key == b.key:
        return True
    if len(a.tokens) < 3 or len(b.tokens) < 3 or a.negated != b.negated:
        return False
    if a.use != b.use and a.use and b.use:
        return False
    union = a.tokens | b.tokens
    return len(a.tokens & b.tokens) / len(union) >= DUPLICATE_JACCARD


def _contradiction(a: _Facts, b: _Facts) -> str | None:
    """Why ``a`` and ``b`` give opposite instructions on one subject, or None. Same subject: what
    is left of each once the objects of the instructions are set aside is mostly shared."""
    clash = (a.use & b.never) | (b.use & a.never)
    if not clash and not (a.use and b.use and not (a.use & b.use)):
        return None  # no opposite instructions, whatever the subject (most pairs)
    objects = a.use | b.use | a.never | b.never
    subject = frozenset[str]()
    # The summaries (the one-line conclusions) first, then everything each entry says.
    for mine, theirs in ((a.summary, b.summary), (a.tokens, b.tokens)):
        shared = (mine & theirs) - objects
        larger = max(len(mine - objects), len(theirs - objects)) or 1
        if shared and len(shared) / larger >= SAME_SUBJECT:
            subject = shared
            break
    if not subject:
        return None
    about = ", ".join(sorted(subject)[:3])
    if clash:
        return f"on {about}, one says to use {sorted(clash)[0]}, the other never to"
    if a.use and b.use and not (a.use & b.use):
        return f"on {about}, one says {sorted(a.use)[0]}, the other {sorted(b.use)[0]}"
    return None


def audit(entries: Sequence[Entry], tree: Tree, *, budget: int, fit: int, orphans: Sequence[str] = (),
          stale_after_days: int = 180, today: dt.date | None = None,
          standing: promoted.Standing | None = None, judged: Sequence[Judged] | None = None) -> Report:
    """The mechanical audit of ``entries`` (in index order) against ``tree`` and what AGENTS.md and
    the docs state (``standing``); ``judged``: each entry's ``judge``, when known (pure)."""
    today = today or dt.date.today()
    found: dict[str, list[Finding]] = defaultdict(list)
    judged = judged if judged is not None else judge_all(entries, None)
    facts = [one.facts for one in judged]
    for a, b in _pairs(facts):
        first, later = entries[a], entries[b]  # a comes first: the later line is the one to forget
        if _duplicate(facts[a], facts[b]):
            found[later.id].append(Finding("duplicate", f"says what {first.id} says", first.id, "forget"))
            found[first.id].append(Finding("duplicated", f"{later.id} says it again", later.id))
            continue
        why = _contradiction(facts[a], facts[b])
        if why is not None:
            # Forgetting is offered for the side the user's own words contradict; two entries of
            # the same standing both stay, shown as a pair for the user to decide.
            first_user, later_user = _said_by_user(first), _said_by_user(later)
            found[later.id].append(Finding("contradiction", f"contradicts {first.id}: {why}", first.id,
                                           "forget" if first_user and not later_user else None))
            found[first.id].append(Finding("contradiction", f"contradicts {later.id}: {why}", later.id,
                                           "forget" if later_user and not first_user else None))
    out: list[EntryReport] = []
    for entry, fact, verdict in zip(entries, facts, judged):
        rec = entry.record
        mine = found.get(entry.id, [])
        if rec is None:
            mine.append(Finding("invalid", "record " + ("; ".join(entry.problems) or "missing or unreadable")
                                + " (the loader skips it)"))
        else:
            for why in stale_names(_texts(entry), tree):
                mine.append(Finding("stale", why, None, "forget"))
            place = promoted.where((rec.statement, rec.summary), standing,
                                   {rec.statement: fact.statement, entry.summary: fact.summary}) if standing else None
            if place is not None:
                mine.append(Finding("promoted", f"already stands in {place} (promoted by hand): "
                                                "git memory fold takes its line out of the index, the record stays"))
        evidence = verdict.evidence
        if evidence in ("missing", "unsupported", "not-asserted"):
            mine.append(Finding("evidence", f"evidence {evidence.replace('-', ' ')}"
                                + (" (user-sourced)" if evidence == "missing" else "")))
        age = staleness.age_days(rec.created, today) if rec is not None else None
        if age is not None and age > stale_after_days:
            mine.append(Finding("old", f"{age} days old (limit {stale_after_days})"))
        if entry.position > fit:
            mine.append(Finding("beyond-budget", "beyond the injection budget: new sessions never see it"))
        out.append(EntryReport(entry.id, entry.position, entry.type, entry.summary, rec.source if rec else entry.source,
                               rec.status if rec else None, age, evidence, tuple(mine)))
    return Report(tuple(out), tuple(orphans), budget, fit, None, totals(out, orphans))


def totals(entries: Sequence[EntryReport], orphans: Sequence[str]) -> dict[str, object]:
    n = len(entries)
    kinds = Counter(f.kind for e in entries for f in e.findings)
    flagged = Counter(kind for e in entries for kind in {f.kind for f in e.findings})  # entries per kind

    def share(count: int) -> float:
        return round(100 * count / n, 1) if n else 0.0

    assistant = sum(1 for e in entries if e.source == "assistant")
    supported = sum(1 for e in entries if e.evidence == "ok")
    return {"entries": n, "user": sum(1 for e in entries if e.source == "user"), "assistant": assistant,
            "assistant_share": share(assistant), "with_supporting_evidence": share(supported),
            "stale": flagged.get("stale", 0), "stale_share": share(flagged.get("stale", 0)),
            "promoted": flagged.get("promoted", 0),
            "duplicates": flagged.get("duplicate", 0), "contradictions": kinds.get("contradiction", 0) // 2,
            "evidence_problems": flagged.get("evidence", 0),
            "beyond_budget": flagged.get("beyond-budget", 0), "invalid": flagged.get("invalid", 0),
            "old": flagged.get("old", 0), "orphans": len(orphans)}


# ---------------------------------------------------------------------------- the project
def entries_of(project: Project, snapshot: view.Snapshot) -> list[Entry]:
    out = []
    for position, line in enumerate(snapshot.index.entries, start=1):
        facts = snapshot.facts(line.id)
        problems: tuple[str, ...] = ()
        missing_evidence = False
        if facts.loaded is None and line.id in snapshot.records and records.valid_id(line.id):
            # Rare: read again to say why the loader skips it (only the broken records pay this).
            _record, found = records.read(project.records_dir / f"{line.id}.md")
            problems = tuple(problem.message for problem in found)
            missing_evidence = any(problem.kind == "evidence" for problem in found)
        out.append(Entry(line.id, position, line.type, line.summary, facts.loaded, problems,
                         facts.source if line.id in snapshot.records else None, missing_evidence))
    return out


def audit_project(project: Project, *, budget: int, stale_after_days: int,
                  today: dt.date | None = None, memo: Memo | None = None) -> Report:
    """Read the index, every record and the tree once; audit; write nothing in the project (the
    judgements go to ``memo``, a store in the state dir, when given)."""
    snapshot = view.snapshot(project)
    entries = entries_of(project, snapshot)
    lines = [index_file.Entry(type=e.type, summary=e.summary, id=e.id).render() for e in entries]
    fit = index_file.fit_count(lines, budget)
    listed = {e.id for e in entries}
    orphans = sorted(rid for rid in snapshot.records if rid not in listed)
    return audit(entries, read_tree(project.root), budget=budget, fit=fit, orphans=orphans,
                 stale_after_days=stale_after_days, today=today, standing=promoted.read_standing(project.root),
                 judged=judge_all(entries, memo))


# ---------------------------------------------------------------------------- rendering (pure)
def render_text(report: Report) -> str:
    t = report.totals
    lines = [f"memory audit: {t['entries']} entries, {t['orphans']} orphan records "
             "(mechanical checks; nothing was changed)"]
    for e in report.entries:
        who = f"{e.source or '?'}/{e.status or '?'}"
        age = f"  age {e.age_days}d" if e.age_days is not None else ""
        lines.append(f"{e.position:>4}. {e.id}  [{e.type}] {who}  evidence: {e.evidence}{age}")
        lines.append(f"      {e.summary}")
        for f in e.findings:
            hint = "  -> review offers: forget" if f.action else ""
            lines.append(f"      ! {f.kind}: {f.message}{hint}")
    if report.orphans:
        lines.append(f"orphan records (no index line): {', '.join(report.orphans[:20])}"
                     + (" …" if len(report.orphans) > 20 else ""))
    lines.append(_totals_line(t))
    lines += _model_lines(report)
    return "\n".join(lines) + "\n"


def _totals_line(t: Mapping[str, object]) -> str:
    return (f"totals: assistant share {t['assistant_share']}% · with supporting evidence "
            f"{t['with_supporting_evidence']}% · stale {t['stale']} ({t['stale_share']}%) · duplicates "
            f"{t['duplicates']} · contradictions {t['contradictions']} · evidence problems {t['evidence_problems']}"
            f" · beyond budget {t['beyond_budget']} · invalid {t['invalid']}"
            f" · old {t['old']} · orphans {t['orphans']}")


def _model_lines(report: Report) -> list[str]:
    if report.model is None:
        return []
    lines = [f"model-judged pass ({report.model.get('model')}; a model's opinion, not verified):"]
    judged = report.model.get("judged")
    for item in judged if isinstance(judged, list) else []:
        lines.append(f"  ? {item.get('id')}: {item.get('reason')}")
    if not judged:
        lines.append("  nothing flagged")
    return lines


def render_markdown(report: Report) -> str:
    t = report.totals
    out = ["## Memory audit", "",
           f"{t['entries']} entries · assistant share {t['assistant_share']}% · with supporting evidence "
           f"{t['with_supporting_evidence']}% · stale {t['stale_share']}% · duplicates {t['duplicates']} · "
           f"contradictions {t['contradictions']} · beyond budget {t['beyond_budget']} · orphans {t['orphans']}",
           "", "_Mechanical checks of MEMORY.md and `.chord/memory/records/` against the tree; nothing was changed._",
           "", "| # | entry | source | evidence | findings |", "|---|---|---|---|---|"]
    for e in report.entries:
        findings = "<br>".join(f"**{f.kind}**: {_md(f.message)}" for f in e.findings) or "—"
        out.append(f"| {e.position} | `{e.id}` {_md(e.summary)} | {e.source or '?'}/{e.status or '?'} | "
                   f"{e.evidence} | {findings} |")
    if report.model is not None:
        out += ["", f"### Model-judged pass ({_md(str(report.model.get('model')))}: an opinion, not verified)", ""]
        judged = report.model.get("judged")
        out += [f"- `{item.get('id')}`: {_md(str(item.get('reason')))}" for item in judged] \
            if isinstance(judged, list) and judged else ["- nothing flagged"]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def review_notes(report: Report) -> dict[str, tuple[Finding, ...]]:
    """The findings ``review`` shows next to each entry, by id."""
    return {e.id: e.findings for e in report.entries if e.findings}
