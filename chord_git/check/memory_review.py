"""The memory a range adds, supersedes and forgets, for review in the pull request itself.

``scan --range BASE..HEAD --summary FILE`` appends a Markdown report to FILE (the GitHub Action
passes ``$GITHUB_STEP_SUMMARY``; the GitLab template keeps the file as a report artifact): one row
per entry the range adds (index line or pending entry), revises or forgets, with its type, source,
status, the user's words it quotes (secrets redacted), and what the secret scan found in its
record. ``--annotate`` prints one GitHub annotation per added entry the assistant concluded or
that nobody confirmed, on its record file, and ``--fail-on-assistant-entries`` fails the scan when
the range adds assistant-sourced entries, for teams that want a person to approve those.

Everything is read from the two commits' trees (pygit2): the working tree plays no part.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.findings import Finding
from chord_git.memory import index_file, pending, records
from chord_git.memory.project import MEMORY_FILE, RECORDS_DIR

_PENDING_NAME = re.compile(r"^([a-z0-9][a-z0-9-]{2,79})\.md$")


@dataclass(frozen=True)
class Row:
    change: str  # added | revises <id> | forgotten
    entry: index_file.Entry
    record: records.Record | None
    secrets: tuple[str, ...]  # "<kind> at line N" of the record's findings in the range

    @property
    def path(self) -> str:
        return f"{RECORDS_DIR}/{self.entry.id}.md"

    @property
    def unreviewed(self) -> bool:
        """Assistant-sourced or unverified: what a person should look at."""
        return self.record is None or self.record.source == "assistant" or self.record.status == "unverified"


@dataclass(frozen=True)
class Review:
    base: str
    head: str
    rows: tuple[Row, ...]

    @property
    def added(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.change != "forgotten")

    @property
    def assistant_added(self) -> tuple[Row, ...]:
        return tuple(row for row in self.added if row.record is None or row.record.source == "assistant")


def entries_at(start: Path, rev: str) -> tuple[index_file.Entry, ...]:
    """The index as readers see it in ``rev``: MEMORY.md with its pending entries folded in."""
    from chord_git.git import libgit2

    data = libgit2.file_at(start, rev, MEMORY_FILE)
    doc = index_file.parse_bytes(data)[0] if data is not None else None
    items: list[pending.Pending] = []
    hidden: list[str] = []
    for name in libgit2.list_dir(start, rev, pending.PENDING_DIR):
        removed = pending.removal_id(name)
        if removed is not None:
            blob = libgit2.file_at(start, rev, f"{pending.PENDING_DIR}/{name}")
            if blob is not None and isinstance(pending.parse_removal(blob.decode("utf-8", "replace"), removed),
                                               pending.Removal):
                hidden.append(removed)
            continue
        match = _PENDING_NAME.match(name)
        blob = libgit2.file_at(start, rev, f"{pending.PENDING_DIR}/{name}") if match else None
        if match is None or blob is None:
            continue
        parsed = pending.parse(blob.decode("utf-8", "replace"), match.group(1))
        if isinstance(parsed, pending.Pending):
            items.append(parsed)
    folded = pending.overlay(doc, pending.ordered(items), hidden)
    return folded.entries if folded is not None else ()


def _record(start: Path, rev: str, rid: str) -> records.Record | None:
    from chord_git.git import libgit2

    data = libgit2.file_at(start, rev, f"{RECORDS_DIR}/{rid}.md")
    return records.from_bytes(data, expected_id=rid)[0] if data is not None else None


def build(start: Path, base: str, head: str, findings: Sequence[Finding]) -> Review:
    before = entries_at(start, base)
    after = entries_at(start, head)
    had = {entry.id for entry in before}
    has = {entry.id for entry in after}
    secrets: dict[str, list[str]] = {}
    for finding in findings:
        if finding.is_secret:
            secrets.setdefault(finding.path, []).append(f"{finding.kind} at line {finding.line}")
    rows: list[Row] = []
    revised: set[str] = set()
    for entry in after:
        if entry.id in had:
            continue
        record = _record(start, head, entry.id)
        old = record.supersedes if record is not None else None
        change = f"revises {old}" if old and old in had and old not in has else "added"
        if change != "added" and old:
            revised.add(old)
        rows.append(Row(change, entry, record, tuple(secrets.get(f"{RECORDS_DIR}/{entry.id}.md", ()))))
    for entry in before:
        if entry.id not in has and entry.id not in revised:
            rows.append(Row("forgotten", entry, _record(start, base, entry.id), ()))
    return Review(base, head, tuple(rows))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|") or "—"


def markdown(review: Review, notes: Sequence[str] = ()) -> str:
    """The job summary (pure but for the redaction rules)."""
    from chord_git.secrets import redact

    added = sum(1 for row in review.rows if row.change == "added")
    revised = sum(1 for row in review.rows if row.change.startswith("revises"))
    forgotten = sum(1 for row in review.rows if row.change == "forgotten")
    lines = [f"## Project memory in {review.base[:12]}..{review.head[:12]}", ""]
    if not review.rows:
        lines.append("This range changes no memory entry.")
    else:
        lines += [f"{added} added, {revised} revised (superseding an entry), {forgotten} forgotten; "
                  f"{len(review.assistant_added)} added by the assistant.", "",
                  "| Change | Entry | Type | Source | Status | Evidence | Secrets in the record |",
                  "|---|---|---|---|---|---|---|"]
        for row in review.rows:
            record = row.record
            evidence = f'"{_cell(redact(record.evidence))}"' if record is not None and record.evidence else "—"
            verdict = "n/a" if row.change == "forgotten" else (
                "**" + _cell("; ".join(row.secrets)) + "**" if row.secrets else "none found")
            lines.append("| " + " | ".join([
                _cell(row.change.replace("revises ", "revises `") + ("`" if row.change.startswith("revises") else "")),
                f"{_cell(redact(row.entry.summary))} (`{row.path}`)",
                _cell(row.entry.type), _cell(record.source if record else "unknown"),
                _cell(record.status if record else "unknown"), evidence, verdict]) + " |")
    if notes:
        lines += ["", "Policy changes in this range (they apply after merge, not to this range):", ""]
        lines += [f"- {_cell(note)}" for note in notes]
    return "\n".join(lines) + "\n"


def warnings(review: Review) -> list[str]:
    """GitHub workflow commands: one warning per added entry a person should confirm."""
    from chord_git.secrets import redact

    out = []
    for row in review.added:
        if not row.unreviewed:
            continue
        who = "the assistant concluded it" if row.record is None or row.record.source == "assistant" \
            else "nobody confirmed it"
        message = f"{redact(row.entry.summary)} ({who}; unverified memory: confirm it before it is shared)"
        message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        out.append(f"::warning file={row.path},line=1,title=Unverified memory entry::{message}")
    return out
