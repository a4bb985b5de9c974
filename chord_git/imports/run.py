"""One import: read a source's store, judge each item, merge duplicates, write what is left as
pending imports (``git memory import``).

Items stream through in chunks (``_judged``), so memory stays bounded by the chunks in flight and
the pending list, not by the store. For each item, in order: a refusal class, a cap or encoding
damage drops it with its reason, and a credential drops it, counted and never shown
(``judging.verdicts``); an item the user decided on before is skipped; one memory already holds
(an index entry's or record's text, or a restatement of it) or AGENTS.md already states is
skipped; one already pending, or read earlier in this run, is merged into that pending import as
one more place it was read. Nothing here stages, commits or writes the working tree.
"""
from __future__ import annotations

import datetime as dt
import itertools
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from chord_git.errors import InputError
from chord_git.imports import judging, pending
from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Source, Where
from chord_git.judge import claims
from chord_git.memory import paths, project_docs, store
from chord_git.memory.project import Project
from chord_git.support.dataclass_lazy import dataclass, field

CHUNK = 256
MAX_WORKERS = 4
IN_MEMORY = "in-memory"
IN_AGENTS_MD = "in-agents-md"
DECIDED = "decided"


@dataclass
class Report:
    source: str
    stores: list[str] = field(default_factory=list)
    read: int = 0  # items read
    proposed: list[pending.PendingImport] = field(default_factory=list)  # new pending imports
    merged: int = 0  # read again, or read twice: one more origin of a pending import
    skipped: Counter[str] = field(default_factory=Counter)  # in-memory, in-agents-md, decided
    dropped: Counter[str] = field(default_factory=Counter)  # reason -> count (credential among them)
    problems: list[Problem] = field(default_factory=list)
    dry_run: bool = False

    def as_json(self) -> dict[str, object]:
        return {"source": self.source, "stores": self.stores, "read": self.read,
                "proposed": [item.as_json() for item in self.proposed], "merged": self.merged,
                "skipped": dict(self.skipped), "dropped": dict(self.dropped),
                "problems": [{"file": p.file, "message": p.message} for p in self.problems], "dry_run": self.dry_run}


def shown(path: Path, home: Path, project: Path | None = None) -> str:
    """A store as the user reads it: project-relative inside the project, ``~/…`` under home."""
    for base, lead in ((project, ""), (home, "~/")):
        if base is None:
            continue
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        return lead + rel if rel != "." else (lead.rstrip("/") or ".")
    return path.as_posix()


def _memory_texts(project: Project) -> list[str]:
    from chord_git.memory import view

    snapshot = view.snapshot(project)
    listed = {entry.id for entry in snapshot.index.entries}
    texts = [entry.summary for entry in snapshot.index.entries]
    texts += [text for rid, facts in snapshot.records.items() if rid in listed for text in facts.texts]
    return texts


def _agents_texts(project: Project) -> list[str]:
    """AGENTS.md's statements, read as extraction and audit read it (``memory.project_docs``)."""
    text = project_docs.read_agents_md(project.root)
    return claims.agents_md_lines(text) if text else []


def _roots(project: Project, source: Source, where: Where, path: Path | None,
           problems: list[Problem]) -> list[Path]:
    """The stores to read: ``--path``, or the ones the source's rule finds that exist."""
    candidates = [path] if path is not None else source.stores(where)
    found = [root for root in candidates if root.exists() or root.is_symlink()]
    if not found:
        looked = ", ".join(shown(root, where.home, where.project) for root in candidates)
        raise InputError(shown(candidates[0], where.home, where.project), None,
                         f"no {source.title} store for this project (looked in {looked}); "
                         f"give its folder with --path")
    kept = []
    for root in found:
        inside = root.absolute()
        if path is None and inside.is_relative_to(project.root):
            why = paths.escape_reason(project.root, inside)
            if why:  # a clone's folder that is a symlink elsewhere: never read through it
                problems.append(Problem(shown(root, where.home, where.project),
                                        "a symlink, or a folder reached through one; refused"))
                continue
        kept.append(root)
    return kept


Chunk = list[tuple[str, Read, str]]  # (store label, the item, its text on one line)


def _chunks(reads: Iterator[tuple[str, Read]]) -> Iterator[Chunk]:
    chunk: Chunk = []
    for label, read in reads:
        text = " ".join(read.item.text.split())
        if not text:
            continue
        chunk.append((label, read, text))
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _judged(chunks: Iterator[Chunk]) -> Iterator[tuple[Chunk, list[judging.Verdict]]]:
    """Each chunk with its verdicts, in order. The judge reads each item whole (about a millisecond
    an item), so a store of more than one chunk is judged by a process per core, with at most two
    chunks a process in flight: memory stays bounded by those chunks, not by the store."""
    first = next(chunks, None)
    if first is None:
        return
    second = next(chunks, None)
    workers = min(os.cpu_count() or 1, MAX_WORKERS)
    if second is None or workers < 2 or sys.platform != "linux":
        yield first, judging.verdicts([text for _l, _r, text in first])
        if second is not None:
            yield second, judging.verdicts([text for _l, _r, text in second])
        for chunk in chunks:
            yield chunk, judging.verdicts([text for _l, _r, text in chunk])
        return
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    # fork: the children start with the judge this process has loaded and compiled (Linux only).
    judging.warm()
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        waiting: deque[tuple[Chunk, Future[list[judging.Verdict]]]] = deque()
        for chunk in itertools.chain((first, second), chunks):
            waiting.append((chunk, pool.submit(judging.verdicts, [text for _l, _r, text in chunk])))
            if len(waiting) >= 2 * workers:
                done, future = waiting.popleft()
                yield done, future.result()
        while waiting:
            done, future = waiting.popleft()
            yield done, future.result()


def run_import(project: Project, source: Source, where: Where, *, path: Path | None = None,
               dry_run: bool = False, today: dt.date | None = None) -> Report:
    report = Report(source.name, dry_run=dry_run)
    roots = _roots(project, source, where, path, report.problems)
    report.stores = [shown(root, where.home, where.project) for root in roots]
    created = (today or dt.date.today()).isoformat()
    memory = claims.Known(_memory_texts(project))
    agents = claims.Known(_agents_texts(project))
    decided = pending.decided_keys(project)
    waiting = {item.keys[0]: item for item in pending.read_pending(project)}
    # An edited import keeps the keys of its earlier texts: reading one of them again is the same item.
    alias = {k: item.keys[0] for item in waiting.values() for k in item.keys}
    before = dict(waiting)
    fresh: list[str] = []  # keys of the items this run proposes, in the order they were read
    proposals = claims.Known()
    for item in waiting.values():
        proposals.add(item.text, item.keys[0])

    def reads() -> Iterator[tuple[str, Read]]:
        for root in roots:
            for read in source.read(root, where, report.problems):
                yield shown(root, where.home, where.project), read

    for chunk, verdicts in _judged(_chunks(reads())):
        report.read += len(chunk)
        for (label, read, text), (reason, said) in zip(chunk, verdicts):
            if reason is not None:
                report.dropped[reason] += 1
                continue
            assert said is not None  # every kept item comes with its conclusion
            own_key = pending.key(text, said.key)
            item_key = alias.get(own_key, own_key)
            origin = pending.Origin(source.name, label, read.file, read.item.line)
            if item_key in decided:
                report.skipped[DECIDED] += 1
                continue
            if memory.match(said) is not None:
                report.skipped[IN_MEMORY] += 1
                continue
            if agents.match(said) is not None:
                report.skipped[IN_AGENTS_MD] += 1
                continue
            if item_key not in waiting:
                near = proposals.match(said)
                if near:  # a restatement of an import already pending: one more place it was read
                    item_key = alias[own_key] = near
            if item_key in waiting:
                known = waiting[item_key]
                if origin not in known.origins:
                    waiting[item_key] = pending.PendingImport(known.id, known.text, known.created,
                                                              (*known.origins, origin), known.keys)
                report.merged += 1
                continue
            waiting[item_key] = pending.PendingImport(pending.pending_id(item_key), text, created, (origin,),
                                                      (item_key,))
            alias[item_key] = item_key
            proposals.add(said, item_key)
            fresh.append(item_key)
    report.proposed = [waiting[k] for k in fresh]  # with every origin this run merged into them
    if not dry_run and waiting != before:
        with store.locked(project):
            # Reviews since the read are kept: what left the list meanwhile stays out of it.
            now = {item.keys[0]: item for item in pending.read_pending(project)}
            gone = set(before) - set(now)
            decided_now = pending.decided_keys(project)
            merged = {k: v for k, v in waiting.items() if k not in gone and not (set(v.keys) & decided_now)}
            merged.update({k: v for k, v in now.items() if k not in merged})
            pending.write_pending(project, merged.values())
    return report
