"""Every install or setup command the tool prints works as printed, or names where chord-git came from.

The hints come from one registry (``chord_git.distribution.hints.every_hint``), walked here for
the real installation of this test environment and for the other kinds an installation can be
(pipx, pip from a git URL, a folder, a copy whose origin is unknown, an environment without pip).
A command is proven without the network: its program exists; pipx's own parser takes it; a pip
requirement parses and is exactly an extra of our metadata, or chord-git with a real extra at the
URL and commit pip recorded; for this environment the pip command is run for real (``--dry-run
--no-index``: the extras are installed here, so pip resolves them offline). The ``setup``
snippets are read as YAML, and every ``git memory`` command line in them, in the hooks they name,
in the action and in the GitLab template is parsed by our own parser. Placeholders (``OWNER``)
appear only where the origin is unknown, always with the note saying to replace them. A last test
reads the package's string constants: no other module spells an install command.
"""
from __future__ import annotations

import ast
import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from chord_git import main as main_mod
from chord_git.commands import help as help_mod
from chord_git.commands.setup import github_slug, render_snippet, snippet_warnings
from chord_git.distribution import hints, source
from chord_git.distribution.source import DIST, Environment, Installed, Source
from chord_git.git import hooks as hooks_mod
from testing.gitutil import cli_env, git, run_cli

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "chord_git"
SHA = "0123456789abcdef0123456789abcdef01234567"


def _installed_as_the_tool_sees_it() -> Installed:
    """``source.installed()`` in the installed tool's own process: pytest's sys.path starts with
    the checkout, whose build leftovers (``chord_git.egg-info``) are another distribution record."""
    code = ("import json; from chord_git.distribution import source as s; i = s.installed(); "
            "print(json.dumps([[i.source.url, i.source.commit, i.source.folder], "
            "[i.environment.python, i.environment.pipx_venv, i.environment.has_pip], i.extras]))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, cwd="/")
    src, env, extras = json.loads(done.stdout)
    return Installed(Source(*src), Environment(*env), {name: tuple(items) for name, items in extras.items()})


REAL = _installed_as_the_tool_sees_it()

SOURCES = {
    "github": Source("https://github.com/acme/chord-git", SHA),
    "other host": Source("https://git.example.org/acme/chord-git.git", SHA),
    "no commit": Source("https://github.com/acme/chord-git", None),
    "folder": Source(None, None, str(ROOT)),
    "unknown": Source(None, None),
    "this install": REAL.source,
}
ENVIRONMENTS = {
    "pip": Environment(sys.executable, None, True),
    "pipx": Environment(sys.executable, "chord-git", True),
    "no pip": Environment(sys.executable, None, False),
    "this environment": REAL.environment,
}
CASES = [pytest.param(Installed(src, env, REAL.extras), id=f"{s}-{e}")
         for s, src in SOURCES.items() for e, env in ENVIRONMENTS.items()]


def _pipx_parser() -> object:
    from pipx.main import get_command_parser  # type: ignore[import-untyped]

    # pipx returned (parser, subparsers) up to 1.18.4 and returns the parser alone since.
    made = get_command_parser()
    return made[0] if isinstance(made, tuple) else made


def _check_requirement(text: str, extra: str | None, found: Installed) -> None:
    requirement = Requirement(text)
    if requirement.name == DIST:
        # chord-git again, with an extra of ours, from exactly the URL and commit pip recorded.
        assert requirement.extras and requirement.extras <= set(REAL.extras) and requirement.extras <= set(hints.EXTRAS)
        assert found.source.url is not None and found.source.commit is not None
        assert requirement.url == f"git+{found.source.url}@{found.source.commit}"
    else:
        assert extra is not None and requirement in {Requirement(r) for r in found.extras[extra]}, (text, extra)


def check_command(command: str, found: Installed, extra: str | None = None) -> None:
    """``command`` runs: its program exists and takes these arguments, and what it installs is ours."""
    argv = shlex.split(command)
    assert shlex.join(argv) == command  # printed quoted: it pastes into any POSIX shell as it is
    program = argv[0]
    assert shutil.which(program) or Path(program).is_file(), program
    if program == "pipx":
        parsed = _pipx_parser().parse_args(argv[1:])  # type: ignore[attr-defined]
        if parsed.command == "inject":
            assert parsed.package == found.environment.pipx_venv
            for requirement in parsed.dependencies:
                _check_requirement(requirement, extra, found)
        else:
            assert parsed.command == "install"
            [spec] = parsed.package_spec
            if spec.startswith("git+"):
                assert spec == hints.git_spec(found.source) or (
                    spec == f"git+{hints.PLACEHOLDER_URL}" and found.source.url is None)
            else:
                assert spec == found.source.folder and Path(spec).is_dir()
        return
    if program == "git":
        assert argv[1:] == ["ls-remote", found.source.url or hints.PLACEHOLDER_URL, "HEAD"]
        return
    assert program == found.environment.python and argv[1:4] == ["-m", "pip", "install"], argv
    for requirement in argv[4:]:
        _check_requirement(requirement, extra, found)
    if program == sys.executable and all(Requirement(r).name != DIST for r in argv[4:]):
        assert _pip_resolves_offline(command) == ""


@functools.lru_cache(maxsize=None)
def _pip_resolves_offline(command: str) -> str:
    """The printed pip command, run as it is plus ``--dry-run --no-index``: "" when pip took it."""
    done = subprocess.run([*shlex.split(command), "--dry-run", "--no-index", "--quiet"], capture_output=True,
                          text=True, timeout=120)
    return "" if done.returncode == 0 else done.stderr or f"exit {done.returncode}"


@pytest.mark.parametrize("found", CASES)
def test_every_hint_runs_or_names_the_install_source(found: Installed) -> None:
    registry = hints.every_hint(found)
    assert {f"extra {name}" for name in hints.EXTRAS} <= set(registry)
    for name, hint in registry.items():
        extra = name.removeprefix("extra ") if name.startswith("extra ") else None
        if hint.command is None:
            # No command works there (no pip, not pipx's): the hint names what to install instead.
            assert extra is not None and not found.environment.has_pip and found.environment.pipx_venv is None
            assert all(requirement in hint.text for requirement in found.extras[extra])
            continue
        assert hint.command in hint.text
        check_command(hint.command, found, extra)
        if hints.PLACEHOLDER_SLUG in hint.text:
            assert found.source.url is None and hints.REPLACE_OWNER in hint.text
        if found.source.url is not None and name in ("chord-git", "ls-remote"):
            assert found.source.url in hint.command


def test_the_extras_named_are_the_extras_we_declare() -> None:
    assert set(hints.EXTRAS) <= set(REAL.extras)
    assert {"openai>=1.40", "pydantic>=2"} <= set(REAL.extras["llm"])  # pyproject.toml's "llm"


def test_a_pip_record_without_credentials_or_pipx_record_is_read(tmp_path: Path) -> None:
    text = json.dumps({"url": "https://tok@github.com/acme/chord-git", "vcs_info": {"vcs": "git", "commit_id": SHA}})
    assert source.source_from_direct_url(text) == Source("https://github.com/acme/chord-git", SHA)
    found = Installed(Source("https://github.com/acme/chord-git", SHA), ENVIRONMENTS["pip"], REAL.extras)
    assert hints.extra_command("llm", found) == (f"{shlex.quote(sys.executable)} -m pip install "
                                                 f"'chord-git[llm] @ git+https://github.com/acme/chord-git@{SHA}'")
    pipx = Installed(Source(None, None), ENVIRONMENTS["pipx"], REAL.extras)
    assert hints.extra_hint("llm", pipx) == ("install the `llm` extra of chord-git: "
                                             "pipx inject chord-git 'openai>=1.40' 'pydantic>=2'")


# ----------------------------------------------------------------------------- the messages
def test_the_mcp_message_is_the_registry_hint_and_runs(repo: Path) -> None:
    probe = "import sys\nsys.modules['mcp'] = None\nfrom chord_git.main import main\nsys.exit(main(['mcp']))\n"
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, env=cli_env(),
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    hint = hints.every_hint(REAL)["extra mcp"]
    assert done.stderr == f"git memory: git memory mcp needs the MCP SDK: {hint.text}\n"
    assert "pip install 'chord-git[" not in done.stderr
    assert hint.command is not None
    check_command(hint.command, REAL, "mcp")


def test_the_model_client_message_is_the_registry_hint(repo: Path) -> None:
    """``extract`` without the ``llm`` extra (pydantic cannot be imported) names the registry's hint."""
    from tests.extraction.extract_support import configure

    assert run_cli(repo, "init").returncode == 0
    configure(repo, None)
    session = repo.parent / "session.jsonl"
    session.write_text('{"type": "message", "role": "user", "content": "Use tabs."}\n')
    probe = ("import sys\nsys.modules['pydantic'] = None\nfrom chord_git.main import main\n"
             f"sys.exit(main(['extract', '--session', {str(session)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, env=cli_env(),
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    hint = hints.every_hint(REAL)["extra llm"]
    assert f"the model client is not installed (pydantic): {hint.text}" in done.stderr
    assert "pip install 'chord-git[" not in done.stderr
    assert hint.command is not None
    check_command(hint.command, REAL, "llm")


@pytest.mark.slow
def test_from_a_git_url_install_the_printed_command_installs_the_extra(tmp_path: Path) -> None:
    """The README's route without the extra (pip from the git URL of a tagless clone): the model
    client's message names that URL and commit, and the command it prints, run as printed, adds
    the extra. Downloads come from pip's cache beside the test environment, as in test_install."""
    from testing.published import base_env, clone_without_tags, file_url
    from testing.published import git as published_git
    from tests.extraction.extract_support import configure

    env = base_env(tmp_path / "home")
    clone = clone_without_tags(tmp_path / "chord-git", env)
    sha = published_git(clone, env, "rev-parse", "HEAD")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / "bin/python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", f"git+{file_url(clone)}"], env=env, check=True,
                   capture_output=True, timeout=600)
    assert subprocess.run([python, "-c", "import openai"], capture_output=True).returncode == 1

    project = tmp_path / "project"
    git(tmp_path, "init", "-q", str(project))
    run_env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    assert subprocess.run(["git", "memory", "init"], cwd=project, env=run_env, capture_output=True).returncode == 0
    configure(project, None)
    session = tmp_path / "session.jsonl"
    session.write_text('{"type": "message", "role": "user", "content": "Use tabs."}\n')
    done = subprocess.run(["git", "memory", "extract", "--session", str(session)], cwd=project, env=run_env,
                          capture_output=True, text=True, timeout=120)
    command = f"{python} -m pip install 'chord-git[llm] @ git+{file_url(clone)}@{sha}'"
    assert done.returncode != 0 and f"install the `llm` extra of chord-git: {command}\n" in done.stderr
    assert hints.PLACEHOLDER_SLUG not in done.stderr
    subprocess.run(shlex.split(command) + ["--quiet"], env=env, check=True, capture_output=True, timeout=600)
    assert subprocess.run([python, "-c", "import openai, pydantic"], capture_output=True).returncode == 0


# ----------------------------------------------------------------------------- the plain hook
def _hint_line(text: str) -> str:
    [line] = [line for line in text.splitlines() if line.startswith("install_hint=")]
    return line


def test_the_hooks_placeholder_is_the_hint_for_an_unknown_origin() -> None:
    for text in (hooks_mod.template(), (ROOT / "hooks/pre-commit").read_text()):
        assert _hint_line(text) == 'install_hint="' + hints.tool_hint(Source(None, None)) + '"'
        assert text.count(hints.PLACEHOLDER_SLUG) == 1  # only there, with its note


@pytest.mark.parametrize("origin", ["github", "folder"])
def test_a_rendered_hook_names_the_install_source_and_stays_ours(origin: str, tmp_path: Path) -> None:
    found = SOURCES[origin]
    text = hooks_mod.render(Path("/opt/chord git/bin/git-memory"), hints.tool_hint(found))
    assert hints.PLACEHOLDER_SLUG not in text
    assert _hint_line(text) == "install_hint=" + shlex.quote(hints.tool_command(found))
    hook = tmp_path / "pre-commit"
    hook.write_text(text)
    assert hooks_mod.is_ours(hook)
    lint = subprocess.run([str(Path(sys.executable).parent / "shellcheck"), "--shell", "sh", "--severity", "style",
                           str(hook)], capture_output=True, text=True, timeout=120)
    assert lint.returncode == 0, lint.stdout


def test_the_installed_hook_prints_this_installs_command_when_git_memory_is_gone(repo: Path, tmp_path: Path) -> None:
    done = run_cli(repo, "init", "--hooks")
    assert done.returncode == 0, done.stderr
    hook = Path(git(repo, "rev-parse", "--git-path", "hooks").strip())
    hook = repo / hook / "pre-commit"
    # The git-memory that installed it is gone too, as after an uninstall.
    lines = [("installed_with=''" if line.startswith("installed_with=") else line)
             for line in hook.read_text().splitlines()]
    hook.write_text("\n".join(lines) + "\n")
    again = run_cli(repo, "init", "--hooks")  # the reinstall still knows it as ours
    assert again.returncode == 0 and "updated the pre-commit hook" in again.stdout
    hook.write_text("\n".join(lines) + "\n")
    (repo / "MEMORY.md").write_text("<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
    git(repo, "add", "MEMORY.md")
    env = {**os.environ, "PATH": os.pathsep.join(["/usr/bin", "/bin"])}
    refused = subprocess.run(["git", "commit", "-q", "-m", "memory"], cwd=repo, capture_output=True, text=True,
                             env=env, timeout=120)
    assert refused.returncode == 1
    hint = hints.every_hint(REAL)["chord-git"]
    assert refused.stderr == (f"chord-git: memory files are staged but git-memory is not on PATH; install it with: "
                              f"{hint.text} (or skip this check once: git commit --no-verify)\n")
    assert hint.command is not None
    check_command(hint.command, REAL)


# ----------------------------------------------------------------------------- setup snippets
def _parse_ours(argv: list[str]) -> None:
    """``git memory ARGV`` (or ``git-memory ARGV``) is a real command line of ours."""
    parser = main_mod.build_parser()
    args, extras = parser.parse_known_args(argv)
    assert extras == [] and args.command is not None, argv


def _setup_choices() -> list[str]:
    setup = help_mod.subcommands(main_mod.build_parser())["setup"]
    return [name for name in help_mod.subcommands(setup) if name != "merge"]


def test_the_setup_choices_are_all_walked() -> None:
    assert sorted(_setup_choices()) == ["github", "gitlab", "pre-commit"]


@pytest.mark.parametrize("what", _setup_choices())
@pytest.mark.parametrize("origin", ["github", "other host", "no commit", "unknown", "this install"])
def test_every_setup_snippet_is_yaml_of_real_commands(what: str, origin: str) -> None:
    found = SOURCES[origin]
    lines = render_snippet(what, found, "main")
    snippet = yaml.safe_load("\n".join(lines))
    warnings = snippet_warnings(what, found)
    text = "\n".join(lines)
    if hints.PLACEHOLDER_SLUG in text:
        assert any(hints.REPLACE_OWNER in warning or hints.REPLACE_SLUG in warning for warning in warnings), warnings
    ref = found.commit or "main"
    if what == "pre-commit":
        [entry] = snippet["repos"]
        assert entry["repo"] == (found.url or hints.PLACEHOLDER_URL) and entry["rev"] == ref
        offered = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
        for hook in entry["hooks"]:
            spec = offered[hook["id"]]
            words = shlex.split(spec["entry"])
            assert words[0] == "git-memory"
            _parse_ours(words[1:] + (["MEMORY.md"] if spec.get("pass_filenames", True) else []))
    elif what == "github":
        uses = snippet["jobs"]["scan-memory"]["steps"][-1]["uses"]
        assert uses == f"{github_slug(found.url) or hints.PLACEHOLDER_SLUG}@{ref}"
        assert snippet[True]["push"]["branches"] == ["main"]
    else:
        [include] = snippet["include"]
        slug = github_slug(found.url) or hints.PLACEHOLDER_SLUG
        assert include["remote"] == f"https://raw.githubusercontent.com/{slug}/{ref}/ci/gitlab/memory-scan.yml"
        template = yaml.safe_load((ROOT / "ci/gitlab/memory-scan.yml").read_text())
        assert set(snippet["variables"]) <= set(template["variables"])
        assert snippet["variables"]["CHORD_GIT_URL"] == (found.url or hints.PLACEHOLDER_URL)
    for warning in warnings:
        if "git ls-remote" in warning:
            command = warning.split("`")[1]
            check_command(command, Installed(found, REAL.environment, REAL.extras))


def _recorded_argv(script: str, env: dict[str, str], stub_dir: Path, shell: str) -> list[list[str]]:
    """The argument lists a CI script passes to git-memory, recorded by a stand-in on PATH."""
    calls = stub_dir / "calls.jsonl"
    stub = stub_dir / "record"
    stub.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"open({str(calls)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    stub.chmod(0o755)
    done = subprocess.run([shell, "-c", script], env=env, capture_output=True, text=True, timeout=60, cwd=stub_dir)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in calls.read_text().splitlines()]


@pytest.mark.parametrize("gates", ["false", "true"])
def test_the_actions_scan_step_passes_only_our_flags(gates: str, tmp_path: Path) -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    [step] = [s for s in action["runs"]["steps"] if s.get("id") == "scan"]
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "RUNNER_TEMP": str(tmp_path),
           "GITHUB_OUTPUT": str(tmp_path / "out"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
           "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig"), "CHORD_FORMAT": "sarif", "CHORD_OUTPUT": "r.sarif",
           "CHORD_SUMMARY": "true", "CHORD_GATE": gates, "CHORD_REVIEW_GATE": gates}
    for spec in ("", "all", "a..b"):
        script = step["run"].replace('"$RUNNER_TEMP/chord-git/bin/git-memory"', str(tmp_path / "record"))
        for argv in _recorded_argv(script, {**env, "CHORD_RANGE": spec}, tmp_path, "bash"):
            _parse_ours(argv)
            assert argv[0] == "scan"
    fold = [s for s in action["runs"]["steps"] if "git-memory\" fold" in s.get("run", "")]
    assert fold
    _parse_ours(["fold"])


def test_the_gitlab_jobs_pass_only_our_flags(tmp_path: Path) -> None:
    template = yaml.safe_load((ROOT / "ci/gitlab/memory-scan.yml").read_text())
    script = "\n".join(template[".chord-memory-scan"]["script"])
    stub_bin = tmp_path / "bin"
    stub_bin.mkdir()
    git_stub = stub_bin / "git"
    git_stub.write_text(f'#!/bin/sh\n[ "$1" = memory ] || exit 9\nshift\nexec {tmp_path / "record"} "$@"\n')
    git_stub.chmod(0o755)
    variables = {k: str(v) for k, v in template["variables"].items()}
    for overrides in ({}, {"CHORD_MEMORY_RANGE": "all"}, {"CHORD_MEMORY_RANGE": "a..b",
                                                          "CHORD_MEMORY_FAIL_ON_ASSISTANT": "true",
                                                          "CHORD_MEMORY_FAIL_ON_UNREVIEWED": "true"}):
        env = {"PATH": f"{stub_bin}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path), **variables, **overrides}
        for argv in _recorded_argv(script, env, tmp_path, "sh"):
            _parse_ours(argv)
    fold_script = "\n".join(template["chord-memory-fold"]["script"])
    assert "git memory fold" in fold_script
    _parse_ours(["fold"])


# ----------------------------------------------------------------------------- one place
_COMMAND_TEXT = ("pip install", "pipx install", "pipx inject", "OWNER/", "chord-git[")


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """The module's string literals, docstrings left out (they describe, they are not printed)."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_other_module_spells_an_install_command() -> None:
    registry = PACKAGE / "distribution" / "hints.py"
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}" for path in sorted(PACKAGE.rglob("*.py")) if path != registry
             for line, text in _string_constants(path) if any(bit in text for bit in _COMMAND_TEXT)]
    assert found == []
    # The data files: the plain hook holds the placeholder hint, on its one install_hint line.
    for path in sorted((PACKAGE / "data").iterdir()):
        if path.is_file():
            lines = [line for line in path.read_text("utf-8", "replace").splitlines()
                     if any(bit in line for bit in _COMMAND_TEXT)]
            assert lines == ([_hint_line(path.read_text())] if path.name == "pre-commit-hook" else []), path


def test_the_grep_sees_a_spelled_command(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text('"""pip install in a docstring is fine."""\nHINT = f"run: pipx install {1}"\n')
    assert [text for _line, text in _string_constants(planted) if "pipx install" in text] == ["run: pipx install "]
