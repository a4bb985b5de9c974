"""How both layers report a secret (a ``Finding``: kind and place, never the value), and how
kinds group into families for de-duplication."""
from __future__ import annotations

from chord_git.findings import Finding, Problem

# Kinds that describe *how* a secret was spotted rather than *what* it is: one family.
_GENERIC_KINDS = frozenset({
    "password-assignment", "secret-assignment", "token-assignment", "api-key-assignment",
    "credential-assignment", "secret-keyword", "high-entropy-string",
    "password-in-text", "secret-in-text", "login-credentials", "password-in-command", "credential-dump",
})
# detect-secrets type names -> our kinds (detect_secrets/plugins/*.py ``secret_type``); types
# missing here become their slug ("Private Key" -> "private-key").
DETECT_SECRETS_KINDS = {
    "Artifactory Credentials": "artifactory-token",
    "AWS Access Key": "aws-access-key-id",
    "Azure Storage Account access key": "azure-storage-key",
    "Base64 High Entropy String": "high-entropy-string",
    "Basic Auth Credentials": "url-credentials",
    "Cloudant Credentials": "cloudant-credentials",
    "Discord Bot Token": "discord-bot-token",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "Hex High Entropy String": "high-entropy-string",
    "IBM Cloud IAM Key": "ibm-cloud-iam-key",
    "IBM COS HMAC Credentials": "ibm-cos-hmac",
    "JSON Web Token": "jwt",
    "Mailchimp Access Key": "mailchimp-api-key",
    "NPM tokens": "npm-token",
    "OpenAI Token": "openai-api-key",
    "PyPI Token": "pypi-token",
    "SendGrid API Key": "sendgrid-api-key",
    "Slack Token": "slack-token",
    "SoftLayer Credentials": "softlayer-credentials",
    "Stripe Access Key": "stripe-key",
    "Telegram Bot Token": "telegram-bot-token",
    "Twilio API Key": "twilio-api-key",
    "Public IP (ipv4)": "public-ip",
}


def secret_finding(path: str, line: int, kind: str, layer: str = "detect-secrets",
                   value_hashes: tuple[str, ...] = ()) -> Finding:
    """A secret on an added line of ``path``, as every report shows it; ``value_hashes``: the
    SHA-1 of its value(s), the ignore file's stable entry (kept, never shown)."""
    origin = "chord-git's secret rules" if layer == "sanitizer" else layer
    message = f"possible secret, found by {origin}: remove it from memory and rotate it"
    return Finding(path, Problem(line, kind, message), layer=layer, value_hashes=value_hashes)


def kind_family(kind: str) -> str:
    """Kinds of one family on one line are reported once (``github-token`` from both layers)."""
    if kind in _GENERIC_KINDS:
        return "generic"
    if kind in ("url-credentials", "curl-credentials", "cloudant-credentials", "token-in-url"):
        return "credentials"
    return kind.split("-", 1)[0]


def kind_from_detect_secrets(secret_type: str) -> str:
    """Our kind for a detect-secrets ``PotentialSecret.type``."""
    known = DETECT_SECRETS_KINDS.get(secret_type)
    if known:
        return known
    return "-".join(secret_type.lower().replace("(", " ").replace(")", " ").split())
