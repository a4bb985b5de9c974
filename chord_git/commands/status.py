"""``git memory status``: MEMORY / MEMORY-FAIL: reason / off, plus counts (R36).

The text says what ``off`` means: extraction is off, and the memory is still loaded (R7); outside
any project there is no memory either.

MEMORY-FAIL has two kinds of reason. Some hold as long as their cause does (a refused config, no
model pool, an unusable managed section) and go once it is fixed. The other is the last
*background* extraction's failure, recorded in the state dir: it stays until a background run
succeeds, or until ``git memory status --clear-failure`` clears it (the lines say so, and the
badge of the agent hosts names the command). A run by hand (``git memory extract``) never records
one: it reports to the person who ran it.

A config the loader refused is bad input: the status is still printed (with the defaults in
force), then one line naming the file and line goes to stderr, and the exit code is 2.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from chord_git import config as config_mod
from chord_git.agents.statusline import badge, recorded_failure, recorded_reason
from chord_git.commands.queue import counts as queue_counts
from chord_git.support.dataclass_lazy import asdict, dataclass, field
from chord_git.memory import index_file, records, store, view
from chord_git.memory import pending as pending_mod
from chord_git.memory.project import Project
from chord_git.ui import Output


@dataclass(frozen=True)
class Status:
    """What ``status`` reports; ``--json`` prints these fields as they are."""

    badge: str  # the state, with its reason for MEMORY-FAIL
    state: str  # MEMORY | MEMORY-FAIL | off
    reason: str | None
    enabled: bool
    entries: int
    entries_beyond_budget: int
    records: int
    orphans: int
    promotions: int
    summary_budget: int
    stale: int  # among the entries within the summary budget, the ones sessions see
    queue_pending: int
    queue_failed: int
    # New entries and removals made on a side branch, waiting in their files for the fold (R33).
    fold_entries: int = 0
    fold_removals: int = 0
    config: dict[str, object] = field(default_factory=dict)  # which files are in force, and trust
    in_project: bool = True  # False: no git work tree, MEMORY.md or .chord/ here
    # Where file leases cannot be used on MEMORY.md: the one case in which a save can be lost.
    in_place_saves: str | None = None
    # The recorded background failure behind MEMORY-FAIL, when that is its reason: ``reason`` in
    # full (endpoints included), ``at`` (local time, to the minute) and ``clear``, the command
    # that clears it.
    failure: dict[str, object] | None = None

    def headline(self) -> str:
        """The first line: the badge, with ``off`` said in words."""
        if self.state != "off":
            return self.badge
        if not self.in_project:
            return f"extraction: off ({NO_PROJECT})"
        return "extraction: off (memory is still loaded)"

    def lines(self) -> list[str]:
        out = [self.headline()]
        if self.failure is not None:
            if self.failure["reason"] != self.reason:
                out.append(f"last background extraction ({self.failure['at']}): {self.failure['reason']}")
            out.append(f"the next background extraction that succeeds clears it; {self.failure['clear']} "
                       "clears it now")
        out.append(f"entries: {self.entries}  records: {self.records}  orphans: {self.orphans}  "
                   f"promotions: {self.promotions}")
        if self.entries_beyond_budget:
            out.append(f"{self.entries_beyond_budget} entries lie beyond the summary budget "
                       f"({self.summary_budget} characters) and are not injected")
        if self.stale:
            out.append(f"{self.stale} stale {'entry' if self.stale == 1 else 'entries'} among those sessions see "
                       "(hints only; git memory review list shows all)")
        if self.fold_entries or self.fold_removals:
            out.append(f"waiting for the fold: {self.fold_entries} new entr{'y' if self.fold_entries == 1 else 'ies'}, "
                       f"{self.fold_removals} removal{'' if self.fold_removals == 1 else 's'} "
                       "(git memory fold, on the default branch)")
        if self.queue_pending or self.queue_failed:
            out.append(f"queue: {self.queue_pending} pending, {self.queue_failed} failed (git memory queue)")
        if self.config:
            out.append(_config_line(self.config))
        if self.in_place_saves:
            out.append(self.in_place_saves)
        return out


NO_PROJECT = "no project here: no git repository, MEMORY.md or .chord/; git memory init makes one"
CLEAR_FAILURE = "git memory status --clear-failure"


def _config_line(info: dict[str, object]) -> str:
    if info.get("refused"):
        return "config: refused (see above), so the defaults are in force"
    user = info["user"] or "none"
    if not info["project"]:
        return f"config: user {user}; no project config"
    if info["project_trusted"]:
        trust = "trusted"
    elif info["ignored"]:
        ignored = ", ".join(map(str, info["ignored"]))  # type: ignore[call-overload]
        trust = f"not trusted: ignored {ignored}; run git memory trust to allow it"
    else:
        trust = "not trusted (nothing in it needs trust)"
    return f"config: user {user}; project {info['project']}, {trust}"


def clear_failure(project: Project) -> str | None:
    """Clear a recorded background failure; returns its reason, or None when none was recorded.

    Under the project lock, so that a clear and a run's own write do not interleave; the next
    background run records its outcome as usual.
    """
    from chord_git.memory.atomic import replace_atomically

    if recorded_failure(project) is None:
        return None
    with store.locked(project):
        last = recorded_failure(project)
        if last is None:
            return None
        payload = {"state": "cleared", "reason": None, "cleared": last.get("reason"), "at": time.time()}
        replace_atomically(store.status_path(project), json.dumps(payload).encode(), project.state_dir / "tmp")
    return recorded_reason(last)


def in_place_saves(project: Project) -> str | None:
    """What ``status`` says where no read lease can be taken on MEMORY.md (another owner's file,
    a network file system); None where leases work or there is no MEMORY.md."""
    from chord_git.memory import quiet

    if not project.is_project or quiet.leases_usable(project.memory_md) is not None:
        return None
    return (f"{project.relative(project.memory_md)}: no file leases here (another owner's file or a network "
            f"file system): a save in place (emptying the file, then writing it) that pauses half way for "
            f"more than {quiet.STALL_SECONDS:g} s while a memory write runs can be lost; saves that replace "
            "the file, and shorter pauses, are merged")


def _index_facts(project: Project, budget: int, names: list[str] | None) -> dict[str, object]:
    """What status needs from the whole index and the records folder (cached by their content);
    ``names``: the records folder as listed for the cache key."""
    present = view.record_ids(project, names)
    state = view.read_clean_section(project)
    if not isinstance(state, view.IndexState):  # a clean index (the usual case): ids, and lines only as shown
        shown = index_file.fit_count(state.lines(), budget)
        ids = set(state.ids)
        return {"entries": len(state.ids), "shown": state.ids[:shown],
                "records": len(present), "orphans": sum(1 for rid in present if rid not in ids), "unusable": None}
    # Only the lines a session gets are rendered: the count stops at the budget.
    shown = index_file.fit_count((entry.render() for entry in state.entries), budget)
    listed_ids = {entry.id for entry in state.entries}
    return {"entries": len(state.entries), "shown": [entry.id for entry in state.entries[:shown]],
            "records": len(present), "orphans": sum(1 for rid in present if rid not in listed_ids),
            "unusable": state.unusable_reason}


def collect(project: Project, cfg: config_mod.Config, refused: str | None = None) -> Status:
    from chord_git.memory import facts as facts_mod

    budget = cfg.memory.summary_budget
    facts = facts_mod.cached(project, "status", {"budget": budget}, lambda names: _index_facts(project, budget, names))
    unusable = facts["unusable"]
    label, reason = badge(project, cfg, unusable if isinstance(unusable, str) else None, refused)
    failure: dict[str, object] | None = None
    last = recorded_failure(project) if label == "MEMORY-FAIL" else None
    if last is not None and reason == recorded_reason(last):
        at = last.get("at")
        failure = {"reason": str(last.get("reason") or reason),
                   "at": time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if isinstance(at, (int, float)) else None,
                   "clear": CLEAR_FAILURE}
    shown = [str(rid) for rid in facts["shown"]]
    pending, failed = queue_counts(project)
    waiting = pending_mod.names(project.root)
    removals = sum(1 for name in waiting if pending_mod.removal_id(name) is not None)
    entries_waiting = sum(1 for name in waiting if name.endswith(".md") and records.valid_id(name[:-3]))
    return Status(
        badge=label if reason is None else f"{label}: {reason}",
        state=label,
        reason=reason,
        enabled=cfg.memory.enabled and project.is_project,
        entries=int(facts["entries"]),
        entries_beyond_budget=int(facts["entries"]) - len(shown),
        records=int(facts["records"]),
        orphans=int(facts["orphans"]),
        promotions=len(view.promotion_files(project)),
        summary_budget=budget,
        stale=_stale_count(project, cfg, shown),
        queue_pending=pending,
        queue_failed=failed,
        fold_entries=entries_waiting,
        fold_removals=removals,
        config={
            "user": next((s for s in cfg.sources if s != cfg.project_file), None),
            "project": project.relative(Path(cfg.project_file)) if cfg.project_file else None,
            "project_trusted": cfg.project_trusted,
            "ignored": list(cfg.ignored),
            "refused": refused is not None,
        },
        in_project=project.is_project,
        in_place_saves=in_place_saves(project),
        failure=failure,
    )


def _stale_count(project: Project, cfg: config_mod.Config, shown: list[str]) -> int:
    """Stale entries among the ``shown`` ones, those a session gets: reading their records is bounded
    by the summary budget, not by the size of the index (``review list`` gives hints for all)."""
    if not shown:
        return 0
    from chord_git.review import staleness

    return len(staleness.stale_ids(project, shown, stale_after_days=cfg.memory.stale_after_days))


def status(project: Project, cfg: config_mod.Config, out: Output, *, as_json: bool = False,
           refused: str | None = None, clear: bool = False) -> int:
    """Exit 0, or 2 when the config was refused (``refused``: the loader's one line, which names
    the file and line). ``clear``: clear a recorded background failure first, and say so."""
    if clear:
        cleared = clear_failure(project) if project.is_project else None
        if not as_json:
            out.line(f"cleared: MEMORY-FAIL: {cleared}" if cleared is not None else "no background failure recorded")
    report = collect(project, cfg, refused)
    if as_json:
        data = asdict(report)
        del data["in_project"]  # the JSON keeps its fields; ``enabled`` is false outside a project
        if data["in_place_saves"] is None:
            del data["in_place_saves"]  # present only where a save can be lost
        if data["failure"] is None:
            del data["failure"]  # present only while a recorded background failure stands
        out.json(data)
    else:
        for line in report.lines():
            out.line(line)
    if refused is not None:
        out.stderr.write(f"git memory: {refused} (the config is not used)\n")
        return 2
    return 0
