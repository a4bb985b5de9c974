"""The pre-commit hook against detect-secrets-hook and gitleaks, on commits of new records (issue 13).

For each size (default 1, 50 and 500 new records) a repository holds 20 committed records; the
commit under test adds the new record files and their index lines in MEMORY.md, which is what an
extraction run leaves for the user to commit. Three commands look at the same staged commit, in
rotating order, ``--runs`` times each:

- ``git memory check --staged`` with a cold result cache (the cache file is removed before every
  run: a commit of new records has never been scanned);
- ``detect-secrets-hook`` on the staged memory files;
- ``gitleaks git --pre-commit --staged``.

Goals: ours <= 0.5x detect-secrets-hook and <= 1.0x gitleaks at every size; a commit that stages no
memory file (the fast path) <= 0.2x gitleaks on the same commit; a MEMORY.md holding a 10 MB single
line checked in <= 2 s (a note repeated, as the goal was set, and notes drawn at random with their
own values, which have no period to cut). Ratios of medians, wall and CPU.

``--hostile`` (or ``--hostile-only``) adds the shapes of issue 33 item 7, each beside
detect-secrets-hook on the same staged files: a commit of one record holding a secret (goal <= 0.5x
detect-secrets-hook: a hook that finds something still pays for detect-secrets' import), MEMORY.md
holding 2,500 ``BEGIN PRIVATE KEY`` lines and 5,000 ``BEGIN RSA PRIVATE KEY`` lines with no END
(were quadratic up to a cap), and a 23 MB MEMORY.md of ordinary notes one per line (goal <= 4 s).

    python bench/hook_speed.py [--sizes 1,50,500] [--runs 9] [--gitleaks PATH] [--corpus DIR]
    python bench/hook_speed.py --hostile-only [--runs 9]
"""
from __future__ import annotations

import argparse
import random
import shutil
import string
import tempfile
from pathlib import Path

from speed_support import (
    anchor_arguments,
    corpus_of,
    bench_env,
    git,
    gitleaks,
    interleaved,
    load,
    make_records,
    new_repo,
    ratio,
    run,
    tool,
    write_index,
    write_records,
)

BASE_RECORDS = 20


def build(root: Path, new: int, corpus: Path | None) -> tuple[Path, list[str]]:
    """A repository with ``BASE_RECORDS`` committed records and ``new`` more staged, index included."""
    repo = new_repo(root)
    base = make_records(BASE_RECORDS, corpus=corpus)
    write_records(repo, base)
    write_index(repo, base)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    fresh = make_records(new, corpus=corpus, start=BASE_RECORDS)
    paths = write_records(repo, fresh)
    write_index(repo, base + fresh)
    git(repo, "add", "-A")
    return repo, paths + ["MEMORY.md"]


def varied_notes(size: int, seed: int = 10) -> str:
    """``size`` characters of deploy notes on one line, each note drawn at random with its own
    values (numbers, hashes, paths, query strings, and one of a few tokens in one note of seven): ordinary
    notes, dense in the words and links the rules look at, with no period."""
    rng = random.Random(seed)

    def pick(alphabet: str, size: int) -> str:
        return "".join(rng.choices(alphabet, k=size))

    hexdigits, alnum = "0123456789abcdef", string.ascii_letters + string.digits
    # A few tokens, each noted many times: 64 distinct ones would make the line a credential dump,
    # which the rules do not read past (see docs/secrets.md), and this line is about reading.
    tokens = [pick(alnum, 20) for _ in range(8)]
    notes = (
        lambda: f"the deploy key rotates weekly, see https://example.com/{pick(alnum, 4)}?b={rng.randint(1, 999)} and the runbook; ",
        lambda: f"commit {pick(hexdigits, 40)} fixed the {rng.choice(('login', 'cache', 'build', 'queue'))} bug; ",
        lambda: f"run make check before review (took {rng.randint(2, 90)}s on ci-{rng.randint(1, 40)}); ",
        lambda: f"we use pnpm {rng.randint(6, 9)}.{rng.randint(0, 20)} and node {rng.randint(18, 22)}; ",
        lambda: f"don't touch the generated client in src/gen/{pick(alnum, 6)}.ts; ",
        lambda: f"note: token={rng.choice(tokens)} then rotate it; ",
        lambda: f"staging api at https://api-{rng.randint(1, 9)}.staging.example.com/v{rng.randint(1, 3)}/items?page={rng.randint(1, 50)}&limit=20; ",
    )
    parts: list[str] = []
    length = 0
    while length < size:
        parts.append(rng.choice(notes)())
        length += len(parts[-1])
    return "".join(parts)[:size]


def _cold(repo: Path) -> None:
    shutil.rmtree(repo / ".git" / "chord-memory", ignore_errors=True)


def _pem_line(word: str, label: str) -> str:
    return "".join(("-----", word, " ", label, "PRIV", "ATE KEY-----"))  # assembled: no key marker in the tree


def ordinary_notes(size: int, seed: int = 23) -> str:
    """``size`` characters of memory notes one per line (``varied_notes`` without its token notes)."""
    notes = varied_notes(size + size // 5, seed).replace("; ", ";\n").split("\n")
    kept = "\n".join(note for note in notes if "token=" not in note)
    return kept[:size]


def hostile(tmp: Path, corpus: Path | None, runs: int, ours_bin: str, ds_bin: str, gl_bin: str | None,
            env: dict[str, str]) -> None:
    """The hostile shapes of issue 33 item 7, each beside detect-secrets-hook on the same files (the
    23 MB file beside gitleaks: detect-secrets-hook takes minutes on it)."""
    print(f"  hostile shapes, median of {runs} interleaved runs (cold cache), before: {load()}")
    print(f"  {'shape':<52}{'ours ms':>9}{'cpu':>7}{'anchor':>9}{'cpu':>7}  ratio (wall, cpu)")
    token = "".join(("gh", "p_", "Zq8XvL2mK9pT4wR7nB3cY6hJ", "x1Vb5Nd8Ws0Qe"))  # built here: no literal token
    shapes: list[tuple[str, str, bool]] = [
        ("a commit of one record holding a secret", f"deploy note: export GITHUB_TOKEN={token}\n", True),
        ("MEMORY.md: 2,500 BEGIN PRIVATE KEY lines (68 KiB)", (_pem_line("BEGIN", "") + "\n") * 2_500, False),
        ("MEMORY.md: 5,000 BEGIN RSA PRIVATE KEY lines", (_pem_line("BEGIN", "RSA ") + "\n") * 5_000, False),
        ("MEMORY.md: 23 MB of ordinary notes, one per line", ordinary_notes(23_000_000) + "\n", False),
    ]
    for number, (label, added, in_record) in enumerate(shapes):
        repo, paths = build(tmp / f"hostile{number}", 1 if in_record else 0, corpus)
        target = repo / (paths[0] if in_record else "MEMORY.md")
        with target.open("a", encoding="utf-8") as handle:
            handle.write("\n" + added)
        git(repo, "add", "-A")
        staged = paths if in_record else ["MEMORY.md"]

        def ours(repo: Path = repo) -> tuple[float, float]:
            _cold(repo)
            return run([ours_bin, "check", "--staged"], repo, env)

        large = len(added) > 1_000_000
        if large and gl_bin:
            name, anchor = "gitleaks", [gl_bin, "git", "--pre-commit", "--staged", "--no-banner", "--log-level", "error"]
        elif large:
            name, anchor = "", []
        else:
            name, anchor = "detect-secrets-hook", [ds_bin, *staged]
        commands = {"ours": ours}
        if anchor:
            commands[name] = lambda repo=repo, anchor=anchor: run(anchor, repo, env)
        timings = interleaved(commands, max(3, runs // 3) if large else runs)
        t_ours, t_anchor = timings["ours"], timings.get(name)
        anchor_ms = f"{t_anchor.wall_median * 1000:9.0f}{t_anchor.cpu_median * 1000:7.0f}" if t_anchor else f"{'-':>9}{'-':>7}"
        print(f"  {label:<52}{t_ours.wall_median * 1000:9.0f}{t_ours.cpu_median * 1000:7.0f}{anchor_ms}"
              f"  / {name or 'no anchor'}: {ratio(t_ours, t_anchor)}")
    print(f"  after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,50,500")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--hostile", action="store_true", help="also time the hostile shapes (issue 33)")
    parser.add_argument("--hostile-only", action="store_true", help="only the hostile shapes")
    anchor_arguments(parser)
    args = parser.parse_args()
    corpus = corpus_of(args)
    env = bench_env()
    ours_bin, ds_bin = tool("git-memory"), tool("detect-secrets-hook")
    if ours_bin is None or ds_bin is None:
        raise SystemExit("git-memory and detect-secrets-hook must be installed (./dev test installs both)")
    if args.hostile_only:
        with tempfile.TemporaryDirectory() as tmp:
            hostile(Path(tmp), corpus, args.runs, ours_bin, ds_bin, gitleaks(args.gitleaks)[0], env)
        return
    gl_bin, gl_note = gitleaks(args.gitleaks)
    print(f"hook speed: new records per commit, median of {args.runs} interleaved runs; {gl_note}")
    print(f"  before: {load()}")
    print(f"  {'records':>7} {'command':<40}{'wall ms':>9}{'cpu ms':>9}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            repo, paths = build(Path(tmp) / f"r{size}", size, corpus)

            def ours(repo: Path = repo) -> tuple[float, float]:
                _cold(repo)
                return run([ours_bin, "check", "--staged"], repo, env)

            commands = {"git memory check --staged (cold cache)": ours,
                        "detect-secrets-hook <staged files>": lambda repo=repo, paths=paths: run([ds_bin, *paths], repo, env)}
            if gl_bin:
                commands["gitleaks git --pre-commit --staged"] = lambda repo=repo: run(
                    [gl_bin, "git", "--pre-commit", "--staged", "--no-banner", "--log-level", "error"], repo, env)
            timings = interleaved(commands, args.runs)
            warm = interleaved({"warm": lambda repo=repo: run([ours_bin, "check", "--staged"], repo, env)}, args.runs)["warm"]
            for timing in timings.values():
                print(f"  {size:>7} {timing.label:<40}{timing.wall_median * 1000:9.0f}{timing.cpu_median * 1000:9.0f}")
            print(f"  {size:>7} {'(check --staged again, warm cache)':<40}{warm.wall_median * 1000:9.0f}{warm.cpu_median * 1000:9.0f}")
            names = list(timings)
            t_ours, t_ds = timings[names[0]], timings[names[1]]
            t_gl = timings[names[2]] if gl_bin else None
            rows.append((size, ratio(t_ours, t_ds), ratio(t_ours, t_gl)))

        # The fast path: a commit that stages no memory file.
        fast = build(Path(tmp) / "fast", 0, corpus)[0]
        git(fast, "reset", "-q", "--hard")
        (fast / "src" / "app.py").write_text("print('bye')\n")
        git(fast, "add", "src/app.py")
        fast_cmds = {"git memory check --staged (no memory file)": lambda: run([ours_bin, "check", "--staged"], fast, env)}
        if gl_bin:
            fast_cmds["gitleaks git --pre-commit --staged"] = lambda: run(
                [gl_bin, "git", "--pre-commit", "--staged", "--no-banner", "--log-level", "error"], fast, env)
        fast_t = interleaved(fast_cmds, args.runs)
        for timing in fast_t.values():
            print(f"  {'fast':>7} {timing.label:<40}{timing.wall_median * 1000:9.0f}{timing.cpu_median * 1000:9.0f}")
        # A 10 MB single line staged in MEMORY.md (below the managed section): layer 1 reads it all.
        long_repo = build(Path(tmp) / "long", 0, corpus)[0]
        prose = "the deploy key rotates weekly, see https://example.com/a?b=c and the runbook; " * 25
        token = "".join(("Zq8Xv", "L2mK9", "pT4wR", "7nB3c", "Y6hJ"))  # built here: no literal token in the tree
        line = ((f"note: token={token} then commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a " + prose) * 5000)[:10_000_000]
        with (long_repo / "MEMORY.md").open("a", encoding="utf-8") as handle:
            handle.write("\n" + line + "\n")
        git(long_repo, "add", "MEMORY.md")

        def long_line() -> tuple[float, float]:
            _cold(long_repo)
            return run([ours_bin, "check", "--staged"], long_repo, env)

        # The same notes with their values varied and their order drawn at random: no period to cut.
        varied_repo = build(Path(tmp) / "varied", 0, corpus)[0]
        with (varied_repo / "MEMORY.md").open("a", encoding="utf-8") as handle:
            handle.write("\n" + varied_notes(10_000_000) + "\n")
        git(varied_repo, "add", "MEMORY.md")

        def varied_line() -> tuple[float, float]:
            _cold(varied_repo)
            return run([ours_bin, "check", "--staged"], varied_repo, env)

        long_t = interleaved({"git memory check --staged (10 MB single line)": long_line,
                              "  the same, values varied, no repeats": varied_line}, max(3, args.runs // 3))
        for timing in long_t.values():
            print(f"  {'10 MB':>7} {timing.label:<40}{timing.wall_median * 1000:9.0f}{timing.cpu_median * 1000:9.0f}")
    print("  ratios of medians, ours / anchor:")
    for size, to_ds, to_gl in rows:
        print(f"    {size:>4} records: / detect-secrets-hook {to_ds} (goal <= 0.5); / gitleaks {to_gl} (goal <= 1.0)")
    fast_names = list(fast_t)
    print(f"    fast path / gitleaks: {ratio(fast_t[fast_names[0]], fast_t[fast_names[1]] if gl_bin else None)} (goal <= 0.2)")
    long_one, varied = long_t.values()
    print(f"    10 MB single line: {long_one.wall_median:.2f} s wall, {long_one.cpu_median:.2f} s cpu (goal <= 2 s); "
          f"without repeats {varied.wall_median:.2f} s wall, {varied.cpu_median:.2f} s cpu")
    print(f"  after: {load()}")
    if args.hostile:
        with tempfile.TemporaryDirectory() as tmp:
            hostile(Path(tmp), corpus, args.runs, ours_bin, ds_bin, gitleaks(args.gitleaks)[0], env)


if __name__ == "__main__":
    main()
