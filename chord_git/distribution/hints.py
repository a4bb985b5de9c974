"""Every command the tool prints to install chord-git or one of its extras, made in one place.

chord-git is installed from a git repository, not from a package index (the name is not
published there, and a name nobody holds can be taken), so a hint names what this copy came from:
the extra's own requirements installed into the environment running chord-git, or the git URL and
commit pip recorded. Where nothing is known (a copy of the plain hook, a snippet from an install
without a URL) the repository is ``OWNER/chord-git`` and the hint says to replace OWNER.

The renderers are pure functions of ``source.Installed``; ``every_hint`` lists all of them for one
installation, which is what ``tests/commands/test_hints_run.py`` runs. No other module spells an
install command (that test reads the package's string constants).
"""
from __future__ import annotations

import shlex

from chord_git.distribution.source import DIST, Installed, Source, installed, installed_source
from chord_git.support.dataclass_lazy import dataclass

# The extras a message may tell the user to install, and what each is for.
EXTRAS = {"llm": "the model client", "mcp": "the MCP SDK"}
PLACEHOLDER_SLUG = "OWNER/chord-git"
PLACEHOLDER_URL = f"https://github.com/{PLACEHOLDER_SLUG}"
REPLACE_OWNER = "replace OWNER with the owner of the chord-git repository you use"
REPLACE_SLUG = f"replace {PLACEHOLDER_SLUG} with the owner and name of that GitHub repository"


def _command(*words: str) -> str:
    return " ".join(shlex.quote(word) for word in words)


def extra_command(extra: str, found: Installed) -> str | None:
    """The one command that adds ``extra`` to the environment running chord-git, or None when no
    command is known to work there (no pip, not pipx's)."""
    requirements = found.extras.get(extra)
    if not requirements:
        return None
    env = found.environment
    if env.pipx_venv is not None:
        # pip would work too, but `pipx reinstall` and `pipx upgrade` keep only what pipx injected.
        return _command("pipx", "inject", env.pipx_venv, *requirements)
    if not env.has_pip:
        return None
    source = found.source
    if source.url is not None and source.commit is not None:
        # The same commit again, now with the extra recorded in its metadata.
        return _command(env.python, "-m", "pip", "install", f"{DIST}[{extra}] @ git+{source.url}@{source.commit}")
    return _command(env.python, "-m", "pip", "install", *requirements)


def extra_hint(extra: str, found: Installed | None = None) -> str:
    """``install the `llm` extra of chord-git: COMMAND``, for the message of a missing import."""
    found = installed() if found is None else found
    command = extra_command(extra, found)
    if command is not None:
        return f"install the `{extra}` extra of chord-git: {command}"
    wanted = ", ".join(found.extras.get(extra, ())) or "see chord-git's pyproject.toml"
    return f"install the `{extra}` extra of chord-git ({wanted}) into the environment of {found.environment.python}"


def missing_extra(extra: str, module: str | None, found: Installed | None = None) -> str:
    """One line for an import of ``extra`` that failed: what is missing and the command to add it."""
    return f"{EXTRAS[extra]} is not installed ({module or extra}): {extra_hint(extra, found)}"


def git_spec(source: Source) -> str | None:
    """pip's spelling of the repository and commit this copy came from, when known."""
    if source.url is None:
        return None
    return f"git+{source.url}" + (f"@{source.commit}" if source.commit else "")


def tool_command(source: Source) -> str:
    """The command that installs chord-git itself as this copy was installed; with an unknown
    origin it names ``OWNER/chord-git`` (``tool_hint`` adds the note)."""
    spec = git_spec(source)
    if spec is None and source.folder is not None:
        return _command("pipx", "install", source.folder)
    return _command("pipx", "install", spec or f"git+{PLACEHOLDER_URL}")


def noted(command: str) -> str:
    """``command`` with the replace-OWNER note when it holds the placeholder repository."""
    return f"{command} ({REPLACE_OWNER})" if PLACEHOLDER_SLUG in command else command


def tool_hint(source: Source | None = None) -> str:
    """The install command for chord-git, noted when it holds the placeholder."""
    return noted(tool_command(installed_source() if source is None else source))


def ls_remote_command(url: str | None) -> str:
    """What prints the newest commit of the repository (for pinning a snippet by hand)."""
    return _command("git", "ls-remote", url or PLACEHOLDER_URL, "HEAD")


@dataclass(frozen=True)
class Hint:
    text: str  # as printed
    command: str | None  # the command in it; None when none is known to work there


def every_hint(found: Installed) -> dict[str, Hint]:
    """Every install hint the tool can print for ``found``, by what it installs or looks up."""
    hints = {f"extra {name}": Hint(extra_hint(name, found), extra_command(name, found)) for name in EXTRAS}
    hints["chord-git"] = Hint(tool_hint(found.source), tool_command(found.source))
    remote = ls_remote_command(found.source.url)
    hints["ls-remote"] = Hint(noted(remote), remote)
    return hints
