"""Session-start summary cost with 10 to 100,000 records (issue 2, R9).

Prints, for each record count:
- in-process ``summary.build`` time (median of many runs),
- the whole ``git memory summary`` process (median of several runs),
- two reference loaders measured on the same files in the same run: one that opens every record
  file (what tools that load all memory files do) and one that reads the first 200 lines / 25 KB of
  MEMORY.md (the Claude Code auto-memory load rule),
for two index shapes: a curated index (the same 10 entries at every size; the other records are
orphans or retired, the steady state under R27), so only the number of record files varies, and a
full index listing every record (an index nobody curated: its cost grows with the file).
Then the import profile of the summary path: openai and detect_secrets must not appear.

``--anchored`` (issue 36) writes records that name what session start looks up: a project path
(half of them gone from the tree) and a make target (half of them not in the Makefile), with
their ``anchors`` in the front matter, and prints how many shown entries were labelled stale.

Usage: python bench/summary_bench.py [--counts 10,1000,20000,100000] [--runs 15] [--anchored]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chord_git.memory import summary  # noqa: E402
from chord_git.memory import anchors, records  # noqa: E402
from chord_git.memory.index_file import BEGIN, END, Entry  # noqa: E402
from chord_git.memory.records import Record  # noqa: E402

CURATED_ENTRIES = 10  # the same index at every size: only the number of record files grows


def make_project(base: Path, count: int, full_index: bool, anchored: bool = False) -> Path:
    root = base / f"p{count}-{'full' if full_index else 'curated'}"
    rec_dir = root / ".chord/memory/records"
    rec_dir.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    if anchored:  # modules 0-24 exist of 0-49; targets t0-t9 exist of t0-t19
        (root / "src").mkdir()
        for number in range(25):
            (root / "src" / f"mod_{number}.py").write_text("x = 1\n")
        (root / "Makefile").write_text("".join(f"t{n}:\n\ttrue\n" for n in range(10)))
    lines = []
    listed = count if full_index else min(count, CURATED_ENTRIES)
    for number in range(count):
        rid = f"20261129-fact-{number:06d}"
        summary_text = f"Fact {number}: the build uses target {number % 97} with pnpm workspaces."
        if anchored:
            summary_text = f"Fact {number}: `src/mod_{number % 50}.py` is built by `make t{number % 20}`."
        record = Record(rid, "fact", "user", "stated", summary_text, summary_text + " " + "x" * 200,
                        "the user said so", "2026-11-29", "abc123", None, "c", "w", "h",
                        anchors=anchors.of_texts([summary_text]) if anchored else ())
        (rec_dir / f"{rid}.md").write_text(records.render(record))
        if number < listed:
            lines.append(Entry("fact", summary_text, rid).render())
    (root / "MEMORY.md").write_text("# Project memory\n\n" + BEGIN + "\n" + "\n".join(lines) + "\n" + END + "\n")
    return root


def median_time(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def load_all_records(root: Path) -> int:
    total = 0
    for path in (root / ".chord/memory/records").iterdir():
        total += len(path.read_text())
    return total


def load_head_of_index(root: Path) -> int:
    with (root / "MEMORY.md").open("rb") as handle:
        data = handle.read(25 * 1024)
    return len(data.split(b"\n")[:200])


def git_memory() -> list[str]:
    exe = shutil.which("git-memory", path=str(Path(sys.executable).parent)) or shutil.which("git-memory")
    return [exe] if exe else [sys.executable, "-m", "chord_git.main"]


def process_time(root: Path, runs: int) -> float:
    cmd = [*git_memory(), "-C", str(root), "summary"]
    env = dict(os.environ, XDG_CONFIG_HOME=str(root / ".cfg"))
    return median_time(lambda: subprocess.run(cmd, check=True, capture_output=True, env=env), runs)


def import_profile(root: Path) -> tuple[float, list[str]]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(root / ".cfg"))
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "chord_git.main", "-C", str(root), "summary"],
                            capture_output=True, text=True, env=env, check=True)
    modules = []
    total_us = 0
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line[len("import time:"):].split("|")]
        if not parts[0].isdigit():
            continue
        modules.append(parts[2].strip())
        total_us += int(parts[0])
    return total_us / 1000, modules


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="10,1000,20000,100000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--anchored", action="store_true", help="records name paths and make targets (issue 36)")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    base = Path(tempfile.mkdtemp(prefix="chord-summary-bench-"))
    try:
        print(f"{'records':>8} {'index':>8} {'entries':>8} {'in-process':>11} {'process':>9} "
              f"{'open-all':>10} {'head-200':>9}")
        baseline: dict[bool, tuple[float, float]] = {}
        for full in (False, True):
            for count in counts:
                root = make_project(base, count, full, args.anchored)
                memory_md = root / "MEMORY.md"
                # As `git memory summary` does: R24 verdicts of the shown records cached by size and mtime.
                cache = base / f"cache-{count}-{full}.json"
                inproc = median_time(lambda: summary.build(memory_md, budget=4000, extraction_enabled=True,
                                                           cache=cache), max(args.runs * 20, 50))
                proc = process_time(root, args.runs)
                open_all = median_time(lambda: load_all_records(root), 3)
                head = median_time(lambda: load_head_of_index(root), 50)
                entries = count if full else min(count, CURATED_ENTRIES)
                print(f"{count:>8} {'full' if full else 'curated':>8} {entries:>8} {inproc * 1e3:>9.3f}ms "
                      f"{proc * 1e3:>7.1f}ms {open_all * 1e3:>8.1f}ms {head * 1e3:>7.3f}ms")
                if args.anchored:
                    built = summary.build(memory_md, budget=4000, extraction_enabled=True, cache=cache)
                    print(f"{'':>8} entries shown {built.entries_shown}, labelled stale {len(built.stale)}")
                if count == counts[0]:
                    baseline[full] = (inproc, proc)
                if count == 20000 or count == counts[-1]:
                    b_in, b_proc = baseline[full]
                    print(f"{'':>8} ratio vs {counts[0]} records: in-process {inproc / b_in:.2f}x, process {proc / b_proc:.2f}x")
                shutil.rmtree(root)
        root = make_project(base, 10, False)
        import_ms, modules = import_profile(root)
        heavy = [m for m in modules if m.split(".")[0] in ("openai", "detect_secrets", "pydantic", "httpx2", "rich")]
        print(f"\nimports on the summary path: {len(modules)} modules, {import_ms:.0f} ms cumulative self time")
        print("heavy modules imported: " + (", ".join(sorted(set(heavy))) if heavy else "none (no openai, detect_secrets, pydantic, rich)"))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
