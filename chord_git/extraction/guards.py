"""The judge between the model's reply and the memory files, for one reply (R4, R18–R23, R31).

The model proposes; ``judge.core.judge`` decides each candidate record, and this module runs it
over a reply in order: the first ``MAX_RECORDS_PER_REPLY`` candidates (the rest are
``too-many-records``), one secret scan for the whole reply (both layers over every field: a
record built around a credential is dropped whole, never stored redacted; the model only ever saw
redacted text, so a raw value in its reply was invented or reconstructed), and what earlier
candidates of the reply kept (a second copy is a ``duplicate``; a second revision of one record
a ``supersedes-conflict``).

Each candidate is kept, adjusted, or dropped for its most severe reason (``judge.core.REASONS``),
and every drop is counted; ``GuardResult.findings`` keeps every reason each candidate's checks
found. The reasons, by check (the modules of ``judge/`` say what each one means):

* shape: ``empty``, ``cap``; secrets: ``allowance-pragma``, ``secret``;
* authority (``judge.rules.authority``): ``permission-grant``, ``safety-off``, ``exfiltration``,
  ``fetch-and-execute``, ``destructive-command``, ``instruction-override``;
* locality (``memory.textrules``, ``judge.rules.locality``): ``absolute-path``, ``commit-sha``,
  ``host-name``, ``private-ip``, ``transient-git-state``, ``temporary-pin``, ``one-off-flaky``,
  ``machine-layout``, ``outside-path``;
* attribution and assertion (``judge.attribution``, ``judge.mood``, ``judge.polarity``):
  ``evidence-not-found``, ``evidence-too-weak``, ``evidence-unrelated``, ``evidence-unsupported``,
  ``evidence-question``, ``evidence-hypothetical``, ``evidence-reported``, ``evidence-negated``;
* substance: ``no-why-or-how``;
* novelty (``judge.novelty``): ``in-agents-md``, ``in-docs``, ``duplicate``, ``forgotten``,
  ``supersedes-user-record``, ``supersedes-conflict``;
* value of what only the assistant concluded (R19): ``rediscoverable``, ``docs-suggestion``.

Adjustments (counted, not drops): ``source-assistant`` (the user's own words do not carry the
claim), ``status-unverified`` (source assistant is always stored unverified, R20),
``evidence-cleared`` (an assistant record's "evidence" that is not the user's words is removed),
``supersedes-unknown`` and ``supersedes-kept-both`` (``judge.novelty``).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from chord_git.extraction.schema import CandidateRecord
from chord_git.judge import core
from chord_git.judge.novelty import ExistingMemory, existing_memory
from chord_git.secrets import scan_added_lines
from chord_git.support.dataclass_lazy import dataclass

__all__ = ["REASONS", "Accepted", "Dropped", "ExistingMemory", "GuardResult", "check", "docs_suggestions",
           "existing_memory", "secret_positions"]

REASONS = core.REASONS
# Where a rediscoverable fact worth keeping is suggested (R19, R29): the user moves it or not.
DOCS_SUGGESTION_PATH = "docs/project-notes.md"
# A reply proposing more than this is not a session's worth of memory; the rest is dropped, counted.
MAX_RECORDS_PER_REPLY = 20


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
    # Every reason each candidate's checks found, by position (the decision is the first).
    findings: tuple[tuple[int, tuple[str, ...]], ...] = ()

    @property
    def drop_counts(self) -> dict[str, int]:
        counts = Counter(d.reason for d in self.dropped)
        return {reason: counts[reason] for reason in REASONS if counts[reason]}


def _strip(candidate: CandidateRecord) -> CandidateRecord:
    evidence = candidate.evidence.strip() if candidate.evidence is not None else None
    supersedes = candidate.supersedes.strip() if candidate.supersedes is not None else None
    return candidate.model_copy(update={
        "summary": candidate.summary.strip(), "statement": candidate.statement.strip(),
        "why": candidate.why.strip(), "how_to_apply": candidate.how_to_apply.strip(),
        "evidence": evidence or None, "supersedes": supersedes or None,
    })


def secret_positions(candidates: Sequence[CandidateRecord]) -> set[int]:
    """Positions of candidates in which either layer finds a secret (one scan for the reply)."""
    added: dict[str, list[tuple[int, str]]] = {}
    for position, candidate in enumerate(candidates):
        lines = [line for _name, text in core.fields(candidate) for line in text.split("\n")]
        added[str(position)] = list(enumerate(lines, start=1))
    if not added:
        return set()
    return {int(hit.path) for hit in scan_added_lines(added)}


def check(candidates: Sequence[CandidateRecord], user_texts: Sequence[str],
          existing: ExistingMemory, *, turns: Sequence[tuple[str, str]] = (), agents_md: str = "",
          docs: Sequence[str] = (), session: str | None = None) -> GuardResult:
    """Judge every record of a reply (``judge.core``); ``user_texts`` are the user messages as
    sent, ``turns`` the whole conversation as sent (role, text), ``agents_md`` the AGENTS.md copy
    and ``docs`` the project's docs as read (never sent), ``session`` this run's session tag."""
    ctx = core.context(user_texts, turns=turns, agents_md=agents_md, docs=docs, existing=existing, session=session)
    stripped = [_strip(c) for c in candidates]
    secrets = secret_positions(stripped[:MAX_RECORDS_PER_REPLY])
    accepted: list[Accepted] = []
    dropped: list[Dropped] = []
    adjusted: Counter[str] = Counter()
    found: list[tuple[int, tuple[str, ...]]] = []
    for position, candidate in enumerate(stripped):
        if position >= MAX_RECORDS_PER_REPLY:
            dropped.append(Dropped(position, "too-many-records"))
            continue
        ctx.secret = position in secrets
        verdict = core.judge(candidate, ctx)
        adjusted.update(verdict.adjusted)
        found.append((position, verdict.reasons))
        if verdict.reason is not None:
            dropped.append(Dropped(position, verdict.reason))
            continue
        kept = candidate.model_copy(update=dict(verdict.updates)) if verdict.updates else candidate
        accepted.append(Accepted(position, kept))
        ctx.seen.keep(kept.summary, kept.statement, kept.supersedes)
    return GuardResult(tuple(accepted), tuple(dropped), dict(adjusted), tuple(found))


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
