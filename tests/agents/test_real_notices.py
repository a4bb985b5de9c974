"""The session-start line with the real CLIs (pinned, offline, as ``test_real_*.py`` run them): the
host shows it to the person and does not send it to the model. Codex shows it only in its TUI, and
Copilot CLI has its status line only there: both run in a pseudo-terminal (``testing/tui.py``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.fake_openai import FakeOpenAI
from testing.gitutil import run_cli
from testing.tui import Screen
from tests.agents.conftest import CANARY_SUMMARY, configure
from tests.agents.test_badges_and_notices import FAILED, LOADED, fail_in_background
from tests.agents.test_real_copilot import Copilot, copilot  # noqa: F401 - the fixture
from tests.agents.test_real_gemini import Gemini, gemini  # noqa: F401 - the fixture
from tests.agents.test_real_hosts import (Codex, claude, codex, install, opencode,  # noqa: F401 - the fixtures
                                          pi, strings)
from tests.agents.test_real_qwen import qwen  # noqa: F401 - the fixture

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_gemini_shows_the_line_and_keeps_it_from_the_model(gemini: Gemini,  # noqa: F811
                                                          extraction: FakeOpenAI, memory_repo: Path) -> None:
    configure(extraction.base_url)
    install(gemini)
    done, _session, first = gemini.run("hello there")
    assert CANARY_SUMMARY in first and "git memory why" not in first
    assert LOADED in done.stderr.splitlines()  # gemini -p prints a hook's systemMessage on stderr


@pytest.mark.parametrize("host_fixture", ["claude", "qwen", "pi", "opencode"])
def test_the_line_never_reaches_the_model(host_fixture: str, request: pytest.FixtureRequest,
                                          extraction: FakeOpenAI) -> None:
    """Claude Code and Qwen Code take ``systemMessage`` apart from the context; the pi and OpenCode
    shims take the JSON reply apart (``reply: "json"``)."""
    host = request.getfixturevalue(host_fixture)
    configure(extraction.base_url)
    install(host)
    _done, _session, first = host.run("hello there")
    assert CANARY_SUMMARY in first and "git memory why" not in first and "systemMessage" not in first
    assert '"context"' not in first and '"notice"' not in first


def test_codex_shows_the_line_in_its_tui_and_keeps_it_from_the_model(codex: Codex,  # noqa: F811
                                                                    memory_repo: Path) -> None:
    """The hook's ``systemMessage`` is drawn under the hook's line (``codex exec`` prints it nowhere);
    the summary still reaches the model as before, the line does not. Extraction is off: the TUI is
    closed mid-session, and nothing should wait for that session afterwards."""
    configure(None, enabled=False)
    install(codex)
    args = [str(codex.bins.codex), "--dangerously-bypass-hook-trust", "hello there"]
    with Screen(args, cwd=memory_repo, env=codex.env) as screen:
        screen.wait_until(lambda: screen.shows(LOADED) and bool(codex.model_requests()), what="the line")
        first = strings(codex.model_requests()[0].body)
    assert CANARY_SUMMARY in first and "git memory why" not in first and "systemMessage" not in first


def test_copilot_runs_the_status_line_from_user_settings(copilot: Copilot, memory_repo: Path) -> None:  # noqa: F811
    """``--scope user`` puts ``statusLine`` into $COPILOT_HOME/settings.json; the interactive CLI runs
    it and shows the badge in its footer."""
    configure(None)
    fail_in_background(memory_repo)
    installed = run_cli(memory_repo, "agent", "install", "copilot", "--scope", "user", env=copilot.env)
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((copilot.copilot_home / "settings.json").read_text(encoding="utf-8"))
    assert settings["statusLine"] == {"type": "command", "command": "git-memory agent statusline"}
    with Screen([str(copilot.binary)], cwd=memory_repo, env=copilot.env) as screen:
        screen.wait_until(lambda: screen.shows(FAILED), what="the badge")
