"""The session-start line with the real CLIs (pinned, offline, as ``test_real_*.py`` run them): the
host shows it to the person and does not send it to the model."""
from __future__ import annotations

from pathlib import Path

import pytest

from testing.fake_openai import FakeOpenAI
from tests.agents.conftest import CANARY_SUMMARY, configure
from tests.agents.test_badges_and_notices import LOADED
from tests.agents.test_real_gemini import Gemini, gemini  # noqa: F401 - the fixture
from tests.agents.test_real_hosts import claude, install, opencode, pi  # noqa: F401 - the fixtures
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
