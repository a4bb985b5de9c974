"""The prose layer rule by rule: labels, bridges, tables, pairs, command lines, links, values."""
from __future__ import annotations

import pytest

from chord_git.secrets import find, redact, scan_added_lines
from chord_git.secrets.words import vocab
from chord_git.secrets.scanners.commands import TOOL_RULES
from chord_git.secrets.verdicts.examples import DOCUMENTATION_EXAMPLES
from chord_git.secrets.verdicts.values import credential_value

from . import fakes as f

PW = f.join("Qx7", "!mK2", "zP9")  # a typed password
TOKEN = f.body(32, seed=51)


def _values(text: str) -> list[str]:
    return [text[x.start:x.end] for x in find(text)]


# (id, text, the value that must be reported)
FOUND = [
    ("sentence-is", f"The staging password is {PW}.", PW),
    ("sentence-filler", f"The password for the build box we share is {PW}", PW),
    ("changed-to", f"I changed the Redis password to {PW} yesterday", PW),
    ("set-to", f"Set the admin password to `{PW}` first.", PW),
    ("bold-label", f"**Password:** {PW}", PW),
    ("bold-value", f"- Password: **{PW}**", PW),
    ("quoted", f'The password "{PW}" works everywhere', PW),
    ("curly-quotes", f"The password \u201c{PW}\u201d works everywhere", PW),
    ("arrow", f"Root password \u2192 {PW}", PW),
    ("dash", f"* Password \u2014 {PW}", PW),
    ("parenthetical", f"Database password (read replica) = {PW}", PW),
    ("parenthetical-url", f"The password (for https://db.example.com/admin): {PW}", PW),
    ("use-as", f"Use {PW} as the root password.", PW),
    ("type-after-comma", f"When asked for the password, type {PW}.", PW),
    ("table-label-cell", f"| Password | {PW} |", PW),
    ("table-header-column", f"| host | user | password |\n|---|---|---|\n| db1 | root | {PW} |", PW),
    ("passphrase", "vpn_passphrase: quiet-lemon-forest-stairs", "quiet-lemon-forest-stairs"),
    ("quoted-passphrase", 'The backup passphrase is "amber lantern drift 1987".', "amber lantern drift 1987"),
    ("api-key-sentence", f"the api key for staging is {TOKEN}", TOKEN),
    ("weak-key-random", f"Our geocoder key: {TOKEN}", TOKEN),
    ("bearer-in-prose", f"The partner expects Bearer {TOKEN} on every call.", TOKEN),
    ("aws-near", f"AWS secret for the uploader: {f.body(40, f.B64, seed=52)}", f.body(40, f.B64, seed=52)),
    ("zh-is", f"测试库密码是 {PW}，别外传", PW),
    ("zh-colon", f"密码：{PW}", PW),
    ("zh-use-as", f"用 {PW} 作为新密码", PW),
    ("zh-set", f"请把密码设置为 {PW}", PW),
    ("zh-corner-quotes", f"初始密码为「{PW}」", PW),
    ("zh-token-label", f"令牌：{TOKEN}", TOKEN),
    ("ja-wa", f"パスワードは {PW} です。", PW),
    ("ja-wo", f"パスワードを {PW} に変更しました", PW),
    ("pair-slash", f"Login: admin / {PW}", PW),
    ("pair-colon", f"creds are bob:{PW}", PW),
    ("pair-as-with", f"Sign in as qa@example.com with {PW}", PW),
    ("pair-zh", f"后台登录账号密码：admin/{PW}", PW),
    ("pair-spaced-slash", f"Postgres (prod): app_user / {PW}", PW),
    ("pair-stock-account", f"admin:{PW} on the staging Jenkins", PW),
    ("pair-in-parentheses", f"Jenkins (admin / {PW}) on the build box", PW),
    ("filler-to", f"The password to the test account is {PW}", PW),
    ("word-digits-after-colon", "Wifi: HomeNet / pw: sunflower-42", "sunflower-42"),
    ("diceware-quoted", 'the passphrase for the ssh key is "correct horse battery staple"',
     "correct horse battery staple"),
    ("set-as", f"I set the db password as {PW}", PW),
    ("pair-test-account", "- Test user credentials: `test@example.com` / `TestPass123!`", "TestPass123!"),
    ("pair-login-for", "- Admin login for local dev: admin@example.com / Admin123!", "Admin123!"),
    ("value-in-parentheses", f"- Staging (user: qa, password: {PW})", PW),
    ("comma-filler", f"The new DB password, as agreed in chat, is {PW}", PW),
    ("app-password", "Gmail app password: qwkr zpmt hxvb ncfd", "qwkr zpmt hxvb ncfd"),
    ("table-header-qualified-zh", f"| 环境 | 数据库密码 |\n|---|---|\n| 测试 | {PW} |", PW),
    ("cli-mysql-glued", f"mysql -h db -u app -p{PW} shop", PW),
    ("cli-sshpass", f"sshpass -p '{PW}' ssh ops@host", PW),
    ("cli-docker-login", f"docker login -u bot -p {PW} registry.example.com", PW),
    ("cli-redis", f"redis-cli -h cache -a {PW} ping", PW),
    ("cli-sqlcmd", f"sqlcmd -S db -U sa -P '{PW}'", PW),
    ("cli-openssl", f"openssl pkcs12 -export -passout pass:{PW}", PW),
    ("cli-smbclient", f"smbclient //fs/share -U alice%{PW}", PW),
    ("cli-htpasswd", f"htpasswd -b -c .htpasswd admin {PW}", PW),
    ("cli-echo-stdin", f"echo '{PW}' | docker login --username bot --password-stdin ghcr.io", PW),
    ("cli-tool-after-prose", f"连接 MySQL：mysql -u root -p{PW}", PW),
    ("cli-after-a-long-sentence", "When the bastion rejects keys again, which happens after every rotation of the "
     "host certificates on the first Monday of the month and nobody on the team remembers why, and the on-call "
     "person is asleep or on a train with no signal, the quickest way back in is to log in with "
     f"sshpass -p '{PW}' ssh ops@bastion", PW),  # over 40 words before the tool
    ("url-query", f"https://api.example.com/v1/items?city=x&apikey={TOKEN}", TOKEN),
    ("url-fragment", f"https://example.com/cb#access_token={TOKEN}&type=bearer", TOKEN),
    ("url-invite-path", f"https://chat.example.com/invite/{TOKEN}", TOKEN),
    ("url-password-param", f"https://api.example.com/send?user=ops&password={PW}", PW),
]

CLEAN = [
    "The staging password lives in the vault under staging/postgres.",
    "Password: see 1Password, item Prod DB.",
    "password: ${POSTGRES_PASSWORD}",
    "password: <your password>",
    "The default password `changeme` must be replaced.",
    "The token expires after 90 days.",
    "Passwords must have 12 characters, a digit and a symbol.",
    "The password manager is Bitwarden; the password policy is in the wiki.",
    "Set max_tokens to 4096; prompt tokens are billed separately.",
    "The primary key is (tenant_id, id); the routing key is orders.created.",
    "session key: 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d (load balancer stickiness)",
    "Use the `secrets` module, not `random`, for tokens.",
    "Pass `--frozen-lockfile` to pnpm in CI.",
    "pass `capture_all=True` to record headers",
    "mysql -u app -p app_db < schema.sql",
    "sshpass -p \"$SSHPASS\" ssh deploy@bastion",
    "docker login -u \"$USER\" -p \"$REGISTRY_PASSWORD\" registry.example.com",
    "echo $TOKEN | docker login ghcr.io -u bot --password-stdin",
    "docker run -p 8080:80 nginx",
    "Never use `-p<password>` with mysql.",
    "https://example.com/download?version=2.3.1&key=latest",
    "https://example.com/invite/how-it-works",
    "Reset links look like https://app.example.com/reset?token=<token>.",
    "The default login is admin / admin; change it before exposing the port.",
    'print(f"{size / seconds:6.1f} MB/s, {size / 1e6 / cpu:5.1f} MB/s CPU, {hits / tot4l:.2f}")',
    'print(f"{admin:>10} {root:<8}")',
    'ToolRule(("rabbitmqctl",), positional=("change_password", 1), source="rabbitmqctl change_password")',
    'The "password" field, 2 of 3, is optional.',
    'page = bin_dir.parent / "share/man/man1/git-memory.1"',
    "ghostwriter looks for pairs of functions to pass to :func:`~roundtrip`,",
    "Command line arguments to pass to :py:func:`pytest.main`.",
    "our_role: If you're implementing a client, pass :data:`h11.CLIENT`. If",
    '"""Consume a token that :meth:`peek` returned at the current position."""',
    "    username, password = self.auth_decoded",
    "    username, password = parsed.auth_decoded",
    "user = User(username='scolvin', password=b'password1')",
    "secret = r'([a-z0-9]{64})'",
    "common = Path(lines[1]) if Path(lines[1]).is_absolute() else (start / lines[1])",
    'f"      * {100 * v / len(cases):.2f}%, {k}"',
    "# aws models\nclass V1OrganizationExternalKeysPostRequestGcp(TypedDict, total=False):",
    "git+ssh://user@hostname:project.git#commit-ish",
    "The SSH key fingerprint is SHA256:" + f.body(43, f.B64, seed=53) + " (public).",
    "Tutorial DB user demo with password `demopassword123` is local only.",
    "密码存在 Vault 里，不要写进仓库。",
    "密码：见飞书文档《测试环境账号》",
    "请使用 `--password-stdin` 传入密码。",
    "パスワードは8文字以上にしてください。",
    "トークンは環境変数 API_TOKEN から読み込む。",
    "[Pre-shared keys]: #pre-shared-keys",
    "6. **Secrets:** acme/memory#277 discusses plaintext passwords",
    "in `node::credentials::HasOnly`",
    "| Matcher type | Condition to pass |\n|---|---|\n| `string` | Exact match against string |",
    "The two secret layers are chord-git's own sanitizer and detect-secrets.",
    "Remember to rotate the API key every quarter; the password needs to be changed by Friday.",
    "secret: stored in AWS Secrets Manager (arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db)",
    "src/main.py / tests/test_main.py",
    "Set the password as an env var, never in code.",
    "The token as returned by /auth is short-lived.",
    "Password: in the envelope on Sam's desk.",
    '`curl -H "Authorization: Bearer $TOKEN" localhost:3000/api/me`',
    "| Variable | Description | Example |\n|---|---|---|\n| `JWT_SECRET` | Secret used to sign tokens | "
    "`change-me-in-prod` |\n| `DATABASE_URL` | connection | `postgres://user:pass@localhost:5432/db` |",
]


@pytest.mark.parametrize("text, value", [(t, v) for _, t, v in FOUND], ids=[i for i, _, _ in FOUND])
def test_value_is_found(text: str, value: str) -> None:
    assert value in _values(text), _values(text)
    assert value not in redact(text)


@pytest.mark.parametrize("text", CLEAN)
def test_talk_is_not_a_finding(text: str) -> None:
    assert _values(text) == []


def test_only_the_value_is_redacted() -> None:
    assert redact(f"The staging password is {PW}.") == "The staging password is [REDACTED:password-in-text]."
    assert redact(f"mysql -uroot -p{PW} db") == "mysql -uroot -p[REDACTED:password-in-command] db"
    assert redact(f"Login: admin / {PW}") == "Login: admin / [REDACTED:login-credentials]"


def test_both_layers_report_prose_credentials_on_their_line() -> None:
    lines = [(3, "notes"), (4, f"The staging password is {PW}."), (9, f"https://chat.example.com/invite/{TOKEN}")]
    hits = scan_added_lines({"MEMORY.md": lines})
    assert [(h.line, h.kind) for h in hits] == [(4, "password-in-text"), (9, "token-in-url")]


@pytest.mark.parametrize("value, label, expected", [
    (PW, vocab.PASSWORD, True),
    ("hunter7-Zq!", vocab.PASSWORD, True),
    ("maple-river-lantern-42", vocab.PASSWORD, True),
    ("expires", vocab.PASSWORD, False),
    ("changeme", vocab.PASSWORD, False),
    ("Passw0rd", vocab.PASSWORD, False),
    ("admin123", vocab.PASSWORD, False),
    ("Admin123!", vocab.PASSWORD, True),
    ("appuserpass456", vocab.PASSWORD, False),
    ("${DB_PASSWORD}", vocab.PASSWORD, False),
    ("<TOKEN>", vocab.SECRET, False),
    ("********", vocab.PASSWORD, False),
    ("1Password", vocab.PASSWORD, False),
    ("settings.DATABASE_PASSWORD", vocab.PASSWORD, False),
    ("same-as-staging", vocab.PASSWORD, False),
    (TOKEN, vocab.WEAK, True),
    (PW, vocab.WEAK, False),
    ("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", vocab.SECRET, True),
    ("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", vocab.WEAK, False),
    ("checkout-v2-rollout", vocab.SECRET, False),
])
def test_value_test(value: str, label: str, expected: bool) -> None:
    assert credential_value(value, label) is expected


def test_direct_values_need_a_stronger_shape() -> None:
    assert credential_value("hunter22", vocab.PASSWORD)
    assert not credential_value("hunter22", vocab.PASSWORD, direct=True)
    assert credential_value("hunter22", vocab.PASSWORD, direct=True, quoted=True)


def test_every_command_rule_cites_its_tool() -> None:
    assert all(rule.source and rule.tools for rule in TOOL_RULES)


def test_every_documentation_example_cites_a_source() -> None:
    assert all(e.source.startswith("https://") and e.what for e in DOCUMENTATION_EXAMPLES)
