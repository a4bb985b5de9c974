"""Record files ``.chord/memory/records/<id>.md`` (R2, R3, R20, R24): model, parse, validate, render.

Records are read-only inputs: the tool creates a record once and never rewrites it. A record that
breaks a rule is reported by ``check`` and skipped by the loader.
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from pathlib import Path
from typing import Any, Literal, get_args

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.findings import Problem
from chord_git.memory import anchors as anchor_rules
from chord_git.memory import chars, frontmatter
from chord_git.memory.anchors import Anchor
from chord_git.memory.textrules import absolute_paths, may_hold_absolute_path

# The record vocabulary (SPEC "Record files"): the model's output schema uses these types too.
RecordType = Literal["preference", "fact", "workflow", "lesson"]
Source = Literal["user", "assistant"]
Status = Literal["stated", "confirmed", "unverified"]  # stated/confirmed: the user; unverified: otherwise
RECORD_TYPES: tuple[str, ...] = get_args(RecordType)
SOURCES: tuple[str, ...] = get_args(Source)
STATUSES: tuple[str, ...] = get_args(Status)
SUMMARY_CAP = 160
STATEMENT_CAP = 600
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{2,79}$")
SECTIONS = ("Conclusion", "Why keep it", "How to apply")
FIELDS = ("id", "type", "source", "status", "summary", "statement", "evidence", "created", "session", "supersedes",
          "anchors")
REQUIRED = ("id", "type", "source", "status", "summary", "statement", "created")
MAX_RECORD_BYTES = 64 * 1024
QUOTED = ("summary", "statement", "evidence")  # free text: always written double-quoted


def valid_id(rid: object) -> bool:
    return isinstance(rid, str) and bool(ID_RE.match(rid))


@dataclass(frozen=True)
class Record:
    id: str
    type: str
    source: str
    status: str
    summary: str
    statement: str
    evidence: str | None
    created: str
    session: str | None
    supersedes: str | None
    conclusion: str
    why: str
    how_to_apply: str
    # What the record names that the project can check (``memory.anchors``), as written; a record
    # written before anchors existed has none here: ``anchors_of`` derives them from its text.
    anchors: tuple[Anchor, ...] = ()


def anchors_of(record: Record) -> tuple[Anchor, ...]:
    """The record's anchors: as its front matter holds them, else derived from its text (pure)."""
    return record.anchors or anchor_rules.of_texts((record.summary, record.statement, record.how_to_apply))


def safe_record_path(records_dir: Path, rid: str) -> Path:
    """The path of a record id, refusing ids and paths that leave the records directory."""
    if not valid_id(rid):
        raise InputError(records_dir, None, f"invalid record id {rid!r} (expected {ID_RE.pattern})")
    from chord_git.memory.paths import memory_file

    return memory_file(records_dir, rid, "record")


def parse(text: str, expected_id: str | None = None) -> tuple[Record | None, list[Problem]]:
    """Parse and validate a record file's text; a record is returned only when it has no problem."""
    front, problems = frontmatter.split(text, "record")
    if front is None:
        return None, problems
    record, problems, _sections = _validate(front, expected_id)
    return record, problems


def check_text(text: str, expected_id: str | None = None) -> list[Problem]:
    """What ``check`` reports of a record file's text: ``parse``'s problems, then its empty
    sections (``empty_sections``), from one reading of the front matter and the sections."""
    front, problems = frontmatter.split(text, "record")
    if front is None:
        return problems
    _record, problems, sections = _validate(front, expected_id)
    return problems + _empty(front, sections)


def _validate(front: frontmatter.FrontMatter,
              expected_id: str | None) -> tuple[Record | None, list[Problem], dict[str, str]]:
    """``parse`` past the split: the record (None with any problem), the problems, the sections."""
    values, problems = frontmatter.check_fields(front, FIELDS, REQUIRED)
    at = front.line_of
    lines, close = front.file_lines, front.close
    rid, kind, source, status = values["id"], values["type"], values["source"], values["status"]
    if rid is not None and not valid_id(rid):
        problems.append(Problem(at("id"), "id", f"invalid record id {rid!r}"))
    if rid is not None and expected_id is not None and rid != expected_id:
        problems.append(Problem(at("id"), "id", f"id {rid!r} does not match the file name {expected_id}.md"))
    if kind is not None and kind not in RECORD_TYPES:
        problems.append(Problem(at("type"), "type", f"unknown type {kind!r} (expected one of {', '.join(RECORD_TYPES)})"))
    if source is not None and source not in SOURCES:
        problems.append(Problem(at("source"), "source", f"unknown source {source!r}"))
    if status is not None and status not in STATUSES:
        problems.append(Problem(at("status"), "status", f"unknown status {status!r}"))
    if source == "assistant" and status not in (None, "unverified"):
        problems.append(Problem(at("status"), "status",
                                "an assistant-sourced record must be 'unverified' (only the user can state or confirm)"))
    if source == "user" and not values["evidence"]:
        problems.append(Problem(at("evidence") or 2, "evidence", "a user-sourced record needs the user's words in 'evidence'"))
    summary, statement = values["summary"], values["statement"]
    if summary is not None:
        if "\n" in summary.strip():
            problems.append(Problem(at("summary"), "cap", "summary must be one line"))
        if len(summary) > SUMMARY_CAP:
            problems.append(Problem(at("summary"), "cap", f"summary has {len(summary)} characters (cap {SUMMARY_CAP})"))
    if statement is not None and len(statement) > STATEMENT_CAP:
        problems.append(Problem(at("statement"), "cap", f"statement has {len(statement)} characters (cap {STATEMENT_CAP})"))
    created = values["created"]
    if created is not None and not _iso_date(created):
        problems.append(Problem(at("created"), "field-type", f"created {created[:40]!r} is not a date (YYYY-MM-DD)"))
    supersedes = values["supersedes"]
    if supersedes is not None and not valid_id(supersedes):
        problems.append(Problem(at("supersedes"), "id", f"supersedes {supersedes!r} is not a record id"))
    anchors, wrong = anchor_rules.parse(values["anchors"] or "")
    if wrong is not None:
        problems.append(Problem(at("anchors"), "field-type", wrong))

    sections, section_problems = _sections(lines, close + 1)
    problems.extend(section_problems)
    problems.extend(frontmatter.character_problems(front, values))
    # Any line that may hold one makes the whole text one that may: most records skip the lines.
    for offset, line in enumerate(lines if may_hold_absolute_path("\n".join(lines)) else ()):
        for _start, _end in absolute_paths(line):
            problems.append(Problem(offset + 1, "absolute-path",
                                    "absolute path in a memory file (use project-relative paths)"))
            break
    if problems:
        return None, problems, sections
    assert rid and kind and source and status and summary is not None and statement is not None
    return Record(
        id=rid, type=kind, source=source, status=status, summary=summary.strip(), statement=statement.strip(),
        evidence=values["evidence"], created=values["created"] or "", session=values["session"],
        supersedes=supersedes, conclusion=sections.get("Conclusion", ""), why=sections.get("Why keep it", ""),
        how_to_apply=sections.get("How to apply", ""), anchors=anchors,
    ), [], sections


_WORDISH = re.compile(r"[^\W_]")


def _heading_line(lines: list[str], name: str) -> int | None:
    for number, line in enumerate(lines, start=1):
        if line.rstrip("\r").startswith("## ") and line.rstrip("\r")[3:].strip() == name:
            return number
    return None


def empty_sections(text: str) -> list[Problem]:
    """R21: sections with nothing in them (or only punctuation). ``check`` reports them; the
    loader still reads such a record, since its conclusion is in the front matter."""
    front, _issues = frontmatter.split(text, "record")
    if front is None:
        return []
    sections, _problems = _sections(front.file_lines, front.close + 1)
    return _empty(front, sections)


def _empty(front: frontmatter.FrontMatter, sections: dict[str, str]) -> list[Problem]:
    return [Problem(_heading_line(front.file_lines, name), "section-empty", f"section '## {name}' is empty")
            for name in SECTIONS if name in sections and not _WORDISH.search(sections[name])]


def _sections(lines: list[str], start: int) -> tuple[dict[str, str], list[Problem]]:
    found: dict[str, list[str]] = {}
    order: list[str] = []
    current: str | None = None
    for line in lines[start:]:
        stripped = line.rstrip("\r")
        if stripped.startswith("## "):
            current = stripped[3:].strip()
            order.append(current)
            found.setdefault(current, [])
        elif current is not None:
            found[current].append(stripped)
    problems = [
        Problem(start + 1, "section", f"missing section '## {name}'") for name in SECTIONS if name not in found
    ]
    return {name: "\n".join(body).strip() for name, body in found.items()}, problems


def _iso_date(value: str) -> bool:
    try:
        dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return False
    return True


def _date_or_text(value: str) -> dt.date | str:
    """An ISO date renders unquoted, as in the spec's example (``created: 2026-11-29``)."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return value


def render(record: Record) -> str:
    """The record file's text; ValueError for a text holding a character ``chars`` refuses, which
    the reader would refuse (the judge drops such candidates before they get here)."""
    for name, value, one_line in (("summary", record.summary, True), ("statement", record.statement, False),
                                  ("evidence", record.evidence or "", False), ("session", record.session or "", True),
                                  ("conclusion", record.conclusion, False), ("why", record.why, False),
                                  ("how_to_apply", record.how_to_apply, False)):
        chars.require(value, f"record {record.id}: {name}", one_line=one_line)
    front = {
        "id": record.id, "type": record.type, "source": record.source, "status": record.status,
        "summary": record.summary, "statement": record.statement, "evidence": record.evidence,
        "created": _date_or_text(record.created), "session": record.session, "supersedes": record.supersedes,
    }
    if record.anchors:
        front["anchors"] = anchor_rules.render(record.anchors)
    yaml_text = frontmatter.dump_yaml(front, quoted=QUOTED)
    return (
        f"---\n{yaml_text}---\n\n## Conclusion\n\n{record.conclusion.strip()}\n\n"
        f"## Why keep it\n\n{record.why.strip()}\n\n## How to apply\n\n{record.how_to_apply.strip()}\n"
    )


def from_bytes(data: bytes, expected_id: str | None = None) -> tuple[Record | None, list[Problem]]:
    """Validate a record file's bytes (working tree, staged blob or commit): size, UTF-8, rules."""
    text = frontmatter.decode(data, MAX_RECORD_BYTES, "record")
    if isinstance(text, Problem):
        return None, [text]
    return parse(text, expected_id)


def read_file(path: Path) -> bytes | Problem:
    """A record file's bytes: never through a symlink, never past the size cap (R24)."""
    return frontmatter.read_file(path, MAX_RECORD_BYTES, "record")


def read(path: Path) -> tuple[Record | None, list[Problem]]:
    """Read one record file, refusing symlinks, oversized files and non-UTF-8 bytes."""
    data = read_file(path)
    if isinstance(data, Problem):
        return None, [data]
    return from_bytes(data, expected_id=path.stem)


def _lenient_front(data: bytes) -> dict[Any, Any] | None:
    """The front matter of a record that breaks a rule (a cap, a field), read as well as it can be."""
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    try:
        front = frontmatter.load_yaml(text[3:end])
    except ValueError:  # safe_yaml.YamlRefused: not plain, bounded YAML
        return None
    return front if isinstance(front, dict) else None


@dataclass(frozen=True)
class RecordFacts:
    """What a run needs of one record file, read once: the record when it passes every rule (what
    the loader would inject, R24), and, leniently, who said it and the texts it states."""

    loaded: Record | None
    source: str | None  # "user" | "assistant" as written, even in a record the loader skips
    texts: tuple[str, ...]  # summary and statement as written, for duplicate checks

    @property
    def loaded_source(self) -> str | None:
        """The source as the loader sees it: None when the record is missing or breaks a rule."""
        return self.loaded.source if self.loaded is not None else None


UNREADABLE = RecordFacts(loaded=None, source=None, texts=())


def facts(path: Path) -> RecordFacts:
    """One record file's facts; an unreadable file (symlink, too big, missing) has none."""
    data = read_file(path)
    if isinstance(data, Problem):
        return UNREADABLE
    record, _problems = from_bytes(data, expected_id=path.stem)
    if record is not None:
        return RecordFacts(record, record.source, (record.summary, record.statement))
    front = _lenient_front(data)
    if front is None:
        return UNREADABLE
    texts = tuple(value for key in ("summary", "statement")
                  if isinstance(value := front.get(key), str) and value.strip())
    source = front.get("source")
    return RecordFacts(None, source if source in SOURCES else None, texts)


def _slug(summary: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", summary).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    slug = "-".join(words[:5])[:40].strip("-")
    return slug


def new_id(summary: str, kind: str, seed: str, today: dt.date | None = None) -> str:
    """``YYYYMMDD-<slug>-<hex>``; the slug falls back to the type for non-Latin summaries."""
    import hashlib  # off the hook's start-up (OpenSSL): checks make no ids

    day = (today or dt.date.today()).strftime("%Y%m%d")
    digest = hashlib.sha256(f"{summary}\0{seed}".encode()).hexdigest()[:4]
    slug = _slug(summary) or kind
    return f"{day}-{slug}-{digest}"


def normalize_text(text: str) -> str:
    """NFKC, case-folded, whitespace folded: the form used for duplicate and evidence matching."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
