"""Speed devices of layer 1, round 6 (issue 33 item 7), proved by their results, never by the
clock.

- ``formats._SUBSTART_WITH_PREFIX``: the substarts ``tokens`` skips are those where
  ``_token_at`` finds no dispatch entry, and on runs the bound can't cut, ``tokens`` finds
  what the loop over every substart finds.
- ``decode._may_decode``: a run it turns away is one that no decoder reads as text; and
  ``decode._ANY_RUN``: a run it settles holds no match of the run patterns.
- ``links._LEADS_BEFORE_LETTER``: the parameters are those of a step per lead, in the same order.
- ``labels``: the previous window is compared only when its first character matches, the
  word before is memoised with its part of the verdict's key, and "pass phrase" is found in
  the lower-cased view. Labels are the same as those of a plain reading of each hit with no memo.
"""
from __future__ import annotations

import base64
import random
import re
import string

from chord_git.secrets.scanners import decode, formats, labels, links
from chord_git.secrets.text.anchors import Occurrences
from chord_git.secrets.text.normalize import ascii_view
from chord_git.secrets.text.spans import RANK_FORMAT, Span
from chord_git.secrets.words import keys, patterns, vocab

_TOKEN_ALPHABET = string.ascii_letters + string.digits + "_-+/=.~%\\"


def test_skipped_substarts_have_no_dispatch_entry() -> None:
    # Every pair of token characters after each lead: the pattern must accept each one that
    # ``_token_at`` would dispatch on (the pair, or its first character alone).
    for lead in "=/":
        for first in _TOKEN_ALPHABET:
            for second in _TOKEN_ALPHABET + " ":
                dispatched = first + second in formats._BY_TWO or first in formats._BY_ONE
                if first not in string.ascii_letters + string.digits + "_":
                    dispatched = False  # not a substart at all (``_SUBSTART``'s lookahead)
                found = formats._SUBSTART_WITH_PREFIX.match(lead + first + second) is not None
                assert found == dispatched, (lead, first, second)


def _tokens_every_substart(view: str, text: str, runs: list[tuple[int, int]]) -> list[Span]:
    """``formats.tokens`` as it read every substart, bounded by ``_MAX_SUBSTARTS``."""
    found = list(formats.named_tokens(view, text, runs))
    run = [0, 0]
    for start, end in runs:
        pos = start
        for _ in range(formats._MAX_SUBSTARTS):
            hit = formats._token_at(view, pos, run)
            if hit:
                found.append(Span(pos, hit[0], hit[1], RANK_FORMAT))
                pos = hit[0]
            nxt = formats._SUBSTART.search(view, pos, end)
            if nxt is None:
                break
            pos = nxt.end()
    return found


def _random_runs_text(rng: random.Random) -> str:
    prefixes = sorted({prefix for fmt in patterns.TOKEN_FORMATS for prefix in fmt.prefixes})
    pieces = []
    for _ in range(rng.randint(1, 40)):
        pick = rng.random()
        if pick < 0.3:
            body = rng.choices(string.ascii_letters + string.digits, k=rng.randint(8, 60))
            pieces.append(rng.choice(prefixes) + "".join(body))
        elif pick < 0.6:
            pieces.append(rng.choice("=/ \n") + rng.choice(("", "/", "=")))
        else:
            pieces.append("".join(rng.choices(_TOKEN_ALPHABET + "  ", k=rng.randint(1, 30))))
    return "".join(pieces)


def test_tokens_match_the_loop_over_every_substart() -> None:
    rng = random.Random(633)
    hits = 0
    for _ in range(1500):
        text = _random_runs_text(rng)
        view = ascii_view(text)
        runs = list(formats.candidate_runs(view))
        got = formats.tokens(view, text, runs)
        assert got == _tokens_every_substart(view, text, runs), text
        hits += len(got)
    assert hits > 200  # the texts hold tokens for both readings to find


def test_tokens_past_the_bound_keep_the_loop() -> None:
    # A blob with more substarts than the bound: the fast path must not take it.
    rng = random.Random(6)
    blob = "".join("=" + rng.choice(("ghp_", "ab", "xoxb-", "q")) for _ in range(6000))
    text = "x" * 20 + blob + "ghp_" + "A1b2C3d4" * 5
    view = ascii_view(text)
    runs = list(formats.candidate_runs(view))
    assert runs and runs[0][1] - runs[0][0] > formats._UNBOUNDED_RUN
    assert formats.tokens(view, text, runs) == _tokens_every_substart(view, text, runs)


def _encodings(rng: random.Random) -> list[str]:
    words = ("password", "token", "ghp_", "AKIA", "secret=", "hello world", "admin:", "sk-live")
    plain = " ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
    plain += "".join(rng.choices(string.ascii_letters, k=8))
    data = plain.encode()
    b32 = base64.b32encode(data).decode()
    return [base64.b64encode(data).decode(), base64.urlsafe_b64encode(data).decode().rstrip("="),
            data.hex(), data.hex().upper(), b32, b32.rstrip("="),
            "".join(rng.choices(string.hexdigits, k=rng.randint(24, 80))),
            "".join(rng.choices(string.ascii_letters + string.digits + "+/", k=rng.randint(24, 80))),
            "".join(rng.choices(string.ascii_uppercase + "234567", k=rng.randint(24, 80)))]


def test_runs_turned_away_decode_to_no_text() -> None:
    rng = random.Random(612)
    decoded = turned_away = 0
    for _ in range(1500):
        for run in _encodings(rng):
            for pattern, decoder in ((decode._HEX_RUN, decode._hex), (decode._B64_RUN, decode._b64)):
                for match in pattern.finditer(run):
                    assert decode._ANY_RUN.search(run) is not None, run  # the run was not settled unread
                    value = match.group(0)
                    text = decoder(value)
                    if not text and decoder is decode._b64 and value.isupper() and decode._B32_RUN.fullmatch(value):
                        text = decode._b32(value)
                    may = decode._may_decode(run, match.start(), decoder is decode._hex)
                    decoded += bool(text)
                    turned_away += not may
                    assert may or not text, value
    assert decoded > 1000 and turned_away > 1000  # both kinds of run were met


def test_runs_without_a_long_stretch_hold_no_match() -> None:
    rng = random.Random(624)
    alphabet = string.ascii_letters + string.digits + "+/_-=.~%"
    unread = 0
    for _ in range(20000):
        run = "".join(rng.choices(alphabet, k=rng.randint(24, 90)))
        if decode._ANY_RUN.search(run) is None:
            unread += 1
            assert decode._HEX_RUN.search(run) is None and decode._B64_RUN.search(run) is None, run
    assert unread > 5000


def _parameters_step_per_lead(view: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for lead in links._PARAMETER_STARTS:
        if lead == "?":
            spans.extend(m.span() for m in links._parameters(view) if view[m.start() - 1] == "?")
            continue
        pos = view.find(lead)
        while pos >= 0:
            match = links._PARAMETER.match(view, pos + 1)
            if match is not None:
                spans.append(match.span())
            pos = view.find(lead, pos + 1)
    return spans


def test_parameters_are_those_of_a_step_per_lead() -> None:
    rng = random.Random(61)
    pieces = ("?", "&", "#", ";", "; ", "&&", "token=", "key=", "a", "Z9", "=", " ", "x.y-z", "\n", "1", "sig=Ab3")
    found = 0
    for _ in range(3000):
        view = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        got = [m.span() for m in links._parameters(view)]
        assert got == _parameters_step_per_lead(view), view
        found += len(got)
    assert found > 1000


def _plain_labels(view: str) -> list[labels.Label]:
    """Each hit read on its own: no window comparison, no memo (the rule as ``classify`` states it)."""
    low = view.lower()
    found: list[labels.Label] = []
    done = -1
    for hit in Occurrences(low, view).of_all(vocab.ASCII_ANCHORS):
        if hit < done:
            continue
        end = re.compile(r"[a-z0-9_\-]*").match(low, hit).end()  # type: ignore[union-attr]
        done = end
        start = hit
        while start and low[start - 1] in labels._WORD_SET and hit - start < 40:
            start -= 1
        while start < end and low[start] == "-":
            start += 1
        word_end = end
        while word_end > start and low[word_end - 1] == "-":
            word_end -= 1
        if start >= 1 and low[start - 1] in ".:$" and start != word_end:
            continue
        word = view[start:word_end]
        if word.lower() == "pass" and low.startswith(" phrase", word_end):
            word_end += len(" phrase")
            word = "passphrase"
        parts = labels._label_parts(word)
        if not parts:
            continue
        nxt = labels._NEXT_WORD.match(low, word_end)
        prev = labels._prev_word_in(low[max(0, start - labels._PREV_REACH):start]) \
            if start and low[start - 1] in " \t" else ""
        cls = labels.classify(parts, prev, nxt.group(1) if nxt else "")
        if cls is not None:
            found.append(labels.Label(start, word_end, cls, False, parts[-1] in labels._PLURALS))
    return found


def test_labels_are_those_of_a_plain_reading() -> None:
    rng = random.Random(66)
    words = ("the", "deploy", "key", "token", "api_key", "DB_PASSWORD_4", "pass", "phrase", "primary", "password",
             "manager", "secret", "max", "tokens", "access", "Pass", "is", "key-", "-token", "1", "x.password",
             "AppSecret", "creds", "bearer")
    seps = (" ", " ", "  ", "\t", ": ", "=", "\n", "; ", ", ")
    found = 0
    for _ in range(1500):
        text = "".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(1, 40)))
        if rng.random() < 0.3:  # runs of one label: the window comparison's case
            text = text + (rng.choice(words) + " ") * rng.randint(2, 30) + text
        view = ascii_view(text)
        got = labels.labels(text, view, Occurrences(view.lower(), text))
        assert got == _plain_labels(view), text
        found += len(got)
    assert found > 5000


def test_the_word_before_keys_the_verdict_as_it_did() -> None:
    rng = random.Random(6)
    qualifiers = sorted(labels._PREV_QUALIFIERS)
    for _ in range(3000):
        prev = rng.choice(("", rng.choice(qualifiers), "x" + rng.choice(qualifiers), rng.choice(qualifiers) + "_2",
                           "deploy", "db-" + rng.choice(qualifiers), "42", "v2"))
        last = labels._last_part(prev) if prev else ""
        assert labels._prev_key(prev) == (prev, last if last in labels._PREV_QUALIFIERS else labels._OTHER)
    assert keys.NON_SECRET_QUALIFIERS <= labels._PREV_QUALIFIERS

