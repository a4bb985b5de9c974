"""Whether an index entry may be loaded into a session (R24), reading only that entry's record.

A record whose summary or statement is over its cap, or that breaks any other rule, is never
loaded; an index line whose summary is over the cap neither. The summary asks this only for the
entries it is about to show, so the cost follows the budget, not the number of records. Verdicts
are cached in the state directory keyed by the record file's size, mtime and inode, so a session
start usually parses no YAML at all.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from chord_git.memory import atomic, paths
from chord_git.memory.project import RECORDS_DIR

CACHE_LIMIT = 4000  # verdicts kept; a summary shows a few dozen entries
# The verdict on a record not read because the caller's time was up: it is not loaded this time.
NOT_CHECKED = "not checked within the session start's time budget"


# An entry's standing, for the summary to show what the user said apart from what an assistant
# concluded (R20): from its record's source and status, read with the verdict.
SAID = "said"  # source user, stated or confirmed
CONCLUDED = "concluded"  # source assistant (always unverified), or a user record left unverified
UNKNOWN = "unknown"  # no readable record: a hand-written line, a dangling one


def why_not(root: Path, rid: str) -> str | None:
    """Why the record of ``rid`` must not be loaded, or None (also when it does not exist:
    a dangling line's summary is all there is to show, and ``check`` reports it)."""
    return judged(root, rid)[0]


def judged(root: Path, rid: str) -> tuple[str | None, str, str]:
    """``why_not``, the entry's standing (``SAID``, ``CONCLUDED``, ``UNKNOWN``) and its record's
    anchors as the front matter writes them (``memory.anchors``; "" for none)."""
    from chord_git.memory import records  # deferred: parsing front matter loads yaml
    from chord_git.memory.anchors import render

    try:
        data = paths.read_inside(root, root / RECORDS_DIR / f"{rid}.md", records.MAX_RECORD_BYTES)
    except FileNotFoundError:
        return None, UNKNOWN, ""
    except paths.UnsafePath as exc:
        return exc.message, UNKNOWN, ""
    except OSError as exc:
        return f"record unreadable: {exc.strerror}", UNKNOWN, ""
    if len(data) > records.MAX_RECORD_BYTES:
        return f"record file is over {records.MAX_RECORD_BYTES} bytes", UNKNOWN, ""
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return "record is not valid UTF-8", UNKNOWN, ""
    record, problems = records.parse(text, expected_id=rid)
    if record is not None:
        said = record.source == "user" and record.status in ("stated", "confirmed")
        return None, SAID if said else CONCLUDED, render(records.anchors_of(record))
    first = next((p for p in problems if p.kind == "cap"), problems[0])
    return (f"record {first.message}" if first.kind == "cap" else f"record not loadable: {first.message}"), UNKNOWN, ""


def _rules() -> str:
    """The caps a verdict was reached under: a cache from other caps is not used."""
    from chord_git.memory.records import MAX_RECORD_BYTES, STATEMENT_CAP, SUMMARY_CAP

    return f"{SUMMARY_CAP}/{STATEMENT_CAP}/{MAX_RECORD_BYTES}/standing/anchors"


class Verdicts:
    """``why_not`` with a cache file (optional); call ``save`` once done."""

    def __init__(self, root: Path, cache: Path | None = None) -> None:
        self.root = root
        self.cache = cache
        self.known: dict[str, list[object]] = {}
        self.used: set[str] = set()
        self.dirty = False
        self.standing: dict[str, str] = {}  # the standing of every entry judged here
        self.anchors: dict[str, str] = {}  # the anchors of every loadable entry judged here (rendered)
        if cache is not None:
            try:
                data = atomic.read_state_json(cache)
            except (OSError, ValueError):
                data = {}
            verdicts = data.get("verdicts") if isinstance(data, dict) and data.get("rules") == _rules() else None
            if isinstance(verdicts, dict):
                self.known = {k: v for k, v in verdicts.items() if isinstance(v, list) and len(v) == 4}

    def why_not(self, rid: str, summary: str, *, read: bool = True) -> str | None:
        """The verdict on ``rid``; with ``read`` False only a cached one (else ``NOT_CHECKED``)."""
        from chord_git.memory.records import SUMMARY_CAP

        if len(summary) > SUMMARY_CAP:
            return f"index summary has {len(summary)} characters (cap {SUMMARY_CAP})"
        path = self.root / RECORDS_DIR / f"{rid}.md"
        if self.cache is None or paths.escape_reason(self.root, path):
            if not read:
                return NOT_CHECKED
            verdict, self.standing[rid], self.anchors[rid] = judged(self.root, rid)
            return verdict
        try:
            info = os.lstat(path)
            key: object = [info.st_size, info.st_mtime_ns, info.st_ino]
        except OSError:
            key = None
        self.used.add(rid)
        hit = self.known.get(rid)
        if key is not None and hit is not None and hit[0] == key:
            cached, standing, anchors = hit[1], hit[2], hit[3]
            if (isinstance(cached, str) or cached is None) and standing in (SAID, CONCLUDED, UNKNOWN) \
                    and isinstance(anchors, str):
                self.standing[rid] = str(standing)
                self.anchors[rid] = anchors
                return cached
        if not read:
            return NOT_CHECKED
        verdict, standing, anchors = judged(self.root, rid)
        self.standing[rid] = standing
        self.anchors[rid] = anchors
        if key is not None:
            self.known[rid] = [key, verdict, standing, anchors]
            self.dirty = True
        return verdict

    def save(self) -> None:
        """Write the cache back (no fsync: it is only a shortcut); a failure is ignored."""
        if self.cache is None or not self.dirty:
            return
        keep = dict(self.known)
        if len(keep) > CACHE_LIMIT:
            keep = {k: v for k, v in keep.items() if k in self.used}
        tmp = self.cache.with_name(f".{self.cache.name}.{os.getpid()}")
        try:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"rules": _rules(), "verdicts": keep}), "utf-8")
            os.replace(tmp, self.cache)
        except OSError:
            pass
