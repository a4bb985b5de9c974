"""In-place editor saves against concurrent store writers (issue 9 item 8, R35).

An editor process saves MEMORY.md in place (read, truncate, pause 0-10 ms, write the same inode),
as VS Code, nano or a shell ``>`` do, while 3 to 8 writer processes insert entries through the
store. Prints, per run: the editor's notes and how many were lost (must be 0), the header (must
survive), entries inserted, entries missing, and of those how many an editor's stale buffer
overwrote (written between its read and its truncate: the only loss allowed; such an entry's
record becomes an orphan that a later extraction may write again), and writes the store refused
(nothing written: the file never settled; not a loss, the caller tries again).

``--no-leases`` runs every process without file leases (as on another owner's file or a network
file system), ``--pause`` sets the editor's longest pause between truncate and write (seconds).

Usage: python bench/store_inplace_stress.py [--writers 3,5,8] [--inserts 40] [--rounds 3]
                                            [--no-leases] [--pause 0.01]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testing.memory_writers import inplace_stress  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--writers", default="3,5,8")
    parser.add_argument("--inserts", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-leases", action="store_true", help="the store takes no file leases")
    parser.add_argument("--pause", type=float, default=0.01, help="editor's longest truncate-to-write pause (s)")
    args = parser.parse_args(argv)
    os.environ["CHORD_WRITERS_PAUSE"] = str(args.pause)
    if args.no_leases:
        os.environ["CHORD_WRITERS_NO_LEASES"] = "1"
    print(f"{'writers':>7} {'round':>5} {'notes':>6} {'notes lost':>10} {'header lost':>11} "
          f"{'entries':>7} {'missing':>7} {'stale buffer':>12} {'unexplained':>11} {'refused':>7}")
    bad = 0
    for writers in (int(w) for w in args.writers.split(",")):
        for round_no in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="chord-inplace-") as tmp:
                repo = Path(tmp) / "repo"
                repo.mkdir()
                subprocess.run(["git", "init", "-q", str(repo)], check=True)
                r = inplace_stress(repo, writers, args.inserts, seed=1000 * writers + round_no)
            bad += r["notes_lost"] + r["header_lost"] + r["lost_unexplained"]
            print(f"{writers:>7} {round_no:>5} {r['notes']:>6} {r['notes_lost']:>10} {r['header_lost']:>11} "
                  f"{r['entries']:>7} {r['lost']:>7} {r['lost'] - r['lost_unexplained']:>12} "
                  f"{r['lost_unexplained']:>11} {r['refused']:>7}")
    print("OK: no user text lost" if not bad else f"FAILED: {bad} losses")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
