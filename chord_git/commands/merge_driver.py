"""``git memory merge-driver [--marker-size N] [--labels OURS BASE THEIRS] -- BASE OURS THEIRS [PATH]``:
git's merge driver.

git runs it (``%O %A %B %P``, set up by ``git memory setup merge``) with the three versions of a
MEMORY.md in temporary files and takes the result from OURS. The exit code is what git expects
from a driver: 0 merged cleanly, 1 conflicts remain (git then reports the file as conflicted).

Conflicts are written as git would write them without the driver: its marker size (``%L``), the
user's ``merge.conflictStyle`` (read through git, so ``git -c`` counts too) and the labels git
prints (``%X %S %Y``; a git older than 2.44 leaves them unexpanded, and then they are ``ours``,
``base`` and ``theirs``).

Nothing may be lost here: OURS is replaced atomically, and only with a result that holds both
sides. Unreadable inputs exit 2 and an unexpected failure exits 3, both leaving OURS untouched;
git then marks the file conflicted and keeps all three versions in the index
(``git checkout --conflict=merge PATH`` writes the usual conflict markers).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from chord_git.errors import InputError, RepoError, append_log
from chord_git.git import command
from chord_git.memory import merge, store
from chord_git.memory.merge import Markers, MergeResult
from chord_git.ui import Output

LOG_NAME = "merge-driver.log"
LOG_KEEP_BYTES = 256 * 1024  # a repository that keeps failing a merge must not grow the log without bound
DEFAULT_LABELS = ("ours", "base", "theirs")
PLACEHOLDERS = ("%X", "%S", "%Y")


def markers(marker_size: int, labels: Sequence[str] | None = None, workdir: Path | None = None) -> Markers:
    """The conflict markers git would write: a label git left unexpanded (older git) or empty
    (git had none) is the default one, and an unknown or unreadable style is git's default."""
    given = labels or DEFAULT_LABELS
    ours, base, theirs = (label if label and label != placeholder else default
                          for label, placeholder, default in zip(given, PLACEHOLDERS, DEFAULT_LABELS))
    try:
        style = command.config_value(workdir or Path.cwd(), "merge.conflictStyle") or "merge"
    except RepoError:
        style = "merge"
    return Markers(marker_size, style if style in merge.STYLES else "merge", ours, base, theirs)


def _log_unexpected(context: str) -> str:
    """Write the traceback to the state directory's log; the path, or why there is none."""
    import traceback  # only on this path

    try:
        from chord_git.memory.project import discover

        state_dir = store.ensure_state_dir(discover(Path.cwd()))
        log = state_dir / LOG_NAME
        text = f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {context}\n{traceback.format_exc()}\n"
        append_log(log, text.encode("utf-8", "replace"), keep_bytes=LOG_KEEP_BYTES, mode=0o600, follow_links=False)
        return str(log)
    except Exception:  # noqa: BLE001 - the log is best effort; the one-line message still goes out
        return "no log: the state directory is not writable"


def _merge(data: list[bytes], path: str, style: Markers, out: Output) -> MergeResult | None:
    try:
        return merge.merge_memory(*data, path=path, markers=style)
    except Exception:  # noqa: BLE001 - a bug must not cost the user a merge
        log = _log_unexpected(f"entry merge of {path}")
    out.stderr.write(f"git memory: {path}: unexpected error in the entry merge ({log})\n")
    try:
        return merge.text_merge(*data, markers=style, notes=("merged as plain text after an internal error",))
    except Exception:  # noqa: BLE001
        _log_unexpected(f"plain merge of {path}")
        return None


def merge_driver(base: Path, ours: Path, theirs: Path, path: str, out: Output, *,
                 marker_size: int = 7, labels: Sequence[str] | None = None) -> int:
    data = []
    for file in (base, ours, theirs):
        try:
            data.append(file.read_bytes())
        except OSError as exc:
            raise InputError(file, None, f"cannot read: {exc.strerror}") from None
    result = _merge(data, path, markers(marker_size, labels), out)
    if result is None:
        out.stderr.write(f"git memory: {path}: left as ours; git marks it conflicted with both sides in the index\n")
        return 3
    if result.data != data[1]:
        try:
            mode = ours.stat().st_mode & 0o777
            store.replace_atomically(ours, result.data, ours.parent, mode)
        except OSError as exc:
            out.stderr.write(f"git memory: {path}: cannot write the merge result: {exc.strerror}; left as ours\n")
            return 3
    for note in result.notes:
        out.stderr.write(f"git memory: {path}: {note}\n")
    if result.conflicts:
        where = "in the text outside the managed section" if result.entries_merged else "in the file"
        out.stderr.write(f"git memory: {path}: {result.conflicts} conflict(s) left {where}\n")
    return 1 if result.conflicts else 0
