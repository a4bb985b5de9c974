"""What the user decides on a pending import (``git memory review``): accept, edit or reject.

Accepting is the way ``git memory add`` makes an entry: the text goes to the background
extraction as the user's own statement (``background.statements``), so the model and the whole
judge decide what is written, and entries stay written by extraction alone. A decision sticks:
its keys are kept (``pending.record_decision``) so a re-run of the import proposes nothing
decided. An edit replaces the text after judging it again like an imported item.
"""
from __future__ import annotations

import datetime as dt

from chord_git.config import OFF_MESSAGE, Config
from chord_git.errors import ExtractionFailed, InputError
from chord_git.imports import judging, pending
from chord_git.memory import store
from chord_git.memory.project import Project
from chord_git.support.dataclass_lazy import dataclass

LISTING = "git memory review list"


@dataclass(frozen=True)
class Accepted:
    item: pending.PendingImport
    job: str


def is_import(item_id: str) -> bool:
    return item_id.startswith(pending.ID_PREFIX)


def _take(project: Project, item_id: str) -> tuple[pending.PendingImport, list[pending.PendingImport]]:
    """The pending import and the others (the caller holds the lock)."""
    items = pending.read_pending(project)
    found = next((item for item in items if item.id == item_id), None)
    if found is None:
        raise InputError(f"{project.state_dir.name}/{pending.IMPORTS_DIR}/{pending.PENDING_FILE}", None,
                         f"no pending import {item_id} (see {LISTING})")
    return found, [item for item in items if item.id != item_id]


def accept(project: Project, cfg: Config, item_id: str, today: dt.date | None = None) -> Accepted:
    from chord_git.background import statements

    if not cfg.memory.enabled or not project.is_project:
        raise ExtractionFailed(f"{OFF_MESSAGE}; the import stays pending")
    if not cfg.extraction_pool:
        raise ExtractionFailed(f"{cfg.no_pool_reason()}; the import stays pending")
    with store.locked(project):
        item, rest = _take(project, item_id)
    # Queued outside the lock: the worker started for it takes the same lock.
    job, _session = statements.queue_statement(project, cfg, item.text, prefix="import")
    with store.locked(project):
        _item, rest = _take(project, item_id)
        pending.record_decision(project, "accepted", item, (today or dt.date.today()).isoformat())
        pending.write_pending(project, rest)
    return Accepted(item, job)


def reject(project: Project, item_id: str, today: dt.date | None = None) -> pending.PendingImport:
    with store.locked(project):
        item, rest = _take(project, item_id)
        pending.record_decision(project, "rejected", item, (today or dt.date.today()).isoformat())
        pending.write_pending(project, rest)
    return item


def edit(project: Project, item_id: str, text: str) -> pending.PendingImport:
    """Replace the text; the old text's key stays with it, so the original is not proposed again."""
    words = " ".join(text.split())
    if not words:
        raise InputError("--text", None, "the edited text is empty")
    reason = judging.text_reason(words)
    if reason is None and judging.credentials([words])[0]:
        reason = judging.CREDENTIAL
    if reason is not None:
        raise InputError("--text", None, f"the edited text {judging.description(reason)}; not kept")
    with store.locked(project):
        item, rest = _take(project, item_id)
        new_key = pending.key(words)
        keys = (new_key, *(k for k in item.keys if k != new_key))
        edited = pending.PendingImport(item.id, words, item.created, item.origins, keys)
        position = [i.id for i in pending.read_pending(project)].index(item_id)
        rest.insert(position, edited)
        pending.write_pending(project, rest)
    return edited
