"""Does the evidence carry the claim? Pure text rules for user-sourced candidates (R19, R20, R22).

A quote only proves what it says. "yes" or "ok" proves that the user agreed to *something*, not
what; a verbatim "e" proves nothing. So the evidence of a user-sourced candidate must be:

* **substantive**: at least ``MIN_WORDS`` words or ``MIN_CJK`` CJK characters once bare
  confirmations ("yes", "ok", "do it", "好的", "对") are set aside;
* **about the claim**: it shares at least one content word (or one CJK bigram) with the statement.

The same test, against the old entry's text, decides whether a user-sourced candidate may
supersede an entry the user said: the new evidence must address that entry's subject.
Why-keep-it and how-to-apply must add something: not empty, not punctuation, not the statement
again.
"""
from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Sequence

from chord_git.judge.rules.words import FUNCTION_WORDS
from chord_git.support.dataclass_lazy import dataclass

MIN_WORDS = 3
MIN_CJK = 5

_CJK_CLASS = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]"
_CJK = re.compile(_CJK_CLASS)
_CJK_RUN = re.compile(_CJK_CLASS + "+")
# Words of non-CJK scripts; CJK text counts by characters and bigrams instead.
_LETTER = r"(?:(?!" + _CJK_CLASS + r")[^\W_])"
_WORD = re.compile(_LETTER + "+(?:['’]" + _LETTER + "+)?")
_ANY_WORD = re.compile(r"[^\W_]+")

# Words that only ever agree, confirm or fill: a reply made of these alone carries no claim.
CONFIRMATIONS = frozenset("""
yes yeah yep yup ya sure ok okay k kk fine good great cool nice perfect right correct exactly
agreed agree indeed absolutely definitely certainly alright go ahead do it that this please pls
thanks thank you thx sounds looks lgtm ship proceed continue approved approve confirm confirmed
makes sense let's lets us so just and then the a it is be will would that's thats sgtm y no nope
""".split())
# Chinese confirmations and fillers, longest first so that 好的 goes before 好.
_CJK_CONFIRMATIONS = sorted("""
好的 好吧 好呀 好啊 可以 行吧 没问题 没错 对的 是的 同意 确认 嗯嗯 收到 明白 了解 就这样 就这么办 照做 照办
去做吧 做吧 搞吧 继续 批准 可 行 好 对 是 嗯 哦 噢 吧 啊 呀 的 了 吗 呢
""".split(), key=len, reverse=True)

# Function words never count as shared content.
STOPWORDS = frozenset("""
a an the and or but if then else of to in on at by for with from as is are was were be been being
it its this that these those there here we you i he she they them our your my me us do does did
done not no never always only also just so than too very can could should would will shall may
might must have has had any all some each every more most other such use uses used using when
what which who whom how why where into onto out up down over under again about after before via
per new one two please don't dont doesn't isn't aren't won't it's that's let's
""".split())


# The function words of the other languages the judge reads, English's aside.
STOPWORDS = STOPWORDS | frozenset(word for lang, table in FUNCTION_WORDS.items() if lang != "en" for word in table)


def fold(text: str) -> str:
    """NFKC and case folding: the form every comparison here uses (full-width commas included)."""
    return unicodedata.normalize("NFKC", text).casefold()


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text))  # its letters are never CJK (``_LETTER``)


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _cjk_without_confirmations(text: str) -> str:
    runs = "".join(_CJK_RUN.findall(fold(text)))
    for phrase in _CJK_CONFIRMATIONS:
        runs = runs.replace(phrase, "")
    return runs


def is_substantive(evidence: str) -> bool:
    """At least MIN_WORDS words or MIN_CJK CJK characters besides bare confirmations."""
    meaningful = [w for w in _words(evidence) if w not in CONFIRMATIONS]
    if not meaningful and not _cjk_without_confirmations(evidence):
        return False  # only "yes", "ok", "do it", "好的", "对" and the like
    words, cjk = len(_words(evidence)), len("".join(_CJK_RUN.findall(fold(evidence))))
    # Mixed text ("就用 pnpm 吧"): two CJK characters count as one word.
    return words >= MIN_WORDS or cjk >= MIN_CJK or words + cjk / 2 >= MIN_WORDS


def content_words(text: str, stems: dict[str, str] | None = None) -> set[str]:
    """Stemmed words outside the stop list; ``stems`` memoizes stems over many texts (one audit)."""
    words = [w for w in _words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]
    if stems is None:
        return {_stem(w) for w in words}
    out = set()
    for word in words:
        stem = stems.get(word)
        if stem is None:
            stem = stems[word] = _stem(word)
        out.add(stem)
    return out


def cjk_bigrams(text: str) -> set[str]:
    out: set[str] = set()
    for run in _CJK_RUN.findall(fold(text)):
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    return out


def shares_content(evidence: str, claim: str) -> bool:
    """At least one content word or CJK bigram of ``claim`` appears in ``evidence``, a word as
    itself, as its abbreviation ("env" / "environment", "config" / "configuration") or in another
    form of it ("revisión" / "revise", "services" / "service")."""
    mine, theirs = content_words(evidence), content_words(claim)
    if mine & theirs or cjk_bigrams(evidence) & cjk_bigrams(claim):
        return True
    return any(same_word(a, b) for a in mine if a.isalpha() for b in theirs if b.isalpha())


def same_word(a: str, b: str) -> bool:
    """One word is the other's abbreviation (a prefix of three letters or more), or the two share
    a stem of five letters or more that is most of the shorter (word forms in any Latin language)."""
    short, long = sorted((a, b), key=len)
    if len(short) < 3:
        return False
    common = len(os.path.commonprefix((short, long)))
    return common == len(short) or (common >= 5 and common >= 0.7 * len(short))


def evidence_problem(evidence: str, statement: str, summary: str = "") -> str | None:
    """Why the evidence does not carry the claim, or None when it does."""
    if not is_substantive(evidence):
        return "evidence-too-weak"
    if not shares_content(evidence, f"{statement}\n{summary}"):
        return "evidence-unrelated"
    return None


def adds_nothing(text: str, statement: str, summary: str) -> bool:
    """Why-keep-it / how-to-apply that is empty, punctuation, or the statement or summary again."""
    if not _words(text) and not _CJK_RUN.search(fold(text)):
        return True
    folded = " ".join(_ANY_WORD.findall(fold(text)))
    for other in (statement, summary):
        again = " ".join(_ANY_WORD.findall(fold(other)))
        if folded and (folded == again or (len(folded) >= 12 and folded in again)):
            return True
    # Every content word taken from the statement, and most of the statement taken: a paraphrase
    # of it, not a reason. A short "why" that reuses two of its words still adds something.
    mine = content_words(text) | cjk_bigrams(text)
    theirs = content_words(statement) | cjk_bigrams(statement)
    return bool(mine) and mine <= (theirs | content_words(summary) | cjk_bigrams(summary)) \
        and len(mine & theirs) >= max(3, int(0.7 * len(theirs)))


# ---------------------------------------------------------------------------- attribution by content
# Words that fill a sentence without saying anything of this project: a why or how made of these
# alone ("Important.", "Always.", "Keep this in mind for later sessions.") adds nothing, and they
# never count as a statement's distinctive content.
FILLER = frozenset("""
important importantly essential crucial critical key vital always usually generally typically often
useful helpful good better best nice fine great remember remembered note noted notes keep kept mind
later future session sessions project projects apply applies applied applying whenever needed need
needs necessary relevant case cases situation situations same thing things stuff follow follows
following followed rule rules consistent consistency consistently matter matters really actually
basically simply otherwise again time times everything something anything make
sure ensure properly correctly right way ways work works working worth know knows knowing come
comes up like also well still yes ok okay thank thanks memory memories
""".split())
_CJK_FILLER = sorted("""
重要 非常 十分 总是 一直 始终 永远 记住 注意 以后 将来 今后 后续 项目 会话 有用 有帮助 这样 这个 那个 这些 那些
时候 情况 相同 同样 遵守 遵循 规则 一致 确保 一定 务必 需要 应该 必须 做 用 要 的 了 是 在 和 与 很 也 都 就 会
好 请 把 让 对 个 种 次 时 其 此 该 之 等 即可 可以 照做
""".split(), key=len, reverse=True)
# Why-keep-it and how-to-apply need this much: content words, or CJK characters, beyond fillers.
MIN_SUBSTANCE_WORDS = 1
MIN_SUBSTANCE_CJK = 2
# The least share of a claim's distinctive content an adopted proposal and its acceptance carry.
USER_SHARE = 0.25
# An assistant lesson the user took part in: the user's turns carry at least this share.
TOOK_PART_SHARE = 0.34

_CODE_SPAN = re.compile(r"`([^`\n]{2,80})`")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w.])")
_PATHISH = re.compile(r"(?<![\w./-])(?:[\w.-]+/)+[\w.-]+|(?<![\w/-])[\w-]+\.(?:md|py|ts|js|json|ya?ml|toml|lock|cfg|ini|sh)\b")
# What ``_PATHISH``'s second form needs (its first needs a slash): one search for a dot, no lookbehind.
_PATH_EXTENSION = re.compile(r"\.(?:md|py|ts|js|json|ya?ml|toml|lock|cfg|ini|sh)")


def _cjk_content(text: str) -> str:
    """CJK characters of ``text`` without filler phrases and confirmations, runs kept apart."""
    runs = []
    for run in _CJK_RUN.findall(fold(text)):
        for phrase in _CJK_FILLER:
            run = run.replace(phrase, " ")
        for phrase in _CJK_CONFIRMATIONS:
            if len(phrase) > 1:
                run = run.replace(phrase, " ")
        runs.extend(run.split())
    return " ".join(runs)


def _cut(pattern: re.Pattern[str], text: str) -> tuple[list[re.Match[str]], str]:
    """``pattern``'s matches in ``text``, and ``text`` with each one a space (``sub``) in the same pass."""
    found = list(pattern.finditer(text))
    if not found:
        return found, text
    pieces, at = [], 0
    for match in found:
        pieces += [text[at:match.start()], " "]
        at = match.end()
    pieces.append(text[at:])
    return found, "".join(pieces)


def distinctive(text: str, stems: dict[str, str] | None = None) -> frozenset[str]:
    """What a text says of its own: content words (stemmed) and CJK bigrams outside the stop and
    filler lists, numbers, code spans and paths as written (folded)."""
    rest = fold(text)
    # A code span or a path counts once, as written, not once more per word inside it. (A span
    # holds a backquote, a path a slash or a known extension: most texts skip both patterns.)
    spans: list[str] = []
    if "`" in rest:
        found, rest = _cut(_CODE_SPAN, rest)
        spans += [m.group(1).strip() for m in found]
    if "/" in rest or _PATH_EXTENSION.search(rest):
        found, rest = _cut(_PATHISH, rest)
        spans += [m.group().strip(".") for m in found]
    out = {w for w in content_words(rest, stems) if w not in FILLER and w not in CONFIRMATIONS}
    for run in _cjk_content(rest).split() if _CJK.search(rest) else ():
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    out.update(spans)
    out.update(m.group() for m in _NUMBER.finditer(rest))
    return frozenset(t for t in out if t)


def has_substance(text: str) -> bool:
    """R21: a why or how that says something: content words or CJK characters beyond fillers."""
    words = len({w for w in content_words(text) if w not in FILLER and w not in CONFIRMATIONS})
    cjk = len(_cjk_content(text).replace(" ", ""))
    return words >= MIN_SUBSTANCE_WORDS or cjk >= MIN_SUBSTANCE_CJK or words + cjk / 2 >= MIN_SUBSTANCE_WORDS


@dataclass(frozen=True)
class Pool:
    """What some texts carry, computed once: their distinctive content and their folded text."""

    tokens: frozenset[str]
    folded: tuple[str, ...]

    def carried(self, tokens: frozenset[str]) -> frozenset[str]:
        return frozenset(t for t in tokens if t in self.tokens or (len(t) > 3 and any(t in f for f in self.folded)))


def pool(texts: Iterable[str]) -> Pool:
    tokens: set[str] = set()
    folded: list[str] = []
    for text in texts:
        tokens |= distinctive(text)
        folded.append(fold(text))
    return Pool(frozenset(tokens), tuple(folded))


def carried(tokens: frozenset[str], texts: Iterable[str]) -> frozenset[str]:
    """The tokens some of ``texts`` carry (as distinctive content, or verbatim for spans)."""
    return pool(texts).carried(tokens)


def support_share(evidence: str, statement: str, summary: str = "") -> float:
    """The best share of the statement's or the summary's distinctive content the evidence carries."""
    return support_of(evidence, distinctive(evidence), (distinctive(statement), distinctive(summary)))


def support_of(evidence: str, said: frozenset[str], claim_sets: Iterable[frozenset[str]]) -> float:
    """``support_share`` from distinctive content computed already (``said`` is the evidence's)."""
    folded = fold(evidence)
    best = 0.0
    for claim in claim_sets:
        if claim:
            shared = (claim & said) | frozenset(t for t in claim - said if len(t) > 3 and t in folded)
            share = len(shared) / len(claim)
            # One shared item is support only when it is half the claim ("pnpm" of "use pnpm, never npm").
            if len(shared) >= 2 or share >= 0.5:
                best = max(best, share)
    return best


# Negation words, for audit's contradiction check (what a clause says, not its mood: ``mood``).
_NEGATION = re.compile(
    r"\bnot\b|n't\b|\bnever\b|\bno\s+(?!one\b)\w|\bavoid\w*|\bstop\w*|\bwithout\b|\bnor\b|\bforbid\w*|\bban(?:ned)?\b"
    r"|\bdisallow\w*|\binstead\b|\brather\s+than\b|\bexcept\b|\bno\s+longer\b"
    r"|不要|不能|不用|不准|不许|不得|不再|不会|不可|不应|不该|不是|别|勿|禁止|避免|从不|绝不|没有|而不是|停止|不")
# A dot ends a sentence only before a space: "3.1" and "main.py" go on.
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_CLAUSE_END = re.compile(r"[.!?。！？\n,;:，；：]|\s(?:but|and\s+then)\s|但是|不过")


def quote_context(evidence: str, user_texts: Iterable[str], ends_own: bool = False) -> tuple[str, str] | None:
    """The sentence of a user message holding the evidence, and the text from the start of the
    clause the evidence begins in to the evidence's end (what a negation before it governs).
    ``ends_own``: a quote that ends its sentence ends it there, so the user's next sentence
    ("Can you write the tests?") is not read as the quote's mood; without it the sentence runs on
    to the next end, which is the context attribution reads."""
    needle = " ".join(fold(evidence).split())
    if not needle:
        return None
    for text in user_texts:
        hay = " ".join(fold(text).split())
        at = hay.find(needle)
        if at < 0:
            continue
        end = at + len(needle)
        starts = [m.end() for m in _SENTENCE_END.finditer(hay, 0, at)]
        start = starts[-1] if starts else 0
        stop = _SENTENCE_END.search(hay, max(at, end - 1) if ends_own else end)
        sentence = hay[start: stop.end() if stop else len(hay)].strip()
        clause_starts = [m.end() for m in _CLAUSE_END.finditer(hay, start, at)]
        span = hay[(clause_starts[-1] if clause_starts else start):end].strip()
        return sentence, span
    return None


# Every alternative of _NEGATION holds one of these: texts without any skip the regex (fast path).
_NEGATION_MARKERS = ("not", "n't", "never", "no", "avoid", "stop", "without", "nor", "forbid", "ban", "disallow",
                     "instead", "rather", "except", "不", "别", "勿", "禁止", "避免", "没有", "停止")


def negated(text: str) -> bool:
    folded = fold(text)
    if not any(marker in folded for marker in _NEGATION_MARKERS):
        return False
    return bool(_NEGATION.search(folded))


_ADOPTION = re.compile(
    r"^(?:yes|yeah|yep|ok|okay|sure|sounds\s+good|go\s+ahead|do\s+(?:it|that)|let'?s\s+do\s+(?:it|that)|agreed"
    r"|lgtm|please\s+do)\b|^(?:好的|好|可以|行|就这么办|照做|同意|没问题|就这样)",
)


def adopts(user_text: str) -> bool:
    """A user turn that takes up the proposal before it ("ok, do that", "好的，就这么办")."""
    return bool(_ADOPTION.match(fold(user_text).strip()))


# An assistant turn that proposes or offers something, rather than reporting what it found.
_PROPOSAL = re.compile(
    r"\b(?:i\s+(?:suggest|propose|recommend|could|can|would)|we\s+could|how\s+about|want\s+me\s+to|shall\s+i"
    r"|should\s+i|do\s+you\s+want|would\s+you\s+like|let\s+me)\b|[?？]\s*$"
    r"|建议|我可以|要不要|要我|需要吗|要加吗|要改吗|要吗|好吗|是否需要")


def adopted(claim: frozenset[str], turns: Sequence[tuple[str, str]]) -> bool:
    """The user adopted an assistant proposal carrying the claim: a user turn that agrees comes
    right after an assistant turn that proposes something and carries the claim's content."""
    for before, after in zip(turns, turns[1:]):
        if before[0] == "assistant" and after[0] == "user" and adopts(after[1]) \
                and _PROPOSAL.search(fold(before[1])):
            if claim and len(carried(claim, [before[1], after[1]])) >= USER_SHARE * len(claim):
                return True
    return False


def conclusion_key(text: str) -> str:
    """A conclusion after normalisation: folded, punctuation and list markers gone, spaces folded."""
    return " ".join(_ANY_WORD.findall(fold(text)))


@dataclass(frozen=True)
class Conclusion:
    """A conclusion as ``restates`` compares it, computed once."""

    key: str
    tokens: frozenset[str]
    negated: bool


def conclusion(text: str) -> Conclusion:
    return Conclusion(conclusion_key(text), distinctive(text), negated(text))


def restates(text: str, reference: Iterable[str | Conclusion]) -> bool:
    """``text`` says what one of ``reference`` already says: the same words after normalisation,
    contained in it, or the same distinctive content (at least three items)."""
    mine = conclusion(text)
    if not mine.key:
        return False
    return any(restates_conclusion(mine, item if isinstance(item, Conclusion) else conclusion(item))
               for item in reference)


def restates_conclusion(mine: Conclusion, other: Conclusion) -> bool:
    """``restates`` for one pair of conclusions already computed."""
    if not mine.key or not other.key:
        return False
    if mine.key == other.key or (len(mine.key) >= 16 and mine.key in other.key):
        return True
    return len(mine.tokens) >= 3 and mine.tokens <= other.tokens and len(mine.tokens) >= 0.75 * len(other.tokens) \
        and mine.negated == other.negated


# A restatement is looked for among at most this many conclusions under its rarest word (``Known``).
NEAR = 64


class Known:
    """Conclusions a text is compared with (memory's, AGENTS.md's, the docs', an import's
    proposals), indexed by their distinctive words, each with its owner. A restatement holds every
    distinctive word of the text (``restates``), so only the conclusions under its rarest word are
    compared: thousands of texts against thousands of lines stay linear."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.keys: dict[str, str] = {}  # conclusion key -> the item key it belongs to
        self.by_token: dict[str, list[tuple[Conclusion, str]]] = {}
        self.untokened: list[tuple[Conclusion, str]] = []
        for text in texts:
            self.add(text, "")

    def add(self, text: str | Conclusion, owner: str) -> None:
        found = conclusion(text) if isinstance(text, str) else text
        if not found.key:
            return
        self.keys.setdefault(found.key, owner)
        for token in found.tokens:
            self.by_token.setdefault(token, []).append((found, owner))
        if not found.tokens:
            self.untokened.append((found, owner))

    def may_match(self, key: str, tokens: frozenset[str]) -> bool:
        """Whether a conclusion of ``key`` and ``tokens`` can restate one of these: the same key,
        or every token held by some conclusion (the rarest is looked under: one held by none ends
        it), before its polarity is read."""
        return key in self.keys or (tokens <= self.by_token.keys() if tokens else bool(self.untokened))

    def match(self, mine: Conclusion) -> str | None:
        """The owner of a conclusion ``mine`` restates ("" for an unowned one), or None. At most
        ``NEAR`` conclusions under its rarest word are compared: thousands of notes that differ in
        one detail stay linear (a restatement beyond them is not found)."""
        if not mine.key:
            return None
        if mine.key in self.keys:
            return self.keys[mine.key]
        if not self.may_match(mine.key, mine.tokens):
            return None
        if mine.tokens:
            rarest = min(mine.tokens, key=lambda token: len(self.by_token.get(token, ())))
            near = self.by_token.get(rarest, [])
        else:
            near = self.untokened
        return next((owner for other, owner in near[:NEAR] if restates_conclusion(mine, other)), None)


def agents_md_lines(text: str) -> list[str]:
    """The statements of an AGENTS.md copy: one per line and per sentence, list markers gone."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*+>#0123456789. ").strip()
        if not line:
            continue
        out.append(line)
        parts = [p.strip() for p in re.split(r"(?<=[.!?。！？;；])\s*", line) if p.strip()]
        if len(parts) > 1:
            out.extend(parts)
    return out
