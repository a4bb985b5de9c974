"""What a record names that the project can check: its anchors (issue 36).

An anchor is a project path, a ``make`` target, a package script or a config key that a record's
text names. They are what makes an entry false when the code moves on, so they are recorded once,
when the record is written (the front-matter field ``anchors``), and looked up where memory is
used: session start labels an entry whose anchor the working tree no longer has, ``why`` lists
those, and ``audit`` checks all of them against the whole tree. A record written before anchors
existed gets them derived from its text when it is read; nothing is rewritten.

Detection is cautious, as a false anchor sends the user to check an entry that is fine: only
tokens that clearly are paths (inside backticks anything path-like; outside them, tokens with a
slash ending in a known extension or a slash: ``and/or`` is not a path), targets after ``make``,
scripts after ``npm|pnpm|yarn|bun run``, and backticked ``ENV_KEYS`` or ``dotted.keys``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from chord_git.support.dataclass_lazy import dataclass

KINDS = ("path", "make", "script", "key")
# A record names a handful; more would be a list the session start checks for nothing.
MAX_ANCHORS = 16

_BACKTICKED = re.compile(r"`([^`\n]{1,200})`")
_BARE = re.compile(r"(?<![\w./~:-])((?:[\w.-]+/)+[\w.-]*)")
_SEGMENT = re.compile(r"^[\w.-]+$")
_LINE_SUFFIX = re.compile(r":\d+(?::\d+)?$")
EXTENSIONS = frozenset(
    "py pyi js mjs cjs ts tsx jsx json jsonc yaml yml toml ini cfg conf md rst txt sh bash zsh go rs c h "
    "cc cpp hpp java kt kts rb php cs swift sql html css scss vue svelte lock xml gradle proto tf mk "
    "dockerfile env csv ipynb".split()
)
_MAKE = re.compile(r"`make\s+([A-Za-z][\w.-]*)`|\b(?i:run|runs|running)\s+make\s+([A-Za-z][\w.-]*)"
                   r"|(?:跑|运行|执行)\s*make\s+([A-Za-z][\w.-]*)")
_SCRIPT = re.compile(r"\b(?:npm|pnpm|yarn|bun)\s+run\s+([\w:.-]+)")
_BACKTICK = re.compile(r"`([^`\n]{2,80})`")
_ENV_KEY = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_DOTTED_KEY = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$")
_NAME = re.compile(r"^[\w./:-]{1,200}$")
# A Makefile rule's head: its targets before the colon (``X := v`` is a variable).
RULE_HEAD = re.compile(r"^([A-Za-z][\w.-]*(?:[ \t]+[A-Za-z][\w.-]*)*)[ \t]*:(?!=)", re.M)
# Where a config key lives: files by these endings and ``.env*``; a key is one of their identifiers.
CONFIG_SUFFIXES = (".yaml", ".yml", ".toml", ".json", ".ini", ".cfg", ".conf", ".env", ".example", ".properties")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


@dataclass(frozen=True)
class Anchor:
    kind: str  # one of KINDS
    name: str

    def render(self) -> str:
        """As the front matter holds it: ``kind:name``."""
        return f"{self.kind}:{self.name}"

    def shown(self) -> str:
        """As a person reads it: ``src/app.py``, ``make check``, ``script build``, ``config key X``."""
        return {"path": self.name, "make": f"make {self.name}", "script": f"script {self.name}",
                "key": f"config key {self.name}"}[self.kind]


def _has_extension(segment: str) -> bool:
    stem, dot, ext = segment.rpartition(".")
    return bool(dot and stem and ext.lower() in EXTENSIONS)


def _clean(token: str) -> str | None:
    """A project-relative path spelled by ``token``, or None when it is not one."""
    token = _LINE_SUFFIX.sub("", token.strip().rstrip(".,;:!?)]}'\""))
    while token.startswith("./"):
        token = token[2:]
    if not token or token.startswith(("/", "~", "-")) or "://" in token or any(ch in token for ch in "*?{}<>$ "):
        return None
    parts = token.rstrip("/").split("/")
    if any(part in ("", ".", "..") or not _SEGMENT.match(part) for part in parts):
        return None
    if not any(ch.isalpha() for ch in token):
        return None
    return token


def paths_named(text: str) -> list[str]:
    """Project-relative paths a text names, in order of appearance, without repeats (pure)."""
    found: list[str] = []
    for match in _BACKTICKED.finditer(text):
        path = _clean(match.group(1))
        if path and ("/" in path or _has_extension(path)):
            found.append(path)
    for match in _BARE.finditer(_BACKTICKED.sub(" ", text)):
        path = _clean(match.group(1))
        if path and (path.endswith("/") or _has_extension(path.rsplit("/", 1)[-1])):
            found.append(path)
    return list(dict.fromkeys(found))


def derive(text: str) -> tuple[Anchor, ...]:
    """The anchors ``text`` names: paths, make targets, package scripts, config keys (pure)."""
    # Each pattern runs only on texts holding its marker: most texts name nothing of the tree.
    found = [Anchor("path", path) for path in paths_named(text)] if "/" in text or "`" in text or "." in text else []
    # A sentence's full stop or colon is not part of the name ("run make lint." names lint).
    found += [Anchor("make", next(g for g in m.groups() if g).rstrip(".:-")) for m in _MAKE.finditer(text)] \
        if "make" in text else []  # "Run make lint" at a sentence's start too
    found += [Anchor("script", m.group(1).rstrip(".:-")) for m in _SCRIPT.finditer(text)] if " run " in text else []
    for match in _BACKTICK.finditer(text) if "`" in text else ():
        key = match.group(1).strip()
        if _ENV_KEY.match(key) or (_DOTTED_KEY.match(key) and not paths_named(f"`{key}`")):
            found.append(Anchor("key", key))
    return tuple(dict.fromkeys(found))


def of_texts(texts: Iterable[str]) -> tuple[Anchor, ...]:
    """The anchors of a record's texts (summary, statement, how to apply), first named first."""
    return tuple(dict.fromkeys(anchor for text in texts for anchor in derive(text)))[:MAX_ANCHORS]


def parse(value: str) -> tuple[tuple[Anchor, ...], str | None]:
    """The front matter's ``anchors`` (``kind:name`` separated by spaces) and the first problem."""
    out: list[Anchor] = []
    for word in value.split():
        kind, colon, name = word.partition(":")
        if not colon or kind not in KINDS or not _NAME.match(name) or (kind == "path" and _clean(name) != name):
            return tuple(out), f"anchor {word[:60]!r} is not kind:name (kinds: {', '.join(KINDS)})"
        out.append(Anchor(kind, name))
    if len(out) > MAX_ANCHORS:
        return tuple(out[:MAX_ANCHORS]), f"{len(out)} anchors (at most {MAX_ANCHORS})"
    return tuple(dict.fromkeys(out)), None


def render(anchors: Iterable[Anchor]) -> str:
    return " ".join(anchor.render() for anchor in anchors)


def make_targets(makefile: str) -> frozenset[str]:
    """The targets a Makefile's text defines (rule heads; ``X := v`` is a variable, pure)."""
    return frozenset(name for match in RULE_HEAD.finditer(makefile) for name in match.group(1).split())


def is_config(name: str) -> bool:
    """A file name a config key may be read from (``audit`` and the range scan agree on it)."""
    return name.endswith(CONFIG_SUFFIXES) or name.startswith(".env")


def identifiers(text: str) -> set[str]:
    """The words of a config file a key's last segment is looked for among (pure)."""
    return set(_IDENTIFIER.findall(text))
