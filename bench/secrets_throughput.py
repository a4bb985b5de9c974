"""Throughput of layer 1 (our sanitizer) against detect-secrets, and linearity (issues 3 and 10).

Builds a ~20 MB memory-like text (benign memory lines from the corpus, prose, and about one
secret line in a hundred from the corpus' secret rows), then prints:

- layer-1 ``find`` time and MB/s on 5, 10 and 20 MB prefixes (linearity: time per MB should
  stay flat);
- detect-secrets alone (default plugins, same line route as our adapter) on a 1 MB slice,
  extrapolated to 20 MB: it is too slow to run on all of it;
- the ratio of the two rates (goal: >= 50x), from CPU time (both run single-threaded in this
  process, so CPU time is what a loaded, shared machine distorts least) and from wall time;
- with ``--adversarial``: each unit of ``testing/adversarial.py`` repeated 100,000 times and a
  10 MB single line, with the time and MB/s of the slowest; then the dense inputs (an env dump,
  a one-line assignment run, distinct base64 and hex values, 326 KiB each), each against ordinary
  memory text of the same size timed in the same run (goal: <= 5x, and never below 1 MB/s).

    python bench/secrets_throughput.py [--corpus DIR] [--size-mb 20] [--ds-slice-mb 1] [--adversarial]
    python bench/secrets_throughput.py --adversarial-only
    python bench/secrets_throughput.py --dense-only
    python bench/secrets_throughput.py --hostile-only   # issue 33 item 7's shapes, layer 1 in process

``--hostile-only``: ``find`` CPU on PEM ``BEGIN`` lines with no END (2,500 and 5,000, each alone on
its line or followed by a blank line: a search for END per BEGIN read up to 64 KiB each, so this
grew with the square of the count up to that cap), and on the 10 MB line of varied notes
(``hook_speed.varied_notes``, no period to cut; goal <= 1.5 s on a quiet machine), each beside
ordinary memory text of the same size.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from secrets_quality import default_corpus  # noqa: E402

from chord_git.secrets import find, redact  # noqa: E402
from chord_git.secrets.layer2.detect import detect_secrets_only  # noqa: E402

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
    best, result, _ = timed_cpu(fn, *args, repeat=repeat)
    return best, result


def timed_cpu(fn, *args, repeat: int = 1):  # type: ignore[no-untyped-def]
    """Best wall-clock time, the result, and the best CPU time of ``repeat`` runs."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = fn(*args)
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    return best, result, best_cpu


def adversarial(repeats: int = 100_000, floor: float = 1.0) -> None:
    """The adversarial table: each unit repeated ``repeats`` times (slowest first), and a 10 MB
    single line; every row below ``floor`` MB/s is marked (goal: none)."""
    from testing.adversarial import UNITS

    rows = []
    for unit in dict.fromkeys(UNITS):
        text = unit * repeats
        wall, found, cpu = timed_cpu(find, text)
        rows.append((len(text) / 1e6 / max(cpu, 1e-9), cpu, wall, len(text), len(found), unit))
    rows.sort()
    total = sum(r[1] for r in rows)
    print(f"\nadversarial units, {repeats:,} repeats each ({len(rows)} units, {total:.1f} s CPU in all), slowest first:")
    print(f"  {'unit':44} {'MB':>6} {'s CPU':>6} {'s wall':>6} {'findings':>8} {'MB/s':>6}")
    for rate, cpu, wall, size, count, unit in rows:
        mark = "  < goal" if rate < floor else ""
        print(f"  {unit[:42]!r:44} {size / 1e6:6.2f} {cpu:6.2f} {wall:6.2f} {count:8} {rate:6.1f}{mark}")
    prose = "the deploy key rotates weekly, see https://example.com/a?b=c and the runbook; " * 25
    token = "".join(("Zq8Xv", "L2mK9", "pT4wR", "7nB3c", "Y6hJ"))  # built here: no literal token in the tree
    line = ((f"note: token={token} then commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a " + prose) * 5000)[:10_000_000]
    wall, findings, cpu = timed_cpu(find, line)
    slow = sum(1 for row in rows if row[0] < floor)
    print(f"  10 MB single line: {cpu:.2f} s CPU ({wall:.2f} s wall), {len(findings)} findings, "
          f"{len(line) / 1e6 / max(cpu, 1e-9):.1f} MB/s")
    print(f"  units below {floor:g} MB/s: {slow} of {len(rows)} (goal 0); slowest {rows[0][0]:.2f} MB/s")


def dense(corpus: Path, repeat: int = 3, goal: float = 5.0) -> None:
    """The dense table: each input of ``testing.adversarial.DENSE`` against ordinary memory text
    (``build_text``) of the same size, both timed in this run: the best CPU time of ``repeat``
    runs, each on text built from a new seed, so that no run finds its values' verdicts remembered
    from the one before."""
    from testing.adversarial import DENSE, DENSE_SIZE

    find(build_text(corpus, DENSE_SIZE, seed=1))  # patterns compiled before any timing

    def best(build) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
        runs = []
        for run in range(repeat):
            text = build(20261201 + run)
            _, found, cpu = timed_cpu(find, text)
            runs.append((cpu, len(found), len(text)))
        return min(runs)

    base, _, size = best(lambda seed: build_text(corpus, DENSE_SIZE, seed=seed))
    print(f"\ndense inputs, {DENSE_SIZE // 1024} KiB each, best CPU of {repeat} (new values each run); ordinary "
          f"memory text of the same size: {base * 1000:.0f} ms ({size / 1e6 / base:.1f} MB/s)")
    print(f"  {'input':30} {'ms CPU':>7} {'MB/s':>6} {'x ordinary':>10} {'findings':>8}")
    worst = 0.0
    for name, build in DENSE.items():
        cpu, count, size = best(build)
        ratio = cpu / base
        worst = max(worst, ratio)
        mark = "  > goal" if ratio > goal or size / 1e6 / cpu < 1.0 else ""
        print(f"  {name:30} {cpu * 1000:7.0f} {size / 1e6 / cpu:6.2f} {ratio:10.1f} {count:8}{mark}")
    print(f"  worst: {worst:.1f}x ordinary text (goal <= {goal:g}x, and no input below 1 MB/s)")


def hostile(corpus: Path, repeat: int = 3) -> None:
    """Layer 1 on the hostile shapes of issue 33 item 7, beside ordinary text of the same size."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from hook_speed import varied_notes

    begin = "".join(("-----BEGIN ", "RSA ", "PRIV", "ATE KEY-----"))  # assembled: no key marker in the tree
    shapes = [(f"{count:,} BEGIN lines{', blank between' if blank else ''}", (begin + "\n" + blank) * count)
              for count in (2_500, 5_000) for blank in ("", "\n")]
    # Labels drawn at random: no period to cut, so every BEGIN line is read (the cut hid the cost).
    rng = random.Random(33)
    labels = ("", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ")
    shapes.append(("5,000 BEGIN lines, labels at random, blank between",
                   "".join(begin.replace("RSA ", rng.choice(labels)) + "\n\n" for _ in range(5_000))))
    shapes.append(("10 MB line of varied notes (no period)", varied_notes(10_000_000)))
    find(shapes[0][1][:1000])
    print(f"hostile shapes, layer 1 find, best CPU of {repeat}; {os.getloadavg()[0]:.2f} load")
    for label, text in shapes:
        ordinary = build_text(corpus, len(text))
        _, found, cpu = timed_cpu(find, text, repeat=repeat)
        _, _, base = timed_cpu(find, ordinary, repeat=repeat)
        print(f"  {label:<42}{len(text) / 1e6:7.2f} MB  {cpu:7.3f} s CPU  ordinary text {base:7.3f} s  "
              f"{cpu / max(base, 1e-9):5.1f}x  {len(found)} findings")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--ds-slice-mb", type=float, default=1.0)
    parser.add_argument("--adversarial", action="store_true", help="also time the adversarial units")
    parser.add_argument("--adversarial-only", action="store_true", help="only the adversarial table")
    parser.add_argument("--dense-only", action="store_true", help="only the dense inputs against ordinary text")
    parser.add_argument("--hostile-only", action="store_true", help="only the hostile shapes of issue 33")
    args = parser.parse_args(argv)
    if args.hostile_only:
        hostile(args.corpus)
        return 0
    if args.dense_only:
        dense(args.corpus)
        return 0
    if args.adversarial_only:
        find("warm up")
        adversarial()
        dense(args.corpus)
        return 0
    mb = 1_000_000
    text = build_text(args.corpus, int(args.size_mb * mb))
    print(f"text: {len(text) / mb:.1f} MB, {text.count(chr(10)) + 1} lines")
    find(text[:100_000])  # compile patterns outside the timings

    print("\nlayer 1 (find) linearity, best of 2 runs:")
    rates, cpu_rates = [], []
    for size in (args.size_mb / 4, args.size_mb / 2, args.size_mb):
        chunk = text[: int(size * mb)]
        seconds, findings, cpu = timed_cpu(find, chunk, repeat=2)
        rates.append(size / seconds)
        cpu_rates.append(size / cpu)
        print(f"  {size:5.1f} MB  {seconds:6.2f} s  {size / seconds:6.1f} MB/s  {cpu / size:.3f} s/MB CPU  "
              f"{len(findings)} findings")
    seconds, _ = timed(redact, text)
    print(f"  redact on {args.size_mb:.1f} MB: {seconds:.2f} s ({args.size_mb / seconds:.1f} MB/s)")

    cut = text[: int(args.ds_slice_mb * mb)]
    lines = list(enumerate(cut.split("\n"), start=1))
    ds_seconds, ds_hits, ds_cpu = timed_cpu(detect_secrets_only, {"memory.md": lines})
    ds_rate, ds_cpu_rate = args.ds_slice_mb / ds_seconds, args.ds_slice_mb / ds_cpu
    l1_seconds, _, l1_cpu = timed_cpu(find, cut, repeat=2)
    print(f"\ndetect-secrets alone on a {args.ds_slice_mb:.1f} MB slice: {ds_seconds:.1f} s wall, {ds_cpu:.1f} s CPU "
          f"({ds_cpu_rate:.3f} MB/s CPU, {len(ds_hits)} hits); extrapolated to {args.size_mb:.0f} MB: "
          f"{args.size_mb / ds_cpu_rate:.0f} s")
    print(f"layer 1 on the same slice: {l1_seconds:.2f} s wall, {l1_cpu:.2f} s CPU "
          f"({args.ds_slice_mb / l1_cpu:.1f} MB/s CPU)")
    print(f"ratio on {args.size_mb:.0f} MB (layer-1 MB/s / detect-secrets MB/s): {cpu_rates[-1] / ds_cpu_rate:.0f}x "
          f"from CPU time, {rates[-1] / ds_rate:.0f}x from wall time (goal >= 50x)")
    print(f"linearity: CPU s/MB at {args.size_mb / 4:.0f}/{args.size_mb / 2:.0f}/{args.size_mb:.0f} MB = "
          + " / ".join(f"{1 / r:.3f}" for r in cpu_rates))
    if args.adversarial:
        adversarial()
        dense(args.corpus)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
