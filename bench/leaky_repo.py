"""Leaky Repo's files pasted into memory: which of their risk lines each scanner finds.

    python bench/leaky_repo.py --snapshot <git dir of a Leaky Repo clone> [--no-gitleaks] [--show]

Leaky Repo (github.com/Plazmaz/leaky-repo) is a public benchmark of leaked configuration files:
shell profiles, credential stores, key files, dumps and IDE settings. Its ``.leaky-meta/secrets.csv``
counts the risk lines of each file. Each file is pasted into one Markdown memory record, under
its name as a heading and inside a fence, as an agent that copies a file into its notes would,
and scanned by (a) layer 1 (``chord_git.secrets.find``), (b) both layers
(``chord_git.secrets.scan_added_lines``), (c) detect-secrets alone and (d) gitleaks (``dir``
mode over the same records; ``--no-gitleaks`` skips it).

The files are read from the snapshot (``git --git-dir=<dir> show <commit>:<path>``); this
repository keeps only the commit and ``RISK_LINES``, the line numbers of each file's risk lines
(a range is one risk spread over a block: a key file). The labels follow the file's own
``# Risk`` comments and Leaky Repo's README; where its count is larger than the lines that hold
a credential (a ``# Risk`` comment heads one line but the count says two), the count is shown as
it is and only the labelled lines can be found. A labelled line is found when a finding lies on
it (on any line of a range). Exit status 0 always: it measures, it does not judge.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # this tree's layers, not an installed copy

SNAPSHOT = "2e951359cac53addbee56437da3ffb546e3dfe24"

# path -> (Leaky Repo's risk count, the risk lines: a number or an inclusive (first, last) range)
RISK_LINES: dict[str, tuple[int, tuple[int | tuple[int, int], ...]]] = {
    ".bash_profile": (6, (12, 20, 21, 22, 23, 24)),
    ".bashrc": (3, (105, 106, 109)),
    ".docker/.dockercfg": (2, (4, 8)),
    ".docker/config.json": (2, (5, 9)),
    ".mozilla/firefox/logins.json": (8, (11, 12, 27, 28, 43, 44, 59, 60)),
    ".ssh/id_rsa": (1, ((1, 27),)),
    "cloud/.credentials": (2, (4, 7)),
    "cloud/.s3cfg": (1, (1,)),
    "cloud/.tugboat": (1, (4,)),
    "cloud/heroku.json": (1, (4,)),
    "db/dump.sql": (10, (32, 33, 34, 35, 36, 37, 38, 39, 40, 41)),
    "db/mongoid.yml": (1, (4,)),
    "etc/shadow": (1, (20,)),
    "filezilla/recentservers.xml": (3, (13, 30)),
    "filezilla/filezilla.xml": (2, (13,)),
    "high-entropy-misc.txt": (0, ()),
    "misc-keys/cert-key.pem": (1, ((1, 28),)),
    "misc-keys/putty-example.ppk": (1, ((11, 26),)),
    "proftpdpasswd": (1, (1,)),
    "web/ruby/config/master.key": (1, (1,)),
    "web/ruby/secrets.yml": (3, (14, 17, 22)),
    "web/var/www/.env": (6, (5, 14, 23, 33)),
    ".npmrc": (2, (7, 9)),
    "web/var/www/public_html/wp-config.php": (9, (20, 33, 35, 37, 39, 41, 43, 45, 47)),
    "web/var/www/public_html/.htpasswd": (1, (1,)),
    ".git-credentials": (1, (1,)),
    "db/robomongo.json": (3, (14, 22, 27)),
    "web/js/salesforce.js": (1, (7,)),
    ".netrc": (2, (1, 2)),
    "hub": (1, (4,)),
    "config": (1, (10,)),
    "db/.pgpass": (1, (2,)),
    "ventrilo_srv.ini": (2, (7, 8)),
    "web/var/www/public_html/config.php": (1, (11,)),
    "db/dbeaver-data-sources.xml": (1, (4,)),
    ".esmtprc": (2, (4,)),
    "web/django/settings.py": (1, (24,)),
    "deployment-config.json": (3, (5,)),
    ".ftpconfig": (3, (6, 12)),
    ".remote-sync.json": (1, (17,)),
    ".vscode/sftp.json": (1, (6,)),
    "sftp-config.json": (1, (15,)),
    ".idea/WebServers.xml": (1, (6,)),
}

_HEAD = 3  # a record's lines before the file's first: heading, blank line, fence


def record(path: str, text: str) -> str:
    """The memory record an agent would write holding ``text``: its name as heading, then a fence."""
    return f"## {path}\n\n```\n{text.rstrip(chr(10))}\n```\n"


def read_files(snapshot: str, commit: str) -> dict[str, str]:
    files = {}
    for path in RISK_LINES:
        shown = subprocess.run(["git", f"--git-dir={snapshot}", "show", f"{commit}:{path}"],
                               capture_output=True, check=True)
        files[path] = shown.stdout.decode("utf-8", "replace")
    return files


def found_labels(path: str, lines: set[int]) -> int:
    """How many of ``path``'s risk lines (or ranges) hold a finding; ``lines`` are file lines."""
    hits = 0
    for label in RISK_LINES[path][1]:
        first, last = label if isinstance(label, tuple) else (label, label)
        hits += any(first <= n <= last for n in lines)
    return hits


def layer1_lines(files: Mapping[str, str]) -> dict[str, set[int]]:
    from chord_git.secrets import find

    return {path: {s.line - _HEAD for s in find(record(path, text))} for path, text in files.items()}


def _added(files: Mapping[str, str]) -> dict[str, list[tuple[int, str]]]:
    return {f"memory/{path.replace('/', '_')}.md": list(enumerate(record(path, text).split("\n"), start=1))
            for path, text in files.items()}


def _by_file(files: Mapping[str, str], findings: Sequence[object]) -> dict[str, set[int]]:
    names = {f"memory/{path.replace('/', '_')}.md": path for path in files}
    out: dict[str, set[int]] = {path: set() for path in files}
    for finding in findings:
        out[names[finding.path]].add((finding.line or 0) - _HEAD)  # type: ignore[attr-defined]
    return out


def both_layers_lines(files: Mapping[str, str]) -> dict[str, set[int]]:
    from chord_git.secrets import scan_added_lines

    return _by_file(files, scan_added_lines(_added(files)))


def detect_secrets_lines(files: Mapping[str, str]) -> dict[str, set[int]]:
    from chord_git.secrets.layer2.detect import detect_secrets_only

    return _by_file(files, detect_secrets_only(_added(files)))


def gitleaks_lines(files: Mapping[str, str]) -> tuple[dict[str, set[int]] | None, str]:
    sys.path.insert(0, str(REPO / "bench"))
    from speed_support import gitleaks

    binary, note = gitleaks()
    if binary is None:
        return None, note
    out: dict[str, set[int]] = {path: set() for path in files}
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for n, (path, text) in enumerate(files.items()):
            name = f"record{n:02d}.md"
            names[name] = path
            Path(tmp, name).write_text(record(path, text), encoding="utf-8")
        report = Path(tmp, "report.json")
        subprocess.run([binary, "dir", "--no-banner", "--log-level", "error", "--report-format", "json",
                        "--report-path", str(report), tmp], capture_output=True, check=False)
        for hit in json.loads(report.read_text() or "[]"):
            source = names.get(Path(hit["File"]).name)
            if source is not None:
                out[source].add(int(hit["StartLine"]) - _HEAD)
    return out, note


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--snapshot", required=True, help="git dir of a Leaky Repo clone")
    parser.add_argument("--commit", default=SNAPSHOT)
    parser.add_argument("--no-gitleaks", action="store_true")
    parser.add_argument("--show", action="store_true", help="list the labelled lines each scanner misses")
    args = parser.parse_args(argv)
    files = read_files(args.snapshot, args.commit)
    columns: dict[str, dict[str, set[int]]] = {"layer 1": layer1_lines(files)}
    notes = []
    try:
        columns["both"] = both_layers_lines(files)
    except Exception as exc:  # noqa: BLE001  # a tree mid-edit: the other columns still measure
        notes.append(f"both layers skipped: {exc!r}")
    columns["d-s alone"] = detect_secrets_lines(files)
    note = "gitleaks skipped (--no-gitleaks)"
    if not args.no_gitleaks:
        lines, note = gitleaks_lines(files)
        if lines is not None:
            columns["gitleaks"] = lines
    counted = sum(count for count, _ in RISK_LINES.values())
    labelled = sum(len(labels) for _, labels in RISK_LINES.values())
    print(f"Leaky Repo {args.commit[:12]}: {len(files)} files, {counted} risk lines counted, {labelled} labelled")
    print(f"{'file':40s} {'count':>5s} {'label':>5s} " + " ".join(f"{name:>9s}" for name in columns))
    # labelled lines found, files with a risk line found, and per file the lines flagged up to
    # Leaky Repo's count (its own way of scoring, blind to which lines were flagged)
    totals = {name: [0, 0, 0] for name in columns}
    for path, (count, labels) in RISK_LINES.items():
        row = []
        for name, lines in columns.items():
            hits = found_labels(path, lines[path])
            totals[name][0] += hits
            totals[name][1] += bool(hits) and count > 0
            totals[name][2] += min(count, len({n for n in lines[path] if n > 0}))
            extra = len({n for n in lines[path] if 0 < n and not _labelled(path, n)})
            row.append(f"{hits:>3d}" + (f" +{extra:<3d}" if extra else "     ") + " ")
        print(f"{path:40s} {count:5d} {len(labels):5d} " + " ".join(f"{cell:>9s}" for cell in row))
    files_with_risk = sum(1 for count, _ in RISK_LINES.values() if count)
    print("(+N: lines flagged outside the labels, mostly informative ones: user names, hosts)")
    for name, (hits, with_hit, capped) in totals.items():
        print(f"{name:10s} {hits:3d} of {counted} risk lines ({hits} of {labelled} labelled), "
              f"{with_hit} of {files_with_risk} files; lines flagged up to each file's count: {capped}")
    for line in [*notes, note]:
        print(line)
    if args.show:
        for name, lines in columns.items():
            for path, (_, labels) in RISK_LINES.items():
                missed = [label for label in labels if not found_labels_one(label, lines[path])]
                if missed:
                    print(f"missed by {name}: {path} {missed}")
    return 0


def _labelled(path: str, line: int) -> bool:
    return any(found_labels_one(label, {line}) for label in RISK_LINES[path][1])


def found_labels_one(label: int | tuple[int, int], lines: set[int]) -> bool:
    first, last = label if isinstance(label, tuple) else (label, label)
    return any(first <= n <= last for n in lines)


if __name__ == "__main__":
    raise SystemExit(main())
