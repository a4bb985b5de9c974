"""``git memory scan``: secrets added to memory files over a commit range or the whole history.

For CI, where hooks may have been skipped (``--no-verify``, a web edit, a tool that never ran
them). Each commit is compared with its parents and only the lines it added are scanned, so a
leak is reported once, at the commit that introduced it, even after a later commit removed it:
the value is still in the history and must be rotated. Works in bare repositories.

Which commits:
- ``--range A..B``: commits reachable from B and not from A (``git log A..B``). ``A...B`` is
  read as ``git diff A...B`` reads it, B's side since the merge base, which is the same set.
- ``--all``: every commit reachable from HEAD or from any ref (``git rev-list --all``).
- neither: the pre-push range pre-commit exports (``PRE_COMMIT_FROM_REF``..``PRE_COMMIT_TO_REF``)
  when set, else the CI event's range (a pull request's or a push's commits, see ``ci_range``),
  else ``--all``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.check import driver
from chord_git.check.report import emit, push_advice, rule_advice
from chord_git.errors import InputError
from chord_git.findings import Finding
from chord_git.support.escape import printable
from chord_git.ui import Output

if TYPE_CHECKING:
    from chord_git.check.memory_diff import Row


def default_range(env: Mapping[str, str]) -> str | None:
    """The range a pre-push hook run by pre-commit is about, or None (the whole history)."""
    old, new = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    if old and new:
        return f"{old}..{new}"
    return None


def choose_range(start: Path, out: Output, env: Mapping[str, str]) -> str | None:
    """Neither ``--range`` nor ``--all``: the pre-push range, else the CI event's, else None."""
    pushed = default_range(env)
    if pushed is not None:
        return pushed
    from chord_git.check import ci_range
    from chord_git.git import libgit2

    event = ci_range.event_range(env, lambda rev: libgit2.commit_exists(start, rev))
    if event is None:
        return None
    out.note(f"scanning {event.why}" + (f" ({event.spec})" if event.spec else ""))
    return event.spec


def scan(start: Path, out: Output, *, range_spec: str | None = None, all_history: bool = False,
         fmt: str = "text", env: Mapping[str, str] | None = None, output: Path | None = None,
         quiet: bool = False, summary: Path | None = None, annotate: bool = False,
         fail_on_assistant: bool = False, fail_on_unreviewed: bool = False, summary_rows: int | None = None,
         fail_on_stale: bool = False) -> int:
    if range_spec is None and not all_history:
        range_spec = choose_range(start, out, os.environ if env is None else env)
    progress = out.progress if not quiet and out.on_terminal() else None
    result = driver.history(start, range_spec, progress=progress)
    findings = list(result.findings)
    # The work tree's ignore file applies; a bare mirror has none, and its top is the place to add one.
    from chord_git.config import ci_detected

    in_ci = ci_detected(os.environ if env is None else env)
    # In CI the commits are pushed already (a pull request's, a push's): the advice says so.
    advice = push_advice(findings, ignore_file=".chord/secrets-ignore at the top of the work tree",
                         show_hashes=not in_ci, published=in_ci)
    if findings:  # what `git memory ignore --last` accepts after a blocked push
        driver.record_blocked(start, findings)
    advice += rule_advice(findings)
    emit(out, findings, fmt, checked=result.count, noun=result.noun, output=output, advice=advice)
    for note in result.notes:  # the range's own policy changes: named, never applied to it
        if fmt == "text" and output is None:
            out.line(f"policy: {printable(note)}")
        else:
            out.note(printable(note))
    failed = bool(result.findings)
    if summary is not None or annotate or fail_on_assistant or fail_on_unreviewed:
        gates = (fail_on_assistant, fail_on_unreviewed)
        failed = _review(start, out, range_spec, findings, result.notes, summary, annotate, gates,
                         summary_rows) or failed
    if range_spec is not None:
        failed = _stale(start, out, range_spec, fmt == "text" and output is None, summary, fail_on_stale) or failed
    return 1 if failed else 0


def _stale(start: Path, out: Output, range_spec: str, as_text: bool, summary: Path | None, gate: bool) -> bool:
    """The entries the range makes false (``check.memory_staleness``): listed with their fixes, a
    section of the job summary, and with the gate a failure. True when the gate fails."""
    from chord_git.check import memory_promoted, memory_staleness
    from chord_git.git import libgit2

    head = libgit2.commit_id(start, libgit2.split_range(range_spec)[1])
    base = libgit2.change_base(start, range_spec)
    found = memory_staleness.find(start, base, head, range_spec)
    promoted = memory_promoted.find(start, base, head)
    for line in [*memory_staleness.lines(found), *memory_promoted.lines(promoted)]:
        if as_text:
            out.line(printable(line))
        else:
            out.note(printable(line))
    if summary is not None and (found or promoted):
        try:
            with summary.open("a", encoding="utf-8") as stream:
                stream.write(memory_staleness.markdown(found) + memory_promoted.markdown(promoted))
        except OSError as exc:
            raise InputError(summary, None, f"cannot write the memory review: {exc.strerror or exc}") from None
    if gate and found:
        out.stderr.write(f"{_entries(len(found))} this range makes stale (fail-on-stale-memory): "
                         + printable(", ".join(hit.rid for hit in found)) + "\n")
        return True
    return False


def _review(start: Path, out: Output, range_spec: str | None, findings: list[Finding], notes: tuple[str, ...],
            summary: Path | None, annotate: bool, gates: tuple[bool, bool], summary_rows: int | None = None) -> bool:
    """The range's memory, for review in the pull request; True when a gate fails it."""
    from chord_git.check import memory_review
    from chord_git.git import libgit2

    if range_spec is None:
        out.note("the memory review needs a range (--range A..B or a CI event); none was written")
        return False
    head = libgit2.commit_id(start, libgit2.split_range(range_spec)[1])
    # Rows measure what the range changes since it left BASE; the budget is BASE's policy.
    budget = memory_review.base_budget(start, libgit2.range_base(start, range_spec))
    base = libgit2.change_base(start, range_spec)
    review = memory_review.build(start, base, head, findings, budget=budget)
    if summary is not None:
        tokens = (memory_review.injected_tokens(start, base, budget), memory_review.injected_tokens(start, head, budget))
        try:  # appended: the job summary file collects every step's text
            with summary.open("a", encoding="utf-8") as stream:
                stream.write(memory_review.markdown(review, notes, memory_review.ROW_LIMIT if summary_rows is None
                                                    else summary_rows, tokens))
        except OSError as exc:
            raise InputError(summary, None, f"cannot write the memory review: {exc.strerror or exc}") from None
    if annotate:
        for line in memory_review.warnings(review):
            out.line(line)
    fail_on_assistant, fail_on_unreviewed = gates
    failed = False
    assistant = review.assistant_added if fail_on_assistant else ()
    if assistant:
        out.stderr.write(f"{_entries(len(assistant))} added by the assistant need a person's approval "
                         "(fail-on-assistant-entries): " + ", ".join(_name(item.row) for item in assistant) + "\n")
        failed = True
    unreviewed = review.unreviewed if fail_on_unreviewed else ()
    if unreviewed:
        out.stderr.write(f"{len(unreviewed)} memory change{'s need' if len(unreviewed) != 1 else ' needs'} a person's "
                         "approval (fail-on-unreviewed-memory): "
                         + ", ".join(f"{_name(item.row)} ({item.why_unreviewed()})" for item in unreviewed) + "\n")
        failed = True
    return failed


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def _name(row: Row) -> str:
    return row.rid if row.rid is not None else f"{row.change} in {printable(row.path)}"
