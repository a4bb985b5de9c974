"""The README's install section, run as written against a tag of this checkout.

A snapshot of the current tree is committed into a fresh repository and tagged ``vX.Y.Z``; the
README's URL placeholder becomes that repository's ``file://`` URL and every install command of
the section runs for real (pip from a new virtual environment, pipx with its own home), fetching
dependencies from the package index as a user's machine would.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chord_git

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "https://github.com/OWNER/chord-git"
TAG = f"v{chord_git.__version__}"
# Downloads are cached beside this test environment, never in the (isolated) home directory.
PIP_CACHE = Path(sys.prefix) / ".cache" / "pip"

pytestmark = pytest.mark.slow


def readme_install_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Install\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the README's Install section has a sh block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{shlex.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def tagged_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh repository holding this checkout's current tree, committed and tagged."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    repo = tmp_path_factory.mktemp("chord-git-release")
    for rel in filter(None, listed):
        source = ROOT / rel
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree, not yet committed
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, repo / rel, follow_symlinks=False)
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"],
                 ["-c", "user.name=Release", "-c", "user.email=release@example.invalid", "commit", "-q", "-m", "release"],
                 ["tag", TAG]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def test_readme_installs_name_this_release() -> None:
    commands = readme_install_commands()
    assert len(commands) >= 2
    assert any(c.startswith("pipx install ") for c in commands) and any(c.startswith("pip install ") for c in commands)
    for command in commands:
        assert f"{PLACEHOLDER}@{TAG}'" in command, command


def install_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PIP_CACHE_DIR=str(PIP_CACHE), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIPX_HOME=str(tmp_path / "pipx-home"), PIPX_BIN_DIR=str(tmp_path / "pipx-bin"),
               PIPX_MAN_DIR=str(tmp_path / "pipx-man"))
    return env


@pytest.mark.parametrize("number", range(len(readme_install_commands())))
def test_readme_install_command_works_from_a_tag(tagged_repo: Path, tmp_path: Path, number: int) -> None:
    # ``file://localhost/…``: pip's requirement parser wants a host in a ``name @ git+…`` URL.
    command = readme_install_commands()[number].replace(PLACEHOLDER, f"file://localhost{tagged_repo}")
    args = shlex.split(command)
    env = install_env(tmp_path)
    extras = "[llm]" in command
    if args[0] == "pip":
        venv = tmp_path / "venv"
        run([sys.executable, "-m", "venv", str(venv)], env, tmp_path)
        run([str(venv / "bin/python"), "-m", *args], env, tmp_path)
        bin_dir, python = venv / "bin", venv / "bin/python"
        man_page = venv / "share/man/man1/git-memory.1"
    else:
        assert args[0] == "pipx"
        run([sys.executable, "-m", *args], env, tmp_path)
        bin_dir = tmp_path / "pipx-bin"
        python = tmp_path / "pipx-home/venvs/chord-git/bin/python"
        man_page = tmp_path / "pipx-man/man1/git-memory.1"
    for script in ("git-memory", "chord-git"):
        version = run([str(bin_dir / script), "--version"], env, tmp_path).stdout
        assert version.startswith(f"chord-git {chord_git.__version__} from {python.parent.parent}"), version
    assert man_page.exists()
    imports = subprocess.run([str(python), "-c", "import openai"], capture_output=True)
    assert (imports.returncode == 0) == extras  # the model client only with [llm]
    # The installed tool works on a repository: through git, as `git memory`.
    project = tmp_path / "project"
    run(["git", "init", "-q", str(project)], env, tmp_path)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    assert "created MEMORY.md" in run(["git", "memory", "init"], env, project).stdout
