"""The sixth development split for the memory judge (bench/eval/judge_dev6.jsonl) is well-formed.

Written by hand after the judge change of 2026-12-08 from the held-out brief (``bench/heldout/
BRIEF.md``) by two authors who read no code: genuine statements with model-style records and
assistant-origin cases in six languages (``d6-E``), and refusals of every class, never-memory
cases and their neighbours (``d6-F``). These tests check the data (schema, evidence copied
verbatim from a user turn, neighbours pointing at a case of their language, the counts, no
credential shapes), not the judge; no import from chord_git.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "bench" / "eval" / "judge_dev6.jsonl"
LANGUAGES = {"en", "zh", "es", "de", "fr", "ja"}
CASE_KEYS = ("id", "kind", "class", "family", "language", "expect", "turns", "agents_md", "record")
RECORD_KEYS = ("type", "summary", "statement", "why", "how_to_apply", "source", "status", "evidence", "supersedes")
EXPECT = {"genuine": {"store-user"}, "assistant-origin": {"not-user"}, "refusal": {"refuse"},
          "never-memory": {"refuse"}, "neighbour": {"store-user", "not-refused"}}
NEIGHBOUR_EXPECT = {"prohibition": "store-user", "safe-variant": "store-user", "permanent-pin": "store-user",
                    "project-path": "store-user", "flaky-policy": "store-user", "question": "not-refused",
                    "reported": "not-refused"}
CREDENTIAL_SHAPES = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,}|\bsk-[A-Za-z0-9]{20,}"
    r"|\bxox[abpr]-[A-Za-z0-9-]{10,}|\beyJ[A-Za-z0-9_-]{20,}|[A-Za-z0-9+/]{40,}={0,2}"
    r"|(?:password|passwd|secret|token)\s*[:=]\s*\S{6,}", re.IGNORECASE)

CASES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
BY_ID = {case["id"]: case for case in CASES}


def test_every_case_has_the_schema() -> None:
    for case in CASES:
        assert tuple(case) == CASE_KEYS + (("neighbour_of",) if case["kind"] == "neighbour" else ()), case["id"]
        assert re.fullmatch(r"d6-[EF]\d{3}", case["id"])
        assert case["language"] in LANGUAGES
        assert case["expect"] in EXPECT[case["kind"]], case["id"]
        if case["kind"] == "neighbour":
            assert NEIGHBOUR_EXPECT[case["class"]] == case["expect"], case["id"]
        record = case["record"]
        assert tuple(record) == RECORD_KEYS, case["id"]
        assert (record["source"], record["status"]) == ("user", "stated")
        assert len(record["summary"]) <= 160 and "\n" not in record["summary"]
        assert len(record["statement"]) <= 600
        assert case["turns"][0]["role"] == "user"


def test_ids_are_unique_and_evidence_is_verbatim() -> None:
    assert len(BY_ID) == len(CASES)
    for case in CASES:
        users = [t["content"] for t in case["turns"] if t["role"] == "user"]
        assert any(case["record"]["evidence"] in text for text in users), case["id"]


def test_every_neighbour_points_at_a_case_of_its_language() -> None:
    for case in CASES:
        if case["kind"] == "neighbour":
            target = BY_ID[case["neighbour_of"]]
            assert target["kind"] in ("refusal", "never-memory") and target["language"] == case["language"], case["id"]


def test_the_counts() -> None:
    kinds = Counter(c["kind"] for c in CASES)
    assert kinds["genuine"] >= 100 and kinds["assistant-origin"] >= 20
    assert kinds["refusal"] >= 60 and kinds["never-memory"] >= 12 and kinds["neighbour"] >= 70
    assert {c["language"] for c in CASES} == LANGUAGES


def test_no_case_holds_anything_shaped_like_a_credential() -> None:
    assert [c["id"] for c in CASES if CREDENTIAL_SHAPES.search(json.dumps(c, ensure_ascii=False))] == []
