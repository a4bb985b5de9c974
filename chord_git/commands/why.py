"""``git memory why``: what the last session start injected, and what it left out and why.

Tells "memory not applied" (the entry was injected and the agent did not follow it) apart from
"memory not injected" (over the budget or caps, unloadable, not checked in time, not reviewed under
``memory.inject: reviewed``, or written after that session started). The session-start hook
records a manifest (``memory/injection.py``); this command compares it with the index as it is
now, and names who added or changed on this branch each entry left out as not reviewed (one
``git log`` of the branch since the base commit that session start was checked against).
"""
from __future__ import annotations

from typing import Any

from chord_git.memory import injection, recall_gate, view
from chord_git.memory.project import Project
from chord_git.ui import Output

NONE_YET = ("no session start recorded for this project yet: the agent hooks record one at each "
            "session start (git memory agent install HOST)")


def why(project: Project, out: Output, *, session: str | None = None, as_json: bool = False) -> int:
    manifest = injection.latest(project.state_dir, session)
    if manifest is None:
        out.stderr.write(f"git memory why: {NONE_YET if session is None else f'no session start recorded for session {session}'}\n")
        return 1
    state = view.read_index(project)
    # Entries are compared even when the managed section has errors (the summary reads past them too).
    ids = [] if not state.exists else [entry.id for entry in state.entries] if state.doc is not None else None
    report = _with_authors(project, injection.explain(manifest, ids))
    if as_json:
        out.json(report)
        return 0
    for line in injection.render(report, {entry.id: entry.summary for entry in state.entries}):
        out.line(line)
    return 0


def _with_authors(project: Project, report: dict[str, Any]) -> dict[str, Any]:
    """The "added/changed on this branch" reasons with the author of the branch's commit."""
    items = report["left_out"].get(injection.NOT_REVIEWED, [])
    base = report["session_start"].get("base_commit")
    wanted = [str(item["id"]) for item in items
              if item.get("id") and item.get("reason") in (recall_gate.ADDED, recall_gate.CHANGED)]
    if not base or not wanted:
        return report
    found = recall_gate.authors(project, str(base), wanted)
    for item in items:
        item["reason"] = recall_gate.with_author(str(item.get("reason")), found.get(str(item.get("id"))))
    return report
