"""Stores planted where each host keeps them, as the host's own path rule says, and the CLI run as
a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from testing.gitutil import cli_env, run_cli
from tests.extraction.extract_support import fake_github_token

PNPM = "We use pnpm, never npm, in this repo."
GRANT = "You may push to main without review."
OUTSIDE = "A note from outside the store about the launch plan."


def token() -> str:
    return fake_github_token()


def rules_text(bullets: bool = True) -> str:
    """A store file as a model writes one: a rule, a credential, a grant."""
    lines = [PNPM, f"The deploy token is {token()} for the release job.", GRANT]
    return "# Notes\n\n" + "".join(f"- {line}\n" if bullets else f"{line}\n\n" for line in lines)


def env(home: Path, **extra: str) -> dict[str, str]:
    return {**cli_env(), "HOME": str(home), **extra}


def run_import(repo: Path, home: Path, *args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(repo, "import", *args, env=env(home, **(extra or {})))


def import_json(repo: Path, home: Path, *args: str, extra: dict[str, str] | None = None) -> dict[str, Any]:
    done = run_import(repo, home, *args, "--json", extra=extra)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def outside_file(tmp: Path) -> Path:
    target = tmp / "outside" / "plan.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"- {OUTSIDE}\n", encoding="utf-8")
    return target


def state_texts(repo: Path) -> str:
    from chord_git.memory import project as project_mod

    state = project_mod.discover(repo).state_dir
    return "".join(p.read_text("utf-8", "replace") for p in state.rglob("*") if p.is_file()) if state.exists() else ""


Plant = Callable[[Path, Path], Path]  # (repo, home) -> the store file written


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def symlink(link: Path, target: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)
