"""``git memory summary``: exactly what a new session gets injected (R9, R11)."""
from __future__ import annotations

from chord_git import config as config_mod
from chord_git.memory import summary as summary_mod
from chord_git.memory.project import Project
from chord_git.ui import Output


def summary(project: Project, cfg: config_mod.Config, out: Output, *, budget: int | None = None) -> int:
    from chord_git.memory import recall_gate

    result = summary_mod.build(
        project.memory_md,
        budget=budget if budget is not None else cfg.memory.summary_budget,
        extraction_enabled=cfg.memory.enabled and project.is_project,
        rel=project.relative(project.memory_md),
        cache=project.state_dir / summary_mod.SUMMARY_CACHE,
        gate=recall_gate.for_session(project, config_mod.inject_mode(cfg), cfg.memory.reviewed_base),
    )
    if result.warnings:
        more = f" (and {len(result.warnings) - 1} more)" if len(result.warnings) > 1 else ""
        out.warn(result.warnings[0] + more)
    if result.text:
        out.line(result.text)
    return 0
