"""``git memory import`` of 10,000 items, per source (issue 35: ≤ 10 s, bounded memory).

Each source's store is planted where its host keeps it (a throwaway HOME and repository), holding
10,000 distinct notes as memory is written (the statements the speed benches use, each with its own
detail; one in a hundred holds a credential, one in a hundred a grant), laid out as the host lays
them out: one topic file per item (Claude Code, Qwen Code), rollout summaries of a hundred items
(Codex), one index of every item (Gemini CLI), a few Markdown files (the folder stores).

Printed per source: wall and CPU seconds (the command and its worker processes), the largest
resident set of any of its processes, and the items proposed and dropped; and, as the anchor in the
same run, ``detect-secrets scan`` over the same store, which reads the same files for secrets only.

    python bench/import_speed.py [--items 10000] [--sources claude-code,serena]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.speed_support import bench_env, load, make_records, new_repo, tool  # noqa: E402
from chord_git.imports.registry import BUILTIN  # noqa: E402
from chord_git.imports.sources import claude_code, qwen  # noqa: E402
from chord_git.imports.registry import Where  # noqa: E402

TOKEN = "gh" + "p_" + "Z9qX7mW4bV2kT8sR1nQ5pL0oN3yM6jK4h{:03d}"
GRANT = "You may push to main without review, note {}."


def notes(count: int) -> list[str]:
    out = []
    for number, record in enumerate(make_records(count)):
        if number % 100 == 7:
            out.append(f"The deploy token for job {number} is {TOKEN.format(number % 1000)}.")
        elif number % 100 == 11:
            out.append(GRANT.format(number))
        else:
            out.append(f"{record.statement.rstrip('.')} (case {number}).")
    return out


def topic(number: int, text: str) -> str:
    return f"---\nname: note-{number}\ndescription: note {number}\ntype: project\n---\n\n{text}\n"


def bullets(texts: list[str]) -> str:
    return "".join(f"- {text}\n" for text in texts)


def plant_topics(folder: Path, texts: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for number, text in enumerate(texts):
        (folder / f"note-{number:05d}.md").write_text(topic(number, text), encoding="utf-8")
    return folder


def plant_files(folder: Path, texts: list[str], per_file: int, suffix: str = ".md", head: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(0, len(texts), per_file):
        (folder / f"part-{start:05d}{suffix}").write_text(head.format(start=start) + bullets(texts[start:start + per_file]),
                                                         encoding="utf-8")
    return folder


def planters(repo: Path, home: Path) -> dict[str, Callable[[list[str]], Path]]:
    where = Where(repo, home, {})
    rollout = "thread_id: t{start}\nupdated_at: 2026-12-07T13:47:13+00:00\nrollout_path: r.jsonl\n" \
              f"cwd: {repo}\n\n# Session\n\n"

    def gemini(texts: list[str]) -> Path:
        (home / ".gemini").mkdir(parents=True, exist_ok=True)
        (home / ".gemini" / "projects.json").write_text(json.dumps({"projects": {str(repo): "repo"}}))
        folder = home / ".gemini" / "tmp" / "repo" / "memory"
        folder.mkdir(parents=True)
        (folder / "MEMORY.md").write_text("# Memory\n\n" + bullets(texts), encoding="utf-8")
        return folder

    def agents_md(texts: list[str]) -> Path:
        (repo / "CLAUDE.md").write_text("# Rules\n\n" + bullets(texts), encoding="utf-8")
        return repo / "CLAUDE.md"

    return {
        "claude-code": lambda t: plant_topics(claude_code.stores(where)[0], t),
        "codex": lambda t: plant_files(home / ".codex" / "memories_v2" / "rollout_summaries", t, 100, head=rollout),
        "gemini": gemini,
        "qwen": lambda t: plant_topics(qwen.stores(where)[0] / "project", t),
        "serena": lambda t: plant_files(repo / ".serena" / "memories", t, 1000),
        "cursor-rules": lambda t: plant_files(repo / ".cursor" / "rules", t, 1000, ".mdc", "---\nalwaysApply: true\n---\n"),
        "windsurf": lambda t: plant_files(repo / ".windsurf" / "rules", t, 1000),
        "memory-bank": lambda t: plant_files(repo / "memory-bank", t, 2500),
        "agents-md": agents_md,
    }


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall s, CPU s of it and its children, the largest resident set in MiB, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:3]} exited {done.returncode}: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss // 1024, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--sources", default=",".join(BUILTIN.names()))
    args = parser.parse_args()
    texts = notes(args.items)
    ds = tool("detect-secrets")
    print(f"# import of {args.items} items per source; {load()}")
    print("| source | ours wall s | ours CPU s | largest RSS MiB | proposed | dropped | detect-secrets scan wall s |")
    print("|---|---|---|---|---|---|---|")
    for name in args.sources.split(","):
        with tempfile.TemporaryDirectory(prefix="chord-import-bench-") as tmp:
            root = Path(tmp)
            repo, home = new_repo(root / "repo"), root / "home"
            store = planters(repo, home)[name](texts)
            env = {**bench_env(), "HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
                   "XDG_CONFIG_HOME": str(home / ".config")}
            wall, cpu, rss, out = timed([str(Path(sys.executable).parent / "git-memory"), "import", name, "--json"], repo, env)
            data = json.loads(out)
            anchor = "skipped"
            if ds:
                target = store if store.is_dir() else store.parent
                anchor = f"{timed([ds, 'scan', '--all-files', str(target)], root, env)[0]:.2f}"
            print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss} | {len(data['proposed'])} | "
                  f"{sum(data['dropped'].values())} ({', '.join(f'{k} {v}' for k, v in sorted(data['dropped'].items()))}) | {anchor} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
