"""Private memory (MEMORY.md and ``.chord/`` untracked and ignored, ``git memory init --private``)
takes new entries directly on every branch: pending files and the fold are for shared memory
(R33). And promotion suggestions may target README.md and CONTRIBUTING.md as project docs."""
from __future__ import annotations

from pathlib import Path

from chord_git.extraction.maintenance import apply_maintenance
from chord_git.extraction.pipeline import ExtractionReport, extract_session
from chord_git.memory import pending, promotions
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import git, index_digest, run_cli
from testing.memory_files import make_record, output, project_of, promotion, write_index
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, record, reply, user, write_session

PNPM_SAID = "this repo only uses pnpm, please never run npm install"
PNPM = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_SAID)


def _extract(repo: Path, server: FakeOpenAI, sid: str) -> ExtractionReport:
    server.script("m1", Reply(reply(PNPM)))
    session = write_session(repo.parent / f"{sid}.jsonl", [user(PNPM_SAID)], session_id=sid)
    project, cfg = project_and_config(repo)
    return extract_session(project, cfg, session, env=KEY_ENV)


def _pending_files(repo: Path) -> list[Path]:
    folder = repo / pending.PENDING_DIR
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def test_private_memory_on_a_side_branch_goes_straight_into_memory_md(repo: Path, fake_openai: FakeOpenAI) -> None:
    done = run_cli(repo, "init", "--private")
    assert done.returncode == 0, done.stderr
    configure(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    index = index_digest(repo)
    report = _extract(repo, fake_openai, "s1")
    [rid] = report.written
    assert f"([{rid}](.chord/memory/records/{rid}.md))" in (repo / "MEMORY.md").read_text(encoding="utf-8")
    assert _pending_files(repo) == []
    assert git(repo, "status", "--porcelain") == ""  # nothing of memory shows up in git
    assert index_digest(repo) == index and not (repo / ".gitignore").exists()


def test_shared_memory_on_a_side_branch_still_waits_in_a_pending_file(repo: Path, fake_openai: FakeOpenAI) -> None:
    """Ignore rules do not make a committed MEMORY.md private: merges still see it."""
    assert run_cli(repo, "init").returncode == 0
    configure(repo, fake_openai)
    git(repo, "add", "MEMORY.md")
    git(repo, "commit", "-q", "-m", "memory")
    before = (repo / "MEMORY.md").read_bytes()
    assert run_cli(repo, "init", "--private").returncode == 0  # tracked: the lines change nothing
    git(repo, "switch", "-q", "-c", "feature")
    [rid] = _extract(repo, fake_openai, "s1").written
    assert (repo / "MEMORY.md").read_bytes() == before
    assert [p.name for p in _pending_files(repo)] == [f"{rid}.md"]


def test_promotions_may_target_readme_and_contributing(repo: Path) -> None:
    rid = "20260110-assist-note-aa02"
    write_index(repo, [make_record(repo, rid)])
    readme = (repo / "README.md").read_text(encoding="utf-8")
    out = output(promotions=[promotion(rid, "README.md", "Run `make demo` to see it work."),
                             promotion(None, "CONTRIBUTING.md", "Run `make check` before a pull request.")])
    report = apply_maintenance(project_of(repo), out, session_id="s9")
    assert not report.dropped_promotions and len(report.promotions) == 2
    targets = {}
    for pid in report.promotions:
        item, problems = promotions.read(repo / ".chord" / "memory" / "promotions" / f"{pid}.md")
        assert item is not None, problems
        targets[item.path] = pid
    assert set(targets) == {"README.md", "CONTRIBUTING.md"}
    assert (repo / "README.md").read_text(encoding="utf-8") == readme  # only a person's accept writes it
    accepted = run_cli(repo, "review", "accept", targets["README.md"])
    assert accepted.returncode == 0, accepted.stderr
    assert (repo / "README.md").read_text(encoding="utf-8").startswith(readme)
    assert "Run `make demo` to see it work." in (repo / "README.md").read_text(encoding="utf-8")
    assert run_cli(repo, "check").returncode == 0
    for path in ("sub/README.md", "docs"):
        assert promotions.target_problem(path) is not None
