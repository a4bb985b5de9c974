"""``claims.Known``: a conclusion is compared with those under its rarest word only, and one that
shares a word with none of them is settled before its polarity is read (``may_match``) with the
same answer, on the dev split's texts against AGENTS.md-like lines made from them."""
from __future__ import annotations

import random

from chord_git.judge import claims
from tests.judge.test_table_source import TEXTS


def _full_match(known: claims.Known, mine: claims.Conclusion) -> str | None:
    """``Known.match`` as it was before the early answer: the rarest word's conclusions, compared."""
    if not mine.key:
        return None
    if mine.key in known.keys:
        return known.keys[mine.key]
    if mine.tokens:
        rarest = min(mine.tokens, key=lambda token: len(known.by_token.get(token, ())))
        near = known.by_token.get(rarest, [])
    else:
        near = known.untokened
    return next((owner for other, owner in near[:claims.NEAR] if claims.restates_conclusion(mine, other)), None)


def test_the_early_answer_is_the_full_answer() -> None:
    rng = random.Random(11)
    lines = rng.sample(TEXTS, 400)
    known = claims.Known()
    for number, line in enumerate(lines):
        known.add(line, f"line-{number}")
    # The lines themselves, their halves and words shuffled, and the rest of the texts.
    texts = [*lines, *(line[: len(line) // 2] for line in lines),
             *(" ".join(rng.sample(line.split(), len(line.split()))) for line in lines), *TEXTS]
    settled = matched = 0
    for text in texts:
        mine = claims.conclusion(text)
        assert known.match(mine) == _full_match(known, mine), text
        settled += not known.may_match(mine.key, mine.tokens)
        matched += known.match(mine) is not None
    assert settled > len(texts) // 4 and matched > 300  # both ways are taken
