"""Vendor tokens without a label, and the script that lists the prefixes layer 1 misses.

``bench/vendor_prefixes.py`` reads gitleaks' config and TruffleHog's detectors where they are;
here it reads a small fixture of each (a file tree and a git repository), so that a change to
its parsing cannot silently turn every prefix into a known one or drop them all.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.secrets import find, redact

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench import vendor_prefixes  # noqa: E402

# One token per vendor, built from its documented shape (no live value).
_BODY = "Zq8xR2mK7vN4pL9wT3bY6cH1dF5gJ0sA"
VENDOR_TOKENS = {
    "openrouter-api-key": "sk-or-v1-" + "3f9a2c17be04d6a8" * 4,
    "groq-api-key": "gsk_" + (_BODY * 2)[:52],
    "replicate-api-token": "r8_" + (_BODY * 2)[:37],
    "google-oauth-token": "ya29.a0AfB_byC" + _BODY + "Xk2-Lw",
    "stripe-key": "whsec_" + _BODY,
    "notion-token": "ntn_" + "48151623420" + (_BODY * 2)[:35],
    "figma-token": "figd_" + (_BODY * 2)[:43],
    "google-oauth-client-secret": "GOCSPX-" + _BODY[:28],
    "ionic-token": "ion_" + (_BODY * 2)[:42],
    "mongodb-atlas-secret": "mdb_sa_sk_" + (_BODY * 2)[:40],
    "nuget-api-key": "oy2" + (_BODY.lower() * 2)[:43],
    "dependency-track-key": "odt_" + _BODY,
    "stackhawk-api-key": "hawk." + _BODY[:20] + "." + _BODY[12:32],
    "teamwork-token": "tkn.v1_" + (_BODY * 3)[:71] + "=",
    "ecostruxure-it-key": "AK1" + (_BODY * 2)[:52],
}


@pytest.mark.parametrize("kind", sorted(VENDOR_TOKENS))
def test_a_vendor_token_without_a_label_is_redacted(kind: str) -> None:
    token = VENDOR_TOKENS[kind]
    text = f"ran the smoke test with {token} and it worked"
    assert [s.kind for s in find(text)] == [kind]
    assert redact(text) == f"ran the smoke test with [REDACTED:{kind}] and it worked"


def test_a_word_that_starts_like_a_prefix_is_not_a_token() -> None:
    for text in ("the r8_pipeline job", "gsk_ is Groq's prefix", "see ya29.x docs", "whsec_ secrets rotate"):
        assert find(text) == [], text


_GITLEAKS = """
title = "fixture"
[[rules]]
id = "github-pat"
regex = '''ghp_[0-9a-zA-Z]{36}'''
[[rules]]
id = "zzvendor-token"
regex = '''\\b(zzv1_(?i)[a-z0-9]{32})(?:[\\x60'"\\s;]|$)'''
[[rules]]
id = "context-only"
regex = '''(?i)[\\w.-]{0,50}?(?:adafruit)(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|:)([a-z0-9_-]{32})'''
[[rules]]
id = "two-heads"
regexes = ['''\\b((?:qqa|qqb)_[a-f0-9]{40})\\b''']
"""

_DETECTOR = """package groq

var keyPat = regexp.MustCompile(`\\b(gsk_[a-zA-Z0-9]{52})\\b`)
var other = regexp.MustCompile(`\\b(yyw-[0-9a-f]{64})\\b`)
var ctx = regexp.MustCompile(detectors.PrefixRegex([]string{"vendor"}) + `\\b([a-z0-9]{32})\\b`)
"""


def _fixture(root: Path) -> tuple[Path, Path]:
    config = root / "gitleaks" / "config" / "gitleaks.toml"
    config.parent.mkdir(parents=True)
    config.write_text(_GITLEAKS, encoding="utf-8")
    detector = root / "trufflehog" / "pkg" / "detectors" / "groq" / "groq.go"
    detector.parent.mkdir(parents=True)
    detector.write_text(_DETECTOR, encoding="utf-8")
    (detector.parent / "groq_test.go").write_text("var t = regexp.MustCompile(`zzt_[a-z]{9}`)\n", encoding="utf-8")
    return config, root / "trufflehog" / "pkg" / "detectors"


def test_prefixes_are_read_from_the_rule_sets(tmp_path: Path) -> None:
    config, detectors = _fixture(tmp_path)
    assert set(vendor_prefixes.gitleaks_prefixes(config)) == {"ghp_", "zzv1_", "qqa_", "qqb_"}
    assert vendor_prefixes.trufflehog_prefixes(detectors) == {"gsk_": "groq", "yyw-": "groq"}


_KINGFISHER = """rules:
  - name: Acme Secret Key
    id: kingfisher.acme.1
    pattern: |
      (?xi)
      \\b
      acme
      (?:.|[\\n\\r]){0,32}?   # the vendor's name before the token
      \\b
      (
        zzq_[A-Za-z0-9]{43}
      )
      \\b
  - name: Plain
    id: kingfisher.plain.1
    pattern: '\\b(qx9-[0-9a-f]{32})\\b'
"""


def test_prefixes_are_read_from_kingfisher_rules(tmp_path: Path) -> None:
    rules = tmp_path / "data" / "rules"
    rules.mkdir(parents=True)
    (rules / "acme.yml").write_text(_KINGFISHER, encoding="utf-8")
    assert vendor_prefixes.kingfisher_prefixes(rules) == {"zzq_": "kingfisher.acme.1", "qx9-": "kingfisher.plain.1"}


def test_the_missing_prefixes_are_those_layer1_does_not_know(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, detectors = _fixture(tmp_path)
    assert vendor_prefixes.missing(["ghp_", "zzv1_", "gsk_", "sk-or-v1-", "yyw-", "qqa_"]) == ["qqa_", "yyw-", "zzv1_"]
    # A longer known form covers a short prefix; a short known one (``sk-``) does not cover a longer.
    assert vendor_prefixes.is_known("sk_", {"sk_live_"})
    assert not vendor_prefixes.is_known("sk-or-v1-", {"sk-"})
    assert vendor_prefixes.main(["--gitleaks", str(config), "--trufflehog", str(detectors), "--list"]) == 0
    out = capsys.readouterr().out
    assert "gitleaks: 4 prefixes, 1 known to layer 1, 3 missing" in out
    assert "trufflehog: 2 prefixes, 1 known to layer 1, 1 missing" in out
    assert "  zzv1_\tzzvendor-token" in out and "missing in all: 4" in out


def test_the_rule_sets_are_read_from_git_repositories(tmp_path: Path) -> None:
    _fixture(tmp_path)
    for name in ("gitleaks", "trufflehog"):
        repo = tmp_path / name
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@e.invalid",
                        "commit", "-q", "-m", "rules"], check=True)
    assert set(vendor_prefixes.gitleaks_prefixes(tmp_path / "gitleaks")) == {"ghp_", "zzv1_", "qqa_", "qqb_"}
    assert set(vendor_prefixes.trufflehog_prefixes(tmp_path / "trufflehog")) == {"gsk_", "yyw-"}


# Tokens without a mark of their own, known under a key naming their service, and the marks
# added from the rule sets' list (``FlyV1``, Azure DevOps' 84-character signature).
_B32_LOWER = "abcdefghijklmnopqrstuvwxyz234567"
_ADO_LEGACY = "".join(_B32_LOWER[(7 * n + 3) % 32] for n in range(52))
_ADO_NEW = (_BODY * 2)[:52] + "JQQJ99" + _BODY[:18] + "AZDO" + "k3Qz"
# Fly macaroons as ``fly tokens create`` prints them: url-safe base64 (``-`` and ``_``), comma-joined.
_FLY = "FlyV1 fm2_" + "-".join([_BODY] * 5) + "," + "fm2_" + "_".join([_BODY] * 4)


@pytest.mark.parametrize("text", [
    f"ado_pat={_ADO_LEGACY}", f"AZURE_DEVOPS_PAT: {_ADO_LEGACY}", f'AZDO_TOKEN="{_ADO_LEGACY}"',
    f'"adoPat": "{_ADO_LEGACY}"', f"export AZURE_DEVOPS_EXT_PAT={_ADO_NEW}", f"the pipeline ran with {_ADO_NEW}",
    f"vsts_token: {_ADO_LEGACY}",
])
def test_an_azure_devops_pat_is_found(text: str) -> None:
    assert [s.kind for s in find(text)] == ["azure-devops-pat"]
    assert "[REDACTED:azure-devops-pat]" in redact(text)


@pytest.mark.parametrize("text", [
    f"the pipeline ran with {_ADO_LEGACY}",  # 52 base32 letters with no key naming the service
    f"my_build_id={_ADO_LEGACY}",
    "ado_pat=" + "a" * 52,
    f"ado_pat_docs={_ADO_LEGACY.upper()}",
    "ntn_ is Notion's prefix", "FlyV1 is the scheme Fly.io tokens are sent with",
    "set AZURE_DEVOPS_EXT_PAT before running az devops login",
])
def test_azure_devops_and_prefix_talk_is_no_token(text: str) -> None:
    assert find(text) == []


def test_a_fly_token_in_its_header_form_is_found() -> None:
    text = f"Authorization: {_FLY}"
    spans = find(text)
    assert [s.kind for s in spans] == ["flyio-token"]
    assert text[spans[0].start:].startswith("fm2_")  # the scheme word stays
