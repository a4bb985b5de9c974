"""``git-memory --help`` prints the manual, as ``git memory --help`` does through git and man:
formatted by man when there is one, by our own reader of the page when there is none."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from chord_git.commands import help as help_mod
from testing.gitutil import run_cli

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "git-memory"


def run_script(cwd: Path, *args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=60,
                          stdin=subprocess.DEVNULL)


def test_help_without_a_terminal_prints_the_manual_not_the_usage(tmp_path: Path) -> None:
    done = run_script(tmp_path, "--help", path=os.environ["PATH"])
    assert done.returncode == 0, done.stderr
    assert "usage:" not in done.stdout
    for heading in ("NAME", "SYNOPSIS", "COMMANDS"):
        assert f"\n{heading}\n" in done.stdout
    assert "git-memory - project memory for coding agents" in " ".join(done.stdout.split())


def test_without_man_the_page_is_read_by_chord_git(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = run_script(tmp_path, "--help", path=str(empty))
    assert done.returncode == 0, done.stderr
    page = next(p for p in help_mod.manual_pages() if p.is_file())
    assert done.stdout == help_mod.roff_text(page.read_text())
    assert "\\f" not in done.stdout and "\\-" not in done.stdout


def test_short_help_is_still_the_usage(tmp_path: Path) -> None:
    done = run_script(tmp_path, "-h", path=os.environ["PATH"])
    assert done.returncode == 0 and done.stdout.startswith("usage: git memory")
    assert "'git-memory --help' prints it where man has no page" in " ".join(done.stdout.split())


def test_the_help_listing_names_the_way_to_the_manual(repo: Path) -> None:
    listing = run_cli(repo, "help")
    assert listing.returncode == 0 and "'git-memory --help'" in " ".join(listing.stdout.split())


def test_roff_text_reads_the_macros_the_page_uses() -> None:
    page = "\n".join([
        '.\\" a comment',
        '.TH GIT-MEMORY 1 "2026-01-01" "chord-git 0.0.0" "Git Manual"',
        ".SH NAME",
        "git-memory \\- project memory",
        ".SH COMMANDS",
        ".TP",
        '.BR init " [" \\-\\-hooks ]',
        "Create \\fBMEMORY.md\\fR with",
        "the markers.",
        ".PP",
        "An example:",
        ".RS",
        ".nf",
        "MEMORY.md:password\\-in\\-text:12   # why",
        ".fi",
        ".RE",
    ])
    assert help_mod.roff_text(page) == "\n".join([
        "GIT-MEMORY(1)",
        "",
        "NAME",
        "       git-memory - project memory",
        "",
        "COMMANDS",
        "       init [--hooks]",
        "           Create MEMORY.md with the markers.",
        "",
        "       An example:",
        "           MEMORY.md:password-in-text:12   # why",
    ]) + "\n"
