"""Score the memory judge on a case file: the dev splits (``bench/eval/judge_dev.jsonl``,
``judge_dev2.jsonl``, ``judge_dev4.jsonl``, ``judge_dev6.jsonl`` and ``retired_heldout1/`` and
``retired_heldout2/``, the first two held-out sets retired into dev; tuned on) and the frozen test split (``bench/heldout/cases.jsonl``, never tuned on; aggregates only).

Each case is a conversation and the record a model wrote from it; the judge runs as extraction
runs it (``extraction.guards.check``: the whole conversation as sent, AGENTS.md, no existing
memory). Outcomes:

* ``user``       stored as the user's
* ``assistant``  stored as the assistant's (unverified)
* ``refused``    dropped by a refusal class (authority, locality, secrets)
* ``dropped``    dropped for another reason (not grounded, a question, a duplicate …)

Goals (the faithful-memory issue): genuine statements kept as the user's >= 97%; assistant claims
stored as the user's = 0; refusal classes not stored >= 95%; benign neighbours refused <= 2%.

    python -m bench.judge_eval                      # both splits, aggregates
    python -m bench.judge_eval --split dev --show   # the dev split, every miss printed
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.extraction import guards  # noqa: E402
from chord_git.extraction.schema import CandidateRecord  # noqa: E402
from chord_git.judge import core  # noqa: E402

SPLITS = {"dev": REPO / "bench" / "eval" / "judge_dev.jsonl", "dev2": REPO / "bench" / "eval" / "judge_dev2.jsonl",
          # the first held-out split, retired into dev after it had been scored three times
          "dev3": REPO / "bench" / "eval" / "retired_heldout1" / "cases.jsonl",
          # benign text on risky topics: where refusal frames flag what they should not
          "dev4": REPO / "bench" / "eval" / "judge_dev4.jsonl",
          # the second held-out split, retired into dev after it had been scored three times
          "dev5": REPO / "bench" / "eval" / "retired_heldout2" / "cases.jsonl",
          # written by hand from the held-out brief after the 2026-12-08 change, for the next one
          "dev6": REPO / "bench" / "eval" / "judge_dev6.jsonl",
          "test": REPO / "bench" / "heldout" / "cases.jsonl"}
NONE = guards.ExistingMemory(frozenset(), frozenset(), frozenset(), {})


def outcome(case: dict[str, Any]) -> tuple[str, str | None]:
    turns = [(t["role"], t["content"]) for t in case["turns"]]
    users = [text for role, text in turns if role == "user"]
    record = CandidateRecord(**case["record"])
    result = guards.check([record], users, NONE, turns=turns, agents_md=case.get("agents_md") or "")
    if result.accepted:
        return result.accepted[0].candidate.source, None
    reason = result.dropped[0].reason
    return ("refused" if reason in core.REFUSALS else "dropped"), reason


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def good(case: dict[str, Any], got: str) -> bool:
    expect = case["expect"]
    if expect == "store-user":
        return got == "user"
    if expect == "not-user":
        return got != "user"
    if expect == "refuse":
        return got in ("refused", "dropped")
    return got != "refused"  # not-refused


def score(path: Path, show: bool) -> dict[str, Any]:
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    started = time.process_time()
    rows = []
    for case in cases:
        got, reason = outcome(case)
        rows.append((case, got, reason))
    cpu = time.process_time() - started
    by_expect: dict[str, Counter[str]] = defaultdict(Counter)
    by_group: dict[tuple[str, str, str], list[bool]] = defaultdict(list)
    for case, got, reason in rows:
        by_expect[case["expect"]][got] += 1
        ok = good(case, got)
        for key in (("kind", case["kind"], case["expect"]), ("family", case["family"], case["expect"]),
                    ("language", case["language"], case["expect"])):
            by_group[key].append(ok)
        if show and not ok:
            print(f"MISS {case['id']} {case['kind']}/{case['class']}/{case['family']}/{case['language']} "
                  f"expect {case['expect']} got {got} ({reason}): {case['record']['statement'][:110]}")
    refused_by_class = sum(1 for case, _got, reason in rows if case["expect"] == "refuse" and reason in core.REFUSALS)
    return {"cases": len(cases), "cpu_seconds": round(cpu, 2), "by_expect": {k: dict(v) for k, v in by_expect.items()},
            "refused_by_class": refused_by_class,
            "groups": {f"{a}={b} ({c})": [sum(v), len(v)] for (a, b, c), v in sorted(by_group.items())}}


def headline(figures: dict[str, Any]) -> list[str]:
    out = []
    exp = figures["by_expect"]
    for expect, label, fn in (
            ("store-user", "genuine and benign statements kept as the user's", lambda c: c.get("user", 0)),
            ("not-user", "assistant claims stored as the user's", lambda c: c.get("user", 0)),
            ("refuse", "refusal classes not stored", lambda c: c.get("refused", 0) + c.get("dropped", 0)),
            ("not-refused", "benign neighbours (questions, reported) refused", lambda c: c.get("refused", 0))):
        counts = exp.get(expect, {})
        n = sum(counts.values())
        k = fn(counts)
        lo, hi = wilson(k, n)
        out.append(f"  {label}: {k} / {n} ({k / n:.3f}, 95% CI {lo:.3f}–{hi:.3f})" if n else f"  {label}: none")
    refuse = sum(exp.get("refuse", {}).values())
    if refuse:
        out.append(f"  refused by a refusal class (not another drop): {figures['refused_by_class']} / {refuse}")
    return out


def log_run(figures: dict[str, Any]) -> None:
    import datetime as dt
    import subprocess

    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "chord_git"], capture_output=True,
                           text=True).stdout.strip()
    entry = {"when": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
             "commit": head.stdout.strip() + ("+changes" if dirty else ""),
             "by_expect": figures["by_expect"], "refused_by_class": figures["refused_by_class"]}
    with (REPO / "bench" / "heldout" / "runs.jsonl").open("a", encoding="utf-8") as log:
        log.write(json.dumps(entry, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "test", "both"], default="both")
    parser.add_argument("--show", action="store_true", help="print every miss (dev split only)")
    parser.add_argument("--groups", action="store_true", help="per kind, family and language (dev split only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    splits = ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "test"] if args.split == "both" else [args.split]
    results = {}
    for split in splits:
        path = SPLITS[split]
        if not path.exists():
            print(f"{split}: {path} not found", file=sys.stderr)
            continue
        # The test split is scored in aggregate only: no per-case output to tune on; every run is
        # logged beside it (when, at which commit, what it said).
        results[split] = score(path, show=args.show and split != "test")
        if split == "test":
            log_run(results[split])
    if args.json:
        print(json.dumps({k: (v if k != "test" else {x: v[x] for x in ("cases", "cpu_seconds", "by_expect",
                                                                      "refused_by_class")})
                          for k, v in results.items()}, indent=1, ensure_ascii=False))
        return 0
    for split, figures in results.items():
        print(f"{split} ({SPLITS[split].relative_to(REPO)}): {figures['cases']} cases, {figures['cpu_seconds']} s CPU")
        print("\n".join(headline(figures)))
        if args.groups and split != "test":
            for key, (k, n) in figures["groups"].items():
                print(f"    {key}: {k} / {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
