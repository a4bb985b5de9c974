"""Every documented route, run as written against a clone of this checkout whose tags were deleted.

Release tags do not travel with every copy of the repository, so a route that names one fails
there. The clone (``published``) holds the current tree committed on ``main`` and no tags; its
``file://`` URL stands in for the README's URL placeholder. The routes:

- the README's install commands: pip and pipx from the git URL (no ref: the default branch);
- ``git memory setup pre-commit|gitlab`` from such an install, which must print the commit pip
  installed (pip's ``direct_url.json``);
- the pre-commit framework with the configuration ``setup pre-commit`` prints: a real ``git commit``
  with a secret staged is refused;
- the GitHub Action's shell steps, run in order as a runner would (its ``RUNNER_TEMP``,
  ``GITHUB_ACTION_PATH``, ``GITHUB_OUTPUT`` and a push event);
- the GitLab job's ``before_script`` and ``script``, with the template's variables, the URL a user
  sets and the variables GitLab sets for a merge request pipeline, once with the template's default
  ref and once with the commit ``setup gitlab`` prints.

Dependencies come from the package index, as on a user's machine; downloads are cached beside the
test environment (``testing.published.PIP_CACHE``), never in the isolated home directory.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import chord_git
from testing.published import base_env, clone_without_tags, git, run
from testing.published import file_url as url_of

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "https://github.com/OWNER/chord-git"
# A GitHub token the sanitizer recognises, assembled so that this file holds none.
SECRET = "gh" + "p_" + "R7kQ2mVx9L" + "pT4nWz8sYb" + "3Hc6Jd1Fg5" + "Ae0Ui7"

pytestmark = pytest.mark.slow


def readme_install_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Install\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the README's Install section has a sh block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The tagless clone and its HEAD commit."""
    top = tmp_path_factory.mktemp("published")
    env = base_env(top / "home")
    repo = clone_without_tags(top / "chord-git", env)
    return repo, git(repo, env, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def pip_installed(published: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's ``pip install`` line, run as written into a new virtual environment: its bin dir."""
    repo, _ = published
    top = tmp_path_factory.mktemp("pip-route")
    env = base_env(top / "home")
    [command] = [c for c in readme_install_commands() if c.startswith("pip install ")]
    venv = top / "venv"
    run([sys.executable, "-m", "venv", str(venv)], env, top)
    run([str(venv / "bin/python"), "-m", *shlex.split(command.replace(PLACEHOLDER, url_of(repo)))], env, top)
    return venv / "bin"


def test_readme_install_commands_name_no_tag() -> None:
    commands = readme_install_commands()
    assert any(c.startswith("pipx install ") for c in commands) and any(c.startswith("pip install ") for c in commands)
    for command in commands:
        assert f"{PLACEHOLDER}'" in command, command  # the default branch: every copy has it


def test_no_documented_route_pins_a_tag() -> None:
    tag = re.compile(r"(@|rev: |ref: |CHORD_GIT_REF: |/)v\d+\.\d+")
    for rel in ("README.md", "docs/ci.md", ".pre-commit-hooks.yaml", "action.yml", "ci/gitlab/memory-scan.yml",
                "hooks/pre-commit", "chord_git/data/pre-commit-hook"):
        text = (ROOT / rel).read_text()
        assert not tag.search(text), (rel, tag.search(text))


def check_install(bin_dir: Path, python: Path, man_page: Path, env: dict[str, str], cwd: Path, extras: bool) -> None:
    for script in ("git-memory", "chord-git"):
        version = run([str(bin_dir / script), "--version"], env, cwd).stdout
        assert version.startswith(f"chord-git {chord_git.__version__} from {python.parent.parent}"), version
    assert man_page.exists()
    imports = subprocess.run([str(python), "-c", "import openai"], capture_output=True)
    assert (imports.returncode == 0) == extras  # the model client only with [llm]
    # The installed tool works on a repository: through git, as `git memory`.
    project = cwd / "project"
    run(["git", "init", "-q", str(project)], env, cwd)
    env = {**env, "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}"}
    assert "created MEMORY.md" in run(["git", "memory", "init"], env, project).stdout


def test_pip_from_the_git_url(pip_installed: Path, published: tuple[Path, str], tmp_path: Path) -> None:
    venv = pip_installed.parent
    check_install(pip_installed, venv / "bin/python", venv / "share/man/man1/git-memory.1", base_env(tmp_path / "home"),
                  tmp_path, extras=True)


@pytest.mark.parametrize("number", [n for n, c in enumerate(readme_install_commands()) if c.startswith("pipx ")])
def test_pipx_from_the_git_url(published: tuple[Path, str], tmp_path: Path, number: int) -> None:
    repo, _ = published
    command = readme_install_commands()[number].replace(PLACEHOLDER, url_of(repo))
    env = base_env(tmp_path / "home")
    env.update(PIPX_HOME=str(tmp_path / "pipx-home"), PIPX_BIN_DIR=str(tmp_path / "pipx-bin"),
               PIPX_MAN_DIR=str(tmp_path / "pipx-man"))
    run([sys.executable, "-m", *shlex.split(command)], env, tmp_path)
    check_install(tmp_path / "pipx-bin", tmp_path / "pipx-home/venvs/chord-git/bin/python",
                  tmp_path / "pipx-man/man1/git-memory.1", env, tmp_path, extras="[llm]" in command)


def test_setup_prints_the_installed_commit(pip_installed: Path, published: tuple[Path, str], tmp_path: Path) -> None:
    repo, sha = published
    env = base_env(tmp_path / "home")
    done = run([str(pip_installed / "git-memory"), "setup", "pre-commit"], env, tmp_path)
    config = yaml.safe_load(done.stdout)
    assert config["repos"][0]["repo"] == url_of(repo) and config["repos"][0]["rev"] == sha
    assert done.stderr == ""  # nothing unknown: no warning
    gitlab = yaml.safe_load(run([str(pip_installed / "git-memory"), "setup", "gitlab"], env, tmp_path).stdout)
    assert gitlab["variables"] == {"CHORD_GIT_URL": url_of(repo), "CHORD_GIT_REF": sha}
    github = run([str(pip_installed / "git-memory"), "setup", "github"], env, tmp_path)
    assert f"uses: OWNER/chord-git@{sha}" in github.stdout  # a file:// URL names no GitHub repository
    assert "OWNER/chord-git stands for" in github.stderr


def memory_project(path: Path, env: Mapping[str, str]) -> Path:
    """A project repository with an empty managed index committed."""
    run(["git", "init", "-q", "-b", "main", str(path)], env, path.parent)
    (path / ".chord/memory/records").mkdir(parents=True)
    (path / ".chord/memory/records/.keep").write_text("")
    (path / "MEMORY.md").write_text("# Project memory\n\n<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
    git(path, env, "add", "-A")
    git(path, env, "commit", "-q", "-m", "memory")
    return path


def leak(project: Path) -> None:
    text = (project / "MEMORY.md").read_text()
    (project / "MEMORY.md").write_text(text + f"\nThe deploy token is {SECRET}\n")


def test_pre_commit_framework_with_the_printed_config(pip_installed: Path, published: tuple[Path, str],
                                                      tmp_path: Path) -> None:
    env = base_env(tmp_path / "home")
    config = run([str(pip_installed / "git-memory"), "setup", "pre-commit"], env, tmp_path).stdout
    project = memory_project(tmp_path / "project", env)
    (project / ".pre-commit-config.yaml").write_text(config)
    git(project, env, "add", ".pre-commit-config.yaml")
    git(project, env, "commit", "-q", "-m", "pre-commit config")
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    run([sys.executable, "-m", "pre_commit", "install"], env, project)
    leak(project)
    git(project, env, "add", "MEMORY.md")
    before = git(project, env, "rev-parse", "HEAD")
    blocked = run(["git", "commit", "-m", "leak"], env, project, ok=False)
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode == 1, output
    assert "chord memory check" in output and "Failed" in output
    assert "MEMORY.md:6" in output and SECRET not in output
    assert git(project, env, "rev-parse", "HEAD") == before


def test_github_action_steps_as_a_runner_runs_them(published: tuple[Path, str], tmp_path: Path) -> None:
    repo, sha = published
    action = yaml.safe_load((repo / "action.yml").read_text())
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    env = base_env(tmp_path / "home")
    workspace = memory_project(tmp_path / "workspace", env)
    before = git(workspace, env, "rev-parse", "HEAD")
    leak(workspace)
    git(workspace, env, "commit", "-q", "-am", "leak")
    after = git(workspace, env, "rev-parse", "HEAD")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"before": before, "after": after, "ref": "refs/heads/main",
                                 "repository": {"default_branch": "main"}}))
    output = tmp_path / "github-output"
    output.write_text("")
    (tmp_path / "runner-temp").mkdir()
    env.update(GITHUB_ACTIONS="true", CI="true", GITHUB_EVENT_NAME="push", GITHUB_EVENT_PATH=str(event),
               GITHUB_SHA=after, GITHUB_WORKSPACE=str(workspace), GITHUB_OUTPUT=str(output),
               RUNNER_TEMP=str(tmp_path / "runner-temp"), GITHUB_ACTION_PATH=str(repo))

    def expand(value: str) -> str:
        # The expressions the steps' env uses: ${{ inputs.NAME }}.
        return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: str(inputs[m.group(1)]), value)

    results: dict[str, subprocess.CompletedProcess[str]] = {}
    for step in action["runs"]["steps"]:
        if "run" not in step:
            assert step["uses"].startswith("github/codeql-action/upload-sarif@")  # GitHub's own, not run here
            continue
        if step.get("if") and "inputs.fold == 'true'" in step["if"] and str(inputs.get("fold")).lower() != "true":
            continue  # the fold is opt-in and runs only on pushes to the default branch
        if step.get("if") and "steps.scan.outputs.exit-code == '1'" in step["if"]:
            outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
            if outputs.get("exit-code") != "1":
                continue
        step_env = {**env, **{k: expand(str(v)) for k, v in step.get("env", {}).items()}}
        assert step["shell"] == "bash"
        results[step["name"]] = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                    step_env, workspace, ok=False)
    install, scan, fail = results.values()
    assert install.returncode == 0, install.stderr
    assert install.stdout.startswith(f"chord-git {chord_git.__version__} from {tmp_path / 'runner-temp'}")
    assert scan.returncode == 0, scan.stderr  # findings are reported by the outputs, not by this step
    assert "the pushed commits" in scan.stderr and "MEMORY.md:6" in scan.stdout and SECRET not in scan.stdout
    assert "exit-code=1" in output.read_text()
    sarif = json.loads((workspace / inputs["output"]).read_text())
    assert sarif["runs"][0]["results"]
    assert fail.returncode == 1 and "::error title=chord-git::" in fail.stdout
    # Installed from the action's own checkout: the build recorded its commit.
    pinned = run([str(tmp_path / "runner-temp/chord-git/bin/git-memory"), "setup", "github"], env, tmp_path).stdout
    assert f"@{sha}" in pinned


@pytest.mark.parametrize("ref", ["template default", "printed commit"])
def test_gitlab_job_script(published: tuple[Path, str], pip_installed: Path, tmp_path: Path, ref: str) -> None:
    repo, sha = published
    template = yaml.safe_load((repo / "ci/gitlab/memory-scan.yml").read_text())
    job = template[".chord-memory-scan"]
    assert template["chord-memory-scan"]["extends"] == ".chord-memory-scan"
    env = base_env(tmp_path / "home")
    variables = {k: str(v) for k, v in {**template["variables"], **job["variables"]}.items()}
    variables["CHORD_GIT_URL"] = url_of(repo)  # the one variable a user must set
    if ref == "printed commit":
        printed = yaml.safe_load(run([str(pip_installed / "git-memory"), "setup", "gitlab"], env, tmp_path).stdout)
        variables.update(printed["variables"])
    project = memory_project(tmp_path / "project", env)
    base = git(project, env, "rev-parse", "HEAD")
    git(project, env, "checkout", "-q", "-b", "feature")
    leak(project)
    git(project, env, "commit", "-q", "-am", "leak")
    head = git(project, env, "rev-parse", "HEAD")
    # The image's `python`; its /tmp is the container's own, here a folder of this test.
    shim = tmp_path / "image-bin"
    shim.mkdir()
    (shim / "python").symlink_to(sys.executable)
    env.update(variables, GITLAB_CI="true", CI="true", CI_PROJECT_DIR=str(project), CI_PIPELINE_SOURCE="merge_request_event",
               CI_COMMIT_SHA=head, CI_MERGE_REQUEST_DIFF_BASE_SHA=base, CI_DEFAULT_BRANCH="main",
               PATH=f"{shim}{os.pathsep}{env['PATH']}")
    lines = [line.replace("/tmp/chord-git", str(tmp_path / "tmp/chord-git")) for line in
             [*job["before_script"], *job["script"]]]
    # GitLab runs the lines in one shell that stops at the first failing line.
    script = "set -e\n" + "\n".join(lines) + "\n"
    done = run(["sh", "-c", script], env, project, ok=False)
    assert done.returncode == 1, done.stdout + done.stderr  # findings fail the job
    assert f"chord-git {chord_git.__version__} from {tmp_path / 'tmp/chord-git'}" in done.stdout
    assert "the merge request's commits" in done.stderr and "MEMORY.md:6" in done.stdout and SECRET not in done.stdout
    report: Any = json.loads((project / variables["CHORD_MEMORY_REPORT"]).read_text())
    assert report["runs"][0]["results"]
    installed = run([str(tmp_path / "tmp/chord-git/bin/git-memory"), "setup", "gitlab"], env, tmp_path).stdout
    assert yaml.safe_load(installed)["variables"]["CHORD_GIT_REF"] == sha
