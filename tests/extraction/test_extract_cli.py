"""``git memory extract`` run through git as a user (or the post-session hook) runs it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chord_git.commands.status import status
from chord_git.config import OFF_MESSAGE
from testing.fake_openai import FakeOpenAI, Reply, Status
from testing.commands import run
from testing.gitutil import cli_env, index_digest, run_cli
from testing.memory_files import promotion
from tests.extraction.extract_support import (
    KEY_ENV,
    configure,
    record,
    reply,
    tree_texts,
    user,
    write_session,
)

PNPM_SAID = "this repo only uses pnpm, please never run npm install"
PNPM = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_SAID)
CLAIM = record("Made-up rule.", "Nobody said this.", "words nobody wrote")


def _env() -> dict[str, str]:
    return {**cli_env(), **KEY_ENV}


def _session(repo: Path) -> Path:
    return write_session(repo.parent / "session.jsonl", [user(PNPM_SAID)], session_id="cli-1")


def test_extract_prints_one_line_and_writes(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM, CLAIM)))
    before = index_digest(repo)
    result = run_cli(repo, "extract", "--session", str(_session(repo)), env=_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout == "cli-1: written 1, replaced 0, dropped 1 (evidence-not-found 1), promotion files 0 [m1]\n"
    assert "Use pnpm, never npm." in (repo / "MEMORY.md").read_text()
    assert index_digest(repo) == before
    shown = run(status, repo)
    assert shown.stdout.startswith("MEMORY\n")


def test_extract_json_report(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM)))
    result = run_cli(repo, "extract", "--session", str(_session(repo)), "--format", "native", "--json", env=_env())
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["outcome"] == "ok" and data["session"] == "cli-1" and len(data["written"]) == 1
    assert data["attempts"] == [{"model": "m1", "outcome": "ok"}] and data["input"]["approx_tokens"] > 0


def test_extract_dry_run_shows_records_and_index_lines(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM)))
    before = tree_texts(repo)
    result = run_cli(repo, "extract", "--session", str(_session(repo)), "--dry-run", env=_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("cli-1: would write 1, replaced 0, dropped 0, promotion files 0 [m1]\n")
    assert "  - [preference] Use pnpm, never npm. ([" in result.stdout
    assert "--- .chord/memory/records/" in result.stdout and 'evidence: "this repo only uses pnpm' in result.stdout
    assert tree_texts(repo) == before


LINT = "Run `make lint` before pushing."


def test_extract_counts_the_promotion_files_it_writes(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM, promotions=[promotion(None, "docs/dev.md", LINT)])))
    result = run_cli(repo, "extract", "--session", str(_session(repo)), env=_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout == "cli-1: written 1, replaced 0, dropped 0, promotion files 1 [m1]\n"
    [written] = (repo / ".chord/memory/promotions").glob("*.md")
    assert LINT in written.read_text()


def test_extract_dry_run_shows_the_promotion_files_it_would_write(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(promotions=[promotion(None, "docs/dev.md", LINT)])))
    before = tree_texts(repo)
    result = run_cli(repo, "extract", "--session", str(_session(repo)), "--dry-run", env=_env())
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "cli-1: would write 0, replaced 0, dropped 0, promotion files 1 [m1]"
    assert lines[1] == ""
    assert lines[2].startswith("--- .chord/memory/promotions/")
    assert lines[2].endswith(".md (promotion to docs/dev.md, for git memory review)")
    assert lines[3:] == [LINT]
    assert tree_texts(repo) == before


def test_extraction_off_says_so_and_sends_nothing(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, enabled=False)
    fake_openai.script("m1", Reply(reply(PNPM)))
    result = run_cli(repo, "extract", "--session", str(_session(repo)), env=_env())
    assert result.returncode == 0 and result.stdout == OFF_MESSAGE + "\n"
    assert fake_openai.requests == [] and not (repo / "MEMORY.md").exists()


def test_a_failed_run_exits_1_with_its_reason(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, models=("m1", "m2"))
    fake_openai.script("m1", Status(500)).script("m2", Status(503))
    result = run_cli(repo, "extract", "--session", str(_session(repo)), "--json", env=_env())
    assert result.returncode == 1
    url = fake_openai.base_url
    reason = (f"no model answered (2 tried): m1 at {url}: HTTP 500 (server error); "
              f"m2 at {url}: HTTP 503 (server unavailable)")
    assert result.stderr == f"git memory: {reason}\n"
    assert json.loads(result.stdout) == {"outcome": "failed", "reason": reason}
    # A run by hand reports to whoever ran it: the background status stays as it was.
    assert run(status, repo).stdout.startswith("MEMORY\n")


def test_a_busy_agent_preempts_a_main_pool_run(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM)))
    assert run_cli(repo, "agent", "busy").returncode == 0
    result = run_cli(repo, "extract", "--session", str(_session(repo)), env=_env())
    assert result.returncode == 1 and result.stderr.startswith("git memory: preempted; retry later (")
    assert fake_openai.requests == [] and not (repo / "MEMORY.md").exists()


def test_bad_usage_and_bad_input(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    missing = run_cli(repo, "extract", env=_env())
    assert missing.returncode == 2 and "--session" in missing.stderr
    wrong = run_cli(repo, "extract", "--session", str(_session(repo)), "--format", "yaml", env=_env())
    assert wrong.returncode == 2 and "invalid choice" in wrong.stderr
    absent = run_cli(repo, "extract", "--session", str(repo.parent / "nope.jsonl"), env=_env())
    assert absent.returncode == 2 and "nope.jsonl: cannot read transcript" in absent.stderr
    assert fake_openai.requests == []


def test_the_off_path_never_imports_openai(repo: Path) -> None:
    configure(repo, None, enabled=False)
    session = _session(repo)
    code = ("import sys; from chord_git.main import main; rc = main(['extract', '--session', sys.argv[1]]); "
            "print('openai' in sys.modules, 'detect_secrets' in sys.modules); sys.exit(rc)")
    result = subprocess.run([sys.executable, "-c", code, str(session)], cwd=repo, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False False"


def test_a_written_record_carries_the_anchors_its_text_names(repo: Path, fake_openai: FakeOpenAI) -> None:
    """Issue 36: what a record names that the project can check is recorded when it is written."""
    said = "always run make lint before pushing, the rules are in config/lint.toml"
    configure(repo, fake_openai)
    lint = record("Run make lint before pushing.", "Run `make lint` before pushing; rules in `config/lint.toml`.", said,
                  type="workflow")
    fake_openai.script("m1", Reply(reply(lint)))
    session = write_session(repo.parent / "session.jsonl", [user(said)], session_id="cli-anchors")
    result = run_cli(repo, "extract", "--session", str(session), env=_env())
    assert result.returncode == 0, result.stderr
    [written] = (repo / ".chord/memory/records").glob("*.md")
    assert "\nanchors: make:lint path:config/lint.toml\n" in written.read_text("utf-8")
