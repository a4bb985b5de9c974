"""``git memory help``, usage errors with one prefix and "did you mean", ``--version``."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import chord_git
from chord_git import main as main_mod
from chord_git.commands import help as help_mod
from testing.gitutil import run_cli

R_NUMBER = re.compile(r"\bR\d+\b")


def all_parsers() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []

    def walk(parser: object, path: str) -> None:
        found.append((path, parser))
        for name, child in help_mod.subcommands(parser).items():  # type: ignore[arg-type]
            walk(child, f"{path} {name}".strip())

    walk(main_mod.build_parser(), "")
    return found


def test_no_help_text_shows_requirement_numbers() -> None:
    parsers = all_parsers()
    assert len(parsers) > 15  # every command and review action is walked
    for path, parser in parsers:
        text = parser.format_help()  # type: ignore[attr-defined]
        assert not R_NUMBER.search(text), (path, R_NUMBER.findall(text))


def test_help_lists_every_command_and_describes_one(repo: Path) -> None:
    listing = run_cli(repo, "help")
    assert listing.returncode == 0 and listing.stderr == ""
    for name in help_mod.subcommands(main_mod.build_parser()):
        assert re.search(rf"^\s+{re.escape(name)}\b", listing.stdout, re.M), name
    move = run_cli(repo, "help", "review", "move")
    assert move.returncode == 0
    assert move.stdout.startswith("usage: git memory review move")
    assert "--top" in move.stdout and "Move an index entry up, down or to the top" in move.stdout


def test_help_works_outside_a_repository(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "help", "scan")
    assert result.returncode == 0 and "usage: git memory scan" in result.stdout


@pytest.mark.parametrize("argv, expected", [
    (["stauts"], "git memory: unknown command 'stauts'; did you mean 'status'? (see 'git memory help')\n"),
    (["review", "lsit"], "git memory: review: unknown command 'lsit'; did you mean 'list'? (see 'git memory help review')\n"),
    (["check", "--fromat", "json"],
     "git memory: check: unrecognized argument: --fromat; did you mean '--format'? (see 'git memory help check')\n"),
    (["check", "--format", "sarf"],
     "git memory: check: argument --format: invalid choice: 'sarf' (choose from 'text', 'json', 'sarif'); "
     "did you mean 'sarif'? (see 'git memory help check')\n"),
    (["help", "revew"], "git memory: help: 'revew' is not a 'git memory' command; did you mean 'review'?\n"),
    (["zzzzzz"], None),
])
def test_usage_errors_are_one_line_with_one_prefix(repo: Path, argv: list[str], expected: str | None) -> None:
    result = run_cli(repo, *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.count("git memory:") == 1
    assert "Traceback" not in result.stderr
    if expected is None:
        assert "unknown command 'zzzzzz' (commands: init, status," in result.stderr
    else:
        assert result.stderr == expected


def test_version_names_the_install_location(repo: Path) -> None:
    result = run_cli(repo, "--version")
    assert result.returncode == 0
    # The installed copy git runs, not this checkout (which pytest imports).
    location = subprocess.run([sys.executable, "-c", "import chord_git, pathlib; print(pathlib.Path(chord_git.__file__).resolve().parent)"],
                              cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    assert result.stdout == f"chord-git {chord_git.__version__} from {location} (python {sys.version.split()[0]})\n"


def test_one_version_everywhere() -> None:
    """The package, the man page and the changelog's newest release name the same version."""
    from importlib.metadata import version

    root = Path(__file__).resolve().parents[2]
    assert version("chord-git") == chord_git.__version__
    assert f'"chord-git {chord_git.__version__}"' in (root / "man/git-memory.1").read_text()
    changelog = (root / "CHANGELOG.md").read_text()
    newest = re.search(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert newest and newest.group(1) == chord_git.__version__
