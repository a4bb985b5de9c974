"""Is it new? AGENTS.md and the docs, memory as it is, what the user forgot, revisions (R19, R22,
R25, R34).

``in-agents-md`` / ``in-docs``  AGENTS.md (the bounded copy the run sent) or the project's docs
                         (README, CONTRIBUTING, ``docs/``) already state the conclusion: the same
                         words after normalisation, or the same distinctive content, never a
                         shared topic alone (``claims.restates``)
``duplicate``            a summary or statement memory already holds (listed entries, records, and
                         what this reply kept earlier), or restated
``forgotten``            the conclusion of an entry the user forgot: it comes back when the user
                         says it again in another session, in any words (the session that wrote the
                         forgotten record does not bring it back)
``supersedes-*``         the rules of revisions: what the user said is replaced only on the user's
                         words about that very subject
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from chord_git.judge import claims
from chord_git.judge.verdict import Candidate, Finding
from chord_git.memory import records, view
from chord_git.support.dataclass_lazy import dataclass, field

SUPERSEDE_SUPPORT = 0.5


@dataclass(frozen=True)
class ExistingMemory:
    """What a candidate is compared with: every record file and the index as they are now."""

    texts: frozenset[str]  # normalized summaries and statements
    index_ids: frozenset[str]
    record_ids: frozenset[str]
    sources: Mapping[str, str | None] = field(default_factory=dict)  # record id -> source or None
    subjects: Mapping[str, str] = field(default_factory=dict)  # record id -> its summary and statement
    # record id -> its summary and statement as written, for the normalised duplicate test
    conclusions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Forgotten conclusions (orphan records, forget decisions): normalized text -> the normalized
    # user words each was quoting ("" for none); and the texts of what is listed now.
    forgotten: Mapping[str, frozenset[str]] = field(default_factory=dict)
    listed_texts: frozenset[str] = frozenset()
    # normalized forgotten text -> the sessions whose extraction wrote it
    forgotten_sessions: Mapping[str, frozenset[str]] = field(default_factory=dict)


@dataclass
class Seen:
    """What one reply kept so far, and the existing conclusions computed once for the reply (an
    index of 10,000 entries is read once, not per candidate)."""

    texts: set[str] = field(default_factory=set)  # normalized conclusions kept earlier in this reply
    raw: list[str] = field(default_factory=list)  # the same as written
    revised: set[str] = field(default_factory=set)  # record ids revised earlier in this reply
    existing: dict[str, list[claims.Conclusion]] | None = None

    def conclusions(self, existing: ExistingMemory, skip: str | None) -> list[claims.Conclusion]:
        if self.existing is None:
            self.existing = {rid: [claims.conclusion(t) for t in texts] for rid, texts in existing.conclusions.items()}
        return [c for rid, items in self.existing.items() if rid != skip for c in items]

    def keep(self, summary: str, statement: str, supersedes: str | None) -> None:
        self.texts.update({records.normalize_text(summary), records.normalize_text(statement)})
        self.raw.extend((summary, statement))
        if supersedes is not None:
            self.revised.add(supersedes)


def existing_memory(snapshot: view.Snapshot, collided: frozenset[str] = frozenset(),
                    forgotten: Iterable[tuple[Iterable[str], str | None]] = (),
                    forgotten_ids: Iterable[tuple[str, str | None]] = ()) -> ExistingMemory:
    """What candidates are compared with, from the run's snapshot: every record file, leniently (a
    record the loader would skip, over a cap or with a bad field, still counts for duplicates),
    and the index lines. An orphan an editor's stale buffer overwrote (``collided``, see
    ``memory.collisions``) was not deleted by the user: its texts do not block writing it again.
    ``forgotten`` are the forget decisions' (texts, evidence); ``forgotten_ids`` their (record id,
    session), the session read from the record when the decision does not name one."""
    listed = {entry.id for entry in snapshot.index.entries}
    counted = [facts for rid, facts in snapshot.records.items() if rid in listed or rid not in collided]
    texts = {records.normalize_text(text) for facts in counted for text in facts.texts}
    texts.update(records.normalize_text(entry.summary) for entry in snapshot.index.entries)
    subjects = {rid: "\n".join(facts.texts) for rid, facts in snapshot.records.items()}
    for entry in snapshot.index.entries:
        subjects[entry.id] = f"{subjects.get(entry.id, '')}\n{entry.summary}"
    conclusions = {rid: tuple(facts.texts) for rid, facts in snapshot.records.items() if rid in listed}
    for entry in snapshot.index.entries:
        conclusions[entry.id] = (*conclusions.get(entry.id, ()), entry.summary)
    listed_texts = {records.normalize_text(text) for rid, facts in snapshot.records.items() if rid in listed
                    for text in facts.texts}
    listed_texts.update(records.normalize_text(entry.summary) for entry in snapshot.index.entries)
    gone: dict[str, set[str]] = {}
    sessions: dict[str, set[str]] = {}
    said: list[tuple[list[str], str | None, str | None]] = []
    ids = list(forgotten_ids)
    for number, (texts_of, evidence) in enumerate(forgotten):
        rid, session = ids[number] if number < len(ids) else (None, None)
        said.append((list(texts_of), evidence, session or _session_of(snapshot, rid)))
    for rid, facts in snapshot.records.items():
        if rid not in listed and rid not in collided:
            evidence = facts.loaded.evidence if facts.loaded is not None else None
            said.append(([records.normalize_text(t) for t in facts.texts],
                         records.normalize_text(evidence) if evidence else None, _session_of(snapshot, rid)))
    for texts_of, evidence, session in said:
        for text in texts_of:
            if text and text not in listed_texts:
                gone.setdefault(text, set()).add(evidence or "")
                if session:
                    sessions.setdefault(text, set()).add(session)
    return ExistingMemory(frozenset(texts), frozenset(listed), frozenset(snapshot.records),
                          {rid: facts.source for rid, facts in snapshot.records.items()}, subjects,
                          conclusions, {text: frozenset(ev) for text, ev in gone.items()},
                          frozenset(listed_texts), {text: frozenset(s) for text, s in sessions.items()})


def _session_of(snapshot: view.Snapshot, rid: str | None) -> str | None:
    facts = snapshot.records.get(rid) if rid else None
    return facts.loaded.session if facts is not None and facts.loaded is not None else None


def findings(candidate: Candidate, source: str, *, agents: Sequence[claims.Conclusion],
             docs: Sequence[claims.Conclusion], existing: ExistingMemory | None, seen: Seen, session: str | None,
             updates: dict[str, object], adjusted: list[str]) -> list[Finding]:
    """The novelty findings of one candidate; revisions may adjust ``supersedes`` in ``updates``."""
    out: list[Finding] = []
    conclusion = (candidate.summary, candidate.statement)
    if agents and any(claims.restates(text, agents) for text in conclusion):
        out.append(Finding("novelty", "in-agents-md"))
    if docs and any(claims.restates(text, docs) for text in conclusion):
        out.append(Finding("novelty", "in-docs"))
    if existing is None:
        return out
    summary, statement = records.normalize_text(candidate.summary), records.normalize_text(candidate.statement)
    both = {summary, statement}
    if both & (existing.listed_texts | seen.texts):
        out.append(Finding("novelty", "duplicate"))
        return out
    hits = [text for text in both if text in existing.forgotten]
    if hits:
        if _forgotten_stays(candidate, source, session, existing, hits):
            out.append(Finding("novelty", "forgotten"))
    elif both & existing.texts:
        out.append(Finding("novelty", "duplicate"))
        return out
    supersedes = candidate.supersedes
    others = [*seen.conclusions(existing, supersedes), *map(claims.conclusion, seen.raw)]
    if not hits and any(claims.restates(text, others) for text in conclusion):
        out.append(Finding("novelty", "duplicate"))
        return out
    if supersedes is not None:
        out += _revision(candidate, source, existing, seen, updates, adjusted)
    return out


def _forgotten_stays(candidate: Candidate, source: str, session: str | None, existing: ExistingMemory,
                     hits: list[str]) -> bool:
    """A forgotten conclusion comes back only when the user says it again: not as the assistant's
    conclusion, and not from the session whose words the forgotten record holds. In another
    session the user's own words bring it back, whatever they are; where the sessions are not
    known, only in words other than those the forgotten record quoted."""
    again = records.normalize_text(candidate.evidence or "")
    if source != "user" or not again or not any(claims.shares_content(again, text) for text in hits):
        return True
    sessions = {s for text in hits for s in existing.forgotten_sessions.get(text, ())}
    if session and sessions:
        return session in sessions
    return any(again in existing.forgotten[text] for text in hits)


def _revision(candidate: Candidate, source: str, existing: ExistingMemory, seen: Seen,
              updates: dict[str, object], adjusted: list[str]) -> list[Finding]:
    target = candidate.supersedes or ""
    known = records.valid_id(target) and (target in existing.index_ids or target in existing.record_ids)
    if not known:
        adjusted.append("supersedes-unknown")
        updates["supersedes"] = None
        return []
    said_by_user = existing.sources.get(target) != "assistant"  # unreadable counts as user-said: the safe side
    if source == "assistant" and said_by_user:
        return [Finding("novelty", "supersedes-user-record")]
    if said_by_user and not claims.shares_content(candidate.evidence or "", existing.subjects.get(target, "")):
        # Replacing what the user said needs the user's words about that very subject.
        return [Finding("novelty", "supersedes-user-record")]
    if target in seen.revised:
        return [Finding("novelty", "supersedes-conflict")]
    if said_by_user and claims.support_share(candidate.evidence or "", candidate.statement,
                                             candidate.summary) < SUPERSEDE_SUPPORT:
        # About the subject, but not stating the new conclusion: both stay, review shows the pair.
        adjusted.append("supersedes-kept-both")
        updates["supersedes"] = None
    return []
