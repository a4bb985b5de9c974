"""Where command output goes; commands print through this so tests can capture it."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, Protocol

from chord_git.support.dataclass_lazy import asdict, dataclass, field


class Report(Protocol):
    """A data class a command prints: ``lines()`` for people, its fields for ``--json``."""

    def lines(self) -> list[str]: ...


def either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: a list of alternatives as a sentence says it."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@dataclass
class Output:
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)

    def line(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def write(self, text: str) -> None:
        self.stdout.write(text)

    def json(self, data: Any) -> None:
        import json  # off the start-up of the commands that print text

        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")

    def report(self, report: Report, as_json: bool) -> int:
        """A command's report: its fields as JSON, or its lines; the exit code, 0."""
        if as_json:
            self.json(asdict(report))
        else:
            for line in report.lines():
                self.line(line)
        return 0

    def warn(self, text: str) -> None:
        self.stderr.write(f"warning: {text}\n")

    def on_terminal(self) -> bool:
        """Whether stderr is a terminal a progress bar may be drawn on."""
        return _is_terminal(self.stderr)

    def note(self, text: str) -> None:
        self.stderr.write(f"note: {text}\n")

    @contextmanager
    def progress(self, label: str, total: int) -> Iterator[Callable[[int], None]]:
        """A progress bar on stderr, drawn only when stderr is a terminal; yields ``advance(n)``.

        Off the terminal (CI logs, pipes, files) nothing is written at all, so reports and logs
        stay byte-for-byte what they would be without it.
        """
        if not _is_terminal(self.stderr):
            yield lambda _steps: None
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=self.stderr)
        with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda steps: bar.advance(task, steps)


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False
