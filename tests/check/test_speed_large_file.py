"""The devices that cut a large staged file's cost outside layer 1 give the plain results:
``cache.lines_digest`` tells the same line lists apart as the ``repr`` it replaced, and
``scan.layer2_part`` takes the lines the loop without its early exit takes."""
from __future__ import annotations

import random

from chord_git.check import cache
from chord_git.secrets import scan


def _lines(rng: random.Random) -> tuple[tuple[int, str], ...]:
    pieces = ["", "a", "b", "ab", "\n", "\udc80", "\u00e9", "x" * 5, "1", "'", "\\"]
    return tuple((rng.randint(0, 3), "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))))
                 for _ in range(rng.randint(0, 4)))


def test_lines_digest_tells_apart_what_the_repr_tells_apart() -> None:
    rng = random.Random(5)
    seen: dict[bytes, str] = {}
    for _ in range(20_000):
        lines = _lines(rng)
        digest = cache.lines_digest(lines)
        assert digest == cache.lines_digest(list(lines))
        assert seen.setdefault(digest, repr(lines)) == repr(lines), lines


def test_lines_digest_names_boundaries_numbers_and_surrogates() -> None:
    cases = [((1, "ab"), (2, "")), ((1, "a"), (2, "b")), ((1, "a"), (3, "b")), ((1, "\udc80"),),
             ((1, "\ufffd"),), ((1, ""),), ()]
    assert len({cache.lines_digest(case) for case in cases}) == len(cases)


def _plain_layer2_part(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    if sum(len(text) for _, text in lines) + len(lines) <= scan.LAYER2_MAX_LINE:
        return list(lines)
    budget = scan.LAYER2_MAX_CHARS
    part = []
    for number, text in lines:
        if budget > 0 and len(text) <= scan.LAYER2_MAX_LINE:
            part.append((number, text))
            budget -= len(text) + 1
    return part


def test_layer2_part_takes_what_the_plain_loop_takes() -> None:
    rng = random.Random(9)
    sizes = [0, 1, 80, 4095, 4096, 4097, 9000, 30_000]
    for _ in range(300):
        count = rng.choice([1, 2, 40, 4095, 4096, 4097, 6000])
        lines = [(n, "x" * rng.choice(sizes if rng.random() < 0.02 else sizes[:4])) for n in range(1, count + 1)]
        assert scan.layer2_part(lines) == _plain_layer2_part(lines)


_ENTRY = "- [fact] The {0} service reads settings. ([20261129-note-{1:05d}](.chord/memory/records/20261129-note-{1:05d}.md))"
_INDEXES = [
    "# Memory\n\n<!-- chord:memory:begin -->\n" + "\n".join(_ENTRY.format("a", n) for n in range(3)) + "\n<!-- chord:memory:end -->\nnotes\n",
    "<!-- chord:memory:begin -->\n- not an entry\n" + _ENTRY.format("b" * 400, 7) + "\n<!-- chord:memory:end -->\n",
    "<!-- chord:memory:begin -->\n" + _ENTRY.format("see /etc/passwd", 1) + "\n" + _ENTRY.format("c", 1) + "\n",
    "<!-- chord:memory:end -->\n<!-- chord:memory:begin -->\n",
    "no markers at all\n",
    "<!-- chord:memory:begin -->\n\xe9\n<!-- chord:memory:end -->\n",
]


def test_one_parse_of_memory_md_gives_both_rules_their_findings() -> None:
    from chord_git.check import changes
    from chord_git.git.changes import FileChange

    for text in _INDEXES:
        for data in (text.encode(), text.encode("latin-1", "replace")):
            change = FileChange("MEMORY.md", 0o100644, False, (), data)
            parsed = changes.index_parse(change)
            assert parsed is not None
            problems_before = list(parsed[1])
            assert changes.schema_findings(change, parsed) == changes.schema_findings(change)
            for contains in (lambda path: False, lambda path: path.endswith("00001.md")):
                assert changes.dangling(change, contains, "record", parsed) == changes.dangling(change, contains, "record")
            assert parsed[1] == problems_before  # the parse handed in is left as it was
    record = FileChange(".chord/memory/records/20261129-note-00001.md", 0o100644, False, (), b"x")
    assert changes.index_parse(record) is None
