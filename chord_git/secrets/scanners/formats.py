"""Layer-1 scanners for secrets recognised by their shape: vendor tokens, key blocks, URLs.

Each scanner takes the ASCII view of the text (same offsets, see ``text.normalize.ascii_view``) and
the original text, and returns spans. Values are only looked at to rule out placeholders.
"""
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from ...support.regex_lazy import lazy
from ..text.spans import RANK_FORMAT, RANK_KEY_BLOCK, RANK_URL, Span
from ..verdicts import benign, shapes, values
from ..words import patterns

# Candidate tokens: runs of token characters long enough to hold any format of TOKEN_FORMATS.
# Found with one byte translation and memchr-speed ``bytes.find`` instead of a regex, which
# would attempt a match at every position.
_TOKEN_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=.~%\\"
_RUN_MASK = bytes(0x61 if bytes([i]) in _TOKEN_CHARS else 0x20 for i in range(256))
_MIN_TOKEN = 16
# Inside a run, a new token may start right after ``=`` or ``/`` (``KEY=ghp_…``, ``…/xoxb-``);
# past this many such starts a run is a blob (base64, a minified file), not text with tokens.
_MAX_SUBSTARTS = 4096


Dispatch = dict[str, list[tuple[str, patterns.TokenFormat]]]


def _build_dispatch() -> tuple[Dispatch, Dispatch]:
    """Formats by the first two characters of their prefix (one-character prefixes apart)."""
    by_two: Dispatch = {}
    by_one: Dispatch = {}
    for fmt in patterns.TOKEN_FORMATS:
        for prefix in fmt.prefixes:
            table, key = (by_two, prefix[:2]) if len(prefix) >= 2 else (by_one, prefix)
            table.setdefault(key, []).append((prefix, fmt))
    for entries in (*by_two.values(), *by_one.values()):
        entries.sort(key=lambda e: -len(e[0]))
    return by_two, by_one


_BY_TWO, _BY_ONE = _build_dispatch()
_SUBSTART = lazy(r"[=/](?=[A-Za-z0-9_])")


def _prefix_start() -> str:
    """A lookahead body that holds where ``_token_at`` finds a dispatch entry: the two
    characters of a ``_BY_TWO`` key or the one of a ``_BY_ONE`` key."""
    seconds: dict[str, list[str]] = {}
    for two in _BY_TWO:
        seconds.setdefault(two[0], []).append(two[1])
    branches = [re.escape(first) + "[" + "".join(re.escape(c) for c in sorted(rest)) + "]"
                for first, rest in sorted(seconds.items())]
    return "|".join([*branches, "[" + "".join(re.escape(c) for c in sorted(_BY_ONE)) + "]"])


# The substarts at which ``_token_at`` can find anything. Every other substart returns None
# there without a side effect, so skipping it changes nothing. On a line of notes, most ``/``
# and ``=`` come before a path word or a number. The keys' characters are all token characters,
# so the lookahead reads nothing past the run: it stops where the run stops, like ``_SUBSTART``.
_SUBSTART_WITH_PREFIX = lazy(rf"[=/](?=[A-Za-z0-9_])(?={_prefix_start()})")
# A run this short holds at most ``_MAX_SUBSTARTS - 1`` substarts (a substart is a ``=`` or ``/``
# followed by neither, so two are never adjacent): the bound of ``tokens`` cannot cut it, and
# skipping substarts (``_SUBSTART_WITH_PREFIX``) cannot move where it would.
_UNBOUNDED_RUN = 2 * (_MAX_SUBSTARTS - 1)


def _b64decode(data: str) -> bytes | None:
    data = data.replace("-", "+").replace("_", "/")
    if len(data) % 4 == 1:
        data = data[:-1]  # a truncated segment: decode what is whole
    try:
        return base64.b64decode(data + "=" * (-len(data) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _valid_jwt(token: str) -> bool:
    """Header must decode to a JSON object and the payload to something starting with ``{``."""
    parts = token.split(".")
    if len(parts) < 2:
        return False
    header, payload = _b64decode(parts[0].rstrip("=")), _b64decode(parts[1].rstrip("="))
    if header is None or payload is None or not payload.startswith(b"{"):
        return False
    import json  # off the hook's start-up: only a JWT-shaped candidate gets here

    try:
        return isinstance(json.loads(header), dict)
    except ValueError:
        return False


def _valid_jwt_base64(token: str) -> bool:
    decoded = _b64decode(token.rstrip("="))
    if decoded is None:
        return False
    # base64 of base64url text starting with "eyJ" (``{"``) is specific enough on its own;
    # the header inside may be truncated or deliberately malformed.
    text = decoded[:48].decode("ascii", "replace")
    return re.fullmatch(r"eyJ[A-Za-z0-9_\-=.]{0,45}", text) is not None


def _format_value_ok(fmt: patterns.TokenFormat, value: str, prefix: str) -> bool:
    if fmt.check == "jwt":
        return _valid_jwt(value)
    if fmt.check == "jwt-base64":
        return _valid_jwt_base64(value)
    if benign.is_placeholder(value) or benign.is_degenerate(value[len(prefix):]):
        return False
    if fmt.check == "random":
        body = value[len(prefix):]
        return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    return True


# The characters of a base64'd JWT's body, and those that may not follow one (``_END_B64``).
_B64_BODY_RUN = lazy(r"[A-Za-z0-9+/_\-]*")
_B64_AFTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=")


def _jwt_base64_end(view: str, pos: int, prefix: str, run: list[int]) -> int | None:
    """Where the base64'd JWT starting at ``pos`` ends, or None; what its pattern matches, found
    without it.

    The pattern's body runs to the end of the characters it allows, up to 20,000 of them: from
    each of the 4,096 substarts a crafted run offers, the engine would read that far again. Here
    ``run`` (``[start, end]``, shared by the calls of one scan) holds the extent of the run around
    ``pos``, measured once; the value is judged by its first 64 characters, which decode to the
    48 bytes ``_valid_jwt_base64`` reads.
    """
    if not run[0] <= pos < run[1]:
        run[0], run[1] = pos, _B64_BODY_RUN.match(view, pos).end()  # type: ignore[union-attr]  # starred: always matches
    end = run[1]
    if not 40 <= end - pos - len(prefix) <= patterns.JWT_BASE64_MAX:
        return None
    body_end = end
    while end < len(view) and end - body_end < 2 and view[end] == "=":
        end += 1
    if end < len(view) and view[end] in _B64_AFTER:
        return None
    return end if _valid_jwt_base64(view[pos:min(end, pos + 64)]) else None


def _token_at(view: str, pos: int, run: list[int]) -> tuple[int, str] | None:
    entries = _BY_TWO.get(view[pos:pos + 2])
    single = _BY_ONE.get(view[pos])
    if single:
        entries = (entries or []) + single
    if not entries:
        return None
    for prefix, fmt in entries:
        if not view.startswith(prefix, pos):
            continue
        if fmt.check == "jwt-base64":
            end = _jwt_base64_end(view, pos, prefix, run)
            if end is not None:
                return end, fmt.kind
            continue
        match = fmt.pattern.match(view, pos)
        if match and _format_value_ok(fmt, match.group(0), prefix):
            return match.end(), fmt.kind
    return None


def candidate_runs(view: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every run of token characters at least ``_MIN_TOKEN`` long."""
    mask = view.encode("ascii").translate(_RUN_MASK)
    needle = b"a" * _MIN_TOKEN
    pos = mask.find(needle)
    while pos >= 0:
        end = mask.find(b" ", pos)
        if end < 0:
            end = len(mask)
        yield pos, end
        pos = mask.find(needle, end)


def tokens(view: str, text: str, runs: list[tuple[int, int]] | None = None) -> list[Span]:
    """Vendor tokens (``TOKEN_FORMATS``) that start a token or follow ``=`` or ``/`` inside one,
    and those known by their shape under a key naming their service (``named_tokens``)."""
    found: list[Span] = []
    run = [0, 0]  # the base64 run last measured by ``_jwt_base64_end``
    runs = list(candidate_runs(view)) if runs is None else runs
    found.extend(named_tokens(view, text, runs))
    substart = _SUBSTART_WITH_PREFIX.search
    for start, end in runs:
        pos = start
        if end - start <= _UNBOUNDED_RUN:
            while True:
                hit = _token_at(view, pos, run)
                if hit:
                    found.append(Span(pos, hit[0], hit[1], RANK_FORMAT))
                    pos = hit[0]
                skip = substart(view, pos, end)
                if skip is None:
                    break
                pos = skip.end()
            continue
        for _ in range(_MAX_SUBSTARTS):
            hit = _token_at(view, pos, run)
            if hit:
                found.append(Span(pos, hit[0], hit[1], RANK_FORMAT))
                pos = hit[0]
            nxt = _SUBSTART.search(view, pos, end)
            if nxt is None:
                break
            pos = nxt.end()
    return found


_ASSIGN_MARKS = frozenset(":=")
_BLANK_OR_QUOTE = frozenset(" \t\"'`")
_SPACED_MARKS = frozenset(":= \t\"'`")
_KEY_PART = lazy(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
_KEY_BACK = lazy(r"[A-Za-z0-9_.\-]{1,64}")


def _key_before(view: str, start: int) -> str:
    """The key a value starting at ``start`` is assigned to (``KEY=``, ``"key": "``, ``key: ``),
    or "" when the value follows no ``=`` or ``:``."""
    pos = start
    if pos and view[pos - 1] in "\"'`":
        pos -= 1
    while pos and start - pos < 6 and view[pos - 1] in " \t":
        pos -= 1
    if not pos or view[pos - 1] not in ":=":
        return ""
    pos -= 1
    while pos and start - pos < 10 and view[pos - 1] in " \t\"'`:":
        pos -= 1
    key = _KEY_BACK.match(view[max(0, pos - 64):pos][::-1])
    return key.group(0)[::-1] if key else ""


def named_tokens(view: str, text: str, runs: list[tuple[int, int]]) -> list[Span]:
    """Tokens without a mark, known by their shape under a key naming their service
    (``NAMED_TOKENS``): each run, or what follows its last ``=``, is one value."""
    found: list[Span] = []
    shortest = min(fmt.lengths[0] for fmt in patterns.NAMED_TOKENS)
    longest = max(fmt.lengths[1] for fmt in patterns.NAMED_TOKENS)
    # A value is assigned: ``=`` or ``:`` just before the run, or a blank or quote after one, or
    # a ``=`` inside the run. Most runs of prose (paths, links, long words) are neither.
    for start, end in runs:
        if not shortest <= end - start <= longest + 72:
            continue
        before = view[start - 1] if start else ""
        if before not in _ASSIGN_MARKS and (before not in _BLANK_OR_QUOTE or start < 2 or view[start - 2] not in _SPACED_MARKS) \
                and view.find("=", start, end) < 0:
            continue
        equals = view.rfind("=", start, end)
        while equals > start and view[equals - 1] == "=":
            equals = view.rfind("=", start, equals - 1)  # base32 padding, not a separator
        values = [(start, end)] if equals < 0 else [(start, end), (equals + 1, end)]
        for vs, ve in values:
            if not shortest <= ve - vs <= longest:
                continue
            for fmt in patterns.NAMED_TOKENS:
                if not fmt.lengths[0] <= ve - vs <= fmt.lengths[1] or not fmt.value.fullmatch(view, vs, ve):
                    continue
                value = text[vs:ve]
                if benign.is_degenerate(value) or not any(c.isdigit() for c in value):
                    continue
                key = _key_before(view, vs)
                if key and any(part.lower() in fmt.names for part in _KEY_PART.findall(key)):
                    found.append(Span(vs, ve, fmt.kind, RANK_FORMAT))
                    break
    return found


def text_formats(view: str, text: str) -> list[Span]:
    """Formats searched in the whole text (``TEXT_FORMATS``)."""
    found: list[Span] = []
    for fmt in patterns.TEXT_FORMATS:
        for match in fmt.pattern.finditer(view):
            start, end = match.span(fmt.group)
            if fmt.back is not None:
                lead = fmt.back.search(view, max(0, start - 64), start)
                if lead is None:
                    continue
                start = lead.start()
            if benign.is_placeholder(text[start:end]):
                continue
            found.append(Span(start, end, fmt.kind, RANK_FORMAT))
    return found


def _key_body_is_placeholder(body: str) -> bool:
    core = re.sub(r"\\[nrt]|[\s\"',]", "", body)
    if not core or benign.is_placeholder(core):
        return True
    # A lone short word ("anything", "<key>") stands in for the key in docs and tests.
    return bool(re.fullmatch(r"[A-Za-z]{1,16}|<[^<>]*>", body.strip().strip("\"'")))


# How far a key block reaches from its BEGIN line when no END closes it sooner.
_KEY_BLOCK_REACH = 65536
_BLANK_LINE = lazy(r"\n[ \t]*\n")


class _NextMatch:
    """The first match of ``pattern`` at or after a position, remembered across calls.

    Asked for positions that only grow, it searches again only once the remembered match lies
    behind the position asked: a search from ``p`` that found its match at ``m`` (or none) is
    the answer for every position in ``p..m``, so the searches together read the text once.
    Without this, a text of unclosed BEGIN lines (one every line, no END) paid a search across
    the whole reach for each of them: quadratic up to the reach (68 KiB of BEGIN lines took
    seconds).
    """

    __slots__ = ("_pattern", "_text", "_match", "_done")

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self._pattern = pattern
        self._text = text
        self._match: re.Match[str] | None = None
        self._done = False  # no match at or after the last position searched

    def at_or_after(self, pos: int) -> re.Match[str] | None:
        if self._done or (self._match is not None and self._match.start() >= pos):
            return self._match
        self._match = self._pattern.search(self._text, pos)
        self._done = self._match is None
        return self._match


def private_keys(view: str, text: str) -> list[Span]:
    """PEM, OpenSSH and PGP private-key blocks, from BEGIN to END (or the block's end)."""
    found: list[Span] = []
    ends = _NextMatch(patterns.PRIVATE_KEY_END, view)
    pos = 0
    while True:
        begin = patterns.PRIVATE_KEY_BEGIN.search(view, pos)
        if begin is None:
            return found
        reach = begin.end() + _KEY_BLOCK_REACH
        # An END match is the same whether the text is cut at ``reach`` or not (its characters
        # are fixed once it starts), so the first END after the BEGIN line counts when it ends
        # within the reach, as a search bounded there would find.
        end = ends.at_or_after(begin.end())
        if end is not None and end.end() <= reach:
            body, stop = view[begin.end():end.start()], end.end()
        else:
            blank = _BLANK_LINE.search(view, begin.end(), reach)
            stop = blank.start() if blank else min(len(view), reach)
            body = view[begin.end():stop]
        if not _key_body_is_placeholder(body):
            found.append(Span(begin.start(), stop, "private-key", RANK_KEY_BLOCK))
        pos = stop


_SCHEME_BACK = lazy(r"[A-Za-z0-9+.\-]{1,30}")


# A bare userinfo long and random enough to be a token (a user name is short or a word).
_BARE_USERINFO = lazy(r"([A-Za-z0-9_\-.~]{20,256})@(?=[A-Za-z0-9\[._\-])")
# The host after the userinfo: a bracketed IPv6 address or a name (its port and path left out).
_URL_HOST = lazy(r"\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9._\-]{1,253}")


def _local_default_login(text: str, userinfo: re.Match[str]) -> bool:
    """``postgres://postgres:postgres@localhost``: a development default, not a credential."""
    host = _URL_HOST.match(text, userinfo.end())
    user = text[userinfo.start(1):userinfo.end(1)]
    password = text[userinfo.start(2):userinfo.end(2)]
    return host is not None and values.is_local_default_login(user, password, host.group())


def url_credentials(view: str, text: str) -> list[Span]:
    """The password part of a URL's userinfo (``scheme://user:{password}@host``)."""
    found: list[Span] = []
    pos = view.find("://")
    while pos >= 0:
        scheme = _SCHEME_BACK.match(view[max(0, pos - 30):pos][::-1])
        userinfo = patterns.URL_USERINFO.match(view, pos + 3)
        if scheme and userinfo:
            start, end = userinfo.span(2)
            password = text[start:end]
            # Shorter than four characters: documentation ("https://a:b@host"), never worth reporting.
            if len(password) >= 4 and not benign.is_placeholder(password) and benign.benign_reason(password) != "url" \
                    and not _local_default_login(text, userinfo):
                found.append(Span(start, end, "url-credentials", RANK_URL))
        elif scheme:
            # A token alone as the userinfo (``https://<token>@github.com/…``): git and most HTTP
            # clients send it as the user name, and it is the credential.
            bare = _BARE_USERINFO.match(view, pos + 3)
            user = bare.group(1) if bare is not None else ""
            if bare is not None and any(c.isdigit() for c in user) and any(c.isalpha() for c in user) \
                    and shapes.looks_random(user) and not benign.is_placeholder(user):
                found.append(Span(bare.start(1), bare.end(1), "url-credentials", RANK_URL))
        pos = view.find("://", pos + 3)
    return found


def password_like(value: str) -> bool:
    """A password typed by a person: not a placeholder, and not a plain word."""
    v = value.strip("{}")
    if len(v) < 6 or benign.is_placeholder(value) or benign.is_placeholder(v):
        return False
    has_digit = any(c.isdigit() for c in v)
    has_symbol = any(not c.isalnum() for c in v)
    mixed = any(c.isupper() for c in v) and any(c.islower() for c in v)
    return has_digit or has_symbol or (mixed and len(v) >= 10 and benign.case_switch_ratio(v) >= 0.3)


def curl_users(view: str, text: str) -> list[Span]:
    """``curl -u user:password`` and ``--user`` credentials (the password, else the user)."""
    found: list[Span] = []
    for match in patterns.CURL_USER.finditer(view):
        if match.start() > 0 and not view[match.start() - 1].isspace():
            continue
        if match.group(2) is not None:
            user_span, pw_span = match.span(1), match.span(2)
        elif match.group(3) is not None:
            user_span = match.span(3)
            pw_span = match.span(4) if match.group(4) is not None else match.span(5)
        else:
            group = next(g for g in (1, 6, 7) if match.group(g) is not None)
            gs, ge = match.span(group)
            if benign.is_placeholder(view[gs:ge]):
                continue  # "[REDACTED:…]:", "$USER:$PASS": nothing to split
            colon = view.find(":", gs, ge)
            if colon < 0:
                continue
            user_span, pw_span = (gs, colon), (colon + 1, ge)
        span = pw_span if pw_span[1] > pw_span[0] else user_span
        if password_like(text[span[0]:span[1]]):
            found.append(Span(span[0], span[1], "curl-credentials", RANK_URL))
    return found
