"""Layer-1 scanner for credentials after a label in the languages most people speak (R31).

"das Passwort lautet …", "la contraseña es …", "le mot de passe est …", "пароль: …",
"비밀번호는 … 입니다", "kata sandi: …", "पासवर्ड है …", "كلمة المرور: …", "la password è …": a label
of ``words.languages``, a bridge (a separator, the language's copula, or a particle glued to the
label, after at most five filler words: "la contraseña de la base de datos es …") or nothing but
a blank, and a value that passes the value test (``values`` via ``text.reader``; stricter with no
bridge). A qualifier may stand between label and value ("пароль от базы …": one of the
language's ``qualifiers`` and at most two words), and then the value needs the stricter test; a
label whose line announces a value below it ("Пароль: см. ниже") is read by ``nextline`` and
``below``. Only the value is reported, so redaction keeps the sentence. Chinese, Japanese and
English labels with English bridges are ``prose``'s.

Labels are folded the way ``text.normalize`` folds the text (Cyrillic look-alikes, joiners), so
"пароль" matches the folded "пapoль" it reads; a capital is folded apart ("Токен" reads
"Toкeн"), and Indic labels are matched composed and decomposed ("য়" is one character or two).
Linear time: labels in other scripts are searched only around the text's non-ASCII characters
(``Occurrences.script_windows``), ASCII labels by one pass of a literal alternation over the
lower-cased view, and each hit's bridge and value are bounded to its line.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences, trie_pattern
from ..text.normalize import normalize
from ..text.reader import LINE, ValueReader
from ..text.spans import RANK_ASSIGNMENT, Span
from ..words import languages, vocab
from ..words.keys import word_parts
from . import below, nextline
from .labels import classify

KINDS = {vocab.PASSWORD: "password-in-text", vocab.SECRET: "secret-in-text"}


def _fold(word: str) -> str:
    return word.lower() if word.isascii() else normalize(word).text.lower()


class _Entry(NamedTuple):
    cls: str
    copulas: frozenset[str]  # between the label and its value
    attached: bool  # copulas may be glued to the label
    qualifiers: frozenset[str]  # words starting what the password opens ("от", "für")


# The tables below are built on first use, not at import: folding ~1,600 label spellings and
# writing their tries cost ~30 ms at every import, which a hook run on a small ASCII commit paid
# for nothing (it needs only the ASCII roots; the other scripts' forms only when the text holds
# their characters). Each builder runs once per process (``lru_cache``); the tables are those the
# module built at import before (``tests/secrets/test_speed_labels_and_window_memo.py``).
class _Tables(NamedTuple):
    table: dict[str, _Entry]  # each folded label: class, copulas, glued or not, qualifiers
    written: dict[str, set[str]]  # each folded label: the labels as the tables write them (capitals folded apart)


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    """Each folded label: its class, the copulas that may follow it, whether they may be glued,
    and the words that may start a qualifier between it and its value."""
    table: dict[str, _Entry] = {}
    written: dict[str, set[str]] = {}
    folds: dict[str, str] = {}  # a language's copulas are folded for its passwords and its secrets: once

    def fold(word: str) -> str:
        done = folds.get(word)
        if done is None:
            done = folds[word] = _fold(word)
        return done

    def add(words: tuple[str, ...], cls: str, lang: languages.Language) -> None:
        folded = frozenset(map(fold, lang.copulas))
        qualifiers = frozenset(map(fold, lang.qualifiers))
        for word in words:
            form = fold(word)
            written.setdefault(form, set()).add(word)
            old = table.get(form)
            if old is None:
                table[form] = _Entry(cls, folded, lang.attached, qualifiers)
            else:  # a word of several languages ("пароль", "heslo"): the bridges of each
                table[form] = _Entry(old.cls, old.copulas | folded, old.attached or lang.attached,
                                     old.qualifiers | qualifiers)

    for lang in languages.LANGUAGES:
        add(lang.passwords, vocab.PASSWORD, lang)
        add(lang.secrets, vocab.SECRET, lang)
    return _Tables(table, written)


# ASCII labels are found through a root inside them, in one pass of a pattern of the roots (a
# trie: one branch per character tried, not one per root). A label holding an English one
# ("passwort", "toegangstoken") is ``prose``'s, which finds it through the words it searches anyway.
def _prose_reads(form: str) -> bool:
    """Whether ``prose`` finds this ASCII label itself (its last word names an English label:
    "passwort", "toegangstoken"); "secreto", "chave secreta" are this scanner's."""
    return any(e in form for e in _ENGLISH) and classify(word_parts(form.replace(" ", "_")), "", "") is not None


_ENGLISH = ("pass", "pw", "token", "secret", "key")
_ROOTS = ("katalaluan", "kennwort", "mdp", "senha", "wachtwoord", "contrase", "clave",
          "chave", "chiave", "sandi", "kunci", "laluan", "nenosiri", "neno", "nywila", "hasl", "hesl", "parol",
          "jelsz", "salasan", "losenord", "kodeord", "adgangskod", "lozink", "sifr", "khau", "jeton", "segre",
          "anahtar", "sleutel", "klucz", "kulcs", "nyckel", "ufunguo", "kalmar", "igbaniwole", "maxfiy",
          "schluessel", "pin code", "cle ", "avain", "sandhi", "chei", "kalit")
# A label starts a word. One pattern per character that may precede it, each starting with that
# literal: the engine skips to a literal at memory speed, where a class of them (or the roots' many
# first letters) costs a test per character. The text's start is matched apart.
_ROOT_LEADS = (" ", "\n", "*", "\"", "-")


class _AsciiTables(NamedTuple):
    roots: tuple[str, ...]  # the roots searched in the text (``root_forms``' keys, in order)
    root_forms: dict[str, dict[int, list[str]]]  # root -> its offset in a label -> those labels


@lru_cache(maxsize=1)
def _ascii_tables() -> _AsciiTables:
    root_forms: dict[str, dict[int, list[str]]] = {}
    for form in (f for f in _tables().table if f.isascii() and not _prose_reads(f)):
        # A root is searched where a word starts: one glued inside a word ("zugangskennwort",
        # "anahtari" in "api anahtari" is not) leaves the label its own root.
        root = next((r for r in _ROOTS if r in form and (form.index(r) == 0 or form[form.index(r) - 1] in " -")),
                    form)
        root_forms.setdefault(root, {}).setdefault(form.index(root), []).append(form)
    return _AsciiTables(tuple(root_forms), root_forms)


# Per root: the trie of its labels is written when a text first holds the root (most texts hold
# none of them).
@lru_cache(maxsize=None)
def _root_labels(root: str) -> tuple[tuple[int, re.Pattern[str]], ...]:
    """Per offset of the root in a label: the labels as one pattern matched where they start.
    The farthest offset first: the label starting earliest is the longest ("api anahtari", not
    "anahtar")."""
    by_offset = _ascii_tables().root_forms[root]
    return tuple((offset, lazy(trie_pattern(forms))) for offset, forms in sorted(by_offset.items(), reverse=True))


@lru_cache(maxsize=1)
def _root_search() -> tuple[tuple[re.Pattern[str], ...], re.Pattern[str]]:
    """The roots as a trie after each of ``_ROOT_LEADS``, and at the text's start (large texts)."""
    root_trie = trie_pattern(list(_ascii_tables().roots))
    return tuple(lazy(re.escape(lead) + "(" + root_trie + ")") for lead in _ROOT_LEADS), lazy(root_trie)


def _cased(form: str) -> tuple[str, ...]:
    """A label in a cased script as people start a sentence or shout it: "пароль", "Пароль", "ПАРОЛЬ"."""
    return tuple(dict.fromkeys((form, form[:1].upper() + form[1:], form.upper())))


def _composed_forms() -> dict[str, str]:
    """Decomposed sequences of the Indic blocks and the one character that also writes them
    ("য়" is U+09DF or U+09AF U+09BC): NFC leaves these apart (composition exclusions), and
    text holds either."""
    found: dict[str, str] = {}
    for code in range(0x0900, 0x0E00):
        char = chr(code)
        decomposed = unicodedata.normalize("NFD", char)
        if decomposed != char and unicodedata.normalize("NFC", decomposed) != char:
            found[decomposed] = char
    return found


def _spellings(word: str, composed_forms: dict[str, str]) -> tuple[str, ...]:
    """``word`` as the tables write it, composed and decomposed."""
    composed = word
    for sequence, char in composed_forms.items():
        composed = composed.replace(sequence, char)
    return tuple(dict.fromkeys((word, unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word),
                                composed)))


class _ScriptTables(NamedTuple):
    forms: dict[str, str]  # each spelling of a label in another script, as the text reads it -> its folded label
    label: re.Pattern[str]  # any of them
    reach: int  # the longest: the reach of ``Occurrences.script_windows``


@lru_cache(maxsize=1)
def _script_tables() -> _ScriptTables:
    """The labels of the other scripts: wanted only by a text holding non-ASCII characters."""
    table, written = _tables()
    composed_forms = _composed_forms()
    # Cased before folding: a capital folds on its own ("Токен" reads "Toкeн", not "Тoкeн").
    forms = {normalize(variant).text: form for form in table if not form.isascii()
             for spelled in sorted(written[form]) for spelling in _spellings(spelled, composed_forms)
             for variant in (*_cased(spelling), *_cased(form))}
    return _ScriptTables(forms, lazy(trie_pattern(list(forms))), max(map(len, forms)))


@lru_cache(maxsize=64)
def _bridge(copulas: frozenset[str], attached: bool) -> re.Pattern[str]:
    """Between a label and its value: a separator, a copula, or filler words then one of them."""
    alternatives = []
    for word in sorted(copulas, key=len, reverse=True):
        # A copula in a script with word spaces is a whole word ("es", not "está").
        tail = r"(?![^\W\d_])" if word[-1].isalpha() and not attached else ""
        alternatives.append(re.escape(word) + tail)
    cop = "|".join(alternatives) or "(?!)"
    lead = "[ \t]*" if attached else "[ \t]+"
    # Scripts without word spaces: a qualifier glued between label and copula ("รหัสผ่านเซิร์ฟเวอร์คือ").
    glued = rf"| [^\x00-\x7f\s]{{1,30}}?(?:(?:{cop})(?:[ \t]*[:=])?|[ \t]*[:=])" if attached else ""
    # "՝" follows an Armenian label as a colon does ("Գաղտնաբառ՝"); Khmer and Ethiopic write
    # their own colons ("៖", "፦").
    return re.compile(rf"""
        [*_`'"\]՝]{{0,3}}(?:[ \t]*\([^()\n]{{0,40}}\))?
        (?:
            [ \t]*(?:[:=៖፦]|->|(?<=[ \t])>(?=[ \t])|-(?=[ \t]))[ \t]*(?:(?:{cop})[ \t]*[:]?)?
          | {lead}(?:{cop})(?:[ \t]*[:=])?
          {glued}
          | (?:[ \t]+[^\s:=|]{{1,24}}){{1,5}}?(?:[ \t]*[:=]|[ \t]+(?:{cop}))(?:[ \t]*:)?
        )
        [ \t]*[*_]{{0,3}}[ \t]*
        """, re.X | re.IGNORECASE)


_DIRECT = lazy(r"[*_`'\"\]]{0,3}[ \t]{1,2}")
_DIRECT_GLUED = lazy(r"[*_`'\"\]]{0,3}[ \t]{0,2}")


# Below this size a text is searched word by word with ``str.find``: compiling the patterns
# (tens of milliseconds for the labels of every script) would cost a small commit more than reading it.
_SMALL_TEXT = 1 << 16
_LEAD_SET = frozenset(_ROOT_LEADS)
def _root_positions(low: str) -> dict[str, list[int]]:
    """Where each root starts a word (after one of ``_ROOT_LEADS``, or at the text's start)."""
    found: dict[str, list[int]] = {}
    tables = _ascii_tables()
    if len(low) < _SMALL_TEXT:
        for root in tables.roots:
            pos = low.find(root)
            while pos >= 0:
                if not pos or low[pos - 1] in _LEAD_SET:
                    found.setdefault(root, []).append(pos)
                pos = low.find(root, pos + 1)
        return found
    roots_after, root_at_start = _root_search()
    first = root_at_start.match(low)
    if first is not None:
        found[first.group()] = [0]
    for after in roots_after:
        for match in after.finditer(low):
            found.setdefault(match.group(1), []).append(match.start(1))
    return found


def _script_hits(text: str, windows: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Labels in other scripts inside ``windows``, the longest at each place."""
    forms, pattern, _ = _script_tables()
    if len(text) >= _SMALL_TEXT:
        return [(m.start(), m.end(), forms[m.group()]) for start, end in windows
                for m in pattern.finditer(text, start, end)]
    found: list[tuple[int, int, str]] = []
    for variant, form in forms.items():
        for start, end in windows:
            pos = text.find(variant, start, end)
            while pos >= 0:
                found.append((pos, pos + len(variant), form))
                pos = text.find(variant, pos + 1, end)
    found.sort(key=lambda hit: (hit[0], -hit[1]))
    kept: list[tuple[int, int, str]] = []
    for hit in found:
        if not kept or hit[0] >= kept[-1][1]:
            kept.append(hit)
    return kept


def _hits(text: str, occurrences: Occurrences) -> list[tuple[int, int, str]]:
    low = occurrences.low
    hits: list[tuple[int, int, str]] = []
    found_roots = _root_positions(low)
    for root, positions in found_roots.items():  # sorted below: the order of roots does not matter
        by_offset = _root_labels(root)
        for pos in positions:
            for offset, pattern in by_offset:
                if pos >= offset:
                    label = pattern.match(low, pos - offset)
                    if label is not None:
                        hits.append((label.start(), label.end(), label.group()))
                        break
    if not text.isascii():
        hits.extend(_script_hits(text, occurrences.script_windows(_script_tables().reach)))
    hits.sort()
    return hits


def label_class(words: str) -> str | None:
    """The class of a label written in another language (as a whole cell or heading), or None."""
    entry = _tables().table.get(_fold(words).strip())
    return entry[0] if entry is not None else None


# A value said without a bridge ("Passwort Xq7…") must look typed on purpose: mixed case and a
# digit, at least eight characters, no word of five lower-case letters in it (notes glue words
# to labels: "hasło do%0Azabezpieczenia", "parola SOCKSv5").
_DIRECT_MIN = 8
_LOWER_WORD = lazy(r"[a-z]{5}")


def _plausible(text: str, start: int, end: int, direct: bool, attached: bool) -> bool:
    """Shape checks the value test leaves to the reader of another language's sentence."""
    if not attached and end < len(text) and text[end].isalpha():
        return False  # the value runs on into a word of another script: part of that word
    # (where particles are glued to words, "…입니다" after a value is the sentence's end)
    value = text[start:end]
    if value[-1:] in "!?" and value[:-1].isalpha():
        return False  # "Wachtwoord is vereist!": a word and its exclamation mark
    if not direct:
        return True
    return (len(value) >= _DIRECT_MIN and any(c.isdigit() for c in value) and any(c.isupper() for c in value)
            and any(c.islower() for c in value) and _LOWER_WORD.search(value) is None)


def _value_after(text: str, reader: ValueReader, end: int, line_end: int, cls: str,
                 copulas: frozenset[str], attached: bool) -> Span | None:
    """The value over the label's bridge, or right after the label (a stricter test)."""
    bridge = _bridge(copulas, attached).match(text, end, line_end)
    if bridge is not None:
        span = reader.span(reader.value_at(bridge.end(), line_end), cls, KINDS[cls])
        if span is not None and _plausible(text, span.start, span.end, False, attached):
            return span
    direct = (_DIRECT_GLUED if attached else _DIRECT).match(text, end, line_end)
    if direct is None:
        return None
    span = reader.span(reader.value_at(direct.end(), line_end), cls, KINDS[cls], direct=True)
    return span if span is not None and _plausible(text, span.start, span.end, True, attached) else None


_QUALIFIER_WORD = lazy(r"[ \t]+([^\s:=|]{1,24})")
_QUALIFIER_WORDS = 3  # "от базы", "для базы данных", "für den Server": the preposition and at most two words


def _value_after_qualifier(text: str, reader: ValueReader, end: int, line_end: int, cls: str,
                           qualifiers: frozenset[str]) -> Span | None:
    """The value after a qualifier ("пароль от базы …"): a typed password's shape, ending the line
    or its clause, since no bridge names it."""
    if not qualifiers:
        return None
    pos = end
    for number in range(_QUALIFIER_WORDS + 1):
        word = _QUALIFIER_WORD.match(text, pos, line_end)
        if word is None:
            return None
        if number == 0:
            if word.group(1).lower() not in qualifiers:
                return None
        elif number >= 2 or not word.group(1).isalpha():
            got = reader.value_at(word.start(1), line_end)
            if got is not None and (got[1] >= line_end or text[got[1]] in " \t,;.)"):
                span = reader.span(got, cls, KINDS[cls], direct=True)
                if span is not None and _plausible(text, span.start, span.end, True, False):
                    return span
        pos = word.end()
    return None


def scan(text: str, view: str, occurrences: Occurrences | None = None,
         reader: ValueReader | None = None) -> list[Span]:
    """Values after labels in other languages."""
    occurrences = occurrences or Occurrences(view.lower(), text)
    reader = reader or ValueReader(text)
    found: list[Span] = []
    done = -1
    size = len(text)
    verdicts: dict[tuple[str, str], tuple[int, int, str] | None] = {}
    table = _tables().table
    for start, end, form in _hits(text, occurrences):
        if start < done:
            continue
        cls, copulas, attached, qualifiers = table[form]
        if not attached and ((start and text[start - 1].isalpha()) or (end < size and text[end].isalpha())):
            continue  # inside a word: "clavecin", "passwordless"
        if start and text[start - 1] in "?&#;<{$%":
            continue  # a URL parameter (``links``), a placeholder's name (``<clave>``, ``{senha}``)
        line_end = view.find("\n", end, end + LINE)
        if line_end < 0:
            line_end = min(size, end + LINE)
        # What follows a label decides its value, and notes repeat their lines: each is read once.
        key = (form, text[end:line_end])
        if key in verdicts:
            known = verdicts[key]
        else:
            span = _value_after(text, reader, end, line_end, cls, copulas, attached) \
                or _value_after_qualifier(text, reader, end, line_end, cls, qualifiers)
            known = verdicts[key] = None if span is None else (span.start - end, span.end - end, span.kind)
        if known is not None:
            found.append(Span(end + known[0], end + known[1], known[2], RANK_ASSIGNMENT))
            done = end + known[1]
        elif line_end < size and view[line_end] == "\n":
            line_start = view.rfind("\n", max(0, start - LINE), start) + 1
            under = nextline.value_below(text, view, reader, line_start, start, end, line_end, cls, KINDS[cls]) \
                or below.value_below(text, view, reader, end, line_end, cls, KINDS[cls])
            if under is not None:
                found.append(under)
                done = under.end
    return found


__all__ = ["KINDS", "label_class", "scan"]
