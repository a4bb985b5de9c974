"""Arbitrary bytes into every parser of outside input: a clean result or a clean error, never an
exception escaping (item 11). Index, record, promotion, config, transcript and model reply; then
the same bytes through ``git memory`` in-process."""
from __future__ import annotations

import contextlib
import io
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chord_git import transcripts
from chord_git.memory import summary
from chord_git.errors import ChordError, InputError
from chord_git.extraction.schema import ModelOutput, UnparseableOutput, parse_output
from chord_git.main import main
from chord_git.memory import index_file, promotions, records
from chord_git.memory.index_file import BEGIN, END

# Bytes, plus fragments that steer the parsers somewhere interesting.
FRAGMENTS = [b"---\n", b"\n---\n", BEGIN.encode() + b"\n", END.encode() + b"\n", b"- [fact] x ([abc](.chord/memory/records/abc.md))\n",
             b"id: 20261129-x-0001\n", b"created: 2026-02-30\n", b"&a [*a]\n", b"!!python/name:os.system\n",
             b'{"type":"message","role":"user","content":"hi"}\n', b'{"records": [', b"1" * 5000, b"\xff\xfe",
             b"\xef\xbb\xbf", b"\r\n", "长期记忆".encode(), b"## Conclusion\n"]
blobs = st.lists(st.one_of(st.binary(max_size=80), st.sampled_from(FRAGMENTS)), max_size=8).map(b"".join)
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(blobs)
def test_index_parser(data: bytes) -> None:
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text, bom=bom)
    assert doc is not None or problems
    if doc is not None and not problems:
        assert index_file.encode(index_file.render(doc), bom) == data or not doc.has_markers


@SETTINGS
@given(blobs)
def test_summary_reader(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("s") / "MEMORY.md"
    path.write_bytes(data)
    result = summary.build(path, budget=500, extraction_enabled=False)
    assert len(result.text) < 500 + len(summary.MEMORY_DISCIPLINE) + 200


@SETTINGS
@given(blobs)
def test_record_and_promotion_readers(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("r") / "20261129-fuzz-0001.md"
    path.write_bytes(data)
    record, problems = records.read(path)
    assert (record is None) == bool(problems)
    promotion, problems = promotions.read(path)
    assert (promotion is None) == bool(problems)


@SETTINGS
@given(blobs, st.sampled_from(("auto", *transcripts.FORMATS)))
def test_transcript_reader(tmp_path_factory: pytest.TempPathFactory, data: bytes, fmt: str) -> None:
    path = tmp_path_factory.mktemp("t") / "session.jsonl"
    path.write_bytes(data)
    try:
        transcripts.load(path, fmt)
    except InputError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(st.one_of(blobs.map(lambda b: b.decode("utf-8", "replace")),
                 st.sampled_from(['{"records": 1' + "1" * 5000 + ', "retire": [], "promotions": []}',
                                  '{"records": [], "retire": [], "promotions": [], "x": 1e99999}'])))
def test_model_reply_parser(text: str) -> None:
    try:
        assert isinstance(parse_output(text), ModelOutput)
    except UnparseableOutput as exc:
        assert "\n" not in exc.reason


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=blobs, record=blobs, promotion=blobs, config=blobs,
       command=st.sampled_from([("check",), ("summary",), ("status",), ("review", "list", "--json")]))
def test_cli_never_lets_an_exception_escape(tmp_path_factory: pytest.TempPathFactory, index: bytes, record: bytes,
                                            promotion: bytes, config: bytes, command: tuple[str, ...]) -> None:
    root = tmp_path_factory.mktemp("cli")
    (root / ".chord" / "memory" / "records").mkdir(parents=True)
    (root / ".chord" / "memory" / "promotions").mkdir()
    (root / "MEMORY.md").write_bytes(index)
    (root / ".chord" / "memory" / "records" / "20261129-fuzz-0001.md").write_bytes(record)
    (root / ".chord" / "memory" / "promotions" / "20261129-fuzz-0002.md").write_bytes(promotion)
    (root / ".chord" / "config.yaml").write_bytes(config)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["-C", str(root), *command])
    except ChordError:  # pragma: no cover - main turns these into exit codes
        raise AssertionError("a ChordError escaped main") from None
    finally:
        os.chdir(cwd)
    assert code in (0, 1, 2)
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert err.getvalue().count("\n") <= 2
