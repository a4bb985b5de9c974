"""Where command output goes; commands print through this so tests can capture it."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import IO, Any


@dataclass
class Output:
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)

    def line(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def write(self, text: str) -> None:
        self.stdout.write(text)

    def json(self, data: Any) -> None:
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")

    def warn(self, text: str) -> None:
        self.stderr.write(f"warning: {text}\n")
