"""The model pool through the real openai client against the loopback server, and the
agent-activity signal (R15) that preempts it."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.background.activity import (
    BUSY_STALE_SECONDS,
    CLOCK_SKEW_SECONDS,
    ActivityFlag,
    flag_path,
    is_busy,
    is_stale,
    read_flag,
    set_busy,
    set_idle,
    wait_idle,
)
from chord_git.config import ModelEntry
from chord_git.errors import ExtractionFailed, Preempted
from chord_git.extraction.pool import Attempt, PoolResult, call_pool
from chord_git.extraction.schema import response_format
from testing.fake_openai import (
    DEFAULT_USAGE,
    FakeOpenAI,
    Garbage,
    Held,
    Html,
    Reply,
    Slow,
    Status,
    Unsupported,
)

MESSAGES = [{"role": "system", "content": "extract"}, {"role": "user", "content": "we use pnpm"}]
# Names of environment variables (never values); held in constants so no line reads like a key.
UNSET_VAR = "CHORD_TEST_UNSET_KEY"
LOCAL_VAR = "CHORD_TEST_LOCAL_KEY"
UNPARSEABLE = {
    "prose": "I could not find anything worth remembering.",
    "unknown-field": {"records": [], "retire": [], "promotions": [], "notes": "x"},
    "missing-field": {"records": [], "retire": []},
    "array": [{"records": [], "retire": [], "promotions": []}],
}


def entry(server: FakeOpenAI, model: str, **kwargs: Any) -> ModelEntry:
    kwargs.setdefault("timeout", 5.0)
    return ModelEntry(model=model, base_url=server.base_url, **kwargs)


@pytest.fixture
def closed_port_url() -> Iterator[str]:
    """A loopback address that refuses connections: bound but never listening, and held for the
    whole test, so that no other process (another test worker's server) can take the port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def outcomes(result_or_attempts: PoolResult | tuple[Attempt, ...]) -> list[tuple[str, str]]:
    attempts = result_or_attempts.attempts if isinstance(result_or_attempts, PoolResult) else result_or_attempts
    return [(a.model, a.outcome) for a in attempts]


# ---------------------------------------------------------------------------- good replies
def test_good_reply_with_json_schema(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output))
    result = call_pool([entry(fake_openai, "m1")], MESSAGES, env={})
    assert result.model == "m1"
    assert result.output.records[0].summary == good_output["records"][0]["summary"]
    assert json.loads(result.raw) == good_output
    assert outcomes(result) == [("m1", "ok")]
    assert result.usage is not None and result.usage["total_tokens"] == DEFAULT_USAGE["total_tokens"]
    (_, body, _), = fake_openai.requests
    assert body["messages"] == MESSAGES
    assert body["response_format"] == response_format("json_schema")
    assert body["response_format"]["json_schema"]["strict"] is True
    assert "reasoning_effort" not in body


@pytest.mark.parametrize("fmt, sent", [("json_object", {"type": "json_object"}), ("none", None)])
def test_other_response_formats(fmt: str, sent: Any, fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output, usage=None))
    result = call_pool([entry(fake_openai, "m1", response_format=fmt)], MESSAGES, env={})
    assert result.usage is None
    body = fake_openai.requests[0].body
    assert body.get("response_format") == sent
    assert ("response_format" in body) is (sent is not None)


def test_fenced_reply_is_accepted(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply("```json\n" + json.dumps(good_output) + "\n```"))
    assert call_pool([entry(fake_openai, "m1")], MESSAGES, env={}).model == "m1"


def test_content_parts_are_joined(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output, as_parts=True))
    result = call_pool([entry(fake_openai, "m1")], MESSAGES, env={})
    assert json.loads(result.raw) == good_output


# ---------------------------------------------------------------------------- transport failures
@pytest.mark.parametrize("step, kind", [
    (Status(500), "error:http-500"),
    (Status(503), "error:http-503"),
    (Status(429, headers={"retry-after": "0"}), "error:rate-limited"),
    (Status(400), "error:http-400"),
    (Status(401), "error:http-401"),
    (Status(403), "error:http-403"),
    (Html(), "error:not-a-completion"),
    (Garbage(), "error:invalid-response"),
    (Reply(None), "unparseable:empty reply"),
])
def test_failure_moves_to_next_model(step: Any, kind: str, fake_openai: FakeOpenAI,
                                     good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", step)
    fake_openai.script("m2", Reply(good_output))
    result = call_pool([entry(fake_openai, "m1"), entry(fake_openai, "m2")], MESSAGES, env={})
    assert result.model == "m2"
    assert outcomes(result) == [("m1", kind), ("m2", "ok")]
    assert fake_openai.hits("m1") == 1  # max_retries=0: the pool is the retry policy


def test_unknown_model_404(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m2", Reply(good_output))
    result = call_pool([entry(fake_openai, "gone"), entry(fake_openai, "m2")], MESSAGES, env={})
    assert outcomes(result) == [("gone", "error:http-404"), ("m2", "ok")]


def test_slow_reply_past_timeout(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("slow", Slow(5, Reply(good_output)))
    fake_openai.script("m2", Reply(good_output))
    result = call_pool([entry(fake_openai, "slow", timeout=0.5), entry(fake_openai, "m2")], MESSAGES, env={})
    # A pool that waited for the 5 s reply would have recorded "ok" for it: the outcome is the proof.
    assert outcomes(result) == [("slow", "error:timeout"), ("m2", "ok")]


def test_connection_refused(fake_openai: FakeOpenAI, good_output: dict[str, Any], closed_port_url: str) -> None:
    fake_openai.script("m2", Reply(good_output))
    dead = ModelEntry(model="m1", base_url=closed_port_url, timeout=2)
    result = call_pool([dead, entry(fake_openai, "m2")], MESSAGES, env={})
    assert outcomes(result) == [("m1", "error:connection"), ("m2", "ok")]


def test_fallback_order(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("a", Status(500))
    fake_openai.script("b", Html())
    fake_openai.script("c", Reply(good_output))
    fake_openai.script("d", Reply(good_output))
    pool = [entry(fake_openai, m) for m in "abcd"]
    result = call_pool(pool, MESSAGES, env={})
    assert result.model == "c"
    assert fake_openai.models_hit() == ["a", "b", "c"]


def test_all_failing_names_models_and_outcomes(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m1", Slow(3))
    fake_openai.script("m2", Status(500))
    with pytest.raises(ExtractionFailed) as info:
        call_pool([entry(fake_openai, "m1", timeout=0.5), entry(fake_openai, "m2")], MESSAGES, env={})
    url = fake_openai.base_url
    assert str(info.value) == (f"no model answered (2 tried): m1 at {url}: no reply (after 0.5 s); "
                               f"m2 at {url}: HTTP 500 (server error)")
    assert info.value.exit_code == 1


def test_a_connection_failure_names_model_endpoint_and_cause(closed_port_url: str) -> None:
    dead = closed_port_url
    with pytest.raises(ExtractionFailed) as info:
        call_pool([ModelEntry(model="evil-model", base_url=dead, timeout=2)], MESSAGES, env={})
    reason = str(info.value)
    assert reason.startswith(f"no model answered (1 tried): evil-model at {dead}: cannot connect (")
    assert "refused" in reason.lower() or "failed" in reason.lower()  # the transport's own words


def test_a_key_pasted_as_the_model_name_is_not_echoed(closed_port_url: str) -> None:
    dead = closed_port_url
    pasted = "sk-proj-" + "Qm7XvR2kLp9TzW4nYb8sHc3JdF6gAe1Ui0oP5rStUvWx"
    with pytest.raises(ExtractionFailed) as info:
        call_pool([ModelEntry(model=pasted, base_url=dead, timeout=2)], MESSAGES, env={})
    reason = str(info.value)
    assert pasted not in reason and pasted[8:24] not in reason
    assert reason.startswith(f"no model answered (1 tried): <a model name that looks like a key, not shown> at {dead}: ")


def test_the_endpoint_is_shown_without_user_info_or_query() -> None:
    from chord_git.extraction.pool import OFFICIAL_BASE_URL, endpoint

    assert endpoint(ModelEntry(model="m", base_url="http://user:pw@127.0.0.1:8/v1?key=abc#x"), {}) == "http://127.0.0.1:8/v1"
    assert endpoint(ModelEntry(model="m"), {}) == OFFICIAL_BASE_URL
    assert endpoint(ModelEntry(model="m"), {"OPENAI_BASE_URL": "https://proxy.example/v1"}) == "https://proxy.example/v1"


def test_empty_pool() -> None:
    with pytest.raises(ExtractionFailed, match="empty"):
        call_pool([], MESSAGES, env={})


# ---------------------------------------------------------------------------- resampling (R36)
@pytest.mark.parametrize("kind", sorted(UNPARSEABLE))
def test_unparseable_is_resampled_with_next_model(kind: str, fake_openai: FakeOpenAI,
                                                  good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(UNPARSEABLE[kind]))
    fake_openai.script("m2", Reply(good_output))
    result = call_pool([entry(fake_openai, "m1"), entry(fake_openai, "m2")], MESSAGES, env={})
    assert result.model == "m2"
    assert result.attempts[0].outcome.startswith("unparseable:")
    assert fake_openai.models_hit() == ["m1", "m2"]


def test_unparseable_twice_fails_without_trying_further(fake_openai: FakeOpenAI,
                                                       good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply("not json"))
    fake_openai.script("m2", Reply({"records": [], "retire": [], "promotions": [], "foo": 1}))
    fake_openai.script("m3", Reply(good_output))
    pool = [entry(fake_openai, m) for m in ("m1", "m2", "m3")]
    with pytest.raises(ExtractionFailed) as info:
        call_pool(pool, MESSAGES, env={})
    reason = str(info.value)
    assert reason.startswith("unparseable reply, and the resample failed too: ")
    url = fake_openai.base_url
    assert f"m1 at {url}: unparseable reply (not JSON" in reason
    assert f"m2 at {url}: unparseable reply (unknown field 'foo')" in reason
    assert "\n" not in reason
    assert fake_openai.hits("m3") == 0


def test_transport_failure_does_not_use_up_the_resample(fake_openai: FakeOpenAI,
                                                       good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply("[]"))
    fake_openai.script("m2", Status(502))
    fake_openai.script("m3", Reply(good_output))
    result = call_pool([entry(fake_openai, m) for m in ("m1", "m2", "m3")], MESSAGES, env={})
    assert outcomes(result) == [("m1", "unparseable:not a JSON object (got array)"),
                                ("m2", "error:http-502"), ("m3", "ok")]


def test_last_model_resamples_itself(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("only", Reply("oops"), Reply(good_output))
    result = call_pool([entry(fake_openai, "only")], MESSAGES, env={})
    assert [o for _, o in outcomes(result)][1] == "ok"
    assert fake_openai.hits("only") == 2


def test_single_model_unparseable_twice(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("only", Reply("oops"))
    with pytest.raises(ExtractionFailed, match="only at .*: unparseable reply .*; only at .*: unparseable reply"):
        call_pool([entry(fake_openai, "only")], MESSAGES, env={})
    assert fake_openai.hits("only") == 2


# ---------------------------------------------------------------------------- keys
def test_missing_key_variable_skips_entry(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output))
    fake_openai.script("m2", Reply(good_output))
    pool = [entry(fake_openai, "m1", api_key_env=UNSET_VAR), entry(fake_openai, "m2")]
    result = call_pool(pool, MESSAGES, env={})
    assert outcomes(result) == [("m1", "error:missing-key"), ("m2", "ok")]
    # The name comes from the config, and config values never reach status or run logs.
    assert result.attempts[0].detail == "the variable named by api_key_env is not set"
    assert fake_openai.hits("m1") == 0


def test_missing_key_in_failure_reason(fake_openai: FakeOpenAI) -> None:
    with pytest.raises(ExtractionFailed, match=r"m1 at \S+: no key \(the variable named by api_key_env is not set\)"):
        call_pool([entry(fake_openai, "m1", api_key_env=UNSET_VAR)], MESSAGES, env={})


def test_real_openai_credentials_never_reach_a_custom_endpoint(
        fake_openai: FakeOpenAI, good_output: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    sentinel = "sentinel-" + "user-openai-credential"
    monkeypatch.setenv("OPENAI_API_KEY", sentinel)
    monkeypatch.setenv("OPENAI_ORG_ID", sentinel + "-org")
    monkeypatch.setenv("OPENAI_PROJECT_ID", sentinel + "-project")
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", f"Authorization: Bearer {sentinel}-custom")
    monkeypatch.setenv(LOCAL_VAR, "local-endpoint-" + "value")
    fake_openai.script("keyless", Status(500))
    fake_openai.script("keyed", Reply(good_output))
    pool = [entry(fake_openai, "keyless"), entry(fake_openai, "keyed", api_key_env=LOCAL_VAR)]
    call_pool(pool, MESSAGES)  # env defaults to os.environ
    seen = [r.headers for r in fake_openai.requests]
    assert [h["authorization"] for h in seen] == ["Bearer not-needed", "Bearer local-endpoint-value"]
    for headers in seen:
        assert sentinel not in json.dumps(headers)


def test_entry_without_base_url_uses_the_users_openai_setup(
        fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("gpt-x", Reply(good_output))
    official = "official-" + "value"
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": official}
    call_pool([ModelEntry(model="gpt-x", timeout=5)], MESSAGES, env=env)
    assert fake_openai.requests[0].headers["authorization"] == "Bearer official-value"


def test_failure_reason_never_holds_request_content_or_keys(fake_openai: FakeOpenAI) -> None:
    planted = "PLANTED-" + "message-content"
    key = "PLANTED-" + "endpoint-key"
    fake_openai.script("m1", Status(400, body={"error": {"message": f"bad input near {planted}"}}))
    fake_openai.script("m2", Reply("I refuse: " + planted))
    env = {LOCAL_VAR: key}
    pool = [entry(fake_openai, m, api_key_env=LOCAL_VAR) for m in ("m1", "m2")]
    with pytest.raises(ExtractionFailed) as info:
        call_pool(pool, [{"role": "user", "content": planted}], env=env)
    assert "PLANTED" not in str(info.value)


# ---------------------------------------------------------------------------- reasoning effort
def test_reasoning_effort_sent_when_set(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output))
    call_pool([entry(fake_openai, "m1")], MESSAGES, reasoning_effort="medium", env={})
    call_pool([entry(fake_openai, "m1", reasoning_effort="high")], MESSAGES, reasoning_effort="low", env={})
    assert [r.body["reasoning_effort"] for r in fake_openai.requests] == ["medium", "high"]


def test_rejected_reasoning_effort_is_dropped_once(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("local", Unsupported("reasoning_effort", Reply(good_output)))
    result = call_pool([entry(fake_openai, "local")], MESSAGES, reasoning_effort="high", env={})
    assert outcomes(result) == [("local", "error:reasoning-effort-rejected"), ("local", "ok")]
    first, second = (r.body for r in fake_openai.requests)
    assert first["reasoning_effort"] == "high" and "reasoning_effort" not in second


def test_other_400_is_not_retried_without_reasoning(fake_openai: FakeOpenAI) -> None:
    fake_openai.script("m1", Status(400))
    with pytest.raises(ExtractionFailed):
        call_pool([entry(fake_openai, "m1")], MESSAGES, reasoning_effort="high", env={})
    assert fake_openai.hits("m1") == 1


# ---------------------------------------------------------------------------- cancellation (R15)
def test_busy_agent_cancels_in_flight_call(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    # m1 never answers: without the cancellation the pool would wait out its timeout and go on to m2.
    fake_openai.script("m1", Held(threading.Event(), Reply(good_output)))
    fake_openai.script("m2", Reply(good_output))
    with pytest.raises(Preempted):  # the agent turns busy once the call is in flight
        call_pool([entry(fake_openai, "m1", timeout=30), entry(fake_openai, "m2")], MESSAGES,
                  should_cancel=lambda: fake_openai.hits("m1") >= 1, env={})
    assert fake_openai.hits("m1") == 1 and fake_openai.hits("m2") == 0


def test_busy_before_the_call_sends_nothing(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output))
    with pytest.raises(Preempted):
        call_pool([entry(fake_openai, "m1")], MESSAGES, should_cancel=lambda: True, env={})
    assert fake_openai.requests == []


def test_never_cancelled_when_idle(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Slow(0.3, Reply(good_output)))
    polls: list[float] = []

    def idle() -> bool:
        polls.append(time.monotonic())
        return False

    assert call_pool([entry(fake_openai, "m1")], MESSAGES, should_cancel=idle, env={}).model == "m1"
    assert len(polls) >= 2  # polled while the reply was pending


def test_works_from_inside_an_event_loop(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Reply(good_output))

    async def host() -> PoolResult:
        return call_pool([entry(fake_openai, "m1")], MESSAGES, env={})

    assert asyncio.run(host()).model == "m1"


def test_concurrent_pools_do_not_interfere(fake_openai: FakeOpenAI, good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Slow(0.2, Reply(good_output)))
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(
        call_pool([entry(fake_openai, "m1")], MESSAGES, env={}).model)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert results == ["m1"] * 4


def test_activity_flag_preempts_the_pool(tmp_path: Path, fake_openai: FakeOpenAI,
                                         good_output: dict[str, Any]) -> None:
    fake_openai.script("m1", Slow(10, Reply(good_output)))
    set_idle(tmp_path)
    timer = threading.Timer(0.3, set_busy, args=(tmp_path,))
    timer.start()
    try:
        with pytest.raises(Preempted):
            call_pool([entry(fake_openai, "m1", timeout=30)], MESSAGES,
                      should_cancel=lambda: is_busy(tmp_path), env={})
    finally:
        timer.cancel()
    assert is_busy(tmp_path)


# ---------------------------------------------------------------------------- activity signal (R15)
def dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(proc.stdout)  # reaped by run(), so the pid no longer exists


def write_raw(state_dir: Path, **fields: object) -> None:
    payload = {"state": "busy", "since": time.time(), "writer_pid": 4242,
               "host": socket.gethostname(), "owner_pid": None}
    payload.update(fields)
    flag_path(state_dir).write_text(json.dumps(payload))


def test_no_flag_means_idle(tmp_path: Path) -> None:
    assert read_flag(tmp_path / "missing") is None
    assert not is_busy(tmp_path / "missing")


def test_busy_then_idle(tmp_path: Path) -> None:
    state = tmp_path / "state"
    set_busy(state)
    assert is_busy(state)
    flag = read_flag(state)
    assert flag is not None and flag.state == "busy" and flag.writer_pid == os.getpid()
    assert flag.owner_pid is None and abs(flag.since - time.time()) < 60
    set_idle(state)
    assert not is_busy(state)
    assert [p.name for p in state.iterdir()] == ["agent-activity.json"]  # no temp files left


@pytest.mark.parametrize("content", ["", "{", "[]", '{"state": "asleep"}',
                                     '{"state": "busy", "since": "yesterday", "writer_pid": 1, "host": "h"}',
                                     '{"state": "busy", "since": 1, "writer_pid": true, "host": "h"}'])
def test_unreadable_flag_means_idle(tmp_path: Path, content: str) -> None:
    flag_path(tmp_path).write_text(content)
    assert read_flag(tmp_path) is None
    assert not is_busy(tmp_path)


def test_old_busy_flag_is_stale(tmp_path: Path) -> None:
    write_raw(tmp_path, since=time.time() - BUSY_STALE_SECONDS - 5)
    assert not is_busy(tmp_path)
    write_raw(tmp_path, since=time.time() - BUSY_STALE_SECONDS + 60)
    assert is_busy(tmp_path)
    assert not is_busy(tmp_path, stale_after=30)


def test_busy_flag_from_the_future_is_stale(tmp_path: Path) -> None:
    write_raw(tmp_path, since=time.time() + CLOCK_SKEW_SECONDS + 60)
    assert not is_busy(tmp_path)
    write_raw(tmp_path, since=time.time() + 5)  # small skew is tolerated
    assert is_busy(tmp_path)


def test_owner_process_gone_makes_flag_stale(tmp_path: Path) -> None:
    set_busy(tmp_path, owner_pid=dead_pid())
    assert not is_busy(tmp_path)
    set_busy(tmp_path, owner_pid=os.getpid())
    assert is_busy(tmp_path)


def test_owner_on_another_host_is_not_checked(tmp_path: Path) -> None:
    write_raw(tmp_path, owner_pid=dead_pid(), host="some-other-machine")
    assert is_busy(tmp_path)  # only the age rule applies to another host's pid


def test_cli_style_writer_that_exits_keeps_flag_busy(tmp_path: Path) -> None:
    # `git memory agent busy` is a short-lived process: its own death must not clear the flag.
    root = Path(__file__).resolve().parents[2]
    code = f"from pathlib import Path; from chord_git.background.activity import set_busy; set_busy(Path({str(tmp_path)!r}))"
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
    assert is_busy(tmp_path)


def test_is_stale_is_pure_on_age() -> None:
    flag = ActivityFlag("busy", since=1000.0, writer_pid=1, host="elsewhere")
    assert not is_stale(flag, now=1000.0 + 10, stale_after=60)
    assert is_stale(flag, now=1000.0 + 61, stale_after=60)


def test_wait_idle_returns_when_agent_goes_idle(tmp_path: Path) -> None:
    set_busy(tmp_path)
    timer = threading.Timer(0.2, set_idle, args=(tmp_path,))
    timer.start()
    try:
        assert wait_idle(tmp_path, timeout=10, poll=0.02)
    finally:
        timer.cancel()
    assert not is_busy(tmp_path)


def test_wait_idle_times_out(tmp_path: Path) -> None:
    set_busy(tmp_path)
    assert wait_idle(tmp_path, timeout=0.1, poll=0.02) is False


def test_wait_idle_without_timeout_ends_on_staleness(tmp_path: Path) -> None:
    write_raw(tmp_path, since=time.time() - 0.9)
    assert wait_idle(tmp_path, timeout=None, poll=0.02, stale_after=1.0)


def test_readers_never_see_a_torn_flag(tmp_path: Path) -> None:
    set_idle(tmp_path)
    stop = threading.Event()
    bad: list[object] = []

    def writer() -> None:
        while not stop.is_set():
            set_busy(tmp_path)
            set_idle(tmp_path)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(300):
            flag = read_flag(tmp_path)
            if flag is None:
                bad.append(flag)
    finally:
        stop.set()
        thread.join()
    assert bad == []
