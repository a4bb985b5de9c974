"""Layer 2 is a floor: what detect-secrets finds on memory text is reported, unless a named
verdict (``layer2.floor.VERDICTS``) removes it, and ``check --explain`` shows each removal."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from chord_git.secrets import explain_units, scan_added_lines
from chord_git.secrets.layer2.detect import detect_secrets_only
from chord_git.secrets.layer2.floor import VERDICTS, Removal, token_at, value_verdict
from chord_git.secrets.verdicts.allow import value_hash
from chord_git.secrets.verdicts.ignore import parse
from testing.gitutil import cli_env, git, run_cli
from testing.memory_files import make_record, write_index
from tests.conftest import shared_corpus, venv_tool

from . import fakes as f

CHECKOUT = Path(__file__).resolve().parents[2]
# Shapes detect-secrets reports and today's layer 1 does not: an Artifactory API key, and random
# characters under a name that holds no secret word.
ARTIFACTORY = f.join("AK", "C", f.body(69, f.ALNUM, seed=5))
SALT = f'signing_salt = "{f.body(40, f.ALNUM, seed=6)}"'


def _explained(*lines: str, ignored: frozenset[str] = frozenset()) -> list[tuple[int, str, str]]:
    units = [("m.md", list(enumerate(lines, start=1)))]
    return [(r.line, r.kind, r.verdict) for r in explain_units(units, ignored_hashes=ignored)[0]]


def _reported(*lines: str) -> list[tuple[int, str]]:
    return [(h.line or 0, h.kind) for h in scan_added_lines({"m.md": list(enumerate(lines, start=1))})]


@pytest.mark.parametrize("line", [f"artifactory: {ARTIFACTORY}", SALT])
def test_what_detect_secrets_reports_is_reported(line: str) -> None:
    assert detect_secrets_only({"m.md": [(1, line)]}), "detect-secrets alone reports it"
    assert _reported(line), "so the hook reports it too"
    assert _explained(line) == []


@pytest.mark.parametrize(("line", "verdict"), [
    (f.join("artifactory: AK", "C", "x" * 40), "placeholder"),
    (f.join('ghp_token = "gh', 'p_', "0" * 36, '"'), "placeholder"),
    (f.join('aws_secret_access_key = "wJalrXUtnFEMI/', 'K7MDENG/bPxRfiCYEXAMPLEKEY"'), "documentation-example"),
    (f'etag: "{f.body(32, f.HEX, seed=8)}"', "digest"),
    (f'- poetry.lock content-hash = "{f.body(64, f.HEX, seed=3)}"', "digest"),
    ("DATABASE_URL=mysql://root:root@localhost:3306/app", "local-default"),
    ("the office router answers on 203.0.113.77 from outside", "not-a-credential"),
    (f'deploy_key_pub = "AAAAC3NzaC1lZDI1NTE5AAAAI{f.body(43, f.B64, seed=16)}"', "not-a-credential"),
])
def test_each_removal_is_a_named_verdict(line: str, verdict: str) -> None:
    assert detect_secrets_only({"m.md": [(1, line)]}) or "203.0.113" in line
    assert _reported(line) == []
    if "203.0.113" not in line:  # detect-secrets' IP plugin is off by default
        assert {v for _, _, v in _explained(line)} == {verdict}


@pytest.mark.parametrize("line", ["api_key_env: OPENAI_API_KEY", "api_key_env: not a name",
                                  "db_password_var: PGPASSWORD_MAIN", "password_file: db_pass_prod.txt"])
def test_a_value_naming_where_the_secret_lives_is_a_reference(line: str) -> None:
    assert detect_secrets_only({"c.yaml": [(1, line)]}), "detect-secrets alone reports it in YAML"
    assert scan_added_lines({"c.yaml": [(1, line)]}) == []
    explained = explain_units([("c.yaml", [(1, line)])])[0]
    assert {r.verdict for r in explained} <= {"reference", "placeholder"} and explained


@pytest.mark.parametrize("line", [f'password_hash = "{f.body(32, f.HEX, seed=12)}"',
                                  f"the API token hash is '{f.body(32, f.HEX, seed=13)}'"])
def test_a_digest_name_beside_a_secret_word_is_no_digest(line: str) -> None:
    value = line.split('"')[1] if '"' in line else line.split("'")[1]
    assert value_verdict(line, value, "high-entropy-string") is None
    assert _reported(line)


@pytest.mark.parametrize("line", ["DATABASE_URL=postgres://postgres:postgres@db.prod.example.com/app",
                                  f"DATABASE_URL=postgres://app:{f.body(12, seed=15)}@localhost/app"])
def test_a_default_on_a_real_host_or_a_typed_password_locally_is_reported(line: str) -> None:
    assert _reported(line)


def test_a_digest_named_in_words_is_a_digest() -> None:
    line = f"The fixture nonce is '{f.body(24, f.HEX, seed=14)}' (a test vector)."
    assert detect_secrets_only({"m.md": [(1, line)]}) and _reported(line) == []


def test_a_finding_layer_1_makes_too_is_reported_once_and_explained() -> None:
    line = f'token = "{f.GITHUB_CLASSIC}"'
    assert _reported(line) == [(1, "github-token")]
    assert {v for _, _, v in _explained(line)} == {"reported-by-layer-1"}


def test_the_project_acceptances_are_named_removals() -> None:
    line = f'blob = "{f.body(48, f.B64, seed=41)}"'
    value = line.split('"')[1]
    assert _reported(line) == [(1, "high-entropy-string")]
    assert _explained(line, ignored=frozenset({value_hash(value)})) == [(1, "high-entropy-string", "ignore-file")]
    pragma = f"{line}  # pragma: allowlist secret"
    assert _reported(pragma) == [] and ("high-entropy-string", "allowed") in {(k, v) for _, k, v in _explained(pragma)}


def test_a_vendor_finding_is_ignored_by_its_whole_token() -> None:
    """detect-secrets' GitHub plugin reports only "ghp"; the ignore file names the token's hash."""
    line = f"fixture {f.join('gh', 'p_', f.body(36, seed=61))}"
    token = line.split()[1]
    assert token_at(line, "ghp") == token
    ignore = parse(f"{value_hash(token)}  # a test fixture\n")
    found = scan_added_lines({"m.md": [(1, line)]}, ignore=ignore)
    assert found == []


def test_every_verdict_has_a_reason_and_renders_without_a_value() -> None:
    for verdict in VERDICTS:
        removal = Removal("m.md", 3, "high-entropy-string", verdict, "as github-token")
        assert removal.render().startswith("m.md:3: detect-secrets high-entropy-string not reported: ")
        assert removal.as_json()["reason"] == removal.reason


# ---------------------------------------------------------------------------- the corpora
CORPORA = ("gitleaks.jsonl", "detect_secrets.jsonl", "benign_memory.jsonl")


@pytest.mark.parametrize("name", CORPORA)
def test_the_hook_reports_a_superset_of_detect_secrets_minus_named_removals(name: str) -> None:
    """Every line detect-secrets flags is flagged by both layers, or explained by a named verdict."""
    folder = shared_corpus("secrets", "CHORD_CORPUS", holds=CORPORA)
    rows = [json.loads(line) for line in (folder / name).read_text("utf-8").splitlines() if line.strip()]
    added = {f"m{i}.md": list(enumerate(row["text"].split("\n"), start=1)) for i, row in enumerate(rows)}
    anchor = {(h.path, h.line) for h in detect_secrets_only(added)}
    reported = {(h.path, h.line) for h in scan_added_lines(added)}
    units = list(added.items())
    removed = {(r.path, r.line) for per_unit in explain_units(units) for r in per_unit if r.verdict in VERDICTS}
    unexplained = sorted(anchor - reported - removed)
    assert unexplained == [], f"{len(unexplained)} detect-secrets findings neither reported nor explained"
    assert anchor, "the corpus exercises the floor"


# ---------------------------------------------------------------------------- through git
@pytest.fixture
def hooked(repo: Path) -> Path:
    hook = repo / git(repo, "rev-parse", "--git-path", "hooks").strip() / "pre-commit"
    hook.write_bytes((CHECKOUT / "hooks/pre-commit").read_bytes())
    hook.chmod(0o755)
    return repo


def _record(root: Path, rid: str, text: str) -> tuple[str, int]:
    """A valid record whose body holds ``text``; its path and the line of the body's last line."""
    make_record(root, rid, body=text)
    write_index(root, [])
    path = f".chord/memory/records/{rid}.md"
    lines = (root / path).read_text("utf-8").splitlines()
    return path, lines.index(text.splitlines()[-1]) + 1


def test_the_installed_hook_refuses_what_detect_secrets_finds(hooked: Path) -> None:
    path, line = _record(hooked, "20261207-artifactory-1a2b", f"The build pulls with {ARTIFACTORY} today.")
    git(hooked, "add", "-A")
    refused = subprocess.run(["git", "commit", "-q", "-m", "note"], cwd=hooked, capture_output=True, text=True,
                             env=cli_env(), timeout=120)
    assert refused.returncode == 1
    assert f"{path}:{line}: possible secret" in refused.stdout + refused.stderr


def test_check_explain_names_each_removal(repo: Path) -> None:
    etag = f'etag: "{f.body(32, f.HEX, seed=8)}"'
    path, line = _record(repo, "20261207-cdn-cache-3c4d", f"The CDN answers with {ARTIFACTORY} and\n{etag}")
    plain = run_cli(repo, "check")
    assert plain.returncode == 1 and "not reported" not in plain.stdout
    text = run_cli(repo, "check", "--explain")
    assert text.returncode == 1
    assert (f"{path}:{line}: detect-secrets high-entropy-string not reported: a checksum, digest, commit id or "
            "nonce named as one") in text.stdout
    report = json.loads(run_cli(repo, "check", "--explain", "--format", "json").stdout)
    assert [(r["path"], r["line"], r["verdict"]) for r in report["removed"]] == [(path, line, "digest")]
    assert [(f["line"], f["kind"]) for f in report["findings"]] == [(line - 1, "artifactory-token")]
    assert "removed" not in json.loads(run_cli(repo, "check", "--format", "json").stdout)


def test_a_baseline_entry_is_a_named_removal(repo: Path) -> None:
    path, line = _record(repo, "20261207-blob-5e6f", f'blob: "{f.body(48, f.B64, seed=32)}"')
    out = subprocess.run([venv_tool("detect-secrets"), "scan", path], cwd=repo,
                         check=True, capture_output=True, text=True).stdout
    (repo / ".secrets.baseline").write_text(out, encoding="utf-8")
    report = json.loads(run_cli(repo, "check", "--explain", "--format", "json").stdout)
    assert report["findings"] == []
    assert [(r["line"], r["verdict"]) for r in report["removed"]] == [(line, "baseline")]
    text = run_cli(repo, "check", "--explain").stdout
    assert "detect-secrets: 1 finding not reported, each for the reason shown" in text
    assert f"{path}:{line}: detect-secrets high-entropy-string not reported: the project's .secrets.baseline" in text
