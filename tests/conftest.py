"""Shared fixtures: every test runs with a private HOME, XDG dirs and git identity."""
from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from testing.gitutil import make_repo  # noqa: E402


# ``isolated_home`` takes ``CI`` out of every test's environment (it would make a session start
# recall only reviewed memory) and keeps whether the suite runs under CI in this variable instead,
# where a test can still set or clear it.
SUITE_CI = "CHORD_TESTS_UNDER_CI"


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() not in ("", "0", "false", "no")


def in_ci() -> bool:
    return _truthy(os.environ.get(SUITE_CI))


def needed(what: str) -> NoReturn:
    """What a test needs is missing: it skips on a developer's machine, naming ``what``, and fails
    under ``CI``, where every test must prove what it was written to prove."""
    if in_ci():
        pytest.fail(f"{what}; CI runs every test (.ci/run installs what the suite needs)", pytrace=False)
    pytest.skip(what)


def venv_tool(name: str) -> str:
    """A console script of the Python running the tests (the venv's own ``bin/``), not whichever
    copy PATH finds first; missing, the test skips outside CI and fails under it."""
    path = Path(sys.executable).parent / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        needed(f"{name} is not installed next to {sys.executable}")
    return str(path)


def shell_tool(name: str) -> str:
    """A program from the machine (a shell, Node.js) found on PATH; missing, as ``needed``."""
    found = shutil.which(name)
    if found is None:
        needed(f"{name} is not installed (not on PATH)")
    return found


def corpus_problem(root: Path, name: str, env_var: str, holds: tuple[str, ...]) -> str | None:
    """Why ``root`` is not the corpus folder ``…/corpus/<name>`` holding ``holds``, or None (pure
    but for looking at the folder). It names the files missing, and the right folder when
    ``root`` is the ``corpus`` folder above it."""
    if not root.is_dir():
        return f"shared corpus not found: {root} is not a folder (set {env_var} to the …/corpus/{name} folder)"
    missing = [part for part in holds if not (root / part).exists()]
    if not missing:
        return None
    message = f"shared corpus at {root} lacks {', '.join(missing)}"
    if (root / name).is_dir() and all((root / name / part).exists() for part in holds):
        return f"{message}: {env_var} names the …/corpus/{name} folder itself (set {env_var}={root / name})"
    return f"{message} ({env_var} names the …/corpus/{name} folder holding {', '.join(holds)})"


def shared_corpus(name: str, env_var: str, *, holds: tuple[str, ...] = ()) -> Path:
    """A folder of the shared public corpus: ``$env_var``, else ``<checkout>/../shared/corpus/<name>``.

    ``$env_var`` names that folder itself (``CHORD_CORPUS=…/corpus/secrets``,
    ``CHORD_TRANSCRIPT_CORPUS=…/corpus/transcripts``), not the ``corpus`` folder above it. The
    corpus lives outside the repository so that the repository never holds its strings. When it
    is missing, the tests that need it skip on a developer's machine and fail in CI (``CI`` set),
    so a CI run cannot pass by skipping them; the message names the file that is missing.
    """
    root = Path(os.environ.get(env_var) or REPO_ROOT.parent / "shared" / "corpus" / name)
    message = corpus_problem(root, name, env_var, holds)
    if message is None:
        return root
    needed(message)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No test can read or write the real home directory, config or state by accident."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    if _truthy(os.environ.get("CI")):
        monkeypatch.setenv(SUITE_CI, "true")
    else:  # a suite run by a test (tests/test_plain_clone.py) says for itself whether it is CI
        monkeypatch.delenv(SUITE_CI, raising=False)
    for name in list(os.environ):
        # CI systems' own variables would make `scan` pick their event's range.
        if name.startswith(("GIT_", "GITHUB_", "CI_", "PRE_COMMIT_")) or name in (
                "OPENAI_API_KEY", "OPENAI_BASE_URL", "PRE_COMMIT", "GITLAB_CI", "CI"):
            # ``CI`` too: it makes a session start recall only reviewed memory (memory.inject).
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    yield home


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository with one commit."""
    return make_repo(tmp_path / "repo")
