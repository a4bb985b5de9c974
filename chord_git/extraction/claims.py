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

import re
import unicodedata

MIN_WORDS = 3
MIN_CJK = 6

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


def fold(text: str) -> str:
    """NFKC and case folding: the form every comparison here uses (full-width commas included)."""
    return unicodedata.normalize("NFKC", text).casefold()


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold(text)) if not _CJK.search(w)]


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


def content_words(text: str) -> set[str]:
    return {_stem(w) for w in _words(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())}


def cjk_bigrams(text: str) -> set[str]:
    out: set[str] = set()
    for run in _CJK_RUN.findall(fold(text)):
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    return out


def shares_content(evidence: str, claim: str) -> bool:
    """At least one content word or CJK bigram of ``claim`` appears in ``evidence``."""
    return bool(content_words(evidence) & content_words(claim)) or bool(cjk_bigrams(evidence) & cjk_bigrams(claim))


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
