"""Credentials in markup, links, command lines and continued lines (issue 33 item 3), as data.

Four classes, each with a dev set (what the rules were tuned on), a held-out set (written with
the dev set, before the rules, and not looked at while tuning) and hard negatives beside them
(the same shapes holding no secret). Templates take ``{v}`` (a typed password), ``{w}`` (a weak
human password), ``{t}`` (a generated token), ``{t24}``/``{t40}`` (tokens of that length), and
``{a}``/``{b}`` (the two halves of a token written as two string literals). Values are built from
a seeded hash, so the repository holds no credential and every run sees the same set.
"""
from __future__ import annotations

import hashlib
import string
from collections.abc import Iterator
from typing import NamedTuple

_ALNUM = string.ascii_letters + string.digits
_WEAK = ("Winter2024!", "Summer#2023", "Passw0rd!2024", "Autumn-2025x", "Spring2022$")


class Case(NamedTuple):
    cls: str
    text: str
    value: str  # '' for a negative


def _token(seed: str, size: int) -> str:
    out, counter = "", 0
    while len(out) < size:
        out += "".join(_ALNUM[b % len(_ALNUM)] for b in hashlib.sha256(f"{seed}/{counter}".encode()).digest())
        counter += 1
    return out[:size]


def _password(seed: str) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    core = "".join(_ALNUM[b % len(_ALNUM)] for b in digest[:11])
    return core[:3] + "QZ"[digest[12] % 2] + "37"[digest[13] % 2] + "!@%*"[digest[14] % 4] + core[3:]


DEV: dict[str, tuple[str, ...]] = {
    "markup": (
        '<input type="password" name="pw" value="{w}" />',
        '<div class="w" data-token="{t}"></div>',
        '<button data-api-key="{t}">Send</button>',
        "![password: {v}](img.png)",
        "[^1]: password is {v}",
        "The DB password[^db] rotates monthly.\n\n[^db]: {v}",
        '<entry key="password">{v}</entry>',
        '<add key="ApiKey" value="{t}"/>',
        '<property name="db.password">{w}</property>',
        "type <kbd>{v}</kbd> as the password",
        "<details><summary>staging password</summary>{v}</details>",
    ),
    "url": (
        "https://app.example.com/app#password={v}",
        "open https://example.com/login?pass={w} in a browser",
        "https://api.example.com/feed?x=1&access_token={t}",
        "https://hooks.example.com/services/T000/B000/{t24}",
        "https://discord.com/api/webhooks/112233445566778899/{t}",
        "https://ci.example.com/webhook/{t}",
        "https://git.example.com/hooks/{t40}",
    ),
    "cli": (
        "vault login {t}",
        'gh auth login --with-token <<< "{t}"',
        "echo {t} | gh auth login --with-token",
        "docker login -u ci -p {w} registry.example.com",
        "npm config set //registry.npmjs.org/:_authToken {t}",
        "az login -u bob@example.com -p {v}",
        "deployctl push --token {t}",
        "./sync.sh --api-key={t}",
        "backup-tool --password {w} --target s3://bkp",
    ),
    "continuation": (
        "export API_TOKEN=\\\n  {t}",
        'export DB_PASSWORD=\\\n    "{v}"',
        "ENV API_KEY=\\\n    {t}",
        "api_token: >-\n  {t}\n",
        'token = "{a}" "{b}"',
        'api_key = "{a}" + "{b}"',
        "const secret = '{a}' +\n  '{b}';",
    ),
}

HELDOUT: dict[str, tuple[str, ...]] = {
    "markup": (
        '<input value="{w}" type="password">',
        '<meta name="api-key" content="{t}">',
        '<img src="x.png" alt="root password: {v}">',
        "![the admin password is {w}](screenshot.png)",
        "[^pw]: the wifi password: {v}",
        '<entry key="api.token">{t}</entry>',
        '<add key="DbPassword" value="{v}" />',
        '<property name="secret.key" value="{t}"/>',
        '<param name="password" value="{v}"/>',
        "password: <kbd>{v}</kbd>",
        "<details>\n<summary>Prod DB password</summary>\n\n{v}\n</details>",
        '<span data-secret="{t}"></span>',
    ),
    "url": (
        "https://grafana.example.com/#/login?password={v}",
        "http://router.local/cgi?user=admin&passwd={w}",
        "https://api.example.com/items?refresh_token={t}",
        "https://auth.example.com/cb#state=xyz&access_token={t}&token_type=bearer",
        "https://hooks.example.net/services/TABC123/BDEF456/{t24}",
        "https://discordapp.com/api/webhooks/987654321098765432/{t}",
        "curl -X POST https://example.com/hooks/{t}",
        "https://automation.example.org/api/webhook/{t40}",
    ),
    "cli": (
        "vault login s.{t24}",
        "printf '%s' \"{t}\" | gh auth login --with-token",
        'npm config set "//npm.pkg.github.com/:_authToken" "{t}"',
        "podman login -u ci -p {w} quay.io",
        "cli deploy --token {t} --env prod",
        "sentry-cli --auth-token {t} releases new 1.0",
        "vercel deploy --prod --token={t}",
        "az login --service-principal -u http://app -p {v} --tenant contoso",
        'pgsync --password "{v}" --from prod',
    ),
    "continuation": (
        "export SLACK_SIGNING_SECRET=\\\n  {t}",
        "ENV DB_PASSWORD \\\n    {v}",
        'password = ("{a}"\n            "{b}")',
        'API_KEY = "{a}" "{b}"',
        'let token = "{a}" + "{b}";',
        "client_secret: >-\n    {t}\n",
    ),
}

# A second held-out set, written after the first had been read once (one rule was fixed on it:
# parentheses that group adjacent literals), and before the rules were run on this one.
HELDOUT_B: dict[str, tuple[str, ...]] = {
    "markup": (
        '<input type="password" class="form-control" id="pw" value=\'{v}\'>',
        '<add key="StripeSecretKey" value="{t}" />',
        '<entry key="smtp.password">{w}</entry>',
        '<setting name="AuthToken" serializeAs="String"><value>{t}</value></setting>',
        '<div id="app" data-auth-token="{t}" data-user="bob"></div>',
        "Log in as admin and enter <kbd>{w}</kbd> for the password.",
        "<details>\n  <summary>VPN passphrase</summary>\n  <code>{v}</code>\n</details>",
        "See the API token[^tok] for the staging box.\n\n[^tok]: `{t}`",
        '<prop key="jdbc.password">{v}</prop>',
        '<property name="client_secret" value="{t}"/>',
    ),
    "url": (
        "https://portal.example.com/sso#access_token={t}&expires_in=3600",
        "ftp-sync://files.example.com/upload?user=ops&pwd={w}",
        "https://hooks.example.io/services/T9X8Y7Z6/B5W4V3U2/{t24}",
        "POST https://chat.example.com/hooks/{t}",
        "https://status.example.com/embed?session=1&auth_token={t}",
        "https://example.com/login?password={w}&remember=1",
    ),
    "cli": (
        "vault login -no-print {t}",
        "cat <<< \"x\"; echo '{t}' | gh auth login --hostname github.example.com --with-token",
        "docker login --username ci --password {v} ghcr.io",
        "yarn config set npmAuthToken {t}",
        "aws configure set aws_secret_access_key {t}",
        "pnpm config set //npm.example.com/:_authToken={t}",
        "terraform-runner apply --api-token {t}",
        "helm repo add internal https://charts.example.com --username ci --password {w}",
    ),
    "continuation": (
        "docker run -e API_TOKEN=\\\n    {t} alpine env",
        "export GITLAB_TOKEN=\\\n{t}",
        'SECRET_KEY = "{a}" \\\n    "{b}"',
        "const apiKey = '{a}'\n  + '{b}';",
        'client_secret = "{a}" "{b}"  # two halves',
    ),
}

NEGATIVES_B: dict[str, tuple[str, ...]] = {
    "markup": (
        '<input type="password" value="{{{{ form.password.value }}}}">',
        '<add key="ApiKeyHeaderName" value="X-Api-Key"/>',
        '<entry key="password">********</entry>',
        "Enter <kbd>Tab</kbd> to move to the password field.",
        "<details><summary>Password rules</summary>At least 12 characters.</details>",
        '<meta name="csrf-token" content="b9f7a8c6d5e4f3a2b1c0d9e8f7a6b5c4">',
        "The token[^2] expires after an hour.\n\n[^2]: RFC6749",
    ),
    "url": (
        "https://example.com/account#change-password",
        "https://example.com/signup?pass=true&next=%2Fhome",
        "https://hooks.example.com/services/",
        "https://example.com/auth?access_token=YOUR_ACCESS_TOKEN",
        "https://example.com/docs/webhooks/getting-started",
    ),
    "cli": (
        "vault login -method=oidc role=dev",
        "echo 'see the docs' | gh auth login --with-token",
        "npm config set registry https://registry.example.com/",
        "aws configure set region eu-west-1",
        "yarn config set npmAuthToken \"${{NPM_AUTH_TOKEN}}\"",
        "tool --token-ttl 3600 --api-key-header X-Api-Key",
    ),
    "continuation": (
        "export CFLAGS=\\\n  -O2",
        "ENV PATH=\\\n    /opt/bin:$PATH",
        'label = "Password" " (required)"',
        'print("token" + "s")',
        "const url = base + '/api/' + 'v2';",
    ),
}

NEGATIVES: dict[str, tuple[str, ...]] = {
    "markup": (
        '<input type="password" value="{{{{ password }}}}">',
        '<input type="password" value="">',
        '<input type="password" placeholder="Password" value="${{pw}}">',
        '<div data-token-ttl="3600"></div>',
        '<img alt="password field screenshot" src="pw.png">',
        "![password field screenshot](img.png)",
        "[^1]: password is required for all accounts",
        "The password[^1] must be rotated.\n\n[^1]: See the security policy.",
        '<entry key="password">${{DB_PASSWORD}}</entry>',
        '<add key="ApiKey" value="%API_KEY%"/>',
        '<property name="db.password">${{db.password}}</property>',
        "press <kbd>Enter</kbd> after typing the password",
        "type <kbd>Ctrl</kbd>+<kbd>C</kbd> to cancel the password prompt",
        "<details><summary>staging password</summary>Ask in #ops, it is in the vault.</details>",
        '<add key="PasswordMinLength" value="12"/>',
        '<entry key="password.policy">strict</entry>',
        '<button data-action="reset-password">Reset</button>',
    ),
    "url": (
        "https://app.example.com/docs#section-password-reset",
        "https://example.com/login?pass=<your-password>",
        "https://example.com/login?password={{{{password}}}}",
        "https://app.example.com/home;jsessionid=A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6",
        "https://example.com/webhook/settings",
        "https://docs.example.com/hooks/pre-commit-configuration",
        "https://example.com/api/webhooks/{{id}}/{{token}}",
        "curl https://api.example.com/x?access_token=$ACCESS_TOKEN",
        "https://example.com/webhook/github-push-events-handler",
        "https://example.com/#password=",
        "https://example.com/hooks/useEffectCleanupExample",
    ),
    "cli": (
        "vault login -method=github",
        "vault login -method=userpass username=bob",
        "echo $GH_TOKEN | gh auth login --with-token",
        "gh auth login --with-token < token.txt",
        "docker login -u bob --password-stdin",
        "cli deploy --token $TOKEN",
        'cli deploy --token "${{{{ secrets.DEPLOY_TOKEN }}}}"',
        "mytool --api-key=<YOUR_API_KEY>",
        "npm config set //registry.npmjs.org/:_authToken ${{NPM_TOKEN}}",
        "tool --token-file ~/.config/token",
        "tool --password-file /run/secrets/pw",
        "HEROKU_API_KEY=$(heroku auth:token) make deploy",
        "kubectl create secret generic db --from-file=password=./pw.txt",
        "tool --api-key=$(cat key.txt)",
        "tool --password --verbose",
        "gh auth token",
    ),
    "continuation": (
        "export PATH=\\\n  /usr/local/bin:$PATH",
        "export API_TOKEN=\\\n  $(vault read -field=token secret/ci)",
        'export API_TOKEN=\\\n  "$CI_TOKEN"',
        "RUN apt-get update && \\\n    apt-get install -y curl",
        'token = "Bearer " + token_value',
        'password = "pass" + "word"',
        'msg = "Your token " "has expired"',
        "api_key: >-\n  {{{{ lookup('env', 'API_KEY') }}}}\n",
        "export TOKEN_FILE=\\\n  /run/secrets/api_token",
        'url = "https://api.example.com/" + "v1/tokens"',
        "export API_TOKEN=\\\n  deploy --env prod",
    ),
}


def _fill(template: str, seed: str, index: int) -> tuple[str, str]:
    token = _token(seed, 40)
    fields = {"v": _password(seed), "w": _WEAK[index % len(_WEAK)], "t": token, "t24": _token(seed, 24),
              "t40": token, "a": token[:20], "b": token[20:]}
    used = next(name for name in ("a", "t24", "t40", "t", "w", "v") if "{" + name + "}" in template)
    value = token if used in ("a", "t40") else fields[used]
    return template.format(**fields), value


def cases(table: dict[str, tuple[str, ...]], tag: str) -> Iterator[Case]:
    for cls, templates in table.items():
        for i, template in enumerate(templates):
            text, value = _fill(template, f"{tag}/{cls}/{i}", i)
            yield Case(cls, text, value)


def negatives(table: dict[str, tuple[str, ...]] = NEGATIVES) -> Iterator[Case]:
    for cls, texts in table.items():
        for text in texts:
            yield Case(cls, text.format(), "")


__all__ = ["Case", "DEV", "HELDOUT", "HELDOUT_B", "NEGATIVES", "NEGATIVES_B", "cases", "negatives"]
