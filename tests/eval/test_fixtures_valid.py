"""The extraction evaluation set (bench/eval) is well-formed, honestly labelled and scans clean."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench.eval import label_rules  # noqa: E402
from bench.eval.fixtures import (  # noqa: E402
    ROOT,
    Case,
    load_cases,
    materialize,
    materialize_long,
    read_session,
    write_existing_memory,
)
from bench.eval.secret_values import BUILDERS, PLACEHOLDER, secret_value  # noqa: E402

CASES = load_cases()
IDS = [case.id for case in CASES]
TRAP_KINDS = (
    "unadopted-proposal", "one-off", "transient", "secret", "path", "host", "ip", "sha", "pin",
    "injected", "duplicate", "retraction", "assistant-fact", "contradiction", "bare-confirmation", "permission",
)
DROP_REASONS = ("evidence", "path", "sha", "host", "ip", "transient", "cap", "secret", "duplicate",
                "weak-evidence", "supersede", "permission", "override", "command", *label_rules.ATTRIBUTION_REASONS)
RETIRE_DROP_REASONS = ("retire-user-entry", "retire-unknown-id")
RECORD_KEYS = {"type", "summary", "statement", "why", "how_to_apply", "source", "status", "evidence", "supersedes"}
RETIRE_KEYS = {"id", "reason"}
PROMOTION_KEYS = {"id", "target", "path", "proposed_text", "reason"}
# Kinds detect-secrets recognises on their own (the others need context such as a key name).
DETECTABLE_KINDS = (
    "aws_access_key", "github_pat", "gitlab_pat", "slack_bot", "openai_key", "stripe_live",
    "postgres_url", "pem_private_key", "jwt",
)


def by_id(case_id: str) -> Case:
    return next(case for case in CASES if case.id == case_id)


def test_counts_languages_and_trap_coverage() -> None:
    assert len(CASES) >= 40
    languages = Counter(case.language for case in CASES)
    assert set(languages) == {"en", "zh"}
    assert languages["zh"] >= 12
    kinds = Counter(trap.kind for case in CASES for trap in case.traps)
    assert set(kinds) <= set(TRAP_KINDS), set(kinds) - set(TRAP_KINDS)
    missing = {kind: kinds[kind] for kind in TRAP_KINDS if kinds[kind] < 2}
    assert not missing, missing
    assert sum(case.is_null for case in CASES) >= 2
    assert {g.type for case in CASES for g in case.gold} == {"preference", "fact", "workflow", "lesson"}
    assert {g.status for case in CASES for g in case.gold if g.source == "user"} == {"stated", "confirmed"}
    assert {(g.source, g.status) for case in CASES for g in case.gold if g.source != "user"} == {("assistant", "unverified")}
    assert any(g.supersedes for case in CASES for g in case.gold)
    assert any(case.expected_retire for case in CASES) and any(case.expected_promotions for case in CASES)


def test_every_case_has_all_three_files() -> None:
    stems = {kind: {p.name.split(".")[0] for p in (ROOT / kind).iterdir()} for kind in ("sessions", "gold", "replies")}
    assert stems["sessions"] == stems["gold"] == stems["replies"] == set(IDS)


@pytest.mark.parametrize("case_id", IDS)
def test_session_is_native_jsonl(case_id: str) -> None:
    case = by_id(case_id)
    raw = read_session(case.session_path)
    assert len(raw) == len(case.session_lines)
    first = case.session_lines[0]
    assert first == {"type": "session", "id": first["id"], "frozen": True} and isinstance(first["id"], str)
    shapes = {
        "message": {"type", "role", "content", "complete"},
        "tool_call": {"type", "name", "input"},
        "tool_result": {"type", "content"},
        "compaction": {"type", "summary"},
    }
    for number, line in enumerate(case.session_lines[1:], start=2):
        assert line["type"] in shapes, (number, line["type"])
        assert set(line) == shapes[line["type"]], (number, sorted(line))
        if line["type"] == "message":
            assert line["role"] in ("user", "assistant") and isinstance(line["content"], str)
            assert isinstance(line["complete"], bool)
            assert line["complete"] or line["role"] == "assistant"
        for key in ("name", "input", "content", "summary"):
            if key in line:
                assert isinstance(line[key], str)
    assert case.user_messages, "a session needs at least one user message"


@pytest.mark.parametrize("case_id", IDS)
def test_materialize_writes_expanded_jsonl(case_id: str, tmp_path: Path) -> None:
    case = by_id(case_id)
    path = materialize(case, tmp_path / "sessions")
    lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    assert lines == list(case.session_lines)
    assert "{{SECRET." not in path.read_text(encoding="utf-8")
    try:
        from chord_git.transcripts import load
    except ImportError:
        return
    transcript = load(path, "native")
    assert transcript.frozen
    assert load(path).frozen  # auto-detection must take the fixtures for native transcripts


@pytest.mark.parametrize("case_id", IDS)
def test_gold_evidence_is_verbatim_in_a_user_message(case_id: str) -> None:
    case = by_id(case_id)
    for item in case.gold:
        line = case.session_lines[item.line - 1]
        assert line["type"] == "message" and line["role"] == "user", item
        assert label_rules.fold(item.evidence) in label_rules.fold(line["content"]), item.evidence
        assert not any(secret in item.evidence for secret in case.secrets)
        assert item.type in ("preference", "fact", "workflow", "lesson")
        assert item.status in (("stated", "confirmed") if item.source == "user" else ("unverified",))
        existing_ids = {entry["id"] for entry in case.existing}
        assert item.supersedes is None or item.supersedes in existing_ids


def _check_reply_schema(reply: Any) -> None:
    """A minimal strict check of SPEC's model output, independent of the project's schema module."""
    assert isinstance(reply, dict) and set(reply) == {"records", "retire", "promotions"}
    for record in reply["records"]:
        assert set(record) == RECORD_KEYS, sorted(record)
        assert record["type"] in ("preference", "fact", "workflow", "lesson")
        assert record["source"] in ("user", "assistant")
        assert record["status"] in ("stated", "confirmed", "unverified")
        for key in ("summary", "statement", "why", "how_to_apply"):
            assert isinstance(record[key], str) and record[key]
        assert isinstance(record["evidence"], str)
        assert record["evidence"] or record["source"] == "assistant"
        assert record["supersedes"] is None or isinstance(record["supersedes"], str)
    for retirement in reply["retire"]:
        assert set(retirement) == RETIRE_KEYS and all(isinstance(v, str) for v in retirement.values())
    for promotion in reply["promotions"]:
        assert set(promotion) == PROMOTION_KEYS
        assert promotion["target"] in ("instructions", "docs")
        assert promotion["id"] is None or isinstance(promotion["id"], str)
        assert all(isinstance(promotion[k], str) for k in ("path", "proposed_text", "reason"))


@pytest.mark.parametrize("case_id", IDS)
def test_reply_matches_the_output_schema(case_id: str) -> None:
    case = by_id(case_id)
    raw_text = (ROOT / "replies" / f"{case_id}.json").read_text(encoding="utf-8")
    _check_reply_schema(json.loads(raw_text))
    _check_reply_schema(case.reply)
    try:
        from chord_git.extraction.schema import parse_output
    except ImportError:
        return
    parsed = parse_output(json.dumps(case.reply, ensure_ascii=False))
    assert len(parsed.records) == len(case.reply["records"])


@pytest.mark.parametrize("case_id", IDS)
def test_every_candidate_has_exactly_one_label(case_id: str) -> None:
    case = by_id(case_id)
    labelled = Counter((label.list, label.index) for label in case.labels)
    entries = {(name, index) for name in ("records", "retire", "promotions") for index in range(len(case.reply[name]))}
    assert set(labelled) == entries and all(count == 1 for count in labelled.values())
    for label in case.labels:
        assert label.expected in ("keep", "drop", "model-judgment")
        if label.expected == "drop":
            allowed = DROP_REASONS if label.list == "records" else RETIRE_DROP_REASONS
            assert label.reason in allowed, label
        if label.expected == "model-judgment":
            assert label.reason in TRAP_KINDS, label
    realised = Counter(label.gold for label in case.labels if label.expected == "keep" and label.list == "records")
    assert realised == Counter(range(len(case.gold))), "each gold item needs exactly one keep candidate"


@pytest.mark.parametrize("case_id", IDS)
def test_labels_agree_with_the_deterministic_rules(case_id: str) -> None:
    case = by_id(case_id)
    users, secrets = case.user_messages, list(case.secrets)
    existing = list(case.existing)
    for label, entry in case.candidates():
        if label.list == "records":
            required = label_rules.required_drop_reasons(entry, users, existing, secrets)
            if label.expected == "keep":
                assert not label_rules.strict_problems(entry, users, existing, secrets), entry["summary"]
                gold = case.gold[label.gold]  # type: ignore[index]
                assert (entry["type"], entry["evidence"], entry["status"], entry["supersedes"]) == (
                    gold.type, gold.evidence, gold.status, gold.supersedes)
            elif label.expected == "drop" and label.reason in label_rules.ATTRIBUTION_REASONS:
                found = label_rules.attribution_reasons(entry, users, case.assistant_messages, case.agents_md)
                assert label.reason in found, (entry["summary"], found)
            elif label.expected == "drop":
                assert label.reason in required, (entry["summary"], required)
                if label.reason == "evidence":
                    assert not label_rules.evidence_found_loosely(entry["evidence"], users)
            else:
                assert not required, (entry["summary"], required)
        elif label.list == "retire":
            old = next((e for e in existing if e["id"] == entry["id"]), None)
            if label.expected == "keep":
                assert old and old["source"] == "assistant" and old.get("in_index", True)
                assert entry["id"] in case.expected_retire
            elif label.reason == "retire-user-entry":
                assert old and old["source"] == "user"
            else:
                assert old is None or not old.get("in_index", True)
        else:
            assert not entry["path"].startswith(("/", "~")) and ":" not in entry["path"]


@pytest.mark.parametrize("case_id", IDS)
def test_traps_point_at_real_text(case_id: str) -> None:
    case = by_id(case_id)
    conversation = [line.get("content", "") for line in case.session_lines if line["type"] == "message"]
    tool_output = [line["content"] for line in case.session_lines if line["type"] == "tool_result"]
    history = [line["summary"] for line in case.session_lines if line["type"] == "compaction"]
    existing = {label_rules.fold(e["summary"]) for e in case.existing}
    for trap in case.traps:
        needle = label_rules.fold(trap.text)
        if trap.kind in ("duplicate", "contradiction"):
            assert needle in existing, trap
        elif trap.kind == "injected":
            # Only tool output carries it, so it must never reach the model or memory.
            assert any(needle in label_rules.fold(text) for text in tool_output), trap
            assert not any(needle in label_rules.fold(text) for text in conversation + history), trap
        else:
            assert any(needle in label_rules.fold(text) for text in conversation + history), trap
        if trap.kind == "secret":
            assert trap.text in case.secrets


def test_secret_placeholders_expand_to_format_valid_values(tmp_path: Path) -> None:
    for case in CASES:
        dumped = json.dumps([case.session_lines, case.reply, [t.text for t in case.traps]], ensure_ascii=False)
        assert not PLACEHOLDER.search(dumped), case.id
        for secret in case.secrets:
            assert any(secret in line.get("content", "") for line in case.session_lines), case.id
    assert {kind for kind in BUILDERS} >= set(DETECTABLE_KINDS)
    values = {kind: secret_value("probe", kind) for kind in BUILDERS}
    assert values == {kind: secret_value("probe", kind) for kind in BUILDERS}, "values must be deterministic"
    assert secret_value("probe", "github_pat") != secret_value("probe", "github_pat", "2")
    probe = tmp_path / "probe.txt"
    probe.write_text("".join(f"value = {values[kind]}\n" for kind in DETECTABLE_KINDS), encoding="utf-8")
    found = {finding.line_number for finding in _scan([probe])}
    value_lines = {kind: 1 + sum(values[k].count("\n") + 1 for k in DETECTABLE_KINDS[:i])
                   for i, kind in enumerate(DETECTABLE_KINDS)}
    undetected = [kind for kind, line in value_lines.items() if line not in found]
    assert not undetected, undetected


def _scan(paths: list[Path]) -> list[Any]:
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    secrets = SecretsCollection()
    with default_settings():
        for path in paths:
            secrets.scan_file(str(path))
    return [finding for _name, finding in secrets]


def test_repository_files_scan_clean_with_detect_secrets() -> None:
    files = sorted(p for p in ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files.append(Path(__file__))
    assert len(files) > 3 * len(CASES)
    findings = [(f.filename, f.line_number, f.type) for f in _scan(files)]
    assert findings == []


def test_existing_memory_lays_out_index_and_orphans(tmp_path: Path) -> None:
    cases = [case for case in CASES if case.existing]
    assert any(not entry.get("in_index", True) for case in cases for entry in case.existing)
    for case in cases:
        root = tmp_path / case.id
        written = write_existing_memory(case, root)
        memory = (root / "MEMORY.md").read_text(encoding="utf-8")
        for entry in case.existing:
            assert (root / ".chord" / "memory" / "records" / f"{entry['id']}.md") in written
            assert (f"([{entry['id']}](" in memory) == entry.get("in_index", True)
        try:
            from chord_git.memory import index_file, records
        except ImportError:
            continue
        doc, problems = index_file.parse(memory)
        assert doc is not None and not problems, problems
        for path in written[1:]:
            record, record_problems = records.read(path)
            assert record is not None, record_problems


def test_materialize_long_pads_before_the_case_lines(tmp_path: Path) -> None:
    case = by_id("en-19-long-go-service-compaction")
    path = materialize_long(case, tmp_path, target_bytes=2 * 1024 * 1024)
    size = path.stat().st_size
    assert 1.9 * 1024 * 1024 < size <= 2 * 1024 * 1024
    lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0] == case.session_lines[0]
    assert lines[-len(case.session_lines) + 1:] == list(case.session_lines[1:])


def test_the_set_is_large_bilingual_and_a_third_adversarial() -> None:
    """Attribution (R19, R20): at least 150 sessions, both languages, a third with a model that
    mislabels the assistant's claims, quotes unrelated user turns, restates AGENTS.md or pads."""
    adversarial = [case for case in CASES if any(
        label.reason in label_rules.ATTRIBUTION_REASONS and label.reason != "rediscoverable"
        or (label.reason == "weak-evidence" and case.reply["records"][label.index]["evidence"])
        for label in case.labels if label.expected == "drop")]
    assert len(CASES) >= 150
    assert {case.language for case in CASES} == {"en", "zh"}
    assert 3 * len(adversarial) >= len(CASES)
    reasons = Counter(label.reason for case in CASES for label in case.labels)
    assert all(reasons[reason] >= 10 for reason in label_rules.ATTRIBUTION_REASONS), reasons
