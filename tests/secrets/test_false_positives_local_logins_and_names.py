"""False positives found in real agent memory files and configuration texts (issue 33 item 5), round 5.

The texts below are lines of public ``.env.example`` files, ConfigMaps, READMEs and memory files
(``bench/real_memory_fp.py`` scans a snapshot of them), cut to the part a finding fell on. Each
class has its hard negatives beside it: the same shape holding a real value is still reported.
"""
from __future__ import annotations

import pytest

from chord_git.secrets import find, scan_added_lines
from chord_git.secrets.verdicts.values import is_local_default_login

RECORD = ".chord/memory/records/x.md"


def _layer1(text: str) -> list[str]:
    return [text[s.start:s.end] for s in find(text)]


def _both_layers(text: str) -> list[str]:
    lines = list(enumerate(text.split("\n"), start=1))
    return [f.kind for f in scan_added_lines({RECORD: lines})]


# Class 1: a database URL with development credentials (a stock password, or the user name
# repeated) on a local or service host.
LOCAL_DEFAULT_URLS = [
    "# OXIDE_DATABASE_URL=postgres://oxide_agent:oxide_agent@localhost:5432/oxide_agent",
    "# DATABASE_URL=postgresql://postgres:postgres@localhost:5432/fastapi_firebase",
    'DATABASE_URL: "postgresql://postgres:postgres@metadata-db:5432/postgres"',
    "DATABASE_URL=mysql://root:root@localhost:3306/invoices",
    "DATABASE_URL=postgresql+psycopg://postgres:postgres@localhost:5432/rag_platform",
    'DATABASE_URL: "postgresql+psycopg://postgres:postgres@postgres:5432/rag_platform"',
    "DATABASE_URL=postgresql+psycopg2://postgres:postgres@localhost:5432/fastapi_tasks",
    "DB=mysql://root:root@127.0.0.1/db",
    "REDIS_URL=redis://:password@[::1]:6379/0",
    "AMQP_URL=amqp://guest:guest@rabbitmq:5672/",
    "MONGO_URL=mongodb://admin:admin@host.docker.internal:27017",
    "DB=postgres://app:APP@0.0.0.0/app",
]


@pytest.mark.parametrize("line", LOCAL_DEFAULT_URLS)
def test_local_default_url_is_not_a_secret(line: str) -> None:
    assert _layer1(line) == []


@pytest.mark.parametrize("line, value", [
    # A typed password on localhost is a credential.
    ("DB=postgres://app:Xk29fqZ7p2@localhost:5432/app", "Xk29fqZ7p2"),
    ("DB=mysql://root:S3cr3t!x@127.0.0.1/db", "S3cr3t!x"),
    ("MONGO=mongodb://admin:s3cr3tPass@mongo:27017", "s3cr3tPass"),
    # A stock password on a real host, or on an address of a network, is reported.
    ("DB=postgres://postgres:postgres@db.prod.example.com:5432/app", "postgres"),
    ("DB=postgres://postgres:postgres@postgres.internal.corp/app", "postgres"),
    ("DB=postgres://postgres:postgres@10.0.3.4/app", "postgres"),
    ("DB=mysql://root:root@mysql.eu-west-1.rds.amazonaws.com/db", "root"),
    # The user name repeated with a change is not the user name.
    ("DB=postgres://oxide_agent:oxide_agent2024@localhost/x", "oxide_agent2024"),
])
def test_local_default_url_hard_negatives(line: str, value: str) -> None:
    assert value in _layer1(line)


def test_local_default_login_verdict() -> None:
    assert is_local_default_login("postgres", "postgres", "localhost")
    assert is_local_default_login("oxide_agent", "oxide_agent", "127.0.0.1")
    assert is_local_default_login("", "password", "[::1]")
    assert not is_local_default_login("postgres", "postgres", "db.example.com")
    assert not is_local_default_login("app", "Xk29fqZ7p2", "localhost")
    assert not is_local_default_login("postgres", "postgres", "10.0.0.1")


@pytest.mark.parametrize("line", LOCAL_DEFAULT_URLS)
def test_local_default_url_is_a_named_removal_in_layer2(line: str) -> None:
    """Layer 2 is a floor: detect-secrets' basic-auth finding leaves only by the named verdict."""
    from chord_git.secrets import explain_units

    assert _both_layers(line) == []
    removed = explain_units([("m.md", [(1, line)])])[0]
    assert {r.verdict for r in removed} <= {"local-default"}


# Class 2: two names of the same shape around a spaced slash read as a user and a password.
NAME_PAIRS = [
    "| **ZAI (Zhipu AI)** | Alternative agent provider, native tool-aware chat, GLM-4.7 / GLM-4.5-Air |",
    "- **Asset Generation**: OpenAI DALL-E 3 / GPT-Image-1 with custom AIGC pipeline",
    "(`profileFormat.ts`: `b122Encode` / `b122Decode`).  The alphabet is",
    "- Models: Claude-3.5-Sonnet / GPT-4o-Mini for the router",
    "Image models: Imagen-3 / Flux-1-Dev",
    "- helpers `toBase64Json` / `fromBase64Json`",
]


@pytest.mark.parametrize("line", NAME_PAIRS)
def test_name_pair_is_not_a_login(line: str) -> None:
    assert _layer1(line) == []


@pytest.mark.parametrize("line, value", [
    ("Jenkins: admin / J3nk1ns!", "J3nk1ns!"),
    ("creds: admin / X9!kf2Qz", "X9!kf2Qz"),
    ("Grafana: admin / Winter-2024", "Winter-2024"),
    ("Staging: deploy / Deploy-2024", "Deploy-2024"),
    ("Router: admin / Tp-Link-2024", "Tp-Link-2024"),
    ("Jenkins: jSmith / jSmith2024!", "jSmith2024!"),
    ("router: getToken / setToken9", "setToken9"),
    ("- Admin login for local dev: admin@example.com / Admin123!", "Admin123!"),
    ("- **Admin Account**: jackyandsky@gmail.com / Jacky789", "Jacky789"),
    ("user: deploy / pass: Xk29!fqZ7p", "Xk29!fqZ7p"),
])
def test_name_pair_hard_negatives(line: str, value: str) -> None:
    assert value in _layer1(line)


# Class 3: the name of a password hashing scheme after a password label.
HASH_SCHEMES = [
    "- Senhas sempre com hash forte (ex.: bcrypt/argon2)",
    "Senhas: argon2",
    "- Passwörter: Argon2id",
    "Contraseñas: scrypt",
]


@pytest.mark.parametrize("line", HASH_SCHEMES)
def test_hash_scheme_is_not_a_password(line: str) -> None:
    assert _layer1(line) == []


@pytest.mark.parametrize("line, value", [
    ("Passwort: Argon2Pass!", "Argon2Pass!"),
    ("Senhas: bcrypt2024x!", "bcrypt2024x!"),
    ("Senha: Sha256!x9", "Sha256!x9"),
])
def test_hash_scheme_hard_negatives(line: str, value: str) -> None:
    assert value in _layer1(line)


# /etc/passwd and /etc/group entries: the password slot says "elsewhere" (x, *, !).
PASSWD_LINES = [
    "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin",
    "```\nroot:x:0:0:root:/root:/bin/bash\n```",
    "- group file: root:x:0:",
    "admin:*:1001:1001:Admin user:/home/admin:/bin/zsh",
]


@pytest.mark.parametrize("text", PASSWD_LINES)
def test_a_passwd_entry_is_not_a_login(text: str) -> None:
    assert _both_layers(text) == []


@pytest.mark.parametrize("text", ["root:Xk29!fqZ", "admin:S3cret!x9 is the router login"])
def test_a_stock_account_with_a_password_is_still_a_login(text: str) -> None:
    assert _both_layers(text) == ["login-credentials"]


def test_a_database_url_alone_in_a_fence_follows_the_url_rule() -> None:
    assert _both_layers("```\npostgres://postgres:postgres@localhost:5432/app\n```") == []
    assert _both_layers("```\nhttps://bob:Xk29fqZ7p2@github.com\n```")
