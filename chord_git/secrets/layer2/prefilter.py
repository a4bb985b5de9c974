"""Which added lines layer 2 needs to see: a cheap, sound prefilter for detect-secrets' plugins.

detect-secrets spends about 0.3 ms on every line it reads (27 plugins, a dozen filters, Python
calls all the way), and importing it costs more than the rest of the hook. Most lines of a memory
file cannot hold anything its plugins report, and that can be decided by a few regular
expressions over the whole text: each plugin below has a *necessary condition*, something every
line it reports contains (a literal prefix, a keyword, a quoted run long enough to reach the
entropy limit). A line that meets none of them goes to layer 1 only; when no line of a commit
meets one, detect-secrets is not even imported.

Sound by construction, checked by tests: every plugin of detect-secrets' default settings has a
condition here (``tests/secrets/test_prefilter.py`` fails on a detect-secrets release that adds
one), and on the shared corpora and random lines every line detect-secrets reports passes.
Settings this module cannot reason about (a baseline with custom plugins or filters, an unknown
plugin) turn the prefilter off: layer 2 then reads every line, as before.

Every pattern is linear: literals, bounded runs, and unbounded runs only from the start of a run.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chord_git.support.dataclass_lazy import dataclass

Lines = Sequence[tuple[int, str]]

# detect_secrets/plugins/keyword.py DENYLIST (the keyword must be followed by an assignment; for
# most file types, by a quoted value). Every word holds one of the cores below.
_KEYWORDS = re.compile(
    r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key|"
    r"client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret|contraseña|contrasena",
    re.IGNORECASE)
_KEYWORD_CORES = (b"key", b"pass", b"pwd", b"secret", b"contrase")
# File types whose keyword rules do not require a quoted value (detect_secrets/util/filetype.py
# and REGEX_BY_FILETYPE in keyword.py: Go, YAML, config, INI, properties, TOML).
UNQUOTED_KEYWORD_EXTENSIONS = frozenset({
    ".go", ".yaml", ".yml", ".eyaml", ".cnf", ".conf", ".cfg", ".cf", ".ini", ".properties", ".toml",
})
_QUOTES = re.compile(r"['\"`]")


@dataclass(frozen=True)
class Probe:
    """One plugin's condition: a literal ``core`` found by a byte search (in the lower-cased text
    when ``lower``), then, on that core's line, ``verify`` (when given) must match. Patterns are
    compiled on first use (``re`` keeps them): most never are, and a hook pays for every compile."""

    cores: tuple[bytes, ...]
    lower: bool = False
    verify: str | None = None

    def check(self, line: str) -> bool:
        return self.verify is None or re.search(self.verify, line, re.IGNORECASE if self.lower else 0) is not None


def _probe(cores: str, verify: str | None = None, *, lower: bool = False) -> Probe:
    return Probe(tuple(c.encode() for c in cores.split()), lower, verify)


# A line may hold a finding of the plugin named only if it contains one of the probe's cores
# (each core is part of every match of the plugin's patterns) and matches its check.
_PROBES: dict[str, tuple[Probe, ...]] = {
    "ArtifactoryDetector": (_probe("AKC AP", r"AKC[a-zA-Z0-9]{10}|AP[0-9A-F][a-zA-Z0-9]{8}"),),
    # Both checks are the plugin's own patterns (detect_secrets/plugins/aws.py), same flags.
    "AWSKeyDetector": (_probe("A3T ABIA ACCA AKIA ASIA", r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}"),
                       _probe("aws", r"aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?['\"][0-9a-zA-Z/+]{40}['\"]",
                              lower=True)),
    "AzureStorageKeyDetector": (_probe("AccountKey="),),
    "CloudantDetector": (_probe("cl", r"cl(?:oudant|ou)?[_-]?(?:api)?(?:key|pwd|pw|pass|token)|cloudant\.com",
                                lower=True),),
    "DiscordBotTokenDetector": (_probe(".", r"\.[a-zA-Z0-9_-]{6}\.[a-zA-Z0-9_-]{27}"),),
    "GitHubTokenDetector": (_probe("ghp_ gho_ ghu_ ghs_ ghr_"),),
    "GitLabTokenDetector": (_probe("glpat- gldt- glft- glsoat- glrt- glcbt- glimt- glptt- glagent- gloas- GR1348941"),),
    "IbmCosHmacDetector": (_probe("secret", r"secret[-_]?(?:access)?[-_]?key", lower=True),),
    "JwtTokenDetector": (_probe("eyJ"),),
    "MailchimpDetector": (_probe("-us", r"-us[0-9]"),),
    "NpmDetector": (_probe(":_authtoken=", lower=True),),
    "OpenAIDetector": (_probe("T3BlbkFJ"),),
    # The plugin's seven "BEGIN … PRIVATE KEY" lines in one pattern, and PuTTY's.
    "PrivateKeyDetector": (_probe("PRIVATE", r"BEGIN (?:DSA |EC |OPENSSH |PGP |RSA |SSH2 ENCRYPTED )?PRIVATE KEY"),
                           _probe("PuTTY-User-Key-File-2")),
    "PypiTokenDetector": (_probe("pypi-AgE"),),
    "SendGridDetector": (_probe("SG.", r"SG\.[a-zA-Z0-9_-]{22}\."),),
    "SlackDetector": (_probe("xox", r"xox[abposr]-", lower=True), _probe("hooks.slack.com/services/")),
    # "softlayer" holds no "sl": each is a core of its own (the plugin's prefix is either), and
    # its assignment rule allows a "_" or "-" after "api" too ("sl_api_key").
    "SoftlayerDetector": (_probe("sl softlayer", r"softlayer|sl[_-]?(?:api)?[_-]?(?:key|pwd|pass|token)",
                                 lower=True),),
    "SquareOAuthDetector": (_probe("sq0csp-"),),
    "StripeDetector": (_probe("k_live_", r"[rs]k_live_"),),
    "TwilioKeyDetector": (_probe("AC SK", r"(?:AC|SK)[a-z0-9]{32}"),),
}
# Conditions on runs of characters, found in a translated copy of the text (see ``_Runs``).
_IAM = "IbmCloudIamDetector"  # a 44-character run of [a-zA-Z0-9_-]
_TELEGRAM = "TelegramBotTokenDetector"  # 8 digits, ':', then 35 characters of [0-9A-Za-z_-]
_TELEGRAM_VERIFY = re.compile(r"[0-9]{8}:[0-9A-Za-z_-]{35}")
_IP = "IPPublicDetector"
_IP_PATTERN = re.compile(r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
_KEYWORD = "KeywordDetector"
_BASIC_AUTH = "BasicAuthDetector"  # '://' with an '@' after it on the line
_HIGH_ENTROPY = {"Base64HighEntropyString": 4.5, "HexHighEntropyString": 3.0}  # default limits
KNOWN_PLUGINS = frozenset(_PROBES) | {_IAM, _TELEGRAM, _IP, _KEYWORD, _BASIC_AUTH} | frozenset(_HIGH_ENTROPY)

_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
# Translation tables for conditions on runs: [a-zA-Z0-9_-] -> 'a' (a 44-character run is one byte
# search), digits -> 'd' (eight in a row); everything else becomes a space.
_TOKEN_CHARS = bytes(ord("a") if chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_-") else 32 for c in range(256))
_DIGITS = bytes(ord("d") if 48 <= c <= 57 else 32 for c in range(256))
_BASE64_RUN = r"[A-Za-z0-9+/\\=_-]"  # Base64HighEntropyString's charset (hex digits are a subset)


def _min_length(limit: float) -> int:
    """The shortest string whose Shannon entropy can exceed ``limit`` bits: log2(n) > limit."""
    return max(1, math.floor(2 ** limit) + 1)


class _Text:
    """Added lines (of one or many files) joined, the views the probes search, and line lookup."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        joined = "\n".join(texts)
        self.joined = joined
        self.raw = joined.encode("ascii", "replace")  # same offsets as ``joined``: one byte per character
        self._lower: bytes | None = None
        self.starts = [0]
        for text in texts[:-1]:
            self.starts.append(self.starts[-1] + len(text) + 1)

    @property
    def lower(self) -> bytes:
        if self._lower is None:
            self._lower = self.raw.translate(_LOWER)
        return self._lower

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def next_line(self, index: int) -> int:
        return self.starts[index + 1] if index + 1 < len(self.starts) else len(self.raw)


Keep = Callable[[str, int, int], bool]  # (line, offset of the hit in it, line index) -> keep?


@dataclass(frozen=True)
class Prefilter:
    """The conditions for one set of plugins."""

    probes: tuple[Probe, ...]
    keyword: bool
    basic_auth: bool
    iam: bool
    telegram: bool
    public_ip: bool
    entropy: re.Pattern[str] | None

    def passing(self, path: str, texts: Sequence[str]) -> list[int]:
        """Indexes of the ``texts`` (one file's added lines) some plugin could report."""
        return self.passing_files([(path, texts)])[0]

    def passing_files(self, files: Sequence[tuple[str, Sequence[str]]]) -> list[list[int]]:
        """``passing`` for many files at once: each probe searches all of them in one go."""
        texts: list[str] = []
        firsts: list[int] = []
        for _, lines in files:
            firsts.append(len(texts))
            texts.extend(lines)
        hits = self._hits(texts, [path for path, _ in files], firsts) if texts else set()
        out: list[list[int]] = [[] for _ in files]
        for index in sorted(hits):
            which = bisect_right(firsts, index) - 1
            while which + 1 < len(firsts) and firsts[which + 1] == firsts[which]:
                which += 1  # skip files without lines that start at the same index
            out[which].append(index - firsts[which])
        return out

    def _hits(self, texts: list[str], paths: list[str], firsts: list[int]) -> set[int]:
        text = _Text(texts)
        hits: set[int] = set()

        def find(data: bytes, core: bytes, keep: Keep | None) -> None:
            pos = 0
            while (at := data.find(core, pos)) >= 0:
                index = text.line_of(at)
                if index not in hits and (keep is None or keep(texts[index], at - text.starts[index], index)):
                    hits.add(index)
                pos = text.next_line(index)  # one look per line is enough for every condition

        def search(pattern: re.Pattern[str], keep: Keep | None) -> None:
            pos = 0
            while (match := pattern.search(text.joined, pos)) is not None:
                index = text.line_of(match.start())
                if index not in hits and (keep is None or keep(texts[index], match.start() - text.starts[index], index)):
                    hits.add(index)
                pos = text.next_line(index)

        def verifier(pattern: re.Pattern[str]) -> Keep:
            return lambda line, at, index: pattern.search(line) is not None

        for probe in self.probes:
            if probe.verify is not None and not probe.lower and len(probe.cores) == 1 \
                    and probe.verify.startswith(re.escape(probe.cores[0].decode())):
                # Every match of the check starts with the core (``.`` of Discord tokens, ``SG.``),
                # and none holds a line break: one search of the check finds the same lines as
                # the core's hits checked one by one, without a Python step per common core.
                search(re.compile(probe.verify), None)
                continue
            keep = None if probe.verify is None else (lambda line, at, index, probe=probe: probe.check(line))
            for core in probe.cores:
                find(text.lower if probe.lower else text.raw, core, keep)
        if self.keyword:
            # detect-secrets' keyword rules for most file types need a quoted value.
            unquoted = [path.lower().endswith(tuple(UNQUOTED_KEYWORD_EXTENSIONS)) for path in paths]

            def keyword_line(line: str, at: int, index: int) -> bool:
                if not unquoted[bisect_right(firsts, index) - 1] and _QUOTES.search(line) is None:
                    return False
                return _has_keyword(line)

            for core in _KEYWORD_CORES:
                find(text.lower, core, keyword_line)
        if self.basic_auth:
            find(text.raw, b"://", lambda line, at, index: "@" in line[at:])
        if self.iam:
            find(text.raw.translate(_TOKEN_CHARS), b"a" * 44, None)
        if self.telegram:
            find(text.raw.translate(_DIGITS), b"d" * 8, verifier(_TELEGRAM_VERIFY))
        if self.public_ip:
            search(_IP_PATTERN, None)
        if self.entropy is not None:
            search(self.entropy, None)
        return hits


# In ASCII text every match of ``_KEYWORDS`` holds one of its cores and reaches at most this far
# either side of it ("database_pass": nine characters before "pass", 13 in all).
_KEYWORD_REACH = 16
_KEYWORD_TEXT_CORES = tuple(core.decode() for core in _KEYWORD_CORES)


def _has_keyword(line: str) -> bool:
    """Whether ``_KEYWORDS`` matches in ``line``: for ASCII text, searched only around each core
    (a case-insensitive search of the whole line costs ~0.1 us a character), else in full."""
    if not line.isascii():
        return _KEYWORDS.search(line) is not None
    low = line.lower()
    for core in _KEYWORD_TEXT_CORES:
        pos = low.find(core)
        while pos >= 0:
            if _KEYWORDS.search(line, max(0, pos - _KEYWORD_REACH), pos + _KEYWORD_REACH) is not None:
                return True
            pos = low.find(core, pos + 1)
    return False


def build(plugins: Mapping[str, Mapping[str, Any]], *, public_ip: bool) -> Prefilter | None:
    """The prefilter for detect-secrets ``plugins`` (name -> settings), None when any is unknown.

    ``public_ip``: whether layer 2 needs IP-address findings at all (only to match a baseline;
    our reports drop them).
    """
    if any(name not in KNOWN_PLUGINS for name in plugins):
        return None
    limits = [float(plugins[name].get("limit", default)) for name, default in _HIGH_ENTROPY.items() if name in plugins]
    entropy = None
    if limits:
        shortest = min(_min_length(limit) for limit in limits)
        entropy = re.compile(rf"(['\"]){_BASE64_RUN}{{{shortest},}}\1")
    return Prefilter(
        probes=tuple(probe for name, probes in _PROBES.items() if name in plugins for probe in probes),
        keyword=_KEYWORD in plugins,
        basic_auth=_BASIC_AUTH in plugins,
        iam=_IAM in plugins,
        telegram=_TELEGRAM in plugins,
        public_ip=public_ip and _IP in plugins,
        entropy=entropy,
    )


def default() -> Prefilter:
    """The prefilter for detect-secrets' default plugins with their default settings."""
    gate = build({name: {} for name in KNOWN_PLUGINS}, public_ip=False)
    assert gate is not None
    return gate


def for_baseline(baseline: Mapping[str, Any]) -> Prefilter | None:
    """The prefilter for a baseline's plugins; None (read every line) for custom plugins or filters."""
    plugins: dict[str, Mapping[str, Any]] = {}
    for entry in baseline.get("plugins_used", []):
        if not isinstance(entry, dict) or "path" in entry or not isinstance(entry.get("name"), str):
            return None
        plugins[entry["name"]] = entry
    for entry in baseline.get("filters_used", []):
        if not isinstance(entry, dict) or str(entry.get("path", "")).startswith("file:"):
            return None
    return build(plugins, public_ip=True)


def firing(plugins: Sequence[str], files: Sequence[tuple[str, Sequence[str]]],
           settings: Mapping[str, Mapping[str, Any]] | None = None) -> list[str] | None:
    """The ``plugins`` (in their order) whose condition some line of ``files`` meets: the only
    ones that can report anything there, so detect-secrets loads and runs just these (importing
    and calling the others costs a hook more than their work). None when any is unknown.

    ``settings`` holds each plugin's options (an entropy plugin's limit); IP addresses count,
    since a removed finding is still shown by ``--explain``."""
    settings = settings or {}
    if any(name not in KNOWN_PLUGINS for name in plugins):
        return None
    if not any(lines for _, lines in files):
        return []
    fired = []
    for name in plugins:
        gate = build({name: settings.get(name, {})}, public_ip=True)
        assert gate is not None  # a known plugin
        if any(gate.passing_files(files)):
            fired.append(name)
    return fired


def layer2_lines(gate: Prefilter | None, path: str, lines: Lines) -> list[tuple[int | None, str]]:
    """The lines to hand detect-secrets, as (index into ``lines`` or None, text).

    Its allowlist filter reads the line before each finding (``pragma: allowlist nextline
    secret``), so a passing line keeps the real line before it when that line names a pragma,
    and a gap between passing lines becomes one empty line. Without a prefilter: every line.
    """
    return layer2_parts(gate, [(path, lines)])[0]


def layer2_parts(gate: Prefilter | None, files: Sequence[tuple[str, Lines]]) -> list[list[tuple[int | None, str]]]:
    """``layer2_lines`` for many files, the prefilter running over all of them at once."""
    if gate is None:
        return [[(index, text) for index, (_, text) in enumerate(lines)] for _, lines in files]
    passing = gate.passing_files([(path, [text for _, text in lines]) for path, lines in files])
    return [_with_context(lines, indexes) for (_, lines), indexes in zip(files, passing)]


def _with_context(lines: Lines, indexes: list[int]) -> list[tuple[int | None, str]]:
    picked: list[tuple[int | None, str]] = []
    last = -2
    for index in indexes:
        if index - 1 > last and index > 0 and "pragma" in lines[index - 1][1]:
            if index - 2 > last and picked:
                picked.append((None, ""))
            picked.append((index - 1, lines[index - 1][1]))
        elif index - 1 > last and picked:
            picked.append((None, ""))
        picked.append((index, lines[index][1]))
        last = index
    return picked


__all__ = ["KNOWN_PLUGINS", "Prefilter", "build", "default", "firing", "for_baseline", "layer2_lines", "layer2_parts"]
