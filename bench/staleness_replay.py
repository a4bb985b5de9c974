"""Staleness caught in the range that causes it (issue 36): a replay of a generated history.

A project whose memory names paths, make targets, package scripts and config keys (one anchor an
entry, records carrying their ``anchors``), then ``--commits`` commits drawn from a seeded mix:
deleting or renaming a named file or folder, removing or renaming a named target, script or key
(a rename keeps the content: the recipe, the command, the value), and changes that make nothing
stale (editing a named file, adding files and targets, changing a recipe or a value, deleting a
file nobody named). The ground truth is written as each commit is made. Every commit is one
range (``C^..C``), checked by ``check.memory_staleness.find`` as ``scan --range`` does, and
compared with the truth: entries made stale and flagged in that range, false flags, renames
offered as updates. As the anchor in the same run, ``git diff -M --name-status`` of the range,
the least any range check reads.

Then the same history as ranges of ``--window`` commits (a pull request of several commits).

    python bench/staleness_replay.py [--commits 240] [--seed 7] [--window 5]
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.check import memory_staleness  # noqa: E402
from chord_git.memory import anchors, index_file, records  # noqa: E402

KINDS = ("file", "folder", "make", "script", "key")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


class Project:
    """The generated project, its memory, and what each commit made stale."""

    def __init__(self, root: Path, rng: random.Random, per_kind: int) -> None:
        self.root, self.rng = root, rng
        self.files = {f"src/mod_{n}.py": f"def f{n}():\n    return {n}  # module {n} " + "body " * 20 + "\n"
                      for n in range(per_kind * 2)}
        self.folders = {f"docs/area_{n}": [f"docs/area_{n}/note_{k}.md" for k in range(3)] for n in range(per_kind)}
        self.targets = {f"task-{n}": f"\tpython -m tool{n} --run\n" for n in range(per_kind * 2)}
        self.scripts = {f"job:{n}": f"node scripts/job{n}.js" for n in range(per_kind * 2)}
        self.keys = {f"SETTING_{n}_PATH": f"/srv/value/{n}" for n in range(per_kind * 2)}
        # Entries: half of each kind's names (the other half is there to be changed harmlessly).
        self.entries: dict[str, tuple[str, str]] = {}  # rid -> (kind, name)
        named = [("file", name) for name in list(self.files)[:per_kind]]
        named += [("folder", name) for name in list(self.folders)[: per_kind // 2]]
        named += [("make", name) for name in list(self.targets)[:per_kind]]
        named += [("script", name) for name in list(self.scripts)[:per_kind]]
        named += [("key", name) for name in list(self.keys)[:per_kind]]
        for number, (kind, name) in enumerate(named):
            self.entries[f"20261207-entry-{number:04d}"] = (kind, name)

    @staticmethod
    def text(kind: str, name: str) -> str:
        return {"file": f"The parser lives in `{name}`.", "folder": f"Design notes live under `{name}/`.",
                "make": f"Run `make {name}` before review.", "script": f"Build it with pnpm run {name}.",
                "key": f"The path is read from `{name}`."}[kind]

    def write(self) -> None:
        for path, body in self.files.items():
            self._put(path, body)
        for folder, notes in self.folders.items():
            for note in notes:
                self._put(note, f"# {note}\n\nA note of {folder}, long enough to be recognised after a move.\n")
        self._put("Makefile", "".join(f"{name}:\n{recipe}" for name, recipe in self.targets.items()))
        self._put("package.json", json.dumps({"scripts": self.scripts}, indent=2) + "\n")
        self._put(".env.example", "".join(f"{key}={value}\n" for key, value in self.keys.items()))

    def memory(self) -> None:
        lines = []
        for rid, (kind, name) in self.entries.items():
            text = self.text(kind, name)
            record = records.Record(rid, "fact", "user", "stated", text, text, "the user said so", "2026-12-07", "s",
                                    None, "c", "w", "h", anchors=anchors.of_texts([text]))
            self._put(f".chord/memory/records/{rid}.md", records.render(record))
            lines.append(index_file.Entry("fact", text, rid).render())
        self._put("MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n" + "\n".join(lines) + f"\n{index_file.END}\n")

    def _put(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def named_by(self, kind: str, name: str) -> list[str]:
        return [rid for rid, anchor in self.entries.items() if anchor == (kind, name)]

    def step(self, number: int) -> tuple[dict[str, str | None], str]:
        """One commit's change: {entry made stale: its new name, or None}, and a description."""
        rng = self.rng
        choice = rng.choice(["delete", "rename", "benign", "benign"])
        kind = rng.choice(KINDS)
        pools = {"file": self.files, "folder": self.folders, "make": self.targets, "script": self.scripts,
                 "key": self.keys}
        pool = pools[kind]
        if choice == "benign" or not pool:
            return {}, self._benign(number)
        name = rng.choice(sorted(pool))
        truth: dict[str, str | None] = {}
        if choice == "delete":
            if kind == "file":
                git(self.root, "rm", "-q", name)
            elif kind == "folder":
                git(self.root, "rm", "-q", "-r", name)
            del pool[name]
            for rid in self.named_by(kind, name):
                truth[rid] = None
        else:
            new = {"file": f"src/renamed_{number}.py", "folder": f"docs/moved_{number}", "make": f"task-r{number}",
                   "script": f"job:r{number}", "key": f"SETTING_R{number}_PATH"}[kind]
            if kind in ("file", "folder"):
                if kind == "folder":
                    (self.root / new).parent.mkdir(parents=True, exist_ok=True)
                git(self.root, "mv", name, new)
            pool[new] = pool.pop(name)
            if kind == "folder":
                pool[new] = [note.replace(name, new, 1) for note in pool[new]]
            for rid in self.named_by(kind, name):
                truth[rid] = new + ("/" if kind == "folder" else "")
        if kind in ("make", "script", "key"):
            self._configs()
        return truth, f"{choice} {kind} {name}"

    def _configs(self) -> None:
        self._put("Makefile", "".join(f"{name}:\n{recipe}" for name, recipe in self.targets.items()))
        self._put("package.json", json.dumps({"scripts": self.scripts}, indent=2) + "\n")
        self._put(".env.example", "".join(f"{key}={value}\n" for key, value in self.keys.items()))

    def _benign(self, number: int) -> str:
        rng = self.rng
        what = rng.choice(["edit-file", "add-file", "add-target", "recipe", "value", "delete-unnamed", "add-script"])
        if what == "edit-file" and self.files:
            path = rng.choice(sorted(self.files))
            self.files[path] += f"# edit {number}\n"
            self._put(path, self.files[path])
        elif what == "add-file":
            path = f"src/new_{number}.py"
            self.files[path] = f"x = {number}\n"
            self._put(path, self.files[path])
        elif what == "add-target":
            self.targets[f"extra-{number}"] = f"\techo {number}\n"
        elif what == "recipe" and self.targets:
            name = rng.choice(sorted(self.targets))
            self.targets[name] = f"\tpython -m tool --changed {number}\n"
        elif what == "value" and self.keys:
            key = rng.choice(sorted(self.keys))
            self.keys[key] = f"/srv/changed/{number}"
        elif what == "add-script":
            self.scripts[f"extra:{number}"] = f"node extra{number}.js"
        else:
            unnamed = sorted(p for p in self.files if not any(a == ("file", p) for a in self.entries.values()))
            if unnamed:
                path = rng.choice(unnamed)
                git(self.root, "rm", "-q", path)
                del self.files[path]
        self._configs()
        return f"benign {what}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=240)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--per-kind", type=int, default=24)
    parser.add_argument("--window", type=int, default=5, help="commits in each multi-commit range")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chord-staleness-replay-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "user.email", "bench@example.com")
        git(root, "config", "user.name", "Bench")
        project = Project(root, random.Random(args.seed), args.per_kind)
        project.write()
        project.memory()
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "base")
        truths: list[tuple[str, dict[str, str | None], str]] = []
        for number in range(args.commits):
            truth, what = project.step(number)
            git(root, "add", "-A")
            git(root, "commit", "-q", "--allow-empty", "-m", what)
            truths.append((git(root, "rev-parse", "HEAD").strip(), truth, what))
        stale_total = flagged_right = false_flags = renames = renames_offered = ranges_with_false = 0
        ours = anchor = 0.0
        misses: list[str] = []
        for commit, truth, what in truths:
            spec = f"{commit}^..{commit}"
            start = time.perf_counter()
            found = memory_staleness.find(root, f"{commit}^", commit, spec)
            ours += time.perf_counter() - start
            start = time.perf_counter()
            git(root, "diff", "-M", "--name-status", f"{commit}^", commit)
            anchor += time.perf_counter() - start
            flagged = {hit.rid: hit for hit in found}
            stale_total += len(truth)
            for rid, new in truth.items():
                if rid in flagged:
                    flagged_right += 1
                else:
                    misses.append(f"{what}: {rid}")
                if new is not None:
                    renames += 1
                    offered = rid in flagged and flagged[rid].renamed_to == new
                    renames_offered += offered
                    if not offered:
                        misses.append(f"rename not offered ({what} -> {new}): {rid} "
                                      f"{flagged[rid].describe() if rid in flagged else 'not flagged'}")
            wrong = [rid for rid in flagged if rid not in truth]
            false_flags += len(wrong)
            ranges_with_false += bool(wrong)
        # Pull requests of several commits: windows of --window consecutive commits, one range each.
        window_stale = window_flagged = window_false = 0
        windows = [truths[i:i + args.window] for i in range(0, len(truths) - args.window + 1, args.window)]
        for group in windows:
            first, last = group[0][0], group[-1][0]
            truth_ids = {rid for _c, truth, _w in group for rid in truth}
            found_ids = {hit.rid for hit in memory_staleness.find(root, f"{first}^", last, f"{first}^..{last}")}
            window_stale += len(truth_ids)
            window_flagged += len(truth_ids & found_ids)
            window_false += len(found_ids - truth_ids)
        ranges = len(truths)
        print(f"# staleness replay: {ranges} commits (one range each), {len(project.entries)} entries, seed {args.seed}")
        print("| ranges | entries made stale | flagged in their range | false flags (ranges with one) | "
              "renames | offered as updates | ours ms a range | git diff -M ms a range |")
        print("|---|---|---|---|---|---|---|---|")
        print(f"| {ranges} | {stale_total} | {flagged_right} ({flagged_right / max(stale_total, 1):.1%}) | "
              f"{false_flags} ({ranges_with_false}; {false_flags / ranges * 20:.2f} per 20 ranges) | {renames} | "
              f"{renames_offered} ({renames_offered / max(renames, 1):.1%}) | {ours / ranges * 1000:.1f} | "
              f"{anchor / ranges * 1000:.1f} |")
        print(f"\nranges of {args.window} commits: {len(windows)}, entries made stale {window_stale}, flagged "
              f"{window_flagged} ({window_flagged / max(window_stale, 1):.1%}), false flags {window_false}")
        for miss in misses[:10]:
            print(f"missed: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
