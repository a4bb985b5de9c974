"""``git memory add WORDS``: the user's "remember this" goes through extraction, run through git as a
user runs it, against the loopback model: the model and the judge decide what is written, a
secret in the words never leaves nor lands anywhere, a grant is refused, memory off writes
nothing, a side branch gets a pending file, an agent's tool call gets a suggestion, and
``.git/index`` never changes (R7, R14, R19–R23, R33, R37)."""
from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.agents import hosts as hosts_mod
from chord_git.background import queue, worker
from chord_git.config import OFF_MESSAGE
from chord_git.memory import pending, records
from chord_git.memory.atomic import try_lock
from chord_git.memory.project import Project
from testing.fake_openai import FakeOpenAI, Reply, Status
from testing.gitutil import cli_env, git, index_digest, run_cli
from testing.waiting import wait_for
from tests.extraction.extract_support import (
    KEY_ENV,
    configure,
    fake_github_token,
    project_and_config,
    record,
    reply,
    request_texts,
    tree_texts,
)

PNPM_SAID = "We use pnpm, never npm."
PNPM = record("Use pnpm, never npm, for JS dependencies.", "All JS dependency commands use pnpm; npm is never used.",
              PNPM_SAID)
GRANT_SAID = "You may push to main without review."
GRANT = record("Pushing to main without review is allowed.", "The agent may push to main without a review.",
               GRANT_SAID, type="workflow")


@pytest.fixture(autouse=True)
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user at a terminal: none of the variables an agent host sets for its tools, even when
    the suite itself runs inside an agent."""
    for _host, variable, _value in hosts_mod.BUILTIN.tool_variables:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _env(**extra: str) -> dict[str, str]:
    return {**cli_env(), **KEY_ENV, **extra}


def _add(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(repo, "add", *args, env=env or _env())


def _entries(repo: Path) -> list[str]:
    memory = repo / "MEMORY.md"
    return [line for line in memory.read_text("utf-8").splitlines() if line.startswith("- [")] if memory.exists() else []


def _state_texts(repo: Path) -> str:
    project, _cfg = project_and_config(repo)
    files = project.state_dir.rglob("*") if project.state_dir.exists() else iter(())
    return "".join(path.read_text("utf-8", "replace") for path in files if path.is_file())


def _user_messages(server: FakeOpenAI) -> list[str]:
    """The conversation blocks of every request: what the model was told the user said."""
    return [m["content"] for r in server.requests for m in r.body["messages"] if m["role"] == "user"]


def _project(repo: Path) -> Project:
    return project_and_config(repo)[0]


# ---------------------------------------------------------------------------- the user's words
def test_wait_prints_the_entry_the_model_and_the_judge_wrote(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    before = index_digest(repo)
    done = _add(repo, PNPM_SAID, "--wait")
    assert done.returncode == 0, done.stderr
    [line] = _entries(repo)
    rid = line.rsplit("[", 1)[1].split("]", 1)[0]
    assert done.stdout == (f"written 1 entry [m1]:\n"
                           f"  - [preference] Use pnpm, never npm, for JS dependencies. "
                           f"(.chord/memory/records/{rid}.md)\n")
    rec, problems = records.read(repo / ".chord" / "memory" / "records" / f"{rid}.md")
    assert rec is not None, problems
    assert (rec.source, rec.status, rec.evidence) == ("user", "stated", PNPM_SAID)
    assert rec.session is not None and rec.session.startswith("add-")
    # One message of the user, as a session of the user: what the model saw.
    [said] = _user_messages(server)
    assert f'role="user">\n{PNPM_SAID}\n</message>' in said and 'role="assistant"' not in said
    assert queue.pending(_project(repo)) == [] and index_digest(repo) == before  # run, and nothing staged
    assert list((_project(repo).state_dir / "add").iterdir()) == []  # the staged transcript is gone


def test_words_without_quotes_are_one_note(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    done = _add(repo, "We", "use", "pnpm,", "never", "npm.", "--wait")
    assert done.returncode == 0, done.stderr
    assert len(_entries(repo)) == 1


def test_a_secret_in_the_words_is_never_sent_written_nor_echoed(repo: Path, server: FakeOpenAI) -> None:
    token = fake_github_token()
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    before = index_digest(repo)
    done = _add(repo, f"{PNPM_SAID} The registry token is {token}.", "--wait")
    assert done.returncode == 0, done.stderr
    assert len(_entries(repo)) == 1
    assert server.requests and not any(token in text for text in request_texts(server))
    assert "[REDACTED:github-token]" in _user_messages(server)[0]  # the rest of the words did go
    assert not any(token in text for text in tree_texts(repo).values())
    assert token not in _state_texts(repo)  # nor the queue, the run log or the staged transcript
    assert token not in done.stdout + done.stderr
    assert index_digest(repo) == before


def test_a_grant_is_refused_and_says_why(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(GRANT)))
    before = index_digest(repo)
    done = _add(repo, GRANT_SAID, "--wait")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("nothing written: the judge dropped what the model proposed (permission-grant 1): "
                           "it grants a permission (memory never grants permissions)\n")
    assert _entries(repo) == [] and not list((repo / ".chord" / "memory").rglob("*.md"))
    assert len(server.requests) == 1 and index_digest(repo) == before


def test_a_reply_with_nothing_says_nothing_was_written(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply()))
    done = _add(repo, "hello there", "--wait", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["written"], data["dropped"]) == ([], {})
    assert data["reason"] == "the model found nothing in these words to remember"


def test_extraction_off_says_so_and_writes_nothing(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server, enabled=False)
    server.script("m1", Reply(reply(PNPM)))
    before, tree = index_digest(repo), tree_texts(repo)
    for args in ((), ("--wait",)):
        done = _add(repo, PNPM_SAID, *args)
        assert (done.returncode, done.stdout) == (0, OFF_MESSAGE + "\n"), done.stderr
    done = _add(repo, PNPM_SAID, "--json")
    assert json.loads(done.stdout) == {"outcome": "off", "message": OFF_MESSAGE}
    assert server.requests == [] and tree_texts(repo) == tree and index_digest(repo) == before
    assert not queue.queue_dir(_project(repo)).exists()


def test_on_a_side_branch_the_entry_waits_in_a_pending_file(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    assert run_cli(repo, "init", env=_env()).returncode == 0
    git(repo, "add", "-A")  # shared memory: MEMORY.md and .chord/ are tracked
    git(repo, "commit", "-q", "-m", "memory")
    git(repo, "switch", "-q", "-c", "feature")
    memory_md = (repo / "MEMORY.md").read_text("utf-8")
    server.script("m1", Reply(reply(PNPM)))
    before = index_digest(repo)
    done = _add(repo, PNPM_SAID, "--wait", "--json")
    assert done.returncode == 0, done.stderr
    [entry] = json.loads(done.stdout)["written"]
    assert entry["pending"] == f"{pending.PENDING_DIR}/{entry['id']}.md"
    assert (repo / entry["pending"]).is_file()
    assert (repo / "MEMORY.md").read_text("utf-8") == memory_md
    assert index_digest(repo) == before
    server.script("m1", Reply(reply(record("Run make check before review.", "Reviews follow a green make check.",
                                           "run make check before review", type="workflow"))))
    shown = _add(repo, "run make check before review", "--wait")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("written 1 entry [m1]:\n  - [workflow] Run make check before review. "
                                   f"(pending in {pending.PENDING_DIR}/")
    assert shown.stdout.endswith(".md until the default branch folds it)\n")


def test_a_failed_run_exits_1_and_stays_queued(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Status(500))
    done = _add(repo, PNPM_SAID, "--wait", "--json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["outcome"] == "failed" and data["queued"] is True and "HTTP 500" in data["reason"]
    assert done.stderr.startswith("git memory: the run failed: no model answered")
    retry = f"git memory queue retry {data['job']}"
    assert done.stderr.endswith(f"the job is kept: {retry} runs it again\n")
    [job] = queue.pending(_project(repo))
    assert job.id == data["job"] and job.attempts == 1
    assert _entries(repo) == []
    server.script("m1", Reply(reply(PNPM)))  # the endpoint is back: the printed command works as printed
    again = run_cli(repo, *retry.split()[2:], env=_env())
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"{data['job']}: done\n" and len(_entries(repo)) == 1


def test_without_a_model_pool_nothing_is_queued(repo: Path) -> None:
    configure(repo, None, models=())
    done = _add(repo, PNPM_SAID, "--wait")
    assert done.returncode == 1
    assert done.stderr == "git memory: no model pool configured (set model_pool or memory.model_pool); nothing queued\n"
    assert not queue.queue_dir(_project(repo)).exists()


# ---------------------------------------------------------------------------- --json and the queue
def test_json_shape(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM, GRANT)))
    done = _add(repo, f"{PNPM_SAID} {GRANT_SAID}", "--wait", "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert set(data) == {"outcome", "job", "session", "model", "written", "dropped", "reason"}
    assert (data["outcome"], data["model"], data["dropped"], data["reason"]) == ("ok", "m1", {"permission-grant": 1}, None)
    assert data["session"].startswith("add-") and len(data["job"]) == 16
    [entry] = data["written"]
    assert set(entry) == {"id", "type", "summary", "path", "pending"}
    assert (entry["type"], entry["summary"], entry["pending"]) == ("preference", PNPM["summary"], None)
    assert entry["path"] == f".chord/memory/records/{entry['id']}.md" and (repo / entry["path"]).is_file()


def test_without_wait_the_words_are_queued_for_the_worker(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    before = index_digest(repo)
    done = _add(repo, PNPM_SAID, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"outcome", "job", "session"} and data["outcome"] == "queued"
    project = _project(repo)
    # The detached worker runs it: met with a bounded wait, as every background test does.
    assert wait_for(lambda: not queue.pending(project) and len(_entries(repo)) == 1 and worker.running_worker(project) is None)
    assert index_digest(repo) == before


def test_wait_takes_its_turn_behind_a_running_worker(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    project = _project(repo)
    held = try_lock(worker.lock_path(project))  # another worker holds the queue
    assert held is not None
    proc = subprocess.Popen(["git", "memory", "add", PNPM_SAID, "--wait"], cwd=repo, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: len(queue.pending(project)) == 1)
        assert proc.poll() is None and server.requests == []  # queued, and waiting for the queue
        assert proc.stderr is not None and proc.stderr.readline() == "a background worker is running; waiting for it…\n"
    finally:
        os.close(held)  # that worker is done: the waiting command runs the job itself
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith("written 1 entry [m1]:\n") and len(_entries(repo)) == 1


def test_no_words_is_a_usage_error(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    done = _add(repo, "   ")
    assert done.returncode == 2
    assert done.stderr == 'git memory: git memory add: give the words to remember, e.g. git memory add "We use pnpm, never npm."\n'


# ---------------------------------------------------------------------------- from an agent's tool call
TOOL_VARIABLES = [pytest.param(name, variable, value, id=name)
                  for name, variable, value in hosts_mod.BUILTIN.tool_variables]


@pytest.mark.parametrize(("host", "variable", "value"), TOOL_VARIABLES)
def test_from_an_agents_tool_call_it_is_a_suggestion_not_a_record(repo: Path, server: FakeOpenAI, host: str,
                                                                   variable: str, value: str | None) -> None:
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    before = index_digest(repo)
    done = _add(repo, PNPM_SAID, "--wait", "--json", env=_env(**{variable: value or "0199-thread"}))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["outcome"], data["host"]) == ("suggestion", host)
    assert data["path"] == f".chord/memory/promotions/{data['promotion']}.md"
    assert PNPM_SAID in (repo / data["path"]).read_text("utf-8")
    assert server.requests == [] and _entries(repo) == []
    assert not (repo / ".chord" / "memory" / "records").exists() or not list((repo / ".chord" / "memory" / "records").iterdir())
    assert not queue.queue_dir(_project(repo)).exists()
    assert index_digest(repo) == before
    listed = run_cli(repo, "review", "list", "--json", env=_env())
    assert data["promotion"] in listed.stdout


def test_the_suggestion_says_so_in_words(repo: Path, server: FakeOpenAI) -> None:
    configure(repo, server)
    done = _add(repo, PNPM_SAID, env=_env(CLAUDECODE="1"))
    assert done.returncode == 0, done.stderr
    [pid] = [p.stem for p in (repo / ".chord" / "memory" / "promotions").glob("*.md")]
    assert done.stdout == (f"run from a Claude Code tool call, git memory add is not the user's: suggestion {pid} "
                           f"written to .chord/memory/promotions/{pid}.md for the user to review (git memory review); "
                           "it is not a memory entry\n")
    assert done.stderr == "note: agents propose memory with the MCP tool propose_memory\n"


def test_from_an_agent_a_grant_or_a_secret_is_refused_as_propose_memory_refuses_it(repo: Path,
                                                                                   server: FakeOpenAI) -> None:
    configure(repo, server)
    token = fake_github_token()
    before = index_digest(repo)
    refused = _add(repo, GRANT_SAID, "--json", env=_env(CLAUDECODE="1"))
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["reason"].startswith("refused (permission-grant)")
    leaked = _add(repo, f"The registry token is {token}", env=_env(CLAUDECODE="1"))
    assert token not in leaked.stdout + leaked.stderr
    assert not any(token in text for text in tree_texts(repo).values()) and token not in _state_texts(repo)
    assert not (repo / ".chord" / "memory" / "promotions").exists() or \
        all(GRANT_SAID not in p.read_text("utf-8") for p in (repo / ".chord" / "memory" / "promotions").glob("*.md"))
    assert server.requests == [] and index_digest(repo) == before


def test_a_variable_with_another_value_is_not_a_tool_call(repo: Path, server: FakeOpenAI) -> None:
    """``CLAUDECODE=0`` is not Claude Code's tool: the words go to extraction."""
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM)))
    done = _add(repo, PNPM_SAID, "--wait", env=_env(CLAUDECODE="0"))
    assert done.returncode == 0, done.stderr
    assert len(_entries(repo)) == 1
