"""A loopback OpenAI-compatible chat server whose replies are scripted per model name.

The openai client talks to it over real HTTP, so tests exercise the client's own parsing, timeouts
and error mapping (httpx-level mocks would not intercept the client's transport anyway).

    with FakeOpenAI() as server:
        server.script("m1", Status(500), Reply({"records": [], "retire": [], "promotions": []}))
        ... ModelEntry(model="m1", base_url=server.base_url) ...
        assert server.hits("m1") == 1

Each request to a model consumes the next step of its script; once the script is exhausted the
last step repeats. A model with no script gets a 404 like OpenAI's "model not found".

Manual use: ``python -m testing.fake_openai --port 8765 --script script.json`` where the file maps
model names to lists of steps such as ``{"reply": {...}}``, ``{"status": 500}``,
``{"slow": 3, "then": {"reply": "..."}}``, ``{"html": "<p>hi</p>"}``, ``{"garbage": true}``,
``{"unsupported": "reasoning_effort", "then": {...}}``.

For driving a real agent CLI (Qwen Code) it can also answer with tool calls
(``Reply(None, tool_calls=[tool_call("write_file", {...})])``), streams its answer as server-sent
events when the request asks for ``stream`` (as those CLIs do), serves ``GET /v1/models``, and can
route by what a request contains rather than by model name (``script_matching``): one CLI sends
its main turn and its background helpers' requests under the same model name. A ``Computed`` step
builds its reply from the request (e.g. from a path the CLI put in its prompt).
"""
from __future__ import annotations

import argparse
import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NamedTuple, Union

DEFAULT_USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


@dataclass(frozen=True)
class Reply:
    """A well-formed chat.completion whose message content is ``content`` (a dict or list is
    JSON-encoded); ``as_parts`` sends it as a list of text parts, as some compatible servers do."""

    content: str | dict[str, Any] | list[Any] | None
    usage: dict[str, int] | None = field(default_factory=lambda: dict(DEFAULT_USAGE))
    finish_reason: str = "stop"
    as_parts: bool = False
    # OpenAI-shaped tool calls (see ``tool_call``); with them, finish_reason "stop" is sent as "tool_calls"
    tool_calls: list[dict[str, Any]] | None = None


def tool_call(name: str, arguments: dict[str, Any], call_id: str | None = None) -> dict[str, Any]:
    """One entry of ``Reply.tool_calls``: the model asks the client to run its tool ``name``."""
    return {"id": call_id or f"call_{name}_{next(_call_ids)}", "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}


_call_ids = itertools.count(1)


@dataclass(frozen=True)
class Status:
    """An HTTP error; without a body, an OpenAI-shaped error object is sent."""

    code: int
    body: str | dict[str, Any] | None = None
    headers: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Slow:
    """Wait ``seconds`` before sending anything, then behave like ``then``."""

    seconds: float
    then: Step = field(default_factory=lambda: Reply(""))


@dataclass(frozen=True)
class Held:
    """Send nothing until ``release`` is set, then behave like ``then``: the test, not a clock,
    decides when the model answers (closing the server drops the connection instead)."""

    release: threading.Event
    then: Step = field(default_factory=lambda: Reply(""))


@dataclass(frozen=True)
class Html:
    """A 200 text/html page, as served by a proxy or captive portal in front of the endpoint."""

    body: str = "<html><body><h1>Welcome</h1></body></html>"


@dataclass(frozen=True)
class Garbage:
    """A 200 application/json response whose body is not JSON."""

    body: str = '{"id": "chatcmpl-1", "choices": [{"mess'


@dataclass(frozen=True)
class Unsupported:
    """A 400 naming ``param`` if the request sent it (as endpoints do for unknown arguments), else ``then``."""

    param: str
    then: Step = field(default_factory=lambda: Reply(""))


@dataclass(frozen=True)
class Computed:
    """The step ``make`` returns for the request's JSON body: a reply that depends on the request."""

    make: Callable[[dict[str, Any]], Step]


Step = Union[Reply, Status, Slow, Held, Html, Garbage, Unsupported, Computed]


class Request(NamedTuple):
    model: str | None
    body: Any
    headers: dict[str, str]


def error_body(message: str, kind: str, code: str | None = None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def completion_body(model: str, reply: Reply) -> dict[str, Any]:
    content = reply.content
    if isinstance(content, (dict, list)):
        content = json.dumps(content, ensure_ascii=False)
    if reply.as_parts and isinstance(content, str):
        half = len(content) // 2
        content = [{"type": "text", "text": content[:half]}, {"type": "text", "text": content[half:]}]
    body: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": reply.finish_reason, "logprobs": None,
                     "message": {"role": "assistant", "content": content, "refusal": None}}],
    }
    if reply.usage is not None:
        body["usage"] = reply.usage
    if reply.tool_calls:
        body["choices"][0]["message"]["tool_calls"] = reply.tool_calls
        if reply.finish_reason == "stop":
            body["choices"][0]["finish_reason"] = "tool_calls"
    return body


def completion_chunks(model: str, reply: Reply, with_usage: bool) -> Iterator[str]:
    """The same answer as ``completion_body``, as the ``data:`` payloads of a streamed response."""
    whole = completion_body(model, Reply(reply.content, reply.usage, reply.finish_reason, False, reply.tool_calls))
    message, finish = whole["choices"][0]["message"], whole["choices"][0]["finish_reason"]
    base = {"id": whole["id"], "object": "chat.completion.chunk", "created": whole["created"], "model": model}

    def chunk(delta: dict[str, Any], finish_reason: str | None) -> str:
        return json.dumps({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]},
                          ensure_ascii=False)

    yield chunk({"role": "assistant", "content": ""}, None)
    if message.get("content"):
        yield chunk({"content": message["content"]}, None)
    for index, call in enumerate(message.get("tool_calls") or []):
        yield chunk({"tool_calls": [{"index": index, **call}]}, None)
    yield chunk({}, finish)
    if with_usage and reply.usage is not None:
        yield json.dumps({**base, "choices": [], "usage": reply.usage})
    yield "[DONE]"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], owner: FakeOpenAI) -> None:
        self.owner = owner
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # keep test output clean

    def setup(self) -> None:
        super().setup()
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        model = body.get("model") if isinstance(body, dict) else None
        owner = self.server.owner
        owner._record(Request(model if isinstance(model, str) else None, body, headers))
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._json(404, error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        if not isinstance(body, dict):
            self._json(400, error_body("We could not parse the JSON body of your request.",
                                       "invalid_request_error"))
            return
        step = owner._next_matching_step(raw.decode("utf-8", "replace"))
        if step is None and isinstance(model, str):
            step = owner._next_step(model)
        if step is None:
            self._json(404, error_body(f"The model `{model}` does not exist or you do not have access to it.",
                                       "invalid_request_error", code="model_not_found"))
            return
        self._perform(step, str(model), body)

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        """The model list some clients fetch before their first request: the scripted models."""
        self.server.owner._record(Request(None, None, {k.lower(): v for k, v in self.headers.items()}))
        if self.path.rstrip("/") not in ("/v1/models", "/models"):
            self._json(404, error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        models = self.server.owner.scripted_models()
        self._json(200, {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "fake"} for m in models]})

    def _perform(self, step: Step, model: str, body: dict[str, Any]) -> None:
        if isinstance(step, Computed):
            made = step.make(body)
            _check_step(made)
            self._perform(made, model, body)
        elif isinstance(step, Slow):
            if self.server.owner._stopping.wait(step.seconds):
                return  # shutting down: drop the connection without a reply
            self._perform(step.then, model, body)
        elif isinstance(step, Held):
            stopping = self.server.owner._stopping
            while not step.release.wait(0.05):
                if stopping.is_set():
                    return  # shutting down: drop the connection without a reply
            self._perform(step.then, model, body)
        elif isinstance(step, Unsupported):
            if step.param in body:
                self._json(400, error_body(f"Unrecognized request argument supplied: {step.param}",
                                           "invalid_request_error", param=step.param))
            else:
                self._perform(step.then, model, body)
        elif isinstance(step, Reply) and body.get("stream") is True:
            options = body.get("stream_options")
            self._stream(completion_chunks(model, step, isinstance(options, dict) and bool(options.get("include_usage"))))
        elif isinstance(step, Reply):
            self._json(200, completion_body(model, step))
        elif isinstance(step, Status):
            payload = step.body if step.body is not None else error_body(
                f"Scripted error {step.code}", "server_error" if step.code >= 500 else "invalid_request_error")
            self._send(step.code, payload, "application/json", step.headers)
        elif isinstance(step, Html):
            self._send(200, step.body, "text/html; charset=utf-8")
        elif isinstance(step, Garbage):
            self._send(200, step.body, "application/json")
        else:  # pragma: no cover - guarded by script()
            raise TypeError(f"unknown step {step!r}")

    def _json(self, code: int, payload: Any) -> None:
        self._send(code, payload, "application/json")

    def _stream(self, payloads: Iterator[str]) -> None:
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            for payload in payloads:
                self.wfile.write(f"data: {payload}\n\n".encode())
                self.wfile.flush()
        except OSError:
            pass  # the client gave up
        self.close_connection = True

    def _send(self, code: int, payload: Any, content_type: str,
              headers: Mapping[str, str] | None = None) -> None:
        data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        raw = data.encode("utf-8")
        try:
            self.send_response(code)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(raw)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(raw)
        except OSError:
            pass  # the client gave up (timeout or cancellation); nothing to report


class FakeOpenAI:
    """The scripted server; use as a context manager. ``base_url`` ends in ``/v1``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._lock = threading.Lock()
        self._scripts: dict[str, list[Step]] = {}
        self._positions: dict[str, int] = {}
        self._matching: list[tuple[str, list[Step], list[int]]] = []  # (marker, steps, [position])
        self._requests: list[Request] = []
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._httpd = _Server((host, port), self)
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- scripting and inspection
    def script(self, model: str, *steps: Step) -> FakeOpenAI:
        if not steps:
            raise ValueError("a script needs at least one step")
        for step in steps:
            _check_step(step)
        with self._lock:
            self._scripts[model] = list(steps)
            self._positions[model] = 0
        return self

    def script_matching(self, marker: str, *steps: Step) -> FakeOpenAI:
        """Requests whose raw JSON body contains ``marker`` consume these steps instead of their
        model's script (first matching marker wins, in the order they were added)."""
        if not steps:
            raise ValueError("a script needs at least one step")
        for step in steps:
            _check_step(step)
        with self._lock:
            self._matching.append((marker, list(steps), [0]))
        return self

    def scripted_models(self) -> list[str]:
        with self._lock:
            return list(self._scripts)

    @property
    def requests(self) -> list[Request]:
        with self._lock:
            return list(self._requests)

    def hits(self, model: str) -> int:
        return sum(1 for r in self.requests if r.model == model)

    def models_hit(self) -> list[str | None]:
        """Model names in the order requests arrived."""
        return [r.model for r in self.requests]

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # ---------------------------------------------------------------- life cycle
    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()  # wakes Slow steps so no handler outlives the server
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- used by the handler
    def _record(self, request: Request) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_step(self, model: str) -> Step | None:
        with self._lock:
            steps = self._scripts.get(model)
            if steps is None:
                return None
            pos = self._positions[model]
            self._positions[model] = pos + 1
            return steps[min(pos, len(steps) - 1)]

    def _next_matching_step(self, raw: str) -> Step | None:
        with self._lock:
            for marker, steps, position in self._matching:
                if marker in raw or json.dumps(marker, ensure_ascii=False)[1:-1] in raw:
                    pos = position[0]
                    position[0] = pos + 1
                    return steps[min(pos, len(steps) - 1)]
        return None

    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)


def _check_step(step: object) -> None:
    if not isinstance(step, (Reply, Status, Slow, Held, Html, Garbage, Unsupported, Computed)):
        raise TypeError(f"not a script step: {step!r}")
    if isinstance(step, (Slow, Held, Unsupported)):
        _check_step(step.then)


# -------------------------------------------------------------------- JSON scripts for manual use
def step_from_json(data: Mapping[str, Any]) -> Step:
    if "reply" in data:
        return Reply(data["reply"], usage=data.get("usage", dict(DEFAULT_USAGE)),
                     as_parts=bool(data.get("as_parts", False)))
    if "status" in data:
        return Status(int(data["status"]), data.get("body"), data.get("headers"))
    if "slow" in data:
        return Slow(float(data["slow"]), step_from_json(data.get("then", {"reply": ""})))
    if "html" in data:
        return Html(str(data["html"]))
    if "garbage" in data:
        return Garbage() if data["garbage"] is True else Garbage(str(data["garbage"]))
    if "unsupported" in data:
        return Unsupported(str(data["unsupported"]), step_from_json(data.get("then", {"reply": ""})))
    raise ValueError(f"unknown step {dict(data)!r}")


def load_script(path: Path) -> dict[str, list[Step]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("a script file maps model names to lists of steps")
    return {model: [step_from_json(s) for s in steps] for model, steps in data.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testing.fake_openai", description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--script", type=Path, help="JSON file: {model: [step, ...]}")
    args = parser.parse_args(argv)
    server = FakeOpenAI(port=args.port)
    for model, steps in (load_script(args.script) if args.script else {}).items():
        server.script(model, *steps)
    with server:
        print(f"serving {server.base_url} (Ctrl-C to stop)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
