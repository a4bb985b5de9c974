"""The plain git pre-commit hook's cost on a commit that stages no memory file.

``hooks/pre-commit`` leaves after one ``git diff --cached --name-only`` when no memory file is
staged; before 0.2.0 it always started ``git-memory check --staged`` (a Python process). Timed
here, on the same staged change (one source file), alternating runs: the hook script as shipped,
the old behaviour (``git-memory check --staged`` itself) and, for scale, ``sh -c true``. Also the
hook with a memory file staged, where it hands over to ``git-memory``.

    python bench/plain_hook.py [--runs 31]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", *args],
                   cwd=repo, check=True, capture_output=True)


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    git_memory = shutil.which("git-memory")
    if git_memory is None:
        raise SystemExit("put the environment with chord-git installed first on PATH (./dev test installs one)")
    hook = str(ROOT / "hooks/pre-commit")
    with tempfile.TemporaryDirectory() as tmp:
        plain, memory = Path(tmp) / "plain", Path(tmp) / "memory"
        for repo in (plain, memory):
            repo.mkdir()
            _git(repo, "init", "-q", "-b", "main")
            (repo / "src.py").write_text("print('hello')\n")
            _git(repo, "add", "-A")
            _git(repo, "commit", "-q", "-m", "initial")
            (repo / "src.py").write_text("print('bye')\n")
        (memory / "MEMORY.md").write_text("<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
        for repo in (plain, memory):
            _git(repo, "add", "-A")
        cases = {
            "hook, no memory file staged": (["sh", hook], plain),
            "old hook: git-memory check --staged": ([git_memory, "check", "--staged"], plain),
            "sh -c true (scale)": (["sh", "-c", "true"], plain),
            "hook, MEMORY.md staged": (["sh", hook], memory),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (cmd, cwd) in cases.items():
                times[name].append(_time(cmd, cwd))
    print(f"plain pre-commit hook, median of {args.runs} runs (ms)")
    for name, runs in times.items():
        print(f"  {name:40}{statistics.median(runs) * 1000:8.1f}")
    fast, old = (statistics.median(times[k]) for k in ("hook, no memory file staged", "old hook: git-memory check --staged"))
    print(f"  old / new on a commit without memory files: {old / fast:.1f}x")
    print(f"  machine: {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
