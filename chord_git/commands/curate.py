"""``git memory curate [--json] [--dry-run]``: the index-only curation round on demand (R27)."""
from __future__ import annotations

from chord_git import config as config_mod
from chord_git.extraction import curation
from chord_git.memory import view
from chord_git.memory.project import Project
from chord_git.ui import Output


def curate(project: Project, cfg: config_mod.Config, out: Output, *, as_json: bool = False,
           dry_run: bool = False) -> int:
    """Run one round even when the index fits (the user asked); nothing is sent when memory is off."""
    if not cfg.memory.enabled:
        return _nothing(out, as_json, "off", f"{config_mod.EXTRACTION_OFF}; nothing was sent")
    snapshot = view.snapshot(project)
    if snapshot.index.usable and not snapshot.index.entries:
        return _nothing(out, as_json, "empty", "the index is empty; nothing to curate")
    from chord_git.background import activity

    report = curation.run(project, cfg, should_cancel=lambda: activity.anyone_busy(project.state_dir),
                          dry_run=dry_run, snapshot=snapshot)
    for warning in report.warnings:
        out.warn(warning)
    if as_json:
        out.json({"ran": True, **report.as_json()})
        return 0
    verb = "would " if dry_run else ""
    m = report.maintenance
    out.line(f"curated with {report.model}" + (" (dry run: nothing written)" if dry_run else ""))
    for rid, why in m.retired:
        out.line(f"  {verb}retire {rid}: {why}")
    for rid, why in m.refused_retirements:
        out.line(f"  refused to retire {rid}: {why}")
    for pid in m.promotions:
        out.line(f"  {verb}suggest promotion {pid}")
    for rid in m.promoted_out:
        out.line(f"  {verb}move {rid} out of the index (promotion pending)")
    for number, why in m.dropped_promotions:
        out.line(f"  dropped promotion #{number}: {why}")
    out.line(f"entries: {report.entries_before} -> {report.entries_after}; beyond the budget: "
             f"{report.beyond_before} -> {report.beyond_after}")
    if report.beyond_after:
        out.line(f"{report.beyond_after} entries still lie beyond the budget; the summary drops them "
                 "(git memory review can reorder or forget entries)")
    return 0


def _nothing(out: Output, as_json: bool, why: str, message: str) -> int:
    if as_json:
        out.json({"ran": False, "why": why, "message": message})
    else:
        out.line(message)
    return 0
