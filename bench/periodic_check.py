"""Periodic texts read with their stretch cut short against read whole: the findings must match.

Builds texts that repeat a unit (a corpus row, a credential form, an adversarial unit, or a few
of them together, joined by a blank, a line end or punctuation) between a lead and a tail of other
rows, long enough for ``text.periods`` to cut them, and compares the spans layer 1 reports with
the cut against the spans of reading every character (``scan._raw_spans``), in the order
``scan._merge`` reads them (by place and rank; spans at the same place in the order reported).

    python bench/periodic_check.py [--corpus DIR] [--count N] [--seed S]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.secrets import scan  # noqa: E402
from findings_digest import texts  # noqa: E402
from testing.periodic_texts import both_readings, merge_order, periodic  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("CHORD_CORPUS", REPO.parent / "shared" / "corpus" / "secrets")))
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pool = [text[:20000] for _, text in texts(args.corpus) if len(text) >= 8]
    rng = random.Random(args.seed)
    cut = same = refused = 0
    started = time.perf_counter()
    for number in range(args.count):
        text = periodic(rng, pool)
        short, whole = both_readings(text)
        if short is None:
            refused += 1
            continue
        cut += 1
        if merge_order(short) == merge_order(whole):
            same += 1
        else:
            print(f"DIFFER text {number}: {len(short)} spans cut, {len(whole)} whole; merged equal: "
                  f"{scan._merge(short) == scan._merge(whole)}", flush=True)
            Path(f"/tmp/periodic-differ-{args.seed}-{number}.txt").write_text(text, encoding="utf-8")
    print(f"{args.count} periodic texts: {cut} cut ({same} with the same spans as read whole), "
          f"{refused} read whole; {time.perf_counter() - started:.0f} s")
    return 0 if same == cut else 1


if __name__ == "__main__":
    raise SystemExit(main())
