"""Drive a command through a pseudo-terminal, as a user at a terminal would (no extra dependency)."""
from __future__ import annotations

import os
import re
import select
import subprocess
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


class Terminal:
    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        master, slave = os.openpty()
        env = {**env, "TERM": "xterm", "COLUMNS": "120", "LINES": "40"}
        env.pop("CI", None)
        self.proc = subprocess.Popen(args, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = ""  # everything printed so far, escape codes removed
        self._cursor = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.seen += ANSI.sub("", data.decode("utf-8", "replace")).replace("\r", "")
        return True

    def expect(self, pattern: str, timeout: float = 30.0) -> str:
        """Wait for ``pattern`` after what earlier calls consumed; returns the text up to its end."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.seen, self._cursor)
            if match:
                chunk = self.seen[self._cursor:match.end()]
                self._cursor = match.end()
                return chunk
            if time.monotonic() > deadline or (not self._read(0.2) and self.proc.poll() is not None
                                                 and not self._read(0)):
                raise AssertionError(f"{pattern!r} not seen; output so far:\n{self.seen[self._cursor:]}")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def finish(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        while self._read(0.05):
            pass
        os.close(self.master)
        return self.proc.wait(timeout=5)
