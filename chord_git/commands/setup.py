"""``git memory setup``: per-clone and per-project setup.

``setup pre-commit|github|gitlab`` prints the configuration snippet for the pre-commit framework,
a GitHub Actions workflow or a GitLab CI pipeline, pinned to the commit this copy of chord-git was
installed from: release tags do not travel with every copy of the repository, a commit does.

``setup github`` runs the workflow on pushes to the repository's default branch: the one
``origin/HEAD`` names, else the current branch's upstream, else ``init.defaultBranch``, else the
current branch; it says on stderr which it chose and why.

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
from pathlib import Path

from chord_git.distribution import hints
from chord_git.distribution.source import Source, installed_source
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
# When the installed commit is unknown the snippets follow the default branch, which always exists.
FALLBACK_REF = "main"
# When no repository says which branch is the default: git's own default for new repositories.
FALLBACK_BRANCH = "main"
_GITHUB = re.compile(r"(?:https://|ssh://git@|git@)github\.com[/:]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?")
# A branch name YAML reads as a plain string in a flow sequence; others are written quoted.
_PLAIN_BRANCH = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")


def github_slug(url: str | None) -> str | None:
    match = _GITHUB.fullmatch(url or "")
    return f"{match.group(1)}/{match.group(2)}" if match else None


def _yaml_scalar(text: str) -> str:
    # A JSON string is a YAML double-quoted scalar.
    return text if _PLAIN_BRANCH.fullmatch(text) and text.lower() not in ("true", "false", "null", "yes", "no", "on", "off") \
        else json.dumps(text)


def render_snippet(what: str, source: Source, branch: str = FALLBACK_BRANCH) -> list[str]:
    """The ready-to-paste configuration for ``what``, pinned to ``source``'s commit when known;
    a GitHub workflow runs on pushes to ``branch``."""
    url = source.url or hints.PLACEHOLDER_URL
    ref = source.commit or FALLBACK_REF
    slug = github_slug(url) or hints.PLACEHOLDER_SLUG
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
                f"    branches: [{_yaml_scalar(branch)}]",
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


def snippet_warnings(what: str, source: Source) -> list[str]:
    """What the user must fill in or may want to change in ``render_snippet(what, source)``."""
    warnings = []
    if source.commit is None:
        warnings.append(f"the commit this chord-git was installed from is unknown, so this follows the branch "
                        f"{FALLBACK_REF!r}; to pin a commit, put in the one `{hints.ls_remote_command(source.url)}` "
                        "prints")
    if source.url is None:
        warnings.append(f"{hints.PLACEHOLDER_URL} stands for the repository you get chord-git from: "
                        f"{hints.REPLACE_OWNER} (and the name, if it differs)")
    elif what != "pre-commit" and github_slug(source.url) is None:
        warnings.append(f"{hints.PLACEHOLDER_SLUG} stands for the GitHub copy of {source.url}: {hints.REPLACE_SLUG}")
    return warnings


def default_branch(start: Path) -> tuple[str, str]:
    """The repository's default branch and how it was found, best source first."""
    from chord_git.git import branches
    from chord_git.memory.project import discover

    try:
        repo = discover(start).repo
    except RepoError:
        repo = None
    workdir = (repo.workdir or repo.git_dir) if repo is not None else start
    if repo is not None:
        remote = branches.remote_head(repo)
        if remote is not None:
            return remote, "the branch origin/HEAD names"
    current = branches.current_branch(repo) if repo is not None else None
    if current is not None:
        upstream = _config(workdir, f"branch.{current}.merge")
        if upstream and upstream.startswith("refs/heads/") and len(upstream) > len("refs/heads/"):
            return upstream[len("refs/heads/"):], f"the upstream of the current branch {current!r}"
    configured = _config(workdir, "init.defaultBranch")
    if configured:
        return configured.strip(), "init.defaultBranch (no origin/HEAD or upstream here)"
    if current is not None:
        return current, "the current branch (no origin/HEAD, upstream or init.defaultBranch here)"
    return FALLBACK_BRANCH, "no repository, origin/HEAD or init.defaultBranch says; git's usual name"


def _config(workdir: Path, key: str) -> str | None:
    from chord_git.git import command

    try:
        return command.config_value(workdir, key)
    except RepoError:
        return None


def setup_snippet(what: str, out: Output, start: Path | None = None) -> int:
    source = installed_source()
    branch = FALLBACK_BRANCH
    if what == "github":
        branch, why = default_branch(Path.cwd() if start is None else start)
        out.note(f"the workflow runs on pushes to {branch!r}: {why}; change `branches:` if that is not the default branch")
    for line in render_snippet(what, source, branch):
        out.line(line)
    for warning in snippet_warnings(what, source):
        out.warn(warning)
    return 0
