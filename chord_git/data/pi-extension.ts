// Installed by `git memory agent install`: chord-git project memory for pi.
// `git memory agent uninstall pi` removes it; every install rewrites it, so do not edit it.
//
// pi loads this file without asking, so it does one thing only: it hands pi's session events,
// as a small JSON payload, to `git-memory agent hook --host pi` and adds what that prints at a
// session start to the system prompt. Where pi has a UI it also shows the person what memory the
// session got (a notification) and the MEMORY / MEMORY-FAIL badge of `git-memory agent statusline`
// in its footer. It imports nothing from the project and runs no other command; memory itself,
// and every decision about it, lives in chord-git.
import { spawn } from "node:child_process";

type Payload = Record<string, string | undefined>;

interface Context {
  cwd: string;
  hasUI?: boolean;
  ui?: { notify(text: string, kind: string): void; setStatus?(key: string, text: string | undefined): void };
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined };
}

interface Pi {
  on(event: string, handler: (event: any, ctx: Context) => unknown): void;
}

function hook(ctx: Context, fields: Payload): Promise<string> {
  const payload = {
    ...fields,
    session_id: ctx.sessionManager.getSessionId(),
    transcript_path: ctx.sessionManager.getSessionFile(),
    cwd: ctx.cwd,
  };
  return run(ctx, ["agent", "hook", "--host", "pi"], payload);
}

function run(ctx: Context, args: string[], payload: object): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    const child = spawn("git-memory", args, { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => { out += chunk; });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => { err += chunk; });
    child.stdin.on("error", () => {});
    // Memory never stops pi: without git-memory on the PATH the session simply has none.
    child.on("error", () => resolve(""));
    child.on("close", () => {
      if (err.trim()) {
        if (ctx.hasUI && ctx.ui) ctx.ui.notify(err.trim(), "warning");
        else process.stderr.write(err);
      }
      resolve(out.trim());
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

// A session start's reply: {"context", "notice"} as asked for with `reply: "json"` (an older
// git-memory answers with the context as plain text).
function started(ctx: Context, text: string): string {
  let reply: { context?: unknown; notice?: unknown } = { context: text };
  if (text.startsWith("{")) {
    try { reply = JSON.parse(text); } catch { reply = { context: text }; }
  }
  if (typeof reply.notice === "string" && reply.notice && ctx.hasUI && ctx.ui) ctx.ui.notify(reply.notice, "info");
  return typeof reply.context === "string" ? reply.context : "";
}

// The badge in pi's footer, as a status line shows it; nothing where pi has no UI (`pi -p`).
async function badge(ctx: Context): Promise<void> {
  if (!ctx.hasUI || !ctx.ui?.setStatus) return;
  const line = await run(ctx, ["agent", "statusline"], { cwd: ctx.cwd });
  ctx.ui.setStatus("chord-git", line || undefined);
}

export default function (pi: Pi) {
  let memory = "";
  pi.on("session_start", async (event, ctx) => {
    memory = started(ctx, await hook(ctx, { hook_event_name: "SessionStart", source: event?.reason, reply: "json" }));
    await badge(ctx);
  });
  pi.on("session_compact", async (_event, ctx) => {
    memory = started(ctx, await hook(ctx, { hook_event_name: "SessionStart", source: "compact", reply: "json" }));
  });
  pi.on("before_agent_start", async (event, ctx) => {
    await hook(ctx, { hook_event_name: "UserPromptSubmit" });
    return memory ? { systemPrompt: `${event.systemPrompt}\n\n${memory}` } : undefined;
  });
  pi.on("agent_end", async (_event, ctx) => {
    await hook(ctx, { hook_event_name: "Stop" });
    await badge(ctx);
  });
  pi.on("session_shutdown", async (event, ctx) => {
    // A session kept in memory only (`pi --no-session`) leaves no file to extract from.
    const end = ctx.sessionManager.getSessionFile() ? "SessionEnd" : "Stop";
    await hook(ctx, { hook_event_name: end, reason: event?.reason });
  });
}
