"""The frozen held-out memory-judge set (bench/heldout, third edition) is intact and well-formed.

This test reads the set as plain data: it imports nothing from the product or from the dev sets
(bench/eval), so the set stays independent of the rules it is meant to measure. The set was
written by hand, part by part (``hA`` … ``hD``), so there is no generator to rerun: the manifest
is what freezes it.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


REPO_ROOT = Path(__file__).resolve().parents[2]
HELDOUT = REPO_ROOT / "bench" / "heldout"
CASES_PATH = HELDOUT / "cases.jsonl"
MANIFEST = HELDOUT / "MANIFEST.sha256"

LANGUAGES = ("en", "zh", "es", "de", "fr", "ja")
KINDS = ("genuine", "assistant-origin", "refusal", "neighbour", "never-memory")
EXPECTS = ("store-user", "not-user", "refuse", "not-refused")
CASE_KEYS = ("id", "kind", "class", "family", "language", "expect", "turns", "agents_md", "record")
RECORD_KEYS = ("type", "summary", "statement", "why", "how_to_apply", "source", "status", "evidence", "supersedes")
RECORD_TYPES = ("preference", "fact", "workflow", "lesson")
REFUSAL_CLASSES = ("grant", "safety-off", "exfiltration", "fetch-execute", "destructive")
NEVER_CLASSES = ("pin", "flaky", "layout", "outside-path")
ORIGIN_CLASSES = ("specialisation", "assistant-finding", "pasted")
GENUINE_FAMILIES = ("imperative", "category-words", "generalised", "polarity-kept")
PARTS = ("hA", "hB", "hC", "hD")
# Allowed expectations per kind; a neighbour's depends on its class.
KIND_EXPECT = {"genuine": {"store-user"}, "assistant-origin": {"not-user"}, "refusal": {"refuse"},
               "never-memory": {"refuse"}, "neighbour": {"store-user", "not-refused"}}
NEIGHBOUR_EXPECT = {"prohibition": "store-user", "safe-variant": "store-user", "question": "not-refused",
                    "reported": "not-refused", "permanent-pin": "store-user", "project-path": "store-user",
                    "flaky-policy": "store-user"}
# Shapes of real credentials; the set names secret-bearing things (.env, API_TOKEN) but holds no values.
CREDENTIAL_SHAPES = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,}|\bsk-[A-Za-z0-9]{20,}"
    r"|\bxox[abpr]-[A-Za-z0-9-]{10,}|\beyJ[A-Za-z0-9_-]{20,}|[A-Za-z0-9+/]{40,}={0,2}"
    r"|(?:password|passwd|secret|token)\s*[:=]\s*\S{6,}", re.IGNORECASE)


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines()]


CASES = load_cases()
BY_ID = {case["id"]: case for case in CASES}


def of_kind(kind: str) -> list[dict[str, Any]]:
    return [case for case in CASES if case["kind"] == kind]


def user_text(case: dict[str, Any]) -> list[str]:
    return [turn["content"] for turn in case["turns"] if turn["role"] == "user"]


# ---- freeze ----

def test_the_manifest_matches_the_files_byte_for_byte() -> None:
    lines = MANIFEST.read_text(encoding="utf-8").splitlines()
    listed = {}
    for line in lines:
        match = re.fullmatch(r"([0-9a-f]{64}) [ *](\S+)", line)
        assert match, f"not a sha256sum line: {line!r}"
        listed[match.group(2)] = match.group(1)
    assert set(listed) == {"cases.jsonl"}
    for name, digest in listed.items():
        assert hashlib.sha256((HELDOUT / name).read_bytes()).hexdigest() == digest, f"{name} changed since it was frozen"


def test_the_set_is_new_not_a_retired_one() -> None:
    # The retired editions are dev data now; no case of them may come back as held-out.
    for name in ("retired_heldout1", "retired_heldout2"):
        retired = REPO_ROOT / "bench" / "eval" / name / "cases.jsonl"
        old = {json.loads(line)["record"]["evidence"] for line in retired.read_text(encoding="utf-8").splitlines()}
        assert not old & {case["record"]["evidence"] for case in CASES}, name


# ---- schema ----

def test_every_case_has_the_schema() -> None:
    wrong = []
    for case in CASES:
        try:
            check_schema(case)
        except AssertionError as exc:
            wrong.append(f"{case.get('id')}: {exc}")
    assert wrong == []


def check_schema(case: dict[str, Any]) -> None:
    expected_keys = CASE_KEYS + (("neighbour_of",) if case["kind"] == "neighbour" else ())
    assert tuple(case) == expected_keys
    assert re.fullmatch(r"h[A-D]-\d{3}", case["id"])
    assert case["kind"] in KINDS
    assert case["language"] in LANGUAGES
    assert case["expect"] in EXPECTS
    assert case["expect"] in KIND_EXPECT[case["kind"]]
    assert isinstance(case["class"], str) and case["class"]
    assert isinstance(case["family"], str) and case["family"]
    assert isinstance(case["agents_md"], str)
    turns = case["turns"]
    assert isinstance(turns, list) and len(turns) >= 2
    assert turns[0]["role"] == "user"
    for turn in turns:
        assert set(turn) == {"role", "content"}
        assert turn["role"] in ("user", "assistant")
        assert isinstance(turn["content"], str) and turn["content"].strip()
    record = case["record"]
    assert tuple(record) == RECORD_KEYS
    assert record["type"] in RECORD_TYPES
    assert record["source"] in ("user", "assistant")
    assert record["status"] in ("stated", "confirmed", "unverified")
    assert record["supersedes"] is None or isinstance(record["supersedes"], str)
    for field in ("summary", "statement", "why", "how_to_apply", "evidence"):
        assert isinstance(record[field], str) and record[field].strip(), field
    assert len(record["summary"]) <= 160 and "\n" not in record["summary"]
    assert len(record["statement"]) <= 600
    # why and how_to_apply are written out, not copies of the rule
    assert record["why"] not in (record["summary"], record["statement"])
    assert record["how_to_apply"] not in (record["summary"], record["statement"])
    if case["kind"] == "neighbour":
        assert case["expect"] == NEIGHBOUR_EXPECT[case["class"]]


def test_ids_are_unique() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))


def test_every_user_records_evidence_is_verbatim_in_a_user_turn() -> None:
    bad = [case["id"] for case in CASES if case["record"]["source"] == "user"
           and not any(case["record"]["evidence"] in text for text in user_text(case))]
    assert bad == []


def test_every_record_is_labelled_as_the_users_stated_words() -> None:
    # The set asks the judge to decide origin itself: every record claims the user said it.
    assert {(c["record"]["source"], c["record"]["status"]) for c in CASES} == {("user", "stated")}


def test_no_case_holds_anything_shaped_like_a_credential() -> None:
    hits = [(case["id"], m.group(0)[:12]) for case in CASES
            for m in CREDENTIAL_SHAPES.finditer(json.dumps(case, ensure_ascii=False))]
    assert hits == []


# ---- counts ----

def test_genuine_statements_meet_the_minimums() -> None:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in of_kind("genuine"):
        groups[json.dumps(case["turns"], ensure_ascii=False)].append(case)
    assert len(groups) >= 60
    for cases in groups.values():
        assert len(cases) >= 4
        assert len({c["language"] for c in cases}) == 1
        families = {c["family"] for c in cases}
        assert set(GENUINE_FAMILIES) <= families
        if cases[0]["language"] != "en":
            assert "other-language" in families
    per_language = Counter(cases[0]["language"] for cases in groups.values())
    assert per_language["en"] >= 30
    assert per_language["zh"] >= 8
    assert set(per_language) == set(LANGUAGES)


def test_assistant_origin_meets_the_minimums() -> None:
    cases = of_kind("assistant-origin")
    assert len(cases) >= 40
    assert {c["class"] for c in cases} == set(ORIGIN_CLASSES)
    assert len(set(LANGUAGES) - {c["language"] for c in cases}) <= 1
    assert {"en", "zh"} <= {c["language"] for c in cases}
    assert all(c["record"]["source"] == "user" for c in cases)


def test_refusals_meet_the_minimums() -> None:
    cases = of_kind("refusal")
    assert len(cases) >= 150
    per_language = Counter(c["language"] for c in cases)
    assert all(per_language[lang] >= 15 for lang in LANGUAGES), per_language
    assert {c["class"] for c in cases} == set(REFUSAL_CLASSES)
    for lang in LANGUAGES:
        assert {c["class"] for c in cases if c["language"] == lang} == set(REFUSAL_CLASSES), lang
    evidence = [c["record"]["evidence"] for c in cases]
    assert len(evidence) == len(set(evidence)), "a refusal phrasing is repeated"


def test_every_refusal_has_a_neighbour_in_its_part_and_language() -> None:
    neighbours: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in of_kind("neighbour"):
        target = BY_ID[case["neighbour_of"]]
        assert target["kind"] in ("refusal", "never-memory")
        assert target["language"] == case["language"]
        assert target["id"].split("-")[0] == case["id"].split("-")[0]
        assert case["record"]["evidence"] != target["record"]["evidence"]
        neighbours[target["id"]].append(case)
    refusals = of_kind("refusal")
    assert all(neighbours[c["id"]] for c in refusals)
    assert len(of_kind("neighbour")) >= len(refusals)
    classes = Counter(n["class"] for c in refusals for n in neighbours[c["id"]])
    assert set(classes) == {"prohibition", "question", "reported", "safe-variant"}
    # benign look-alikes that may be dropped but never refused: at least 60 of them
    assert sum(classes[k] for k in ("question", "reported")) >= 60


def test_the_parts_are_all_there() -> None:
    assert {case["id"].split("-")[0] for case in CASES} == set(PARTS)


def test_never_memory_meets_the_minimums() -> None:
    cases = of_kind("never-memory")
    assert len(cases) >= 30
    assert {c["class"] for c in cases} == set(NEVER_CLASSES)
    for lang in ("en", "zh"):
        assert {c["class"] for c in cases if c["language"] == lang} == set(NEVER_CLASSES), lang
    benign = [c for c in of_kind("neighbour") if BY_ID[c["neighbour_of"]]["kind"] == "never-memory"]
    assert {"permanent-pin", "project-path", "flaky-policy"} <= {c["class"] for c in benign}
    assert all(NEIGHBOUR_EXPECT[c["class"]] == c["expect"] for c in benign)
