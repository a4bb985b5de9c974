"""The pi extension and the OpenCode plugin as shipped, run in Node where their host has a UI, with
the real ``git-memory`` behind them: pi shows the badge in its footer (``ui.setStatus``) and what
memory the session got as a notification; OpenCode, which has no status line, shows that line as a
toast, led by MEMORY-FAIL when extraction fails. Neither line reaches the system prompt."""
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
from testing.gitutil import cli_env
from tests.agents.conftest import CANARY_SUMMARY, configure, git_memory
from tests.agents.test_badges_and_notices import FAILED, LOADED, fail_in_background
from tests.agents.test_shims_in_node import jiti  # noqa: F401 - the fixture: pi's TypeScript loader

pytestmark = pytest.mark.timeout(300)

DRIVER = r"""
import { createJiti } from "JITI";
const [shim, host, repo] = process.argv.slice(2);
const mod = await createJiti(import.meta.url).import(shim);
const shown = [];
if (host === "pi") {
  const handlers = {};
  (mod.default ?? mod)({ on: (name, handler) => { handlers[name] = handler; } });
  const ctx = { cwd: repo, hasUI: true,
                ui: { notify: (text, kind) => shown.push(["notify", text, kind]),
                      setStatus: (key, text) => shown.push(["status", key, text ?? null]) },
                sessionManager: { getSessionId: () => "0199-pi-session", getSessionFile: () => "/s/pi.jsonl" } };
  await handlers.session_start({ reason: "startup" }, ctx);
  shown.push(["prompt", (await handlers.before_agent_start({ systemPrompt: "BASE" }, ctx)).systemPrompt]);
  await handlers.agent_end({}, ctx);
} else {
  const factory = Object.values(mod).find((value) => typeof value === "function");
  const client = { tui: { showToast: async ({ body }) => { shown.push(["toast", body.message, body.variant]); } },
                   session: { messages: async () => ({ data: [] }) } };
  const hooks = await factory({ client, directory: repo });
  const output = { system: [] };
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, output);
  await new Promise((resolve) => setTimeout(resolve, 0));
  shown.push(["prompt", output.system.join("\n")]);
}
console.log(JSON.stringify(shown));
"""


def drive(host: str, repo: Path, tmp: Path, jiti_path: Path) -> list[list[Any]]:
    shim = tmp / ("chord-git.ts" if host == "pi" else "chord-git.js")
    shim.write_text(shim_text(BUILTIN.get(host)), encoding="utf-8")
    driver = tmp / "driver.mjs"
    driver.write_text(DRIVER.replace("JITI", jiti_path.as_uri()), encoding="utf-8")
    env = cli_env()
    node = Path(shutil.which("node") or "node").parent
    env["PATH"] = os.pathsep.join([str(Path(git_memory()).parent), str(node), "/usr/bin", "/bin"])
    done = subprocess.run(["node", str(driver), str(shim), host, str(repo)], capture_output=True, text=True,
                          env=env, timeout=240)
    assert done.returncode == 0 and "chord-git:" not in done.stderr, done.stderr
    shown: list[list[Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return shown


def test_pi_shows_the_badge_in_its_footer_and_the_notice_once(memory_repo: Path, tmp_path: Path,
                                                              jiti: Path) -> None:  # noqa: F811
    configure(None)
    shown = drive("pi", memory_repo, tmp_path, jiti)
    prompt = next(item[1] for item in shown if item[0] == "prompt")
    assert CANARY_SUMMARY in prompt and "git memory why" not in prompt
    assert [item for item in shown if item[0] != "prompt"] == [
        ["notify", LOADED, "info"], ["status", "chord-git", "MEMORY"],  # the session's start
        ["status", "chord-git", "MEMORY"]]                              # after the turn
    fail_in_background(memory_repo)
    shown = drive("pi", memory_repo, tmp_path, jiti)
    assert ["status", "chord-git", FAILED] in shown and ["notify", LOADED, "info"] in shown


def test_opencode_shows_the_notice_as_a_toast_led_by_memory_fail(memory_repo: Path, tmp_path: Path,
                                                                jiti: Path) -> None:  # noqa: F811
    configure(None)
    shown = drive("opencode", memory_repo, tmp_path, jiti)
    assert shown[0] == ["toast", LOADED, "info"]
    assert shown[-1][0] == "prompt" and CANARY_SUMMARY in shown[-1][1] and "git memory why" not in shown[-1][1]
    fail_in_background(memory_repo)
    shown = drive("opencode", memory_repo, tmp_path, jiti)
    assert shown[0] == ["toast", f"{FAILED} · {LOADED}", "warning"]
    assert "MEMORY-FAIL" not in shown[-1][1]
