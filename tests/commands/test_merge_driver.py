"""``git memory merge-driver`` and ``git memory setup merge`` as git and users run them."""
from __future__ import annotations

import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from chord_git.commands import merge_driver as driver_mod
from chord_git.commands.setup import COMMAND, attributes_line
from chord_git.main import main
from chord_git.memory import merge as merge_mod
from chord_git.memory.index_file import BEGIN, END, Entry
from chord_git.memory.project import discover
from testing.gitutil import cli_env, git, index_digest, run_cli
from testing.merge_corpus import git_merge_file


def line(name: str) -> str:
    return Entry("fact", f"Summary of {name}.", f"20261129-{name}-0a1b").render()


def memory(names: list[str], head: str = "# Project memory\n\n") -> bytes:
    return (head + BEGIN + "\n" + "".join(line(n) + "\n" for n in names) + END + "\n").encode()


def three(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[Path, Path, Path]:
    paths = tuple(tmp_path / f".merge_file_{name}" for name in ("base", "ours", "theirs"))
    for path, data in zip(paths, (base, ours, theirs)):
        path.write_bytes(data)
    return paths  # type: ignore[return-value]


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run_main(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``git memory ARGS`` in this process: exit code, stdout, stderr."""
    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_clean_merge_is_written_to_ours(tmp_path: Path, run_main: Run) -> None:
    base, ours, theirs = three(tmp_path, memory(["alpha"]), memory(["ours", "alpha"]), memory(["theirs", "alpha"]))
    code, _out, err = run_main("merge-driver", "--", str(base), str(ours), str(theirs), "MEMORY.md")
    assert (code, err) == (0, "")
    assert ours.read_bytes() == memory(["ours", "theirs", "alpha"])
    assert sorted(p.name for p in tmp_path.iterdir()) == [".merge_file_base", ".merge_file_ours", ".merge_file_theirs"]


def test_user_text_conflict_exits_1_with_git_markers(tmp_path: Path, run_main: Run) -> None:
    files = three(tmp_path, memory(["alpha"], "x\n\n"), memory(["alpha"], "ours\n\n"), memory(["alpha"], "theirs\n\n"))
    code, _out, err = run_main("merge-driver", "--marker-size", "9", "--", *map(str, files), "-odd/MEMORY.md")
    assert code == 1
    assert files[1].read_bytes().startswith(b"<<<<<<<<< ours\nours\n=========\ntheirs\n>>>>>>>>> theirs\n\n")
    assert err == "git memory: -odd/MEMORY.md: 1 conflict(s) left in the text outside the managed section\n"


@pytest.mark.parametrize("style", ["diff3", "zdiff3", "merge"])
def test_conflicts_follow_the_users_conflict_style_and_gits_labels(tmp_path: Path, repo: Path, run_main: Run,
                                                                    monkeypatch: pytest.MonkeyPatch, style: str) -> None:
    """As git would print them without the driver: the style from git's config, the labels git
    passes from 2.44 on (``%X %S %Y``), and git's own merge-file bytes."""
    git(repo, "config", "merge.conflictStyle", style)
    monkeypatch.chdir(repo)  # git runs drivers at the top of the work tree
    sides = (memory(["alpha"], "x\ny\n\n"), memory(["ours", "alpha"], "ours\ny\n\n"), memory(["alpha"], "theirs\ny\n\n"))
    files = three(tmp_path, *sides)
    labels = ("HEAD", "1a2b3c4 (merged common ancestors)", "topic")
    code, _out, err = run_main("merge-driver", "--marker-size", "7", "--labels", *labels, "--", *map(str, files),
                               "MEMORY.md")
    assert code == 1, err
    base_part = f"||||||| {labels[1]}\nx\n" if style != "merge" else ""
    assert files[1].read_bytes() == (f"<<<<<<< HEAD\nours\n{base_part}=======\ntheirs\n>>>>>>> topic\ny\n\n".encode()
                                     + memory(["ours", "alpha"], ""))
    # The text around the section is exactly git merge-file's, with the same options.
    stand_in = [side.replace(memory(n, ""), b"SECTION\n") for side, n in zip(sides, (["alpha"], ["ours", "alpha"], ["alpha"]))]
    expected, status = git_merge_file(tmp_path, *stand_in, style=style, labels=labels)
    assert status == 1 and files[1].read_bytes() == expected.replace(b"SECTION\n", memory(["ours", "alpha"], ""))


def test_labels_an_older_git_leaves_unexpanded_or_empty_are_the_defaults(tmp_path: Path, run_main: Run) -> None:
    files = three(tmp_path, memory(["alpha"], "x\n\n"), memory(["alpha"], "ours\n\n"), memory(["alpha"], "theirs\n\n"))
    code, _out, _err = run_main("merge-driver", "--labels", "%X", "", "%Y", "--", *map(str, files))
    assert code == 1
    assert files[1].read_bytes().startswith(b"<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\n")


def test_unreadable_input_exits_2_and_leaves_ours(tmp_path: Path, run_main: Run) -> None:
    base, ours, theirs = three(tmp_path, b"", memory(["ours"]), memory(["theirs"]))
    base.unlink()
    code, _out, err = run_main("merge-driver", "--", str(base), str(ours), str(theirs))
    assert code == 2
    assert err == f"git memory: {base}: cannot read: No such file or directory\n"
    assert ours.read_bytes() == memory(["ours"])


def test_a_bug_in_the_entry_merge_still_merges_as_text(tmp_path: Path, repo: Path, run_main: Run,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> merge_mod.MergeResult:
        raise RuntimeError("simulated defect")

    monkeypatch.chdir(repo)  # git runs drivers at the top of the work tree
    monkeypatch.setattr(merge_mod, "merge_memory", broken)
    base, ours, theirs = three(tmp_path, memory(["alpha"]), memory(["ours", "alpha"]), memory(["alpha", "theirs"]))
    code, _out, err = run_main("merge-driver", "--", str(base), str(ours), str(theirs), "MEMORY.md")
    assert code == 0
    assert ours.read_bytes() == memory(["ours", "alpha", "theirs"])
    log = discover(repo).state_dir / driver_mod.LOG_NAME
    assert "RuntimeError: simulated defect" in log.read_text()
    assert err.splitlines() == [
        f"git memory: MEMORY.md: unexpected error in the entry merge ({log})",
        "git memory: MEMORY.md: merged as plain text after an internal error",
    ]

    # The log rotates like the package's other logs: a merge that keeps failing cannot fill the disk.
    monkeypatch.setattr(driver_mod, "LOG_KEEP_BYTES", 10)
    base, ours, theirs = three(tmp_path, memory(["alpha"]), memory(["ours", "alpha"]), memory(["alpha", "theirs"]))
    assert run_main("merge-driver", "--", str(base), str(ours), str(theirs), "MEMORY.md")[0] == 0
    assert "RuntimeError: simulated defect" in log.with_name(log.name + ".1").read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_when_every_merge_fails_ours_is_left_and_exit_is_3(tmp_path: Path, repo: Path, run_main: Run,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> merge_mod.MergeResult:
        raise MemoryError

    monkeypatch.chdir(repo)
    monkeypatch.setattr(merge_mod, "merge_memory", broken)
    monkeypatch.setattr(merge_mod, "text_merge", broken)
    base, ours, theirs = three(tmp_path, memory(["alpha"]), memory(["ours", "alpha"]), memory(["theirs", "alpha"]))
    code, _out, err = run_main("merge-driver", "--", str(base), str(ours), str(theirs), "MEMORY.md")
    assert code == 3
    assert ours.read_bytes() == memory(["ours", "alpha"])
    assert err.splitlines()[-1] == ("git memory: MEMORY.md: left as ours; git marks it conflicted "
                                    "with both sides in the index")
    assert "Traceback" not in err


def test_without_git_memory_on_path_git_still_keeps_both_sides(repo: Path) -> None:
    """The configured command falls back to git's own text merge, with a one-line notice."""
    assert run_cli(repo, "setup", "merge").returncode == 0
    (repo / ".gitattributes").write_text(attributes_line("MEMORY.md") + "\n")
    (repo / "MEMORY.md").write_bytes(memory(["alpha"]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "topic")
    (repo / "MEMORY.md").write_bytes(memory(["theirs", "alpha"]))
    git(repo, "commit", "-q", "-am", "topic")
    git(repo, "checkout", "-q", "main")
    (repo / "MEMORY.md").write_bytes(memory(["ours", "alpha"]))
    git(repo, "commit", "-q", "-am", "main")
    env = {**cli_env(), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(["git", "merge", "topic"], cwd=repo, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1
    assert "git memory: git-memory is not on PATH; MEMORY.md merged as plain text" in done.stderr
    text = (repo / "MEMORY.md").read_text()
    assert f"<<<<<<< ours\n{line('ours')}\n=======\n{line('theirs')}\n>>>>>>> theirs\n" in text


def test_setup_merge_configures_git_and_prints_the_attribute_lines(repo: Path) -> None:
    (repo / "MEMORY.md").write_bytes(memory(["alpha"]))
    (repo / "services/api/.chord").mkdir(parents=True)
    (repo / "services/api/MEMORY.md").write_bytes(memory(["api"]))
    (repo / "my docs").mkdir()
    (repo / "my docs/MEMORY.md").write_bytes(memory(["docs"]))
    (repo / "hardware").mkdir()
    (repo / "hardware/MEMORY.md").write_text("# DRAM timings\n")  # not a memory index
    git(repo, "add", "MEMORY.md")
    git(repo, "commit", "-q", "-m", "memory")
    before = index_digest(repo)
    done = run_cli(repo, "setup", "merge")
    assert done.returncode == 0, done.stderr
    printed = [row.strip() for row in done.stdout.splitlines() if row.startswith("    ")]
    assert printed == ['/MEMORY.md merge=chord-memory', '"/my docs/MEMORY.md" merge=chord-memory',
                       "/services/api/MEMORY.md merge=chord-memory"]
    assert done.stdout.splitlines()[-1] == ".gitattributes and .gitignore were not edited; nothing was staged"
    assert index_digest(repo) == before
    assert not (repo / ".gitattributes").exists() and not (repo / ".gitignore").exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=no").strip() == ""
    assert git(repo, "config", "--local", "merge.chord-memory.driver").strip() == COMMAND
    assert git(repo, "config", "--local", "merge.chord-memory.name").strip().startswith("chord-git")

    # The printed lines, added by the user, select the driver for exactly those files.
    (repo / ".gitattributes").write_text("\n".join(printed) + "\n")
    attrs = git(repo, "check-attr", "merge", "--", "MEMORY.md", "my docs/MEMORY.md",
                "services/api/MEMORY.md", "hardware/MEMORY.md")
    assert attrs.splitlines() == ["MEMORY.md: merge: chord-memory", "my docs/MEMORY.md: merge: chord-memory",
                                  "services/api/MEMORY.md: merge: chord-memory",
                                  "hardware/MEMORY.md: merge: unspecified"]
    again = run_cli(repo / "services", "setup", "merge")  # from a subdirectory, run twice
    assert "already merged by the driver: MEMORY.md, my docs/MEMORY.md, services/api/MEMORY.md" in again.stdout
    assert "Add these lines" not in again.stdout
    assert git(repo, "config", "--local", "--get-all", "merge.chord-memory.driver").strip() == COMMAND


def test_setup_merge_suggests_the_root_file_when_there_is_none_yet(repo: Path, run_main: Run,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    code, out, err = run_main("setup", "merge")
    assert code == 0
    assert "    /MEMORY.md merge=chord-memory" in out.splitlines()
    assert err == "warning: git-memory is not on PATH here: until it is, MEMORY.md merges as plain text\n"


def test_setup_merge_outside_git_is_a_clean_error(tmp_path: Path, run_main: Run,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main("setup", "merge")
    assert (code, out) == (2, "")
    assert err == f"git memory: {tmp_path.resolve()}: not inside a git work tree; the merge driver is set per repository\n"


@pytest.mark.parametrize("path, line_text", [
    ("MEMORY.md", "/MEMORY.md merge=chord-memory"),
    ("a*b/MEMORY.md", "/a\\*b/MEMORY.md merge=chord-memory"),
    ('say "hi"/MEMORY.md', '"/say \\"hi\\"/MEMORY.md" merge=chord-memory'),
])
def test_attribute_lines_match_only_their_path(repo: Path, path: str, line_text: str) -> None:
    assert attributes_line(path) == line_text
    (repo / ".gitattributes").write_text(line_text + "\n")
    value = git(repo, "check-attr", "-z", "merge", "--", path, "other/MEMORY.md").split("\0")
    assert value[2] == "chord-memory" and value[5] == "unspecified"
