"""Memory given back to other tools (``git memory export``): pure renderers, and the writes.

* instruction files: a marked block of the index entries as bullets, printed for the user to paste, or
  put into an instruction file with ``--write`` (the block between the markers is replaced; the
  rest of the file is the user's and is kept byte for byte). ``import agents-md`` reads the block
  back as the same entries.
* Claude Code: Claude Code's auto-memory files for this project: one topic file per entry and
  a marked block of links in its ``MEMORY.md`` (Claude Code's own lines there are kept).
* JSON: the entries in index order with their records and provenance.

An entry whose text or record holds a secret by either layer is left out and counted.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from chord_git.memory import records, view
from chord_git.memory.project import Project
from chord_git.support.dataclass_lazy import dataclass

BEGIN = "<!-- chord:memory:export:begin -->"
END = "<!-- chord:memory:export:end -->"
INSTRUCTION_FILES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", ".github/copilot-instructions.md")
TOPIC_PREFIX = "chord-"
CLAUDE_INDEX = "MEMORY.md"
# Claude Code's memory types: feedback (how to work), project (facts of the project).
CLAUDE_TYPES = {"preference": "feedback", "workflow": "feedback", "lesson": "feedback", "fact": "project"}


@dataclass(frozen=True)
class Exported:
    id: str
    position: int
    type: str
    summary: str
    record: records.Record | None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "position": self.position, "type": self.type, "summary": self.summary,
                                  "record": f".chord/memory/records/{self.id}.md" if self.record else None}
        if self.record is not None:
            r = self.record
            out.update(source=r.source, status=r.status, statement=r.statement, evidence=r.evidence,
                       created=r.created, session=r.session, why=r.why, how_to_apply=r.how_to_apply)
        return out


def _record_text(record: records.Record | None) -> str:
    if record is None:
        return ""
    return "\n".join(t for t in (record.statement, record.evidence or "", record.conclusion, record.why,
                                 record.how_to_apply) if t)


def entries(project: Project) -> tuple[list[Exported], int]:
    """The entries to export in index order, and how many were left out for a secret."""
    from chord_git.secrets import scan_added_lines

    state = view.read_index(project)
    if state.unusable_reason:
        raise state.unusable_error()
    found = [Exported(entry.id, number, entry.type, entry.summary, view.load_record(project, entry.id))
             for number, entry in enumerate(state.entries, start=1)]
    units = {str(n): list(enumerate(f"{e.summary}\n{_record_text(e.record)}".split("\n"), start=1))
             for n, e in enumerate(found)}
    flagged = {int(finding.path) for finding in scan_added_lines(units)} if units else set()
    kept = [e for n, e in enumerate(found) if n not in flagged]
    return kept, len(flagged)


def agents_block(items: Iterable[Exported]) -> str:
    lines = [BEGIN, "## Project memory", "", "Exported by `git memory export agents-md`; the entries live in "
             "MEMORY.md and `.chord/memory/records/`.", ""]
    lines += [f"- {item.summary}" for item in items]
    return "\n".join([*lines, END]) + "\n"


def with_block(current: str, block: str) -> str:
    """``current`` with its marked block replaced by ``block``, or ``block`` appended (pure)."""
    start, end = current.find(BEGIN), current.find(END)
    if start >= 0 and end > start:
        tail = current[end + len(END):]
        return current[:start] + block.rstrip("\n") + tail
    if not current.strip():
        return block
    return current.rstrip("\n") + "\n\n" + block


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "entry"


def claude_files(items: Iterable[Exported], index: str) -> dict[str, str]:
    """Claude Code's auto-memory files for ``items``: topic files, and ``MEMORY.md`` (its current
    text ``index``) with the marked block of links (pure)."""
    files: dict[str, str] = {}
    links = []
    for item in items:
        name = f"{TOPIC_PREFIX}{item.id}.md"
        rule = item.record.statement if item.record else item.summary
        why = f"\n\n**Why:** {item.record.why}" if item.record and item.record.why else ""
        front = {"name": item.summary, "description": item.summary, "type": CLAUDE_TYPES.get(item.type, "project")}
        head = "".join(f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in front.items())
        files[name] = f"---\n{head}---\n\n{rule}{why}\n"
        links.append(f"- [{item.summary}]({name})")
    block = "\n".join([BEGIN, *links, END]) + "\n"
    files[CLAUDE_INDEX] = with_block(index, block)
    return files


def stale_topics(folder: Path, keep: Iterable[str]) -> list[Path]:
    """Topic files an earlier export wrote that no exported entry has now."""
    wanted = set(keep)
    try:
        return sorted(p for p in folder.glob(f"{TOPIC_PREFIX}*.md") if p.name not in wanted and not p.is_symlink())
    except OSError:
        return []
