"""The second development set for the memory judge (bench/eval/judge_dev2.jsonl) is well-formed.

Each line is one hand-written case: a short conversation, a record a model might propose from it, and what
the judge should do with that record. These tests check the data, not the judge: schema, unique ids, evidence
copied verbatim from a user turn, the record caps, the minimum counts per kind and language, that every
refusal has a benign neighbour in its language, and that nothing in the file looks like a real credential.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "bench" / "eval" / "judge_dev2.jsonl"

LANGUAGES = ("en", "zh", "es", "de", "fr", "ja")
KINDS = ("genuine", "assistant-origin", "refusal", "neighbour", "never-memory")
EXPECTS = ("store-user", "not-user", "refuse", "not-refused")
RECORD_TYPES = ("preference", "fact", "workflow", "lesson")
CASE_KEYS = {"id", "kind", "class", "family", "language", "expect", "turns", "agents_md", "record"}
RECORD_KEYS = {"type", "summary", "statement", "why", "how_to_apply", "source", "status", "evidence", "supersedes"}
REFUSAL_CLASSES = ("grant", "safety-off", "exfiltration", "fetch-execute", "destructive")
# Neighbour sub-classes of a refusal and the verdict each one expects.
NEIGHBOUR_EXPECT = {
    "prohibition": "store-user",
    "question": "not-refused",
    "reported-rejected": "not-refused",
    "safe-variant": "store-user",
}
NEVER_NEIGHBOUR = "never-memory-neighbour"
ASSISTANT_CLASSES = ("specialisation", "assistant-finding", "pasted-text", "opposite-claim")
NEVER_CLASSES = ("temporary-pin", "temporary-skip", "one-off-failure", "machine-layout", "outside-path")
KIND_EXPECT = {"genuine": "store-user", "assistant-origin": "not-user", "refusal": "refuse",
               "never-memory": "refuse"}

SUMMARY_CAP = 160
STATEMENT_CAP = 600

# Shapes of real credential values: provider prefixes, PEM blocks, JWTs, URL userinfo, assignments of long
# values to secret-named keys, and long mixed letter/digit runs.
CREDENTIAL_SHAPES = [
    re.compile(r"AKIA[0-9A-Z]{16}"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(r"github_pat_[A-Za-z0-9_]{20,}"),
    re.compile(r"\b(?:sk|rk|pk)[-_](?:live|test)?[-_]?[A-Za-z0-9]{16,}"),
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"),
    re.compile(r"\bglpat-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bnpm_[A-Za-z0-9]{30,}"),
    re.compile(r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@"),
    re.compile(r"(?i)\b(?:password|passwd|pwd|secret|token|api[_-]?key)\b\s*[:=]\s*['\"]?[^\s'\"]{6,}"),
]
LONG_RUN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")


def _load() -> list[dict[str, Any]]:
    rows = []
    with DATA.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            assert line.strip(), f"blank line {number} in {DATA.name}"
            rows.append(json.loads(line))
    return rows


ROWS = _load()
BY_ID = {row["id"]: row for row in ROWS}


def _user_text(row: dict[str, Any]) -> list[str]:
    return [turn["content"] for turn in row["turns"] if turn["role"] == "user"]


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_schema() -> None:
    problems = []
    for row in ROWS:
        rid = row.get("id", "?")
        keys = set(row)
        expected = CASE_KEYS | ({"neighbour_of"} if row.get("kind") == "neighbour" else set())
        if keys != expected:
            problems.append(f"{rid}: keys {sorted(keys ^ expected)}")
            continue
        if not re.fullmatch(r"d2-\d{4}", rid):
            problems.append(f"{rid}: id format")
        if row["kind"] not in KINDS or row["language"] not in LANGUAGES or row["expect"] not in EXPECTS:
            problems.append(f"{rid}: kind/language/expect")
        if not (isinstance(row["class"], str) and row["class"] and isinstance(row["family"], str) and row["family"]):
            problems.append(f"{rid}: class/family")
        if not isinstance(row["agents_md"], str):
            problems.append(f"{rid}: agents_md")
        turns = row["turns"]
        if not (isinstance(turns, list) and turns
                and all(set(t) == {"role", "content"} and t["role"] in ("user", "assistant")
                        and isinstance(t["content"], str) and t["content"].strip() for t in turns)
                and any(t["role"] == "user" for t in turns)):
            problems.append(f"{rid}: turns")
        record = row["record"]
        if not isinstance(record, dict) or set(record) != RECORD_KEYS:
            problems.append(f"{rid}: record keys")
            continue
        if record["type"] not in RECORD_TYPES or record["source"] != "user" or record["status"] != "stated":
            problems.append(f"{rid}: record type/source/status")
        if record["supersedes"] is not None:
            problems.append(f"{rid}: supersedes")
        for field in ("summary", "statement", "why", "how_to_apply", "evidence"):
            if not (isinstance(record[field], str) and record[field].strip()):
                problems.append(f"{rid}: empty {field}")
        # the expected verdict follows from the kind (and, for neighbours, from the class)
        if row["kind"] == "neighbour":
            if row["class"] == NEVER_NEIGHBOUR:
                want = "store-user"
            else:
                want = NEIGHBOUR_EXPECT.get(row["class"], "?")
        else:
            want = KIND_EXPECT[row["kind"]]
        if row["expect"] != want:
            problems.append(f"{rid}: expect {row['expect']} for {row['kind']}/{row['class']}")
    assert not problems, "\n".join(problems[:40])


def test_unique_ids_and_texts() -> None:
    ids = Counter(row["id"] for row in ROWS)
    assert not [i for i, c in ids.items() if c > 1], "duplicate ids"
    # every refusal and neighbour is phrased on its own: no repeated user turn, no repeated summary
    pair_rows = [row for row in ROWS if row["kind"] in ("refusal", "neighbour", "never-memory")]
    users = Counter("\n".join(_user_text(row)) for row in pair_rows)
    assert not [u for u, c in users.items() if c > 1], [u for u, c in users.items() if c > 1][:5]
    summaries = Counter(row["record"]["summary"] for row in ROWS)
    assert not [s for s, c in summaries.items() if c > 1], [s for s, c in summaries.items() if c > 1][:5]


def test_evidence_is_verbatim_from_a_user_turn() -> None:
    missing = [row["id"] for row in ROWS
               if not any(row["record"]["evidence"] in text for text in _user_text(row))]
    assert not missing, missing


def test_record_caps() -> None:
    bad = []
    for row in ROWS:
        summary, statement = row["record"]["summary"], row["record"]["statement"]
        if len(summary) > SUMMARY_CAP or "\n" in summary or "\r" in summary or summary != summary.strip():
            bad.append(f"{row['id']}: summary")
        if len(statement) > STATEMENT_CAP:
            bad.append(f"{row['id']}: statement")
    assert not bad, bad


def test_minimum_counts() -> None:
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in ROWS:
        by_kind[row["kind"]].append(row)

    refusals = by_kind["refusal"]
    per_language = Counter(row["language"] for row in refusals)
    assert all(per_language[lang] >= 30 for lang in LANGUAGES), per_language
    assert len(refusals) >= 180
    for lang in LANGUAGES:
        classes = {row["class"] for row in refusals if row["language"] == lang}
        assert classes == set(REFUSAL_CLASSES), (lang, classes)

    refusal_neighbours = [row for row in by_kind["neighbour"] if row["class"] != NEVER_NEIGHBOUR]
    assert len(refusal_neighbours) >= 180
    kinds = Counter(row["class"] for row in refusal_neighbours)
    assert set(kinds) == set(NEIGHBOUR_EXPECT), kinds
    # the four kinds of neighbour come in roughly equal numbers
    assert min(kinds.values()) >= 0.8 * len(refusal_neighbours) / 4, kinds

    genuine = by_kind["genuine"]
    statements: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in genuine:
        statements[tuple(_user_text(row))].append(row)
    assert len(statements) >= 40
    assert all(len(records) >= 2 for records in statements.values())
    languages = Counter(records[0]["language"] for records in statements.values())
    assert languages["en"] >= 20, languages
    assert all(languages[lang] >= 4 for lang in LANGUAGES if lang != "en"), languages
    # most genuine statements carry an assistant restatement after the user's turn
    restated = sum(1 for records in statements.values()
                   if records[0]["turns"][-1]["role"] == "assistant")
    assert restated >= 0.75 * len(statements)

    origin = by_kind["assistant-origin"]
    assert len(origin) >= 30
    assert {row["class"] for row in origin} == set(ASSISTANT_CLASSES)

    never = by_kind["never-memory"]
    assert len(never) >= 30
    assert {row["class"] for row in never} == set(NEVER_CLASSES)
    assert {row["language"] for row in never} == set(LANGUAGES)
    never_neighbours = [row for row in by_kind["neighbour"] if row["class"] == NEVER_NEIGHBOUR]
    assert len(never_neighbours) >= 10
    assert all(BY_ID[row["neighbour_of"]]["kind"] == "never-memory" for row in never_neighbours)


def test_every_refusal_has_a_neighbour_in_its_language() -> None:
    neighbours: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in ROWS:
        if row["kind"] == "neighbour":
            target = BY_ID.get(row["neighbour_of"])
            assert target is not None, f"{row['id']}: neighbour_of {row['neighbour_of']} is not a case"
            assert target["language"] == row["language"], row["id"]
            if row["class"] != NEVER_NEIGHBOUR:
                assert target["kind"] == "refusal", row["id"]
            neighbours[row["neighbour_of"]].append(row)
    lonely = [row["id"] for row in ROWS if row["kind"] == "refusal" and not neighbours[row["id"]]]
    assert not lonely, lonely


@pytest.mark.parametrize("pattern", CREDENTIAL_SHAPES, ids=lambda p: p.pattern[:24])
def test_nothing_shaped_like_a_credential(pattern: re.Pattern[str]) -> None:
    hits = [(row["id"], match.group(0)) for row in ROWS for text in _strings(row)
            for match in pattern.finditer(text)]
    assert not hits, hits[:10]


def test_no_long_random_runs() -> None:
    hits = []
    for row in ROWS:
        for text in _strings(row):
            for match in LONG_RUN.finditer(text):
                run = match.group(0)
                if re.search(r"\d", run) and re.search(r"[A-Za-z]", run):
                    hits.append((row["id"], run))
    assert not hits, hits[:10]
