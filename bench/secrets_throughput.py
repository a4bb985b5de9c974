"""Throughput of layer 1 (our sanitizer) against detect-secrets, and linearity (issue 3).

Builds a ~20 MB memory-like text (benign memory lines from the corpus, prose, and about one
secret line in a hundred from the corpus' secret rows), then prints:

- layer-1 ``find`` time and MB/s on 5, 10 and 20 MB prefixes (linearity: time per MB should
  stay flat);
- detect-secrets alone (default plugins, same line route as our adapter) on a 1 MB slice,
  extrapolated to 20 MB: it is too slow to run on all of it;
- the ratio of the two rates (goal: >= 50x).

    python bench/secrets_throughput.py [--corpus DIR] [--size-mb 20] [--ds-slice-mb 1]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from secrets_quality import default_corpus  # noqa: E402

from chord_git.secrets import find, redact  # noqa: E402
from chord_git.secrets.detect import detect_secrets_only  # noqa: E402

WORDS = ("the deploy job runs after review and the cache is warmed by the worker before traffic "
         "moves; user prefers small commits, squash merges and a changelog entry per pull request; "
         "tests use a local database and fixtures under tests/data, never the staging one").split()


def _rows(corpus: Path, name: str, label: str) -> list[str]:
    path = corpus / name
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [r["text"] for r in rows if r["label"] == label and "path" not in r]


def build_text(corpus: Path, size: int, seed: int = 20261129) -> str:
    """Memory-like text: 25% benign memory lines, 74% prose, 1% secret examples."""
    rng = random.Random(seed)
    benign = _rows(corpus, "benign_memory.jsonl", "benign") or ["- The token expires after 90 days."]
    secrets = _rows(corpus, "gitleaks.jsonl", "secret") + _rows(corpus, "detect_secrets.jsonl", "secret")
    readme = (REPO / "README.md").read_text(encoding="utf-8").splitlines() if (REPO / "README.md").exists() else []
    prose = [line for line in readme if len(line) > 20]
    out: list[str] = []
    total = 0
    while total < size:
        pick = rng.random()
        if pick < 0.01 and secrets:
            line = rng.choice(secrets)
        elif pick < 0.26:
            line = rng.choice(benign)
        elif prose and pick < 0.6:
            line = rng.choice(prose)
        else:
            line = "- " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 24))) + "."
        out.append(line)
        total += len(line) + 1
    return "\n".join(out)[:size]


def timed(fn, *args, repeat: int = 1):  # type: ignore[no-untyped-def]
    """Best wall-clock time of ``repeat`` runs (the machine may be shared) and the result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - started)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--ds-slice-mb", type=float, default=1.0)
    args = parser.parse_args(argv)
    mb = 1_000_000
    text = build_text(args.corpus, int(args.size_mb * mb))
    print(f"text: {len(text) / mb:.1f} MB, {text.count(chr(10)) + 1} lines")
    find(text[:100_000])  # compile patterns outside the timings

    print("\nlayer 1 (find) linearity, best of 2 runs:")
    rates = []
    for size in (args.size_mb / 4, args.size_mb / 2, args.size_mb):
        chunk = text[: int(size * mb)]
        seconds, findings = timed(find, chunk, repeat=2)
        rates.append(size / seconds)
        print(f"  {size:5.1f} MB  {seconds:6.2f} s  {size / seconds:6.1f} MB/s  {seconds / size:.3f} s/MB  "
              f"{len(findings)} findings")
    seconds, _ = timed(redact, text)
    print(f"  redact on {args.size_mb:.1f} MB: {seconds:.2f} s ({args.size_mb / seconds:.1f} MB/s)")

    cut = text[: int(args.ds_slice_mb * mb)]
    lines = list(enumerate(cut.split("\n"), start=1))
    ds_seconds, ds_hits = timed(detect_secrets_only, {"memory.md": lines})
    ds_rate = args.ds_slice_mb / ds_seconds
    l1_seconds, _ = timed(find, cut, repeat=2)
    print(f"\ndetect-secrets alone on a {args.ds_slice_mb:.1f} MB slice: {ds_seconds:.1f} s "
          f"({ds_rate:.3f} MB/s, {len(ds_hits)} hits); extrapolated to {args.size_mb:.0f} MB: "
          f"{args.size_mb / ds_rate:.0f} s")
    print(f"layer 1 on the same slice: {l1_seconds:.2f} s ({args.ds_slice_mb / l1_seconds:.1f} MB/s)")
    print(f"ratio on {args.size_mb:.0f} MB (layer-1 MB/s / detect-secrets MB/s): {rates[-1] / ds_rate:.0f}x "
          f"(goal >= 50x)")
    print(f"linearity: s/MB at {args.size_mb / 4:.0f}/{args.size_mb / 2:.0f}/{args.size_mb:.0f} MB = "
          + " / ".join(f"{1 / r:.3f}" for r in rates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
