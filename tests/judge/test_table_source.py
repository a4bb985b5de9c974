"""The refusal slots' patterns share one word-start test per run of fragments (``frames.
table_source``): proven by their matches, against the plain alternation of the same fragments,
on every rule's examples and the dev split's texts, in every language they hold."""
from __future__ import annotations

import json
import re

import pytest

from chord_git.judge import classes, frames
from tests.conftest import REPO_ROOT


def _plain(tables: list[tuple[str, ...]]) -> re.Pattern[str]:
    fragments = sorted({f for table in tables for f in table}, key=lambda f: (-len(f), f))
    return re.compile("|".join(frames.bounded(frames._SCRIPT_SEAM.sub(r"\\s?", f)) for f in fragments),
                      re.IGNORECASE)


def _texts() -> list[str]:
    texts = [t for rule in classes.every_rule() for t in (*rule.examples.match, *rule.examples.benign)]
    for line in (REPO_ROOT / "bench" / "eval" / "judge_dev.jsonl").read_text("utf-8").splitlines():
        case = json.loads(line)
        texts += [turn["content"] for turn in case["turns"]]
        texts += [case["record"][key] for key in ("summary", "statement") if case.get("record")]
    # Word starts the runs share, and do not share, around the seams of scripts and punctuation.
    texts += ["prepush --force-push origin main", "force-pushing", "xforce push", "不要强推main", "main分支强推",
              "ÀDMIN rights", "_admin rights", "1force push", "ſudo rm -rf /"]
    return texts


TEXTS = _texts()


@pytest.mark.parametrize("rule", classes.every_rule(), ids=lambda rule: rule.id)
def test_each_slot_finds_what_the_plain_alternation_finds(rule: frames.Rule) -> None:
    for slot, tables in rule.slots.items():
        plain, shared = _plain(list(tables.values())), re.compile(frames.table_source(tables.values()), re.IGNORECASE)
        for text in TEXTS:
            assert [m.span() for m in shared.finditer(text)] == [m.span() for m in plain.finditer(text)], (slot, text)


def test_runs_share_the_word_start_test() -> None:
    source = frames.table_source([("annihilate", "--force", "delete", "drop")])  # longest first, as read
    assert source.count(frames._HEAD) == 2  # "--force" starts no word: it splits the run in two
    tail = "|".join(frames.bounded(word)[len(frames._HEAD):] for word in ("delete", "drop"))
    assert source.endswith(f"{frames._HEAD}(?:{tail})")
