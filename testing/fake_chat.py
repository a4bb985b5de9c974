"""A loopback OpenAI Chat Completions server for driving real agent CLIs offline (Qwen Code,
Copilot CLI with a custom provider).

It answers ``POST …/chat/completions`` with one assistant message, streamed as chunks when the
request asks for a stream (with a usage chunk when ``stream_options.include_usage``) and as one
``chat.completion`` object otherwise, ``GET …/models`` with one model, and records every request.
(``fake_openai`` is the scripted, non-streaming server for chord-git's own extraction client.)

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
from typing import Any

from testing.loopback import Exchange, LoopbackServer, Seen

_ids = itertools.count(1)


class FakeChat(LoopbackServer):
    def __init__(self, reply: str = "Noted.", prompt_tokens: int = 12) -> None:
        super().__init__()
        self.reply = reply
        self.prompt_tokens = prompt_tokens

    def chat_requests(self) -> list[Seen]:
        return [r for r in self.requests
                if r.method == "POST" and r.path.split("?")[0].rstrip("/").endswith("/chat/completions")]

    def respond(self, exchange: Exchange) -> None:
        seen = exchange.seen
        path = seen.path.split("?")[0].rstrip("/")
        body = seen.body if isinstance(seen.body, dict) else {}
        model = str(body.get("model") or "fake-model")
        if seen.method == "GET" and path.endswith("/models"):
            exchange.json(200, {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "fake"}]})
        elif seen.method == "POST" and path.endswith("/chat/completions"):
            usage = {"prompt_tokens": self.prompt_tokens, "completion_tokens": 4,
                     "total_tokens": self.prompt_tokens + 4}
            if body.get("stream"):
                options = body.get("stream_options")
                with_usage = isinstance(options, dict) and bool(options.get("include_usage"))
                self._stream(exchange, model, usage if with_usage else None)
            else:
                exchange.json(200, {
                    "id": f"chatcmpl-fake{next(_ids)}", "object": "chat.completion", "created": int(time.time()),
                    "model": model, "usage": usage,
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": self.reply}}]})
        else:
            exchange.json(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})

    def _stream(self, exchange: Exchange, model: str, usage: dict[str, int] | None) -> None:
        # Chat Completions chunks are bare "data:" events ending with "[DONE]".
        cid, created = f"chatcmpl-fake{next(_ids)}", int(time.time())

        def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
            return {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        events = [chunk({"role": "assistant", "content": ""}, None), chunk({"content": self.reply}, None),
                  chunk({}, "stop")]
        if usage is not None:
            events.append({"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                           "choices": [], "usage": usage})
        handler = exchange._handler  # noqa: SLF001 - the base class streams named events only
        try:
            handler.send_response(200)
            handler.send_header("content-type", "text/event-stream")
            handler.send_header("connection", "close")
            handler.end_headers()
            for event in events:
                handler.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            handler.wfile.write(b"data: [DONE]\n\n")
            handler.wfile.flush()
        except OSError:
            pass
        handler.close_connection = True
