"""The shipped pi extension and OpenCode plugin, run in Node the way their hosts call them, with the
real ``git-memory`` behind them: what they send at each event, what they add to the system prompt,
and that memory is read again after a compaction. The hosts themselves are stood in for by the
event calls they make (their own tests with the real CLIs are in ``test_real_hosts.py``); the
files are loaded with the TypeScript loader pi itself uses (jiti, from the pinned pi install)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chord_git.agents.hosts import BUILTIN
from chord_git.agents.install import shim_text
from chord_git.memory.index_file import END
from testing import agent_hosts
from testing.gitutil import cli_env
from testing.hook_recorder import HookRecorder
from tests.conftest import needed, shell_tool
from tests.agents.conftest import CANARY_ID, CANARY_SUMMARY, canary_record, git_memory

pytestmark = pytest.mark.timeout(300)

FRESH = "Releases are cut from the release branch only."
FRESH_ID = "20261201-release-branch-aa11"
DRIVER = r"""
import { createJiti } from "JITI";
const [shim, host, repo, stepsJson, sessionFile] = process.argv.slice(2);
const steps = JSON.parse(stepsJson);
const mod = await createJiti(import.meta.url).import(shim);
const results = [];
if (host === "pi") {
  const handlers = {};
  (mod.default ?? mod)({ on: (name, handler) => { handlers[name] = handler; } });
  const ctx = { cwd: repo, hasUI: false,
                sessionManager: { getSessionId: () => "0199-pi-session", getSessionFile: () => sessionFile || undefined } };
  for (const [name, event] of steps) {
    if (name === "write") { (await import("node:fs")).writeFileSync(event.path, event.text); results.push(null); continue; }
    results.push((await handlers[name](event, ctx)) ?? null);
  }
} else {
  const factory = Object.values(mod).find((value) => typeof value === "function");
  const client = { session: { messages: async ({ path }) => ({ data: [
    { info: { id: "m1", sessionID: path.id, role: "user" }, parts: [{ type: "text", text: "hi" },
      { type: "file", mime: "image/png", url: "data:image/png;base64,SECRETPIXELS" }] },
    { info: { id: "m2", sessionID: path.id, role: "assistant" }, parts: [{ type: "reasoning", text: "hmm" },
      { type: "tool", tool: "bash", callID: "c1", state: { status: "completed", input: { command: "cat .env" }, output: "TOKEN=x" } },
      { type: "text", text: "Done." }] }] }) } };
  const hooks = await factory({ client, directory: repo });
  const transform = async (sessionID) => { const output = { system: [] };
    await hooks["experimental.chat.system.transform"]({ sessionID, model: {} }, output); return output.system; };
  for (const [name, arg] of steps) {
    if (name === "write") { (await import("node:fs")).writeFileSync(arg.path, arg.text); results.push(null); }
    else if (name === "transform") results.push(await transform(arg));
    else if (name === "transform-twice") results.push(await Promise.all([transform(arg), transform(arg)]));
    else if (name === "chat.message") results.push((await hooks["chat.message"]({ sessionID: arg }, { parts: [] })) ?? null);
    else results.push((await hooks.event({ event: { type: name, properties: { sessionID: arg } } })) ?? null);
  }
}
console.log(JSON.stringify(results));
"""
@pytest.fixture(scope="module")
def jiti() -> Path:
    shell_tool("node")
    try:
        found = agent_hosts.ensure_plugin_hosts()
    except agent_hosts.Unavailable as exc:
        needed(f"the pinned pi (its TypeScript loader) is not installed: {exc}")
    return found.pi.resolve().parents[3] / "jiti" / "lib" / "jiti.mjs"


class Shim:
    def __init__(self, host: str, repo: Path, tmp: Path, jiti: Path, *, hook_on_path: bool = True) -> None:
        self.host, self.repo = host, repo
        self.file = tmp / ("chord-git.ts" if host == "pi" else "chord-git.js")
        self.file.write_text(shim_text(BUILTIN.get(host)), encoding="utf-8")
        self.driver = tmp / "driver.mjs"
        self.driver.write_text(DRIVER.replace("JITI", jiti.as_uri()), encoding="utf-8")
        bin_dir = tmp / "bin"
        self.recorder = HookRecorder(bin_dir, git_memory()) if hook_on_path else None
        bin_dir.mkdir(exist_ok=True)
        env = cli_env()
        env["PATH"] = os.pathsep.join([str(bin_dir), str(Path(shutil.which("node") or "node").parent), "/usr/bin", "/bin"])
        self.env = env

    def run(self, *steps: tuple[str, Any], session_file: str = "/sessions/pi-session.jsonl") -> list[Any]:
        done = subprocess.run(["node", str(self.driver), str(self.file), self.host, str(self.repo), json.dumps(steps),
                               session_file],
                              capture_output=True, text=True, env=self.env, timeout=240)
        assert done.returncode == 0, done.stderr
        assert "chord-git:" not in done.stderr, done.stderr
        results: list[Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return results

    def calls(self) -> list[dict[str, Any]]:
        return self.recorder.calls() if self.recorder is not None else []


def add_entry(repo: Path) -> tuple[str, dict[str, str]]:
    """A step that adds an entry to MEMORY.md's index while the session runs, as a background
    extraction would."""
    record = canary_record().replace(CANARY_ID, FRESH_ID).replace(CANARY_SUMMARY, FRESH)
    (repo / ".chord" / "memory" / "records" / f"{FRESH_ID}.md").write_text(record, encoding="utf-8")
    line = f"- [fact] {FRESH} ([{FRESH_ID}](.chord/memory/records/{FRESH_ID}.md))\n"
    text = (repo / "MEMORY.md").read_text(encoding="utf-8")
    return ("write", {"path": str(repo / "MEMORY.md"), "text": text.replace(END, line + END)})


def test_pi_extension_sends_each_event_and_reloads_memory_after_compaction(memory_repo: Path, tmp_path: Path,
                                                                          jiti: Path) -> None:
    shim = Shim("pi", memory_repo, tmp_path, jiti)
    base = {"systemPrompt": "BASE PROMPT"}
    results = shim.run(
        ("session_start", {"reason": "startup"}), ("before_agent_start", base), ("agent_end", {}),
        add_entry(memory_repo), ("before_agent_start", base), ("agent_end", {}),
        ("session_compact", {}), ("before_agent_start", base), ("session_shutdown", {"reason": "quit"}))
    first, mid, after = results[1], results[4], results[7]
    assert results[0] is None and results[6] is None
    assert first["systemPrompt"].startswith("BASE PROMPT\n\n") and CANARY_SUMMARY in first["systemPrompt"]
    assert mid == first                                # R10: nothing changes in the middle of a session
    assert FRESH in after["systemPrompt"] and CANARY_SUMMARY in after["systemPrompt"]  # after compaction
    calls = shim.calls()
    assert [c["argv"] for c in calls] == [["agent", "hook", "--host", "pi"]] * 8
    assert [(c["payload"]["hook_event_name"], c["payload"].get("source"), c["payload"].get("reason")) for c in calls] == [
        ("SessionStart", "startup", None), ("UserPromptSubmit", None, None), ("Stop", None, None),
        ("UserPromptSubmit", None, None), ("Stop", None, None), ("SessionStart", "compact", None),
        ("UserPromptSubmit", None, None), ("SessionEnd", None, "quit")]
    for call in calls:
        assert call["payload"]["session_id"] == "0199-pi-session" and call["payload"]["cwd"] == str(memory_repo)
        assert call["payload"]["transcript_path"].endswith("pi-session.jsonl")


def test_opencode_plugin_starts_once_per_session_and_reports_each_turn(memory_repo: Path, tmp_path: Path,
                                                                    jiti: Path) -> None:
    shim = Shim("opencode", memory_repo, tmp_path, jiti)
    both, _, later, _, _, mid, _, refreshed = shim.run(
        ("transform-twice", "ses_A"), ("chat.message", "ses_A"), ("transform", "ses_A"),
        ("session.idle", "ses_A"), add_entry(memory_repo), ("transform", "ses_A"),
        ("session.compacted", "ses_A"), ("transform", "ses_A"))
    assert both[0] == both[1] and len(both[0]) == 1 and CANARY_SUMMARY in both[0][0]
    assert later == both[0] and mid == both[0]        # one start per session; nothing changes mid-session
    assert len(refreshed) == 1 and FRESH in refreshed[0] and CANARY_SUMMARY in refreshed[0]  # after compaction
    events = [(c["payload"]["hook_event_name"], c["payload"].get("source"), c["payload"].get("reason"))
              for c in shim.calls()]
    assert events == [("SessionStart", "startup", None), ("UserPromptSubmit", None, None),
                      ("Stop", None, "idle"), ("SessionStart", "compact", None)]
    end = shim.calls()[2]["payload"]
    assert end["session_id"] == "ses_A" and end["cwd"] == str(memory_repo)
    assert end["messages"] == [   # what extraction reads; tool traffic, attachments and reasoning stay behind
        {"info": {"id": "m1", "sessionID": "ses_A", "role": "user"}, "parts": [{"type": "text", "text": "hi"}]},
        {"info": {"id": "m2", "sessionID": "ses_A", "role": "assistant"},
         "parts": [{"type": "tool", "tool": "bash", "state": {"status": "completed"}}, {"type": "text", "text": "Done."}]}]


def test_without_git_memory_the_hosts_go_on_without_memory(memory_repo: Path, tmp_path: Path, jiti: Path) -> None:
    for host, steps in (("pi", [("session_start", {"reason": "startup"}), ("before_agent_start", {"systemPrompt": "B"})]),
                        ("opencode", [("chat.message", "ses_B"), ("transform", "ses_B"), ("session.idle", "ses_B")])):
        folder = tmp_path / host
        folder.mkdir()
        results = Shim(host, memory_repo, folder, jiti, hook_on_path=False).run(*steps)
        assert results in ([None, None], [None, [], None])


def test_a_pi_session_without_a_file_ends_without_a_hand_off(memory_repo: Path, tmp_path: Path, jiti: Path) -> None:
    """`pi --no-session`: memory is injected, and the end is only the end of a turn (nothing to extract)."""
    shim = Shim("pi", memory_repo, tmp_path, jiti)
    results = shim.run(("session_start", {"reason": "startup"}), ("before_agent_start", {"systemPrompt": "B"}),
                       ("session_shutdown", {"reason": "quit"}), session_file="")
    assert CANARY_SUMMARY in results[1]["systemPrompt"]
    calls = [c["payload"] for c in shim.calls()]
    assert [c["hook_event_name"] for c in calls] == ["SessionStart", "UserPromptSubmit", "Stop"]
    assert all("transcript_path" not in c for c in calls)
