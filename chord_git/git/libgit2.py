"""All pygit2 access lives here; the rest of the package sees plain paths and bytes.

Nothing in this module writes to the index, the object database or the refs: R37 forbids
staging and committing, and reads must leave ``.git/index`` byte-identical.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pygit2

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import RepoError
from chord_git.git import command
from chord_git.git.changes import FileChange, line_text
from chord_git.git.layout import RepoInfo

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree  # pragma: allowlist secret
# What a command that reads through pygit2 says of a SHA-256 repository (libgit2 reads SHA-1
# repositories only): what reads through git itself (check, status, summary, the hooks) still works.
SHA256_UNSUPPORTED = ("SHA-256 repositories are not supported by this command "
                      "(it reads history through pygit2, which reads SHA-1 repositories only)")
# libgit2 cannot read these; git itself can.
_UNSUPPORTED = ("unsupported mandatory extension", "unknown object format", "extension", SHA256_UNSUPPORTED)


def _open(path: str) -> pygit2.Repository:
    try:
        return pygit2.Repository(path)
    except pygit2.GitError as exc:
        message = str(exc).splitlines()[0] if str(exc) else "cannot open repository"
        message = message.removeprefix(f"{path}: ")  # libgit2 names the path itself; we name it once
        if "unknown object format" in message:
            raise RepoError(f"{path}: {SHA256_UNSUPPORTED}") from None
        if "owned by" in message:
            raise RepoError(f"{path}: {message} (add it to git's safe.directory)") from None
        if "extension" in message:
            raise RepoError(f"{path}: {message} (this index format is not supported)") from None
        raise RepoError(f"{path}: {message}") from None


def open_repo(start: Path) -> pygit2.Repository | None:
    """The repository containing ``start``, or None outside git."""
    found = pygit2.discover_repository(str(start))
    if found is None:
        return None
    return _open(found)


def _unsupported(exc: Exception) -> bool:
    return any(marker in str(exc) for marker in _UNSUPPORTED)


def discover(start: Path) -> RepoInfo | None:
    try:
        repo = open_repo(start)
    except RepoError as exc:
        # A sha256 repository: pygit2 cannot open it, git can describe it.
        found = command.discover(start) if _unsupported(exc) else None
        if found is None:
            raise
        return RepoInfo(git_dir=found[0], common_dir=found[1], workdir=found[2])
    if repo is None:
        return None
    git_dir = Path(repo.path).resolve()
    # pygit2 has no accessor for the common dir; a linked worktree names it in ``commondir``.
    common_dir = git_dir
    commondir_file = git_dir / "commondir"
    if commondir_file.is_file():
        common_dir = (git_dir / commondir_file.read_text().strip()).resolve()
    workdir = Path(repo.workdir).resolve() if repo.workdir else None
    return RepoInfo(git_dir=git_dir, common_dir=common_dir, workdir=workdir)


def _patch_change(repo: pygit2.Repository, patch: pygit2.Patch) -> FileChange:
    new = patch.delta.new_file
    mode = int(new.mode)
    if mode & 0o170000 != 0o100000:
        return FileChange(new.path, mode, False, ())
    binary = bool(patch.delta.is_binary)
    added = () if binary else tuple(
        (line.new_lineno, line_text(line.raw_content))
        for hunk in patch.hunks for line in hunk.lines if line.origin == "+"
    )
    data = None
    if binary:  # its text is scanned whole
        blob = repo[new.id]
        data = blob.data if isinstance(blob, pygit2.Blob) else None
    return FileChange(new.path, mode, binary, added, data)


def _changes(repo: pygit2.Repository, diff: pygit2.Diff, wanted: Callable[[str], bool]) -> dict[str, FileChange]:
    """Added and modified ``wanted`` files of a diff; patches are built for those files only."""
    changes: dict[str, FileChange] = {}
    for number, delta in enumerate(diff.deltas):
        if delta.status_char() == "D" or not wanted(delta.new_file.path):
            continue
        patch = diff[number]
        if patch is not None:
            changes[delta.new_file.path] = _patch_change(repo, patch)
    return changes


def _empty_tree(repo: pygit2.Repository) -> pygit2.Tree:
    """The empty tree, which every repository resolves without storing it."""
    return repo[EMPTY_TREE].peel(pygit2.Tree)


@dataclass(frozen=True)
class CommitChanges:
    commit: str
    files: tuple[FileChange, ...]


def split_range(spec: str) -> tuple[str, str]:
    """``A..B`` (and ``A...B``, read as git diff reads it: B's side since the merge base)."""
    for separator in ("...", ".."):
        if separator in spec:
            old, new = spec.split(separator, 1)
            return old or "HEAD", new or "HEAD"
    raise RepoError(f"bad range {spec!r}: expected A..B (commits reachable from B, not from A)")


def _resolve(repo: pygit2.Repository, rev: str) -> pygit2.Commit:
    try:
        return repo.revparse_single(rev).peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError):
        hint = ""
        if repo.is_shallow:
            hint = (" (this is a shallow clone: fetch the missing history, e.g. `git fetch --unshallow`"
                    " or actions/checkout with fetch-depth: 0)")
        raise RepoError(f"unknown revision {rev!r}{hint}") from None


def _all_tips(repo: pygit2.Repository) -> list[pygit2.Oid]:
    """HEAD and every ref that leads to a commit, as ``git rev-list --all`` sees them."""
    tips = [] if repo.head_is_unborn else [repo.head.peel(pygit2.Commit).id]
    for name in repo.references:
        try:
            tips.append(repo.references[name].peel(pygit2.Commit).id)
        except (KeyError, ValueError, pygit2.GitError):
            continue  # a ref to a tree or blob, or a dangling symbolic ref
    return list(dict.fromkeys(tips))


def _merge_added(per_parent: list[dict[str, FileChange]]) -> dict[str, FileChange]:
    """What a merge itself introduces: lines added relative to every parent (an evil merge)."""
    result: dict[str, FileChange] = {}
    for path, change in per_parent[0].items():
        others = [changes.get(path) for changes in per_parent[1:]]
        if any(other is None for other in others):
            continue  # identical to one parent: nothing new in this file
        common = set(change.added)
        for other in others:
            assert other is not None
            common &= set(other.added)
        added = tuple(line for line in change.added if line in common)
        if added or change.binary or not change.is_regular:
            result[path] = FileChange(path, change.mode, change.binary, added, change.data)
    return result


def _commit_files(repo: pygit2.Repository, commit: pygit2.Commit,
                  wanted: Callable[[str], bool]) -> tuple[FileChange, ...]:
    # A shallow clone's boundary commits have parents that are not there: treat them as roots.
    parents = [p for p in (repo.get(pid) for pid in commit.parent_ids) if p is not None]
    bases = [p.peel(pygit2.Commit).tree for p in parents] or [_empty_tree(repo)]
    per_parent = [_changes(repo, base.diff_to_tree(commit.tree, context_lines=0), wanted)
                  for base in bases]
    files = per_parent[0] if len(per_parent) == 1 else _merge_added(per_parent)
    return tuple(files[path] for path in sorted(files))


def range_commits(start: Path, spec: str | None) -> list[str]:
    """The commits of ``spec`` (``A..B``; None = every commit reachable from HEAD or any ref),
    oldest first: a walk without diffs."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    try:
        return [str(commit.id) for commit in _walk(repo, spec)]
    except pygit2.GitError as exc:
        raise _walk_error(exc) from None


def commit_changes(start: Path, commits: Sequence[str], wanted: Callable[[str], bool]) -> Iterator[CommitChanges]:
    """Each of ``commits`` with the ``wanted`` files it added or changed and their added lines."""
    for batch in commit_batches(start, commits, wanted, max(1, len(commits))):
        yield from batch


def commit_batches(start: Path, commits: Sequence[str], wanted: Callable[[str], bool],
                   size: int) -> Iterator[list[CommitChanges]]:
    """``commit_changes`` in batches of ``size`` commits; while the caller checks one batch, git
    already lists the changes of the next.

    Commits with one parent (or none) are read through ``git diff-tree`` and ``cat-file``
    (``command.commit_changes``): libgit2 compares every entry of a changed folder in a slow loop,
    which a memory of thousands of records makes the whole cost of a history scan. Merges, where
    what counts is what the merge adds against every parent, are diffed here.
    """
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    where = Path(repo.workdir) if repo.workdir else Path(repo.path)
    batches = [list(commits[first:first + size]) for first in range(0, len(commits), size)]
    pending: command.ChangeListing | None = None
    try:
        merges = {oid for oid in commits if len(repo[oid].peel(pygit2.Commit).parent_ids) > 1}
        plain = [[oid for oid in batch if oid not in merges] for batch in batches]
        pending = command.ChangeListing(where, plain[0]) if batches and plain[0] else None
        for number, batch in enumerate(batches):
            current = pending
            following = plain[number + 1] if number + 1 < len(batches) else []
            pending = command.ChangeListing(where, following) if following else None
            linear = command.commit_changes(where, plain[number], wanted, current) if current else {}
            yield [CommitChanges(oid, _commit_files(repo, repo[oid].peel(pygit2.Commit), wanted)
                                 if oid in merges else linear[oid]) for oid in batch]
    except pygit2.GitError as exc:
        raise _walk_error(exc) from None
    finally:
        if pending is not None:
            pending.abandon()


def _walk(repo: pygit2.Repository, spec: str | None) -> Iterator[pygit2.Commit]:
    if spec is None:
        tips, hidden = _all_tips(repo), []
    else:
        old, new = split_range(spec)
        hidden, tips = [_resolve(repo, old).id], [_resolve(repo, new).id]
    if not tips:
        return
    walker = repo.walk(tips[0], pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE)
    for tip in tips[1:]:
        walker.push(tip)
    for oid in hidden:
        walker.hide(oid)
    yield from walker


def _walk_error(exc: pygit2.GitError) -> RepoError:
    message = str(exc).splitlines()[0] if str(exc) else "git error"
    hint = " (pygit2 cannot read this repository format)" if _unsupported(exc) else ""
    return RepoError(f"cannot walk the history: {message}{hint}")


def commit_exists(start: Path, rev: str) -> bool:
    """Whether ``rev`` names a commit here (a CI event's base may be missing from a clone)."""
    repo = open_repo(start)
    if repo is None:
        return False
    try:
        repo.revparse_single(rev).peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError):
        return False
    return True


def range_base(start: Path, spec: str) -> str:
    """The commit whose tree holds the policy a range is judged by: ``A`` of ``A..B``, the merge
    base of ``A...B``."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    old, new = split_range(spec)
    base = _resolve(repo, old)
    if "..." in spec:
        found = repo.merge_base(base.id, _resolve(repo, new).id)
        if found is not None:
            return str(found)
    return str(base.id)


def change_base(start: Path, spec: str) -> str:
    """The commit a range's changes are measured from: the merge base of ``A`` and ``B`` (what a
    pull request's own diff shows), ``A`` when they share none. Against ``A`` itself, memory the
    base branch gained after the branch left it would read as the range forgetting it."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    old, new = split_range(spec)
    base = _resolve(repo, old)
    found = repo.merge_base(base.id, _resolve(repo, new).id)
    return str(found) if found is not None else str(base.id)


def file_at(start: Path, rev: str, path: str) -> bytes | None:
    """The bytes of ``path`` (repository-relative) in ``rev``'s tree; None when it has no such file."""
    repo = open_repo(start)
    if repo is None:
        return None
    tree = _resolve(repo, rev).tree
    try:
        entry = tree[path]
    except KeyError:
        return None
    blob = repo.get(entry.id)
    return bytes(blob.data) if isinstance(blob, pygit2.Blob) else None


def list_dir(start: Path, rev: str, folder: str) -> list[str]:
    """The names of the regular files directly in ``folder`` of ``rev``'s tree (sorted)."""
    repo = open_repo(start)
    if repo is None:
        return []
    tree = _resolve(repo, rev).tree
    try:
        sub = repo.get(tree[folder].id)
    except KeyError:
        return []
    if not isinstance(sub, pygit2.Tree):
        return []
    return sorted(entry.name for entry in sub if entry.type_str == "blob" and entry.name is not None)


def commit_id(start: Path, rev: str) -> str:
    """The full id of the commit ``rev`` names."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    return str(_resolve(repo, rev).id)


@dataclass(frozen=True)
class TreeChange:
    """A ``wanted`` path whose entry differs between two commits' trees (no rename detection: a
    rename is a deletion and an addition). ``old``/``new`` hold a regular file's bytes, else None."""

    path: str
    old_mode: int  # 0 where the side has no such path
    new_mode: int
    old: bytes | None
    new: bytes | None


def _blob_bytes(repo: pygit2.Repository, oid: pygit2.Oid, mode: int) -> bytes | None:
    if mode & 0o170000 != 0o100000:
        return None
    blob = repo.get(oid)
    return bytes(blob.data) if isinstance(blob, pygit2.Blob) else None


def tree_changes(start: Path, old: str, new: str, wanted: Callable[[str], bool]) -> list[TreeChange]:
    """What differs in ``wanted`` paths between the trees of ``old`` and ``new``: the net change a
    pull request makes, whatever its commits did on the way (sorted by path)."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    before, after = _resolve(repo, old).tree, _resolve(repo, new).tree
    found: dict[str, TreeChange] = {}
    for delta in before.diff_to_tree(after).deltas:
        status = delta.status_char()
        old_file, new_file = delta.old_file, delta.new_file
        path = old_file.path if status == "D" else new_file.path
        if not wanted(path):
            continue
        old_mode = 0 if status == "A" else int(old_file.mode)
        new_mode = 0 if status == "D" else int(new_file.mode)
        found[path] = TreeChange(path, old_mode, new_mode,
                                 None if status == "A" else _blob_bytes(repo, old_file.id, old_mode),
                                 None if status == "D" else _blob_bytes(repo, new_file.id, new_mode))
    return [found[path] for path in sorted(found)]


@dataclass(frozen=True)
class Touch:
    """The newest commit of a range that changed a path: who wrote it, as git records it."""

    commit: str
    author: str  # "Name (email)": no angle brackets to escape wherever it is shown
    committer: str
    message: str


def last_touches(start: Path, spec: str, paths: Sequence[str]) -> dict[str, Touch]:
    """For each of ``paths``, the newest commit of ``spec`` (``A..B``) whose change against its
    first parent touches it; paths no commit of the range touched are left out."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    remaining = set(paths)
    found: dict[str, Touch] = {}
    try:
        commits = list(_walk(repo, spec))
    except pygit2.GitError as exc:
        raise _walk_error(exc) from None
    for commit in reversed(commits):  # newest first
        if not remaining:
            break
        parent = repo.get(commit.parent_ids[0]) if commit.parent_ids else None
        base = parent.peel(pygit2.Commit).tree if parent is not None else _empty_tree(repo)
        touched: set[str] = set()
        for delta in base.diff_to_tree(commit.tree).deltas:
            touched.update((delta.old_file.path, delta.new_file.path))
        for path in remaining & touched:
            found[path] = Touch(str(commit.id), _person(commit.author), _person(commit.committer), commit.message)
        remaining -= touched
    return found


def _person(signature: pygit2.Signature) -> str:
    return f"{signature.name} ({signature.email})"


def files_at(start: Path, rev: str, paths: Sequence[str]) -> dict[str, bytes]:
    """``file_at`` for many paths of one tree, opening the repository once; absent ones left out."""
    repo = open_repo(start)
    if repo is None:
        return {}
    tree = _resolve(repo, rev).tree
    # A path lookup in a folder of 10,000 records costs milliseconds in libgit2 (4 s for 1,000
    # lookups): each folder asked about is listed once instead, and names are found in a dict.
    folders: dict[str, dict[str, pygit2.Object]] = {}
    found: dict[str, bytes] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        if folder not in folders:
            try:
                sub = repo.get(tree[folder].id) if folder else tree
            except KeyError:
                sub = None
            folders[folder] = {entry.name: entry for entry in sub if entry.name is not None} \
                if isinstance(sub, pygit2.Tree) else {}
        entry = folders[folder].get(name)
        if entry is None:
            continue
        blob = repo.get(entry.id)
        if isinstance(blob, pygit2.Blob) and int(entry.filemode) & 0o170000 == 0o100000:
            found[path] = bytes(blob.data)
    return found


def tree_diff_renames(start: Path, old: str, new: str) -> list[tuple[str, str | None, str | None]]:
    """(status, old path, new path) of every file that differs between two commits' trees, renames
    found by content as ``git diff -M`` finds them (status ``R``; ``A``, ``D``, ``M`` otherwise)."""
    repo = open_repo(start)
    if repo is None:
        raise RepoError(f"{start}: not inside a git repository")
    diff = _resolve(repo, old).tree.diff_to_tree(_resolve(repo, new).tree)
    diff.find_similar()
    return [(d.status_char(), None if d.status_char() == "A" else d.old_file.path,
             None if d.status_char() == "D" else d.new_file.path) for d in diff.deltas]


def paths_present(start: Path, rev: str, paths: Sequence[str]) -> set[str]:
    """Which of ``paths`` (files or folders) ``rev``'s tree holds."""
    repo = open_repo(start)
    if repo is None:
        return set()
    tree = _resolve(repo, rev).tree
    found = set()
    for path in paths:
        try:
            tree[path]
        except KeyError:
            continue
        found.add(path)
    return found


def tree_files(start: Path, rev: str, wanted: Callable[[str], bool], limit: int) -> list[str]:
    """The paths of ``rev``'s regular files that ``wanted`` keeps, at most ``limit`` of them."""
    repo = open_repo(start)
    if repo is None:
        return []
    found: list[str] = []
    stack: list[tuple[str, pygit2.Tree]] = [("", _resolve(repo, rev).tree)]
    while stack and len(found) < limit:
        prefix, tree = stack.pop()
        for entry in tree:
            path = prefix + str(entry.name)
            sub = repo.get(entry.id) if entry.type_str == "tree" else None
            if isinstance(sub, pygit2.Tree):
                stack.append((path + "/", sub))
            elif entry.type_str == "blob" and wanted(path):
                found.append(path)
    return sorted(found[:limit])
