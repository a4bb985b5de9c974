"""Layer-1 scanner for a service's credential word set right before its value, with no ``=`` (R31).

``acme PRIVATE <value>``, ``acme key <value>``, ``acmeACCESS <value>``,
``acmePRIVATE.<value>``, ``acme-token-<value>``, ``ac-apikey-<value>``: a service's
name, a word that names a credential (``private``, ``access``, ``secret``, ``token``, ``key``,
``apikey``, two of them joined: ``secret-KEY``, ``PRIVATEkey``), then the value, separated by
blanks, a dash, a dot or an underscore, or glued in capitals. Config dumps, logs and notes write
credentials so; no assignment sign means ``assignments`` does not read them, and no sentence
around them means ``prose`` does not.

What keeps it from reading names: the value must pass the strict value test (generated, no
placeholder), the service word must be a word (letters first, 2 to 40 characters) that does not
make the credential word an identifier (``cache key``, ``public key``, ``partition-key``: the
qualifiers of ``words.keys``), and a credential word glued to the service word in lower case
(``monkey``, ``turkey``) is part of that word, not a label. A bare ``key`` after a dash
(``cache-key-<hash>``) is a name's part too: only the other words may be glued by a dash.

Linear time: the credential words are found once (``text.anchors.Occurrences``), and each hit
reads at most ``_MAX_SERVICE`` characters back and ``_MAX_VALUE`` forward.
"""
from __future__ import annotations

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import values
from ..words import keys, vocab

KIND = "secret-in-text"
_MAX_SERVICE = 40
_MAX_VALUE = 256
# Words that name a credential when set right before a value.
LABEL_WORDS = ("private", "access", "secret", "token", "key", "apikey")
_LABEL = "(?:private|access|secret|token|key|apikey)"
# The label (one word, or two joined), the gap, the value; read from a label word's position.
_AFTER = lazy(r"(?i:(?P<label>" + _LABEL + r"(?:[-_ ]?" + _LABEL + r")?))"
              r"(?P<gap>[ \t]{1,4}|[-._:=])"
              # ``=`` only pads the end: ``SECRET_4=…`` is the key of an assignment, not a value.
              r"(?P<value>[A-Za-z0-9][A-Za-z0-9+/_.-]{15," + str(_MAX_VALUE) + r"}=*)"
              r"(?![A-Za-z0-9+/_.=-])")
# The service word right before the label, read backwards from it: letters first, then digits.
_SERVICE = lazy(r"(?:^|(?<=[^A-Za-z0-9]))(?P<service>[A-Za-z][A-Za-z0-9]{1," + str(_MAX_SERVICE - 1) + r"})"
                r"(?P<join>[ \t]|[-_.]|)$")
# Qualifiers that make the credential word an identifier's (``words.keys``).
_NON_CREDENTIAL = keys.NON_SECRET_QUALIFIERS | keys.ID_KEY_QUALIFIERS


def _service_before(view: str, at: int, label: str) -> str | None:
    """The service word ending right before the label at ``at`` (lower case), or None."""
    window = view[max(0, at - _MAX_SERVICE - 1):at]
    match = _SERVICE.search(window)
    if match is None:
        return None
    service, join = match.group("service"), match.group("join")
    if not join:
        # Glued: the label starts a new word only in capitals (``acmeACCESS``).
        if not label[:1].isupper() or not service[-1:].isalpha() or service[-1].isupper() and label.isupper():
            return None
    low = service.lower()
    if low in _NON_CREDENTIAL or low in LABEL_WORDS or low in vocab.STOP_WORDS:
        return None
    return low


def scan(text: str, view: str, occurrences: Occurrences) -> list[Span]:
    """Values set right after ``<service> <credential word>`` with no assignment sign."""
    found: list[Span] = []
    covered = -1
    for at in occurrences.of_all(LABEL_WORDS):
        if at < covered:
            continue  # the second word of a joined label (``secret-KEY``)
        match = _AFTER.match(view, at)
        if match is None:
            continue
        label, gap = match.group("label"), match.group("gap")
        if gap in "-._" and label.lower() == "key":
            continue  # ``cache-key-…``, ``ssh_key_…``: part of a name
        if _service_before(view, at, label) is None:
            continue
        start, end = match.span("value")
        value = text[start:end]
        if values.credential_value(value, vocab.SECRET, direct=True):
            found.append(Span(start, end, KIND, RANK_ASSIGNMENT))
            covered = end
    return found


__all__ = ["KIND", "LABEL_WORDS", "scan"]
