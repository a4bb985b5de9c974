"""Layer-1 scanner for login pairs written in prose (R31).

After a word that introduces an account (``login``, ``sign in``, ``credentials``, ``account``,
``ssh``, ``登录``, ``账号``, ``アカウント``…), a user and a password joined by ``/`` or ``:``
(``Login: admin / …``, ``creds are bob:…``, ``後台登录账号密码：admin/…``), "as <user> with
<password>", "the login is <user> and <password>" (a typed password's shape, ending the
sentence), or "用 <password> 登录". The password is reported; it must pass the value test.

Linear time: account words are found by substring search, each looks at most 80 characters
along its line, and a pair already reported is not looked at again.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.reader import LINE, ValueReader, line_bounds, unquote
from ..text.repeats import Reach, Runs, WindowVerdicts
from ..text.spans import Span
from ..verdicts import values
from ..words import vocab

KIND = "login-credentials"
_WINDOW = 80
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_QUOTED = r"`[^`\n]{1,100}`|\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'"
_PAIR = lazy(rf"""
    (?:[ \t]as[ \t]+[^\s]{{1,60}}[ \t]+(?:with|using)[ \t]+(?P<with>{_QUOTED}|[\x21-\x7e]{{1,100}})
     | (?P<user>[`'"*]{{0,2}}(?<![A-Za-z0-9_.@+\-])[A-Za-z0-9][A-Za-z0-9_.@+\-]{{0,40}}+[`'"*]{{0,2}})
       (?P<sep>[ \t]*/[ \t]*|:(?![/:\s]))
       (?P<pass>{_QUOTED}|[^\s/,;`'"{_CJK}]{{1,100}})
    )""", re.X)
# "the staging login is admin and <password>": a user and a password said in a sentence. Nothing
# but the sentence joins them, so a bare value needs a typed password's shape.
_IS_AND = lazy(rf"""[ \t]+(?:is|was|are|were|=|:)[ \t]+[`'"*]{{0,2}}(?P<user>[A-Za-z0-9][A-Za-z0-9_.@+\-]{{0,40}})[`'"*]{{0,2}}
    ,?[ \t]+(?:and|&|with|plus)[ \t]+(?:(?:the[ \t]+)?(?:password|pass|pw|pwd)[ \t]+(?:is[ \t]+)?)?
    (?P<and>{_QUOTED}|[\x21-\x7e]{{1,100}})
    (?=[ \t]*\r?$|[ \t]+(?:(?:for|on|to|at|in)(?![^\W\d])|[(—-])|\.[ \t])  # the sentence ends with the pair""", re.X | re.M)
# "请用 <password> 登录": the value before a login word.
_USE_BEFORE = lazy(rf"(?:用|使用)[ \t]*(?P<value>{_QUOTED}|[\x21-\x7e]{{1,100}})[ \t]*\Z")
# Longest first: "credentials" before "credential", "logins" before "login".
_PAIR_FORMS = tuple(sorted(vocab.PAIR_WORDS, key=len, reverse=True))
# A pair standing alone: a user right before " / " and a value right after it.
# After a spaced slash with no account word: a slash (a path) or brackets (code) end the pair.
_PATH_OR_CODE = lazy(r"[/()\[\]{}]")
_USER_BEFORE = lazy(r"(?<![A-Za-z0-9_.@+\-])[`'\"*]{0,2}([A-Za-z0-9][A-Za-z0-9_.@+\-]{0,40})[`'\"*]{0,2}\Z")
_VALUE_AFTER = lazy(rf"{_QUOTED}|[^\s/,;`'\"{_CJK}]{{6,100}}")
# Accounts every system ships; "admin:…" right before a password-shaped value is a pair.
_STOCK_ACCOUNTS = ("admin", "root")
_PAIR_LABEL = lazy("|".join(re.escape(a) for a in vocab.PAIR_LABELS))
# Each holds a non-ASCII character: searched for only around those (``Occurrences.script_windows``).
_PAIR_REACH = max(map(len, vocab.PAIR_LABELS)) if not any(a.isascii() for a in vocab.PAIR_LABELS) else None
_NOT_USERS = frozenset({"sha1", "sha256", "sha512", "md5", "http", "https", "ssh", "git", "file", "ftp",
                        "mailto", "tcp", "udp", "localhost"})
_HOST = lazy(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,10}(?::\d+)?")  # a host before "/path" is a URL


# Two names of one kind side by side are a list, not a user and a password: versioned product or
# model names (``GLM-4.7 / GLM-4.5-Air``, ``DALL-E 3 / GPT-Image-1``) and identifiers that differ
# by a word (``b122Encode / b122Decode``, ``getToken / setToken``).
_VERSION_PART = r"v?\d+(?:\.\d+)*[A-Za-z]?"
_VERSIONED_NAME = lazy(rf"(?:[A-Za-z]+|{_VERSION_PART})(?:[- ](?:[A-Za-z]+|{_VERSION_PART}))+")
_VERSION_SEGMENT = lazy(rf"(?:^|[- ]){_VERSION_PART}(?=$|[- ])")
_CAPITAL_WORD = lazy(r"(?:^|[- ])[A-Za-z]*[A-Z][A-Za-z]*(?=$|[- ])")
_NAME_BEFORE = lazy(r"(?<![A-Za-z0-9_.@+\-])[A-Za-z][A-Za-z0-9.\-]{0,30} \Z")  # "DALL-E " before "3"
_IDENTIFIER = lazy(r"[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")
_HUMP = lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _versioned_name(name: str) -> bool:
    """``GLM-4.5-Air``, ``DALL-E 3``: capitalised words and a version number, joined by dashes."""
    return _VERSIONED_NAME.fullmatch(name) is not None and _VERSION_SEGMENT.search(name) is not None \
        and _CAPITAL_WORD.search(name) is not None


def _sibling_identifiers(left: str, right: str) -> bool:
    """camelCase names with the same humps but for whole words: ``b122Encode`` / ``b122Decode``."""
    if _IDENTIFIER.fullmatch(left) is None or _IDENTIFIER.fullmatch(right) is None:
        return False
    a, b = _HUMP.findall(left), _HUMP.findall(right)
    if len(a) != len(b) or "".join(a) != left or "".join(b) != right:
        return False
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    return 0 < len(differ) < len(a) and all(x.isalpha() and y.isalpha() for x, y in differ)


def names_alike(view: str, floor: int, user_start: int, user_end: int, value: str) -> bool:
    """The user before a slash and the value after it are two names of the same shape. Nothing
    before ``floor`` is read (the caller remembers a verdict for the window it read)."""
    user = view[user_start:user_end]
    if user.isdigit():  # a version: the name it numbers is the word before it
        name = _NAME_BEFORE.search(view, max(0, floor + 1, user_start - 32), user_start)  # + 1: its look-behind
        user = view[name.start():user_end] if name is not None else user
    if _versioned_name(user) and _versioned_name(value):
        return True
    return _sibling_identifiers(user, value)


def _plausible_user(user: str, sep: str) -> bool:
    """A user name, not a digest prefix (``SHA256:``), a host (``x.com/``) or a key blob."""
    if len(user) > 40 or values.token_like(user) or user.lower() in _NOT_USERS or _HOST.fullmatch(user):
        return False
    # ``user@host:path`` is scp syntax; a user before ":" is written in lower case.
    return ":" not in sep or (any(c.islower() for c in user) and "@" not in user)


def _pair_after(reader: ValueReader, anchor_end: int, line_end: int) -> Span | None:
    said = _IS_AND.match(reader.text, anchor_end, line_end)
    if said is not None and _plausible_user(said.group("user"), "/"):
        start, end, quoted = unquote(reader.text, *said.span("and"))
        span = reader.span((start, end, quoted), vocab.PASSWORD, KIND, direct=not quoted)
        if span is not None:
            return span
    limit = min(line_end, anchor_end + _WINDOW)
    match = _PAIR.search(reader.text, anchor_end, limit)
    if match is None:
        return None
    if match.end() == limit < line_end:
        # The window bounds where a pair may start, not how far its value runs: a value cut at
        # the window's edge would leave its tail unredacted ("login login … login bob:<token>").
        match = _PAIR.match(reader.text, match.start(), line_end) or match
    group = "with" if match.group("with") is not None else "pass"
    if group == "pass" and not _plausible_user(match.group("user").strip("`'\"*"), match.group("sep")):
        return None
    return reader.span(unquote(reader.text, *match.span(group)), vocab.PASSWORD, KIND)


def _use_before(reader: ValueReader, anchor: int, line_start: int) -> Span | None:
    match = _USE_BEFORE.search(reader.text, max(line_start, anchor - 120), anchor)
    if match is None:
        return None
    start, end, _ = unquote(reader.text, *match.span("value"))
    return reader.span((start, end, True), vocab.PASSWORD, KIND)


def _account_words(text: str, occurrences: Occurrences) -> list[tuple[int, int, bool]]:
    """(start, end, written in CJK) of every account word."""
    low = occurrences.low
    found: list[tuple[int, int, bool]] = []
    for anchor in vocab.ASCII_PAIR_ANCHORS:
        for start in occurrences.of(anchor):
            if not low.startswith(_PAIR_FORMS, start):
                continue  # "logs", "signal", "blog"...
            if start and (low[start - 1].isalnum() or low[start - 1] in "-_:+/."):
                continue  # inside a word, a URL scheme (git+ssh) or a path
            form = next(f for f in _PAIR_FORMS if low.startswith(f, start))
            end = start + len(form)
            if low[end:end + 1].isalnum() or low[end:end + 1] in "-_":
                continue
            found.append((start, end, False))
    if occurrences.has_label_scripts():
        spans = occurrences.script_windows(_PAIR_REACH) if _PAIR_REACH else [(0, len(text))]
        found.extend((m.start(), m.end(), True) for start, end in spans for m in _PAIR_LABEL.finditer(text, start, end))
    return sorted(found)


def _standalone_value(reader: ValueReader, pos: int) -> Span | None:
    """The password-shaped value at ``pos`` of a pair that stands alone (a stronger shape)."""
    value = _VALUE_AFTER.match(reader.text, pos)
    if value is None:
        return None
    start, end, delimited = unquote(reader.text, *value.span())
    if not values.password_like(reader.text[start:end], direct=True):
        return None
    return reader.span((start, end, delimited), vocab.PASSWORD, KIND)


_SLASH_BEHIND = 41 + 1 + 3  # the user's search, its look-behind, and the three characters before it
_SLASH_AHEAD = 3 + 102 + 1  # " / ", then the value (``_VALUE_AFTER``: at most 100 characters and two quotes)


def _bare_slash_pair(view: str, reader: ValueReader, pos: int) -> Span | None:
    """The password of a pair standing alone around the spaced slash at ``pos``, if any."""
    user = _USER_BEFORE.search(view, max(0, pos - 41), pos)
    if user is None or not _plausible_user(user.group(1), "/"):
        return None
    before = view[max(0, user.start(1) - 3):user.start(1)]
    if before[-1:] == "{" or before == " / ":
        return None  # code or arithmetic: ``f"{size / seconds:.1f}"``, ``a / b / c``
    span = _standalone_value(reader, pos + 3)
    if span is None or _PATH_OR_CODE.search(reader.text, span.start, span.end):
        return None  # not ``root / "a/b.txt"``, ``start / lines[1]``, ``v / len(cases)``
    alike = names_alike(view, pos - _SLASH_BEHIND, user.start(1), user.end(1), reader.text[span.start:span.end])
    return None if alike else span


# ``root:x:0:0:root:/root:/bin/bash``: an /etc/passwd or /etc/group entry holds no password (``x``
# or ``*`` says it lives in /etc/shadow); a crypt hash in the slot is ``credential_files``' to report.
_PASSWD_ENTRY = lazy(r"[a-z_][a-z0-9_-]{0,31}:[x*!]?:\d{1,10}:(?:\d{1,10}:|[^:\n]*$)")


def _bare_pairs(view: str, occurrences: Occurrences, reader: ValueReader) -> list[Span]:
    """Pairs with no account word before them, when they cannot be a path or a ratio:
    ``Jenkins: admin / J3nk1ns!`` (a spaced slash) and ``admin:S3cret!x`` (a stock account)."""
    spans: list[Span | None] = []
    # A slash's verdict reads the view from ``_SLASH_BEHIND`` characters before it (the user, the
    # character before the user's start, the three before that) to ``_SLASH_AHEAD`` after it (the
    # value: a quote, at most 100 characters, a quote); the view is the text with each non-ASCII
    # character as "?". Dense text repeats those windows.
    windows = WindowVerdicts(reader.text)
    size = len(view)
    for pos in occurrences.of(" / "):
        base = pos - _SLASH_BEHIND if pos > _SLASH_BEHIND else 0
        end = min(size, pos + _SLASH_AHEAD)
        known = windows.verdict(base, end, pos - base)
        if known is False:
            known = windows.remember(base, _bare_slash_pair(view, reader, pos))
        if known is not None:
            spans.append(known)
    for name in _STOCK_ACCOUNTS:
        for pos in occurrences.of(name):
            end = pos + len(name)
            if view[end:end + 1] == ":" and not (pos and (view[pos - 1].isalnum() or view[pos - 1] in "_-./@{")) \
                    and not _PASSWD_ENTRY.match(view, pos):
                spans.append(_standalone_value(reader, end + 1))
    return [span for span in spans if span is not None]


# What an account word's verdict reads (``repeats.Runs``): its line, at most ``LINE`` characters
# either way (``line_bounds``), and the character before it, with the word's width and script.
_RUNS = Reach(before=LINE + 1, after=LINE)


def scan(text: str, view: str, occurrences: Occurrences, reader: ValueReader | None = None) -> list[Span]:
    """Passwords in login pairs after an account word, and in pairs that stand alone."""
    reader = reader or ValueReader(text)
    found: list[Span] = _bare_pairs(view, occurrences, reader)
    done = -1
    # As for labels (``prose.scan``): the verdict depends only on the account word's window, its
    # line and the character before it, and dense text repeats its windows.
    windows = WindowVerdicts(text)
    words = _account_words(text, occurrences)
    count = len(words)
    index = 0
    runs = Runs(text, view, words, _RUNS)
    while index < count:
        start, end, cjk = words[index]
        index += 1
        if start < done:
            continue
        line_start, line_end = line_bounds(view, start, end)
        base = line_start - 1 if line_start else 0
        span = windows.verdict(base, line_end, (line_start - base, start - base, end - base, cjk))
        if span is False:
            span = _pair_after(reader, end, line_end)
            if span is None and cjk:
                span = _use_before(reader, start, line_start)
            windows.remember(base, span)
        if span is not None:
            found.append(span)
            done = span.end
        index, done = runs.after(index, span, done, found)
    return found


__all__ = ["KIND", "scan"]
