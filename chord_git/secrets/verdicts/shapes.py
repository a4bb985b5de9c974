"""Shape tests for values: placeholders, identifiers, degenerate strings (R31).

Low-level predicates shared by ``benign`` (layer 2's filter) and layer 1's detectors; pure
functions over one string, no context.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

from ...support.regex_lazy import lazy

# How many verdicts each pure value test remembers. Dense text repeats its values (a label every
# few characters, the same token pasted a thousand times), and a verdict costs 10-40 us of
# Python; a bounded cache makes a repeat cost a dict lookup. Two rules judge each assigned value
# (the assignment and the label after it), one pass over the text each: 326 KiB of one-line
# assignments holds 12,000 distinct values, which a smaller cache forgot before the second pass.
VERDICTS = 1 << 14

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
# Each list as one search: a value is read once, not once per word (dense text judges thousands).
_PLACEHOLDER_SUBSTRING = lazy("|".join(map(re.escape, PLACEHOLDER_SUBSTRINGS)))
_SOFT_PLACEHOLDER_SUBSTRING = lazy("|".join(map(re.escape, SOFT_PLACEHOLDER_SUBSTRINGS)))

_REDACTION = lazy(r"\[(?:REDACTED|MASKED|FILTERED|HIDDEN|SECRET)(?::[\w.-]*)?\]", re.I)
_TEMPLATE = lazy(
    r"""^(?:
        <[^<>]*> | \[[^\[\]]*\] | \{[^{}]*\} | \{\{.*\}\} | \{%.*%\} | <%.*%>
      | \$\{.*\} | \$\(.*\) | \$[A-Za-z_][\w]* | \$\d | %\(?[\w.]*\)?[sd] | %[A-Za-z_][\w]*%
      | @[A-Za-z_][\w.]*@ | __[A-Z_]+__ | \#\{.*\}
    )$""",
    re.X | re.S,
)
# A value that starts by referring to something else: $VAR, $(cmd), ${X}, {{ x }}, <%= x %>.
_REFERENCE_START = lazy(
    r"^(?:\$[({A-Za-z_\d]|\{\{|\{%|<%|%\(|#\{|<[A-Za-z_ -]+>?$|\{[A-Za-z_][\w.]*[(}])")
_EMBEDDED_TEMPLATE = lazy(r"\$\{[\w.:?\-]+\}|\{\{[^{}]*\}\}|\$\{\{[^{}]*\}\}|<%=?[^%]*%>")
# A format string or path with named fields and nothing else odd: ``user:{id}:profile``,
# ``rate:{ip}``, ``/Users/<user>/.ssh/id_rsa``.
_FORMAT_STRING = lazy(r"[\w.:/@~-]*(?:(?:\{[a-z_][a-z0-9_]{0,20}\}|<[a-z_][a-z0-9_-]{0,20}>)[\w.:/@~-]*)+")
_IDENT_PART = lazy(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_CALL_OR_INDEX = lazy(r"^[A-Za-z_$][\w$.]*(?:::[\w$]+)*\s*[\(\[].*[\)\]][;,]?$", re.S)
_LONG_RUN = lazy(r"(.)\1{7,}")
_RUNS = lazy(r"(.)\1{2,}")
_MASK = lazy(r"\*{3,}|#{4,}|[xX]{4,}|\.{2}")
_DIGIT = lazy(r"\d")
_NON_ALNUM = lazy(r"[^A-Za-z0-9]")
_CAMEL_SPLIT = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# Keys whose values are checksums, ids or other public identifiers.


@lru_cache(maxsize=VERDICTS)
def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` (0 for the empty string)."""
    if not value:
        return 0.0
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


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
    # value[n] == value[0] is needed for period n: random text is refused without building copies.
    return any(value[n] == value[0] and value == (value[:n] * (len(value) // n + 1))[: len(value)]
               for n in range(1, 5))


def _placeholder_words(value: str) -> bool:
    """Every word of ``value`` (``words.keys.word_parts``) a placeholder word or a number of one or two
    digits, and at least one word; read word by word, so a generated value stops at its first."""
    seen = False
    for chunk in _NON_ALNUM.split(value):
        for match in _CAMEL_SPLIT.finditer(chunk):
            part = match.group(0).lower()
            if not (part in PLACEHOLDER_WORDS or part.isdigit() and len(part) <= 2):
                return False
            seen = True
    return seen


def has_stand_in_word(low: str) -> bool:
    """Does ``low`` (a lower-cased value) hold a stand-in word anywhere: ``example``, ``xxxx``,
    ``changeme``, and the softer ``token``, ``secret``, ``sample``…?"""
    return _PLACEHOLDER_SUBSTRING.search(low) is not None or _SOFT_PLACEHOLDER_SUBSTRING.search(low) is not None


@lru_cache(maxsize=VERDICTS)
def is_placeholder(value: str) -> bool:
    """A stand-in such as ``<YOUR_API_KEY>``, ``xxxx``, ``****``, ``sk-...`` or ``${VAR}``."""
    v = value.strip()
    if not v:
        return True
    if (_TEMPLATE.match(v) or _REFERENCE_START.match(v)) and not _random_inside_brackets(v):
        return True
    if _REDACTION.search(v) or _EMBEDDED_TEMPLATE.search(v) or _FORMAT_STRING.fullmatch(v):
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
    if _PLACEHOLDER_SUBSTRING.search(low):
        return True
    if not _DIGIT.search(v) and _SOFT_PLACEHOLDER_SUBSTRING.search(low):
        return True
    if len(v) <= 64 and _placeholder_words(v):  # stand-ins made of words are short: YOUR_KEY_HERE
        return True
    return is_degenerate(v)


@lru_cache(maxsize=VERDICTS)
def is_degenerate(value: str) -> bool:
    """Too little variety to be generated: one or two characters, a sequence, a short repeat."""
    core = _NON_ALNUM.sub("", value)
    return _is_low_variety(core) or _is_sequential(core) or _is_periodic(core)


def _random_inside_brackets(value: str) -> bool:
    """``{ZqL5kVrX1n8tA2}`` is a credential written in braces, ``{hunter2}`` a template."""
    inner = value[1:-1] if value[:1] in "{[<" and value[-1:] in "}]>" else ""
    return bool(inner) and re.fullmatch(r"[A-Za-z0-9_\-]{8,}", inner) is not None \
        and _looks_random_word(inner)


@lru_cache(maxsize=VERDICTS)
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


@lru_cache(maxsize=VERDICTS)
def looks_random(value: str) -> bool:
    """Does a letters-and-digits run (``/`` and ``+`` allowed) look generated rather than named?"""
    return _looks_random_word(value.replace("/", "").replace("+", ""))


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
