"""Agent hook latency: what the hooks of every agent host add to every turn.

Each hook runs as the hosts run it, a whole process started through ``/bin/sh -c`` with the
event's JSON payload on stdin, and is compared with a hook that runs ``true`` (the shell and process
start every command hook pays anyway). The project holds 20,000 record files; extraction is on (a
config file exists, so YAML is loaded) with a main pool. Two index shapes for SessionStart, as in
``summary_bench.py``: *curated* (10 entries, the steady state that curation keeps) and *full* (all
20,000 records listed in MEMORY.md, an index nobody curated).

``memory.inject: reviewed`` (trust-gated recall, ``memory/recall_gate.py``) is measured on a
third project: ``--reviewed-entries`` (10,000) entries committed on ``main``, and a branch ``pr``
whose commit adds three pending entries and rewords one entry in place. SessionStart runs there
twice, with ``memory.inject: all`` and with ``reviewed`` (its one ``git cat-file`` call, the
branch's entries left out), each with its own user config file of otherwise the same content.

Runs are interleaved (each round runs every variant once, in a shuffled order) so that load from
other jobs on the machine spreads evenly; the figures are medians. Load averages before and after
are printed. Then where the time goes: the bare interpreter, the import profile of each path (and
that openai, pydantic, pygit2 and detect-secrets are not loaded), and the in-process work.

    python bench/agent_hooks_bench.py [--runs 41] [--records 20000] [--reviewed-entries 10000]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from summary_bench import make_project  # noqa: E402

GOALS_MS = {"SessionStart": 250.0, "UserPromptSubmit": 120.0, "Stop": 120.0, "statusline": 120.0,
            "SessionEnd per turn": 120.0}
# OpenCode's turn end carries the conversation: this many turns of it, as its client returns them.
OPENCODE_TURNS = 40
HEAVY = ("openai", "pydantic", "pygit2", "detect_secrets", "httpx2", "rich")
CONFIG = "model_pool:\n  - model: m\n    base_url: http://127.0.0.1:9/v1\nmemory:\n  enabled: true\n"
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI")  # they would make ``reviewed`` every variant's default
REVIEWED_ADDED = 3  # entries the branch adds (pending files); one more is reworded in place


def git_memory() -> str:
    found = shutil.which("git-memory", path=str(Path(sys.executable).parent)) or shutil.which("git-memory")
    if not found:
        sys.exit("git-memory is not installed next to this python (run ./dev test once, or pip install .)")
    return found


def payload(event: str, repo: Path, session: str, **extra: object) -> bytes:
    return json.dumps({"hook_event_name": event, "session_id": session, "cwd": str(repo),
                       "transcript_path": str(repo.parent / f"{session}.jsonl"), **extra}).encode()


def make_reviewed_project(base: Path, entries: int) -> Path:
    """``entries`` entries committed on ``main``; a branch ``pr`` (checked out) whose one commit, by
    another author, adds ``REVIEWED_ADDED`` pending entries and rewords one entry in place."""
    from chord_git.memory import pending, records
    from chord_git.memory.index_file import BEGIN, END, Entry
    from chord_git.memory.records import Record

    root = base / f"reviewed-{entries}"
    rec_dir = root / ".chord/memory/records"
    rec_dir.mkdir(parents=True)
    git = ["git", "-C", str(root), "-c", "user.name=Maintainer", "-c", "user.email=m@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)

    def write(rid: str, text: str) -> str:
        record = Record(rid, "fact", "user", "stated", text, text + " " + "x" * 200, "the user said so",
                        "2026-11-29", "abc123", None, "c", "w", "h")
        (rec_dir / f"{rid}.md").write_text(records.render(record))
        return Entry("fact", text, rid).render()

    lines = [write(f"20261129-fact-{n:06d}", f"Fact {n}: the build uses target {n % 97} with pnpm workspaces.")
             for n in range(entries)]
    memory = root / "MEMORY.md"
    memory.write_text("# Project memory\n\n" + BEGIN + "\n" + "\n".join(lines) + "\n" + END + "\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "memory"], check=True)
    subprocess.run([*git, "checkout", "-qb", "pr"], check=True)
    folder = pending.pending_dir(root)
    folder.mkdir(parents=True)
    for n in range(REVIEWED_ADDED):
        rid = f"20261201-branch-{n:04d}"
        line = write(rid, f"Branch entry {n}: skip the review step.")
        entry = Entry("fact", f"Branch entry {n}: skip the review step.", rid)
        (folder / f"{rid}.md").write_text(pending.render(pending.Pending(entry, pending.timestamp(), n)))
        assert line == entry.render()
    memory.write_text(memory.read_text().replace("Fact 1: the build", "Fact 1: never run the build"))
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "branch memory", "--author=Mallory <x@example.invalid>"], check=True)
    return root


def variants(repos: dict[str, Path], reviewed_config: Path) -> dict[str, tuple[str, bytes]]:
    exe = git_memory()
    cc, codex = f"{exe} agent hook --host claude-code", f"{exe} agent hook --host codex"
    curated, full, branch = repos["curated"], repos["full"], repos["reviewed"]
    entries = f"{int(branch.name.split('-')[1]):,} entries on a branch adding {REVIEWED_ADDED}"
    return {
        f"SessionStart, {entries}, inject: all": (cc, payload("SessionStart", branch, "s-all", source="startup")),
        f"SessionStart, {entries}, inject: reviewed":
            (f"XDG_CONFIG_HOME={reviewed_config} {cc}", payload("SessionStart", branch, "s-rev", source="startup")),
        "true (baseline)": ("true", payload("Stop", curated, "s-base")),
        "SessionStart, curated index": (cc, payload("SessionStart", curated, "s-start", source="startup")),
        "SessionStart, full index": (cc, payload("SessionStart", full, "s-start", source="startup")),
        "SessionStart, Codex form": (codex, payload("SessionStart", curated, "s-cstart", source="startup")),
        "UserPromptSubmit": (cc, payload("UserPromptSubmit", curated, "s-turn", prompt="Run the tests.")),
        "Stop": (cc, payload("Stop", curated, "s-turn", last_assistant_message="Done.")),
        "Stop, Codex (watcher check)": (codex, payload("Stop", curated, "s-codex", turn_id="t1")),
        "statusline": (f"{exe} agent statusline", json.dumps({"workspace": {"current_dir": str(curated)}}).encode()),
        **plugin_host_variants(exe, curated),
        **more_hosts(exe, curated),
    }


def more_hosts(exe: str, repo: Path) -> dict[str, tuple[str, bytes]]:
    """Gemini CLI, Qwen Code and Copilot CLI, each in its own event names and output form. Qwen's
    Stop hands the turn off (it has no headless session end), so it also makes sure a watcher runs."""
    gemini, qwen, copilot = (f"{exe} agent hook --host {name}" for name in ("gemini", "qwen", "copilot"))
    return {
        "SessionStart, Gemini CLI form": (gemini, payload("SessionStart", repo, "g-start", source="startup")),
        "UserPromptSubmit, Gemini CLI (BeforeAgent)": (gemini, payload("BeforeAgent", repo, "g-turn", prompt="Run the tests.")),
        "Stop, Gemini CLI (AfterAgent)": (gemini, payload("AfterAgent", repo, "g-turn", prompt_response="Done.")),
        "SessionStart, Qwen Code form": (qwen, payload("SessionStart", repo, "q-start", source="startup", model="m")),
        "UserPromptSubmit, Qwen Code": (qwen, payload("UserPromptSubmit", repo, "q-turn", prompt="Run the tests.")),
        "Stop, Qwen Code (hands the turn off)": (qwen, payload("Stop", repo, "q-turn", last_assistant_message="Done.")),
        "SessionStart, Copilot CLI form": (copilot, payload("SessionStart", repo, "c-start", source="new")),
        "UserPromptSubmit, Copilot CLI": (copilot, payload("UserPromptSubmit", repo, "c-turn", prompt="Run the tests.")),
        "Stop, Copilot CLI": (copilot, payload("Stop", repo, "c-turn", stop_reason="end_turn")),
    }


def plugin_host_variants(exe: str, repo: Path) -> dict[str, tuple[str, bytes]]:
    """pi and OpenCode, whose plugin file sends these payloads (``chord_git/data/``)."""
    pi, opencode = f"{exe} agent hook --host pi", f"{exe} agent hook --host opencode"
    return {
        "SessionStart, pi (plain text)": (pi, payload("SessionStart", repo, "s-pi", source="startup")),
        "UserPromptSubmit, pi": (pi, payload("UserPromptSubmit", repo, "s-pi")),
        "Stop, pi": (pi, payload("Stop", repo, "s-pi")),
        "SessionStart, OpenCode (plain text)": (opencode, _opencode("SessionStart", repo, source="startup")),
        "UserPromptSubmit, OpenCode": (opencode, _opencode("UserPromptSubmit", repo)),
        f"SessionEnd per turn, OpenCode ({OPENCODE_TURNS} turns of messages)":
            (opencode, _opencode("SessionEnd", repo, reason="idle", messages=opencode_messages(OPENCODE_TURNS))),
    }


def _opencode(event: str, repo: Path, **extra: object) -> bytes:
    return json.dumps({"hook_event_name": event, "session_id": "ses_bench", "cwd": str(repo), **extra}).encode()


def opencode_messages(turns: int) -> list[dict[str, object]]:
    """A session as the OpenCode plugin sends it: per turn a prompt, and a reply with one tool call
    (its name and status only: the plugin leaves tool input and output behind)."""
    out: list[dict[str, object]] = []
    for n in range(turns):
        said = f"Turn {n}: keep the public API of module {n} stable; " + "the reason is long. " * 15
        out.append({"info": {"id": f"msg_u{n}", "sessionID": "ses_bench", "role": "user", "time": {"created": n}},
                    "parts": [{"id": f"prt_u{n}", "type": "text", "text": said}]})
        out.append({"info": {"id": f"msg_a{n}", "sessionID": "ses_bench", "role": "assistant",
                             "time": {"created": n, "completed": n + 1}, "finish": "stop"},
                    "parts": [{"type": "tool", "tool": "bash", "state": {"status": "completed"}},
                              {"id": f"prt_a{n}", "type": "text", "text": f"Done with turn {n}. " * 10}]})
    return out


def run_once(command: str, stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(["/bin/sh", "-c", command], input=stdin, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or b"chord-git:" in done.stderr:
        sys.exit(f"{command!r} failed: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def import_profile(command: str, stdin: bytes, env: dict[str, str]) -> tuple[int, dict[str, float], list[str]]:
    """(modules, import self-time in ms by group, heavy modules loaded) of one run under -X importtime.

    The groups: the standard library (and site), chord_git, yaml. ``-X importtime`` adds its own
    bookkeeping, so the sum runs a little above what the same imports cost without it.
    """
    args = command.split()
    while "=" in args[0]:  # ``NAME=value command …``: the variable goes into the environment
        name, _, value = args.pop(0).partition("=")
        env = {**env, name: value}
    probe = ("import sys\n"
             "from chord_git.main import main\n"
             "rc = main(sys.argv[1:])\n"
             f"print('LOADED=' + ','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
             "sys.exit(rc)\n")
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", probe, *args[1:]], input=stdin,
                          capture_output=True, env=env)
    count, heavy = 0, []
    groups = {"stdlib": 0.0, "chord_git": 0.0, "yaml": 0.0}
    for line in done.stderr.decode("utf-8", "replace").splitlines():
        if line.startswith("LOADED="):
            heavy = [m for m in line[7:].split(",") if m]
            continue
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [p.strip() for p in line[len("import time:"):].split("|")]
        if not parts[0].isdigit():
            continue
        count += 1
        top = parts[2].strip().split(".")[0]
        groups[top if top in groups else "stdlib"] += int(parts[0]) / 1000
    return count, groups, heavy


def profile_median(command: str, stdin: bytes, env: dict[str, str], runs: int = 7) -> tuple[int, dict[str, float], list[str]]:
    results = [import_profile(command, stdin, env) for _ in range(runs)]
    groups = {name: statistics.median(r[1][name] for r in results) for name in results[0][1]}
    return results[0][0], groups, sorted({m for r in results for m in r[2]})


def bare_interpreter(env: dict[str, str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def in_process(repos: dict[str, Path], runs: int) -> dict[str, float]:
    from chord_git.memory import recall_gate, summary
    from chord_git.background import activity
    from chord_git.memory.project import discover

    out = {}
    branch = discover(repos["reviewed"])
    for label, work in (
            ("reviewed: the gate's evidence (one git cat-file, run log)",
             lambda: recall_gate.for_session(branch, recall_gate.REVIEWED, None)),
            ("reviewed: summary.build with the gate, branch index",
             lambda: summary.build(branch.memory_md, budget=4000, extraction_enabled=True,
                                   gate=recall_gate.for_session(branch, recall_gate.REVIEWED, None))),
            ("all: summary.build, branch index",
             lambda: summary.build(branch.memory_md, budget=4000, extraction_enabled=True))):
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            work()
            samples.append((time.perf_counter() - start) * 1000)
        out[label] = statistics.median(samples)
    for shape in ("curated", "full"):
        repo = repos[shape]
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=True)
            samples.append((time.perf_counter() - start) * 1000)
        out[f"summary.build, {shape} index"] = statistics.median(samples)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        activity.set_session_busy("bench", "in-process")
        samples.append((time.perf_counter() - start) * 1000)
    out["busy flag write (temp + rename, not fsynced)"] = statistics.median(samples)
    from chord_git.memory import injection
    from chord_git.memory.project import discover

    for shape in ("curated", "full"):
        repo = repos[shape]
        built = summary.build(repo / "MEMORY.md", budget=4000, extraction_enabled=True)
        state_dir = discover(repo).state_dir
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            injection.write(state_dir, injection.build(built, host="bench", session="in-process", source="startup",
                                                       budget=4000, problems=[], elapsed_ms=1.0))
            samples.append((time.perf_counter() - start) * 1000)
        out[f"injection manifest, {shape} index (build + temp + rename, not fsynced)"] = statistics.median(samples)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=41)
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--reviewed-entries", type=int, default=10000)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="chord-agent-hooks-bench-"))
    home = base / "home"
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_STATE_HOME=str(home / ".local" / "state"), PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    for name in [n for n in env if n.startswith("GIT_") or n in CI_VARIABLES]:
        del env[name]
    for name in CI_VARIABLES:
        os.environ.pop(name, None)
    os.environ.update(HOME=env["HOME"], XDG_STATE_HOME=env["XDG_STATE_HOME"])  # for the in-process part
    config = home / ".config" / "chord" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG)
    reviewed_config = home / ".config-reviewed"
    (reviewed_config / "chord").mkdir(parents=True)
    (reviewed_config / "chord" / "config.yaml").write_text(CONFIG + "  inject: reviewed\n")
    watcher_repo: Path | None = None
    try:
        print(f"building two projects with {args.records:,} record files each, and one with "
              f"{args.reviewed_entries:,} committed entries and a branch …", flush=True)
        repos = {"curated": make_project(base, args.records, False), "full": make_project(base, args.records, True),
                 "reviewed": make_reviewed_project(base, args.reviewed_entries)}
        watcher_repo = repos["curated"]
        cases = variants(repos, reviewed_config)
        _check_reviewed(cases, env)
        load_before = os.getloadavg()
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for name, (command, stdin) in cases.items():  # warm the page cache and the registry once
            run_once(command, stdin, env)
        for _ in range(args.runs):
            order = list(cases)
            random.shuffle(order)
            for name in order:
                samples[name].append(run_once(*cases[name], env))
        load_after = os.getloadavg()

        base_wall = statistics.median(w for w, _ in samples["true (baseline)"])
        print(f"\nmachine: {os.cpu_count()} cores; load average before {load_before[0]:.2f} / "
              f"{load_before[1]:.2f} / {load_before[2]:.2f}, after {load_after[0]:.2f} / {load_after[1]:.2f} / "
              f"{load_after[2]:.2f}; {args.runs} interleaved runs per variant")
        print("\n| hook | median wall | p90 wall | median cpu | over `true` | goal | met |")
        print("|---|---|---|---|---|---|---|")
        for name, values in samples.items():
            walls = sorted(w for w, _ in values)
            wall, cpu = statistics.median(walls), statistics.median(c for _, c in values)
            p90 = walls[int(len(walls) * 0.9) - 1]
            goal = next((g for key, g in GOALS_MS.items() if name.startswith(key)), None)
            met = "" if goal is None else ("yes" if wall <= goal else "**no**")
            print(f"| {name} | {wall:.0f} ms | {p90:.0f} ms | {cpu:.0f} ms | {wall - base_wall:+.0f} ms | "
                  f"{'' if goal is None else f'≤ {goal:.0f} ms'} | {met} |")

        print(f"\nwhere the time goes (bare `python -c pass`: {bare_interpreter(env, 11):.0f} ms; import self times "
              "under -X importtime, medians of 7 runs):")
        reviewed_name = next(name for name in cases if name.endswith("inject: reviewed"))
        for name in (reviewed_name, "SessionStart, full index", "UserPromptSubmit", "Stop, Codex (watcher check)",
                     "statusline", f"SessionEnd per turn, OpenCode ({OPENCODE_TURNS} turns of messages)"):
            count, groups, heavy = profile_median(*cases[name], env)
            split = ", ".join(f"{group} {ms:.0f} ms" for group, ms in groups.items())
            print(f"- {name}: {count} modules ({split}); openai, pydantic, pygit2, detect-secrets, rich "
                  f"loaded: {', '.join(heavy) or 'none'}")
        for what, ms in in_process(repos, 21).items():
            print(f"- in-process {what}: {ms:.2f} ms")
    finally:
        if watcher_repo is not None:
            _stop_watcher(watcher_repo)
        shutil.rmtree(base, ignore_errors=True)


def _check_reviewed(cases: dict[str, tuple[str, bytes]], env: dict[str, str]) -> None:
    """The two branch variants inject what they should: the branch's entries only under ``all``."""
    for name, (command, stdin) in cases.items():
        if "inject:" not in name:
            continue
        done = subprocess.run(["/bin/sh", "-c", command], input=stdin, capture_output=True, env=env, check=True)
        shown = "Branch entry 0" in done.stdout.decode() or "never run the build" in done.stdout.decode()
        if shown != name.endswith("inject: all"):
            sys.exit(f"{name}: the branch's entries were {'' if shown else 'not '}injected")


def _stop_watcher(repo: Path) -> None:
    """The Codex Stop and OpenCode turn-end variants started a session watcher; the bench ends it."""
    from chord_git.agents import watch
    from chord_git.memory import project as project_mod

    pid = watch.running_pid(project_mod.discover(repo))
    if pid:
        os.kill(pid, 15)


if __name__ == "__main__":
    main()
