"""MEMORY-FAIL as a user meets it: led by its cause, cleared by the command it names, never set by a
run by hand, and a refused config is bad input (exit 2, one line naming the file and line).

The background runs go through the real queue and worker (in this process) against the loopback
model server; everything else runs ``git memory`` through git, as a user does.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chord_git.background import worker
from chord_git.errors import ExtractionFailed
from chord_git.extraction.pipeline import extract_session
from chord_git.extraction.pool import Attempt, cause
from chord_git.memory import project as project_mod
from chord_git.memory import store
from testing.fake_openai import FakeOpenAI, Reply, Status
from testing.gitutil import cli_env, index_digest, run_cli
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, user, write_session

CLEAR = "git memory status --clear-failure"


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    """The loopback model, and its key variable set where the worker (this process) runs."""
    for name, value in KEY_ENV.items():
        monkeypatch.setenv(name, value)
    with FakeOpenAI() as server:
        yield server


def _env() -> dict[str, str]:
    return {**cli_env(), **KEY_ENV}


def _session(repo: Path) -> Path:
    return write_session(repo.parent / "session.jsonl", [user("this repo only uses pnpm")], session_id="s-1")


def _background_run(repo: Path, session: Path) -> None:
    """The session queued and run as the background worker runs it (the model calls are real)."""
    project, cfg = project_and_config(repo)
    worker.submit(project, cfg, session, spawn=lambda _project: 0)
    worker.drain(project, cfg, grace=0)


def _statusline(repo: Path) -> str:
    done = run_cli(repo, "agent", "statusline", input=json.dumps({"workspace": {"current_dir": str(repo)}}))
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout.rstrip("\n")


def _headline(repo: Path) -> str:
    return run_cli(repo, "status", env=_env()).stdout.splitlines()[0]


# ---------------------------------------------------------------------------- cause first
@pytest.mark.parametrize("attempts, expected", [
    ([Attempt("m1", "unparseable:not JSON (Expecting value at line 1 column 1)", endpoint="http://h/v1"),
      Attempt("m2", "unparseable:not JSON (Expecting value at line 1 column 1)", endpoint="http://h/v1")],
     "model reply not JSON (m1, m2)"),
    ([Attempt("gpt-4.1-mini", "error:missing-key", "OPENAI_API_KEY is not set", "https://api.openai.com/v1")],
     "OPENAI_API_KEY not set"),
    ([Attempt("m1", "error:connection", "[Errno 111] Connection refused", "http://127.0.0.1:9/v1"),
      Attempt("m2", "error:http-401", endpoint="http://127.0.0.1:9/v1")],
     "cannot connect to the model (m1); key refused (HTTP 401) (m2)"),
    ([Attempt("m1", "error:reasoning-effort-rejected"), Attempt("m1", "error:http-503")],
     "HTTP 503 (server unavailable) (m1)"),
])
def test_the_cause_leads_and_names_no_endpoint(attempts: list[Attempt], expected: str) -> None:
    assert cause(attempts) == expected


def test_a_background_failure_leads_with_its_cause_and_says_how_to_clear_it(repo: Path,
                                                                          fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, models=("m1", "m2"))
    fake_openai.script("m1", Reply("sure, here you go")).script("m2", Reply("no JSON either"))
    _background_run(repo, _session(repo))
    status = run_cli(repo, "status", env=_env())
    assert status.returncode == 0, status.stderr
    lines = status.stdout.splitlines()
    assert lines[0] == "MEMORY-FAIL: model reply not JSON (m1, m2)"
    # The full reason, endpoints and all, is one line below; then how it clears.
    assert lines[1].startswith("last background extraction (") and fake_openai.base_url in lines[1]
    assert lines[2] == f"the next background extraction that succeeds clears it; {CLEAR} clears it now"
    line = _statusline(repo)
    assert line == f"MEMORY-FAIL: model reply not JSON (m1, m2) — clear: {CLEAR}"
    data = json.loads(run_cli(repo, "status", "--json", env=_env()).stdout)
    assert data["reason"] == "model reply not JSON (m1, m2)" and data["failure"]["clear"] == CLEAR

    # The command works as printed, and the badge goes back to MEMORY at once.
    cleared = run_cli(repo, *CLEAR.split()[2:], env=_env())
    assert cleared.returncode == 0, cleared.stderr
    assert cleared.stdout.splitlines()[:2] == ["cleared: MEMORY-FAIL: model reply not JSON (m1, m2)", "MEMORY"]
    assert _statusline(repo) == "MEMORY"
    again = run_cli(repo, *CLEAR.split()[2:], env=_env())
    assert again.stdout.splitlines()[:2] == ["no background failure recorded", "MEMORY"]


def test_a_missing_key_is_said_as_such(repo: Path) -> None:
    """A pool entry on the user's own OpenAI setup, and no OPENAI_API_KEY where the worker runs."""
    config = Path(cli_env()["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("model_pool:\n  - model: gpt-4.1-mini\nmemory:\n  enabled: true\n", encoding="utf-8")
    (repo / ".chord").mkdir()
    project, cfg = project_and_config(repo)
    without_key = {k: v for k, v in cli_env().items() if k != "OPENAI_API_KEY"}
    with pytest.raises(ExtractionFailed):
        extract_session(project, cfg, _session(repo), env=without_key)  # what the worker runs
    assert run_cli(repo, "status").stdout.splitlines()[0] == "MEMORY-FAIL: OPENAI_API_KEY not set"
    assert _statusline(repo) == f"MEMORY-FAIL: OPENAI_API_KEY not set — clear: {CLEAR}"


# ---------------------------------------------------------------------------- runs by hand
def test_a_typo_in_a_run_by_hand_is_reported_and_not_recorded(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    assert _headline(repo) == "MEMORY"
    done = run_cli(repo, "extract", "--session", "nope.jsonl", env=_env())
    assert done.returncode == 2 and "nope.jsonl" in done.stderr and done.stderr.count("\n") == 1
    assert _headline(repo) == "MEMORY" and _statusline(repo) == "MEMORY"
    assert store.read_status(project_mod.discover(repo)) is None


def test_a_failed_run_by_hand_leaves_the_background_state_as_it_was(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, models=("m1",))
    fake_openai.script("m1", Status(500), Status(500))
    # A background failure first: a run by hand that fails differently does not replace it...
    _background_run(repo, _session(repo))
    before = store.read_status(project_mod.discover(repo))
    assert _headline(repo) == "MEMORY-FAIL: HTTP 500 (server error) (m1)"
    fake_openai.script("m1", Status(401))
    done = run_cli(repo, "extract", "--session", str(_session(repo)), env=_env())
    assert done.returncode == 1 and "HTTP 401" in done.stderr
    assert store.read_status(project_mod.discover(repo)) == before
    # ...nor does one that succeeds clear it: it says nothing about the background worker's setup.
    fake_openai.script("m1", Reply({"records": [], "retire": [], "promotions": []}))
    assert run_cli(repo, "extract", "--session", str(_session(repo)), env=_env()).returncode == 0
    assert store.read_status(project_mod.discover(repo)) == before


# ---------------------------------------------------------------------------- a refused config
@pytest.mark.parametrize("as_json", [False, True])
def test_a_refused_config_exits_2_with_one_line_naming_the_file_and_line(repo: Path, as_json: bool) -> None:
    (repo / ".chord").mkdir()
    (repo / ".chord/config.yaml").write_text("memory:\n  enabled: sure\n")
    digest = index_digest(repo)
    done = run_cli(repo, "status", *(["--json"] if as_json else []))
    assert done.returncode == 2
    problem = f"{repo / '.chord/config.yaml'}:2: memory.enabled must be true or false, not text"
    assert done.stderr == f"git memory: {problem} (the config is not used)\n"
    shown = json.loads(done.stdout)["badge"] if as_json else done.stdout.splitlines()[0]
    assert shown == f"MEMORY-FAIL: config: {problem}"
    assert index_digest(repo) == digest
