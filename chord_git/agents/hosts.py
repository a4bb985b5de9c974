"""The agent hosts by name. Apart from ``host.py`` so that the hosts can import the ``Host`` type
without the registry importing them back."""
from __future__ import annotations

from chord_git.agents import claude_code, codex
from chord_git.agents.host import Host
from chord_git.errors import UsageError

_HOSTS = {claude_code.HOST.name: claude_code.HOST, codex.HOST.name: codex.HOST}


def get(name: str) -> Host:
    try:
        return _HOSTS[name]
    except KeyError:
        raise UsageError(f"unknown agent host {name!r} (expected {', '.join(_HOSTS)})") from None
