"""``git memory setup merge``: turn on the MEMORY.md merge driver in this repository.

git keeps merge drivers in config, which a clone does not copy, and chooses them by attributes,
which travel with the repository. So this command writes the two ``merge.chord-memory.*`` keys to
the repository's own config (each clone runs it once) and *prints* the ``.gitattributes`` lines for
the MEMORY.md files it finds, root and sub-projects: the user adds and commits them. It never edits
``.gitattributes`` or ``.gitignore`` and never stages anything (R37).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from chord_git.errors import RepoError
from chord_git.git import command
from chord_git.memory.index_file import BEGIN
from chord_git.memory.project import MEMORY_FILE, discover
from chord_git.ui import Output

DRIVER = "chord-memory"
NAME = "chord-git: MEMORY.md, managed section merged entry by entry"
# git runs the driver through sh, with %O %A %B (temp files), %P (the path) and %L (marker size)
# already shell-quoted. Without git-memory on PATH (an inactive venv, a GUI with another PATH) it
# falls back to git's own text merge, so the file conflicts exactly as it would without a driver
# instead of being left as ours alone.
COMMAND = (
    "if command -v git-memory >/dev/null 2>&1; "
    "then exec git-memory merge-driver --marker-size %L -- %O %A %B %P; "
    "else echo 'git memory: git-memory is not on PATH; '%P' merged as plain text' >&2; "
    "exec git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B; fi"
)


def attributes_line(path: str) -> str:
    """A .gitattributes line matching exactly this top-level-relative path."""
    pattern = "/" + "".join("\\" + ch if ch in "*?[\\" else ch for ch in path)
    if any(ch.isspace() or ch == '"' for ch in pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"


def _is_memory_index(workdir: Path, path: str) -> bool:
    """A MEMORY.md of ours: the root one, one beside a .chord/ folder, or one with the markers."""
    file = workdir / path
    if path == MEMORY_FILE or (file.parent / ".chord").is_dir():
        return True
    try:
        with open(file, "rb") as handle:
            return BEGIN.encode() in handle.read(1 << 20)
    except OSError:
        return False


def setup_merge(start: Path, out: Output) -> int:
    repo = discover(start).repo
    if repo is None or repo.workdir is None:
        raise RepoError(f"{start}: not inside a git work tree; the merge driver is set per repository")
    workdir = repo.workdir
    command.set_local_config(workdir, f"merge.{DRIVER}.name", NAME)
    command.set_local_config(workdir, f"merge.{DRIVER}.driver", COMMAND)
    out.line(f"set merge.{DRIVER}.name and merge.{DRIVER}.driver in this repository's git config")

    found = [p for p in command.listed_files(workdir, MEMORY_FILE) if _is_memory_index(workdir, p)]
    paths = found or [MEMORY_FILE]
    current = command.attribute(workdir, "merge", paths)
    missing = [p for p in paths if current.get(p) != DRIVER]
    done = [p for p in paths if current.get(p) == DRIVER]
    if done:
        out.line(f"already merged by the driver: {', '.join(done)}")
    if missing:
        out.line("")
        out.line("Add these lines to .gitattributes at the top of the repository and commit it, so")
        out.line("every clone merges MEMORY.md with the driver (or to .git/info/attributes for this")
        out.line("clone only):")
        out.line("")
        for path in missing:
            out.line(f"    {attributes_line(path)}")
        out.line("")
    out.line("Each clone runs `git memory setup merge` once: git does not copy config with a clone.")
    if shutil.which("git-memory") is None:
        out.warn("git-memory is not on PATH here: until it is, MEMORY.md merges as plain text")
    out.line(".gitattributes and .gitignore were not edited; nothing was staged")
    return 0
