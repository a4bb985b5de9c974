"""``git memory setup``: per-clone and per-project setup.

``setup pre-commit|github|gitlab`` prints the configuration snippet for the pre-commit framework,
a GitHub Actions workflow or a GitLab CI pipeline, pinned to the commit this copy of chord-git was
installed from: release tags do not travel with every copy of the repository, a commit does.

``setup merge`` turns on the MEMORY.md merge driver in this repository.

git keeps merge drivers in config, which a clone does not copy, and chooses them by attributes,
which travel with the repository. So this command writes the two ``merge.chord-memory.*`` keys to
the repository's own config (each clone runs it once) and *prints* the ``.gitattributes`` lines for
the MEMORY.md files it finds, root and sub-projects: the user adds and commits them. It never edits
``.gitattributes`` or ``.gitignore`` and never stages anything (R37).
"""
from __future__ import annotations

import json
import re
import shutil
from importlib import metadata, resources
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import RepoError
from chord_git.git import command
from chord_git.memory.index_file import BEGIN
from chord_git.memory.project import MEMORY_FILE, discover
from chord_git.ui import Output

DRIVER = "chord-memory"
NAME = "chord-git: MEMORY.md, managed section merged entry by entry"
# git runs the driver through sh, with %O %A %B (temp files), %P (the path) and %L (marker size)
# already shell-quoted, and from git 2.44 on %X %S %Y (the labels git prints on conflicts: ours,
# the base, theirs; older git passes them as they are). Without git-memory on PATH (an inactive
# venv, a GUI with another PATH) it falls back to git's own text merge, so the file conflicts
# exactly as it would without a driver instead of being left as ours alone.
COMMAND = (
    "if command -v git-memory >/dev/null 2>&1; "
    "then exec git-memory merge-driver --marker-size %L --labels %X %S %Y -- %O %A %B %P; "
    "else echo 'git memory: git-memory is not on PATH; '%P' merged as plain text' >&2; "
    "exec git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B; fi"
)


def attributes_line(path: str) -> str:
    """A .gitattributes line matching exactly this top-level-relative path."""
    pattern = "/" + "".join("\\" + ch if ch in "*?[\\" else ch for ch in path)
    if any(ch.isspace() or ch == '"' for ch in pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"


def _is_memory_index(workdir: Path, path: str) -> bool:
    """A MEMORY.md of ours: the root one, one beside a .chord/ folder, or one with the markers."""
    file = workdir / path
    if path == MEMORY_FILE or (file.parent / ".chord").is_dir():
        return True
    try:
        with open(file, "rb") as handle:
            return BEGIN.encode() in handle.read(1 << 20)
    except OSError:
        return False


def setup_merge(start: Path, out: Output) -> int:
    repo = discover(start).repo
    if repo is None or repo.workdir is None:
        raise RepoError(f"{start}: not inside a git work tree; the merge driver is set per repository")
    workdir = repo.workdir
    command.set_local_config(workdir, f"merge.{DRIVER}.name", NAME)
    command.set_local_config(workdir, f"merge.{DRIVER}.driver", COMMAND)
    out.line(f"set merge.{DRIVER}.name and merge.{DRIVER}.driver in this repository's git config")

    found = [p for p in command.listed_files(workdir, MEMORY_FILE) if _is_memory_index(workdir, p)]
    paths = found or [MEMORY_FILE]
    current = command.attribute(workdir, "merge", paths)
    missing = [p for p in paths if current.get(p) != DRIVER]
    done = [p for p in paths if current.get(p) == DRIVER]
    if done:
        out.line(f"already merged by the driver: {', '.join(done)}")
    if missing:
        out.line("")
        out.line("Add these lines to .gitattributes at the top of the repository and commit it, so")
        out.line("every clone merges MEMORY.md with the driver (or to .git/info/attributes for this")
        out.line("clone only):")
        out.line("")
        for path in missing:
            out.line(f"    {attributes_line(path)}")
        out.line("")
    out.line("Each clone runs `git memory setup merge` once: git does not copy config with a clone.")
    if shutil.which("git-memory") is None:
        out.warn("git-memory is not on PATH here: until it is, MEMORY.md merges as plain text")
    out.line(".gitattributes and .gitignore were not edited; nothing was staged")
    return 0


# ----------------------------------------------------------------------------- pinned snippets
PLACEHOLDER_URL = "https://github.com/OWNER/chord-git"
# When the installed commit is unknown the snippets follow the default branch, which always exists.
FALLBACK_REF = "main"
_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_GITHUB = re.compile(r"(?:https://|ssh://git@|git@)github\.com[/:]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?")


@dataclass(frozen=True)
class Source:
    """Where this copy of chord-git came from: a repository URL and a commit, each when known."""

    url: str | None
    commit: str | None


def source_from_direct_url(text: str) -> Source:
    """pip's record of a URL install (PEP 610): VCS installs carry the resolved commit."""
    try:
        data = json.loads(text)
    except ValueError:
        return Source(None, None)
    if not isinstance(data, dict):
        return Source(None, None)
    vcs = data.get("vcs_info")
    url = data.get("url")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and isinstance(url, str):
        commit = vcs.get("commit_id")
        return Source(_without_credentials(url), commit if isinstance(commit, str) and _COMMIT.fullmatch(commit) else None)
    return Source(None, None)


def _without_credentials(url: str) -> str | None:
    """``url`` as a snippet may show it: an install from a private repository may have recorded a
    token as its user info (``https://TOKEN@host/...``), which must not land in a committed
    config. Over http(s) the user info goes whole; ssh keeps its user name (``git@``) but no
    password. A URL that cannot be read is not shown."""
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


def installed_source() -> Source:
    """pip's record of a git URL install first, then the commit the build recorded from its checkout."""
    found = Source(None, None)
    try:
        text = metadata.distribution("chord-git").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        text = None
    if text:
        found = source_from_direct_url(text)
    if found.commit is None:
        try:
            recorded = resources.files("chord_git").joinpath("data/source-commit").read_text().strip()
        except OSError:
            recorded = ""
        if _COMMIT.fullmatch(recorded):
            found = Source(found.url, recorded)
    return found


def github_slug(url: str | None) -> str | None:
    match = _GITHUB.fullmatch(url or "")
    return f"{match.group(1)}/{match.group(2)}" if match else None


def render_snippet(what: str, source: Source) -> list[str]:
    """The ready-to-paste configuration for ``what``, pinned to ``source``'s commit when known."""
    url = source.url or PLACEHOLDER_URL
    ref = source.commit or FALLBACK_REF
    slug = github_slug(url) or "OWNER/chord-git"
    if what == "pre-commit":
        return ["# .pre-commit-config.yaml",
                "repos:",
                f"-   repo: {url}",
                f"    rev: {ref}",
                "    hooks:",
                "    -   id: chord-memory-check      # on commit: the memory files being committed",
                "    -   id: chord-memory-scan       # on push: pre-commit install --hook-type pre-push"]
    if what == "github":
        return ["# .github/workflows/memory-secrets.yml",
                "name: memory-secrets",
                "on:",
                "  pull_request:",
                "  push:",
                "    branches: [main]",
                "permissions:",
                "  contents: read",
                "  security-events: write        # the SARIF upload",
                "jobs:",
                "  scan-memory:",
                "    runs-on: ubuntu-latest",
                "    steps:",
                "      - uses: actions/checkout@v4",
                "        with:",
                "          fetch-depth: 0        # the range needs its base commit",
                f"      - uses: {slug}@{ref}"]
    assert what == "gitlab", what
    raw = f"https://raw.githubusercontent.com/{slug}/{ref}/ci/gitlab/memory-scan.yml"
    return ["# .gitlab-ci.yml",
            "include:",
            f"  - remote: {raw}",
            "variables:",
            f"  CHORD_GIT_URL: {url}   # where the runner installs chord-git from",
            f"  CHORD_GIT_REF: {ref}"]


def setup_snippet(what: str, out: Output) -> int:
    source = installed_source()
    for line in render_snippet(what, source):
        out.line(line)
    if source.commit is None:
        out.warn(f"the commit this chord-git was installed from is unknown, so this follows the branch "
                 f"{FALLBACK_REF!r}; to pin a commit, put in the one `git ls-remote {source.url or PLACEHOLDER_URL} "
                 f"HEAD` prints")
    if source.url is None:
        out.warn(f"{PLACEHOLDER_URL} stands for the repository you get chord-git from: put in its URL")
    elif what != "pre-commit" and github_slug(source.url) is None:
        out.warn(f"OWNER/chord-git stands for the GitHub copy of {source.url}: put in its owner and name")
    return 0
