"""The loopback server itself, spoken to with plain urllib so its behaviour is pinned independently
of the openai client."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from testing.fake_openai import (
    FakeOpenAI,
    Garbage,
    Html,
    Reply,
    Slow,
    Status,
    Unsupported,
)

ROOT = Path(__file__).resolve().parents[2]


def post(url: str, body: Any, *, timeout: float = 5, headers: dict[str, str] | None = None
         ) -> tuple[int, dict[str, str], bytes]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def chat(server: FakeOpenAI, model: str, **extra: Any) -> tuple[int, dict[str, str], bytes]:
    return post(f"{server.base_url}/chat/completions",
                {"model": model, "messages": [{"role": "user", "content": "hi"}], **extra})


def test_reply_is_a_chat_completion(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Reply({"a": 1}))
    code, headers, raw = chat(fake_openai, "m")
    body = json.loads(raw)
    assert code == 200 and headers["content-type"] == "application/json"
    assert body["object"] == "chat.completion" and body["model"] == "m"
    assert json.loads(body["choices"][0]["message"]["content"]) == {"a": 1}
    assert body["usage"]["total_tokens"] == 18


def test_reply_without_usage(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Reply("plain", usage=None))
    body = json.loads(chat(fake_openai, "m")[2])
    assert "usage" not in body and body["choices"][0]["message"]["content"] == "plain"


def test_script_advances_then_repeats_last_step(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Status(500), Reply("ok"))
    assert [chat(fake_openai, "m")[0] for _ in range(4)] == [500, 200, 200, 200]
    assert fake_openai.hits("m") == 4


def test_status_with_headers_and_body(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Status(429, headers={"retry-after": "0"}), Status(503, body="busy"))
    code, headers, raw = chat(fake_openai, "m")
    assert code == 429 and headers["retry-after"] == "0"
    assert json.loads(raw)["error"]["type"] == "invalid_request_error"
    assert chat(fake_openai, "m")[0::2] == (503, b"busy")


def test_unknown_model_is_404_like_openai(fake_openai: FakeOpenAI) -> None:
    code, _, raw = chat(fake_openai, "nope")
    assert code == 404
    assert json.loads(raw)["error"]["code"] == "model_not_found"
    assert fake_openai.hits("nope") == 1


def test_both_paths_and_unknown_path(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Reply("x"))
    root = fake_openai.base_url.removesuffix("/v1")
    assert post(f"{root}/chat/completions", {"model": "m"})[0] == 200
    assert post(f"{root}/v1/embeddings", {"model": "m"})[0] == 404
    assert post(f"{fake_openai.base_url}/chat/completions", b"{not json")[0] == 400


def test_html_and_garbage(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("h", Html())
    fake_openai.script("g", Garbage())
    code, headers, raw = chat(fake_openai, "h")
    assert code == 200 and headers["content-type"].startswith("text/html") and raw.startswith(b"<html>")
    code, headers, raw = chat(fake_openai, "g")
    assert code == 200 and headers["content-type"] == "application/json"
    with pytest.raises(ValueError):
        json.loads(raw)


def test_unsupported_parameter(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Unsupported("reasoning_effort", Reply("fine")))
    code, _, raw = chat(fake_openai, "m", reasoning_effort="high")
    assert code == 400 and "reasoning_effort" in json.loads(raw)["error"]["message"]
    assert chat(fake_openai, "m")[0] == 200


def test_requests_are_recorded(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("a", Reply("x"))
    fake_openai.script("b", Reply("y"))
    chat(fake_openai, "b")
    post(f"{fake_openai.base_url}/chat/completions", {"model": "a", "messages": []},
         headers={"Authorization": "Bearer k1"})
    assert fake_openai.models_hit() == ["b", "a"]
    model, body, headers = fake_openai.requests[1]
    assert model == "a" and body == {"model": "a", "messages": []}
    assert headers["authorization"] == "Bearer k1"


def test_script_rejects_non_steps(fake_openai: FakeOpenAI) -> None:
    with pytest.raises(TypeError):
        fake_openai.script("m", "reply")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fake_openai.script("m")


def test_slow_reply_waits(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m", Slow(0.3, Reply("late")))
    start = time.monotonic()
    code, _, raw = chat(fake_openai, "m")
    assert code == 200 and time.monotonic() - start >= 0.3
    assert json.loads(raw)["choices"][0]["message"]["content"] == "late"


def test_slow_reply_does_not_block_shutdown() -> None:
    server = FakeOpenAI().start()
    server.script("m", Slow(30, Reply("never")))
    outcome: list[Any] = []

    def client() -> None:
        try:
            outcome.append(chat(server, "m")[0])
        except OSError as exc:  # the server drops the connection when it closes
            outcome.append(exc)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    while server.hits("m") == 0:
        time.sleep(0.01)
    start = time.monotonic()
    server.close()
    thread.join(timeout=10)
    assert time.monotonic() - start < 5  # generous: the step would otherwise hold it for 30 s
    assert not thread.is_alive() and len(outcome) == 1


def test_command_line(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"m": [{"status": 500}, {"reply": {"ok": True}}],
                                  "s": [{"slow": 0.1, "then": {"html": "<p>x</p>"}}]}))
    proc = subprocess.Popen([sys.executable, "-m", "testing.fake_openai", "--port", "0", "--script", str(script)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:")
        base = line.split()[1]
        url = f"{base}/chat/completions"
        assert post(url, {"model": "m"})[0] == 500
        assert json.loads(json.loads(post(url, {"model": "m"})[2])["choices"][0]["message"]["content"]) == {"ok": True}
        assert post(url, {"model": "s"})[2] == b"<p>x</p>"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
