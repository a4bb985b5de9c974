"""Results of the content rules, by content: what was checked once is not checked again.

``check``, ``check --staged`` and ``scan`` ask the same question of the same bytes again and
again: the hook checks a new record, the whole-project check reads it again on every run, CI
scans the commit that added it on every push. Each answer is stored under a key made of
everything it depends on: the rules (this package's source files and detect-secrets' version),
the project's settings (its ``.secrets.baseline``), the path, and the file's bytes and added
lines. A commit's findings are also stored under its id: a commit never changes, so a second
scan of the same range only walks the history.

The store is one SQLite file in the state dir (never in the working tree). Any problem with it
(locked, unwritable, corrupt) costs speed, never a result: the rules run as if it were empty.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.findings import Finding, Problem

FILE_NAME = "check-cache.sqlite3"
FORMAT = 2  # bump when the stored shape changes
MAX_ROWS = 200_000  # about 60 MB; the oldest answers go first
_BATCH = 500  # keys per query (SQLite's parameter limit is 999 on old builds)


def _package_sources() -> list[str]:
    """(path, size, mtime) of this package's modules: any change to a rule changes the key."""
    import chord_git

    found: list[str] = []

    def visit(folder: str | Path, prefix: str) -> None:  # os.walk's order, in half its time (every hook run)
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
        for entry in entries:
            if entry.name.endswith(".py") and not entry.is_dir():
                stat = entry.stat()
                found.append(f"{prefix}{entry.name}:{stat.st_size}:{stat.st_mtime_ns}")
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink() and entry.name != "__pycache__":
                visit(entry.path, prefix + entry.name + os.sep)

    visit(Path(chord_git.__file__).resolve().parent, "")
    return found


def _detect_secrets_version() -> str:
    """detect-secrets' version, read without importing it (the hook often never needs it)."""
    from importlib.util import find_spec

    spec = find_spec("detect_secrets")
    if spec is None or not spec.submodule_search_locations:
        return "absent"
    version_file = Path(list(spec.submodule_search_locations)[0]) / "__version__.py"
    try:
        return version_file.read_text("utf-8").strip()
    except OSError:
        return "unknown"


def rules_version() -> str:
    """A fingerprint of everything the rules are made of."""
    import sys

    from chord_git import __version__

    parts = [f"format {FORMAT}", __version__, sys.version, _detect_secrets_version(), *_package_sources()]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def settings_fingerprint(*files: Path | None) -> str:
    """The project files that change what the rules report (the baseline), by content."""
    digest = hashlib.sha256()
    for path in files:
        if path is None:
            digest.update(b"-\0")
            continue
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"unreadable")
        digest.update(b"\0")
    return digest.hexdigest()


def encode(findings: Iterable[Finding]) -> str:
    """Findings as stored: place, kind, message, layer and the values' hashes (never a value)."""
    return json.dumps([[f.path, f.line, f.kind, f.message, f.layer, list(f.value_hashes)] for f in findings],
                      ensure_ascii=False, separators=(",", ":"))


def decode(value: str, commit: str | None = None) -> list[Finding]:
    return [Finding(path, Problem(line, kind, message), layer, commit, tuple(hashes))
            for path, line, kind, message, layer, hashes in json.loads(value)]


@dataclass
class ResultCache:
    """One open store; ``None`` in place of a cache means "always compute"."""

    connection: sqlite3.Connection | None
    path: Path

    @classmethod
    def open(cls, state_dir: Path) -> ResultCache | None:
        path = state_dir / FILE_NAME
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(path, timeout=5, isolation_level=None)
            # Creating the store (WAL header, empty table) unsynced saves the first hook of a
            # clone ~10 ms of fsyncs: it holds no answer yet, a crash leaves a file set aside
            # below or a missing table made again next time. Answers are written at NORMAL.
            connection.execute("PRAGMA synchronous=OFF")
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                               "stored REAL NOT NULL) WITHOUT ROWID")
            connection.execute("PRAGMA synchronous=NORMAL")  # a lost answer is only recomputed
        except sqlite3.DatabaseError:
            _set_aside(path)  # not a database (a crash mid-create, someone else's file): start over
            try:
                connection = sqlite3.connect(path, timeout=5, isolation_level=None)
                connection.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, "
                                   "value TEXT NOT NULL, stored REAL NOT NULL) WITHOUT ROWID")
            except (sqlite3.Error, OSError):
                return None
        except (sqlite3.Error, OSError):
            return None
        return cls(connection, path)

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        if self.connection is None or not keys:
            return found
        try:
            for start in range(0, len(keys), _BATCH):
                chunk = list(keys[start:start + _BATCH])
                marks = ",".join("?" * len(chunk))
                found.update(self.connection.execute(
                    f"SELECT key, value FROM results WHERE key IN ({marks})", chunk).fetchall())
        except sqlite3.Error as exc:
            self._give_up(exc)
            return {}
        return found

    def put_many(self, items: Iterable[tuple[str, str]]) -> None:
        rows = [(key, value, time.time()) for key, value in items]
        if self.connection is None or not rows:
            return
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?)", rows)
                (count,) = self.connection.execute("SELECT COUNT(*) FROM results").fetchone()
                if count > MAX_ROWS:
                    self.connection.execute(
                        "DELETE FROM results WHERE key IN (SELECT key FROM results ORDER BY stored LIMIT ?)",
                        (count - MAX_ROWS * 3 // 4,))
        except sqlite3.Error as exc:
            self._give_up(exc)  # locked for too long, disk full: this run just does not store

    def _give_up(self, exc: sqlite3.Error) -> None:
        """Stop using the store for this run; one SQLite found damaged is set aside, so that the
        next run starts a fresh one instead of recomputing everything against it forever."""
        self.close()
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            _set_aside(self.path)  # "database disk image is malformed", "file is not a database"

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except sqlite3.Error:
                pass
            self.connection = None


def _set_aside(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.replace(f"{path}{suffix}", f"{path}{suffix}.broken")
        except OSError:
            pass


def key(*parts: bytes | str) -> str:
    """A key from its parts, each length-prefixed so that no two part lists collide."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        digest.update(b"%d:" % len(data))
        digest.update(data)
    return digest.hexdigest()


def lines_digest(lines: Sequence[tuple[int, str]]) -> bytes:
    """The added lines, numbers included, as hash input: their count, the numbers and the
    lengths as machine integers, then the texts one after another (``surrogatepass`` encodes
    every string, lone surrogates included, and no two strings alike). The lengths make it
    unambiguous where one text ends. Built in C: the ``repr`` of a 23 MB file's 380,000 lines
    this replaces cost 0.3 s of a hook run, this 0.1 s."""
    from array import array
    from operator import itemgetter

    digest = hashlib.sha256(b"%d:" % len(lines))
    digest.update(array("q", map(itemgetter(0), lines)).tobytes())
    texts = list(map(itemgetter(1), lines))
    digest.update(array("q", map(len, texts)).tobytes())
    digest.update("".join(texts).encode("utf-8", "surrogatepass"))
    return digest.digest()


__all__ = ["FILE_NAME", "ResultCache", "decode", "encode", "key", "lines_digest", "rules_version",
           "settings_fingerprint"]
