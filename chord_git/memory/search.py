"""Ranked search over the index entries and their records, for recall on demand (the MCP server).

What is searched is what a session may load: the entries listed in MEMORY.md's managed section,
each with its record's texts when the record passes the loader's rules (R24). A record over its
caps is left out with its entry, as the summary leaves it out; an entry whose record file is
missing is searched by its index summary alone. Orphan records (forgotten or retired, R34) are
never searched: forgetting a memory must not leave it one query away.

``SearchIndex`` keeps every entry's words in memory and, before each search, re-reads only what
changed: MEMORY.md when its size, mtime or inode changed, and a record when its own did. A
search is then one pass over the entries' word counts (``bench/mcp_bench.py``: 10,000 records).

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
from collections import Counter
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import paths, records
from chord_git.memory.index_file import Entry
from chord_git.memory.project import RECORDS_DIR, Project

_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_SATURATION = 1.2
_PREFIX_MIN = 4
_FIELD_WEIGHTS = (3, 2, 1)  # summary, statement, everything else


def words(text: str) -> list[str]:
    """Lower-cased words; a run of CJK characters becomes its characters and their pairs (no spaces
    separate words there)."""
    found: list[str] = []
    for word in _WORD.findall(text.casefold()):
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


@dataclass(frozen=True)
class Hit:
    id: str
    type: str
    summary: str
    statement: str | None
    score: float
    position: int  # 1-based line order among the index entries (R28)

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "type": self.type, "summary": self.summary, "statement": self.statement,
                "score": round(self.score, 3), "position": self.position,
                "record": f"{RECORDS_DIR}/{self.id}.md"}


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
               folded_summary=" ".join(entry.summary.casefold().split()))


def rank(docs: list[Doc], frequency: dict[str, int], vocabulary: list[str], query: str,
         limit: int) -> list[Hit]:
    """The best ``limit`` docs for ``query`` (pure); docs sharing no word with it are not hits."""
    asked = list(dict.fromkeys(words(query)))
    if not asked or not docs:
        return []
    total = len(docs)
    terms: dict[str, float] = {}
    for word in asked:
        terms[word] = max(terms.get(word, 0.0), 1.0)
        if len(word) >= _PREFIX_MIN and not _CJK.search(word):
            at = bisect.bisect_right(vocabulary, word)
            while at < len(vocabulary) and vocabulary[at].startswith(word):
                terms[vocabulary[at]] = max(terms.get(vocabulary[at], 0.0), 0.5)
                at += 1
    weights = {term: boost * math.log(1 + (total - frequency.get(term, 0) + 0.5) / (frequency.get(term, 0) + 0.5))
               for term, boost in terms.items() if term in frequency}
    if not weights:
        return []
    phrase = " ".join(query.casefold().split())
    scored: list[tuple[float, int]] = []
    for position, doc in enumerate(docs):
        counts = doc.counts
        score = 0.0
        for term, weight in weights.items():
            tf = counts.get(term)
            if tf:
                score += weight * tf * (_SATURATION + 1) / (tf + _SATURATION)
        if score:
            if len(phrase) > 3 and phrase in doc.folded_summary:
                score *= 1.5
            score *= 1 + 0.05 * (1 - position / total)  # the index order breaks near-ties
            scored.append((score, position))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    hits = []
    for score, position in scored[:limit]:
        doc = docs[position]
        hits.append(Hit(id=doc.id, type=doc.type, summary=doc.summary, statement=doc.statement,
                        score=score, position=position + 1))
    return hits


def _key(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class SearchIndex:
    """The project's searchable memory, kept up to date by ``refresh`` (called by ``search``)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.root = project.root
        self.memory_md = project.memory_md
        self.records_dir = project.records_dir
        self.index_key: tuple[int, int, int] | None = None
        self.entries: list[Entry] = []
        self.problem: str | None = None  # why the index cannot be searched, if it cannot
        self.docs_by_id: dict[str, tuple[tuple[int, int, int] | None, Doc | None]] = {}
        self.docs: list[Doc] = []
        self.frequency: dict[str, int] = {}
        self.vocabulary: list[str] = []
        self.left_out = 0  # entries whose record the loader refuses

    def refresh(self) -> bool:
        """Re-read what changed since the last call; True when anything did."""
        changed = False
        key = _key(self.memory_md)
        if key != self.index_key or key is None:
            changed = self._read_index() or key != self.index_key
            self.index_key = key
        known = self.docs_by_id
        fresh: dict[str, tuple[tuple[int, int, int] | None, Doc | None]] = {}
        escape = paths.escape_reason(self.root, self.records_dir)
        for entry in self.entries:
            path = self.records_dir / f"{entry.id}.md"
            rkey = None if escape else _key(path)
            old = known.get(entry.id)
            if old is not None and old[0] == rkey and (old[1] is None or old[1].summary == entry.summary):
                fresh[entry.id] = old
                continue
            changed = True
            fresh[entry.id] = (rkey, self._doc(entry, path, rkey, bool(escape)))
        if len(fresh) != len(known):
            changed = True
        self.docs_by_id = fresh
        if changed:
            self._rebuild()
        return changed

    def _read_index(self) -> bool:
        from chord_git.memory import view

        state = view.read_index(self.project)
        # As lenient as the summary: a broken line elsewhere in the section does not hide the others.
        self.problem = state.unusable_reason if state.doc is None else None
        seen: set[str] = set()
        entries = []
        for entry in state.entries:
            if entry.id not in seen:  # as the summary reads it: the first line of an id counts
                seen.add(entry.id)
                entries.append(entry)
        self.entries = entries
        return True

    def _doc(self, entry: Entry, path: Path, rkey: tuple[int, int, int] | None, escape: bool) -> Doc | None:
        if len(entry.summary) > records.SUMMARY_CAP:
            return None  # R24: not loaded, so not searched
        if rkey is None:
            return None if escape else make_doc(entry, None)
        record, _problems = records.read(path)
        return make_doc(entry, record) if record is not None else None

    def _rebuild(self) -> None:
        docs = []
        frequency: Counter[str] = Counter()
        for entry in self.entries:
            doc = self.docs_by_id[entry.id][1]
            if doc is None:
                continue
            docs.append(doc)
            frequency.update(doc.counts.keys())
        self.docs = docs
        self.left_out = len(self.entries) - len(docs)
        self.frequency = dict(frequency)
        self.vocabulary = sorted(frequency)

    def search(self, query: str, limit: int = 8) -> list[Hit]:
        self.refresh()
        return rank(self.docs, self.frequency, self.vocabulary, query, limit)
