"""Adversarial inputs for the secret scanners: units that each stress one rule when repeated.

Shared by ``tests/secrets/test_linear_time.py`` (each unit repeated to about 100,000 characters)
and ``bench/secrets_throughput.py`` (each unit repeated 100,000 times).
"""
from __future__ import annotations

# Units that each stress one detector: trigger words, separators, quotes, token alphabets,
# URL and key-block openers, and template markers.
UNITS = [
    "a", "A", "0", "x", "=", ":", "-", "/", "'", '"', "`", " ", "_", "~", ".", "\\", "{", "$",
    "key", "token=", "password: ", "pass=x", "eyJ", "ZXlK", "ghp_", "xoxb-1-", "sk-", "AKIA",
    "://", "://a:b", "@", "-u ", "-----BEGIN " + "PRIVATE" + " KEY-----", "-----BEGIN ", "Q~", ":A",
    "|", "%7C", "-us1", "_mmk", ".atlasv1.", "hooks.slack.com/services/", "<a>", "${", "{{",
    "s.", "AccountKey=", "BUNDLE_GEMS__CONTRIBSYS__COM=", "Authorization: Bearer ",
    # The prose layer: labels and bridges, tables, pairs, command lines, links, value shapes.
    "password is ", "the password for the box is ", "pass phrase ", "**Password:** ", "passwords: ",
    "key ", "api key ", "| password |", "|---|", "| a |\n", "use x as the password ",
    "Login: admin / ", "creds are a:", "sign in as a with ", "aws ", "AWS secret ",
    "mysql -p", "sshpass -p ", " -p x", "docker login -p ", "echo x | ", "--password-stdin",
    "htpasswd -b ", "net use ", "rabbitmqctl add_user ", "?token=", "&key=a1", "/invite/",
    "密码", "密码：", "密码是", "用 a 作为密码", "把 a 填到密码", "登录", "账号 a / ", "パスワードは",
    "トークン: ", "「", "\u200b", "\u202e", "ｐ", "\u0440", "%41", "\\x41", "Z2hw", "6768",
    "aaaaaaaaaaaa1\n", "A1b2C3d4E5f6\n  ", "a-b-c-", "${", "<", "1Password ",
    "| password | token |\n|---|---|\n| a1!b2@c3# | x |\n", "| secret |\n",
]

# Crafted runs and dense findings: JWT-in-base64 prefix runs with "/" inside, pairs and URL
# credentials packed on one line, one finding every few characters for each rule of the prose
# layer (labels, bridges, pairs, commands, links, decoding, normalisation, allowances). Values are
# built from pieces so that no literal credential sits in the tree.
_TOKEN = "".join(("gh", "p_", "Zq8XvL2mK9pT4wR7nB3cY6hJ1dF5gS0aQeWu"))
_B64_PASSWORD = "".join(("cGFzc3dv", "cmQ9SHVu", "dGVyMkJveA=="))  # "password=Hunter2Box" in base64
UNITS += [
    "ZXlK/", "ZXlKaGJHY2lPaUpJVXpJMU5pSjku/", "ZXlKaGJH/ZXlK", "eyJhbGciOiJIUzI1NiJ9./",
    "password=Xy9kLm2pQ7 ", "pwd: Tr0ub4dor&3 ", "x://a:b@", "https://u:Pa55w0rd@h/ ",
    _TOKEN + " ", "token=" + _TOKEN + ";", "the password is hunter2x ", "登录密码是 Ab3dE5fG7 ",
    "Login: admin / Xy9kLm2pQ7\n", "mysql -u root -pS3cr3tPw ", "?token=abc123def456ghi&",
    "%70%61%73%73word=%41%42%43 ", "\u200bpass\u200bword: Zx9yW8vU7 ", _B64_PASSWORD + " ",
    "key: A1b2C3d4E5f6G7h8 <!-- pragma: allowlist secret -->\n", "\\x70\\x61\\x73\\x73 ",
]


# Inputs dense with findings, each a few hundred KiB: what a pasted environment or a log of
# encoded values looks like. Every value is distinct (built from a seeded generator, so no literal
# credential sits in the tree): a verdict remembered per value never helps, only a cheap one does.
DENSE_SIZE = 326 * 1024
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_PLAIN_KEYS = ("PATH", "HOME", "LANG", "SHELL", "TERM", "USER", "PWD", "EDITOR", "HOSTNAME", "NODE_ENV",
               "LOG_LEVEL", "TZ", "PORT", "WORKERS", "JAVA_HOME", "GOPATH", "PAGER", "DISPLAY")
_CREDENTIAL_KEYS = ("DB_PASSWORD", "API_KEY", "SECRET_KEY", "AUTH_TOKEN", "AWS_SECRET_ACCESS_KEY",
                    "GITHUB_TOKEN", "STRIPE_SECRET", "SESSION_SECRET", "REDIS_PASSWORD", "SMTP_PASS")


def _cut(pieces: list[str], size: int) -> str:
    return "".join(pieces)[:size]


def env_dump(size: int = DENSE_SIZE, seed: int = 20261201) -> str:
    """``env`` output: one ``KEY=value`` per line, one key in four credential-named."""
    import random

    rng = random.Random(seed)

    def word(n: int) -> str:
        return "".join(rng.choice(_ALNUM) for _ in range(n))

    pieces: list[str] = []
    total = index = 0
    while total < size:
        if index % 4 == 0:
            line = f"{rng.choice(_CREDENTIAL_KEYS)}_{index}={word(rng.randint(16, 40))}\n"
        else:
            value = rng.choice((f"/usr/local/bin:/usr/bin:/opt/{word(6).lower()}/bin", str(rng.randint(1, 65535)),
                                "en_US.UTF-8", f"value-{word(8).lower()}", word(12).lower(), "/home/dev", "xterm-256color"))
            line = f"{rng.choice(_PLAIN_KEYS)}_{index}={value}\n"
        pieces.append(line)
        total += len(line)
        index += 1
    return _cut(pieces, size)


def assignment_run(size: int = DENSE_SIZE, seed: int = 20261202) -> str:
    """One line of ``name=value`` assignments, credential-named, every value distinct."""
    import random

    rng = random.Random(seed)
    pieces: list[str] = []
    total = 0
    while total < size:
        value = "".join(rng.choice(_ALNUM) for _ in range(rng.randint(12, 28)))
        piece = f"{rng.choice(('password', 'token', 'api_key', 'secret'))}={value} "
        pieces.append(piece)
        total += len(piece)
    return _cut(pieces, size)


def encoded_values(kind: str, size: int = DENSE_SIZE, seed: int = 20261203) -> str:
    """Distinct encoded blobs, one per line: ``base64`` (30 random bytes) or ``hex`` (20 bytes)."""
    import base64
    import random

    rng = random.Random(seed)
    pieces: list[str] = []
    total = 0
    while total < size:
        raw = rng.randbytes(30 if kind == "base64" else 20)
        piece = (base64.b64encode(raw).decode() if kind == "base64" else raw.hex()) + "\n"
        pieces.append(piece)
        total += len(piece)
    return _cut(pieces, size)


DENSE = {  # name -> build(seed)
    "env dump (KEY=value lines)": lambda seed: env_dump(seed=seed),
    "one-line assignment run": lambda seed: assignment_run(seed=seed),
    "distinct base64 values": lambda seed: encoded_values("base64", seed=seed),
    "distinct hex values": lambda seed: encoded_values("hex", seed=seed),
}
