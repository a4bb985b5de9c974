"""The value test of the prose layer: is this the credential, or words about it? (R31)

A value found after a label ("the password is …", ``**Token:** …``, a table cell, a command-line
flag) is a credential only if it looks like one: typed passwords have a digit, a symbol or mixed
case; generated tokens are long and random; passphrases are several unusual words. References
("in the vault", "from 1Password", ``$VAR``, ``<TOKEN>``), masks (``***``), defaults meant to be
changed (``changeme``, ``admin``), tutorial values (``demopassword123``) and sentence words are not.
Pure functions over one string.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ...support.regex_lazy import lazy
from ..words import vocab
from .benign import benign_reason
from .shapes import VERDICTS, case_switch_ratio, is_degenerate, is_placeholder, shannon_entropy

_PRINTABLE = lazy(r"[\x21-\x7e]+")
_TOKEN_CHARS = lazy(r"[A-Za-z0-9_\-+/=.~:%]+")
_SEPARATORS = lazy(r"[-_.]+")
_WORD_SPLIT = lazy(r"[-_. ]+")
_TUTORIAL = lazy(r"([a-z]+)[-_.]?(\d{0,4})[!.#@]?")
_LETTERS = lazy(r"[A-Za-z]+")
_VOWELS = frozenset("aeiouy")
_DIGIT = lazy(r"\d")
_ALPHA = lazy(r"[A-Za-z]")
_UPPER = lazy(r"[A-Z]")
_LOWER = lazy(r"[a-z]")
_HEX = lazy(r"[0-9a-fA-F]+")
_STRONG_SYMBOL = lazy(r"[^A-Za-z0-9\-_.]")
_HOST_PORT = lazy(r"[\w.-]+:\d{2,5}(?:/|$)")  # ``localhost:3000/api/me``
_UUID = lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_STRONG_SYMBOLS = frozenset("!@#$%^&*+=?~|")
# Code, flags, anchors and possessives rather than a value: ``v8::Object``, ``f()``, ``--flag=x``,
# ``#section``, ``chord-git's``.
_CODE = lazy(r"::|\(\)|->|^--?[A-Za-z]|^#[a-z0-9][a-z0-9-]*$|^[\]})>]|^[A-Za-z_][\w.]*=[^=]|^[A-Za-z-]+'s$"
                   # a regular expression: (?:…), [^…], […]{64}, \d
                   r"|\(\?[:=!<P]|\[\^|\][{*+?]|\\[dwsDWS]"
                   # a reStructuredText role: :data:`h11.CLIENT`, :py:func:`main`
                   r"|^:[a-z]+(?::[a-z]+)?:`"
                   # an attribute of an object a program holds: self.auth_decoded, os.environ
                   r"|^(?:self|this|cls|ctx|os|sys|config|settings|process|request|args|opts|options|params)\.[A-Za-z_]"
                   # an attribute path in snake case: parsed.auth_decoded, resp.json_body.api_token
                   r"|^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*\.[a-z][a-z0-9]*_[a-z0-9_]*$"
                   # a key with nothing assigned, an env template's line (``GEMINI_API_KEY=``,
                   # ``api_token:``): the key of the next assignment, not a value
                   r"|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[=:]$|^[a-z][a-z0-9]*(?:_[a-z0-9]+)+[=:]$"
                   # a member of what a call returns: Theme.of(context).colorScheme.surface
                   r"|^[A-Za-z_][\w.]*\([\w., ]*\)(?:\.[A-Za-z_]\w*)+$")
# The name of a password hashing scheme or digest ("Senhas: argon2", "passwords: bcrypt/argon2"):
# how passwords are stored, not one of them.
_HASH_SCHEME = lazy(r"argon2(?:id|i|d)?|b?crypt|s?crypt|yescrypt|pbkdf2(?:[-_]?(?:hmac[-_]?)?sha-?\d{1,3})?"
                    r"|sha-?(?:1|224|256|384|512)(?:crypt)?|md5(?:crypt)?|blake[23][bs]?", re.I)
_REFERENCE_START = lazy(r"^(?:\$|%[A-Za-z_]|<|\{\{|\$\{|\(|\[|see\b|ask\b|from\b|in\b)", re.I)


def _has_tutorial_shape(low: str) -> bool:
    """``demopassword123``, ``appuser1``, ``admin123!``: stock words and a few digits."""
    match = _TUTORIAL.fullmatch(low)
    if match is None:
        return False
    letters = match.group(1)
    # Split the letters into known words (short dynamic programme: values are short).
    reach = [True] + [False] * len(letters)
    for end in range(1, len(letters) + 1):
        reach[end] = any(reach[start] and letters[start:end] in vocab.TUTORIAL_WORDS
                         for start in range(max(0, end - 9), end))
    return reach[-1]


def _reference_or_default(v: str) -> bool:
    """``is_reference_or_default`` without the placeholder test (``benign_reason`` runs that)."""
    low = v.lower()
    if not v or low in vocab.REFERENCE_WORDS or low in vocab.DEFAULT_VALUES or _REFERENCE_START.match(v):
        return True
    # ``demopassword123``, ``admin123``: stock words and digits, typed in lower case. With a
    # capital and a symbol (``TestPass123!``) someone chose it for a real account.
    return (v == low or _STRONG_SYMBOL.search(v) is None) and _has_tutorial_shape(low)


@lru_cache(maxsize=VERDICTS)
def is_reference_or_default(value: str) -> bool:
    """A stand-in, a pointer to where the secret lives, a mask, or a default to be changed."""
    v = value.strip()
    return _reference_or_default(v) or is_placeholder(v)


def _unpronounceable(letters: str) -> bool:
    """Lower-case letters that no language spells: ``qzkvbtrwmxnp``."""
    low = letters.lower()
    if len(low) < 12:
        return False
    vowels = sum(1 for c in low if c in _VOWELS)
    if vowels / len(low) < 0.2:
        return True
    run = longest = 0
    for c in low:
        run = 0 if c in _VOWELS else run + 1
        longest = max(longest, run)
    return longest >= 5


@lru_cache(maxsize=VERDICTS)
def token_like(value: str) -> bool:
    """A generated credential: long, from a token alphabet, random."""
    v = value
    if len(v) < 16 or len(v) > 1024 or not _TOKEN_CHARS.fullmatch(v) or _HOST_PORT.match(v):
        return False
    core = _SEPARATORS.sub("", v)
    has_digit = _DIGIT.search(core) is not None
    letters = "".join(_LETTERS.findall(core))
    if letters and has_digit:
        if _HEX.fullmatch(core):
            random = len(core) >= 16
        elif _SEPARATORS.search(v) and not _random_segments(v):
            return False  # a slug such as ``checkout-v2-rollout``
        else:
            random = shannon_entropy(core) >= 3.0
    elif letters:
        random = (len(letters) >= 16 and case_switch_ratio(letters) >= 0.3) or _unpronounceable(letters)
    else:
        return False
    return random and not is_degenerate(v)


def _random_segments(value: str) -> bool:
    """At least one part of a separated value looks generated (digits among letters, no words)."""
    for part in _SEPARATORS.split(value):
        if len(part) >= 8 and sum(c.isdigit() for c in part) and any(c.isalpha() for c in part):
            return True
        if len(part) >= 12 and (_unpronounceable(part) or case_switch_ratio(part) >= 0.3):
            return True
    return False


def password_like(value: str, *, direct: bool = False) -> bool:
    """A password a person typed: a digit, a symbol or mixed case; stricter without a separator."""
    v = value
    if len(v) < 6 or len(v) > 128 or not _PRINTABLE.fullmatch(v) or _ALPHA.search(v) is None:
        return False
    has_digit = _DIGIT.search(v) is not None
    strong_symbol = _STRONG_SYMBOL.search(v) is not None
    mixed = _UPPER.search(v) is not None and _LOWER.search(v) is not None
    if direct:
        return has_digit and (strong_symbol or mixed)
    if has_digit or (strong_symbol and len(v) >= 8):
        return True
    letters = "".join(_LETTERS.findall(v))
    return (mixed and len(v) >= 10 and case_switch_ratio(letters) >= 0.3) or _unpronounceable(letters)


def passphrase_like(value: str) -> bool:
    """Several uncommon words joined by dashes, dots or spaces: ``plume-cactus-river-echo``."""
    words = [w for w in _WORD_SPLIT.split(value.strip()) if w]
    alpha = [w for w in words if w.isalpha()]
    if len(words) < 3 or len(words) > 8 or len(value) < 14 or len(alpha) < 2:
        return False
    if any(w.lower() in vocab.FUNCTION_WORDS or w.lower() in vocab.REFERENCE_WORDS for w in alpha):
        return False
    return all(len(w) >= 3 for w in alpha) and all(w.isalnum() for w in words)


def _quoted_phrase(value: str) -> bool:
    """A quoted passphrase with spaces: ``"velvet tiger sunrise 1987"``."""
    words = value.split()
    if not 3 <= len(words) <= 8 or len(value) > 64:
        return False
    if words[0].lower() in vocab.STOP_WORDS or words[0].lower() in vocab.REFERENCE_WORDS:
        return False
    if any(c.isdigit() for c in value) or any(c in _STRONG_SYMBOLS for c in value):
        return True
    # Diceware: four or more plain lower-case words, none of them the small words of a sentence.
    return len(words) >= 4 and all(w.isalpha() and w.islower() and len(w) >= 3 and w not in vocab.FUNCTION_WORDS
                                   and w not in vocab.STOP_WORDS for w in words)


# Hosts only the machine itself or its private network resolves: loopback, the any-address, the
# Docker host alias, and a name with no dot (a compose or Kubernetes service: ``db``, ``postgres``).
_LOCAL_HOST = lazy(r"localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|::1|host\.docker\.internal"
                   r"|[A-Za-z][A-Za-z0-9_-]{0,62}", re.I)


def is_local_default_login(user: str, password: str, host: str) -> bool:
    """A development database login in a URL: a stock password, or the user name repeated as the
    password (``postgres:postgres``, ``root:root``, ``app:app``), on a local or service host.

    Both halves are needed: a typed password on localhost and a stock one on a real host are
    still credentials.
    """
    low = password.lower()
    stock = low == user.lower() or low in vocab.DEFAULT_VALUES
    return stock and _LOCAL_HOST.fullmatch(host) is not None


# Categories of ``benign.benign_reason`` that a labelled value may still be (API keys are hex
# strings or UUIDs; the label overrides).
_LABEL_OVERRIDES = {vocab.PASSWORD: {"hex", "identifier"}, vocab.SECRET: {"hex", "uuid"},
                    vocab.WEAK: {"hex"}}


@lru_cache(maxsize=VERDICTS)
def credential_value(value: str, label: str, *, quoted: bool = False, direct: bool = False) -> bool:
    """Is ``value``, found after a label of class ``label``, a credential?

    ``quoted`` says the value was delimited (quotes, backticks, bold, a table cell), which allows
    a passphrase with spaces; ``direct`` says nothing separated it from the label
    (``password Tr0ub4dor&3``), which asks for a stronger shape.
    """
    v = value.strip()
    if not v or len(v) > 1024:
        return False
    if " " in v:
        return quoted and label == vocab.PASSWORD and _quoted_phrase(v) and not is_reference_or_default(v)
    if v.lower() in vocab.STOP_WORDS or _CODE.search(v) or _HASH_SCHEME.fullmatch(v):
        return False
    strict = direct and not quoted
    # The shape first: it is cheap and rejects the words of a sentence.
    if label == vocab.PASSWORD:
        shaped = password_like(v, direct=strict) or token_like(v) or (not strict and passphrase_like(v))
    elif label == vocab.SECRET:
        shaped = token_like(v) or (not strict and password_like(v)) or _UUID.fullmatch(v) is not None
    else:
        shaped = token_like(v)
    if not shaped or ("/" in v and not token_like(v)):
        return False  # ``owner/repo#277``, ``docs/setup.md``: a path or a reference, not a password
    reason = benign_reason(v)  # includes the placeholder test, except for the soft categories
    if reason is not None and reason not in _LABEL_OVERRIDES[label]:
        return False
    if _reference_or_default(v) or (reason is not None and is_placeholder(v)):
        return False
    # ``settings.DB_PASSWORD``, ``svc-jira``: names, not values; ``sunflower-42`` after a
    # password label is a password.
    if reason != "identifier" or password_like(v, direct=True) or passphrase_like(v):
        return True
    return label == vocab.PASSWORD and not strict and "." not in v and _DIGIT.search(v) is not None


__all__ = ["credential_value", "is_local_default_login", "is_reference_or_default", "passphrase_like", "password_like", "token_like"]
