"""The project's own prose-credential corpora (``tests/data/secrets/*.txt``), expanded at load time.

``credentials.txt`` holds lines that carry a credential the way people write one in notes (sentences,
markdown, tables, command lines, links); ``talk.txt`` holds lines that only talk about credentials.
Token-shaped values are written as ``⟪kind⟫`` placeholders and built here from a seeded hash, so the
repository never holds one. Each example falls in the ``dev`` or the held-out ``test`` split by a
stable hash of its text: tune rules on ``dev`` only, report both.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "secrets"
FILES = {"credentials.txt": "secret", "talk.txt": "benign"}
TEST_SHARE = 3  # of 10: the held-out part

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
UPPER = string.ascii_uppercase + string.digits
LOWER = string.ascii_lowercase

_PLACEHOLDER = re.compile(r"⟪([^⟪⟫]+)⟫")
_TRANSFORM = re.compile(r"^([a-z0-9]+)\((.+)\)$")


@dataclass(frozen=True)
class Example:
    text: str  # expanded: what a scanner sees
    template: str  # as written in the file
    label: str  # "secret" | "benign"
    split: str  # "dev" | "test"
    lang: str  # "en" | "zh" | "ja"
    section: str
    file: str
    lineno: int


class _Stream:
    def __init__(self, seed: str) -> None:
        self._seed, self._counter, self._buffer = seed, 0, b""

    def chars(self, alphabet: str, count: int) -> str:
        out = []
        while len(out) < count:
            if not self._buffer:
                self._buffer = hashlib.sha256(f"{self._seed}/{self._counter}".encode()).digest()
                self._counter += 1
            byte, self._buffer = self._buffer[0], self._buffer[1:]
            out.append(alphabet[byte % len(alphabet)])
        return "".join(out)

    def mixed(self, alphabet: str, count: int) -> str:
        """Random text that mixes letters and digits when the alphabet has both."""
        while True:
            value = self.chars(alphabet, count)
            if not any(c.isdigit() for c in alphabet) or any(c.isdigit() for c in value):
                if not any(c.isalpha() for c in alphabet) or any(c.isalpha() for c in value):
                    return value


def _b64url(data: object) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


_FIXED: dict[str, Callable[[_Stream], str]] = {
    "github": lambda s: "gh" + "p_" + s.mixed(ALNUM, 36),
    "gitlab": lambda s: "gl" + "pat-" + s.mixed(URLSAFE, 20),
    "slack": lambda s: "-".join(["xo" + "xb", s.chars(string.digits, 12), s.chars(string.digits, 13),
                                 s.mixed(ALNUM, 24)]),
    "stripe": lambda s: "sk" + "_live_" + s.mixed(ALNUM, 24),
    "openai": lambda s: "sk-" + "proj-" + s.mixed(URLSAFE, 58) + "T3Blbk" + "FJ" + s.mixed(URLSAFE, 58),
    "anthropic": lambda s: "sk-" + "ant-api03-" + s.mixed(URLSAFE, 93) + "AA",
    "npm": lambda s: "n" + "pm_" + s.mixed(ALNUM, 36),
    "hf": lambda s: "h" + "f_" + s.chars(string.ascii_letters, 34),
    "sendgrid": lambda s: "S" + "G." + s.mixed(URLSAFE, 22) + "." + s.mixed(URLSAFE, 43),
    "aws_id": lambda s: "AK" + "IA" + s.mixed(UPPER, 16),
    "aws_secret": lambda s: s.mixed(B64, 40),
    "gcp": lambda s: "AI" + "za" + s.mixed(URLSAFE, 35),
    "telegram": lambda s: s.chars("123456789", 1) + s.chars(string.digits, 9) + ":" + "A" + s.mixed(URLSAFE, 34),
    "jwt": lambda s: ".".join([_b64url({"alg": "HS256", "typ": "JWT"}),
                               _b64url({"sub": s.chars(string.digits, 8), "iat": 1767225600}),
                               s.mixed(URLSAFE, 43)]),
    "uuid": lambda s: "-".join(s.chars(HEX, n) for n in (8, 4, 4, 4, 12)),
}
_SIZED = {"hex": HEX, "b62": ALNUM, "b64": B64, "url": URLSAFE, "upper": UPPER, "lower": LOWER,
          "digits": string.digits}

# Documentation examples (public, cited in chord_git/secrets/verdicts/examples.py), assembled from pieces.
DOC_EXAMPLES = {
    "aws_id": "AKIA" + "IOSFODNN7" + "EXAMPLE",
    "aws_pair": "wJalrXUtnFEMI" + "/K7MDENG" + "/bPxRfiCY" + "EXAMPLE" + "KEY",
    "jwtio": ".".join([_b64url({"alg": "HS256", "typ": "JWT"}),
                       _b64url({"sub": "1234567890", "name": "John Doe", "iat": 1516239022}),
                       "SflKxwRJSMeKKF2QT4fwpMeJf36POk6" + "yJV_adQssw5c"]),
    "telegram": "123456" + ":ABC-DEF1234" + "ghIkl-zyx57W2v1u123ew11",
    "stripe_test": "sk_" + "test_" + "4eC39HqLyjWD" + "arjtT1zdp7dc",
}

_HOMOGLYPHS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445",
               "A": "\u0391", "B": "\u0392", "E": "\u0395", "K": "\u039a", "M": "\u039c", "T": "\u03a4"}


def _middle(value: str) -> int:
    return max(1, len(value) // 2)


def _homoglyph(value: str) -> str:
    for i in range(len(value) // 3, len(value)):
        if value[i] in _HOMOGLYPHS:
            return value[:i] + _HOMOGLYPHS[value[i]] + value[i + 1:]
    raise ValueError(f"no homoglyph-able letter in {value!r}")


def _yaml_escape(value: str) -> str:
    return "".join(f"\\x{ord(c):02x}" if i % 3 == 0 else c for i, c in enumerate(value))


def _percent(value: str) -> str:
    return "".join(f"%{ord(c):02X}" if not c.isalnum() or i % 4 == 0 else c for i, c in enumerate(value))


_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "base64": lambda v: base64.b64encode(v.encode()).decode(),
    "hexenc": lambda v: v.encode().hex(),
    "pct": _percent,
    "zw": lambda v: v[:_middle(v)] + "\u200b" + v[_middle(v):],
    "bidi": lambda v: v[:_middle(v)] + "\u202e" + v[_middle(v):],
    "homo": _homoglyph,
    "split": lambda v: v[:_middle(v)] + "\n" + v[_middle(v):],
    "yamlesc": _yaml_escape,
}


def generate(spec: str, seed: str) -> str:
    """The value a ``⟪spec⟫`` placeholder stands for (deterministic in ``seed``)."""
    transform = _TRANSFORM.match(spec)
    if transform:
        name, inner = transform.groups()
        return _TRANSFORMS[name](generate(inner, seed))
    kind, _, arg = spec.partition(":")
    if kind == "doc":
        return DOC_EXAMPLES[arg]
    stream = _Stream(f"{seed}|{spec}")
    if kind in _SIZED:
        return stream.mixed(_SIZED[kind], int(arg))
    return _FIXED[kind](stream)


def _lang(text: str) -> str:
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def split_of(template: str) -> str:
    return "test" if hashlib.sha1(template.encode()).digest()[0] % 10 < TEST_SHARE else "dev"


def load(name: str, directory: Path = CORPUS_DIR) -> list[Example]:
    """Every example of one corpus file, expanded."""
    label = FILES[name]
    examples: list[Example] = []
    section = ""
    for lineno, raw in enumerate((directory / name).read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("# ---"):
            section = raw[5:].strip()
            continue
        if not raw.strip() or raw.startswith("#"):
            continue
        template = raw.replace("\\n", "\n")
        seed = f"{name}:{template}"
        counter = iter(range(1000))
        text = _PLACEHOLDER.sub(lambda m: generate(m.group(1), f"{seed}#{next(counter)}"), template)
        examples.append(Example(text, raw, label, split_of(raw), _lang(raw), section, name, lineno))
    return examples


def load_all(directory: Path = CORPUS_DIR) -> list[Example]:
    return [example for name in FILES for example in load(name, directory)]
