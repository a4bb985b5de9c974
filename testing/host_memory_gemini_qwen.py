"""Make the real Gemini CLI and Qwen Code write their *own* memory for a project, offline.

``git memory import`` reads what each agent keeps in its own store; its tests need that store as
the pinned CLI really writes it (path rule, file layout, front matter), not a hand-made copy. So
each function below runs the real CLI once against a loopback model whose scripted reply is the
tool call that CLI's own memory feature makes, and returns where the CLI put the memory.

Gemini CLI 0.61.0 has no ``save_memory`` tool any more: its system prompt tells the model to edit
Markdown memory files with ``write_file``/``replace``, and names the private per-project index,
``$GEMINI_CLI_HOME/.gemini/tmp/<slug>/memory/MEMORY.md`` (``<slug>`` is the project folder's name,
lower-cased, registered in ``~/.gemini/projects.json``). The fake model reads that path from the
system prompt, so the CLI alone decides it. The format is free Markdown.

Qwen Code 0.24.4, after each ``-p`` turn, runs a "managed memory extraction subagent" (a second
model request with its own system prompt) that may ``write_file`` one topic file per memory, with
``name``/``description``/``type`` front matter, under ``~/.qwen/projects/<sanitized git root>/memory/
<type>/``; the CLI then rebuilds that folder's ``MEMORY.md`` index itself. The fake model answers
that request (recognised by its system prompt) with those writes. ``-p`` waits for the subagent.

See /tmp/import-research/gemini-qwen.md for the bundle excerpts behind every rule used here.
"""
from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from testing import agent_hosts
from testing.fake_gemini import FakeGemini, function_call
from testing.fake_openai import Computed, FakeOpenAI, Reply, tool_call
from testing.gitutil import cli_env
from testing.loopback import Seen

TIMEOUT = 240
# A fixed Gemini model: the default "auto" first asks a router model, a request we need not script.
GEMINI_MODEL = "gemini-2.5-flash"
QWEN_MODEL = "loopback-model"  # the model name qwen_env configures
# Only Qwen's extraction subagent sends this (the first line of its system prompt).
QWEN_EXTRACTION_MARKER = "You are now acting as the managed memory extraction subagent"

GeminiTier = Literal["private", "global", "project"]


class HostMemoryError(RuntimeError):
    """The CLI ran but did not write its memory; the message says what it did instead."""


# ---------------------------------------------------------------------------------------- Gemini
def _gemini_system_prompt(seen: Seen) -> str:
    body = seen.body if isinstance(seen.body, dict) else {}
    parts = (body.get("systemInstruction") or {}).get("parts") or []
    return "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


def gemini_private_memory_path(seen: Seen) -> Path:
    """The private project memory index the CLI named in its system prompt
    ("- **Private Project Memory** (`<path>`): ...")."""
    found = re.search(r"\*\*Private Project Memory\*\* \(`([^`]+)`\)", _gemini_system_prompt(seen))
    if found is None:
        raise HostMemoryError("Gemini's system prompt names no Private Project Memory file")
    return Path(found.group(1))


def _bulleted(existing: str, facts: Sequence[str]) -> str:
    """What a model writes with ``write_file``: the file as it was, plus one bullet per new fact
    (the CLI puts the current MEMORY.md into the model's context, so the model can keep it)."""
    kept = existing.rstrip("\n")
    lines = [f"- {fact}" for fact in facts]
    return (kept + "\n" if kept else "# Memory\n\n") + "\n".join(lines) + "\n"


def gemini_write_memory(home: Path, project: Path, facts: Sequence[str], *, tier: GeminiTier = "private",
                        binary: Path | None = None) -> Path:
    """Run ``gemini -p`` in ``project`` (with ``home`` as GEMINI_CLI_HOME) so that the CLI itself writes
    ``facts`` into one of its memory tiers, and return that file:

    - ``private``: ``<home>/.gemini/tmp/<slug>/memory/MEMORY.md``, the path from the CLI's prompt;
    - ``global``: ``<home>/.gemini/GEMINI.md`` (the one file under ~/.gemini the CLI lets tools write);
    - ``project``: ``<project>/GEMINI.md`` (committed, team-shared).
    """
    binary = binary or agent_hosts.ensure_package(agent_hosts.GEMINI)
    chosen: list[Path] = []

    def write(seen: Seen) -> list[dict[str, Any]]:
        target = {"private": gemini_private_memory_path(seen) if tier == "private" else None,
                  "global": home / ".gemini" / "GEMINI.md", "project": project / "GEMINI.md"}[tier]
        assert target is not None
        chosen.append(target)
        existing = target.read_text(encoding="utf-8") if target.is_file() else ""
        return [function_call("write_file", {"file_path": str(target), "content": _bulleted(existing, facts)})]

    server = FakeGemini(reply="Saved to memory.", turns=[write])
    with server:
        env = agent_hosts.gemini_env(cli_env(), home, server.base_url)
        # yolo: headless -p cannot ask, and auto_edit's "allowed-path" safety check denies writes
        # outside the workspace, i.e. the private and global tiers. The fake asks for one write only.
        done = subprocess.run([str(binary), "-p", "Remember: " + " ".join(facts), "-m", GEMINI_MODEL,
                               "--approval-mode", "yolo", "--output-format", "json"],
                              cwd=project, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
        results = server.function_responses()
    if done.returncode != 0 or not chosen or not chosen[0].is_file():
        raise HostMemoryError(f"gemini rc={done.returncode}, tool results {results}: {done.stderr[-2000:]}")
    return chosen[0]


# ------------------------------------------------------------------------------------------ Qwen
QwenType = Literal["user", "feedback", "project", "reference"]


@dataclass(frozen=True)
class QwenMemory:
    """One managed memory: a topic file ``<type>/<slug of name>.md`` with Qwen's front matter.
    ``user`` memories go to the cross-project ``~/.qwen/memories``; the others to the project's."""

    name: str
    description: str
    body: str
    type: QwenType = "project"

    def filename(self) -> str:
        return f"{self.type}/{re.sub(r'[^a-z0-9]+', '-', self.name.lower()).strip('-') or 'memory'}.md"

    def text(self) -> str:
        # The format the subagent is told to use (MEMORY_FRONTMATTER_EXAMPLE in the bundle).
        return (f"---\nname: {self.name}\ndescription: {self.description}\ntype: {self.type}\n---\n\n"
                f"{self.body.rstrip()}\n")


def _qwen_roots(body: dict[str, Any]) -> tuple[Path, Path]:
    """(project, user) memory roots, as the CLI's task prompt to its subagent names them."""
    text = json.dumps(body, ensure_ascii=False)
    project = re.search(r"PROJECT memory \(this project only\): `([^`]+)`", text)
    user = re.search(r"USER memory \(cross-project[^)]*\): `([^`]+)`", text)
    if project is None or user is None:
        raise HostMemoryError("Qwen's extraction prompt names no memory directories")
    return Path(project.group(1)), Path(user.group(1))


def qwen_write_memory(home: Path, project: Path, items: Sequence[QwenMemory], *, binary: Path | None = None) -> Path:
    """Run ``qwen -p`` in ``project`` (with ``home`` as HOME) with managed auto-memory on, so that its
    extraction subagent writes ``items``, and return the project's managed memory folder
    (``<home>/.qwen/projects/<sanitized git root>/memory``, holding ``MEMORY.md`` and topic files)."""
    binary = binary or agent_hosts.ensure_package(agent_hosts.QWEN)
    roots: list[Path] = []

    def extract(body: dict[str, Any]) -> Reply:
        project_root, user_root = _qwen_roots(body)
        roots.append(project_root)
        # All writes in one turn, as the task prompt asks; the CLI rebuilds MEMORY.md afterwards.
        return Reply(None, tool_calls=[
            tool_call("write_file", {"file_path": str((user_root if m.type == "user" else project_root) / m.filename()),
                                     "content": m.text()}) for m in items])

    with FakeOpenAI() as server:
        server.script_matching(QWEN_EXTRACTION_MARKER, Computed(extract), Reply("No more memories to save."))
        server.script(QWEN_MODEL, Reply("Noted."))
        env = agent_hosts.qwen_env(cli_env(), home, server.base_url.removesuffix("/v1"))
        settings_file = home / ".qwen" / "settings.json"
        settings = json.loads(settings_file.read_text(encoding="utf-8"))
        settings["memory"]["enableManagedAutoMemory"] = True  # qwen_env turns it off for the hook tests
        settings_file.write_text(json.dumps(settings), encoding="utf-8")
        # auto-edit: in headless -p with the default mode, write_file is denied outright, and the
        # subagent inherits that denial ("denied by permission rules") even inside its memory folder.
        done = subprocess.run([str(binary), "-p", "Remember: " + " ".join(m.body for m in items),
                               "--approval-mode", "auto-edit", "--output-format", "json"],
                              cwd=project, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
        tool_results = [m for r in server.requests if isinstance(r.body, dict)
                        for m in r.body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool"]
    if done.returncode != 0 or not roots or not (roots[0] / "MEMORY.md").is_file():
        raise HostMemoryError(f"qwen rc={done.returncode}, tool results {tool_results}: {done.stderr[-2000:]}")
    return roots[0]
