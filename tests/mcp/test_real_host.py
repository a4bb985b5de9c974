"""A real MCP host, offline: Claude Code (pinned, from npm) lists the server's tools and calls
``search_memory`` when its (loopback) model asks for it; the result reaches the model.

No agent hooks are installed here, so the memory can only reach the model through the MCP server:
the canary entry is absent from the first request and present in the tool result of the second.
"""
from __future__ import annotations

import itertools
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.mcp.server import DESCRIPTIONS
from testing import agent_hosts
from testing.fake_anthropic import FakeAnthropic
from testing.gitutil import cli_env, index_digest
from testing.loopback import Exchange
from tests.agents.conftest import CANARY, CANARY_ID, git_memory, installed, memory_repo  # noqa: F401 - a fixture

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

SERVER = "chord-memory"
TOOL = f"mcp__{SERVER}__search_memory"
_ids = itertools.count(1)


class ToolCallingAnthropic(FakeAnthropic):
    """The Messages API fake, whose model first asks for ``search_memory`` whenever the request
    offers that tool and holds no tool result yet, then answers in text."""

    def respond(self, exchange: Exchange) -> None:
        body = exchange.seen.body if isinstance(exchange.seen.body, dict) else {}
        path = exchange.seen.path.split("?")[0].rstrip("/")
        offered = {tool.get("name") for tool in body.get("tools") or [] if isinstance(tool, dict)}
        if path != "/v1/messages" or TOOL not in offered or "tool_result" in json.dumps(body.get("messages")):
            super().respond(exchange)
            return
        call = {"type": "tool_use", "id": f"toolu_fake{next(_ids):04d}", "name": TOOL,
                "input": {"query": "deploy pipeline"}}
        model = str(body.get("model") or "claude-fake")
        if not body.get("stream"):
            message = self._message(model, None, "tool_use")
            message["content"] = [call]
            exchange.json(200, message)
            return
        exchange.sse(self._tool_events(model, call))

    def _tool_events(self, model: str, call: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        yield "message_start", {"type": "message_start", "message": self._message(model, None, None)}
        yield "content_block_start", {"type": "content_block_start", "index": 0,
                                      "content_block": {**call, "input": {}}}
        yield "content_block_delta", {"type": "content_block_delta", "index": 0,
                                      "delta": {"type": "input_json_delta", "partial_json": json.dumps(call["input"])}}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                                "usage": {"output_tokens": 12}}
        yield "message_stop", {"type": "message_stop"}


@pytest.fixture(scope="module")
def claude_bin() -> Path:
    return installed(agent_hosts.ensure).claude


def _tool_results(body: Any) -> list[str]:
    found = []
    for message in body.get("messages", []):
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                content = block.get("content")
                found.append(content if isinstance(content, str) else
                             "\n".join(part.get("text", "") for part in content or [] if isinstance(part, dict)))
    return found


def test_claude_code_calls_search_memory_over_stdio(memory_repo: Path, claude_bin: Path) -> None:
    before = index_digest(memory_repo)
    config = {"mcpServers": {SERVER: {"type": "stdio", "command": git_memory(), "args": ["mcp"]}}}
    with ToolCallingAnthropic(reply="The deploys go through the pipeline.") as server:
        env = agent_hosts.claude_env(cli_env(), server.base_url)
        # In -p mode Claude Code connects MCP servers in the background, and its first request may
        # leave before they are listed; this makes it wait for them, as an interactive start does.
        env["MCP_CONNECTION_NONBLOCKING"] = "false"
        done = subprocess.run(
            [str(claude_bin), "-p", "How do deploys work here?", "--output-format", "json",
             "--mcp-config", json.dumps(config), "--strict-mcp-config", "--allowedTools", TOOL],
            cwd=memory_repo, env=env, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{done.stdout}\n{done.stderr[-3000:]}"
        requests = [seen for seen in server.message_requests()
                    if TOOL in {t.get("name") for t in seen.body.get("tools") or []}]
    assert len(requests) >= 2, [r.body.get("tools") for r in server.message_requests()]
    first, second = requests[0].body, requests[-1].body
    # The host listed the four tools, with our descriptions, and nothing of memory reached the
    # model before the call (no hooks are installed).
    listed = {t["name"]: t.get("description", "") for t in first["tools"] if t["name"].startswith(f"mcp__{SERVER}__")}
    assert sorted(listed) == sorted(f"mcp__{SERVER}__{name}" for name in DESCRIPTIONS)
    assert all(DESCRIPTIONS[name.rsplit("__", 1)[1]] in text for name, text in listed.items())
    assert CANARY not in json.dumps(first["messages"])
    # The tool ran in our server and its ranked result went back to the model.
    [result] = _tool_results(second)
    assert CANARY_ID in result and CANARY in result and result.startswith("Project memory: background")
    assert json.loads(done.stdout)["result"] == "The deploys go through the pipeline."
    assert index_digest(memory_repo) == before
