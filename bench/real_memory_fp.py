"""False positives of secret scanning on real agent memory files (issue 33 item 5).

A snapshot of public agent memory files (``CLAUDE.md``, ``AGENTS.md``, ``GEMINI.md``,
``.cursorrules``, ``.windsurfrules``, ``.github/copilot-instructions.md``, ``memory-bank/*.md``)
and of benign configuration texts from the same public repositories (``.env.example`` templates,
Kubernetes manifests, README setup sections) is scanned file by file as if each were a memory
record, with both of our layers (``chord_git.secrets.scan_added_lines``) and with detect-secrets
alone.

    python bench/real_memory_fp.py [--corpus DIR] [--show] [--split dev|heldout|all]
                                   [--kind memory|env|k8s|docs]

- The snapshot lives outside the repository (``--corpus``, default ``$CHORD_REAL_MEMORY`` or
  ``/tmp/real_memory_corpus``: one file per item, named ``<owner>__<repo>__<path>`` with ``/``
  written ``__``). Only ``bench/real_memory/manifest.jsonl`` (repository, path, commit, sha256
  of the text, kind, split) is committed; the bench checks every file against its sha256 and
  says which are missing or changed, so two runs compare the same texts.
- The split is by repository: ``heldout`` when the first hex digit of sha256(repository name) is
  odd. ``bench/real_memory/frozen.json`` records the manifest's sha256 at the time the held-out
  half was set aside, before any rule was tuned on the dev half; the bench warns when the
  manifest no longer matches it.
- ``bench/real_memory/labels.jsonl`` holds a person's verdict for each file that raised a finding
  (sha256 -> ``no-secret`` | ``secret``, with a one-line reason). The figure reported is "files
  with a finding on no secret / all files" (goal <= 1 %); files flagged without a label are
  counted apart as ``unlabelled`` so they get read.
- ``bench/real_memory/synthetic_benign.jsonl`` holds short benign texts written from the public
  shapes of the same kinds (env templates, Kubernetes manifests with ``secretKeyRef`` and
  placeholders, README setup sections, interpolation templates): none holds a credential, so any
  finding there is a false positive; they are scored apart (``--no-synthetic`` skips them).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chord_git.findings import Finding  # noqa: E402
from chord_git.secrets import scan_added_lines  # noqa: E402
from chord_git.secrets.layer2.detect import detect_secrets_only  # noqa: E402

Scanner = Callable[[Mapping[str, Sequence[tuple[int, str]]]], list[Finding]]
HERE = REPO / "bench" / "real_memory"
MANIFEST = HERE / "manifest.jsonl"
LABELS = HERE / "labels.jsonl"
FROZEN = HERE / "frozen.json"
SYNTHETIC = HERE / "synthetic_benign.jsonl"
RECORD_PATH = ".chord/memory/records/{}.md"


@dataclass(frozen=True)
class Item:
    repo: str
    path: str
    commit: str
    sha256: str
    kind: str
    split: str

    @property
    def file_name(self) -> str:
        return f"{self.repo.replace('/', '__')}__{self.path.replace('/', '__')}"


def split_of(repo: str) -> str:
    """Held out by repository, so no repository has files on both sides."""
    return "heldout" if int(hashlib.sha256(repo.encode("utf-8")).hexdigest()[0], 16) % 2 else "dev"


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_corpus() -> Path:
    env = os.environ.get("CHORD_REAL_MEMORY")
    return Path(env) if env else Path("/tmp/real_memory_corpus")


def load_manifest(path: Path = MANIFEST) -> list[Item]:
    with path.open(encoding="utf-8") as handle:
        return [Item(**json.loads(line)) for line in handle if line.strip()]


def load_labels(path: Path = LABELS) -> dict[str, tuple[str, str]]:
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return {row["sha256"]: (row["label"], row.get("reason", "")) for row in rows}


def read_corpus(items: Sequence[Item], corpus: Path) -> tuple[dict[Item, str], list[str]]:
    """The snapshot's texts that match the manifest, and a note for each that does not."""
    texts: dict[Item, str] = {}
    problems: list[str] = []
    for item in items:
        path = corpus / item.file_name
        if not path.is_file():
            problems.append(f"missing: {item.file_name}")
            continue
        text = path.read_bytes().decode("utf-8")  # as stored: carriage returns kept
        if text_sha256(text) != item.sha256:
            problems.append(f"changed: {item.file_name}")
            continue
        texts[item] = text
    return texts, problems


def scan(texts: Mapping[Item, str], scanner: Scanner) -> dict[Item, list[Finding]]:
    names = {RECORD_PATH.format(i): item for i, item in enumerate(texts)}
    added = {name: list(enumerate(texts[item].split("\n"), start=1)) for name, item in names.items()}
    found: dict[Item, list[Finding]] = {}
    for hit in scanner(added):
        found.setdefault(names[hit.path], []).append(hit)
    return found


@dataclass
class Tally:
    files: int = 0
    flagged: int = 0
    no_secret: int = 0
    secret: int = 0
    unlabelled: int = 0

    def row(self) -> str:
        rate = self.no_secret / self.files if self.files else float("nan")
        return (f"{self.files:6} {self.flagged:8} {self.no_secret:10} {rate:8.4f} {self.secret:7} "
                f"{self.unlabelled:11}")


def tally(items: Sequence[Item], found: Mapping[Item, list[Finding]],
          labels: Mapping[str, tuple[str, str]]) -> Tally:
    result = Tally(files=len(items))
    for item in items:
        if item not in found:
            continue
        result.flagged += 1
        label = labels.get(item.sha256, ("", ""))[0]
        if label == "no-secret":
            result.no_secret += 1
        elif label == "secret":
            result.secret += 1
        else:
            result.unlabelled += 1
    return result


def line_of(text: str, number: int | None, width: int = 150) -> str:
    lines = text.split("\n")
    if not number or number > len(lines):
        return ""
    line = lines[number - 1].strip()
    return line if len(line) <= width else line[:width] + "..."


def report(name: str, texts: Mapping[Item, str], found: Mapping[Item, list[Finding]],
           labels: Mapping[str, tuple[str, str]], show: bool) -> None:
    print(f"\n== {name}")
    print(f"{'split':8} {'kind':7} {'files':>6} {'flagged':>8} {'no-secret':>10} {'FP rate':>8} "
          f"{'secret':>7} {'unlabelled':>11}")
    items = list(texts)
    for split in ("dev", "heldout"):
        for kind in ("memory", "config", "all"):
            chosen = [i for i in items if i.split == split
                      and (kind == "all" or (i.kind == "memory") == (kind == "memory"))]
            print(f"{split:8} {kind:7} {tally(chosen, found, labels).row()}")
    print(f"{'all':8} {'all':7} {tally(items, found, labels).row()}")
    kinds = Counter(hit.kind for hits in found.values() for hit in hits)
    if kinds:
        print("  kinds: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for item in sorted(found, key=lambda i: i.file_name):
        label, reason = labels.get(item.sha256, ("unlabelled", ""))
        print(f"  [{label}] {item.file_name} ({item.split}, {item.sha256[:12]})"
              + (f": {reason}" if reason else ""))
        if show:
            for hit in sorted(found[item], key=lambda h: h.line or 0):
                print(f"      {hit.line}: {hit.kind} ({hit.layer}) | {line_of(texts[item], hit.line)}")


def report_synthetic(name: str, scanner: Scanner, show: bool) -> None:
    with SYNTHETIC.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    names = {RECORD_PATH.format(f"synthetic-{i}"): row for i, row in enumerate(rows)}
    added = {path: list(enumerate(row["text"].split("\n"), start=1)) for path, row in names.items()}
    hits = scanner(added)
    flagged = {hit.path for hit in hits}
    print(f"\n== synthetic benign texts, {name}")
    for kind in sorted({row["kind"] for row in rows}):
        chosen = [p for p, row in names.items() if row["kind"] == kind]
        print(f"  {kind:6} {len(chosen):4} texts, {sum(p in flagged for p in chosen):3} with a finding")
    print(f"  all    {len(rows):4} texts, {len(flagged):3} with a finding")
    for hit in sorted(hits, key=lambda h: (h.path, h.line or 0)):
        row = names[hit.path]
        line = line_of(row["text"], hit.line) if show else ""
        print(f"    {row['kind']}/{row['name']}:{hit.line}: {hit.kind} ({hit.layer})" + (f" | {line}" if line else ""))


def check_frozen(manifest: Path = MANIFEST) -> str | None:
    if not FROZEN.exists():
        return "no frozen.json: the held-out half was never set aside"
    frozen = json.loads(FROZEN.read_text(encoding="utf-8"))
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    if frozen.get("manifest_sha256") != digest:
        return "the manifest changed since the held-out half was frozen"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--show", action="store_true", help="print each finding's kind and line")
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--kind", choices=("memory", "env", "k8s", "docs"), default=None)
    parser.add_argument("--ours-only", action="store_true", help="skip detect-secrets alone")
    parser.add_argument("--no-synthetic", action="store_true", help="skip the synthetic benign texts")
    args = parser.parse_args(argv)
    items = [i for i in load_manifest() if (args.split == "all" or i.split == args.split)
             and (args.kind is None or i.kind == args.kind)]
    texts, problems = read_corpus(items, args.corpus)
    if not texts:
        print(f"no snapshot files matching the manifest in {args.corpus}", file=sys.stderr)
        return 2
    warning = check_frozen()
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    for problem in problems[:20]:
        print(f"warning: {problem}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} of {len(items)} manifest items not scanned", file=sys.stderr)
    labels = load_labels()
    repos = len({i.repo for i in texts})
    print(f"snapshot {args.corpus}: {len(texts)} files from {repos} repositories "
          f"({', '.join(f'{k} {n}' for k, n in Counter(i.kind for i in texts).most_common())})")
    scanners: list[tuple[str, Scanner]] = []
    if not args.ours_only:
        scanners.append(("detect-secrets 1.5 alone, default plugins", detect_secrets_only))
    scanners.append(("chord_git: both layers (scan_added_lines)", scan_added_lines))
    for name, scanner in scanners:
        report(name, texts, scan(texts, scanner), labels, args.show)
        if not args.no_synthetic and SYNTHETIC.exists():
            report_synthetic(name, scanner, args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
