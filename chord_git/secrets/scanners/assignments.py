"""Layer-1 scanner for values assigned to secret-looking names.

Covers shell ``export`` lines, ``.env`` lines, quoted values in code, YAML and JSON keys such as
``password``, XML elements, Go/Java/C declarations, ``Authorization`` headers and comparisons of
a quoted value with a secret-named variable. A hit needs a key whose words name a secret (``keys.STRONG_KEY_WORDS``) and a
value that is neither benign (``benign.benign_reason``) nor a plain word.

The scan is driven by literal trigger words found in a lower-cased copy of the text; each hit is
expanded to its identifier with bounded lookups, and later hits inside the same identifier are
skipped, so the cost stays linear however the input repeats.
"""
from __future__ import annotations

import re
from bisect import bisect_left

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.repeats import Reach, Runs
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import benign, shapes
from ..verdicts.dense import ShapeVerdicts
from ..verdicts.values import is_reference_or_default
from ..words import keys, vocab

_KEY_CHARS = lazy(r"[\w.\-$]*")
_MAX_KEY = 100
_SEP = lazy(
    r"""(?P<close>["'`]?\]?)(?:\[\d{0,4}\])?(?:
        (?:[ \t]+[A-Za-z_][\w.<>\[\]*]{0,40})?[ \t]*(?P<assign>:{1,3}=|\?=|\.=|\+=|=(?![=>~]))
      | [ \t]*(?P<op>=>|===?|!==?|:(?![:/])|<-)
      | (?<=["'`])(?P<comma>[ \t]*,)(?=[ \t]*["'`])
      | (?P<xml>>)
      | (?P<space>[ \t]+(?=["'`]))
    )[ \t]*""",
    re.X,
)
_FLAG_VALUE = lazy(r"[ \t]+")
_WORD_BEFORE = lazy(r"([A-Za-z]+)[ \t]+$")
_VALUE_PATTERN = r"""(?:[@fFrRbBuU]{1,2}(?=["'`]))?(?:"(?P<dq>[^"\n]{0,512})"|'(?P<sq>[^'\n]{0,512})'|`(?P<bq>[^`\n]{0,512})`
      |(?P<bare>[^\s"'`%s]{1,512}))"""
_VALUE = lazy(_VALUE_PATTERN % "", re.X)
# A URL parameter's value ends at the next parameter: read only that far, not 512 characters on.
_QUERY_VALUE = lazy(_VALUE_PATTERN % "&#", re.X)
_XML_VALUE = lazy(r"\s{0,64}(?P<bare>[^<\s]{1,512})\s{0,64}</")
_ESCAPE_CUT = lazy(r"\\[nrt\"']|&&|\|\|")
_SCHEME_WORD = lazy(keys.AUTH_SCHEMES.pattern[: -len(r"\s+")])
_SLUG = lazy(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
_SLUG_SEGMENT = lazy(r"^(?:[a-z]{1,10}\d{0,3}|\d+)$")
_FLAG = lazy(r"--?[A-Za-z]")  # "pass `--keyring=…`": a command-line flag, not a value
_INDIRECT = lazy(r"[A-Za-z_][\w.]*[\(\[]")
_SPACE = lazy(r"\s")
_DIGIT = lazy(r"\d")
_ALPHA = lazy(r"[^\W\d_]")
_NOT_ALNUM = lazy(r"[\W_]")


def looks_secret(value: str, strength: str) -> bool:
    """Does a value assigned to a secret-looking key look like a credential?"""
    v = value.strip()
    if len(v) < 6 or _SPACE.search(v):
        return False
    has_digit = _DIGIT.search(v) is not None
    has_alpha = _ALPHA.search(v) is not None
    symbols = set(_NOT_ALNUM.findall(v))
    if not has_alpha:
        return has_digit and len(v) >= 10 and strength == "strong" and len(set(v)) > 3
    if len(symbols) >= 3 and len(v) >= 8:
        return True  # punctuation-heavy: typed passwords such as ``A,.:-¨@*¿?!``
    if not has_digit:
        return _random_letters(v)
    if strength == "weak" and len(v) < 10:
        return False
    if _SLUG.match(v) and all(_SLUG_SEGMENT.match(seg) for seg in v.split("-")):
        return False  # a resource name such as ``cmp2-qat-1208358310``
    return benign.shannon_entropy(v) >= 2.3


def _random_letters(value: str) -> bool:
    letters = "".join(c for c in value if c.isalpha())
    if len(letters) < 12:
        return False
    if benign.case_switch_ratio(letters) >= 0.3:
        return True
    vowels = sum(1 for c in letters.lower() if c in "aeiou")
    return len(letters) >= 20 and vowels / len(letters) < 0.2


def value_is_secret(value: str, strength: str, word: str = "") -> bool:
    """Is ``value``, assigned to a key of this strength (and secret ``word``), a credential?

    UUIDs and hex strings are benign on their own but are what many API keys look like
    (Heroku and Snyk keys are UUIDs), so a secret-looking key overrides that.
    """
    if not looks_secret(value, strength):
        return False  # cheap test first: most values near a secret word are plain words
    if is_reference_or_default(value):
        return False  # ``changeme``, ``demopassword123``, ``see-vault``: defaults and stand-ins
    reason = benign.benign_reason(value)
    overridable = {"uuid", "hex", "number"} if strength == "strong" else {"hex"}
    if strength == "weak" and word in ("key", "keys"):
        overridable.add("uuid")
    if reason is not None and reason not in overridable:
        return False
    return True


def _clean_bare(view: str, start: int, end: int) -> int:
    """End of an unquoted value: cut at escapes (``\\n`` inside JSON strings) and separators."""
    cut = _ESCAPE_CUT.search(view, start, end)
    if cut:
        end = cut.start()
    while end > start and view[end - 1] in ",;":
        end -= 1
    while end > start and view[end - 1] in ")]}" and view.count("([{"[")]}".index(view[end - 1])], start, end) \
            < view.count(view[end - 1], start, end):
        end -= 1  # "(password: s3cr3t)": the bracket closes the sentence, not the value
    return end


def _value_after(view: str, pos: int, sep: re.Match[str], key_start: int,
                 auth: bool) -> tuple[int, int] | None:
    xml = sep.re.groupindex.get("xml")  # ``_SEP``'s group; a flag's blank has none
    if xml is not None and sep.group(xml) is not None:
        if key_start == 0 or view[key_start - 1] != "<":
            return None
        match = _XML_VALUE.match(view, pos)
        return match.span("bare") if match else None
    parameter = key_start > 0 and view[key_start - 1] in "?&#;"
    match = (_QUERY_VALUE if parameter else _VALUE).match(view, pos)
    if match is None:
        return None  # a parameter's empty value (``&key=&``): nothing to read
    # The four value groups are alternatives without groups inside: the one that matched is
    # the last group matched.
    group = match.lastgroup
    if group is not None and group != "bare":
        start, end = match.span(group)
    else:
        start, end = match.span("bare")
        if parameter and end - start < 512 and view[end:end + 1] in ("&", "#"):
            # Cut at the next parameter; the value is trimmed of trailing punctuation only when
            # an escape ends it first (the order of the cuts on a whole bare read).
            if _ESCAPE_CUT.search(view, start, end):
                end = _clean_bare(view, start, end)
        else:
            end = _clean_bare(view, start, end)
        for marker in ("**", "__"):  # markdown bold around the value
            if view.startswith(marker, start) and end - start > 4 and view.startswith(marker, end - 2):
                start, end = start + 2, end - 2
        if auth and _SCHEME_WORD.fullmatch(view[start:end]):
            nxt = re.compile(r"[ \t]+([^\s\"'`]{1,512})").match(view, end)
            if nxt is None:
                return None
            start, end = nxt.start(1), _clean_bare(view, nxt.start(1), nxt.end(1))
        return start, end
    if auth:
        scheme = keys.AUTH_SCHEMES.match(view, start, end)
        if scheme:
            start = scheme.end()
    return start, end


def _reverse_value(view: str, key_start: int) -> tuple[int, int] | None:
    """The quoted operand left of ``==``/``!=`` when the key is on the right (Yoda conditions)."""
    head = view[max(0, key_start - 8):key_start].rstrip()
    if not re.search(r"(?:===?|!==?)$", head):
        return None
    pos = max(0, key_start - 8) + len(head.rstrip("=!").rstrip())
    if pos == 0 or view[pos - 1] not in "\"'`":
        return None
    quote = view[pos - 1]
    open_at = view.rfind(quote, max(0, pos - 514), pos - 1)
    if open_at < 0 or "\n" in view[open_at:pos]:
        return None
    return open_at + 1, pos - 1


def _key_bounds(view: str, low: str, hit: int, key_end: int) -> tuple[int, int]:
    if not hit or not (low[hit - 1].isalnum() or low[hit - 1] in "_.-$"):
        return hit, key_end  # the trigger starts the key (``\w`` is what ``isalnum`` and "_" accept)
    back = _KEY_CHARS.match(low[max(0, hit - _MAX_KEY):hit][::-1])
    key_start = hit - (back.end() if back else 0)
    while key_start < hit and view[key_start] in ".-$":
        key_start += 1
    return key_start, key_end


KeyCache = dict[tuple[str, str], "tuple[str, str, str, bool] | None"]
_DIGITS = "0123456789"
# The only words before a key that ``keys.classify_key`` tells apart from none.
_QUALIFIERS = keys.NON_SECRET_QUALIFIERS | keys.ID_KEY_QUALIFIERS


def _assignment_at(view: str, text: str, low: str, hit: int, key_end: int, sep: re.Match[str] | None,
                   cache: KeyCache, verdicts: dict[tuple[str, str, str], bool],
                   dense: ShapeVerdicts) -> tuple[Span | None, int]:
    """The secret assigned at this key (``sep``: the separator after it), if any, and where
    scanning may resume."""
    if sep is None and view[hit - 1:hit] == "-" and view[key_end:key_end + 1] in (" ", "\t"):
        sep = _FLAG_VALUE.match(view, key_end)  # command-line flag: ``--token abc``
    key_start, key_end = _key_bounds(view, low, hit, key_end)
    if key_end - key_start > _MAX_KEY:
        return None, key_end
    key = view[key_start:key_end]
    # The word before needs a blank (or the newline "$" also accepts) right before the key.
    word_before = _WORD_BEFORE.search(low, max(0, key_start - 24), key_start) \
        if key_start and low[key_start - 1] in " \t\n" else None
    before = word_before.group(1) if word_before else ""
    # Dense keys are numbered (``DB_PASSWORD_4``, ``API_KEY_8``) and the word before a key in a
    # run of assignments is the previous value's tail, so a cache on the raw pair never hits. The
    # verdict reads only the key's words without its trailing digit run (``keys._key_parts`` drops
    # that run; ``AUTH_KEYS`` holds no number) and whether the word before is a qualifier, so
    # those are the cache key: one verdict per key shape. (Env dump 326 KiB: one ``classify_key``
    # per line before, 571-642 ms CPU; 445-517 ms with this cache, in the same runs.)
    cache_key = (key.rstrip(_DIGITS), before if before in _QUALIFIERS else "")
    if cache_key in cache:
        cached = cache[cache_key]
    else:
        verdict = keys.classify_key(key, before)
        auth = bool(keys.AUTH_KEYS & set(keys.word_parts(key)))
        cached = cache[cache_key] = None if verdict is None else (*verdict, auth)
    if cached is None:
        return None, key_end
    kind, strength, word, auth = cached
    span = _value_after(view, sep.end(), sep, key_start, auth) if sep else None
    if span is None:
        span = _reverse_value(view, key_start)
    if span is None or span[1] <= span[0]:
        return None, key_end
    value = text[span[0]:span[1]]
    # Trigger words inside a value are not keys: resume after it either way.
    resume = max(key_end, span[1])
    # Every test below reads only the value and the key's verdict: dense text repeats them.
    verdict_key = (value, strength, word)
    secret = verdicts.get(verdict_key)
    if secret is None:
        if dense.known(value, (strength, word)):
            secret = True  # dense text: a value shaped like a credential found before (``verdicts.dense``)
        else:
            secret = _assigned_value_is_secret(value, strength, word)
            dense.remember(value, (strength, word), secret)
        verdicts[verdict_key] = secret
    if not secret and not (kind == "password-assignment" and _typed_password(view, key, key_end, span, value)):
        return None, resume
    return Span(span[0], span[1], kind, RANK_ASSIGNMENT), resume


# A constant's name: the keys of ``.env`` files and shell exports (``APP_AUTH_PASSWORD``).
_ENV_KEY = lazy(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_LOWER_WORD = lazy(r"[a-z]{6,32}")
# After an ``.env`` value: the end of the line, or blanks and a comment.
_LINE_REST = lazy(r"[ \t]*(?:#[^\n]*)?(?:\n|$)")
_TYPED_SYMBOL = lazy(r"[A-Za-z]{2,}[!@#$%^&*+=?~|][A-Za-z]{2,}")


def _typed_password(view: str, key: str, key_end: int, span: tuple[int, int], value: str) -> bool:
    """A password a person chose, under a password key, that the shape test calls a word.

    ``my_password := "lunar$tones"``: letters around a symbol typed in place of one (no digit,
    so ``looks_secret`` wants twelve random letters). ``APP_AUTH_PASSWORD=marblefox``: a
    plain lower-case word, taken only in the strictest form of an ``.env`` line (the key a
    constant's name, ``=`` glued to both, the value bare and last on its line), and never a
    word of the key itself (``POSTGRES_PASSWORD=postgres``), a default, a stop word or a stand-in.
    """
    low = value.lower()
    if low in vocab.DEFAULT_VALUES or low in vocab.STOP_WORDS or low in vocab.REFERENCE_WORDS:
        return False
    if shapes.is_placeholder(value) or is_reference_or_default(value):
        return False
    if 8 <= len(value) <= 64 and _TYPED_SYMBOL.fullmatch(value) and value[0] not in "$%":
        return True
    start, end = span
    if not (_LOWER_WORD.fullmatch(value) and _ENV_KEY.fullmatch(key) and start == key_end + 1
            and view[key_end] == "=" and _LINE_REST.match(view, end)):
        return False
    return low not in keys.word_parts(key.lower()) and benign.benign_reason(value) in (None, "identifier")


def _assigned_value_is_secret(value: str, strength: str, word: str) -> bool:
    if len(value) < 6 or value[0] in "$<" or "://" in value or _FLAG.match(value):
        # Too short, a reference ($VAR, <YOUR_KEY>), or a URL (its password, if any, is
        # the URL detector's).
        return False
    if _INDIRECT.match(value) and not value.endswith((")", "]")):
        return False
    return value_is_secret(value, strength, word)


_LAST_WORD = lazy(r"[A-Za-z]+$")


def service_values(view: str, text: str, runs: list[tuple[int, int]]) -> list[Span]:
    """Random tokens assigned to a key named after a service: ``cloudflare: "…"``.

    Service names are too many to search for one by one, so this starts from the candidate
    tokens (``formats.candidate_runs``) and looks back for such a key.
    """
    found: list[Span] = []
    for start, end in runs:
        value_quoted = view[start - 1:start] in ("\"", "'", "`")
        sep = start - 1 if value_quoted else start
        while sep > 0 and start - sep < 4 and view[sep - 1] in " \t":
            sep -= 1
        sep -= 1
        if sep < 1 or view[sep] not in ":=," or view[start] == "/":
            continue  # the common case: a word in prose, or the path of a URL
        if view[sep] == "," and not value_quoted:
            continue  # a comma separates arguments only in ``("artifactory", "…")``
        key_end = sep - 1 if view[sep - 1] in ":=" and view[sep] in "=>" else sep
        while key_end > 0 and view[key_end - 1] in " \t":
            key_end -= 1
        key_quoted = view[key_end - 1:key_end] in ("\"", "'", "`")
        if view[sep] == "," and not key_quoted:
            continue
        key_end -= key_quoted
        word = _LAST_WORD.search(view, max(0, key_end - 24), key_end)
        if word is None or word.group(0).lower() not in keys.SERVICE_NAMES:
            continue
        end = _clean_bare(view, start, end)
        value = text[start:end]
        if value_is_secret(value, "weak", word.group(0).lower()) and not benign.is_identifier(value):
            found.append(Span(start, end, "api-key-assignment", RANK_ASSIGNMENT))
    return found


def _period_breaks_reach(view: str, low: int, high: int, start: int, step: int) -> bool:
    """A period of only blanks or only key characters: then a key or a run of blanks may be
    longer than the period, and the bound of ``_RUNS`` does not hold."""
    period = view[start:start + step]
    return _BLANKS.issuperset(period) or _KEY_CHARS.fullmatch(period) is not None


_BLANKS = frozenset(" \t")
# What a hit's outcome reads (``repeats.Runs``): the text from ``_MAX_KEY + 8 + 514 + 18``
# characters before it (the key, the word before it, a reversed comparison's operand:
# ``_reverse_value``) to the end of its value: its key (a run of key characters), what ``_SEP``
# reads (at most 58 characters besides two runs of blanks and the blanks after), and the value
# (at most 642 characters for an XML element, 1,029 and a run of blanks for an authorization
# scheme and its credentials). When the text repeats every ``step`` characters and each period
# holds a character that is no key character and one that is no blank (``_period_breaks_reach``),
# key and blank runs are shorter than ``step``, so each hit reads within ``5 * step + 1,200``
# characters after it. Every hit sets ``done`` (past its key, at least).
_RUNS = Reach(before=_MAX_KEY + 8 + 514 + 18, after=1200, after_per_step=5, refuses=_period_breaks_reach,
              every_hit_sets_done=True)


def assignments(view: str, text: str, occurrences: Occurrences | None = None) -> list[Span]:
    """Values assigned to secret-looking keys (the value only, so redaction keeps the key)."""
    occurrences = occurrences or Occurrences(view.lower(), text)
    low = occurrences.low
    found: list[Span] = []
    cache: KeyCache = {}
    verdicts: dict[tuple[str, str, str], bool] = {}  # values repeat in notes: test each once per scan
    dense = ShapeVerdicts()
    done = -1
    hits = occurrences.of_all(keys.ASSIGNMENT_TRIGGERS)
    count = len(hits)
    index = 0
    runs = Runs(text, view, hits, _RUNS)
    last_end, on_line = 0, set[str]()  # the last finding's end, and the distinct values found on its line
    while index < count:
        hit = hits[index]
        index += 1
        if hit < done:
            continue
        run = _KEY_CHARS.match(view, hit)  # always matches: the class is starred
        key_end = run.end() if run else hit
        while key_end > hit and view[key_end - 1] in ".-":
            key_end -= 1
        done = key_end
        # Most hits are prose ("the token expires"): reject them before any other work.
        sep = _SEP.match(view, key_end)
        if sep is None and view[hit - 1:hit] != "-" and "=" not in view[max(0, hit - 8):hit]:
            index, done = runs.after(index, None, done, found)
            continue
        span, done = _assignment_at(view, text, low, hit, key_end, sep, cache, verdicts, dense)
        if span is not None:
            found.append(span)
            if view.find("\n", last_end, span.start) >= 0:
                on_line = set()
            on_line.add(text[span.start:span.end])
            last_end = span.end
            if len(on_line) == DUMP_AFTER:
                settled = _settle_dump(view, span.end, found, occurrences)
                if settled is not None:
                    done, index = settled, bisect_left(hits, settled, index)
                    continue
        index, done = runs.after(index, span, done, found)
    return found


# A line dense with credentials (a pasted dump of assignments) settles in bulk: once one line has
# yielded ``DUMP_AFTER`` distinct assigned credentials (a repeated one costs a lookup, not a
# verdict, and a repetitive line is settled by ``repeats`` already), the rest of that line is
# reported as one finding and
# no rule reads words there again, except in its last ``DUMP_TAIL`` characters (a value or a label
# there may reach onto the next line). Judging every value of such a line cost 25 times ordinary
# text of the same size; no line of ordinary text holds 64 credentials.
DUMP_AFTER = 64
DUMP_TAIL = 256
DUMP_KIND = "credential-dump"
_DUMP_MIN = 1024  # a shorter rest is read value by value: settling it would save nothing


def _settle_dump(view: str, start: int, found: list[Span], occurrences: Occurrences) -> int | None:
    """Report the rest of the line from ``start`` as one finding and settle it (but its tail);
    returns where reading resumes, or None when the rest is too short to be worth it."""
    line_end = view.find("\n", start)
    line_end = len(view) if line_end < 0 else line_end
    resume = line_end - DUMP_TAIL
    if resume - start < _DUMP_MIN:
        return None
    stop = line_end
    while stop > start and view[stop - 1] in " \t\r":
        stop -= 1
    while start < stop and view[start] in " \t,;":
        start += 1
    found.append(Span(start, stop, DUMP_KIND, RANK_ASSIGNMENT))
    occurrences.settle(start, resume)
    return resume
