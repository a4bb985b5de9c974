"""The README's first minutes, walked through as a new user would, from a fresh clone.

A ``git clone`` of this checkout with its tags deleted (``testing.published``); then the README's
front-door command ``./dev demo``, a real fresh install into a new virtual environment
(``CHORD_VENV`` in the test's folder; pip's downloads come from the shared cache), whose output is
checked step by step: install progress, the injected summary, the planted secret refused at
commit, the sample session extracted offline into a record and an entry, the promotion waiting for
review; then the README's ``./dev extract`` line with the same install, which extracts a transcript
with the canned demo model in a scratch project of its own. Then the README's next step,
``pipx install '.[llm]'`` in the clone, and with that install the review the demo points to:
``git memory review accept ID`` in the demo's scratch project (``CHORD_DEMO_DIR``), after which
AGENTS.md holds the accepted text and nothing waits.

Then a false positive accepted for good, through the plain hook (``git memory init --hooks``) and
through the pre-commit framework: the commit is blocked, the command the message prints
(``git memory ignore --last --reason ...``) and the ``git add`` it names let it through, a real
extraction against the loopback model adds two entries above the value, and the next commits
(the extraction's, then one that moves the value's line) pass.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import chord_git
from testing.published import CHECKOUT, base_env, clone_without_tags, git, run
# The ignore walk-through: the loopback model, and the pre-commit framework's fixtures (one hook
# venv for the whole run).
from testing.fake_openai import FakeOpenAI, Reply
from testing.gitutil import cli_env, make_repo
from tests.check.test_precommit_framework import framework_env, framework_home, hooks_repo  # noqa: F401
from tests.extraction.extract_support import KEY_ENV, configure, record, reply, user, write_session

pytestmark = pytest.mark.slow

PLANTED_VALUE = "Hunter2-Blue-77"
PROPOSED = "- Tests never sleep for real: advance the fake clock instead."


def sh_commands(block: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.split("#", 1)[0].strip()]


def readme_front_door() -> tuple[list[str], list[str]]:
    """The sh blocks of the README's "Try it" section, which follows "What it is" and comes before
    anything else to run: the two front-door commands, and the install block after the demo."""
    text = (CHECKOUT / "README.md").read_text()
    headings = re.findall(r"^## (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M), re.M)
    assert headings[:3] == ["What it is", "Try it", "Install"], headings
    before = text.split("\n## Try it\n", 1)[0]
    assert "```sh" not in before, "nothing to run before the front door"
    blocks = re.findall(r"```sh\n(.*?)```", text.split("\n## Try it\n", 1)[1].split("\n## ", 1)[0], re.S)
    assert len(blocks) == 2, "the front door holds the two commands and the advice after the demo"
    return sh_commands(blocks[0]), sh_commands(blocks[1])


def readme_extract_command() -> str:
    """The README's ``./dev extract`` line: one extraction of a transcript with the canned demo model."""
    text = (CHECKOUT / "README.md").read_text()
    [command] = [c for block in re.findall(r"```sh\n(.*?)```", text, re.S) for c in sh_commands(block)
                 if c.startswith("./dev extract ")]
    return command


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

    # The README's way to try extraction on a transcript of one's own, with the demo's install.
    tried = run(shlex.split(readme_extract_command()), demo_env, clone, timeout=900).stdout
    assert "CANNED DEMO MODEL: no language model runs here." in tried
    assert re.search(r"^demo-0001: written 1, replaced 0, dropped 0, promotion files 0 \[canned-demo-model\]$",
                     tried, re.M), tried
    assert "tests in this project never sleep for real" in (tmp_path / "scratch/extract/model-input.txt").read_text()
    assert git(clone, env, "status", "--porcelain") == ""  # nor did the extraction

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


# ---------------------------------------------------------------------------- a false positive, for good
FALSE_POSITIVE = f"The lab router's password is {PLANTED_VALUE}; the router has no network access."
LEARNED = (("Use pnpm, never npm.", "this repo only uses pnpm, please never run npm install"),
           ("Run make check before review.", "always run make check before you ask anyone for review"))


def commit(repo: Path, env: dict[str, str], message: str) -> subprocess.CompletedProcess[str]:
    """``git commit`` as the user types it: every hook installed runs."""
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=280)


def line_of(repo: Path, text: str) -> int:
    return (repo / "MEMORY.md").read_text().splitlines().index(text) + 1


def accept_false_positive_and_keep_extracting(repo: Path, env: dict[str, str]) -> None:
    """The walk-through both hooks share, from a project whose hook is installed."""
    memory = repo / "MEMORY.md"
    memory.write_text(memory.read_text() + f"\n## Notes\n{FALSE_POSITIVE}\n")
    git(repo, env, "add", "MEMORY.md")
    blocked = commit(repo, env, "notes")
    said = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0 and "[password-in-text]" in said, said
    assert PLANTED_VALUE not in said
    # The stable line first (the value's SHA-1, a reason to fill in), then the command, then the commit.
    stable = re.search(r"^      ([0-9a-f]{40})   # why this is not a secret$", said, re.M)
    printed = re.search(r"or let git memory write the lines for every secret above:  (git memory ignore .+)$", said, re.M)
    add = re.search(r"Then commit that file with your change \((git add \S+)\)", said)
    assert stable and printed and add, said
    assert said.index(stable.group(0)) < said.index(printed.group(0)) < said.index(add.group(0))
    words = shlex.split(printed.group(1))
    assert words == ["git", "memory", "ignore", "--last", "--reason", "why this is not a secret"], words
    words[-1] = "the lab router, no network access"
    accepted = run(words, env, repo)
    assert "accepted: MEMORY.md:password-in-text:" in accepted.stdout, accepted.stdout
    assert (repo / ".chord/secrets-ignore").read_text().startswith(f"{stable.group(1)}   # the lab router")
    run(shlex.split(add.group(1)), env, repo)
    passed = commit(repo, env, "notes, the router's password accepted")
    assert passed.returncode == 0, passed.stdout + passed.stderr

    # The background extraction's work, for real: two entries on top of the index, above the value.
    before = line_of(repo, FALSE_POSITIVE)
    with FakeOpenAI() as server:
        configure(repo, server)
        server.script("m1", Reply(reply(*(record(summary, summary, quote) for summary, quote in LEARNED))))
        session = write_session(repo.parent / "session.jsonl", [user(quote) for _, quote in LEARNED])
        extracted = run(["git", "memory", "extract", "--session", str(session)], env, repo)
    assert extracted.stdout.startswith("sess-1: written 2,"), extracted.stdout
    assert line_of(repo, FALSE_POSITIVE) == before + 2
    git(repo, env, "add", "MEMORY.md", ".chord/memory")
    learned = commit(repo, env, "memory: two entries")
    assert learned.returncode == 0, learned.stdout + learned.stderr

    # Moved: the line is new to the diff now, and the hash still accepts it.
    text = memory.read_text().replace(f"{FALSE_POSITIVE}\n", "")
    memory.write_text(text.replace("# Project memory\n", f"# Project memory\n\n{FALSE_POSITIVE}\n", 1))
    git(repo, env, "add", "MEMORY.md")
    moved = commit(repo, env, "notes first")
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert git(repo, env, "status", "--porcelain", "--", "MEMORY.md", ".chord/memory", ".chord/secrets-ignore") == ""


def test_an_accepted_false_positive_stays_accepted_under_the_plain_hook(tmp_path: Path) -> None:
    env = {**cli_env(), **KEY_ENV}
    repo = make_repo(tmp_path / "project")
    installed = run(["git", "memory", "init", "--hooks"], env, repo)
    assert (repo / ".git/hooks/pre-commit").is_file(), installed.stdout + installed.stderr
    git(repo, env, "add", "MEMORY.md")
    git(repo, env, "commit", "-q", "-m", "memory")
    accept_false_positive_and_keep_extracting(repo, env)


def test_an_accepted_false_positive_stays_accepted_under_the_pre_commit_framework(
        tmp_path: Path, hooks_repo: tuple[Path, str], framework_home: Path) -> None:  # noqa: F811
    env = {**framework_env(framework_home), **KEY_ENV}
    repo = make_repo(tmp_path / "project")
    run(["git", "memory", "init"], env, repo)
    path, sha = hooks_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n-   repo: {path}\n    rev: {sha}\n    hooks:\n    -   id: chord-memory-check\n")
    git(repo, env, "add", "MEMORY.md", ".pre-commit-config.yaml")
    git(repo, env, "commit", "-q", "-m", "memory, checked by the framework")
    run([sys.executable, "-m", "pre_commit", "install"], env, repo)
    accept_false_positive_and_keep_extracting(repo, env)
