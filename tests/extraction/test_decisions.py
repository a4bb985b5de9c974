"""Decisions that stick: a forgotten conclusion is not written again, a decided promotion is not
suggested again, and the user who says it again gets it back."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chord_git.extraction.pipeline import ExtractionReport, extract_session
from chord_git.memory import decisions, pending
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import cli_env, git, run_cli
from testing.memory_files import promotion
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, record, reply, user, write_session

PNPM_SAID = "this repo only uses pnpm, please never run npm install"
PNPM = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_SAID)
PNPM_AS_ASSISTANT = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", None,
                           source="assistant", status="unverified")
PNPM_AGAIN_SAID = "I told you before: we use pnpm here, npm must never be used in this project"
PNPM_AGAIN = record("Use pnpm, never npm.", "All JS dependency commands use pnpm.", PNPM_AGAIN_SAID)


def _extract(repo: Path, server: FakeOpenAI, said: list[str], out: dict[str, Any], sid: str) -> ExtractionReport:
    server.script("m1", Reply(out))
    session = write_session(repo.parent / f"{sid}.jsonl", [user(text) for text in said], session_id=sid)
    project, cfg = project_and_config(repo)
    return extract_session(project, cfg, session, env=KEY_ENV)


def _learn_and_forget(repo: Path, server: FakeOpenAI) -> str:
    configure(repo, server)
    rid = _extract(repo, server, [PNPM_SAID], reply(PNPM), "s1").written[0]
    forgot = run_cli(repo, "forget", rid, env=cli_env())
    assert forgot.returncode == 0, forgot.stderr
    return rid


def test_forget_writes_a_decision_file(repo: Path, fake_openai: FakeOpenAI) -> None:
    rid = _learn_and_forget(repo, fake_openai)
    text = (repo / decisions.DECISIONS_DIR / f"forgotten-{rid}.md").read_text()
    assert text == (f"{decisions.HEADER}\nkind: forgotten\nid: {rid}\ndate: {text.split('date: ')[1].split()[0]}\n"
                    f"session: s1\nevidence: {PNPM_SAID}\ntext: use pnpm, never npm.\n"
                    "text: all js dependency commands use pnpm.\n")


def test_forgotten_conclusion_is_not_written_again_and_the_reason_is_counted(repo: Path, fake_openai: FakeOpenAI) -> None:
    _learn_and_forget(repo, fake_openai)
    # The orphan record goes too (R34 lets the user delete it): the decision file alone holds.
    for path in (repo / ".chord/memory/records").glob("*.md"):
        path.unlink()
    fake_openai.script("m1", Reply(reply(PNPM_AS_ASSISTANT)))
    session = write_session(repo.parent / "s2.jsonl", [user("please set up the JS build")], session_id="s2")
    result = run_cli(repo, "extract", "--session", str(session), env={**cli_env(), **KEY_ENV})
    assert result.returncode == 0, result.stderr
    assert result.stdout == "s2: written 0, replaced 0, dropped 1 (forgotten 1), promotion files 0 [m1]\n"
    assert "pnpm" not in (repo / "MEMORY.md").read_text()


def test_the_session_that_wrote_it_does_not_bring_it_back(repo: Path, fake_openai: FakeOpenAI) -> None:
    # The same transcript extracted again (a retried job, a resumed session) is not the user
    # saying it again.
    _learn_and_forget(repo, fake_openai)
    report = _extract(repo, fake_openai, [PNPM_SAID], reply(PNPM), "s1")
    assert report.written == () and report.dropped == {"forgotten": 1}


def test_the_same_words_in_a_new_session_bring_it_back(repo: Path, fake_openai: FakeOpenAI) -> None:
    # The user repeats themselves word for word in a later session: that is saying it again.
    _learn_and_forget(repo, fake_openai)
    for path in (repo / ".chord/memory/records").glob("*.md"):
        path.unlink()  # the decision file alone knows the session
    report = _extract(repo, fake_openai, [PNPM_SAID], reply(PNPM), "s2")
    assert len(report.written) == 1 and report.dropped == {}


def test_deleted_index_line_counts_as_forgotten(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    _extract(repo, fake_openai, [PNPM_SAID], reply(PNPM), "s1")
    memory = repo / "MEMORY.md"
    memory.write_text("".join(line for line in memory.read_text().splitlines(keepends=True) if "pnpm" not in line))
    # Past the window in which a vanished line may be an editor's stale buffer (memory.collisions):
    # the hint that says "written lately" is what that window is.
    project, _cfg = project_and_config(repo)
    (project.state_dir / "index-inserted.json").unlink()
    report = _extract(repo, fake_openai, ["set up the JS build"], reply(PNPM_AS_ASSISTANT), "s2")
    assert report.written == () and report.dropped == {"forgotten": 1}


def test_deleted_pending_file_counts_as_forgotten(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    git(repo, "switch", "-q", "-c", "feature")
    rid = _extract(repo, fake_openai, [PNPM_SAID], reply(PNPM), "s1").written[0]
    (repo / pending.PENDING_DIR / f"{rid}.md").unlink()
    report = _extract(repo, fake_openai, ["set up the JS build"], reply(PNPM_AS_ASSISTANT), "s2")
    assert report.written == () and report.dropped == {"forgotten": 1}


def test_the_user_saying_it_again_brings_it_back(repo: Path, fake_openai: FakeOpenAI) -> None:
    _learn_and_forget(repo, fake_openai)
    report = _extract(repo, fake_openai, [PNPM_AGAIN_SAID], reply(PNPM_AGAIN), "s2")
    assert len(report.written) == 1 and report.dropped == {}
    assert "Use pnpm, never npm." in (repo / "MEMORY.md").read_text()


def _suggest(repo: Path, server: FakeOpenAI, sid: str, text: str) -> ExtractionReport:
    return _extract(repo, server, ["hello"], reply(promotions=[promotion(None, text=text)]), sid)


def test_rejected_and_accepted_promotions_are_not_suggested_again(repo: Path, fake_openai: FakeOpenAI) -> None:
    configure(repo, fake_openai)
    for action, text in (("reject", "Run the formatter before pushing."), ("accept", "Run the linter before pushing.")):
        first = _suggest(repo, fake_openai, f"{action}-1", text)
        assert first.maintenance is not None
        (pid,) = first.maintenance["promotions"]
        done = run_cli(repo, "review", action, pid, env=cli_env())
        assert done.returncode == 0, done.stderr
        kind = "rejected" if action == "reject" else "accepted"
        assert (repo / decisions.DECISIONS_DIR / f"{kind}-{pid}.md").is_file()
        again = _suggest(repo, fake_openai, f"{action}-2", text)
        assert again.maintenance is not None and again.maintenance["promotions"] == []
        assert again.maintenance["dropped_promotions"] == [
            {"index": 0, "reason": "decided already: the user accepted or rejected this suggestion"}]
        assert not list((repo / ".chord/memory/promotions").glob("*.md"))
        if action == "reject":
            continue
        assert "Run the linter before pushing." in (repo / "docs/dev.md").read_text()
    assert json.loads(run_cli(repo, "status", "--json", env=cli_env()).stdout)["promotions"] == 0


def test_check_passes_with_decision_files_and_scans_them(repo: Path, fake_openai: FakeOpenAI) -> None:
    rid = _learn_and_forget(repo, fake_openai)
    assert run_cli(repo, "check", env=cli_env()).returncode == 0
    path = repo / decisions.DECISIONS_DIR / f"forgotten-{rid}.md"
    token = "gh" + "p_" + "R7kQ2mVx9L" + "pT4nWz8sYb" + "3Hc6Jd1Fg5" + "Ae0Ui7"
    path.write_text(path.read_text() + f"text: the token is {token}\n")
    found = run_cli(repo, "check", env=cli_env())
    assert found.returncode == 1 and f"{decisions.DECISIONS_DIR}/forgotten-{rid}.md" in found.stdout
