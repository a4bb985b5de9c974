"""Make the real Claude Code and Codex CLIs write *their own* memory for a project, offline, so that
``git memory import`` can be tested against files the hosts really wrote (not hand-made lookalikes).

Claude Code ("auto memory", on by default, also in ``-p``): ``$CLAUDE_CONFIG_DIR`` (else
``~/.claude``) ``/projects/<slug>/memory/``, where ``<slug>`` is the project's git root (the main
checkout's, for a worktree; else the start directory), realpath'd, with every character outside
``[a-zA-Z0-9]`` replaced by ``-``; above 200 characters it is cut to 200 and ``-<hash>`` is added.
One topic file per fact with ``name``/``description``/``metadata.type`` front matter, and a
``MEMORY.md`` index of ``- [Title](file.md) — hook`` lines. The model writes them with the ordinary
Write tool, and writes of ``*.md`` inside that folder are allowed without asking, so no permission
flag is needed: the loopback model just asks for those Writes.

Codex (``[features] memories = true``, off by default): a background pipeline, started when a turn
starts, over *earlier* interactive sessions (source ``cli``/``vscode``; ``codex exec`` sessions are
never used) idle for ``memories.min_rollout_idle_hours`` (clamped to 1..48). Phase 1 asks the model
for a JSON ``rollout_summary``/``rollout_slug`` per session and Codex writes
``$CODEX_HOME/memories_v2/rollout_summaries/<ts>-<rand>-<slug>.md`` itself; phase 2 runs a
consolidation sub-agent that must write ``memory_summary.md`` (starting with ``v1``) with its
tools. Here: one session through ``codex app-server`` (source ``vscode``) with memories off, its row
in Codex's state database moved two hours back (no offline way to wait an hour), then a second
session with memories on, whose loopback model answers phase 1 and makes the sub-agent apply a
patch. Memories are global (one folder per CODEX_HOME); each item names its project by ``cwd:``.
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from testing import agent_hosts
from testing.fake_anthropic import FakeAnthropic, ToolCall
from testing.fake_responses import CustomToolCall, FakeResponses

RUN_TIMEOUT = 180
Items = Sequence[tuple[str, str]]  # (name, fact): one memory each


# ---------------------------------------------------------------------------- Claude Code
def claude_slug(path: str) -> str:
    """Claude Code's folder name for a path (``$E`` in the bundle): non-alphanumerics become ``-``;
    a name over 200 characters is cut and suffixed with a Java-style string hash in base 36."""
    slug = re.sub(r"[^a-zA-Z0-9]", "-", path)
    if len(slug) <= 200:
        return slug
    units = path.encode("utf-16-le")
    h = 0
    for i in range(0, len(units), 2):  # JS hashes UTF-16 code units, in 32-bit signed arithmetic
        h = (h * 31 + int.from_bytes(units[i:i + 2], "little")) & 0xFFFFFFFF
    n, digits = abs(h - (1 << 32) if h >= 1 << 31 else h), ""
    while True:
        n, r = divmod(n, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
        if n == 0:
            break
    return f"{slug[:200]}-{digits}"


def _git_root(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def claude_memory_dir(config_dir: Path, project: Path) -> Path:
    """Where Claude Code keeps auto memory for ``project`` (git worktrees are not handled here:
    the CLI maps them to the main checkout)."""
    real = project.resolve()
    return config_dir / "projects" / claude_slug(str(_git_root(real) or real)) / "memory"


def _topic(name: str, fact: str) -> str:
    """A topic file in the format the CLI's system prompt asks for (2.1.197). The CLI rewrites the
    front matter as it saves (adds ``metadata.node_type: memory`` and ``originSessionId``, quotes
    values as YAML needs), so the file on disk is the CLI's own rendering."""
    return (f"---\nname: {name}\ndescription: {fact.splitlines()[0]}\nmetadata:\n  type: project\n---\n\n"
            f"{fact}\n")


def claude_write_memory(bins: agent_hosts.HostBins, home: Path, project: Path, items: Items,
                        base_env: Mapping[str, str] = os.environ) -> Path:
    """Run ``claude -p`` in ``project`` with HOME=``home`` so that it writes one topic file per item
    and the ``MEMORY.md`` index; returns the memory folder."""
    memory = claude_memory_dir(home / ".claude", project)
    index = "".join(f"- [{name}]({name}.md) — {fact.splitlines()[0]}\n" for name, fact in items)
    writes = [ToolCall("Write", {"file_path": str(memory / f"{name}.md"), "content": _topic(name, fact)})
              for name, fact in items]
    writes.append(ToolCall("Write", {"file_path": str(memory / "MEMORY.md"), "content": index}))
    server = FakeAnthropic(reply="Saved.", turns=[writes])
    with server:
        env = agent_hosts.claude_env({**base_env, "HOME": str(home)}, server.base_url)
        done = subprocess.run([str(bins.claude), "-p", "Remember these for this project.", "--output-format", "json"],
                              cwd=project, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                              stdin=subprocess.DEVNULL)
        first = server.message_requests()[0].text() if server.message_requests() else ""
    if done.returncode != 0 or json.loads(done.stdout).get("permission_denials"):
        raise RuntimeError(f"claude failed ({done.returncode}): {done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    if f"memory at `{memory}/`" not in first.replace("\\n", "\n"):  # our path rule is the CLI's
        raise RuntimeError(f"Claude Code announced another memory folder than {memory}")
    return memory


# ---------------------------------------------------------------------------- Codex
class _AppServer:
    """``codex app-server`` over stdio (JSON-RPC, one object a line): its sessions are interactive
    (source ``vscode``), which the memory pipeline requires, and it lives until we close it, so the
    background pipeline can finish."""

    def __init__(self, codex: Path, cwd: Path, env: Mapping[str, str], *flags: str) -> None:
        self.proc = subprocess.Popen([str(codex), "app-server", *flags], cwd=cwd, env=dict(env), text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.seen: list[dict[str, Any]] = []
        self.ids = iter(range(1, 1 << 30))
        threading.Thread(target=self._read, daemon=True).start()
        self.call("initialize", {"clientInfo": {"name": "chord-git-tests", "version": "0"}})
        self._send({"method": "initialized"})

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.seen.append(json.loads(line))
            except ValueError:
                pass

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def wait(self, found: Callable[[dict[str, Any]], bool], timeout: float = RUN_TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in list(self.seen):
                if found(message):
                    return message
            time.sleep(0.05)
        raise TimeoutError(f"codex app-server: no such message; last: {self.seen[-3:]}")

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        ident = next(self.ids)
        self._send({"id": ident, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == ident)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply["result"]
        return result

    def turn(self, cwd: Path, text: str) -> str:
        """One new thread with one user turn, waited for; returns the thread id."""
        thread = str(self.call("thread/start", {"cwd": str(cwd)})["thread"]["id"])
        self.call("turn/start", {"threadId": thread, "input": [{"type": "text", "text": text}]})
        self.wait(lambda m: m.get("method") == "turn/completed")
        return thread

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _db(codex_home: Path, pattern: str) -> Path:
    [found] = sorted(codex_home.glob(pattern))  # e.g. state_5.sqlite: the number is the schema's
    return found


def _summary_file(memories: Path, project: Path, items: Items) -> str:
    """``memory_summary.md`` in the layout the consolidation prompt demands (first line ``v1``),
    pointing at the rollout summary Codex wrote in phase 1."""
    pointers = []
    for summary in sorted((memories / "rollout_summaries").glob("*.md")):
        head = dict(line.split(": ", 1) for line in summary.read_text(encoding="utf-8").split("\n\n")[0].splitlines())
        pointers.append(f"- rollout_summaries/{summary.name} — what the user asked to remember in "
                        f"{project.name}; thread_id={head.get('thread_id', '')}")
    return ("v1\n## User Profile\n- Works in the project at " + str(project) + ".\n\n## User preferences\n"
            + "".join(f"- {fact}\n" for _name, fact in items) + "\n## General Tips\n- None yet.\n\n"
            + f"## What's in Memory\n### {project}\n#### {time.strftime('%Y-%m-%d')}\n" + "\n".join(pointers) + "\n")


def codex_write_memory(bins: agent_hosts.HostBins, home: Path, project: Path, items: Items,
                       base_env: Mapping[str, str] = os.environ) -> Path:
    """Run the real Codex twice in ``project`` (CODEX_HOME=``home/.codex``) so that its memory
    pipeline writes a rollout summary of the first session and ``memory_summary.md``; returns the
    memory folder (``memories_v2``)."""
    codex_home = home / ".codex"
    memories = codex_home / "memories_v2"
    facts = "\n".join(f"- {name}: {fact}" for name, fact in items)
    summary = {"rollout_summary": f"# The user stated project conventions for {project.name}\n\n"
                                  f"Rollout context: the user asked to remember, in {project}:\n{facts}\n",
               "rollout_slug": "project-conventions"}

    def answer(body: dict[str, Any]) -> str | CustomToolCall | None:
        text_format = (body.get("text") or {}).get("format") or {}
        if text_format.get("type") == "json_schema":  # phase 1: the extraction model's JSON
            wanted = text_format.get("schema", {}).get("properties", {})
            return json.dumps({**summary, **({"raw_memory": facts} if "raw_memory" in wanted else {})})
        if (body.get("client_metadata") or {}).get("x-openai-subagent") != "memory_consolidation":
            return None
        if any(isinstance(i, dict) and i.get("type") == "custom_tool_call_output" for i in body.get("input") or []):
            return "Consolidated."
        if not any((memories / "rollout_summaries").glob("*.md")):
            return "Nothing to consolidate."
        # Phase 2's sub-agent only has code mode: one ``exec`` whose JavaScript applies a patch.
        lines = _summary_file(memories, project, items).splitlines()
        patch = (f"*** Begin Patch\n*** Add File: {memories / 'memory_summary.md'}\n"
                 + "".join(f"+{line}\n" for line in lines) + "*** End Patch\n")
        return CustomToolCall("exec", f"const r = await tools.apply_patch({json.dumps(patch)});\ntext(JSON.stringify(r));\n")

    server = FakeResponses(reply="Noted.", answer=answer)
    with server:
        env = agent_hosts.codex_env({**base_env, "HOME": str(home)}, codex_home, server.base_url, project)
        with open(codex_home / "config.toml", "a", encoding="utf-8") as config:
            config.write("\n[memories]\nmin_rollout_idle_hours = 1\n")  # the least Codex accepts
        first = _AppServer(bins.codex, project, env, "--disable", "memories")
        try:
            thread = first.turn(project, "Remember for this project:\n" + facts)
        finally:
            first.close()
        with sqlite3.connect(_db(codex_home, "state_*.sqlite")) as db:  # two hours idle, as far as Codex knows
            db.execute("UPDATE threads SET updated_at = updated_at - 7200, updated_at_ms = updated_at_ms - 7200000 "
                       "WHERE id = ?", (thread,))
        second = _AppServer(bins.codex, project, env, "--enable", "memories")
        try:
            second.turn(project, "Hello again.")
            state = _wait_consolidated(codex_home)
        finally:
            second.close()
    if state != "done" or not (memories / "memory_summary.md").is_file():
        raise RuntimeError(f"Codex memory consolidation ended as {state!r}; folder: {sorted(map(str, memories.rglob('*')))}")
    return memories


def _wait_consolidated(codex_home: Path, timeout: float = RUN_TIMEOUT) -> str:
    """The phase-2 job's final state (``done``, ``error``) once it has left ``running``: it commits
    the folder (a git repository) after the sub-agent's turn, so the files alone say too early."""
    deadline = time.monotonic() + timeout
    state = ""
    while time.monotonic() < deadline:
        found = sorted(codex_home.glob("memories_v2_*.sqlite"))
        row = None
        if found:
            with sqlite3.connect(found[0]) as db:
                try:
                    row = db.execute("SELECT status FROM jobs WHERE kind = 'memory_consolidate_global'").fetchone()
                except sqlite3.OperationalError:  # not migrated yet
                    row = None
        state = str(row[0]) if row else ""
        if state in ("done", "error"):
            return state
        time.sleep(0.2)
    return state
