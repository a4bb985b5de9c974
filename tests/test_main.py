"""One exit for the unexpected: one line, exit 3, and the traceback in an error log."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chord_git import errors
from chord_git.main import main
from testing.gitutil import git, run_cli
from tests.check.helpers import RECORDS, github_token, index_text, memory_repo, record_id, write, write_record

LINE = re.compile(r"^git memory: an unexpected error occurred: (\w+): (.+); details in (\S+)\n$")


def _state_dir_is_a_file(repo: Path) -> Path:
    state = repo / ".git" / "chord-memory"
    state.write_text("not a folder\n")
    return state


def _provoked(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, Path]:
    assert main(list(argv)) == errors.UNEXPECTED_EXIT
    captured = capsys.readouterr()
    match = LINE.match(captured.err)
    assert match, captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    log = Path(match.group(3))
    text = log.read_text("utf-8")
    assert text.startswith("--- ") and f"git memory {' '.join(argv)}\n" in text
    assert "Traceback (most recent call last)" in text and match.group(1) in text
    return match.group(1), log


@pytest.mark.parametrize("argv", [("init",), ("agent", "busy")])
def test_a_state_folder_that_is_a_file_gives_one_line_and_exit_3(repo: Path, isolated_home: Path, argv: tuple[str, ...],
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state_dir_is_a_file(repo)
    monkeypatch.chdir(repo)
    kind, log = _provoked(capsys, *argv)
    assert kind in ("FileExistsError", "NotADirectoryError")
    # The state dir is the problem, so the log goes to the user's state dir instead.
    assert log == isolated_home / ".local" / "state" / "chord" / errors.ERROR_LOG
    assert state.read_text() == "not a folder\n"


def test_the_log_goes_to_the_state_dir_when_it_works(repo: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".chord" / "memory").mkdir(parents=True)
    (repo / ".chord" / "memory" / "records").write_text("x")  # init cannot make its folder: not an input error
    monkeypatch.chdir(repo)
    kind, log = _provoked(capsys, "init")
    assert kind == "FileExistsError"
    assert log == repo / ".git" / "chord-memory" / errors.ERROR_LOG
    _provoked(capsys, "init")
    assert log.read_text().count("Traceback (most recent call last)") == 2  # appended, not replaced


def test_without_any_writable_place_the_log_is_a_new_temp_file(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("x")
    try:
        raise RuntimeError("boom\nsecond line")
    except RuntimeError as exc:
        log = errors.log_unexpected(exc, [blocked, blocked / "deeper"], ["status"])
        message = errors.unexpected_message(exc, log)
    assert log is not None and log.parent != blocked and "RuntimeError: boom" in log.read_text()
    assert message == f"an unexpected error occurred: RuntimeError: boom second line; details in {log}"
    log.unlink()


def test_through_git_the_user_sees_one_line(repo: Path) -> None:
    _state_dir_is_a_file(repo)
    result = run_cli(repo, "init")
    assert result.returncode == 3 and LINE.match(result.stderr), result.stderr
    assert "Traceback" not in result.stderr + result.stdout


# ---------------------------------------------------------------------------- the check fast path
# The hooks' own command lines skip building the parser; every other wording must reach it.
FAST = [["check", "--staged"], ["check"], ["check", "MEMORY.md", "notes/x.md"], ["check", "--staged", "MEMORY.md"],
        ["check", "--staged", "--staged"], ["check", "MEMORY.md", "--staged"], ["check", ""]]
PARSED = [["check", "--help"], ["check", "--staged", "--help"], ["check", "-q", "--staged"], ["check", "--stage"],
          ["check", "--staged", "--format", "json"], ["check", "--", "-x.md"], ["check", "-"],
          ["-C", ".", "check", "--staged"], ["status"], ["check", "--staged", "--bogus"], ["checks", "--staged"]]


@pytest.mark.parametrize("words", FAST)
def test_the_fast_path_reads_the_hook_command_lines_as_the_parser_does(words: list[str]) -> None:
    from chord_git.main import _check_fast_path, build_parser

    fast = _check_fast_path(words)
    assert fast is not None
    assert vars(fast) == vars(build_parser().parse_args(words))


@pytest.mark.parametrize("words", PARSED)
def test_every_other_command_line_goes_through_the_parser(words: list[str]) -> None:
    from chord_git.main import _check_fast_path

    assert _check_fast_path(words) is None


def _outcome(capsys: pytest.CaptureFixture[str], words: list[str]) -> tuple[int | str | None, str, str]:
    try:
        code: int | str | None = main(words)
    except SystemExit as exc:  # --help: argparse prints and exits
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("words", "code"), [
    (["check", "--staged"], 1),              # a staged token: the hook's finding
    (["check", "--staged", "MEMORY.md"], 2),  # usage error
    (["check", "MEMORY.md"], 0),             # the pre-commit framework's form: the worktree is clean
    (["check", f"{RECORDS}/{record_id('leak')}.md"], 0),
])
def test_the_fast_path_answers_as_the_parser_does(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, words: list[str], code: int) -> None:
    """The same repository through the fast path (the parser made unbuildable, so it is not
    built) and through the parser (``-C .``, which the fast path leaves alone): same bytes out."""
    import chord_git.main as main_mod

    repo = memory_repo(tmp_path / "repo")
    write_record(repo, "leak", f"Deploys use export GITHUB_TOKEN={github_token()} from the runner.")
    write(repo, "MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    write_record(repo, "leak")  # the working tree no longer holds the token; the index does
    monkeypatch.chdir(repo)
    parsed = _outcome(capsys, ["-C", ".", *words])

    def unbuildable() -> None:
        raise AssertionError("the parser was built")

    with monkeypatch.context() as patch:
        patch.setattr(main_mod, "build_parser", unbuildable)
        fast = _outcome(capsys, words)
    assert fast == parsed
    assert fast[0] == code


def test_help_and_bad_options_still_come_from_the_parser(repo: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    code, out, err = _outcome(capsys, ["check", "--staged", "--help"])
    assert code == 0 and out.startswith("usage: git memory check") and "--staged" in out and err == ""
    code, out, err = _outcome(capsys, ["check", "--staged", "--bogus"])
    assert code == 2 and out == "" and err.startswith("git memory: ") and "--bogus" in err
