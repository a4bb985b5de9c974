"""Loader for the extraction evaluation set (issue 4, "Evaluation").

Layout under ``bench/eval/``:
    sessions/<case>.jsonl   native transcript (SPEC "Session transcripts"), secrets as placeholders
    gold/<case>.yaml        gold items, traps, existing records, candidate labels
    replies/<case>.json     a scripted model reply in the exact SPEC output schema

Secret placeholders are expanded here, at load time, so the files in the repository scan clean.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .secret_values import expand_text, placeholders, secret_value

ROOT = Path(__file__).resolve().parent
NATIVE_TYPES = ("session", "message", "tool_call", "tool_result", "compaction")
EXPECTED = ("keep", "drop", "model-judgment")
LISTS = ("records", "retire", "promotions")


@dataclass(frozen=True)
class GoldItem:
    type: str
    statement: str
    evidence: str
    status: str
    line: int  # 1-based line of the session file holding the user message quoted by ``evidence``
    supersedes: str | None = None
    note: str = ""
    source: str = "user"  # who the stored record must name: "assistant" for an adopted proposal


@dataclass(frozen=True)
class Trap:
    kind: str
    text: str  # expanded: must not become memory (and, for ``injected``/``secret``, never be sent)


@dataclass(frozen=True)
class Label:
    list: str  # "records" | "retire" | "promotions"
    index: int
    expected: str  # "keep" | "drop" | "model-judgment"
    reason: str = ""
    gold: int | None = None  # index of the gold item a ``keep`` record realises


@dataclass(frozen=True)
class Case:
    id: str
    language: str
    description: str
    session_path: Path
    session_lines: tuple[dict[str, Any], ...]
    gold: tuple[GoldItem, ...]
    traps: tuple[Trap, ...]
    existing: tuple[dict[str, Any], ...]
    reply: dict[str, Any]
    labels: tuple[Label, ...]
    expected_retire: tuple[str, ...] = ()
    expected_promotions: tuple[dict[str, Any], ...] = ()
    secrets: tuple[str, ...] = ()  # every expanded secret value: canaries for leak checks
    agents_md: str = ""  # the project's AGENTS.md during the run ("" = none)

    @property
    def assistant_messages(self) -> list[str]:
        return [line["content"] for line in self.session_lines if _is_message(line, "assistant")]

    @property
    def user_messages(self) -> list[str]:
        return [line["content"] for line in self.session_lines if _is_message(line, "user")]

    @property
    def is_null(self) -> bool:
        return not self.gold and not self.expected_retire and not self.expected_promotions

    def candidates(self) -> Iterator[tuple[Label, dict[str, Any]]]:
        """Each labelled entry of the scripted reply, paired with its label."""
        for label in self.labels:
            yield label, self.reply[label.list][label.index]


def _is_message(line: Mapping[str, Any], role: str) -> bool:
    return line.get("type") == "message" and line.get("role") == role


def _expand(value: Any, case_id: str) -> Any:
    if isinstance(value, str):
        return expand_text(value, case_id)
    if isinstance(value, list):
        return [_expand(item, case_id) for item in value]
    if isinstance(value, dict):
        return {key: _expand(item, case_id) for key, item in value.items()}
    return value


def _collect_placeholders(value: Any, found: set[tuple[str, str]]) -> None:
    if isinstance(value, str):
        found.update(placeholders(value))
    elif isinstance(value, list):
        for item in value:
            _collect_placeholders(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _collect_placeholders(item, found)


def read_session(path: Path) -> list[dict[str, Any]]:
    """Raw (unexpanded) lines of a session file; raises ValueError naming file and line."""
    lines: list[dict[str, Any]] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not JSON: {exc.msg}") from None
        if not isinstance(obj, dict) or obj.get("type") not in NATIVE_TYPES:
            raise ValueError(f"{path}:{number}: not a native transcript line")
        lines.append(obj)
    return lines


def load_case(case_id: str, root: Path | None = None) -> Case:
    base = root or ROOT
    session_path = base / "sessions" / f"{case_id}.jsonl"
    gold_path = base / "gold" / f"{case_id}.yaml"
    raw_session = read_session(session_path)
    gold_doc = yaml.safe_load(gold_path.read_text(encoding="utf-8"))
    raw_reply = json.loads((base / "replies" / f"{case_id}.json").read_text(encoding="utf-8"))
    if not isinstance(gold_doc, dict) or gold_doc.get("id") != case_id:
        raise ValueError(f"{gold_path}: id must be {case_id!r}")

    found: set[tuple[str, str]] = set()
    _collect_placeholders([raw_session, gold_doc, raw_reply], found)
    secrets = tuple(sorted(secret_value(case_id, kind, tag) for kind, tag in found))

    return Case(
        id=case_id,
        language=str(gold_doc["language"]),
        description=str(gold_doc.get("description", "")),
        session_path=session_path,
        session_lines=tuple(_expand(raw_session, case_id)),
        gold=tuple(GoldItem(**_expand(item, case_id)) for item in gold_doc.get("gold") or ()),
        traps=tuple(Trap(**_expand(item, case_id)) for item in gold_doc.get("traps") or ()),
        existing=tuple(_expand(gold_doc.get("existing") or [], case_id)),
        reply=_expand(raw_reply, case_id),
        labels=tuple(Label(**item) for item in gold_doc.get("candidates") or ()),
        expected_retire=tuple(gold_doc.get("retire") or ()),
        expected_promotions=tuple(_expand(gold_doc.get("promotions") or [], case_id)),
        secrets=secrets,
        agents_md=str(gold_doc.get("agents_md") or ""),
    )


def case_ids(root: Path | None = None) -> list[str]:
    return sorted(path.stem for path in ((root or ROOT) / "sessions").glob("*.jsonl"))


def load_cases(root: Path | None = None) -> list[Case]:
    """Every case of the set, sorted by id, with secrets expanded."""
    return [load_case(case_id, root) for case_id in case_ids(root)]


def materialize(case: Case, dest_dir: Path) -> Path:
    """Write the expanded session as native JSONL into ``dest_dir``; returns the file."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    path = dest_dir / f"{case.id}.jsonl"
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in case.session_lines)
    path.write_text(text, encoding="utf-8")
    return path


_FILLER_TURNS = (
    {"type": "message", "role": "user", "content": "Next: look at the pagination helper and tell me if it handles an empty page.", "complete": True},
    {"type": "tool_call", "name": "read", "input": "lib/pagination.py"},
    {"type": "tool_result", "content": "def page(items, size):\n    return [items[i:i + size] for i in range(0, len(items), size)]\n" * 24},
    {"type": "message", "role": "assistant", "content": "It returns an empty list for no items, so callers see zero pages rather than one empty page. " * 3, "complete": True},
    {"type": "message", "role": "user", "content": "ok, leave it as it is and move on", "complete": True},
)


def materialize_long(case: Case, dest_dir: Path, target_bytes: int = 5 * 1024 * 1024) -> Path:
    """Like ``materialize`` but padded to about ``target_bytes`` with filler turns placed *before*
    the case's own lines, so the gold evidence sits in the most recent messages (budget tests)."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    path = dest_dir / f"{case.id}.long.jsonl"
    block = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in _FILLER_TURNS)
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in case.session_lines[1:])
    header = json.dumps(case.session_lines[0], ensure_ascii=False) + "\n"
    repeats = max(0, (target_bytes - len(header.encode()) - len(body.encode())) // len(block.encode()))
    with path.open("w", encoding="utf-8") as out:
        out.write(header)
        for _ in range(repeats):
            out.write(block)
        out.write(body)
    return path


def write_existing_memory(case: Case, project_root: Path) -> list[Path]:
    """Lay out ``case.existing`` as MEMORY.md plus record files (SPEC format).

    Entries with ``in_index: false`` get a record file but no index line: orphans, i.e. memories
    the user deleted, which extraction must not bring back (R22, R34).
    """
    records_dir = project_root / ".chord" / "memory" / "records"
    records_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    index_lines: list[str] = []
    for entry in case.existing:
        front = {
            "id": entry["id"],
            "type": entry["type"],
            "source": entry["source"],
            "status": entry["status"],
            "summary": entry["summary"],
            "statement": entry["statement"],
            "evidence": entry.get("evidence"),
            "created": entry.get("created", "2026-01-15"),
            "session": entry.get("session", "e0e0e0"),
            "supersedes": None,
        }
        body = (
            "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n"
            f"## Conclusion\n{entry['statement']}\n\n## Why keep it\n{entry.get('why', '')}\n\n"
            f"## How to apply\n{entry.get('how_to_apply', '')}\n"
        )
        path = records_dir / f"{entry['id']}.md"
        path.write_text(body, encoding="utf-8")
        written.append(path)
        if entry.get("in_index", True):
            link = f".chord/memory/records/{entry['id']}.md"
            index_lines.append(f"- [{entry['type']}] {entry['summary']} ([{entry['id']}]({link}))")
    memory = project_root / "MEMORY.md"
    memory.write_text(
        "# Project memory\n\n<!-- chord:memory:begin -->\n"
        + "".join(line + "\n" for line in index_lines)
        + "<!-- chord:memory:end -->\n",
        encoding="utf-8",
    )
    return [memory, *written]
