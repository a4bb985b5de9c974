"""Memory a range promotes by hand: entries whose text the range adds to AGENTS.md or the docs
(issue 36, ``review.promoted``). The scan reports them as already promoted: after the merge,
``git memory fold`` on the default branch takes their index lines out (the records stay).

Only entries sharing words with the lines the range added there are judged (an entry can only
become promoted through added text), so a large memory costs a word lookup an entry.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from chord_git.memory import index_file, project_docs, records
from chord_git.memory.project import RECORDS_DIR
from chord_git.review import promoted

_WORD = re.compile(r"[^\W_]{3,}")
# Words an entry must share with the added lines before it is judged.
SHARED_WORDS = 2


def _watched(path: str) -> bool:
    return path == project_docs.AGENTS_FILE or project_docs.is_doc(path)


def _text(data: bytes | None) -> str:
    return "" if data is None else data[:project_docs.AGENTS_READ_LIMIT].decode("utf-8", "replace")


def find(start: Path, base: str, head: str) -> list[tuple[str, str]]:
    """(entry id, where) of HEAD's entries the range promoted: standing in AGENTS.md or the docs at
    HEAD, not at BASE."""
    from chord_git.check import memory_diff
    from chord_git.git import libgit2

    changed = libgit2.tree_changes(start, base, head, _watched)
    if not changed:
        return []
    added: set[str] = set()
    for change in changed:
        old, new = _text(change.old).split("\n"), _text(change.new).split("\n")
        for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag in ("replace", "insert"):
                added.update(word.lower() for line in new[j1:j2] for word in _WORD.findall(line))
    entries = memory_diff.side(start, head, "").entries
    candidates = [e for e in entries if len({w.lower() for w in _WORD.findall(e.summary)} & added) >= SHARED_WORDS]
    if not candidates:
        return []
    return _judged(start, base, head, candidates)


def _judged(start: Path, base: str, head: str, candidates: list[index_file.Entry]) -> list[tuple[str, str]]:
    from chord_git.git import libgit2

    def standing_at(rev: str) -> promoted.Standing:
        docs = libgit2.tree_files(start, rev, project_docs.is_doc, project_docs.DOCS_MAX_FILES)
        found = libgit2.files_at(start, rev, [project_docs.AGENTS_FILE, *docs])
        return promoted.standing(_text(found.get(project_docs.AGENTS_FILE)) or None,
                                 [_text(found[path]) for path in docs if path in found])

    after, before = standing_at(head), standing_at(base)
    blobs = libgit2.files_at(start, head, [f"{RECORDS_DIR}/{entry.id}.md" for entry in candidates])
    out = []
    for entry in candidates:
        blob = blobs.get(f"{RECORDS_DIR}/{entry.id}.md")
        record = records.from_bytes(blob, entry.id)[0] if blob is not None else None
        texts = (record.statement, record.summary) if record is not None else (entry.summary,)
        place = promoted.where(texts, after)
        if place is not None and promoted.where(texts, before) is None:
            out.append((entry.id, place))
    return out


def lines(found: list[tuple[str, str]]) -> list[str]:
    return [f"promoted memory: {rid}: its text now stands in {place}; after the merge, git memory fold "
            "takes its index line out (the record stays)" for rid, place in found]


def markdown(found: list[tuple[str, str]]) -> str:
    """The job summary's section (pure)."""
    from chord_git.support.escape import markdown_text

    if not found:
        return ""
    rows = [f"| {markdown_text(rid, 80)} | {markdown_text(place, 40)} |" for rid, place in found]
    return "\n".join(["", f"### Memory this range promotes by hand ({len(found)})", "",
                      "Their text now stands in AGENTS.md or the docs: after the merge, `git memory fold` takes "
                      "their index lines out (the records stay).", "", "| Entry | Now in |", "|---|---|", *rows]) + "\n"
