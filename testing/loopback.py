"""A small loopback HTTP server base for the model-API fakes that real agent CLIs talk to.

It records every request (method, path, headers, parsed JSON body), lets a subclass decide the
reply, and can be switched to "down" (connections refused) and back without changing its port, so
a test can take a model server away and bring it back. Used by ``fake_anthropic`` (Claude Code's
Messages API) and ``fake_responses`` (Codex's Responses API).
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple


class Seen(NamedTuple):
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # the parsed JSON body, or None

    def text(self) -> str:
        """The body as JSON text: what "the request contains X" means in a test."""
        return json.dumps(self.body, ensure_ascii=False) if self.body is not None else ""


class Exchange:
    """One request being answered; ``sse`` streams server-sent events."""

    def __init__(self, handler: BaseHTTPRequestHandler, seen: Seen) -> None:
        self._handler = handler
        self.seen = seen

    def json(self, code: int, payload: Any) -> None:
        raw = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        h = self._handler
        try:
            h.send_response(code)
            h.send_header("content-type", "application/json")
            h.send_header("content-length", str(len(raw)))
            h.end_headers()
            h.wfile.write(raw)
        except OSError:
            pass

    def sse(self, events: Iterator[tuple[str, dict[str, Any]]]) -> None:
        """Server-sent events with names (Anthropic Messages, OpenAI Responses)."""
        self.sse_lines(f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n" for name, data in events)

    def sse_data(self, payloads: Iterator[str]) -> None:
        """Server-sent events without event names, one ``data:`` line each (Chat Completions)."""
        self.sse_lines(f"data: {payload}\n\n" for payload in payloads)

    def sse_lines(self, chunks: Iterator[str]) -> None:
        h = self._handler
        try:
            h.send_response(200)
            h.send_header("content-type", "text/event-stream")
            h.send_header("cache-control", "no-cache")
            h.send_header("connection", "close")
            h.end_headers()
            for chunk in chunks:
                h.wfile.write(chunk.encode("utf-8"))
                h.wfile.flush()
        except OSError:
            pass
        h.close_connection = True


Responder = Callable[[Exchange], None]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], owner: LoopbackServer) -> None:
        self.owner = owner
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def _handle(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        owner = self.server.owner
        owner._record(seen)
        for observe in list(owner.observers):
            observe(seen)
        owner.respond(Exchange(self, seen))

    do_POST = _handle  # noqa: N815 - stdlib naming
    do_GET = _handle  # noqa: N815


class LoopbackServer:
    """Start with ``with Server() as s:``; ``base_url`` is ``http://127.0.0.1:PORT``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: list[Seen] = []
        # Called with each request before it is answered: a test can look at the world as it is
        # while the agent waits for its model (e.g. whether the session is marked busy).
        self.observers: list[Callable[[Seen], None]] = []
        self._port = 0
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ to override
    def respond(self, exchange: Exchange) -> None:
        exchange.json(404, {"error": {"message": f"unknown path {exchange.seen.path}"}})

    # ------------------------------------------------------------------ inspection
    @property
    def requests(self) -> list[Seen]:
        with self._lock:
            return list(self._requests)

    def wait_for(self, predicate: Callable[[list[Seen]], bool], timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.requests):
                return True
            time.sleep(0.05)
        return predicate(self.requests)

    def posts(self, path: str) -> list[Seen]:
        """POST requests to ``path`` (query string and trailing slash ignored), oldest first."""
        return [r for r in self.requests if r.method == "POST" and r.path.split("?")[0].rstrip("/") == path]

    def clear(self) -> None:
        with self._lock:
            self._requests.clear()

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self._requests.append(seen)

    # ------------------------------------------------------------------ life cycle
    def start(self) -> LoopbackServer:
        self._httpd = _Server(("127.0.0.1", self._port), self)
        self._port = int(self._httpd.server_address[1])
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=type(self).__name__, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening; the port is kept so ``start`` brings the same address back."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
