"""Values that look like credentials but are not: the shared false-positive filter (R31).

Layer 1 asks it before reporting an assignment or a vendor token. Layer 2 does not filter by
it: detect-secrets' findings leave only by the named verdicts of ``layer2.floor``, which use
``benign_reason`` for two of its categories (a public key, a ``sha256:``-style digest) and
``key_before`` to read the key a value is assigned to.

- ``benign_reason(value)`` names the category of a value that is never a secret on its own
  (placeholder, template, digest, UUID, SHA, version, path, identifier...);
- ``is_benign_value(value)`` is the yes/no form.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ...support.regex_lazy import lazy
from .shapes import (
    _NON_ALNUM,
    _REDACTION,
    VERDICTS,
    case_switch_ratio,
    is_degenerate,
    is_identifier,
    is_placeholder,
    shannon_entropy,
)

_UUID = lazy(r"^\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?$")
_HEX = lazy(r"^(?:0x)?[0-9a-fA-F]+$")
_DIGEST_PREFIX = lazy(
    r"^(?:sha1|sha224|sha256|sha384|sha512|sha3-\d+|md5|blake2[bs]?|blake3|xxh\d*|crc32|h1|"
    r"sri|etag|W/)[:=\-/]", re.I)
_VERSION = lazy(r"^[vV]?\d+(?:\.\d+)+(?:[-+~][\w.+-]*)?$")
# ``chalk-4.1.2``, ``jjwt-jackson-0.11.2``: a package name with its version.
_NAME_VERSION = lazy(r"^(?:[\w.]+:)?[a-z][a-z0-9]*(?:[-_.][a-z][a-z0-9]*)*[-_@:]v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?$")
_PROSE = lazy(r"^[A-Za-z][a-z'’]*(?:[ ,;:]+[A-Za-z][a-z'’]*[.!?]?){1,}[.!?]?$")
_NUMBER = lazy(r"^[+-]?\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?[a-zA-Z%]{0,3}$")
_DATE = lazy(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
_IPV4 = lazy(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/\d{1,2})?$")
_IPV6 = lazy(r"^[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}$")
_EMAIL = lazy(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_DOMAIN = lazy(r"^(?:[a-z0-9-]+\.)+[a-z]{2,10}(?::\d{1,5})?(?:/[\w./%-]*)?$")
_URL = lazy(r"^[a-zA-Z][a-zA-Z0-9+.-]{1,20}://")
_URL_CREDENTIAL = lazy(r"^[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\s@]*:[^/\s@]*@")
_PATH = lazy(r"^(?:~|\.{1,2})?/[\w.@%+~-]*(?:/[\w.@%+~-]*)*$|^[A-Za-z]:\\")
_FILE_NAME = lazy(
    r"^[\w.@+-]*(?:/[\w.@+-]+)*\.(?:pem|key|p12|pfx|jks|keystore|keytab|crt|cer|der|pub|json|"
    r"ya?ml|toml|ini|cfg|conf|env|txt|md|py|js|ts|go|rb|sh|xml|html|png|jpe?g|gif|svg|zip|gz|"
    r"tgz|tar|whl|jar|so|dll|exe|log|lock|sql|db|csv|gpg|asc|"
    # documents, media and sources an object key or upload path names: ``projects/1/raw/a.pdf``
    r"pdf|docx?|xlsx?|pptx?|odt|rtf|mp[34]|wav|webm|webp|ico|css|scss|tsx|jsx|vue|java|kt|rs|"
    r"cpp|cs|php|swift|dart|parquet)$", re.I)
_PUBLIC_KEY = lazy(
    r"^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\b|"
    r"^AAAA(?:B3NzaC1|C3NzaC1|E2VjZHNh)|BEGIN (?:[A-Z]+ )?PUBLIC KEY|BEGIN CERTIFICATE")


@lru_cache(maxsize=VERDICTS)
def benign_reason(value: str) -> str | None:
    """Why ``value`` is not a secret by itself, or None when it may be one."""
    v = value.strip().strip("\"'`")
    if not v:
        return "empty"
    if _REDACTION.fullmatch(v):
        return "redacted"
    if _PUBLIC_KEY.search(v):
        return "public-key"
    if _URL.match(v) and not _URL_CREDENTIAL.match(v):
        return "url"
    if _DIGEST_PREFIX.match(v):
        return "digest"
    if _UUID.match(v):
        return "uuid"
    if _IPV4.match(v) or (":" in v and _IPV6.match(v) and v.count(":") >= 2):
        return "ip-address"
    if _DATE.match(v) or _VERSION.match(v) or _NAME_VERSION.match(v):
        return "version"
    if _PROSE.match(v) and " " in v:
        return "prose"
    if _NUMBER.match(v):
        return "number"
    if is_placeholder(v):
        return "placeholder"
    if _HEX.match(v) and len(v) >= 7:
        return "hex"
    if _EMAIL.match(v) or _DOMAIN.match(v):
        return "address"
    if _PATH.match(v) or _FILE_NAME.match(v):
        return "path"
    if is_identifier(v):
        return "identifier"
    if not _NON_ALNUM.sub("", v):
        return "punctuation"
    return None


def is_benign_value(value: str) -> bool:
    """True when ``value`` is never a secret on its own (see ``benign_reason``)."""
    return benign_reason(value) is not None


_KEY_ASSIGNED = lazy(r"([A-Za-z_][\w.\-]{0,80})[\"'`\]]?\s*(?:[:=]|:=|=>|==|!=)\s*[\"'`@]?$")
_KEY_ADJACENT = lazy(r"([A-Za-z_][\w.\-]{0,80})\s*$")
_ATTRIBUTE_NAME = lazy(r"""(?:name|key|id|property)\s*=\s*["']([^"'<>]{1,80})["']\s+$""", re.I)


def key_before(line: str, start: int) -> str:
    """The key a value at ``line[start:]`` is assigned to (``etag`` in ``etag: "…"``), or ''.

    For ``name="X" value="…"`` attribute pairs (HTML inputs, nuget.config) the key is X.
    """
    head = line[max(0, start - 200):start].rstrip(" \t\"'`")  # bounded: lines may be huge
    match = _KEY_ASSIGNED.search(head)
    if match:
        if match.group(1).lower() in ("value", "content"):
            named = _ATTRIBUTE_NAME.search(head, 0, match.start(1))
            if named:
                return named.group(1)
        return match.group(1)
    match = _KEY_ADJACENT.search(head)
    return match.group(1) if match else ""


__all__ = [
    "benign_reason", "case_switch_ratio", "is_benign_value", "is_degenerate", "is_identifier", "is_placeholder",
    "key_before", "shannon_entropy",
]
