"""Reading a value out of a line of prose, and asking the value test about it (R31).

Shared by the label rules (``prose``) and the login pairs (``pairs``): a value is delimited by
quotes, backticks, bold markers or a table cell, or is a bare run of printable ASCII without the
sentence punctuation after it. Verdicts of ``values.credential_value`` are remembered for the
scan, since notes repeat their placeholders.
"""
from __future__ import annotations

from ...support.regex_lazy import lazy
from ..verdicts import values
from ..verdicts.dense import ShapeVerdicts
from ..words import vocab
from .spans import RANK_ASSIGNMENT, Span

LINE = 400  # how far a rule looks along a line from where it starts
_BARE = lazy(r"[\x21-\x7e]{1,200}")
_TRAILING = ".,;:)]}>'\"`*"
_OPENERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_INDIRECT = lazy(r"[A-Za-z_$][\w.$]*[(\[]")
_USER = lazy(r"[A-Za-z0-9_.@+\-]{1,40}")
# A string literal's prefix in code: bytes, raw, format, unicode.
_STRING_PREFIX = lazy(r"(?:[bBrRuUfF]|[rR][bBfF]|[bBfF][rR])(?=['\"])")

Value = tuple[int, int, bool]  # start, end, delimited


def line_bounds(view: str, start: int, end: int) -> tuple[int, int]:
    """The line around ``start``..``end``, at most ``LINE`` characters either way."""
    left = view.rfind("\n", max(0, start - LINE), start) + 1 or max(0, start - LINE)
    right = view.find("\n", end, end + LINE)
    return left, (right if right >= 0 else min(len(view), end + LINE))


def strip_value(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop sentence punctuation after a bare value; keep balanced brackets and ellipses."""
    if text.startswith("...", end - 3) and end - 3 >= start:
        return start, end  # ``sk-...``: a truncated stand-in, which the value test recognises
    while end > start and text[end - 1] in _TRAILING:
        closer = text[end - 1]
        opener = _OPENERS.get(closer)
        if opener is not None and text.count(opener, start, end) >= text.count(closer, start, end):
            break
        end -= 1
    return start, end


def unquote(text: str, start: int, end: int) -> Value:
    """The inside of a quoted or backticked value, else the value without trailing punctuation."""
    if end - start >= 2 and text[start] in "`\"'" and text[end - 1] == text[start]:
        return start + 1, end - 1, True
    return (*strip_value(text, start, end), False)


class ValueReader:
    """Values in one text, with the value test's verdicts remembered for the scan."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._verdicts: dict[tuple[str, str, bool, bool], bool] = {}
        self._dense = ShapeVerdicts()

    def value_at(self, pos: int, end: int, cell: bool = False) -> Value | None:
        """The value that starts at ``pos`` (no further than ``end``)."""
        text = self.text
        if pos >= end:
            return None
        if cell:
            stop = text.find("|", pos, end)
            start, stop = pos, (end if stop < 0 else stop)
            while start < stop and text[start] in " \t*`":
                start += 1
            while stop > start and text[stop - 1] in " \t*`":
                stop -= 1
            return (start, stop, True) if stop > start else None
        prefix = _STRING_PREFIX.match(text, pos, end)
        if prefix is not None:
            pos = prefix.end()  # ``b'password1'``, ``r'[a-z]{64}'``: the string literal's inside
        for opener in ("**", "__", "`", '"', "'"):
            if text.startswith(opener, pos):
                close = text.find(opener, pos + len(opener), min(end, pos + 202))
                if close <= pos + len(opener):
                    return None
                inner = self.value_at(pos + len(opener), close) if opener in ("**", "__") else None
                return inner or (pos + len(opener), close, True)
        bare = _BARE.match(text, pos, end)
        if bare is None or _INDIRECT.match(text, pos, bare.end()):
            return None  # ``os.environ["X"]``, ``config.get(...)``: code that fetches the value
        end = bare.end()
        tag = text.find("</", pos + 1, end)
        if tag > pos:
            end = tag  # ``<li><b>Password:</b> …</li>``: the closing tag is markup, not the value's end
        start, stop = strip_value(text, pos, end)
        return (start, stop, False) if stop > start else None

    def is_credential(self, value: str, cls: str, delimited: bool = False, direct: bool = False) -> bool:
        key = (value, cls, delimited, direct)
        verdict = self._verdicts.get(key)
        if verdict is None:
            context = (cls, delimited, direct)
            if self._dense.known(value, context):
                verdict = True  # dense text: shaped like a credential found before (``verdicts.dense``)
            else:
                verdict = values.credential_value(value, cls, quoted=delimited, direct=direct)
                self._dense.remember(value, context, verdict)
            self._verdicts[key] = verdict
        return verdict

    def span(self, got: Value | None, cls: str, kind: str, direct: bool = False) -> Span | None:
        """A finding for the value ``got`` if the value test calls it a credential."""
        if got is None:
            return None
        start, end, delimited = got
        value = self.text[start:end]
        if cls == vocab.PASSWORD and not delimited and value.count("/") == 1:
            user, _, secret = value.partition("/")  # "admin/Tr0ub4dor&3" after a password label
            if _USER.fullmatch(user) and self.is_credential(secret, cls):
                return Span(end - len(secret), end, kind, RANK_ASSIGNMENT)
        if self.is_credential(value, cls, delimited, direct):
            return Span(start, end, kind, RANK_ASSIGNMENT)
        return None


__all__ = ["LINE", "Value", "ValueReader", "line_bounds", "strip_value", "unquote"]
