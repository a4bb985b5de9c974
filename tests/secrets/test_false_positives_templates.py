"""False positives found in real agent memory files and configuration texts (issue 33 item 5).

The texts below are lines of public ``CLAUDE.md``, ``.windsurfrules``, ``.env.example`` files and
Kubernetes manifests (``bench/real_memory_fp.py`` scans a snapshot of them), cut to the part a
finding fell on, and the public shapes of the same classes: env templates, interpolation
placeholders, ``kubectl create secret`` command lines. Each class has its hard negatives: the
same shape holding a real value is still reported.
"""
from __future__ import annotations

import base64

import pytest

from chord_git.secrets import find, scan_added_lines
from chord_git.secrets.verdicts.shapes import is_placeholder

RECORD = ".chord/memory/records/x.md"


def _findings(text: str) -> list[tuple[int | None, str]]:
    lines = list(enumerate(text.split("\n"), start=1))
    return [(f.line, f.kind) for f in scan_added_lines({RECORD: lines})]


def _layer1(text: str) -> list[str]:
    return [text[s.start:s.end] for s in find(text)]


# Class 1: empty assignments and env templates. The label above (a heading, a comment naming the
# key, a URL ending in ``apikey``) made the next line's key read as its value.
ENV_TEMPLATES = {
    "comment-names-key": (
        "# Gemini API key — get yours free at https://aistudio.google.com/app/apikey\n"
        "GEMINI_API_KEY=\n\n# OpenRouter API key (Phase 3: alternative LLM provider)\n# OPENROUTER_API_KEY=\n"),
    "fence-under-heading": "### API keys\n```\nGEMINI_API_KEY=\nPERPLEXITY_API_KEY=\n```\n",
    "heading-names-key": "## Gemini API key\n```\nGEMINI_API_KEY=\nPERPLEXITY_API_KEY=\n```\n",
    "yaml-empty-keys": "```\nGEMINI_API_KEY:\nPERPLEXITY_API_KEY:\n```\n",
    "label-then-template": "Set the API key:\n```\nGEMINI_API_KEY=\n```\n",
    "bold-label": "**API key**\n\nGEMINI_API_KEY=\n",
    "lower-snake": "**Token**\n\napi_token=\n",
    "template-values": (
        "## Secrets\n```env\nOPENAI_API_KEY=\nDB_PASSWORD=\"\"\nSECRET_KEY=<your key>\nAPI_TOKEN=...\n"
        "ADMIN_PASSWORD=changeme\nSTRIPE_SECRET=${STRIPE_SECRET}\n```\n"),
}


@pytest.mark.parametrize("name", sorted(ENV_TEMPLATES))
def test_env_template_is_not_a_secret(name: str) -> None:
    assert _findings(ENV_TEMPLATES[name]) == []


@pytest.mark.parametrize("text, value", [
    # The key on the next line with a real value: the assignment itself is reported.
    ("**API key**\n\nGEMINI_API_KEY=AIzaSyD4kq9ZxW2mN7vB1cR8tY5uE3oP6lK0jH2\n",
     "AIzaSyD4kq9ZxW2mN7vB1cR8tY5uE3oP6lK0jH2"),
    ("## Secrets\n```\nDB_PASSWORD=Xk29!fqZ7p\nGEMINI_API_KEY=\n```\n", "Xk29!fqZ7p"),
    # A value below its label is still read.
    ("**Password**\n\nXk29!fqZ7p\n", "Xk29!fqZ7p"),
    # Base64 ends with ``=`` too: it is a value, not a key.
    ("**Password**\n\naHVudGVyMjAyNQ==\n", "aHVudGVyMjAyNQ=="),
])
def test_env_template_hard_negatives(text: str, value: str) -> None:
    assert value in _layer1(text)


# Class 2: interpolation placeholders are templates, not values.
PLACEHOLDERS = [
    "- pass `locale={locale}` to the formatter",
    "- pass `user={user}&token={token}` as the query",
    "password={password}",
    'token=f"{token}"',
    "api_key: {{ .Values.apiKey }}",
    "conn = 'password=%(password)s' % cfg",
    "password=$password",
    'password = "#{password}"',
]


@pytest.mark.parametrize("line", PLACEHOLDERS)
def test_interpolation_placeholder_is_not_a_secret(line: str) -> None:
    assert _findings(line) == []


@pytest.mark.parametrize("line, value", [
    ("- pass `password=Xk29!fqZ7p` to the client", "Xk29!fqZ7p"),
    ('token="{Zq8LkVr1Xn5tA2mW}"', "{Zq8LkVr1Xn5tA2mW}"),
])
def test_interpolation_hard_negatives(line: str, value: str) -> None:
    assert any(value in hit or hit in value for hit in _layer1(line))


# Class 3: ``kubectl create secret`` names a secret and where its value comes from.
KUBECTL = [
    "kubectl create secret generic anthropic-api-key --from-file=key.txt",
    "kubectl create secret generic postgres-credentials --from-literal=password=$(cat ./pg-pass.txt)",
    "kubectl create secret generic app-secrets-prod --from-env-file=.env.production -n prod",
    "kubectl create secret generic hf-token-secret --from-literal=token=\"$HF_TOKEN\"",
    "kubectl create secret generic api-token-store --from-file=token=./token.txt",
    "```bash\nkubectl create secret generic my-registry-key \\\n  --from-file=.dockerconfigjson=/path/to/.docker/config.json \\\n"
    "  --type=kubernetes.io/dockerconfigjson\n```",
    "**Secret**\n\nkubectl create secret generic app-secrets --from-env-file=.env",
]


@pytest.mark.parametrize("text", KUBECTL)
def test_kubectl_create_secret_is_not_a_secret(text: str) -> None:
    assert _layer1(text + "\n") == []


@pytest.mark.parametrize("line, value", [
    ("kubectl create secret generic db --from-literal=password=Xk29!fq", "Xk29!fq"),
    ("kubectl create secret generic db --from-literal=DB_PASSWORD='Xk29!fqZ7'", "Xk29!fqZ7"),
])
def test_kubectl_literal_value_is_a_secret(line: str, value: str) -> None:
    assert value in _layer1(line)


# Classes the real-memory bench found besides: a vendor prefix before an ellipsis, the base64 of
# a stand-in in a Secret manifest, an environment variable's name after "pass", an object key
# that is a file path.
OTHER_CLASSES = {
    "prefix-ellipsis": ("- **ANTHROPIC_API_KEY** (Required): Your Anthropic API key for Claude "
                        "(Example: `ANTHROPIC_API_KEY=sk-ant-api03-...`)"),
    "base64-password": "  MONGODB_PASSWORD: cGFzc3dvcmQ=   # password",
    "base64-changeme": "  LLM_API_KEY: Y2hhbmdlbWU=",
    "env-name-after-pass": ("- **Data dir**: packaged (MSIX) runs pass `MCMANAGER_DATA_DIR` =\n"
                            "  `%LOCALAPPDATA%\\MCManager`"),
    "object-key-path": '    "s3_key": "projects/1/raw/uuid.pdf",',
    "url-stand-in-in-capitals": ('DATABASE_URL="postgresql://postgres.sakfwtcnfvjoyvsgjixw:VOTRE_MOT_DE_PASSE'
                                 '@db.sakfwtcnfvjoyvsgjixw.supabase.co:5432/postgres?sslmode=require"'),
    "change-me-with-separators": '  db-password: "CHANGE_ME_IN_PRODUCTION"\n  jwt-secret: "change-this-to-a-secure-random-string"',
    "call-chain-in-token-column": ("| Original → | Token FudiColors |\n| --- | --- |\n"
                                   "| `Colors.white` (fondo tarjetas) | `Theme.of(context).colorScheme.surface` |"),
}


@pytest.mark.parametrize("name", sorted(OTHER_CLASSES))
def test_other_real_memory_false_positives(name: str) -> None:
    assert _layer1(OTHER_CLASSES[name] + "\n") == []


@pytest.mark.parametrize("line, value", [
    ("Example: `ANTHROPIC_API_KEY=sk-ant-api03-Zq8LkVr1Xn5tA2mWp7Yc3Bd9Fh4Jg6Ks0LuEv`",
     "sk-ant-api03-Zq8LkVr1Xn5tA2mWp7Yc3Bd9Fh4Jg6Ks0LuEv"),
    ("  MONGODB_PASSWORD: " + base64.b64encode(b"Xk29!fqZ7p").decode(), base64.b64encode(b"Xk29!fqZ7p").decode()),
    ("- pass `Xk29!fqZ7p` as the password", "Xk29!fqZ7p"),
    ('    "s3_key": "AKIAQ7X2MBN4RTYUVW3P",', "AKIAQ7X2MBN4RTYUVW3P"),
    ('DATABASE_URL="postgresql://app:Xk29fqZ7pL@db.internal:5432/app"', "Xk29fqZ7pL"),
    ('  db-password: "Xk29!fqZ7p"', "Xk29!fqZ7p"),
])
def test_other_classes_hard_negatives(line: str, value: str) -> None:
    assert any(value in hit for hit in _layer1(line + "\n"))


# The shared verdict both layers ask (layer 2 removes a finding whose value it calls a stand-in).
@pytest.mark.parametrize("value", [
    "locale={locale}", "?user={user}&token={token}", "sk-ant-api03-", "ghp_", "Y2hhbmdlbWU=", "cGFzc3dvcmQ=",
    "CHANGE_ME_IN_PRODUCTION", "change-this-to-a-secure-random-string", "VOTRE_MOT_DE_PASSE", "MCMANAGER_DATA_DIR",
])
def test_stand_in_shapes(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", [
    "sk-ant-api03-Zq8LkVr1Xn5tA2mWp7Yc3Bd9Fh4Jg6Ks0LuEv", base64.b64encode(b"Xk29!fqZ7p").decode(),
    "aHVudGVyMjAyNQ==", "AKIAQ7X2MBN4RTYUVW3P", "QZXKVBTRWMPL_XQZKVBNMWRT", "pw=Xk29!fq&u={user}",
])
def test_stand_in_shapes_hard_negatives(value: str) -> None:
    assert not is_placeholder(value)
