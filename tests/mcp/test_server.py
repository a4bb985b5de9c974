"""``git memory mcp`` over stdio, driven by the official SDK's client: the four tools as a host
calls them, on a real repository; a proposed memory lands in ``review`` and nowhere else."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from chord_git.distribution import hints
from testing.gitutil import cli_env, git, index_digest
from testing.memory_files import make_record, write_index
from tests.agents.conftest import configure, git_memory

T = TypeVar("T")
PNPM = "20261129-use-pnpm-3f9a"


def _memory(repo: Path) -> None:
    pnpm = make_record(repo, PNPM, source="user", summary="Use pnpm, never npm, for JS dependencies.",
                       statement="All JS dependency commands use pnpm; no package-lock.json is ever created.")
    check = make_record(repo, "20261128-make-check-0b1c", source="user", summary="Run make check before review.")
    over = make_record(repo, "20261127-over-caps-0001", source="user", summary="An over-long pnpm note.",
                       statement="pnpm " * 130)
    make_record(repo, "20261126-forgotten-0002", source="user", summary="Use pnpm workspaces.")
    write_index(repo, [check, pnpm, over])
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")


def _session(repo: Path, work: Callable[[ClientSession], Awaitable[T]]) -> T:
    async def run() -> T:
        params = StdioServerParameters(command=git_memory(), args=["mcp"], cwd=str(repo), env=cli_env())
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)

    return anyio.run(run)


def _text(result: Any) -> str:
    assert not result.is_error, result
    return "\n".join(block.text for block in result.content)


def _tree(repo: Path) -> dict[str, str]:
    return {p.relative_to(repo).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.relative_to(repo).parts}


def test_four_tools_with_short_descriptions(repo: Path) -> None:
    _memory(repo)

    async def work(session: ClientSession) -> Any:
        return await session.list_tools()

    tools = _session(repo, work).tools
    assert sorted(tool.name for tool in tools) == ["memory_status", "propose_memory", "read_memory_record",
                                                  "search_memory"]
    for tool in tools:
        assert tool.description and len(tool.description) <= 160, tool.name
        assert len(json.dumps(tool.input_schema)) < 600  # every listed tool costs context in every request


def test_search_read_and_status_over_stdio(repo: Path) -> None:
    _memory(repo)
    configure(None)
    before = _tree(repo), index_digest(repo)

    async def work(session: ClientSession) -> dict[str, str]:
        return {
            "search": _text(await session.call_tool("search_memory", {"query": "pnpm dependencies"})),
            "read": _text(await session.call_tool("read_memory_record", {"id": PNPM})),
            "orphan": _text(await session.call_tool("read_memory_record", {"id": "20261126-forgotten-0002"})),
            "over": _text(await session.call_tool("read_memory_record", {"id": "20261127-over-caps-0001"})),
            "bad": _text(await session.call_tool("read_memory_record", {"id": "../../etc/passwd"})),
            "status": _text(await session.call_tool("memory_status", {})),
        }

    got = _session(repo, work)
    first_hit = next(line for line in got["search"].splitlines() if line.startswith("1. "))
    assert PNPM in first_hit and "index line 2" in first_hit
    assert "background" in got["search"].splitlines()[0]
    assert "forgotten" not in got["search"] and "over-caps" not in got["search"]  # orphans and R24
    assert got["search"].endswith("1 more entry is not searched: its record breaks the loader's rules "
                                  "(git memory check names them).")
    assert "no package-lock.json is ever created" in got["read"] and f"id: {PNPM}" in got["read"]
    assert "No index entry has id 20261126-forgotten-0002" in got["orphan"]
    assert "is not loaded" in got["over"] and "cap 600" in got["over"]
    assert "is not a record id" in got["bad"]
    assert got["status"].startswith("MEMORY") and "entries: 3  records: 4  orphans: 1" in got["status"]
    assert (_tree(repo), index_digest(repo)) == before  # reading writes nothing


def test_a_proposed_memory_lands_in_review_and_nowhere_else(repo: Path) -> None:
    _memory(repo)
    configure(None)
    memory_before = {k: v for k, v in _tree(repo).items() if not k.startswith(".chord/memory/promotions/")}
    index_before = index_digest(repo)
    text = "Always run `pnpm install --frozen-lockfile` in CI."

    async def work(session: ClientSession) -> list[str]:
        return [_text(await session.call_tool("propose_memory", {"text": text, "reason": "the user asked twice"})),
                _text(await session.call_tool("propose_memory", {"text": text, "reason": "again"})),
                _text(await session.call_tool("propose_memory", {"text": "x", "reason": "r", "target": "/etc/motd"})),
                _text(await session.call_tool("propose_memory", {
                    "text": "Deploy with token ghp_" + "Qz7Lm2Xw9Ka4Rt8Nb3Vc6Yh1Pd5Sf0Gj2EkU", "reason": "r"}))]

    first, again, outside, secret = _session(repo, work)
    assert first.startswith("Suggestion ") and "not a memory entry" in first
    assert again == "Nothing written: the same suggestion is already pending."
    assert outside.startswith("Nothing written: target path is absolute")
    promotions = sorted((repo / ".chord/memory/promotions").iterdir())
    assert len(promotions) == 2, promotions  # the suggestion, and the token one with the token redacted
    assert all("ghp_Qz7L" not in p.read_text("utf-8") for p in promotions)  # R31: redacted before writing
    assert secret.startswith("Suggestion ")
    assert sum("Deploy with token [REDACTED:github-token]" in p.read_text("utf-8") for p in promotions) == 1
    # Nowhere else: MEMORY.md, the records and everything outside the promotions folder are unchanged.
    after = {k: v for k, v in _tree(repo).items() if not k.startswith(".chord/memory/promotions/")}
    assert after == memory_before and index_digest(repo) == index_before
    listed = subprocess.run([git_memory(), "review", "list", "--json"], cwd=repo, capture_output=True, text=True,
                            env=cli_env(), timeout=60)
    items = json.loads(listed.stdout)["items"]
    proposed = [item for item in items if item["kind"] == "promotion" and item["path"] == "AGENTS.md"]
    assert any(item["summary"] == text for item in proposed)
    assert not (repo / "AGENTS.md").exists()


def test_nothing_is_proposed_while_memory_is_off(repo: Path) -> None:
    _memory(repo)

    async def work(session: ClientSession) -> str:
        return _text(await session.call_tool("propose_memory", {"text": "Use tabs.", "reason": "said so"}))

    assert "memory is off" in _session(repo, work)
    assert not (repo / ".chord/memory/promotions").exists()


def test_without_the_sdk_one_line_names_the_install_command(repo: Path) -> None:
    """The extra is missing: ``mcp`` cannot be imported (``sys.modules[name] = None`` is how
    Python itself marks a module as not importable)."""
    probe = ("import sys\nsys.modules['mcp'] = None\nfrom chord_git.main import main\n"
             "sys.exit(main(['mcp']))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, env=cli_env(),
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"git memory: git memory mcp needs the MCP SDK: {hints.extra_hint('mcp')}\n"


def test_a_record_reached_through_a_symlink_is_neither_read_nor_searched(repo: Path, tmp_path: Path) -> None:
    """The tools as plain functions (no SDK between): a listed record that is a symlink is refused."""
    from chord_git.mcp.tools import Tools
    from chord_git.memory.project import discover

    outside = make_record(tmp_path / "elsewhere", "20261125-linked-0001", source="user",
                          summary="Secrets live in the vault.")
    write_index(repo, [outside])
    link = repo / ".chord/memory/records" / f"{outside.id}.md"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(tmp_path / "elsewhere/.chord/memory/records" / f"{outside.id}.md")
    tools = Tools(discover(repo))
    refused = tools.read_memory_record(outside.id)
    assert refused.startswith(f"Record {outside.id} is not loaded: ") and "is a symlink" in refused
    assert "vault" not in refused
    assert tools.search_memory("vault").startswith("No memory entry matches 'vault'")
