"""Allowlisting users can live with: pragmas in both layers, a baseline of values, an ignore file."""
from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.secrets import scan_added_lines
from chord_git.secrets.verdicts.allow import pragma_lines, value_hash
from chord_git.secrets.verdicts.ignore import IgnoreList, fingerprint, parse
from tests.conftest import venv_tool

from . import fakes as f

TOKEN = f.GITHUB_CLASSIC
OTHER = f.join("gh", "p_", f.body(36, seed=61))
PROSE = "The staging password is " + f.PASSWORD  # layer 1 only
ENTROPY = f'- pasted "{f.body(48, f.B64, seed=62)}" by mistake'  # layer 2 only


def _scan(*lines: str, **kwargs: object) -> list[tuple[int, str]]:
    added = {"MEMORY.md": list(enumerate(lines, start=1))}
    return [(h.line, h.kind) for h in scan_added_lines(added, **kwargs)]  # type: ignore[arg-type]


@pytest.mark.parametrize("pragma", ["<!-- pragma: allowlist secret -->", "# pragma: allowlist secret",
                                    "// pragma: allowlist secret", "<!--pragma: whitelist secret-->"])
@pytest.mark.parametrize("line", [f"token: {TOKEN}", PROSE, ENTROPY])
def test_same_line_pragma_silences_both_layers(pragma: str, line: str) -> None:
    assert _scan(line) != []
    assert _scan(f"{line}  {pragma}") == []


@pytest.mark.parametrize("line", [f"token: {TOKEN}", PROSE, ENTROPY])
def test_nextline_pragma_silences_the_next_line_in_both_layers(line: str) -> None:
    assert _scan("<!-- pragma: allowlist nextline secret -->", line) == []
    assert _scan("# pragma: allowlist nextline secret", line, line) == [(3, _scan(line)[0][1])]


def test_pragmas_need_a_comment_and_nextline_stands_alone() -> None:
    line = f"token: {TOKEN}"
    assert _scan(f"{line} pragma: allowlist secret") != []  # no comment opener: plain text
    assert _scan("see below <!-- pragma: allowlist nextline secret -->", line) != []


def test_nextline_uses_real_line_numbers_not_neighbouring_added_lines() -> None:
    added = {"MEMORY.md": [(3, "<!-- pragma: allowlist nextline secret -->"), (9, f"token: {TOKEN}")]}
    assert [h.line for h in scan_added_lines(added)] == [9]
    assert pragma_lines(added["MEMORY.md"]) == {4}


def test_value_hash_is_detect_secrets_hashed_secret() -> None:
    assert value_hash(TOKEN) == hashlib.sha1(TOKEN.encode()).hexdigest()


@pytest.fixture()
def baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real baseline (the detect-secrets CLI) that lists TOKEN in MEMORY.md and nothing else."""
    exe = venv_tool("detect-secrets")
    (tmp_path / "MEMORY.md").write_text(f"token: {TOKEN}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = subprocess.run([exe, "scan", "MEMORY.md"], check=True, capture_output=True, text=True).stdout
    path = tmp_path / ".secrets.baseline"
    path.write_text(out, encoding="utf-8")
    return path


def test_baseline_allows_the_value_not_the_line(baseline: Path) -> None:
    assert _scan(f"token: {TOKEN}", baseline=baseline) == []
    assert _scan(f"tokens: {TOKEN} and {OTHER}", baseline=baseline) == [(1, "github-token")]
    assert _scan(f"old {TOKEN}, staging password is {f.PASSWORD}", baseline=baseline) == [(1, "password-in-text")]


def test_baseline_exclude_lines_apply_to_layer_1(baseline: Path) -> None:
    data = json.loads(baseline.read_text(encoding="utf-8"))
    data["filters_used"].append({"path": "detect_secrets.filters.regex.should_exclude_line",
                                 "pattern": ["^ACCEPTED:"]})
    baseline.write_text(json.dumps(data), encoding="utf-8")
    assert _scan(f"ACCEPTED: {PROSE}", baseline=baseline) == []
    assert _scan(PROSE, baseline=baseline) == [(1, "password-in-text")]


IGNORE_TEXT = f"""
# findings accepted after review
0123abcd:MEMORY.md:github-token:2   # rotated on 2026-11-02, the old value is dead
MEMORY.md:password-in-text:5        # the lab router, no network access
{value_hash(OTHER)}  # a test fixture value, never a live token
"""


def test_ignore_file_entries() -> None:
    ignore = parse(IGNORE_TEXT)
    assert ignore.ignores("MEMORY.md", "github-token", 2, "0123abcd4567")
    assert not ignore.ignores("MEMORY.md", "github-token", 2, "99999999")
    assert not ignore.ignores("MEMORY.md", "github-token", 2)  # a staged finding is in no commit
    assert ignore.ignores("MEMORY.md", "password-in-text", 5) and ignore.ignores("MEMORY.md", "password-in-text", 5, "abc")
    assert ignore.hashes == {value_hash(OTHER)}


def test_ignore_file_in_both_layers() -> None:
    ignore = parse(IGNORE_TEXT)
    lines = ["intro", f"token: {TOKEN}", "x", "y", PROSE, f"fixture {OTHER}"]
    assert _scan(*lines) == [(2, "github-token"), (5, "password-in-text"), (6, "github-token")]
    assert _scan(*lines, ignore=ignore) == [(2, "github-token")]
    assert _scan(*lines, ignore=ignore, commit="0123abcdef") == []


def test_fingerprints_round_trip() -> None:
    entries = [fingerprint("MEMORY.md", "github-token", 2, "0123abcd"), fingerprint("a/b.md", "jwt", 7)]
    ignore = parse("\n".join(f"{e}  # reviewed" for e in entries))
    assert ignore.ignores("MEMORY.md", "github-token", 2, "0123abcd") and ignore.ignores("a/b.md", "jwt", 7)


@pytest.mark.parametrize("text, line", [
    ("MEMORY.md:github-token:2\n", 1),
    ("# ok\nMEMORY.md:github-token:2   #   \n", 2),
    ("MEMORY.md:github-token:two  # why\n", 1),
    ("just-a-word  # why\n", 1),
])
def test_malformed_ignore_entries_are_input_errors(text: str, line: int) -> None:
    with pytest.raises(InputError) as info:
        parse(text, ".chord/secrets-ignore")
    assert str(info.value).startswith(f".chord/secrets-ignore:{line}: ")


def test_empty_ignore_list_is_falsy() -> None:
    assert not IgnoreList() and parse("# nothing yet\n\n") == IgnoreList()
