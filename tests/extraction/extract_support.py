"""Helpers for the extraction pipeline tests: a project whose pool points at the loopback server,
native transcripts, and model replies in the SPEC output schema."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from chord_git import config as config_mod
from chord_git import config_trust
from chord_git.config import Config
from chord_git.memory import project as project_mod
from chord_git.memory.project import Project
from testing.fake_openai import FakeOpenAI

# The NAME of the key variable (never a key); the value set in tests is a placeholder.
KEY_VAR = "CHORD_TEST_EXTRACT_KEY"
KEY_ENV = {KEY_VAR: "test-placeholder"}


def configure(root: Path, server: FakeOpenAI | None, models: Sequence[str] = ("m1",), *,
              enabled: bool = True, dedicated: bool = False, extra_memory: Mapping[str, Any] | None = None,
              timeout: float = 5.0) -> None:
    """Write the project's ``.chord/config.yaml`` with a pool on the fake server."""
    base = server.base_url if server is not None else "http://127.0.0.1:9/v1"
    pool = [{"model": m, "base_url": base, "api_key_env": KEY_VAR, "timeout": timeout} for m in models]
    memory: dict[str, Any] = {"enabled": enabled, **(extra_memory or {})}
    data: dict[str, Any] = {"memory": memory}
    if dedicated:
        memory["model_pool"] = pool
    else:
        data["model_pool"] = pool
    (root / ".chord").mkdir(exist_ok=True)
    path = root / ".chord" / "config.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    config_trust.allow(path, path.read_bytes())  # the user's own project: as `git memory trust` does


def project_and_config(root: Path) -> tuple[Project, Config]:
    project = project_mod.discover(root)
    return project, config_mod.load(project.root)


def user(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": text, **extra}


def assistant(text: str, complete: bool = True) -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "content": text, "complete": complete}


def tool_call(name: str, payload: str) -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "input": payload}


def tool_result(text: str) -> dict[str, Any]:
    return {"type": "tool_result", "content": text}


def compaction(summary: str) -> dict[str, Any]:
    return {"type": "compaction", "summary": summary}


def write_session(path: Path, lines: Iterable[Mapping[str, Any]], *, session_id: str | None = "sess-1",
                  frozen: bool = True) -> Path:
    header: dict[str, Any] = {"type": "session", "frozen": frozen}
    if session_id is not None:
        header["id"] = session_id
    text = "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in [header, *lines])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def record(summary: str, statement: str, evidence: str | None, *, type: str = "preference",  # noqa: A002
           source: str = "user", status: str = "stated", supersedes: str | None = None,
           why: str = "Later sessions would otherwise ask again.",
           how_to_apply: str = "Apply it whenever the situation comes up.") -> dict[str, Any]:
    return {"type": type, "summary": summary, "statement": statement, "why": why,
            "how_to_apply": how_to_apply, "source": source, "status": status,
            "evidence": evidence, "supersedes": supersedes}


def reply(*records: Mapping[str, Any], retire: Sequence[Mapping[str, Any]] = (),
          promotions: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    return {"records": [dict(r) for r in records], "retire": list(retire), "promotions": list(promotions)}


def request_texts(server: FakeOpenAI) -> list[str]:
    """Every request body the server received, as JSON text (non-ASCII kept as is)."""
    return [json.dumps(r.body, ensure_ascii=False) for r in server.requests]


def tree_texts(root: Path) -> dict[str, str]:
    """Every file of the working tree outside .git, as text."""
    out = {}
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.relative_to(root).parts:
            out[path.relative_to(root).as_posix()] = path.read_text("utf-8", "replace")
    return out


def state_texts(project: Project) -> dict[str, str]:
    """Every file of the runtime state directory, as text."""
    if not project.state_dir.exists():
        return {}
    return {p.name: p.read_text("utf-8", "replace") for p in project.state_dir.rglob("*") if p.is_file()}


def fake_github_token() -> str:
    """A format-valid GitHub token, assembled at runtime so no file holds one."""
    return "gh" + "p_" + "Z9qX7mW4bV2k" + "T8sR1nQ5pL0o" + "N3yM6jK4hJ7c"
