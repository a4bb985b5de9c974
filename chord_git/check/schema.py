"""Validation of memory files for ``check``: index syntax, record schema and caps (R3, R24, R32).

Pure over (path, bytes) pairs, so the same rules run on working-tree files and staged blobs.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from chord_git.memory import index_file, records
from chord_git.memory.project import MEMORY_FILE, PROMOTIONS_DIR, RECORDS_DIR
from chord_git.memory.textrules import absolute_paths


@dataclass(frozen=True)
class Finding:
    path: str
    line: int | None
    kind: str
    message: str
    layer: str = "schema"  # schema | sanitizer | detect-secrets
    commit: str | None = None

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        prefix = f"{self.commit[:12]} " if self.commit else ""
        return f"{prefix}{where}: {self.message} [{self.kind}]"

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {"path": self.path, "line": self.line, "kind": self.kind,
                                   "layer": self.layer, "message": self.message}
        if self.commit:
            data["commit"] = self.commit
        return data


def memory_kind(rel: str) -> str | None:
    """What a project-relative path is to us: index, record, promotion, or None (not ours)."""
    if rel == MEMORY_FILE:
        return "index"
    if rel.startswith(RECORDS_DIR + "/"):
        return "record"
    if rel.startswith(PROMOTIONS_DIR + "/"):
        return "promotion"
    return None


def check_index(rel: str, data: bytes) -> list[Finding]:
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text, rel, bom=bom)
    findings = [Finding(p.path, p.line, p.kind, p.message) for p in problems]
    if doc is None:
        return findings
    for entry in doc.entries:
        if len(entry.summary) > records.SUMMARY_CAP:
            findings.append(Finding(rel, entry.line, "cap", f"index entry {entry.id}: summary has {len(entry.summary)} characters (cap {records.SUMMARY_CAP})"))
        if absolute_paths(entry.summary):
            findings.append(Finding(rel, entry.line, "absolute-path", f"index entry {entry.id} names an absolute path (R3)"))
    return findings


def check_record(rel: str, data: bytes) -> list[Finding]:
    stem = rel.rsplit("/", 1)[-1]
    if "/" in rel[len(RECORDS_DIR) + 1:]:
        return [Finding(rel, None, "layout", "records must sit directly in .chord/memory/records/")]
    if not stem.endswith(".md"):
        return [Finding(rel, None, "layout", "unexpected file in .chord/memory/records/ (records are <id>.md)")]
    rid = stem[:-3]
    if not records.valid_id(rid):
        return [Finding(rel, None, "id", f"file name {stem!r} is not a valid record id")]
    if len(data) > records.MAX_RECORD_BYTES:
        return [Finding(rel, None, "size", f"record file is {len(data)} bytes (cap {records.MAX_RECORD_BYTES})")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [Finding(rel, data[: exc.start].count(b"\n") + 1, "encoding", "not valid UTF-8")]
    _record, problems = records.parse(text.lstrip("\ufeff"), expected_id=rid)
    return [Finding(rel, p.line, p.kind, p.message) for p in problems]


def check_blob(rel: str, data: bytes) -> list[Finding]:
    kind = memory_kind(rel)
    if kind == "index":
        return check_index(rel, data)
    if kind == "record":
        return check_record(rel, data)
    if kind == "promotion":
        return check_promotion(rel, data)
    return []


def check_promotion(rel: str, data: bytes) -> list[Finding]:
    """A promotion suggestion (R29): front matter, the target-path rule, caps, no absolute paths."""
    from chord_git.memory import promotions

    name = rel[len(PROMOTIONS_DIR) + 1:]
    if "/" in name:
        return [Finding(rel, None, "layout", "promotions must sit directly in .chord/memory/promotions/")]
    if not name.endswith(".md"):
        return [Finding(rel, None, "layout", "unexpected file in .chord/memory/promotions/ (promotions are <id>.md)")]
    if not records.valid_id(name[:-3]):
        return [Finding(rel, None, "id", f"file name {name!r} is not a valid promotion id")]
    if len(data) > promotions.MAX_FILE_BYTES:
        return [Finding(rel, None, "size", f"promotion file is {len(data)} bytes (cap {promotions.MAX_FILE_BYTES})")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [Finding(rel, data[: exc.start].count(b"\n") + 1, "encoding", "not valid UTF-8")]
    _parsed, problems = promotions.parse(text.lstrip("\ufeff"), expected_id=name[:-3])
    return [Finding(rel, p.line, p.kind, p.message) for p in problems]


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.commit or "", f.path, f.line or 0, f.kind))
