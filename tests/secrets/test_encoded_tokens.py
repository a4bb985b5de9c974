"""Secrets hidden by an encoding layer 1 reads through: base32 runs and Unicode tag characters.

Values are generated from a seeded hash; each positive stands beside hard negatives (base32
of text without a credential, capitals that only look like base32, a flag emoji's tags).
"""
from __future__ import annotations

import base64

import pytest

from chord_git.secrets import find, redact
from chord_git.secrets.text.normalize import normalize
from tests.secrets.fakes import seeded

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"




def _b32(text: str, padded: bool = True) -> str:
    encoded = base64.b32encode(text.encode()).decode()
    return encoded if padded else encoded.rstrip("=")


def _tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in text)


# ---------------------------------------------------------------------------- base32
@pytest.mark.parametrize("padded", [True, False])
@pytest.mark.parametrize("inner", ["password={v}", "ghp_{t}", "postgres://app:{v}@db.corp.test/app"])
def test_base32_of_a_credential_is_found(inner: str, padded: bool) -> None:
    decoded = inner.format(v=seeded("b32-v", 14), t=seeded("b32-t", 36))
    blob = _b32(decoded, padded)
    text = f"the job log printed {blob} before failing"
    spans = find(text)
    assert spans and spans[0].start <= text.index(blob) < spans[0].end, (inner, blob)
    assert blob not in redact(text)


@pytest.mark.parametrize("slot", ["otp_secret", "TOTP_SEED", "mfa_seed", "otp", "twofa_secret"])
def test_a_base32_secret_in_an_otp_slot_is_found(slot: str) -> None:
    secret = seeded(slot, 32, _B32)
    text = f"{slot}={secret}"
    assert [text[s.start:s.end] for s in find(text)] == [secret]


@pytest.mark.parametrize("text", [
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567 is the base32 alphabet",
    "OTP_NAME=ABCDEFGHIJKLMNOPQRST",
    "mfa_seed=AAAAAAAAAAAAAAAAAAAAAAAA",
    "the otp_mode=TIMEBASEDONETIMEPASSWORDS switch",
    "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG",
    "blob " + _b32("the deploy finished at noon and the cache is warm"),
    "commit " + seeded("sha", 40, "0123456789abcdef"),
])
def test_base32_looking_text_is_no_secret(text: str) -> None:
    assert find(text) == []


# ---------------------------------------------------------------------------- tag characters
@pytest.mark.parametrize("hidden", ["password: {v}", "ghp_{t}", "export AWS_SECRET_ACCESS_KEY={t}"])
@pytest.mark.parametrize("before", ["Summary of the run. ", "", "note:\n"])
def test_a_secret_spelled_in_tag_characters_is_found(hidden: str, before: str) -> None:
    secret = hidden.format(v=seeded("tag-v", 14), t=seeded("tag-t", 40 if "AWS" in hidden else 36))
    text = before + _tags(secret) + " thanks"
    spans = find(text)
    assert spans, secret
    redacted = redact(text)
    # The span lands on the caller's characters: the redaction replaces tag characters.
    assert "[REDACTED:" in redacted and redacted.startswith(before) and redacted.endswith(" thanks")
    assert _tags(secret) not in redacted


def test_tag_characters_read_as_ascii_keep_offsets() -> None:
    text = "key " + _tags("abc") + " end"
    norm = normalize(text)
    assert norm.text == "key abc end"
    assert len(norm.text) == len(text)  # one character for one: offsets need no map
    assert norm.removed == ()


def test_a_flag_emoji_keeps_its_tags_out_of_the_text() -> None:
    """A subdivision flag (black flag, tag letters, cancel tag) is a picture, not hidden text."""
    text = "Team \U0001f3f4" + _tags("gbsct") + "\U000e007f won"
    norm = normalize(text)
    assert "gbsct" not in norm.text
    assert find(text) == []


def test_tag_characters_inside_a_value_stay_part_of_it() -> None:
    """Tags spliced into a visible token spell characters of it; the token is still found."""
    token = "ghp_" + seeded("spliced", 36)
    text = "ran with " + token[:10] + _tags(token[10:20]) + token[20:] + " ok"
    assert len(find(text)) == 1
