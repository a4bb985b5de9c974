"""What every match of a word-table fragment must contain: its required literals.

A refusal slot's pattern joins hundreds of fragments, and the engine tries each of them at every
word start of a text (``frames.table_source``); most texts hold no word of most slots. A fragment
such as ``(?:force[- ]?)push(?:es|ed)?`` cannot match a text that lacks ``push``, nor ``强推`` one
that lacks ``强推``. ``requirement`` reads a fragment's parse (the engine's own parser) and returns
those conditions: sets of strings, a match holding one string of every set; ``frames.Screen``
looks for them all in one pass over a text and skips the slots none of whose fragments can match.

Strings are compared on the text's *shadow* (``shadow``): ASCII letters lower-cased, and the four
letters outside ASCII that the engine matches with ASCII ones case-insensitively (``İ ı ſ K``)
turned into them, so a string holds what the engine would match, whatever the case. Every step is
a necessary condition, so skipping never changes a result: a literal counts if it is ASCII or a
character without case (CJK, kana: it matches only itself); a class counts for the few characters
the engine matches it with; a letter with case outside ASCII (``é``), ``\\w``, a repeat that may be
empty or a lookaround only ends the string it interrupts, and a fragment the parser cannot read
requires nothing (its slot is read as before). No string holds a space or ``一``: a masked clause
(``frames._masked``) turns words into those, and cannot create a string without them.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence, Set as AbstractSet

from chord_git.support.dataclass_lazy import dataclass, field

try:  # the engine's own parser: a Python without it screens nothing (every slot is read)
    from re import _compiler as _sre_compiler  # type: ignore[attr-defined]
    from re import _constants as _sre_constants  # type: ignore[attr-defined]
    from re import _parser as _sre_parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython 3.11 to 3.13 have them
    _sre_parser = None

# Requirements are sets of strings; one joined from a run of classes grows as their product.
MAX_STRINGS = 64
# A class counts when it stands for this many characters at most.
MAX_CLASS = 4
_ASCII = "".join(map(chr, range(128)))
# The characters outside ASCII that the engine matches with an ASCII one under IGNORECASE (a test
# asks the engine about every code point), and what masking writes.
TWINS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_SHADOW = str.maketrans({**{chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)}, **TWINS})
_MASKS = " 一"

Requirement = tuple[frozenset[str], ...]  # every set: the match holds one of its strings


def shadow(text: str) -> str:
    """``text`` as requirements are looked for in it: the same length, ASCII letters lower-cased
    and the engine's ASCII twins folded into them."""
    return text.translate(_SHADOW)


def _uncased(char: str) -> bool:
    return char.lower() == char == char.upper()


def _class_chars(members: list[tuple[object, object]], seen: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """The characters (on the shadow) a class of ASCII members and uncased characters matches."""
    plain: list[tuple[object, object]] = []
    own: set[str] = set()
    for op, value in members:
        if op is _sre_constants.LITERAL and not chr(value).isascii():  # type: ignore[arg-type]
            if not _uncased(chr(value)):  # type: ignore[arg-type]
                return None
            own.add(chr(value))  # type: ignore[arg-type]
        elif (op is _sre_constants.LITERAL) or (op is _sre_constants.RANGE and value[1] < 128):  # type: ignore[index]
            plain.append((op, value))
        else:  # a negation, a category, a range past ASCII
            return None
    key = repr(plain)
    found = seen.get(key)
    if found is None:
        # UNICODE as a str pattern gets it: without it the engine's case rules stop at ASCII.
        pattern = _sre_compiler.compile(_sre_parser.SubPattern(_sre_parser.State(), [(_sre_constants.IN, plain)]),
                                        re.IGNORECASE | re.UNICODE) if plain else None
        found = seen[key] = frozenset(ch.lower() for ch in _ASCII if pattern and pattern.fullmatch(ch))
    chars = found | own
    return chars if len(chars) <= MAX_CLASS else None


def _letters(item: tuple[object, object], seen: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """The characters (on the shadow) one literal or class matches, or None for one that matches
    too many to count, or a letter with case outside ASCII."""
    op, value = item
    if op is _sre_constants.LITERAL:
        char = chr(value)  # type: ignore[arg-type]
        if char.isascii():
            return frozenset(char.lower())
        return frozenset(char) if _uncased(char) else None
    return _class_chars(value, seen)  # type: ignore[arg-type]


def _exact(item: tuple[object, object], seen: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """Every string an item can match (on the shadow), if they are few: a literal, a class, a group
    of those, an alternation of those."""
    op, value = item
    if op is _sre_constants.LITERAL or op is _sre_constants.IN:
        return _letters(item, seen)
    if op is _sre_constants.SUBPATTERN:
        return _exact_run(value[3], seen)  # type: ignore[index]
    if op is _sre_constants.BRANCH:
        options = [_exact_run(branch, seen) for branch in value[1]]  # type: ignore[index]
        if any(option is None for option in options):
            return None
        joined = frozenset().union(*options)  # type: ignore[arg-type]
        return joined if len(joined) <= MAX_STRINGS else None
    return None


def _exact_run(items: Iterable[tuple[object, object]], seen: dict[str, frozenset[str]]) -> frozenset[str] | None:
    strings = frozenset([""])
    for item in items:
        found = _exact(item, seen)
        if found is None:
            return None
        strings = frozenset(a + b for a in strings for b in found)
        if len(strings) > MAX_STRINGS:
            return None
    return strings


def _selectivity(strings: frozenset[str]) -> tuple[int, int]:
    return min(map(len, strings)), -len(strings)


def _joinable(strings: frozenset[str]) -> bool:
    return all(s and not any(ch.isspace() or ch in _MASKS for ch in s) for s in strings)


def _needs(items: Iterable[tuple[object, object]], seen: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """The sets a match of the sequence ``items`` must hold one string of each, in any order."""
    needs: list[frozenset[str]] = []
    run = frozenset([""])  # the strings the literals read so far join into

    def close() -> None:
        nonlocal run
        if _joinable(run):
            needs.append(run)
        run = frozenset([""])

    for item in items:
        op, value = item
        found = _exact(item, seen)
        if found is not None and _joinable(found):
            joined = frozenset(a + b for a in run for b in found)
            if len(joined) <= MAX_STRINGS:
                run = joined
                continue
            close()
            run = found
            continue
        close()
        if op is _sre_constants.SUBPATTERN:
            needs.extend(_needs(value[3], seen))  # type: ignore[index]
        elif op is _sre_constants.BRANCH:
            options = [_needs(branch, seen) for branch in value[1]]  # type: ignore[index]
            if all(options):  # whichever branch matched holds its best set: together, one of theirs
                needs.append(frozenset().union(*(max(option, key=_selectivity) for option in options)))
        elif op in (_sre_constants.MAX_REPEAT, _sre_constants.MIN_REPEAT, _sre_constants.POSSESSIVE_REPEAT) \
                and value[0] >= 1:  # type: ignore[index]
            needs.extend(_needs(value[2], seen))  # type: ignore[index]
        elif op is _sre_constants.ATOMIC_GROUP:
            needs.extend(_needs(value, seen))  # type: ignore[arg-type]
    close()
    return needs


def deriver() -> Callable[[str], Requirement | None]:
    """A function from a fragment to its requirement (None: it requires nothing); the engine's
    answers about classes are shared by every fragment it reads (one deriver builds one screen)."""
    seen: dict[str, frozenset[str]] = {}

    def requirement(fragment: str) -> Requirement | None:
        if _sre_parser is None:
            return None
        try:
            needs = _needs(_sre_parser.parse(fragment), seen)
        except (re.error, TypeError, ValueError, IndexError, AttributeError):
            return None
        # The most selective set first: it is the one looked up, the rest are checked after it.
        ordered = sorted(set(needs), key=lambda strings: (_selectivity(strings), sorted(strings)), reverse=True)
        return tuple(ordered) or None

    return requirement


def trie_source(words: Iterable[str]) -> str:
    """An alternation of ``words`` as a trie, each character class a literal, that matches the
    longest of them starting at a position: the words share their prefixes, so each position is
    tried against the first characters only."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:  # type: ignore[type-arg]
        options = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not options:
            return ""
        body = options[0] if len(options) == 1 else "(?:" + "|".join(options) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


# ---------------------------------------------------------------------------- narrowed patterns
class Finder:
    """Which of ``words`` a text holds (on its shadow), in one pass of a trie.

    No word holds a space, so each lies inside one of the text's runs of other characters: the
    words of a run are kept (``MAX_RUNS`` of them), and a text of runs already seen costs a
    split and a few lookups instead of the trie's pass (the runs of prose repeat: "the", "run")."""

    def __init__(self, words: Iterable[str]) -> None:
        ordered = sorted(set(words))
        known = set(ordered)
        self.pattern = re.compile(f"(?=({trie_source(ordered)}))") if ordered else re.compile(r"(?!)")
        # The trie reports the longest word at a position: the shorter ones it starts with are there too.
        self.within = {word: frozenset(word[:end] for end in range(1, len(word) + 1) if word[:end] in known)
                       for word in ordered}
        self.runs: dict[str, frozenset[str]] = {}

    def _run(self, run: str) -> frozenset[str]:
        found = self.runs.get(run)
        if found is None:
            if len(self.runs) >= MAX_RUNS:
                self.runs.clear()
            found = self.runs[run] = frozenset().union(*map(self.within.__getitem__, set(self.pattern.findall(run))))
        return found

    def present(self, text: str) -> set[str]:
        return set().union(*map(self._run, set(shadow(text).split())))


MAX_RUNS = 65536  # runs whose words are kept: a few MB


def alternatives(source: str) -> tuple[str, ...]:
    """A pattern source's top-level alternatives, in order (``(source,)`` when it has one, or
    when a piece is not a pattern of its own: then nothing is narrowed)."""
    pieces: list[str] = []
    depth, start, at, in_class = 0, 0, 0, False
    while at < len(source):
        char = source[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            at += 2 if source.startswith("^]", at + 1) else 1  # "[]…]" and "[^]…]" hold a "]"
            if source.startswith("]", at):
                at += 1
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            pieces.append(source[start:at])
            start = at + 1
        at += 1
    pieces.append(source[start:])
    if depth != 0 or in_class or len(pieces) < 2:
        return (source,)
    for piece in pieces:
        try:
            re.compile(piece)
        except re.error:
            return (source,)
    return tuple(pieces)


@dataclass(frozen=True)
class Narrowing:
    """A pattern as its alternatives, each with what a match of it must contain: for a text, the
    pattern of only those alternatives whose strings the text holds. An alternative left out
    cannot match anywhere in the text, and the others keep their order, so at every position the
    narrowed pattern matches what the whole one does (the first alternative that matches there).
    Groups are renumbered: only for callers that read the whole match."""

    alternatives: tuple[str, ...]
    flags: int
    keyed: Mapping[str, tuple[tuple[int, Requirement], ...]]  # a word -> the alternatives it is first needed by
    always: frozenset[int]  # alternatives that require nothing
    compiled: dict[tuple[int, ...], re.Pattern[str]] = field(default_factory=dict, compare=False, repr=False)

    def words(self) -> set[str]:
        return {word for needed in self.keyed.values() for _number, rest in needed for strings in rest
                for word in strings} | set(self.keyed)

    def allowed(self, present: AbstractSet[str], keys: Iterable[str]) -> set[int]:
        """The alternatives ``present`` allows, looked up under ``keys`` (the present words this
        pattern keys on, or more)."""
        keep = set(self.always)
        for word in keys:
            for number, rest in self.keyed.get(word, ()):
                if number not in keep and all(not strings.isdisjoint(present) for strings in rest):
                    keep.add(number)
        return keep

    def kept(self, keep: set[int]) -> re.Pattern[str]:
        key = tuple(sorted(keep))
        found = self.compiled.get(key)
        if found is None:
            if len(self.compiled) >= MAX_NARROWED:
                self.compiled.clear()
            source = "|".join(self.alternatives[number] for number in key) if key else r"(?!)"
            found = self.compiled[key] = re.compile(source, self.flags)
        return found


MAX_NARROWED = 4096  # narrowed patterns kept per pattern; a text mostly needs a few alternatives


def narrowing(pieces: Sequence[str], flags: int, requirement: Callable[[str], Requirement | None]) -> Narrowing:
    keyed: dict[str, list[tuple[int, Requirement]]] = {}
    always = set()
    for number, piece in enumerate(pieces):
        found = requirement(piece)
        if found is None:
            always.add(number)
            continue
        for word in found[0]:
            keyed.setdefault(word, []).append((number, found[1:]))
    return Narrowing(tuple(pieces), flags, {word: tuple(needed) for word, needed in keyed.items()}, frozenset(always))


class Lexicon:
    """Patterns narrowed together: one pass over a text finds the strings of all of them, and
    ``narrowed`` gives each one's pattern for that text (or for any part of it: a string a part
    holds, the whole text holds too). Built on first use; where the engine's parser is missing,
    every pattern is kept whole."""

    def __init__(self, patterns: Sequence[tuple[Sequence[str], int]]) -> None:
        self.patterns = tuple((tuple(pieces), flags) for pieces, flags in patterns)
        self.built: list[tuple[Finder, tuple[Narrowing, ...], frozenset[str]]] = []
        # The patterns for a set of present strings: texts of one kind hold the same few.
        self.chosen: dict[frozenset[str], tuple[re.Pattern[str], ...]] = {}

    def _build(self) -> tuple[Finder, tuple[Narrowing, ...], frozenset[str]]:
        if not self.built:
            requirement = deriver()
            found = tuple(narrowing(pieces, flags, requirement) for pieces, flags in self.patterns)
            keys = frozenset(word for one in found for word in one.keyed)
            self.built.append((Finder(set().union(*(one.words() for one in found))), found, keys))
        return self.built[0]

    def narrowed(self, text: str) -> tuple[re.Pattern[str], ...]:
        finder, found, keys = self._build()
        present = frozenset(finder.present(text))
        chosen = self.chosen.get(present)
        if chosen is None:
            if len(self.chosen) >= MAX_NARROWED:
                self.chosen.clear()
            mine = present.intersection(keys)  # once for all the patterns: most present words key none
            chosen = self.chosen[present] = tuple(one.kept(one.allowed(present, mine)) for one in found)
        return chosen
