"""The extraction model's output object (SPEC "Model output"), validated strictly (R36).

Anything that is not exactly this object — not JSON, not an object, an unknown or a missing key at
any level, a wrong type — is *unparseable*: the pool resamples once and then fails the run. Whether
a well-formed candidate is worth keeping is not decided here; the guards do that afterwards.
"""
from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from chord_git.memory.promotions import TARGETS, Target
from chord_git.memory.records import RECORD_TYPES, SOURCES, STATUSES, RecordType, Source, Status

SCHEMA_NAME = "chord_memory"

# One fenced block around the whole reply, optionally tagged json; nothing before or after it.
_FENCE = re.compile(r"\A```[ \t]*(?:json)?[ \t]*\r?\n(?P<body>.*?)\r?\n?```\Z", re.DOTALL | re.IGNORECASE)
_NAME_LIMIT = 40


class UnparseableOutput(ValueError):
    """The model's reply is not the output object; ``reason`` is one line and holds no reply text."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class _Strict(BaseModel):
    # strict: no coercion (a number is not a string, "true" is not a bool); extra keys are errors.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class CandidateRecord(_Strict):
    type: RecordType
    summary: str
    statement: str
    why: str
    how_to_apply: str
    source: Source
    status: Status
    evidence: str | None
    supersedes: str | None


class Retirement(_Strict):
    id: str
    reason: str


class Promotion(_Strict):
    id: str | None
    target: Target
    path: str
    proposed_text: str
    reason: str


class ModelOutput(_Strict):
    records: tuple[CandidateRecord, ...]
    retire: tuple[Retirement, ...]
    promotions: tuple[Promotion, ...]


def parse_output(text: str) -> ModelOutput:
    """Parse a model reply into ``ModelOutput`` or raise ``UnparseableOutput`` with a short reason."""
    if not isinstance(text, str):
        raise UnparseableOutput(f"reply is {type(text).__name__}, not text")
    body = text.strip()
    if not body:
        raise UnparseableOutput("empty reply")
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    try:
        data = json.loads(body, object_pairs_hook=_no_duplicate_keys)
    except _DuplicateKey as exc:
        raise UnparseableOutput(f"duplicate key {_name(exc.key)}") from None
    except json.JSONDecodeError as exc:
        raise UnparseableOutput(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise UnparseableOutput("not JSON (nested too deeply)") from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise UnparseableOutput(f"not usable JSON ({str(exc).split(':')[0]})") from None
    if not isinstance(data, dict):
        raise UnparseableOutput(f"not a JSON object (got {_json_kind(data)})")
    try:
        # JSON mode: strict typing still applies, but JSON arrays are accepted for the tuples.
        return ModelOutput.model_validate_json(body)
    except ValidationError as exc:
        raise UnparseableOutput(_describe(exc)) from None


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(key)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _name(key: object) -> str:
    """A key from the reply, quoted and cut short: the reason must stay one line and reveal little."""
    text = "".join(ch if ch.isprintable() else "?" for ch in str(key))
    if len(text) > _NAME_LIMIT:
        text = text[: _NAME_LIMIT - 1] + "…"
    return f"'{text}'"


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the top level"


def _describe(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    first = errors[0]
    loc = tuple(first["loc"])
    if first["type"] == "extra_forbidden":
        reason = f"unknown field {_name(loc[-1])}" + (f" in {_where(loc[:-1])}" if len(loc) > 1 else "")
    elif first["type"] == "missing":
        reason = f"missing field {_name(loc[-1])}" + (f" in {_where(loc[:-1])}" if len(loc) > 1 else "")
    else:
        # pydantic's messages describe the expectation ("Input should be a valid string"), not the input.
        reason = f"bad value for {_where(loc)}: {first['msg'][:1].lower()}{first['msg'][1:]}"
    if len(errors) > 1:
        reason += f" (and {len(errors) - 1} more)"
    return reason


# ---------------------------------------------------------------------------- JSON schema
def _string(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _nullable_string(description: str) -> dict[str, Any]:
    return {"type": ["string", "null"], "description": description}


def _enum(values: tuple[str, ...], description: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(values), "description": description}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    # Strict structured output: every property required, nothing else allowed.
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}


def json_schema() -> dict[str, Any]:
    """The output schema for ``response_format={"type": "json_schema", ...}`` with ``strict: True``.

    Written out by hand (not generated) so it is stable byte for byte across pydantic versions,
    which keeps the request prefix cacheable; a test checks it against the models above.
    """
    record = _object({
        "type": _enum(RECORD_TYPES, "Kind of memory."),
        "summary": _string("One line, at most 160 characters: the index entry."),
        "statement": _string("The conclusion, at most 600 characters."),
        "why": _string("Why it is worth keeping across sessions."),
        "how_to_apply": _string("When and how a later session should use it."),
        "source": _enum(SOURCES, "Who said it."),
        "status": _enum(STATUSES, "stated or confirmed for the user's words; unverified otherwise."),
        "evidence": _nullable_string("The user's words, verbatim; required when source is user."),
        "supersedes": _nullable_string("Id of the record this one revises, or null."),
    })
    retirement = _object({
        "id": _string("Id of an index entry to remove."),
        "reason": _string("Why it should go."),
    })
    promotion = _object({
        "id": _nullable_string("Id of the index entry this promotes, or null for a new conclusion."),
        "target": _enum(TARGETS, "instructions (must always apply) or docs (useful, rarely needed)."),
        "path": _string("Project-relative file the text belongs in."),
        "proposed_text": _string("The text to add."),
        "reason": _string("Why it belongs there."),
    })
    return _object({
        "records": {"type": "array", "items": record},
        "retire": {"type": "array", "items": retirement},
        "promotions": {"type": "array", "items": promotion},
    })


def response_format(kind: str) -> dict[str, Any] | None:
    """The ``response_format`` request argument for a pool entry's setting (``None``: send none)."""
    if kind == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": json_schema()}}
    if kind == "json_object":
        return {"type": "json_object"}
    if kind == "none":
        return None
    raise ValueError(f"unknown response_format {kind!r}")
