"""The extraction model pool (R15, R16, R36): try entries in order until one gives a usable reply.

Fallback rules:

* Transport failures — connection refused, timeouts, 429, 5xx, any other HTTP error (400, 401,
  403, 404, ...), a body that is not a chat completion (an HTML page, broken JSON), or an entry
  whose key variable is unset — move on to the next entry. The client runs with
  ``max_retries=0``: the pool is the retry policy, and a rate-limited model gets its next chance on
  the next run instead of stalling this one.
* An unparseable reply (see ``schema.parse_output``) is resampled once with the next entry. If the
  unparseable entry was the last one, the resample goes to that same entry. A transport failure of
  the resampling entry does not use up the resample: the pool continues down its entries until a
  model answers, so at most two unparseable replies are accepted per run, whatever else fails.
* A 400/422 whose error mentions the reasoning argument, sent while ``reasoning_effort`` was set,
  is retried once on the same entry without it (many compatible servers reject the argument).
  ``ModelEntry.reasoning_effort`` overrides the pool-level value.

Keys: an entry with ``base_url`` gets exactly the key named by ``api_key_env`` (or the placeholder
``not-needed`` when it names none), and the client's environment-derived organization, project
and Authorization headers are suppressed, so the user's OpenAI credentials never reach a custom
endpoint. An entry without ``base_url`` is the user's own OpenAI setup: ``OPENAI_BASE_URL`` and
``OPENAI_API_KEY`` apply when ``api_key_env`` does not say otherwise.

Cancellation (R15): the request runs as a task on a private event loop; ``should_cancel`` is polled
every ``POLL_SECONDS`` and when it returns True the task is cancelled and ``Preempted`` raised.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chord_git.config import ModelEntry
from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import ExtractionFailed, Preempted
from chord_git.extraction.schema import (
    ModelOutput,
    UnparseableOutput,
    parse_output,
    response_format,
)

POLL_SECONDS = 0.1
PLACEHOLDER_KEY = "not-needed"
OFFICIAL_BASE_URL = "https://api.openai.com/v1"
DEADLINE_GRACE_SECONDS = 0.5
MAX_UNPARSEABLE = 2
REASON_LIMIT = 400


@dataclass(frozen=True)
class Attempt:
    model: str
    outcome: str  # "ok" | "error:<kind>" | "unparseable:<reason>"
    detail: str = ""  # e.g. the name of an unset key variable; never request content or a key


@dataclass(frozen=True)
class PoolResult:
    output: ModelOutput
    model: str
    attempts: tuple[Attempt, ...]
    raw: str
    usage: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Reply:
    """What one HTTP request produced: either an error kind or the message text (and usage)."""

    error: str | None = None
    content: str | None = None
    usage: dict[str, Any] | None = None
    rejects_reasoning: bool = False


def call_pool(entries: Sequence[ModelEntry], messages: list[dict[str, Any]], *,
              reasoning_effort: str | None = None, should_cancel: Callable[[], bool] | None = None,
              env: Mapping[str, str] | None = None) -> PoolResult:
    """Ask the pool for one ``ModelOutput``; raises ``ExtractionFailed`` or ``Preempted``."""
    if not entries:
        raise ExtractionFailed("the model pool is empty")
    env = os.environ if env is None else env
    work = _run_pool(tuple(entries), messages, reasoning_effort, should_cancel, env)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    # Called from inside an event loop (an async agent host): run ours on a worker thread.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, work).result()


async def _run_pool(entries: tuple[ModelEntry, ...], messages: list[dict[str, Any]],
                    reasoning_effort: str | None, should_cancel: Callable[[], bool] | None,
                    env: Mapping[str, str]) -> PoolResult:
    attempts: list[Attempt] = []
    unparseable = 0
    index = 0
    while index < len(entries):
        entry = entries[index]
        effort = entry.reasoning_effort or reasoning_effort
        reply = await _ask_entry(entry, messages, effort, should_cancel, env, attempts)
        if reply is None:
            index += 1
            continue
        try:
            output = parse_output(reply.content or "")
        except UnparseableOutput as exc:
            attempts.append(Attempt(entry.model, f"unparseable:{exc.reason}"))
            unparseable += 1
            if unparseable >= MAX_UNPARSEABLE:
                raise ExtractionFailed(_reason("unparseable reply, and the resample failed too", attempts)) from None
            if index < len(entries) - 1:
                index += 1
            continue  # last entry: the resample goes to the same model
        attempts.append(Attempt(entry.model, "ok"))
        return PoolResult(output, entry.model, tuple(attempts), reply.content or "", reply.usage)
    raise ExtractionFailed(_reason(f"all {len(entries)} models failed", attempts))


async def _ask_entry(entry: ModelEntry, messages: list[dict[str, Any]], effort: str | None,
                     should_cancel: Callable[[], bool] | None, env: Mapping[str, str],
                     attempts: list[Attempt]) -> _Reply | None:
    """One entry's reply, or None after recording why it gave none."""
    key_name = entry.api_key_env or (None if entry.base_url else "OPENAI_API_KEY")
    key = env.get(key_name) if key_name else PLACEHOLDER_KEY
    if not key:
        # The variable's name comes from the config: config values are never written to status or logs.
        named = "the variable named by api_key_env" if entry.api_key_env else str(key_name)
        attempts.append(Attempt(entry.model, "error:missing-key", f"{named} is not set"))
        return None
    reply = await _request(entry, key, messages, effort, should_cancel, env)
    if reply.rejects_reasoning and effort is not None:
        attempts.append(Attempt(entry.model, "error:reasoning-effort-rejected"))
        reply = await _request(entry, key, messages, None, should_cancel, env)
    if reply.error is not None:
        attempts.append(Attempt(entry.model, f"error:{reply.error}"))
        return None
    return reply


async def _request(entry: ModelEntry, key: str, messages: list[dict[str, Any]], effort: str | None,
                   should_cancel: Callable[[], bool] | None, env: Mapping[str, str]) -> _Reply:
    import openai  # ~0.5 s to import: only extraction pays for it

    if should_cancel is not None and should_cancel():
        raise Preempted(f"the agent is busy; extraction with {entry.model} postponed")
    kwargs: dict[str, Any] = {"model": entry.model, "messages": messages}
    fmt = response_format(entry.response_format)
    if fmt is not None:
        kwargs["response_format"] = fmt
    if effort is not None:
        kwargs["reasoning_effort"] = effort
    async with _client(openai, entry, key, env) as client:
        task = asyncio.ensure_future(client.chat.completions.create(**kwargs))
        deadline = time.monotonic() + entry.timeout + DEADLINE_GRACE_SECONDS
        while not task.done():
            await asyncio.wait({task}, timeout=POLL_SECONDS)
            if task.done():
                break
            if should_cancel is not None and should_cancel():
                await _cancel(task)
                raise Preempted(f"the agent became busy; the call to {entry.model} was cancelled")
            if time.monotonic() > deadline:
                await _cancel(task)  # a server trickling bytes can outlive the per-read timeout
                return _Reply(error="timeout")
        return _classify(openai, task)


def _client(openai: Any, entry: ModelEntry, key: str, env: Mapping[str, str]) -> Any:
    common = {"api_key": key, "timeout": entry.timeout, "max_retries": 0}
    if entry.base_url is None:
        return openai.AsyncOpenAI(base_url=env.get("OPENAI_BASE_URL") or OFFICIAL_BASE_URL, **common)
    # A custom endpoint gets nothing from the user's OpenAI environment but the key we chose.
    # openai.Omit (exported since 1.0) removes a default header from the request.
    headers = {"Authorization": f"Bearer {key}", "OpenAI-Organization": openai.Omit(),
               "OpenAI-Project": openai.Omit()}
    return openai.AsyncOpenAI(base_url=entry.base_url, default_headers=headers, **common)


async def _cancel(task: asyncio.Future[Any]) -> None:
    task.cancel()
    try:
        await asyncio.wait_for(asyncio.shield(task), timeout=POLL_SECONDS * 3)
    except (Exception, asyncio.CancelledError):  # noqa: BLE001 - its outcome no longer matters
        pass


def _classify(openai: Any, task: asyncio.Future[Any]) -> _Reply:
    """Turn a finished request into a reply or an error kind (ECOSYSTEM.md §5 lists the odd cases)."""
    exc = task.exception()
    if exc is not None:
        return _Reply(error=_error_kind(openai, exc), rejects_reasoning=_rejects_reasoning(openai, exc))
    completion = task.result()
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list):
        return _Reply(error="not-a-completion")  # e.g. a text/html page comes back as a str
    if not choices or getattr(choices[0], "message", None) is None:
        return _Reply(error="no-choices")
    return _Reply(content=_text(choices[0].message.content), usage=_usage(completion))


def _text(content: Any) -> str:
    """Message text; some compatible servers send a list of content parts instead of a string.

    A refusal has no content and is parsed as an empty reply; its text is not kept.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content
                       if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _error_kind(openai: Any, exc: BaseException) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection"
    if isinstance(exc, openai.RateLimitError):
        return "rate-limited"
    if isinstance(exc, openai.APIStatusError):
        return f"http-{exc.status_code}"
    if isinstance(exc, (openai.APIResponseValidationError, json.JSONDecodeError, ValueError)):
        return "invalid-response"  # includes a raw JSONDecodeError escaping create()
    if isinstance(exc, openai.OpenAIError):
        return "client"
    return f"unexpected-{type(exc).__name__}"


def _rejects_reasoning(openai: Any, exc: BaseException) -> bool:
    if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (400, 422):
        return False
    text = f"{exc.message} {json.dumps(exc.body, default=str) if exc.body is not None else ''}"
    return "reasoning" in text.lower()


def _usage(completion: Any) -> dict[str, Any] | None:
    usage = getattr(completion, "usage", None)
    if usage is None:
        return None
    try:
        dumped = usage.model_dump(exclude_none=True)
    except Exception:  # noqa: BLE001 - token counts are informational
        return None
    return dumped if isinstance(dumped, dict) else None


def _reason(head: str, attempts: list[Attempt]) -> str:
    parts = []
    for attempt in attempts:
        kind, _, detail = attempt.outcome.partition(":")
        text = f"unparseable ({detail})" if kind == "unparseable" else detail or kind
        if attempt.detail:
            text += f" ({attempt.detail})"
        parts.append(f"{attempt.model} {text}")
    reason = f"{head}: {', '.join(parts)}" if parts else head
    return reason if len(reason) <= REASON_LIMIT else reason[: REASON_LIMIT - 1] + "…"
