"""Layer-1 scanner for Jenkins credential XML (R31): ``credentials.xml`` and job ``config.xml``.

Jenkins writes each stored credential encrypted under its controller's key, in braces inside
the element that holds it: ``<secret>{AQAAABAAAAAQ…}</secret>``, and likewise ``<password>``,
``<apiToken>``, ``<privateKey>``, ``<passphrase>``, ``<secretBytes>``. Whoever also has the
controller's ``secrets/`` directory reads it in clear, so a pasted file leaks the credential.
The braces hold the encrypted form; a template written in them (``<secret>{{ var }}</secret>``,
``{VAR_NAME}``) holds none.

A body counts when it carries Jenkins's marker of an encrypted value (base64 of the format's
version and length fields, ``AQAAAB…``) or a generated value (``values.token_like``).

Linear time: the pattern starts with ``<`` and a literal element name, and reads at most
``_MAX_BODY`` characters up to the closing brace.
"""
from __future__ import annotations

from ...support.regex_lazy import lazy
from ..text.spans import RANK_FORMAT, Span
from ..verdicts import shapes, values

KIND = "jenkins-credential"
_MAX_BODY = 4096
# The elements Jenkins's credential types write their secrets into.
CREDENTIAL_ELEMENTS = ("secret", "password", "apiToken", "privateKey", "passphrase", "secretBytes")
_ELEMENT = lazy(r"<(?P<tag>" + "|".join(CREDENTIAL_ELEMENTS) + r")>[ \t]*\{(?P<body>[^{}<>\n]{8,"
                + str(_MAX_BODY) + r"})\}[ \t]*</(?P=tag)>")
# Base64 of the encrypted format's header: version 1, then the length of its 16-byte IV.
_HEADER = lazy(r"AQAAAB(?:AAAAAQ)?")
_NOT_TOKEN = lazy(r"[^A-Za-z0-9+/=_.-]")


def _holds_credential(body: str) -> bool:
    """Does the text between the braces hold an encrypted or generated value?"""
    if shapes.is_placeholder(body.strip()):
        return False
    for part in body.split():
        header = _HEADER.match(part)
        if header is not None:
            if len(part) >= 24 and not shapes.is_degenerate(part[header.end():]):
                return True  # the encrypted value itself
            continue
        # A generated value, judged on its token characters (a stray ``%`` splits nothing).
        core = _NOT_TOKEN.sub("", part)
        if len(core) >= 16 and values.token_like(core) and not shapes.is_placeholder(part):
            return True
    return False


def scan(text: str, view: str) -> list[Span]:
    """The bodies of Jenkins credential elements that hold a value."""
    found: list[Span] = []
    if "</" not in view:
        return found
    for match in _ELEMENT.finditer(view):
        start, end = match.span("body")
        if _holds_credential(text[start:end]):
            found.append(Span(start, end, KIND, RANK_FORMAT))
    return found


__all__ = ["CREDENTIAL_ELEMENTS", "KIND", "scan"]
