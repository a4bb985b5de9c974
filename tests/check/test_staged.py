"""``git memory check --staged`` and the plain git hook: what the commit will contain, not the worktree."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.commands.check import check
from testing.commands import run
from testing.gitutil import cli_env, git, index_digest, run_cli
from tests.conftest import needed
from tests.check.helpers import (
    HOOK_SCRIPT,
    commit,
    github_token,
    head,
    index_text,
    install_hook,
    json_findings,
    memory_repo,
    record_text,
    token_line_number,
    write,
    write_record,
)


@pytest.fixture
def mrepo(tmp_path: Path) -> Path:
    return memory_repo(tmp_path / "repo")


def leak_statement() -> str:
    return f"Deploys use export GITHUB_TOKEN={github_token()} from the runner."


def test_staged_token_with_clean_worktree_is_found(mrepo: Path) -> None:
    rel = write_record(mrepo, "leak", leak_statement())
    write(mrepo, "MEMORY.md", index_text("leak"))
    git(mrepo, "add", "-A")
    write_record(mrepo, "leak")  # the working tree no longer holds the token; the index does
    code, findings, stdout = json_findings(mrepo, "check", "--staged")
    line = token_line_number(record_text("leak", leak_statement()), github_token())
    assert code == 1
    assert [(f["path"], f["line"], f["kind"]) for f in findings] == [(rel, line, "github-token")]
    assert findings[0]["layer"] in ("sanitizer", "detect-secrets") and "commit" not in findings[0]
    assert github_token() not in stdout and github_token()[4:20] not in stdout


def test_staged_clean_with_token_in_worktree_passes(mrepo: Path) -> None:
    write_record(mrepo, "tidy")
    write(mrepo, "MEMORY.md", index_text("tidy"))
    git(mrepo, "add", "-A")
    write_record(mrepo, "tidy", leak_statement())  # unstaged: not part of the commit
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert (code, findings) == (0, [])
    assert run(check, mrepo).returncode == 1  # the worktree check does see it


def test_check_leaves_the_index_byte_identical(mrepo: Path) -> None:
    write_record(mrepo, "leak", leak_statement())
    git(mrepo, "add", "-A")
    before = index_digest(mrepo)
    assert run_cli(mrepo, "check", "--staged").returncode == 1
    assert run_cli(mrepo, "check", "--staged", "--format", "sarif").returncode == 1
    assert index_digest(mrepo) == before


def test_only_added_lines_are_scanned_for_secrets(mrepo: Path) -> None:
    rel = write_record(mrepo, "old", leak_statement())
    write(mrepo, "MEMORY.md", index_text("old"))
    git(mrepo, "add", "-A")
    git(mrepo, "commit", "-q", "-m", "an old leak, committed before the hook existed")
    text = (mrepo / rel).read_text().replace("Note old.", "Note old, reworded.")
    write(mrepo, rel, text)
    write(mrepo, "MEMORY.md", index_text("old").replace("Note old.", "Note old, reworded."))
    git(mrepo, "add", "-A")
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert (code, findings) == (0, [])


def test_schema_rules_run_on_the_staged_content(mrepo: Path) -> None:
    rel = write_record(mrepo, "broken")
    write(mrepo, rel, "no front matter\n")
    git(mrepo, "add", "-A")
    write_record(mrepo, "broken")  # fixed in the worktree only
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert code == 1 and (rel, 1, "front-matter") in [(f["path"], f["line"], f["kind"]) for f in findings]


def test_index_entry_without_a_staged_record_is_dangling(mrepo: Path) -> None:
    write_record(mrepo, "unstaged")
    write(mrepo, "MEMORY.md", index_text("unstaged"))
    git(mrepo, "add", "MEMORY.md")
    code, findings, _ = json_findings(mrepo, "check", "--staged")
    assert code == 1 and [(f["path"], f["line"], f["kind"]) for f in findings] == [("MEMORY.md", 4, "dangling")]


def test_no_memory_files_staged(mrepo: Path) -> None:
    write(mrepo, "src.py", "print('hello')\n")
    git(mrepo, "add", "src.py")
    result = run_cli(mrepo, "check", "--staged")
    assert result.returncode == 0 and result.stdout == "ok: 0 staged memory files checked, no findings\n"


def test_staged_and_paths_together_is_a_usage_error(mrepo: Path) -> None:
    result = run_cli(mrepo, "check", "--staged", "MEMORY.md")
    assert result.returncode == 2 and "--staged" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("form", ["-a", "path"])
def test_commit_forms_with_the_hook(mrepo: Path, form: str) -> None:
    """``commit -a`` and ``commit <path>`` run the hook on a temporary index (GIT_INDEX_FILE)."""
    install_hook(mrepo)
    rel = write_record(mrepo, "deploy")
    write(mrepo, "MEMORY.md", index_text("deploy"))
    git(mrepo, "add", "-A")
    assert commit(mrepo, "-m", "clean record").returncode == 0
    before = head(mrepo)

    write_record(mrepo, "deploy", leak_statement())  # changed in the worktree, not staged
    staged_before = index_digest(mrepo)
    args = ["-a"] if form == "-a" else ["--", rel]
    blocked = commit(mrepo, "-m", "leak", *args)
    assert blocked.returncode != 0
    said = blocked.stdout + blocked.stderr  # git sends a hook's output to stderr
    assert f"{rel}:" in said and "[github-token]" in said and github_token() not in said
    assert head(mrepo) == before and index_digest(mrepo) == staged_before

    write_record(mrepo, "deploy", "Deploys read the token from the runner's secret store.")
    passed = commit(mrepo, "-m", "fixed", *args)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert head(mrepo) != before


def test_hook_without_git_memory_on_path_refuses_clearly(mrepo: Path) -> None:
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    if subprocess.run(["sh", "-c", "command -v git-memory"], env=env, capture_output=True).returncode == 0:
        needed("git-memory is installed system-wide here, so no PATH lacks it")
    nothing_staged = subprocess.run(["sh", str(HOOK_SCRIPT)], cwd=mrepo, env=env, capture_output=True, text=True)
    assert nothing_staged.returncode == 0 and nothing_staged.stderr == ""
    write_record(mrepo, "staged")
    git(mrepo, "add", "-A")
    result = subprocess.run(["sh", str(HOOK_SCRIPT)], cwd=mrepo, env=env, capture_output=True, text=True)
    assert result.returncode == 1 and "git-memory is not on PATH" in result.stderr


def _imports_after_check(repo: Path) -> dict[str, bool]:
    code = (
        "import sys, json\n"
        "from chord_git.main import main\n"
        "rc = main(['check', '--staged'])\n"
        "loaded = {name: name in sys.modules for name in ('openai', 'detect_secrets')}\n"
        "print(json.dumps({'rc': rc, **loaded}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True,
                          env=cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_check_staged_imports_only_what_it_needs(mrepo: Path) -> None:
    write(mrepo, "src.py", "x = 1\n")
    git(mrepo, "add", "src.py")
    assert _imports_after_check(mrepo) == {"rc": 0, "openai": False, "detect_secrets": False}
    write_record(mrepo, "tidy")
    write(mrepo, "MEMORY.md", index_text("tidy"))
    git(mrepo, "add", "-A")
    # No line a detect-secrets plugin could report: layer 2 is not even imported (``prefilter``).
    assert _imports_after_check(mrepo) == {"rc": 0, "openai": False, "detect_secrets": False}
    write_record(mrepo, "quoted", "The fixture nonce is 'f067b74c68bd1ee27518e4bd' (a test vector).")
    git(mrepo, "add", "-A")
    assert _imports_after_check(mrepo) == {"rc": 0, "openai": False, "detect_secrets": True}


# What a hook's start-up would pay for and a small commit's check never uses (docs/startup.md):
# the argument parser and the registries its choices come from (``main._check_fast_path``), the
# standard data classes and ``inspect`` (``dataclass_lazy``), OpenSSL's hashes and JSON (imported
# where a finding, an id or a report format needs them), ``subprocess`` with its threads and
# locale (``git.command._spawn`` runs git), and the heavy libraries that only other paths need:
# libgit2 (merges, history), the model client, the terminal UI.
START_UP_WEIGHT = ("argparse", "chord_git.transcripts", "chord_git.agents.hosts", "dataclasses", "inspect",
                   "hashlib", "json", "subprocess", "threading", "locale", "tempfile", "pygit2", "openai", "rich")


def test_a_small_commit_loads_none_of_the_start_up_weight(mrepo: Path) -> None:
    write_record(mrepo, "tidy")
    write(mrepo, "MEMORY.md", index_text("tidy"))
    git(mrepo, "add", "-A")
    code = (
        "import sys\n"
        "from chord_git.main import main\n"
        "rc = main(['check', '--staged'])\n"
        f"sys.stderr.write('LOADED=' + ','.join(m for m in {START_UP_WEIGHT!r} if m in sys.modules) + '\\n')\n"
        "sys.exit(rc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=mrepo, capture_output=True, text=True,
                          env=cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "no findings" in done.stdout
    assert done.stderr.splitlines()[-1] == "LOADED="
