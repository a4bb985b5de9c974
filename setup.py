"""The build records which commit it was built from, for ``git memory setup pre-commit|github|gitlab``.

Release tags do not travel with every copy of this repository, so the snippets that tool prints pin
a commit. A build from a git checkout (``pip install .``, and pip's own clone for a ``git+URL``
install) writes that checkout's HEAD into the built package as ``chord_git/data/source-commit``;
a build from anything else (an unpacked archive) writes nothing and the tool says it does not know.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def checkout_head() -> str | None:
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(HERE), *args], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    # Only this project's own checkout: a copy vendored inside another repository is not one.
    if top is None or Path(top).resolve() != HERE:
        return None
    head = git("rev-parse", "--verify", "HEAD^{commit}")
    return head if head and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", head) else None


class BuildPyWithCommit(build_py):
    def run(self) -> None:
        super().run()
        head = checkout_head()
        target = Path(self.build_lib) / "chord_git" / "data" / "source-commit"
        if head is not None and not self.dry_run:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(head + "\n")
        elif target.exists():
            target.unlink()  # a stale record from an earlier build in the same tree


setup(cmdclass={"build_py": BuildPyWithCommit})
