"""Fake credentials for tests, built at run time so this repository never holds one.

Every token is assembled from a split prefix and a body drawn from a seeded generator: the
source only contains fragments, which no secret scanner recognises.
"""
from __future__ import annotations

import base64
import json
import random
import string

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
LOWER_DIGITS = string.ascii_lowercase + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def body(length: int, alphabet: str = ALNUM, seed: int = 7) -> str:
    """A deterministic random string that always mixes letters and digits."""
    rng = random.Random(f"{seed}:{length}:{alphabet}")
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(length))
        if any(c.isdigit() for c in value) == any(c.isdigit() for c in alphabet) and \
                any(c.isalpha() for c in value) == any(c.isalpha() for c in alphabet):
            return value


def join(*parts: str) -> str:
    return "".join(parts)


def b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def jwt() -> str:
    header = b64url({"alg": "HS256", "typ": "JWT"})
    payload = b64url({"sub": "1234567890", "name": "Jane Roe", "iat": 1700000000})
    return f"{header}.{payload}.{body(43, URLSAFE, seed=3)}"


def pem_private_key(label: str = "RSA ") -> str:
    lines = [body(64, B64, seed=n) for n in range(5)]
    begin, end = join("-----BEGIN ", label, "PRIVATE", " KEY-----"), join("-----END ", label, "PRIVATE", " KEY-----")
    return "\n".join([begin, *lines, end])


def uuid(seed: int = 1) -> str:
    h = body(32, HEX, seed=seed)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


# Vendor tokens, one per format family, assembled from pieces.
AWS_KEY_ID = join("AK", "IA", body(16, UPPER_DIGITS))
GITHUB_CLASSIC = join("gh", "p_", body(36))
GITHUB_FINE = join("github", "_pat_", body(82, ALNUM + "_"))
GITHUB_APP = join("gh", "s_", body(36, seed=2))
GITHUB_OAUTH = join("gh", "o_", body(36, seed=3))
GITLAB = join("gl", "pat-", body(20, URLSAFE))
SLACK_BOT = join("xo", "xb-", body(12, string.digits), "-", body(13, string.digits, seed=2), "-", body(24))
SLACK_USER = join("xo", "xp-", body(12, string.digits), "-", body(12, string.digits, seed=3), "-",
                  body(12, string.digits, seed=4), "-", body(32, HEX))
SLACK_WEBHOOK = join("https://hooks.", "slack.com/services/T", body(8, UPPER_DIGITS), "/B",
                     body(8, UPPER_DIGITS, seed=2), "/", body(24))
DISCORD = join("M", body(23, ALNUM), ".", body(6, ALNUM, seed=2), ".", body(27, URLSAFE, seed=3))
TELEGRAM = join(body(10, string.digits), ":", "A", body(34, URLSAFE))
TWILIO = join("S", "K", body(32, HEX))
SENDGRID = join("S", "G.", body(22, URLSAFE), ".", body(43, URLSAFE, seed=2))
STRIPE = join("sk", "_live_", body(24))
SHOPIFY = join("sh", "pat_", body(32, HEX))
OPENAI = join("sk-", "proj-", body(74, URLSAFE), "T3Blbk", "FJ", body(74, URLSAFE, seed=2))
ANTHROPIC = join("sk-", "ant-api03-", body(93, URLSAFE), "AA")
HUGGINGFACE = join("h", "f_", body(34, string.ascii_letters))
NPM = join("n", "pm_", body(36))
PYPI = join("py", "pi-AgEIcHlwaS5vcmc", body(80, URLSAFE))
DOCKERHUB = join("dckr", "_pat_", body(27, URLSAFE))
GCP = join("AI", "za", body(35, URLSAFE))
AZURE_ACCOUNT_KEY = body(86, B64) + "=="
PASSWORD = join("Tr0ub4", "dor&3x!")


def seeded(seed: str, size: int, alphabet: str = ALNUM) -> str:
    """``size`` characters of ``alphabet`` drawn from SHA-256 of ``seed``: the same on every run."""
    import hashlib

    out, counter = "", 0
    while len(out) < size:
        digest = hashlib.sha256(f"{seed}/{counter}".encode()).digest()
        out += "".join(alphabet[b % len(alphabet)] for b in digest)
        counter += 1
    return out[:size]
