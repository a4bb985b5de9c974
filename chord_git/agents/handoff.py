"""Handing a frozen host session to background extraction, once per piece of content (R14).

The host's transcript is read with its reader (``transcripts/``) up to the size it had when the
session froze, so a session resumed meanwhile cannot slip half a turn in. Of its conversation,
only the items not handed over before go on: a resumed session is extracted for what it added, not
a second time for what it already said. They are written as a native session file (user words,
complete replies, compaction summaries; tool traffic and host attachments such as injected memory
never get this far) and queued through the worker like any post-session hook would.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from chord_git import transcripts
from chord_git.agents.sessions import AgentSession, folder
from chord_git.background import worker
from chord_git.config import Config
from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.memory.project import Project
from chord_git.transcripts import Compaction, ConversationItem, Message, native

_READ_CHUNK = 1 << 20


@dataclass(frozen=True)
class Handoff:
    digests: tuple[str, ...]     # every item handed over so far, this time's included
    new_items: int
    job_id: str | None           # None: nothing new the user said, or extraction is off


def digest(item: ConversationItem) -> str:
    if isinstance(item, Compaction):
        key = "compaction\0" + item.summary
    else:
        key = f"{item.role}\0{item.content}"
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def new_items(items: Sequence[ConversationItem], handed: Sequence[str]) -> list[ConversationItem]:
    """Items not handed before, matched in order, so a repeated "yes" is still new the second time."""
    fresh: list[ConversationItem] = []
    position = 0
    for item in items:
        if position < len(handed) and digest(item) == handed[position]:
            position += 1
        else:
            fresh.append(item)
    return fresh


def native_lines(session_id: str, items: Sequence[ConversationItem]) -> list[str]:
    out = [json.dumps({"type": "session", "id": session_id, "frozen": True})]
    for item in items:
        if isinstance(item, Compaction):
            out.append(json.dumps({"type": "compaction", "summary": item.summary}, ensure_ascii=False))
        else:
            out.append(json.dumps({"type": "message", "role": item.role, "content": item.content,
                                   "complete": True}, ensure_ascii=False))
    return out


def read_frozen(path: Path, size: int | None) -> list[str]:
    """The transcript's complete lines within its first ``size`` bytes (all of it when None)."""
    chunks: list[bytes] = []
    left = size
    with open(path, "rb") as handle:
        while left is None or left > 0:
            chunk = handle.read(_READ_CHUNK if left is None else min(_READ_CHUNK, left))
            if not chunk:
                break
            chunks.append(chunk)
            if left is not None:
                left -= len(chunk)
    data = b"".join(chunks)
    cut = data.rfind(b"\n")
    data = data[: cut + 1] if cut >= 0 else b""  # a line still being written is not part of it
    return data.decode("utf-8", "replace").split("\n")


def hand_off(project: Project, cfg: Config, session: AgentSession, fmt: str) -> Handoff:
    """Queue what ``session`` added since its last hand-off; raises InputError for a bad transcript."""
    if session.transcript is None:
        raise InputError("<hook payload>", None, f"session {session.session_id} has no transcript path")
    path = Path(session.transcript)
    try:
        lines = read_frozen(path, session.end_size)
    except FileNotFoundError:
        return Handoff(session.handed, 0, None)  # never written (nothing said), or the host removed it
    except OSError as exc:
        raise InputError(path, None, f"cannot read transcript: {exc.strerror or exc}") from None
    transcript = transcripts.parse_lines(lines, fmt, str(path))
    items = transcript.conversation()
    fresh = new_items(items, session.handed)
    digests = tuple(digest(i) for i in items)
    said = any(isinstance(i, Message) and i.role == "user" and i.content.strip() for i in fresh)
    if not said:
        return Handoff(digests, len(fresh), None)
    tmp_dir = folder(project) / "tmp"
    tmp_dir.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir / f"{session.host}-{session.session_id}.jsonl"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the user's words: owner only
    with open(fd, "w", encoding="utf-8") as handle:
        handle.write("\n".join(native_lines(transcript.session_id or session.session_id, fresh)) + "\n")
    try:
        submission = worker.submit(project, cfg, tmp, native.FORMAT)
    finally:
        tmp.unlink(missing_ok=True)
    return Handoff(digests, len(fresh), submission.job_id if submission else None)
