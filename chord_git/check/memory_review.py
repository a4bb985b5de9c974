"""The memory a range changes, for review in the pull request itself.

``scan --range BASE..HEAD --summary FILE`` appends a Markdown report to FILE (the GitHub Action
passes ``$GITHUB_STEP_SUMMARY``; the GitLab template keeps the file as a report artifact): one row
per change to what an agent is told (``memory_diff``: entries added, revised, edited in place,
forgotten, moved into or out of the budget, reordered; records changed; text outside the section;
any other memory file), with its before and after text (secrets redacted, cut to a bound), who
committed it (from git, not from the file), and what the secret scan and the memory rules found.

What a pull request writes is its author's claim: a record's ``source: user`` or ``session`` is
shown as what the record says, next to the commit's author. ``--annotate`` prints one GitHub
annotation per change a person should look at; ``--fail-on-unreviewed-memory`` fails the scan
on those (hand-written or edited memory, and what nobody confirmed); ``--fail-on-assistant-entries``
only on added entries the assistant concluded.

Every text a pull request controls is escaped for the place it goes (``support.escape``): a code
span in Markdown (no HTML, link or image is live), escaped properties in workflow commands.
Everything is read from the two commits' trees (pygit2): the working tree plays no part.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from chord_git.check import memory_diff, memory_rules
from chord_git.check.changes import CONFIG_FILE
from chord_git.check.memory_diff import (ADDED, EDITED, FILE, FORGOTTEN, INTO_BUDGET, OUT_OF_BUDGET,
                                         REORDERED, REVISES, Row)
from chord_git.findings import Finding
from chord_git.support.dataclass_lazy import dataclass
from chord_git.support.escape import markdown_text, workflow_message, workflow_property

TEXT_LIMIT = 240  # characters of a before/after text shown in a cell
# Rows of the table: GitHub keeps at most 1 MiB of a step's summary, and a row can take ~3 KB.
# The rows a person must approve come first, so a cut leaves out only what needs no decision.
ROW_LIMIT = 300


@dataclass(frozen=True)
class Item:
    """A row with what the review knows around it."""

    row: Row
    author: str | None  # "Name (email)" of the newest commit of the range that wrote it
    commit: str | None
    secrets: tuple[str, ...]  # "<kind> at line N" found in the row's files by the secret scan
    rules: tuple[str, ...]  # "<reason> at line N": what the memory rules refused there

    @property
    def hand_written(self) -> bool:
        """Not shaped as extraction output: an edit in place, a move, prose, another file, or a
        new record that names no extraction session."""
        return self.row.adds_text and not self.row.extracted

    @property
    def unreviewed(self) -> bool:
        """What ``--fail-on-unreviewed-memory`` stops: a person should approve it first."""
        return self.row.adds_text and (self.hand_written or self.row.unconfirmed or bool(self.rules))

    def why_unreviewed(self) -> str:
        if self.rules:
            return "a memory rule refuses it"
        if self.row.change in (ADDED, REVISES) and self.row.assistant:
            return "the assistant concluded it"
        if self.hand_written:
            return "hand-written or edited in this range"
        return "nobody confirmed it"

    def written(self) -> str:
        who = f"{self.author} in {self.commit[:12]}" if self.author and self.commit else "unknown commit"
        record = self.row.record
        if self.row.extracted and record is not None:
            return f"extraction output (the record names session {record.session}), committed by {who}"
        verb = "forgotten" if self.row.change == FORGOTTEN else "written"
        return f"{verb} in this range by {who}"


@dataclass(frozen=True)
class Review:
    base: str
    head: str
    items: tuple[Item, ...]

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(item.row for item in self.items)

    @property
    def assistant_added(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.row.assistant)

    @property
    def unreviewed(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.unreviewed)


def _places(findings: Sequence[Finding], secret: bool) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in findings:
        if (finding.is_secret if secret else finding.is_memory_rule):
            label = finding.kind if secret else memory_rules.reason(finding)
            where = f"at line {finding.line}" if finding.line is not None else "in the file name"
            found.setdefault(finding.path, []).append(f"{label} {where}")
    return {path: list(dict.fromkeys(labels)) for path, labels in found.items()}


def build(start: Path, base: str, head: str, findings: Sequence[Finding], *, uri_prefix: str = "",
          budget: int | None = None) -> Review:
    """The review of ``base..head``: its rows, who wrote each, and the findings in its files.

    ``findings`` name project-relative paths under ``uri_prefix`` (the scan's); rows name
    repository paths."""
    from chord_git.check import changes
    from chord_git.git import libgit2

    tree = libgit2.tree_changes(start, base, head, changes.is_checked_path)
    grouped = memory_diff.prefixes([change.path for change in tree])
    budget = budget if budget is not None else base_budget(start, base)
    rows: list[Row] = []
    for prefix in sorted(grouped):
        before = memory_diff.side(start, base, prefix)
        after = memory_diff.side(start, head, prefix)
        ids = memory_diff.needed_records(before, after, grouped[prefix])
        before = memory_diff.with_records(start, base, prefix, before, ids)
        after = memory_diff.with_records(start, head, prefix, after, ids)
        rows += memory_diff.rows(prefix, before, after, grouped[prefix], budget)
    touches = libgit2.last_touches(start, f"{base}..{head}", sorted({p for row in rows for p in row.touched}))
    secrets = _places(findings, secret=True)
    rules = _places(findings, secret=False)
    items = []
    for row in rows:
        touch = next((touches[p] for p in row.touched if p in touches), None)
        rel = row.path[len(uri_prefix):] if uri_prefix and row.path.startswith(uri_prefix) else row.path
        items.append(Item(row, touch.author if touch else None, touch.commit if touch else None,
                          tuple(secrets.get(rel, ())) if row.adds_text else (),
                          tuple(rules.get(rel, ())) if row.adds_text else ()))
    return Review(base, head, tuple(items))


def injected_tokens(start: Path, rev: str, budget: int) -> int:
    """Tokens of the index lines a session start at ``rev`` injects within ``budget`` (an estimate,
    ``memory.ledger``): what every session of the project pays for memory at that commit."""
    from chord_git.memory import index_file, ledger

    # As a reader sees it: the index with the pending entries folded in and the removals gone.
    lines = [entry.render() for entry in memory_diff.side(start, rev, "").entries]
    return ledger.estimate_tokens("\n".join(lines[:index_file.fit_count(lines, budget)]))


def base_budget(start: Path, base: str) -> int:
    """The summary budget BASE's project config sets (the range cannot move its own line)."""
    from chord_git import config
    from chord_git.errors import ConfigError
    from chord_git.git import libgit2

    data = libgit2.file_at(start, base, CONFIG_FILE)
    try:
        return config.build(config.parse_bytes(CONFIG_FILE, data)).memory.summary_budget \
            if data is not None else config.MemoryConfig().summary_budget
    except ConfigError:
        return config.MemoryConfig().summary_budget


def _change(row: Row) -> str:
    if row.change == REVISES and row.supersedes:
        return f"revises {markdown_text(row.supersedes)}"
    return row.change


def markdown(review: Review, notes: Sequence[str] = (), row_limit: int = ROW_LIMIT,
             tokens: tuple[int, int] | None = None) -> str:
    """The job summary (pure but for the redaction rules). Every cell holding text from the range
    is an inert code span (``markdown_text``)."""
    from chord_git.secrets import redact

    def text(value: str | None) -> str:
        return markdown_text(redact(value or ""), TEXT_LIMIT)

    counts = {change: 0 for change in (ADDED, REVISES, EDITED, FORGOTTEN)}
    moved = other = 0
    for row in review.rows:
        if row.change in counts:
            counts[row.change] += 1
        elif row.change in (INTO_BUDGET, OUT_OF_BUDGET, REORDERED):
            moved += 1
        else:
            other += 1
    lines = [f"## Project memory in {review.base[:12]}..{review.head[:12]}", ""]
    if not review.items:
        lines.append("This range changes no memory file.")
    else:
        lines += [f"{counts[ADDED]} added, {counts[REVISES]} revised (superseding an entry), {counts[EDITED]} edited "
                  f"in place, {counts[FORGOTTEN]} forgotten, {moved} moved in or out of the injected budget or "
                  f"reordered, {other} other changes; {len(review.assistant_added)} added by the assistant, "
                  f"{len(review.unreviewed)} for a person to approve.", "",
                  "What a range writes is its author's claim: Source and Status are what the record says.", "",
                  "| Change | Entry | Type | Source | Status | Evidence | Before | After | Written | Findings |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        ordered = [item for item in review.items if item.unreviewed or item.secrets] + \
                  [item for item in review.items if not (item.unreviewed or item.secrets)]
        shown = ordered[:row_limit] if row_limit > 0 else ordered
        for item in shown:
            row, record = item.row, item.row.record
            evidence = text(record.evidence) if record is not None and record.evidence else "—"
            found = list(item.secrets) + list(item.rules)
            verdict = "n/a" if not row.adds_text else ("**" + markdown_text("; ".join(found)) + "**" if found
                                                       else "none found")
            lines.append("| " + " | ".join([
                _change(row), f"{text(row.summary)} ({text(row.path)})",
                text(row.type or "—"), text(record.source if record else "unknown"),
                text(record.status if record else "unknown"), evidence, text(row.before), text(row.after),
                text(item.written()), verdict]) + " |")
        if len(shown) < len(ordered):
            hidden = ordered[len(shown):]
            approve = sum(1 for item in hidden if item.unreviewed)
            lines += ["", f"{len(hidden)} more rows ({approve} of them for a person to approve) are not shown: "
                          f"`git memory scan --range {review.base}..{review.head} --summary FILE --summary-rows 0` "
                          "writes them all to FILE."]
    if tokens is not None and tokens[0] != tokens[1]:
        before, after = tokens
        lines += ["", f"This range changes every session's memory by {after - before:+d} tokens (the index a "
                      f"session start injects: about {before} tokens before, {after} after)."]
    if notes:
        lines += ["", "Policy changes in this range (they apply after merge, not to this range):", ""]
        lines += [f"- {markdown_text(note)}" for note in notes]
    return "\n".join(lines) + "\n"


def warnings(review: Review) -> list[str]:
    """GitHub workflow commands: one warning per change a person should approve, on its file."""
    from chord_git.secrets import redact

    out = []
    for item in review.unreviewed:
        row = item.row
        label = row.summary if row.rid is not None else "a memory file changed" if row.change == FILE else row.change
        message = f"{redact(label)} ({row.change}: {item.why_unreviewed()}; confirm it before it is shared)"
        out.append(f"::warning file={workflow_property(row.path)},line=1,"
                   f"title={workflow_property('Unreviewed memory')}::{workflow_message(message)}")
    return out
