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
import re
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
    model: str  # as shown: a name that looks like a key is replaced (``shown_model``)
    outcome: str  # "ok" | "error:<kind>" | "unparseable:<reason>"
    detail: str = ""  # e.g. the name of an unset key variable; never request content or a key
    endpoint: str = ""  # the base URL asked, without user info, query or fragment


class PoolFailed(ExtractionFailed):
    """No entry gave a usable reply; ``attempts`` say why, one by one (``cause`` shortens them)."""

    def __init__(self, reason: str, attempts: Sequence[Attempt]) -> None:
        super().__init__(reason)
        self.attempts = tuple(attempts)


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
    cause: str = ""  # what the transport said (``[Errno 111] Connection refused``), redacted


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
            attempts.append(Attempt(shown_model(entry.model), f"unparseable:{exc.reason}",
                                    endpoint=endpoint(entry, env)))
            unparseable += 1
            if unparseable >= MAX_UNPARSEABLE:
                reason = _reason("unparseable reply, and the resample failed too", attempts)
                raise PoolFailed(reason, attempts) from None
            if index < len(entries) - 1:
                index += 1
            continue  # last entry: the resample goes to the same model
        attempts.append(Attempt(shown_model(entry.model), "ok", endpoint=endpoint(entry, env)))
        return PoolResult(output, entry.model, tuple(attempts), reply.content or "", reply.usage)
    raise PoolFailed(_reason(f"no model answered ({len(entries)} tried)", attempts), attempts)


async def _ask_entry(entry: ModelEntry, messages: list[dict[str, Any]], effort: str | None,
                     should_cancel: Callable[[], bool] | None, env: Mapping[str, str],
                     attempts: list[Attempt]) -> _Reply | None:
    """One entry's reply, or None after recording why it gave none."""
    model, where = shown_model(entry.model), endpoint(entry, env)
    key_name = entry.api_key_env or (None if entry.base_url else "OPENAI_API_KEY")
    key = env.get(key_name) if key_name else PLACEHOLDER_KEY
    if not key:
        # The variable's name comes from the config: config values are never written to status or logs.
        named = "the variable named by api_key_env" if entry.api_key_env else str(key_name)
        attempts.append(Attempt(model, "error:missing-key", f"{named} is not set", where))
        return None
    reply = await _request(entry, key, messages, effort, should_cancel, env)
    if reply.rejects_reasoning and effort is not None:
        attempts.append(Attempt(model, "error:reasoning-effort-rejected", endpoint=where))
        reply = await _request(entry, key, messages, None, should_cancel, env)
    if reply.error is not None:
        cause = f"after {entry.timeout:g} s" if reply.error == "timeout" else reply.cause
        attempts.append(Attempt(model, f"error:{reply.error}", cause, where))
        return None
    return reply


async def _request(entry: ModelEntry, key: str, messages: list[dict[str, Any]], effort: str | None,
                   should_cancel: Callable[[], bool] | None, env: Mapping[str, str]) -> _Reply:
    import openai  # ~0.5 s to import: only extraction pays for it

    if should_cancel is not None and should_cancel():
        raise Preempted(f"the agent is busy; extraction with {shown_model(entry.model)} postponed")
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
                raise Preempted(f"the agent became busy; the call to {shown_model(entry.model)} was cancelled")
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
        kind = _error_kind(openai, exc)
        # Only a connection error's cause adds to its kind; an HTTP error's repeats the status.
        return _Reply(error=kind, rejects_reasoning=_rejects_reasoning(openai, exc),
                      cause=_cause(exc) if kind == "connection" else "")
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


# What each error kind means to the user; the transport's own words follow in parentheses.
_CAUSES = {
    "timeout": "no reply",
    "connection": "cannot connect",
    "rate-limited": "rate-limited (HTTP 429)",
    "not-a-completion": "the reply is not a chat completion (wrong endpoint?)",
    "no-choices": "the reply holds no answer",
    "invalid-response": "the reply is not valid JSON",
    "client": "the client refused the request",
    "missing-key": "no key",
    "reasoning-effort-rejected": "the server rejected reasoning_effort; retried without it",
}
_HTTP = {400: "bad request", 401: "the key was refused", 403: "forbidden", 404: "no such model or endpoint",
         408: "request timeout", 413: "request too large", 422: "request rejected", 500: "server error",
         502: "bad gateway", 503: "server unavailable", 504: "gateway timeout"}
_NAME_RUNS = re.compile(r"[A-Za-z0-9]+")
HIDDEN_MODEL = "<a model name that looks like a key, not shown>"


def _looks_like_key(text: str) -> bool:
    from chord_git.secrets import find
    from chord_git.secrets.verdicts.shapes import looks_random

    return bool(find(text)) or any(len(run) >= 16 and looks_random(run) for run in _NAME_RUNS.findall(text))


def shown_model(name: str) -> str:
    """The model's name as reasons and logs show it: a key pasted as a model name is never echoed."""
    return HIDDEN_MODEL if _looks_like_key(name) else name


def endpoint(entry: ModelEntry, env: Mapping[str, str]) -> str:
    """The base URL an entry is sent to, as reasons show it: no user info, query or fragment."""
    from urllib.parse import urlsplit, urlunsplit

    url = entry.base_url or env.get("OPENAI_BASE_URL") or OFFICIAL_BASE_URL
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "an unreadable base URL"
    if ":" in host:
        host = f"[{host}]"
    shown = urlunsplit((parts.scheme, host + port, parts.path, "", ""))
    return "a base URL that looks like a key, not shown" if _looks_like_key(shown) else shown


def _cause(exc: BaseException) -> str:
    """The transport's one-line explanation (the connection error under an APIConnectionError)."""
    inner = str(exc.__cause__ or "").strip()
    text = inner.splitlines()[0] if inner else ""
    if not text or len(text) > 120:
        return ""
    from chord_git.secrets import redact

    return redact(text)


def _describe(attempt: Attempt) -> str:
    kind, _, detail = attempt.outcome.partition(":")
    if kind == "unparseable":
        text = f"unparseable reply ({detail})"
    elif detail.startswith("http-") and detail[5:].isdigit():
        status = int(detail[5:])
        text = f"HTTP {status}" + (f" ({_HTTP[status]})" if status in _HTTP else "")
    else:
        text = _CAUSES.get(detail, detail or kind)
    if attempt.detail:
        text += f" ({attempt.detail})"
    where = f" at {attempt.endpoint}" if attempt.endpoint else ""
    return f"{attempt.model}{where}: {text}"


def _reason(head: str, attempts: list[Attempt]) -> str:
    """``no model answered (2 tried): m1 at http://…/v1: cannot connect (…); m2 at …: HTTP 500 (…)``."""
    parts = [_describe(attempt) for attempt in attempts]
    reason = f"{head}: {'; '.join(parts)}" if parts else head
    return reason if len(reason) <= REASON_LIMIT else reason[: REASON_LIMIT - 1] + "…"


# The short cause of each error kind, as a badge leads with it (``cause``).
_SHORT = {"connection": "cannot connect to the model", "timeout": "no reply from the model",
          "not-a-completion": "reply is not a chat completion (wrong endpoint?)",
          "invalid-response": "reply is not valid JSON", "no-choices": "reply holds no answer"}


def _short(attempt: Attempt) -> str | None:
    """One attempt's cause without its endpoint; None for a step that is not a failure."""
    kind, _, detail = attempt.outcome.partition(":")
    if kind == "ok" or detail == "reasoning-effort-rejected":
        return None
    if kind == "unparseable":
        if detail.startswith("not JSON") or detail.startswith("not usable JSON"):
            return "model reply not JSON"
        if detail == "empty reply":
            return "model reply empty"
        return f"model reply unusable ({detail})"
    if detail == "missing-key":
        return attempt.detail.replace(" is not set", " not set") or "no key"
    if detail.startswith("http-") and detail[5:].isdigit():
        status = int(detail[5:])
        if status == 401:
            return "key refused (HTTP 401)"
        return f"HTTP {status}" + (f" ({_HTTP[status]})" if status in _HTTP else "")
    return _SHORT.get(detail) or _CAUSES.get(detail, detail or kind)


def cause(attempts: Sequence[Attempt]) -> str:
    """The failure as a badge says it, cause first and without endpoints: ``model reply not JSON
    (m1, m2)``, ``OPENAI_API_KEY not set``; several causes in the order they happened (pure)."""
    models: dict[str, list[str]] = {}
    for attempt in attempts:
        short = _short(attempt)
        if short is not None and attempt.model not in models.setdefault(short, []):
            models[short].append(attempt.model)
    # A missing key names its variable, which says more than the model names would.
    parts = [short if short.endswith(" not set") else f"{short} ({', '.join(names)})"
             for short, names in models.items()]
    return "; ".join(parts) or "no model answered"
