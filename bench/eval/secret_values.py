"""Fake but format-valid secrets, built from pieces so the repository itself scans clean.

Fixture files only hold placeholders such as ``{{SECRET.github_pat}}`` or ``{{SECRET.github_pat#2}}``
(the tag after ``#`` asks for a second, different value of the same kind). Values are derived from
a hash of (case id, kind, tag), so the same placeholder expands to the same value in a session and
in its scripted reply, and every run sees identical bytes. The separator is a dot, not a colon:
detect-secrets' keyword plugin reads ``SECRET:x`` in a YAML file as a secret assignment.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import string
from collections.abc import Callable

PLACEHOLDER = re.compile(r"\{\{SECRET\.([a-z0-9_]+)(?:#([A-Za-z0-9_-]+))?\}\}")

UPPER_DIGITS = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
B64 = ALNUM + "+/"


class _Stream:
    """Deterministic pseudo-random characters drawn from a seed; enough for fake tokens."""

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _byte(self) -> int:
        if not self._buffer:
            self._buffer = hashlib.sha256(f"{self._seed}/{self._counter}".encode()).digest()
            self._counter += 1
        value, self._buffer = self._buffer[0], self._buffer[1:]
        return value

    def chars(self, alphabet: str, count: int) -> str:
        return "".join(alphabet[self._byte() % len(alphabet)] for _ in range(count))


def _aws_access_key(s: _Stream) -> str:
    return "AK" + "IA" + s.chars(UPPER_DIGITS, 16)


def _aws_secret(s: _Stream) -> str:
    return s.chars(ALNUM + "/+", 40)


def _github_pat(s: _Stream) -> str:
    return "gh" + "p_" + s.chars(ALNUM, 36)


def _gitlab_pat(s: _Stream) -> str:
    return "gl" + "pat-" + s.chars(ALNUM + "_-", 20)


def _slack_bot(s: _Stream) -> str:
    digits = "0123456789"
    return "-".join(["xo" + "xb", s.chars(digits, 12), s.chars(digits, 13), s.chars(ALNUM, 24)])


def _openai_key(s: _Stream) -> str:
    # The marker in the middle is the base64 of the issuer's name; scanners key on it.
    marker = base64.b64encode(b"Open" + b"AI").decode()[:8]
    return "sk" + "-proj-" + s.chars(ALNUM, 20) + marker + s.chars(ALNUM, 20)


def _stripe_live(s: _Stream) -> str:
    return "sk" + "_live_" + s.chars(ALNUM, 24)


def _npm_token(s: _Stream) -> str:
    return "np" + "m_" + s.chars(ALNUM, 36)


def _password(s: _Stream) -> str:
    # No "!": detect-secrets 1.5 does not report URL credentials whose password contains one, and
    # these values must be recognisable by both scanning layers.
    return s.chars(ALNUM, 10) + "-" + s.chars(ALNUM, 6)


def _postgres_url(s: _Stream) -> str:
    user = "app_" + s.chars(string.ascii_lowercase, 5)
    return "postgres" + "ql://" + user + ":" + _password(s) + "@" + "db.example.com:5432/app"


def _pem_private_key(s: _Stream) -> str:
    label = "RSA " + "PRIVATE" + " KEY"
    body = "MIIEo" + "wIBAAKCAQEA" + s.chars(B64, 53)
    lines = [body] + [s.chars(B64, 64) for _ in range(6)] + [s.chars(B64, 40) + "=="]
    return "\n".join(["-----BEGIN " + label + "-----", *lines, "-----END " + label + "-----"])


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(s: _Stream) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": "user-" + s.chars(LOWER_DIGITS, 8), "role": "admin", "iat": 1767225600}
    payload = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{payload}.{s.chars(ALNUM + '-_', 43)}"


BUILDERS: dict[str, Callable[[_Stream], str]] = {
    "aws_access_key": _aws_access_key,
    "aws_secret": _aws_secret,
    "github_pat": _github_pat,
    "gitlab_pat": _gitlab_pat,
    "slack_bot": _slack_bot,
    "openai_key": _openai_key,
    "stripe_live": _stripe_live,
    "npm_token": _npm_token,
    "password": _password,
    "postgres_url": _postgres_url,
    "pem_private_key": _pem_private_key,
    "jwt": _jwt,
}


def secret_value(case_id: str, kind: str, tag: str = "") -> str:
    """The fake value that ``{{SECRET.kind#tag}}`` stands for in case ``case_id``."""
    try:
        builder = BUILDERS[kind]
    except KeyError:
        raise ValueError(f"unknown secret kind {kind!r} in case {case_id}") from None
    return builder(_Stream(f"{case_id}|{kind}|{tag}"))


def expand_text(text: str, case_id: str) -> str:
    """Replace every secret placeholder in ``text`` with its value for ``case_id``."""
    return PLACEHOLDER.sub(lambda m: secret_value(case_id, m.group(1), m.group(2) or ""), text)


def placeholders(text: str) -> list[tuple[str, str]]:
    """The (kind, tag) pairs named in ``text``, in order of appearance."""
    return [(m.group(1), m.group(2) or "") for m in PLACEHOLDER.finditer(text)]
