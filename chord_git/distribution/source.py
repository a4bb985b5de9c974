"""Where this copy of chord-git came from, and the environment it runs in.

pip records a URL install in the distribution's ``direct_url.json`` (PEP 610): a ``git+URL``
install carries the URL and the commit pip resolved, a folder install (``pip install PATH``,
``pip install -e PATH``) a ``file://`` URL. A build from a checkout also writes that checkout's
HEAD into the package as ``data/source-commit`` (the repository's ``setup.py``). What is read
here is turned into text only by ``hints`` and ``commands/setup.py``: the parsing is pure, the
reading is in ``installed()``.
"""
from __future__ import annotations

import json
import re
import sys
from importlib import metadata, resources
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass

DIST = "chord-git"
COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
# The condition pip's metadata puts on an extra's requirement: ``openai>=1.40; extra == "llm"``.
_EXTRA_MARKER = re.compile(r"""^\s*extra\s*==\s*["']([A-Za-z0-9._-]+)["']\s*$""")


@dataclass(frozen=True)
class Source:
    """Where this copy came from: a git repository URL and a commit, each when known, or the local
    folder it was installed from (never shown in a committed snippet: other machines lack it)."""

    url: str | None
    commit: str | None
    folder: str | None = None


@dataclass(frozen=True)
class Environment:
    """The Python environment chord-git runs in, as far as installing into it goes."""

    python: str  # the interpreter running chord-git
    pipx_venv: str | None  # the pipx environment's name when pipx manages this one
    has_pip: bool  # ``python -m pip`` works (a uv-made environment has no pip)


@dataclass(frozen=True)
class Installed:
    source: Source
    environment: Environment
    extras: dict[str, tuple[str, ...]]  # each extra's requirement strings, from the metadata


def source_from_direct_url(text: str) -> Source:
    """pip's record of a URL install (PEP 610): git installs carry the resolved commit."""
    try:
        data = json.loads(text)
    except ValueError:
        return Source(None, None)
    if not isinstance(data, dict):
        return Source(None, None)
    vcs = data.get("vcs_info")
    url = data.get("url")
    if not isinstance(url, str):
        return Source(None, None)
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        commit = vcs.get("commit_id")
        return Source(without_credentials(url), commit if isinstance(commit, str) and COMMIT.fullmatch(commit) else None)
    if isinstance(data.get("dir_info"), dict) and url.startswith("file://"):
        from urllib.parse import unquote, urlsplit

        return Source(None, None, unquote(urlsplit(url).path) or None)
    return Source(None, None)


def without_credentials(url: str) -> str | None:
    """``url`` as a hint or snippet may show it: an install from a private repository may have
    recorded a token as its user info (``https://TOKEN@host/...``), which must not land in a
    committed config or a log. Over http(s) the user info goes whole; ssh keeps its user name
    (``git@``) but no password. A URL that cannot be read is not shown."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return None
    if ":" in host:
        host = f"[{host}]"
    user = f"{parts.username}@" if parts.scheme == "ssh" and parts.username else ""
    return urlunsplit((parts.scheme, user + host + port, parts.path, "", ""))


def extras_from_requires(requires: list[str] | None) -> dict[str, tuple[str, ...]]:
    """Each extra's requirements from the metadata's ``Requires-Dist`` lines, condition removed."""
    found: dict[str, list[str]] = {}
    for line in requires or []:
        requirement, _, marker = line.partition(";")
        match = _EXTRA_MARKER.match(marker)
        if match:
            found.setdefault(match.group(1), []).append(requirement.strip())
    return {name: tuple(items) for name, items in found.items()}


def installed_source() -> Source:
    """pip's record of the install first, then the commit the build recorded from its checkout."""
    found = Source(None, None)
    try:
        text = metadata.distribution(DIST).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        text = None
    if text:
        found = source_from_direct_url(text)
        if found.folder is not None and not Path(found.folder).is_dir():
            found = Source(found.url, found.commit)  # installed from a folder since removed
    if found.commit is None:
        try:
            recorded = resources.files("chord_git").joinpath("data/source-commit").read_text().strip()
        except OSError:
            recorded = ""
        if COMMIT.fullmatch(recorded):
            found = Source(found.url, recorded, found.folder)
    return found


def environment() -> Environment:
    from importlib.util import find_spec

    prefix = Path(sys.prefix)
    # pipx writes its record into every environment it manages, named after the package.
    pipx = prefix.name if (prefix / "pipx_metadata.json").is_file() else None
    return Environment(python=sys.executable, pipx_venv=pipx, has_pip=find_spec("pip") is not None)


def installed() -> Installed:
    try:
        requires = metadata.distribution(DIST).requires
    except metadata.PackageNotFoundError:
        requires = None
    return Installed(installed_source(), environment(), extras_from_requires(requires))
