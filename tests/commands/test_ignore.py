"""``git memory ignore [--last | FINGERPRINT...] --reason TEXT``: a false positive accepted by its
value's hash, which holds wherever its line moves; errors as one line and exit 2; the user's
other lines kept byte for byte; nothing staged; the state dir never holding a value."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from chord_git.check import blocked
from chord_git.commands.check import check
from chord_git.commands.ignore import ignore
from chord_git.memory.project import discover
from testing.commands import run
from testing.gitutil import git, index_digest, run_cli
from tests.check.helpers import (
    RECORDS,
    github_token,
    index_text,
    leaky_repo,
    memory_repo,
    record_id,
    record_text,
    write,
    write_record,
)
from tests.conftest import REPO_ROOT

IGNORE = ".chord/secrets-ignore"
PLANTED = "Hunter2-Blue-77"
NOTE = f"The lab wifi password is {PLANTED} for the demo."
REASON = "the demo router, no network access"


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def notes_repo(tmp_path: Path) -> Path:
    """A memory whose hand-written part below the index holds a false positive, staged."""
    repo = memory_repo(tmp_path / "repo")
    write(repo, "MEMORY.md", index_text() + f"\n## Notes\n{NOTE}\n")
    git(repo, "add", "-A")
    return repo


def one_line_error(result: object, *words: str) -> None:
    code, err = result.returncode, result.stderr  # type: ignore[attr-defined]
    assert code == 2 and err.count("\n") == 1 and err.startswith("git memory: ignore: "), err
    for word in words:
        assert word in err, err


def test_last_writes_the_value_hash_and_the_commit_passes_where_it_was_blocked(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    before = index_digest(repo)
    assert run_cli(repo, "check", "--staged").returncode == 1
    done = run_cli(repo, "ignore", "--last", "--reason", REASON)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "accepted: MEMORY.md:password-in-text:7 (by the SHA-1 of its value, wherever its line moves)",
        f"{IGNORE}: 1 line added, every other line kept as it was",
        f"commit it with your change: git add {IGNORE}",
    ]
    assert (repo / IGNORE).read_text() == f"{sha1(PLANTED)}   # {REASON} [password-in-text in MEMORY.md]\n"
    assert index_digest(repo) == before  # never staged
    assert git(repo, "status", "--porcelain", "--", IGNORE) == f"?? {IGNORE}\n"
    assert run_cli(repo, "check", "--staged").returncode == 0
    again = run_cli(repo, "ignore", "--last", "--reason", REASON)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == f"{IGNORE}: already lists every value; nothing written"
    assert (repo / IGNORE).read_text().count("\n") == 1


def test_moving_reordering_and_adding_lines_around_the_value_keeps_it_accepted(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    assert run(check, repo).returncode == 1
    assert run(ignore, repo, fingerprints=[], last=True, reason=REASON).returncode == 0
    for text in (index_text() + f"\n## Notes\nThe door code is on the wiki.\n\n{NOTE}\n",
                 f"{NOTE}\n\n" + index_text(),
                 index_text("one", "two") + f"\n## Notes\n- first\n- second\n{NOTE}\n- third\n"):
        write(repo, "MEMORY.md", text)
        for name in ("one", "two"):
            write_record(repo, name)
        result = run(check, repo)
        assert result.returncode == 0, result.stdout + result.stderr


def test_other_lines_are_kept_byte_for_byte(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    mine = b"# reviewed by the security team\r\nMEMORY.md:password-in-text:99   # an old entry\r\n\r\n# no newline at the end"
    write(repo, IGNORE, mine)
    assert run(check, repo).returncode == 1
    assert run(ignore, repo, fingerprints=[], last=True, reason=REASON).returncode == 0
    data = (repo / IGNORE).read_bytes()
    assert data.startswith(mine + b"\r\n")  # its line ends kept, a line end added where none was
    assert data[len(mine) + 2:] == f"{sha1(PLANTED)}   # {REASON} [password-in-text in MEMORY.md]\r\n".encode()


def test_a_fingerprint_from_the_json_report_and_a_hash_from_the_block_message(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    report = run_cli(repo, "check", "--format", "json")
    (finding,) = json.loads(report.stdout)["findings"]
    assert finding["fingerprint"] == "MEMORY.md:password-in-text:7"
    assert "value_hash" not in report.stdout and sha1(PLANTED) not in report.stdout  # reports print no hash
    (discover(repo).state_dir / blocked.FILE_NAME).unlink()  # found by a fresh check, not the record
    done = run_cli(repo, "ignore", finding["fingerprint"], "--reason", REASON, "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown == {"ignore_file": IGNORE, "lines_added": 1, "accepted": [
        {"fingerprint": "MEMORY.md:password-in-text:7", "path": "MEMORY.md", "line": 7, "kind": "password-in-text",
         "commit": None, "entries": [sha1(PLANTED)], "already": False}]}
    # The hash the block message prints names the same finding.
    write(repo, IGNORE, "")
    by_hash = run_cli(repo, "ignore", sha1(PLANTED), "--reason", REASON)
    assert by_hash.returncode == 0, by_hash.stderr
    assert sha1(PLANTED) in (repo / IGNORE).read_text()


def test_every_value_the_finding_stands_for_is_accepted(tmp_path: Path) -> None:
    """A line where chord-git's rules report one value and detect-secrets another (an entropy
    string) is one finding: accepting it writes each value's hash, or the other value would come
    back as a finding of its own and block the next commit."""
    key = "a8Fk29xLq0" + "ZpT7wR3mNc" + "5Vb1qqZZ9"
    blob = "aGVsbG8gd29y" + "bGQgdGhpcyBp" + "cyBhIGxvbmcg" + "c3RyaW5nMTIz"
    repo = memory_repo(tmp_path / "repo")
    write(repo, "MEMORY.md", index_text() + f'\n## Notes\n- key {key} in "{blob}"\n')
    git(repo, "add", "-A")
    report = run_cli(repo, "check", "--staged", "--format", "json")
    assert [f["kind"] for f in json.loads(report.stdout)["findings"]] == ["secret-in-text"]
    assert run_cli(repo, "ignore", "--last", "--reason", "fixture values, never live").returncode == 0
    written = (repo / IGNORE).read_text().splitlines()
    assert len(written) == 2 and written[0].startswith(sha1(key))
    for args in (["check", "--staged"], ["check"]):
        after = run_cli(repo, *args)
        assert after.returncode == 0, after.stdout + after.stderr


def test_a_history_fingerprint_from_a_ci_log(tmp_path: Path) -> None:
    repo, base, leak = leaky_repo(tmp_path / "repo")
    scanned = run_cli(repo, "scan", "--range", f"{base}..{leak}", "--format", "json")
    (finding,) = json.loads(scanned.stdout)["findings"]
    state = discover(repo).state_dir / blocked.FILE_NAME
    assert state.is_file()
    state.unlink()  # a log read elsewhere: nothing recorded in this clone
    write(repo, f"{RECORDS}/{record_id('leak')}.md", record_text("leak"))  # not in the files now either
    short = f"{leak[:9]}:{finding['fingerprint'].split(':', 1)[1]}"
    done = run_cli(repo, "ignore", short, "--reason", "a revoked fixture token")
    assert done.returncode == 0, done.stderr
    assert sha1(github_token()) in (repo / IGNORE).read_text()
    # A range is judged by its base's ignore file; the whole history by the work tree's.
    assert run_cli(repo, "scan", "--all").returncode == 0


def test_the_state_dir_holds_hashes_and_places_never_a_value(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    assert run_cli(repo, "check", "--staged").returncode == 1
    data = (discover(repo).state_dir / blocked.FILE_NAME).read_text()
    assert PLANTED not in data and "wifi" not in data
    assert json.loads(data)["findings"] == [{
        "fingerprint": "MEMORY.md:password-in-text:7", "path": "MEMORY.md", "line": 7, "kind": "password-in-text",
        "layer": "sanitizer", "commit": None, "value_hashes": [sha1(PLANTED)]}]


def test_a_reason_is_required(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    run_cli(repo, "check", "--staged")
    for args in ([], ["--reason", "  "]):
        one_line_error(run_cli(repo, "ignore", "--last", *args), "a reason is required", "--reason")
    one_line_error(run_cli(repo, "ignore", "--last", "--reason", "two\nlines"), "one line")
    assert not (repo / IGNORE).exists()


def test_last_with_nothing_recorded_says_so(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    one_line_error(run_cli(repo, "ignore", "--last", "--reason", REASON), "no blocked check is recorded")
    assert not (repo / IGNORE).exists()


def test_unknown_fingerprints_and_bad_usage(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    before = index_digest(repo)
    one_line_error(run_cli(repo, "ignore", "MEMORY.md:password-in-text:3", "--reason", REASON),
                   "no secret finding has the fingerprint MEMORY.md:password-in-text:3")
    one_line_error(run_cli(repo, "ignore", "0" * 40, "--reason", REASON), "0" * 40)
    one_line_error(run_cli(repo, "ignore", "--reason", REASON), "--last", "FINGERPRINT")
    one_line_error(run_cli(repo, "ignore", "--last", "MEMORY.md:password-in-text:7", "--reason", REASON), "not both")
    assert not (repo / IGNORE).exists() and index_digest(repo) == before


def test_a_malformed_ignore_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    repo = notes_repo(tmp_path)
    assert run_cli(repo, "check", "--staged").returncode == 1
    write(repo, IGNORE, "MEMORY.md:password-in-text:7\n")  # no reason
    result = run_cli(repo, "ignore", "--last", "--reason", REASON)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert f"{IGNORE}:1: each entry needs a comment" in result.stderr
    assert (repo / IGNORE).read_text() == "MEMORY.md:password-in-text:7\n"


@pytest.mark.parametrize("name, spelled", [("man/git-memory.1", r".B ignore \fR[\fB\-\-last\fR"),
                                           ("docs/secrets.md", "git memory ignore --last --reason")])
def test_the_command_is_documented(name: str, spelled: str) -> None:
    assert spelled in (REPO_ROOT / name).read_text()
