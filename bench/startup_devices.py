"""What each start-up speed device saves, measured by switching it off one at a time.

``docs/startup.md`` lists the devices that keep the pre-commit hook and the agent hooks short;
this script is where their figures come from. Each variant runs the real entry point,
``chord_git.main.main``, in a fresh interpreter, with one device switched off before the package
is imported (the switch is a line of Python run first, listed below), on three workloads:

- ``check --staged`` of a commit adding one record and its index line (the git hook);
- the Claude Code ``UserPromptSubmit`` hook (every turn of a session);
- the Claude Code ``SessionStart`` hook (the summary injected at start) on a curated index.

Two measures per variant: the median CPU time (user and system, the process and its git
children) of ``--runs`` interleaved plain runs, and the instructions counted by ``valgrind
--tool=callgrind`` (the same count on a loaded or idle machine, with ``PYTHONHASHSEED=0``). The
saving is the CPU difference: instructions alone miss the kernel's work of mapping a shared
library (OpenSSL behind ``hashlib``, the C parts of ``subprocess``), which is most of what some
devices save.

    python bench/startup_devices.py [--runs 15] [--no-callgrind]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from speed_support import git, load, make_records, new_repo, run, write_index, write_records  # noqa: E402

# One line of Python run before the package is imported, switching one device off.
SWITCHES: dict[str, str] = {
    "as shipped": "",
    "standard dataclasses": (
        "import dataclasses; d = helper('dataclass_lazy'); d.dataclass = dataclasses.dataclass; "
        "d.field = dataclasses.field; d.fields = dataclasses.fields; d.asdict = dataclasses.asdict; "
        "d.replace = dataclasses.replace"),
    "patterns compiled at import": "import re; r = helper('regex_lazy'); r.lazy = re.compile",
    "full argument parser": "ARGV_PARSER = True",
    "subprocess instead of posix_spawn": "import os; del os.posix_spawnp",
    "json, hashlib imported up front": "import json, hashlib",
    "every command module imported up front": (
        "import pkgutil, chord_git.commands as c; "
        "[importlib.import_module('chord_git.commands.' + m.name) for m in pkgutil.iter_modules(c.__path__)]"),
    "pygit2 imported up front": "import pygit2",
    "detect-secrets imported up front": "from detect_secrets.core import scan",
}
# The agent hooks' fast path in main.py only takes their exact command lines; ``-C .`` in front
# takes the same command through the full parser.
RUNNER = """
import importlib, sys, os
ARGV_PARSER = False
def helper(name):
    return importlib.import_module("chord_git.support." + name)
{switch}
argv = sys.argv[1:]
if ARGV_PARSER:
    argv = ["-C", os.getcwd(), *argv]
from chord_git.main import main
sys.exit(main(argv))
"""

WORKLOADS = ("check --staged, 1 record", "agent hook, UserPromptSubmit", "agent hook, SessionStart")


def build(root: Path) -> Path:
    repo = new_repo(root / "repo")
    base = make_records(10)
    write_records(repo, base)
    write_index(repo, base)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    fresh = make_records(1, start=10)
    write_records(repo, fresh)
    write_index(repo, base + fresh)
    git(repo, "add", "-A")
    return repo


def payload(event: str, repo: Path, **extra: object) -> bytes:
    return json.dumps({"hook_event_name": event, "session_id": "s-bench", "cwd": str(repo),
                       "transcript_path": str(repo.parent / "s-bench.jsonl"), **extra}).encode()


def commands(repo: Path) -> dict[str, tuple[list[str], bytes]]:
    return {
        WORKLOADS[0]: (["check", "--staged"], b""),
        WORKLOADS[1]: (["agent", "hook", "--host", "claude-code"],
                       payload("UserPromptSubmit", repo, prompt="run the tests")),
        WORKLOADS[2]: (["agent", "hook", "--host", "claude-code"], payload("SessionStart", repo, source="startup")),
    }


def argv_for(switch: str, words: list[str]) -> list[str]:
    return [sys.executable, "-c", RUNNER.format(switch=switch), *words]


def env_for(repo: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT), "HOME": str(repo.parent / "home")}
    for name in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE"):
        env.pop(name, None)
    return env


def instructions(argv: list[str], stdin: bytes, repo: Path, env: dict[str, str]) -> int:
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          input=stdin, cwd=repo, env=env, capture_output=True, check=False)
    found = re.search(rb"Collected : (\d+)", done.stderr)
    if done.returncode not in (0, 1) or not found:
        raise SystemExit(f"callgrind run failed ({done.returncode}):\n{done.stderr[-2000:].decode()}")
    return int(found.group(1))


def cpu_ms(argv: list[str], stdin: bytes, repo: Path, env: dict[str, str]) -> float:
    if not stdin:
        return run(argv, repo, env)[1] * 1000
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, input=stdin, cwd=repo, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-callgrind", action="store_true")
    args = parser.parse_args()
    use_callgrind = not args.no_callgrind and shutil.which("valgrind") is not None
    with tempfile.TemporaryDirectory() as tmp:
        repo = build(Path(tmp))
        (Path(tmp) / "home").mkdir()
        env = env_for(repo)
        work = commands(repo)
        print(f"start-up devices: {args.runs} interleaved runs per variant; {load()}")
        for workload, (words, stdin) in work.items():
            cpu: dict[str, list[float]] = {name: [] for name in SWITCHES}
            names = list(SWITCHES)
            for name in names:  # warm-up: page cache, .pyc files
                cpu_ms(argv_for(SWITCHES[name], words), stdin, repo, env)
            for turn in range(args.runs):
                for name in names[turn % len(names):] + names[:turn % len(names)]:
                    cpu[name].append(cpu_ms(argv_for(SWITCHES[name], words), stdin, repo, env))
            counts = ({name: instructions(argv_for(switch, words), stdin, repo, env)
                       for name, switch in SWITCHES.items()} if use_callgrind else {})
            shipped_ms = statistics.median(cpu["as shipped"])
            print(f"\n{workload}")
            print(f"  {'variant':<40}{'cpu ms':>8}{'saves ms':>10}{'M instr':>9}{'saves M':>9}")
            for name in SWITCHES:
                median = statistics.median(cpu[name])
                instr = (f"{counts[name] / 1e6:9.1f}{(counts[name] - counts['as shipped']) / 1e6:9.1f}"
                         if counts else "")
                print(f"  {name:<40}{median:8.1f}{median - shipped_ms:10.1f}{instr}")
        print(f"\n  after: {load()}")


if __name__ == "__main__":
    main()
