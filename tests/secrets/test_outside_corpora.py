"""The outside-corpora bench: its labeller, its two extractors, its frozen split and manifest.

``bench/outside_corpora.py`` reads Kingfisher's rule files and TruffleHog's detector tests where
they are fetched; here it reads small files of the same shape written in a temporary directory
(a checkout and a git repository), so that a change to the parsing cannot silently drop the
examples or relabel them. No network.
"""
from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bench import outside_corpora  # noqa: E402
from bench.outside import classes, kingfisher, labeller, snapshot, split, trufflehog  # noqa: E402

ALNUM = string.ascii_letters + string.digits


def random_token(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


# ------------------------------------------------------------------------------ labeller
def test_random_tokens_are_credentials() -> None:
    # Tokens drawn at random are what real credentials look like; the labeller must keep nearly
    # all of them (a few in a thousand may hold an ordered run by chance).
    rng = random.Random(33)
    tokens = [random_token(rng, alphabet, length)
              for alphabet in (ALNUM, "0123456789abcdef", string.ascii_lowercase + string.digits)
              for length in (20, 32, 40, 64) for _ in range(250)]
    placeholders = [t for t in tokens if labeller.is_placeholder(t)]
    assert len(placeholders) / len(tokens) < 0.005, placeholders[:5]


@pytest.mark.parametrize("builder", [
    lambda body: "ghp_" + "x" * len(body),                                    # filler run
    lambda body: "<your-api-key>",                                              # template
    lambda body: "sk_live_" + body[:8] + "EXAMPLE" + body[8:],                  # stand-in word
    lambda body: "".join(a + b for a, b in zip(string.ascii_lowercase, "1234567890" * 3)),  # a1b2c3
    lambda body: (string.digits + "abcdef") * 2,                                # 0123456789abcdef twice
    lambda body: "".join(c * 4 for c in "abcdefgh"),                            # aaaabbbb...
    lambda body: body[:5] * 7,                                                  # one block repeated
    lambda body: body[:3] + "Q" * 20,                                           # one character repeated
    lambda body: "password",                                                    # the slot's own name
])
def test_hand_written_stand_ins_are_placeholders(builder: object) -> None:
    body = random_token(random.Random(7), ALNUM, 32)
    assert callable(builder)
    value = builder(body)
    assert labeller.label([value], f"API_KEY={value}") == labeller.PLACEHOLDER, value


def test_identifier_rules_and_negative_examples() -> None:
    token = random_token(random.Random(8), ALNUM, 24)
    assert labeller.label([token], token, rule_name="Okta Domain") == labeller.IDENTIFIER
    assert labeller.label([token], token, rule_name="Algolia Application ID") == labeller.IDENTIFIER
    assert labeller.label([token], token, rule_name="Age Recipient (X25519 public key)") == labeller.IDENTIFIER
    # A name that also says secret, token or key (but not "key id") is a credential rule.
    assert labeller.label([token], token, rule_name="Azure Client ID and Secret") == labeller.CREDENTIAL
    assert labeller.label([token], token, rule_name="IBM Cloud User Key") == labeller.CREDENTIAL
    assert labeller.label([token], token, rule_name="AWS Access Key ID") == labeller.IDENTIFIER
    # An upstream negative: a near-miss unless its value is a placeholder.
    assert labeller.label([], f"key = '{token}'", positive=False) == labeller.NEAR_MISS
    assert labeller.label([], "key = 'xxxxxxxxxxxxxxxx'", positive=False) == labeller.PLACEHOLDER


def test_all_secrets_are_judged_together() -> None:
    token = random_token(random.Random(9), ALNUM, 32)
    values = ["x" * 40, token]
    assert labeller.label(values, "", all_secrets=True) == labeller.CREDENTIAL
    assert labeller.label(values, "") == labeller.PLACEHOLDER  # one match's groups: the longest


def test_classes_and_forms() -> None:
    token = random_token(random.Random(10), ALNUM, 32)
    assert classes.classify("r", "Vendor Token", f"t = vnd_{token}", f"vnd_{token}") == classes.VENDOR_PREFIX
    assert classes.classify("r", "Vendor Key", f"t = {token}", token) == classes.BASE64
    assert classes.classify("r", "Vendor Key", "t = " + "ab12" * 8, "ab12" * 8) == classes.HEX
    assert classes.classify("r", "Db", f"postgres://u:{token}@h/db", token) == classes.URL_CREDENTIALS
    assert classes.classify("r", "Db", f"Server=h;Password={token};", token) == classes.CONNECTION_STRING
    assert classes.classify("r", "Key", "-----BEGIN RSA PRIVATE KEY-----\nabc", "abc") == classes.PRIVATE_KEY
    assert classes.classify("kingfisher.generic.1", "Generic Secret", f"s = {token}", token) == classes.GENERIC
    assert classes.form(token, token) == classes.BARE
    assert classes.form(f"<secret>{token}</secret>", token) == classes.MARKUP
    assert classes.form(f'api_key: "{token}"', token) == classes.ASSIGNMENT
    assert classes.form(f"using {token} for the call", token) == classes.NEARBY


# ------------------------------------------------------------------------------ Kingfisher
RULES_A = """
rules:
  - name: Zz Vendor Token
    id: kingfisher.zz.1
    pattern: |
      (?xi)
      \\b
      (
        zzv_
        [a-z0-9]{{20}}
      )
      \\b
    examples:
      - 'export ZZ="zzv_{body}"'
      - 'ZZ_TOKEN=zzv_xxxxxxxxxxxxxxxxxxxx'
    negative_examples:
      - 'zzv_short'
  - name: Zz Domain
    id: kingfisher.zz.2
    pattern: '\\p{{L}}+\\.zz\\.example'
    examples:
      - 'tenant.zz.example'
"""
RULES_B = """
rules:
  - name: Zz Vendor Token (second file)
    id: kingfisher.zz.1
    pattern: 'zzv_[a-z0-9]{{20}}'
    examples:
      - 'zzv_{body}'
"""


def write_rules(root: Path, body: str) -> None:
    rules = root / "data" / "rules"
    rules.mkdir(parents=True)
    (rules / "a.yml").write_text(RULES_A.format(body=body), encoding="utf-8")
    (rules / "b.yaml").write_text(RULES_B.format(body=body), encoding="utf-8")
    (rules / "README.md").write_text("not a rule file", encoding="utf-8")


def test_kingfisher_examples_from_a_checkout(tmp_path: Path) -> None:
    body = random_token(random.Random(11), string.ascii_lowercase + string.digits, 20)
    write_rules(tmp_path, body)
    files = snapshot.read_files(tmp_path, kingfisher.RULES_DIR, kingfisher.SUFFIXES)
    assert sorted(files) == ["data/rules/a.yml", "data/rules/b.yaml"]
    found = kingfisher.examples(files)
    keys = [(e.rule, e.index, e.positive) for e in found]
    # One rule id in two files: numbered on in file order, negatives after positives.
    assert keys == [("kingfisher.zz.1", 0, True), ("kingfisher.zz.1", 1, True), ("kingfisher.zz.1", 2, False),
                    ("kingfisher.zz.2", 0, True), ("kingfisher.zz.1", 3, True)]
    assert found[0].values == (f"zzv_{body}",)  # the Rust pattern's capture, translated
    assert found[3].values == ()                 # \p{L} does not translate: value unknown
    labels = [outside_corpora.fresh_label("kingfisher", e).label for e in found]
    assert labels == [labeller.CREDENTIAL, labeller.PLACEHOLDER, labeller.NEAR_MISS, labeller.IDENTIFIER,
                      labeller.CREDENTIAL]


def test_kingfisher_examples_from_a_git_directory(tmp_path: Path) -> None:
    body = random_token(random.Random(12), string.ascii_lowercase + string.digits, 20)
    work = tmp_path / "work"
    write_rules(work, body)
    git = ["git", "-C", str(work)]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "rules"], check=True)
    git_dir = work / ".git"
    assert snapshot.is_git_dir(git_dir)
    assert len(snapshot.commit(git_dir)) == 40 and snapshot.commit(git_dir) == snapshot.commit(work)
    from_git = kingfisher.examples(snapshot.read_files(git_dir, kingfisher.RULES_DIR, kingfisher.SUFFIXES))
    from_tree = kingfisher.examples(snapshot.read_files(work, kingfisher.RULES_DIR, kingfisher.SUFFIXES))
    assert from_git == from_tree and len(from_git) == 5


# ------------------------------------------------------------------------------ TruffleHog
GO_TEST = """package zz

import (
	"fmt"
	"testing"
)

var (
	validPattern   = "zz_{body}"
	invalidPattern = "zz_" + "{body}" + "a"
	keyword        = "zz"
)

func TestZz_Pattern(t *testing.T) {{
	tests := []struct {{
		name  string
		input string
		want  []string
	}}{{
		{{
			name:  "valid pattern - with keyword zz",
			input: fmt.Sprintf("%s token = '%s'", keyword, validPattern),
			want:  []string{{validPattern}},
		}},
		{{
			name: "valid pattern - log",
			input: `
				[DEBUG] Using key=zz_{body}
			`,
			want: []string{{"zz_{body}"}},
		}},
		{{
			name:  "invalid pattern",
			input: fmt.Sprintf("%s = '%s'", keyword, invalidPattern),
			want:  nil,
		}},
		{{
			name:  "not evaluable",
			input: makeInput(validPattern),
			want:  []string{{}},
		}},
		{{
			name:  "empty want",
			input: "zz = 'zz_xxxxxxxxxxxxxxxxxxxx'",
			want:  []string{{}},
		}},
	}}
	_ = tests
}}

func TestZz_FromData(t *testing.T) {{
	tests := []struct{{ input string }}{{{{input: "not a pattern test"}}}}
	_ = tests
}}
"""


def test_trufflehog_pattern_cases(tmp_path: Path) -> None:
    body = random_token(random.Random(13), ALNUM, 32)
    detector = tmp_path / "pkg" / "detectors" / "zz"
    detector.mkdir(parents=True)
    (detector / "zz_test.go").write_text(GO_TEST.format(body=body), encoding="utf-8")
    (detector / "zz_integration_test.go").write_text(GO_TEST.format(body=body), encoding="utf-8")
    (detector / "zz.go").write_text("package zz\n", encoding="utf-8")
    files = snapshot.read_files(tmp_path, trufflehog.DETECTORS_DIR, trufflehog.SUFFIXES)
    found, skipped = trufflehog.examples(files)
    assert skipped == 1  # makeInput(...) is not evaluated, nor guessed
    assert [(e.rule, e.index, e.positive) for e in found] == [
        ("trufflehog.zz", 0, True), ("trufflehog.zz", 1, True), ("trufflehog.zz", 2, False),
        ("trufflehog.zz", 3, False)]
    assert found[0].text == f"zz token = 'zz_{body}'" and found[0].values == (f"zz_{body}",)
    assert found[1].text.strip() == f"[DEBUG] Using key=zz_{body}"
    assert found[2].text == f"zz = 'zz_{body}a'" and found[2].values == ()
    labels = [outside_corpora.fresh_label("trufflehog", e).label for e in found]
    assert labels == [labeller.CREDENTIAL, labeller.CREDENTIAL, labeller.NEAR_MISS, labeller.PLACEHOLDER]


def test_go_expressions() -> None:
    env = trufflehog.bindings(trufflehog.tokens('a = "x\\ty"\nb := a + `raw`\nc = fmt.Sprintf("%s-%q-%d%%", b, a, 3)'))
    assert env == {"a": "x\ty", "b": "x\tyraw", "c": 'x\tyraw-"x\ty"-3%'}


# ------------------------------------------------------------------------------ split and manifest
def test_split_is_a_hash_of_the_rule() -> None:
    rules = [f"kingfisher.rule{i}.1" for i in range(3000)]
    held = [r for r in rules if split.split_of(r) == split.HELD_OUT]
    assert 0.30 < len(held) / len(rules) < 0.37
    assert [split.split_of(r) for r in rules] == [split.split_of(r) for r in rules]


def test_manifest_detects_a_changed_label(tmp_path: Path) -> None:
    label = split.Label("kingfisher.zz.1", 0, split.text_hash("t"), labeller.CREDENTIAL, classes.BASE64,
                        split.split_of("kingfisher.zz.1"))
    split.write_labels(tmp_path, "kingfisher", "c0ffee", [label])
    split.write_manifest(tmp_path, {"kingfisher": ["kingfisher.zz.1"]})
    assert split.check_manifest(tmp_path) == []
    assert split.read_labels(tmp_path, "kingfisher") == ("c0ffee", {("kingfisher.zz.1", 0): label})
    path = split.labels_path(tmp_path, "kingfisher")
    path.write_text(path.read_text(encoding="utf-8").replace(labeller.CREDENTIAL, labeller.PLACEHOLDER),
                    encoding="utf-8")
    assert split.check_manifest(tmp_path) == [path.name]


def test_the_stored_labels_are_intact_and_hold_no_text() -> None:
    assert split.check_manifest(split.HERE) == []
    manifest = json.loads((split.HERE / split.SPLIT_FILE).read_text(encoding="utf-8"))
    for corpus in ("kingfisher", "trufflehog"):
        commit, labels = split.read_labels(split.HERE, corpus)
        assert len(commit) == 40 and len(labels) > 1000
        sides = manifest["corpora"][corpus]
        for label in labels.values():
            assert label.label in labeller.LABELS and label.cls in classes.CLASSES
            assert len(label.sha256) == 64
            assert label.split == split.split_of(label.rule)
            assert label.rule in sides[label.split]
    fields = {json.dumps(sorted(json.loads(line)))
              for line in split.labels_path(split.HERE, "kingfisher").read_text(encoding="utf-8").splitlines()[1:]}
    assert fields == {json.dumps(["cls", "index", "label", "rule", "sha256", "split"])}


# ------------------------------------------------------------------------------ the bench end to end
def test_bench_scores_a_small_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = random_token(random.Random(14), string.ascii_lowercase + string.digits, 20)
    checkout = tmp_path / "kingfisher"
    write_rules(checkout, body)
    labels = tmp_path / "labels"
    labels.mkdir()
    common = ["--kingfisher", str(checkout), "--labels", str(labels), "--no-gitleaks"]
    assert outside_corpora.main(common + ["--write-labels"]) == 0
    assert split.check_manifest(labels) == []
    assert body not in "".join(p.read_text(encoding="utf-8") for p in labels.iterdir())
    capsys.readouterr()
    assert outside_corpora.main(common + ["--show-misses", "0"]) == 0
    out = capsys.readouterr().out
    assert "kingfisher: snapshot ?: 5 examples, 5 scored, 0 without a matching label" in out
    assert "| chord-git | recall (credentials) |" in out
    # Changed example text: the stored label no longer applies and the example is left out.
    write_rules(tmp_path / "changed", body[::-1])
    assert outside_corpora.main(["--kingfisher", str(tmp_path / "changed"), "--labels", str(labels),
                                 "--no-gitleaks"]) == 0
    assert "5 examples, 3 scored, 2 without a matching label" in capsys.readouterr().out  # 2 hold the body
