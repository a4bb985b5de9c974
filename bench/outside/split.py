"""The frozen labels and the dev / held-out split of the outside corpora.

A rule is held out when sha256 of its id is 0 modulo 3: about a third of each rule set, decided
before anyone tunes on it, and the same for every later snapshot. The labels files store, per
example, its rule, index, sha256, label and class (never its text); ``MANIFEST.sha256`` holds
the sha256 of the split manifest and of each labels file, so a change to either shows.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = "MANIFEST.sha256"
SPLIT_FILE = "split.json"
DEV, HELD_OUT = "dev", "held-out"


@dataclass(frozen=True)
class Label:
    rule: str
    index: int
    sha256: str
    label: str
    cls: str
    split: str


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def split_of(rule: str) -> str:
    return HELD_OUT if int(hashlib.sha256(rule.encode("utf-8")).hexdigest(), 16) % 3 == 0 else DEV


def labels_path(root: Path, corpus: str) -> Path:
    return root / f"labels-{corpus}.jsonl"


def write_labels(root: Path, corpus: str, snapshot: str, labels: Sequence[Label]) -> None:
    lines = [json.dumps({"corpus": corpus, "snapshot": snapshot, "examples": len(labels)}, sort_keys=True)]
    lines += [json.dumps(asdict(item), sort_keys=True) for item in labels]
    labels_path(root, corpus).write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_labels(root: Path, corpus: str) -> tuple[str, dict[tuple[str, int], Label]]:
    """(snapshot commit, (rule, index) -> label) of one corpus; ("", {}) when none is stored."""
    path = labels_path(root, corpus)
    if not path.is_file():
        return "", {}
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    head, rows = lines[0], lines[1:]
    return str(head.get("snapshot", "")), {(r["rule"], r["index"]): Label(**r) for r in rows}


def split_manifest(corpora: Mapping[str, Iterable[str]]) -> str:
    """The split as JSON text: per corpus, the sorted rule ids of each side."""
    manifest = {corpus: {side: sorted({r for r in rules if split_of(r) == side}) for side in (DEV, HELD_OUT)}
                for corpus, rules in sorted(corpora.items())}
    return json.dumps({"rule": "held-out when int(sha256(rule id)) % 3 == 0", "corpora": manifest},
                      indent=1, sort_keys=True) + "\n"


def manifest_lines(root: Path, names: Sequence[str]) -> str:
    """``sha256sum``-style lines for the named files of ``root``."""
    return "".join(f"{hashlib.sha256((root / name).read_bytes()).hexdigest()}  {name}\n" for name in sorted(names))


def write_manifest(root: Path, corpora: Mapping[str, Iterable[str]]) -> None:
    (root / SPLIT_FILE).write_text(split_manifest(corpora), encoding="utf-8")
    names = [SPLIT_FILE] + [labels_path(root, c).name for c in sorted(corpora) if labels_path(root, c).is_file()]
    (root / MANIFEST).write_text(manifest_lines(root, names), encoding="utf-8")


def check_manifest(root: Path) -> list[str]:
    """Files whose sha256 differs from ``MANIFEST.sha256`` (or that are missing); empty when intact."""
    path = root / MANIFEST
    if not path.is_file():
        return [MANIFEST]
    bad: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        target = root / name
        if not target.is_file() or hashlib.sha256(target.read_bytes()).hexdigest() != digest:
            bad.append(name)
    return bad
