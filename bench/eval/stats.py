"""Print the make-up of the evaluation set: cases per language, traps per kind, labels per reason.

Run from the repository root: ``python -m bench.eval.stats``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from .fixtures import Case, load_cases


def _chars_sent(case: Case) -> int:
    # What extraction may send of the transcript: user messages, complete assistant replies and
    # compaction summaries (never tool lines or incomplete replies).
    total = 0
    for line in case.session_lines:
        if line["type"] == "message" and line.get("complete", True):
            total += len(line["content"])
        elif line["type"] == "compaction":
            total += len(line["summary"])
    return total


def summarize(cases: list[Case]) -> dict[str, Counter[str]]:
    labels: Counter[str] = Counter()
    for case in cases:
        for label in case.labels:
            labels[f"{label.list}/{label.expected}" + (f"/{label.reason}" if label.reason else "")] += 1
    return {
        "languages": Counter(case.language for case in cases),
        "trap kinds": Counter(trap.kind for case in cases for trap in case.traps),
        "trap kinds (zh)": Counter(trap.kind for case in cases if case.language == "zh" for trap in case.traps),
        "gold types": Counter(item.type for case in cases for item in case.gold),
        "gold statuses": Counter(item.status for case in cases for item in case.gold),
        "labels": labels,
    }


def main(root: Path | None = None) -> None:
    cases = load_cases(root)
    print(f"cases: {len(cases)}  null cases: {sum(case.is_null for case in cases)}  "
          f"gold items: {sum(len(case.gold) for case in cases)}")
    for title, counter in summarize(cases).items():
        print(f"{title}: " + ", ".join(f"{key} {value}" for key, value in sorted(counter.items())))
    sent = sorted(_chars_sent(case) for case in cases)
    print(f"transcript text sent per session: median {sent[len(sent) // 2]} chars "
          f"(~{sent[len(sent) // 2] // 4} tokens), max {sent[-1]} chars (~{sent[-1] // 4} tokens)")


if __name__ == "__main__":
    main()
