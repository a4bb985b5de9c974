"""The staged changes, read through the ``git`` command; and the few settings read through git.

The pre-commit hook reads what the next commit adds here, in two calls to ``git`` whatever the
number of files: ``diff --cached --raw`` (which memory files changed; a commit without any stops
there) and ``cat-file --batch`` (their staged bytes and HEAD's); the added lines are what the
staged blob holds that HEAD's does not (``added_lines``, as history scans read them).
That costs a few milliseconds, where importing pygit2 alone costs about 50: start-up time is the
hook's main cost. git also reads every index format (split, sparse, sha256 repositories) and
honours ``GIT_INDEX_FILE`` (``commit -a``, ``commit <path>``) by itself. History scans, which walk
many commits, go through ``diff-tree`` and ``cat-file`` here too (``commit_changes``), merges
through pygit2 (``libgit2``). The plain data types both return live in ``changes``.

It also holds the few repository settings the tool reads or writes through git itself: a config
value in the repository's own config file, attributes, and the files git lists; and git's own
three-way text merge (``merge_file``), which the MEMORY.md merge driver uses for every line it
merges as text.
"""
from __future__ import annotations

import importlib
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, count
from pathlib import Path
from typing import Any

from chord_git.errors import RepoError
from chord_git.git.changes import AddedLines, FileChange, StagedChanges, line_text

# Every path ``changes.is_checked_path`` accepts, as pathspecs (``**/`` also matches no folder):
# the memory files and the project config.
CHECKED_PATHSPECS = (":(glob)**/MEMORY.md", ":(glob)**/.chord/memory/**", ":(glob)**/.chord/config.yaml")
# Output options a user's config could change: fixed, so the parsers below see git's plain format.
_DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--no-relative",
                 "--src-prefix=a/", "--dst-prefix=b/")
# git as every call here starts it. A repository's own config must run no program: the commands
# below run no hook, alias, pager, filter or textconv (``cat-file --batch`` reads blobs
# unfiltered; diffs pass ``_DIFF_OPTIONS``), but any command that reads the index asks
# ``core.fsmonitor``, which may name a program; it is switched off.
GIT = ("git", "-c", "core.fsmonitor=false")


def _env() -> dict[str, str]:
    """git's environment, with a relative ``GIT_INDEX_FILE`` (git's hooks set one) made absolute:
    the commands run at the top of the work tree, not necessarily where the hook started."""
    env = dict(os.environ)
    index = env.get("GIT_INDEX_FILE")
    if index and not os.path.isabs(index):
        env["GIT_INDEX_FILE"] = os.path.abspath(index)
    return env


def _run(workdir: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """git's output; its first line of error output as a ``RepoError`` when it fails."""
    try:
        returncode, out, err = _spawn([*GIT, "-C", str(workdir), *args], stdin)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    if returncode != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise RepoError(f"git {args[0]} failed: {message[0] if message else returncode}")
    return out


def _spawn(argv: list[str], stdin: bytes | None) -> tuple[int, bytes, bytes]:
    """(exit code, stdout, stderr) of ``argv``, fed ``stdin`` (None: the caller's own stdin).

    ``subprocess.run`` with ``capture_output``, without the module: importing it (with
    ``threading``, ``selectors``, ``signal`` and ``locale``) costs the pre-commit hook more than
    its three git calls. The pipes are read (and ``stdin`` written) as they become ready, so
    neither side waits on a full pipe.
    """
    if not hasattr(os, "posix_spawnp"):  # Windows
        import subprocess

        done = subprocess.run(argv, input=stdin, capture_output=True, check=False, env=_env())
        return done.returncode, done.stdout, done.stderr
    import select
    import signal

    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    in_read, in_write = os.pipe() if stdin is not None else (-1, -1)
    actions = [(os.POSIX_SPAWN_DUP2, out_write, 1), (os.POSIX_SPAWN_DUP2, err_write, 2)]
    if stdin is not None:
        actions.append((os.POSIX_SPAWN_DUP2, in_read, 0))
    try:
        # SIGPIPE as a fresh process has it (Python ignores it, and an exec keeps what is ignored).
        pid = os.posix_spawnp(argv[0], argv, _env(), file_actions=actions, setsigdef=(signal.SIGPIPE,))
    except BaseException:
        for fd in (out_read, err_read, in_write):
            if fd >= 0:
                os.close(fd)
        raise
    finally:
        for fd in (out_write, err_write, in_read):
            if fd >= 0:
                os.close(fd)
    chunks: dict[int, list[bytes]] = {out_read: [], err_read: []}
    poller = select.poll()
    for fd in chunks:
        poller.register(fd, select.POLLIN)
    pending = memoryview(stdin or b"")
    if stdin is not None:
        if pending:
            os.set_blocking(in_write, False)
            poller.register(in_write, select.POLLOUT)
        else:
            os.close(in_write)
    open_fds = len(chunks) + (1 if pending else 0)
    try:
        while open_fds:
            for fd, _event in poller.poll():
                if fd == in_write:
                    try:
                        pending = pending[os.write(fd, pending):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:  # git stopped reading: its exit code tells why
                        pending = pending[:0]
                    if not pending:
                        poller.unregister(fd)
                        os.close(fd)
                        open_fds -= 1
                    continue
                data = os.read(fd, 65536)
                if data:
                    chunks[fd].append(data)
                else:
                    poller.unregister(fd)
                    open_fds -= 1
    finally:
        for fd in chunks:
            os.close(fd)
        if pending:
            os.close(in_write)
        _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks[out_read]), b"".join(chunks[err_read])


def _raw_entries(workdir: Path) -> list[tuple[int, str, str, str, str]]:
    """(new mode, new blob id, status letter, path, the HEAD blob id when HEAD holds a regular file
    there, else "") of each staged change to a memory path."""
    out = _run(workdir, "diff", "--cached", "--raw", "-z", "--no-abbrev", *_DIFF_OPTIONS, "--",
               *CHECKED_PATHSPECS)
    fields = out.split(b"\0")
    entries = []
    for head, raw_path in zip(fields[0::2], fields[1::2]):
        if not head.startswith(b":"):
            continue
        old_mode, new_mode, old_id, new_id, status = head[1:].decode().split(" ")
        old_regular = int(old_mode, 8) & 0o170000 == 0o100000 and old_id != _NO_BLOB
        entries.append((int(new_mode, 8), new_id, status[:1], raw_path.decode("utf-8", "surrogateescape"),
                        old_id if old_regular else ""))
    return entries


_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12,
            ord("r"): 13, ord('"'): 34, ord("\\"): 92}


def unquote(name: bytes) -> bytes:
    """A path as git prints it: C-quoted (``"a/\\303\\251.md"``) when it holds unusual bytes."""
    if not (name.startswith(b'"') and name.endswith(b'"') and len(name) >= 2):
        return name
    out = bytearray()
    body, i = name[1:-1], 0
    while i < len(body):
        if body[i] == 92 and i + 1 < len(body):  # backslash
            if body[i + 1:i + 4].isdigit() and len(body[i + 1:i + 4]) == 3:
                out.append(int(body[i + 1:i + 4], 8) & 0xFF)
                i += 4
                continue
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
            continue
        out.append(body[i])
        i += 1
    return bytes(out)


# (new mode, status letter, path, old blob id or "", new blob id) of one changed file
_Changed = tuple[int, str, str, str, str]
_NO_BLOB = "0" * 40
_BINARY_PROBE = 8000  # git calls a blob binary when a NUL byte sits in its first 8,000 bytes


class ChangeListing:
    """``diff-tree --raw`` over many commits, started now and read later: git writes to a temporary
    file, so it runs on while the caller checks the previous batch (both cores busy).

    No pathspec: git matches a ``**/`` pathspec against every entry of every tree it compares
    (five times slower on a memory of thousands of records), while without one it skips every
    subtree whose id did not change. Python reads one line per changed file of the history.
    """

    def __init__(self, workdir: Path, commits: Sequence[str]) -> None:
        self.commits = list(commits)
        import subprocess
        import tempfile

        self._stdin = tempfile.TemporaryFile()
        self._stdin.write("".join(f"{oid}\n" for oid in self.commits).encode())
        self._stdin.seek(0)
        self._stdout = tempfile.TemporaryFile()
        self._stderr = tempfile.TemporaryFile()
        try:
            self._process = subprocess.Popen(
                [*GIT, "diff-tree", "--stdin", "--always", "-r", "--root", "--raw", "--no-abbrev", *_DIFF_OPTIONS],
                cwd=workdir, stdin=self._stdin, stdout=self._stdout, stderr=self._stderr, env=_env())
        except OSError as exc:
            self.close()
            raise RepoError(f"cannot run git: {exc.strerror}") from None

    def close(self) -> None:
        for handle in (self._stdin, self._stdout, self._stderr):
            handle.close()

    def abandon(self) -> None:
        """Stop git (the caller stopped early) and drop what it wrote."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self.close()

    def result(self, wanted: Callable[[str], bool]) -> dict[str, list[_Changed]]:
        """Each ``wanted`` file each commit adds or changes (waits for git)."""
        try:
            status = self._process.wait()
            if status != 0:
                self._stderr.seek(0)
                message = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
                raise RepoError(f"git diff-tree failed: {message[0] if message else status}")
            self._stdout.seek(0)
            return _parse_listing(self._stdout, self.commits, wanted)
        finally:
            self.close()


def _parse_listing(lines: Iterable[bytes], commits: Sequence[str], wanted: Callable[[str], bool]) -> dict[str, list[_Changed]]:
    found: dict[str, list[_Changed]] = {oid: [] for oid in commits}
    current: list[_Changed] | None = None
    for raw in lines:
        if raw.startswith(b":"):
            if current is None:
                continue
            head, _, raw_path = raw.rstrip(b"\n").partition(b"\t")
            old_mode, new_mode, old_id, new_id, status = head[1:].decode().split(" ")
            path = unquote(raw_path).decode("utf-8", "surrogateescape")
            if status[:1] != "D" and wanted(path):
                old_regular = int(old_mode, 8) & 0o170000 == 0o100000 and old_id != _NO_BLOB
                current.append((int(new_mode, 8), status[:1], path, old_id if old_regular else "", new_id))
        else:
            current = found.get(raw.strip().decode("ascii", "replace"))
    return found


def _text_lines(data: bytes) -> list[str] | None:
    """``data``'s lines as ``line_text`` gives them, or None when that needs a line at a time."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _added_lines_decoded(old: bytes | None, new: bytes) -> AddedLines | None:
    """``added_lines`` from one decode of each blob, or None when the blobs need the plain way.

    A 23 MB MEMORY.md is 380,000 lines: decoding, stripping and counting them one by one cost
    0.5 s of the hook's 6 s. When both blobs are valid UTF-8 without a CR, decoding the whole
    blob gives each line's ``line_text`` (a line break is never inside a character), text and
    bytes compare alike, and the lines ``old`` holds are looked up in one pass: the result is
    the plain loop's (``tests/git/test_added_lines_fast.py`` compares both).
    """
    lines = _text_lines(new)
    if lines is None:
        return None
    if old is None:
        return tuple(zip(range(1, len(lines) + 1), lines))
    before = _text_lines(old)
    if before is None:
        return None
    left = Counter(before)
    # Only lines ``old`` holds can be not new: a few, found in one pass; each is taken while
    # ``old`` has copies left, in order, as the plain loop takes them.
    taken: list[int] = []
    for index in compress(count(), map(left.__contains__, lines)):
        if left[lines[index]] > 0:
            left[lines[index]] -= 1
            taken.append(index)
    added: list[tuple[int, str]] = []
    start = 0
    for index in [*taken, len(lines)]:
        added.extend(zip(range(start + 1, index + 1), lines[start:index]))
        start = index + 1
    return tuple(added)


def added_lines(old: bytes | None, new: bytes) -> AddedLines:
    """The lines of ``new`` that ``old`` does not hold, as (line number, text).

    Counted as a multiset: a line ``old`` holds as often as ``new`` is not new, wherever it moved
    (it was scanned when it was first added); a line ``new`` holds more often counts from its
    later copies on. Linear in the two sizes, where a line diff can go quadratic.
    """
    fast = _added_lines_decoded(old, new)
    return fast if fast is not None else _added_lines_plain(old, new)


def _added_lines_plain(old: bytes | None, new: bytes) -> AddedLines:
    """``added_lines`` a line at a time: any bytes, CRs and invalid UTF-8 included."""
    lines = new.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if old is None:
        return tuple((number, line_text(raw)) for number, raw in enumerate(lines, start=1))

    before = old.split(b"\n")
    if before and before[-1] == b"":
        before.pop()
    left = Counter(raw.rstrip(b"\r") for raw in before)
    added = []
    for number, raw in enumerate(lines, start=1):
        key = raw.rstrip(b"\r")
        if left[key] > 0:
            left[key] -= 1
        else:
            added.append((number, line_text(raw)))
    return tuple(added)


def commit_changes(workdir: Path, commits: Sequence[str], wanted: Callable[[str], bool],
                   listing: ChangeListing | None = None) -> dict[str, tuple[FileChange, ...]]:
    """What each of ``commits`` (none a merge) adds to the ``wanted`` files, against its parent
    (or nothing, for a root or a shallow clone's boundary), in two calls to git for them all.

    ``diff-tree --raw`` lists the changed files with their old and new blob ids; ``cat-file
    --batch`` reads those blobs; the added lines are what the new blob holds that the old one
    does not (``added_lines``). A binary blob (a NUL byte early on, as git decides) is kept whole.
    ``listing`` is the first call, started earlier for these commits.
    """
    listed = (listing or ChangeListing(workdir, commits)).result(wanted)
    ids = [blob for oid in commits for mode, _, _, old, new in listed[oid]
           if mode & 0o170000 == 0o100000 for blob in (old, new) if blob]
    blobs = _blobs(workdir, list(dict.fromkeys(ids)))
    result: dict[str, tuple[FileChange, ...]] = {}
    for oid in commits:
        changes = []
        for mode, _status, path, old_id, new_id in sorted(listed[oid], key=lambda entry: entry[2]):
            if mode & 0o170000 != 0o100000:
                changes.append(FileChange(path, mode, False, ()))
                continue
            data = blobs[new_id]
            if b"\0" in data[:_BINARY_PROBE]:
                changes.append(FileChange(path, mode, True, (), data))
                continue
            old = blobs[old_id] if old_id else None
            if old is not None and b"\0" in old[:_BINARY_PROBE]:
                old = None
            changes.append(FileChange(path, mode, False, added_lines(old, data)))
        result[oid] = tuple(changes)
    return result


def _blobs(workdir: Path, ids: list[str]) -> dict[str, bytes]:
    """The bytes of each blob id, from one ``cat-file --batch``."""
    if not ids:
        return {}
    out = _run(workdir, "cat-file", "--batch", stdin="".join(f"{oid}\n" for oid in ids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in ids:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        if len(header) != 3:
            raise RepoError(f"git cat-file: cannot read blob {oid}")
        size = int(header[2])
        blobs[oid] = out[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
    return blobs


def staged_changes(workdir: Path, wanted: Callable[[str], bool]) -> StagedChanges:
    """The staged changes to ``wanted`` paths (added or modified; deletions are skipped)."""
    entries = [entry for entry in _raw_entries(workdir) if entry[2] != "D" and wanted(entry[3])]
    # Added lines as history scans read them (``added_lines``): what the staged blob holds that
    # HEAD's does not. One cat-file for both sides; no diff, whatever the size of a line.
    ids = [blob for mode, oid, _, _, old in entries if mode & 0o170000 == 0o100000 for blob in (oid, old) if blob]
    blobs = _blobs(workdir, list(dict.fromkeys(ids)))
    files = []
    for mode, oid, _status, path, old_id in entries:
        if mode & 0o170000 != 0o100000:
            files.append(FileChange(path, mode, False, ()))
            continue
        data = blobs[oid]
        if b"\0" in data[:_BINARY_PROBE]:
            files.append(FileChange(path, mode, True, (), data))
            continue
        old = blobs[old_id] if old_id else None
        if old is not None and b"\0" in old[:_BINARY_PROBE]:
            old = None
        files.append(FileChange(path, mode, False, added_lines(old, data), data))

    listed: set[str] | None = None

    def contains(path: str) -> bool:
        nonlocal listed
        if listed is None:
            out = _run(workdir, "ls-files", "-z", "--cached", "--", *CHECKED_PATHSPECS)
            listed = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
        return path in listed

    return StagedChanges(tuple(sorted(files, key=lambda f: f.path)), contains, backend="git")


def discover(start: Path) -> tuple[Path, Path, Path | None] | None:
    """(git dir, common dir, work tree or None) from ``git rev-parse``, or None outside git."""
    try:
        returncode, out, _err = _spawn([*GIT, "-C", str(start), "rev-parse", "--absolute-git-dir", "--git-common-dir",
                                        "--is-bare-repository", "--show-toplevel"], None)
    except OSError:
        return None
    lines = os.fsdecode(out).splitlines()
    if returncode != 0 and len(lines) < 3:
        return None
    git_dir = Path(lines[0])
    common = Path(lines[1]) if Path(lines[1]).is_absolute() else (start / lines[1])
    workdir = None if lines[2] == "true" or len(lines) < 4 else Path(lines[3])
    return git_dir.resolve(), common.resolve(), workdir.resolve() if workdir else None


# ---------------------------------------------------------------------------- repository settings
def set_local_config(workdir: Path, key: str, value: str) -> None:
    """Write ``key`` to the repository's own config (``.git/config``, shared by its worktrees)."""
    _run(workdir, "config", "--local", key, value)


def local_config(workdir: Path, key: str) -> str | None:
    try:
        returncode, out, _err = _spawn([*GIT, "-C", str(workdir), "config", "--local", "--get", key], None)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    return out.decode("utf-8", "surrogateescape").rstrip("\n") if returncode == 0 else None


def config_value(workdir: Path, key: str) -> str | None:
    """``key`` as git sees it from ``workdir``: every config file, and ``git -c`` options, which git
    hands on to the commands it runs (a merge driver) through its environment."""
    try:
        returncode, out, _err = _spawn([*GIT, "-C", str(workdir), "config", "--get", key], None)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    return out.decode("utf-8", "surrogateescape").rstrip("\n") if returncode == 0 else None


# git merge-file's option for each merge.conflictStyle; ``--no-diff3`` so that no config file of
# the folder git runs in can change the style asked for.
_STYLE_OPTIONS = {"merge": "--no-diff3", "diff3": "--diff3", "zdiff3": "--zdiff3"}


def merge_file(base: bytes, ours: bytes, theirs: bytes, *, labels: tuple[str, str, str], marker_size: int,
               style: str) -> tuple[int, bytes]:
    """``git merge-file -p`` of three versions: (git's exit status, the merged bytes).

    The status is the number of conflicts, at most 127. ``labels`` (ours, base, theirs) follow
    the marker lines as in ``git merge-file -L``; ``style`` is a ``merge.conflictStyle``, always
    passed explicitly, so no config file decides it behind the caller's back. The versions go to
    files in a fresh private folder, where git runs (merge-file runs no hooks and reads no
    attributes). A failure (a NUL byte makes git call a file binary) is a ``RepoError`` with git's
    first line of error output.
    """
    import tempfile

    with tempfile.TemporaryDirectory(prefix="chord-merge-") as folder:
        names = ("ours", "base", "theirs")
        for name, data in zip(names, (ours, base, theirs)):
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(data)
        label_args = [arg for label in labels for arg in ("-L", label)]
        argv = [*GIT, "-C", folder, "merge-file", "-p", f"--marker-size={marker_size}", _STYLE_OPTIONS[style],
                *label_args, *names]
        try:
            returncode, out, err = _spawn(argv, None)
        except OSError as exc:
            raise RepoError(f"cannot run git: {exc.strerror}") from None
    if not 0 <= returncode <= 127:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise RepoError(f"git merge-file failed: {message[0] if message else returncode}")
    return returncode, out


def listed_files(workdir: Path, name: str) -> list[str]:
    """Tracked and untracked, not ignored files called ``name`` at any depth, top-level relative."""
    out = _run(workdir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
               f":(glob)**/{name}")
    return sorted({p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p})


def ignored(workdir: Path, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` (relative to ``workdir``) git ignores: matched by an ignore rule
    (``.gitignore``, ``info/exclude``, ``core.excludesFile``) and not tracked; a tracked file never
    counts as ignored, whatever the rules say."""
    if not paths:
        return set()
    names = b"".join(os.fsencode(path) + b"\0" for path in paths)
    try:
        returncode, out, err = _spawn([*GIT, "-C", str(workdir), "check-ignore", "-z", "--stdin"], names)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    if returncode not in (0, 1):  # 1: none of them is ignored
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise RepoError(f"git check-ignore failed: {message[0] if message else returncode}")
    return {os.fsdecode(name) for name in out.split(b"\0") if name}


def tracked(workdir: Path, path: str) -> bool:
    """Whether git tracks ``path`` (relative to ``workdir``), or any file under it for a folder."""
    return bool(_run(workdir, "ls-files", "-z", "--cached", "--", f":(literal){path}").strip(b"\0"))


def attribute(workdir: Path, name: str, paths: list[str]) -> dict[str, str]:
    """The value of attribute ``name`` for each path ("unspecified", "set", "unset" or a value)."""
    if not paths:
        return {}
    out = _run(workdir, "check-attr", "-z", name, "--", *paths)
    fields = out.split(b"\0")
    return {path.decode("utf-8", "surrogateescape"): value.decode("utf-8", "surrogateescape")
            for path, _attr, value in zip(fields[0::3], fields[1::3], fields[2::3])}


# ---------------------------------------------------------------------------- objects by name
def objects(workdir: Path, names: Sequence[str]) -> list[tuple[str, str, bytes] | None]:
    """(object id, type, content) of each object ``names`` name (``<rev>:<path>``,
    ``<rev>^{commit}``), None for one git does not have; one ``cat-file --batch`` for them all.

    Replace refs are switched off: a repository's ``refs/replace/`` must not swap what a commit
    holds. A name holding a line break is refused (it would be two requests).
    """
    if any("\n" in name or "\r" in name for name in names):
        raise RepoError("an object name holds a line break")
    if not names:
        return []
    out = _run(workdir, "--no-replace-objects", "cat-file", "--batch",
               stdin="".join(f"{name}\n" for name in names).encode("utf-8", "surrogateescape"))
    found: list[tuple[str, str, bytes] | None] = []
    pos = 0
    for _name in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        if len(header) != 3 or not header[2].isdigit():
            found.append(None)  # "<name> missing", "<name> ambiguous"
            pos = end + 1
            continue
        size = int(header[2])
        found.append((header[0].decode("ascii"), header[1].decode("ascii"), out[end + 1:end + 1 + size]))
        pos = end + 1 + size + 1
    return found


_TREE_ENTRY: dict[int, Any] = {}  # raw id size -> compiled pattern (compiled on first use)


def tree_files(data: bytes, id_hex_len: int) -> dict[bytes, bytes]:
    """The regular files of a tree object's raw content (as ``cat-file --batch`` prints it): name
    -> raw blob id (20 bytes for SHA-1, 32 for SHA-256: half of ``id_hex_len``). Sub-trees,
    symlinks and submodules are left out.

    Entries follow each other with nothing in between, so each match of the pattern starts where
    the last one ended; non-regular entries match its second branch, which captures nothing.
    ``findall`` and ``dict`` do the whole walk in C: a folder of 10,000 records takes about 3 ms,
    a loop over the entries five times that (a session start under ``memory.inject: reviewed``
    reads one).
    """
    size = id_hex_len // 2
    if size not in _TREE_ENTRY:
        import re

        # ``<mode> <name>\0<raw id>``, the mode as git writes it (no leading zero).
        _TREE_ENTRY[size] = re.compile(rb"(?:100644|100755) ([^\0]*)\0(.{%d})|\d{5,6} [^\0]*\0.{%d}" % (size, size),
                                       re.S)
    files = dict(_TREE_ENTRY[size].findall(data))
    files.pop(b"", None)
    return files


def blob_id(data: bytes, id_hex_len: int = 40) -> str:
    """The id git gives ``data`` as a blob (``git hash-object``), SHA-1 or SHA-256 by the length."""
    new: Callable[[], Any]
    try:  # the interpreter's own SHA-1: ``hashlib`` loads OpenSSL, 3 ms of a session start
        new = importlib.import_module("_sha1").sha1 if id_hex_len == 40 else _hashlib_new(id_hex_len)
    except ImportError:  # an interpreter built without it
        new = _hashlib_new(id_hex_len)
    digest = new()
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return str(digest.hexdigest())


def _hashlib_new(id_hex_len: int) -> Callable[[], Any]:
    import hashlib

    return hashlib.sha256 if id_hex_len == 64 else hashlib.sha1


def branch_log(workdir: Path, base: str, paths: Sequence[str]) -> list[tuple[str, dict[str, list[str]]]]:
    """The commits of ``base..HEAD`` that touch ``paths`` (repository-relative), newest first: each
    as (author name, path -> the lines it added there). One ``git log -p -U0``; merges show no
    diff (what they bring in is listed with its own commits)."""
    if not paths:
        return []
    out = _run(workdir, "--no-replace-objects", "log", "--no-show-signature", "-p", "-U0", "--no-merges",
               "--format=%x01%an", *_DIFF_OPTIONS, f"{base}..HEAD", "--", *paths)
    commits: list[tuple[str, dict[str, list[str]]]] = []
    current: dict[str, list[str]] | None = None
    path: str | None = None
    for raw in out.split(b"\n"):
        if raw.startswith(b"\x01"):
            current = {}
            commits.append((raw[1:].decode("utf-8", "replace"), current))
            path = None
        elif current is None:
            continue
        elif raw.startswith(b"diff --git "):
            path = None
        elif raw.startswith(b"+++ "):
            name = unquote(raw[4:].rstrip(b"\r"))
            path = name[2:].decode("utf-8", "surrogateescape") if name.startswith(b"b/") else None
            if path is not None:
                current.setdefault(path, [])
        elif raw.startswith(b"+") and path is not None:
            current[path].append(line_text(raw[1:]))
    return commits
