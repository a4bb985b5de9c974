"""``check`` validates promotion files: front matter, the target-path rule, caps, R3."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.check import schema
from chord_git.commands.check import check
from chord_git.memory import promotions
from testing.commands import run

REL = ".chord/memory/promotions/20260110-use-pnpm-aa01.md"


def _file(**changes: object) -> str:
    base = promotions.PromotionFile(id="20260110-use-pnpm-aa01", entry=None, target="docs", path="docs/dev.md",
                                    reason="rarely needed", created="2026-01-10", session=None,
                                    text="Use pnpm.")
    fields = {**base.__dict__, **changes}
    return promotions.render(promotions.PromotionFile(**fields))  # type: ignore[arg-type]


def test_good_promotion_passes() -> None:
    assert schema.check_blob(REL, _file().encode()) == []


@pytest.mark.parametrize("text, kind", [
    (_file(path="../x.md"), "target-path"),
    (_file(path="src/app.py"), "target-path"),
    (_file(target="rules"), "target"),
    (_file(id="20260110-other-aa02"), "id"),
    (_file(entry="Bad Id"), "id"),
    (_file(text=""), "text"),
    (_file(text="y" * 4001), "cap"),
    (_file(text="Build in /home/ana/src."), "absolute-path"),
    (_file().replace('reason: "rarely needed"\n', ""), "field-missing"),
    (_file().replace("reason:", "extra: 1\nreason:"), "field-unknown"),
    ("no front matter\n", "front-matter"),
])
def test_bad_promotions_are_reported(text: str, kind: str) -> None:
    kinds = [f.kind for f in schema.check_blob(REL, text.encode())]
    assert kind in kinds


def test_layout_and_encoding() -> None:
    assert schema.check_blob(".chord/memory/promotions/Bad.md", b"")[0].kind == "id"
    assert schema.check_blob(".chord/memory/promotions/x/20260110-a-aa01.md", b"")[0].kind == "layout"
    assert schema.check_blob(REL, b"---\n\xff\n")[0].kind == "encoding"


def test_check_command_reports_a_bad_promotion_file(repo: Path) -> None:
    path = repo / REL
    path.parent.mkdir(parents=True)
    path.write_text(_file())
    assert run(check, repo).returncode == 0
    path.write_text(_file(path="/etc/passwd"))
    result = run(check, repo)
    assert result.returncode == 1 and "target-path" in result.stdout
