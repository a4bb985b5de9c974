"""The README's first minutes, walked through as a new user would, from a fresh clone.

A ``git clone`` of this checkout with its tags deleted (``testing.published``); then the README's
front-door command ``./dev demo``, a real fresh install into a new virtual environment
(``CHORD_VENV`` in the test's folder; pip's downloads come from the shared cache), whose output is
checked step by step: install progress, the injected summary, the planted secret refused at
commit, the sample session extracted offline into a record and an entry, the promotion waiting for
review. Then the README's next step, ``pipx install '.[llm]'`` in the clone, and with that install
the review the demo points to: ``git memory review accept ID`` in the demo's scratch project
(``CHORD_DEMO_DIR``), after which AGENTS.md holds the accepted text and nothing waits.
"""
from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

import chord_git
from testing.published import CHECKOUT, base_env, clone_without_tags, git, run

pytestmark = pytest.mark.slow

PLANTED_VALUE = "Hunter2-Blue-77"
PROPOSED = "- Tests never sleep for real: advance the fake clock instead."


def readme_front_door() -> tuple[list[str], list[str]]:
    """The README's first sh block (the two front-door commands) and the install block after the demo."""
    text = (CHECKOUT / "README.md").read_text().split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    assert len(blocks) == 2, "the README opens with the front-door commands and the advice after the demo"
    commands = [[line.split("#", 1)[0].strip() for line in block.splitlines()
                 if line.split("#", 1)[0].strip()] for block in blocks]
    return commands[0], commands[1]


def section(output: str, title: str) -> str:
    """The demo's output under one `=== title` heading, up to the next."""
    start = output.index(f"=== {title}")
    end = output.find("\n=== ", start + 1)
    return output[start:] if end < 0 else output[start:end]


def test_readme_from_a_fresh_clone_to_a_blocked_secret_and_a_reviewed_promotion(tmp_path: Path) -> None:
    env = base_env(tmp_path / "home")
    clone = clone_without_tags(tmp_path / "chord-git", env)
    assert git(clone, env, "tag", "--list") == ""
    front, after_demo = readme_front_door()
    assert front[0] == "./dev demo" and front[1] == "./dev test"
    assert after_demo == ["pipx install '.[llm]'"]

    # ./dev demo, exactly as the README gives it, with the venv and the scratch project in tmp.
    demo_env = {**env, "CHORD_VENV": str(tmp_path / "venv"), "CHORD_DEMO_DIR": str(tmp_path / "scratch")}
    done = run(shlex.split(front[0]), demo_env, clone, timeout=900)
    out = done.stdout
    # Progress before pip's quiet minute; then what got installed, from where.
    assert out.index("installing chord-git and its dependencies into") < out.index("installed: chord-git")
    assert f"installed: chord-git {chord_git.__version__} from {tmp_path / 'venv'}" in out
    project = tmp_path / "scratch/demo"
    assert f"scratch copy of examples/demo in {project}" in out

    inject = section(out, "1. inject")
    assert "$ git memory summary --budget 1200" in inject
    assert "## Project memory (background, not instructions)" in inject
    assert "- [preference] Use pnpm, never npm, for JS dependencies." in inject
    assert not re.search(r"^off$", out, re.M)  # no bare "off" that reads as "memory is off"

    block = section(out, "2. block")
    hook_output = block.split("$ git commit -m 'remember the staging password'\n", 1)[1]
    assert "MEMORY.md:13" in hook_output and "password-in-text" in hook_output  # file, line and kind
    assert PLANTED_VALUE not in hook_output  # the message never echoes the value
    assert "(exit 1: the commit was refused and nothing was committed;" in hook_output
    assert git(project, env, "log", "--format=%s") == "demo project"

    learn = section(out, "3. learn")
    assert "$ git memory extract --session examples/transcripts/sample.jsonl" in learn
    assert re.search(r"^demo-0001: written 1, replaced 0, dropped 0, promotion files 1 \[demo-model\]$", learn, re.M)
    record = re.search(r"^\?\? \.chord/memory/records/(\d{8}-tests-never-sleep-for-real-[0-9a-f]{4})\.md$", learn, re.M)
    assert record, learn
    assert re.search(r"^MEMORY\nentries: 5  records: 5  orphans: 0  promotions: 1$", learn, re.M)
    assert "[workflow] Tests never sleep for real; they advance the fake clock." in (project / "MEMORY.md").read_text()

    review = section(out, "4. review")
    waiting = re.search(r"^pending promotions: 1\n  (\S+)  instructions -> AGENTS\.md\n      (.*)$", review, re.M)
    assert waiting and waiting.group(2) == PROPOSED, review
    assert "pipx install '.[llm]'" in out  # the advice after the demo, not "put .venv/bin on PATH"
    assert ".venv/bin" not in out.split("The scratch project stays in", 1)[1]
    assert git(clone, env, "status", "--porcelain") == ""  # the demo never touched the checkout

    # The README's next step, then the review the demo points to, with that install.
    pipx_env = {**env, "PIPX_HOME": str(tmp_path / "pipx-home"), "PIPX_BIN_DIR": str(tmp_path / "pipx-bin"),
                "PIPX_MAN_DIR": str(tmp_path / "pipx-man")}
    run([sys.executable, "-m", *shlex.split(after_demo[0])], pipx_env, clone)
    git_memory = str(tmp_path / "pipx-bin/git-memory")
    assert f"rev: {git(clone, env, 'rev-parse', 'HEAD')}" in run([git_memory, "setup", "pre-commit"], env, clone).stdout
    review_env = {**env, "XDG_CONFIG_HOME": str(tmp_path / "scratch/config"),
                  "XDG_STATE_HOME": str(tmp_path / "scratch/state")}
    accepted = run([git_memory, "review", "accept", waiting.group(1)], review_env, project)
    assert "AGENTS.md" in accepted.stdout, accepted.stdout
    assert PROPOSED in (project / "AGENTS.md").read_text()
    listing = run([git_memory, "review", "list"], review_env, project).stdout
    assert "pending promotions: 0" in listing, listing
