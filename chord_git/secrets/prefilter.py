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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Lines = Sequence[tuple[int, str]]

# detect_secrets/plugins/keyword.py DENYLIST (the keyword must be followed by an assignment; for
# most file types, by a quoted value).
_KEYWORDS = (r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|"
             r"private_?key|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd|"
             r"secret|contraseña|contrasena")
# File types whose keyword rules do not require a quoted value (detect_secrets/util/filetype.py
# and REGEX_BY_FILETYPE in keyword.py: Go, YAML, config, INI, properties, TOML).
UNQUOTED_KEYWORD_EXTENSIONS = frozenset({
    ".go", ".yaml", ".yml", ".eyaml", ".cnf", ".conf", ".cfg", ".cf", ".ini", ".properties", ".toml",
})
_BASE64_RUN = r"[A-Za-z0-9+/\\=_-]"  # Base64HighEntropyString's charset (hex digits are a subset)

# A line that matches one of these may hold a finding of the plugin named in the comment.
_CONDITIONS: dict[str, str] = {
    "ArtifactoryDetector": r"AKC[a-zA-Z0-9]{10}|AP[0-9A-F][a-zA-Z0-9]{8}",
    "AWSKeyDetector": r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA|(?i:aws)",
    "AzureStorageKeyDetector": r"AccountKey=",
    "CloudantDetector": r"(?i:cl(?:oudant|ou)?[_-]?(?:api)?(?:key|pwd|pw|pass|token)|cloudant\.com)",
    "DiscordBotTokenDetector": r"\.[a-zA-Z0-9_-]{6}\.[a-zA-Z0-9_-]{27}",
    "GitHubTokenDetector": r"gh[pousr]_",
    "GitLabTokenDetector": r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|GR1348941",
    "IbmCloudIamDetector": r"(?<![a-zA-Z0-9_-])[a-zA-Z0-9_-]{44}",
    "IbmCosHmacDetector": r"(?i:secret[-_]?(?:access)?[-_]?key)",
    "IPPublicDetector": r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}",
    "JwtTokenDetector": r"eyJ",
    "MailchimpDetector": r"-us[0-9]",
    "NpmDetector": r"(?i::_authToken=)",
    "OpenAIDetector": r"T3BlbkFJ",
    "PrivateKeyDetector": r"PRIVATE KEY|PuTTY-User-Key-File-2",
    "PypiTokenDetector": r"pypi-AgE",
    "SendGridDetector": r"SG\.[a-zA-Z0-9_-]{22}\.",
    "SlackDetector": r"(?i:xox[abposr]-)|hooks\.slack\.com/services/",
    "SoftlayerDetector": r"(?i:softlayer|sl[_-]?(?:api)?(?:key|pwd|pass|token))",
    "SquareOAuthDetector": r"sq0csp-",
    "StripeDetector": r"[rs]k_live_",
    "TelegramBotTokenDetector": r"[0-9]{8}:[0-9A-Za-z_-]{35}",
    "TwilioKeyDetector": r"(?:AC|SK)[a-z0-9]{32}",
}
# Plugins whose condition needs a second look at the line (see ``Prefilter.lines``).
_KEYWORD = "KeywordDetector"
_BASIC_AUTH = "BasicAuthDetector"
_HIGH_ENTROPY = {"Base64HighEntropyString": 4.5, "HexHighEntropyString": 3.0}  # default limits
KNOWN_PLUGINS = frozenset(_CONDITIONS) | {_KEYWORD, _BASIC_AUTH} | frozenset(_HIGH_ENTROPY)
_QUOTES = re.compile(r"['\"`]")


def _min_length(limit: float) -> int:
    """The shortest string whose Shannon entropy can exceed ``limit`` bits: log2(n) > limit."""
    return max(1, math.floor(2 ** limit) + 1)


@dataclass(frozen=True)
class Prefilter:
    """The conditions for one set of plugins: ``direct`` (a match is enough), ``keyword``."""

    direct: re.Pattern[str] | None
    keyword: re.Pattern[str] | None
    basic_auth: bool

    def passing(self, path: str, texts: Sequence[str]) -> list[int]:
        """Indexes of the ``texts`` (one file's added lines) some plugin could report."""
        joined = "\n".join(texts)
        starts = [0]
        for text in texts[:-1]:
            starts.append(starts[-1] + len(text) + 1)
        hits: set[int] = set()
        quoted_keywords = not path.lower().endswith(tuple(UNQUOTED_KEYWORD_EXTENSIONS))

        def scan(pattern: re.Pattern[str], keep: Any) -> None:
            pos = 0
            while True:
                match = pattern.search(joined, pos)
                if match is None:
                    return
                index = bisect_right(starts, match.start()) - 1
                if index not in hits and keep(texts[index], match.start() - starts[index]):
                    hits.add(index)
                if index + 1 >= len(starts):
                    return
                pos = starts[index + 1]  # one look per line is enough for every condition

        if self.direct is not None:
            scan(self.direct, lambda text, at: True)
        if self.keyword is not None:
            # detect-secrets' keyword rules for these file types need a quoted value.
            scan(self.keyword, lambda text, at: not quoted_keywords or _QUOTES.search(text) is not None)
        if self.basic_auth:
            # ``://user:password@``: an '@' after the scheme separator, on the same line.
            scan(_SCHEME, lambda text, at: "@" in text[at:])
        return sorted(hits)


_SCHEME = re.compile(r"://")


def build(plugins: Mapping[str, Mapping[str, Any]], *, public_ip: bool) -> Prefilter | None:
    """The prefilter for detect-secrets ``plugins`` (name -> settings), None when any is unknown.

    ``public_ip``: whether layer 2 needs IP-address findings at all (only to match a baseline;
    our reports drop them).
    """
    if any(name not in KNOWN_PLUGINS for name in plugins):
        return None
    direct = [cond for name, cond in _CONDITIONS.items()
              if name in plugins and (public_ip or name != "IPPublicDetector")]
    limits = [float(plugins[name].get("limit", default)) for name, default in _HIGH_ENTROPY.items() if name in plugins]
    if limits:
        shortest = min(_min_length(limit) for limit in limits)
        direct.append(rf"(['\"]){_BASE64_RUN}{{{shortest},}}\1")
    return Prefilter(
        direct=re.compile("|".join(f"(?:{cond})" for cond in direct)) if direct else None,
        keyword=re.compile(_KEYWORDS, re.IGNORECASE) if _KEYWORD in plugins else None,
        basic_auth=_BASIC_AUTH in plugins,
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


def layer2_lines(gate: Prefilter | None, path: str, lines: Lines) -> list[tuple[int | None, str]]:
    """The lines to hand detect-secrets, as (index into ``lines`` or None, text).

    Its allowlist filter reads the line before each finding (``pragma: allowlist nextline
    secret``), so a passing line keeps the real line before it when that line names a pragma,
    and a gap between passing lines becomes one empty line. Without a prefilter: every line.
    """
    if gate is None:
        return [(index, text) for index, (_, text) in enumerate(lines)]
    picked: list[tuple[int | None, str]] = []
    last = -2
    for index in gate.passing(path, [text for _, text in lines]):
        if index - 1 > last and index > 0 and "pragma" in lines[index - 1][1]:
            if index - 2 > last and picked:
                picked.append((None, ""))
            picked.append((index - 1, lines[index - 1][1]))
        elif index - 1 > last and picked:
            picked.append((None, ""))
        picked.append((index, lines[index][1]))
        last = index
    return picked


__all__ = ["KNOWN_PLUGINS", "Prefilter", "build", "default", "for_baseline", "layer2_lines"]
