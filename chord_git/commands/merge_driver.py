"""``git memory merge-driver [--marker-size N] -- BASE OURS THEIRS [PATH]``: git's merge driver.

git runs it (``%O %A %B %P``, set up by ``git memory setup merge``) with the three versions of a
MEMORY.md in temporary files and takes the result from OURS. The exit code is what git expects
from a driver: 0 merged cleanly, 1 conflicts remain (git then reports the file as conflicted).

Nothing may be lost here: OURS is replaced atomically, and only with a result that holds both
sides. Unreadable inputs exit 2 and an unexpected failure exits 3, both leaving OURS untouched;
git then marks the file conflicted and keeps all three versions in the index
(``git checkout --conflict=merge PATH`` writes the usual conflict markers).
"""
from __future__ import annotations

import time
from pathlib import Path

from chord_git.errors import InputError
from chord_git.memory import merge, store
from chord_git.memory.merge import MergeResult
from chord_git.ui import Output

LOG_NAME = "merge-driver.log"


def _log_unexpected(context: str) -> str:
    """Write the traceback to the state directory's log; the path, or why there is none."""
    import traceback  # only on this path

    try:
        from chord_git.memory.project import discover

        state_dir = store.ensure_state_dir(discover(Path.cwd()))
        log = state_dir / LOG_NAME
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {context}\n{traceback.format_exc()}\n")
        return str(log)
    except Exception:  # noqa: BLE001 - the log is best effort; the one-line message still goes out
        return "no log: the state directory is not writable"


def _merge(data: list[bytes], path: str, marker_size: int, out: Output) -> MergeResult | None:
    try:
        return merge.merge_memory(*data, path=path, marker_size=marker_size)
    except Exception:  # noqa: BLE001 - a bug must not cost the user a merge
        log = _log_unexpected(f"entry merge of {path}")
    out.stderr.write(f"git memory: {path}: unexpected error in the entry merge ({log})\n")
    try:
        return merge.text_merge(*data, marker_size=marker_size,
                                notes=("merged as plain text after an internal error",))
    except Exception:  # noqa: BLE001
        _log_unexpected(f"plain merge of {path}")
        return None


def merge_driver(base: Path, ours: Path, theirs: Path, path: str, out: Output, *,
                 marker_size: int = 7) -> int:
    data = []
    for file in (base, ours, theirs):
        try:
            data.append(file.read_bytes())
        except OSError as exc:
            raise InputError(file, None, f"cannot read: {exc.strerror}") from None
    result = _merge(data, path, marker_size, out)
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
