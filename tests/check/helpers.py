"""Memory repositories for the hook and scan tests, and fake secrets built at run time.

The tokens are assembled from pieces so that this repository itself never holds a string a
secret scanner would flag.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from chord_git.memory import records
from chord_git.memory.index_file import BEGIN, END, Entry
from testing.gitutil import cli_env, git, make_repo
from testing.memory_files import sample_record

RECORDS = ".chord/memory/records"
HOOK_SCRIPT = Path(__file__).resolve().parents[2] / "hooks" / "pre-commit"


def github_token() -> str:
    return "gh" + "p_" + "R7kQ2mVx9L" + "pT4nWz8sYb" + "3Hc6Jd1Fg5" + "Ae0Ui7"


def aws_key_id() -> str:
    return "AK" + "IA" + "QW3RT7YU2IO9PL4K"


def record_id(name: str) -> str:
    return f"20261129-{name}-0001"


def record_text(name: str, statement: str = "Run make check before asking for review.") -> str:
    rid = record_id(name)
    return records.render(sample_record(id=rid, summary=f"Note {name}.", statement=statement))


def token_line_number(text: str, token: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if token in line)


def write(repo: Path, rel: str, data: str | bytes) -> Path:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def write_record(repo: Path, name: str, statement: str = "Run make check before asking for review.") -> str:
    rel = f"{RECORDS}/{record_id(name)}.md"
    write(repo, rel, record_text(name, statement))
    return rel


def index_text(*names: str) -> str:
    lines = "".join(Entry("fact", f"Note {n}.", record_id(n)).render() + "\n" for n in names)
    return f"# Project memory\n\n{BEGIN}\n{lines}{END}\n"


def memory_repo(path: Path) -> Path:
    """A repository whose first commit holds an empty memory (index with markers, no records)."""
    make_repo(path)
    write(path, "MEMORY.md", index_text())
    git(path, "add", "MEMORY.md")
    git(path, "commit", "-q", "-m", "memory")
    return path


def install_hook(repo: Path) -> None:
    hooks = Path(git(repo, "rev-parse", "--git-path", "hooks").strip())
    hooks = hooks if hooks.is_absolute() else repo / hooks
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "pre-commit").write_bytes(HOOK_SCRIPT.read_bytes())
    (hooks / "pre-commit").chmod(0o755)


def commit(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``git commit ARGS`` as a user runs it, hooks and all, with ``git-memory`` on PATH."""
    return subprocess.run(["git", "commit", "-q", *args], cwd=repo, capture_output=True, text=True,
                          env=cli_env(), timeout=120)


def json_findings(repo: Path, *args: str) -> tuple[int, list[dict[str, object]], str]:
    """``check --staged``, ``scan --all`` or ``scan --range A..B`` with JSON output, called as
    functions (the end-to-end runs of both commands are separate tests)."""
    from chord_git.commands.check import check
    from chord_git.commands.scan import scan
    from testing.commands import run

    if args == ("check", "--staged"):
        result = run(check, repo, staged=True, fmt="json")
    elif args == ("scan", "--all"):
        result = run(scan, repo, all_history=True, fmt="json")
    else:
        assert args[:2] == ("scan", "--range") and len(args) == 3, args
        result = run(scan, repo, range_spec=args[2], fmt="json")
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)["findings"], result.stdout


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()


def leaky_repo(path: Path) -> tuple[Path, str, str]:
    """A repository with a clean base commit and a commit adding a token: (repo, base, leak)."""
    repo = memory_repo(path)
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, f"{RECORDS}/{record_id('leak')}.md", record_text("leak", f"GITHUB_TOKEN={github_token()}"))
    write(repo, "MEMORY.md", index_text("leak"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "leak")
    return repo, base, git(repo, "rev-parse", "HEAD").strip()
