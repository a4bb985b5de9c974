"""Layer 2 (R31): detect-secrets behind one adapter, the only module that imports it.

detect-secrets is imported inside the functions, only when there is something to scan, and
driven through its line-based plugin route (``scan._process_line_based_plugins``): default
plugins, no network verification, and the ``is_invalid_file`` filter disabled because it drops
paths that do not exist on disk (staged blobs, history). A project's ``.secrets.baseline`` is
honoured the way ``detect-secrets-hook`` does it: a finding is known when filename, type and
secret hash match. Every finding then passes through our benign filter (``benign``) with its
value, which is used in memory only and never returned.

Pinned to ``detect-secrets==1.5.*`` because the plugin route is private API.
"""
from __future__ import annotations

import sys
import types
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...findings import Finding
from ..verdicts import benign
from ..verdicts.allow import Allowances
from ..verdicts.allow_patterns import without_pattern_filters
from ..verdicts.examples import is_documentation_example
from .kinds import kind_from_detect_secrets, secret_finding

_INVALID_FILE_FILTER = "detect_secrets.filters.common.is_invalid_file"
_ALLOWLIST_FILTER = "detect_secrets.filters.allowlist.is_line_allowlisted"
# Not credentials: an address in a memory note is not something to rotate.
_IGNORED_KINDS = frozenset({"public-ip"})


class NetworkDisabled(OSError):
    """What a network call from inside detect-secrets raises here: a hook never verifies online."""


def _offline_requests() -> types.ModuleType:
    """A stand-in for ``requests`` while detect-secrets is imported.

    detect-secrets imports requests in every plugin module, only to verify findings over the
    network, which this tool never does (no hook may touch the network). Importing requests
    costs about 100 ms, three quarters of detect-secrets' import and more than the rest of a
    hook run, so its modules get this stand-in: the names they use at import time, and calls
    that fail with ``NetworkDisabled``.
    """
    shim = types.ModuleType("requests", "chord-git: network verification is disabled")

    def refuse(*args: object, **kwargs: object) -> None:
        raise NetworkDisabled("detect-secrets tried to verify a secret over the network; chord-git never does")

    exceptions = types.ModuleType("requests.exceptions")
    exceptions.RequestException = type("RequestException", (OSError,), {})  # type: ignore[attr-defined]
    shim.exceptions = exceptions  # type: ignore[attr-defined]
    shim.Response = type("Response", (), {})  # type: ignore[attr-defined]
    shim.get = shim.post = shim.request = refuse  # type: ignore[attr-defined]
    return shim


# Every module of detect-secrets that imports requests, loaded while the stand-in is in place.
_DETECT_SECRETS_MODULES = ("detect_secrets.core.scan", "detect_secrets.core.baseline",
                           "detect_secrets.core.secrets_collection", "detect_secrets.settings",
                           "detect_secrets.filters.common", "detect_secrets.core.plugins.util")


def _import_detect_secrets() -> None:
    """Import detect-secrets (once) without requests, or normally when that is not possible."""
    import importlib

    if "detect_secrets.core.scan" in sys.modules:
        return
    if "requests" in sys.modules:  # already paid for by someone else
        for name in _DETECT_SECRETS_MODULES:
            importlib.import_module(name)
        return
    shim = _offline_requests()
    sys.modules["requests"] = shim
    try:
        for name in _DETECT_SECRETS_MODULES:
            importlib.import_module(name)
        # Plugin modules load on first use; load them all now, under the stand-in.
        importlib.import_module("detect_secrets.core.plugins.util").get_mapping_from_secret_type_to_class()
    except Exception:  # noqa: BLE001 - a release that needs more of requests: import it for real
        for name in [n for n in sys.modules if n == "detect_secrets" or n.startswith("detect_secrets.")]:
            del sys.modules[name]
        del sys.modules["requests"]
        for name in _DETECT_SECRETS_MODULES:
            importlib.import_module(name)
    finally:
        if sys.modules.get("requests") is shim:
            del sys.modules["requests"]  # anyone else importing requests later gets the real one


def _encodable(text: str) -> str:
    """Lone surrogates (from bytes decoded with ``surrogateescape``) would break its hashing."""
    return text.encode("utf-8", "replace").decode("utf-8")


def load_baseline(path: Path) -> dict[str, Any]:
    """The parsed baseline file, or InputError naming it."""
    _import_detect_secrets()
    from detect_secrets.core import baseline as ds_baseline
    from detect_secrets.exceptions import UnableToReadBaselineError

    try:
        return ds_baseline.load_from_file(str(path))
    except UnableToReadBaselineError as exc:
        raise InputError(path, None, f"cannot read detect-secrets baseline ({exc.__cause__ or exc})") from exc


@contextmanager
def _settings(baseline: dict[str, Any] | None) -> Iterator[None]:
    _import_detect_secrets()
    from detect_secrets.settings import (
        default_settings,
        get_filters,
        get_settings,
        transient_settings,
    )

    if baseline is None:
        context = default_settings()
    else:
        context = transient_settings({
            "plugins_used": baseline.get("plugins_used", []),
            # Its regex filters are ours to apply (``allow``, on a linear-time engine).
            "filters_used": without_pattern_filters(baseline),
        })
    with context:
        # Our allowances (``allow``) apply the pragmas to both layers by the real line numbers;
        # detect-secrets' filter would see renumbered lines.
        get_settings().disable_filters(_INVALID_FILE_FILTER, _ALLOWLIST_FILTER)
        get_filters.cache_clear()
        try:
            yield
        finally:
            get_filters.cache_clear()


def _known_secrets(baseline: dict[str, Any] | None) -> Any:
    if baseline is None:
        return None
    _import_detect_secrets()
    from detect_secrets.core.secrets_collection import SecretsCollection

    try:
        return SecretsCollection.load_from_baseline(baseline)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(".secrets.baseline", None, f"malformed detect-secrets baseline ({exc})") from exc


# Kinds whose ``secret_value`` is the value itself. Regex plugins with a capture group report
# only the group (the GitHub plugin reports "ghp"), which says nothing about the value.
_VALUE_KINDS = frozenset({"secret-keyword", "high-entropy-string", "url-credentials"})


def _value_is_benign(line: str, value: str | None, kind: str, context: str) -> bool:
    if kind in _IGNORED_KINDS:
        return True
    if kind == "private-key":
        return _private_key_is_placeholder(context, line)
    if value is None or (kind not in _VALUE_KINDS and len(value) < 8):
        return False
    if is_documentation_example(value):
        return True
    if kind == "high-entropy-string" and _assigned_to_plain_name(line, value):
        return True
    return benign.is_benign_in_line(line, value)


def _assigned_to_plain_name(line: str, value: str) -> bool:
    """Entropy alone is no reason when the value sits under a name that is not secret-like.

    ``signature = "…"``, ``wrongStart := "…"`` and HTML attributes hold random-looking values
    by nature; a quoted string with no key, or under ``token``/``secret``/…, still counts.
    """
    from ..words.keys import classify_key

    start = line.find(value)
    key = benign.assigned_key(line, start) if start >= 0 else ""
    return bool(key) and classify_key(key) is None


def _private_key_is_placeholder(context: str, line: str) -> bool:
    """Look at the whole block: detect-secrets only reports its BEGIN line."""
    from ..scanners import formats

    start = context.find(line)
    spans = formats.private_keys(context, context)
    return not any(s.start <= max(start, 0) + len(line) and s.end >= start for s in spans)


BaselinedSpans = dict[int, list[tuple[int, int]]]  # line -> spans of baselined values on it
Unit = tuple[str, Sequence[tuple[int, str]]]  # a path and its added lines; paths may repeat (history)


def scan_units(
    units: Sequence[Unit], baseline: dict[str, Any] | None, contexts: Sequence[str | None] | None = None,
    allowed: Sequence[Allowances | None] | None = None, ignored_hashes: frozenset[str] = frozenset(),
) -> tuple[list[list[Finding]], list[BaselinedSpans]]:
    """Per unit: layer-2 findings after the baseline, the project's allowances (``allowed``, one
    per unit), the ignored value hashes and the benign filter; and where on which line the values
    layer 2 matched against the baseline sit.

    The second result lets layer 1 accept those values too (one baseline entry covers both
    layers) without accepting anything else on the line. A unit's lines may be the part the
    prefilter kept (line number 0 marks a gap); its ``contexts`` entry then holds the whole text,
    where a private key's block is looked at. detect-secrets' settings are built once for all units.
    """
    _import_detect_secrets()
    from detect_secrets.core import scan

    found: list[list[Finding]] = []
    accepted: list[BaselinedSpans] = []
    with _settings(baseline):
        known = _known_secrets(baseline)
        for number, (path, lines) in enumerate(units):
            hits: set[tuple[int, str]] = set()
            baselined: BaselinedSpans = {}
            allow = allowed[number] if allowed else None
            if lines:
                # Renumbered 1..n so detect-secrets' context window holds the neighbouring added
                # lines; the real numbers are restored below.
                numbered = [(i, _encodable(text)) for i, (_, text) in enumerate(lines, start=1)]
                whole = contexts[number] if contexts else None
                context = _encodable(whole) if whole is not None else "\n".join(text for _, text in numbered)
                for secret in scan._process_line_based_plugins(lines=numbered, filename=path):
                    real_line = lines[secret.line_number - 1][0]
                    text = numbered[secret.line_number - 1][1]
                    value = secret.secret_value or ""
                    start = text.find(value) if value else -1
                    span = (start, start + len(value)) if start >= 0 else (0, len(text))
                    if known is not None and secret in known[path]:
                        baselined.setdefault(real_line, []).append(span)
                        continue
                    if secret.secret_hash in ignored_hashes or (allow and allow.allows(real_line, *span, value)):
                        continue
                    kind = kind_from_detect_secrets(secret.type)
                    if _value_is_benign(text, secret.secret_value, kind, context):
                        continue
                    hits.add((real_line, kind))
            found.append([secret_finding(path, line, kind) for line, kind in sorted(hits)])
            accepted.append(baselined)
    return found, accepted


def scan_with_baseline(
    added: Mapping[str, Sequence[tuple[int, str]]], baseline: dict[str, Any] | None,
    allowed: Mapping[str, Allowances] | None = None, ignored_hashes: frozenset[str] = frozenset(),
    contexts: Mapping[str, str] | None = None,
) -> tuple[list[Finding], dict[str, BaselinedSpans]]:
    """``scan_units`` for files named once each: all findings, and the baselined spans per path."""
    units = list(added.items())
    found, accepted = scan_units(
        units, baseline, [contexts.get(path) for path, _ in units] if contexts else None,
        [allowed.get(path) for path, _ in units] if allowed else None, ignored_hashes)
    return ([finding for per_unit in found for finding in per_unit],
            {path: spans for (path, _), spans in zip(units, accepted) if spans})


def detect_secrets_only(added: Mapping[str, Sequence[tuple[int, str]]]) -> list[Finding]:
    """detect-secrets alone: default plugins, same line route, no baseline, no benign filter.

    The anchor the benchmarks compare both layers against.
    """
    if not any(added.values()):
        return []
    _import_detect_secrets()
    from detect_secrets.core import scan

    hits: set[tuple[str, int, str]] = set()
    with _settings(None):
        for path, lines in added.items():
            numbered = [(i, _encodable(text)) for i, (_, text) in enumerate(lines, start=1)]
            for secret in scan._process_line_based_plugins(lines=numbered, filename=path):
                real_line = lines[secret.line_number - 1][0]
                hits.add((path, real_line, kind_from_detect_secrets(secret.type)))
    return [secret_finding(*hit) for hit in sorted(hits)]
