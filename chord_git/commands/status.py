"""``git memory status``: MEMORY / MEMORY-FAIL: reason / off, plus counts (R36)."""
from __future__ import annotations

from chord_git import config as config_mod
from chord_git import summary
from chord_git.commands.queue import counts as queue_counts
from chord_git.memory import store, view
from chord_git.memory.project import Project
from chord_git.ui import Output


def badge(project: Project, cfg: config_mod.Config, state: view.IndexState) -> tuple[str, str | None]:
    """The status-bar badge and, for MEMORY-FAIL, its one-line reason."""
    if not cfg.memory.enabled:
        return "off", None
    if state.unusable_reason:
        return "MEMORY-FAIL", state.unusable_reason
    if not cfg.extraction_pool:
        # R36: initialization cannot succeed without a model to call.
        return "MEMORY-FAIL", "no model pool configured (set model_pool or memory.model_pool)"
    last = store.read_status(project)
    if last and last.get("state") == "fail":
        return "MEMORY-FAIL", str(last.get("reason") or "last extraction failed")
    return "MEMORY", None


def collect(project: Project, cfg: config_mod.Config) -> dict[str, object]:
    state = view.read_index(project)
    label, reason = badge(project, cfg, state)
    lines = [entry.render() for entry in state.entries]
    entries = len(lines)
    pending, failed = queue_counts(project)
    return {
        "badge": label if reason is None else f"{label}: {reason}",
        "state": label,
        "reason": reason,
        "enabled": cfg.memory.enabled,
        "entries": entries,
        "entries_beyond_budget": entries - summary.fit_count(lines, cfg.memory.summary_budget),
        "records": len(view.record_ids(project)),
        "orphans": len(view.orphan_ids(project, state)),
        "promotions": len(view.promotion_files(project)),
        "summary_budget": cfg.memory.summary_budget,
        "stale": _stale_count(project, cfg, state),
        "queue_pending": pending,
        "queue_failed": failed,
    }


def _stale_count(project: Project, cfg: config_mod.Config, state: view.IndexState) -> int:
    """Entries flagged by the staleness hints; reading their records is bounded by the index size."""
    if not state.entries:
        return 0
    from chord_git.review import staleness

    return len(staleness.stale_entries(project, stale_after_days=cfg.memory.stale_after_days, state=state))


def status(project: Project, cfg: config_mod.Config, out: Output, *, as_json: bool = False) -> int:
    data = collect(project, cfg)
    if as_json:
        out.json(data)
        return 0
    out.line(str(data["badge"]))
    out.line(
        f"entries: {data['entries']}  records: {data['records']}  orphans: {data['orphans']}  "
        f"promotions: {data['promotions']}"
    )
    if data["entries_beyond_budget"]:
        out.line(f"{data['entries_beyond_budget']} entries lie beyond the summary budget "
                 f"({data['summary_budget']} characters) and are not injected")
    if data["stale"]:
        count = data["stale"]
        out.line(f"{count} stale {'entry' if count == 1 else 'entries'} (hints only)")
    if data["queue_pending"] or data["queue_failed"]:
        out.line(f"queue: {data['queue_pending']} pending, {data['queue_failed']} failed (git memory queue)")
    return 0
