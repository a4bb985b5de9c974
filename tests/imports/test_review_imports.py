"""Pending imports in ``git memory review``: accepted through extraction as the user's statement,
edited, rejected for good; duplicates merged; export and import back; nothing staged."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chord_git.background import queue, worker
from chord_git.memory import project as project_mod
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import index_digest, make_repo, run_cli
from testing.waiting import wait_for
from tests.extraction.extract_support import KEY_ENV, configure, record, reply
from tests.commands.test_add import at_a_terminal  # noqa: F401 - the user at a terminal, as for add
from tests.imports.support import PNPM, env, import_json, token, write

PNPM_RECORD = record("Use pnpm, never npm, for JS dependencies.", "All JS dependency commands use pnpm.", PNPM)
CHECK = "Run make check before asking for review."


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _cli(repo: Path, home: Path, *args: str) -> Any:
    done = run_cli(repo, *args, env={**env(home), **KEY_ENV})
    return done


def _entries(repo: Path) -> list[str]:
    memory = repo / "MEMORY.md"
    return [line for line in memory.read_text("utf-8").splitlines() if line.startswith("- [")] if memory.exists() else []


def _pending(repo: Path, home: Path) -> list[dict[str, Any]]:
    done = _cli(repo, home, "review", "list", "--json")
    assert done.returncode == 0, done.stderr
    return [item for item in json.loads(done.stdout)["items"] if item["kind"] == "import"]


def _serena(repo: Path, *lines: str, name: str = "style.md") -> None:
    write(repo / ".serena" / "memories" / name, "".join(f"- {line}\n" for line in lines))


def test_accept_sends_the_text_to_extraction_as_the_users_statement(repo: Path, tmp_path: Path,
                                                                      server: FakeOpenAI) -> None:
    home = tmp_path / "home"
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM_RECORD)))
    _serena(repo, PNPM)
    before = index_digest(repo)
    [proposed] = import_json(repo, home, "serena")["proposed"]
    assert _entries(repo) == []  # an import is never an entry by itself
    done = _cli(repo, home, "review", "accept", proposed["id"][:7])
    assert done.returncode == 0, done.stderr
    assert "queued as" in done.stdout and "nothing was staged" in done.stdout
    project = project_mod.discover(repo)
    assert wait_for(lambda: not queue.pending(project) and len(_entries(repo)) == 1
                    and worker.running_worker(project) is None)
    said = [m["content"] for r in server.requests for m in r.body["messages"] if m["role"] == "user"]
    assert any(f'role="user">\n{PNPM}\n</message>' in text for text in said)
    assert _pending(repo, home) == []
    again = import_json(repo, home, "serena")
    assert again["proposed"] == [] and again["skipped"] == {"decided": 1}
    assert index_digest(repo) == before


def test_accept_without_a_model_pool_keeps_the_import(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    _serena(repo, PNPM)
    [proposed] = import_json(repo, home, "serena")["proposed"]
    done = _cli(repo, home, "review", "accept", proposed["id"])
    assert done.returncode == 1 and "the import stays pending" in done.stderr
    assert [item["id"] for item in _pending(repo, home)] == [proposed["id"]]


def test_a_rejected_import_is_not_proposed_again(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    _serena(repo, PNPM, CHECK)
    first = import_json(repo, home, "serena")["proposed"]
    done = _cli(repo, home, "review", "reject", first[0]["id"])
    assert done.returncode == 0, done.stderr
    again = import_json(repo, home, "serena")
    assert again["proposed"] == [] and again["skipped"] == {"decided": 1} and again["merged"] == 1
    assert [item["text"] for item in _pending(repo, home)] == [CHECK]
    decided = (project_mod.discover(repo).state_dir / "imports" / "decided.jsonl").read_text("utf-8")
    assert PNPM not in decided  # a decision is kept as a key, never as the text turned down


def test_an_edit_is_judged_and_its_original_is_not_proposed_again(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    _serena(repo, PNPM)
    [proposed] = import_json(repo, home, "serena")["proposed"]
    leaked = _cli(repo, home, "review", "edit", proposed["id"], "--text", f"Use pnpm; token {token()}")
    assert leaked.returncode == 2 and token() not in leaked.stdout + leaked.stderr
    granted = _cli(repo, home, "review", "edit", proposed["id"], "--text", "You may push to main without review.")
    assert granted.returncode == 2 and "grants a permission" in granted.stderr
    done = _cli(repo, home, "review", "edit", proposed["id"], "--text", "Use pnpm for every JS dependency command.")
    assert done.returncode == 0, done.stderr
    assert [item["text"] for item in _pending(repo, home)] == ["Use pnpm for every JS dependency command."]
    again = import_json(repo, home, "serena")
    assert again["proposed"] == [] and again["merged"] == 1


def test_duplicates_are_merged_with_every_origin(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    _serena(repo, PNPM, "we use PNPM — never npm — in this repo")
    _serena(repo, PNPM, name="again.md")
    data = import_json(repo, home, "serena")
    [item] = data["proposed"]
    assert len(item["origins"]) == 3 and data["merged"] == 2


def test_what_memory_or_agents_md_holds_already_is_skipped(repo: Path, tmp_path: Path, server: FakeOpenAI) -> None:
    home = tmp_path / "home"
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM_RECORD)))
    assert _cli(repo, home, "add", PNPM, "--wait").returncode == 0
    write(repo / "AGENTS.md", f"# Rules\n\n- {CHECK}\n")
    _serena(repo, "Use pnpm, never npm, for JS dependencies.", CHECK, "Deploys go through the staging pipeline.")
    data = import_json(repo, home, "serena")
    assert [item["text"] for item in data["proposed"]] == ["Deploys go through the staging pipeline."]
    assert data["skipped"] == {"in-memory": 1, "in-agents-md": 1}


def test_export_agents_md_then_import_is_the_identity(repo: Path, tmp_path: Path, server: FakeOpenAI) -> None:
    home = tmp_path / "home"
    configure(repo, server)
    summaries = ["Use pnpm, never npm, for JS dependencies.", "Run make check before asking for review."]
    server.script("m1", Reply(reply(PNPM_RECORD)),
                  Reply(reply(record(summaries[1], "make check runs before every review request.", CHECK))))
    for words in (PNPM, CHECK):
        assert _cli(repo, home, "add", words, "--wait").returncode == 0
    before = index_digest(repo)
    printed = _cli(repo, home, "export", "agents-md")
    assert printed.returncode == 0 and not (repo / "CLAUDE.md").exists()  # never written without --write
    write(repo / "CLAUDE.md", "# Claude\n\nMy own words stay.\n")
    done = _cli(repo, home, "export", "agents-md", "--write", "CLAUDE.md")
    assert done.returncode == 0, done.stderr
    text = (repo / "CLAUDE.md").read_text("utf-8")
    assert text.startswith("# Claude\n\nMy own words stay.\n\n") and printed.stdout in text
    assert _cli(repo, home, "export", "agents-md", "--write", "CLAUDE.md").returncode == 0
    assert (repo / "CLAUDE.md").read_text("utf-8") == text  # written again: the block is replaced, not added
    here = import_json(repo, home, "agents-md")
    assert here["proposed"] == [] and here["skipped"] == {"in-memory": 2}
    other = make_repo(tmp_path / "other")
    write(other / "CLAUDE.md", text)
    there = import_json(other, home, "agents-md")
    listed = [entry["summary"] for entry in json.loads(_cli(repo, home, "export", "json").stdout)["entries"]]
    assert sorted(listed) == sorted(summaries)
    assert [item["text"] for item in there["proposed"]] == listed  # the same entries, in index order
    assert index_digest(repo) == before


def test_export_leaves_out_an_entry_whose_record_holds_a_secret(repo: Path, tmp_path: Path,
                                                                 server: FakeOpenAI) -> None:
    home = tmp_path / "home"
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM_RECORD)))
    assert _cli(repo, home, "add", PNPM, "--wait").returncode == 0
    [record_file] = (repo / ".chord" / "memory" / "records").glob("*.md")
    text = record_file.read_text("utf-8").replace("## Why keep it\n", f"## Why keep it\nThe token is {token()}.\n")
    record_file.write_text(text, encoding="utf-8")
    done = _cli(repo, home, "export", "json")
    assert done.returncode == 0 and json.loads(done.stdout) == {"entries": [], "excluded": 1}
    assert "1 entry left out" in done.stderr and token() not in done.stdout + done.stderr


def test_export_claude_code_writes_its_auto_memory_and_reads_back(repo: Path, tmp_path: Path,
                                                                  server: FakeOpenAI) -> None:
    home = tmp_path / "home"
    configure(repo, server)
    server.script("m1", Reply(reply(PNPM_RECORD)))
    assert _cli(repo, home, "add", PNPM, "--wait").returncode == 0
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(repo))
    folder = home / ".claude" / "projects" / slug / "memory"
    write(folder / "MEMORY.md", "- [Own](own.md) — Claude's own line\n")
    dry = _cli(repo, home, "export", "claude-code")
    assert dry.returncode == 0 and "would write" in dry.stdout and not list(folder.glob("chord-*.md"))
    done = _cli(repo, home, "export", "claude-code", "--write")
    assert done.returncode == 0, done.stderr
    index = (folder / "MEMORY.md").read_text("utf-8")
    assert index.startswith("- [Own](own.md) — Claude's own line\n") and "chord-" in index
    [topic] = folder.glob("chord-*.md")
    assert "type: \"feedback\"" in topic.read_text("utf-8")
    other = make_repo(tmp_path / "other")
    data = import_json(other, home, "claude-code", "--path", str(folder))
    assert [item["text"] for item in data["proposed"]][0].startswith("All JS dependency commands use pnpm.")
