"""Runtime state files hold JSON we wrote; one holding ``Infinity``, ``-Infinity`` or ``NaN`` (which
JSON readers accept) is damaged state: the hooks go on injecting memory and ``status`` reports as
usual, as with any other damaged state file, instead of stopping on the number."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from testing.gitutil import run_cli
from tests.agents.conftest import CANARY_SUMMARY, DATA, configure, event, run_hook

NUMBER = re.compile(r"(?<=[:\[,])(\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _state_files(repo: Path, home: Path) -> list[Path]:
    return sorted(p for root in (repo / ".git", home) for p in root.rglob("*.json") if p.is_file())


@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_non_finite_numbers_in_state_are_damage_not_a_stop(memory_repo: Path, isolated_home: Path,
                                                           tmp_path: Path, constant: str) -> None:
    configure(None)
    transcript = tmp_path / "t.jsonl"
    shutil.copy(DATA / "claude-code-2.1.197-hook-context.jsonl", transcript)
    for name, extra in (("SessionStart", {"source": "startup"}), ("UserPromptSubmit", {"prompt": "x"}),
                        ("Stop", {})):
        assert run_hook(event(name, memory_repo, "s1", transcript, **extra)).returncode == 0
    assert run_cli(memory_repo, "status").returncode == 0
    assert run_cli(memory_repo, "agent", "busy").returncode == 0
    damaged = []
    for path in _state_files(memory_repo, isolated_home):
        text = path.read_text(encoding="utf-8")
        changed = NUMBER.sub(lambda m: m.group(1) + constant, text)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
            damaged.append(path.name)
    assert {"index-facts.json", "claude-code--s1.json", "agent-activity.json"} <= set(damaged)
    start = run_hook(event("SessionStart", memory_repo, "s1", transcript, source="resume"))
    assert start.returncode == 0 and start.stderr == b"", start.stderr
    assert CANARY_SUMMARY in start.stdout.decode()
    status = run_cli(memory_repo, "status")
    assert status.returncode == 0 and status.stderr == "", status.stderr
    assert run_cli(memory_repo, "agent", "idle").returncode == 0
    assert run_hook(event("SessionEnd", memory_repo, "s1", transcript, reason="other")).returncode == 0
