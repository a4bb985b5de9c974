"""Layer-1 scanner for credential files pasted into a text, and for crackable password hashes.

A file whose format exists to hold a credential (``.netrc``, ``.pgpass``, ``.git-credentials``,
esmtp/msmtp configs, FileZilla's server lists, a Rails ``master.key``, a PuTTY key) says by its
shape that the value in its credential slot is one: every value there is a finding unless it is
an explicit stand-in (``stand_in``), so a weak real password (``pass123``) counts. Password
hashes in a crypt, LDAP, MySQL, Django, SCRAM or Kerberos format are found wherever they sit
(``/etc/shadow``, ``.htpasswd``, SQL dumps): their shapes are exact, and a hash is as good as
its password to whoever can crack it. ``docs/secrets.md`` ("Credential files and password
hashes") lists the formats and the stand-ins.

Linear time: every rule starts from a literal (``machine``, ``password``, a port between colons,
``://``, ``<Pass``, ``master.key``, ``PuTTY-User-Key-File-``, ``$``, ``{S``, ``*``, ``pbkdf2_``,
``SCRAM-SHA-``), reads at most a few lines around it, and each line is checked once per rule.
"""
from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_left
from collections.abc import Iterator

from ...support.regex_lazy import lazy
from ..text.spans import RANK_FORMAT, RANK_KEY_BLOCK, RANK_URL, Span
from ..verdicts import shapes
from ..verdicts.values import is_local_default_login

FILE_KIND = "credential-file"
HASH_KIND = "password-hash"
KEY_KIND = "private-key"

_MAX_LINE = 1024  # a credential file's line is short; longer ones are not read as one

# ---------------------------------------------------------------------------- stand-ins
# What a credential file holds in its slot when it shows the format rather than a credential.
_TEMPLATE = lazy(r"<[^<>\n]*>|\$\{[^}\n]*\}|\{\{[^}\n]*\}\}|%\(?[A-Za-z_][A-Za-z0-9_]*\)?[sd%]?|\$[A-Za-z_][A-Za-z0-9_]*")
_MASK = lazy(r"[*xX.#?\u2022\u2026-]+")
_STAND_IN_WORD = lazy(r"(?i)(?:change[-_ ]?(?:me|it|this)|replace[-_ ]?me|your[-_ ]?\w*|\w*[-_]here|placeholder|redacted|"
                      r"removed|hidden|secret[-_]?value|password[-_]?value|xxx\w*|none|null|nil|empty)")
_CAPS_NAME = lazy(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,}")  # YOUR_PASSWORD, PASSWORD: a template's slot name
_PLAIN_WORD = lazy(r"[A-Za-z]{1,40}[0-9]*[^A-Za-z0-9\s]{0,3}[0-9]*")


def stand_in(value: str) -> bool:
    """An explicit stand-in for the credential: ``<…>``, ``${VAR}``, ``{{var}}``, ``$VAR``,
    ``%(name)s``, a mask (``***``, ``xxxx``, ``…``), ``changeme``-like words (``your-password``,
    ``password_here``, ``replace_me``, ``redacted``), a slot name in capitals (``PASSWORD``,
    ``YOUR_PASSWORD``), or what ``shapes.is_placeholder`` calls a placeholder unless it is a plain
    word a person could type as a password (``password``, ``test``, ``pass123``): in a credential
    slot a weak password is still a password."""
    v = value.strip().strip("\"'")
    if len(v) < 3:
        return True  # ``p``, ``pw``: a letter or two stands for the value where a format is described
    if _TEMPLATE.fullmatch(v) or _MASK.fullmatch(v) or _STAND_IN_WORD.fullmatch(v) or _CAPS_NAME.fullmatch(v):
        return True
    if v.startswith(("<", "${", "{{")) and v.endswith((">", "}")):
        return True
    return shapes.is_placeholder(v) and not _PLAIN_WORD.fullmatch(v)


def _lines(view: str, positions: Iterator[int]) -> Iterator[tuple[int, int]]:
    """The lines (start, end) holding ``positions`` (increasing), each once, those longer than
    ``_MAX_LINE`` left out; every character is read about once however many hits a line has."""
    end = -1
    for pos in positions:
        if pos <= end:
            continue
        start = view.rfind("\n", max(end, 0), pos) + 1
        end = view.find("\n", pos)
        end = len(view) if end < 0 else end
        if end - start <= _MAX_LINE:
            yield start, end


# Hosts reserved for documentation (RFC 2606, RFC 6761): a credential file naming one is an example.
_DOC_HOST = lazy(r"(?:[A-Za-z0-9\-]+\.)*(?:example\.(?:com|net|org)|example|invalid)(?::\d{1,5})?\.?", re.IGNORECASE)
_HOST_KEYWORDS = frozenset({"machine", "host", "hostname", "smtphost", "poll"})


def documentation_host(host: str) -> bool:
    return _DOC_HOST.fullmatch(host) is not None


def _unquote(view: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and view[start] in "\"'" and view[end - 1] == view[start]:
        return start + 1, end - 1
    return start, end


# ---------------------------------------------------------------------------- keyword files
# ``.netrc`` (``machine h login u password p``), esmtprc/msmtprc/fetchmailrc (``password "p"``,
# ``password = p``): lines of keyword-value pairs, where ``password`` is one of the keywords.
_KEYWORDS = frozenset({
    "machine", "default", "login", "password", "passwd", "account", "port", "user", "username", "host", "hostname",
    "identity", "from", "auth", "tls", "tls_starttls", "starttls", "protocol", "poll", "proto", "via", "service",
    "mda", "helo", "logfile", "certificate_passphrase", "qualifydomain", "smtphost", "is", "here", "with",
})
_WHO = frozenset({"machine", "default", "login", "user", "username", "host", "hostname", "identity", "account", "poll"})
_PASSWORD_KEYWORDS = frozenset({"password", "passwd"})
_KEYWORD = lazy(r"passw(?:or)?d(?=[ \t]+\S)")  # its literal first: the engine skips to it
_PAIR_TOKEN = lazy(r"\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+")
_NEIGHBOUR_LINES = 4


def _pairs(view: str, start: int, end: int) -> list[tuple[str, int, int]] | None:
    """The keyword-value pairs of one line (keyword, value start, value end), or None when the
    line is not made of them (prose: "user bob and password x"). Read token by token: prose
    stops at its first word that is no keyword."""
    tokens = _PAIR_TOKEN.finditer(view, start, end)
    pairs: list[tuple[str, int, int]] = []
    token = next(tokens, None)
    if token is not None and token.group(0) in ("-", "*", "+", ">"):
        token = next(tokens, None)  # a list bullet or quote mark before the line
    while token is not None:
        word = token.group(0).lower()
        if word not in _KEYWORDS:
            return None
        if word == "default" and not pairs:
            pairs.append((word, token.end(), token.end()))  # netrc's ``default`` takes no value
            token = next(tokens, None)
            continue
        value = next(tokens, None)
        if value is not None and value.group(0) == "=":
            value = next(tokens, None)
        if value is None:
            return None
        pairs.append((word, value.start(), value.end()))
        token = next(tokens, None)
    return pairs or None


_FIRST_WORD = lazy(r"[ \t]*(?:[-*+>][ \t]+)?([A-Za-z_]+)")
_VALUE_AFTER = lazy(r"[ \t]+(?:=[ \t]*)?(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)")


def _keyword_hit(view: str, text: str, match: re.Match[str]) -> bool:
    """A ``password`` keyword that starts a word and is followed by a value that is no stand-in:
    the cheap tests first, before its line and neighbours are read."""
    start = match.start()
    if start and (view[start - 1].isalnum() or view[start - 1] in "_.-"):
        return False
    line = view.rfind("\n", max(0, start - _MAX_LINE), start) + 1
    first = _FIRST_WORD.match(view, line, start + 8)
    if first is None or first.group(1).lower() not in _KEYWORDS:
        return False  # a sentence, not a line of keyword-value pairs
    value = _VALUE_AFTER.match(view, match.end())
    return value is not None and not stand_in(text[value.start(1):value.end(1)])


_WHO_LINE = lazy(r"(?m)^[ \t]*(?:[-*+>][ \t]+)?(?:machine|default|login|user|username|host|hostname|identity|account|poll)"
                 r"[ \t]")


class _WhoLines:
    """Whether a line within ``_NEIGHBOUR_LINES`` of a line opens with a keyword naming who a
    password is for. The windows asked about move forward through the text, so the who-lines are
    searched once, each stretch as the first window reaching it asks; a window is one bisect."""

    def __init__(self, view: str) -> None:
        self._view = view
        self._starts: list[int] = []
        self._to = 0  # every who-line starting before this is in ``_starts``

    def near(self, start: int, end: int) -> bool:
        view, reach = self._view, (_NEIGHBOUR_LINES + 1) * (_MAX_LINE + 1)
        high = min(len(view), end + reach)
        if high > self._to:
            # ``^`` matches only at a line's start, wherever the search starts; a keyword line
            # starting just before ``high`` is read whole (the keyword is at most 16 characters).
            for match in _WHO_LINE.finditer(view, max(self._to, start - reach, 0), min(len(view), high + 16)):
                if not self._starts or match.start() > self._starts[-1]:
                    self._starts.append(match.start())
            self._to = high
        # The nearest who-line on either side decides: it has the fewest lines between.
        index = bisect_left(self._starts, start)
        if index and view.count("\n", self._starts[index - 1], start) <= _NEIGHBOUR_LINES:
            return True
        after = bisect_left(self._starts, end, index)
        return after < len(self._starts) and view.count("\n", end, self._starts[after]) <= _NEIGHBOUR_LINES


def keyword_files(view: str, text: str) -> list[Span]:
    """Passwords of keyword-value credential files: the line is all keyword-value pairs and it or
    a neighbouring such line names who the password is for (``machine``, ``login``, ``user``…)."""
    found: list[Span] = []
    hits = (m.start() for m in _KEYWORD.finditer(view) if _keyword_hit(view, text, m))
    read: dict[int, list[tuple[str, int, int]] | None] = {}  # by line start: neighbours share lines
    who_lines = _WhoLines(view)

    def pairs_at(start: int, end: int) -> list[tuple[str, int, int]] | None:
        if start not in read:
            read[start] = _pairs(view, start, end)
        return read[start]

    for start, end in _lines(view, hits):
        pairs = pairs_at(start, end)
        if pairs is None:
            continue
        if not any(word in _WHO for word, _, _ in pairs) and not who_lines.near(start, end):
            continue  # no line around names who the password is for: read none of them
        # The stanza: this line and the pair lines around it, up to a line that is not one.
        stanza = list(pairs)
        above, below = start, end
        for _ in range(_NEIGHBOUR_LINES):
            if above > 0:
                line_start = view.rfind("\n", max(0, above - 1 - _MAX_LINE), above - 1) + 1
                near = pairs_at(line_start, above - 1)
                above = line_start if near else 0
                stanza.extend(near or ())
            if below < len(view):
                line_end = view.find("\n", below + 1, below + 1 + _MAX_LINE)
                line_end = len(view) if line_end < 0 else line_end
                near = pairs_at(below + 1, line_end)
                below = line_end if near else len(view)
                stanza.extend(near or ())
        if not any(word in _WHO for word, _, _ in stanza):
            continue
        if any(word in _HOST_KEYWORDS and documentation_host(view[vs:ve].strip("\"'")) for word, vs, ve in stanza):
            continue  # a file for example.com is an example
        for word, vs, ve in pairs:
            if word in _PASSWORD_KEYWORDS:
                vs, ve = _unquote(view, vs, ve)
                if ve > vs and not stand_in(text[vs:ve]):
                    found.append(Span(vs, ve, FILE_KIND, RANK_FORMAT))
    return found


# ---------------------------------------------------------------------------- .pgpass
# hostname:port:database:username:password, ``*`` a wildcard in the first four fields; ``\:``
# and ``\\`` escape within a field. Found from its port (digits or ``*``) between colons.
_PGPASS_PORT = lazy(r":(?:\d{1,5}|\*):")
_PGPASS_LINE = lazy(r"[ \t]*(?:[A-Za-z0-9.\-_\[\]%]+|\*):(?:\d{1,5}|\*):(?:[^\s:\\]|\\.)+:(?:[^\s:\\]|\\.)+:"
                    r"((?:[^\s:\\]|\\.)+)[ \t]*")


def pgpass(view: str, text: str) -> list[Span]:
    """The password field of each ``.pgpass`` line. A password of ``*`` only is a mask: the
    wildcard means "any" in the other fields and nothing in this one, so docs write it there."""
    found: list[Span] = []
    for start, end in _lines(view, (m.start() for m in _PGPASS_PORT.finditer(view))):
        line = _PGPASS_LINE.fullmatch(view, start, end)
        if line is not None and not stand_in(text[line.start(1):line.end(1)]) \
                and not documentation_host(view[start:end].lstrip().split(":", 1)[0]):
            found.append(Span(line.start(1), line.end(1), FILE_KIND, RANK_FORMAT))
    return found


# ---------------------------------------------------------------------------- .git-credentials
# One URL a line, its password raw: ``https://user@example.com:pa#ss@word@github.com``. The
# host is what follows the last ``@``; the user ends at the first ``:`` after the scheme.
_STORE_HEAD = lazy(r"[ \t]*[a-z][a-z0-9+.\-]{1,15}://[^\s:/]+:")
_STORE_HOST = lazy(r"[A-Za-z0-9.\-]+(?::\d{1,5})?(?:/[^\s@]*)?[ \t]*")
_SLOT_NAMES = frozenset({"password", "pass", "passwd", "pw", "pwd", "secret", "token"})


_USERINFO_AT = lazy(r"[^\s/]{1,300}@")  # a user (and password) after ``://``: most links have none


def _urls(view: str) -> Iterator[int]:
    pos = view.find("://")
    while pos >= 0:
        if _USERINFO_AT.match(view, pos + 3):
            yield pos
        pos = view.find("://", pos + 3)


def git_credentials(view: str, text: str) -> list[Span]:
    """The password of a line that is a credential-store URL and nothing else. A slot's own name
    (``https://user:password@host``) writes the format out in docs: a stand-in here."""
    found: list[Span] = []
    for start, end in _lines(view, _urls(view)):
        at = view.rfind("@", start, end)
        if at < 0:
            continue  # most links: no user at all
        head = _STORE_HEAD.match(view, start, end)
        if head is None or at <= head.end() or _STORE_HOST.fullmatch(view, at + 1, end) is None:
            continue
        value = text[head.end():at]
        host = view[at + 1:end].strip().split("/", 1)[0].rsplit(":", 1)[0]
        if documentation_host(host):
            continue  # a store for example.com is an example
        user = view[view.find("://", start) + 3:head.end() - 1]
        if is_local_default_login(user, value, host):
            continue  # a database URL alone on its line (``postgres:postgres@localhost``): the URL rule's verdict
        if value.lower() not in _SLOT_NAMES and not any(c.isspace() for c in value) and not stand_in(value):
            found.append(Span(head.end(), at, FILE_KIND, RANK_URL))  # the URL rule, first in the scan, names what both find
    return found


# ---------------------------------------------------------------------------- FileZilla
_FILEZILLA_PASS = lazy(r"<Pass(?P<b64>[ \t]+encoding=\"base64\")?[ \t]*>(?P<value>[^<\n]{1,512})</Pass>")


def filezilla(view: str, text: str) -> list[Span]:
    """FileZilla's ``<Pass>`` elements; base64 ones are decoded before the stand-in test."""
    found: list[Span] = []
    for match in _FILEZILLA_PASS.finditer(view):
        value = text[match.start("value"):match.end("value")]
        if match.group("b64"):
            try:
                value = base64.b64decode(value.strip(), validate=True).decode("utf-8").strip()
            except (binascii.Error, ValueError):
                continue
        if not stand_in(value):
            found.append(Span(match.start("value"), match.end("value"), FILE_KIND, RANK_FORMAT))
    return found


# ---------------------------------------------------------------------------- Rails master.key
# The key alone on a line, at most a few lines under a heading, fence or label naming the file.
_MASTER_KEY_NAME = lazy(r"\.key(?![\w.])")  # its literal first; what precedes is checked after
_MASTER_KEY_FILE = lazy(r"(?:master|credentials/[a-z_]{1,32})$")
_HEX32_LINE = lazy(r"[ \t]*([0-9a-f]{32})[ \t]*")


def master_keys(view: str, text: str) -> list[Span]:
    found: list[Span] = []
    names = (m.start() for m in _MASTER_KEY_NAME.finditer(view)
             if _MASTER_KEY_FILE.search(view, max(0, m.start() - 45), m.start()))
    for start, end in _lines(view, names):
        line = view[start:end].strip()
        if not (line.startswith(("#", "```", "~~~", "**")) or line.rstrip("*`").endswith(":")):
            continue  # the name in a sentence, not a heading, fence or label over the file
        pos = end
        for _ in range(4):
            if pos >= len(view):
                break
            next_end = view.find("\n", pos + 1, pos + 1 + _MAX_LINE)
            next_end = len(view) if next_end < 0 else next_end
            key = _HEX32_LINE.fullmatch(view, pos + 1, next_end)
            if key is not None:
                if not stand_in(key.group(1)) and not shapes.is_degenerate(key.group(1)):
                    found.append(Span(key.start(1), key.end(1), FILE_KIND, RANK_FORMAT))
                break
            below = view[pos + 1:next_end].strip()
            if below and not below.startswith(("```", "~~~")):
                break  # something else under the name
            pos = next_end
    return found


# ---------------------------------------------------------------------------- PuTTY keys
_PUTTY_HEAD = lazy(r"PuTTY-User-Key-File-[1-3]:")
_PRIVATE_LINES = lazy(r"\nPrivate-Lines:[ \t]*(\d{1,3})[ \t]*(?=\n)")
_PUTTY_REACH = 16384


def putty_keys(view: str, text: str) -> list[Span]:
    """The private lines of a PuTTY key file (encrypted or not: an encrypted one falls to a
    guessed passphrase)."""
    found: list[Span] = []
    pos = 0
    private: re.Match[str] | None = None
    while True:
        head = _PUTTY_HEAD.search(view, pos)
        if head is None:
            return found
        if private is None or private.start() < head.end():
            private = _PRIVATE_LINES.search(view, head.end())  # remembered: heads share one search
            if private is None:
                return found
        if private.start() - head.end() > _PUTTY_REACH:
            pos = head.end()
            continue
        start = stop = private.end() + 1
        for _ in range(min(int(private.group(1)), 128)):
            line_end = view.find("\n", stop, stop + 128)
            line_end = len(view) if line_end < 0 else line_end
            if not view[stop:line_end].strip() or ":" in view[stop:line_end]:
                break
            stop = line_end + 1
        stop = min(stop, len(view))
        while stop > start and view[stop - 1] in "\n \t":
            stop -= 1
        if stop > start and not shapes.is_placeholder(view[start:stop].replace("\n", "")):
            found.append(Span(start, stop, KEY_KIND, RANK_KEY_BLOCK))
        pos = max(stop, head.end())


# ---------------------------------------------------------------------------- password hashes
# Exact shapes, so they count wherever they sit. Each starts with its literal; the salt and hash
# alphabets are crypt's ``./0-9A-Za-z`` (and base64 for LDAP/Django/SCRAM).
_C = r"[./0-9A-Za-z]"
_HASH = lazy(
    r"\$(?:"
    r"2[abxy]?\$\d\d\$" + _C + r"{53}"  # bcrypt
    r"|1\$" + _C + r"{1,8}\$" + _C + r"{22}"  # md5-crypt
    r"|apr1\$" + _C + r"{1,8}\$" + _C + r"{22}"  # Apache md5
    r"|5\$(?:rounds=\d{1,9}\$)?" + _C + r"{1,16}\$" + _C + r"{43}"  # sha256-crypt
    r"|6\$(?:rounds=\d{1,9}\$)?" + _C + r"{1,16}\$" + _C + r"{86}"  # sha512-crypt
    r"|y\$" + _C + r"{3,12}\$" + _C + r"{1,86}\$" + _C + r"{43}"  # yescrypt
    r"|gy\$" + _C + r"{3,12}\$" + _C + r"{1,86}\$" + _C + r"{43}"  # gost-yescrypt
    r"|7\$" + _C + r"{11,}\$" + _C + r"{43}"  # scrypt
    r"|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}"
    r"|pbkdf2(?:-sha(?:1|256|512))?\$\d+\$[./A-Za-z0-9+]{8,}\$[./A-Za-z0-9+]{16,}"
    r"|(?P<django>\d{4,7}\$[A-Za-z0-9]{4,64}\$[A-Za-z0-9+/]{27,86}={0,2})"  # after pbkdf2_sha256 (Django)
    r"|(?P<scram>\d{4,7}:[A-Za-z0-9+/]{16,}={0,2}\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=)"  # after SCRAM-SHA-256
    r"|krb5(?:asrep|tgs|pa)\$\d{1,2}\$(?:[^\s$'\":]{1,256}[:$]){0,4}[0-9a-fA-F]{16,64}\$[0-9a-fA-F]{32,}"  # Kerberos
    r")(?![./0-9A-Za-z+$])"
)
# Hashes led by another literal than ``$``, each a pattern of its own so that the engine skips
# to that literal (Django's and PostgreSQL's hashes are ``_HASH``'s, from their first ``$``).
_OTHER_HASHES = (
    lazy(r"\{(?:S?SHA(?:256|512)?|S?MD5)\}[A-Za-z0-9+/]{20,}={0,2}"),  # LDAP, htpasswd
    lazy(r"\*(?<=['\"]\*)[0-9A-F]{40}(?![\w])"),  # MySQL 4.1+ PASSWORD(), as dumps quote it
)
_SCHEME_BEFORE = {"django": ("pbkdf2_sha256", "pbkdf2_sha1"), "scram": ("SCRAM-SHA-256",)}
_HEX_LETTER = lazy(r"[A-F]")


def password_hashes(view: str, text: str) -> list[Span]:
    found: list[Span] = []
    for pattern in (_HASH, *_OTHER_HASHES):
        for match in pattern.finditer(view):
            value, start = match.group(0), match.start()
            scheme = match.lastgroup if pattern is _HASH else None
            if scheme in _SCHEME_BEFORE:
                lead = next((s for s in _SCHEME_BEFORE[scheme] if view.endswith(s, 0, start)), None)
                if lead is None:
                    continue  # ``$600000$…`` after anything else is no hash of these
                value, start = view[start - len(lead):match.end()], start - len(lead)
            if start and (view[start - 1].isalnum() or view[start - 1] in "_"):
                continue  # inside a longer word: not where a hash starts
            if value.startswith("*") and not (_HEX_LETTER.search(value) and any(c.isdigit() for c in value[1:])):
                continue
            tail = value.rsplit("$", 1)[-1]
            if shapes.is_degenerate(tail) or _MASK.fullmatch(tail):
                continue  # ``$6$salt$xxxxxxxx…``: the format shown, not a hash
            found.append(Span(start, match.end(), HASH_KIND, RANK_FORMAT))
    return found


def scan(text: str, view: str) -> list[Span]:
    """Credential-file values and password hashes in ``text`` (``view`` its ASCII view).

    No ``lead in view`` guards: for a needle of a few characters ``str`` reads the whole text
    slower than a pattern's own search for the literal it starts with."""
    found: list[Span] = []
    for rule in (keyword_files, pgpass, git_credentials, filezilla, master_keys, putty_keys, password_hashes):
        found.extend(rule(view, text))
    return found


__all__ = ["FILE_KIND", "HASH_KIND", "KEY_KIND", "scan", "stand_in"]
