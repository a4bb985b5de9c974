"""Does the claim say the opposite of its evidence? Polarity compared clause by clause (R19).

A prohibition is an instruction, not a negated claim: "Don't push directly to main; always open a
pull request" supports "changes to main go through a pull request", and "colour not color"
supports "write colour". What refutes a claim is its evidence saying the same thing with the
other polarity: "never npm" against "use npm", "tests must be run" against "tests must never be
run", a quote cut out of its negation ("you to commit generated files" of "I don't want you to
commit generated files"). So each clause, or each part of a contrast, gets a polarity:

* **negated** when it holds a negation ("npm is never used", "must not", "不要用 npm",
  "プッシュしないで", "ist nicht erlaubt");
* **asserted** when it holds none;
* **unknown** when it holds a word that turns meaning by itself: switching off ("turn off", "关掉",
  "desactivar"), bad experience ("we got burned by", "已停用", "deprecated"), "without", "until",
  "except". "别把分支保护关掉" keeps branch protection on; "must pass without errors" asserts; such
  clauses are never taken as refuting or refuted.

A contrast makes two parts, the one it sets aside negated: "pnpm, not npm", "colour not color",
"rather than", "而不是", "statt", "plutôt que"; Japanese "キャメルケースではなく" sets aside what comes
before. A clause that restricts ("only", "only on those days", "其他", "nur", "seulement", "だけ")
is not compared: "deploy only on Tuesdays" and "don't deploy on other days" say one thing.

An asserted part and a negated part refute each other when they are about one thing: most of the
words of the two together (``SAME``, an anchor such as a tool or a code span weighing two) shared,
no word that the text also uses with the other polarity ("user rather than users"), and one part's
words all in the other's: a refutation flips what was said ("never npm" / "use npm"), where a
restatement in other words brings words of its own to both sides ("don't merge before the
reviewers approve" / "wait for reviewer approval before merging"; "keep PRs under 400 lines" /
"don't open PRs over 400 lines"). A clause with two negations ("不跑 e2e 就不要升级", "never
deploy without a green build") is a condition, not a prohibition: its polarity is not read, and
"prefer A over B" sets B aside as "A rather than B" does. A part that orders or bounds ("before",
"until", "under", "over", "at most", "前", "超过") refutes only a part with the same words but one:
"don't merge before the reviewers approve" and "wait for approval before merging" say one thing
in the two polarities, "tests must be run before merging" and "… never be run before merging" do not.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chord_git.judge import attribution, claims, frames, literals
from chord_git.judge.rules import contexts, words
from chord_git.support.regex_lazy import lazy

# Two parts are about one thing when this share of their words (weighted) is common to both.
SAME = 0.6

_CLAUSE = lazy(r"[.;!?:](?=\s|$)|[\n,，;；。！？、：—–]|\s-\s"
               r"|\s(?:but|and\s+then|because|since|so\s+that|pero|porque|aber|weil|mais|parce\s+que)\s"
               r"|但是|但|不过|因为|由于|所以", re.IGNORECASE)
_CONTRAST = (
    r"(?<![A-Za-z])(?:rather\s+than|instead\s+of|en\s+lugar\s+de|en\s+vez\s+de|statt|anstatt|plut[ôo]t\s+que"
    r"|au\s+lieu\s+de)(?![A-Za-z])|而不是|而非")
# "prefer A over B", "A takes precedence over B": "over" sets B aside only after a verb of preference.
_PREFERENCE = lazy(r"(?<![A-Za-z])(?:prefer\w*|favou?r\w*|choos\w+|pick\w*|opt\w*\s+for)(?![A-Za-z])", re.IGNORECASE)
_OVER = lazy(r"(?<![A-Za-z])over(?![A-Za-z])", re.IGNORECASE)
# Order and bounds: a part with one of these compares only word for word (see the module doc).
_LIMIT = (
    r"(?<![A-Za-z])(?:before|after|until|first|under|over|below|above|less|more|fewer|at\s+(?:most|least)|max(?:imum)?"
    r"|min(?:imum)?|exceed\w*|beyond|antes|despu[ée]s|primero|menos|m[áa]s|vor|bevor|nach|zuerst|erst|unter|[üu]ber"
    r"|mehr|weniger|h[öo]chstens|mindestens|avant|apr[èe]s|d'abord|moins|plus)(?![A-Za-z])"
    r"|之前|以前|前|先|之后|以后|后|超过|以上|以下|以内|至少|最多|前に|先に|以上|以下|以内|まで|超え")


class _Tables(NamedTuple):
    """The word tables a text's clauses are read with, narrowed to what the text holds."""

    turning: re.Pattern[str]
    negator: re.Pattern[str]
    limit: re.Pattern[str]
    restrictive: re.Pattern[str]
    continuation: re.Pattern[str]
    contrast: re.Pattern[str]


# Read a clause at a time, the tables were two thirds of judging evidence (each tried at every
# position of every clause); one pass over the whole text finds the strings they need, and the
# tables its clauses are read with keep only the fragments those allow (``literals.Lexicon``).
_LEXICON = literals.Lexicon([
    (frames.table_alternatives([*contexts.ADVERSE.values(), *contexts.OFF.values(), *contexts.TURNING.values()]),
     re.IGNORECASE),
    (frames.table_alternatives(contexts.NEGATORS.values()), re.IGNORECASE),
    (literals.alternatives(_LIMIT), re.IGNORECASE),
    (literals.alternatives(contexts.RESTRICTIVE), re.IGNORECASE),
    (literals.alternatives(contexts.CONTINUATION), re.IGNORECASE),
    (literals.alternatives(_CONTRAST), re.IGNORECASE),
])


def _tables(text: str) -> _Tables:
    return _Tables(*_LEXICON.narrowed(text))
# Japanese sets aside what comes before: "キャメルケースではなくスネークケース".
_CONTRAST_BEFORE = lazy(r"ではなくて|ではなく|じゃなく|でなく")
# English negators whose scope is what follows them inside a clause ("pnpm never npm", "colour not
# color"), unless a verb carries them ("is never used", "does not count", "must not").
_SCOPED = frozenset({"not", "never", "no"})
_AUXILIARY = lazy(
    r"(?:^|\s)(?:is|are|was|were|be|been|must|should|do|does|did|will|would|can|could|may|might|shall"
    r"|'s|'re)\s*$",
    re.IGNORECASE)
_PASSIVE = lazy(r"\s*(?:\w+ly\s+)?(?:be|been|being|[a-z]+ed|run|done|made|written|seen|used|allowed|permitted)\b",
                re.IGNORECASE)
_CJK = lazy(r"[\u3040-\u30ff\u3400-\u9fff]")
# Characters that say nothing of what a part is about: fillers and negations.
# (modal words carry polarity, not the topic: "必须" / "不要求"; "本" is "this", "编写" "write")
_CJK_FILLER_CHARS = frozenset("的了是在和与很也都就会好请把让对个种次时其此该之等要用做可以不没别勿未莫我你他她们希望必须需求本编写")

ASSERTED, NEGATED, UNKNOWN = "asserted", "negated", "unknown"
# Acronyms that name a thing as an anchor does ("UTC", "CSV").
_ACRONYMS = frozenset({"utc", "csv", "json", "yaml", "toml", "sql", "orm", "jwt", "oauth", "sso", "cdn", "dns", "tls", "ssl"})
Part = tuple[set[str], str, bool]  # words, polarity, whether the part orders or bounds


def _clauses(text: str) -> list[str]:
    return [piece.strip() for piece in _CLAUSE.split(text) if piece and piece.strip()]


def parts(clause: str) -> list[Part]:
    """The clause as parts about one thing each, with their polarity (see the module doc)."""
    return [(_tokens(text), polarity, limited) for text, polarity, limited in _shapes(clause, _tables(clause))]


# A part before its words are read: the text its words come from, its polarity, whether it orders
# or bounds. Polarity is cheap and words are not, and most pairs of texts never hold two parts of
# opposite polarity, so ``opposite`` reads words only once such a pair is there.
Shape = tuple[str, str, bool]


def _shapes(clause: str, tables: _Tables) -> list[Shape]:
    """The parts of a clause of a text before their words are read; ``tables`` are the text's."""
    if tables.turning.search(clause):
        return [(clause, UNKNOWN, False)]
    before = _CONTRAST_BEFORE.search(clause)
    if before is not None:
        return _two(clause[:before.start()], NEGATED, clause[before.end():], ASSERTED, tables)
    contrast = tables.contrast.search(clause)
    if contrast is None:
        preference = _PREFERENCE.search(clause)
        contrast = _OVER.search(clause, preference.end()) if preference is not None else None
    if contrast is not None:
        return _two(clause[:contrast.start()], ASSERTED, clause[contrast.end():], NEGATED, tables)
    negations = list(tables.negator.finditer(clause))
    if not negations:
        return [(clause, ASSERTED, tables.limit.search(clause) is not None)]  # no negation to take out
    if len(negations) >= 2:
        return [(clause, UNKNOWN, False)]
    match = negations[0]
    head = clause[:match.start()]
    if (match.group().casefold() in _SCOPED and head.strip() and not _AUXILIARY.search(head)
            and not _PASSIVE.match(clause, match.end()) and attribution.language(clause) == "en"):
        return _two(head, ASSERTED, clause[match.end():], NEGATED, tables)
    # ``_part`` without a second search: the one negation is the one found.
    return [(f"{head} {clause[match.end():]}", NEGATED, tables.limit.search(clause) is not None)]


def _part(text: str, polarity: str, tables: _Tables) -> Shape:
    # The negation is the polarity, not a word of what the part is about ("stop adding emojis").
    return tables.negator.sub(" ", text), polarity, tables.limit.search(text) is not None


def _two(first: str, first_polarity: str, second: str, second_polarity: str, tables: _Tables) -> list[Shape]:
    # A side without words is no part (contrasts are rare, so reading their words here is cheap).
    return [shape for shape in (_part(first, first_polarity, tables), _part(second, second_polarity, tables))
            if _tokens(shape[0])]


def _tokens(text: str) -> set[str]:
    """The part's words without category words (as ``attribution``), or with them when they are
    all it has ("tests must be run"); stems without a final e (``_key``); CJK text as characters."""
    found = attribution.claim_words(text) | attribution.anchors(text)
    if not found:
        found = claims.distinctive(text)
    keys = {_key(t) for t in found if not _CJK.search(t)}
    for phrase in attribution.CATEGORY_CJK:
        text = text.replace(phrase, " ")
    return keys | {ch for ch in text if _CJK.match(ch) and ch not in _CJK_FILLER_CHARS}


def _key(token: str) -> str:
    """"merge", "merged", "merging" -> "merg", "emojis" -> "emoji"; "colour" and "color" stay apart."""
    if token.isascii() and token.isalpha() and token.endswith("s") and not token.endswith("ss") and len(token) > 3:
        token = token[:-1]
    if token.isascii() and token.isalpha() and token.endswith("e") and len(token) > 4:
        return token[:-1]
    return token


def _compared(text: str) -> list[Shape]:
    """The parts of ``text`` that are compared: not those of restricting clauses; a clause that
    goes on with the one before ("never print env, not even for debugging") takes its polarity."""
    out: list[Shape] = []
    previous: str | None = None
    tables = _tables(text)
    for clause in _clauses(text):
        found = _shapes(clause, tables)
        if previous is not None and tables.continuation.search(clause):
            found = [(words_of, previous, limited) for words_of, _polarity, limited in found]
        if found:
            previous = found[-1][1]
        if not tables.restrictive.search(clause):
            out.extend(found)
    return out


def _both_ways(found: list[Part]) -> set[str]:
    """Words a text uses asserted and negated: what they say turns on more than one word."""
    asserted = {t for tokens, polarity, _limited in found if polarity == ASSERTED for t in tokens}
    negated = {t for tokens, polarity, _limited in found if polarity == NEGATED for t in tokens}
    return asserted & negated


def opposite(evidence: str, claim: str) -> list[tuple[set[str], set[str]]]:
    """The pairs (claim part, evidence part) about one thing with opposite polarity."""
    mine_shapes, theirs_shapes = _compared(claim), _compared(evidence)
    mine_polarities = {polarity for _text, polarity, _limited in mine_shapes}
    theirs_polarities = {polarity for _text, polarity, _limited in theirs_shapes}
    if not ((ASSERTED in mine_polarities and NEGATED in theirs_polarities)
            or (NEGATED in mine_polarities and ASSERTED in theirs_polarities)):
        return []
    read: dict[str, set[str]] = {}

    def with_words(shapes: list[Shape]) -> list[Part]:
        out: list[Part] = []
        for text, polarity, limited in shapes:
            if polarity != UNKNOWN and text not in read:  # an unknown part is never compared
                read[text] = _tokens(text)
            out.append((read.get(text, set()), polarity, limited))
        return out

    mine, theirs = with_words(mine_shapes), with_words(theirs_shapes)
    ambiguous = _both_ways(mine) | _both_ways(theirs)
    out = []
    for claim_words, claim_polarity, claim_limited in mine:
        for said_words, said_polarity, said_limited in theirs:
            if UNKNOWN in (claim_polarity, said_polarity) or claim_polarity == said_polarity:
                continue
            if claim_limited or said_limited:
                if near_identical(claim_words, said_words) and not claim_words & said_words & ambiguous:
                    out.append((claim_words, said_words))
            elif same_thing(claim_words, said_words, ambiguous) and flipped(claim_words, said_words):
                out.append((claim_words, said_words))
    return out


def refutes(evidence: str, claim: str) -> bool:
    """The evidence says what the claim says with the other polarity (see the module doc)."""
    return bool(opposite(evidence, claim))


def same_thing(claim_words: set[str], said_words: set[str], ambiguous: frozenset[str] | set[str] = frozenset()) -> bool:
    """Most of the two parts' words shared (words used both ways count as not shared), or a claim
    part made of anchors all of which the evidence part holds ("never npm" / "we use npm")."""
    shared = (claim_words & said_words) - ambiguous
    if not shared:
        return False
    weight = {t: _weight(t) for t in claim_words | said_words}
    if shared == claim_words and all(_weight(t) == 2 for t in claim_words):
        return True
    return sum(weight[t] for t in shared) >= SAME * sum(weight.values())


def flipped(claim_words: set[str], said_words: set[str]) -> bool:
    """One part says no more than the other: the same words with the polarity turned, not a
    restatement that brings words of its own to both sides."""
    return claim_words <= said_words or said_words <= claim_words


def near_identical(claim_words: set[str], said_words: set[str]) -> bool:
    """The same words but one (a word form: "发" / "发布")."""
    return bool(claim_words & said_words) and sum(_weight(t) for t in claim_words ^ said_words) <= 1


def _weight(token: str) -> int:
    """An anchor (a tool, a code span, a flag, a number, an acronym) weighs two words."""
    return 2 if token in words.TOOLS or not token.isalpha() or token in _ACRONYMS else 1
