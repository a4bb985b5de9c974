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
``evidence-unsupported`` source user, but the evidence carries too small a share of the claim's
                         distinctive content (one shared word is not support)
``evidence-question``    source user, but the quoted sentence asks ("why did npm install fail?")
``evidence-hypothetical`` source user, but the quoted sentence supposes ("if we used npm, …")
``evidence-reported``    source user, but the quoted sentence reports someone else's view
``evidence-negated``     source user, but the quote is negated (or cut out of its negation) while
                         the claim is not ("you to commit generated files" from "I don't want …")
``no-why-or-how``        why-keep-it or how-to-apply is empty, punctuation, the statement again, or
                         below the substance floor (``claims.has_substance``: "Important.", "Always.")
``permission-grant``     grants a permission ("is allowed", "without review", "无需审查") (R4)
``instruction-override`` tries to override instructions ("ignore previous instructions") (R4)
``ordered-command``      orders a destructive or privileged command (sudo, rm -rf, push --force,
                         curl | sh) that it does not forbid (R4)
``absolute-path``        ``textrules.absolute_paths`` in any field (R3, R23)
``commit-sha``           ``textrules.commit_shas`` (R23)
``host-name``            ``textrules.host_names`` (R19)
``private-ip``           ``textrules.private_ips`` (R19)
``transient-git-state``  ``textrules.transient_git_state`` (R18)
``in-agents-md``         AGENTS.md (the bounded copy the run sent) already states the conclusion,
                         after normalisation (``claims.restates``) (R19)
``duplicate``            normalized summary or statement equals a summary or statement of a
                         listed record file, of an index line, or of a candidate kept earlier in
                         this reply; or restates one of them after normalisation
                         (``claims.restates``). Orphans are ``forgotten`` (R22, R34)
``forgotten``            the conclusion of an entry the user forgot (its line or pending file
                         deleted, or ``forget``: an orphan record or a decision file): written again
                         only when the user says it again in this session, in words other than
                         those the forgotten record quoted
``supersedes-user-record`` an assistant-sourced candidate tries to replace a user-said record, or a
                         user-sourced one whose evidence does not address that record's subject
``supersedes-conflict``  a second candidate revising a record already revised in this reply
``rediscoverable``       an assistant-sourced candidate no user turn grounds: neither an adopted
                         proposal ("ok, do that" right after it) nor a lesson the user took part
                         in. A fact the model found itself can be found again (R19)
``docs-suggestion``      the same, when it has value: it becomes a docs promotion suggestion
                         instead of memory (``docs_suggestions``)

Attribution is by content, not by label (``claims.grounding``): a candidate the model labelled
``source: user`` whose distinctive content the user's turns do not carry, or which content only
the assistant's turns carry outweighs, is stored as the assistant's (``source-assistant``
adjustment) and judged as such.

Adjustments (counted, not drops): ``status-unverified`` (source assistant is always stored
unverified, R20); ``evidence-cleared`` (an assistant record's "evidence" that is not the user's
words is removed so it cannot pass for a quote); ``supersedes-unknown`` (``supersedes`` names no
record file and no index entry: the field is dropped and the record treated as new);
``source-assistant`` (the user's turns do not carry the claim); ``supersedes-kept-both`` (a
user-said entry is only replaced on evidence that states the new conclusion; otherwise the new
entry is written beside it and ``review`` shows the pair).
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
    "evidence-unsupported", "evidence-question", "evidence-hypothetical", "evidence-reported", "evidence-negated",
    "no-why-or-how", "absolute-path", "commit-sha", "host-name", "private-ip", "transient-git-state",
    "permission-grant", "instruction-override", "ordered-command", "in-agents-md", "duplicate", "forgotten",
    "supersedes-user-record", "supersedes-conflict", "rediscoverable", "docs-suggestion",
)
# Replacing what the user said takes evidence stating the new conclusion: this share of it.
SUPERSEDE_SUPPORT = 0.5
# Where a rediscoverable fact worth keeping is suggested (R19, R29): the user moves it or not.
DOCS_SUGGESTION_PATH = "docs/project-notes.md"
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
    # record id -> its summary and statement as written, for the normalised duplicate test
    conclusions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
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
    # record id -> its summary and statement as written, for the normalised duplicate test: the
    # entries listed now (a forgotten one is judged by ``forgotten``)
    conclusions = {rid: tuple(facts.texts) for rid, facts in snapshot.records.items() if rid in listed}
    for entry in snapshot.index.entries:
        conclusions[entry.id] = (*conclusions.get(entry.id, ()), entry.summary)
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
                          conclusions, {text: frozenset(ev) for text, ev in gone.items()},
                          frozenset(listed_texts))


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


@dataclass(frozen=True)
class Conversation:
    """What the run sent, as the guards judge attribution by: every turn (role, text) in order,
    user messages as sent, and the bounded AGENTS.md copy."""

    user_texts: tuple[str, ...]
    turns: tuple[tuple[str, str], ...] = ()  # ("user" | "assistant" | "history", text)
    agents_md: str = ""

    @property
    def other_texts(self) -> list[str]:
        return [text for role, text in self.turns if role != "user"]

    @property
    def agents_statements(self) -> list[str]:
        return claims.agents_md_lines(self.agents_md)


@dataclass
class _Computed:
    """What every candidate of one reply is compared with, computed once for the reply (a
    conversation of 60,000 characters and an index of 10,000 entries are read once, not per
    candidate)."""

    users: claims.Pool
    others: claims.Pool
    agents: list[claims.Conclusion]
    existing: dict[str, list[claims.Conclusion]] | None = None  # lazily: only a candidate that gets that far

    def conclusions(self, existing: ExistingMemory, skip: str | None) -> list[claims.Conclusion]:
        if self.existing is None:
            self.existing = {rid: [claims.conclusion(t) for t in texts] for rid, texts in existing.conclusions.items()}
        return [c for rid, items in self.existing.items() if rid != skip for c in items]


def check(candidates: Sequence[CandidateRecord], user_texts: Sequence[str],
          existing: ExistingMemory, *, turns: Sequence[tuple[str, str]] = (), agents_md: str = "") -> GuardResult:
    """Run every guard over the reply's records; ``user_texts`` are the user messages as sent,
    ``turns`` the whole conversation as sent (role, text) and ``agents_md`` the AGENTS.md copy."""
    conversation = Conversation(tuple(user_texts), tuple(turns), agents_md)
    computed = _Computed(claims.pool(conversation.user_texts), claims.pool(conversation.other_texts),
                         [claims.conclusion(t) for t in conversation.agents_statements] if agents_md else [])
    folded_users = [records.normalize_text(text) for text in user_texts]
    stripped = [_strip(c) for c in candidates]
    secrets = secret_positions(stripped)
    accepted: list[Accepted] = []
    dropped: list[Dropped] = []
    adjusted: Counter[str] = Counter()
    seen_texts: set[str] = set()
    seen_raw: list[str] = []
    revised: set[str] = set()

    for position, candidate in enumerate(stripped):
        if position >= MAX_RECORDS_PER_REPLY:
            dropped.append(Dropped(position, "too-many-records"))
            continue
        seen = _Seen(seen_texts, seen_raw, revised, computed)
        reason, candidate = _judge(position, candidate, folded_users, conversation, existing, secrets, seen, adjusted)
        if reason is not None:
            dropped.append(Dropped(position, reason))
            continue
        accepted.append(Accepted(position, candidate))
        seen_texts.update({records.normalize_text(candidate.summary), records.normalize_text(candidate.statement)})
        seen_raw.extend((candidate.summary, candidate.statement))
        if candidate.supersedes is not None:
            revised.add(candidate.supersedes)
    return GuardResult(tuple(accepted), tuple(dropped), dict(adjusted))


@dataclass(frozen=True)
class _Seen:
    texts: set[str]  # normalized conclusions kept earlier in this reply
    raw: list[str]  # the same as written
    revised: set[str]  # record ids revised earlier in this reply
    computed: _Computed


def _judge(position: int, candidate: CandidateRecord, folded_users: list[str], conversation: Conversation,
           existing: ExistingMemory, secrets: set[int], seen: _Seen,
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
    grounding = claims.grounding(candidate.statement, candidate.summary, seen.computed.users, seen.computed.others)
    if candidate.source == "user" and not grounding.grounded:
        # What the user's turns do not carry is not the user's, whatever the label says (R20).
        adjusted["source-assistant"] += 1
        candidate = candidate.model_copy(update={"source": "assistant"})
    if candidate.source == "user":
        weak = claims.evidence_problem(candidate.evidence or "", candidate.statement, candidate.summary)
        if weak is not None:
            return weak, candidate
        problem = _evidence_problem(candidate, conversation)
        if problem is not None:
            return problem, candidate
    if any(claims.adds_nothing(text, candidate.statement, candidate.summary) or not claims.has_substance(text)
           for text in (candidate.why, candidate.how_to_apply)):
        return "no-why-or-how", candidate
    pattern = _pattern_reason(candidate)
    if pattern is not None:
        return pattern, candidate
    conclusion = (candidate.summary, candidate.statement)
    if seen.computed.agents and any(claims.restates(text, seen.computed.agents) for text in conclusion):
        return "in-agents-md", candidate
    summary, statement = records.normalize_text(candidate.summary), records.normalize_text(candidate.statement)
    both = {summary, statement}
    if both & (existing.listed_texts | seen.texts):
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
    others = [*seen.computed.conclusions(existing, candidate.supersedes), *map(claims.conclusion, seen.raw)]
    if not hits and any(claims.restates(text, others) for text in conclusion):
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
        elif target in seen.revised:
            return "supersedes-conflict", candidate
        elif existing.sources.get(target) != "assistant" and claims.support_share(
                candidate.evidence or "", candidate.statement, candidate.summary) < SUPERSEDE_SUPPORT:
            # About the subject, but not stating the new conclusion: both stay, review shows the pair.
            adjusted["supersedes-kept-both"] += 1
            candidate = candidate.model_copy(update={"supersedes": None})
    if candidate.source == "assistant":
        kept = _assistant_kept(candidate, grounding, conversation)
        if kept is not None:
            return kept, candidate
        candidate = _as_assistant(candidate, folded_users, adjusted)
    return None, candidate


def _evidence_problem(candidate: CandidateRecord, conversation: Conversation) -> str | None:
    """The evidence supports the claim (a share of its content) and asserts it."""
    evidence = candidate.evidence or ""
    if claims.support_share(evidence, candidate.statement, candidate.summary) < claims.SUPPORT_SHARE:
        return "evidence-unsupported"
    return claims.assertion_problem(evidence, candidate.statement, candidate.summary, conversation.user_texts)


def _assistant_kept(candidate: CandidateRecord, grounding: claims.Grounding, conversation: Conversation) -> str | None:
    """None when an assistant-sourced candidate may reach the index (an adopted proposal, or a
    lesson the user took part in); else why not: ``docs-suggestion`` when it has value."""
    turns = conversation.turns or tuple(("user", text) for text in conversation.user_texts)
    if grounding.grounded:
        return None  # the user's turns carry it: the model was only modest about who said it
    if claims.adopted(grounding.claim, turns):
        return None
    if candidate.type == "lesson" and grounding.user_share >= claims.TOOK_PART_SHARE \
            and len(grounding.by_user) >= 2:
        return None
    return "docs-suggestion" if has_docs_value(candidate) else "rediscoverable"


def has_docs_value(candidate: CandidateRecord) -> bool:
    """A rediscoverable fact worth a docs suggestion: a fact or workflow with a substantive why and
    how and enough of its own content to be worth reading (R19)."""
    return (candidate.type in ("fact", "workflow") and claims.has_substance(candidate.why)
            and claims.has_substance(candidate.how_to_apply) and len(claims.distinctive(candidate.statement)) >= 4)


def docs_suggestions(candidates: Sequence[CandidateRecord], result: GuardResult) -> list[dict[str, object]]:
    """Promotion items (SPEC output shape) for the candidates dropped as ``docs-suggestion``."""
    out: list[dict[str, object]] = []
    for item in result.dropped:
        if item.reason == "docs-suggestion" and item.position < len(candidates):
            candidate = candidates[item.position]
            out.append({"id": None, "target": "docs", "path": DOCS_SUGGESTION_PATH,
                        "proposed_text": candidate.statement.strip(),
                        "reason": "found by the assistant in a session (rediscoverable): documentation, not memory"})
    return out


def _as_assistant(candidate: CandidateRecord, folded_users: list[str], adjusted: Counter[str]) -> CandidateRecord:
    update: dict[str, object] = {}
    if candidate.status != "unverified":
        update["status"] = "unverified"
        adjusted["status-unverified"] += 1
    if candidate.evidence is not None and not _evidence_found(candidate.evidence, folded_users):
        update["evidence"] = None
        adjusted["evidence-cleared"] += 1
    return candidate.model_copy(update=update) if update else candidate
