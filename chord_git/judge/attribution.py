"""Who said it (R19, R20): evidence first, then where the claim's content comes from.

A user-sourced claim is the user's when

1. **its quote is grounded**: the evidence occurs in the user's own words of a user turn, after
   folding case, width, punctuation, quotes and whitespace (so CJK text matches with or without
   spaces); what the user pasted or quoted (``segments``) grounds nothing;
2. **no anchor comes from the assistant**: an anchor of the claim (a code span, path, flag,
   number, identifier, tool or product name) that only the assistant's turns hold makes the claim
   the assistant's, however the reply was worded; one nobody said is the model's elaboration and
   counts neither way;
3. **the user's words carry it**: of the claim's other words, those only non-echo assistant turns
   carry are at most ``ASSISTANT_WEIGHT`` times those the user's own words carry. Words a model
   adds to name a category ("dependencies", "commands", "JS": ``rules.words.CATEGORY``) and words
   nobody said (the model's own wording, a translation) count neither way, and an assistant reply
   that restates the user ("Noted. I will use pnpm for every dependency command") is an echo
   whose words never count against the user.

``Attribution.support`` is the share of what the conversation carries of the claim that the
evidence itself carries; a claim of which the conversation carries nothing is supported only
across scripts (the user wrote Chinese, the model English) or by its anchors.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from chord_git.judge import claims, segments
from chord_git.judge.rules import words
from chord_git.support.dataclass_lazy import dataclass
from chord_git.support.regex_lazy import lazy

# Chosen on the dev splits (``python -m bench.attribution_tuning``, BENCHMARKS.md): a weight of 2
# keeps two more genuine dev statements but stores two adversarial candidates of bench/eval as
# the user's; support between 0 and 0.45 changes nothing on the dev splits, 0.6 loses four.
ASSISTANT_WEIGHT = 1.0
SUPPORT_SHARE = 0.3
# A Latin word is carried by a word of the text sharing this long a beginning (cognates and
# inflections: "migration" / "migración", "reviewers" / "review").
PREFIX = 5

_CODE_SPAN = lazy(r"`([^`\n]{1,80})`")
_FLAG = lazy(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=[\w.:/@-]+)?")
_NUMBER = lazy(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w.])")
_IDENTIFIER = lazy(
    r"(?<![\w.])[A-Za-z_][A-Za-z0-9]*(?:[_.:/@][A-Za-z0-9]+)+(?![\w])"  # snake_case, dotted, scoped
    r"|(?<![\w])[a-z]+[A-Z][A-Za-z0-9]*(?![\w])"  # camelCase
    r"|(?<![\w])[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(?![\w])"  # PascalCase with an inner capital
    r"|(?<![\w])[A-Z][A-Z0-9_]{2,}(?![\w])")  # CONSTANTS, acronyms of three or more
_LATIN_WORD = lazy(r"[A-Za-z][A-Za-z0-9+#-]*")
_CJK = lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_ACK_TAIL = lazy(r"^[\s,.!:;—–\-，。！：、]|^$")


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def quote_key(text: str) -> str:
    """The form a quote is found in: folded, letters, digits and marks only (no spaces, no
    punctuation, no quotes), so "this repo only uses pnpm" and "This repo only uses pnpm!" and
    "只用pnpm" / "只用 pnpm" meet."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] in "LNM")


_CATEGORY_LATIN = frozenset(
    form for lang, table in words.CATEGORY.items() if lang in ("en", "es", "de", "fr")
    for word in table for form in (fold(word), claims._stem(fold(word))))
CATEGORY_CJK = tuple(sorted((w for lang in ("zh", "ja") for w in words.CATEGORY[lang]), key=len, reverse=True))
_CATEGORY_ACRONYMS = frozenset({"JS", "TS", "CI", "CD", "PR", "PRS", "MR", "API", "UI", "UX", "DB", "SQL", "CLI", "OK",
                                "README", "TODO", "FIXME", "HTTP", "HTTPS", "URL", "JSON", "YAML", "CSS", "HTML"})
_ACKS = tuple(sorted((fold(a) for table in words.ACKNOWLEDGEMENTS.values() for a in table), key=len, reverse=True))


def anchors(text: str) -> frozenset[str]:
    """The anchors of a claim, folded: code spans, flags, numbers, identifiers, tool names."""
    found: set[str] = set()
    for match in _CODE_SPAN.finditer(text):
        found.add(fold(match.group(1)))
    rest = _CODE_SPAN.sub(" ", text)
    for pattern in (_FLAG, _NUMBER):
        found.update(fold(m.group()) for m in pattern.finditer(rest))
    found.update(fold(m.group()) for m in _IDENTIFIER.finditer(rest) if m.group() not in _CATEGORY_ACRONYMS)
    found.update(m.group().strip(".") for m in claims._PATHISH.finditer(fold(rest)))
    found.update(w for w in (fold(m.group()) for m in _LATIN_WORD.finditer(rest)) if w in words.TOOLS)
    return frozenset(a for a in found if a and fold(a) not in _CATEGORY_LATIN)


def claim_words(text: str) -> frozenset[str]:
    """The claim's other content: ``claims.distinctive`` without anchors and category words."""
    for phrase in CATEGORY_CJK:
        if phrase in text:
            text = text.replace(phrase, " ")
    mine = anchors(text)
    return frozenset(t for t in claims.distinctive(text)
                     if t not in _CATEGORY_LATIN and t not in mine and not any(t in a for a in mine if " " in a))


@dataclass(frozen=True)
class Carrier:
    """What some texts carry: their distinctive tokens, folded text and word beginnings."""

    tokens: frozenset[str]
    folded: str
    prefixes: frozenset[str]

    def carries(self, token: str) -> bool:
        if token in self.tokens or (len(token) > 3 and token in self.folded):
            return True
        return len(token) > PREFIX and token.isascii() and token[:PREFIX] in self.prefixes

    def carries_anchor(self, anchor: str) -> bool:
        """As a word of its own ("2" is not carried by "2026"), or part by part ("pnpm install
        --frozen-lockfile" by a turn that spells it "pnpm --frozen-lockfile install")."""
        parts = anchor.split()
        return all(_bounded_in(part, self.folded) for part in parts) if parts else False


def _bounded_in(word: str, text: str) -> bool:
    at = text.find(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(word)] if at + len(word) < len(text) else " "
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return True
        at = text.find(word, at + 1)
    return False


def carrier(texts: Iterable[str]) -> Carrier:
    texts = list(texts)
    folded = "\n".join(fold(t) for t in texts)
    tokens: set[str] = set()
    for text in texts:
        tokens |= claims.distinctive(text)
    prefixes = frozenset(w[:PREFIX] for w in re.findall(r"[a-z0-9\u00e0-\u024f]+", folded) if len(w) > PREFIX)
    return Carrier(frozenset(tokens), folded, prefixes)


@dataclass(frozen=True)
class Conversation:
    """The conversation as the judge reads it: each user turn's own words and what it pasted, the
    assistant's replies (echoes apart), history."""

    own_keys: tuple[str, ...]  # quote_key of each user turn's own words, per line block
    own_texts: tuple[str, ...]  # the user's own words, per turn
    user_own: Carrier
    user_shown: Carrier
    assistant: Carrier  # assistant replies that are not echoes, and history
    echo: Carrier  # assistant replies that restate the user


def is_echo(text: str, said: str) -> bool:
    """An assistant reply that restates what the user just ``said``: it opens with an
    acknowledgement ("Noted.", "明白，", "Entendido") and the user's turn carries at least half of
    its own content ("I'll run the integration suite against staging" after "run the tests" adds
    more than it restates, and is no echo)."""
    head = fold(text)[:60]
    if not any(head.startswith(ack) and (not ack[-1].isalnum() or _ACK_TAIL.match(head[len(ack):])
                                         or _CJK.match(ack[-1])) for ack in _ACKS):
        return False
    mine = claim_words(text) | anchors(text)
    if not mine:
        return True
    user = carrier([said])
    return sum(1 for t in mine if user.carries(t) or user.carries_anchor(t)) >= 0.5 * len(mine)


def conversation(turns: Sequence[tuple[str, str]]) -> Conversation:
    own: list[str] = []
    shown: list[str] = []
    other: list[str] = []
    echo: list[str] = []
    previous = ("", "")
    for role, text in turns:
        if role == "user":
            parts = segments.split(text)
            own.append(parts.own)
            shown.append(parts.shown)
        elif role == "assistant" and previous[0] == "user" and is_echo(text, previous[1]):
            echo.append(text)
        else:
            other.append(text)
        previous = (role, text)
    keys = tuple(quote_key(block) for text in own for block in text.split("\n\n"))
    return Conversation(keys, tuple(own), carrier(own), carrier(shown), carrier(other), carrier(echo))


def grounded(evidence: str, talk: Conversation) -> bool:
    """The evidence occurs in the user's own words (see the module doc)."""
    needle = quote_key(evidence)
    return bool(needle) and any(needle in key for key in talk.own_keys)


_FUNCTION = {lang: frozenset(table) for lang, table in words.FUNCTION_WORDS.items()}


def language(text: str) -> str:
    """The language a text is written in, as far as the judge needs to know: "cjk" (Chinese,
    Japanese, Korean), or the Latin-script language whose function words it uses most ("en" when
    none: code and names)."""
    cjk = len(_CJK.findall(text))
    latin = len(re.findall(r"[A-Za-z]", text))
    if cjk * 2 > latin:  # a CJK character says as much as a word of a few letters
        return "cjk"
    tokens = re.findall(r"[a-zà-ÿ']+", fold(text))
    counts = {lang: sum(1 for t in tokens if t in table) for lang, table in _FUNCTION.items()}
    best = max(counts, key=lambda lang: (counts[lang], lang == "en"))
    return best if counts[best] else "en"


def _share(text: str, found: frozenset[str], said: Carrier) -> float:
    """The share of what the conversation carries of ``text`` that the evidence carries."""
    mine = (claim_words(text) | anchors(text)) & found
    if not mine:
        return 0.0
    return sum(1 for t in mine if said.carries(t) or said.carries_anchor(t)) / len(mine)


@dataclass(frozen=True)
class Attribution:
    anchors_user: frozenset[str]
    anchors_elsewhere: frozenset[str]  # said only by the assistant (or in history), not by the user
    by_user: frozenset[str]
    by_assistant: frozenset[str]  # carried by non-echo assistant turns and history, not by the user
    found: frozenset[str]  # what the conversation carries of the claim (anchors included)
    support: float  # the share of ``found`` the evidence carries
    cross_script: bool  # the claim and its evidence are written in different languages
    content: frozenset[str] = frozenset()  # the claim's words and anchors (category words aside)

    @property
    def users(self) -> bool:
        """The claim is the user's (rules 2 and 3 of the module doc). A number only the assistant
        said weighs two words rather than settling it ("3.10 through 3.12" becomes "3.10, 3.11 and
        3.12" in the assistant's reply); any other anchor of the assistant's settles it."""
        numbers = [a for a in self.anchors_elsewhere if _NUMBER.fullmatch(a)]
        if len(numbers) < len(self.anchors_elsewhere):
            return False
        against = len(self.by_assistant) + 2 * len(numbers)
        return against <= ASSISTANT_WEIGHT * (len(self.by_user) + len(self.anchors_user))

    @property
    def supported(self) -> bool:
        """The evidence carries the claim: a share of what the conversation carries of it. A claim
        the conversation carries nothing of (category words, a translation, the model's own
        paraphrase) has nothing that comes from elsewhere either; ``claims.evidence_problem``
        still asks the quote to share a word with it where both are in one script."""
        if not self.found:
            return True  # a paraphrase in words nobody said: nothing of it comes from elsewhere
        return self.support >= SUPPORT_SHARE


def attribute(statement: str, summary: str, evidence: str, talk: Conversation, sentence: str | None = None) -> Attribution:
    """How the conversation carries the claim; ``sentence``, the user's sentence the evidence was
    taken from, is what supports it (a quote cut short of its main clause still stands for it)."""
    text = f"{summary}\n{statement}"
    marks = anchors(text)
    users = {a for a in marks if talk.user_own.carries_anchor(a) or talk.user_shown.carries_anchor(a)}
    # An anchor nobody said is the model's own elaboration (SPEC's own example adds
    # "package-lock.json" to "never run npm install"); one only the assistant said is the
    # assistant's content, echo or not.
    elsewhere = frozenset(a for a in marks - users if talk.assistant.carries_anchor(a) or talk.echo.carries_anchor(a))
    content = claim_words(text)
    by_user = frozenset(t for t in content if talk.user_own.carries(t) or talk.user_shown.carries(t))
    by_assistant = frozenset(t for t in content - by_user if talk.assistant.carries(t))
    echoed = frozenset(t for t in content - by_user - by_assistant if talk.echo.carries(t))
    found = by_user | by_assistant | echoed | users
    said = carrier([evidence, sentence or ""])
    support = max(_share(part, found, said) for part in (summary, statement))
    return Attribution(frozenset(users), elsewhere, by_user, by_assistant, frozenset(found), support,
                       language(sentence or evidence) != language(text), content | marks)
