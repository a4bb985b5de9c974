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
