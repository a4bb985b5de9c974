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
and no word that the text also uses with the other polarity ("user rather than users").
"""
from __future__ import annotations

import re

from chord_git.judge import attribution, claims, frames
from chord_git.judge.rules import contexts, words
from chord_git.support.regex_lazy import lazy

# Two parts are about one thing when this share of their words (weighted) is common to both.
SAME = 0.6

_CLAUSE = lazy(r"[.;!?:](?=\s|$)|[\n,，;；。！？、：—–]|\s-\s"
               r"|\s(?:but|and\s+then|because|since|so\s+that|pero|porque|aber|weil|mais|parce\s+que)\s"
               r"|但是|但|不过|因为|由于|所以", re.IGNORECASE)
_NEGATOR = frames.compile_table(contexts.NEGATORS.values())
_TURNING = frames.compile_table([*contexts.ADVERSE.values(), *contexts.OFF.values(), *contexts.TURNING.values()])
_CONTINUATION = lazy(contexts.CONTINUATION, re.IGNORECASE)
_RESTRICTIVE = lazy(contexts.RESTRICTIVE, re.IGNORECASE)
_CONTRAST = lazy(
    r"(?<![A-Za-z])(?:rather\s+than|instead\s+of|en\s+lugar\s+de|en\s+vez\s+de|statt|anstatt|plut[ôo]t\s+que"
    r"|au\s+lieu\s+de)(?![A-Za-z])|而不是|而非",
    re.IGNORECASE)
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
_CJK_FILLER_CHARS = frozenset("的了是在和与很也都就会好请把让对个种次时其此该之等要用做可以不没别勿未莫")

ASSERTED, NEGATED, UNKNOWN = "asserted", "negated", "unknown"
# Acronyms that name a thing as an anchor does ("UTC", "CSV").
_ACRONYMS = frozenset({"utc", "csv", "json", "yaml", "toml", "sql", "orm", "jwt", "oauth", "sso", "cdn", "dns", "tls", "ssl"})
Part = tuple[set[str], str]


def _clauses(text: str) -> list[str]:
    return [piece.strip() for piece in _CLAUSE.split(text) if piece and piece.strip()]


def parts(clause: str) -> list[Part]:
    """The clause as parts about one thing each, with their polarity (see the module doc)."""
    if _TURNING.search(clause):
        return [(_tokens(clause), UNKNOWN)]
    before = _CONTRAST_BEFORE.search(clause)
    if before is not None:
        return _two(clause[:before.start()], NEGATED, clause[before.end():], ASSERTED)
    contrast = _CONTRAST.search(clause)
    if contrast is not None:
        return _two(clause[:contrast.start()], ASSERTED, clause[contrast.end():], NEGATED)
    match = _NEGATOR.search(clause)
    if match is None:
        return [(_tokens(clause), ASSERTED)]
    head = clause[:match.start()]
    if (match.group().casefold() in _SCOPED and head.strip() and not _AUXILIARY.search(head)
            and not _PASSIVE.match(clause, match.end()) and attribution.language(clause) == "en"):
        return _two(head, ASSERTED, clause[match.end():], NEGATED)
    return [(_tokens(clause), NEGATED)]


def _two(first: str, first_polarity: str, second: str, second_polarity: str) -> list[Part]:
    return [(tokens, polarity) for tokens, polarity in ((_tokens(first), first_polarity),
                                                        (_tokens(second), second_polarity)) if tokens]


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
    """"merge", "merged", "merging" -> "merg"; "colour" and "color" stay apart."""
    if token.isascii() and token.isalpha() and token.endswith("e") and len(token) > 4:
        return token[:-1]
    return token


def _compared(text: str) -> list[Part]:
    """The parts of ``text`` that are compared: not those of restricting clauses; a clause that
    goes on with the one before ("never print env, not even for debugging") takes its polarity."""
    out: list[Part] = []
    previous: str | None = None
    for clause in _clauses(text):
        found = parts(clause)
        if previous is not None and _CONTINUATION.search(clause):
            found = [(tokens, previous) for tokens, _polarity in found]
        if found:
            previous = found[-1][1]
        if not _RESTRICTIVE.search(clause):
            out.extend(found)
    return out


def _both_ways(found: list[Part]) -> set[str]:
    """Words a text uses asserted and negated: what they say turns on more than one word."""
    asserted = {t for tokens, polarity in found if polarity == ASSERTED for t in tokens}
    negated = {t for tokens, polarity in found if polarity == NEGATED for t in tokens}
    return asserted & negated


def opposite(evidence: str, claim: str) -> list[tuple[set[str], set[str]]]:
    """The pairs (claim part, evidence part) about one thing with opposite polarity."""
    mine, theirs = _compared(claim), _compared(evidence)
    ambiguous = _both_ways(mine) | _both_ways(theirs)
    out = []
    for claim_words, claim_polarity in mine:
        for said_words, said_polarity in theirs:
            if UNKNOWN in (claim_polarity, said_polarity) or claim_polarity == said_polarity:
                continue
            if same_thing(claim_words, said_words, ambiguous):
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


def _weight(token: str) -> int:
    """An anchor (a tool, a code span, a flag, a number, an acronym) weighs two words."""
    return 2 if token in words.TOOLS or not token.isalpha() or token in _ACRONYMS else 1
