"""Layer-1 scanner for a password said in an English sentence without a label next to it (R31).

"It's … for the staging DB", "Password? It's …", "Use … to log in to the router", "log in with
… on the staging server". The sentence says what the value is for (a system after "for", or
logging in), or a label stands a few words before it; the value must pass the value test, the
stricter one when nothing but the sentence's shape names it.

Linear time: each anchor ("it's", "it is", "log", "sign") is found once by ``Occurrences`` and
read with a pattern bounded to its line.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.reader import unquote
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import values
from ..words import vocab

KIND = "password-in-text"
_VALUE = r"(?P<v>`[^`\n]{1,100}`|\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|[\x21-\x7e]{1,100}?)"
_SYSTEMS = (r"db|database|server|box|vm|host|account|login|vpn|wifi|wi-fi|router|nas|admin|user|cluster|instance"
            r"|app|site|portal|console|dashboard|panel|machine|laptop|mac|pc|phone|printer|switch|firewall"
            r"|redis|postgres|mysql|mongo|ldap|ftp|sftp|smtp|mail|email|inbox|wiki|jira|jenkins|grafana|kibana")
# "it's <value> for the staging DB", "it is <value>." (after a label, see _LABEL_BEFORE).
_ITS = lazy(rf"""it(?:'s|[ \t]+is|[ \t]+was)[ \t]+(?:just[ \t]+|now[ \t]+|still[ \t]+)?{_VALUE}
    (?:(?P<for>[ \t]+(?:for|on)[ \t]+(?:the[ \t]+|our[ \t]+|my[ \t]+)?(?:[\w./-]{{1,30}}[ \t]+){{0,3}}?(?:{_SYSTEMS})\b)
      | (?P<end>[ \t]*(?:[.!;,)]*(?=\s|$))))""", re.X | re.IGNORECASE | re.MULTILINE)
_LABEL_BEFORE = lazy(r"\b(?:password|passwd|passphrase|passcode|pw|pwd|pin|creds|credentials|login)\b[^\n]{0,40}\Z",
                     re.IGNORECASE)
_FOR_BEFORE = lazy(rf"\b(?:for|on)[ \t]+(?:the[ \t]+|our[ \t]+|my[ \t]+)?(?:[\w./-]{{1,30}}[ \t]+){{0,3}}?(?:{_SYSTEMS})\b[ \t]*,?[ \t]*\Z",
                  re.IGNORECASE)
_LOGIN = r"(?:log[ \t]?(?:in|on)|login|sign[ \t]?in|signin|connect|authenticate|unlock(?:[ \t]+it)?|get[ \t]+in|ssh[ \t]+in)"
# "use <value> to log in", "log in with <value>".
_USE_TO = lazy(rf"\buse[ \t]+{_VALUE}[ \t]+to[ \t]+{_LOGIN}\b", re.IGNORECASE)
_LOGIN_WITH = lazy(rf"{_LOGIN}[ \t]+(?:with|using)[ \t]+(?:(?P<lab>the[ \t]+)?(?:password|passphrase|pin|pw)[ \t]+)?{_VALUE}"
                   r"(?=[ \t]+(?:on|to|for|at|into|and|as)\b|[ \t]*(?:[.,;!)]|$))", re.IGNORECASE | re.MULTILINE)
_LINE = 200
_BEFORE = 60  # how far back a label or a system may stand ("Password? It's …")
_STRICT_MIN = 8


def _verdict(text: str, start: int, end: int, strict: bool) -> Span | None:
    vs, ve, quoted = unquote(text, start, end)
    value = text[vs:ve]
    if not value or value[0].isdigit() and value.replace(".", "").replace(",", "").isdigit():
        return None
    if strict and not (len(value) >= _STRICT_MIN and any(c.isdigit() for c in value)
                       and any(c.isupper() for c in value) and any(c.islower() for c in value)):
        return None  # nothing but the sentence names it: only a typed password's shape ("SSO-v2" is a name)
    if values.credential_value(value, vocab.PASSWORD, quoted=quoted, direct=strict):
        return Span(vs, ve, KIND, RANK_ASSIGNMENT)
    return None


def _its(text: str, view: str, pos: int) -> Span | None:
    """The value of "it's …" at ``pos``, when a label or a system is named around it."""
    match = _ITS.match(text, pos, min(len(text), pos + _LINE))
    if match is None:
        return None
    if match.group("for") is not None:
        return _verdict(text, *match.span("v"), strict=True)
    line_start = view.rfind("\n", max(0, pos - _BEFORE), pos) + 1
    if _LABEL_BEFORE.search(text, max(line_start, pos - _BEFORE), pos):
        return _verdict(text, *match.span("v"), strict=False)
    if _FOR_BEFORE.search(text, max(line_start, pos - _BEFORE), pos):
        return _verdict(text, *match.span("v"), strict=True)  # "for the staging box it's …"
    return None  # "it's done.": only a label or a system named before makes the value one


def scan(text: str, view: str, occurrences: Occurrences) -> list[Span]:
    """Passwords in sentences that say what they open."""
    found: list[Span] = []
    low = occurrences.low
    # What a hit yields depends only on the characters around it: dense text repeats them.
    verdicts: dict[str, tuple[int, int] | None] = {}
    for pos in occurrences.of_all(("it's", "it is")):
        if pos and low[pos - 1].isalnum():
            continue  # "bit is", "visit's"
        window_start = max(0, pos - _BEFORE - 1)  # and the character a word boundary there reads
        key = text[window_start:pos + _LINE]
        if key in verdicts:
            known = verdicts[key]
        else:
            span = _its(text, view, pos)
            known = verdicts[key] = None if span is None else (span.start - pos, span.end - pos)
        if known is not None:
            found.append(Span(pos + known[0], pos + known[1], KIND, RANK_ASSIGNMENT))
    for pos in occurrences.of_all(("log", "sign")):  # "log" is searched for other scanners anyway
        after_to = low.startswith(" to ", pos - 4) or low.startswith(" to ", pos - 5)  # "use … to log in"
        ahead = low[pos:pos + 24]
        with_ahead = " with " in ahead or " using " in ahead  # "log in with …"
        if not (after_to or with_ahead):
            continue  # most hits: "logs", "catalog", "design"
        line_start = view.rfind("\n", max(0, pos - _LINE), pos) + 1
        line_end = view.find("\n", pos, pos + _LINE)
        line_end = line_end if line_end >= 0 else min(len(text), pos + _LINE)
        if after_to:
            use = _USE_TO.search(text, max(line_start, pos - 130), min(line_end, pos + 40))
            if use is not None and use.end() >= pos:
                span = _verdict(text, *use.span("v"), strict=True)
                if span is not None:
                    found.append(span)
                    continue
        if with_ahead:
            with_value = _LOGIN_WITH.match(text, pos, line_end)
            if with_value is not None:
                span = _verdict(text, *with_value.span("v"), strict=with_value.group("lab") is None)
                if span is not None:
                    found.append(span)
    return found


__all__ = ["KIND", "scan"]
