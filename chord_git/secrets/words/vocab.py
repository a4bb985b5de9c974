"""Vocabulary of the prose layer (R31): how people name a credential, and what is not one.

Data only, read by ``prose`` (labels in sentences, markdown and tables), ``commands`` (command-line
flags) and ``links`` (tokens in URLs), and by ``values`` (the test that tells a credential from
prose, a reference or a default). Everything is lower case; labels in scripts without case are
matched as written.
"""
from __future__ import annotations

# Classes of label. A "password" value may be typed by a person (``Tr0ub4dor&3``); a "secret"
# is a password or a generated token; a "weak" label (``key``, ``pass``) needs a generated value.
PASSWORD, SECRET, WEAK = "password", "secret", "weak"

# ASCII words that carry a label, found by substring in the lower-cased text; the word around
# the hit is then classified by ``keys.classify_key`` and ``ASCII_PASSWORD_WORDS``.
ASCII_ANCHORS = ("pass", "pw", "token", "secret", "key", "cred", "bearer")
ASCII_PASSWORD_WORDS = frozenset({
    "password", "passwords", "passwd", "passphrase", "passcode", "pwd", "pw", "pass", "passe",
    "passwort", "kennwort", "wachtwoord", "senha", "haslo", "salasana", "losenord", "parola",
    "passworts", "zugangspasswort", "passord", "passordet",
})
# Weak key words that only name a credential with a value that looks generated.
ASCII_WEAK_WORDS = frozenset({"key", "keys", "cred", "creds"})
# ``<qualifier> key`` that names a typed password (Wi-Fi keys are passphrases).
PASSWORD_KEY_QUALIFIERS = frozenset({"wifi", "fi", "wlan", "wpa", "wpa2", "wpa3", "network", "wireless", "psk"})
# Qualifiers that make ``key``/``token``/``secret`` something public or not a credential, beyond
# ``keys.NON_SECRET_QUALIFIERS``.
PROSE_NON_SECRET_QUALIFIERS = frozenset({
    "session", "routing", "request", "trace", "feature", "flag", "translation", "sort", "gpg",
    "pgp", "ssh", "public", "host", "primary", "sorting", "map", "dict", "hash", "registry",
    "api_key_env", "env", "environment", "variable", "name", "music", "piano", "secret_santa",
    "santa", "security", "design", "identity",
})
# Words before a label that make it a name or an activity, never a value's label.
PROSE_NON_LABEL_QUALIFIERS = frozenset({"detect", "scan", "scanner", "scanning", "no", "zero", "leaked", "rotate"})
# Words after a label that turn it into a description (``password policy``, ``token bucket``).
PROSE_DESCRIPTORS = frozenset({
    "policy", "policies", "manager", "managers", "strength", "meter", "complexity", "rotation",
    "hash", "hashes", "hashing", "field", "fields", "prompt", "prompts", "file", "files", "expiry",
    "bucket", "buckets", "count", "counts", "usage", "limit", "limits", "format", "formats",
    "length", "requirement", "requirements", "rule", "rules", "input", "box", "page", "form",
    "flow", "reset", "resets", "change", "changes", "protected", "less", "based", "auth",
    "authentication", "login", "id", "ids", "name", "names", "type", "types", "scope", "scopes",
    "header", "headers", "value", "values", "store", "stores", "vault", "storage", "leak",
    "leaks", "refresh", "rotation", "expiration", "lifetime", "ttl", "endpoint", "url", "urls",
    "generation", "generator", "helper", "prefix", "suffix", "pair", "pairs", "fingerprint",
    "signature", "ring", "chain", "board", "stroke", "strokes", "word", "words", "note",
    "notes", "entry", "entries", "item", "items", "check", "checks", "validation", "error",
    "errors", "expired", "revoked", "missing", "spray", "spraying", "cracking", "recovery",
    "hint", "hints", "column", "columns", "env", "variable", "variables", "var", "vars", "path",
    "paths", "dir", "directory", "location", "mount", "mounted", "usage", "budget", "budgets",
    "window", "windows", "estimate", "estimates", "cost", "costs", "per", "rate", "rates",
    "economy", "economics", "exchange", "type", "kind", "metric", "metrics", "point", "points",
    "takeaway", "takeaways", "insight", "insights", "feature", "features", "phrase", "layer",
    "layers", "scanner", "scanners", "detector", "detectors", "scanning", "detection", "handling",
})

# Labels in scripts matched as written (CJK has no word spaces, so the hit is the label).
PASSWORD_LABELS = (
    "密码", "密碼", "密語", "口令", "パスワード", "パスフレーズ", "暗証番号", "비밀번호", "암호", "пароль",
    "contraseña",
)
SECRET_LABELS = (
    "密钥", "秘钥", "密鑰", "金鑰", "私钥", "令牌", "授权码", "授權碼", "トークン", "シークレット",
    "秘密鍵", "토큰", "токен", "ключ",
)
WEAK_LABELS = ("キー", "키")
# Words that introduce an account in a login pair (``Login: admin / …``, ``账号 … 密码 …``).
ASCII_PAIR_ANCHORS = ("log", "sign", "cred", "account", "ssh")
PAIR_WORDS = frozenset({"login", "logins", "log in", "logon", "log on", "sign in", "signin", "creds",
                        "credential", "credentials", "account", "accounts", "ssh"})
PAIR_LABELS = ("登录", "登陆", "登入", "账号", "帳號", "帐号", "账户", "ログイン", "アカウント", "로그인", "계정")

# Products whose names contain a label word ("1Password"): never a label themselves.
SECRET_STORES = frozenset({"1password", "onepassword", "lastpass", "keepass", "keepassxc", "passbolt",
                           "gopass", "bitwarden", "dashlane", "passwordstate", "secretsmanager"})
# Values that are references to where the secret is, not the secret (compared in lower case).
REFERENCE_WORDS = frozenset({
    "vault", "1password", "onepassword", "bitwarden", "lastpass", "keepass", "keepassxc",
    "dashlane", "keychain", "keyring", "doppler", "infisical", "passbolt", "pass", "gopass",
    "sops", "kms", "ssm", "secretsmanager", "env", "environment", ".env", "dotenv", "envrc",
    "see", "ask", "same", "n/a", "na", "none", "null", "nil", "empty", "unset", "hidden",
    "required", "optional", "tbd", "todo", "unknown", "redacted", "masked", "removed", "omitted",
    "elsewhere", "below", "above", "attached", "provided", "generated", "random", "prompted",
    "stdin", "whatever", "anything", "something", "nothing",
})
# Defaults shipped by software and used in tutorials: changing them is the point of the note.
DEFAULT_VALUES = frozenset({
    "changeme", "changeit", "change_me", "change-me", "admin", "administrator", "root", "toor",
    "guest", "password", "passw0rd", "p@ssw0rd", "p@ssword", "secret", "s3cret", "test",
    "testing", "tester", "default", "example", "sample", "demo", "postgres", "mysql", "mariadb",
    "mongo", "redis", "rabbitmq", "minioadmin", "elastic", "kibana", "letmein", "welcome",
    "qwerty", "abc123", "123456", "12345678", "123456789", "1234567890", "password1",
    "password123", "admin123", "admin1234", "root123", "test123", "test1234", "pass123",
    "pass1234", "secret123", "user", "username", "foobar",
})
# Words that, with digits, make up tutorial values (``demopassword123``, ``appuser1``).
TUTORIAL_WORDS = frozenset({
    "demo", "app", "user", "users", "my", "db", "test", "sample", "example", "admin", "root",
    "pass", "password", "passwd", "pwd", "secret", "token", "key", "dev", "local", "default",
    "guest", "new", "your", "changeme", "super", "foo", "bar", "baz", "api", "service", "svc",
    "web", "site", "data", "database", "mongo", "mysql", "postgres", "redis", "docker", "tutorial",
})
# First words of a value that is the start of a sentence, not a credential.
STOP_WORDS = frozenset({
    "a", "an", "the", "in", "on", "at", "to", "of", "for", "from", "by", "via", "with", "without",
    "and", "or", "not", "no", "never", "always", "only", "also", "still", "now", "just", "then",
    "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "will", "would",
    "should", "must", "can", "could", "may", "might", "it", "its", "this", "that", "these",
    "those", "their", "your", "our", "my", "his", "her", "we", "you", "they", "he", "she", "i",
    "as", "if", "when", "where", "which", "who", "what", "how", "why", "per", "each", "every",
    "all", "any", "some", "same", "different", "one", "two", "set", "stored", "kept", "managed",
    "shared", "saved", "rotated", "reset", "changed", "updated", "needed", "used", "passed",
    "sent", "shown", "printed", "mounted", "injected", "loaded", "read", "written", "checked",
    "hashed", "encrypted", "masked", "hidden", "invalid", "valid", "expired", "revoked",
    "missing", "long", "short", "strong", "weak", "secure", "insecure",
    "sensitive", "unique", "personal", "private", "public", "temporary", "permanent", "new",
    "old", "current", "previous", "default", "usually", "typically", "normally", "probably",
    "e.g.", "i.e.", "etc", "like", "such", "see", "ask", "use", "check", "get", "put", "run",
    "whatever", "something", "somewhere", "available", "tied", "scoped", "bound", "limited",
    "documented", "described", "listed", "included", "attached", "configured", "defined",
})
# Words that never make up a passphrase: they mark a sentence ("same-as-staging").
FUNCTION_WORDS = frozenset({
    "a", "an", "the", "in", "on", "at", "to", "of", "for", "from", "by", "via", "with", "and",
    "or", "not", "no", "is", "are", "was", "be", "it", "its", "this", "that", "as", "if", "see",
    "ask", "same", "your", "our", "my", "use", "here", "there", "per", "each",
})
# Verbs before "<label> to <value>" that make it an assignment: "set the password to …".
SETTING_VERBS = ("set", "change", "changed", "reset", "update", "updated", "rotate", "rotated",
                 "switch", "switched", "move", "moved")

# URL query parameters and fragments that carry a credential (lower case, exact).
URL_TOKEN_PARAMS = frozenset({
    "token", "access_token", "accesstoken", "auth_token", "authtoken", "refresh_token", "id_token",
    "api_key", "apikey", "api-key", "key", "private_token", "secret", "client_secret",
    "app_secret", "password", "passwd", "pwd", "pass", "auth", "sig", "signature", "jwt",
    "session", "sessionid", "session_id", "sid", "invite", "invite_code", "invite_token",
    "claim", "claim_token", "code_token", "magic", "otp", "x-amz-signature", "x-amz-security-token",
    "x-goog-signature", "x-goog-credential", "security_token", "st", "ticket",
})
# Path words followed by a segment that is a bearer credential (invites, claims, magic links).
URL_TOKEN_PATH_WORDS = frozenset({
    "claim", "claims", "invite", "invites", "invitation", "invitations", "accept-invite",
    "accept_invite", "join", "magic", "magic-link", "magiclink", "reset", "reset-password",
    "password-reset", "reset_password", "verify", "activate", "activation", "confirm", "share",
    "shared", "s", "feed", "feeds", "ical", "private", "secret", "token", "tokens", "webhook",
    "webhooks", "hook", "hooks", "download-token", "onetime", "one-time", "otp",
})
