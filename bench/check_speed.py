"""Whole-project ``git memory check`` and ``git memory status`` on a large memory (issue 13).

A project holds ``--records`` record files (default 10,000), every one listed in MEMORY.md (an
index nobody curated: the worst case for both commands). Timed, in rotating order:

- ``git memory check`` with a cold result cache (removed before each run), and again with
  nothing changed since the previous run;
- ``gitleaks dir`` on the memory files (the same files, no history);
- ``detect-secrets scan --all-files`` on them with ``--with-detect-secrets`` (slow: minutes).

Then ``git memory status`` at 10 records and at ``--records``, interleaved, and at ``--records``
right after MEMORY.md changed (the counts ``status`` keeps in the state dir must be redone).

Goals: whole-project check <= 5 s on the first run and <= 1 s when nothing changed; status at
10,000 records <= 1.5x its 10-record time.

    python bench/check_speed.py [--records 10000] [--runs 3] [--gitleaks PATH] [--corpus DIR]
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from speed_support import (
    anchor_arguments,
    corpus_of,
    bench_env,
    git,
    gitleaks,
    interleaved,
    load,
    make_records,
    new_repo,
    ratio,
    run,
    tool,
    write_index,
    write_records,
)


def build(path: Path, count: int, corpus: Path | None) -> Path:
    repo = new_repo(path)
    recs = make_records(count, corpus=corpus)
    write_records(repo, recs)
    write_index(repo, recs)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "memory")
    return repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--with-detect-secrets", action="store_true", help="also time detect-secrets (minutes)")
    anchor_arguments(parser)
    args = parser.parse_args()
    corpus = corpus_of(args)
    env = bench_env()
    ours, ds = tool("git-memory"), tool("detect-secrets")
    if ours is None:
        raise SystemExit("git-memory must be installed (./dev test installs it)")
    gl_bin, gl_note = gitleaks(args.gitleaks)
    print(f"check and status speed, {args.records} records, median of {args.runs} interleaved runs; {gl_note}")
    print(f"  before: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        big = build(Path(tmp) / "big", args.records, corpus)
        small = build(Path(tmp) / "small", 10, corpus)

        def cold() -> tuple[float, float]:
            shutil.rmtree(big / ".git" / "chord-memory", ignore_errors=True)
            return run([ours, "check"], big, env)

        commands = {"git memory check (cold cache)": cold}
        if gl_bin:
            commands["gitleaks dir (the memory files)"] = lambda: run(
                [gl_bin, "dir", "--no-banner", "--log-level", "error", "MEMORY.md", ".chord"], big, env)
        if args.with_detect_secrets and ds:
            commands["detect-secrets scan --all-files"] = lambda: run([ds, "scan", "--all-files", "."], big, env)
        timings = interleaved(commands, args.runs)
        run([ours, "check"], big, env)
        timings.update(interleaved({"git memory check (nothing changed)": lambda: run([ours, "check"], big, env)},
                                   args.runs))
        memory = big / "MEMORY.md"
        original = memory.read_bytes()
        edits = iter(range(1_000_000))

        def status_after_edit() -> tuple[float, float]:
            # A changed MEMORY.md (what every extraction leaves): the counts kept by the last run
            # no longer apply and the whole index is read again.
            memory.write_bytes(original.replace(b"\n", b" %d\n" % next(edits), 1))
            return run([ours, "status"], big, env)

        status = interleaved({"git memory status, 10 records": lambda: run([ours, "status"], small, env),
                              f"git memory status, {args.records} records": lambda: run([ours, "status"], big, env),
                              f"git memory status, {args.records}, MEMORY.md changed": status_after_edit},
                             max(args.runs, 7))
    print(f"  {'command':<46}{'wall s':>8}{'cpu s':>8}")
    for timing in list(timings.values()) + list(status.values()):
        print(f"  {timing.label:<46}{timing.wall_median:8.3f}{timing.cpu_median:8.3f}")
    names, snames = list(timings), list(status)
    first, unchanged = timings[names[0]], timings["git memory check (nothing changed)"]
    print(f"  check, first run: {first.wall_median:.2f} s wall, {first.cpu_median:.2f} s cpu (goal <= 5 s); "
          f"/ gitleaks {ratio(first, timings.get('gitleaks dir (the memory files)'))}")
    print(f"  check, nothing changed: {unchanged.wall_median:.2f} s wall, {unchanged.cpu_median:.2f} s cpu (goal <= 1 s)")
    print(f"  status, {args.records} / 10 records: {ratio(status[snames[1]], status[snames[0]])} (goal <= 1.5); "
          f"right after MEMORY.md changed: {ratio(status[snames[2]], status[snames[0]])}")
    print(f"  after: {load()}")


if __name__ == "__main__":
    main()
