"""Without ``fcntl`` (Windows, simulated here by hiding the module): read-only commands run and
writers stop with one line, writing nothing."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from testing.gitutil import cli_env, run_cli
from testing.memory_files import make_record, write_index


def seed_memory(repo: Path) -> None:
    write_index(repo, [make_record(repo, f"20261129-item-{number:04d}") for number in range(3)])


@pytest.fixture
def no_fcntl(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "no-fcntl"
    site.mkdir()
    # sitecustomize runs at interpreter start: every later ``import fcntl`` raises ImportError.
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['fcntl'] = None\n")
    env = cli_env()
    env["PYTHONPATH"] = str(site)
    return env


def test_the_simulation_really_hides_fcntl(no_fcntl: dict[str, str], tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import fcntl"], capture_output=True, text=True, env=no_fcntl,
                          cwd=tmp_path)
    assert done.returncode == 1 and "import of fcntl halted" in done.stderr


def test_every_module_imports_without_fcntl(no_fcntl: dict[str, str], tmp_path: Path) -> None:
    program = ("import importlib, pkgutil, chord_git\n"
               "names = [m.name for m in pkgutil.walk_packages(chord_git.__path__, 'chord_git.')]\n"
               "for name in names: importlib.import_module(name)\n"
               "print(len(names))\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=no_fcntl, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50


@pytest.mark.parametrize("argv", [
    ["status"], ["status", "--json"], ["summary"], ["check"], ["scan", "--all"], ["review", "list"],
    ["review", "list", "--json"], ["help", "review"], ["--version"],
])
def test_read_only_commands_run(repo: Path, no_fcntl: dict[str, str], argv: list[str]) -> None:
    seed_memory(repo)
    result = run_cli(repo, *argv, env=no_fcntl)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("argv", [
    ["init"], ["forget", "20261129-item-0001"], ["review", "forget", "20261129-item-0001"],
    ["review", "move", "20261129-item-0002", "--top"],
])
def test_writers_stop_with_one_line(repo: Path, no_fcntl: dict[str, str], argv: list[str]) -> None:
    seed_memory(repo)
    before = (repo / "MEMORY.md").read_bytes()
    result = run_cli(repo, *argv, env=no_fcntl)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("git memory: writing memory needs POSIX file locks (fcntl), which this platform does "
                             "not have; read-only commands (status, summary, check, scan, review list) still work\n")
    assert (repo / "MEMORY.md").read_bytes() == before
