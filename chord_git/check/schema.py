"""The format rules of memory files: index syntax, record schema and caps (R3, R24, R32).

Pure over (project-relative path, bytes), so the same rules run on working-tree files, staged
blobs and commits. Each function returns the file's problems; the driver places them.
"""
from __future__ import annotations

from chord_git.findings import Problem
from chord_git.memory import index_file, pending, records
from chord_git.memory.pending import PENDING_DIR
from chord_git.memory.project import MEMORY_FILE, PROMOTIONS_DIR, RECORDS_DIR
from chord_git.memory.textrules import absolute_paths


def memory_kind(rel: str) -> str | None:
    """What a project-relative path is to us: index, record, promotion, or None (not ours)."""
    if rel == MEMORY_FILE:
        return "index"
    if rel.startswith(RECORDS_DIR + "/"):
        return "record"
    if rel.startswith(PROMOTIONS_DIR + "/"):
        return "promotion"
    if rel.startswith(PENDING_DIR + "/"):
        return "pending"
    return None


def check_index(data: bytes, parsed: tuple[index_file.MemoryDoc | None, list[Problem]] | None = None) -> list[Problem]:
    """The index's format problems; ``parsed``: ``index_file.parse_bytes(data)``, when at hand."""
    doc, problems = parsed if parsed is not None else index_file.parse_bytes(data)
    problems = list(problems)  # a parse handed in is not changed
    if doc is None:
        return problems
    for entry in doc.entries:
        if len(entry.summary) > records.SUMMARY_CAP:
            problems.append(Problem(entry.line, "cap", f"index entry {entry.id}: summary has {len(entry.summary)} characters (cap {records.SUMMARY_CAP})"))
        if absolute_paths(entry.summary):
            problems.append(Problem(entry.line, "absolute-path",
                                    f"index entry {entry.id} names an absolute path (memory uses project-relative paths)"))
    return problems


def _file_name(rel: str, folder: str, what: str) -> str | Problem:
    """The id a file directly inside ``folder`` is named after, or why its name is wrong."""
    name = rel[len(folder) + 1:]
    if "/" in name:
        return Problem(None, "layout", f"{what}s must sit directly in {folder}/")
    if not name.endswith(".md"):
        return Problem(None, "layout", f"unexpected file in {folder}/ ({what}s are <id>.md)")
    if not records.valid_id(name[:-3]):
        return Problem(None, "id", f"file name {name!r} is not a valid {what} id")
    return name[:-3]


def check_record(rel: str, data: bytes) -> list[Problem]:
    rid = _file_name(rel, RECORDS_DIR, "record")
    if isinstance(rid, Problem):
        return [rid]
    if len(data) <= records.MAX_RECORD_BYTES:
        text = frontmatter_text(data)
        if text is not None:  # the common case: text within the cap, its front matter read once
            return records.check_text(text, expected_id=rid)
    _record, problems = records.from_bytes(data, expected_id=rid)
    text = frontmatter_text(data)
    return problems + (records.empty_sections(text) if text is not None else [])


def frontmatter_text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return None


def check_promotion(rel: str, data: bytes) -> list[Problem]:
    """A promotion suggestion (R29): front matter, the target-path rule, caps, no absolute paths."""
    pid = _file_name(rel, PROMOTIONS_DIR, "promotion")
    if isinstance(pid, Problem):
        return [pid]
    from chord_git.memory import promotions  # rarely staged: kept off the hook's start-up

    return promotions.from_bytes(data, expected_id=pid)[1]


def check_pending(rel: str, data: bytes) -> list[Problem]:
    """A pending entry (R33): its header and one index line, named after its record; or a pending
    removal, one header line named after the entry it removes."""
    removed = pending.removal_id(rel[len(PENDING_DIR) + 1:])
    rid = removed if removed is not None else _file_name(rel, PENDING_DIR, "pending entry")
    if isinstance(rid, Problem):
        return [rid]
    what = "removal file" if removed is not None else "pending entry file"
    if len(data) > pending.MAX_PENDING_BYTES:
        return [Problem(None, "cap", f"{what} is over {pending.MAX_PENDING_BYTES} bytes")]
    text = frontmatter_text(data)
    if text is None:
        return [Problem(None, "encoding", "not valid UTF-8")]
    if removed is not None:
        parsed_removal = pending.parse_removal(text, removed)
        return [parsed_removal] if isinstance(parsed_removal, Problem) else []
    parsed = pending.parse(text, rid)
    if isinstance(parsed, Problem):
        return [parsed]
    entry = parsed.entry
    if len(entry.summary) > records.SUMMARY_CAP:
        return [Problem(2, "cap", f"index entry {entry.id}: summary has {len(entry.summary)} characters (cap {records.SUMMARY_CAP})")]
    if absolute_paths(entry.summary):
        return [Problem(2, "absolute-path", f"index entry {entry.id} names an absolute path (memory uses project-relative paths)")]
    return []


def check_blob(rel: str, data: bytes, parsed: tuple[index_file.MemoryDoc | None, list[Problem]] | None = None) -> list[Problem]:
    """The format problems of a memory file; ``parsed``: the index's parse, when at hand."""
    kind = memory_kind(rel)
    if kind == "index":
        return check_index(data, parsed)
    if kind == "record":
        return check_record(rel, data)
    if kind == "promotion":
        return check_promotion(rel, data)
    if kind == "pending":
        return check_pending(rel, data)
    return []
