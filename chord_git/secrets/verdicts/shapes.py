"""Shape tests for values: placeholders, identifiers, degenerate strings (R31).

Low-level predicates shared by ``benign`` (layer 2's filter) and layer 1's detectors; pure
functions over one string, no context.
"""
from __future__ import annotations

import base64
import binascii
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
                          "not_a_real", "not-a-real", "notareal", "insert_", "put_your",
                          # the same instruction with a separator: CHANGE_ME_IN_PRODUCTION, change-this
                          "change_me", "change-me", "changethis", "change_this", "change-this")
# Words that are placeholders only when the value has no digits (``abc12fake`` may be real).
SOFT_PLACEHOLDER_SUBSTRINGS = ("fake", "sample", "secret", "password", "token", "here")
# Each list as one search: a value is read once, not once per word (dense text judges thousands).
_PLACEHOLDER_SUBSTRING = lazy("|".join(map(re.escape, PLACEHOLDER_SUBSTRINGS)))
_SOFT_PLACEHOLDER_SUBSTRING = lazy("|".join(map(re.escape, SOFT_PLACEHOLDER_SUBSTRINGS)))
# Stand-in words that mark a generated-looking value as written by hand (``_stand_in_inside``),
# each in the three cases a person types it (``dummy`` is a stand-in anywhere, above). ``test`` is
# not one: vendors put it in real keys (``sk_test_``, ``shippo_test_``, ``test_pub_``).
INSIDE_STAND_IN_WORDS = ("fake", "sample")
_INSIDE_STAND_IN = lazy("|".join(form for word in INSIDE_STAND_IN_WORDS
                                 for form in (word, word.upper(), word.capitalize())))

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
# ``=``, ``&`` and ``?`` join fields in a query or a key=value template: ``locale={locale}``,
# ``?user={user}&token={token}``.
_FORMAT_STRING = lazy(r"[\w.:/@~=&?-]*(?:(?:\{[a-z_][a-z0-9_]{0,20}\}|<[a-z_][a-z0-9_-]{0,20}>)[\w.:/@~=&?-]*)+")
# A vendor prefix whose random part was left out (``sk-ant-api03-`` before an ellipsis the reader
# dropped, ``ghp_``): short segments ending on a separator. Generated tokens have a long segment.
_BARE_PREFIX = lazy(r"(?:[A-Za-z0-9]{1,6}[-_]){1,4}")
# Base64 that may hide a stand-in (Kubernetes Secret data: ``cGFzc3dvcmQ=`` is "password").
_BASE64 = lazy(r"(?:[A-Za-z0-9+/]{4}){1,16}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_PRINTABLE_TEXT = lazy(r"[\x20-\x7e]+")
# A constant's name in capitals (``MCMANAGER_DATA_DIR``, ``YOUR_PASSWORD``, ``VOTRE_MOT_DE_PASSE``):
# the name of where a value lives, or a stand-in written as one, in any language. Words of
# letters, a number only as the last part; generated values are not written so.
_CONSTANT_NAME = lazy(r"[A-Z]{2,}(?:_[A-Z]{2,})+(?:_\d{1,3})?")
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


# Neighbours on a keyboard row: ``qwerty``, ``asdf`` and ``zxcv`` are walked like the alphabet.
_KEYBOARD_NEIGHBOURS = frozenset(
    pair for row in ("qwertyuiop", "asdfghjkl", "zxcvbnm") for a, b in zip(row, row[1:]) for pair in (a + b, b + a))
# A walk is made of runs of at least this many characters, and is this long at least (a random
# 16-character hex string passes one time in 10^5 with runs of four, never seen with five).
_WALK_RUN, _WALK_MIN = 5, 16
# The short first part of a value before its separator: a vendor's prefix (``shpss_``, ``sk-``).
_WORD_PREFIX = lazy(r"[A-Za-z0-9]{1,12}[-_.:]")


def _is_ordered_walk(core: str) -> bool:
    """Letters and digits (``core``) written in order rather than drawn: ``1234567890abcdef``
    repeated, ``a1b2c3d4…``, ``abcd1234efgh5678…``, ``zyxw9876…``, ``xyz987abc654…``, ``qwerty``.

    The letters and the digits are read as two streams (interleaving them hides nothing),
    repeats collapse (``aabbcc``), and each stream steps by one up or down the alphabet, around
    its end (``9`` to ``0``, ``z`` to ``a``) or along a keyboard row. Every character must sit in
    a run of five or more such characters (the last run of a stream may be cut short by the end
    of the value): a value drawn at random breaks that within its first characters, and so does one
    that only borrows stretches of the alphabet (``12345678-ABCD-ABCD-…``, whose letters restart
    every four, or ``…ABCDEFH…``, which skips a letter, are left to the other tests).
    """
    if len(core) < _WALK_MIN:
        return False
    # Per stream (0: letters, 1: digits): the last character and the length of its run.
    last = ["", ""]
    run = [0, 0]
    previous = ""
    kept = 0
    for char in core.lower():
        if char == previous:
            continue  # aaaabbbb is abab written slowly
        previous = char
        kept += 1
        stream = 1 if char.isdigit() else 0
        prev = last[stream]
        last[stream] = char
        if prev:
            modulus = 10 if stream else 26
            step = (ord(char) - ord(prev)) % modulus
            if step in (1, modulus - 1) or (not stream and prev + char in _KEYBOARD_NEIGHBOURS):
                run[stream] += 1
                continue
            if run[stream] < _WALK_RUN:
                return False  # random text leaves at its first characters
        run[stream] = 1
    return kept >= _WALK_MIN * 3 // 4  # the last run of each stream may be cut short by the value's end


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
    if _stand_in_inside(v):
        return True
    if len(v) <= 64 and _placeholder_words(v):  # stand-ins made of words are short: YOUR_KEY_HERE
        return True
    if _BARE_PREFIX.fullmatch(v):
        return True
    if _CONSTANT_NAME.fullmatch(v) and not any(_looks_random_word(w) for w in v.split("_")):
        return True
    return is_degenerate(v) or _encoded_stand_in(v)


def _stand_in_inside(value: str) -> bool:
    """A stand-in word written into a value that otherwise looks generated: ``Qw7fake+Lp…fake/``,
    ``…a7f2fake``, ``SAMPLE-9f3k…``. In one case (``FaKe`` in a mixed-case token is chance), and
    either twice or as a whole run of letters; a generated value holds neither."""
    found = 0
    for match in _INSIDE_STAND_IN.finditer(value):
        start, end = match.span()
        if not (value[start - 1:start].isalpha() or value[end:end + 1].isalpha()):
            return True
        found += 1
        if found >= 2:
            return True
    return False


def _encoded_stand_in(value: str) -> bool:
    """Base64 of a stand-in (``Y2hhbmdlbWU=``: "changeme"): Kubernetes manifests encode the
    placeholder of a Secret's data. Base64 of anything else is judged as written."""
    if len(value) < 8 or not _BASE64.fullmatch(value):
        return False
    try:
        decoded = base64.b64decode(value, validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return _PRINTABLE_TEXT.fullmatch(decoded) is not None and decoded != value and is_placeholder(decoded)


@lru_cache(maxsize=VERDICTS)
def is_degenerate(value: str) -> bool:
    """Too little variety to be generated: one or two characters, a sequence, a short repeat."""
    core = _NON_ALNUM.sub("", value)
    if _is_low_variety(core) or _is_sequential(core) or _is_periodic(core) or _is_ordered_walk(core):
        return True
    # A vendor's prefix, then a walk: ``shpss_a1b2c3d4…``, ``sk-abc123def456…``.
    prefix = _WORD_PREFIX.match(value)
    return prefix is not None and _is_ordered_walk(_NON_ALNUM.sub("", value[prefix.end():]))


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
