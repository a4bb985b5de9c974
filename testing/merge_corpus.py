"""Random three-way edits of markdown-like text, and git's own merge of them, to hold the merge
driver against ``git merge-file`` (tests and ``bench/merge_bench.py``): the plain text merge on
whole files, and the user's text around the managed section of a MEMORY.md."""
from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

from chord_git.memory import index_file
from chord_git.memory.index_file import BEGIN, END, Entry

# Repeated lines on purpose: blank lines, fences and rules are where diffs are ambiguous.
VOCABULARY = ["", "", "", "# Notes", "- use pnpm", "```", "---", *[f"line {i}" for i in range(12)]]
LABELS = ("ours", "base", "theirs")
# What stands for the managed section when git merges the text around it: the same lines on every
# side, more than three and with letters, so git never joins two conflicts across them.
STAND_IN = [f"(the managed section, line {n})" for n in range(1, 5)]


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


def _join(lines: list[str], newline: str, final: bool) -> bytes:
    text = "".join(f"{line}{newline}" for line in lines)
    return (text if final or not text else text[:-len(newline)]).encode()


def edits(seed: int, count: int, max_lines: int = 14, *, endings: bool = False) -> Iterator[tuple[bytes, bytes, bytes]]:
    """``count`` (base, ours, theirs) triples, the same ones for the same seed. With ``endings``,
    some use CRLF and some sides lose their last newline."""
    rnd = random.Random(seed)
    for _ in range(count):
        base = [rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, max_lines))]
        ours, theirs = _edit(rnd, base), _edit(rnd, base)
        newline = "\r\n" if endings and rnd.random() < 0.25 else "\n"
        finals = [not endings or rnd.random() < 0.8 for _ in range(3)]
        yield tuple(_join(side, newline, final) for side, final in zip((base, ours, theirs), finals))  # type: ignore[misc]


def _entry(name: str, summary: str) -> str:
    return Entry("fact", summary, f"20261129-{name}-0a1b").render()


def memory_edits(seed: int, count: int) -> Iterator[tuple[bytes, bytes, bytes]]:
    """``count`` (base, ours, theirs) MEMORY.md triples: random edits of the user's text above and
    below the managed section, and random entry changes inside it (added on top, forgotten,
    reworded), the same ones for the same seed."""
    rnd = random.Random(seed)
    for _ in range(count):
        head = [rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, 8))]
        tail = [rnd.choice(VOCABULARY) for _ in range(rnd.randint(0, 5))]
        entries = {f"e{n}": f"Fact {n}." for n in range(rnd.randint(0, 4))}
        sides = [(head, dict(entries), tail)]
        for name in ("ours", "theirs"):
            kept = {rid: text for rid, text in entries.items() if rnd.random() < 0.85}
            for rid in kept:
                if rnd.random() < 0.2:
                    kept[rid] = f"Fact {rid} as {name} put it."
            if rnd.random() < 0.5:
                kept = {f"{name}{rnd.randint(0, 1)}": f"New from {name}.", **kept}
            sides.append((_edit(rnd, head), kept, _edit(rnd, tail)))
        yield tuple("".join(f"{line}\n" for line in [*above, BEGIN, *(_entry(rid, text) for rid, text in kept.items()),
                                                      END, *below]).encode()
                    for above, kept, below in sides)  # type: ignore[misc]


def git_merge_file(folder: Path, base: bytes, ours: bytes, theirs: bytes, *, style: str = "merge",
                   labels: tuple[str, str, str] = LABELS, marker_size: int = 7) -> tuple[bytes, int]:
    """``git merge-file -p`` as a user runs it: merged bytes and git's exit status."""
    for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
        (folder / name).write_bytes(data)
    option = {"merge": ["--no-diff3"], "diff3": ["--diff3"], "zdiff3": ["--zdiff3"]}[style]
    done = subprocess.run(["git", "merge-file", "-p", *option, f"--marker-size={marker_size}",
                           "-L", labels[0], "-L", labels[1], "-L", labels[2], "ours", "base", "theirs"],
                          cwd=folder, capture_output=True, check=False)
    return done.stdout, done.returncode


def outside_section(data: bytes) -> bytes:
    """A MEMORY.md with its managed section (begin line to end line, as the parser finds them:
    markers inside a code fence are text) replaced by ``STAND_IN``; without one, as it is."""
    doc, _problems = index_file.parse(data.decode("utf-8", "surrogateescape"))
    if doc is None or not doc.has_markers:
        return data
    before = doc.prefix[:doc.prefix.rfind("\n", 0, len(doc.prefix) - 1) + 1]
    after = doc.suffix[doc.suffix.find("\n") + 1:] if "\n" in doc.suffix else ""
    return (before + "".join(f"{line}\n" for line in STAND_IN) + after).encode("utf-8", "surrogateescape")
