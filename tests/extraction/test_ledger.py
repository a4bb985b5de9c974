"""The token ledger and the extraction budget (issue 36), against the loopback model reporting
``usage``: what each run spent, what each session start injected, ``git memory cost``, and a daily
budget that stops extraction at its limit (the day is passed in: no clock decides a test)."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from chord_git.background import queue, worker
from chord_git.errors import BudgetReached
from chord_git.extraction.pipeline import extract_session
from chord_git.memory import ledger, store
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import cli_env, run_cli
from tests.agents.conftest import configure as configure_hooks
from tests.agents.conftest import event, run_hook
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, record, reply, user, write_session

DAY = dt.date(2026, 12, 7)
PNPM_SAID = "this repo only uses pnpm, please never run npm install"
PNPM = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_SAID)
LINT_SAID = "always run make lint before you push anything"
LINT = record("Run make lint before pushing.", "Run `make lint` before every push.", LINT_SAID, type="workflow")


def _session(repo: Path, said: str, sid: str) -> Path:
    return write_session(repo.parent / f"{sid}.jsonl", [user(said)], session_id=sid)


def _extract(repo: Path, said: str, sid: str, day: dt.date = DAY) -> Any:
    project, cfg = project_and_config(repo)
    return extract_session(project, cfg, _session(repo, said, sid), env=KEY_ENV, today=day)


def _model_lines(repo: Path) -> list[dict[str, Any]]:
    project, _cfg = project_and_config(repo)
    return [line for line in ledger.read(project.state_dir) if line["kind"] == ledger.MODEL]


def test_each_run_records_what_the_endpoint_reported(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM), usage={"prompt_tokens": 1234, "completion_tokens": 56,
                                                       "total_tokens": 1290}), Reply(reply(LINT), usage=None))
    _extract(repo, PNPM_SAID, "s-reported")
    _extract(repo, LINT_SAID, "s-estimated")
    first, second = _model_lines(repo)
    assert (first["session"], first["model"], first["prompt_tokens"], first["completion_tokens"],
            first["estimated"], first["day"]) == ("s-reported", "m1", 1234, 56, False, "2026-12-07")
    assert second["session"] == "s-estimated" and second["estimated"] is True
    assert second["prompt_tokens"] > 100 and second["completion_tokens"] > 10  # estimated from what went and came
    project, _cfg = project_and_config(repo)
    text = (project.state_dir / ledger.LEDGER).read_text("utf-8")
    assert "pnpm" not in text and "lint" not in text  # figures only, never what was said


def test_the_daily_budget_stops_extraction_at_its_limit(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, extra_memory={"extraction": {"max_tokens_per_day": 3000}})
    fake_openai.script("m1", Reply(reply(PNPM), usage={"prompt_tokens": 2500, "completion_tokens": 300}))
    _extract(repo, PNPM_SAID, "s1")
    asked = len(fake_openai.requests)
    with pytest.raises(BudgetReached) as stopped:
        _extract(repo, LINT_SAID, "s2")
    assert stopped.value.until == DAY + dt.timedelta(days=1)
    assert "2800 of memory.extraction.max_tokens_per_day 3000" in str(stopped.value)
    assert len(fake_openai.requests) == asked  # no model call was made
    project, _cfg = project_and_config(repo)
    assert store.read_status(project).get("reason", "").startswith("extraction paused: the daily token budget")
    # The next day the budget is there again.
    fake_openai.script("m1", Reply(reply(LINT), usage={"prompt_tokens": 2000, "completion_tokens": 100}))
    assert _extract(repo, LINT_SAID, "s2", DAY + dt.timedelta(days=1)).written
    assert [line["day"] for line in _model_lines(repo)] == ["2026-12-07", "2026-12-08"]


def test_a_session_over_the_per_session_limit_is_not_sent(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai, extra_memory={"extraction": {"max_tokens_per_session": 50}})
    with pytest.raises(BudgetReached) as stopped:
        _extract(repo, PNPM_SAID, "s-big")
    assert stopped.value.until is None and "max_tokens_per_session (50)" in str(stopped.value)
    assert fake_openai.requests == []


def test_the_queue_waits_for_the_next_day_and_the_worker_ends(repo: Path, fake_openai: FakeOpenAI) -> None:
    # The worker compares the job's time with the clock: the budget is spent today, as the clock has it.
    today = dt.datetime.now(dt.timezone.utc).date()
    configure(repo, fake_openai, extra_memory={"extraction": {"max_tokens_per_day": 3000}})
    project, cfg = project_and_config(repo)
    ledger.append(project.state_dir, ledger.model_line(purpose="extract", session="earlier", model="m1",
                                                       usage={"prompt_tokens": 2900, "completion_tokens": 100},
                                                       prompt_chars=0, reply="", day=today))
    job = queue.enqueue(project, _session(repo, PNPM_SAID, "s-queued"), "auto")

    def run(project: Any, cfg: Any, path: Path, **kwargs: Any) -> Any:
        return extract_session(project, cfg, path, env=KEY_ENV, today=today, **kwargs)

    done = worker.drain(project, cfg, run=run, grace=0.0)
    assert done.done == [] and done.failed == [] and fake_openai.requests == []
    [waiting] = queue.pending(project)
    assert waiting.id == job and waiting.attempts == 0  # not a failed attempt
    tomorrow = today + dt.timedelta(days=1)
    assert waiting.not_before == dt.datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=dt.timezone.utc).timestamp()
    assert "daily token budget" in (waiting.last_error or "")
    shown = run_cli(repo, "status").stdout.splitlines()
    assert shown[0] == "MEMORY-FAIL: token budget reached"
    assert "extraction paused: the daily token budget is spent (3000 of memory.extraction.max_tokens_per_day" in shown[1]


def test_an_untrusted_project_file_may_only_lower_the_limits(repo: Path, tmp_path: Path) -> None:
    from chord_git import config

    home = tmp_path / "cfg"
    (home / "chord").mkdir(parents=True)
    (home / "chord" / "config.yaml").write_text("memory:\n  extraction:\n    max_tokens_per_day: 5000\n")
    (repo / ".chord").mkdir(exist_ok=True)
    env = {"XDG_CONFIG_HOME": str(home), "HOME": str(tmp_path)}
    for project_limit, expected in (("100", 100), ("90000", 5000), ("null", 5000)):
        (repo / ".chord" / "config.yaml").write_text(f"memory:\n  extraction:\n    max_tokens_per_day: {project_limit}\n")
        assert config.load(repo, env).memory.max_tokens_per_day == expected, project_limit


def test_cost_shows_each_session_start_and_run(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    fake_openai.script("m1", Reply(reply(PNPM), usage={"prompt_tokens": 1500, "completion_tokens": 80}))
    _extract(repo, PNPM_SAID, "sess-a", dt.datetime.now(dt.timezone.utc).date())
    configure_hooks(None)
    for sid in ("sess-a", "sess-b"):
        started = run_hook(event("SessionStart", repo, sid, source="startup"), cwd=repo)
        assert started.returncode == 0, started.stderr
    done = run_cli(repo, "cost", "--json", env=cli_env())
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    sessions = {row["session"]: row for row in report["sessions"]}
    assert sessions["sess-a"]["prompt_tokens"] == 1500 and sessions["sess-a"]["completion_tokens"] == 80
    assert sessions["sess-a"]["session_starts"] == 1 and sessions["sess-a"]["injected_tokens"] > 0
    assert sessions["sess-b"]["prompt_tokens"] == 0 and sessions["sess-b"]["host"] == "claude-code"
    [entry] = report["entries"]
    assert entry["sessions"] == 2 and entry["tokens"] > 0
    assert report["hosts"] == [{"host": "claude-code", "session_starts": 2,
                                "injected_tokens": sessions["sess-a"]["injected_tokens"] * 2}]
    text = run_cli(repo, "cost", env=cli_env()).stdout
    assert "per session (most first):" in text and "sess-a" in text
    assert run_cli(repo, "cost", "--since", "last week", env=cli_env()).returncode == 2


def test_an_entry_s_share_is_estimated_as_the_injected_text_is() -> None:
    chinese = "- [preference] 依赖一律用 pnpm 安装，不要用 npm ([20261201-pnpm-aa01](.chord/memory/records/x.md))"
    english = "- [preference] Use pnpm, never npm ([20261201-pnpm-bb02](.chord/memory/records/y.md))"
    line = ledger.injection_line(host="claude-code", session="s", text=f"{chinese}\n{english}",
                                 entries=[("20261201-pnpm-aa01", chinese), ("20261201-pnpm-bb02", english)],
                                 now=0.0)
    report = ledger.report([line], dt.date(1970, 1, 1))
    shares = {row["id"]: row["tokens"] for row in report["entries"]}
    assert shares["20261201-pnpm-aa01"] == ledger.estimate_tokens(chinese) > len(chinese) / 4
    assert sum(shares.values()) <= ledger.estimate_tokens(f"{chinese}\n{english}") + 2
    # A line kept before the tokens were: its characters over four.
    old = {**line, "entries": [["20261201-pnpm-aa01", 40]]}
    assert ledger.report([old], dt.date(1970, 1, 1))["entries"][0]["tokens"] == 10
