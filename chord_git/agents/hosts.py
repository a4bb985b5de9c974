"""The agent hosts chord_git installs into, each declared once.

A host is its own module (``agents/<name>.py``: where its settings live, how it takes the
session-start text, how its payloads are told apart, its ``HOST``) plus one line in ``BUILTIN``
below. Everything that names the hosts derives from this value: ``agent install|uninstall``
choices and their completion and help, ``agent hook --host``, the error texts, the host guessed
from a hook payload, the host whose tool call runs ``git memory add`` (the variables each host
sets for its agent's commands), and the hosts table of ``docs/agent-hosts.md``
(``tests/test_registries.py`` compares it, and that no other module lists the names).

Apart from ``host.py`` so that the hosts can import the ``Host`` type without the registry
importing them back.
"""
from __future__ import annotations

from collections.abc import Mapping
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
    # (host name, variable, value or None for any value): what each host sets in the environment
    # of the commands its agent runs (its shell tool). ``tool_call`` reads them.
    tool_variables: tuple[tuple[str, str, str | None], ...] = ()

    def __post_init__(self) -> None:
        names = self.names()
        if len(set(names)) != len(names) or self.default not in names:
            raise ValueError(f"agent host names must be unique and include the default: {names}")
        strays = sorted({name for name, _var, _value in self.tool_variables} - set(names))
        if strays:
            raise ValueError(f"tool variables name hosts that are not registered: {strays}")

    def with_host(self, host: Host, tool_variables: tuple[tuple[str, str | None], ...] = ()) -> Hosts:
        """A new registry with ``host`` added last (this one is left as it is); ``tool_variables``
        are the (variable, value or None) its shell tool sets."""
        return Hosts((*self.hosts, host), self.default,
                     (*self.tool_variables, *((host.name, var, value) for var, value in tool_variables)))

    def tool_call(self, env: Mapping[str, str]) -> Host | None:
        """The host whose agent runs this process as a tool call, judged by ``env``; None when no
        host's variable is set (a person at a terminal, a script, CI)."""
        for name, variable, value in self.tool_variables:
            found = env.get(variable)
            if found is not None and (value is None or found == value):
                return self.get(name)
        return None

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
        rows = ["| host | agent | `project` | `local` | `user` | transcripts | status line | notice at start |",
                "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for host in self.hosts:
            files = " | ".join(f"`{host.settings(scope, Path('.'), env).as_posix()}`"
                               for scope in SCOPES)
            line = ("no" if not host.has_statusline else "yes" if all(host.statusline_in(s) for s in SCOPES)
                    else "with " + ", ".join(f"`{s}`" for s in SCOPES if host.statusline_in(s)) + " only")
            rows.append(f"| `{host.name}` | {host.title} | {files} | `{host.transcript_format}` | "
                        f"{line} | {'yes' if host.render_notice else 'no'} |")
        return "\n".join(rows) + "\n"


# What each host sets for the commands its agent runs, read from its shipped code at the pinned
# versions (testing/agent_hosts.py): Claude Code 2.1.197 spawns its Bash tool with CLAUDECODE=1;
# Codex 0.169.0 gives its exec sessions CODEX_THREAD_ID; Gemini CLI 0.61.0's and Qwen Code
# 0.24.4's shell services add GEMINI_CLI=1 and QWEN_CODE=1; Copilot CLI 1.0.102 marks its
# subprocesses COPILOT_CLI=1 (its changelog; seen in its hooks' environment too); pi 0.73.1 and
# OpenCode 1.18.33 set PI_CODING_AGENT=true and OPENCODE=1 in their own process, which every tool
# inherits. Qwen Code is listed before Gemini CLI: it descends from it.
_TOOL_VARIABLES = (
    (claude_code.HOST.name, "CLAUDECODE", "1"),
    (codex.HOST.name, "CODEX_THREAD_ID", None),
    (qwen.HOST.name, "QWEN_CODE", "1"),
    (gemini.HOST.name, "GEMINI_CLI", "1"),
    (copilot.HOST.name, "COPILOT_CLI", "1"),
    (pi.HOST.name, "PI_CODING_AGENT", "true"),
    (opencode.HOST.name, "OPENCODE", "1"),
)

BUILTIN = Hosts((claude_code.HOST, codex.HOST, gemini.HOST, qwen.HOST, copilot.HOST, pi.HOST, opencode.HOST),
                default=claude_code.HOST.name, tool_variables=_TOOL_VARIABLES)


def get(name: str) -> Host:
    """A built-in host by name (the watcher and the hook, which run outside any command)."""
    return BUILTIN.get(name)
