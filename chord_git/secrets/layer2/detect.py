"""Layer 2 (R31): detect-secrets behind one adapter, the only module that imports it.

detect-secrets is imported inside the functions, only when there is something to scan, and
driven through its line-based plugin route (``scan._process_line_based_plugins``): default
plugins, no network verification, and the ``is_invalid_file`` filter disabled because it drops
paths that do not exist on disk (staged blobs, history). A project's ``.secrets.baseline`` is
honoured the way ``detect-secrets-hook`` does it: a finding is known when filename, type and
secret hash match. Every other finding is reported unless a named verdict of ``floor`` removes
it (a placeholder, a documentation example, a public IP address); each removal is returned with
its verdict, so ``--explain`` can show it. Values are used in memory only and never returned.

Pinned to ``detect-secrets==1.5.*`` because the plugin route is private API.
"""
from __future__ import annotations

import sys
import types
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...findings import Finding
from ..verdicts.allow import Allowances, value_hash
from ..verdicts.allow_patterns import without_pattern_filters
from . import floor
from .floor import Removal
from .kinds import kind_from_detect_secrets, secret_finding

_INVALID_FILE_FILTER = "detect_secrets.filters.common.is_invalid_file"
_ALLOWLIST_FILTER = "detect_secrets.filters.allowlist.is_line_allowlisted"
# Present in the filters of a baseline made by ``detect-secrets scan``: while it is on, every
# plugin calls its vendor's API to verify a match. A hook never touches the network.
_VERIFY_FILTER = "detect_secrets.filters.common.is_ignored_due_to_verification_policies"


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


# The modules of detect-secrets a scan needs, loaded while the stand-in is in place (those that
# import requests, or import modules that do). The baseline's own modules pull in
# multiprocessing and more: only a scan with a baseline loads them.
_CORE_MODULES = ("detect_secrets.core.scan", "detect_secrets.settings", "detect_secrets.filters.common",
                 "detect_secrets.core.plugins.util")
_BASELINE_MODULES = ("detect_secrets.core.baseline", "detect_secrets.core.secrets_collection")
# Each default plugin's module (detect_secrets/plugins/*.py), in the order of detect-secrets' own
# default settings. A scan imports only the modules of the plugins that can report on its lines
# (``prefilter.firing``): all 27 plugin modules are half of what importing detect-secrets costs
# a hook. ``tests/secrets/test_speed_key_blocks_and_plugins.py`` checks this table against the release.
PLUGIN_MODULES: dict[str, str] = {
    "ArtifactoryDetector": "artifactory", "AWSKeyDetector": "aws", "AzureStorageKeyDetector": "azure_storage_key",
    "BasicAuthDetector": "basic_auth", "CloudantDetector": "cloudant", "DiscordBotTokenDetector": "discord",
    "GitHubTokenDetector": "github_token", "GitLabTokenDetector": "gitlab_token",
    "Base64HighEntropyString": "high_entropy_strings", "HexHighEntropyString": "high_entropy_strings",
    "IbmCloudIamDetector": "ibm_cloud_iam", "IbmCosHmacDetector": "ibm_cos_hmac", "IPPublicDetector": "ip_public",
    "JwtTokenDetector": "jwt", "KeywordDetector": "keyword", "MailchimpDetector": "mailchimp", "NpmDetector": "npm",
    "OpenAIDetector": "openai", "PrivateKeyDetector": "private_key", "PypiTokenDetector": "pypi_token",
    "SendGridDetector": "sendgrid", "SlackDetector": "slack", "SoftlayerDetector": "softlayer",
    "SquareOAuthDetector": "square_oauth", "StripeDetector": "stripe", "TelegramBotTokenDetector": "telegram_token",
    "TwilioKeyDetector": "twilio",
}


def _package_without_init() -> None:
    """The ``detect_secrets`` package, set up without running its ``__init__``.

    That file only re-exports ``SecretsCollection``, whose module imports multiprocessing (with
    pickle, socket, threading): a tenth of what a scan's import of detect-secrets costs, for a
    class only a baseline needs. The name stays reachable: the package loads it when asked
    (``from detect_secrets import SecretsCollection``).
    """
    import importlib
    import importlib.util

    if "detect_secrets" in sys.modules:
        return
    spec = importlib.util.find_spec("detect_secrets")
    if spec is None or spec.loader is None:
        return  # not installed: the import that follows says so
    package = importlib.util.module_from_spec(spec)

    def exported(name: str) -> Any:
        if name == "SecretsCollection":
            return importlib.import_module("detect_secrets.core.secrets_collection").SecretsCollection
        raise AttributeError(f"module 'detect_secrets' has no attribute {name!r}")

    package.__getattr__ = exported  # type: ignore[method-assign]
    sys.modules["detect_secrets"] = package


def _load(names: Sequence[str]) -> None:
    """Import the modules ``names`` of detect-secrets without requests, or normally when that is
    not possible. Later calls load more of it under a new stand-in: nothing is imported twice."""
    import importlib

    missing = [name for name in names if name not in sys.modules]
    if not missing:
        return
    _package_without_init()
    if "requests" in sys.modules:  # already paid for by someone else
        for name in missing:
            importlib.import_module(name)
        return
    shim = _offline_requests()
    sys.modules["requests"] = shim
    try:
        for name in missing:
            importlib.import_module(name)
    except Exception:  # noqa: BLE001 - a release that needs more of requests: import it for real
        loaded = [n for n in sys.modules if n == "detect_secrets" or n.startswith("detect_secrets.")]
        for name in loaded:
            del sys.modules[name]
        del sys.modules["requests"]
        for name in [*loaded, *missing]:
            importlib.import_module(name)
    finally:
        if sys.modules.get("requests") is shim:
            del sys.modules["requests"]  # anyone else importing requests later gets the real one


def _import_detect_secrets(*, baseline: bool = False, all_plugins: bool = False) -> None:
    """Import what a scan needs of detect-secrets (once), with its baseline modules and every
    plugin module when asked (a baseline's custom plugins, the all-plugins anchor)."""
    _load(_CORE_MODULES + (_BASELINE_MODULES if baseline else ()))
    if all_plugins:
        _load([f"detect_secrets.plugins.{module}" for module in dict.fromkeys(PLUGIN_MODULES.values())])


_MAPPING = "get_mapping_from_secret_type_to_class"  # in detect_secrets.core.plugins.initialize


def _plugin_classes(names: Sequence[str]) -> dict[str, type]:
    """detect-secrets' mapping (secret type -> class) for the plugins ``names`` alone."""
    _load([f"detect_secrets.plugins.{PLUGIN_MODULES[name]}" for name in names])
    classes = [getattr(sys.modules[f"detect_secrets.plugins.{PLUGIN_MODULES[name]}"], name) for name in names]
    return {cls.secret_type: cls for cls in classes}


def _encodable(text: str) -> str:
    """Lone surrogates (from bytes decoded with ``surrogateescape``) would break its hashing."""
    return text.encode("utf-8", "replace").decode("utf-8")


def load_baseline(path: Path) -> dict[str, Any]:
    """The parsed baseline file, or InputError naming it."""
    _import_detect_secrets(baseline=True)
    from detect_secrets.core import baseline as ds_baseline
    from detect_secrets.exceptions import UnableToReadBaselineError

    try:
        return ds_baseline.load_from_file(str(path))
    except UnableToReadBaselineError as exc:
        raise InputError(path, None, f"cannot read detect-secrets baseline ({exc.__cause__ or exc})") from exc


@contextmanager
def _settings(baseline: dict[str, Any] | None, units: Sequence[Unit] | None = None) -> Iterator[None]:
    """detect-secrets' settings for a scan: default plugins, or the baseline's; with ``units``
    (the lines about to be scanned), only the plugins that can report on them (``prefilter.firing``),
    whose modules alone are imported: the findings are those of all the plugins, since the others
    find nothing on those lines."""
    from . import prefilter

    entries: list[Any] = [{"name": name} for name in PLUGIN_MODULES] if baseline is None else \
        list(baseline.get("plugins_used", []))
    names = [str(entry.get("name")) if isinstance(entry, dict) else "" for entry in entries]
    fired = None
    if units is not None and all(name in PLUGIN_MODULES and "path" not in entry for name, entry in zip(names, entries)):
        fired = prefilter.firing(names, [(path, [text for _, text in lines]) for path, lines in units],
                                 {name: entry for name, entry in zip(names, entries)})
    _import_detect_secrets(baseline=baseline is not None, all_plugins=fired is None)
    from detect_secrets.core.plugins import initialize
    from detect_secrets.settings import get_filters, get_settings, transient_settings

    config: dict[str, Any] = {
        "plugins_used": entries if fired is None else [e for n, e in zip(names, entries) if n in fired]}
    if baseline is not None:
        # Its regex filters are ours to apply (``allow``, on a linear-time engine).
        config["filters_used"] = without_pattern_filters(baseline)
    # detect-secrets finds a plugin's class in a mapping that imports every plugin module; the
    # chosen plugins' own mapping stands in for it while this scan runs.
    full_mapping = getattr(initialize, _MAPPING)
    if fired is not None:
        chosen = _plugin_classes(fired)
        setattr(initialize, _MAPPING, lambda: chosen)
    try:
        with transient_settings(config):
            # Our allowances (``allow``) apply the pragmas to both layers by the real line numbers;
            # detect-secrets' filter would see renumbered lines.
            get_settings().disable_filters(_INVALID_FILE_FILTER, _ALLOWLIST_FILTER, _VERIFY_FILTER)
            get_filters.cache_clear()
            try:
                yield
            finally:
                get_filters.cache_clear()
    finally:
        setattr(initialize, _MAPPING, full_mapping)


def _known_secrets(baseline: dict[str, Any] | None) -> Any:
    if baseline is None:
        return None
    _import_detect_secrets(baseline=True)
    from detect_secrets.core.secrets_collection import SecretsCollection

    try:
        return SecretsCollection.load_from_baseline(baseline)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(".secrets.baseline", None, f"malformed detect-secrets baseline ({exc})") from exc


def _verdict(line: str, value: str | None, kind: str, blocks: KeyBlocks) -> str | None:
    """The named verdict (``floor.VERDICTS``) that removes this finding, or None: it is reported."""
    if kind == "private-key":
        return "placeholder" if blocks.is_placeholder(line) else None
    return floor.value_verdict(line, value, kind)


class KeyBlocks:
    """The private-key blocks of one unit's text, read when first asked about.

    detect-secrets reports every BEGIN line of a file, and each report asks about the same text:
    read once per unit, not once per report (2,500 BEGIN lines read 68 KiB 2,500 times: seconds).
    """

    def __init__(self, context: str) -> None:
        self.context = context
        self._blocks: tuple[list[int], list[int]] | None = None

    def is_placeholder(self, line: str) -> bool:
        """Whether the block ``line`` begins holds no key: detect-secrets only reports its BEGIN line."""
        if self._blocks is None:
            from ..scanners import formats

            spans = formats.private_keys(self.context, self.context)
            self._blocks = ([s.start for s in spans], [s.end for s in spans])
        starts, ends = self._blocks
        start = self.context.find(line)
        # Is there a block with start <= high and end >= start? Blocks follow one another, so the
        # last one starting at or before ``high`` has the largest end of those that do.
        last = bisect_right(starts, max(start, 0) + len(line)) - 1
        return not (last >= 0 and ends[last] >= start)


BaselinedSpans = dict[int, list[tuple[int, int]]]  # line -> spans of baselined values on it
Unit = tuple[str, Sequence[tuple[int, str]]]  # a path and its added lines; paths may repeat (history)


def scan_units(
    units: Sequence[Unit], baseline: dict[str, Any] | None, contexts: Sequence[str | None] | None = None,
    allowed: Sequence[Allowances | None] | None = None, ignored_hashes: frozenset[str] = frozenset(),
) -> tuple[list[list[Finding]], list[BaselinedSpans], list[list[Removal]]]:
    """Per unit: layer-2 findings after the baseline, the project's allowances (``allowed``, one
    per unit), the ignored value hashes and the verdicts of ``floor``; where on which line the
    values layer 2 matched against the baseline sit; and each finding removed, with its verdict.

    The second result lets layer 1 accept those values too (one baseline entry covers both
    layers) without accepting anything else on the line. A unit's lines may be the part the
    prefilter kept (line number 0 marks a gap); its ``contexts`` entry then holds the whole text,
    where a private key's block is looked at. detect-secrets' settings are built once for all units.
    """
    _import_detect_secrets()
    from detect_secrets.core import scan

    found: list[list[Finding]] = []
    accepted: list[BaselinedSpans] = []
    removed: list[list[Removal]] = []
    with _settings(baseline, units):
        known = _known_secrets(baseline)
        for number, (path, lines) in enumerate(units):
            hits: dict[tuple[int, str], list[str]] = {}  # (line, kind) -> the hashes of its values
            left_out: dict[tuple[int, str], str] = {}  # (line, kind) -> verdict
            baselined: BaselinedSpans = {}
            allow = allowed[number] if allowed else None
            if lines:
                # Renumbered 1..n so detect-secrets' context window holds the neighbouring added
                # lines; the real numbers are restored below.
                numbered = [(i, _encodable(text)) for i, (_, text) in enumerate(lines, start=1)]
                whole = contexts[number] if contexts else None
                context = _encodable(whole) if whole is not None else "\n".join(text for _, text in numbered)
                blocks = KeyBlocks(context)
                for secret in scan._process_line_based_plugins(lines=numbered, filename=path):
                    real_line = lines[secret.line_number - 1][0]
                    text = numbered[secret.line_number - 1][1]
                    kind = kind_from_detect_secrets(secret.type)
                    value = floor.reported_value(text, secret.secret_value or "", kind)
                    start = text.find(value) if value else -1
                    span = (start, start + len(value)) if start >= 0 else (0, len(text))
                    if known is not None and secret in known[path]:
                        baselined.setdefault(real_line, []).append(span)
                        verdict: str | None = "baseline"
                    elif secret.secret_hash in ignored_hashes or (value and value_hash(value) in ignored_hashes):
                        verdict = "ignore-file"
                    elif allow and allow.allows(real_line, *span, value):
                        verdict = "allowed"
                    else:
                        verdict = _verdict(text, value, kind, blocks)
                    if verdict is None:
                        known_hashes = hits.setdefault((real_line, kind), [])
                        if secret.secret_hash not in known_hashes:
                            known_hashes.append(secret.secret_hash)
                    else:
                        left_out.setdefault((real_line, kind), verdict)
            found.append([secret_finding(path, line, kind, value_hashes=tuple(hits[line, kind]))
                          for line, kind in sorted(hits)])
            accepted.append(baselined)
            # A kind reported on a line is not also "removed" there by another of its values.
            removed.append([Removal(path, line, kind, verdict) for (line, kind), verdict in sorted(left_out.items())
                            if (line, kind) not in hits])
    return found, accepted, removed


def scan_with_baseline(
    added: Mapping[str, Sequence[tuple[int, str]]], baseline: dict[str, Any] | None,
    allowed: Mapping[str, Allowances] | None = None, ignored_hashes: frozenset[str] = frozenset(),
    contexts: Mapping[str, str] | None = None,
) -> tuple[list[Finding], dict[str, BaselinedSpans]]:
    """``scan_units`` for files named once each: all findings, and the baselined spans per path."""
    units = list(added.items())
    found, accepted, _removed = scan_units(
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
