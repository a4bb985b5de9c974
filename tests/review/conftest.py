"""A project with memory to review: user and assistant entries, an orphan, two pending promotions."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from chord_git.extraction.maintenance import apply_maintenance
from testing.gitutil import git
from testing.memory_files import make_record, output, project_of, promotion, write_index

USER = "20260110-user-rule-aa01"
A1 = "20260110-assist-one-aa02"
A2 = "20260110-assist-two-aa03"
A3 = "20260110-assist-three-aa04"
ORPHAN = "20260110-old-orphan-aa05"


@dataclass(frozen=True)
class Memo:
    root: Path
    user_promotion: str  # AGENTS.md, for the user's entry (still listed)
    docs_promotion: str  # docs/guide/dev.md (missing), for A3 (already out of the index)


@pytest.fixture
def memo(repo: Path) -> Memo:
    recs = [make_record(repo, USER, source="user"), make_record(repo, A1), make_record(repo, A2),
            make_record(repo, A3)]
    write_index(repo, recs)
    make_record(repo, ORPHAN)
    old = os.path.getmtime(repo / "README.md") - 3600
    os.utime(repo / ".chord/memory/records" / f"{ORPHAN}.md", (old, old))
    (repo / "AGENTS.md").write_text("# Rules\n\nBe kind.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "memory")
    report = apply_maintenance(project_of(repo), output(promotions=[
        promotion(USER, "AGENTS.md", "Always use pnpm for JS dependencies.", target="instructions"),
        promotion(A3, "docs/guide/dev.md", "Run `make lint` before pushing."),
    ]), session_id="s1")
    assert len(report.promotions) == 2
    first, second = report.promotions
    return Memo(repo, first, second)
