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
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from chord_git import transcripts
from chord_git.agents.sessions import AgentSession, folder
from chord_git.background import queue, worker
from chord_git.config import Config
from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError
from chord_git.memory.project import Project
from chord_git.transcripts import Compaction, ConversationItem, Message, native


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


def open_transcript(path: Path) -> BinaryIO:
    """The host's transcript opened for reading; InputError unless it is a regular file.

    Opened without blocking and checked before any read: a FIFO (or a device) named in a hook
    payload would otherwise hold the watcher in ``open`` for good, with its lock. (A session
    file given on the command line may be a pipe: the queue reads that up to its cap.)
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(path, None, "the transcript is not a regular file")
        os.set_blocking(fd, True)
        return open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def frozen_lines(handle: BinaryIO, size: int | None) -> Iterator[str]:
    """The complete lines within the stream's first ``size`` bytes (all of it when None), one at
    a time: what the reader keeps of a transcript is its conversation, not the tool traffic."""
    left = size
    while left is None or left > 0:
        raw = handle.readline() if left is None else handle.readline(left)
        if not raw.endswith(b"\n"):
            break  # the end, or a line still being written: not part of it
        if left is not None:
            left -= len(raw)
        yield raw[:-1].decode("utf-8", "replace")


def hand_off(project: Project, cfg: Config, session: AgentSession, fmt: str) -> Handoff:
    """Queue what ``session`` added since its last hand-off; raises InputError for a bad transcript."""
    if session.transcript is None:
        raise InputError("<hook payload>", None, f"session {session.session_id} has no transcript path")
    path = Path(session.transcript)
    try:
        stream = open_transcript(path)
    except FileNotFoundError:
        return Handoff(session.handed, 0, None)  # never written (nothing said), or the host removed it
    except OSError as exc:
        raise InputError(path, None, f"cannot read transcript: {exc.strerror or exc}") from None
    with stream:
        size = os.fstat(stream.fileno()).st_size
        frozen = size if session.end_size is None else min(size, session.end_size)
        limit = queue.MAX_TRANSCRIPT_BYTES  # the cap on what the queue takes, read when called
        if frozen > limit:
            raise InputError(path, None, f"transcript is larger than {limit // (1024 * 1024)} MiB; "
                                         "not queued for memory extraction")
        try:
            transcript = transcripts.parse_lines(frozen_lines(stream, frozen), fmt, str(path))
        except OSError as exc:
            raise InputError(path, None, f"cannot read transcript: {exc.strerror or exc}") from None
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
