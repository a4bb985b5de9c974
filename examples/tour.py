"""The one-minute tour behind ``./dev demo``: inject, block, learn, review, on a scratch copy.

It copies ``examples/demo`` into a scratch folder (``$CHORD_DEMO_DIR``, else a new temporary one)
and makes it a git repository with chord-git's pre-commit hook, so the checkout is never touched.
Then it shows:

1. inject: ``git memory summary``, what the next agent session gets;
2. block: a password planted in MEMORY.md, refused by the hook at ``git commit``;
3. learn: ``examples/transcripts/sample.jsonl`` extracted into a record and an index entry by a
   scripted model that answers on 127.0.0.1 (``testing/fake_openai.py`` with
   ``examples/transcripts/sample-model.json``), so nothing leaves the machine and no key is needed;
4. review: the promotion that extraction suggested, waiting in ``git memory review list``.

Every git memory command runs with a scratch user config and state folder and without the user's
git config (a global ``core.hooksPath`` would otherwise receive the demo's hook). The scratch
folder is kept, so the user can go on with ``git memory review`` there.

Run by ``./dev demo`` with the demo's virtual environment first on PATH.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
TRANSCRIPT = HERE / "transcripts" / "sample.jsonl"
MODEL_SCRIPT = HERE / "transcripts" / "sample-model.json"
PLANTED = "Note for the next session: the staging db password is Hunter2-Blue-77"


def heading(text: str) -> None:
    print(f"\n=== {text}", flush=True)


def note(text: str) -> None:
    print(f"  ({text})", flush=True)


def show(args: list[str], cwd: Path, env: dict[str, str], shown: str | None = None) -> int:
    """Print the command as the user would type it, then its output, stdout and stderr in order."""
    print(f"$ {shown or shlex.join(args)}", flush=True)
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(done.stdout, end="", flush=True)
    return done.returncode


def quiet(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"demo: {shlex.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def scratch_env(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CHORD_"))}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(scratch / "gitconfig"),
               GIT_AUTHOR_NAME="Demo", GIT_AUTHOR_EMAIL="demo@example.invalid",
               GIT_COMMITTER_NAME="Demo", GIT_COMMITTER_EMAIL="demo@example.invalid",
               XDG_CONFIG_HOME=str(scratch / "config"), XDG_STATE_HOME=str(scratch / "state"),
               CHORD_DEMO_KEY="not-a-real-key")
    (scratch / "gitconfig").write_text("")
    return env


OLD_ENTRIES = (
    ("20261120-use-npm-5c0d", "preference", "Use npm for JS dependencies.", "JS dependencies are installed with npm.",
     "The assistant saw npm in an old script.", "Run npm install before the build."),
    ("20261121-retry-config-7e21", "fact", "Uploader retries are configured in `uploader/retry.yaml`.",
     "The uploader reads its retry limits from `uploader/retry.yaml`.",
     "The assistant found the file while fixing a test.", "Change the retry limits in that file."),
)


def left_behind(project: Path) -> None:
    """Entries an older session wrote (the assistant's, unverified): an npm rule and a removed file."""
    lines = []
    for rid, kind, summary, statement, why, how in OLD_ENTRIES:
        (project / ".chord/memory/records" / f"{rid}.md").write_text(
            f'---\nid: {rid}\ntype: {kind}\nsource: assistant\nstatus: unverified\nsummary: "{summary}"\n'
            f'statement: "{statement}"\nevidence: null\ncreated: 2026-11-20\nsession: old\nsupersedes: null\n---\n\n'
            f"## Conclusion\n\n{statement}\n\n## Why keep it\n\n{why}\n\n## How to apply\n\n{how}\n")
        lines.append(f"- [{kind}] {summary} ([{rid}](.chord/memory/records/{rid}.md))\n")
    index = project / "MEMORY.md"
    index.write_text(index.read_text().replace("<!-- chord:memory:end -->", "".join(lines) + "<!-- chord:memory:end -->"))


def start_model() -> tuple[subprocess.Popen[str], str]:
    """The scripted OpenAI-compatible server on a free loopback port, and its base URL."""
    server = subprocess.Popen([sys.executable, "-m", "testing.fake_openai", "--script", str(MODEL_SCRIPT)],
                              cwd=CHECKOUT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    first = server.stdout.readline()  # "serving http://127.0.0.1:PORT/v1 (Ctrl-C to stop)"
    if not first.startswith("serving "):
        server.kill()
        raise SystemExit("demo: the bundled model server did not start")
    return server, first.split()[1]


def main() -> int:
    scratch = Path(os.environ.get("CHORD_DEMO_DIR") or tempfile.mkdtemp(prefix="chord-demo."))
    project = scratch / "demo"
    for earlier in (project, scratch / "config", scratch / "state"):  # a rerun starts afresh
        if earlier.exists():
            shutil.rmtree(earlier)
    scratch.mkdir(parents=True, exist_ok=True)
    shutil.copytree(HERE / "demo", project)
    env = scratch_env(scratch)
    print(f"The demo works on a scratch copy of examples/demo in {project} (this checkout is not touched).")

    server, base_url = start_model()
    try:
        # Extraction on, with the bundled model as the user's model pool (a user config is trusted;
        # a project config would need `git memory trust` first).
        config = project / ".chord/config.yaml"
        config.write_text(config.read_text().replace("enabled: false", "enabled: true"))
        (scratch / "config/chord").mkdir(parents=True, exist_ok=True)
        (scratch / "config/chord/config.yaml").write_text(
            "model_pool:\n"
            f"  - model: demo-model\n    base_url: {base_url}\n    api_key_env: CHORD_DEMO_KEY\n")
        quiet(["git", "init", "-q", "-b", "main"], project, env)
        quiet(["git", "add", "-A"], project, env)
        quiet(["git", "commit", "-q", "-m", "demo project"], project, env)

        heading("1. inject: what the next agent session gets, read from MEMORY.md")
        show(["git", "memory", "summary", "--budget", "1200"], project, env)

        heading("2. block: a secret planted in memory is refused at commit")
        show(["git", "memory", "init", "--hooks"], project, env)
        with open(project / "MEMORY.md", "a") as handle:
            handle.write(f"\n{PLANTED}\n")
        print(f"$ echo '{PLANTED}' >> MEMORY.md")
        quiet(["git", "add", "MEMORY.md"], project, env)
        print("$ git add MEMORY.md")
        before = quiet(["git", "rev-parse", "HEAD"], project, env)
        code = show(["git", "commit", "-m", "remember the staging password"], project, env)
        refused = code != 0 and quiet(["git", "rev-parse", "HEAD"], project, env) == before
        note(f"exit {code}: {'the commit was refused and nothing was committed' if refused else 'NOT REFUSED'}; "
             "the message names the file, line and kind, never the value")
        quiet(["git", "reset", "-q", "--hard"], project, env)  # the scratch copy back to clean

        heading("3. learn: a finished session becomes a record and an index entry")
        note("examples/transcripts/sample.jsonl is a native transcript (docs/transcripts.md); the model is a "
             f"scripted one on {base_url}, so this runs offline")
        show(["git", "memory", "extract", "--session", str(TRANSCRIPT)], project, env,
             shown="git memory extract --session examples/transcripts/sample.jsonl")
        show(["git", "status", "--short"], project, env)
        show(["git", "memory", "status"], project, env)
        note("MEMORY is what an agent's status bar shows: memory loaded, extraction on; "
             "the new entry is the first line of the next summary")

        heading("4. review: extraction never edits AGENTS.md; it suggests, you decide")
        show(["git", "memory", "review", "list"], project, env)
        note("accept one with `git memory review accept ID` (it appends the text to AGENTS.md), "
             "or go through everything with `git memory review`")

        heading("5. audit: can this memory be believed?")
        left_behind(project)
        note("two entries an older session left behind were added to the scratch copy: an npm rule "
             "the assistant wrote, and a file that has since been removed")
        show(["git", "memory", "audit"], project, env)
        note("read-only and mechanical: `--format markdown` gives the same report for a pull request, "
             "`--json` for scripts; `git memory review` offers to forget what the audit flags")
    finally:
        server.terminate()
        server.wait()

    print(f"\nThe scratch project stays in {project}: try `git memory review` there (then delete {scratch}).")
    print("To use chord-git in your own repositories, install just its commands (not this .venv's tools):")
    print("    pipx install '.[llm]'")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
