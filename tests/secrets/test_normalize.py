"""Disguised secrets: invisible characters, look-alikes, encodings and line breaks."""
from __future__ import annotations

import base64
import random

import pytest

from chord_git.secrets import find, redact
from chord_git.secrets.text.anchors import Occurrences
from chord_git.secrets.scanners.labels import _SCRIPT_LABEL, labels
from chord_git.secrets.text.normalize import _TABLE, normalize

from . import fakes as f

ZW, BIDI = "\u200b", "\u202e"


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


def _percent(value: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in "_-" else c for c in value)


def _escaped(value: str) -> str:
    return "".join(f"\\x{ord(c):02x}" if i % 4 == 0 else c for i, c in enumerate(value))


def _split(value: str) -> str:
    return value[:len(value) // 2] + "\n" + value[len(value) // 2:]


DISGUISED = [
    ("zero-width-inside-token", f"token: {f.GITHUB_CLASSIC[:10]}{ZW}{f.GITHUB_CLASSIC[10:]}"),
    ("bidi-control-inside-token", f"slack {f.SLACK_BOT[:9]}{BIDI}{f.SLACK_BOT[9:]}"),
    ("word-joiner-before-value", f"password:\u2060{f.PASSWORD}"),
    ("cyrillic-homoglyph", "token " + f.GITHUB_CLASSIC.replace("p", "\u0440", 1)),
    ("greek-homoglyph-label", f"\u03a1assword: {f.PASSWORD}"),
    ("full-width", _fullwidth(f"password: {f.PASSWORD}")),
    ("math-bold-letters", "".join(chr(0x1D41A + ord(c) - 97) if c.islower() else c for c in "pass") + f"word: {f.PASSWORD}"),
    ("percent-encoded-in-url", f"https://example.com/hook?token={_percent(f.GITHUB_CLASSIC)}"),
    ("base64-of-token", f"echo {base64.b64encode(f.GITHUB_CLASSIC.encode()).decode()} | base64 -d"),
    ("hex-of-token", f"key material {f.STRIPE.encode().hex()}"),
    ("yaml-escapes", f'api_key: "{_escaped(f.OPENAI)}"'),
    ("split-over-two-lines", f"token: {_split(f.GITHUB_CLASSIC)}"),
    ("yaml-line-continuation", f'deploy_token: "{f.GITLAB[:12]}\\\n  {f.GITLAB[12:]}"'),
    ("split-hex-after-label", f"The API key is {_split(f.body(40, f.HEX, seed=41))} (from the dashboard)"),
    ("long-s-in-label", f'db_pa\u017f\u017fword = "{f.PASSWORD}"'),
    ("kelvin-sign-in-label", f'api_\u212aey = "{f.body(20, f.ALNUM, seed=7)}"'),
    ("modifier-letters-label", f"\u1d56\u1d43\u02e2\u02e2\u02b7\u1d52\u02b3\u1d48: {f.PASSWORD}"),
    ("circled-letters-label", f"\u24c5\u24d0\u24e2\u24e2\u24e6\u24de\u24e1\u24d3: {f.PASSWORD}"),
]


@pytest.mark.parametrize("text", [t for _, t in DISGUISED], ids=[i for i, _ in DISGUISED])
def test_disguised_secret_is_found(text: str) -> None:
    assert find(text), text


@pytest.mark.parametrize("text", [t for _, t in DISGUISED], ids=[i for i, _ in DISGUISED])
def test_redaction_covers_the_disguise(text: str) -> None:
    redacted = redact(text)
    assert "[REDACTED:" in redacted
    assert find(redacted) == []
    assert ZW not in redacted and BIDI not in redacted or "[REDACTED" not in text


def test_offsets_land_on_the_callers_characters() -> None:
    token = f.GITHUB_CLASSIC
    text = f"a{ZW}b {token[:5]}{ZW}{token[5:]} c"
    (finding,) = find(text)
    assert text[finding.start:finding.end].replace(ZW, "") == token
    assert redact(text) == f"a{ZW}b [REDACTED:github-token] c"


def test_normalized_maps_back_after_removals() -> None:
    norm = normalize(f"x{ZW}{ZW}y{BIDI}z")
    assert norm.text == "xyz"
    assert [norm.original(i) for i in range(3)] == [0, 3, 5]
    assert norm.original_end(3) == 6


def test_ascii_text_is_returned_as_it_is() -> None:
    text = "plain ascii: nothing to fold"
    norm = normalize(text)
    assert norm.text is text and norm.view is text and norm.removed == ()


def test_view_keeps_offsets_for_other_scripts() -> None:
    norm = normalize("密码：abc ｐａｓｓ")
    assert len(norm.view) == len(norm.text) and norm.view.isascii()
    assert norm.text == "密码:abc pass"


@pytest.mark.parametrize("text", [
    "Ζεύς and Αθήνα are gods, not passwords",  # Greek prose folds partly to Latin, finds nothing
    "Москва — столица России",
    "The hash aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ= decodes to a greeting",
    "Build 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a\nnext line of the log",
])
def test_decoding_does_not_invent_secrets(text: str) -> None:
    assert find(text) == []


def _mixed_texts() -> list[str]:
    """Texts that mix real question marks, other scripts, disguises and labels of other scripts."""
    pieces = ["?", "??", "a?b", "密码", "密码：", "登录", "パスワードは", "пароль: ", "contraseña ", "é", "ｐａｓｓ",
              ZW, BIDI, "р", "\u3000", "「x」", "?token=Zq8XvL2mK9pT4wR7", " ", "\n", "key: ", "Ab3dE5fG7h"]
    rng = random.Random(20261130)
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 60))) for _ in range(400)]


def test_folding_reads_only_non_ascii_runs_with_the_same_result() -> None:
    every_character = {ord(c): r for c, r in _TABLE.items()}  # what folding every character gives
    for text in _mixed_texts():
        assert normalize(text).text == text.translate(every_character)


def test_labels_of_other_scripts_are_found_as_in_the_whole_text() -> None:
    for text in _mixed_texts():
        norm = normalize(text)
        found = [(x.start, x.end) for x in labels(norm.text, norm.view, Occurrences(norm.view.lower(), norm.text)) if x.cjk]
        assert found == [m.span() for m in _SCRIPT_LABEL.finditer(norm.text)]


def test_word_positions_of_a_constant_list_are_those_of_each_word() -> None:
    """``of_all`` settles a constant tuple by groups (a word, the longer words holding it); the
    positions must be those of a plain search for every word, overlaps included."""
    rng = random.Random(4)
    pieces = ["pass", "pw", "d", "login", "log", "key", " -", "access_id", "access-id", "token", "x", " ", "aws",
              "_pw", "bearer", "pwpw", "kkey"]
    lists = [("pass", "pwd", "_pw", "login", "accessid", "access_id", "access-id", "bearer", "key"),
             ("pwd", "pass", "pwd", "x"), ("pw",), ("aws", " -")]
    for _ in range(3000):
        low = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        for words in lists:
            expected = sorted({at for word in words for at in range(len(low)) if low.startswith(word, at)})
            assert Occurrences(low).of_all(words) == expected, (low, words)


def test_every_compatibility_letter_of_the_bmp_is_folded() -> None:
    """Every character whose NFKC form is one ASCII letter or digit folds to it: the blocks the
    table scans at import hold them all (a newer Unicode adding one elsewhere fails here)."""
    import unicodedata

    missing = []
    for code in range(0x80, 0x10000):
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) == 1 and folded.isascii() and folded.isalnum() and _TABLE.get(char) != folded:
            missing.append(f"U+{code:04X}")
    assert missing == []
    assert (_TABLE["\u0131"], _TABLE["\u0237"]) == ("i", "j")  # dotless i and j: no NFKC form, same look
