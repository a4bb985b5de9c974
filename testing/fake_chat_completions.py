"""A loopback OpenAI Chat Completions server for driving real agent CLIs offline (pi, OpenCode).

It answers ``POST /v1/chat/completions``, streamed (SSE ``data:`` chunks, a usage chunk when
``stream_options.include_usage`` asks for one, then ``[DONE]``) or not, with one assistant message
``reply``; ``GET /v1/models`` with one model; and records every request so a test can look for
what the CLI sent.

    with FakeChatCompletions(reply="Noted.") as server:
        ... point the CLI at server.base_url + "/v1" ...
        assert "canary" in server.chat_requests()[0].text()
"""
from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from typing import Any

from testing.loopback import Exchange, LoopbackServer, Seen

PATH = "/v1/chat/completions"
_ids = itertools.count(1)


class FakeChatCompletions(LoopbackServer):
    def __init__(self, reply: str = "Noted.", model: str = "fake-model") -> None:
        super().__init__()
        self.reply, self.model = reply, model

    def chat_requests(self) -> list[Seen]:
        return self.posts(PATH)

    def respond(self, exchange: Exchange) -> None:
        path = exchange.seen.path.split("?")[0].rstrip("/")
        body = exchange.seen.body if isinstance(exchange.seen.body, dict) else {}
        if exchange.seen.method == "GET" and path == "/v1/models":
            exchange.json(200, {"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "fake"}]})
        elif exchange.seen.method == "POST" and path == PATH:
            model = str(body.get("model") or self.model)
            options = body.get("stream_options")
            usage = isinstance(options, dict) and bool(options.get("include_usage"))
            if body.get("stream"):
                exchange.sse_data(self._chunks(model, usage))
            else:
                exchange.json(200, self._completion(model))
        else:
            exchange.json(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})

    def _completion(self, model: str) -> dict[str, Any]:
        return {"id": f"chatcmpl-fake{next(_ids):04d}", "object": "chat.completion", "created": int(time.time()),
                "model": model, "usage": _usage(),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": self.reply}}]}

    def _chunks(self, model: str, usage: bool) -> Iterator[str]:
        base = {"id": f"chatcmpl-fake{next(_ids):04d}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": model}

        def chunk(delta: dict[str, Any], finish: str | None) -> str:
            return json.dumps({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        yield chunk({"role": "assistant", "content": ""}, None)
        yield chunk({"content": self.reply}, None)
        yield chunk({}, "stop")
        if usage:
            yield json.dumps({**base, "choices": [], "usage": _usage()})
        yield "[DONE]"


def _usage() -> dict[str, int]:
    return {"prompt_tokens": 12, "completion_tokens": 4, "total_tokens": 16}
