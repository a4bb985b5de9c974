"""The extraction input stays within its budget for a 5 MB transcript (issue 4, R17).

For a few eval cases padded to about 5 MB with filler turns placed *before* the case's own lines
(``bench.eval.fixtures.materialize_long``), prints: the file size, the time to read the transcript
and to build the input (median of several runs), the input size in characters and approximate
tokens (chars/4), the conversation part against ``memory.transcript_budget``, how many messages
were sent and left out, and whether the gold evidence (the user's words in the most recent
messages) is still in what would be sent.

Usage: python bench/input_budget.py [--mb 5] [--runs 5] [--budget 60000]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.eval.fixtures import load_case, materialize_long, write_existing_memory  # noqa: E402
from chord_git import config as config_mod  # noqa: E402
from chord_git import transcripts  # noqa: E402
from chord_git.extraction.input import build_input  # noqa: E402
from chord_git.memory import project as project_mod  # noqa: E402
from chord_git.memory import records  # noqa: E402

CASES = ("en-19-long-go-service-compaction", "zh-15-long-report-export", "en-06-aws-keys-deploy")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="extraction input size and build time for a large transcript")
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=int, default=None, help="memory.transcript_budget (default: the config default)")
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix="chord-budget-") as tmp:
        os.environ.update(HOME=tmp, XDG_CONFIG_HOME=f"{tmp}/.config", XDG_STATE_HOME=f"{tmp}/.state")
        for case_id in CASES:
            ok &= _one(Path(tmp), case_id, args)
    return 0 if ok else 1


def _one(base: Path, case_id: str, args: argparse.Namespace) -> bool:
    case = load_case(case_id)
    root = base / case_id
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    if case.existing:
        write_existing_memory(case, root)
    if args.budget:
        (root / ".chord").mkdir(exist_ok=True)
        (root / ".chord" / "config.yaml").write_text(f"memory:\n  transcript_budget: {args.budget}\n")
    path = materialize_long(case, base / "sessions", int(args.mb * 1024 * 1024))
    project = project_mod.discover(root)
    cfg = config_mod.load(project.root)
    load_times, build_times = [], []
    built = None
    for _ in range(args.runs):
        started = time.perf_counter()
        transcript = transcripts.load(path)
        loaded = time.perf_counter()
        built = build_input(project, cfg, transcript)
        load_times.append(loaded - started)
        build_times.append(time.perf_counter() - loaded)
    assert built is not None
    budget = cfg.memory.transcript_budget
    folded = [records.normalize_text(text) for text in built.user_texts]
    evidence_kept = all(any(records.normalize_text(g.evidence) in text for text in folded) for g in case.gold)
    within = built.conversation_chars <= budget + 200  # the <conversation> wrapper lines
    print(f"{case_id}: {path.stat().st_size / 1e6:.2f} MB transcript, {len(transcript.items)} items")
    print(f"  read {statistics.median(load_times) * 1000:.0f} ms, build input {statistics.median(build_times) * 1000:.0f} ms"
          f" (median of {args.runs})")
    print(f"  conversation {built.conversation_chars} chars of budget {budget} ({'within' if within else 'OVER'}); "
          f"input {built.input_chars} chars (~{built.input_chars // 4} tokens)")
    print(f"  messages sent {built.messages_sent}, left out {built.messages_omitted}; "
          f"gold evidence still sent: {'yes' if evidence_kept else 'NO'}")
    return within and evidence_kept


if __name__ == "__main__":
    sys.exit(main())
