"""Layer 2 is a floor (R31): every finding detect-secrets makes on memory text is reported,
unless one of the named verdicts below removes it.

The hook promises to catch at least what ``detect-secrets scan`` catches. So a detect-secrets
finding is not second-guessed by taste (an entropy string under a harmless-looking name, a
vendor regex looser than ours): the only ways it leaves the report are the verdicts of
``VERDICTS``, each tested, each shown with its reason by ``git memory check --explain`` and in its
JSON. What layer 2 never reads (lines over ``LAYER2_MAX_LINE``, text past ``LAYER2_MAX_CHARS``) is
not a removal: layer 1 reads all of it, and ``docs/secrets.md`` says where the floor ends.

This module decides on one finding from its value and line; the driver (``layer2.detect``) adds
the project's acceptances (baseline, pragmas, ignore file) and ``scan`` the finding layer 1 makes
on the same line. Values are used here and never returned.
"""
from __future__ import annotations

from ...support.dataclass_lazy import dataclass
from ...support.regex_lazy import lazy
from ..verdicts.benign import benign_reason, key_before
from ..verdicts.examples import is_documentation_example
from ..verdicts.shapes import is_placeholder
from ..verdicts.values import is_local_default_login
from ..words.keys import classify_key, word_parts

# Every reason a detect-secrets finding may leave the report, and what ``--explain`` says of it.
VERDICTS: dict[str, str] = {
    "not-a-credential": "a public IP address or public key is not a credential: nothing to rotate",
    "placeholder": "the value is a placeholder, template or redaction marker",
    "reference": "the value names where the secret lives (an environment variable, a file), not the secret",
    "documentation-example": "the value is a published documentation example",
    "local-default": "a development login on a local host: a stock password or the user name again",
    "digest": "a checksum, digest, commit id or nonce named as one: it is computed from or sent with "
              "public data, and nothing grants access with it",
    "reported-by-layer-1": "the same secret is reported on this line by chord-git's own rules",
    "baseline": "the project's .secrets.baseline accepts this value",
    "allowed": "a pragma on the line or a pattern of the baseline allows it",
    "ignore-file": ".chord/secrets-ignore accepts this value",
}

_NOT_CREDENTIALS = frozenset({"public-ip"})
# detect-secrets' vendor regexes report a capture group (the GitHub plugin reports "ghp"): the
# token a verdict looks at is the run of token characters around it.
# Before the value no ``=``/``/``: they end a key (``token=``) or a path, not start a token.
_TOKEN_CHARS = lazy(r"[A-Za-z0-9_\-.+/=~]*")
_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+~")
# Kinds whose reported value is the value itself (quoted string, keyword's value, URL password).
_VALUE_KINDS = frozenset({"secret-keyword", "high-entropy-string", "url-credentials"})


# The last word of a key that names a digest. Not ``salt``, ``iv`` or ``signature``: a signing
# salt and a signature key can be secrets, and ``password_hash`` is one (crackable).
_DIGEST_NAMES = frozenset({
    "checksum", "checksums", "chksum", "crc", "crc32", "digest", "etag", "etags", "hash", "integrity",
    "md5", "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "sum", "nonce", "commit", "rev",
    "revision", "srcrev", "fingerprint",
})
_DIGEST_SHAPE = lazy(r"[A-Za-z0-9+/=_\-]+")
# ``api_key_env: OPENAI_API_KEY``: a name in capitals with words joined by ``_`` is how every
# shell, CI system and config loader names a variable; a generated secret has lower case too.
_ENV_NAME = lazy(r"\$?\{?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\}?")
# ``scheme://user:password@host``: where a basic-auth finding's password sits, to read its user and host.
_USERINFO = lazy(r"[A-Za-z][A-Za-z0-9+.\-]{0,20}://([^\s:/@]{1,256}):([^\s@/]{1,256})@(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9._\-]{1,253})")
# The last word of a key that says its value is where the secret lives (``api_key_env``,
# ``password_file``, ``token_path``), whatever the value looks like.
_WHERE_NAMES = frozenset({"env", "var", "vars", "variable", "file", "filename", "path", "ref", "reference"})


@dataclass(frozen=True)
class Removal:
    """A detect-secrets finding left out of the report, and why (never its value)."""

    path: str
    line: int
    kind: str  # the finding's kind, as it would have been reported
    verdict: str  # a key of VERDICTS
    detail: str = ""  # e.g. the kind layer 1 reports instead

    @property
    def reason(self) -> str:
        text = VERDICTS[self.verdict]
        return f"{text} ({self.detail})" if self.detail else text

    def render(self) -> str:
        from ...support.escape import printable

        return printable(f"{self.path}:{self.line}: detect-secrets {self.kind} not reported: {self.reason}")

    def as_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "kind": self.kind, "verdict": self.verdict,
                "reason": self.reason}


def token_at(line: str, value: str) -> str:
    """The whole token of ``line`` that holds ``value`` (``value`` itself when not on the line)."""
    start = line.find(value)
    if start < 0:
        return value
    head, floor = start, max(0, start - 256)
    while head > floor and line[head - 1] in _BEFORE:
        head -= 1
    after = _TOKEN_CHARS.match(line, start + len(value))
    end = after.end() if after else start + len(value)
    return line[head:min(end, start + len(value) + 1024)]


def reported_value(line: str, value: str, kind: str) -> str:
    """The value a finding stands for: itself, or for a vendor regex the token around it."""
    return value if kind in _VALUE_KINDS or not value else token_at(line, value)


def value_verdict(line: str, value: str | None, kind: str) -> str | None:
    """The verdict that removes a finding of ``kind`` whose value is ``value`` on ``line``, or None.

    Private keys are judged by the caller, on their whole block (detect-secrets reports only the
    BEGIN line)."""
    if kind in _NOT_CREDENTIALS:
        return "not-a-credential"
    if not value:
        return None
    bare = reported_value(line, value, kind).strip().strip("\"'`")
    if benign_reason(bare) == "public-key":
        return "not-a-credential"
    if is_documentation_example(bare):
        return "documentation-example"
    if is_placeholder(bare):
        return "placeholder"
    if _ENV_NAME.fullmatch(bare) or _names_a_place(line, bare):
        return "reference"
    if _named_digest(line, bare):
        return "digest"
    if kind == "url-credentials" and _local_default(line, bare):
        return "local-default"
    return None


def _local_default(line: str, password: str) -> bool:
    """``postgres://postgres:postgres@localhost``: the URL holding ``password`` is a development
    default (``values.is_local_default_login``, the rule layer 1 follows too)."""
    return any(match.group(2) == password and is_local_default_login(*match.group(1, 2, 3))
               for match in _USERINFO.finditer(line))


def _names_a_place(line: str, value: str) -> bool:
    start = line.find(value)
    parts = word_parts(key_before(line, start)) if start >= 0 else []
    return bool(parts) and parts[-1] in _WHERE_NAMES


def _named_digest(line: str, value: str) -> bool:
    """``sha512-…`` / ``sha256:…``, or a digest-shaped value named as a digest by its key
    (``etag:``, ``content-hash =``) or by the words just before it ("the nonce is '…'"), when no
    word there holds a secret (``password_hash``, "the token hash is")."""
    if benign_reason(value) == "digest":
        return True
    start = line.find(value)
    if start < 0 or not _DIGEST_SHAPE.fullmatch(value):
        return False
    key = word_parts(key_before(line, start))
    before = word_parts(line[max(0, start - 40):start])
    if any(classify_key(word) for word in (*key, *before)):
        return False
    return bool(key) and key[-1] in _DIGEST_NAMES or any(word in _DIGEST_NAMES for word in before)


__all__ = ["VERDICTS", "Removal", "reported_value", "token_at", "value_verdict"]
