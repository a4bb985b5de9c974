"""Fingerprints and ``.chord/secrets-ignore`` in ``check`` and ``scan``; the project config as a
checked file; and what each command does with a config the loader refuses (issue 10, item 3-4).
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from chord_git.commands.check import check
from chord_git.commands.scan import scan
from chord_git.main import main
from testing.commands import run
from testing.gitutil import git
from tests.check.helpers import (
    RECORDS,
    aws_key_id,
    github_token,
    head,
    index_text,
    json_findings,
    memory_repo,
    record_id,
    record_text,
    token_line_number,
    write,
)

CONFIG = ".chord/config.yaml"
PASSWORD = "Tr0ub4dor-3x-staging"  # a prose password: fine to hold in this repository


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    return memory_repo(tmp_path / "repo")


def two_leaks(repo: Path) -> tuple[str, int, int]:
    """A record with a GitHub token on one line and an AWS key id on another; its path and lines."""
    statement = f"Deploy with GITHUB_TOKEN={github_token()} from the runner."
    text = record_text("deploy", statement) + f"\nThe mirror uses {aws_key_id()} as its key id.\n"
    rel = f"{RECORDS}/{record_id('deploy')}.md"
    write(repo, rel, text)
    write(repo, "MEMORY.md", index_text("deploy"))
    return rel, token_line_number(text, github_token()), token_line_number(text, aws_key_id())


def fingerprints(stdout: str) -> list[str]:
    return re.findall(r"^    fingerprint: (\S+)$", stdout, re.MULTILINE)


# ---------------------------------------------------------------------------- fingerprints
def test_check_prints_each_secret_fingerprint_and_the_ignore_file_accepts_it(mrepo: Path) -> None:
    rel, token_line, key_line = two_leaks(mrepo)
    text = run(check, mrepo)
    assert text.returncode == 1
    prints = fingerprints(text.stdout)
    assert f"{rel}:github-token:{token_line}" in prints and len(prints) == 2
    assert github_token() not in text.stdout and aws_key_id() not in text.stdout
    as_json = run(check, mrepo, fmt="json").json()["findings"]
    assert sorted(f["fingerprint"] for f in as_json) == sorted(prints)

    # One entry, copied from the output, with the comment every entry needs.
    write(mrepo, ".chord/secrets-ignore", f"{rel}:github-token:{token_line}  # revoked, kept as an example\n")
    after = run(check, mrepo, fmt="json").json()["findings"]
    assert [(f["line"], f["kind"]) for f in after] == [(key_line, "aws-access-key-id")]
    write(mrepo, ".chord/secrets-ignore", "".join(f"{p}  # test fixture\n" for p in prints))
    assert run(check, mrepo).returncode == 0


def test_a_value_hash_entry_accepts_the_value_wherever_it_is(mrepo: Path) -> None:
    two_leaks(mrepo)
    sha1 = hashlib.sha1(aws_key_id().encode()).hexdigest()
    write(mrepo, ".chord/secrets-ignore", f"{sha1}  # AWS documentation key id\n")
    kinds = [f["kind"] for f in run(check, mrepo, fmt="json").json()["findings"]]
    assert kinds == ["github-token"]


@pytest.mark.parametrize("text, line", [
    ("MEMORY.md:github-token:3\n", 1),  # no comment
    ("# header\nMEMORY.md:github-token:3 #   \n", 2),  # an empty comment
    ("MEMORY.md:github-token  # no line\n", 1),
])
def test_a_malformed_ignore_file_is_exit_2_naming_the_line(mrepo: Path, text: str, line: int) -> None:
    two_leaks(mrepo)
    write(mrepo, ".chord/secrets-ignore", text)
    result = run(check, mrepo)
    assert result.returncode == 2 and f"secrets-ignore:{line}: " in result.stderr


def test_scan_fingerprints_name_the_commit_and_match_only_there(mrepo: Path) -> None:
    rel, token_line, _ = two_leaks(mrepo)
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "-m", "leak")
    leak = head(mrepo)
    code, found, stdout = json_findings(mrepo, "scan", "--all")
    mine = f"{leak}:{rel}:github-token:{token_line}"
    assert code == 1 and mine in [f["fingerprint"] for f in found]
    assert mine in fingerprints(run(scan, mrepo, all_history=True).stdout)

    # An abbreviated commit matches that commit only; the ignore file is read from the work tree.
    write(mrepo, ".chord/secrets-ignore", f"{leak[:10]}:{rel}:github-token:{token_line}  # rotated\n")
    kinds = [f["kind"] for f in json_findings(mrepo, "scan", "--all")[1]]
    assert kinds == ["aws-access-key-id"]
    write(mrepo, ".chord/secrets-ignore", f"{'0' * 12}:{rel}:github-token:{token_line}  # another commit\n")
    assert "github-token" in [f["kind"] for f in json_findings(mrepo, "scan", "--all")[1]]


# ---------------------------------------------------------------------------- the config file
def test_staged_config_with_a_secret_is_blocked_and_never_echoed(mrepo: Path) -> None:
    write(mrepo, CONFIG, f"model_pool:\n  - model: m\n    base_url: https://x.example/v1\n# old: {github_token()}\n")
    git(mrepo, "add", "-A")
    code, found, stdout = json_findings(mrepo, "check", "--staged")
    assert code == 1
    assert [(f["path"], f["line"], f["kind"]) for f in found] == [(CONFIG, 4, "github-token")]
    assert github_token() not in stdout and github_token()[4:20] not in stdout


@pytest.mark.parametrize("text, line, words", [
    ("memory:\n  enabled: sure\n", 2, "memory.enabled must be true or false"),
    ("model_pool:\n  - model: m\n    api_key_env: not a name\n", 3, "NAME of an environment variable"),
    ("model_pool:\n  - model: m\n    api_key: x\n", 3, "literal credential"),
])
def test_a_config_the_loader_refuses_is_a_check_finding(mrepo: Path, text: str, line: int, words: str) -> None:
    write(mrepo, CONFIG, text)
    result = run(check, mrepo, fmt="json")
    found = result.json()["findings"]
    assert result.returncode == 1
    assert [(f["path"], f["line"], f["kind"]) for f in found] == [(CONFIG, line, "config")]
    assert words in found[0]["message"]
    assert "hunter2" not in result.stdout and "not a name" not in result.stdout


def test_a_secret_in_the_config_is_reported_once_by_the_secret_layers(mrepo: Path) -> None:
    write(mrepo, CONFIG, f"reasoning_effort: low\n# staging password: {PASSWORD}\n")
    result = run(check, mrepo, fmt="json")
    found = result.json()["findings"]
    assert [(f["path"], f["line"]) for f in found] == [(CONFIG, 2)] and found[0]["kind"] != "config"
    assert PASSWORD not in result.stdout
    # Accepting the finding does not make the loader accept the file: config never holds secrets.
    write(mrepo, ".chord/secrets-ignore", f"{found[0]['fingerprint']}  # test\n")
    again = run(check, mrepo, fmt="json").json()["findings"]
    assert [(f["line"], f["kind"]) for f in again] == [(2, "config")]


def test_a_good_config_passes_and_counts(mrepo: Path) -> None:
    write(mrepo, CONFIG, "memory:\n  enabled: true\nmodel_pool:\n  - model: m\n    api_key_env: OPENAI_API_KEY\n")
    result = run(check, mrepo)
    assert result.returncode == 0 and "2 memory files checked" in result.stdout


def test_scan_finds_a_secret_a_commit_added_to_the_config(mrepo: Path) -> None:
    write(mrepo, "sub/" + CONFIG, f"reasoning_effort: low\n# key {github_token()}\n")
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "-m", "config")
    code, found, _ = json_findings(mrepo, "scan", "--all")
    assert code == 1 and [(f["path"], f["line"], f["kind"]) for f in found] == [("sub/" + CONFIG, 2, "github-token")]


def test_the_precommit_hook_definition_passes_config_files() -> None:
    hooks = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text()
    pattern = re.search(r"^  files: (.+)$", hooks, re.MULTILINE)
    assert pattern is not None
    files = re.compile(pattern.group(1))
    for path in (CONFIG, "sub/" + CONFIG, "MEMORY.md", ".chord/memory/records/x.md"):
        assert files.search(path), path
    for path in (".chord/config.yml", "config.yaml", ".chord/config.yaml.bak", "docs/MEMORY.md.txt"):
        assert not files.search(path), path


# ---------------------------------------------------------------------------- a refused config
REFUSED = f"memory:\n  enabled: true\n  notes: the staging password is {PASSWORD}\n"


@pytest.mark.parametrize("argv, code", [
    (["status"], 2),  # the status is shown, and the refused config is bad input
    (["status", "--json"], 2),
    (["summary"], 0),
    (["check"], 1),
    (["check", "--format", "json"], 1),
    (["review", "list", "--json"], 0),
    (["queue", "list"], 0),
    (["agent", "status"], 0),
    (["agent", "statusline"], 0),
    (["extract", "--session", "t.jsonl"], 2),
    (["curate", "--dry-run"], 2),
    (["queue", "retry"], 2),
])
def test_a_refused_config_stops_only_what_sends_to_a_model(
        mrepo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], code: int) -> None:
    write(mrepo, CONFIG, REFUSED)
    write(mrepo, "t.jsonl", "")
    monkeypatch.chdir(mrepo)
    monkeypatch.setattr("sys.stdin", None)
    assert main(argv) == code
    said = capsys.readouterr()
    assert PASSWORD not in said.out + said.err and "Tr0ub4dor" not in said.out + said.err
    if argv[0] == "status":
        shown = json.loads(said.out)["badge"] if "--json" in argv else said.out.splitlines()[0]
        assert shown.startswith("MEMORY-FAIL: config: ") and f"{CONFIG}:3: a secret" in shown
    if code == 2:
        assert said.err.startswith("git memory: ") and f"{CONFIG}:3: a secret" in said.err
    # Nothing the loader refused reaches the state files either.
    state = mrepo / ".chord" / "state"
    for path in (state.rglob("*") if state.is_dir() else ()):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes()
