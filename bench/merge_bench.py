"""MEMORY.md merge driver: cost and agreement with git's own text merge (issue 14).

Prints, for indexes of 10 to 10,000 entries where both branches added entries on top:
- the in-process entry merge (``merge.merge_memory``, median of many runs),
- the whole driver process as git runs it (``git-memory merge-driver``, median of several runs),
- the reference on the same three files in the same run: ``git merge-file`` (what git does
  without the driver; it conflicts on every one of these inputs), and our plain text merge
  in-process, the driver's fallback,
- the user's own text at scale: N lines outside the managed section, both branches changing
  every seventh line (different ones), so the merge is clean but every change needs a diff,
- hostile input: two unrelated 50,000-line sides, through the fallback.
Then the agreement with ``git merge-file`` on fixed random corpora of edits with many repeated
lines: the plain fallback in each conflict style, and the user's text around the managed section.

Usage: python bench/merge_bench.py [--counts 10,1000,10000] [--runs 15] [--user-lines 1000,10000,50000]
                                   [--corpus 2000]
Run it with the venv's python (``git-memory`` must be on PATH: ``PATH=.venv/bin:$PATH``).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chord_git.memory import merge  # noqa: E402
from chord_git.memory.index_file import BEGIN, END, Entry  # noqa: E402
from testing.merge_corpus import edits, git_merge_file, memory_edits, outside_section  # noqa: E402


def index(names: list[str]) -> bytes:
    body = "".join(Entry("fact", f"Fact {n}: the build uses pnpm workspaces.", f"20261129-fact-{n}").render() + "\n"
                   for n in names)
    return f"# Project memory\n\nTeam notes.\n\n{BEGIN}\n{body}{END}\n".encode()


def median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def driver_process(folder: Path, base: bytes, ours: bytes, theirs: bytes) -> int:
    for name, data in (("O", base), ("A", ours), ("B", theirs)):
        (folder / name).write_bytes(data)
    executable = str(Path(shutil.which("git-memory") or "git-memory").resolve())
    return subprocess.run([executable, "merge-driver", "--", "O", "A", "B", "MEMORY.md"], cwd=folder,
                          capture_output=True, check=False).returncode


def sizes(counts: list[int], runs: int, folder: Path) -> None:
    print("| entries | entry merge in-process | driver process | `git merge-file` process | "
          "plain fallback in-process | driver result | git result |")
    print("|---|---|---|---|---|---|---|")
    for count in counts:
        names = [str(n) for n in range(count)]
        base = index(names)
        ours = index(["ours-a", "ours-b", *names])
        theirs = index(["theirs-a", *names])
        result = merge.merge_memory(base, ours, theirs)
        in_process = median_ms(lambda: merge.merge_memory(base, ours, theirs), runs)
        fallback = median_ms(lambda: merge.text_merge(base, ours, theirs), runs)
        process = median_ms(lambda: driver_process(folder, base, ours, theirs), max(3, runs // 3))
        git_ms = median_ms(lambda: git_merge_file(folder, base, ours, theirs), max(3, runs // 3))
        _, status = git_merge_file(folder, base, ours, theirs)
        print(f"| {count:,} | {in_process:.2f} ms | {process:.0f} ms | {git_ms:.0f} ms | {fallback:.2f} ms | "
              f"{'clean' if result.clean else 'conflict'} | {'clean' if status == 0 else 'conflict'} |")


def user_text(lines: list[int], folder: Path) -> None:
    print("\n| user lines | driver in-process | `git merge-file` process | driver result | git result |")
    print("|---|---|---|---|---|")
    for count in lines:
        base_lines = [f"line {n} of the team's notes" for n in range(count)]
        ours_lines = [f"ours {n}" if n % 7 == 0 else text for n, text in enumerate(base_lines)]
        theirs_lines = [f"theirs {n}" if n % 7 == 3 else text for n, text in enumerate(base_lines)]
        sides = [index([str(n) for n in range(3)]) + "".join(f"{t}\n" for t in side).encode()
                 for side in (base_lines, ours_lines, theirs_lines)]
        start = time.perf_counter()
        result = merge.merge_memory(*sides)
        driver_ms = (time.perf_counter() - start) * 1000
        git_ms = median_ms(lambda: git_merge_file(folder, *sides), 3)
        _, status = git_merge_file(folder, *sides)
        print(f"| {count:,} | {driver_ms:,.0f} ms | {git_ms:.0f} ms | "
              f"{'clean' if result.clean else 'conflict'} | {'clean' if status == 0 else 'conflict'} |")


def hostile(folder: Path) -> None:
    base = "".join(f"base line {n}\n" for n in range(50_000)).encode()
    ours = "".join(f"ours line {n}\n" for n in range(50_000)).encode()
    theirs = "".join(f"theirs line {n}\n" for n in range(50_000)).encode()
    start = time.perf_counter()
    result = merge.merge_memory(base, ours, theirs)
    ours_ms = (time.perf_counter() - start) * 1000
    git_ms = median_ms(lambda: git_merge_file(folder, base, ours, theirs), 1)
    whole = "both sides whole" if ours in result.data and theirs in result.data else "SIDES NOT WHOLE"
    print(f"\nhostile: three unrelated 50,000-line files: driver {ours_ms:.0f} ms "
          f"({result.conflicts} conflict, {len(result.data):,} bytes, {whole}); git merge-file {git_ms:.0f} ms")


def agreement(cases: int, folder: Path) -> None:
    for style in merge.STYLES:
        markers = merge.Markers(style=style)
        same_clean = same_bytes = 0
        for sides in edits(seed=14, count=cases):
            mine = merge.text_merge(*sides, markers=markers)
            data, status = git_merge_file(folder, *sides, style=style)
            same_clean += (mine.conflicts == 0) == (status == 0)
            same_bytes += mine.data == data
        print(f"\nplain fallback vs git merge-file ({style}) on {cases:,} random edits of markdown-like text: "
              f"clean/conflict agree {same_clean / cases:.2%}, byte-identical {same_bytes / cases:.2%}")
    same_bytes = entry_merges = 0
    for sides in memory_edits(seed=14, count=cases):
        result = merge.merge_memory(*sides)
        if result.entries_merged:
            entry_merges += 1
            data, _ = git_merge_file(folder, *(outside_section(side) for side in sides))
            same_bytes += outside_section(result.data) == data
        else:
            same_bytes += result.data == git_merge_file(folder, *sides)[0]
    print(f"\nthe user's text around the section vs git merge-file on {cases:,} random MEMORY.md edits "
          f"({entry_merges / cases:.1%} merged by entry, the rest as whole files): "
          f"byte-identical {same_bytes / cases:.2%}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="10,1000,10000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--user-lines", default="1000,10000,50000")
    parser.add_argument("--corpus", type=int, default=2000)
    args = parser.parse_args()
    if shutil.which("git-memory") is None:
        sys.exit("git-memory is not on PATH (PATH=.venv/bin:$PATH)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sizes([int(c) for c in args.counts.split(",")], args.runs, folder)
        user_text([int(c) for c in args.user_lines.split(",")], folder)
        hostile(folder)
        agreement(args.corpus, folder)


if __name__ == "__main__":
    main()
