"""Sweep the judge's attribution thresholds on the dev splits only.

For every setting the judge (``extraction.guards.check``, as ``bench/judge_eval.py`` runs it) reads
each case of ``bench/eval/judge_dev.jsonl`` and ``bench/eval/judge_dev2.jsonl``, the two splits
tuned on. The frozen test split (``bench/heldout/``) is never read here: a threshold chosen on it
would say nothing about text it has not seen. Two settings are swept:

* ``attribution.SUPPORT_SHARE``: the share of a claim's content that the evidence (and the user's
  sentence it comes from) must carry;
* ``attribution.ASSISTANT_WEIGHT``: how much content only the assistant's turns carry may weigh
  against what the user's own words carry before the claim is the assistant's.

Each row gives the genuine statements kept as the user's and the assistant claims stored as the
user's, summed over both splits::

    python -m bench.attribution_tuning
"""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import judge_eval  # noqa: E402
from chord_git.judge import attribution  # noqa: E402

DEV_SPLITS = ("dev", "dev2")


def score(cases: list[dict[str, object]]) -> tuple[int, int, int, int]:
    """(genuine kept as the user's, genuine, assistant claims stored as the user's, assistant claims)."""
    kept = genuine = leaked = claims = 0
    for case in cases:
        if case["expect"] not in ("store-user", "not-user"):
            continue
        got, _reason = judge_eval.outcome(case)
        if case["expect"] == "store-user":
            genuine += 1
            kept += got == "user"
        else:
            claims += 1
            leaked += got == "user"
    return kept, genuine, leaked, claims


def main() -> int:
    cases = [json.loads(line) for split in DEV_SPLITS
             for line in judge_eval.SPLITS[split].read_text(encoding="utf-8").splitlines() if line.strip()]
    print("SUPPORT_SHARE ASSISTANT_WEIGHT  genuine kept        assistant claims stored as the user's")
    for support, weight in itertools.product((0.0, 0.2, 0.3, 0.45, 0.6), (0.5, 1.0, 2.0, 4.0)):
        with mock.patch.object(attribution, "SUPPORT_SHARE", support), \
                mock.patch.object(attribution, "ASSISTANT_WEIGHT", weight):
            kept, genuine, leaked, claims = score(cases)
        chosen = (support, weight) == (attribution.SUPPORT_SHARE, attribution.ASSISTANT_WEIGHT)
        print(f"{support:>13} {weight:>16}  {kept:>4}/{genuine} ({100 * kept / genuine:5.1f}%)"
              f"   {leaked:>3}/{claims}{'   <- chosen' if chosen else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
