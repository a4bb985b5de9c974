"""Rules over clause structure: a frame of slots filled from per-language word tables.

A rule matches a clause when every slot of one of its slot sets matches inside that clause (in
any order), and no context cancels it: a negation outside the rule's own words (a prohibition:
"never merge without review"), a gate kept on the act ("before a force push, check the branch"),
a question, a hypothetical, an incident told as a reason ("the script used to run git clean"),
someone else's view ("Ana says we can skip review"), or a turn-down that follows ("…, but we
don't do that any more"; "a colleague proposed X; the user rejected it"). A rule may set some
slots' words aside first (``masks``: "prepare the release" is not releasing). The rule's own words are set aside before the clause is searched for a
negation, so a grant worded with a negation of its own ("no need to ask", "不用等", "ohne
Review", "確認なしで") never cancels itself; so are a safeguard waived ("without reading it",
"不用备份": it drops a precaution, it forbids nothing) and a condition before the act ("if the
tool is not installed, …": it says when, not whether).

Word tables are data (``rules/``): one table per slot and language, each entry a regular
expression fragment written as people write the words. Every table of every language is joined
into one pattern per slot, so a sentence that mixes languages ("main に直接 push していい") is
read as it is written. Latin-script entries are bounded by letters and digits only, so an entry
next to CJK text still matches ("main分支"). Every pattern is linear (no nested quantifiers over
unbounded text): memory text is untrusted input.

A rule carries its examples (must match, must not match, and known gaps that are tracked but do
not fail); ``load`` refuses a rule without both kinds, and one test runs every example.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from chord_git.judge import literals
from chord_git.support.dataclass_lazy import dataclass, field
from chord_git.support.regex_lazy import lazy

# Letters and digits of Latin scripts: what a Latin-script word may not touch at either end.
_LATIN = "A-Za-z0-9\u00c0-\u024f"
# How far around a match its clause is read: a sentence rarely runs longer.
CLAUSE_REACH = 160
# Sentence and clause breaks of the supported languages; contrast words start a new clause.
_CLAUSE_BREAK = lazy(
    r"[.;!?](?=\s|$)|[\n。；！？]"
    r"|(?<![" + _LATIN + r"])(?:but|however|although|though|whereas|pero|sino|aunque|aber|sondern|jedoch|obwohl"
    r"|mais|cependant|toutefois|bien\s+que)(?![" + _LATIN + r"])"
    r"|但是|但|不过|可是|然而|けど|けれど|しかし|でも|ただし"
    # another subject takes over: "draft the notes yourself, I'll tag and publish"
    r"|,\s*(?=(?:i|we)(?:'ll|\s+will|'m|\s+am|\s+do|\s+handle)\b)",
    re.IGNORECASE)

_CJK_CHAR = lazy(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
# A sentence ends at its mark (a dot only before a space: "2.31" and "main.py" go on).
_SENTENCE_END = lazy(r"[.!?](?=\s|$)|[\n。！？]")


@dataclass(frozen=True)
class Examples:
    match: tuple[str, ...]  # texts the rule must flag
    benign: tuple[str, ...]  # neighbours it must leave alone (one in a second language at least)
    gaps: tuple[str, ...] = ()  # known misses, tracked by the example test without failing it


@dataclass(frozen=True)
class Rule:
    id: str
    reason: str  # the judge's reason when the rule matches
    slots: Mapping[str, Mapping[str, tuple[str, ...]]]  # slot -> language -> fragments
    # Alternatives: every slot of one must match in a clause; a slot written "!name" must not.
    needs: tuple[tuple[str, ...], ...]
    examples: Examples
    cancel_on_negation: bool = True  # a standing token (a flag) is cancelled by a prohibition too
    # Slots whose words are set aside before the others are looked for: what they match says
    # something else than the act ("prepare the release" is not releasing).
    masks: tuple[str, ...] = ()
    # Slots that cancel a match anywhere in its sentence when the act is the sentence's condition:
    # the remedy of a leak told after a contrast ("si alguien pega un token …, aunque sea por
    # privado, se rota"); an order to leak stays one ("paste it in the issue, but rotate it later").
    sentence_not: tuple[str, ...] = ()
    patterns: dict[str, re.Pattern[str]] = field(default_factory=dict, compare=False, repr=False)

    def pattern(self, slot: str) -> re.Pattern[str]:
        found = self.patterns.get(slot)
        if found is None:
            found = self.patterns[slot] = compile_table(self.slots[slot].values())
        return found


def bounded(fragment: str) -> str:
    """A fragment with Latin-letter bounds where it starts or ends with a Latin letter or digit."""
    head = re.match(r"\\?[" + _LATIN + "]", fragment) is not None and not fragment.startswith(("\\s", "\\S", "\\d"))
    tail = re.search(r"[" + _LATIN + r"]\)?[?*]?$", fragment) is not None
    return (f"(?<![{_LATIN}])" if head else "") + f"(?:{fragment})" + (f"(?![{_LATIN}])" if tail else "")


# Where a Latin letter or digit meets a CJK character in a fragment: people write a space there or
# not ("SSL 検証", "SSL検証"; "main 分支"), so the fragment takes both.
_SCRIPT_SEAM = re.compile(r"(?<=[A-Za-z0-9])(?=[\u3040-\u30ff\u3400-\u9fff])|(?<=[\u3040-\u30ff\u3400-\u9fff])(?=[A-Za-z0-9])")


_HEAD = f"(?<![{_LATIN}])"


def table_source(tables: Iterable[Sequence[str]]) -> str:
    """The alternation of every fragment of every language's table, longest first.

    Neighbouring fragments that start at a word's beginning share one test of it: the engine tries
    an alternation's fragments at every position of a text, and each fragment re-testing the same
    lookbehind first was half of what the refusal slots cost. ``(?<!X)(?:a)|(?<!X)(?:b)`` and
    ``(?<!X)(?:(?:a)|(?:b))`` try the same fragments in the same order at every position (the test
    reads no character), so they find the same matches; only neighbours are grouped, so the order
    of the whole alternation is kept."""
    parts: list[str] = []
    run: list[str] = []
    for part in table_alternatives(tables):
        if part.startswith(_HEAD):
            run.append(part[len(_HEAD):])
            continue
        if run:
            parts.append(f"{_HEAD}(?:{'|'.join(run)})")
            run = []
        parts.append(part)
    if run:
        parts.append(f"{_HEAD}(?:{'|'.join(run)})")
    return "|".join(parts)


def table_alternatives(tables: Iterable[Sequence[str]]) -> list[str]:
    """Every fragment of every language's table as an alternative of its own, bounded, in the
    order of ``table_source``: longest first, equal lengths in text order, so every process builds
    the same alternation."""
    fragments = sorted({f for table in tables for f in table}, key=lambda f: (-len(f), f))
    return [bounded(_SCRIPT_SEAM.sub(r"\\s?", f)) for f in fragments]


def compile_table(tables: Iterable[Sequence[str]]) -> re.Pattern[str]:
    """One case-insensitive pattern for every fragment of every language's table (``table_source``)."""
    return lazy(table_source(tables), re.IGNORECASE)


@dataclass(frozen=True)
class Contexts:
    """What cancels a match in its clause: negators, and the sentence's mood (``mood``)."""

    negation: re.Pattern[str]
    gate: re.Pattern[str]  # a gate kept on the act that opens before it ("before a force push, check …")
    trailing: re.Pattern[str]  # a negation after the act that still forbids it ("--yolo is never used")
    question: re.Pattern[str]
    hypothetical: re.Pattern[str]
    past: re.Pattern[str]  # what happened once, told as a reason
    reported: re.Pattern[str]  # someone else's view
    proposed: re.Pattern[str]  # someone else's proposal
    rejected: re.Pattern[str]  # the user turning a proposal down
    speaker: re.Pattern[str]  # the user as the reporting verb's subject: their own words
    accepted: re.Pattern[str]  # the user taking up what someone else proposed
    substitute: re.Pattern[str]  # a next clause that puts something in the act's place
    rejected_after: re.Pattern[str]  # a next clause that turns the act down ("…, but we don't do that")
    user_rejects: re.Pattern[str]  # the user turning it down later in the text ("…; the user rejected it")
    third_party: re.Pattern[str]  # someone other than the user, whose proposal that turn-down answers
    # a safeguard waived ("no need to ask me", "without reading it", "不用备份"): worded with a
    # negation, it drops a precaution from the act, it never forbids the act
    waived: re.Pattern[str]
    condition: re.Pattern[str]  # a condition before the act: its negations say when, not whether


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence holding ``text[start:end]`` (for its mood: a question mark ends it)."""
    left = max(0, start - 2 * CLAUSE_REACH)
    stops = [m.end() for m in _SENTENCE_END.finditer(text, left, start)]
    begin = stops[-1] if stops else left
    after = _SENTENCE_END.search(text, end, end + 2 * CLAUSE_REACH)
    return begin, after.end() if after else min(len(text), end + 2 * CLAUSE_REACH)


@dataclass(frozen=True)
class Hit:
    rule: str
    reason: str
    span: tuple[int, int]


def _masked(clause: str, spans: Iterable[tuple[int, int]]) -> str:
    """The clause with the spans blanked: spaces for Latin text, an ideograph for CJK text, so that
    a negator glued to a masked verb still reads as one ("不写进" -> "不一一")."""
    chars = list(clause)
    for lo, hi in spans:
        chars[lo:hi] = ["一" if _CJK_CHAR.match(ch) else " " for ch in chars[lo:hi]]
    return "".join(chars)


def windows(text: str) -> Iterator[tuple[int, int]]:
    """The clauses of ``text``, a clause longer than two reaches as windows of two reaches that
    overlap by one: every stretch of ``CLAUSE_REACH`` characters without a break lies whole in
    one window, and every character is read by at most two windows (linear on any text)."""
    begin = 0
    for stop in [*(m.start() for m in _CLAUSE_BREAK.finditer(text)), len(text)]:
        if stop - begin <= 2 * CLAUSE_REACH:
            if text[begin:stop].strip():
                yield begin, stop
        else:
            for lo in range(begin, stop - CLAUSE_REACH, CLAUSE_REACH):
                yield lo, min(stop, lo + 2 * CLAUSE_REACH)
        after = _CLAUSE_BREAK.match(text, stop)
        begin = after.end() if after else stop + 1


@dataclass(frozen=True)
class Screen:
    """Which slots of a rule set may match a text, from one pass over it (``literals``): every
    fragment's required strings, looked for together as one trie of words in the text's shadow.
    Built for judging many texts (an import): its build costs about what compiling every slot does."""

    finder: literals.Finder  # every word a text holds
    keyed: Mapping[str, tuple[tuple[int, str, tuple[frozenset[str], ...]], ...]]  # word -> (rule, slot, other sets)
    always: tuple[frozenset[str], ...]  # per rule, the slots with a fragment that requires nothing

    def readable(self, text: str) -> tuple[frozenset[str], ...]:
        """Per rule, the slots that may match ``text``."""
        present = self.finder.present(text)
        slots = [set(always) for always in self.always]
        for word in present:
            for rule, slot, rest in self.keyed.get(word, ()):
                if slot not in slots[rule] and all(not strings.isdisjoint(present) for strings in rest):
                    slots[rule].add(slot)
        return tuple(frozenset(found) for found in slots)


def build_screen(rules: Sequence[Rule]) -> Screen:
    requirement = literals.deriver()
    keyed: dict[str, list[tuple[int, str, tuple[frozenset[str], ...]]]] = {}
    always: list[frozenset[str]] = []
    words: set[str] = set()
    for number, rule in enumerate(rules):
        free = set()
        for slot, tables in rule.slots.items():
            derived = [requirement(_SCRIPT_SEAM.sub(r"\\s?", f)) for table in tables.values() for f in table]
            if any(found is None for found in derived):
                free.add(slot)
                continue
            for found in derived:
                assert found is not None
                words.update(word for strings in found for word in strings)
                for word in found[0]:
                    keyed.setdefault(word, []).append((number, slot, found[1:]))
        always.append(frozenset(free))
    return Screen(literals.Finder(words), {word: tuple(found) for word, found in keyed.items()}, tuple(always))


@dataclass(frozen=True)
class RuleSet:
    """Rules read together, with the screen built for them once someone judges many texts."""

    rules: tuple[Rule, ...]
    screens: list[Screen] = field(default_factory=list, compare=False, repr=False)

    def screen(self) -> Screen:
        if not self.screens:
            self.screens.append(build_screen(self.rules))
        return self.screens[0]


def find(rules: RuleSet | Sequence[Rule], text: str, contexts: Contexts) -> list[Hit]:
    """Every rule that matches a clause of ``text`` in a context that does not cancel it."""
    readable = None
    if isinstance(rules, RuleSet):
        readable = rules.screens[0].readable(text) if rules.screens else None
        rules = rules.rules
    hits: list[Hit] = []
    clauses = list(windows(text))
    for number, rule in enumerate(rules):
        hit = _first(rule, text, clauses, contexts, None if readable is None else readable[number])
        if hit is not None:
            hits.append(hit)
    return hits


def _first(rule: Rule, text: str, clauses: list[tuple[int, int]], contexts: Contexts,
           readable: frozenset[str] | None) -> Hit | None:
    # Clause by clause: each slot's pattern reads each clause once, so a text of many clauses, or of
    # one endless clause, costs what its length does. A slot the screen rules out is not read.
    if readable is not None and not any(all(s.startswith("!") or s in readable for s in needed) for needed in rule.needs):
        return None
    for begin, end in clauses:
        clause = text[begin:end]
        if rule.masks:
            clause = _masked(clause, [m.span() for slot in rule.masks if readable is None or slot in readable
                                      for m in rule.pattern(slot).finditer(clause)])
        # A slot shared by several alternatives ("removed" in two, "force" in two) is read once
        # per clause: the alternatives that fail on it would otherwise each read it again.
        read: dict[str, list[tuple[int, int]]] = {}
        for needed in rule.needs:
            spans: list[tuple[int, int]] = []
            for slot in needed:
                if slot.startswith("!"):
                    name = slot[1:]
                    if readable is not None and name not in readable:
                        continue
                    if (read[name] if name in read else rule.pattern(name).search(clause)):
                        break
                    continue
                found = read.get(slot)
                if found is None:
                    found = read[slot] = [] if readable is not None and slot not in readable else \
                        [m.span() for m in rule.pattern(slot).finditer(clause)]
                if not found:
                    break
                spans.extend(found)
            else:
                if spans and not _cancelled(rule, text, clause, spans, (begin, end), contexts, readable):
                    first = min(spans)
                    return Hit(rule.id, rule.reason, (begin + first[0], begin + first[1]))
    return None


def _cancelled(rule: Rule, text: str, clause: str, spans: list[tuple[int, int]], bounds: tuple[int, int],
               contexts: Contexts, readable: frozenset[str] | None = None) -> bool:
    # Set aside the words of every slot of this rule in the clause: their own negations are part
    # of what they say ("no need to ask", "without review", "确认なしで").
    every = [m.span() for slot in rule.slots if readable is None or slot in readable
             for m in rule.pattern(slot).finditer(clause)]
    waived = [m.span() for m in contexts.waived.finditer(clause)]
    act = min(lo for lo, _hi in spans)
    # (a condition that opens before the act, even one that holds a word of it: "if the tool is
    # not installed, run its installer from …")
    conditions = [m.span() for m in contexts.condition.finditer(clause) if m.start() <= act]
    rest = _masked(clause, [*spans, *every, *waived, *conditions])
    last = max(hi for _lo, hi in spans)
    if rule.cancel_on_negation and _negated(rest, last, contexts):
        return True
    # A gate that opens before the act, or between its words, may name the act itself ("before
    # resetting, stash"; "avant un push forcé, vérifier"; "download it, show it to the user, run it
    # once they approve"): read on the clause as written, except where a safeguard is waived
    # ("部署无需审批" holds "需审批", "without asking the user" "asking the user").
    if rule.cancel_on_negation and any(m.start() < last and not any(lo <= m.start() < hi for lo, hi in waived)
                                       for m in contexts.gate.finditer(clause)):
        return True
    if contexts.substitute.match(text, bounds[1], bounds[1] + CLAUSE_REACH):
        return True
    if contexts.rejected_after.match(text, bounds[1], bounds[1] + CLAUSE_REACH):
        return True
    s_begin, s_end = sentence_bounds(text, *bounds)
    if any(lo <= act < hi for lo, hi in conditions) \
            and any(rule.pattern(slot).search(text, s_begin, s_end) for slot in rule.sentence_not):
        return True
    # Someone else named at the act's first words ("Le prestataire a demandé le .env …"), turned
    # down by the user after the act, in its clause or later ("…全削除したいが、ユーザーは反対").
    # Or someone else's view told with its reporting verb after the act, as Japanese tells it:
    # "先輩は … --no-verify で飛ばせばよいと言ったが".
    if contexts.third_party.search(text, s_begin, bounds[0] + min(spans)[1]) \
            and (contexts.user_rejects.search(text, bounds[0] + last, bounds[1] + 2 * CLAUSE_REACH)
                 or contexts.reported.search(text, bounds[0] + last, s_end)):
        return True
    sentence = text[s_begin:s_end]
    if contexts.question.search(sentence) or contexts.hypothetical.search(sentence):
        return True
    # An incident is told before the act it names ("the script used to run git clean"); one told
    # after it ("merge without review, as we used to") leaves the order standing.
    past = contexts.past.search(text, s_begin, s_end)
    if past is not None and past.start() < bounds[0] + act:
        return True
    # Someone else's view: a reporting verb before the rule's words in the sentence.
    first = bounds[0] + min(lo for lo, _hi in spans)
    return someone_else(contexts, text, min(s_begin, bounds[0]), first, min(len(text), s_end + CLAUSE_REACH))


def someone_else(contexts: Contexts, text: str, begin: int, end: int, stop: int | None = None,
                 narrowed: tuple[re.Pattern[str], re.Pattern[str]] | None = None) -> bool:
    """In ``text[begin:end]``, someone other than the user reports a view ("Ana says …", not "the
    user said …") the user did not take up before ``stop``, or makes a proposal the user turned
    down before ``stop``. ``narrowed``: ``contexts.reported`` and ``.proposed`` narrowed to the
    text (``literals.Lexicon``)."""
    stop = len(text) if stop is None else stop
    reported, proposed = narrowed if narrowed is not None else (contexts.reported, contexts.proposed)
    for pattern, proposal in ((reported, False), (proposed, True)):
        for found in pattern.finditer(text, begin, end):
            head = text[max(begin, found.start() - 40):found.start()]
            subject = re.match(r"[^\W\d_]+", found.group())
            if contexts.speaker.search(head) or (subject is not None and contexts.speaker.search(head + subject.group())):
                continue
            if proposal:
                if contexts.rejected.search(text, found.end(), stop):
                    return True
            elif not contexts.accepted.search(text, found.end(), stop):
                return True
    return False


# What starts a purpose, a result or a condition after the rule's words: a negation past it
# describes the effect ("--yolo so it never asks") or the occasion ("terraform destroy when the
# plan doesn't add up"), it does not forbid the act. (Chinese and Japanese put the condition
# first: "消す時は事前に聞いて" asks before the act, so their "when" stops nothing.)
_CONSEQUENCE = lazy(
    r"(?<![" + _LATIN + r"])(?:so|so\s+that|to|which|that|and\s+then|then|because|damit|sodass|para\s+que|para|pour\s+que"
    r"|pour|afin\s+de|porque|weil|parce\s+que|when|whenever|if|once|unless|while|as\s+soon\s+as|wenn|falls|sobald"
    r"|cuando|si|mientras|quand|lorsque|d[èe]s\s+que)(?![" + _LATIN + r"])"
    r"|以便|这样|从而|免得|ので|から|ように",
    re.IGNORECASE)
# How far past the rule's words a negation still belongs to them ("--yolo is never used", "wird nie
# aufgenommen", "は使わず", "禁止").
_AFTER_REACH = 48


def _negated(masked: str, end: int, contexts: Contexts) -> bool:
    """A negation before or among the rule's words, or right after them before a purpose, result
    or condition begins (``contexts.trailing``: "without", "instead of" after the act say how it is
    done, not that it is not)."""
    if contexts.negation.search(masked, 0, end):
        return True
    tail = masked[end:end + _AFTER_REACH]
    stop = _CONSEQUENCE.search(tail)
    return bool(contexts.trailing.search(tail[:stop.start()] if stop else tail))


def mentioned(rules: RuleSet | Sequence[Rule], text: str) -> frozenset[str]:
    """The rules whose words all stand in one clause of ``text``, whatever the clause's context
    cancels: what a rule that forbids, gates or asks about an act names ("never force-push a
    shared branch" names a force push)."""
    found: set[str] = set()
    clauses = [text[begin:end] for begin, end in windows(text)]
    for rule in (rules.rules if isinstance(rules, RuleSet) else rules):
        if any(all(rule.pattern(slot).search(clause) for slot in needed if not slot.startswith("!"))
               for clause in clauses for needed in rule.needs):
            found.add(rule.id)
    return frozenset(found)


def load(rules: Iterable[Rule]) -> RuleSet:
    """The rules that carry examples of both kinds; a rule without them is not loaded."""
    return RuleSet(tuple(rule for rule in rules if rule.examples.match and rule.examples.benign))
