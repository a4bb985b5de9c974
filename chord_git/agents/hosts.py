"""The agent hosts chord_git installs into, each declared once.

A host is its own module (``agents/<name>.py``: where its settings live, how it takes the
session-start text, how its payloads are told apart, its ``HOST``) plus one line in ``BUILTIN``
below. Everything that names the hosts derives from this value: ``agent install|uninstall``
choices and their completion and help, ``agent hook --host``, the error texts, the host guessed
from a hook payload, and the hosts table of ``docs/agent-hosts.md`` (``tests/test_registries.py``
compares it, and that no other module lists the names).

Apart from ``host.py`` so that the hosts can import the ``Host`` type without the registry
importing them back.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents import SCOPES, claude_code, codex, copilot, gemini, opencode, pi, qwen
from chord_git.agents.host import Host
from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import UsageError
from chord_git.ui import either

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent


@dataclass(frozen=True)
class Hosts:
    """An immutable set of hosts in the order they are listed; ``default`` names the host a hook
    payload belongs to when no host recognises it."""

    hosts: tuple[Host, ...]
    default: str

    def __post_init__(self) -> None:
        names = self.names()
        if len(set(names)) != len(names) or self.default not in names:
            raise ValueError(f"agent host names must be unique and include the default: {names}")

    def with_host(self, host: Host) -> Hosts:
        """A new registry with ``host`` added last (this one is left as it is)."""
        return Hosts((*self.hosts, host), self.default)

    def names(self) -> tuple[str, ...]:
        return tuple(host.name for host in self.hosts)

    def titles(self) -> str:
        """``Claude Code, Codex``: as the command help lists them."""
        return ", ".join(host.title for host in self.hosts)

    def spoken(self) -> str:
        """``claude-code or codex``."""
        return either(self.names())

    def get(self, name: str) -> Host:
        for host in self.hosts:
            if host.name == name:
                return host
        raise UsageError(f"unknown agent host {name!r} (expected {', '.join(self.names())})")

    def for_event(self, event: HookEvent) -> Host:
        """The host a payload came from, when ``--host`` was not given."""
        for host in self.hosts:
            if host.recognises is not None and host.recognises(event):
                return host
        return self.get(self.default)

    def doc_table(self) -> str:
        """The Markdown table of ``docs/agent-hosts.md``: the settings files come from the hosts'
        own functions, for a repository at ``.`` and a home at ``~``."""
        env = {"HOME": "~"}
        rows = ["| host | agent | `project` | `local` | `user` | transcripts | status line |",
                "| --- | --- | --- | --- | --- | --- | --- |"]
        for host in self.hosts:
            files = " | ".join(f"`{host.settings(scope, Path('.'), env).as_posix()}`"
                               for scope in SCOPES)
            rows.append(f"| `{host.name}` | {host.title} | {files} | `{host.transcript_format}` | "
                        f"{'yes' if host.has_statusline else 'no'} |")
        return "\n".join(rows) + "\n"


BUILTIN = Hosts((claude_code.HOST, codex.HOST, gemini.HOST, qwen.HOST, copilot.HOST, pi.HOST, opencode.HOST),
                default=claude_code.HOST.name)


def get(name: str) -> Host:
    """A built-in host by name (the watcher and the hook, which run outside any command)."""
    return BUILTIN.get(name)
