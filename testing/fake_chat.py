"""A loopback OpenAI Chat Completions server for driving real agent CLIs offline (Qwen Code,
Copilot CLI with a custom provider, pi, OpenCode).

It answers ``POST …/chat/completions`` with one assistant message ``reply``, streamed (SSE
``data:`` chunks, a usage chunk when ``stream_options.include_usage`` asks for one, then
``[DONE]``) or as one ``chat.completion`` object; ``GET …/models`` with one model; and records every
request so a test can look for what the CLI sent. (``fake_openai`` is the scripted, non-streaming
server for chord-git's own extraction client.)

    with FakeChat(reply="Noted.") as server:
        env["OPENAI_BASE_URL"] = server.base_url + "/v1"
        ... run the CLI ...
        assert "canary" in server.chat_requests()[0].text()

``prompt_tokens`` is the prompt size the replies report: a large value makes a CLI compact its
history.
"""
from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from typing import Any

from testing.loopback import Exchange, LoopbackServer, Seen

_ids = itertools.count(1)


def _route(seen: Seen) -> str:
    return seen.path.split("?")[0].rstrip("/")


class FakeChat(LoopbackServer):
    def __init__(self, reply: str = "Noted.", model: str = "fake-model", prompt_tokens: int = 12) -> None:
        super().__init__()
        self.reply, self.model, self.prompt_tokens = reply, model, prompt_tokens

    def chat_requests(self) -> list[Seen]:
        return [r for r in self.requests if r.method == "POST" and _route(r).endswith("/chat/completions")]

    def respond(self, exchange: Exchange) -> None:
        seen = exchange.seen
        path = _route(seen)
        body = seen.body if isinstance(seen.body, dict) else {}
        model = str(body.get("model") or self.model)
        if seen.method == "GET" and path.endswith("/models"):
            exchange.json(200, {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "fake"}]})
        elif seen.method == "POST" and path.endswith("/chat/completions"):
            options = body.get("stream_options")
            with_usage = isinstance(options, dict) and bool(options.get("include_usage"))
            if body.get("stream"):
                exchange.sse_data(self._chunks(model, with_usage))
            else:
                exchange.json(200, self._completion(model))
        else:
            exchange.json(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})

    def _usage(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": 4, "total_tokens": self.prompt_tokens + 4}

    def _completion(self, model: str) -> dict[str, Any]:
        return {"id": f"chatcmpl-fake{next(_ids):04d}", "object": "chat.completion", "created": int(time.time()),
                "model": model, "usage": self._usage(),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": self.reply}}]}

    def _chunks(self, model: str, with_usage: bool) -> Iterator[str]:
        base = {"id": f"chatcmpl-fake{next(_ids):04d}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": model}

        def chunk(delta: dict[str, Any], finish: str | None) -> str:
            return json.dumps({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        yield chunk({"role": "assistant", "content": ""}, None)
        yield chunk({"content": self.reply}, None)
        yield chunk({}, "stop")
        if with_usage:
            yield json.dumps({**base, "choices": [], "usage": self._usage()})
        yield "[DONE]"
