"""The combined entry point: both layers on added lines, line mapping, de-duplication, baseline."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.secrets import scan_added_lines
from chord_git.secrets.layer2.detect import detect_secrets_only, scan_with_baseline
from chord_git.secrets.layer2.kinds import secret_finding
from tests.conftest import venv_tool

from . import fakes as f

PW = f.join("pass", "word")


def test_multiline_private_key_is_reported_on_its_begin_line() -> None:
    block = f.pem_private_key("RSA ").split("\n")
    lines = [(10 + i, text) for i, text in enumerate(block)]
    hits = scan_added_lines({"MEMORY.md": lines})
    assert [(h.line, h.kind) for h in hits] == [(10, "private-key")]


def test_offsets_map_back_to_sparse_line_numbers() -> None:
    added = {".chord/memory/records/b.md": [(3, "intro"), (7, f"token: {f.GITHUB_CLASSIC}"), (42, "plain"),
                                            (43, f"DB_{PW.upper()}={f.PASSWORD}")],
             ".chord/memory/records/a.md": [(1, f"{f.SLACK_WEBHOOK}")]}
    hits = scan_added_lines(added)
    assert [(h.path, h.line, h.kind) for h in hits] == [
        (".chord/memory/records/a.md", 1, "slack-webhook"),
        (".chord/memory/records/b.md", 7, "github-token"),
        (".chord/memory/records/b.md", 43, "password-assignment"),
    ]


def test_both_layers_finding_one_token_report_it_once() -> None:
    line = f"GITHUB_TOKEN={f.GITHUB_CLASSIC}"
    assert any(h.kind == "github-token" for h in scan_with_baseline({"m.md": [(5, line)]}, None)[0])
    assert scan_added_lines({"m.md": [(5, line)]}) == [secret_finding("m.md", 5, "github-token", "sanitizer")]


def test_layer2_adds_what_layer1_does_not_see() -> None:
    line = f'- pasted "{f.body(48, f.B64, seed=31)}" by mistake'
    hits = scan_added_lines({"m.md": [(2, line)]})
    assert hits == [secret_finding("m.md", 2, "high-entropy-string", "detect-secrets")]


@pytest.mark.parametrize("line", [
    f'etag: "{f.body(32, f.HEX, seed=8)}"',
    f'"integrity": "sha512-{f.body(86, f.B64)}=="',
    f.join("GITHUB_TOKEN=gh", "p_", "X" * 36),
    f.join("aws_access_key_id = AKIA", "IOSFODNN7", "EXAMPLE"),
    f'commit: "{f.body(40, f.HEX, seed=9)}"',
])
def test_layer2_findings_a_named_verdict_removes(line: str) -> None:
    assert detect_secrets_only({"m.md": [(1, line)]}), "detect-secrets alone flags it"
    assert scan_added_lines({"m.md": [(1, line)]}) == []


@pytest.mark.parametrize("key", ["signature", "wrongStart", "data-widget", "signing_salt"])
def test_entropy_under_a_plain_name_is_still_reported(key: str) -> None:
    """Layer 2 is a floor: a harmless-looking name is no verdict of its own."""
    line = f'{key} = "{f.body(48, f.B64, seed=33)}"'
    assert detect_secrets_only({"m.md": [(1, line)]}), "detect-secrets alone flags it"
    assert [(h.line, h.kind) for h in scan_added_lines({"m.md": [(1, line)]})] == [(1, "high-entropy-string")]


def test_allowlist_pragma_is_honoured_by_both_layers() -> None:
    line = f"token: {f.GITHUB_CLASSIC}  # pragma: allowlist secret"
    assert scan_added_lines({"m.md": [(1, line)]}) == []


def test_no_lines_means_no_findings() -> None:
    assert scan_added_lines({}) == []
    assert scan_added_lines({"m.md": []}) == []


def test_text_decoded_from_invalid_utf8_is_scanned() -> None:
    raw = b"caf\xe9 \xff\xfe token: " + f.GITHUB_CLASSIC.encode() + b"\n\x80\x81 plain"
    text = raw.decode("utf-8", "surrogateescape")
    lines = list(enumerate(text.split("\n"), start=1))
    hits = scan_added_lines({"m.md": lines})
    assert [(h.line, h.kind) for h in hits] == [(1, "github-token")]


@pytest.fixture()
def baselined_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str]]:
    """A note with two secrets, scanned into a real ``.secrets.baseline`` by the CLI."""
    exe = venv_tool("detect-secrets")
    lines = [f"token: {f.GITHUB_CLASSIC}", f'blob: "{f.body(48, f.B64, seed=32)}"']
    (tmp_path / "note.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = subprocess.run([exe, "scan", "note.md"], check=True, capture_output=True, text=True).stdout
    (tmp_path / ".secrets.baseline").write_text(out, encoding="utf-8")
    assert json.loads(out)["results"]["note.md"], "the CLI baselined the two secrets"
    return tmp_path / ".secrets.baseline", lines


def test_baseline_suppresses_known_secrets_in_both_layers(baselined_note: tuple[Path, list[str]]) -> None:
    baseline, lines = baselined_note
    added = {"note.md": [(1, lines[0]), (2, lines[1])]}
    assert scan_added_lines(added) != []
    assert scan_added_lines(added, baseline=baseline) == []


def test_baseline_reports_new_secrets(baselined_note: tuple[Path, list[str]]) -> None:
    baseline, lines = baselined_note
    added = {"note.md": [(1, lines[0]), (3, f"slack: {f.SLACK_BOT}")], "other.md": [(1, lines[0])]}
    hits = scan_added_lines(added, baseline=baseline)
    # Matching is per file: the same token in another file is not baselined.
    assert [(h.path, h.line, h.kind) for h in hits] == [
        ("note.md", 3, "slack-token"), ("other.md", 1, "github-token")]


def test_unreadable_baseline_is_an_input_error(tmp_path: Path) -> None:
    bad = tmp_path / ".secrets.baseline"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError) as info:
        scan_added_lines({"m.md": [(1, "x")]}, baseline=bad)
    assert str(bad) in str(info.value)


def _imports_after(code: str) -> bool:
    script = f"import sys; import chord_git.secrets as s; {code}; print('detect_secrets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    return out.strip() == "True"


def test_importing_the_package_does_not_import_detect_secrets() -> None:
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", "import chord_git.secrets"],
                            check=True, capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    assert "chord_git.secrets" in result.stderr
    assert "detect_secrets" not in result.stderr
    assert not _imports_after("s.find('x'); s.redact('x'); s.scan_added_lines({})")
    # Only lines some detect-secrets plugin could report bring it in (``prefilter``).
    assert not _imports_after("s.scan_added_lines({'m.md': [(1, 'Use pnpm, never npm.')]})")
    assert _imports_after("s.scan_added_lines({'m.md': [(1, 'db_password = \"x\"')]})")


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2]).stdout.strip()


def test_layer_2_runs_without_requests_and_never_goes_online(tmp_path: Path) -> None:
    """detect-secrets imports requests only to verify findings online: it gets a stand-in."""
    baseline = tmp_path / ".secrets.baseline"
    subprocess.run([sys.executable, "-m", "detect_secrets", "scan", str(tmp_path)], check=True,
                   stdout=baseline.open("w"), cwd=tmp_path)
    code = (
        "import sys, json\n"
        "from chord_git.secrets import scan_added_lines\n"
        "from chord_git.secrets.layer2.detect import NetworkDisabled\n"
        f"hits = scan_added_lines({{'m.md': [(1, 'db_password = \"x9Kq2LmZ7vB4\"')]}}, baseline={str(baseline)!r})\n"
        # Only the plugins that can report on the lines load (the keyword plugin here); the
        # module they all share imports requests.
        "plugin = sys.modules['detect_secrets.plugins.base']\n"
        "try:\n"
        "    plugin.requests.post('https://slack.com/api/auth.test')\n"
        "    online = True\n"
        "except NetworkDisabled:\n"
        "    online = False\n"
        "print(json.dumps([len(hits), 'requests' in sys.modules, online]))\n"
    )
    assert json.loads(_run(code)) == [1, False, False]


def test_layer_2_works_when_requests_is_already_loaded() -> None:
    code = ("import sys, requests\nfrom chord_git.secrets import scan_added_lines\n"
            "hits = scan_added_lines({'m.md': [(1, 'db_password = \"x9Kq2LmZ7vB4\"')]})\n"
            "print(len(hits), sys.modules['detect_secrets.plugins.base'].requests is requests)")
    assert _run(code) == "1 True"
