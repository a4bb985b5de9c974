"""Layer-1 scanner for credentials after a label in the languages most people speak (R31).

"das Passwort lautet …", "la contraseña es …", "le mot de passe est …", "пароль: …",
"비밀번호는 … 입니다", "kata sandi: …", "पासवर्ड है …", "كلمة المرور: …", "la password è …": a label
of ``words.languages``, a bridge (a separator, the language's copula, or a particle glued to the
label, after at most five filler words: "la contraseña de la base de datos es …") or nothing but
a blank, and a value that passes the value test (``values`` via ``text.reader``; stricter with no
bridge). Only the value is reported, so redaction keeps the sentence. Chinese, Japanese and
English labels with English bridges are ``prose``'s.

Labels are folded the way ``text.normalize`` folds the text (Cyrillic look-alikes, joiners), so
"пароль" matches the folded "пapoль" it reads. Linear time: labels in other scripts are searched
only around the text's non-ASCII characters (``Occurrences.script_windows``), ASCII labels by one
pass of a literal alternation over the lower-cased view, and each hit's bridge and value are
bounded to its line.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences, trie_pattern
from ..text.normalize import normalize
from ..text.reader import LINE, ValueReader
from ..text.spans import RANK_ASSIGNMENT, Span
from ..words import languages, vocab
from . import nextline

KINDS = {vocab.PASSWORD: "password-in-text", vocab.SECRET: "secret-in-text"}


def _fold(word: str) -> str:
    return word.lower() if word.isascii() else normalize(word).text.lower()


def _table() -> dict[str, tuple[str, frozenset[str], bool]]:
    """Each folded label: its class, the copulas that may follow it, whether they may be glued."""
    table: dict[str, tuple[str, frozenset[str], bool]] = {}

    def add(words: tuple[str, ...], cls: str, copulas: tuple[str, ...], attached: bool) -> None:
        folded = frozenset(map(_fold, copulas))
        for word in words:
            form = _fold(word)
            old = table.get(form)
            if old is None:
                table[form] = (cls, folded, attached)
            else:  # a word of several languages ("пароль", "heslo"): the bridges of each
                table[form] = (old[0], old[1] | folded, old[2] or attached)

    for lang in languages.LANGUAGES:
        add(lang.passwords, vocab.PASSWORD, lang.copulas, lang.attached)
        add(lang.secrets, vocab.SECRET, lang.copulas, lang.attached)
    return table


_TABLE = _table()
# ASCII labels are found through a root inside them, in one pass of a pattern of the roots (a
# trie: one branch per character tried, not one per root). A label holding an English one
# ("passwort", "toegangstoken") is ``prose``'s, which finds it through the words it searches anyway.
_ENGLISH = ("pass", "pw", "token", "secret", "key")
_ROOTS = ("katalaluan", "kennwort", "mdp", "senha", "wachtwoord", "contrase", "clave",
          "chave", "chiave", "sandi", "kunci", "laluan", "nenosiri", "neno", "nywila", "hasl", "hesl", "parol",
          "jelsz", "salasan", "losenord", "kodeord", "adgangskod", "lozink", "sifr", "khau", "jeton", "segre",
          "anahtar", "sleutel", "klucz", "kulcs", "nyckel", "ufunguo", "kalmar", "igbaniwole", "maxfiy",
          "schluessel", "pin code", "cle ", "avain", "sandhi", "chei", "kalit")
_ROOT_FORMS: dict[str, dict[int, list[str]]] = {}  # root -> its offset in a label -> those labels
for _form in (f for f in _TABLE if f.isascii() and not any(e in f for e in _ENGLISH)):
    _root = next((r for r in _ROOTS if r in _form), _form)  # a word without a listed root is its own
    _ROOT_FORMS.setdefault(_root, {}).setdefault(_form.index(_root), []).append(_form)
del _form, _root


def _cased(form: str) -> tuple[str, ...]:
    """A label in a cased script as people start a sentence or shout it: "пароль", "Пароль", "ПАРОЛЬ"."""
    return tuple(dict.fromkeys((form, form[:1].upper() + form[1:], form.upper())))


_SCRIPT_FORMS = {variant: form for form in _TABLE if not form.isascii() for variant in _cased(form)}


_SCRIPT_LABEL = lazy(trie_pattern(list(_SCRIPT_FORMS)))
# Per root, per offset of the root in a label: the labels as one pattern matched where they start.
_ASCII_LABELS = tuple((root, tuple((offset, lazy(trie_pattern(forms))) for offset, forms in sorted(by_offset.items())))
                      for root, by_offset in _ROOT_FORMS.items())
# A label starts a word. One pattern per character that may precede it, each starting with that
# literal: the engine skips to a literal at memory speed, where a class of them (or the roots' many
# first letters) costs a test per character. The text's start is matched apart.
_ROOT_TRIE = trie_pattern(list(_ROOT_FORMS))
_ROOT_LEADS = (" ", "\n", "*", "\"", "-")
_ROOTS_AFTER = tuple(lazy(re.escape(lead) + "(" + _ROOT_TRIE + ")") for lead in _ROOT_LEADS)
_ROOT_AT_START = lazy(_ROOT_TRIE)
_SCRIPT_REACH = max(map(len, _SCRIPT_FORMS))


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
    return re.compile(rf"""
        [*_`'"\]]{{0,3}}(?:[ \t]*\([^()\n]{{0,40}}\))?
        (?:
            [ \t]*(?:[:=]|->|(?<=[ \t])>(?=[ \t])|-(?=[ \t]))[ \t]*(?:(?:{cop})[ \t]*[:]?)?
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
    if len(low) < _SMALL_TEXT:
        for root in _ROOT_FORMS:
            pos = low.find(root)
            while pos >= 0:
                if not pos or low[pos - 1] in _LEAD_SET:
                    found.setdefault(root, []).append(pos)
                pos = low.find(root, pos + 1)
        return found
    first = _ROOT_AT_START.match(low)
    if first is not None:
        found[first.group()] = [0]
    for after in _ROOTS_AFTER:
        for match in after.finditer(low):
            found.setdefault(match.group(1), []).append(match.start(1))
    return found


def _script_hits(text: str, windows: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Labels in other scripts inside ``windows``, the longest at each place."""
    forms = _SCRIPT_FORMS
    if len(text) >= _SMALL_TEXT:
        return [(m.start(), m.end(), forms[m.group()]) for start, end in windows
                for m in _SCRIPT_LABEL.finditer(text, start, end)]
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
    for root, by_offset in _ASCII_LABELS:
        for pos in found_roots.get(root, ()):
            for offset, pattern in by_offset:
                if pos >= offset:
                    label = pattern.match(low, pos - offset)
                    if label is not None:
                        hits.append((label.start(), label.end(), label.group()))
                        break
    if not text.isascii():
        hits.extend(_script_hits(text, occurrences.script_windows(_SCRIPT_REACH)))
    hits.sort()
    return hits


def label_class(words: str) -> str | None:
    """The class of a label written in another language (as a whole cell or heading), or None."""
    entry = _TABLE.get(_fold(words).strip())
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


def scan(text: str, view: str, occurrences: Occurrences | None = None,
         reader: ValueReader | None = None) -> list[Span]:
    """Values after labels in other languages."""
    occurrences = occurrences or Occurrences(view.lower(), text)
    reader = reader or ValueReader(text)
    found: list[Span] = []
    done = -1
    size = len(text)
    verdicts: dict[tuple[str, str], tuple[int, int, str] | None] = {}
    for start, end, form in _hits(text, occurrences):
        if start < done:
            continue
        cls, copulas, attached = _TABLE[form]
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
            span = _value_after(text, reader, end, line_end, cls, copulas, attached)
            known = verdicts[key] = None if span is None else (span.start - end, span.end - end, span.kind)
        if known is not None:
            found.append(Span(end + known[0], end + known[1], known[2], RANK_ASSIGNMENT))
            done = end + known[1]
        elif line_end < size and view[line_end] == "\n":
            line_start = view.rfind("\n", max(0, start - LINE), start) + 1
            below = nextline.value_below(text, view, reader, line_start, start, end, line_end, cls, KINDS[cls])
            if below is not None:
                found.append(below)
                done = below.end
    return found


__all__ = ["KINDS", "label_class", "scan"]
