"""Classes found by scoring against public rule sets' examples (``bench/outside_corpora.py``).

Placeholders written in alphabet order or with a stand-in word inside, Jenkins credential XML,
a service's credential word set right before its value, and typed passwords under password
keys. Every value is built here from a seeded generator (``fakes``) or a procedure, none is
copied from the corpora; each class comes with the near-misses it must leave alone.
"""
from __future__ import annotations

import random
import string

import pytest

from chord_git.secrets import find
from chord_git.secrets.scanners import jenkins
from chord_git.secrets.verdicts import shapes

from . import fakes


def _kinds(text: str) -> list[str]:
    return [span.kind for span in find(text)]


def _values(text: str) -> list[str]:
    return [text[span.start:span.end] for span in find(text)]


# ------------------------------------------------------------------ placeholders in alphabet order
def _walk(seed: int) -> str:
    """A value written by walking the alphabet and the digits: blocks of one stream, then the
    other, each block going on where that stream stopped (up or down, around its end)."""
    rng = random.Random(seed)
    letters, digits = string.ascii_lowercase, string.digits
    pos = [rng.randrange(26), rng.randrange(10)]
    step = rng.choice((1, -1))
    upper = rng.random() < 0.3
    block = rng.choice((1, 4, 5, 6, 8, 10))  # 1: interleaved, a1b2c3…
    out: list[str] = []
    stream = rng.randrange(2)
    while len(out) < rng.choice((24, 32, 40, 64)):
        for _ in range(block):
            if stream == 0:
                char = letters[pos[0] % 26]
                out.append(char.upper() if upper else char)
                pos[0] += step
            else:
                out.append(digits[pos[1] % 10])
                pos[1] += step
        stream = 1 - stream
    return "".join(out)


def _cycled(seed: int) -> str:
    """One ordered block repeated: ``1234567890abcdef`` written over and over."""
    rng = random.Random(seed)
    start = rng.randrange(5)
    unit = string.digits[start:] + string.digits[:start] + string.ascii_lowercase[: rng.choice((6, 8, 10))]
    return (unit * 4)[: rng.choice((32, 40, 48, 64))]


@pytest.mark.parametrize("seed", range(40))
def test_walks_are_placeholders(seed: int) -> None:
    value = _walk(seed)
    assert shapes.is_placeholder(value), value


@pytest.mark.parametrize("seed", range(20))
def test_cycled_blocks_are_placeholders(seed: int) -> None:
    value = _cycled(seed)
    assert shapes.is_placeholder(value), value


def test_keyboard_rows_walk_like_the_alphabet() -> None:
    value = "".join(row[:5] + str(n) * 1 for n, row in enumerate(("qwertyuiop", "asdfghjkl", "zxcvbnm") * 2))
    # qwert0asdfg1zxcvb2…: letters along the rows; the digits 0..5 run in order.
    assert shapes.is_placeholder(value), value


def test_a_vendor_prefix_before_a_walk_is_a_placeholder() -> None:
    assert shapes.is_placeholder(fakes.join("shp", "ss_", _walk(3)))
    assert shapes.is_placeholder(fakes.join("sk", "-", _cycled(5)))


@pytest.mark.parametrize("alphabet", [fakes.HEX, fakes.ALNUM, fakes.LOWER_DIGITS, fakes.UPPER_DIGITS, fakes.B64])
@pytest.mark.parametrize("length", [16, 20, 32, 40, 64])
def test_random_tokens_are_not_walks(alphabet: str, length: int) -> None:
    for seed in range(60):
        value = fakes.body(length, alphabet, seed=seed)
        assert not shapes.is_degenerate(value), value


def test_a_stretch_of_the_alphabet_inside_a_random_token_is_not_a_walk() -> None:
    value = fakes.body(28, seed=11) + "abcdef123456"
    assert not shapes.is_placeholder(value)


def test_letters_restarting_every_four_are_not_a_walk() -> None:
    # The walk needs runs of five: ``abcd`` blocks with a random digit run are left to the other tests.
    value = "-".join(fakes.body(8, string.digits, seed=n) + "ABCD" for n in range(4))
    assert not shapes._is_ordered_walk(value.replace("-", ""))


def test_walks_are_not_reported_under_a_key() -> None:
    assert _kinds(f"API_KEY={_walk(8)}") == []
    assert _kinds(f"API_KEY={fakes.body(32, fakes.LOWER_DIGITS, seed=8)}") != []


# ------------------------------------------------------------------ stand-in words inside a token
def _with_word(word: str, seed: int, times: int) -> str:
    rng = random.Random(seed)
    parts = [fakes.body(12, fakes.ALNUM, seed=seed + n) for n in range(times + 1)]
    for n in range(times):
        parts[n] += word if rng.random() < 0.5 else word.upper()
    return "".join(parts)


@pytest.mark.parametrize("word", ["fake", "sample"])
def test_a_stand_in_word_twice_inside_a_token_is_a_placeholder(word: str) -> None:
    for seed in range(10):
        value = _with_word(word, seed, 2)
        assert shapes.is_placeholder(value), value


def test_a_stand_in_word_as_a_whole_run_of_letters_is_a_placeholder() -> None:
    assert shapes.is_placeholder(fakes.body(40, fakes.HEX, seed=4) + "fake")
    assert shapes.is_placeholder(fakes.join(fakes.body(20, seed=5), "-Sample-", fakes.body(20, seed=6)))


def test_mixed_case_or_a_single_glued_stand_in_word_is_chance() -> None:
    # ``FaKe`` in a mixed-case token, once, glued to letters: a generator writes that by chance.
    value = fakes.join(fakes.body(20, seed=9), "xFaKex", fakes.body(12, seed=10))
    assert not shapes.is_placeholder(value)
    once = fakes.join(fakes.body(20, fakes.ALNUM, seed=12), "qFAKEq", fakes.body(16, seed=13))
    assert not shapes.is_placeholder(once)


def test_test_as_a_segment_stays_a_credential() -> None:
    # Vendors write a test mode into real keys: ``sk_test_…``, ``shippo_test_…``.
    value = fakes.join("shi", "ppo_test_", fakes.body(40, fakes.HEX, seed=14))
    assert not shapes.is_placeholder(value)
    assert _kinds(f"token = {value}") != []


# ------------------------------------------------------------------ Jenkins credential XML
_MARKER = fakes.join("AQAA", "ABAAAAAQ")


@pytest.mark.parametrize("element", ["secret", "password", "apiToken", "privateKey", "passphrase"])
def test_jenkins_encrypted_values_are_found(element: str) -> None:
    encrypted = _MARKER + fakes.body(44, fakes.B64, seed=15) + "="
    text = f"<scope>GLOBAL</scope>\n  <{element}>{{{encrypted}}}</{element}>\n"
    assert _values(text) == [encrypted]
    assert _kinds(text) == ["jenkins-credential"]


def test_jenkins_element_with_a_generated_value_in_braces_is_found() -> None:
    value = fakes.body(32, fakes.LOWER_DIGITS, seed=16)
    text = f"<secret>{{acme AQAAAB {value}}}</secret>"
    assert _kinds(text) == ["jenkins-credential"]


@pytest.mark.parametrize("body", ["{{ var }}", "{{ jenkins_api_token }}", "{JENKINS_SECRET}", "{your-secret-here}",
                                  "{${SECRET}}", "{changeme}"])
def test_jenkins_elements_holding_a_template_are_left_alone(body: str) -> None:
    assert _kinds(f"<secret>{body}</secret>") == []
    assert _kinds(f"<password>{body}</password>") == []


def test_jenkins_marker_followed_by_a_walk_is_a_placeholder() -> None:
    text = f"<secret>{{{_MARKER}{_cycled(2)}}}</secret>"
    assert jenkins.scan(text, text) == []


# ------------------------------------------------------------------ service, credential word, value
@pytest.mark.parametrize("form", [
    "{service} PRIVATE {value}", "{service} ACCESS {value}", "{service} key {value}", "{service} secret {value}",
    "{service}ACCESS {value}", "{Service}PRIVATE.{value}", "{service}-token-{value}", "{service}-apikey-{value}",
    "{service}-secrettoken-{value}", "{service}-secret-KEY-{value}", "{service}PRIVATEkey-{value}",
])
def test_a_service_and_a_credential_word_before_a_value(form: str) -> None:
    value = fakes.body(40, fakes.LOWER_DIGITS, seed=17)
    text = form.format(service="orbitly", Service="orbitly", value=value)
    assert value in _values(text), text


@pytest.mark.parametrize("text", [
    "orbitly PRIVATE workspace", "orbitly PRIVATE workspace settings for the team",
    "acme-token-header", "acme-token-header-name", "the private key is in the vault",
])
def test_a_service_and_a_credential_word_before_a_word(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize("qualifier", ["cache", "partition", "public", "idempotency", "routing"])
def test_identifier_keys_before_a_hash_are_left_alone(qualifier: str) -> None:
    digest = fakes.body(40, fakes.HEX, seed=18)
    assert _kinds(f"{qualifier}-key-{digest}") == []
    assert _kinds(f"the {qualifier} key {digest}") == []


def test_a_credential_word_inside_a_longer_word_is_no_label() -> None:
    value = fakes.body(32, fakes.HEX, seed=19)
    assert _kinds(f"monkey {value}") == []
    assert _kinds(f"turkey-{value}") == []


# ------------------------------------------------------------------ typed passwords under password keys
@pytest.mark.parametrize("line", [
    "REACT_APP_AUTH_PASSWORD=marblefox", "  SMTP_PASS=marblefox   # the mail relay",
    "# ADMIN_PASSWORD=marblefox",
])
def test_a_plain_word_on_an_env_password_line(line: str) -> None:
    assert _values(line) == ["marblefox"]


@pytest.mark.parametrize("line", [
    "POSTGRES_PASSWORD=postgres", "REDIS_PASSWORD=redis", "DB_PASSWORD=changeme", "DB_PASSWORD=password",
    "DB_PASSWORD = marblefox", "password: marblefox", "DB_PASSWORD=marblefox and more words",
    "MAILER_PASSWORD=smtp_password # the mail password", "PASSWORD_FILE=secrets", "DB_PASSWORD=required",
])
def test_plain_words_that_are_no_password(line: str) -> None:
    assert _kinds(line) == []


def test_a_symbol_typed_for_a_letter_under_a_password_key() -> None:
    assert _values('my_password := "lunar$tones"') == ["lunar$tones"]
    assert _values("db_pass: 'quiet#harbor'") == ["quiet#harbor"]


@pytest.mark.parametrize("line", ['my_password := "$HOME"', 'my_password := "${DB_PASS}"', 'my_password := "%(pw)s"'])
def test_references_under_a_password_key_are_left_alone(line: str) -> None:
    assert _kinds(line) == []
