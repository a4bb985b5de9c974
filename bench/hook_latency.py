"""Hook latency: ``git-memory check --staged`` against ``detect-secrets-hook`` on one commit.

A temporary repository holds 50 committed records; the commit under test changes all 50 (new
statement, an extra evidence line), so both tools look at the same 50 staged files. Runs
alternate between the tools to spread machine noise evenly; the figure is the ratio of medians
(goal <= 1.0, although ``check`` validates the schema and runs two secret layers); our result
cache is removed before each of our runs, so every run checks the files anew. Also timed:
the fast path, a commit that stages no memory file, and a bare interpreter for scale.

    python bench/hook_latency.py [--runs 21] [--files 50]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chord_git.memory import records  # noqa: E402
from chord_git.memory.index_file import BEGIN, END, Entry  # noqa: E402
from chord_git.memory.records import Record  # noqa: E402

RECORDS = ".chord/memory/records"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", *args],
                   cwd=repo, check=True, capture_output=True)


def _record(number: int, revision: int) -> Record:
    return Record(
        id=f"20261129-note-{number:04d}", type="fact", source="user", status="stated",
        summary=f"Service {number} reads its settings from config/service-{number}.toml.",
        statement=(f"Service {number} loads config/service-{number}.toml at start-up (revision {revision}); "
                   "environment variables override single keys, and the file is never written back."),
        evidence=f"the service {number} config lives in config/service-{number}.toml" + (
            f"\nand since revision {revision} it is reloaded on SIGHUP" if revision else ""),
        created="2026-11-29", session="bench01", supersedes=None,
        conclusion="Change settings in the TOML file, not in code.",
        why="Deployments diff the file; values set in code are invisible to them.",
        how_to_apply="When a setting of this service changes.",
    )


def build_repo(root: Path, files: int) -> tuple[Path, list[str]]:
    repo = root / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / RECORDS).mkdir(parents=True)
    entries = []
    for number in range(files):
        record = _record(number, 0)
        (repo / RECORDS / f"{record.id}.md").write_text(records.render(record))
        entries.append(Entry(record.type, record.summary, record.id).render())
    (repo / "MEMORY.md").write_text(f"# Project memory\n\n{BEGIN}\n" + "\n".join(entries) + f"\n{END}\n")
    (repo / "src.py").write_text("print('hello')\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    paths = []
    for number in range(files):
        record = _record(number, 1)
        rel = f"{RECORDS}/{record.id}.md"
        (repo / rel).write_text(records.render(record))
        paths.append(rel)
    _git(repo, "add", "-A")
    return repo, paths


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[0]} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    if found is None:
        raise SystemExit(f"{name} is not installed")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--files", type=int, default=50)
    args = parser.parse_args()
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    env.pop("GIT_INDEX_FILE", None)
    ours, theirs = [_tool("git-memory"), "check", "--staged"], [_tool("detect-secrets-hook")]
    with tempfile.TemporaryDirectory() as tmp:
        repo, paths = build_repo(Path(tmp), args.files)
        _run(ours, repo, env)  # warm the page cache and .pyc files for both
        _run(theirs + paths, repo, env)
        check, hook = [], []
        for _ in range(args.runs):
            # The result cache of the previous run would answer for these very files: remove it,
            # a commit's changes are new to the hook.
            shutil.rmtree(repo / ".git" / "chord-memory", ignore_errors=True)
            check.append(_run(ours, repo, env))
            hook.append(_run(theirs + paths, repo, env))

        fast_repo = Path(tmp) / "fast"
        shutil.copytree(repo, fast_repo)
        _git(fast_repo, "reset", "-q", "--hard")
        (fast_repo / "src.py").write_text("print('bye')\n")
        _git(fast_repo, "add", "src.py")
        fast = [_run(ours, fast_repo, env) for _ in range(args.runs)]
        bare_python = [_run([sys.executable, "-c", "pass"], repo, env) for _ in range(args.runs)]

    def ms(runs: list[tuple[float, float]], which: int) -> float:
        return statistics.median(run[which] for run in runs) * 1000

    print(f"hook latency, {args.files} changed record files staged, median of {args.runs} runs (ms)")
    print(f"  {'':34}{'wall':>8}{'cpu':>8}")
    for label, runs in (("git-memory check --staged", check), ("detect-secrets-hook <files>", hook),
                        ("fast path, no memory file staged", fast), ("python -c pass (for scale)", bare_python)):
        print(f"  {label:34}{ms(runs, 0):8.1f}{ms(runs, 1):8.1f}")
    print(f"  ratio of medians, ours / detect-secrets-hook: wall {ms(check, 0) / ms(hook, 0):.2f}, "
          f"cpu {ms(check, 1) / ms(hook, 1):.2f} (goal <= 1.0)")
    print(f"  machine: {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
