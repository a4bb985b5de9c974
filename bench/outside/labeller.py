"""Label an outside example once, from its shape: credential, placeholder or identifier.

The rule sets write many examples by hand: runs of ``x`` or ``0``, ``<your-key>``, the alphabet
in order, a short block repeated. Those are placeholders, and a scanner that flags them costs
its users a warning on every README. Rules whose name says they find an id, a host, a user or a
public key (in Kingfisher mostly hidden rules that feed another rule's validation) find
identifiers. Everything else is a credential.

The labeller reads the value the rule captures (or, when that is unknown, the longest token
of the example); it is deliberately simple and never looks at what a scanner does with it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

CREDENTIAL = "credential"
PLACEHOLDER = "placeholder"
IDENTIFIER = "identifier"
# An upstream negative example that is not a placeholder: a near-miss of the format (one
# character too many, a wrong prefix). Reported on its own: flagging one is not clearly wrong.
NEAR_MISS = "near-miss"
LABELS = (CREDENTIAL, PLACEHOLDER, IDENTIFIER, NEAR_MISS)

# Words that announce a stand-in. Checked on the value only, never on the surrounding line.
_STAND_IN = re.compile(
    r"(?i)your[_\-.]?|example|placeholder|redacted|change[_-]?me|dummy|fake|sample|replace[_-]?(?:me|this|with)"
    r"|insert[_-]|xxxx|\*\*\*|\.\.\.|…|<[^<>\n]{1,80}>|\{\{|\$\{|%s\b|\[[a-z_ -]{3,40}\]"
    # The value is the name of what belongs there (user:password@host).
    r"|^(?:pass(?:word|wd)?|secret|token|api[_-]?key|user(?:name)?)$")
# A run of a filler character: 0000, xxxx, ****, ####.
_FILLER_RUN = re.compile(r"([xX0*#])\1{3,}")
# Any character repeated: aaaaa, 11111 (five in a row for values up to 35 characters, one sixth
# of the length beyond; random tokens of 20-64 characters almost never hold five).
_SAME_RUN = re.compile(r"(.)\1{4,}")
# Past this length a value is a key block or an encoded blob; only stand-in words mark it.
LONG_VALUE = 160
_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-.~:@]{8,}")
# Rule names that say the rule finds something that is not a secret.
_ID_NAME = re.compile(r"(?i)\b(?:id|ids|identifier|domain|host|hostname|url|endpoint|username|user|email|"
                      r"account name|org name|organization|instance|region|tenant|app id|public key|recipient)\b")
_SECRET_NAME = re.compile(r"(?i)secret|token|password|passwd|private|credential|\bpat\b|apikey|webhook|"
                          r"(?<!public )\bkey\b(?!\s*id\b)|signing|session")


def sequential_run(value: str, length: int = 6) -> bool:
    """True when the letters of ``value``, or its digits, hold ``length`` characters in alphabet
    order (abcdef, 123456, 98765...): also when written interleaved, as in a1b2c3d4e5f6."""
    # Runs collapse first: aaaabbbbcccc is the alphabet written four times over.
    collapsed = re.sub(r"(.)\1+", r"\1", value.lower())
    letters = "".join(c for c in collapsed if c.isascii() and c.isalpha())
    digits = "".join(c for c in collapsed if c.isdigit())
    return _ordered_run(letters, length) or _ordered_run(digits, length)


def _ordered_run(chars: str, length: int) -> bool:
    up = down = 1
    for prev, cur in zip(chars, chars[1:]):
        step = ord(cur) - ord(prev)
        up = up + 1 if step == 1 else 1
        down = down + 1 if step == -1 else 1
        if up >= length or down >= length:
            return True
    return False


def periodic(value: str, max_period: int = 8) -> bool:
    """True when ``value`` (12 characters or more) is one short block repeated three times or more."""
    if len(value) < 12:
        return False
    for period in range(1, min(max_period, len(value) // 3) + 1):
        if all(value[i] == value[i - period] for i in range(period, len(value))):
            return True
    return False


def low_variety(value: str) -> bool:
    """A long value written with very few distinct characters (a random 32-character token uses
    about 14 in hex, 22 in base64; the bar is one in six characters, and never above 8 so that
    long hex strings, which use all 16 digits, stay credentials)."""
    return len(value) >= 16 and len(set(value)) <= max(4, min(len(value) // 6, 8))


def placeholder_reason(value: str) -> str:
    """Why a captured value is a stand-in written by hand ("" when it looks like a credential)."""
    if _STAND_IN.search(value):
        return "stand-in word or template"
    if len(value) > LONG_VALUE:
        return ""  # a key block or blob: its encoding holds runs and orders by chance
    if _FILLER_RUN.search(value):
        return "filler run"
    longest = max((len(m.group(0)) for m in _SAME_RUN.finditer(value)), default=0)
    # Long tokens carry fixed runs in their format (padding, version fields): the bar rises with length.
    if longest >= max(5, len(value) // 6):
        return "one character repeated"
    if sequential_run(value):
        return "alphabet order"
    if periodic(value):
        return "repeated block"
    if low_variety(value):
        return "few distinct characters"
    return ""


def is_placeholder(value: str) -> bool:
    """Whether a captured value is a stand-in written by hand rather than a credential."""
    return bool(placeholder_reason(value))


def names_identifier(rule_name: str) -> bool:
    """Whether the rule's name says it finds an id, host, user or public key and no secret."""
    return bool(_ID_NAME.search(rule_name)) and not _SECRET_NAME.search(rule_name)


def longest_token(text: str) -> str:
    """The value a rule most likely captured when the rule's own capture is unknown."""
    tokens = _TOKEN.findall(text)
    return max(tokens, key=len) if tokens else text.strip()


def label(values: Sequence[str], text: str, *, rule_name: str = "", positive: bool = True,
          all_secrets: bool = False) -> str:
    """The label of one example: ``values`` are what the rule captures (empty when unknown),
    ``text`` the whole example, ``positive`` False for an upstream negative example.

    With ``all_secrets`` every value is a secret the rule reports (TruffleHog's ``want``): the
    example is a placeholder only when all of them are. Otherwise the values are one match's
    groups, and the secret is the longest (a pair such as id:secret captures both; the id is
    shorter)."""
    if positive and rule_name and names_identifier(rule_name):
        return IDENTIFIER
    captured = [v for v in values if v.strip()] or [longest_token(text)]
    judged = captured if all_secrets else [max(captured, key=len)]
    if all(is_placeholder(value) for value in judged):
        return PLACEHOLDER
    return CREDENTIAL if positive else NEAR_MISS
