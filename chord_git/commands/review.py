"""``git memory review``: promotions, entries and orphans; interactive only with a terminal.

Bare ``review`` is interactive when stdin and stdout are terminals and ``CI`` is unset. Otherwise
(or with ``--no-input``/``--json``) it lists, and exits 1 while promotion files are pending, so
a CI job can gate on suggestions nobody has decided on; ``review list`` always exits 0. Nothing
is ever staged: every action changes working-tree files only.
"""
from __future__ import annotations

import os
import sys

from chord_git import config as config_mod
from chord_git.commands.audit import judgement_memo
from chord_git.commands.ids import candidates, resolve
from chord_git.errors import UsageError
from chord_git.imports import decide
from chord_git.memory import view
from chord_git.memory.project import Project
from chord_git.review import actions, items
from chord_git.review.move import move
from chord_git.ui import Output

NOT_STAGED = "nothing was staged"
LISTING = "git memory review list"


def _orphan(given: str, orphans: list[str]) -> str:
    """A unique prefix of an orphan's id names it; an ambiguous one is refused. Anything else goes
    on as given, and ``prune_orphans`` says why it keeps it (listed in the index, no such file)."""
    if given in orphans or not any(rid.startswith(given) for rid in orphans):
        return given
    return resolve(given, orphans, noun="orphan record", listing=LISTING)


def is_interactive(out: Output) -> bool:
    """Both ends are terminals and this is not CI (ECOSYSTEM.md §8: hooks have no TTY on stdin)."""
    stdout_tty = getattr(out.stdout, "isatty", lambda: False)()
    return bool(sys.stdin.isatty() and stdout_tty and not os.environ.get("CI"))


def _describe(item: items.ReviewItem) -> str:
    if item.kind == "promotion":
        if item.problems:
            return f"  {item.id}  (unreadable: {item.problems[0]})"
        about = f"  entry {item.entry}" if item.entry else ""
        return f"  {item.id}  {item.target} -> {item.path}{about}\n      {item.summary}"
    if item.kind == "import":
        return f"  {item.id}  ({item.path})\n      {item.text}"
    if item.kind == "entry":
        source = item.source or "record unreadable"
        stale = f"  STALE: {'; '.join(item.stale_reasons)}" if item.stale else ""
        audit = "".join(f"\n       audit: {kind}: {message}" for kind, message, _action in item.audit)
        offer = f"\n       suggested: git memory review forget {item.id}" if item.suggested == "forget" \
            or item.stale else ""
        return f"  {item.position:>3}. {item.id}  ({source}){stale}\n       {item.summary}{audit}{offer}"
    note = f"  [{item.reason}]" if item.reason else ""
    return f"  {item.id}  ({item.source or 'unreadable'})  {item.summary or ''}{note}".rstrip()


def list_items(project: Project, cfg: config_mod.Config, out: Output, *, as_json: bool) -> list[items.ReviewItem]:
    with judgement_memo(project) as memo:
        found = items.collect(project, cfg, memo=memo)
    state = view.read_index(project)
    if state.unusable_reason:
        out.warn(f"{state.unusable_reason}; entries and orphans are not listed")
    if as_json:
        out.json({"items": [item.as_json() for item in found]})
        return found
    for kind, title in (("promotion", "pending promotions"), ("import", "pending imports (accept, edit or reject)"),
                        ("entry", "index entries (priority order)"),
                        ("orphan", "orphan records")):
        group = [item for item in found if item.kind == kind]
        out.line(f"{title}: {len(group)}")
        for item in group:
            out.line(_describe(item))
    return found


def _accept(project: Project, out: Output, pid: str) -> int:
    done = actions.accept(project, pid)
    if not done.changed:
        out.line(f"{done.target} already holds the proposed text; left unchanged")
    else:
        out.line(f"{'created' if done.created else 'appended to'} {done.target}:")
        out.write(done.diff)
    if done.entry_removed:
        out.line(f"removed entry {done.promotion.entry} from the index")
    out.line(f"deleted promotion {pid}; {NOT_STAGED}")
    return 0


def _decide_import(project: Project, cfg: config_mod.Config, out: Output, action: str, item_id: str,
                   text: str | None) -> int:
    if action == "accept":
        done = decide.accept(project, cfg, item_id)
        out.line(f"accepted import {item_id}: queued as {done.job}; extraction writes the entry as your statement "
                 "(git memory status shows the outcome); nothing was staged")
    elif action == "reject":
        decide.reject(project, item_id)
        out.line(f"rejected import {item_id}: it is not proposed again")
    else:
        edited = decide.edit(project, item_id, text or "")
        out.line(f"edited import {edited.id}: {edited.text}")
    return 0


def review(project: Project, cfg: config_mod.Config, out: Output, *, action: str | None = None,
           item_id: str | None = None, where: str | None = None, ids: list[str] | None = None,
           as_json: bool = False, no_input: bool = False, text: str | None = None) -> int:
    if action is None:
        if not (as_json or no_input) and is_interactive(out):
            from chord_git.review.interactive import run

            with judgement_memo(project) as memo:
                return run(project, cfg, out, memo)
        found = list_items(project, cfg, out, as_json=as_json)
        return 1 if any(item.kind == "promotion" for item in found) else 0
    if action == "list":
        list_items(project, cfg, out, as_json=as_json)
        return 0
    if action in ("accept", "reject") and item_id and not decide.is_import(item_id):
        item_id = resolve(item_id, candidates(project, "promotion"), noun="pending promotion", listing=LISTING)
    elif action in ("accept", "reject", "edit") and item_id:
        item_id = resolve(item_id, candidates(project, "import"), noun="pending import", listing=LISTING)
    elif action in ("forget", "move") and item_id:
        state = view.read_index(project)
        if not state.unusable_reason:  # unusable: the action itself says why it cannot run
            item_id = resolve(item_id, [entry.id for entry in state.entries], noun="index entry", listing=LISTING)
    if action in ("accept", "reject", "edit") and item_id and decide.is_import(item_id):
        return _decide_import(project, cfg, out, action, item_id, text)
    if action == "accept" and item_id:
        return _accept(project, out, item_id)
    if action == "reject" and item_id:
        actions.reject(project, item_id)
        out.line(f"deleted promotion {item_id}; {NOT_STAGED}")
        return 0
    if action == "forget" and item_id:
        actions.forget(project, item_id)
        out.line(f"forgot {item_id}: its line left the index; the record file stays as an orphan")
        return 0
    if action == "move" and item_id and where:
        moved = move(project, item_id, where)
        out.line(f"moved {item_id} {where}" if moved else f"{item_id} is already at the {'bottom' if where == 'down' else 'top'}")
        return 0
    if action == "prune-orphans":
        if ids:
            orphans = candidates(project, "orphan")
            ids = [_orphan(rid, orphans) for rid in ids]
        deleted, skipped = actions.prune_orphans(project, ids or None)
        for rid in deleted:
            out.line(f"deleted orphan record {rid}")
        for rid, why in skipped:
            out.warn(f"kept {rid}: {why}")
        out.line(f"{len(deleted)} orphan record(s) deleted; {NOT_STAGED}")
        return 1 if ids and skipped else 0
    raise UsageError(f"git memory review: incomplete action {action!r}")
