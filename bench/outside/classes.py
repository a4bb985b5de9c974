"""The class of credential an outside example belongs to, from the example and its value.

Misses are reported per class so that a fix addresses a form (a vendor prefix, a keyword and a
value, a credential in a URL...) rather than one rule. The order matters: a private key block
may hold base64, a URL may hold a JWT; the first matching class wins.
"""
from __future__ import annotations

import re

PRIVATE_KEY = "private key"
JWT = "JWT"
CONNECTION_STRING = "connection string"
URL_CREDENTIALS = "URL credentials"
VENDOR_PREFIX = "vendor token with prefix"
GENERIC = "generic keyword+value"
HEX = "keyword + hex value"
BASE64 = "keyword + base64/alnum value"
OTHER = "other (pairs, short or mixed values)"
CLASSES = (VENDOR_PREFIX, GENERIC, URL_CREDENTIALS, PRIVATE_KEY, CONNECTION_STRING, JWT, HEX, BASE64, OTHER)

_KEY_BLOCK = re.compile(r"-----BEGIN[A-Z ]*PRIVATE KEY|PuTTY-User-Key-File|-----BEGIN OPENSSH")
_JWT = re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.")
_CONN = re.compile(r"(?i)(?:^|;)\s*(?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)\s*=\s*[^;\s]")
_URL_CRED = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]*:[^\s/@]+@")
# A vendor prefix: a short word, then a separator, then the random body (ghp_, glpat-, xoxb-,
# sk-ant-, dapi...). Or a short upper-case head on an upper-case body (AKIA..., ASIA...).
_PREFIXED = re.compile(r"^[A-Za-z][A-Za-z0-9]{1,11}[_\-.][A-Za-z0-9_\-.]*[A-Za-z0-9]{12,}|^[A-Z]{4}[A-Z2-7]{12,}$")
_HEX = re.compile(r"^[0-9a-fA-F-]{16,}$")
_B64 = re.compile(r"^[A-Za-z0-9+/=_\-.]{16,}$")
_GENERIC_NAME = re.compile(r"(?i)generic|password|passwd")


def classify(rule_id: str, rule_name: str, text: str, value: str) -> str:
    """The class of one example; ``value`` is what the rule captures (or the example's longest token)."""
    if _KEY_BLOCK.search(text) or "private key" in rule_name.lower():
        return PRIVATE_KEY
    if _JWT.search(value) or "jwt" in rule_name.lower():
        return JWT
    if _CONN.search(text) or "connection string" in rule_name.lower():
        return CONNECTION_STRING
    if _URL_CRED.search(text):
        return URL_CREDENTIALS
    if _PREFIXED.search(value):
        return VENDOR_PREFIX
    if "generic" in rule_id.lower() or _GENERIC_NAME.search(rule_name):
        return GENERIC
    if _HEX.match(value):
        return HEX
    if _B64.match(value):
        return BASE64
    return OTHER


# How the example holds the value: the form a scanner has to read, independent of the class.
MARKUP = "markup element"
BARE = "bare value"
ASSIGNMENT = "key = value / key: value"
URL_FORM = "in a URL"
NEARBY = "keyword nearby (prose, log, arguments)"
FORMS = (ASSIGNMENT, MARKUP, URL_FORM, BARE, NEARBY)


def form(text: str, value: str) -> str:
    """The form of one example around its value (``value`` empty: unknown)."""
    if value and text.strip() == value.strip():
        return BARE
    line = next((ln for ln in text.splitlines() if value and value[:24] in ln), text)
    before = line[:line.find(value[:24])] if value and value[:24] in line else line
    if re.search(r"<[\w:.-]+>[^<]*$", before):
        return MARKUP
    if re.search(r"://\S*$", before):
        return URL_FORM
    if re.search(r"[\w\"'\]-]\s*(?::=|=>|[=:])\s*[\"'{(]*\s*$", before):
        return ASSIGNMENT
    return NEARBY
