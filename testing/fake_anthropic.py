"""A loopback Anthropic Messages API server for driving the real Claude Code CLI offline.

Claude Code (``claude -p``) is pointed at it with ``ANTHROPIC_BASE_URL=http://127.0.0.1:PORT``. It
answers ``POST /v1/messages`` with a streamed (SSE) text reply when the request asks for a stream and
with a plain message object otherwise, ``POST /v1/messages/count_tokens`` with a token count, and
records every request so a test can look for what the CLI sent (the injected memory, the prompt).

    with FakeAnthropic(reply="Noted.") as server:
        env["ANTHROPIC_BASE_URL"] = server.base_url
        ... run claude -p ...
        assert "canary" in server.message_requests()[0].text()

A test can also script the model's tool calls: ``turns`` is a list of turns, each a list of
``ToolCall``. A request that offers every tool of the next turn is answered with those
``tool_use`` blocks (stop reason ``tool_use``) and the turn is used up; every other request, and
all of them once the turns run out, gets the text reply. So the CLI runs the tools, sends their
results back and is told ``reply``, as after a real model's tool use.

    FakeAnthropic(reply="Saved.", turns=[[ToolCall("Write", {"file_path": "/abs/x.md", "content": "..."})]])
"""
from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from testing.loopback import Exchange, LoopbackServer, Seen

_ids = itertools.count(1)


@dataclass(frozen=True)
class ToolCall:
    """One ``tool_use`` block the scripted model sends: the tool's name and its input."""

    name: str
    input: dict[str, Any] = field(default_factory=dict)


class FakeAnthropic(LoopbackServer):
    def __init__(self, reply: str = "Noted.", turns: Sequence[Sequence[ToolCall]] = ()) -> None:
        super().__init__()
        self.reply = reply
        self._turns = [list(turn) for turn in turns]
        self._turns_lock = threading.Lock()

    def _next_turn(self, body: dict[str, Any]) -> list[ToolCall] | None:
        """The next scripted turn, used up, if this request offers all of its tools (a side
        request, e.g. for a title, offers none and gets the text reply)."""
        offered = {tool.get("name") for tool in body.get("tools") or [] if isinstance(tool, dict)}
        with self._turns_lock:
            if self._turns and all(call.name in offered for call in self._turns[0]):
                return self._turns.pop(0)
        return None

    def message_requests(self) -> list[Seen]:
        """Requests for a model reply (not token counts), oldest first."""
        return self.posts("/v1/messages")

    def respond(self, exchange: Exchange) -> None:
        path = exchange.seen.path.split("?")[0].rstrip("/")
        body = exchange.seen.body if isinstance(exchange.seen.body, dict) else {}
        model = str(body.get("model") or "claude-fake")
        if exchange.seen.method == "POST" and path == "/v1/messages/count_tokens":
            exchange.json(200, {"input_tokens": max(len(exchange.seen.text()) // 4, 1)})
        elif exchange.seen.method == "POST" and path == "/v1/messages" and (turn := self._next_turn(body)):
            blocks = [{"type": "tool_use", "id": f"toolu_fake{next(_ids):04d}", "name": call.name, "input": call.input}
                      for call in turn]
            if body.get("stream"):
                exchange.sse(self._tool_use_events(model, blocks))
            else:
                message = self._message(model, None, "tool_use")
                message["content"] = blocks
                exchange.json(200, message)
        elif exchange.seen.method == "POST" and path == "/v1/messages":
            if body.get("stream"):
                exchange.sse(self._events(model))
            else:
                exchange.json(200, self._message(model, self.reply, "end_turn"))
        else:
            exchange.json(404, {"type": "error", "error": {"type": "not_found_error",
                                                           "message": f"no route {path}"}})

    @staticmethod
    def _message(model: str, text: str | None, stop: str | None) -> dict[str, Any]:
        return {"id": f"msg_fake{next(_ids):04d}", "type": "message", "role": "assistant", "model": model,
                "content": [] if text is None else [{"type": "text", "text": text}],
                "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": 12, "output_tokens": 0 if text is None else 4,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}

    def _events(self, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
        yield "message_start", {"type": "message_start", "message": self._message(model, None, None)}
        yield "content_block_start", {"type": "content_block_start", "index": 0,
                                      "content_block": {"type": "text", "text": ""}}
        yield "content_block_delta", {"type": "content_block_delta", "index": 0,
                                      "delta": {"type": "text_delta", "text": self.reply}}
        yield "content_block_stop", {"type": "content_block_stop", "index": 0}
        yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                "usage": {"output_tokens": 4}}
        yield "message_stop", {"type": "message_stop"}

    def _tool_use_events(self, model: str, blocks: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
        """A streamed reply made of ``tool_use`` blocks, their input sent as one JSON delta each."""
        yield "message_start", {"type": "message_start", "message": self._message(model, None, None)}
        for index, block in enumerate(blocks):
            yield "content_block_start", {"type": "content_block_start", "index": index,
                                          "content_block": {**block, "input": {}}}
            yield "content_block_delta", {"type": "content_block_delta", "index": index,
                                          "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}}
            yield "content_block_stop", {"type": "content_block_stop", "index": index}
        yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                                "usage": {"output_tokens": 12 * len(blocks)}}
        yield "message_stop", {"type": "message_stop"}
