"""Memory under a server-side merge: random pairs of branches merged as GitHub and GitLab merge them.

For each pair, a clone of a base repository (an index of 0 to 2,000 entries, ``.gitattributes``
naming the merge driver, as a team that ran ``git memory setup merge`` commits it) gets two
branches from ``main``. Each branch runs 1-5 real extractions through the installed command
(``git-memory extract``) against the loopback fake model (``testing/fake_openai.py``), and some
branches also forget a base entry (``git-memory forget``: on a side branch a removal file hides
it until the fold) or move an index line to the top by hand.
Each branch is committed, then the two are merged with ``git merge-tree --write-tree`` in the clone,
first with no driver in its git config (a server runs none), then with ``git memory setup merge``
done (``--no-driver`` skips that merge). Counted: pairs with a conflict in a memory file. For every
clean merge the merged tree is checked out and
- ``git-memory summary`` must list every entry either branch added and did not forget, in the
  order the runs happened (newest first), and every base entry neither side forgot;
- ``git-memory fold`` must put exactly that list into MEMORY.md, and ``git-memory check`` pass.
Pairs draw from their own random streams, so ``--jobs`` does not change the outcome.

Usage: python bench/server_merge.py [--pairs 500] [--seed 21] [--jobs 2] [--no-driver]
                                    [--sizes 0,5,50,300,1000,2000] [--log FILE] [--json FILE]
       python bench/server_merge.py --report FILE    (the figures of a --log file so far)
CHORD_BENCH_TIMES=1 prints where each pair's time went.
Run it with the venv's python (``git-memory`` must be on PATH: ``PATH=.venv/bin:$PATH``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chord_git.memory import index_file  # noqa: E402
from testing.fake_openai import FakeOpenAI, Reply  # noqa: E402
from testing.memory_files import make_record, write_index  # noqa: E402

DRIVER = "chord-memory"
MEMORY_PATHS = re.compile(r"(^|/)(MEMORY\.md|\.chord/memory/)")
ENTRY_ID = re.compile(r"\(\[([a-z0-9-]+)\]\(\.chord/memory/records/")
WORDS = ("pnpm", "tabs", "review", "linter", "fixtures", "migrations", "schema", "cache", "docker", "locale",
         "release", "changelog", "coverage", "timeouts", "vendoring", "logging", "retries", "feature flags")


TIMES: dict[str, float] = {}


def run(cwd: Path, *args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    started = time.monotonic()
    done = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, env=env)
    TIMES[" ".join(args[:2])] = TIMES.get(" ".join(args[:2]), 0.0) + time.monotonic() - started
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed in {cwd}: {done.stdout}{done.stderr}")
    return done


def git(cwd: Path, *args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    return run(cwd, "git", *args, env=env, check=check)


def make_base(where: Path, size: int, env: dict[str, str]) -> Path:
    repo = where / f"base-{size}"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main", env=env)
    recs = [make_record(repo, f"20260101-base-fact-{n:05d}", summary=f"Base fact {n}: the {WORDS[n % len(WORDS)]} rule.")
            for n in range(size)]
    write_index(repo, recs)
    (repo / ".gitattributes").write_text("MEMORY.md merge=chord-memory\n")
    git(repo, "add", "-A", env=env)
    git(repo, "commit", "-q", "-m", "base", env=env)
    return repo


def entries(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if line.startswith("- [") and (m := ENTRY_ID.search(line))]


class Pair:
    """One pair's branches, what they did, and the outcome."""

    def __init__(self, rng: random.Random, number: int, server: FakeOpenAI, work: Path, env: dict[str, str]) -> None:
        self.rng, self.number, self.server, self.work, self.env = rng, number, server, work, env
        self.added: list[str] = []  # every id added, in run order (oldest first)
        self.forgotten: set[str] = set()
        self.edited = False  # a side forgot or reordered

    def extract(self, side: str, run_no: int) -> None:
        count = self.rng.randint(1, 2)
        said, recs = [], []
        for k in range(count):
            tag = f"p{self.number}{side}{run_no}x{k}"
            word = self.rng.choice(WORDS)
            sentence = f"in this project the {word} convention {tag} must always be followed by everyone"
            said.append(sentence)
            recs.append({"type": self.rng.choice(["preference", "fact", "workflow", "lesson"]),
                         "summary": f"Follow the {word} convention {tag}.",
                         "statement": f"The {word} convention {tag} applies to all changes.",
                         "why": "Later sessions would otherwise ask again.",
                         "how_to_apply": "Apply it whenever the situation comes up.",
                         "source": "user", "status": "stated", "evidence": sentence, "supersedes": None})
        self.server.script("m1", Reply({"records": recs, "retire": [], "promotions": []}))
        session = self.work.parent / f"s-{self.number}-{side}-{run_no}.jsonl"
        lines = [{"type": "session", "id": f"s{self.number}{side}{run_no}", "frozen": True}]
        lines += [{"type": "message", "role": "user", "content": text} for text in said]
        session.write_text("".join(json.dumps(line) + "\n" for line in lines))
        done = run(self.work, "git-memory", "extract", "--session", str(session), "--json", env=self.env)
        written = json.loads(done.stdout)["written"]
        if len(written) != count:
            raise RuntimeError(f"pair {self.number}: expected {count} written, got {done.stdout}")
        self.added.extend(written)  # newest first within the run; reversed below when needed

    def forget(self) -> None:
        # A line a removal file hides is forgotten already on this branch (readers skip it).
        hidden = self.work / ".chord" / "memory" / "pending"
        listed = [rid for rid in entries((self.work / "MEMORY.md").read_text())
                  if not (hidden / f"{rid}.removed.md").exists()]
        if listed:
            rid = self.rng.choice(listed)
            run(self.work, "git-memory", "forget", rid, env=self.env)
            self.forgotten.add(rid)
            self.edited = True

    def reorder(self) -> None:
        path = self.work / "MEMORY.md"
        lines = path.read_text().split("\n")
        at = [i for i, line in enumerate(lines) if line.startswith("- [")]
        if len(at) >= 2:
            moved = lines.pop(self.rng.choice(at[1:]))
            lines.insert(at[0], moved)
            path.write_text("\n".join(lines))
            self.edited = True

    def branch(self, side: str) -> list[list[str]]:
        git(self.work, "switch", "-q", "-c", side, "main", env=self.env)
        runs: list[list[str]] = []
        for run_no in range(self.rng.randint(1, 5)):
            before = len(self.added)
            self.extract(side, run_no)
            runs.append(self.added[before:])
            roll = self.rng.random()
            if roll < 0.05:
                self.forget()
            elif roll < 0.08:
                self.reorder()
        # A forget of an entry this branch added (its pending file goes): sometimes.
        if self.rng.random() < 0.05 and self.added:
            rid = self.rng.choice(runs[-1])
            run(self.work, "git-memory", "forget", rid, env=self.env)
            self.forgotten.add(rid)
        git(self.work, "add", "-A", env=self.env)
        git(self.work, "commit", "-q", "-m", f"memory on {side}", env=self.env)
        return runs


def verify(work: Path, tree: str, expected_added: list[str], expected: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Check out ``tree`` (HEAD detached: readers only; the fold is run explicitly) and hold it to
    what the branches did."""
    git(work, "switch", "-q", "--detach", "main", env=env)
    git(work, "read-tree", "--reset", "-u", tree, env=env)
    summary = entries(run(work, "git-memory", "summary", "--budget", "100000000", env=env).stdout)
    out: dict[str, Any] = {"summary_ok": summary[: len(expected_added)] == expected_added
                           and sorted(summary) == sorted(expected)}
    folded = run(work, "git-memory", "fold", env=env)
    left = list((work / ".chord" / "memory" / "pending").glob("*.md"))
    out["fold_ok"] = entries((work / "MEMORY.md").read_text()) == summary and not left
    checked = run(work, "git-memory", "check", env=env, check=False)
    out["check_ok"] = checked.returncode == 0
    if not all(out.values()):
        out["detail"] = {"expected": expected[:20], "summary": summary[:20], "fold": folded.stdout,
                         "check": checked.stdout[-2000:]}
    return out


def merge(work: Path, env: dict[str, str]) -> tuple[int, str, bool]:
    merged = git(work, "merge-tree", "--write-tree", "--name-only", "side-a", "side-b", env=env, check=False)
    if merged.returncode not in (0, 1):
        raise RuntimeError(f"merge-tree failed: {merged.stderr}")
    out_lines = merged.stdout.split("\n")
    conflicted = [name for name in out_lines[1:] if name.strip()]
    memory = merged.returncode == 1 and any(MEMORY_PATHS.search(name) for name in conflicted)
    return merged.returncode, out_lines[0].strip(), memory


def one_pair(rng: random.Random, number: int, work: Path, server: FakeOpenAI, env: dict[str, str],
             driver: bool) -> dict[str, Any]:
    """One pair in ``work`` (a clone of its base, on ``main``); leaves it clean on ``main``."""
    base_ids = entries((work / "MEMORY.md").read_text())
    pair = Pair(rng, number, server, work, env)
    runs = pair.branch("side-a") + pair.branch("side-b")
    result: dict[str, Any] = {"pair": number, "base": len(base_ids), "edited": pair.edited,
                              "runs": len(runs), "added": len(pair.added)}
    expected_added = [rid for batch in reversed(runs) for rid in batch if rid not in pair.forgotten]
    expected = expected_added + [rid for rid in base_ids if rid not in pair.forgotten]
    trees: dict[str, str] = {}
    for mode in ("off", "on") if driver else ("off",):
        if mode == "on":
            run(work, "git-memory", "setup", "merge", env=env)
        code, tree, memory = merge(work, env)
        if mode == "on":
            git(work, "config", "--local", "--remove-section", f"merge.{DRIVER}", env=env)
        result[f"conflict_{mode}"] = code == 1
        result[f"memory_conflict_{mode}"] = memory
        if code == 0:
            if tree not in trees:
                trees[tree] = mode
                result.update({f"{k}_{mode}": v for k, v in verify(work, tree, expected_added, expected, env).items()})
            else:  # the same tree as the other mode's: the same outcome
                other = trees[tree]
                result.update({f"{k}_{mode}": result[f"{k}_{other}"] for k in ("summary_ok", "fold_ok", "check_ok")})
    git(work, "switch", "-q", "-f", "main", env=env)
    git(work, "clean", "-qfdx", env=env)
    git(work, "branch", "-q", "-D", "side-a", "side-b", env=env)
    return result


def worker(numbers: list[int], seed: int, sizes: list[int], driver: bool, log: Path | None = None) -> list[dict[str, Any]]:
    """The pairs ``numbers``, each from its own random stream: the outcome does not depend on how
    the pairs are spread over processes."""
    results = []
    with tempfile.TemporaryDirectory(prefix="chord-server-merge-") as tmp, FakeOpenAI() as server:
        scratch = Path(tmp)
        home = scratch / "home"
        (home / ".config" / "chord").mkdir(parents=True)
        (home / ".config" / "chord" / "config.yaml").write_text(
            "model_pool:\n"
            f"  - model: m1\n    base_url: {server.base_url}\n    api_key_env: CHORD_BENCH_KEY\n"
            "memory:\n  enabled: true\n")
        env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_STATE_HOME": str(home / ".state"), "CHORD_BENCH_KEY": "placeholder",
               "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
               "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
               "GIT_CONFIG_NOSYSTEM": "1"}
        env.pop("GIT_CONFIG_GLOBAL", None)
        clones: dict[int, Path] = {}
        for number in numbers:
            rng = random.Random(seed * 1_000_003 + number)
            size = rng.choice(sizes)
            if size not in clones:
                base = make_base(scratch / "bases", size, env)
                clones[size] = scratch / "clones" / f"clone-{size}"
                # A clone, as a server's is: its git config names no merge driver.
                git(scratch, "clone", "-q", str(base), str(clones[size]), env=env)
            results.append(one_pair(rng, number, clones[size], server, env, driver))
            if log is not None:  # one line a pair, as it ends: a long run can be read while it goes
                with log.open("a") as stream:
                    stream.write(json.dumps(results[-1]) + "\n")
            if os.environ.get("CHORD_BENCH_TIMES"):
                print(size, {k: round(v, 1) for k, v in sorted(TIMES.items(), key=lambda kv: -kv[1])[:8]}, file=sys.stderr)
                TIMES.clear()
            if len(results) % 10 == 0:
                print(f"  worker {os.getpid()}: {len(results)}/{len(numbers)} pairs", file=sys.stderr, flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--no-driver", action="store_true", help="skip the second merge of each pair, with the driver on")
    parser.add_argument("--sizes", default="0,5,50,300,1000,2000", help="base index sizes drawn from")
    parser.add_argument("--jobs", type=int, default=1, help="pairs run in this many processes at once")
    parser.add_argument("--json", type=Path, help="write every pair's outcome here")
    parser.add_argument("--log", type=Path, help="append each pair's outcome to this file as it ends (JSON lines)")
    parser.add_argument("--report", type=Path, help="only print the figures of a --log file")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    started = time.monotonic()
    numbers = list(range(args.pairs))
    if args.report:
        results = sorted((json.loads(line) for line in args.report.read_text().splitlines() if line.strip()),
                         key=lambda r: int(r["pair"]))
    elif args.jobs <= 1:
        results = worker(numbers, args.seed, sizes, not args.no_driver, args.log)
    else:
        from concurrent.futures import ProcessPoolExecutor

        chunks = [numbers[k::args.jobs] for k in range(args.jobs)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = pool.map(worker, chunks, [args.seed] * len(chunks), [sizes] * len(chunks),
                             [not args.no_driver] * len(chunks), [args.log] * len(chunks))
            results = sorted((r for part in parts for r in part), key=lambda r: int(r["pair"]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    total = len(results)
    plain = [r for r in results if not r["edited"]]
    print(f"server merge (git merge-tree --write-tree), seed {args.seed}: {total} pairs, 1-5 extractions per "
          f"branch ({sum(r['runs'] for r in results)} in all, {sum(r['added'] for r in results)} entries added), "
          f"base index sizes drawn from {sizes}; a side forgot or reordered in {total - len(plain)} pairs")
    failed = False
    for mode in ("off", "on") if not args.no_driver else ("off",):
        clean = [r for r in results if not r[f"memory_conflict_{mode}"]]
        clean_plain = [r for r in plain if not r[f"memory_conflict_{mode}"]]
        merged = [r for r in results if not r[f"conflict_{mode}"]]
        good = [r for r in merged if all(r.get(f"{k}_{mode}") for k in ("summary_ok", "fold_ok", "check_ok"))]
        bad = Counter(k for r in merged for k in ("summary_ok", "fold_ok", "check_ok") if not r.get(f"{k}_{mode}"))
        failed = failed or bool(bad)
        print(f"driver {mode}: no conflict in memory files {len(clean)}/{total} ({100 * len(clean) / max(total, 1):.1f}%); "
              f"neither side forgot or reordered {len(clean_plain)}/{len(plain)} "
              f"({100 * len(clean_plain) / max(len(plain), 1):.1f}%); a side did {len(clean) - len(clean_plain)}/"
              f"{total - len(plain)}")
        print(f"  clean merges {len(merged)}: summary holds every added entry newest first, the fold puts that list in "
              f"MEMORY.md, check passes: {len(good)}/{len(merged)}" + (f" (failures: {dict(bad)})" if bad else ""))
    print(f"time: {time.monotonic() - started:.0f} s")
    for r in results:
        if any(k.startswith("detail") for k in r):
            print(json.dumps(r)[:3000], file=sys.stderr)
            break
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
