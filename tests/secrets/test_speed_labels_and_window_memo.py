"""Speed devices of layer 1, round 5 (issue 33 item 7), proved by their results and by counts,
never by the clock.

- ``anylabel._may_hold_item``: a line whose last slash has no blank after it is settled without
  the label pattern; sound when no such line holds a label-value item the rule would accept.
- ``repeats.WindowVerdicts`` rests its memo after a stretch of misses: the verdicts are the
  rule's own, whatever the memo does.
- ``scanners.languages`` builds its tables on first use: importing layer 1 builds none, an
  ASCII text builds no table of the other scripts, and the tables are those of the recipe the
  module followed at import before.
"""
from __future__ import annotations

import random
import subprocess
import sys
import unicodedata

from chord_git.secrets.scan import find
from chord_git.secrets.scanners import anylabel
from chord_git.secrets.scanners import languages as scanner
from chord_git.secrets.text import repeats
from chord_git.secrets.text.normalize import normalize
from chord_git.secrets.text.spans import Span
from chord_git.secrets.words import languages

# Pieces of label-value lines and of the lines around them; drawn at random, so the lines cover
# the prefixes, marks, separators, slashes and blanks ``_ITEM`` reads, in every order.
_LEADS = ("", "  ", "- ", "* ", "1. ", "\t", "see https://example.com/a, ", "staging / ", "db: user admin, ",
          "notes in src/gen - ", "path a/b; ", "x\\y, ", "see /etc/hosts ")
_LABELS = ("Cyfrinair", "Gweinydd", "Defnyddiwr", "Jelszó", "Parol", "pass word", "Mot-de-passe", "Kod",
           "**Cyfrinair**", "__Lozinka__", "page", "items?page", "a/b", "ключ", "clé")
_SEPS = (": ", ":", " = ", "=", " - ", " -- ", " — ", "：", "՝ ", ": **", ":** ")
_VALUES = ("X9!fk2Qz", "Tr0ub4dor&3x", "hunter2!Ab", "8&limit=20;", "a/b/C9!xyzQ", "`Qw3$rtyU1`", "\"Zx8#vbnM2\"",
           "https://h.example/Ab1!cdefg", "C:\\Users\\Ab1!x", "Ab1!cdefg)", "v1.2.3-Ab!", "Secr3t!/x", "'pa55W0rd!'")
_TAILS = ("", " ", "\t", "  ", "**", "\r")


def _random_line(rng: random.Random) -> str:
    return (rng.choice(_LEADS) + rng.choice(_LABELS) + rng.choice(_SEPS) + rng.choice(_VALUES)
            + rng.choice(_TAILS))


def _accepted(text: str, start: int, end: int) -> bool:
    """What the rule asks of a line before it reads the line's company: an item, a label it does
    not skip, and a value that looks typed or generated."""
    item = anylabel._item_at(text, start, end)
    if item is None:
        return False
    value = text[item.value_start:item.value_end]
    label = text[item.label_start:item.label_end]
    return not anylabel._skipped_label(label, item.indented) and anylabel._typed_or_generated(value)


def test_lines_settled_without_the_label_pattern_hold_no_accepted_item() -> None:
    rng = random.Random(515)
    settled = accepted = 0
    for _ in range(6000):
        line = normalize(_random_line(rng)).text
        accepted += _accepted(line, 0, len(line))
        if not anylabel._may_hold_item(line, 0, len(line)):
            settled += 1
            assert not _accepted(line, 0, len(line)), line
    assert settled > 500 and accepted > 1000  # both kinds of line are drawn


def test_lines_of_notes_ending_in_a_url_are_settled_by_the_device() -> None:
    line = "staging api at https://api-1.staging.example.com/v2/items?page=8&limit=20;"
    assert not anylabel._may_hold_item(line, 0, len(line))
    kept = "staging / Cyfrinair: X9!fk2Qz"  # a slash before the label, blanks after it: read
    assert anylabel._may_hold_item(kept, 0, len(kept))


def test_any_label_findings_with_company_still_found() -> None:
    text = "staging db: host db1.internal\nDefnyddiwr: admin\nCyfrinair: X9!fk2Qz7\n"
    assert any(s.kind == anylabel.KIND and text[s.start:s.end] == "X9!fk2Qz7" for s in find(text))


def _rule(text: str, base: int, end: int) -> Span | None:
    """A verdict that depends only on the window: where its first digit stands, if any."""
    for pos in range(base, end):
        if text[pos].isdigit():
            return Span(pos, pos + 1, "digit", 0)
    return None


def _windows(rng: random.Random, count: int) -> tuple[str, list[tuple[int, int]]]:
    """Windows of a text: stretches of distinct ones (the memo rests), then repeats of a few
    (it must find them again), then runs of one window in place."""
    pool = ["".join(rng.choice("ab1 ") for _ in range(rng.randint(1, 12))) for _ in range(6)]
    parts: list[str] = []
    for index in range(count):
        phase = (index // 700) % 3
        if phase == 0:
            parts.append("".join(rng.choice("abcdefgh23 ") for _ in range(rng.randint(1, 16))))
        elif phase == 1:
            parts.append(rng.choice(pool))
        else:
            parts.append(pool[0])
    spans: list[tuple[int, int]] = []
    offset = 0
    for part in parts:
        spans.append((offset, offset + len(part)))
        offset += len(part) + 1
    return "\n".join(parts), spans


def test_window_verdicts_are_the_rules_own_while_the_memo_rests_and_resumes() -> None:
    rng = random.Random(5)
    text, spans = _windows(rng, 5000)
    windows = repeats.WindowVerdicts(text)
    computed = 0
    for base, end in spans:
        where = (end - base,)
        got = windows.verdict(base, end, where)
        if got is False:
            computed += 1
            got = windows.remember(base, _rule(text, base, end))
        assert got == _rule(text, base, end), (base, end)
    # The memo rested in the distinct stretches and answered the repeats: fewer rule calls than
    # windows, more than the distinct windows alone.
    assert computed < len(spans) - 1000
    assert computed > 1000


def test_window_memo_rests_after_misses_and_is_tried_again() -> None:
    text = "".join(f"w{index:05d}\n" for index in range(repeats._PROBES + repeats._REST + 10))
    windows = repeats.WindowVerdicts(text)
    sliced = 0
    for index in range(repeats._PROBES + repeats._REST + 10):
        base = index * 7
        assert windows.verdict(base, base + 6, None) is False  # all distinct: never known
        sliced += windows._asked
        windows.remember(base, None)
    assert sliced == repeats._PROBES + 10  # the probes, then nothing for ``_REST``, then probes again


def test_importing_layer_one_builds_no_language_table() -> None:
    code = ("import chord_git.secrets.scan as s\n"
            "from chord_git.secrets.scanners import languages as l\n"
            "built = lambda: [f.cache_info().currsize for f in (l._tables, l._ascii_tables, l._script_tables)]\n"
            "print(built())\n"
            "s.find('deploy notes: the chave is kept in the vault, run make check\\n')\n"
            "print(built())\n"
            "s.find('пароль: Xq7vLm2pRt9\\n')\n"
            "print(built())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:3] == ["[0, 0, 0]", "[1, 1, 0]", "[1, 1, 1]"]


def _reference_tables() -> tuple[dict[str, tuple[str, frozenset[str], bool, frozenset[str]]], dict[str, str]]:
    """The tables by the recipe the module followed at import: each folded label's entry, and
    every spelling of the labels of other scripts as the text reads it."""
    fold = scanner._fold
    table: dict[str, tuple[str, frozenset[str], bool, frozenset[str]]] = {}
    written: dict[str, set[str]] = {}
    for lang in languages.LANGUAGES:
        for words, cls in ((lang.passwords, "password"), (lang.secrets, "secret")):
            copulas = frozenset(map(fold, lang.copulas))
            qualifiers = frozenset(map(fold, lang.qualifiers))
            for word in words:
                form = fold(word)
                written.setdefault(form, set()).add(word)
                old = table.get(form)
                table[form] = (cls, copulas, lang.attached, qualifiers) if old is None else \
                    (old[0], old[1] | copulas, old[2] or lang.attached, old[3] | qualifiers)
    composed = {unicodedata.normalize("NFD", chr(c)): chr(c) for c in range(0x0900, 0x0E00)
                if unicodedata.normalize("NFD", chr(c)) != chr(c)
                and unicodedata.normalize("NFC", unicodedata.normalize("NFD", chr(c))) != chr(c)}

    def spellings(word: str) -> tuple[str, ...]:
        joined = word
        for sequence, char in composed.items():
            joined = joined.replace(sequence, char)
        return tuple(dict.fromkeys((word, unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word),
                                    joined)))

    forms = {normalize(variant).text: form for form in table if not form.isascii()
             for spelled in sorted(written[form]) for spelling in spellings(spelled)
             for variant in (*scanner._cased(spelling), *scanner._cased(form))}
    return table, forms


def test_language_tables_built_on_first_use_are_those_of_the_recipe() -> None:
    table, forms = _reference_tables()
    assert {form: tuple(entry) for form, entry in scanner._tables().table.items()} == table
    assert scanner._script_tables().forms == forms
    assert scanner._script_tables().reach == max(map(len, forms))
    ascii_forms = sorted(f for f in table if f.isascii() and not scanner._prose_reads(f))
    by_roots = scanner._ascii_tables().root_forms
    assert sorted(form for by_offset in by_roots.values() for group in by_offset.values() for form in group) \
        == ascii_forms
    for root, by_offset in by_roots.items():
        for offset, group in by_offset.items():
            assert all(form.index(root) == offset for form in group)
        # The root's labels, each matched whole where it starts, by its pattern.
        patterns = dict(scanner._root_labels(root))
        for offset, group in by_offset.items():
            assert all(patterns[offset].fullmatch(form) for form in group)
