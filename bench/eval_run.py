"""Run the extraction evaluation set (bench/eval/) through the real pipeline, two ways.

**Scripted** (always): for each case, the loopback OpenAI-compatible server answers with
``replies/<case>.json``; the real ``extract_session`` runs on the case's session in a temporary git
repository holding the case's existing memory (orphans included). Each labelled candidate is then
judged by what was written: ``drop`` labels must be blocked (a ``secret`` one also counts as blocked
when no canary value survives in any written file), ``keep`` labels must be written. Goal: 100% and
100%. ``model-judgment`` labels (what only a good model avoids) are reported separately, as are the
retire and promotion labels (applied by index maintenance). Every request body and every file
written is also checked for the case's secret canaries and for tool-result text.

**Endpoint** (when ``CHORD_EVAL_BASE_URL`` and ``CHORD_EVAL_MODEL`` are set; the key is read from
the variable named by ``CHORD_EVAL_API_KEY_ENV``): the same pipeline against a real model. The
records it writes (after the guards) are matched one-to-one with the gold items: a record matches
a gold item when their normalized evidence overlaps (the longest common substring covers at least
60% of the shorter of the two, and at least 8 characters), or else when their normalized statements
have a character-bigram Dice similarity of at least 0.5. Precision and recall are reported overall
and per type (a per-type hit needs the type to agree too), with trap hits, null-session no-op rate
and what the guards dropped. Skipped with a message, exit 0, when the variables are unset.

Usage: python -m bench.eval_run [--mode scripted|endpoint|both] [--verbose] [--json]
Exit 1 when the scripted goal is missed or a canary leaks.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from bench.eval.fixtures import Case, load_cases, materialize, write_existing_memory  # noqa: E402
from chord_git import config as config_mod  # noqa: E402
from chord_git import config_trust  # noqa: E402
from chord_git.errors import ChordError  # noqa: E402
from chord_git.memory import project as project_mod  # noqa: E402
from chord_git.memory.records import normalize_text  # noqa: E402

KEY_VAR = "CHORD_EVAL_FAKE_KEY"
GUARD_REASON: dict[str, str | tuple[str, ...]] = {"evidence": "evidence-not-found", "path": "absolute-path", "sha": "commit-sha",
                "host": "host-name", "ip": "private-ip", "transient": "transient-git-state",
                "weak-evidence": "evidence-too-weak", "supersede": "supersedes-user-record",
                "permission": "permission-grant", "override": "instruction-override",
                "command": ("destructive-command", "fetch-and-execute", "safety-off"),
                "agents-md": "in-agents-md", "contentless": "no-why-or-how", "rediscoverable": "rediscoverable"}
# Labels whose candidate is blocked when it is not stored as the user's: the guards may keep it as
# the assistant's (unverified), which is what attribution by content asks for.
ATTRIBUTION_DROPS = ("evidence", "weak-evidence", "assistant-claim", "unrelated-quote", "not-asserted")


@contextmanager
def _isolated_home() -> Iterator[Path]:
    """Private HOME/XDG dirs so a user config never leaks into the run."""
    saved = {k: os.environ.get(k) for k in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")}
    with tempfile.TemporaryDirectory(prefix="chord-eval-") as tmp:
        os.environ.update(HOME=tmp, XDG_CONFIG_HOME=f"{tmp}/.config", XDG_STATE_HOME=f"{tmp}/.state")
        try:
            yield Path(tmp)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _project(case: Case, base: Path, pool: list[dict[str, Any]]) -> tuple[Path, Path]:
    root = base / case.id / "repo"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    if case.existing:
        write_existing_memory(case, root)
    if case.agents_md:
        (root / "AGENTS.md").write_text(case.agents_md, encoding="utf-8")
    (root / ".chord").mkdir(exist_ok=True)
    config = {"model_pool": pool, "memory": {"enabled": True}}
    config_path = root / ".chord" / "config.yaml"
    config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
    config_trust.allow(config_path, config_path.read_bytes())  # the user's own pool, as `git memory trust`
    return root, materialize(case, base / case.id)


def _extract(root: Path, session: Path, env: dict[str, str]) -> tuple[Any, str | None]:
    from chord_git.extraction.pipeline import extract_session

    project = project_mod.discover(root)
    try:
        return extract_session(project, config_mod.load(project.root), session, env=env), None
    except ChordError as exc:
        return None, str(exc)


def _files_text(root: Path) -> str:
    parts = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".git" not in path.relative_to(root).parts and path.suffix == ".md":
            parts.append(path.read_text("utf-8", "replace"))
    return "\n".join(parts)


def _state_text(root: Path) -> str:
    """The run log, status and queue files in the state directory (inside .git)."""
    state = project_mod.discover(root).state_dir
    return "\n".join(p.read_text("utf-8", "replace") for p in sorted(state.rglob("*")) if p.is_file()) \
        if state.exists() else ""


def _tool_texts(case: Case) -> list[str]:
    return [str(line.get("content", "")) for line in case.session_lines
            if line.get("type") == "tool_result" and len(str(line.get("content", ""))) >= 24]


# ---------------------------------------------------------------------------- scripted mode
def run_scripted(cases: list[Case], verbose: bool) -> dict[str, Any]:
    from testing.fake_openai import FakeOpenAI, Reply

    tally: dict[str, Counter[str]] = defaultdict(Counter)  # label key -> {"blocked"/"kept": n}
    misses: list[str] = []
    leaks: list[str] = []
    reason_agree = Counter[str]()
    tokens: list[int] = []
    attribution: dict[str, Counter[str]] = defaultdict(Counter)
    with _isolated_home() as home, FakeOpenAI() as server:
        for case in cases:
            pool = [{"model": case.id, "base_url": server.base_url, "api_key_env": KEY_VAR, "timeout": 30}]
            root, session = _project(case, home, pool)
            server.script(case.id, Reply(case.reply))
            report, error = _extract(root, session, {KEY_VAR: "eval-placeholder"})
            if report is None:
                misses.append(f"{case.id}: run failed: {error}")
                continue
            tokens.append(report.input_chars // 4)
            kept = {int(r["position"]) for r in report.records}
            sources = {int(r["position"]): str(r["source"]) for r in report.records}
            drops = dict(report.drops)
            written = _files_text(root)
            state = _state_text(root)
            bodies = [json.dumps(r.body, ensure_ascii=False) for r in server.requests if r.model == case.id]
            for value in case.secrets:
                if any(value in body for body in bodies) or value in written or value in state:
                    leaks.append(f"{case.id}: a {len(value)}-character canary left the sanitizer")
            for text in _tool_texts(case):
                if any(text in body for body in bodies):
                    leaks.append(f"{case.id}: tool-result text was sent")
            maintenance = report.maintenance or {}
            _score_case(case, kept, drops, written, maintenance, tally, misses, reason_agree, sources, attribution)
            if verbose:
                print(f"  {case.id}: kept {sorted(kept)} dropped {drops} ~{report.input_chars // 4} tokens")
    return {"tally": tally, "misses": misses, "leaks": leaks, "reason_agree": reason_agree, "tokens": tokens,
            "attribution": attribution}


def _score_case(case: Case, kept: set[int], drops: dict[int, str], written: str, maintenance: dict[str, Any],
                tally: dict[str, Counter[str]], misses: list[str], reason_agree: Counter[str],
                sources: dict[int, str] | None = None, attribution: dict[str, Counter[str]] | None = None) -> None:
    sources = sources or {}
    if attribution is not None:
        _score_attribution(case, kept, sources, attribution)
    retired = {item["id"] for item in maintenance.get("retired", [])}
    refused_promotions = {item["index"] for item in maintenance.get("dropped_promotions", [])}
    promoted = bool(maintenance.get("promotions"))
    for label, cand in case.candidates():
        if label.list == "records":
            survived = label.index in kept
            if label.expected == "drop" and label.reason in ATTRIBUTION_DROPS and survived:
                survived = sources.get(label.index) == "user"  # kept as the assistant's: not the user's
            if label.expected == "keep" and survived and label.gold is not None:
                survived = sources.get(label.index, "user") == case.gold[label.gold].source
            if label.expected == "drop" and label.reason == "secret" and survived:
                survived = any(value in written for value in case.secrets)
            outcome = "kept" if survived else "blocked"
            if label.expected == "drop" and not survived and label.index in drops:
                want = GUARD_REASON.get(label.reason, label.reason)
                wanted = want if isinstance(want, tuple) else (want,)
                reason_agree["same" if drops[label.index] in wanted else "other"] += 1
        elif label.list == "retire":
            outcome = "kept" if cand["id"] in retired else "blocked"
        else:
            outcome = "kept" if promoted and label.index not in refused_promotions else "blocked"
        key = f"{label.list}/{label.expected}" + (f"/{label.reason}" if label.reason else "")
        tally[key][outcome] += 1
        bad = (label.expected == "keep" and outcome == "blocked") or (label.expected == "drop" and outcome == "kept")
        if bad:
            misses.append(f"{case.id}: {label.list}[{label.index}] expected {label.expected}"
                          f"{' (' + label.reason + ')' if label.reason else ''}, got {outcome}"
                          f"{' as ' + drops[label.index] if label.index in drops and label.list == 'records' else ''}")


def _score_attribution(case: Case, kept: set[int], sources: dict[int, str],
                       attribution: dict[str, Counter[str]]) -> None:
    """The guard-mode figures of attribution, per category and per language (BENCHMARKS.md)."""
    from bench.eval.label_rules import ATTRIBUTION_REASONS

    for label, _cand in case.candidates():
        if label.list != "records":
            continue
        written = label.index in kept
        source = sources.get(label.index)
        if label.expected == "keep" and label.gold is not None:
            want = case.gold[label.gold].source
            category = "genuine-user" if want == "user" else "adopted-proposal"
            outcome = "kept-right-source" if written and source == want else "lost"
        elif label.expected == "drop" and (label.reason in ATTRIBUTION_REASONS or label.reason in ("evidence", "weak-evidence")):
            category = label.reason
            outcome = "stored-as-user" if written and source == "user" else "stored-as-assistant" if written else "not-written"
        else:
            continue
        for key in (category, f"{category} ({case.language})"):
            attribution[key]["total"] += 1
            attribution[key][outcome] += 1
        if outcome == "stored-as-user":
            attribution["violations"]["assistant-or-unasserted-stored-as-user"] += 1
        if written and label.reason == "agents-md":
            attribution["violations"]["agents-md-restated"] += 1
        if written and label.reason == "contentless":
            attribution["violations"]["contentless-body"] += 1


def print_attribution(result: dict[str, Any]) -> None:
    figures: dict[str, Counter[str]] = result["attribution"]
    if not figures:
        return
    print("Attribution (guard mode), per category: written as the user's / as the assistant's / not written")
    for category in sorted(k for k in figures if k != "violations"):
        c = figures[category]
        if "kept-right-source" in c or "lost" in c:
            print(f"  {category:<34} kept with the right source {c['kept-right-source']}/{c['total']}"
                  f" ({100 * c['kept-right-source'] / max(c['total'], 1):.1f}%)")
        else:
            print(f"  {category:<34} {c['stored-as-user']} / {c['stored-as-assistant']} / {c['not-written']}"
                  f" of {c['total']}")
    v = figures.get("violations", Counter())
    print(f"  assistant claims (or unasserted quotes) stored as user-sourced: {v['assistant-or-unasserted-stored-as-user']}")
    print(f"  AGENTS.md restatements written: {v['agents-md-restated']}")
    print(f"  contentless bodies written: {v['contentless-body']}")


def print_scripted(result: dict[str, Any]) -> bool:
    tally: dict[str, Counter[str]] = result["tally"]

    def share(prefix: str, outcome: str) -> tuple[int, int]:
        rows = [c for key, c in tally.items() if key.startswith(prefix)]
        return sum(c[outcome] for c in rows), sum(sum(c.values()) for c in rows)

    blocked, bad = share("records/drop", "blocked")
    kept, good = share("records/keep", "kept")
    print("Scripted replies (guards), bench/eval:")
    print(f"  bad candidates blocked:  {blocked}/{bad} ({100 * blocked / max(bad, 1):.1f}%)")
    print(f"  good candidates kept:    {kept}/{good} ({100 * kept / max(good, 1):.1f}%)")
    for prefix, name in (("retire/drop", "bad retirements refused"), ("retire/keep", "good retirements applied"),
                         ("promotions/keep", "promotions written")):
        outcome = "blocked" if "drop" in prefix else "kept"
        n, total = share(prefix, outcome)
        if total:
            print(f"  {name + ':':<24} {n}/{total}")
    print("  per label (blocked/total):")
    for key in sorted(tally):
        if key.startswith("records/drop") or key.startswith("records/model-judgment"):
            counts = tally[key]
            print(f"    {key:<40} {counts['blocked']}/{sum(counts.values())}")
    agree = result["reason_agree"]
    print(f"  drop reason equal to the label's: {agree['same']}/{agree['same'] + agree['other']}"
          " (first reason wins; the rest are blocked for another reason too)")
    print(f"  secret or tool-text leaks: {len(result['leaks'])}")
    tokens = result["tokens"]
    if tokens:
        from chord_git.extraction.prompt import SYSTEM_PROMPT

        static = len(SYSTEM_PROMPT) // 4
        print(f"  input tokens per session (chars/4): median {statistics.median(tokens):.0f}, "
              f"min {min(tokens)}, max {max(tokens)}, total {sum(tokens)} over {len(tokens)} sessions;")
        print(f"    of which {static} are the static instructions (identical in every request: cacheable), "
              f"so the session material is median {statistics.median(tokens) - static:.0f}")
    for line in result["misses"] + result["leaks"]:
        print(f"  MISS {line}")
    return not result["misses"] and not result["leaks"]


# ---------------------------------------------------------------------------- endpoint mode
def _bigrams(text: str) -> Counter[str]:
    folded = normalize_text(text).replace(" ", "")
    return Counter(folded[i:i + 2] for i in range(len(folded) - 1))


def dice(a: str, b: str) -> float:
    x, y = _bigrams(a), _bigrams(b)
    total = sum(x.values()) + sum(y.values())
    return 2 * sum((x & y).values()) / total if total else 0.0


def evidence_overlap(a: str | None, b: str | None) -> bool:
    x, y = normalize_text(a or ""), normalize_text(b or "")
    shorter = min(len(x), len(y))
    if shorter < 8:
        return False
    match = SequenceMatcher(None, x, y, autojunk=False).find_longest_match(0, len(x), 0, len(y))
    return match.size >= max(8, 0.6 * shorter)


def matches(record: dict[str, Any], gold: Any) -> bool:
    return evidence_overlap(record.get("evidence"), gold.evidence) or dice(str(record["statement"]), gold.statement) >= 0.5


def run_endpoint(cases: list[Case], base_url: str, model: str, key_env: str | None, verbose: bool) -> dict[str, Any]:
    hits: dict[str, Counter[str]] = defaultdict(Counter)  # type -> tp_type / pred / gold
    overall = Counter[str]()
    traps = Counter[str]()
    dropped = Counter[str]()
    failures: list[str] = []
    null_clean = null_total = 0
    pool = [{"model": model, "base_url": base_url, "api_key_env": key_env, "timeout": 180}]
    with _isolated_home() as home:
        for case in cases:
            root, session = _project(case, home, pool)
            report, error = _extract(root, session, dict(os.environ))
            if report is None:
                failures.append(f"{case.id}: {error}")
                continue
            dropped.update(report.dropped)
            written = [dict(r) for r in report.records]
            if case.is_null:
                null_total += 1
                null_clean += not written
            unmatched = list(range(len(case.gold)))
            for rec in written:
                hits[str(rec["type"])]["pred"] += 1
                overall["pred"] += 1
                found = next((g for g in unmatched if matches(rec, case.gold[g])), None)
                if found is not None:
                    unmatched.remove(found)
                    overall["tp"] += 1
                    if case.gold[found].type == rec["type"]:
                        hits[str(rec["type"])]["tp"] += 1
                text = normalize_text(" ".join(str(rec.get(k) or "") for k in ("summary", "statement", "evidence")))
                for trap in case.traps:
                    if len(normalize_text(trap.text)) >= 8 and normalize_text(trap.text) in text:
                        traps[trap.kind] += 1
            for item in case.gold:
                hits[item.type]["gold"] += 1
                overall["gold"] += 1
            if verbose:
                print(f"  {case.id}: wrote {len(written)}, gold {len(case.gold)}, dropped {report.dropped}")
    return {"hits": hits, "overall": overall, "traps": traps, "dropped": dropped, "failures": failures,
            "null": (null_clean, null_total)}


def print_endpoint(result: dict[str, Any], model: str) -> None:
    def pr(tp: int, pred: int, gold: int) -> str:
        p = tp / pred if pred else 0.0
        r = tp / gold if gold else 0.0
        return f"precision {p:.2f} ({tp}/{pred})  recall {r:.2f} ({tp}/{gold})"

    o = result["overall"]
    print(f"Real endpoint ({model}):")
    print(f"  overall: {pr(o['tp'], o['pred'], o['gold'])}")
    for kind in sorted(result["hits"]):
        h = result["hits"][kind]
        print(f"  {kind:<11} {pr(h['tp'], h['pred'], h['gold'])}")
    clean, total = result["null"]
    print(f"  null sessions with nothing written: {clean}/{total}")
    print(f"  trap text written: {dict(result['traps']) or 'none'}")
    print(f"  dropped by the guards: {dict(result['dropped']) or 'nothing'}")
    for line in result["failures"]:
        print(f"  FAILED {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("scripted", "endpoint", "both"), default="both")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    cases = load_cases()
    ok = True
    if args.mode in ("scripted", "both"):
        scripted = run_scripted(cases, args.verbose)
        ok = print_scripted(scripted)
        print_attribution(scripted)
    if args.mode in ("endpoint", "both"):
        base_url, model = os.environ.get("CHORD_EVAL_BASE_URL"), os.environ.get("CHORD_EVAL_MODEL")
        if not base_url or not model:
            print("Real endpoint: skipped (set CHORD_EVAL_BASE_URL, CHORD_EVAL_MODEL and "
                  "CHORD_EVAL_API_KEY_ENV, the name of the variable holding the key)")
        else:
            result = run_endpoint(cases, base_url, model, os.environ.get("CHORD_EVAL_API_KEY_ENV"), args.verbose)
            print_endpoint(result, model)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
