// Installed by `git memory agent install`: chord-git project memory for OpenCode.
// `git memory agent uninstall opencode` removes it; every install rewrites it, so do not edit it.
//
// OpenCode loads this file without asking, so it does one thing only: it hands OpenCode's session
// events, as a JSON payload, to `git-memory agent hook --host opencode` and adds what that prints
// at a session's first prompt to the system prompt. At the end of each turn the payload also
// carries the session's messages, read through OpenCode's own client: OpenCode has no session-end
// event, so chord-git keeps them and extracts them once the session is over (OpenCode exited, the
// session went quiet, or another one started). It imports nothing from
// the project and runs no other command; memory itself, and every decision about it, lives in
// chord-git. OpenCode has no status line a plugin fills: what memory a session got (and
// MEMORY-FAIL, when extraction fails) is shown once as a toast where there is a TUI.
import { spawn } from "node:child_process";

function hook(directory, fields) {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    const child = spawn("git-memory", ["agent", "hook", "--host", "opencode"], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8").on("data", (chunk) => { out += chunk; });
    child.stderr.setEncoding("utf8").on("data", (chunk) => { err += chunk; });
    child.stdin.on("error", () => {});
    // Memory never stops OpenCode: without git-memory on the PATH a session simply has none.
    child.on("error", () => resolve(""));
    child.on("close", () => {
      if (err.trim()) process.stderr.write(err);
      resolve(out.trim());
    });
    child.stdin.end(JSON.stringify({ ...fields, cwd: directory }));
  });
}

// What extraction reads of a message: its text, which tools ran, and whether it asks for a
// compaction. Tool input and output, attachments and reasoning stay with OpenCode.
function slim(message) {
  const parts = (Array.isArray(message?.parts) ? message.parts : []).flatMap((part) => {
    if (part?.type === "text") return [part];
    if (part?.type === "tool") return [{ type: "tool", tool: part.tool, state: { status: part.state?.status } }];
    if (part?.type === "compaction") return [{ type: "compaction" }];
    return [];
  });
  return { info: message?.info, parts };
}

// A session start's reply: {"context", "notice"} as asked for with `reply: "json"` (an older
// git-memory answers with the context as plain text). The notice goes to the TUI as a toast;
// `opencode run` has none, and the toast is simply not shown.
function started(client, text) {
  let reply = { context: text };
  if (text.startsWith("{")) {
    try { reply = JSON.parse(text); } catch { reply = { context: text }; }
  }
  if (typeof reply?.notice === "string" && reply.notice) {
    const variant = reply.notice.startsWith("MEMORY-FAIL") ? "warning" : "info";
    Promise.resolve()
      .then(() => client?.tui?.showToast?.({ body: { title: "chord-git", message: reply.notice, variant } }))
      .catch(() => {});
  }
  return typeof reply?.context === "string" ? reply.context : "";
}

export const ChordGitMemory = async ({ client, directory }) => {
  const memory = new Map();   // session id -> the summary it started with (a promise of it)
  const summary = (sessionID, source) => {
    if (!memory.has(sessionID)) {
      memory.set(sessionID, hook(directory, { hook_event_name: "SessionStart", session_id: sessionID, source,
                                              reply: "json" }).then((text) => started(client, text)));
    }
    return memory.get(sessionID);
  };
  return {
    "experimental.chat.system.transform": async (input, output) => {
      if (!input.sessionID) return;
      const text = await summary(input.sessionID, "startup");
      if (text) output.system.push(text);
    },
    "chat.message": async (input) => {
      if (!input.sessionID) return;
      // The session starts (idle) before its first prompt makes it busy, as on every other host.
      await summary(input.sessionID, "startup");
      await hook(directory, { hook_event_name: "UserPromptSubmit", session_id: input.sessionID });
    },
    event: async ({ event }) => {
      const sessionID = event.properties?.sessionID;
      if (!sessionID) return;
      if (event.type === "session.compacted") {
        memory.delete(sessionID);
        await summary(sessionID, "compact");
      } else if (event.type === "session.idle") {
        const found = await client.session.messages({ path: { id: sessionID } }).catch(() => undefined);
        await hook(directory, { hook_event_name: "Stop", session_id: sessionID, reason: "idle",
                                messages: Array.isArray(found?.data) ? found.data.map(slim) : undefined });
      }
    },
  };
};
