"""``git memory check``: index syntax, record schema and caps, and secrets in memory files.

The whole project (no arguments), the files pre-commit passes (``PATHS``), or the staged blobs
(``--staged``, the plain git hook); ``check.driver`` holds the rules for all three.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from chord_git.check import driver
from chord_git.check.report import commit_advice, emit
from chord_git.memory.project import Project
from chord_git.ui import Output


def check(project: Project, out: Output, *, paths: list[str] | None = None, fmt: str = "text",
          staged: bool = False, output: Path | None = None, quiet: bool = False, explain: bool = False) -> int:
    if staged:
        result = driver.staged(project)
        prefix = ""  # staged paths are repository-relative already
    else:
        progress = out.progress if not quiet and out.on_terminal() else None
        result = driver.worktree(project, paths, progress=progress)
        prefix = driver.uri_prefix(project)
    findings = list(result.findings)
    # The ignore file is read where the paths shown are relative to: the work tree for staged blobs.
    tree = project.repo.workdir if staged and project.repo is not None and project.repo.workdir else project.root
    advice = commit_advice(findings, ignore_file=ignore_file_shown(tree),
                           show_hashes=not under_ci(os.environ)) if findings else []
    if findings:  # what `git memory ignore --last` accepts: fingerprints and hashes, never a value
        from chord_git.check import blocked

        blocked.record(project.state_dir, findings)
    # The floor's removals are worked out again on request: the hook's cached findings never hold them.
    removed = driver.removals(project, paths, staged=staged) if explain else None
    emit(out, findings, fmt, checked=result.count, noun=result.noun, uri_prefix=prefix, output=output,
         advice=advice, removed=removed)
    if not staged and fmt == "text":
        # R21's substance floor, as a warning: a hand-written record is the user's to word.
        for warning in thin_sections(project, result.read):
            out.warn(warning)
    return 1 if result.findings else 0


SECTIONS = ("Why keep it", "How to apply")
THIN_MAX_BYTES = 64 * 1024  # a record over the cap is refused by the schema check already


def thin_sections(project: Project, files: Sequence[tuple[str, bytes]]) -> list[str]:
    """``path:line: section '## Why keep it' says nothing of its own`` for each record file of
    ``files`` (project-relative path, bytes as the check read them) with a section that holds text
    but no content word or CJK character beyond the filler list (``claims.has_substance``).

    Answers are kept in the check's result cache under the file's bytes and the rules' version, so
    an unchanged project (the usual run) judges no text again."""
    import json  # kept off the hook's path, which never warns

    from chord_git.check import cache as cache_mod
    from chord_git.memory.project import RECORDS_DIR

    folder = RECORDS_DIR + "/"
    read = [(rel, data) for rel, data in files if rel.startswith(folder) and "/" not in rel[len(folder):]
            and rel.endswith(".md") and len(data) <= THIN_MAX_BYTES]
    if not read:
        return []
    store = cache_mod.ResultCache.open(project.state_dir)
    try:
        version = cache_mod.rules_version()
        keys = [cache_mod.key("thin-sections", version, data) for _rel, data in read]
        known = store.get_many(list(dict.fromkeys(keys))) if store is not None else {}
        fresh: dict[str, str] = {}
        out: list[str] = []
        for (rel, data), key in zip(read, keys):
            if key in known or key in fresh:
                thin = json.loads(known.get(key) or fresh[key])
            else:
                thin = thin_in(data)
                fresh[key] = json.dumps(thin)
            out.extend(f"{rel}:{line}: section '## {name}' says nothing of its own (only filler words): "
                       "say why the entry is worth keeping, and when to use it" for line, name in thin)
        if store is not None and fresh:
            store.put_many(fresh.items())
    finally:
        if store is not None:
            store.close()
    return out


def thin_in(data: bytes) -> list[tuple[int, str]]:
    """The (line, name) of each section of a record's bytes that says nothing of its own (pure)."""
    from chord_git.judge.claims import has_substance

    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return []
    out = []
    for name in SECTIONS:
        try:
            start = lines.index(f"## {name}")
        except ValueError:
            continue
        body = []
        for line in lines[start + 1:]:
            if line.startswith("## "):
                break
            body.append(line)
        text = "\n".join(body).strip()
        if text and not has_substance(text):
            out.append((start + 1, name))
    return out


def under_ci(env: Mapping[str, str]) -> bool:
    """A CI job, whose log may be public: the block message names no value's hash there."""
    from chord_git.config import ci_detected

    return ci_detected(env)


def ignore_file_shown(tree: Path, cwd: Path | None = None) -> str:
    """``.chord/secrets-ignore`` of ``tree`` as the user would type it from here."""
    try:
        return os.path.relpath(tree / driver.IGNORE_FILE, cwd or Path.cwd())
    except ValueError:  # another drive (Windows)
        return str(tree / driver.IGNORE_FILE)
