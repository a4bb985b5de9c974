"""Values that look like credentials but are not: the shared false-positive filter (R31).

Both layers use this module. Layer 1 asks it before reporting an assignment or a vendor token,
and layer 2 passes every detect-secrets finding through it (with the line as context), so the
two layers agree on what a placeholder, a digest or an identifier is.

Two levels:
- ``benign_reason(value)`` names the category of a value that is never a secret on its own
  (placeholder, template, digest, UUID, SHA, version, path, identifier...).
- ``is_benign_value(value)`` is the yes/no form, and ``is_benign_in_line(line, value)`` adds the
  context of the line: the key the value is assigned to (``etag:``, ``checksum =``) and digest
  markers around it.

Some categories are *soft*: a UUID or a bare hex string is benign in general, but not when it is
assigned to a secret-looking key (Heroku API keys are UUIDs; old GitHub tokens were 40 hex
digits). ``SOFT_REASONS`` lists them so callers that know the key can override.
"""
from __future__ import annotations

import math
import re
from collections import Counter

# Soft categories: overridden when the value is assigned to a secret-looking key.
SOFT_REASONS = frozenset({"uuid", "hex", "number"})

# Words that mark a value as a stand-in when they make up one of its parts.
PLACEHOLDER_WORDS = frozenset({
    "example", "examples", "sample", "dummy", "fake", "placeholder", "changeme", "change",
    "replace", "replaceme", "redacted", "masked", "hidden", "your", "yours", "here", "insert",
    "todo", "fixme", "tbd", "xxx", "none", "null", "nil", "undefined", "empty", "default",
    "foo", "bar", "baz", "qux", "secret", "password", "passwd", "pass", "token", "key",
    "apikey", "user", "username", "value", "mypassword", "mysecret", "mytoken", "test",
    "testing", "notreal", "invalid", "unset", "missing", "required", "env", "var",
})
# Substrings that mark a stand-in wherever they appear (AWS documentation keys end in EXAMPLE).
PLACEHOLDER_SUBSTRINGS = ("example", "placeholder", "dummy", "changeme", "redacted", "your_",
                          "your-", "yourkey", "yourtoken", "replace_me", "replaceme",
                          "not_a_real", "not-a-real", "notareal", "insert_", "put_your")
# Words that are placeholders only when the value has no digits (``abc12fake`` may be real).
SOFT_PLACEHOLDER_SUBSTRINGS = ("fake", "sample", "secret", "password", "token", "here")

_REDACTION = re.compile(r"\[(?:REDACTED|MASKED|FILTERED|HIDDEN|SECRET)(?::[\w.-]*)?\]", re.I)
_TEMPLATE = re.compile(
    r"""^(?:
        <[^<>]*> | \[[^\[\]]*\] | \{[^{}]*\} | \{\{.*\}\} | \{%.*%\} | <%.*%>
      | \$\{.*\} | \$\(.*\) | \$[A-Za-z_][\w]* | \$\d | %\(?[\w.]*\)?[sd] | %[A-Za-z_][\w]*%
      | @[A-Za-z_][\w.]*@ | __[A-Z_]+__ | \#\{.*\}
    )$""",
    re.X | re.S,
)
# A value that starts by referring to something else: $VAR, $(cmd), ${X}, {{ x }}, <%= x %>.
_REFERENCE_START = re.compile(
    r"^(?:\$[({A-Za-z_\d]|\{\{|\{%|<%|%\(|#\{|<[A-Za-z_ -]+>?$|\{[A-Za-z_][\w.]*[(}])")
_EMBEDDED_TEMPLATE = re.compile(r"\$\{[\w.:?\-]+\}|\{\{[^{}]*\}\}|\$\{\{[^{}]*\}\}|<%=?[^%]*%>")
_UUID = re.compile(r"^\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?$")
_HEX = re.compile(r"^(?:0x)?[0-9a-fA-F]+$")
_DIGEST_PREFIX = re.compile(
    r"^(?:sha1|sha224|sha256|sha384|sha512|sha3-\d+|md5|blake2[bs]?|blake3|xxh\d*|crc32|h1|"
    r"sri|etag|W/)[:=\-/]", re.I)
_VERSION = re.compile(r"^[vV]?\d+(?:\.\d+)+(?:[-+~][\w.+-]*)?$")
# ``chalk-4.1.2``, ``jjwt-jackson-0.11.2``: a package name with its version.
_NAME_VERSION = re.compile(r"^(?:[\w.]+:)?[a-z][a-z0-9]*(?:[-_.][a-z][a-z0-9]*)*[-_@:]v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?$")
_PROSE = re.compile(r"^[A-Za-z][a-z'’]*(?:[ ,;:]+[A-Za-z][a-z'’]*[.!?]?){1,}[.!?]?$")
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?[a-zA-Z%]{0,3}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
_IPV4 = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/\d{1,2})?$")
_IPV6 = re.compile(r"^[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}$")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_DOMAIN = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,10}(?::\d{1,5})?(?:/[\w./%-]*)?$")
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]{1,20}://")
_URL_CREDENTIAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\s@]*:[^/\s@]*@")
_PATH = re.compile(r"^(?:~|\.{1,2})?/[\w.@%+~-]*(?:/[\w.@%+~-]*)*$|^[A-Za-z]:\\")
_FILE_NAME = re.compile(
    r"^[\w.@+-]*(?:/[\w.@+-]+)*\.(?:pem|key|p12|pfx|jks|keystore|keytab|crt|cer|der|pub|json|"
    r"ya?ml|toml|ini|cfg|conf|env|txt|md|py|js|ts|go|rb|sh|xml|html|png|jpe?g|gif|svg|zip|gz|"
    r"tgz|tar|whl|jar|so|dll|exe|log|lock|sql|db|csv|gpg|asc)$", re.I)
_IDENT_PART = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_CALL_OR_INDEX = re.compile(r"^[A-Za-z_$][\w$.]*(?:::[\w$]+)*\s*[\(\[].*[\)\]][;,]?$", re.S)
_PUBLIC_KEY = re.compile(
    r"^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\b|"
    r"^AAAA(?:B3NzaC1|C3NzaC1|E2VjZHNh)|BEGIN (?:[A-Z]+ )?PUBLIC KEY|BEGIN CERTIFICATE")
_LONG_RUN = re.compile(r"(.)\1{7,}")
_RUNS = re.compile(r"(.)\1{2,}")
_MASK = re.compile(r"\*{3,}|#{4,}|[xX]{4,}|\.{2}")
_DIGIT = re.compile(r"\d")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")
_CAMEL_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_KEY_NAME_SPLIT = re.compile(r"[^A-Za-z0-9]+")
# Keys whose values are checksums, ids or other public identifiers.
DIGEST_KEYS = frozenset({
    "etag", "checksum", "checksums", "chksum", "hash", "digest", "integrity", "sha", "sha1",
    "sha256", "sha512", "md5", "crc", "nonce", "iv", "salt", "fingerprint", "commit", "rev",
    "revision", "srcrev", "ref", "version", "id", "ids", "uuid", "guid", "trace", "span",
    "request", "correlation", "etags", "resolved", "tag", "serial", "sum",
})


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` (0 for the empty string)."""
    if not value:
        return 0.0
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def word_parts(value: str) -> list[str]:
    """Lower-cased words of an identifier or value: snake, kebab, dotted and camelCase."""
    parts: list[str] = []
    for chunk in _KEY_NAME_SPLIT.split(value):
        parts.extend(p.lower() for p in _CAMEL_SPLIT.findall(chunk))
    return parts


def case_switch_ratio(value: str) -> float:
    """Share of neighbouring letters that switch case: ~0.5 for random text, low for words."""
    letters = [c for c in value if c.isalpha()]
    if len(letters) < 2:
        return 0.0
    switches = sum(1 for a, b in zip(letters, letters[1:]) if a.isupper() != b.isupper())
    return switches / (len(letters) - 1)


def _is_low_variety(core: str) -> bool:
    """``core`` (letters and digits only) is one character repeated, or two: xxxx, 0000, abab."""
    if not core:
        return True
    low = core.lower()
    distinct = set(low)
    if len(distinct) > 0.4 * len(core) + 2:
        return False  # generated text: too many different characters for either rule
    if len(core) >= 4 and max(low.count(c) for c in distinct) >= 0.6 * len(core):
        return True
    return len(distinct) <= 2 and len(core) >= 6


def _is_sequential(value: str) -> bool:
    """Nearly all of it runs up or down the alphabet or digits: ``ABCDEF…``, ``0123456789``."""
    core = value.lower()
    if len(core) < 6:
        return False
    allowed_outside = len(core) // 20  # 95% must sit in runs of six or more
    outside, run = 0, 1
    for prev, cur in zip(core, core[1:]):
        if abs(ord(cur) - ord(prev)) == 1 and cur.isalnum() and prev.isalnum():
            run += 1
            continue
        if run < 6:
            outside += run
            if outside > allowed_outside:
                return False  # random text leaves this loop within a few characters
        run = 1
    return (outside + (run if run < 6 else 0)) <= allowed_outside


def _is_periodic(value: str) -> bool:
    """A short unit repeated: ``123123123123``, ``abababab``."""
    if len(value) < 8:
        return False
    return any(value == (value[:n] * (len(value) // n + 1))[: len(value)] for n in range(1, 5))


def is_placeholder(value: str) -> bool:
    """A stand-in such as ``<YOUR_API_KEY>``, ``xxxx``, ``****``, ``sk-...`` or ``${VAR}``."""
    v = value.strip()
    if not v:
        return True
    if (_TEMPLATE.match(v) or _REFERENCE_START.match(v)) and not _random_inside_brackets(v):
        return True
    if _REDACTION.search(v) or _EMBEDDED_TEMPLATE.search(v):
        return True
    if _LONG_RUN.search(v):
        # Long runs of one character (0000000000, aaaaaaaa) padding out a short stand-in;
        # Twitter bearer tokens start with a run of A's but carry plenty after it.
        collapsed = _RUNS.sub(r"\1", v)
        if len(collapsed) < 24 or len(collapsed) * 3 < len(v):
            return True
    if "\u2026" in v or _MASK.search(v):
        return True
    low = v.lower()
    if any(s in low for s in PLACEHOLDER_SUBSTRINGS):
        return True
    if not _DIGIT.search(v) and any(s in low for s in SOFT_PLACEHOLDER_SUBSTRINGS):
        return True
    if len(v) <= 64:  # stand-ins made of words are short: YOUR_KEY_HERE, replace-me
        parts = word_parts(v)
        if parts and all(p in PLACEHOLDER_WORDS or p.isdigit() and len(p) <= 2 for p in parts):
            return True
    return is_degenerate(v)


def is_degenerate(value: str) -> bool:
    """Too little variety to be generated: one or two characters, a sequence, a short repeat."""
    core = _NON_ALNUM.sub("", value)
    return _is_low_variety(core) or _is_sequential(core) or _is_periodic(core)


def _random_inside_brackets(value: str) -> bool:
    """``{ZqL5kVrX1n8tA2}`` is a credential written in braces, ``{hunter2}`` a template."""
    inner = value[1:-1] if value[:1] in "{[<" and value[-1:] in "}]>" else ""
    return bool(inner) and re.fullmatch(r"[A-Za-z0-9_\-]{8,}", inner) is not None \
        and _looks_random_word(inner)


def is_identifier(value: str) -> bool:
    """A variable, attribute path, call or qualified name rather than a literal.

    ``settings.DB_PASSWORD``, ``os.getenv("X")``, ``xsd:element``, ``desktop-rhf_SearchPagination``
    are identifiers; ``hunter2`` (a word with a digit) and generated tokens are not.
    """
    v = value.strip().rstrip(";,")
    if _CALL_OR_INDEX.match(v):
        return True
    pieces = re.split(r"\.|::|->|:|-", v)
    if not all(_IDENT_PART.match(p) or p.isdigit() for p in pieces) or all(p.isdigit() for p in pieces):
        return False
    if len(pieces) == 1 and "_" not in v:
        # A single bare word is an identifier only when it has no digits (``hunter2`` is not).
        return v.isalpha() and len(v) <= 40 and not _looks_random_word(v)
    return not any(_looks_random_word(sub) for piece in pieces for sub in re.split(r"[_$]+", piece) if sub)


def _looks_random_word(word: str) -> bool:
    """True when a letters-and-digits chunk looks generated (``m8ytn750``, ``jCBaQngSHiHD``)."""
    switches = sum(1 for a, b in zip(word, word[1:]) if a.isdigit() != b.isdigit())
    if switches >= 3:
        return True
    letters = re.sub(r"\d", "", word)
    if len(letters) < 12:
        return False
    words = _CAMEL_SPLIT.findall(letters)
    # Real compounds split into words of several letters; generated text into fragments.
    if sum(len(w) for w in words) / max(len(words), 1) < 3.5 and case_switch_ratio(letters) >= 0.3:
        return True
    vowels = sum(1 for c in letters.lower() if c in "aeiouy")
    return vowels / len(letters) < 0.2


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


_KEY_ASSIGNED = re.compile(r"([A-Za-z_][\w.\-]{0,80})[\"'`\]]?\s*(?:[:=]|:=|=>|==|!=)\s*[\"'`@]?$")
_KEY_ADJACENT = re.compile(r"([A-Za-z_][\w.\-]{0,80})\s*$")
_DIGEST_WORDS = re.compile(r"sha\d*|md5|checksum|digest|integrity|hash|commit|etag|nonce")
_ATTRIBUTE_NAME = re.compile(r"""(?:name|key|id|property)\s*=\s*["']([^"'<>]{1,80})["']\s+$""", re.I)


def assigned_key(line: str, start: int) -> str:
    """The key of ``key = value`` / ``key: value`` ending right before ``start``, or ''."""
    head = line[max(0, start - 200):start].rstrip(" \t\"'`")  # bounded: lines may be huge
    match = _KEY_ASSIGNED.search(head)
    return match.group(1) if match else ""


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


def is_digest_context(line: str, start: int) -> bool:
    """True when the text right before a value marks it as a checksum, id or commit."""
    parts = word_parts(key_before(line, start))
    if parts and parts[-1] in DIGEST_KEYS:
        return True
    window = line[max(0, start - 40):start].lower()
    return bool(_DIGEST_WORDS.search(window))


def key_is_non_secret(key: str) -> bool:
    """A key that says its value is public or describes a secret (``public_key``, ``*_name``)."""
    from .patterns import DESCRIPTOR_WORDS, NON_SECRET_QUALIFIERS

    parts = [p for p in word_parts(key) if not p.isdigit()]
    return bool(parts) and (parts[-1] in DESCRIPTOR_WORDS or any(p in NON_SECRET_QUALIFIERS for p in parts))


def is_benign_in_line(line: str, value: str, *, secret_key: bool = False) -> bool:
    """``is_benign_value`` with the line as context.

    ``secret_key`` says the caller already knows the value is assigned to a secret-looking key;
    then soft categories (UUIDs, hex, long numbers) stop being benign.
    """
    start = line.find(value)
    if not secret_key and start >= 0 and key_is_non_secret(key_before(line, start)):
        return True
    reason = benign_reason(value)
    if reason is None:
        return False
    if reason not in SOFT_REASONS:
        return True
    if secret_key:
        return False
    if reason == "hex" and start >= 0 and not is_digest_context(line, start):
        # A quoted hex string with no digest context is what HexHighEntropyString is for.
        quoted = line[start - 1:start] in ("'", '"')
        return not quoted or len(value) in (40, 64, 128)
    return True
