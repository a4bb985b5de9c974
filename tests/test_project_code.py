"""A cloned repository never runs code: nothing a project holds is imported or executed by any
command, agent hook or background process (the watcher, the worker), and no setting in the
repository's own git config makes our git calls run a program.

The project commits a ``chord_git/`` package, ``sitecustomize.py``, ``usercustomize.py``, a
``.pth`` file and modules named like the libraries we import (at its top and in the sub-folder a
hook starts in); each writes a canary file when Python runs it. Everything then runs for real,
the background extraction against the loopback model, and no canary may appear.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from chord_git import api
from chord_git.background import worker
from chord_git.memory import project as project_mod
from testing import waiting
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env, git
from tests.agents.conftest import (
    DATA,
    CANARY_ID,
    PNPM_WORDS,
    configure,
    event,
    git_memory,
    pnpm_reply,
    run_hook,
    settled,
    write_canary_memory,
)

POST_SESSION = Path(__file__).resolve().parents[1] / "hooks" / "post-session"
# Modules a Python started in the project would take from its working directory first: our own
# package, the libraries it imports (some only late, in the worker) and standard modules.
SHADOWED = ("chord_git", "yaml", "openai", "httpx", "pygit2", "rich", "detect_secrets", "json", "tempfile",
            "subprocess", "hashlib", "traceback", "signal")


def _canary_code(canaries: Path, name: str) -> str:
    return f"import os; open(os.path.join({str(canaries)!r}, {name!r} + '-' + str(os.getpid())), 'w').close()\n"


def plant(folder: Path, canaries: Path) -> None:
    """Everything Python might run from ``folder`` when started there."""
    where = folder.name
    for name in SHADOWED:
        package = folder / name
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text(_canary_code(canaries, f"{where}.{name}"))
        (package / "__main__.py").write_text(_canary_code(canaries, f"{where}.{name}.__main__"))
    for name in ("sitecustomize", "usercustomize"):
        (folder / f"{name}.py").write_text(_canary_code(canaries, f"{where}.{name}"))
    (folder / "zz-chord.pth").write_text(_canary_code(canaries, f"{where}.pth"))


@pytest.fixture
def hostile(repo: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(project, canary folder): a memory repository that commits code in every place Python looks."""
    canaries = tmp_path / "canaries"
    canaries.mkdir()
    write_canary_memory(repo)
    plant(repo, canaries)
    plant(repo / "sub", canaries)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a project with code in it")
    # Planting worked: a Python started there the way the spawned processes used to be does run it.
    probe = subprocess.run([shutil.which("python3") or "python3", "-c", "import chord_git"], cwd=repo,
                           capture_output=True)
    assert probe.returncode == 0 and any(canaries.iterdir())
    for canary in canaries.iterdir():
        canary.unlink()
    return repo, canaries


def _ran(canaries: Path) -> list[str]:
    return sorted(p.name for p in canaries.iterdir())


def _cli(repo: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(cli_env(), MANPAGER="cat", PAGER="cat")
    return subprocess.run([git_memory(), *args], cwd=cwd or repo, capture_output=True, text=True,
                          env=env, timeout=120, stdin=subprocess.DEVNULL)


def _extraction_done(server: FakeOpenAI, requests: int, repo: Path, canaries: Path) -> bool:
    """True once the background run reached the model and everything settled, or as soon as a
    canary shows (a process that imported the project's package never gets that far)."""
    return bool(_ran(canaries)) or (len(server.requests) >= requests and settled(repo))


COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--version",), ("help",), ("help", "check"), ("completion", "bash"), ("status",), ("status", "--json"),
    ("summary",), ("check",), ("check", "--staged"), ("scan", "--all"), ("queue", "list"),
    ("review", "list", "--json"), ("agent", "status", "--json"), ("agent", "statusline"),
    ("agent", "busy"), ("agent", "idle"), ("init",), ("setup", "merge"), ("trust",), ("curate", "--dry-run"),
    ("agent", "install", "claude-code"), ("agent", "install", "codex", "--scope", "user"),
    ("forget", CANARY_ID), ("why",), ("why", "--json"), ("mcp",),
)


def test_no_command_hook_or_background_process_runs_project_code(
        hostile: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo, canaries = hostile
    with FakeOpenAI() as server:
        server.script("extract-m", pnpm_reply())
        configure(server.base_url)
        sub = repo / "sub"

        # Agent hooks as Claude Code sends them, the process started in the project (and in a
        # sub-folder): SessionStart injects, SessionEnd hands off through the watcher to the worker.
        transcript = tmp_path / "claude.jsonl"
        shutil.copy(DATA / "claude-code-2.1.197-hook-context.jsonl", transcript)
        sid = "3646db0a-5bde-4b53-a554-a8386a6a4a03"
        start = run_hook(event("SessionStart", sub, sid, transcript, source="startup"), cwd=sub)
        assert start.returncode == 0 and b"zebra-quartz-7731" in start.stdout, start.stderr
        for name, extra in (("UserPromptSubmit", {"prompt": PNPM_WORDS}), ("Stop", {}),
                            ("SessionEnd", {"reason": "other"})):
            done = run_hook(event(name, repo, sid, transcript, **extra), cwd=repo)
            assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert waiting.wait_for(lambda: _extraction_done(server, 1, repo, canaries), timeout=90)
        assert _ran(canaries) == []

        # Codex: its Stop starts a watcher for the open session; SessionEnd lets it hand off.
        rollout = tmp_path / "rollout.jsonl"
        shutil.copy(DATA / "codex-0.169.0-hook-context.jsonl", rollout)
        for name, extra in (("SessionStart", {"source": "startup", "model": "m"}),
                            ("UserPromptSubmit", {"prompt": PNPM_WORDS, "turn_id": "t1"}),
                            ("Stop", {"turn_id": "t1"}), ("SessionEnd", {"reason": "other"})):
            done = run_hook(event(name, repo, "codex-1", rollout, **extra), host="codex", cwd=repo)
            assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert waiting.wait_for(lambda: _extraction_done(server, 2, repo, canaries), timeout=90)
        assert _ran(canaries) == []

        # extract --background, directly and through the shipped post-session hook.
        session = tmp_path / "native.jsonl"
        session.write_text('{"type":"session","id":"s1","frozen":true}\n'
                           f'{{"type":"message","role":"user","content":"{PNPM_WORDS}"}}\n')
        queued = _cli(repo, "extract", "--session", str(session), "--background")
        assert queued.returncode == 0, queued.stderr
        assert waiting.wait_for(lambda: _extraction_done(server, 3, repo, canaries), timeout=90)
        assert _ran(canaries) == []
        hook = subprocess.run([str(POST_SESSION), str(session)], cwd=sub, capture_output=True, text=True,
                              env=cli_env(), timeout=60)
        assert hook.returncode == 0 and hook.stderr == "", hook.stderr
        assert waiting.wait_for(lambda: _extraction_done(server, 4, repo, canaries), timeout=90)
        assert _ran(canaries) == []

        # The Python API, from a host process whose working directory is the project.
        monkeypatch.chdir(repo)
        assert api.session_ended(repo, session) is not None
        assert waiting.wait_for(lambda: _extraction_done(server, 5, repo, canaries), timeout=90)
        assert _ran(canaries) == []
        monkeypatch.chdir(tmp_path)

        # Every other command, from the top and from the sub-folder.
        (repo / "MEMORY.md").write_text((repo / "MEMORY.md").read_text() + "\nA note.\n")
        git(repo, "add", "MEMORY.md")
        for args in COMMANDS:
            for where in (repo, sub):
                result = _cli(repo, *args, cwd=where)
                assert "Traceback" not in result.stderr, (args, result.stderr)
        assert waiting.wait_for(lambda: settled(repo), timeout=90)
    assert _ran(canaries) == []
    assert (repo / "sub" / "chord_git" / "__init__.py").exists()  # nothing was cleaned up on the way


# ---------------------------------------------------------------------------- the repository's git config
def _hostile_git_config(repo: Path, canaries: Path) -> None:
    """Every setting of the repository's own config that can name a program, each a canary."""
    def program(name: str) -> str:
        return f"touch {canaries}/git-{name}; false"

    hooks = repo / ".git" / "hostile-hooks"
    hooks.mkdir()
    for name in ("pre-commit", "post-checkout", "post-index-change", "reference-transaction",
                 "fsmonitor-watchman", "post-merge", "pre-push"):
        (hooks / name).write_text(f"#!/bin/sh\n{program(name)}\n")
        (hooks / name).chmod(0o755)
    settings = {
        "core.fsmonitor": program("fsmonitor"), "core.hooksPath": str(hooks), "core.pager": program("pager"),
        "core.editor": program("editor"), "diff.external": program("diff-external"),
        "diff.hostile.command": program("diff-command"), "diff.hostile.textconv": program("textconv"),
        "filter.hostile.clean": program("clean"), "filter.hostile.smudge": program("smudge"),
        "filter.hostile.process": program("filter-process"), "filter.hostile.required": "false",
        "alias.diff-tree": f"!{program('alias')}", "alias.memory": f"!{program('alias-memory')}",
        "pager.diff": program("pager-diff"), "core.sshCommand": program("ssh"),
        "credential.helper": f"!{program('credential')}", "gpg.program": program("gpg"),
    }
    for key, value in settings.items():
        git(repo, "config", "--local", key, value)
    with open(repo / ".git" / "info" / "attributes", "a", encoding="utf-8") as handle:
        handle.write("* diff=hostile filter=hostile merge=hostile\n")


def test_the_repositorys_git_config_runs_no_program(repo: Path, tmp_path: Path) -> None:
    canaries = tmp_path / "canaries"
    canaries.mkdir()
    write_canary_memory(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    (repo / "MEMORY.md").write_text((repo / "MEMORY.md").read_text() + "\nA note.\n")
    git(repo, "add", "MEMORY.md")
    _hostile_git_config(repo, canaries)
    project = project_mod.discover(repo)
    for args in (("check", "--staged"), ("check",), ("scan", "--all"), ("status",), ("summary",),
                 ("review", "list", "--json"), ("setup", "merge"), ("init", "--hooks")):
        result = _cli(repo, *args)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert _ran(canaries) == [], args
    with FakeOpenAI() as server:
        server.script("extract-m", pnpm_reply())
        configure(server.base_url)
        session = tmp_path / "native.jsonl"
        session.write_text('{"type":"session","id":"s1","frozen":true}\n'
                           f'{{"type":"message","role":"user","content":"{PNPM_WORDS}"}}\n')
        assert _cli(repo, "extract", "--session", str(session), "--background").returncode == 0
        assert waiting.wait_for(lambda: bool(_ran(canaries)) or (len(server.requests) == 1 and settled(repo)),
                                timeout=90)
    assert _ran(canaries) == []
    assert worker.running_worker(project) is None


# ---------------------------------------------------------------------------- how the children start
def test_isolation_keeps_the_install_and_drops_the_working_directory(tmp_path: Path) -> None:
    venv_site, user_site, checkout = tmp_path / "venv-site", tmp_path / "user-site", tmp_path / "checkout"
    environ = {"PYTHONPATH": "/elsewhere", "PYTHONSTARTUP": "/x.py", "HOME": "/h"}
    flags, env = worker.isolation(venv_site, [venv_site], user_site, environ)
    assert flags == ["-I"] and env["PYTHONPATH"] == "/elsewhere" and "PYTHONSTARTUP" not in env
    flags, env = worker.isolation(user_site, [venv_site], user_site, environ)
    assert flags == ["-E", "-P"]  # -s would hide the user's site-packages, where the package is
    flags, env = worker.isolation(checkout, [venv_site], user_site, environ)
    assert flags == ["-P"] and env["PYTHONPATH"] == f"{checkout}{os.pathsep}/elsewhere"
    assert env["PYTHONSAFEPATH"] == "1" and env["HOME"] == "/h"
    assert worker.isolation(checkout, [], None, {})[1]["PYTHONPATH"] == str(checkout)
