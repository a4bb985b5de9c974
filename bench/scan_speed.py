"""``git memory scan --all`` over a long history, against gitleaks over the same history (issue 13).

The history alternates memory commits (one new record and its index line, as extraction leaves
them; the index keeps the newest 40 entries, as curation does) with ordinary source commits: by
default 5,000 of each. ``git fast-import`` builds it in seconds. Timed, in rotating order:

- ``git memory scan --all`` with a cold result cache (removed before each run), and again with
  the cache of the previous run (a CI re-run of the same range);
- ``gitleaks git`` over the same history (every file of every commit: its normal mode).

Goals: cold scan <= 2x gitleaks, linear in the number of commits (``--sizes`` prints time per
commit at several sizes); a second run <= 0.2x the first.

    python bench/scan_speed.py [--sizes 1250,2500,5000] [--runs 3] [--gitleaks PATH] [--corpus DIR]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from speed_support import anchor_arguments, bench_env, corpus_of, gitleaks, interleaved, load, make_records, ratio, run, tool

from chord_git.memory import records
from chord_git.memory.index_file import BEGIN, END, Entry

INDEX_KEEP = 40


def _blob(data: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(data), data)


def build(repo: Path, memory_commits: int, corpus: Path | None) -> None:
    """A repository whose history holds ``memory_commits`` memory commits and as many others."""
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    recs = make_records(memory_commits, corpus=corpus)
    stream: list[bytes] = []
    when = 1_790_000_000
    entries: list[str] = []
    for number, record in enumerate(recs):
        for kind in ("memory", "source"):
            when += 60
            stream.append(b"commit refs/heads/main\n")
            stream.append(b"committer Bench <bench@example.invalid> %d +0000\n" % when)
            message = f"{kind} {number}".encode()
            stream.append(_blob(message))
            if kind == "memory":
                entries.insert(0, Entry(record.type, record.summary, record.id).render())
                del entries[INDEX_KEEP:]
                index = f"# Project memory\n\n{BEGIN}\n" + "\n".join(entries) + f"\n{END}\n"
                stream.append(b"M 100644 inline .chord/memory/records/%s.md\n" % record.id.encode())
                stream.append(_blob(records.render(record).encode()))
                stream.append(b"M 100644 inline MEMORY.md\n")
                stream.append(_blob(index.encode()))
            else:
                source = f"VERSION = {number}\n\ndef main() -> int:\n    return {number % 7}\n".encode()
                stream.append(b"M 100644 inline src/app.py\n")
                stream.append(_blob(source))
                stream.append(b"M 100644 inline src/module_%d.py\n" % (number % 50))
                stream.append(_blob(b"# module %d, revision %d\nNAME = 'module'\n" % (number % 50, number)))
            stream.append(b"\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1250,2500,5000", help="memory commits per history (as many others)")
    parser.add_argument("--runs", type=int, default=3)
    anchor_arguments(parser)
    args = parser.parse_args()
    corpus = corpus_of(args)
    env = bench_env()
    ours = tool("git-memory")
    if ours is None:
        raise SystemExit("git-memory must be installed (./dev test installs it)")
    gl_bin, gl_note = gitleaks(args.gitleaks)
    print(f"scan speed: whole history, median of {args.runs} interleaved runs; {gl_note}")
    print(f"  before: {load()}")
    print(f"  {'memory commits':>14} {'command':<44}{'wall s':>8}{'cpu s':>8}{'cpu ms/commit':>15}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            repo = Path(tmp) / f"h{size}"
            build(repo, size, corpus)
            total = 2 * size

            def cold(repo: Path = repo) -> tuple[float, float]:
                shutil.rmtree(repo / ".git" / "chord-memory", ignore_errors=True)
                return run([ours, "scan", "--all"], repo, env)

            commands = {"git memory scan --all (cold cache)": cold}
            if gl_bin:
                commands["gitleaks git (all commits, all files)"] = lambda repo=repo: run(
                    [gl_bin, "git", "--no-banner", "--log-level", "error", "--log-opts=--all", "."], repo, env)
            timings = interleaved(commands, args.runs)
            run([ours, "scan", "--all"], repo, env)  # fills the cache
            again = interleaved({"git memory scan --all (second run)": lambda repo=repo: run(
                [ours, "scan", "--all"], repo, env)}, args.runs)
            timings.update(again)
            for timing in timings.values():
                print(f"  {size:>14} {timing.label:<44}{timing.wall_median:8.2f}{timing.cpu_median:8.2f}"
                      f"{timing.cpu_median / total * 1000:15.3f}")
            names = list(timings)
            rows.append((size, ratio(timings[names[0]], timings.get("gitleaks git (all commits, all files)")),
                         ratio(timings["git memory scan --all (second run)"], timings[names[0]])))
    print("  ratios of medians:")
    for size, to_gl, second in rows:
        print(f"    {size:>5} memory commits: cold / gitleaks {to_gl} (goal <= 2.0); second / first {second} (goal <= 0.2)")
    print(f"  after: {load()}")


if __name__ == "__main__":
    main()
