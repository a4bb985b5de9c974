"""``git memory completion bash|zsh|fish``: scripts generated from the parser, run in real shells."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from chord_git import main as main_mod
from chord_git.commands import completion
from testing.gitutil import cli_env, run_cli
from tests.conftest import needed, shell_tool

SUPPORT = Path(__file__).resolve().parents[2] / "testing"
GIT_COMPLETION = Path("/usr/share/bash-completion/completions/git")  # shipped with git on Debian


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("completion")
    made = {}
    for shell in ("bash", "zsh", "fish"):
        result = run_cli(folder, "completion", shell)
        assert result.returncode == 0 and result.stderr == ""
        name = {"bash": "git-memory.bash", "zsh": "_git-memory", "fish": "git-memory.fish"}[shell]
        (folder / shell).mkdir()
        made[shell] = folder / shell / name
        made[shell].write_text(result.stdout)
    return made


def test_every_command_and_option_is_in_every_script(scripts: dict[str, Path]) -> None:
    root = completion.tree(main_mod.build_parser())
    nodes = root.walk()
    assert {" ".join(n.path) for n in nodes} >= {"check", "scan", "review move", "completion", "help"}
    for shell, path in scripts.items():
        text = path.read_text()
        for node in nodes:
            if node.path:
                assert node.path[-1] in text, (shell, node.path)
            for option in node.options:
                for flag in option.flags:
                    assert flag.lstrip("-") in text, (shell, node.path, flag)


def bash_complete(script: Path, words: list[str], cwd: Path, git_completion: bool = False) -> list[str]:
    """COMPREPLY for ``words`` (the last one being completed), as bash computes it."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    line = " ".join(words)
    if git_completion:
        call = (f"source {GIT_COMPLETION}; source \"$1\"; "
                f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; __git_wrap__git_main")
    else:
        call = 'source "$1"; _chord_git_memory'
    program = f"COMP_WORDS=({quoted}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); {call}; printf '%s\\n' \"${{COMPREPLY[@]}}\""
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program, "bash", str(script)], cwd=cwd,
                          capture_output=True, text=True, env=cli_env(), timeout=60)
    assert done.returncode == 0, done.stderr
    return [w.strip() for w in done.stdout.splitlines() if w.strip()]


@pytest.mark.parametrize("words, expected", [
    (["git-memory", "st"], ["status"]),
    (["chord-git", "re"], ["review"]),
    (["git", "memory", "cu"], ["curate"]),
    (["git-memory", "check", "--format", ""], ["text", "json", "sarif"]),
    (["git-memory", "check", "--format", "=", "sa"], ["sarif"]),
    (["git-memory", "review", "mo"], ["move"]),
    (["git-memory", "review", "move", "some-id", "--"], ["--help", "--top", "--up", "--down"]),
    (["git-memory", "agent", "st"], ["statusline", "status"]),
    (["git-memory", "queue", ""], ["list", "retry", "drop"]),
    (["git-memory", "-C", "somewhere", "fo"], ["forget", "fold"]),
    (["git-memory", "completion", "f"], ["fish"]),
    (["git-memory", "help", "rev"], []),  # help takes free words
])
def test_bash(scripts: dict[str, Path], tmp_path: Path, words: list[str], expected: list[str]) -> None:
    assert bash_complete(scripts["bash"], words, tmp_path) == expected


def test_bash_completes_files_for_paths(scripts: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "session-one.jsonl").write_text("{}")
    (tmp_path / "sessions").mkdir()
    assert sorted(bash_complete(scripts["bash"], ["git-memory", "extract", "--session", "sess"], tmp_path)) == [
        "session-one.jsonl", "sessions"]
    assert bash_complete(scripts["bash"], ["git-memory", "-C", "sess"], tmp_path) == ["sessions"]


def test_bash_through_gits_own_completion(scripts: dict[str, Path], tmp_path: Path) -> None:
    if not GIT_COMPLETION.exists():
        needed(f"git's bash completion script is not installed ({GIT_COMPLETION})")
    assert bash_complete(scripts["bash"], ["git", "memory", "sta"], tmp_path, git_completion=True) == ["status"]
    assert bash_complete(scripts["bash"], ["git", "memory", "scan", "--format", "j"], tmp_path,
                         git_completion=True) == ["json"]


def test_zsh(scripts: dict[str, Path], tmp_path: Path) -> None:
    zsh = shell_tool("zsh")
    out = tmp_path / "buffers"
    lines = ["git-memory sta", "git-memory check --format sa", "chord-git review mo", "git-memory agent bu",
             "git memory rev", "git memory review move x --to", "git memory check --for"]
    subprocess.run([zsh, "-n", str(scripts["zsh"])], check=True)
    subprocess.run([zsh, "-f", str(SUPPORT / "zsh_complete.zsh"), str(scripts["zsh"].parent), str(out), *lines],
                   cwd=tmp_path, env=cli_env(), check=True, timeout=120)
    assert out.read_text().splitlines() == [
        "BUF:git-memory status ", "BUF:git-memory check --format sarif ", "BUF:chord-git review move ",
        "BUF:git-memory agent busy ", "BUF:git memory review ", "BUF:git memory review move x --top ",
        "BUF:git memory check --format=",
    ]


def test_fish(scripts: dict[str, Path], tmp_path: Path) -> None:
    fish = shell_tool("fish")

    def complete(line: str) -> list[str]:
        done = subprocess.run([fish, "--no-config", "-c", f"source {scripts['fish']}; complete -C {line!r}"],
                              cwd=tmp_path, capture_output=True, text=True, env=cli_env(), timeout=60, check=True)
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    subprocess.run([fish, "--no-execute", str(scripts["fish"])], check=True)
    assert complete("git-memory sta") == ["status"]
    assert complete("git-memory check --format ") == ["json", "sarif", "text"]
    assert complete("chord-git review mo") == ["move"]
    assert complete("git-memory review move x --") == ["--down", "--help", "--top", "--up"]
    assert complete("git memory sta") == ["status"]
    assert complete("git memory scan --format j") == ["json"]
