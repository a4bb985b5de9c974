"""``status`` and ``summary`` say what "off" means, and outside any project never claim extraction."""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.memory.summary import EXTRACTION_NOTICE
from testing.gitutil import run_cli


def _user_config(home: Path, text: str) -> None:
    folder = home / ".config" / "chord"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(text)


def test_status_says_extraction_is_off_and_memory_still_loads(repo: Path) -> None:
    assert run_cli(repo, "init").returncode == 0
    status = run_cli(repo, "status")
    assert status.returncode == 0, status.stderr
    assert status.stdout.splitlines()[0] == "extraction: off (memory is still loaded)"
    assert json.loads(run_cli(repo, "status", "--json").stdout)["state"] == "off"  # for scripts, as before


def test_outside_any_project_nothing_says_extraction_is_on(tmp_path: Path, isolated_home: Path) -> None:
    _user_config(isolated_home, "memory:\n  enabled: true\n  model_pool:\n    - model: m1\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    summary = run_cli(plain, "summary")
    assert summary.returncode == 0 and summary.stdout == "" and summary.stderr == ""
    status = run_cli(plain, "status")
    assert status.returncode == 0
    assert status.stdout.splitlines()[0] == (
        "extraction: off (no project here: no git repository, MEMORY.md or .chord/; git memory init makes one)")
    as_json = json.loads(run_cli(plain, "status", "--json").stdout)
    assert as_json["state"] == "off" and as_json["enabled"] is False


def test_inside_a_project_the_user_switch_still_turns_extraction_on(repo: Path, isolated_home: Path) -> None:
    _user_config(isolated_home, "memory:\n  enabled: true\n  model_pool:\n    - model: m1\n")
    summary = run_cli(repo, "summary")
    assert summary.returncode == 0 and summary.stdout.strip() == EXTRACTION_NOTICE
    assert run_cli(repo, "status").stdout.splitlines()[0] == "MEMORY"
