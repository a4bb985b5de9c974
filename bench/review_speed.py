"""A pull request's scan with its memory review, against gitleaks over the same commits (issue 32).

A base of ``--base-records`` records (10,000) committed on ``main``, and a branch ``pr`` whose one
commit adds N records and their index lines, as extraction leaves them (N from ``--sizes``). Timed,
in rotating order:

- ``git memory scan --range main..pr --summary FILE`` with a cold result store (removed before
  each run): the secret scan, the memory rules on every text the range adds, and the review
  (tree diff, both sides' index, the rows, who committed each);
- the same with the store of the previous run (a pre-push hook run again, a CI re-run with a cache);
- ``gitleaks git --log-opts=main..pr`` over the same commits (its normal mode for a range).

No goal is set by the issue; the figures go in BENCHMARKS.md.

    python bench/review_speed.py [--sizes 10,100,500] [--base-records 10000] [--runs 3] [--gitleaks PATH]
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from speed_support import (anchor_arguments, bench_env, git, gitleaks, interleaved, load, make_records, new_repo,
                           ratio, run, tool, write_index, write_records)


def build(repo: Path, base_records: int, added: int) -> None:
    new_repo(repo)
    base = make_records(base_records)
    write_records(repo, base)
    write_index(repo, base)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    git(repo, "checkout", "-qb", "pr")
    new = make_records(added, start=base_records)
    write_records(repo, new)
    write_index(repo, [*base, *new])
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "new memory")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,500", help="records the pull request adds")
    parser.add_argument("--base-records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    anchor_arguments(parser)
    args = parser.parse_args()
    env = bench_env()
    ours = tool("git-memory")
    if ours is None:
        raise SystemExit("git-memory must be installed (./dev test installs it)")
    gl_bin, gl_note = gitleaks(args.gitleaks)
    print(f"review speed: a pull request onto {args.base_records:,} records, median of {args.runs} interleaved runs; "
          f"{gl_note}")
    print(f"  before: {load()}")
    print(f"  {'records added':>13} {'command':<52}{'wall s':>8}{'cpu s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            repo = Path(tmp) / f"pr{size}"
            build(repo, args.base_records, size)
            summary = Path(tmp) / "summary.md"
            scan = [ours, "scan", "--range", "main..pr", "--summary", str(summary)]

            def cold(repo: Path = repo, scan: list[str] = scan) -> tuple[float, float]:
                shutil.rmtree(repo / ".git" / "chord-memory", ignore_errors=True)
                return run(scan, repo, env)

            commands = {"git memory scan --range --summary (cold store)": cold}
            if gl_bin:
                commands["gitleaks git (the range's commits)"] = lambda repo=repo: run(
                    [gl_bin, "git", "--no-banner", "--log-level", "error", "--log-opts=main..pr", "."], repo, env)
            timings = interleaved(commands, args.runs)
            timings.update(interleaved({"git memory scan --range --summary (again)": lambda repo=repo, scan=scan: run(
                scan, repo, env)}, args.runs))
            for timing in timings.values():
                print(f"  {size:>13} {timing.label:<52}{timing.wall_median:8.2f}{timing.cpu_median:8.2f}")
            names = list(timings)
            print(f"  {size:>13} cold / gitleaks {ratio(timings[names[0]], timings.get(names[1]) if gl_bin else None)}")
    print(f"  after: {load()}")


if __name__ == "__main__":
    main()
