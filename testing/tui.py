"""A full-screen agent CLI in a pseudo-terminal, read as the person at it would read it.

Some of what a host shows exists only in its interactive screen (Codex prints a hook's
``systemMessage`` in its TUI and not in ``codex exec``; Copilot CLI runs its status line only
there). ``Screen`` starts the CLI on a terminal of a fixed size, answers the cursor-position query
full-screen programs send at start, and keeps everything drawn, escape codes removed.

These programs place words with cursor moves rather than spaces, so ``shows`` compares text with
all whitespace taken out of both sides.

    with Screen([codex, "hello there"], cwd=repo, env=env) as screen:
        screen.wait_until(lambda: screen.shows("memory: 1 entry loaded"))
"""
from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType

# CSI and OSC sequences, and the two-byte ones (charset, keypad, save/restore cursor).
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]")
_CURSOR_QUERY = b"\x1b[6n"
_SPACE = re.compile(r"\s+")


def squeeze(text: str) -> str:
    return _SPACE.sub("", text)


class Screen:
    def __init__(self, args: Sequence[str], cwd: Path, env: Mapping[str, str], *, rows: int = 50,
                 cols: int = 200) -> None:
        import fcntl
        import struct
        import termios

        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**env, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        env.pop("CI", None)  # some CLIs draw nothing interactive under CI
        self.proc = subprocess.Popen(list(args), cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True)
        os.close(slave)
        self.master = master
        self.raw = b""

    def _read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program closed its terminal
            return
        if _CURSOR_QUERY in data:
            os.write(self.master, b"\x1b[1;1R")
        self.raw += data

    @property
    def text(self) -> str:
        """All drawn so far, escape codes removed (a program that redraws shows up more than once)."""
        return _ESCAPES.sub(b" ", self.raw).decode("utf-8", "replace")

    def shows(self, wanted: str) -> bool:
        return squeeze(wanted) in squeeze(self.text)

    def wait_until(self, condition: Callable[[], bool], timeout: float = 120.0, what: str = "condition") -> None:
        """Read the screen until ``condition()`` holds; fails with the screen's end after ``timeout``
        seconds or once the program has exited without it."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self._read(0)
                if condition():
                    return
                raise AssertionError(f"{what}: not seen (exit {self.proc.poll()}); screen so far:\n"
                                     f"{self.text[-4000:]}")
            self._read(0.2)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its own session: the CLI and what it started
        self.proc.wait(timeout=30)
        os.close(self.master)

    def __enter__(self) -> Screen:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
