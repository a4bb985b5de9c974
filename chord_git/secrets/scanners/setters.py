"""Layer-1 scanner for a credential handed to a tool's configuration setter (R31).

``npm config set //registry.npmjs.org/:_authToken …``, ``yarn config set npmAuthToken …``,
``pnpm config set …``, ``aws configure set aws_secret_access_key …``: a command that stores a
value under a key. The key's last segment (after ``/``, ``:`` or ``.``) must name a credential
(``keys.classify_key``, strong words only) and the value passes the value test. A key set from
a variable (``${NPM_TOKEN}``) or a placeholder is left alone by that test.

Linear time: the pattern starts with the literal ``config``, and each match is bounded.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import values
from ..words import keys, vocab

_SETTER = lazy(r"""config(?:ure)?[ \t]+set[ \t]+(?P<key>"[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s="']{1,200})(?:[ \t]+|=)"""
               r"""(?P<value>"[^"\n]{1,400}"|'[^'\n]{1,400}'|[^\s;|&"'`]{1,400})""")


def _key_class(key: str) -> tuple[str, str] | None:
    """(kind, value class) when the key's last segment names a credential, or None."""
    last = re.split(r"[/:.]", key.strip("'\""))[-1]
    verdict = keys.classify_key(last) if last else None
    if verdict is None or verdict[1] != "strong":
        return None
    return verdict[0], (vocab.PASSWORD if verdict[0].startswith("password") else vocab.SECRET)


def scan(text: str, view: str) -> list[Span]:
    """Credentials stored by ``… config set <key> <value>`` under a key that names one."""
    found: list[Span] = []
    for match in _SETTER.finditer(view):
        verdict = _key_class(match.group("key"))
        if verdict is None:
            continue
        vs, ve = match.span("value")
        quoted = view[vs] in "'\""
        if quoted:
            vs, ve = vs + 1, ve - 1
        if ve > vs and values.credential_value(text[vs:ve], verdict[1], quoted=quoted):
            found.append(Span(vs, ve, verdict[0], RANK_ASSIGNMENT))
    return found


__all__ = ["scan"]
