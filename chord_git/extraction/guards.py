"""Deterministic guards between the model's reply and the memory files (R18–R23, R31).

The model proposes; these rules decide. Each candidate record is kept, adjusted, or dropped for
exactly one reason (the first that applies, in ``REASONS`` order), and every drop is counted:

``empty``                a required text field is blank (evidence is required for source user)
``cap``                  summary over 160 characters or not one line, statement over 600, or a
                         record file that would exceed the loader's size cap
``allowance-pragma``     a field holds a secret scanner's allowance (``pragma: allowlist secret``,
                         ``gitleaks:allow``, ``nosec``...): the scanners honour it in a record, so a
                         model that writes one could wave its own value through the hook and CI
``secret``               layer 1 or layer 2 finds a secret in any field. The model only ever saw
                         redacted text, so a raw value in its reply was invented or reconstructed;
                         a record built around a credential is dropped whole, never stored redacted
``too-many-records``     past the first ``MAX_RECORDS_PER_REPLY`` candidates of one reply
``evidence-not-found``   source user, but the evidence does not occur in a user message as sent,
                         after NFKC, case and whitespace folding (assistant text, history, tool
                         output and paraphrases do not count)
``evidence-too-weak``    source user, but the evidence is a bare confirmation ("yes", "ok", "好的")
                         or shorter than 3 words / 6 CJK characters: agreeing to something is not
                         saying it (``claims``)
``evidence-unrelated``   source user, but the evidence shares no content word or CJK bigram with
                         the statement
``no-why-or-how``        why-keep-it or how-to-apply is empty, punctuation, or the statement again
``permission-grant``     grants a permission ("is allowed", "without review", "无需审查") (R4)
``instruction-override`` tries to override instructions ("ignore previous instructions") (R4)
``ordered-command``      orders a destructive or privileged command (sudo, rm -rf, push --force,
                         curl | sh) that it does not forbid (R4)
``absolute-path``        ``textrules.absolute_paths`` in any field (R3, R23)
``commit-sha``           ``textrules.commit_shas`` (R23)
``host-name``            ``textrules.host_names`` (R19)
``private-ip``           ``textrules.private_ips`` (R19)
``transient-git-state``  ``textrules.transient_git_state`` (R18)
``duplicate``            normalized summary or statement equals a summary or statement of any
                         record file (orphans included: a deleted memory does not come back, R22,
                         R34), of an index line, or of a candidate kept earlier in this reply
``forgotten``            the conclusion of an entry the user forgot (its line or pending file
                         deleted, or ``forget``: an orphan record or a decision file): written again
                         only when the user says it again in this session, in words other than
                         those the forgotten record quoted
``supersedes-user-record`` an assistant-sourced candidate tries to replace a user-said record, or a
                         user-sourced one whose evidence does not address that record's subject
``supersedes-conflict``  a second candidate revising a record already revised in this reply

Adjustments (counted, not drops): ``status-unverified`` (source assistant is always stored
unverified, R20); ``evidence-cleared`` (an assistant record's "evidence" that is not the user's
words is removed so it cannot pass for a quote); ``supersedes-unknown`` (``supersedes`` names no
record file and no index entry: the field is dropped and the record treated as new).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from chord_git.support.dataclass_lazy import dataclass, field
from chord_git.extraction import claims
from chord_git.extraction.schema import CandidateRecord
from chord_git.memory import records, textrules, view
from chord_git.secrets import scan_added_lines

REASONS = (
    "empty", "too-many-records", "cap", "allowance-pragma", "secret", "evidence-not-found", "evidence-too-weak", "evidence-unrelated",
    "no-why-or-how", "absolute-path", "commit-sha", "host-name", "private-ip", "transient-git-state",
    "permission-grant", "instruction-override", "ordered-command", "duplicate", "forgotten", "supersedes-user-record",
    "supersedes-conflict",
)
# A reply proposing more than this is not a session's worth of memory; the rest is dropped, counted.
MAX_RECORDS_PER_REPLY = 20
TEXT_FIELDS = ("summary", "statement", "why", "how_to_apply", "evidence")
REQUIRED_FIELDS = ("summary", "statement", "why", "how_to_apply")
_PATTERN_GUARDS = (
    ("absolute-path", textrules.absolute_paths),
    ("commit-sha", textrules.commit_shas),
    ("host-name", textrules.host_names),
    ("private-ip", textrules.private_ips),
    ("transient-git-state", textrules.transient_git_state),
    ("permission-grant", textrules.permission_grants),
    ("instruction-override", textrules.instruction_overrides),
    ("ordered-command", textrules.ordered_commands),
)
# The inline allowances of the secret scanners (ours and detect-secrets' pragma, gitleaks,
# TruffleHog, bandit, detect-secrets' older spellings): never honoured in what a model wrote.
ALLOWANCE_PRAGMA = re.compile(
    r"pragma\s*:\s*(?:allow|white)[ -]?list|gitleaks\s*:\s*allow|trufflehog\s*:\s*ignore|\bnosec\b"
    r"|detect-secrets\s*:\s*(?:ignore|disable|allow)", re.IGNORECASE)
# Room for the front matter keys and section headings around the fields.
_RECORD_OVERHEAD = 600


@dataclass(frozen=True)
class ExistingMemory:
    """What the guards compare against: every record file and the index as they are now."""

    texts: frozenset[str]  # normalized summaries and statements
    index_ids: frozenset[str]
    record_ids: frozenset[str]
    sources: Mapping[str, str | None] = field(default_factory=dict)  # record id -> source or None
    subjects: Mapping[str, str] = field(default_factory=dict)  # record id -> its summary and statement
    # Forgotten conclusions (orphan records, forget decisions): normalized text -> the normalized
    # user words each was quoting ("" for none); and the texts of what is listed now.
    forgotten: Mapping[str, frozenset[str]] = field(default_factory=dict)
    listed_texts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Accepted:
    position: int  # index in the reply's ``records`` list
    candidate: CandidateRecord  # as adjusted: stripped, status coerced, supersedes checked


@dataclass(frozen=True)
class Dropped:
    position: int
    reason: str


@dataclass(frozen=True)
class GuardResult:
    accepted: tuple[Accepted, ...]
    dropped: tuple[Dropped, ...]
    adjusted: Mapping[str, int]

    @property
    def drop_counts(self) -> dict[str, int]:
        counts = Counter(d.reason for d in self.dropped)
        return {reason: counts[reason] for reason in REASONS if counts[reason]}


# ---------------------------------------------------------------------------- existing memory
def existing_memory(snapshot: view.Snapshot, collided: frozenset[str] = frozenset(),
                    forgotten: Iterable[tuple[Iterable[str], str | None]] = ()) -> ExistingMemory:
    """What the guards compare against, from the run's snapshot: every record file, leniently (a
    record the loader would skip, over a cap or with a bad field, still counts for duplicates),
    and the index lines. An orphan an editor's stale buffer overwrote (``collided``, see
    ``memory.collisions``) was not deleted by the user: its texts do not block writing it again."""
    listed = {entry.id for entry in snapshot.index.entries}
    counted = [facts for rid, facts in snapshot.records.items() if rid in listed or rid not in collided]
    texts = {records.normalize_text(text) for facts in counted for text in facts.texts}
    texts.update(records.normalize_text(entry.summary) for entry in snapshot.index.entries)
    subjects = {rid: "\n".join(facts.texts) for rid, facts in snapshot.records.items()}
    for entry in snapshot.index.entries:
        subjects[entry.id] = f"{subjects.get(entry.id, '')}\n{entry.summary}"
    listed_texts = {records.normalize_text(text) for rid, facts in snapshot.records.items() if rid in listed
                    for text in facts.texts}
    listed_texts.update(records.normalize_text(entry.summary) for entry in snapshot.index.entries)
    gone: dict[str, set[str]] = {}
    said: list[tuple[Iterable[str], str | None]] = list(forgotten)
    for rid, facts in snapshot.records.items():
        if rid not in listed and rid not in collided:
            evidence = facts.loaded.evidence if facts.loaded is not None else None
            said.append(((records.normalize_text(t) for t in facts.texts),
                         records.normalize_text(evidence) if evidence else None))
    for texts_of, evidence in said:
        for text in texts_of:
            if text and text not in listed_texts:
                gone.setdefault(text, set()).add(evidence or "")
    return ExistingMemory(frozenset(texts), frozenset(listed), frozenset(snapshot.records),
                          {rid: facts.source for rid, facts in snapshot.records.items()}, subjects,
                          {text: frozenset(ev) for text, ev in gone.items()}, frozenset(listed_texts))


# ---------------------------------------------------------------------------- the checks
def _strip(candidate: CandidateRecord) -> CandidateRecord:
    evidence = candidate.evidence.strip() if candidate.evidence is not None else None
    supersedes = candidate.supersedes.strip() if candidate.supersedes is not None else None
    return candidate.model_copy(update={
        "summary": candidate.summary.strip(), "statement": candidate.statement.strip(),
        "why": candidate.why.strip(), "how_to_apply": candidate.how_to_apply.strip(),
        "evidence": evidence or None, "supersedes": supersedes or None,
    })


def _fields(candidate: CandidateRecord) -> list[str]:
    return [getattr(candidate, name) or "" for name in TEXT_FIELDS]


def secret_positions(candidates: Sequence[CandidateRecord]) -> set[int]:
    """Positions of candidates in which either layer finds a secret (one scan for the reply)."""
    added: dict[str, list[tuple[int, str]]] = {}
    for position, candidate in enumerate(candidates):
        lines = [line for text in _fields(candidate) for line in text.split("\n")]
        added[str(position)] = list(enumerate(lines, start=1))
    if not added:
        return set()
    return {int(hit.path) for hit in scan_added_lines(added)}


def _too_long(candidate: CandidateRecord) -> bool:
    summary = candidate.summary
    if len(summary) > records.SUMMARY_CAP or "\n" in summary or "\r" in summary:
        return True
    if len(candidate.statement) > records.STATEMENT_CAP:
        return True
    size = sum(len(text.encode("utf-8")) for text in _fields(candidate)) + len(candidate.statement.encode())
    return size + _RECORD_OVERHEAD > records.MAX_RECORD_BYTES


def _evidence_found(evidence: str, user_texts: Iterable[str]) -> bool:
    needle = records.normalize_text(evidence)
    return bool(needle) and any(needle in text for text in user_texts)


def _pattern_reason(candidate: CandidateRecord) -> str | None:
    texts = _fields(candidate)
    for reason, finder in _PATTERN_GUARDS:
        if any(finder(text) for text in texts):
            return reason
    return None


def check(candidates: Sequence[CandidateRecord], user_texts: Sequence[str],
          existing: ExistingMemory) -> GuardResult:
    """Run every guard over the reply's records; ``user_texts`` are the user messages as sent."""
    folded_users = [records.normalize_text(text) for text in user_texts]
    stripped = [_strip(c) for c in candidates]
    secrets = secret_positions(stripped)
    accepted: list[Accepted] = []
    dropped: list[Dropped] = []
    adjusted: Counter[str] = Counter()
    seen_texts: set[str] = set()
    revised: set[str] = set()

    for position, candidate in enumerate(stripped):
        if position >= MAX_RECORDS_PER_REPLY:
            dropped.append(Dropped(position, "too-many-records"))
            continue
        reason, candidate = _judge(position, candidate, folded_users, existing, secrets, seen_texts, revised, adjusted)
        if reason is not None:
            dropped.append(Dropped(position, reason))
            continue
        accepted.append(Accepted(position, candidate))
        seen_texts.update({records.normalize_text(candidate.summary), records.normalize_text(candidate.statement)})
        if candidate.supersedes is not None:
            revised.add(candidate.supersedes)
    return GuardResult(tuple(accepted), tuple(dropped), dict(adjusted))


def _judge(position: int, candidate: CandidateRecord, folded_users: list[str], existing: ExistingMemory,
           secrets: set[int], seen_texts: set[str], revised: set[str],
           adjusted: Counter[str]) -> tuple[str | None, CandidateRecord]:
    if any(not getattr(candidate, name) for name in REQUIRED_FIELDS):
        return "empty", candidate
    if candidate.source == "user" and not candidate.evidence:
        return "empty", candidate
    if _too_long(candidate):
        return "cap", candidate
    if any(ALLOWANCE_PRAGMA.search(text) for text in _fields(candidate)):
        return "allowance-pragma", candidate
    if position in secrets:
        return "secret", candidate
    if candidate.source == "user" and not _evidence_found(candidate.evidence or "", folded_users):
        return "evidence-not-found", candidate
    if candidate.source == "user":
        weak = claims.evidence_problem(candidate.evidence or "", candidate.statement, candidate.summary)
        if weak is not None:
            return weak, candidate
    if any(claims.adds_nothing(text, candidate.statement, candidate.summary)
           for text in (candidate.why, candidate.how_to_apply)):
        return "no-why-or-how", candidate
    pattern = _pattern_reason(candidate)
    if pattern is not None:
        return pattern, candidate
    summary, statement = records.normalize_text(candidate.summary), records.normalize_text(candidate.statement)
    both = {summary, statement}
    if both & (existing.listed_texts | seen_texts):
        return "duplicate", candidate
    hits = [text for text in both if text in existing.forgotten]
    if hits:
        # A forgotten conclusion comes back only when the user says it again, in this session's
        # words about it: not as the assistant's conclusion, not by re-quoting what the forgotten
        # record quoted, not with words about something else.
        again = records.normalize_text(candidate.evidence or "")
        if (candidate.source != "user" or not again
                or any(again in existing.forgotten[text] for text in hits)
                or not any(claims.shares_content(again, text) for text in hits)):
            return "forgotten", candidate
    elif both & existing.texts:
        return "duplicate", candidate
    target = candidate.supersedes
    if target is not None:
        known = records.valid_id(target) and (target in existing.index_ids or target in existing.record_ids)
        if not known:
            adjusted["supersedes-unknown"] += 1
            candidate = candidate.model_copy(update={"supersedes": None})
        elif candidate.source == "assistant" and existing.sources.get(target) != "assistant":
            return "supersedes-user-record", candidate  # unreadable counts as user-said: the safe side
        elif existing.sources.get(target) != "assistant" and not claims.shares_content(
                candidate.evidence or "", existing.subjects.get(target, "")):
            # Replacing what the user said needs the user's words about that very subject.
            return "supersedes-user-record", candidate
        elif target in revised:
            return "supersedes-conflict", candidate
    if candidate.source == "assistant":
        candidate = _as_assistant(candidate, folded_users, adjusted)
    return None, candidate


def _as_assistant(candidate: CandidateRecord, folded_users: list[str], adjusted: Counter[str]) -> CandidateRecord:
    update: dict[str, object] = {}
    if candidate.status != "unverified":
        update["status"] = "unverified"
        adjusted["status-unverified"] += 1
    if candidate.evidence is not None and not _evidence_found(candidate.evidence, folded_users):
        update["evidence"] = None
        adjusted["evidence-cleared"] += 1
    return candidate.model_copy(update=update) if update else candidate
