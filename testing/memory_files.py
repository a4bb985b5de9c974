"""Building real memory in a test repository: record files and index lines, written as the tool would."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from chord_git.support.dataclass_lazy import replace
from chord_git.memory import index_file, records
from chord_git.memory.project import Project, discover


def sample_record(**overrides: Any) -> records.Record:
    """A valid user-said record (not written anywhere); ``overrides`` replace its fields."""
    base = records.Record(
        id="20261129-use-pnpm-3f9a", type="preference", source="user", status="stated",
        summary="Use pnpm, never npm, for JS dependencies.",
        statement="All JS dependency commands use pnpm; no package-lock.json is ever created.",
        evidence="this repo only uses pnpm, please never run npm install", created="2026-11-29",
        session="7f3c2a", supersedes=None, conclusion="Use pnpm.", why="The lockfile is pnpm-lock.yaml.",
        how_to_apply="Whenever adding or updating JS dependencies.",
    )
    return replace(base, **overrides)


def make_record(root: Path, rid: str, *, source: str = "assistant", summary: str | None = None,
                statement: str | None = None, created: str = "2026-01-10", kind: str = "fact",
                body: str = "") -> records.Record:
    record = records.Record(
        id=rid, type=kind, source=source, status="stated" if source == "user" else "unverified",
        summary=summary or f"Summary of {rid}.", statement=statement or f"Statement of {rid}.",
        evidence="please remember this" if source == "user" else None, created=created, session="s1",
        supersedes=None, conclusion=body or "Conclusion text.", why="Why text.", how_to_apply="How text.",
    )
    path = root / ".chord" / "memory" / "records" / f"{rid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(records.render(record), encoding="utf-8")
    return record


def write_index(root: Path, recs: list[records.Record], header: str = "# Project memory\n\nMy notes.\n\n") -> None:
    lines = "".join(index_file.Entry(r.type, r.summary, r.id).render() + "\n" for r in recs)
    (root / "MEMORY.md").write_text(f"{header}{index_file.BEGIN}\n{lines}{index_file.END}\n", encoding="utf-8")


def listed(root: Path) -> list[str]:
    doc, _ = index_file.parse((root / "MEMORY.md").read_text(encoding="utf-8"))
    assert doc is not None
    return doc.ids()


def project_of(root: Path) -> Project:
    return discover(root)


def output(**parts: Any) -> Any:
    """A ModelOutput built through the real schema parser."""
    import json

    from chord_git.extraction.schema import parse_output

    body = {"records": parts.get("records", []), "retire": parts.get("retire", []),
            "promotions": parts.get("promotions", [])}
    return parse_output(json.dumps(body))


def promotion(entry: str | None, path: str = "docs/dev.md", text: str = "Run the linter before pushing.",
              target: str = "docs", reason: str = "rarely needed") -> dict[str, Any]:
    return {"id": entry, "target": target, "path": path, "proposed_text": text, "reason": reason}
