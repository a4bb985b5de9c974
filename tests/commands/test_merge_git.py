"""MEMORY.md across branches with real git: merge, rebase, cherry-pick and pull --rebase.

Every case conflicts without the driver (a clone that never ran ``git memory setup merge``) and
merges cleanly with it, except edits to the user's own text on both sides, which conflict there
and only there. After a clean merge ``git memory check`` passes and ``git memory summary`` shows
what the merged index should inject.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from chord_git.memory import summary as summary_mod
from chord_git.support.dataclass_lazy import replace
from chord_git.memory import records
from chord_git.memory.index_file import BEGIN, END, Entry
from testing.gitutil import cli_env, run_cli
from testing.memory_files import make_record

OPERATIONS = ("merge", "rebase", "cherry-pick", "pull-rebase")
HEAD = "# Project memory\n\nTeam notes live above the markers.\n\n"


def rid(name: str) -> str:
    return f"20261129-{name}-0a1b"


def entry_line(name: str) -> str:
    return Entry("fact", f"Summary of {name}.", rid(name)).render()


def index(names: list[str], head: str = HEAD, tail: str = "") -> str:
    body = "".join(entry_line(name) + "\n" for name in names)
    return f"{head}{BEGIN}\n{body}{END}\n{tail}"


@dataclass(frozen=True)
class Side:
    """MEMORY.md texts by project folder ("" is the root) and the records this side adds."""

    indexes: dict[str, str]
    records: dict[str, list[str]] = field(default_factory=dict)
    supersedes: dict[str, str] = field(default_factory=dict)  # new record name -> old one


@dataclass(frozen=True)
class Case:
    name: str
    base: Side
    ours: Side  # the upstream / current branch (main)
    theirs: Side  # the topic branch, the rebased commit, the picked commit, the local commit
    expected: dict[str, str]
    conflicted_user_text: bool = False


CASES = [
    Case("two-branches-add-on-top",
         Side({"": index(["alpha", "beta"])}, {"": ["alpha", "beta"]}),
         Side({"": index(["ours-new", "alpha", "beta"])}, {"": ["ours-new"]}),
         Side({"": index(["theirs-new", "alpha", "beta"])}, {"": ["theirs-new"]}),
         {"": index(["ours-new", "theirs-new", "alpha", "beta"])}),
    Case("retire-while-reordering",
         Side({"": index(["alpha", "beta", "gamma"])}, {"": ["alpha", "beta", "gamma"]}),
         Side({"": index(["alpha", "gamma"])}),  # beta retired (its record stays)
         Side({"": index(["gamma", "alpha", "beta"])}),  # gamma moved to the top by hand
         {"": index(["gamma", "alpha"])}),
    Case("both-edit-user-text",
         Side({"": index(["alpha"], head="# Memory\n\nshared line\n\n")}, {"": ["alpha"]}),
         Side({"": index(["ours-new", "alpha"], head="# Memory\n\nours says\n\n")}, {"": ["ours-new"]}),
         Side({"": index(["theirs-new", "alpha"], head="# Memory\n\ntheirs says\n\n")}, {"": ["theirs-new"]}),
         {"": "# Memory\n\n<<<<<<< ours\nours says\n=======\ntheirs says\n>>>>>>> theirs\n\n"
              + index(["ours-new", "theirs-new", "alpha"], head="")},
         conflicted_user_text=True),
    Case("record-superseded-on-one-side",
         Side({"": index(["alpha", "beta"])}, {"": ["alpha", "beta"]}),
         Side({"": index(["alpha-v2", "beta"])}, {"": ["alpha-v2"]}, {"alpha-v2": "alpha"}),
         Side({"": index(["theirs-new", "alpha", "beta"])}, {"": ["theirs-new"]}),
         {"": index(["alpha-v2", "theirs-new", "beta"])}),
    Case("sub-project-memories",
         Side({"": index(["alpha"]), "services/api": index(["api-one"])},
              {"": ["alpha"], "services/api": ["api-one"]}),
         Side({"": index(["ours-new", "alpha"]), "services/api": index(["api-ours", "api-one"])},
              {"": ["ours-new"], "services/api": ["api-ours"]}),
         Side({"": index(["theirs-new", "alpha"]), "services/api": index(["api-theirs", "api-one"])},
              {"": ["theirs-new"], "services/api": ["api-theirs"]}),
         {"": index(["ours-new", "theirs-new", "alpha"]),
          "services/api": index(["api-ours", "api-theirs", "api-one"])}),
]


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=cli_env(), check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done


def memory_path(project: str) -> str:
    return f"{project}/MEMORY.md" if project else "MEMORY.md"


def write_side(repo: Path, side: Side) -> None:
    for project, text in side.indexes.items():
        folder = repo / project
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "MEMORY.md").write_text(text, encoding="utf-8")
    for project, names in side.records.items():
        for name in names:
            record = make_record(repo / project, rid(name), summary=f"Summary of {name}.")
            if name in side.supersedes:
                path = repo / project / ".chord/memory/records" / f"{record.id}.md"
                revised = replace(record, supersedes=rid(side.supersedes[name]))
                path.write_text(records.render(revised), encoding="utf-8")


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def setup_driver(repo: Path) -> list[str]:
    """``git memory setup merge``; the .gitattributes lines it prints."""
    done = run_cli(repo, "setup", "merge")
    assert done.returncode == 0, done.stderr
    return [line.strip() for line in done.stdout.splitlines() if line.strip().endswith("merge=chord-memory")]


def build(tmp_path: Path, case: Case, operation: str, driver: bool,
          style: str | None = None) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The case's history, then the operation (with ``merge.conflictStyle`` set to ``style``); the
    repository where it ran, and its result."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write_side(repo, case.base)
    # The attributes are committed as `setup merge` asks; the driver itself lives in each clone's
    # config, so a clone without `setup merge` merges as plain text.
    probe = tmp_path / "probe"
    probe.mkdir()
    git(probe, "init", "-q")
    write_side(probe, case.base)
    (repo / ".gitattributes").write_text("".join(f"{line}\n" for line in setup_driver(probe)))
    commit(repo, "base memory")

    if operation == "pull-rebase":
        clone = tmp_path / "clone"
        git(tmp_path, "clone", "-q", str(repo), str(clone))
        write_side(repo, case.ours)
        commit(repo, "upstream memory")
        write_side(clone, case.theirs)
        commit(clone, "local memory")
        if driver:
            setup_driver(clone)
        if style:
            git(clone, "config", "merge.conflictStyle", style)
        return clone, git(clone, "pull", "--rebase", "-q", "origin", "main", check=False)

    if driver:
        setup_driver(repo)
    if style:
        git(repo, "config", "merge.conflictStyle", style)
    git(repo, "checkout", "-q", "-b", "topic")
    write_side(repo, case.theirs)
    commit(repo, "topic memory")
    git(repo, "checkout", "-q", "main")
    write_side(repo, case.ours)
    commit(repo, "main memory")
    if operation == "merge":
        return repo, git(repo, "merge", "-q", "--no-edit", "topic", check=False)
    if operation == "cherry-pick":
        return repo, git(repo, "cherry-pick", "topic", check=False)
    git(repo, "checkout", "-q", "topic")
    return repo, git(repo, "rebase", "-q", "main", check=False)


def unmerged(repo: Path) -> set[str]:
    out = git(repo, "ls-files", "-u", "-z").stdout
    return {item.split("\t", 1)[1] for item in out.split("\0") if "\t" in item}


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_conflicts_without_the_driver(tmp_path: Path, case: Case, operation: str) -> None:
    repo, result = build(tmp_path, case, operation, driver=False)
    assert result.returncode != 0, result.stdout
    assert unmerged(repo) == {memory_path(p) for p in case.expected}
    for project in case.expected:
        assert "<<<<<<<" in (repo / memory_path(project)).read_text()


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_merges_with_the_driver(tmp_path: Path, case: Case, operation: str) -> None:
    repo, result = build(tmp_path, case, operation, driver=True)
    for project, expected in case.expected.items():
        assert (repo / memory_path(project)).read_text() == expected, project
    if case.conflicted_user_text:
        assert result.returncode != 0
        assert unmerged(repo) == {"MEMORY.md"}
        assert "conflict(s) left in the text outside the managed section" in result.stderr
        return
    assert result.returncode == 0, result.stderr
    assert unmerged(repo) == set()
    assert git(repo, "status", "--porcelain").stdout == ""
    if operation != "merge":
        return  # the same bytes as after the merge (asserted above): check and summary once
    for project, expected in case.expected.items():
        folder = repo / project
        check = run_cli(folder, "check")
        assert check.returncode == 0, check.stdout + check.stderr
        shown = run_cli(folder, "summary")
        expected_file = tmp_path / f"expected-{project.replace('/', '-') or 'root'}.md"
        expected_file.write_text(expected, encoding="utf-8")
        wanted = summary_mod.build(expected_file, budget=4000, extraction_enabled=False).text
        assert shown.stdout == wanted + "\n"
        for name in ("ours-new", "theirs-new", "api-ours", "api-theirs"):
            if entry_line(name) in expected:
                assert f"Summary of {name}." in shown.stdout


def _git_version() -> tuple[int, ...]:
    words = git(Path.cwd(), "version").stdout.split()
    return tuple(int(part) for part in words[2].split(".")[:2] if part.isdigit())


def _marker_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:7] in ("<<<<<<<", "|||||||", "=======", ">>>>>>>")]


@pytest.mark.parametrize("operation", ["merge", "rebase"])
@pytest.mark.parametrize("style", ["diff3", "zdiff3"])
def test_user_text_conflicts_look_as_without_the_driver(tmp_path: Path, operation: str, style: str) -> None:
    """The user's conflict style, and the labels git prints (git passes them to drivers from 2.44
    on; before, they are ``ours``, ``base`` and ``theirs``)."""
    case = next(c for c in CASES if c.conflicted_user_text)
    for name in ("with", "without"):
        (tmp_path / name).mkdir()
    repo, result = build(tmp_path / "with", case, operation, driver=True, style=style)
    assert result.returncode != 0
    text = (repo / "MEMORY.md").read_text()
    assert text.endswith(index(["ours-new", "theirs-new", "alpha"], head=""))
    plain_repo, _ = build(tmp_path / "without", case, operation, driver=False, style=style)
    without = _marker_lines((plain_repo / "MEMORY.md").read_text())[:4]  # the user's text comes first
    assert without[1].startswith("||||||| ")
    if _git_version() >= (2, 44):
        assert _marker_lines(text) == without
    else:
        assert _marker_lines(text) == ["<<<<<<< ours", "||||||| base", "=======", ">>>>>>> theirs"]
    for said in ("ours says", "shared line", "theirs says"):
        assert f"\n{said}\n" in text
