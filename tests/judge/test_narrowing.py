"""Patterns narrowed to the strings a text holds (``literals.Lexicon``): on every rule's examples,
the dev split's texts and texts written for the edges, each narrowed pattern finds exactly what the
whole pattern finds, in the text and in every clause of it, so polarity and mood judge as before."""
from __future__ import annotations

import re

import pytest

from chord_git.judge import frames, literals, mood, polarity
from chord_git.judge.rules import contexts
from tests.judge.test_screen import EDGES
from tests.judge.test_table_source import TEXTS

# Negations, contrasts, moods and reported speech in the judge's languages, at word and script seams.
MORE = [
    "Never push to main; not even for hotfixes.", "pnpm, not npm", "colour not color", "use pnpm rather than npm",
    "prefer ruff over flake8", "don't merge before the reviewers approve", "我们不用 npm", "不要强推 main", "别把分支保护关掉",
    "キャメルケースではなくスネークケース", "プッシュしないで", "Das ist nicht erlaubt", "no usar npm", "ne pas utiliser npm",
    "Can you run the tests?", "What if we dropped the cache?", "Ana says we should use yarn", "Bob proposed yarn; I said no",
    "用户同意了吗？", "もしキャッシュを消したら？", "Only on Tuesdays.", "except for docs", "NOT", "Don'T", "ıf", "ſtop",
    "nono", "not-not", "a|b", "(x)", "[y]", "",
]


def _texts() -> list[str]:
    return [*TEXTS, *EDGES, *MORE]


@pytest.mark.parametrize(("lexicon", "least"), [(polarity._LEXICON, 500), (mood._LEXICON, 100)], ids=["polarity", "mood"])
def test_a_narrowed_pattern_finds_what_the_whole_one_finds(lexicon: literals.Lexicon, least: int) -> None:
    whole = [re.compile("|".join(pieces), flags) for pieces, flags in lexicon.patterns]
    matched = dropped = 0
    for text in _texts():
        narrowed = lexicon.narrowed(text)
        for part in [text, *(clause for clause in polarity._clauses(text))]:
            for full, narrow in zip(whole, narrowed):
                want = [(m.span(), m.group()) for m in full.finditer(part)]
                assert [(m.span(), m.group()) for m in narrow.finditer(part)] == want, (text, part, full.pattern[:80])
                assert narrow.sub(" ", part) == full.sub(" ", part)
                matched += len(want)
        dropped += sum(narrow.pattern != "|".join(pieces) for (pieces, _flags), narrow in zip(lexicon.patterns, narrowed))
    assert matched > least  # the texts reach the patterns: the property is not vacuous
    assert dropped > len(_texts())  # and narrowing leaves alternatives out


def test_the_pieces_are_the_patterns_the_judge_used() -> None:
    # The tables as one alternation of their pieces find what ``compile_table`` finds.
    tables = [list(contexts.NEGATORS.values()),
              [*contexts.ADVERSE.values(), *contexts.OFF.values(), *contexts.TURNING.values()]]
    for table in tables:
        grouped = re.compile(frames.table_source(table), re.IGNORECASE)
        plain = re.compile("|".join(frames.table_alternatives(table)), re.IGNORECASE)
        for text in _texts():
            assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in plain.finditer(text)], text
    for source in (contexts.QUESTION, contexts.HYPOTHETICAL, contexts.REPORTED, contexts.PROPOSED,
                   contexts.RESTRICTIVE, contexts.CONTINUATION, polarity._LIMIT, polarity._CONTRAST):
        pieces = literals.alternatives(source)
        assert len(pieces) > 1 and "|".join(pieces) == source
        joined, whole = re.compile("|".join(pieces), re.IGNORECASE), re.compile(source, re.IGNORECASE)
        for text in _texts():
            assert [m.span() for m in joined.finditer(text)] == [m.span() for m in whole.finditer(text)], text


@pytest.mark.parametrize(("source", "pieces"), [
    ("a|b|c", ("a", "b", "c")),
    (r"(?:a|b)c|d", ("(?:a|b)c", "d")),
    (r"[|]x|y", ("[|]x", "y")),
    (r"[]|]x|y", ("[]|]x", "y")),
    (r"[^]|]x|y", ("[^]|]x", "y")),
    (r"\|x|y", (r"\|x", "y")),
    (r"[\]|]x|y", (r"[\]|]x", "y")),
    ("abc", ("abc",)),
    ("(?:a|b)", ("(?:a|b)",)),
    ("a|(b", ("a|(b",)),  # not a pattern: kept whole
])
def test_alternatives_split_at_the_top_only(source: str, pieces: tuple[str, ...]) -> None:
    assert literals.alternatives(source) == pieces


def test_the_finder_keeps_what_a_run_holds() -> None:
    words = ["no", "not", "never", "不", "不要", "ず", "stop"]
    finder = literals.Finder(words)
    trie = re.compile(f"(?=({literals.trie_source(sorted(words))}))")
    for text in [*_texts(), "not now, NOT never", "不要不要", "notnot", "a\u3000不要\tno"]:
        direct = {w for found in trie.findall(literals.shadow(text)) for w in words if found.startswith(w)}
        assert finder.present(text) == direct, text
        assert finder.present(text) == direct, text  # again, from the runs kept
    assert finder.present("not never") == {"no", "not", "never"}


def test_a_pattern_without_strings_to_look_for_is_kept_whole() -> None:
    lexicon = literals.Lexicon([((r"\w+", "x+"), 0)])
    assert lexicon.narrowed("abc")[0].pattern == r"\w+"
    assert lexicon.narrowed("xx")[0].pattern == r"\w+|x+"
