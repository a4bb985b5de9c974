"""Each source, found by its host's own path rule: a rule proposed; a credential dropped and counted,
never echoed; a grant dropped; a symlink out of the store refused; nothing staged."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.imports.registry import BUILTIN
from testing.gitutil import run_cli
from testing.gitutil import index_digest
from tests.imports.support import (
    OUTSIDE,
    env,
    PNPM,
    Plant,
    import_json,
    outside_file,
    rules_text,
    run_import,
    state_texts,
    symlink,
    token,
    write,
)


def _serena(repo: Path, home: Path) -> Path:
    return write(repo / ".serena" / "memories" / "conventions.md", rules_text())


def _memory_bank(repo: Path, home: Path) -> Path:
    return write(repo / "memory-bank" / "techContext.md", rules_text(bullets=False))


def _cursor(repo: Path, home: Path) -> Path:
    front = "---\ndescription: Package manager\nglobs: \"**/*.ts\"\nalwaysApply: true\n---\n"
    return write(repo / ".cursor" / "rules" / "tooling" / "pnpm.mdc", front + rules_text())


def _windsurf(repo: Path, home: Path) -> Path:
    return write(repo / ".windsurf" / "rules" / "tooling.md", rules_text())


def _agents_md(repo: Path, home: Path) -> Path:
    return write(repo / "CLAUDE.md", "# Project\n\nSome prose about the project, not a rule.\n\n" + rules_text())


PROJECT_SOURCES: dict[str, Plant] = {"serena": _serena, "memory-bank": _memory_bank, "cursor-rules": _cursor,
                                     "windsurf": _windsurf, "agents-md": _agents_md}


@pytest.mark.parametrize("name", sorted(PROJECT_SOURCES))
def test_a_project_store_is_judged_item_by_item(name: str, repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    store_file = PROJECT_SOURCES[name](repo, home)
    outside = outside_file(tmp_path)
    symlink(store_file.parent / ("leak.mdc" if name == "cursor-rules" else "leak.md"), outside)
    before = index_digest(repo)
    data = import_json(repo, home, name)
    assert [item["text"] for item in data["proposed"]] == [PNPM]
    assert data["dropped"] == {"credential": 1, "permission-grant": 1}
    [item] = data["proposed"]
    assert (item["source"], item["status"]) == ("imported", "unverified")
    [origin] = item["origins"]
    assert origin["source"] == name and origin["file"].endswith(store_file.name) and origin["line"] > 0
    if name != "agents-md":  # instruction files are read one by one: a symlinked file is refused by name
        assert any(p["message"] == "a symlink out of the store; refused" for p in data["problems"])
    plain = run_import(repo, home, name, "--dry-run")
    assert plain.returncode == 0
    for text in (plain.stdout + plain.stderr, state_texts(repo)):
        assert token() not in text and OUTSIDE not in text
    assert "dropped 1: credential" in plain.stdout
    assert index_digest(repo) == before and (repo / ".git" / "index").exists()


def test_a_symlinked_instruction_file_is_refused(repo: Path, tmp_path: Path) -> None:
    symlink(repo / "GEMINI.md", outside_file(tmp_path))
    write(repo / "AGENTS.md", f"- {PNPM}\n")
    data = import_json(repo, tmp_path / "home", "agents-md")
    assert {"file": "GEMINI.md", "message": "a symlink, or a folder reached through one; refused"} in data["problems"]
    assert OUTSIDE not in str(data)


def test_a_store_folder_that_is_a_symlink_out_of_the_project_is_refused(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere / "notes.md", f"- {OUTSIDE}\n")
    symlink(repo / ".serena" / "memories", elsewhere)
    done = run_import(repo, tmp_path / "home", "serena", "--json")
    assert done.returncode == 0
    assert OUTSIDE not in done.stdout and "refused" in done.stdout


def test_no_store_is_a_one_line_error_naming_where_it_looked(repo: Path, tmp_path: Path) -> None:
    done = run_import(repo, tmp_path / "home", "serena")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "git memory: .serena/memories: no Serena memories store for this project (looked in .serena/memories); "
        "give its folder with --path"]


def test_path_reads_a_store_anywhere(repo: Path, tmp_path: Path) -> None:
    store = write(tmp_path / "exported" / "notes.md", f"- {PNPM}\n")
    data = import_json(repo, tmp_path / "home", "memory-bank", "--path", str(store.parent))
    assert [item["text"] for item in data["proposed"]] == [PNPM]


def test_encoding_damage_is_named_per_file_and_the_damaged_items_are_not_imported(repo: Path, tmp_path: Path) -> None:
    folder = repo / ".serena" / "memories"
    folder.mkdir(parents=True)
    (folder / "a.md").write_bytes(b"- " + PNPM.encode() + b"\n- broken \xff\xfe bytes here\n")
    data = import_json(repo, tmp_path / "home", "serena")
    assert [item["text"] for item in data["proposed"]] == [PNPM]
    assert data["dropped"] == {"encoding-damage": 1}
    assert data["problems"] == [{"file": "a.md", "message": "not valid UTF-8 (first at byte 49); "
                                                          "the damaged items are not imported"}]


def test_the_registry_names_every_source_module() -> None:
    import importlib

    for source in BUILTIN.sources:
        module = importlib.import_module(source.module)
        assert callable(module.stores) and callable(module.read), source.name


def test_the_docs_table_is_the_registry() -> None:
    from tests.conftest import REPO_ROOT

    assert BUILTIN.doc_table() in (REPO_ROOT / "docs" / "import.md").read_text(encoding="utf-8")


def test_a_file_name_that_does_not_print_is_shown_by_its_codes(repo: Path, tmp_path: Path) -> None:
    """A clone's store may name a file with an escape sequence: it never reaches the terminal."""
    folder = repo / ".serena" / "memories"
    write(folder / "\x1b[2Jnotes\n.md", f"- {PNPM}\n")
    symlink(folder / "\x1b]0;owned\x07.md", outside_file(tmp_path))
    done = run_import(repo, tmp_path / "home", "serena")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stderr
    assert "\\x{1b}]0;owned\\x{7}.md: a symlink out of the store; refused" in done.stderr
    review = run_cli(repo, "review", "list", env=env(tmp_path / "home"))
    assert "\\x{1b}[2Jnotes\\x{a}.md:1" in review.stdout and "\x1b" not in review.stdout
