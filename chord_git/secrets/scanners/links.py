"""Layer-1 scanner for credentials carried by links (R31).

Query parameters and fragments that hold a bearer credential (``?token=``, ``&access_token=``,
``api_key=``, ``key=``, ``sig=``, ``pwd=``…, see ``vocab.URL_TOKEN_PARAMS``), and path segments of
claim, invite, reset, magic and webhook links (``/invite/<token>``, ``/hooks/<token>``, the
``/services/T…/B…/<secret>`` shape of incoming webhooks). A password parameter keeps a ``#``
typed in it (``?pass=Summer#2023``) when what follows holds no word. Values are percent-decoded
before the value test (``values``); the reported span is the encoded value as written. The
password in a URL's userinfo is ``formats.url_credentials``'.

Linear time: one pass per parameter lead character and one regex pass for the path shape, which
starts with a literal character; each match is bounded.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from ...support.regex_lazy import lazy
from ..text.normalize import question_clusters
from ..text.spans import RANK_URL, Span
from ..verdicts import values
from ..words import keys, vocab

KIND = "token-in-url"
# After one of "?&#;": a parameter and its value (matched at each such character that comes
# before a letter, found by a pattern that starts with the character, ``_LEADS_BEFORE_LETTER``,
# not by trying ``_PARAMETER`` at every position). A value never holds one of those characters,
# so no match is read twice.
_PARAMETER = lazy(r"([A-Za-z][A-Za-z0-9_.\-]{0,39})=([^?&#;\s\"'<>`)\]|]{1,4096})")
_PARAMETER_STARTS = "?&#;"
_PATH_WORDS = "|".join(sorted((re.escape(w) for w in vocab.URL_TOKEN_PATH_WORDS), key=len, reverse=True))
_PATH = lazy(rf"/(?:{_PATH_WORDS})/([a-z0-9_\-~.]{{16,256}})(?=[/?#\s\"'<>`)\]|]|$)")
_PASSWORD_PARAMS = frozenset({"password", "passwd", "pwd", "pass"})
# An incoming-webhook path in the shape Slack made common (``/services/T…/B…/<secret>``), on any
# host: the last segment is the credential.
_SERVICES = lazy(r"/services/t[a-z0-9]{2,16}/b[a-z0-9]{2,16}/([a-z0-9]{16,64})(?=[/?#\s\"'<>`)\]|]|$)")
# A password typed into a link keeps its "#" (``?pass=Summer#2023``): what follows the "#" is
# no fragment when it is short and holds no word (``#section-password-reset`` does).
_PASSWORD_TAIL = lazy(r"#[^\s?&#;\"'<>`)\]|=/]{1,24}")
_WORD = lazy(r"[A-Za-z]{4}")


def _param_class(name: str) -> str | None:
    low = name.lower()
    if low in _PASSWORD_PARAMS:
        return vocab.PASSWORD
    if low in vocab.URL_TOKEN_PARAMS:
        return vocab.SECRET
    verdict = keys.classify_key(name)
    return vocab.SECRET if verdict is not None and verdict[1] == "strong" else None


_LEADING_QUESTION_MARK = lazy(r"\?(?=[A-Za-z])")
# Each other lead, where a parameter can follow it (``_PARAMETER`` starts with a letter). The
# engine skips the rest: most ";" and "&" in notes end a clause ("; ", "&&") and lead nothing,
# and each had cost a ``find`` and a ``match`` from Python (``scan`` on a 4 MB line of notes:
# -22% CPU). The matches come lead by lead, in the same order as before.
_LEADS_BEFORE_LETTER = {lead: lazy(re.escape(lead) + "(?=[A-Za-z])") for lead in _PARAMETER_STARTS if lead != "?"}


def _parameters(view: str) -> Iterator[re.Match[str]]:
    for lead in _PARAMETER_STARTS:
        if lead == "?":
            # Each non-ASCII character is a "?" in the view: in text of another script, a step
            # per "?" would cost more than the rest of the scan. Only a "?" before a letter can
            # lead a parameter; those are found by the engine inside the clusters of "?".
            for start, end in question_clusters(view):
                for mark in _LEADING_QUESTION_MARK.finditer(view, start, end + 1):
                    match = _PARAMETER.match(view, mark.end())
                    if match is not None:
                        yield match
            continue
        for mark in _LEADS_BEFORE_LETTER[lead].finditer(view):
            match = _PARAMETER.match(view, mark.end())
            if match is not None:
                yield match


def scan(text: str, view: str, low: str | None = None) -> list[Span]:
    """Credentials in URL query strings, fragments and invite-style path segments.

    ``low`` is ``view`` lower-cased (path words are matched in it; the value is read from ``text``).
    """
    low = view.lower() if low is None else low
    found: list[Span] = []
    classes: dict[str, str | None] = {}  # parameter names repeat: classify each once
    for match in _parameters(view):
        name = match.group(1)
        cls = classes[name] if name in classes else classes.setdefault(name, _param_class(name))
        if cls is None:
            continue
        start, end = match.span(2)
        if cls == vocab.PASSWORD and view.startswith("#", end):
            tail = _PASSWORD_TAIL.match(view, end)
            if tail is not None and _WORD.search(view, end, tail.end()) is None:
                end = tail.end()
        while end > start and view[end - 1] in ".,;:!":
            end -= 1
        value = unquote(text[start:end]) if "%" in view[start:end] else text[start:end]
        if values.credential_value(value, cls, quoted=True):
            found.append(Span(start, end, KIND, RANK_URL))
    for match in (*_PATH.finditer(low), *_SERVICES.finditer(low)):
        start, end = match.span(1)
        value = text[start:end].rstrip(".")
        if values.credential_value(value, vocab.SECRET):
            found.append(Span(start, start + len(value), KIND, RANK_URL))
    return found


__all__ = ["KIND", "scan"]
