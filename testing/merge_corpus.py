"""Random three-way edits of markdown-like text, and git's own merge of them, to hold the
merge driver's plain text merge against ``git merge-file`` (tests and ``bench/merge_bench.py``)."""
from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

# Repeated lines on purpose: blank lines, fences and rules are where diffs are ambiguous.
VOCABULARY = ["", "", "", "# Notes", "- use pnpm", "```", "---", *[f"line {i}" for i in range(12)]]


def _edit(rnd: random.Random, text: list[str]) -> list[str]:
    text = list(text)
    for _ in range(rnd.randint(0, 4)):
        roll = rnd.random()
        if roll < 0.3 and text:
            del text[rnd.randrange(len(text))]
        elif roll < 0.8:
            text.insert(rnd.randint(0, len(text)), rnd.choice([*VOCABULARY, "new A", "new B"]))
        elif text:
            text[rnd.randrange(len(text))] = rnd.choice(["changed X", "changed Y"])
    return text


def edits(seed: int, count: int, max_lines: int = 14) -> Iterator[tuple[bytes, bytes, bytes]]:
    """``count`` (base, ours, theirs) triples, the same ones for the same seed."""
    rnd = random.Random(seed)
    for _ in range(count):
        base = [rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, max_lines))]
        ours, theirs = _edit(rnd, base), _edit(rnd, base)
        yield tuple("".join(f"{w}\n" for w in side).encode() for side in (base, ours, theirs))  # type: ignore[misc]


def git_merge_file(folder: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[bytes, int]:
    """``git merge-file -p`` with the driver's labels: merged bytes and git's exit status."""
    for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
        (folder / name).write_bytes(data)
    done = subprocess.run(["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
                           "ours", "base", "theirs"], cwd=folder, capture_output=True, check=False)
    return done.stdout, done.returncode
