"""Do the quoted words assert the claim? Not when they ask, suppose, report someone else's view,
or say the opposite (R19). Questions, hypotheticals and reported speech are recognised in the
languages of ``rules.contexts``; the opposite is ``polarity``'s judgement, clause by clause."""
from __future__ import annotations

import re
from collections.abc import Iterable

from chord_git.judge import claims, classes, frames, literals, polarity
from chord_git.judge.rules import contexts
from chord_git.support.regex_lazy import lazy

# The sentence's mood is read with the patterns of ``classes.CONTEXTS``, narrowed to the strings
# the sentence holds (``literals.Lexicon``): they were a third of judging a piece of evidence.
_LEXICON = literals.Lexicon([(literals.alternatives(source), re.IGNORECASE) for source in (
    contexts.QUESTION, contexts.HYPOTHETICAL, contexts.REPORTED, contexts.PROPOSED)])
# A request to the agent states what the user wants, whatever its grammar.
_REQUEST = lazy(r"^(?:can|could|would|will)\s+you\b|\bplease\b|请|por\s+favor|bitte|s'il\s+(?:te|vous)\s+pla[îi]t|ください",
                re.IGNORECASE)


def problem(evidence: str, statement: str, summary: str, user_texts: Iterable[str]) -> str | None:
    """Why the quoted words do not assert the claim, or None."""
    found = claims.quote_context(evidence, user_texts, ends_own=True)
    sentence, span = found if found is not None else (claims.fold(evidence), claims.fold(evidence))
    question, hypothetical, reported, proposed = _LEXICON.narrowed(sentence)
    if not _REQUEST.search(sentence) and question.search(sentence):
        return "evidence-question"
    if hypothetical.search(sentence):
        return "evidence-hypothetical"
    if frames.someone_else(classes.CONTEXTS, sentence, 0, len(sentence), narrowed=(reported, proposed)):
        return "evidence-reported"
    # From the start of the evidence's clause: a quote cut out of its negation ("you to commit
    # generated files" of "I don't want you to commit generated files") keeps it.
    if polarity.refutes(span, f"{statement}\n{summary}"):
        return "evidence-negated"
    return None
