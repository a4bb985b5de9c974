"""A loopback Gemini API server for driving the real Gemini CLI offline.

Gemini CLI is pointed at it with ``GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT`` and
``GEMINI_API_KEY`` (API-key auth). It answers ``POST /v1beta/models/<model>:streamGenerateContent``
with one server-sent event holding the whole reply, ``:generateContent`` with the same object as
plain JSON (a request that asks for a JSON schema gets a value made from the schema: the CLI's
model router asks for one), ``:countTokens`` with a count, and records every request.

    with FakeGemini(reply="Noted.") as server:
        env["GOOGLE_GEMINI_BASE_URL"] = server.base_url
        ... run gemini -p ...
        assert "canary" in server.generate_requests()[0].text()

``prompt_tokens`` is the prompt size the replies report: a large value makes the CLI compress its
history before the next turn.

``turns`` scripts the model's first replies, one per model request (router and other JSON-schema
requests excluded): each is a list of parts, e.g. ``[function_call("write_file", {...})]``, which
makes the CLI run that tool and send its result back in the next request; once they are used up,
every request gets ``reply``. This is how a test makes the real CLI act (write a memory file).

    with FakeGemini(reply="Saved.", turns=[[function_call("write_file", {"file_path": p, "content": c})]]):
        ... run gemini -p ... --approval-mode yolo ...
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any, Union

from testing.loopback import Exchange, LoopbackServer, Seen


def _value_for(schema: Any) -> Any:
    """A value of the JSON schema's shape; numbers are 1 (the router refuses a score of 0)."""
    if not isinstance(schema, dict):
        return "ok"
    kind = str(schema.get("type") or "string").lower()
    if kind == "object":
        return {str(k): _value_for(v) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [_value_for(schema.get("items"))]
    if kind in ("integer", "number"):
        return 1
    if kind == "boolean":
        return False
    enum = schema.get("enum")
    return enum[0] if isinstance(enum, list) and enum else "ok"


# One scripted reply: its parts, or a function of the request that makes them (to answer with
# something only the request knows, such as a path the CLI put in its system prompt).
Turn = Union[Sequence[dict[str, Any]], Callable[[Seen], Sequence[dict[str, Any]]]]


def function_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A reply part asking the CLI to run its tool ``name`` with ``args``."""
    return {"functionCall": {"name": name, "args": args}}


def text_part(text: str) -> dict[str, Any]:
    return {"text": text}


class FakeGemini(LoopbackServer):
    def __init__(self, reply: str = "Noted.", prompt_tokens: int = 12,
                 turns: Sequence[Turn] = ()) -> None:
        super().__init__()
        self.reply = reply
        self.prompt_tokens = prompt_tokens
        self._turns = list(turns)
        self._turns_lock = threading.Lock()

    def _next_parts(self, seen: Seen) -> list[dict[str, Any]]:
        """The next scripted reply's parts, or ``reply`` as text once the script is used up."""
        with self._turns_lock:
            turn = self._turns.pop(0) if self._turns else None
        if turn is None:
            return [text_part(self.reply)]
        return list(turn(seen) if callable(turn) else turn)

    def function_responses(self) -> list[dict[str, Any]]:
        """The ``functionResponse`` parts the CLI sent back (its tools' results), oldest first."""
        found: list[dict[str, Any]] = []
        for seen in self.generate_requests():
            for content in (seen.body.get("contents") or []) if isinstance(seen.body, dict) else []:
                for part in content.get("parts") or [] if isinstance(content, dict) else []:
                    if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict):
                        if part["functionResponse"] not in found:
                            found.append(part["functionResponse"])
        return found

    def generate_requests(self) -> list[Seen]:
        """Requests for a model reply (streamed or not, router requests excluded), oldest first."""
        found = []
        for seen in self.requests:
            path = seen.path.split("?")[0]
            if seen.method != "POST" or not (path.endswith(":streamGenerateContent")
                                              or path.endswith(":generateContent")):
                continue
            config = seen.body.get("generationConfig") if isinstance(seen.body, dict) else None
            if isinstance(config, dict) and ("responseJsonSchema" in config or "responseSchema" in config):
                continue
            found.append(seen)
        return found

    def _answer(self, model: str, text: str | list[dict[str, Any]]) -> dict[str, Any]:
        parts = [text_part(text)] if isinstance(text, str) else text
        return {"candidates": [{"content": {"role": "model", "parts": parts},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": self.prompt_tokens, "candidatesTokenCount": 4,
                                  "totalTokenCount": self.prompt_tokens + 4},
                "modelVersion": model}

    def respond(self, exchange: Exchange) -> None:
        seen = exchange.seen
        path = seen.path.split("?")[0].rstrip("/")
        body = seen.body if isinstance(seen.body, dict) else {}
        model = path.rsplit("/", 1)[-1].partition(":")[0] or "gemini-fake"
        if seen.method == "GET" and path.endswith("/models"):
            exchange.json(200, {"models": [{"name": "models/gemini-2.5-flash"}]})
        elif seen.method == "POST" and path.endswith(":countTokens"):
            exchange.json(200, {"totalTokens": max(len(seen.text()) // 4, 1)})
        elif seen.method == "POST" and path.endswith(":streamGenerateContent"):
            self._stream(exchange, self._answer(model, self._next_parts(seen)))
        elif seen.method == "POST" and path.endswith(":generateContent"):
            found = body.get("generationConfig")
            config: dict[str, Any] = found if isinstance(found, dict) else {}
            schema = config.get("responseJsonSchema") or config.get("responseSchema")
            answer = self._answer(model, json.dumps(_value_for(schema))) if schema is not None \
                else self._answer(model, self._next_parts(seen))
            exchange.json(200, answer)
        else:
            exchange.json(404, {"error": {"code": 404, "message": f"no route {path}", "status": "NOT_FOUND"}})

    @staticmethod
    def _stream(exchange: Exchange, answer: dict[str, Any]) -> None:
        # Gemini's stream is bare "data:" events, without event names.
        handler = exchange._handler  # noqa: SLF001 - the base class streams named events only
        try:
            handler.send_response(200)
            handler.send_header("content-type", "text/event-stream")
            handler.send_header("connection", "close")
            handler.end_headers()
            handler.wfile.write(f"data: {json.dumps(answer)}\n\n".encode())
            handler.wfile.flush()
        except OSError:
            pass
        handler.close_connection = True
