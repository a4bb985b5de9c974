"""Ranked search over the index entries and their records, for recall on demand (the MCP server).

What is searched is what a session may load: the entries listed in MEMORY.md's managed section,
each with its record's texts when the record passes the loader's rules (R24). A record over its
caps is left out with its entry, as the summary leaves it out; an entry whose record file is
missing is searched by its index summary alone. Orphan records (forgotten or retired, R34) are
never searched: forgetting a memory must not leave it one query away.

``SearchIndex`` keeps every entry's words in memory, with a posting list per word, and re-reads
only what changed (its docstring says how changes are noticed). A search then touches only the
entries that share a word with the query (``bench/mcp_bench.py``: 10,000 records).

Ranking: BM25-like term weights (rare words count more, repeats saturate), the summary counting
three times and the statement twice as much as the body, a bonus when the whole query appears in
the summary, and the index order (R28: higher lines are the ones the user ranks first) breaking
ties. Query words of four letters or more also match longer words they start (``deploy`` finds
``deployment``) at half weight.
"""
from __future__ import annotations

import bisect
import math
import os
import re
import threading
from collections import Counter
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import paths, records
from chord_git.memory.index_file import Entry
from chord_git.memory.project import Project

_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_SATURATION = 1.2
_PREFIX_MIN = 4
_FIELD_WEIGHTS = (3, 2, 1)  # summary, statement, everything else


def words(text: str) -> list[str]:
    """Lower-cased words; a run of CJK characters becomes its characters and their pairs (no spaces
    separate words there)."""
    folded = text.casefold()
    if not _CJK.search(folded):
        return _WORD.findall(folded)  # the usual case: one pass, no per-word look
    found: list[str] = []
    for word in _WORD.findall(folded):
        if not _CJK.search(word):
            found.append(word)
            continue
        run: list[str] = []
        for char in word + " ":
            if _CJK.match(char):
                run.append(char)
                continue
            if run:
                found.extend(run)
                found.extend(a + b for a, b in zip(run, run[1:]))
                run = []
            if char != " ":
                found.append(char)  # a Latin letter or digit inside a CJK run
    return found


@dataclass(frozen=True)
class Doc:
    id: str
    type: str
    summary: str
    statement: str | None  # None: the record file is missing (the index line is all there is)
    counts: dict[str, int]  # weighted word counts
    folded_summary: str
    said: bool | None = None  # the user said it (source user, stated or confirmed); None: no record


@dataclass(frozen=True)
class Hit:
    id: str
    type: str
    summary: str
    statement: str | None
    score: float
    position: int  # 1-based line order among the index entries (R28)
    said: bool | None = None  # as ``Doc.said``


def make_doc(entry: Entry, record: records.Record | None) -> Doc:
    weighted: Counter[str] = Counter()
    summary_words = words(entry.summary) + (words(record.summary) if record else [])
    fields = [summary_words + words(entry.type)]
    if record is not None:
        fields.append(words(record.statement))
        fields.append(words(" ".join(x for x in (record.conclusion, record.why, record.how_to_apply,
                                                  record.evidence or "") if x)))
    for weight, found in zip(_FIELD_WEIGHTS, fields):
        for word in found:
            weighted[word] += weight
    return Doc(id=entry.id, type=entry.type, summary=entry.summary,
               statement=record.statement if record else None, counts=dict(weighted),
               folded_summary=" ".join(entry.summary.casefold().split()),
               said=(record.source == "user" and record.status in ("stated", "confirmed")) if record else None)


class Corpus:
    """The searchable entries and their word postings, updated one doc at a time."""

    def __init__(self) -> None:
        self.docs: dict[str, Doc] = {}
        self.positions: dict[str, int] = {}  # each entry's 1-based line order in the index (R28)
        self.postings: dict[str, dict[str, int]] = {}  # word -> {doc id: weighted count}
        self._vocabulary: list[str] | None = []

    @property
    def vocabulary(self) -> list[str]:
        """The words, sorted (prefix matches are a bisection away); re-sorted after a change."""
        if self._vocabulary is None:
            self._vocabulary = sorted(self.postings)
        return self._vocabulary

    def add(self, doc: Doc) -> None:
        self.docs[doc.id] = doc
        for word, count in doc.counts.items():
            posted = self.postings.get(word)
            if posted is None:
                self.postings[word] = {doc.id: count}
                self._vocabulary = None
            else:
                posted[doc.id] = count

    def remove(self, rid: str) -> None:
        doc = self.docs.pop(rid, None)
        if doc is None:
            return
        for word in doc.counts:
            posted = self.postings[word]
            del posted[rid]
            if not posted:
                del self.postings[word]
                self._vocabulary = None


def rank(found: Corpus, query: str, limit: int) -> list[Hit]:
    """The best ``limit`` docs for ``query``; docs sharing no word with it are not hits."""
    asked = list(dict.fromkeys(words(query)))
    if not asked or not found.docs:
        return []
    total = len(found.docs)
    postings = found.postings
    terms: dict[str, float] = {}
    for word in asked:
        terms[word] = max(terms.get(word, 0.0), 1.0)
        if len(word) >= _PREFIX_MIN and not _CJK.search(word):
            vocabulary = found.vocabulary
            at = bisect.bisect_right(vocabulary, word)
            while at < len(vocabulary) and vocabulary[at].startswith(word):
                terms[vocabulary[at]] = max(terms.get(vocabulary[at], 0.0), 0.5)
                at += 1
    scores: dict[str, float] = {}
    for term, boost in terms.items():
        posted = postings.get(term)
        if not posted:
            continue
        weight = boost * math.log(1 + (total - len(posted) + 0.5) / (len(posted) + 0.5))
        for rid, tf in posted.items():
            scores[rid] = scores.get(rid, 0.0) + weight * tf * (_SATURATION + 1) / (tf + _SATURATION)
    phrase = " ".join(query.casefold().split())
    last = max(len(found.positions), 1)
    scored: list[tuple[float, int, str]] = []
    for rid, score in scores.items():
        position = found.positions[rid]
        if len(phrase) > 3 and phrase in found.docs[rid].folded_summary:
            score *= 1.5
        score *= 1 + 0.05 * (1 - position / last)  # the index order breaks near-ties
        scored.append((score, position, rid))
    scored.sort(key=lambda item: (-item[0], item[1]))
    hits = []
    for score, position, rid in scored[:limit]:
        doc = found.docs[rid]
        hits.append(Hit(id=doc.id, type=doc.type, summary=doc.summary, statement=doc.statement,
                        score=score, position=position, said=doc.said))
    return hits


def _key(path: str) -> tuple[int, int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class SearchIndex:
    """The project's searchable memory, kept up to date by ``refresh`` (called by ``search``).

    A changed MEMORY.md is re-read, and only the records of its new or changed lines are read;
    when the records folder changed, the lines whose record was missing are looked at again. Each
    search also re-checks (size, mtime, inode) a rolling slice of ``rolling`` records, so a record
    replaced or edited in place (records are read-only inputs, R24, but hands slip) is seen within
    ``entries / rolling`` searches; and the records of the hits about to be returned are always
    checked, so a search never serves a record as it was.
    """

    def __init__(self, project: Project, rolling: int = 500) -> None:
        self.project = project
        self.root = project.root
        self.memory_md = str(project.memory_md)
        self.records_dir = str(project.records_dir)
        self.rolling = rolling
        self.cursor = 0
        self.keys: tuple[object, ...] | None = None  # MEMORY.md's and the records folder's
        self.entries: list[Entry] = []
        self.problem: str | None = None  # why the index cannot be searched, if it cannot
        # Per entry: its record's (size, mtime, inode), its index summary, and its doc (None: not searched).
        self.docs_by_id: dict[str, tuple[tuple[int, int, int] | None, str, Doc | None]] = {}
        self.found = Corpus()
        self.left_out = 0  # entries whose record the loader refuses
        self.lock = threading.Lock()
        self.parsed: dict[str, tuple[str, Entry]] = {}  # id -> (its index line, the entry parsed from it)

    @property
    def docs(self) -> dict[str, Doc]:
        return self.found.docs

    def refresh(self, *, full: bool = False) -> bool:
        """Re-read what changed; True when anything did. ``full``: stat every record now."""
        keys = (_key(self.memory_md), _key(self.records_dir))
        old_keys = self.keys or (None, None)
        changed = False
        if keys[0] != old_keys[0] or keys[0] is None:
            self._read_index()
            changed = True
            listed = {entry.id for entry in self.entries}
            for rid in [rid for rid in self.docs_by_id if rid not in listed]:
                del self.docs_by_id[rid]
                self.found.remove(rid)
        self.keys = keys
        if full:
            check = self.entries
        else:
            known = self.docs_by_id
            start = self.cursor % max(len(self.entries), 1)
            check = self.entries[start:start + self.rolling]
            self.cursor = start + self.rolling
            if changed or keys[1] != old_keys[1]:
                # Lines new to the index or whose summary changed; after a change of the folder,
                # also the lines whose record was missing (it may have arrived).
                check = check + [e for e in self.entries if e.id not in known or known[e.id][1] != e.summary
                                 or (keys[1] != old_keys[1] and known[e.id][0] is None)]
        changed = self._check(check) or changed
        if changed:
            self.found.positions = {entry.id: n for n, entry in enumerate(self.entries, start=1)}
            self.left_out = len(self.entries) - len(self.found.docs)
        return changed

    def _check(self, entries: list[Entry]) -> bool:
        """Stat the records of ``entries`` and read those that changed; True if any did."""
        changed = False
        known = self.docs_by_id
        escape = bool(paths.escape_reason(self.root, self.project.records_dir))
        folder = self.records_dir + os.sep
        lstat = os.lstat
        for entry in entries:  # the hot loop of a full check: one lstat per entry
            path = f"{folder}{entry.id}.md"
            rkey: tuple[int, int, int] | None = None
            if not escape:
                try:
                    info = lstat(path)
                    rkey = (info.st_size, info.st_mtime_ns, info.st_ino)
                except OSError:
                    pass
            old = known.get(entry.id)
            if old is not None and old[0] == rkey and old[1] == entry.summary:
                continue
            changed = True
            doc = self._doc(entry, Path(path), rkey, escape)
            known[entry.id] = (rkey, entry.summary, doc)
            self.found.remove(entry.id)
            if doc is not None:
                self.found.add(doc)
        return changed

    def _read_index(self) -> None:
        from chord_git.memory import index_file, view

        section = view.read_clean_section(self.project)
        if isinstance(section, index_file.CleanSection):
            # The usual case: only the lines that changed since the last read are parsed.
            parsed = self.parsed
            entries = []
            for rid, line in zip(section.ids, section.lines()):
                known = parsed.get(rid)
                if known is None or known[0] != line:
                    entry = index_file.parse_entry(line)
                    if isinstance(entry, str):  # cannot happen in a clean section; stay safe
                        continue
                    known = (line, entry)
                    parsed[rid] = known
                entries.append(known[1])
            if len(parsed) > 2 * len(entries) + 100:
                self.parsed = {entry.id: parsed[entry.id] for entry in entries}
            self.entries, self.problem = entries, None
            return
        state = section
        # As lenient as the summary: a broken line elsewhere in the section does not hide the others.
        self.problem = state.unusable_reason if state.doc is None else None
        seen: set[str] = set()
        entries = []
        for entry in state.entries:
            if entry.id not in seen:  # as the summary reads it: the first line of an id counts
                seen.add(entry.id)
                entries.append(entry)
        self.entries = entries

    def _doc(self, entry: Entry, path: Path, rkey: tuple[int, int, int] | None, escape: bool) -> Doc | None:
        if len(entry.summary) > records.SUMMARY_CAP:
            return None  # R24: not loaded, so not searched
        if rkey is None:
            return None if escape else make_doc(entry, None)
        record, _problems = records.read(path)
        return make_doc(entry, record) if record is not None else None

    def _hits_fresh(self, hits: list[Hit]) -> bool:
        folder = self.records_dir + os.sep
        return all(self.docs_by_id[hit.id][0] == _key(f"{folder}{hit.id}.md") for hit in hits)

    def search(self, query: str, limit: int = 8) -> list[Hit]:
        """Ranked hits; safe to call from several threads (one refresh at a time)."""
        with self.lock:
            self.refresh()
            hits = rank(self.found, query, limit)
            if not self._hits_fresh(hits):  # a hit's record changed: never serve it as it was
                self.refresh(full=True)
                hits = rank(self.found, query, limit)
            return hits

    def lists(self, rid: str) -> bool:
        """Whether MEMORY.md lists ``rid`` now (its record may still be one the loader refuses)."""
        with self.lock:
            self.refresh()
            return rid in self.docs_by_id

    def warm(self) -> None:
        """Read everything now (a server calls this at start, off the request path)."""
        with self.lock:
            self.refresh()
