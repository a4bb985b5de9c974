"""``./dev extract FILE``: one extraction of your own transcript, offline, with a canned demo model.

Nothing here is a language model. The demo model is a loopback OpenAI-compatible server (the base of
the fakes in ``testing/``) that reads the conversation chord-git sends it and offers, as candidate
records, the sentences of the user's messages that read like a standing rule ("always", "never",
"we use", ...), each quoting those words verbatim. chord-git then does what it does with any
model's reply: the judge (the user's own words, refusal classes, secrets, caps, duplicates) decides
what is written. So the run shows, on your transcript, what leaves the machine (the model's input,
redacted), what the judge keeps or drops and why, and the files a kept record becomes; what a real
model would choose to remember differs.

The run happens in a new scratch git repository, ``extract/project`` in ``$CHORD_DEMO_DIR`` (beside
what ``./dev demo`` leaves there) or else in a new temporary folder, kept and printed, with a
scratch user config and state folder next to it: your repositories, your config and
your git config are never read or written. The transcript file is only read.

Run by ``./dev extract FILE [--format FORMAT]`` with the demo's virtual environment first on PATH.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
sys.path.insert(0, str(CHECKOUT))

from testing.fake_openai import Reply, completion_body  # noqa: E402
from testing.loopback import Exchange, LoopbackServer  # noqa: E402

MODEL = "canned-demo-model"
MAX_CANDIDATES = 5
SHOWN_INPUT_LINES = 40
SUMMARY_CAP = 160  # chord_git.memory.records.SUMMARY_CAP: a longer summary is cut, as a model would
# Words that make a sentence read like a standing rule; the demo model looks for nothing else.
RULE_WORDS = re.compile(
    r"\b(always|never|don't|do not|must|should|only|prefer|we use|use|remember|keep|avoid)\b"
    r"|总是|永远|不要|别|必须|只用|一律|记住|尽量",
    re.IGNORECASE)
USER_MESSAGE = re.compile(r'<message n="\d+" role="user"(?: cut="start")?>\n(.*?)\n</message>', re.S)
# A sentence ends at . ! ? before a space (not inside "CHANGELOG.md" or "2024.06"), at CJK
# punctuation, or at a line break.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")


# ---------------------------------------------------------------------------- the demo model (pure)
def rule_sentences(conversation: str) -> list[str]:
    """The user's sentences that read like a standing rule, in order, each at most once."""
    found: list[str] = []
    for message in USER_MESSAGE.findall(conversation):
        for sentence in SENTENCE_END.split(message):
            sentence = sentence.strip()
            words = len(sentence.split()) + len(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", sentence)) // 2
            if words >= 4 and RULE_WORDS.search(sentence) and "[REDACTED" not in sentence and sentence not in found:
                found.append(sentence)
    return found


def _summary(sentence: str) -> str:
    if len(sentence) <= SUMMARY_CAP:
        return sentence
    return sentence[:SUMMARY_CAP - 1].rsplit(" ", 1)[0] + "…"


def canned_reply(request_body: Any) -> dict[str, Any]:
    """The demo model's answer to one extraction request: a candidate per rule-like user sentence."""
    messages = request_body.get("messages") if isinstance(request_body, dict) else None
    text = messages[-1].get("content", "") if isinstance(messages, list) and messages else ""
    records = [{
        "type": "preference",
        "summary": _summary(sentence),
        "statement": sentence,
        "why": "The user stated this in a session; later sessions of this project would otherwise ask again.",
        "how_to_apply": "Follow it in every later session that works on what it names.",
        "source": "user",
        "status": "stated",
        "evidence": sentence,
        "supersedes": None,
    } for sentence in rule_sentences(text if isinstance(text, str) else "")[:MAX_CANDIDATES]]
    return {"records": records, "retire": [], "promotions": []}


class DemoModel(LoopbackServer):
    """The canned demo model on 127.0.0.1: an OpenAI-compatible chat endpoint, no language model."""

    def respond(self, exchange: Exchange) -> None:
        if exchange.seen.path.rstrip("/").endswith("/chat/completions"):
            exchange.json(200, completion_body(MODEL, Reply(canned_reply(exchange.seen.body))))
        else:
            super().respond(exchange)


# ---------------------------------------------------------------------------- the run (I/O)
def scratch_env(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "CHORD_"))}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=str(scratch / "gitconfig"),
               XDG_CONFIG_HOME=str(scratch / "config"), XDG_STATE_HOME=str(scratch / "state"),
               CHORD_DEMO_KEY="not-a-real-key")
    (scratch / "gitconfig").write_text("")
    return env


def run(args: list[str], cwd: Path, env: dict[str, str], shown: str | None = None) -> int:
    """Print the command as the user would type it, then its output."""
    print(f"$ {shown or shlex.join(args)}", flush=True)
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(done.stdout, end="", flush=True)
    return done.returncode


def heading(text: str) -> None:
    print(f"\n=== {text}", flush=True)


def first_request(server: LoopbackServer) -> Any:
    """The body of the first chat request the model received."""
    posts = [seen for seen in server.requests if seen.path.rstrip("/").endswith("/chat/completions")]
    return posts[0].body if posts else None


def session_material(body: Any) -> str:
    """The request's last message: the session material that follows the fixed instructions."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict):
        return str(messages[-1].get("content", ""))
    return ""


def show_input(text: str, saved: Path) -> None:
    lines = text.splitlines()
    for line in lines[:SHOWN_INPUT_LINES]:
        print(f"  | {line}")
    if len(lines) > SHOWN_INPUT_LINES:
        print(f"  | … {len(lines) - SHOWN_INPUT_LINES} more lines")
    print(f"  (all of it, as sent after the fixed instructions: {saved})")


def verdicts(offered: list[dict[str, Any]], report: dict[str, Any]) -> list[str]:
    """One line per candidate the demo model offered: kept, or dropped and why (the dry run's report)."""
    reasons = {d.get("position"): d.get("reason") for d in report.get("drops") or [] if isinstance(d, dict)}
    lines = []
    for position, record in enumerate(offered):
        verdict = f"dropped: {reasons[position]}" if position in reasons else "kept"
        lines.append(f"  {verdict:<28} {record['evidence']}")
    return lines or ["  (no sentence of yours read like a standing rule: the demo model offered nothing)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="./dev extract",
        description="One extraction of your own transcript, offline, in a scratch project, with a canned demo "
                    "model (no language model: it offers your rule-like sentences, chord-git's judge decides).")
    parser.add_argument("transcript", type=Path, help="a finished session's transcript (read only)")
    parser.add_argument("--format", default="auto", help="its format (default: auto, as git memory extract)")
    args = parser.parse_args(argv)
    transcript = args.transcript.expanduser().resolve()
    if not transcript.is_file():
        print(f"./dev extract: {args.transcript}: no such file", file=sys.stderr)
        return 2

    top = os.environ.get("CHORD_DEMO_DIR")
    scratch = Path(top) / "extract" if top else Path(tempfile.mkdtemp(prefix="chord-extract."))
    if scratch.exists():  # a rerun starts afresh
        shutil.rmtree(scratch)
    project = scratch / "project"
    project.mkdir(parents=True)
    env = scratch_env(scratch)
    print("CANNED DEMO MODEL: no language model runs here. A program on 127.0.0.1 offers each sentence of")
    print("yours that reads like a standing rule (always, never, use, ...) as a candidate; chord-git's judge")
    print("then decides as it would for a real model. What a real model keeps differs.")
    print(f"Scratch project: {project} (your repositories and config are not touched).")

    with DemoModel() as server:
        (scratch / "config/chord").mkdir(parents=True)
        (scratch / "config/chord/config.yaml").write_text(
            "model_pool:\n"
            f"  - model: {MODEL}\n    base_url: {server.base_url}/v1\n    api_key_env: CHORD_DEMO_KEY\n"
            "memory:\n  enabled: true\n")
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=project, env=env, check=True)
        subprocess.run(["git", "memory", "init"], cwd=project, env=env, check=True, stdout=subprocess.DEVNULL)

        subprocess.run(["git", "add", "-A"], cwd=project, env=env, check=True)
        subprocess.run(["git", "-c", "user.name=Demo", "-c", "user.email=demo@example.invalid", "commit", "-q",
                        "-m", "empty memory"], cwd=project, env=env, check=True)
        given = [] if args.format == "auto" else ["--format", args.format]
        command = ["git", "memory", "extract", "--session", str(transcript), *given]
        shown = shlex.join(["git", "memory", "extract", "--session", str(args.transcript), *given])

        # A dry run first, on the empty memory: what the model receives and what the judge drops.
        trial = subprocess.run([*command, "--dry-run", "--json"], cwd=project, env=env, capture_output=True,
                               text=True)
        if trial.returncode != 0:  # a bad transcript: the real run prints the one-line reason
            print()
            return run(command, project, env, shown=shown)
        heading("1. what the model receives (redacted; tool calls and tool output are never sent)")
        body = first_request(server)
        saved = scratch / "model-input.txt"
        saved.write_text(session_material(body), encoding="utf-8")
        show_input(session_material(body), saved)

        heading("2. what the canned demo model offered, and what chord-git's judge made of it")
        print("\n".join(verdicts(canned_reply(body)["records"], json.loads(trial.stdout))))

        heading("3. the extraction itself")
        code = run(command, project, env, shown=shown)
        if code != 0:
            return code

    heading("4. what was written (an ordinary working-tree diff, never staged)")
    run(["git", "status", "--short", "--untracked-files=all"], project, env)
    heading("5. what the next session gets")
    run(["git", "memory", "summary"], project, env)
    print(f"\nThe scratch project stays in {project}: look around, then delete {scratch}.")
    print("For a real model's choice on the same file, turn extraction on with your model pool (README.md,")
    print('"How do I turn it on?") and run, in your project (a dry run writes nothing):')
    print(f"    git memory extract --session {shlex.quote(str(transcript))} --dry-run")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
