"""The injection manifest: what each session start injected, and what it left out and why.

"The agent ignored my memory" has two causes that look alike from outside: the entry reached the
model and was not applied, or it never reached the model (over the budget, a record over its caps,
unreadable, not checked in time, a broken index line, or under ``memory.inject: reviewed`` not
reviewed yet: the base branch does not hold it, ``recall_gate``). Each SessionStart writes a small
JSON file saying which; ``git memory why`` reads the newest one and compares it with the index as
it is now.

The files live in the state dir (``injections/``), never in the working tree, and are bounded:
at most ``KEEP`` files, each listing at most ``SKIPPED_CAP`` left-out lines. Writing one costs the
hook a JSON dump and a rename (no fsync: a lost manifest only means ``why`` shows an older start).
Building the record from a ``Summary`` and explaining it are pure functions.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from chord_git.memory.summary import Summary

DIR_NAME = "injections"
KEEP = 20  # session starts remembered (one file each)
SKIPPED_CAP = 50  # left-out lines listed per start; the rest are only counted
WARNING_CAP = 10
VERSION = 1

# Left-out reasons as ``why`` groups them.
OVER_BUDGET = "over budget"
OVER_CAPS = "over caps"
UNLOADABLE = "unloadable"
NOT_CHECKED = "not checked in time"
INVALID = "invalid index line"
NOT_REVIEWED = "not reviewed"  # memory.inject: reviewed, and the base branch does not hold it
REASONS = (OVER_BUDGET, OVER_CAPS, UNLOADABLE, NOT_CHECKED, INVALID, NOT_REVIEWED)


def classify(record_id: str | None, why: str) -> str:
    """The group of one left-out line (``loadable``, ``index_stream`` and ``recall_gate`` word the
    reasons)."""
    from chord_git.memory.loadable import NOT_CHECKED as LOADER_NOT_CHECKED
    from chord_git.memory.recall_gate import is_gate_reason

    if record_id is None or why.startswith("already listed"):
        return INVALID
    if is_gate_reason(why):
        return NOT_REVIEWED
    if why == LOADER_NOT_CHECKED:
        return NOT_CHECKED
    if "(cap " in why:
        return OVER_CAPS
    return UNLOADABLE


def build(summary: Summary, *, host: str, session: str, source: str | None, budget: int,
          problems: list[str], elapsed_ms: float, now: float | None = None) -> dict[str, Any]:
    """The manifest of one session start (pure)."""
    skipped = [{"line": line, "id": rid, "reason": why, "kind": classify(rid, why)}
               for line, rid, why in summary.skipped]
    return {
        "version": VERSION,
        "at": time.time() if now is None else now,
        "host": host,
        "session": session,
        "source": source,
        "budget": budget,
        "chars": len(summary.text),
        "loaded": summary.loaded,
        "managed": summary.managed,
        "shown": list(summary.shown_ids),
        "stale": [[rid, anchor] for rid, anchor in summary.stale],
        "skipped": skipped[:SKIPPED_CAP],
        "skipped_more": max(len(skipped) - SKIPPED_CAP, 0),
        "cut": {"line": summary.cut[0], "id": summary.cut[1]} if summary.cut else None,
        "truncated": summary.truncated,
        "warnings": [w for w in summary.warnings if not _about_a_line(w)][:WARNING_CAP],
        "problems": problems[:WARNING_CAP],
        "elapsed_ms": round(elapsed_ms, 1),
        "inject": summary.inject,
        "base": summary.base,
        "base_commit": summary.base_commit,
    }


def _about_a_line(warning: str) -> bool:
    """Warnings about one skipped line are already in ``skipped``."""
    head = warning.split(": ", 2)
    return len(head) > 1 and head[0].rpartition(":")[2].isdigit() and head[1].startswith("skipped")


def write(state_dir: Path, manifest: dict[str, Any]) -> Path:
    """Write one manifest atomically (temp file + rename) and drop all but the newest ``KEEP``."""
    folder = state_dir / DIR_NAME
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns():020d}-{os.getpid()}.json"
    tmp = folder / f".{name}.tmp"
    tmp.write_text(json.dumps(manifest, ensure_ascii=False), "utf-8")
    os.replace(tmp, folder / name)
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    for old in names[:-KEEP]:
        try:
            os.unlink(folder / old)
        except FileNotFoundError:
            pass  # another session start pruned it first
    return folder / name


def read_all(state_dir: Path) -> list[dict[str, Any]]:
    """The manifests kept, newest first; damaged files are passed over."""
    from chord_git.memory.atomic import read_state_json

    folder = state_dir / DIR_NAME
    try:
        names = sorted((n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith(".")),
                       reverse=True)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for name in names:
        try:
            data = read_state_json(folder / name)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("version") == VERSION:
            found.append(data)
    return found


def latest(state_dir: Path, session: str | None = None) -> dict[str, Any] | None:
    """The newest manifest, or the newest of ``session`` (an id or a unique prefix of one)."""
    for manifest in read_all(state_dir):
        if session is None or str(manifest.get("session", "")).startswith(session):
            return manifest
    return None


def explain(manifest: dict[str, Any], index_ids: list[str] | None) -> dict[str, Any]:
    """Every entry of the index as it is now, against the manifest (pure).

    ``index_ids``: the current index in order (None when it cannot be read). An entry shown then
    is ``injected``; one listed as skipped keeps its reason; one at or below the first entry over
    the budget is ``over budget``; anything else joined the index after that start (it reaches the
    next one). Entries shown then and gone now are ``removed since``.
    """
    shown = [str(rid) for rid in manifest.get("shown", [])]
    skipped: dict[str, dict[str, Any]] = {}  # an entry's verdict (its first line; a repeat is an invalid line)
    cut = manifest.get("cut") or None
    left_out: dict[str, list[dict[str, Any]]] = {reason: [] for reason in REASONS}
    for item in manifest.get("skipped", []):
        if item.get("kind") == INVALID or not item.get("id"):
            left_out[INVALID].append({"id": item.get("id"), "line": item.get("line"), "reason": item.get("reason")})
        else:
            skipped.setdefault(str(item["id"]), item)
    added: list[str] = []
    if index_ids is not None:
        shown_set = set(shown)
        below_cut = False
        for rid in index_ids:
            if cut is not None and rid == cut.get("id"):
                below_cut = True
            if rid in shown_set:
                continue
            if rid in skipped:
                item = skipped[rid]
                left_out[str(item.get("kind", UNLOADABLE))].append(
                    {"id": rid, "line": item.get("line"), "reason": item.get("reason")})
            elif below_cut:
                left_out[OVER_BUDGET].append(
                    {"id": rid, "line": None, "reason": f"past the budget ({manifest.get('budget')} characters)"})
            else:
                added.append(rid)
    else:
        for rid, item in skipped.items():
            left_out[str(item.get("kind", UNLOADABLE))].append(
                {"id": rid, "line": item.get("line"), "reason": item.get("reason")})
        if cut is not None:
            left_out[OVER_BUDGET].append({"id": cut.get("id"), "line": cut.get("line"),
                                          "reason": "first entry over the budget; all below it too"})
    current = set(index_ids or [])
    start = {key: manifest.get(key) for key in
             ("host", "session", "source", "budget", "chars", "loaded", "managed", "truncated", "elapsed_ms",
              "base", "base_commit")}
    start["inject"] = manifest.get("inject") or "all"  # manifests from before memory.inject recalled all
    at = manifest.get("at")
    start["at"] = (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(float(at)))
                   if isinstance(at, (int, float)) else None)
    stale = [{"id": str(item[0]), "anchor": str(item[1])} for item in manifest.get("stale", [])
             if isinstance(item, list) and len(item) == 2]
    return {
        "session_start": start,
        "injected": shown,
        "labelled_stale": stale,
        "left_out": {reason: items for reason, items in left_out.items() if items},
        "left_out_unlisted": int(manifest.get("skipped_more", 0)),
        "added_since": added,
        "removed_since": [rid for rid in shown if index_ids is not None and rid not in current],
        "warnings": list(manifest.get("warnings", [])) + list(manifest.get("problems", [])),
    }


def render(report: dict[str, Any], summaries: dict[str, str] | None = None) -> list[str]:
    """``why``'s text (pure); ``summaries``: the current index's, shown beside the injected ids."""
    summaries = summaries or {}
    start = report["session_start"]
    when = str(start.get("at") or "unknown time").replace("T", " ").replace("Z", " UTC")
    source = f" ({start['source']})" if start.get("source") else ""
    lines = [f"last session start: {when}, {start.get('host')} session {start.get('session')}{source}"]
    if start.get("inject") == "reviewed":
        base = start.get("base")
        lines.append(f"memory.inject: reviewed (base: {base})" if base and start.get("base_commit")
                     else "memory.inject: reviewed (no base branch found)")
    injected = report["injected"]
    if not start.get("loaded"):
        lines.append("injected: no memory (nothing loadable in MEMORY.md)")
    elif not start.get("managed"):
        lines.append(f"injected: MEMORY.md as plain text (no markers), {start.get('chars')} characters")
    else:
        lines.append(f"injected: {len(injected)} {'entry' if len(injected) == 1 else 'entries'}, "
                     f"{start.get('chars')} characters in all (budget {start.get('budget')} for memory content)")
        lines.extend(f"  {rid}  {summaries[rid]}" if rid in summaries else f"  {rid}" for rid in injected)
    if report.get("labelled_stale"):
        lines.append("labelled stale (what the entry names is not in the working tree; git memory audit checks all):")
        lines.extend(f"  {item['id']}: {item['anchor']} not found" for item in report["labelled_stale"])
    left_out = report["left_out"]
    if left_out:
        lines.append("left out:")
        for reason, items in left_out.items():
            lines.append(f"  {reason}: {len(items)}")
            for item in items[:SKIPPED_CAP]:
                where = f"line {item['line']}" if item.get("line") else ""
                name = item.get("id") or where
                detail = f" ({where})" if item.get("id") and where else ""
                lines.append(f"    {name}{detail}: {item.get('reason')}")
            if len(items) > SKIPPED_CAP:
                lines.append(f"    … and {len(items) - SKIPPED_CAP} more")
    else:
        lines.append("left out: nothing")
    if report["left_out_unlisted"]:
        lines.append(f"  and {report['left_out_unlisted']} more left-out lines not recorded")
    if report["added_since"]:
        lines.append(f"added to the index since: {len(report['added_since'])} (injected at the next session start)")
    if report["removed_since"]:
        lines.append(f"removed from the index since: {', '.join(report['removed_since'])}")
    lines.extend(f"warning: {w}" for w in report["warnings"])
    return lines
