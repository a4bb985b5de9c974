"""The README's test command in a plain clone: the tests that read the shared corpus skip there,
naming what is missing, and fail under ``CI``; no other test depends on it.

A copy of the checkout goes into a folder with nothing beside it (no ``../shared``), and pytest
runs there, as a user's ``./dev test`` would, on every test module that reads the corpus.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.conftest import REPO_ROOT

# What a clone does not hold: the machine's build and cache folders.
_NOT_CLONED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__", "*.egg-info", ".pytest_cache",
                                     ".mypy_cache", ".hypothesis")
_CORPUS_VARS = ("CHORD_CORPUS", "CHORD_TRANSCRIPT_CORPUS")


def corpus_readers() -> list[str]:
    """The test modules that read the shared corpus: those calling ``shared_corpus`` themselves, and
    every module of a folder whose conftest does (its fixtures reach the whole folder)."""
    tests = REPO_ROOT / "tests"
    found: set[str] = set()
    for path in tests.rglob("*.py"):
        if path.parent == tests and path.name in ("conftest.py", Path(__file__).name):
            continue  # where the helper lives, and this test
        if "shared_corpus(" not in path.read_text(encoding="utf-8"):
            continue
        if path.name == "conftest.py":
            found.update(p.relative_to(REPO_ROOT).as_posix() for p in path.parent.glob("test_*.py"))
        elif path.name.startswith("test_"):
            found.add(path.relative_to(REPO_ROOT).as_posix())
    return sorted(found)


def clone(into: Path) -> Path:
    target = into / "chord-git"
    shutil.copytree(REPO_ROOT, target, ignore=_NOT_CLONED, symlinks=True)
    assert not (target.parent / "shared").exists()
    return target


def run_pytest(checkout: Path, modules: list[str], *, ci: bool) -> tuple[int, ET.Element, str]:
    env = {k: v for k, v in os.environ.items() if k not in (*_CORPUS_VARS, "CI", "PYTEST_ADDOPTS")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if ci:
        env["CI"] = "true"
    report = checkout / "report.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q", "-rs",
                           f"--junitxml={report}", *modules], cwd=checkout, env=env, capture_output=True, text=True,
                          timeout=900)
    return done.returncode, ET.parse(report).getroot(), done.stdout + done.stderr


def outcomes(root: ET.Element) -> dict[str, tuple[str, str]]:
    """test id -> (passed | skipped | failed | error, message)."""
    out: dict[str, tuple[str, str]] = {}
    for case in root.iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        for kind in ("failure", "error", "skipped"):
            node = case.find(kind)
            if node is not None:
                out[name] = ({"failure": "failed"}.get(kind, kind), node.get("message") or "")
                break
        else:
            out[name] = ("passed", "")
    return out


def test_corpus_tests_skip_in_a_plain_clone_and_fail_under_ci(tmp_path: Path) -> None:
    modules = corpus_readers()
    # The helper's users today: a change that adds one is picked up; losing them all is a bug here.
    assert {"tests/secrets/test_corpus.py", "tests/secrets/test_prefilter.py",
            "tests/transcripts/test_transcripts_corpus.py"} <= set(modules)
    checkout = clone(tmp_path)

    code, root, output = run_pytest(checkout, modules, ci=False)
    seen = outcomes(root)
    assert code == 0, output[-3000:]
    assert [name for name, (kind, _) in seen.items() if kind in ("failed", "error")] == []
    skipped = {name: message for name, (kind, message) in seen.items() if kind == "skipped"}
    missing = re.escape(str(checkout.parent / "shared" / "corpus"))
    assert len(skipped) >= 10, output[-3000:]
    for name, message in skipped.items():
        # Every skip is the corpus's, and names the folder it looked for.
        assert re.search(rf"shared corpus not found: {missing}/(secrets|transcripts) is not a folder", message), (
            name, message)
    # The tests that read only the project's own files still ran (the shared half of each skipped).
    passed = [name for name, (kind, _) in seen.items() if kind == "passed"]
    assert any("test_prefilter" in name and "project" in name for name in passed)
    assert any("test_prefilter" in name and "shared" in name for name in skipped)
    assert "SKIPPED" in output  # -ra/-rs: the summary counts and names every skip

    code, root, output = run_pytest(checkout, ["tests/secrets/test_corpus.py",
                                               "tests/transcripts/test_transcripts_corpus.py"], ci=True)
    seen = outcomes(root)
    failed = {name: message for name, (kind, message) in seen.items() if kind in ("failed", "error")}
    assert code == 1 and len(failed) >= 10, output[-3000:]
    assert [name for name, (kind, _) in seen.items() if kind == "skipped"] == []
    assert all("CI runs every test" in message for message in failed.values()), failed
