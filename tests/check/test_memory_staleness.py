"""Staleness caught in the pull request that causes it (issue 36): ``scan --range`` lists the entries
whose anchors the range deletes, renames or removes, with the commit and a ready fix; the job
summary gets a row each; ``--fail-on-stale-memory`` fails the scan on them."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from chord_git.check import memory_staleness
from chord_git.memory import anchors, index_file, records
from testing.gitutil import git, index_digest, run_cli
from testing.memory_files import sample_record
from tests.check.helpers import RECORDS, memory_repo, write

LINT = "20261201-lint-0001"
MAILER = "20261201-mailer-0002"
BUILD = "20261201-build-0003"
TOKEN = "20261201-token-0004"
DOCS = "20261201-docs-0005"
CHECK = "20261201-check-0006"
OLD = "20261201-old-0007"

TEXTS = {
    LINT: "Run `make lint` before review.",
    MAILER: "The mailer lives in `src/mailer.py`.",
    BUILD: "Build the site with pnpm run build:web.",
    TOKEN: "The API key is read from `API_TOKEN_FILE`.",
    DOCS: "Design notes live under `docs/design/`.",
    CHECK: "Run `make check` before pushing.",
    OLD: "The old entry names `src/never-there.py`.",  # never existed: no range made it stale
}


def _repo(tmp_path: Path, *, with_anchors: bool = True) -> Path:
    repo = memory_repo(tmp_path / "repo")
    write(repo, "Makefile", "lint:\n\truff check .\ncheck:\n\tpytest\n")
    write(repo, "src/mailer.py", "def send():\n    return 'a fairly long body so that rename detection has content'\n" * 3)
    write(repo, "package.json", json.dumps({"scripts": {"build:web": "vite build", "test": "vitest"}}, indent=2))
    write(repo, ".env.example", "API_TOKEN_FILE=/run/secrets/api\nPORT=8080\n")
    write(repo, "docs/design/one.md", "# One\n\nThe first design note, long enough to be recognised again.\n")
    write(repo, "docs/design/two.md", "# Two\n\nThe second design note, long enough to be recognised again.\n")
    lines = []
    for rid, text in TEXTS.items():
        rec = sample_record(id=rid, summary=text, statement=text,
                            anchors=anchors.of_texts([text]) if with_anchors else ())
        write(repo, f"{RECORDS}/{rid}.md", records.render(rec))
        lines.append(index_file.Entry(rec.type, rec.summary, rid).render())
    write(repo, "MEMORY.md", f"# Project memory\n\n{index_file.BEGIN}\n" + "\n".join(lines) + f"\n{index_file.END}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "switch", "-q", "-c", "pr")
    return repo


def _commit(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def test_a_pull_request_that_deletes_a_make_target_gets_a_row_and_the_gate_fails(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "Makefile", "check:\n\tpytest\n")
    sha = _commit(repo, "drop the lint target")
    before = index_digest(repo)
    plain = run_cli(repo, "scan", "--range", "main..pr")
    assert plain.returncode == 0, plain.stderr  # listed, not failed, without the gate
    assert f"stale memory: {LINT}: make lint removed from Makefile in {sha[:12]}" in plain.stdout
    assert f"  fix: git memory forget {LINT}" in plain.stdout
    assert CHECK not in plain.stdout
    summary = tmp_path / "summary.md"
    gated = run_cli(repo, "scan", "--range", "main..pr", "--summary", str(summary), "--fail-on-stale-memory")
    assert gated.returncode == 1
    assert gated.stderr.strip().endswith(f"1 entry this range makes stale (fail-on-stale-memory): {LINT}")
    text = summary.read_text("utf-8")
    assert "### Memory this range makes stale (1)" in text
    row = next(line for line in text.splitlines() if line.startswith(f"| `{LINT}`"))
    assert "`make lint`" in row and f"`{sha[:12]}`" in row and f"`git memory forget {LINT}`" in row
    assert index_digest(repo) == before and git(repo, "status", "--porcelain") == ""


def test_renames_are_offered_as_updates(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    git(repo, "mv", "src/mailer.py", "src/mail_sender.py")
    git(repo, "mv", "docs/design", "docs/architecture")
    write(repo, "Makefile", "lint-all:\n\truff check .\ncheck:\n\tpytest\n")
    write(repo, ".env.example", "API_TOKEN_PATH=/run/secrets/api\nPORT=8080\n")
    write(repo, "package.json", json.dumps({"scripts": {"web:build": "vite build", "test": "vitest"}}, indent=2))
    _commit(repo, "renames")
    found = {hit.rid: hit for hit in memory_staleness.find(repo, git(repo, "rev-parse", "main").strip(),
                                                           git(repo, "rev-parse", "pr").strip(), "main..pr")}
    assert {rid: hit.renamed_to for rid, hit in found.items()} == {
        LINT: "lint-all", MAILER: "src/mail_sender.py", BUILD: "web:build", TOKEN: "API_TOKEN_PATH",
        DOCS: "docs/architecture/"}
    assert all(hit.change == memory_staleness.RENAMED for hit in found.values())
    fixes = found[MAILER].fixes()
    assert fixes[0] == f"git memory forget {MAILER}"
    assert shlex.split(fixes[1]) == ["git", "memory", "add", "The mailer lives in `src/mail_sender.py`."]
    assert shlex.split(found[LINT].fixes()[1])[3] == "Run `make lint-all` before review."
    assert shlex.split(found[DOCS].fixes()[1])[3] == "Design notes live under `docs/architecture/`."
    assert all(hit.commit == git(repo, "rev-parse", "pr").strip() for hit in found.values())
    out = run_cli(repo, "scan", "--range", "main..pr").stdout
    assert f"stale memory: {MAILER}: src/mailer.py renamed to src/mail_sender.py in " in out


def test_deletions_and_removals_and_what_stays(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "src" / "mailer.py").unlink()
    (repo / "docs" / "design" / "one.md").unlink()
    (repo / "docs" / "design" / "two.md").unlink()
    write(repo, "package.json", json.dumps({"scripts": {"test": "vitest"}}, indent=2))
    write(repo, ".env.example", "PORT=8080\n")
    write(repo, "src/other.py", "x = 1\n")  # added, not named: nothing
    _commit(repo, "deletions")
    found = memory_staleness.find(repo, git(repo, "rev-parse", "main").strip(), git(repo, "rev-parse", "pr").strip(),
                                  "main..pr")
    assert {hit.rid: hit.change for hit in found} == {MAILER: memory_staleness.DELETED, BUILD: memory_staleness.REMOVED,
                                                      TOKEN: memory_staleness.REMOVED, DOCS: memory_staleness.DELETED}


def test_a_key_that_lives_on_in_another_config_file_is_not_stale(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "config/prod.env", "API_TOKEN_FILE=/etc/api\n")
    write(repo, ".env.example", "PORT=8080\n")
    _commit(repo, "move the key")
    assert memory_staleness.find(repo, git(repo, "rev-parse", "main").strip(), git(repo, "rev-parse", "pr").strip(),
                                 "main..pr") == []


def test_a_script_that_lives_on_in_another_package_is_not_stale(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "web/package.json", json.dumps({"scripts": {"build:web": "vite build"}}, indent=2))
    write(repo, "package.json", json.dumps({"scripts": {"test": "vitest"}}, indent=2))
    _commit(repo, "move the script into the web package")
    assert memory_staleness.find(repo, git(repo, "rev-parse", "main").strip(), git(repo, "rev-parse", "pr").strip(),
                                 "main..pr") == []


def test_older_records_without_anchors_are_read_from_their_text(tmp_path: Path) -> None:
    repo = _repo(tmp_path, with_anchors=False)
    assert "anchors:" not in (repo / RECORDS / f"{LINT}.md").read_text("utf-8")
    write(repo, "Makefile", "check:\n\tpytest\n")
    _commit(repo, "drop lint")
    assert f"stale memory: {LINT}: make lint removed from Makefile" in run_cli(repo, "scan", "--range", "main..pr").stdout


def test_the_printed_fix_works_as_printed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo, "Makefile", "check:\n\tpytest\n")
    _commit(repo, "drop lint")
    out = run_cli(repo, "scan", "--range", "main..pr").stdout
    fix = next(line.split("fix: ", 1)[1] for line in out.splitlines() if line.startswith("  fix: "))
    argv = shlex.split(fix)
    assert argv[:2] == ["git", "memory"]
    done = run_cli(repo, *argv[2:])
    assert done.returncode == 0, done.stderr
    # On this branch the removal waits in a pending file (or leaves MEMORY.md on the default branch).
    listed = (repo / "MEMORY.md").read_text("utf-8")
    removals = list((repo / ".chord/memory/pending").glob("*")) if (repo / ".chord/memory/pending").exists() else []
    assert LINT not in listed or any(LINT in path.read_text("utf-8") for path in removals), done.stdout
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "forget the lint entry")
    assert "stale memory" not in run_cli(repo, "scan", "--range", "main..pr").stdout  # fixed in the same PR
