"""One driver for ``check`` and ``scan``: every input becomes ``FileChange`` objects, every change
goes through the same rules (``check.changes``), and one baseline lookup serves them all.

Three inputs:

* the working tree (``worktree``): the project's memory files, or the ``PATHS`` pre-commit
  passes; every line of a file counts as added, and format rules read the whole file;
* the staged blobs (``staged``, the plain git hook): format rules on each staged file's full
  content, secrets on its added lines only, dangling entries against the staged tree;
* a commit range or the whole history (``history``, CI): secrets on the lines each commit added,
  reported at the commit that introduced them.

The content rules (format and secrets) answer from a cache by content when the same bytes were
checked before (``check.cache``), and run on both cores when a batch is large (``check.pool``).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chord_git.check import changes, range_policy
from chord_git.support.dataclass_lazy import dataclass, replace
from chord_git.errors import RepoError
from chord_git.findings import Finding, Problem, sort_findings
from chord_git.git.changes import FileChange
from chord_git.memory import paths as memory_paths
from chord_git.memory import pending
from chord_git.memory.project import STATE_DIR_NAME, Project

if TYPE_CHECKING:
    from chord_git.check.cache import ResultCache
    from chord_git.secrets.layer2.floor import Removal
    from chord_git.git.libgit2 import TreeChange
    from chord_git.secrets.verdicts.ignore import IgnoreList

# The cache (sqlite3), the pool and the rules themselves are imported where a run has files to
# check: a commit that stages no memory file needs none of them.

BASELINE_FILE = ".secrets.baseline"
IGNORE_FILE = ".chord/secrets-ignore"  # chord_git.secrets.verdicts.ignore.IGNORE_FILE, without importing it
# Shorter runs end before a progress bar would tell anything.
PROGRESS_MIN_FILES = 100
PROGRESS_MIN_COMMITS = 200
# Units whose rules run together: one detect-secrets session, one pool; a bar moves per batch.
# Large, because each batch forks afresh and a child's fixed cost (compiling the patterns it
# meets, filling its memos) is then spread over more work: 5,000 memory commits scanned with
# 1,000-unit batches cost ~12% more CPU than in one process, with 4,000-unit batches about none.
BATCH_UNITS = 4000
# A batch smaller than this (bytes of text) is not worth a second process: a forked child
# compiles its patterns and fills its verdict memos again and copies the pages it touches, which
# costs ~40% more CPU in all for the same work; at 500 new records (~400 KiB) that made the hook
# use more CPU than gitleaks for a wall-time gain of ~10%, and on a busy machine no gain at all.
POOL_MIN_BYTES = 1024 * 1024
# Text a range adds above which its memory rules run on both cores: ~50 records, ~0.35 s of CPU.
RULES_POOL_MIN_BYTES = 64 * 1024
# Commits whose changes are read and checked together: bounds memory on a long history.
HISTORY_BATCH = 2000
# Below this much staged text the hook checks without the result store: closing a store that
# was written checkpoints it with two fsyncs (10-20 ms on a busy disk), and with opening it and
# loading sqlite3 that costs more than checking a few records again on a later run.
STAGED_CACHE_MIN_BYTES = 32 * 1024

Step = Callable[[int], None]
Progress = Callable[[str, int], AbstractContextManager[Step]]  # (label, total) -> bar yielding advance(n)


def _no_step(_steps: int) -> None:
    pass


_REGULAR = 0o100644
NAMES_UNIT = "(file names)"  # the text the names of a batch are scanned as, one per line


@dataclass(frozen=True)
class Checked:
    """What one run found, and how many of what it looked at (for the text report)."""

    findings: tuple[Finding, ...]
    count: int
    noun: str
    notes: tuple[str, ...] = ()  # a range's policy changes, which apply after merge (``range_policy``)
    # The working tree's files as read (path, bytes), for the command's warnings to read them once.
    read: tuple[tuple[str, bytes], ...] = ()


def baseline(root: Path | None) -> Path | None:
    """The detect-secrets baseline of the tree whose paths the findings name, when it has one."""
    if root is None:
        return None
    path = root / BASELINE_FILE
    return path if path.is_file() else None


def ignore_file(root: Path | None) -> Path | None:
    """The ``.chord/secrets-ignore`` of the tree whose paths the findings name, when it has one."""
    if root is None:
        return None
    path = root / IGNORE_FILE
    return path if path.exists() else None


def ignore_list(root: Path | None) -> IgnoreList:
    """The ``.chord/secrets-ignore`` entries of the tree whose paths the findings name.

    A malformed file is an ``InputError`` (exit 2): an entry silently dropped would turn an
    accepted finding back into a failure, and one read wrongly could hide another.
    """
    from chord_git.secrets.verdicts import ignore

    if root is None or ignore_file(root) is None:
        return ignore.IgnoreList()
    return ignore.load(root)


def _settings_key(root: Path | None) -> str:
    """What the project's settings files make of the rules: the baseline and the ignore file."""
    from chord_git.check import cache as cache_mod

    return cache_mod.key(cache_mod.rules_version(), cache_mod.settings_fingerprint(baseline(root), ignore_file(root)))


def project_ignore(root: Path | None) -> IgnoreList | None:
    """The ignore file's entries, None without one (its absence costs a ``stat``, no import)."""
    return ignore_list(root) if ignore_file(root) is not None else None


def drop_ignored(findings: list[Finding], ignore: IgnoreList | None, commit: str | None = None) -> list[Finding]:
    """``findings`` less the secrets a positional entry of ``ignore`` names (in ``commit``)."""
    if not findings or ignore is None or not ignore.fingerprints:
        return findings
    return [f for f in findings if not f.ignorable or not ignore.ignores(f.path, f.kind, f.line or 0, commit)]


def apply_rules(files: Iterable[FileChange], *, root: Path | None, schema: bool = True,
                contains: Callable[[str], bool] | None = None, noun: str = "record file",
                commit: str | None = None, cache: ResultCache | None = None,
                step: Step = _no_step) -> list[Finding]:
    """Every rule on every change, sorted: the file itself, its format (``schema``), entries
    whose record is missing from the tree ``contains`` describes, and secrets on its added lines
    (less those the ignore file under ``root`` lists)."""
    files = list(files)
    ignore = project_ignore(root) if files else None
    findings: list[Finding] = []
    indexes: dict[str, tuple[bytes, changes.IndexParse]] = {}  # MEMORY.md parsed once for both rules
    for change in files:
        findings.extend(changes.file_findings(change))
        if contains is not None:
            parsed = changes.index_parse(change)
            if parsed is not None and change.data is not None:
                indexes[change.path] = (change.data, parsed)
            findings.extend(changes.dangling(change, contains, noun, parsed))
    for found in content_findings(files, root=root, schema=schema, cache=cache, step=step, ignore=ignore,
                                  indexes=indexes):
        findings.extend(found)
    findings = drop_ignored(findings, ignore, commit)
    # A config refused for a secret the secret layers report too: their finding says more.
    places = {(finding.path, finding.line) for finding in findings if finding.is_secret}
    if places:
        findings = [f for f in findings if f.kind != "config" or (f.path, f.line) not in places]
    if commit is not None:
        findings = [replace(finding, commit=commit) for finding in findings]
    return sort_findings(findings)


# ---------------------------------------------------------------------------- content rules
def _weight(change: FileChange) -> int:
    return len(change.data) if change.data is not None else sum(len(text) + 1 for _, text in change.added)


def _has_content(change: FileChange) -> bool:
    return bool(changes.secret_input(change)) or (change.data is not None and change.is_regular)


def _parsed_index(unit: FileChange, indexes: Mapping[str, tuple[bytes, changes.IndexParse]]) -> changes.IndexParse | None:
    """The parse of ``unit``'s MEMORY.md made for ``dangling``, if it was made of these very bytes."""
    known = indexes.get(unit.path)
    return known[1] if known is not None and known[0] is unit.data else None


def _compute(units: list[FileChange], schema: bool, baseline_data: dict[str, Any] | None,
             ignored_hashes: frozenset[str],
             indexes: Mapping[str, tuple[bytes, changes.IndexParse]] | None = None) -> list[list[Finding]]:
    """The format and secret findings of each unit, computed (``indexes``: MEMORY.md parses at hand)."""
    from chord_git import secrets

    scanned = secrets.scan_units([(unit.path, changes.secret_input(unit)) for unit in units],
                                 baseline=baseline_data, ignored_hashes=ignored_hashes)
    # A file name is committed and pushed like a line: a token in it leaks the same way. All the
    # names go as the lines of one text: one unit per name costs ten times as much (500 names:
    # 61 ms CPU against 6 ms), which the hook would pay on every commit of many records.
    named: dict[int, list[Finding]] = {}
    for found in secrets.scan_units([(NAMES_UNIT, tuple((n, unit.path) for n, unit in enumerate(units, 1)))],
                                    baseline=baseline_data, ignored_hashes=ignored_hashes)[0]:
        named.setdefault((found.line or 1) - 1, []).append(found)
    return [(changes.schema_findings(unit, _parsed_index(unit, indexes or {})) if schema else []) + found
            + changes.name_secrets(named.get(n, []), unit.path)
            for n, (unit, found) in enumerate(zip(units, scanned))]


def _unit_key(change: FileChange, version: str, schema: bool) -> str:
    from chord_git.check import cache as cache_mod

    data = change.data if change.data is not None and (schema or change.binary) else b""
    return cache_mod.key("unit", version, "schema" if schema else "secrets", change.path, str(change.mode),
                         "binary" if change.binary else "text", data,
                         cache_mod.lines_digest(changes.secret_input(change)))


def content_findings(units: Sequence[FileChange], *, root: Path | None, schema: bool,
                     cache: ResultCache | None, step: Step = _no_step,
                     ignore: IgnoreList | None = None,
                     indexes: Mapping[str, tuple[bytes, changes.IndexParse]] | None = None) -> list[list[Finding]]:
    """Per unit, what the content rules find: its format (``schema``) and the secrets on its added
    lines. Answers come from ``cache`` when the same bytes were checked under the same rules; the
    rest is computed in batches (on both cores when a batch is large) and stored. ``step`` hears
    how many units each batch settled."""
    results: list[list[Finding]] = [[] for _ in units]
    todo = [n for n, unit in enumerate(units) if _has_content(unit)]
    step(len(units) - len(todo))
    if not todo:
        return results
    base = baseline(root)
    keys: dict[int, str] = {}
    if cache is not None:
        from chord_git.check import cache as cache_mod  # sqlite3: only where a store is open

        version = _settings_key(root)
        keys = {n: _unit_key(units[n], version, schema) for n in todo}
        known = cache.get_many(list(dict.fromkeys(keys.values())))
        for n in todo:
            if keys[n] in known:
                results[n] = cache_mod.decode(known[keys[n]])
        step(sum(1 for n in todo if keys[n] in known))
        todo = [n for n in todo if keys[n] not in known]
    if not todo:
        return results
    # Only now the rules themselves: a run answered by the cache never loads them.
    from chord_git import secrets
    from chord_git.check import pool

    baseline_data = secrets.load_baseline(base)
    ignored_hashes = ignore.hashes if ignore is not None else frozenset()
    workers = pool.workers()
    for first in range(0, len(todo), BATCH_UNITS):
        batch = todo[first:first + BATCH_UNITS]
        missing = [units[n] for n in batch]
        if workers > 1 and sum(map(_weight, missing)) >= POOL_MIN_BYTES:
            if secrets.needs_layer2([(u.path, changes.secret_input(u)) for u in missing], baseline_data):
                from chord_git.secrets.layer2 import detect  # noqa: F401 - imported once, before the fork
            chunks = pool.split(missing, workers, _weight)
            computed = pool.map_chunks(lambda chunk: _compute(chunk, schema, baseline_data, ignored_hashes, indexes), chunks)
        else:
            computed = _compute(missing, schema, baseline_data, ignored_hashes, indexes)
        for n, found in zip(batch, computed):
            results[n] = found
        if cache is not None:
            from chord_git.check.cache import encode

            cache.put_many((keys[n], encode(results[n])) for n in batch)
        step(len(batch))
    return results


def _open_cache(state_dir: Path) -> ResultCache | None:
    from chord_git.check.cache import ResultCache

    return ResultCache.open(state_dir)


# ---------------------------------------------------------------------------- the working tree
def _memory_files(project: Project) -> list[Path]:
    """The memory files and the project config (scanned for secrets and read as the loader does)."""
    files = [path for path in (project.memory_md, project.root / changes.CONFIG_FILE)
             if path.exists() or path.is_symlink()]
    for folder in (project.records_dir, project.promotions_dir, pending.pending_dir(project.root),
                   project.memory_dir / "decisions"):
        if memory_paths.escape_reason(project.root, folder):
            files.append(folder)  # reported by _worktree_change; never walked
            continue
        if not folder.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames.sort()
            files.extend(Path(dirpath) / name for name in sorted(filenames))
            files.extend(Path(dirpath) / name for name in dirnames if (Path(dirpath) / name).is_symlink())
    return files


def _given_files(project: Project, paths: list[str]) -> list[Path]:
    candidates = []
    for raw in paths:
        path = Path(raw)
        path = path if path.is_absolute() else Path.cwd() / path
        rel = project.relative(Path(os.path.abspath(path)))
        if changes.is_checked_path(rel) and (path.exists() or path.is_symlink()):
            candidates.append(project.root / rel)
    return candidates


def _worktree_change(project: Project, path: Path, reader: memory_paths.Reader | None = None) -> FileChange | Finding:
    """A working-tree file as a change whose every line is added, or why it cannot be read."""
    rel = project.relative(path)
    if reader is not None:
        try:  # the common case in one open: no link anywhere, a regular file
            data = reader.read(path)
        except (OSError, memory_paths.UnsafePath):
            pass  # below, the checks one by one say exactly what is wrong
        else:
            return FileChange(rel, _REGULAR, False, changes.text_lines(data), data)
    reason = memory_paths.escape_reason(project.root, path)
    if reason is not None:  # a symlink anywhere from the project root down, or outside it
        return Finding(rel, Problem(None, "symlink" if "symlink" in reason else "escape", f"refused: {reason}"))
    if path.is_dir():
        return Finding(rel, Problem(None, "layout", "unexpected directory among memory files"))
    try:
        data = memory_paths.read_inside(project.root, path)
    except memory_paths.UnsafePath as exc:
        return Finding(rel, Problem(None, "escape", exc.message))
    except OSError as exc:
        return Finding(rel, Problem(None, "io", f"cannot read: {exc.strerror}"))
    return FileChange(rel, _REGULAR, False, changes.text_lines(data), data)


def worktree(project: Project, paths: list[str] | None = None, progress: Progress | None = None) -> Checked:
    """The project's memory files (or the memory files among ``paths``) as they are on disk."""
    files = _given_files(project, paths) if paths else _memory_files(project)
    unreadable: list[Finding] = []
    readable: list[FileChange] = []
    with memory_paths.Reader(project.root) as reader:
        for path in files:
            read = _worktree_change(project, path, reader)
            if isinstance(read, Finding):
                unreadable.append(read)
            else:
                readable.append(read)
    listed = {project.relative(path) for path in files}

    def present(rel: str) -> bool:
        return rel in listed or os.path.lexists(project.root / rel)

    bar = progress("checking memory files", len(readable)) \
        if progress is not None and not paths and len(readable) >= PROGRESS_MIN_FILES else None
    cache = _open_cache(project.state_dir) if readable else None
    try:
        with bar or nullcontext(_no_step) as step:
            found = apply_rules(readable, root=project.root, contains=present, cache=cache, step=step)
    finally:
        if cache is not None:
            cache.close()
    return Checked(tuple(sort_findings(unreadable + found)), len(readable), "memory file",
                   read=tuple((change.path, change.data) for change in readable if change.data is not None))


def removals(project: Project, paths: list[str] | None = None, *, staged: bool = False) -> list[Removal]:
    """The detect-secrets findings a named verdict left out of ``worktree``'s or ``staged``'s
    report (``check --explain``), computed afresh: the result cache keeps findings only."""
    from chord_git import secrets

    if staged:
        from chord_git.git import command

        if project.repo is None or project.repo.workdir is None:
            raise RepoError(f"{project.root}: not inside a git repository")
        units: list[FileChange] = list(command.staged_changes(project.repo.workdir, changes.is_checked_path).files)
    else:
        files = _given_files(project, paths) if paths else _memory_files(project)
        with memory_paths.Reader(project.root) as reader:
            units = [read for read in (_worktree_change(project, path, reader) for path in files)
                     if isinstance(read, FileChange)]
    ignore = project_ignore(project.root)
    explained = secrets.explain_units([(unit.path, changes.secret_input(unit)) for unit in units],
                                      baseline=secrets.load_baseline(baseline(project.root)),
                                      ignored_hashes=ignore.hashes if ignore is not None else frozenset())
    return sorted((r for per_unit in explained for r in per_unit), key=lambda r: (r.path, r.line, r.kind))


# ---------------------------------------------------------------------------- git
def staged(project: Project) -> Checked:
    """What the next commit will contain, read from the index git's hook means."""
    from chord_git.git import command

    if project.repo is None or project.repo.workdir is None:
        raise RepoError(f"{project.root}: not inside a git repository")
    index = command.staged_changes(project.repo.workdir, changes.is_checked_path)
    weight = sum(_weight(change) for change in index.files)
    cache = _open_cache(project.state_dir) if weight >= STAGED_CACHE_MIN_BYTES else None
    try:
        found = apply_rules(index.files, root=project.root, contains=index.contains,
                            noun="staged record file", cache=cache)
    finally:
        if cache is not None:
            cache.close()
    return Checked(tuple(found), len(index.files), "staged memory file")


def history(start: Path, spec: str | None, progress: Progress | None = None) -> Checked:
    """Secrets each commit of ``spec`` (``A..B``; None: all history) added, oldest commit first.

    A commit never changes, so its findings are stored under its id: a second scan of the same
    range reads no diff.
    """
    from chord_git.git import libgit2

    info = libgit2.discover(start)
    root = info.workdir if info is not None else None
    commits = libgit2.range_commits(start, spec)  # a walk without diffs
    if spec is None:
        return Checked(tuple(_scan_commits(start, commits, root, info, progress)), len(commits), "commit")
    # A range is judged by the policy of the commit it is merged into (``range_policy``).
    with range_policy.from_base(start, spec) as policy:
        found = _scan_commits(start, commits, policy.root, info, progress, policy.pragmas)
        found += memory_rule_findings(start, libgit2.change_base(start, spec), libgit2.split_range(spec)[1],
                                      project_ignore(policy.root))
        return Checked(tuple(found), len(commits), "commit", policy.all_notes())


def commit_findings(start: Path, commit: str) -> list[Finding]:
    """The secrets ``commit`` added, judged by the work tree's ignore file and baseline, as a scan
    reports them (none when there is no such commit): where ``git memory ignore`` finds a
    fingerprint from a CI log."""
    from chord_git.git import libgit2

    if not libgit2.commit_exists(start, commit):
        return []
    info = libgit2.discover(start)
    root = info.workdir if info is not None else None
    return _scan_commits(start, [libgit2.commit_id(start, commit)], root, info, None)


def record_blocked(start: Path, findings: Sequence[Finding]) -> None:
    """Keep a blocked scan's secrets for ``git memory ignore --last`` in the work tree's state dir
    (a bare mirror has none: nothing to accept there)."""
    from chord_git.check import blocked
    from chord_git.git import libgit2
    from chord_git.memory.project import state_dir_for

    info = libgit2.discover(start)
    if info is not None and info.workdir is not None and blocked.acceptable(findings):
        blocked.record(state_dir_for(info.workdir, info), findings)


def _added_weight(change: TreeChange) -> int:
    """About what the rules read of a change: what it adds (a MEMORY.md of 10,000 lines that gains
    500 is 500 lines of work, not 10,000)."""
    return max(len(change.new or b"") - len(change.old or b""), 256)


def memory_rule_findings(start: Path, base: str, head: str, accepted: IgnoreList | None) -> list[Finding]:
    """What the memory rules refuse in the text ``base..head`` adds to memory files, net (what a
    merge brings), less what BASE's ignore file accepts (``check.memory_rules``)."""
    from chord_git.check import memory_rules
    from chord_git.git import libgit2

    from chord_git.check import cache as cache_mod
    from chord_git.check import pool

    changed = [change for change in libgit2.tree_changes(start, base, head, changes.is_memory_path)
               if change.new is not None and not changes.name_problem(change.path)]
    info = libgit2.discover(start) if changed else None
    # Stored by content (path, old and new bytes, the rules' version): a pre-push run again, or a
    # range that grew by a commit, judges only what it has not judged before.
    cache = _open_cache(info.common_dir / STATE_DIR_NAME) if info is not None else None
    try:
        version = cache_mod.rules_version() if cache is not None else ""
        keys = [cache_mod.key("memory-rules", version, c.path, c.old or b"", c.new or b"") for c in changed]
        known = cache.get_many(keys) if cache is not None else {}
        found = [f for k in keys if k in known for f in cache_mod.decode(known[k])]
        todo = [(k, c) for k, c in zip(keys, changed) if k not in known]

        def judged(chunk: list[tuple[str, libgit2.TreeChange]]) -> list[tuple[str, list[Finding]]]:
            return [(k, memory_rules.findings(c.path, c.old, c.new or b"")) for k, c in chunk]

        # The rules cost ~7 ms CPU per record: a range of hundreds (a first push of an imported
        # memory) is judged on both cores, as the secret layers do with a large batch.
        size = sum(_added_weight(c) for _k, c in todo)
        workers = pool.workers() if size >= RULES_POOL_MIN_BYTES else 1
        if size >= RULES_POOL_MIN_BYTES:  # hundreds of units: the judge's screens repay their build
            from chord_git.judge import classes

            classes.screen_all()
        chunks = pool.split(todo, workers, lambda item: _added_weight(item[1])) if workers > 1 else [todo]
        computed = pool.map_chunks(judged, chunks)
        if cache is not None:
            cache.put_many((k, cache_mod.encode(result)) for k, result in computed)
    finally:
        if cache is not None:
            cache.close()
    found += [f for _k, result in computed for f in result]
    return sort_findings(drop_ignored(found, accepted))


def _scan_commits(start: Path, commits: list[str], root: Path | None, info: Any, progress: Progress | None,
                  pragmas: list[str] | None = None) -> list[Finding]:
    bar = progress("scanning commits", len(commits)) \
        if progress is not None and len(commits) >= PROGRESS_MIN_COMMITS else None
    cache = _open_cache(info.common_dir / STATE_DIR_NAME) if info is not None and commits else None
    try:
        with bar or nullcontext(_no_step) as step:
            return _history_findings(start, commits, root, cache, step, pragmas)
    finally:
        if cache is not None:
            cache.close()


def _history_findings(start: Path, commits: list[str], root: Path | None, cache: ResultCache | None,
                      step: Step, pragmas: list[str] | None = None) -> list[Finding]:
    """``pragmas`` not None: the range's own allowance pragmas allow nothing; their places go there."""
    from chord_git.check import cache as cache_mod
    from chord_git.git import libgit2

    per_commit: dict[str, list[Finding]] = {}
    version = ""
    # A range's commits are read again each time: the places of its pragmas are part of the answer.
    if cache is not None and pragmas is None:
        version = _settings_key(root)
        keys = {oid: cache_mod.key("commit", version, oid) for oid in commits}
        known = cache.get_many(list(keys.values()))
        per_commit = {oid: cache_mod.decode(known[keys[oid]], oid) for oid in commits if keys[oid] in known}
    todo = [oid for oid in commits if oid not in per_commit]
    accepted = project_ignore(root)
    step(len(commits) - len(todo))
    for batch in libgit2.commit_batches(start, todo, changes.is_checked_path, HISTORY_BATCH):
        units = [change if pragmas is None else range_policy.without_pragmas(change, pragmas)
                 for commit in batch for change in commit.files]
        contents = iter(content_findings(units, root=root, schema=False, cache=cache, ignore=accepted))
        stored: list[tuple[str, str]] = []
        for commit in batch:
            found: list[Finding] = []
            for change in commit.files:
                found.extend(changes.file_findings(change))
                found.extend(next(contents))
            found = drop_ignored(found, accepted, commit.commit)
            stored.append((cache_mod.key("commit", version, commit.commit), cache_mod.encode(found)))
            per_commit[commit.commit] = [replace(finding, commit=commit.commit) for finding in found]
        if cache is not None and pragmas is None:
            cache.put_many(stored)
        step(len(batch))
    # Oldest commit first; within a commit, by path and line.
    return [finding for oid in commits for finding in sort_findings(per_commit[oid])]


def uri_prefix(project: Project) -> str:
    """Where the project root sits in the repository: SARIF locations are repository-relative."""
    if project.repo is None or project.repo.workdir is None:
        return ""
    try:
        rel = project.root.relative_to(project.repo.workdir).as_posix()
    except ValueError:
        return ""
    return "" if rel == "." else rel + "/"
