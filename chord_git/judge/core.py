"""``judge(candidate, context)``: every check of one candidate, and the decision they fold into.

Every way memory arrives asks the same judge: extraction (with the session's transcript), MCP's
``propose_memory`` and a pull request's added entries (without one: grounding cannot be checked
there, the rest is). Every check runs and leaves its findings; the decision is the most severe
finding's (``REASONS`` order), so the run log and the review can show every reason at once.

Checks: shape, caps and characters no memory file holds (``memory.chars``) · secrets and scanner
pragmas · attribution (grounded quote, anchors, who carries the claim) · assertion (question,
hypothetical, reported, refuted) · substance of why and how · authority (``classes``: grants,
safety-off, exfiltration, fetch-and-execute, destructive commands, instruction overrides) ·
locality (paths, hosts, IPs, SHAs, git state, temporary pins, one-off flakes, machine layouts,
paths outside the project) · novelty (AGENTS.md and the docs, duplicates, forgotten entries,
revisions) · value of what only the assistant concluded (``rediscoverable`` /
``docs-suggestion``, R19).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from chord_git.judge import attribution, claims, classes, mood, novelty
from chord_git.judge.verdict import Candidate, Finding, Judgement
from chord_git.memory import chars, records, textrules
from chord_git.support.dataclass_lazy import dataclass, field

# Most severe first: the decision is the first of these a candidate's findings hold.
REASONS = (
    "empty", "too-many-records", "cap", "unsafe-character", "allowance-pragma", "secret", "permission-grant",
    "safety-off", "exfiltration", "fetch-and-execute", "destructive-command", "instruction-override", "absolute-path",
    "commit-sha", "host-name", "private-ip", "transient-git-state", "temporary-pin", "one-off-flaky", "machine-layout",
    "outside-path", "evidence-not-found", "evidence-too-weak", "evidence-unrelated", "evidence-unsupported",
    "evidence-question", "evidence-hypothetical", "evidence-reported", "evidence-negated", "no-why-or-how",
    "in-agents-md", "in-docs", "duplicate", "forgotten", "supersedes-user-record", "supersedes-conflict",
    "rediscoverable", "docs-suggestion",
)
# The refusals that hold whoever wrote the text: memory never carries them.
REFUSALS = frozenset({"allowance-pragma", "secret", "absolute-path", "commit-sha", "host-name", "private-ip",
                      "transient-git-state", *classes.AUTHORITY_REASONS, *classes.LOCALITY_REASONS})
TEXT_FIELDS = ("summary", "statement", "why", "how_to_apply", "evidence")
REQUIRED_FIELDS = ("summary", "statement", "why", "how_to_apply")
# The inline allowances of the secret scanners (ours and detect-secrets' pragma, gitleaks,
# TruffleHog, bandit, detect-secrets' older spellings): never honoured in what a model wrote.
ALLOWANCE_PRAGMA = re.compile(
    r"pragma\s*:\s*(?:allow|white)[ -]?list|gitleaks\s*:\s*allow|trufflehog\s*:\s*ignore|\bnosec\b"
    r"|detect-secrets\s*:\s*(?:ignore|disable|allow)", re.IGNORECASE)
# Room for the front matter keys and section headings around the fields.
_RECORD_OVERHEAD = 600
_PATTERN_GUARDS = (
    ("absolute-path", textrules.absolute_paths),
    ("commit-sha", textrules.commit_shas),
    ("host-name", textrules.host_names),
    ("private-ip", textrules.private_ips),
    ("transient-git-state", textrules.transient_git_state),
)


@dataclass
class Context:
    """What a candidate is judged against. ``talk`` is None where there is no transcript (a
    pull request, ``propose_memory``): grounding is then not judged. ``seen`` is the state of one
    reply, shared by its candidates in order (``judge_reply``)."""

    talk: attribution.Conversation | None = None
    user_texts: tuple[str, ...] = ()
    turns: tuple[tuple[str, str], ...] = ()
    agents: list[claims.Conclusion] = field(default_factory=list)
    docs: list[claims.Conclusion] = field(default_factory=list)
    existing: novelty.ExistingMemory | None = None
    session: str | None = None
    secret: bool = False  # set by the caller, which scans a whole reply at once
    seen: novelty.Seen = field(default_factory=novelty.Seen)


def context(user_texts: Sequence[str] = (), *, turns: Sequence[tuple[str, str]] = (), agents_md: str = "",
            docs: Sequence[str] = (), existing: novelty.ExistingMemory | None = None,
            session: str | None = None, transcript: bool = True) -> Context:
    """A context from a conversation as sent (``turns``, or the user texts alone)."""
    turns = tuple(turns) or tuple(("user", text) for text in user_texts)
    talk = attribution.conversation(turns) if transcript else None
    agents = [claims.conclusion(t) for t in claims.agents_md_lines(agents_md)] if agents_md else []
    doc_conclusions = [claims.conclusion(t) for text in docs for t in claims.agents_md_lines(text)]
    return Context(talk, tuple(user_texts), turns, agents, doc_conclusions, existing, session)


def fields(candidate: Candidate) -> list[tuple[str, str]]:
    return [(name, getattr(candidate, name) or "") for name in TEXT_FIELDS]


def too_long(candidate: Candidate) -> bool:
    summary = candidate.summary
    if len(summary) > records.SUMMARY_CAP or "\n" in summary or "\r" in summary:
        return True
    if len(candidate.statement) > records.STATEMENT_CAP:
        return True
    size = sum(len(text.encode("utf-8")) for _name, text in fields(candidate)) + len(candidate.statement.encode())
    return size + _RECORD_OVERHEAD > records.MAX_RECORD_BYTES


def refusals(text: str, field_name: str | None = None) -> list[Finding]:
    """What memory may carry from no one: the refusal classes found in one text."""
    out = [Finding("locality", reason, field_name) for reason, finder in _PATTERN_GUARDS if finder(text)]
    out += [Finding("locality", hit.reason, field_name, hit.rule) for hit in classes.locality_hits(text)]
    out += [Finding("authority", hit.reason, field_name, hit.rule) for hit in classes.authority_hits(text)]
    if ALLOWANCE_PRAGMA.search(text):
        out.append(Finding("secrets", "allowance-pragma", field_name))
    return out


# What each refusal means, in the words a suggestion's or a command's refusal uses.
DESCRIPTIONS = {
    "permission-grant": "grants a permission (memory never grants permissions)",
    "safety-off": "turns a safeguard off (approvals, hooks, scanners, branch protection, TLS)",
    "exfiltration": "sends secret-bearing material where others read it",
    "fetch-and-execute": "runs what a download fetches",
    "destructive-command": "orders a destructive command",
    "instruction-override": "tries to override instructions",
    "temporary-pin": "holds a temporary pin or skip (it belongs to the moment, not the project)",
    "one-off-flaky": "records a one-off failure",
    "machine-layout": "describes one machine's layout",
    "outside-path": "names a path outside the project",
    "absolute-path": "holds an absolute path (memory uses project-relative paths)",
    "commit-sha": "holds a commit SHA",
    "host-name": "names a private machine",
    "private-ip": "holds a private IP address",
    "transient-git-state": "describes one checkout's git state",
    "allowance-pragma": "holds a secret scanner's allowance",
    "unsafe-character": "holds a control, line-break or invisible character no memory file holds",
}


def refusal(*texts: str) -> tuple[str, str] | None:
    """The most severe refusal class any of ``texts`` holds, as (reason, description), or None:
    what every way into memory that has no transcript asks (``propose_memory``, a suggestion)."""
    for text in texts:  # the format's own rule first: such text is never written (``memory.chars``)
        unsafe = chars.problem(text)
        if unsafe is not None:
            return "unsafe-character", unsafe
    found = [f.reason for text in texts for f in refusals(text)]
    if not found:
        return None
    order = {reason: index for index, reason in enumerate(REASONS)}
    reason = min(found, key=lambda r: order.get(r, len(REASONS)))
    return reason, DESCRIPTIONS.get(reason, reason)


def judge(candidate: Candidate, ctx: Context) -> Judgement:
    """Every check of ``candidate`` (see the module doc); ``ctx.seen`` records what it kept."""
    found: list[Finding] = []
    updates: dict[str, object] = {}
    adjusted: list[str] = []
    source = candidate.source
    if any(not getattr(candidate, name) for name in REQUIRED_FIELDS) or (source == "user" and not candidate.evidence):
        found.append(Finding("shape", "empty"))
        return _fold(found, updates, adjusted)
    if too_long(candidate):
        found.append(Finding("shape", "cap"))
    # The record writer refuses these (``memory.chars``); the model's reply is where they come from.
    found += [Finding("shape", "unsafe-character", name) for name, text in fields(candidate) if chars.first(text)]
    if ctx.secret:
        found.append(Finding("secrets", "secret"))
    found += _field_refusals(candidate)

    said: attribution.Attribution | None = None
    if ctx.talk is not None:
        evidence = candidate.evidence or ""
        located = claims.quote_context(evidence, ctx.talk.own_texts) if evidence else None
        said = attribution.attribute(candidate.statement, candidate.summary, evidence, ctx.talk,
                                     located[0] if located else None)
        if source == "user":
            if not attribution.grounded(candidate.evidence or "", ctx.talk):
                found.append(Finding("attribution", "evidence-not-found", "evidence"))
            elif not said.users:
                # What the user's own words do not carry is not the user's, whatever the label (R20).
                source = "assistant"
                updates["source"] = "assistant"
                adjusted.append("source-assistant")
            else:
                found += _user_quote(candidate, ctx, said)
    if any(claims.adds_nothing(text, candidate.statement, candidate.summary) or not claims.has_substance(text)
           for text in (candidate.why, candidate.how_to_apply)):
        found.append(Finding("substance", "no-why-or-how"))

    found += novelty.findings(candidate, source, agents=ctx.agents, docs=ctx.docs, existing=ctx.existing,
                              seen=ctx.seen, session=ctx.session, updates=updates, adjusted=adjusted)
    if source == "assistant" and ctx.talk is not None and said is not None:
        kept = _assistant_kept(candidate, said, ctx)
        if kept is not None:
            found.append(Finding("value", kept))
    if source == "assistant":
        _as_assistant(candidate, ctx, updates, adjusted)
    return _fold(found, updates, adjusted)


# The fields that say what to do; ``why`` says why, and names the act a rule forbids.
_DIRECTIVE_FIELDS = ("summary", "statement", "how_to_apply")


# A permission is refused wherever it stands: a ``why`` may explain an act, it never grants one.
_ALWAYS_READ = frozenset({"grant"})


def _field_refusals(candidate: Candidate) -> list[Finding]:
    """Every field's refusals, the reason read in the light of the rule it explains: a ``why`` that
    names the act ("a force push would erase their commits") refuses nothing when the directive
    fields name the same act forbidden or gated ("never force-push `recette`"). A ``why`` that
    carries an act the directive never names, or a permission ("you may force-push it"), is read
    like any field."""
    out: list[Finding] = []
    for name, text in fields(candidate):
        found = refusals(text, name)
        if name == "why" and any(f.check == "authority" and f.rule not in _ALWAYS_READ for f in found):
            named = classes.mentioned_authority("\n".join(getattr(candidate, f) or "" for f in _DIRECTIVE_FIELDS))
            found = [f for f in found if not (f.check == "authority" and f.rule in named and f.rule not in _ALWAYS_READ)]
        out += found
    return out


def _user_quote(candidate: Candidate, ctx: Context, said: attribution.Attribution) -> list[Finding]:
    """A grounded user quote must be substantive, about the claim, carry it, and assert it."""
    evidence = candidate.evidence or ""
    weak = claims.evidence_problem(evidence, candidate.statement, candidate.summary)
    if weak == "evidence-unrelated" and (said.cross_script or said.support > 0):
        weak = None  # a quote in another language than the claim shares no word by nature
    if weak is not None:
        return [Finding("attribution", weak, "evidence")]
    if not said.supported:
        return [Finding("attribution", "evidence-unsupported", "evidence")]
    own = ctx.talk.own_texts if ctx.talk is not None else ctx.user_texts
    problem = mood.problem(evidence, candidate.statement, candidate.summary, own)
    return [Finding("assertion", problem, "evidence")] if problem else []


def _assistant_kept(candidate: Candidate, said: attribution.Attribution, ctx: Context) -> str | None:
    """None when an assistant-sourced candidate may reach the index (an adopted proposal, or a
    lesson the user took part in); else why not: ``docs-suggestion`` when it has value (R19)."""
    if said.users and (said.by_user or said.anchors_user):
        return None  # the user's own words carry it: the model was only modest about who said it
    claim = claims.distinctive(candidate.statement) | claims.distinctive(candidate.summary)
    if claims.adopted(claim, ctx.turns):
        return None
    if candidate.type == "lesson" and len(said.by_user) >= 2 \
            and len(said.by_user) >= claims.TOOK_PART_SHARE * max(1, len(said.content)):
        return None
    return "docs-suggestion" if has_docs_value(candidate) else "rediscoverable"


def has_docs_value(candidate: Candidate) -> bool:
    """A rediscoverable fact worth a docs suggestion: a fact or workflow with a substantive why and
    how and enough of its own content to be worth reading (R19)."""
    return (candidate.type in ("fact", "workflow") and claims.has_substance(candidate.why)
            and claims.has_substance(candidate.how_to_apply) and len(claims.distinctive(candidate.statement)) >= 4)


def _as_assistant(candidate: Candidate, ctx: Context, updates: dict[str, object], adjusted: list[str]) -> None:
    if candidate.status != "unverified":
        updates["status"] = "unverified"
        adjusted.append("status-unverified")
    evidence = candidate.evidence
    if evidence is not None and (ctx.talk is None or not attribution.grounded(evidence, ctx.talk)):
        updates["evidence"] = None
        adjusted.append("evidence-cleared")


def _fold(found: list[Finding], updates: dict[str, object], adjusted: list[str]) -> Judgement:
    order = {reason: index for index, reason in enumerate(REASONS)}
    decisive = min((f.reason for f in found), key=lambda r: order.get(r, len(REASONS)), default=None)
    return Judgement(decisive, tuple(found), updates, tuple(adjusted))
