"""Where a text names a credential: the labels of the prose layer (R31).

An ASCII label is a word holding one of ``vocab.ASCII_ANCHORS`` whose last part names a
credential (``password``, ``DB_PASSWORD``, ``api key``, ``AppSecret``), unless the words around
it make it a description (``password manager``, ``max tokens``, ``primary key``, ``1Password``).
Labels in other scripts (``密码``, ``パスワード``, ``пароль``) are matched as written. Each label
has a class (``vocab.PASSWORD``, ``SECRET``, ``WEAK``) that tells the value test how strict to be.

Linear time: words are found by substring search (shared ``Occurrences``), each hit is expanded
to its word with bounded walks, hits inside a word already seen are skipped, and the verdict for
a (word, word before, word after) triple is computed once per scan.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from operator import itemgetter
from typing import NamedTuple

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..words import keys, vocab
from ..words.keys import word_parts

_WORD_SET = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_WORD_FORWARD = lazy(r"[a-z0-9_\-]*")
# The word before a label, read backwards: blanks, then word characters not starting with - or _.
_PREV_REVERSED = lazy(r"[ \t]{1,3}([a-z0-9_\-]{0,30}[a-z0-9])(?![a-z0-9_\-])")
_PREV_REACH = 34  # blanks and the word before, as far as ``_PREV_REVERSED`` reads
_BEHIND = 40 + _PREV_REACH  # the word's start (at most 40 back), then the word before it
_AHEAD = len(" phrase") + 3 + 3 + 31  # "pass phrase", then the word after it (``_NEXT_WORD``)
_NEXT_WORD = lazy(r"[*_`'\"]{0,3}[ \t]{1,3}([a-z][a-z0-9_\-]{0,30})")
_LAST_WORDS = frozenset({*vocab.ASCII_PASSWORD_WORDS, *vocab.ASCII_WEAK_WORDS, *keys.STRONG_KEY_WORDS})
_LAST_SUFFIXES = (*keys.STRONG_SUFFIXES, "password", "passwd", "pwd")
_PLURALS = frozenset({"passwords", "tokens", "secrets", "keys", "credentials", "creds"})

_SCRIPT_CLASS = {form: cls
                 for table, cls in ((vocab.PASSWORD_LABELS, vocab.PASSWORD), (vocab.SECRET_LABELS, vocab.SECRET),
                                    (vocab.WEAK_LABELS, vocab.WEAK))
                 for label in table for form in (label, label.capitalize())}
_SCRIPT_LABEL = lazy("|".join(re.escape(f) for f in sorted(_SCRIPT_CLASS, key=len, reverse=True)))
# Each such label holds a non-ASCII character: it is searched for only around those.
_SCRIPT_REACH = max(map(len, _SCRIPT_CLASS)) if not any(f.isascii() for f in _SCRIPT_CLASS) else None


class Label(NamedTuple):
    start: int
    end: int
    cls: str
    cjk: bool = False  # written in a script without word spaces: the value may follow directly
    plural: bool = False  # "tokens", "passwords": talk about many, a value needs a separator


def classify(parts: list[str], prev: str, nxt: str) -> str | None:
    """The class of a label whose words are ``parts``, given the words around it, or None."""
    while parts and parts[-1].isdigit():
        parts = parts[:-1]
    if not parts or nxt in vocab.PROSE_DESCRIPTORS:
        return None
    prev = word_parts(prev)[-1] if prev else ""
    qualifiers = set(parts[:-1]) | {prev}
    if qualifiers & keys.NON_SECRET_QUALIFIERS or qualifiers & vocab.PROSE_NON_LABEL_QUALIFIERS \
            or "".join(parts) in vocab.SECRET_STORES:
        return None
    last = parts[-1]
    if last in vocab.ASCII_PASSWORD_WORDS or last.endswith(("password", "passwd", "pwd")):
        return vocab.PASSWORD
    if last in ("key", "keys"):
        qualifier = parts[-2] if len(parts) > 1 else prev
        if qualifier in vocab.PROSE_NON_SECRET_QUALIFIERS:
            return None
        if qualifier in vocab.PASSWORD_KEY_QUALIFIERS:
            return vocab.PASSWORD
        return vocab.SECRET if qualifier in keys.KEY_QUALIFIERS else vocab.WEAK
    if last in keys.STRONG_KEY_WORDS or last.endswith(keys.STRONG_SUFFIXES):
        return vocab.SECRET
    return vocab.WEAK if last in vocab.ASCII_WEAK_WORDS else None


def _prev_word_in(before: str) -> str:
    """The word before a label when one to three blanks separate them, else '', given the
    ``_PREV_REACH`` characters before the label (fewer at the text's start), which end in a
    blank. The caller slices them once, as its memo's key, and reads them here."""
    match = _PREV_REVERSED.match(before[::-1])
    return match.group(1)[::-1] if match else ""


_DIGITS = "0123456789"
_LOWER_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_OTHER = "\0"  # a word before or after that ``classify`` does not tell apart from none
# The word sets ``classify`` tests the last word of the word before against.
_PREV_QUALIFIERS = (keys.NON_SECRET_QUALIFIERS | vocab.PROSE_NON_LABEL_QUALIFIERS | vocab.PROSE_NON_SECRET_QUALIFIERS
                    | vocab.PASSWORD_KEY_QUALIFIERS | keys.KEY_QUALIFIERS)


def _last_part(prev: str) -> str:
    """``word_parts(prev)[-1]`` for a word read from the lower-cased text (``_PREV_REVERSED``:
    letters, digits, ``_`` and ``-``, starting with a letter or a digit): its last run of digits
    or of letters."""
    core = prev.rstrip("_-")
    return core[len(core.rstrip(_DIGITS if core[-1].isdigit() else _LOWER_LETTERS)):]


def _prev_key(prev: str) -> tuple[str, str]:
    """The word before a label and what the verdict's key takes of it: its last part when that
    is a qualifier ``classify`` tests, else ``_OTHER`` (no word before is one of those too: the
    empty word is no qualifier)."""
    last = _last_part(prev) if prev else ""
    return prev, last if last in _PREV_QUALIFIERS else _OTHER


def _label_parts(word: str) -> list[str]:
    """The words of ``word`` if its last word can name a credential, else []."""
    simple = word.isalpha() and (word.islower() or word.isupper() or word.istitle())
    parts = [word.lower()] if simple else word_parts(word)
    while parts and parts[-1].isdigit():
        parts.pop()
    return parts if parts and (parts[-1] in _LAST_WORDS or parts[-1].endswith(_LAST_SUFFIXES)) else []


def _ascii_labels(view: str, occurrences: Occurrences) -> Iterator[Label]:
    low = occurrences.low
    done = -1
    verdicts: dict[tuple[str, str, str], str | None] = {}
    word_parts_of: dict[str, list[str]] = {}  # words repeat: split each once
    # Dense labels repeat what precedes them: read it once. The memo holds the word and what
    # the verdict's key takes of it (``_prev_key``), so a hit on it skips both.
    prev_words: dict[str, tuple[str, str]] = {}
    # Bound once: dense text has a label every few characters, each costing only these steps.
    word_set, forward, next_word, new = _WORD_SET, _WORD_FORWARD.match, _NEXT_WORD.match, tuple.__new__
    # What a hit yields depends only on the characters from ``_BEHIND`` before it to ``_AHEAD``
    # after its word: a run of the same word (``key key …``) repeats the previous hit's window,
    # which a comparison in place settles.
    # The previous window is kept as its bounds in ``view`` and sliced only when it may repeat:
    # its first character must equal the new window's, which most hits of prose fail. The slice
    # (~120 characters) was taken at every hit before.
    last_low, last_high, last_shape, last_label = 0, 0, (-1, -1), None
    last_hit = 0
    for hit in occurrences.of_all(vocab.ASCII_ANCHORS):
        if hit < done:
            continue
        end = forward(low, hit).end()  # type: ignore[union-attr]  # starred: always matches
        done = end
        low_end = hit - _BEHIND if hit > _BEHIND else 0
        shape = (hit - low_end, end - hit)
        high_end = end + _AHEAD
        if shape == last_shape and view[low_end] == view[last_low] \
                and view.startswith(view[last_low:last_high], low_end, high_end) \
                and min(last_high, len(view)) - last_low == min(high_end, len(view)) - low_end:
            if last_label is not None:
                shift = hit - last_hit
                yield new(Label, (last_label[0] + shift, last_label[1] + shift, *last_label[2:]))
            continue
        last_low, last_high, last_shape, last_hit, last_label = low_end, high_end, shape, hit, None
        start = hit
        if hit and low[hit - 1] in word_set:  # the word starts before the anchor ("db_password")
            start -= forward(low[max(0, hit - 40):hit][::-1]).end()  # type: ignore[union-attr]
        while start < end and low[start] == "-":
            start += 1
        word_end = end
        while word_end > start and low[word_end - 1] == "-":
            word_end -= 1
        if start >= 1 and low[start - 1] in ".:$" and start != word_end:
            continue  # ``node::credentials``, ``obj.password``, ``$TOKEN``: a name in code, not a label
        word = view[start:word_end]  # original case: word_parts splits camelCase
        # ``low`` is ``view`` lower-cased, offset for offset (an ASCII view): the word in it is
        # ``word.lower()``, compared in place without lower-casing a copy at every hit.
        if word_end - start == 4 and low.startswith("pass", start) and low.startswith(" phrase", word_end):
            word_end += len(" phrase")
            word = "passphrase"
        # Dense labels are numbered keys (``DB_PASSWORD_4``, ``API_KEY_8``): their words without
        # the trailing digit run (which ``_label_parts`` drops) are the cache key, so each key
        # shape is split once, not each key.
        stem = word.rstrip(_DIGITS)
        parts = word_parts_of.get(stem)
        if parts is None:
            parts = word_parts_of[stem] = _label_parts(word)
        if not parts:
            continue  # most hits are plain words: "passed", "keyboard", "monkey"
        nxt = next_word(low, word_end)
        prev, prev_key = "", _OTHER
        if start and low[start - 1] in " \t":  # the word before, a function of the 34 characters before
            before = low[max(0, start - _PREV_REACH):start]
            cached = prev_words.get(before)
            if cached is None:
                cached = prev_words[before] = _prev_key(_prev_word_in(before))
            prev, prev_key = cached
        after = nxt.group(1) if nxt else ""
        # ``classify`` reads the word's parts, whether the last word of the word before is a
        # qualifier and whether the word after is a descriptor: in a run of assignments the word
        # before a label is the previous value, new at every hit, so only those facts are the
        # cache key: one verdict per label shape, not per hit (one-line assignment run, 326 KiB:
        # 932-944 -> 762-820 ms CPU in the same runs).
        key = (stem, prev_key, after if after in vocab.PROSE_DESCRIPTORS else _OTHER)
        cls = verdicts.get(key, False)
        if cls is False:
            cls = verdicts[key] = classify(parts, prev, after)
        if cls is not None:
            last_label = new(Label, (start, word_end, cls, False, parts[-1] in _PLURALS))
            yield last_label


def labels(text: str, view: str, occurrences: Occurrences) -> list[Label]:
    """Every label in ``text`` (normalized; ``view`` is its ASCII view), in order."""
    found = list(_ascii_labels(view, occurrences))
    if occurrences.has_label_scripts():
        spans = occurrences.script_windows(_SCRIPT_REACH) if _SCRIPT_REACH else [(0, len(text))]
        classes, new = _SCRIPT_CLASS, tuple.__new__  # the tuple's own constructor: dense labels are many
        scripts = [new(Label, (m.start(), m.end(), classes[m.group()], True, False))
                   for start, end in spans for m in _SCRIPT_LABEL.finditer(text, start, end)]
        if found:  # the windows are disjoint and in order: only a mix with ASCII labels needs sorting
            found.extend(scripts)
            found.sort(key=itemgetter(0))
        else:
            found = scripts
    return found


__all__ = ["Label", "classify", "labels"]
