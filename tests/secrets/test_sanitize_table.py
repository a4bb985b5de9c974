"""Layer 1, table-driven: every detector family flags its format, every benign category does not."""
from __future__ import annotations

import pytest

from chord_git.secrets import find, redact
from chord_git.secrets.verdicts.benign import benign_reason, is_benign_value

from . import fakes as f

PW = f.join("pass", "word")

SECRETS: list[tuple[str, str]] = [
    ("aws-key-id", f"aws_access_key_id = {f.AWS_KEY_ID}"),
    ("aws-key-id-bare", f"the key {f.AWS_KEY_ID} leaked"),
    ("aws-secret", f"aws_secret_access_key = {f.body(40, f.B64)}"),
    ("gcp-api-key", f"maps key: {f.GCP}"),
    ("gcp-service-account", '{"type": "service_account", "private_key": "'
     + f.pem_private_key("").replace("\n", "\\n") + '\\n"}'),
    ("azure-storage", f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={f.AZURE_ACCOUNT_KEY};"
     "EndpointSuffix=core.windows.net"),
    ("github-classic", f"use {f.GITHUB_CLASSIC} for the bot"),
    ("github-fine-grained", f.GITHUB_FINE),
    ("github-app", f"installation token {f.GITHUB_APP}"),
    ("github-oauth", f"oauth: {f.GITHUB_OAUTH}"),
    ("gitlab", f"CI uses {f.GITLAB}"),
    ("slack-bot", f"SLACK_BOT={f.SLACK_BOT}"),
    ("slack-user", f"user token {f.SLACK_USER}"),
    ("slack-webhook", f"post to {f.SLACK_WEBHOOK}"),
    ("discord", f"bot token {f.DISCORD}"),
    ("telegram", f"telegram bot: {f.TELEGRAM}"),
    ("twilio", f"twilio {f.TWILIO}"),
    ("sendgrid", f"mail via {f.SENDGRID}"),
    ("stripe", f"stripe {f.STRIPE}"),
    ("shopify", f"shop {f.SHOPIFY}"),
    ("openai", f"OPENAI_API_KEY={f.OPENAI}"),
    ("anthropic", f"key {f.ANTHROPIC}"),
    ("huggingface", f"huggingface-cli login --token {f.HUGGINGFACE}"),
    ("npm-token", f"publish with {f.NPM}"),
    ("npmrc", f"//registry.npmjs.org/:_authToken={f.uuid()}"),
    ("pypi", f"twine token {f.PYPI}"),
    ("dockerhub", f"docker login -p {f.DOCKERHUB}"),
    ("jwt", f"Authorization: Bearer {f.jwt()}"),
    ("jwt-bare", f"session={f.jwt()}"),
    ("pem-rsa", f.pem_private_key("RSA ")),
    ("pem-pkcs8", f.pem_private_key("")),
    ("openssh", f.pem_private_key("OPENSSH ")),
    ("url-http", f"https://deploy:{f.PASSWORD}@git.example.com/acme.git"),
    ("url-postgres", f"DATABASE_URL=postgres://app:{f.body(20)}@db.internal:5432/app"),
    ("url-mysql", f"mysql://root:{f.body(16, seed=4)}@127.0.0.1:3306/test"),
    ("url-mongodb", f"mongodb+srv://svc:{f.body(18, seed=5)}@cluster0.example.mongodb.net/"),
    ("url-redis", f"redis://default:{f.body(24, seed=6)}@cache:6379/0"),
    ("url-amqp", f"amqp://guest:{f.body(12, seed=7)}@rabbit:5672/"),
    ("export-token", f"export DEPLOY_TOKEN={f.body(32)}"),
    ("dotenv-password", f"DB_{PW.upper()}={f.PASSWORD}"),
    ("python-api-key", f'api_key = "{f.body(32, seed=9)}"'),
    ("yaml-password", f"{PW}: {f.PASSWORD}"),
    ("json-password", f'{{"{PW}": "{f.PASSWORD}"}}'),
    ("yaml-client-secret", f"client_secret: {f.body(40, seed=11)}"),
    ("camel-secret-name", f"mySecretString={f.body(30, seed=12)}"),
    ("go-declaration", f'var adminToken string = "{f.body(28, seed=13)}"'),
    ("xml-element", f"<apiToken>\n  {f.body(32, seed=14)}\n</apiToken>"),
    ("cli-flag", f"run --token {f.body(32, seed=15)}"),
    ("curl-user", f"curl -u admin:{f.PASSWORD} https://api.example.com"),
    ("auth-header", f'-H "Authorization: Token {f.body(40, f.HEX)}"'),
    ("uuid-api-key", f"HEROKU_API_KEY={f.uuid(3)}"),
    ("hex-secret", f'facebook_app_secret = "{f.body(32, f.HEX, seed=16)}"'),
    ("comparison", f'if ("{f.body(20, seed=17)}" == {PW}) {{'),
    ("service-named-key", f'cloudflare: "{f.body(40, seed=18)}"'),
    ("service-call-args", f'register("artifactory", "{f.body(64, f.LOWER_DIGITS, seed=19)}")'),
]

BENIGN: list[tuple[str, str]] = [
    ("placeholder-angle", "OPENAI_API_KEY=<YOUR_API_KEY>"),
    ("placeholder-x", f.join("GITHUB_TOKEN=gh", "p_", "X" * 36)),
    ("placeholder-stars", f"{PW}: ********"),
    ("placeholder-truncated", "OPENAI_API_KEY=sk-..."),
    ("placeholder-env", f'{PW} = "${{DB_PASSWORD}}"'),
    ("placeholder-actions", "env: { HF_TOKEN: ${{ secrets.HF_TOKEN }} }"),
    ("placeholder-jinja", 'api_key = "{{ api_key }}"'),
    ("placeholder-words", f.join("ANTHROPIC_API_KEY=your-api", "-key-here")),
    ("placeholder-changeme", f'{PW}: "changeme"'),
    ("placeholder-redacted", "token=[REDACTED]"),
    ("placeholder-our-marker", f"{PW} = [REDACTED:password-assignment]"),
    ("placeholder-url", f"DATABASE_URL=postgres://USER:{PW.upper()}@HOST:5432/DBNAME"),
    ("placeholder-url-angle", f"mongodb+srv://<username>:<{PW}>@cluster0.example.mongodb.net/"),
    ("placeholder-pem", f.join('"-----BEGIN ', "PRIVATE", ' KEY-----\\n...\\n-----END ', "PRIVATE", ' KEY-----\\n"')),
    ("aws-doc-key-id", f.join("aws_access_key_id = AKIA", "IOSFODNN7", "EXAMPLE")),
    ("aws-doc-secret", f.join("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "EXAMPLE", "KEY")),
    ("git-sha-prose", f"Fixed in commit {f.body(40, f.HEX)} last week."),
    ("git-sha-pin", f"rev: {f.body(40, f.HEX, seed=2)}"),
    ("uuid-id", f"request_id={f.uuid(5)} status=500"),
    ("uuid-key-id", f'"kms_key_id": "{f.uuid(6)}"'),
    ("sha256-digest", f"image: ghcr.io/acme/api@sha256:{f.body(64, f.HEX)}"),
    ("pip-hash", f"--hash=sha256:{f.body(64, f.HEX, seed=3)}"),
    ("sri", f'"integrity": "sha512-{f.body(86, f.B64)}=="'),
    ("etag", f'etag: "{f.body(32, f.HEX, seed=4)}"'),
    ("go-sum", f"golang.org/x/crypto v0.27.0 h1:{f.body(43, f.B64)}="),
    ("public-ssh-key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.body(43, f.B64)} ci@acme"),
    ("public-pem", f"-----BEGIN PUBLIC KEY-----\n{f.body(64, f.B64)}\n-----END PUBLIC KEY-----"),
    ("var-environ", 'api_key = os.environ["WEATHER_API_KEY"]'),
    ("var-getenv", 'token = os.getenv("SLACK_BOT_TOKEN")'),
    ("var-settings", f"{PW} = settings.DATABASE_{PW.upper()}"),
    ("var-names-only", "Required env vars: DATABASE_URL, OPENAI_API_KEY, SENTRY_DSN."),
    ("var-command", "export GITHUB_TOKEN=$(gh auth token)"),
    ("prose", f"The {PW} policy requires 14+ characters; the token expires every 90 days."),
    ("descriptor-key", f"{PW.upper()}_MIN_LENGTH = 14"),
    ("public-qualifier", f'public_key = "{f.body(43, f.ALNUM, seed=20)}"'),
    ("url-no-credentials", "REDIS_URL=redis://localhost:6379/0"),
    ("url-user-only", "https://user@bitbucket.org/acme/legacy.git"),
    ("version", "version: 2.14.0-rc.3+build.20241103"),
    ("curl-placeholder", 'curl -u "$USERNAME:$PASSWORD" https://api.example.com'),
    ("auth-header-variable", 'curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/user'),
    ("jwt-header-only", "header is eyJhbGciOiJIUzI1NiJ9 only"),
    ("cache-key", "Cache key: v3:8acdc4bbe92537f2:f26ff29c1026be55"),
    ("service-word", "slack: #deploys, jira: PLAT-6504, github: https://github.com/acme/api"),
]


@pytest.mark.parametrize("payload, should_flag",
                         [(p, True) for _, p in SECRETS] + [(p, False) for _, p in BENIGN],
                         ids=[i for i, _ in SECRETS] + [i for i, _ in BENIGN])
def test_find(payload: str, should_flag: bool) -> None:
    findings = find(payload)
    assert bool(findings) is should_flag, findings


@pytest.mark.parametrize("payload", [p for _, p in SECRETS], ids=[i for i, _ in SECRETS])
def test_redact_round_trip(payload: str) -> None:
    redacted = redact(payload)
    assert "[REDACTED:" in redacted
    assert find(redacted) == []
    for finding in find(payload):
        assert payload[finding.start:finding.end] not in redacted


def test_findings_never_carry_the_value() -> None:
    (finding,) = find(f"token: {f.GITHUB_CLASSIC}")
    assert f.GITHUB_CLASSIC not in repr(finding)
    assert finding.kind == "github-token" and finding.layer == "sanitizer"


def test_assignment_redaction_keeps_the_key() -> None:
    assert redact(f"export DEPLOY_TOKEN={f.body(32)}") == "export DEPLOY_TOKEN=[REDACTED:token-assignment]"
    assert redact(f"postgres://app:{f.PASSWORD}@db/app") == "postgres://app:[REDACTED:url-credentials]@db/app"


def test_overlapping_detectors_give_one_finding_of_the_specific_kind() -> None:
    findings = find(f"GITHUB_TOKEN={f.GITHUB_CLASSIC}")
    assert [x.kind for x in findings] == ["github-token"]


@pytest.mark.parametrize("value, reason", [
    ("<YOUR_API_KEY>", "placeholder"), ("xxxxxxxx", "placeholder"), ("sk-...", "placeholder"),
    ("${VAR}", "placeholder"), ("{{ secrets.X }}", "placeholder"), ("[REDACTED:jwt]", "redacted"),
    (f.uuid(9), "uuid"), ("sha256:" + f.body(64, f.HEX), "digest"), ("settings.DATABASE_HOST", "identifier"), ('request.headers["apikey"]', "identifier"),
    ("1.2.3", "version"), ("https://example.com/x", "url"), ("10.0.0.1", "ip-address"),
    (f.body(40, f.HEX), "hex"), ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIabc", "public-key"),
])
def test_benign_reasons(value: str, reason: str) -> None:
    assert benign_reason(value) == reason
    assert is_benign_value(value)


@pytest.mark.parametrize("value", [f.GITHUB_CLASSIC, f.PASSWORD, f.join("hun", "ter2"), f.body(32)])
def test_credentials_are_not_benign(value: str) -> None:
    assert benign_reason(value) is None
