"""A loopback OpenAI Responses API server for driving the real Codex CLI offline.

Codex is pointed at it by a custom provider in ``$CODEX_HOME/config.toml`` (``base_url =
"http://127.0.0.1:PORT/v1"``, ``wire_api = "responses"``). It answers ``POST /v1/responses`` with
a streamed (SSE) assistant message, ``GET /v1/models`` with an empty list, and records every
request so a test can look for what the CLI sent.

    with FakeResponses(reply="Noted.") as server:
        ... write config.toml with server.base_url + "/v1" ...
        assert "canary" in server.response_requests()[0].text()

A test can script the replies: ``answer`` is called with each request's body and returns the
text to answer with, a ``CustomToolCall`` (a freeform tool call, e.g. Codex's code-mode ``exec``)
or None for the default ``reply``.
"""
from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from testing.loopback import Exchange, LoopbackServer, Seen

_ids = itertools.count(1)


@dataclass(frozen=True)
class CustomToolCall:
    """A freeform (``custom``) tool call the scripted model makes: the tool's name and raw input."""

    name: str
    input: str


Answer = Callable[[dict[str, Any]], str | CustomToolCall | None]  # the reply to one request body, None: `reply`


class FakeResponses(LoopbackServer):
    def __init__(self, reply: str = "Noted.", input_tokens: int = 12, answer: Answer | None = None) -> None:
        super().__init__()
        self.reply = reply
        self.input_tokens = input_tokens  # what the replies report: a large value makes Codex compact
        self.answer = answer

    def response_requests(self) -> list[Seen]:
        return self.posts("/v1/responses")

    def respond(self, exchange: Exchange) -> None:
        path = exchange.seen.path.split("?")[0].rstrip("/")
        body = exchange.seen.body if isinstance(exchange.seen.body, dict) else {}
        if exchange.seen.method == "GET" and path == "/v1/models":
            exchange.json(200, {"object": "list", "data": []})
        elif exchange.seen.method == "POST" and path == "/v1/responses":
            scripted = self.answer(body) if self.answer is not None else None
            exchange.sse(self._events(str(body.get("model") or "m"), scripted))
        else:
            exchange.json(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})

    def _events(self, model: str, scripted: str | CustomToolCall | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
        n = next(_ids)
        rid, mid = f"resp_fake{n:04d}", f"msg_fake{n:04d}"
        base = {"id": rid, "object": "response", "created_at": int(time.time()), "model": model,
                "status": "in_progress", "output": []}
        seq = itertools.count()
        yield "response.created", {"type": "response.created", "sequence_number": next(seq), "response": base}
        done_item: dict[str, Any]
        if isinstance(scripted, CustomToolCall):
            done_item = {"id": f"ctc_fake{n:04d}", "type": "custom_tool_call", "status": "completed",
                         "call_id": f"call_fake{n:04d}", "name": scripted.name, "input": scripted.input}
            yield "response.output_item.added", {"type": "response.output_item.added", "sequence_number": next(seq),
                                                 "output_index": 0, "item": {**done_item, "status": "in_progress",
                                                                             "input": ""}}
        else:
            text = self.reply if scripted is None else scripted
            done_item = {"id": mid, "type": "message", "status": "completed", "role": "assistant",
                         "content": [{"type": "output_text", "text": text, "annotations": []}]}
            yield "response.output_item.added", {
                "type": "response.output_item.added", "sequence_number": next(seq), "output_index": 0,
                "item": {"id": mid, "type": "message", "status": "in_progress", "role": "assistant", "content": []}}
            yield "response.output_text.delta", {
                "type": "response.output_text.delta", "sequence_number": next(seq), "item_id": mid,
                "output_index": 0, "content_index": 0, "delta": text}
        yield "response.output_item.done", {"type": "response.output_item.done", "sequence_number": next(seq),
                                            "output_index": 0, "item": done_item}
        usage = {"input_tokens": self.input_tokens, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 4,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": self.input_tokens + 4}
        yield "response.completed", {"type": "response.completed", "sequence_number": next(seq),
                                     "response": {**base, "status": "completed", "output": [done_item],
                                                  "usage": usage}}
