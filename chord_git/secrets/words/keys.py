"""Key names that hold secrets: the vocabulary and classification behind assignment detection.

``classify_key("DB_PASSWORD")`` says whether a name holds a credential and how strongly
(``strong`` for token/secret/password words, ``weak`` for a bare ``key``, ``pass`` or service
name, which then need a more random value).
"""
from __future__ import annotations

from ...support.regex_lazy import lazy

# Vocabulary for the assignment detector (``export X_TOKEN=…``, ``password: …``).
ASSIGNMENT_TRIGGERS = ("token", "secret", "pass", "pwd", "key", "auth", "cred", "_pw", "bearer", "login",
                       "accessid", "access_id", "access-id")
STRONG_KEY_WORDS = frozenset({
    "token", "tokens", "secret", "secrets", "password", "passwords", "passwd", "passphrase",
    "passcode", "pwd", "credential", "credentials", "creds", "cred", "apikey", "authtoken",
    "accesstoken", "accesskey", "secretkey", "privatekey", "clientsecret", "authorization",
    "bearer", "sessiontoken", "refreshtoken", "idtoken", "apitoken", "appsecret", "authkey",
    "masterkey", "signingkey", "encryptionkey", "licensekey", "accesssecret", "secrete",
})
WEAK_KEY_WORDS = frozenset({"key", "keys", "pass", "pw", "auth", "login", "accessid"})
# Service names: a random value under a key named after a service is its credential
# (``cloudflare: "…"``), the way gitleaks' rules pair a vendor keyword with a value.
SERVICE_NAMES = frozenset({
    "adafruit", "adobe", "airtable", "algolia", "alibaba", "anthropic", "artifactory", "asana",
    "atlassian", "authress", "beamer", "bitbucket", "bittrex", "clickhouse", "clojars",
    "cloudant", "cloudflare", "codecov", "cohere", "coinbase", "confluence", "confluent",
    "contentful", "databricks", "datadog", "digitalocean", "discord", "doppler", "droneci",
    "dropbox", "duffel", "dynatrace", "easypost", "etsy", "facebook", "fastly", "finicity",
    "finnhub", "flickr", "flutterwave", "frameio", "freshbooks", "gitter", "gocardless",
    "grafana", "harness", "heroku", "hubspot", "huggingface", "infracost", "intercom", "jfrog",
    "jira", "kraken", "kucoin", "launchdarkly", "linkedin", "looker", "mailchimp", "mailgun",
    "mapbox", "mattermost", "maxmind", "meraki", "messagebird", "netlify", "newrelic",
    "nytimes", "okta", "openai", "perplexity", "plaid", "planetscale", "postman", "prefect",
    "pulumi", "rapidapi", "rubygems", "scalingo", "sendbird", "sendgrid", "sendinblue",
    "sentry", "settlemint", "shippo", "shopify", "snyk", "softlayer", "sonar", "sonarqube",
    "sourcegraph", "squarespace", "sumologic", "telegram", "travis", "travisci", "trello",
    "twilio", "twitch", "twitter", "typeform", "yandex", "zendesk",
})

# Words that may follow a secret word without changing what the key holds (``db_pass_secure``).
TRAILING_WORDS = frozenset({
    "secure", "value", "val", "str", "string", "b64", "base64", "hex", "raw", "plain",
    "plaintext", "enc", "encrypted", "prod", "production", "dev", "staging", "live", "sandbox",
    "old", "new", "backup", "main", "primary", "secondary", "super", "do", "not", "commit", "sec",
})
# Compound words ending like this are secret words too (``SUMOLOGIC_ACCESSKEY``, ``apikey``).
STRONG_SUFFIXES = ("token", "secret", "password", "passwd", "pwd", "apikey", "accesskey",
                   "secretkey", "privatekey", "authkey", "credentials")
# A key whose last word is one of these describes a secret instead of holding one.
DESCRIPTOR_WORDS = frozenset({
    "id", "ids", "name", "names", "url", "uri", "urls", "endpoint", "file", "files", "path",
    "paths", "dir", "filename", "length", "len", "size", "type", "types", "ttl", "seconds",
    "secs", "ms", "minutes", "min", "max", "count", "env", "var", "vars", "variable", "field",
    "fields", "column", "col", "header", "headers", "prefix", "suffix", "format", "pattern",
    "regex", "policy", "version", "mode", "enabled", "enable", "disabled", "required", "label",
    "placeholder", "hint", "help", "description", "desc", "doc", "docs", "note", "event",
    "events", "ref", "reference", "store", "manager", "provider", "helper", "class", "method",
    "handler", "fn", "func", "callback", "hash", "location", "source", "input", "widget",
    "form", "reset", "expiry", "expires", "expiration", "rotation", "strength", "rules", "rule",
    "selector", "pair", "pressed", "down", "up", "code", "mesh", "meshing", "exist", "exists",
    "controller", "chars", "charset", "alphabet", "bits", "algorithm", "algo", "kind", "index",
    "list", "map", "count", "status", "state", "used", "usage", "schema", "spec", "command",
    "cmd", "script", "stdin", "stdout", "prompt", "message", "msg", "error", "errors", "text",
    "line", "lines", "word", "words", "set", "get", "check", "verify", "validate", "valid",
    "invalid", "test", "tests", "example", "sample", "template", "hint", "question", "answer",
    "server", "host", "hostname", "port", "user", "username", "email", "account", "owner",
    "region", "zone", "scope", "scopes", "audience", "issuer", "algorithm", "cache", "timeout",
    "interval", "delay", "retries", "limit", "bucket", "vault", "keyring", "loader", "reader",
    "writer", "parser", "builder", "factory", "generator", "encoder", "decoder", "type",
    "signature", "sig", "fingerprint", "checksum", "digest",
})
# Qualifiers that make "key", "token" or "secret" something other than a credential.
NON_SECRET_QUALIFIERS = frozenset({
    "public", "pub", "publishable", "primary", "foreign", "sort", "partition", "cache",
    "idempotency", "csrf", "xsrf", "authenticity", "schema", "sequence", "bucket", "object",
    "composite", "natural", "unique", "lookup", "translation", "i18n", "hot", "shortcut",
    "keyboard", "dedup", "routing", "shard", "row", "range", "cursor", "next", "previous",
    "page", "pagination", "continuation", "sync", "foreign", "cancellation", "cancel", "max",
    "min", "num", "total", "prompt", "completion", "input", "output", "recv", "gpg", "pgp",
})
# ``<qualifier> key`` that names an identifier, not a credential (``session key``, ``routing key``).
ID_KEY_QUALIFIERS = frozenset({"session", "routing", "request", "trace", "correlation", "sticky",
                               "affinity", "dedup", "dedupe", "feature", "flag", "translation", "i18n"})
# Words in front of a value that say an Authorization header value follows.
AUTH_SCHEMES = lazy(
    r"(?i)(?:bearer|basic|token|digest|api-?token|api-?key|apikey|key|bot|oauth|sso-key|"
    r"ssws|jwt|negotiate|splunk|hmac)\s+")

# Key words after which a value may start with an auth scheme (``Authorization: Bearer …``).
AUTH_KEYS = frozenset({"authorization", "auth", "bearer", "proxy"})
_PASSWORD_WORDS = frozenset({"password", "passwords", "passwd", "passphrase", "passcode", "pwd",
                             "pass", "pw", "login"})
KEY_QUALIFIERS = frozenset({
    "api", "secret", "private", "access", "master", "signing", "encryption", "license", "client",
    "app", "auth", "account", "service", "admin", "root", "ssh", "deploy", "encrypt",
    "hmac", "jwt", "webhook", "storage", "subscription", "consumer", "sas", "shared",
})


# How a name splits into words: at non-alphanumerics, then camelCase humps and digit runs.
_CAMEL_SPLIT = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_KEY_NAME_SPLIT = lazy(r"[^A-Za-z0-9]+")


def word_parts(value: str) -> list[str]:
    """Lower-cased words of an identifier or value: snake, kebab, dotted and camelCase."""
    parts: list[str] = []
    for chunk in _KEY_NAME_SPLIT.split(value):
        parts.extend(p.lower() for p in _CAMEL_SPLIT.findall(chunk))
    return parts


def _secret_word(part: str, index: int, parts: list[str]) -> str | None:
    """'strong' or 'weak' when ``part`` names a secret, else None."""
    if part in STRONG_KEY_WORDS or part.endswith(STRONG_SUFFIXES):
        return "strong"
    if part in ("key", "keys") and index > 0 and parts[index - 1] in KEY_QUALIFIERS:
        return "strong"
    if part in WEAK_KEY_WORDS or part == "accessid" or part in SERVICE_NAMES:
        return "weak"
    return None


def _key_parts(key: str) -> list[str]:
    parts = word_parts(key)
    while parts and parts[-1].isdigit():
        parts.pop()
    # An "access id" is the public half of a key pair, but still part of the credential.
    if len(parts) >= 2 and parts[-2:] == ["access", "id"]:
        parts[-2:] = ["accessid"]
    return parts


def classify_key(key: str, word_before: str = "") -> tuple[str, str, str] | None:
    """(kind, strength, secret word) for a key that holds a secret, or None."""
    parts = _key_parts(key)
    if not parts or any(p in NON_SECRET_QUALIFIERS for p in parts):
        return None
    if parts[-1] in DESCRIPTOR_WORDS:
        return None
    for index in range(len(parts) - 1, -1, -1):
        strength = _secret_word(parts[index], index, parts)
        if strength is None:
            continue
        trailing = parts[index + 1:]
        if strength == "weak" and not all(p in TRAILING_WORDS for p in trailing):
            continue
        if strength == "weak" and len(parts) == 1 and word_before in NON_SECRET_QUALIFIERS:
            return None
        if parts[index] in ("key", "keys") and (parts[index - 1] if index else word_before) in ID_KEY_QUALIFIERS:
            return None  # a session, routing or request key is an identifier
        return _kind(parts[index]), strength, parts[index]
    return None


def _kind(word: str) -> str:
    if word in SERVICE_NAMES:
        return "api-key-assignment"
    if word in _PASSWORD_WORDS or "pass" in word:
        return "password-assignment"
    if "secret" in word:
        return "secret-assignment"
    if "cred" in word:
        return "credential-assignment"
    if "key" in word:
        return "api-key-assignment"
    return "token-assignment"


def key_is_non_secret(key: str) -> bool:
    """A key that says its value is public or describes a secret (``public_key``, ``*_name``)."""
    parts = [p for p in word_parts(key) if not p.isdigit()]
    return bool(parts) and (parts[-1] in DESCRIPTOR_WORDS or any(p in NON_SECRET_QUALIFIERS for p in parts))
