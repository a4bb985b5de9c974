"""The hosts' own stores, planted where each host's path rule puts them (the rules as the hosts'
bundles write them, read independently here), then imported: found without ``--path``."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from testing.gitutil import index_digest
from tests.imports.support import (
    OUTSIDE,
    PNPM,
    import_json,
    outside_file,
    rules_text,
    run_import,
    state_texts,
    symlink,
    token,
    write,
)

TOPIC = ("---\nname: Package manager\ndescription: this repo uses pnpm, never npm\ntype: project\n---\n\n"
         f"{PNPM}\n**Why:** the lockfile is pnpm-lock.yaml.\n**How to apply:** run pnpm install.\n")
WITH_WHY = f"{PNPM} **Why:** the lockfile is pnpm-lock.yaml."


def _texts(data: dict[str, object]) -> list[str]:
    return [item["text"] for item in data["proposed"]]  # type: ignore[attr-defined, index]


def test_claude_code_auto_memory_by_its_slug_rule(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = home / ".claude" / "projects" / str(repo).replace("/", "-").replace("_", "-").replace(".", "-") / "memory"
    write(folder / "MEMORY.md", "- [Package manager](pnpm.md) — this repo uses pnpm\n")
    write(folder / "pnpm.md", TOPIC)
    write(folder / "token.md", "---\nname: t\ndescription: deploy\n---\n\n" + f"The deploy token is {token()}.\n")
    symlink(folder / "leak.md", outside_file(tmp_path))
    data = import_json(repo, home, "claude-code")
    assert _texts(data) == [WITH_WHY]
    assert data["dropped"] == {"credential": 1}
    assert {"file": "leak.md", "message": "a symlink out of the store; refused"} in data["problems"]


def test_claude_config_dir_moves_the_store(repo: Path, tmp_path: Path) -> None:
    config = tmp_path / "claude-config"
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(repo))
    write(config / "projects" / slug / "memory" / "pnpm.md", TOPIC)
    data = import_json(repo, tmp_path / "home", "claude-code", extra={"CLAUDE_CONFIG_DIR": str(config)})
    assert _texts(data) == [WITH_WHY]


def test_gemini_private_memory_by_its_registered_id(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    gemini = home / ".gemini"
    write(gemini / "projects.json", json.dumps({"projects": {str(repo): "repo-1"}}))
    write(gemini / "tmp" / "repo-1" / "memory" / "MEMORY.md", "# Memory\n\n" + rules_text())
    write(gemini / "tmp" / "repo" / "memory" / "MEMORY.md", "- Another project's note, never read.\n")
    write(gemini / "GEMINI.md", "# Mine\n\n- A personal instruction, not a saved memory.\n\n"
                                "## Gemini Added Memories\n- Deploys go through the staging pipeline first.\n")
    data = import_json(repo, home, "gemini")
    assert _texts(data) == [PNPM, "Deploys go through the staging pipeline first."]
    assert data["dropped"] == {"credential": 1, "permission-grant": 1}


def test_gemini_without_a_registry_finds_the_marker_or_the_old_hash(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    marked = home / ".gemini" / "tmp" / "renamed"
    write(marked / ".project_root", str(repo))
    write(marked / "memory" / "MEMORY.md", f"- {PNPM}\n")
    legacy = hashlib.sha256(str(repo).encode()).hexdigest()
    write(home / ".gemini" / "tmp" / legacy / "memory" / "notes.md", "- Run make check before review.\n")
    data = import_json(repo, home, "gemini")
    assert _texts(data) == [PNPM, "Run make check before review."]


def test_qwen_managed_memory_is_keyed_by_the_git_root(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    sub = repo / "pkg" / "web"
    sub.mkdir(parents=True)
    key = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(repo))
    memory = home / ".qwen" / "projects" / key / "memory"
    write(memory / "MEMORY.md", "- [Package manager](project/package-manager.md) — this repo uses pnpm, never npm")
    write(memory / "project" / "package-manager.md", TOPIC)
    write(repo / ".qwen" / "team-memory" / "feedback" / "review.md",
          "---\nname: Review\ndescription: review rule\ntype: feedback\n---\n\nRun make check before review.\n")
    write(home / ".qwen" / "QWEN.md", "## Qwen Added Memories\n- Use tabs in Makefiles.\n")
    data = import_json(sub, home, "qwen")
    assert sorted(_texts(data)) == sorted([WITH_WHY, "Run make check before review.", "Use tabs in Makefiles."])


def test_qwen_local_memory_switch(repo: Path, tmp_path: Path) -> None:
    write(repo / ".qwen" / "memory" / "project" / "p.md", TOPIC)
    data = import_json(repo, tmp_path / "home", "qwen", extra={"QWEN_CODE_MEMORY_LOCAL": "1"})
    assert _texts(data) == [WITH_WHY]


def test_codex_reads_only_what_belongs_to_this_project(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    memories = home / ".codex" / "memories_v2"
    header = "thread_id: t1\nupdated_at: 2026-12-07T13:47:13+00:00\nrollout_path: x.jsonl\ncwd: {cwd}\n\n"
    write(memories / "rollout_summaries" / "2026-12-07T15-47-13-PBLP-conventions.md",
          header.format(cwd=repo / "pkg") + f"# Conventions\n\n- {PNPM}\n")
    write(memories / "rollout_summaries" / "2026-12-07T15-50-00-QQQQ-other.md",
          header.format(cwd=tmp_path / "other-project") + "- Another project's rule, never read.\n")
    write(memories / "memory_summary.md",
          "v1\n## User preferences\n- Answers stay short.\n\n## What's in Memory\n### some/project\n"
          "- rollout_summaries/x.md — an index line, not a memory\n")
    write(memories / "extensions" / "ad_hoc" / "notes" / "2026-12-07-review.md", "- Run make check before review.\n")
    write(home / ".codex" / "memories" / "MEMORY.md",
          f"# Task Group: this repo\nscope: conventions\napplies_to: cwd={repo}; reuse_rule=same repo\n\n"
          "## Task 1\n- Tests use real Postgres.\n### rollout_summary_files\n- rollout_summaries/a.md (cwd=x)\n"
          "### keywords\n- postgres\n\n# Task Group: elsewhere\napplies_to: cwd=/srv/other\n- Never read either.\n")
    data = import_json(repo, home, "codex")
    assert sorted(_texts(data)) == sorted([PNPM, "Answers stay short.", "Run make check before review.",
                                           "Tests use real Postgres."])


def test_codex_home_moves_the_store(repo: Path, tmp_path: Path) -> None:
    write(tmp_path / "ch" / "memories_v2" / "extensions" / "ad_hoc" / "notes" / "n.md", f"- {PNPM}\n")
    data = import_json(repo, tmp_path / "home", "codex", extra={"CODEX_HOME": str(tmp_path / "ch")})
    assert _texts(data) == [PNPM]


def test_claude_code_keys_a_subfolder_and_a_long_path_as_the_host_does(tmp_path: Path) -> None:
    from chord_git.imports.sources.claude_code import slug

    # The folder the real Claude Code 2.1.197 made for this path: cut at 200, then its hash in base 36.
    long = "/tmp/import-research/v-more/" + "d" * 120 + "/" + "e" * 120
    assert slug(Path(long)) == "-tmp-import-research-v-more-" + "d" * 120 + "-" + "e" * 51 + "-5fye9"
    assert slug(Path("/tmp/a b_c.d/inner")) == "-tmp-a-b-c-d-inner"


def _claude_store(repo: Path, home: Path) -> Path:
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(repo))
    return home / ".claude" / "projects" / slug / "memory"


def _qwen_store(repo: Path, home: Path) -> Path:
    key = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(repo))
    return home / ".qwen" / "projects" / key / "memory" / "project"


def _gemini_store(repo: Path, home: Path) -> Path:
    write(home / ".gemini" / "projects.json", json.dumps({"projects": {str(repo): "repo"}}))
    return home / ".gemini" / "tmp" / "repo" / "memory"


def _codex_store(repo: Path, home: Path) -> Path:
    return home / ".codex" / "memories_v2" / "extensions" / "ad_hoc" / "notes"


HOST_STORES = {"claude-code": _claude_store, "qwen": _qwen_store, "gemini": _gemini_store, "codex": _codex_store}


@pytest.mark.parametrize("name", sorted(HOST_STORES))
def test_a_hosts_store_drops_credentials_and_grants_and_refuses_a_symlink_out(name: str, repo: Path,
                                                                             tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = HOST_STORES[name](repo, home)
    write(folder / "notes.md", rules_text())
    symlink(folder / "leak.md", outside_file(tmp_path))
    before = index_digest(repo)
    data = import_json(repo, home, name)
    assert _texts(data) == [PNPM]
    assert data["dropped"] == {"credential": 1, "permission-grant": 1}
    assert any(p["file"].endswith("leak.md") and p["message"] == "a symlink out of the store; refused"
               for p in data["problems"])
    plain = run_import(repo, home, name, "--dry-run")
    for text in (plain.stdout + plain.stderr, state_texts(repo)):
        assert token() not in text and OUTSIDE not in text
    assert index_digest(repo) == before


def test_qwen_user_tier_is_read_too(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / ".qwen" / "memories" / "user" / "terse.md",
          "---\nname: Terse answers\ndescription: no summaries\ntype: user\n---\n\nNo summaries at the end of answers.\n")
    data = import_json(repo, home, "qwen")
    assert _texts(data) == ["No summaries at the end of answers."]
