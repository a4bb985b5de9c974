from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.extraction.schema import (
    CandidateRecord,
    ModelOutput,
    Promotion,
    Retirement,
    UnparseableOutput,
    json_schema,
    parse_output,
    response_format,
)

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "data" / "extraction" / "output-schema.json"


def test_good_output_parses(good_output: dict[str, Any]) -> None:
    out = parse_output(json.dumps(good_output))
    assert isinstance(out, ModelOutput)
    assert out.records[0].summary == "Use pnpm, never npm, for JS dependencies."
    assert out.records[0].supersedes is None
    assert out.retire[0].id == "20261101-old-rule-aa11"
    assert out.promotions[0].target == "docs" and out.promotions[0].id is None


def test_empty_lists_are_fine() -> None:
    out = parse_output('{"records": [], "retire": [], "promotions": []}')
    assert out == ModelOutput(records=(), retire=(), promotions=())


def test_chinese_text_survives(good_output: dict[str, Any]) -> None:
    good_output["records"][0]["summary"] = "依赖一律用 pnpm，不要用 npm。"
    out = parse_output(json.dumps(good_output, ensure_ascii=False))
    assert out.records[0].summary == "依赖一律用 pnpm，不要用 npm。"


@pytest.mark.parametrize("wrap", [
    "```json\n{body}\n```",
    "```JSON\n{body}\n```",
    "```\n{body}\n```",
    "  \n```json\n{body}\n```\n  ",
])
def test_fenced_block_is_tolerated(wrap: str, good_output: dict[str, Any]) -> None:
    out = parse_output(wrap.format(body=json.dumps(good_output, indent=2)))
    assert len(out.records) == 1


def _mutate(good: dict[str, Any], change: str) -> Any:
    data = copy.deepcopy(good)
    if change == "extra-top":
        data["notes"] = "x"
    elif change == "extra-record":
        data["records"][0]["confidence"] = 0.9
    elif change == "extra-promotion":
        data["promotions"][0]["title"] = "x"
    elif change == "missing-top":
        del data["retire"]
    elif change == "missing-record":
        del data["records"][0]["why"]
    elif change == "missing-nullable":
        del data["records"][0]["evidence"]
    elif change == "bad-type":
        data["records"][0]["type"] = "opinion"
    elif change == "bad-status":
        data["records"][0]["status"] = "verified"
    elif change == "number-for-string":
        data["records"][0]["summary"] = 42
    elif change == "object-for-list":
        data["records"] = data["records"][0]
    elif change == "bad-target":
        data["promotions"][0]["target"] = "AGENTS.md"
    return data


@pytest.mark.parametrize("change, fragment", [
    ("extra-top", "unknown field 'notes'"),
    ("extra-record", "unknown field 'confidence' in records[0]"),
    ("extra-promotion", "unknown field 'title' in promotions[0]"),
    ("missing-top", "missing field 'retire'"),
    ("missing-record", "missing field 'why' in records[0]"),
    ("missing-nullable", "missing field 'evidence' in records[0]"),
    ("bad-type", "bad value for records[0].type"),
    ("bad-status", "bad value for records[0].status"),
    ("number-for-string", "bad value for records[0].summary"),
    ("object-for-list", "bad value for records"),
    ("bad-target", "bad value for promotions[0].target"),
])
def test_schema_violations_are_unparseable(change: str, fragment: str, good_output: dict[str, Any]) -> None:
    with pytest.raises(UnparseableOutput) as info:
        parse_output(json.dumps(_mutate(good_output, change)))
    assert fragment in info.value.reason
    assert "\n" not in info.value.reason


@pytest.mark.parametrize("text, fragment", [
    ("", "empty reply"),
    ("   \n", "empty reply"),
    ("Sure! Here is the JSON you asked for.", "not JSON"),
    ('{"records": [], "retire": [], "promotions": [', "not JSON"),
    ("[]", "not a JSON object (got array)"),
    ('[{"records": [], "retire": [], "promotions": []}]', "not a JSON object (got array)"),
    ('"records"', "not a JSON object (got string)"),
    ("null", "not a JSON object (got null)"),
    ("42", "not a JSON object (got number)"),
    ('{"records": [], "records": [], "retire": [], "promotions": []}', "duplicate key 'records'"),
    # prose around a fence is more than "a fenced block": refused
    ('Here you go:\n```json\n{"records": [], "retire": [], "promotions": []}\n```', "not JSON"),
    ('{"records": [], "retire": [], "promotions": []}\nHope this helps!', "not JSON"),
])
def test_not_an_output_object(text: str, fragment: str) -> None:
    with pytest.raises(UnparseableOutput) as info:
        parse_output(text)
    assert fragment in info.value.reason


def test_unparseable_is_a_value_error() -> None:
    assert issubclass(UnparseableOutput, ValueError)


def test_reason_does_not_echo_reply_values(good_output: dict[str, Any]) -> None:
    good_output["records"][0]["type"] = "SENTINEL-VALUE-1234"
    with pytest.raises(UnparseableOutput) as info:
        parse_output(json.dumps(good_output))
    assert "SENTINEL" not in info.value.reason


def test_long_unknown_key_is_cut_short() -> None:
    key = "k" * 500
    with pytest.raises(UnparseableOutput) as info:
        parse_output(json.dumps({"records": [], "retire": [], "promotions": [], key: 1}))
    assert len(info.value.reason) < 100


def test_no_coercion() -> None:
    text = json.dumps({"records": [], "retire": [{"id": 7, "reason": "x"}], "promotions": []})
    with pytest.raises(UnparseableOutput, match=r"retire\[0\]\.id"):
        parse_output(text)


# ---------------------------------------------------------------------------- JSON schema
def _objects(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    if schema.get("type") == "object":
        found.append(schema)
        for prop in schema["properties"].values():
            found.extend(_objects(prop))
    if schema.get("type") == "array":
        found.extend(_objects(schema["items"]))
    return found


def test_schema_is_strict_mode_ready() -> None:
    schema = json_schema()
    objects = _objects(schema)
    assert len(objects) == 4
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])


def test_schema_matches_the_models() -> None:
    schema = json_schema()
    props = schema["properties"]
    pairs = [
        (schema, ModelOutput),
        (props["records"]["items"], CandidateRecord),
        (props["retire"]["items"], Retirement),
        (props["promotions"]["items"], Promotion),
    ]
    for sub, model in pairs:
        assert list(sub["properties"]) == list(model.model_fields)
    record = props["records"]["items"]["properties"]
    assert record["evidence"]["type"] == ["string", "null"]
    assert record["type"]["enum"] == ["preference", "fact", "workflow", "lesson"]


def test_schema_is_the_committed_one_byte_for_byte() -> None:
    """The schema is part of every request's static prefix: a change of a word or of key order
    invalidates every cached prefix, so it changes only on purpose, with this file."""
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))  # keeps the file's key order
    sent = json.dumps(json_schema(), ensure_ascii=False)
    assert sent == json.dumps(committed, ensure_ascii=False), (
        f"the output schema changed; if on purpose, write it to {SCHEMA_FILE.name} "
        "(json.dumps(json_schema(), ensure_ascii=False, indent=1))")


def test_schema_agrees_with_parser(good_output: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(json_schema())
    validator.validate(good_output)
    for change in ("extra-top", "extra-record", "missing-record", "bad-type", "number-for-string"):
        bad = _mutate(good_output, change)
        assert not validator.is_valid(bad)
        with pytest.raises(UnparseableOutput):
            parse_output(json.dumps(bad))


def test_response_format_shapes() -> None:
    strict = response_format("json_schema")
    assert strict is not None
    assert strict["type"] == "json_schema"
    assert strict["json_schema"]["name"] == "chord_memory"
    assert strict["json_schema"]["strict"] is True
    assert strict["json_schema"]["schema"] == json_schema()
    assert response_format("json_object") == {"type": "json_object"}
    assert response_format("none") is None
    with pytest.raises(ValueError):
        response_format("xml")


# ---------------------------------------------------------------------------- properties
_text = st.text(max_size=40)
_nullable = st.none() | _text
_record = st.fixed_dictionaries({
    "type": st.sampled_from(["preference", "fact", "workflow", "lesson"]),
    "summary": _text, "statement": _text, "why": _text, "how_to_apply": _text,
    "source": st.sampled_from(["user", "assistant"]),
    "status": st.sampled_from(["stated", "confirmed", "unverified"]),
    "evidence": _nullable, "supersedes": _nullable,
})
_output = st.fixed_dictionaries({
    "records": st.lists(_record, max_size=3),
    "retire": st.lists(st.fixed_dictionaries({"id": _text, "reason": _text}), max_size=2),
    "promotions": st.lists(st.fixed_dictionaries({
        "id": _nullable, "target": st.sampled_from(["instructions", "docs"]),
        "path": _text, "proposed_text": _text, "reason": _text}), max_size=2),
})


@settings(max_examples=60, deadline=None)
@given(_output)
def test_every_schema_valid_object_parses(data: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(json_schema()).validate(data)
    out = parse_output(json.dumps(data, ensure_ascii=False))
    assert out.model_dump(mode="json") == data


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_only_ever_raises_unparseable(text: str) -> None:
    try:
        out = parse_output(text)
    except UnparseableOutput as exc:
        assert exc.reason and "\n" not in exc.reason
    else:
        assert isinstance(out, ModelOutput)
