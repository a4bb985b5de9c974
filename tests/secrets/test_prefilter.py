"""The layer-2 prefilter is sound: every line detect-secrets reports passes it, whatever the text.

Checked against detect-secrets itself (its default plugins, its keyword rules per file type), on
the shared corpora, the project's own prose corpora and seeded random lines built from the
pieces its plugins look for; and the findings of layer 2 are the same with and without it.
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from detect_secrets.core import scan
from detect_secrets.plugins import keyword
from detect_secrets.settings import default_settings, get_filters, get_settings
from detect_secrets.util import filetype

from chord_git.secrets.layer2 import detect, prefilter
from tests.conftest import shared_corpus
from tests.secrets import fakes

DATA = Path(__file__).resolve().parents[1] / "data" / "secrets"
_IP = "Public IP (ipv4)"  # our reports drop these (detect._IGNORED_KINDS)
PIECES = ["password", "secret", "api_key", "Pwd", "AKIA", "aws", "ghp_", "glpat-", "eyJ", "xoxb-", "sk_live_",
          "AccountKey=", "://", "@", ":", "=", " = ", ":=", "'", '"', "`", "(", ")", ";", " ", "-us1", "T3BlbkFJ",
          "SG.", "sq0csp-", "pypi-AgE", "BEGIN RSA PRIVATE KEY", "cloudant", "softlayer", "sl_key", "cl_pw", "AC",
          "SK", "1234567890", ".", "/", "_", "-", "AKC", "APB", "GR1348941", "hooks.slack.com/services/",
          "secret_access_key", "_authToken=", "//reg/:", "contraseña", "db_pass", "\t"]
ALPHABET = "abcdefABCDEF0123456789xyzXYZ+/=_-\\"


@pytest.fixture(params=["project", "shared"])
def corpus_dir(request: pytest.FixtureRequest) -> Path | None:
    """None: the project's own corpora, which every clone holds; a folder: those plus the shared
    corpus, whose tests skip without it outside CI and fail without it under CI."""
    if request.param == "project":
        return None
    return shared_corpus("secrets", "CHORD_CORPUS", holds=("gitleaks.jsonl", "detect_secrets.jsonl"))


def random_lines(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.55:
                parts.append(rng.choice(PIECES))
            else:
                parts.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 70))))
        yield "".join(parts)


def token_lines() -> list[str]:
    tokens = [fakes.AWS_KEY_ID, fakes.GITHUB_CLASSIC, fakes.GITLAB, fakes.SLACK_BOT, fakes.SLACK_WEBHOOK, fakes.DISCORD,
              fakes.TELEGRAM, fakes.TWILIO, fakes.SENDGRID, fakes.STRIPE, fakes.OPENAI, fakes.PYPI, fakes.jwt(),
              fakes.AZURE_ACCOUNT_KEY, fakes.PASSWORD, fakes.body(40, fakes.B64), fakes.body(32, fakes.HEX)]
    forms = ["export TOKEN={}", 'api_key = "{}"', "- the deploy key is `{}`", "password: '{}'", "https://u:{}@host/x",
             "{}  # pragma: allowlist secret", "AccountKey={};"]
    return [form.format(token) for token in tokens for form in forms]


def corpus_lines(corpus: Path | None) -> list[str]:
    root = DATA.parents[2]
    texts = sorted(DATA.glob("*.txt")) + sorted((root / "docs").glob("*.md")) + [root / "README.md", root / "BENCHMARKS.md"]
    lines = [line for path in texts if path.is_file() for line in path.read_text("utf-8").splitlines()]
    lines += token_lines()
    if corpus is not None:
        for name in ("gitleaks.jsonl", "detect_secrets.jsonl", "benign_memory.jsonl"):
            for row in (corpus / name).read_text("utf-8").splitlines():
                if row.strip():
                    lines.extend(json.loads(row)["text"].split("\n"))
    return lines


def reported(lines: list[str], filename: str) -> list[str]:
    """The lines on which detect-secrets alone (default settings) reports something we keep."""
    with default_settings():
        get_settings().disable_filters("detect_secrets.filters.common.is_invalid_file")
        get_filters.cache_clear()
        return [line for line in lines
                if any(s.type != _IP for s in scan._process_line_based_plugins(lines=[(1, line)], filename=filename))]


def test_every_default_plugin_has_a_condition() -> None:
    with default_settings():
        assert set(get_settings().plugins) == prefilter.KNOWN_PLUGINS


def test_keyword_quote_rule_follows_detect_secrets_file_types() -> None:
    unquoted_rules = (keyword.GOLANG_DENYLIST_REGEX_TO_GROUP, keyword.CONFIG_DENYLIST_REGEX_TO_GROUP)
    for extension in (".cls", ".example", ".eyaml", ".go", ".java", ".js", ".m", ".php", ".py", ".pyi", ".swift",
                      ".tf", ".yaml", ".yml", ".cs", ".c", ".cpp", ".cnf", ".conf", ".cfg", ".cf", ".ini",
                      ".properties", ".toml", ".md", ".txt", ""):
        rules = keyword.REGEX_BY_FILETYPE.get(filetype.determine_file_type(f"x{extension}"))
        assert (rules in unquoted_rules) == (extension in prefilter.UNQUOTED_KEYWORD_EXTENSIONS), extension


@pytest.mark.parametrize("filename", ["notes.md", "config.yaml"])
def test_every_reported_line_passes(filename: str, corpus_dir: Path | None) -> None:
    gate = prefilter.default()
    lines = corpus_lines(corpus_dir) + list(random_lines(13, 4000))
    hits = reported(lines, filename)
    assert len(hits) > 150  # the check has teeth: many lines hold findings
    missed = [line for line in hits if not gate.passing(filename, [line])]
    assert missed == []


def test_plain_memory_text_is_kept_from_layer_2() -> None:
    gate = prefilter.default()
    notes = ["- [preference] Use pnpm, never npm, for JS dependencies.",
             "statement: All JS dependency commands use pnpm; no package-lock.json is ever created.",
             'evidence: "this repo only uses pnpm, please never run npm install"',
             "The password policy requires 14+ characters; see docs/security.md.",
             "Deploys go through https://ci.example.com/deploy after review."]
    assert gate.passing("MEMORY.md", notes) == []
    assert gate.passing("MEMORY.md", ['db_password = "x"', "plain", "AKIAIOSFODNN7EXAMPLE"]) == [0, 2]
    assert gate.passing("x.yaml", ["password: hunter2"]) == [0]  # no quotes needed in YAML
    assert gate.passing("x.md", ["password: hunter2"]) == []  # markdown needs a quoted value
    assert gate.passing("x.md", ["see https://user:pw@host/x"]) == [0]
    assert gate.passing("x.md", ["mail me@host, then see https://host/x"]) == []  # '@' before '://'


def test_pragma_lines_and_gaps_keep_the_allowlist_filter_right() -> None:
    lines = [(1, "plain"), (2, "# pragma: allowlist nextline secret"), (3, 'api_key = "aaaaaaaaaaaa"'),
             (4, "plain"), (5, "plain"), (6, 'token "AKIAIOSFODNN7EXAMPLE"')]
    picked = prefilter.layer2_lines(prefilter.default(), "x.md", lines)
    assert picked == [(1, lines[1][1]), (2, lines[2][1]), (None, ""), (5, lines[5][1])]
    assert prefilter.layer2_lines(None, "x.md", lines) == [(i, text) for i, (_, text) in enumerate(lines)]


def test_layer_2_findings_are_the_same_with_and_without_the_prefilter(corpus_dir: Path | None) -> None:
    rng = random.Random(7)
    pool = corpus_lines(corpus_dir) + list(random_lines(7, 2000))
    pragmas = ["# pragma: allowlist secret", "<!-- pragma: allowlist nextline secret -->", "plain words"]
    files: dict[str, list[tuple[int, str]]] = {}
    for number in range(60):
        texts = [rng.choice(pool) if rng.random() < 0.7 else rng.choice(pragmas) for _ in range(40)]
        files[f"f{number}.md"] = list(enumerate(texts, start=1))
    units = list(files.items())
    whole = detect.scan_units(units, None)
    gate = prefilter.default()
    picked = [(path, [(0 if i is None else lines[i][0], text) for i, text in part])
              for (path, lines), part in zip(units, prefilter.layer2_parts(gate, units))]
    contexts: list[str | None] = ["\n".join(text for _, text in lines) for _, lines in units]
    # Enough findings for the comparison to mean something: the project's own lines give about 27,
    # the shared corpus about 40 more; the exact count follows the docs and benchmarks drawn from.
    assert sum(map(len, whole[0])) > (30 if corpus_dir is not None else 15)
    assert detect.scan_units(picked, None, contexts) == whole


def _cpu(gate: prefilter.Prefilter, text: str) -> float:
    start = time.process_time()
    gate.passing("x.md", [text])
    return time.process_time() - start


@pytest.mark.parametrize("unit", ["a" * 43 + " ", "://", "'" + "A" * 30, "password" * 3 + " ", "x.abcdef.", "12345678:",
                                  "ACAC", '"ab', "A3T" * 5])
def test_the_prefilter_is_linear(unit: str) -> None:
    gate = prefilter.default()
    small = unit * (200_000 // len(unit))
    large = unit * (800_000 // len(unit))
    ratio = min(_cpu(gate, large) for _ in range(3)) / max(min(_cpu(gate, small) for _ in range(3)), 1e-4)
    assert ratio < 10  # 4x the text; a quadratic pattern would take 16x


def test_aws_and_private_key_lines_pass_and_their_near_misses_do_not() -> None:
    """The AWS and private-key conditions are those plugins' own patterns: what they report
    passes, and a line that only names AWS or a key stays with layer 1."""
    gate = prefilter.default()
    secret = fakes.body(40, fakes.B64)
    reports = [f'aws_secret_access_key = "{secret}"', f"AWS token: '{secret}'", f"my aws pw is '{secret}'",
               "-----BEGIN OPENSSH PRIVATE KEY-----", "BEGIN SSH2 ENCRYPTED PRIVATE KEY", "x BEGIN PRIVATE KEY",
               "PuTTY-User-Key-File-2: ssh-rsa", "id " + fakes.AWS_KEY_ID]
    for filename in ("notes.md", "config.yaml"):
        assert reported(reports, filename) == reports
    assert [n for n, line in enumerate(reports) if gate.passing("notes.md", [line])] == list(range(len(reports)))
    quiet = ["the aws account is prod", "AWS keys rotate monthly", "PRIVATE KEY files live in the vault",
             "a KEY of the map", "AKIA prefixes mark access key ids"]
    assert reported(quiet, "notes.md") == []
    assert gate.passing("notes.md", quiet) == []


def test_the_keyword_condition_is_the_keyword_pattern_on_the_line() -> None:
    rng = random.Random(5)
    words = ["api_key", "APIKEY", "Database_Pass", "key_pass", "PassWD", "pwd", "sEcReT", "contrasena", "contraseña",
             "CONTRASEÑA", "private_Key", "client_key", "\u212aey", "\u017fecret", "ke", "pas", "_", "x", " ", "'"]
    for _ in range(5000):
        line = "".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        assert prefilter._has_keyword(line) == (prefilter._KEYWORDS.search(line) is not None), line
