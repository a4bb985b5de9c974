"""How the attribution thresholds were chosen: a sweep over them on the evaluation set (bench/eval).

For every case the deterministic guards (``extraction.guards.check``) judge the scripted reply
against the case's conversation, AGENTS.md and existing memory, once per setting of the three
thresholds of ``extraction.claims``: the least share of a claim the user's turns carry
(``USER_SHARE``), the share the evidence must carry (``SUPPORT_SHARE``), and how much content
only the assistant's turns carry may weigh against the user's (``ASSISTANT_WEIGHT``). Each row
gives the genuine user statements kept as the user's, and the candidates labelled for an
attribution reason that were stored as the user's anyway. The chosen setting keeps every genuine
statement with no such candidate stored, with a margin on both sides.

Usage: python -m bench.attribution_tuning. Guards only (no model, no git): a few seconds a row.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.eval.fixtures import Case, load_cases  # noqa: E402
from bench.eval.label_rules import ATTRIBUTION_REASONS  # noqa: E402
from chord_git.extraction import claims, guards  # noqa: E402
from chord_git.extraction.schema import CandidateRecord  # noqa: E402
from chord_git.memory import records  # noqa: E402

ATTRIBUTION_DROPS = (*ATTRIBUTION_REASONS, "evidence", "weak-evidence")


def _existing(case: Case) -> guards.ExistingMemory:
    texts = {records.normalize_text(e[k]) for e in case.existing for k in ("summary", "statement")}
    listed = frozenset(e["id"] for e in case.existing if e.get("in_index", True))
    return guards.ExistingMemory(frozenset(texts), listed, frozenset(e["id"] for e in case.existing),
                                 {e["id"]: e["source"] for e in case.existing},
                                 {e["id"]: f"{e['summary']}\n{e['statement']}" for e in case.existing},
                                 {e["id"]: (e["summary"], e["statement"]) for e in case.existing})


def score(cases: list[Case]) -> tuple[int, int, int]:
    """(genuine user statements kept as the user's, their number, attribution drops stored as the user's)."""
    kept = total = leaked = 0
    for case in cases:
        turns = tuple((line["role"], line["content"]) for line in case.session_lines
                      if line["type"] == "message" and line.get("complete", True))
        candidates = [CandidateRecord(**r) for r in case.reply["records"]]
        result = guards.check(candidates, case.user_messages, _existing(case), turns=turns, agents_md=case.agents_md)
        sources = {a.position: a.candidate.source for a in result.accepted}
        for label in case.labels:
            if label.list != "records":
                continue
            if label.expected == "keep" and label.gold is not None and case.gold[label.gold].source == "user":
                total += 1
                kept += sources.get(label.index) == "user"
            elif label.expected == "drop" and label.reason in ATTRIBUTION_DROPS:
                leaked += sources.get(label.index) == "user"
    return kept, total, leaked


def main() -> int:
    cases = load_cases()
    print("USER_SHARE SUPPORT_SHARE ASSISTANT_WEIGHT  genuine kept   attribution drops stored as the user's")
    for user_share, support, weight in itertools.product((0.0, 0.25, 0.4, 0.5), (0.0, 0.3, 0.45), (0.5, 1.0, 4.0)):
        with mock.patch.object(claims, "USER_SHARE", user_share), mock.patch.object(claims, "SUPPORT_SHARE", support), \
                mock.patch.object(claims, "ASSISTANT_WEIGHT", weight):
            kept, total, leaked = score(cases)
        chosen = (user_share, support, weight) == (claims.USER_SHARE, claims.SUPPORT_SHARE, claims.ASSISTANT_WEIGHT)
        print(f"{user_share:>10} {support:>13} {weight:>16}  {kept:>4}/{total} ({100 * kept / total:5.1f}%)"
              f"   {leaked:>3}{'   <- chosen' if chosen else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
