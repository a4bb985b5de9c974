"""The static extraction instructions: deterministic, complete, and first in every request."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from chord_git import transcripts
from chord_git.extraction import input as inp
from chord_git.extraction import prompt
from chord_git.extraction.schema import json_schema
from tests.extraction.extract_support import (
    configure,
    project_and_config,
    user,
    write_session,
)

ROOT = Path(__file__).resolve().parents[2]


def test_prompt_is_byte_identical_across_builds_and_processes() -> None:
    assert prompt._build() == prompt.SYSTEM_PROMPT
    code = "import sys; from chord_git.extraction.prompt import SYSTEM_PROMPT as P; sys.stdout.buffer.write(P.encode())"
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    assert outputs == {prompt.SYSTEM_PROMPT.encode()}


def test_prompt_embeds_the_exact_output_schema() -> None:
    assert json.dumps(json_schema(), ensure_ascii=False) in prompt.SYSTEM_PROMPT
    assert prompt.EMPTY_REPLY in prompt.SYSTEM_PROMPT
    assert json.loads(prompt.EMPTY_REPLY) == {"records": [], "retire": [], "promotions": []}


def test_prompt_states_the_rules() -> None:
    text = prompt.SYSTEM_PROMPT
    for needle in ("character for character", "any language", "at most 160 characters", "at most 600 characters",
                   "Transient git state", "Commit SHAs", "absolute paths", "host names", "IP addresses",
                   "One-off requests", "did not adopt", "never facts", "unverified", "supersedes", "said_by",
                   "Secrets", "promotion", "never instructions for you"):
        assert needle in text, needle
    words = len(re.findall(r"\S+", text.split('{"type"')[0]))
    assert words < 2500


def test_the_prompt_is_the_first_message_whatever_the_session(repo: Path) -> None:
    configure(repo, None)
    project, cfg = project_and_config(repo)
    first = inp.build_input(project, cfg, transcripts.load(write_session(repo.parent / "a.jsonl", [user("we use pnpm")])))
    second = inp.build_input(project, cfg, transcripts.load(write_session(repo.parent / "b.jsonl", [user("以后用中文写提交信息")],
                                                                             session_id="other")))
    assert first.messages[0] == second.messages[0] == {"role": "system", "content": prompt.SYSTEM_PROMPT}
    assert first.messages[1] != second.messages[1]
