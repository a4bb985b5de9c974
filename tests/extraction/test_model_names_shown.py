"""A key pasted as a model name is never echoed: not in the failure reason on stderr, not in
MEMORY-FAIL, not in the run log. A config refuses the formats the sanitizer knows; generated
tokens it does not know (a legacy ``sk-`` key, a bare random token) reach the pool and are
redacted wherever the model is named."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git import config as config_mod
from chord_git.errors import ExtractionFailed
from chord_git.extraction.pipeline import extract_session
from chord_git.extraction.pool import shown_model
from chord_git.memory import project as project_mod
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env, run_cli

PASTED = ("sk-lwsekkqH8kQrPTsDSuFEhbtyvAYmqgq5UGn9MB0bobzjcU9k", "cEpVZzAQlxJ4SXRVxfCQGgXkH1zxFUbE",
          "gsk_ctT2NLLzPkkGoaXmI63JozGw82KwD6rQJM9UpXb7KcYv2Rq8WdTe1Lh4", "tgp_v1_" + "7467537a4b63e0ef" * 3)
MODEL_NAMES = ("gpt-4o-mini", "claude-3-5-sonnet-20241022", "Qwen/Qwen2.5-72B-Instruct-Turbo",
               "llama3.1:8b-instruct-q4_K_M", "ft:gpt-4o-mini-2024-07-18:my-org:custom-suffix:9ABcDeFg",
               "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "mixtral-8x7b-32768", "extract-m",
               "arn:aws:bedrock:us-east-1:123456789012:provisioned-model/abc123def456",
               "nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "models/gemini-2.0-flash-thinking-exp-01-21")


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_names_are_shown_as_they_are(name: str) -> None:
    assert shown_model(name) == name


def _fragments(value: str, size: int = 8) -> set[str]:
    return {value[i:i + size] for i in range(len(value) - size + 1)}


@pytest.mark.parametrize("pasted", PASTED)
def test_a_key_pasted_as_a_model_name_is_never_echoed(repo: Path, pasted: str) -> None:
    env = cli_env()
    session = repo.parent / "session.jsonl"
    session.write_text('{"type":"session","id":"s1","frozen":true}\n'
                       '{"type":"message","role":"user","content":"this repo only uses pnpm"}\n')
    with FakeOpenAI() as server:  # no script for that name: 404 model not found
        config = Path(env["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f"model_pool:\n  - model: {pasted}\n    base_url: {server.base_url}\n"
                          "    api_key_env: K\nmemory:\n  enabled: true\n")
        result = run_cli(repo, "extract", "--session", str(session), env=dict(env, K="placeholder"))
        assert [r.model for r in server.requests] == [pasted]  # the pool did use it
        # The same failure in the background (a run by hand records none) sets MEMORY-FAIL.
        project = project_mod.discover(repo)
        with pytest.raises(ExtractionFailed):
            extract_session(project, config_mod.load(project.root, env), session, env=dict(env, K="placeholder"))
    assert result.returncode == 1 and "looks like a key" in result.stderr, result.stderr
    status = run_cli(repo, "status", env=env)
    assert "MEMORY-FAIL" in status.stdout
    logs = "".join(p.read_text(errors="replace") for p in (repo / ".git").rglob("*")
                   if p.is_file() and "chord" in str(p.relative_to(repo / ".git")))
    for said in (result.stderr, status.stdout, status.stderr, logs):
        assert not any(part in said for part in _fragments(pasted.split("_")[-1].split("-")[-1])), said


def test_a_vendor_key_pasted_as_a_model_name_refuses_the_config_without_echoing_it(repo: Path) -> None:
    # An OpenRouter key is a format layer 1 knows: the config is refused before any request.
    pasted = "sk-or-v1-" + "7467537a4b63e0ef" * 4
    env = cli_env()
    session = repo.parent / "session.jsonl"
    session.write_text('{"type":"session","id":"s1","frozen":true}\n'
                       '{"type":"message","role":"user","content":"this repo only uses pnpm"}\n')
    with FakeOpenAI() as server:
        config = Path(env["XDG_CONFIG_HOME"]) / "chord" / "config.yaml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f"model_pool:\n  - model: {pasted}\n    base_url: {server.base_url}\n"
                          "    api_key_env: K\nmemory:\n  enabled: true\n")
        result = run_cli(repo, "extract", "--session", str(session), env=dict(env, K="placeholder"))
        assert server.requests == []
    assert result.returncode == 2 and "openrouter-api-key" in result.stderr, result.stderr
    assert not any(part in result.stderr for part in _fragments(pasted.split("-")[-1]))
