"""The audit's judgements kept between runs (``review.audit.Memo`` over the check's result cache
in the state dir): a second audit reads them instead of judging again and reports exactly what the
first did; a changed text, another rules version or a value that does not read back is judged again."""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.check.cache import ResultCache
from chord_git.commands.audit import audit as audit_command
from chord_git.memory import project as project_mod
from chord_git.review import audit
from testing.audit_repo import plant
from testing.commands import run
from testing.gitutil import index_digest, make_repo


def _audit(root: Path, memo: audit.Memo | None) -> audit.Report:
    return audit.audit_project(project_mod.discover(root), budget=4000, stale_after_days=3650, memo=memo)


def _rows(store: ResultCache) -> int:
    assert store.connection is not None
    return int(store.connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def test_a_second_audit_reads_the_judgements_and_reports_the_same(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "gen")
    plant(root, 120, seed=5, share=0.05)
    plain = _audit(root, None).as_json()
    store = ResultCache.open(tmp_path / "state")
    assert store is not None
    try:
        memo = audit.Memo(store, "rules-1")
        assert _audit(root, memo).as_json() == plain
        stored = _rows(store)
        assert stored >= 100  # one judgement per entry with distinct texts
        # Every judgement of the second run comes from the store: one planted as wrong shows.
        entries = audit.entries_of(project_mod.discover(root), audit.view.snapshot(project_mod.discover(root)))
        user = next(e for e in entries if e.record is not None and e.record.source == "user" and e.record.evidence)
        key = audit.judgement_key(user, "rules-1")
        wrong = json.loads(store.get_many([key])[key])
        assert wrong[-1] == "ok"
        wrong[-1] = "unsupported"
        store.put_many([(key, json.dumps(wrong))])
        again = _audit(root, memo).as_json()
        assert next(e for e in again["entries"] if e["id"] == user.id)["evidence"] == "unsupported"
        assert _rows(store) == stored  # nothing judged again, nothing added
        # Another rules version reads none of them: everything is judged again, as the plain run.
        assert _audit(root, audit.Memo(store, "rules-2")).as_json() == plain
        # A value that does not read back is judged again and replaced.
        store.put_many([(key, "not json")])
        assert _audit(root, memo).as_json() == plain
        assert json.loads(store.get_many([key])[key])[-1] == "ok"
    finally:
        store.close()


def test_a_changed_text_is_judged_again(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "gen")
    plant(root, 40, seed=6, share=0.05)
    store = ResultCache.open(tmp_path / "state")
    assert store is not None
    try:
        memo = audit.Memo(store, "rules-1")
        first = _audit(root, memo)
        user = next(e for e in first.entries if e.source == "user" and e.evidence == "ok")
        path = root / ".chord" / "memory" / "records" / f"{user.id}.md"
        text = path.read_text(encoding="utf-8")
        evidence = next(line for line in text.splitlines() if line.startswith("evidence:"))
        path.write_text(text.replace(evidence, 'evidence: "please fix the flaky test first"'), encoding="utf-8")
        changed = _audit(root, memo)
        assert next(e for e in changed.entries if e.id == user.id).evidence == "unsupported"
        assert changed.as_json() == _audit(root, None).as_json()
    finally:
        store.close()


def test_the_command_keeps_its_judgements_outside_the_project(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "gen")
    plant(root, 30, seed=8, share=0.05)
    before = index_digest(root)
    first = run(audit_command, root, fmt="json")
    second = run(audit_command, root, fmt="json")
    assert first.returncode == second.returncode == 0, first.stderr
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert index_digest(root) == before
    # The store lives in the state dir (under .git here), never in the working tree.
    state = project_mod.discover(root).state_dir
    assert (state / "check-cache.sqlite3").is_file()
    assert not [p for p in root.rglob("*.sqlite3*") if ".git" not in p.relative_to(root).parts]
    store = ResultCache.open(state)
    assert store is not None
    try:
        assert _rows(store) >= 25
    finally:
        store.close()
