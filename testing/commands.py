"""Calling ``git memory``'s command functions directly, as pre-commit's tests do: no argv, no
subprocess. ``run`` gives the project, its config and a capturing ``Output`` to whichever of them
the command takes, and turns our errors into an exit code and one line, as ``main`` does.
The argument parsing and the console script keep end-to-end tests of their own (``run_cli``).
"""
from __future__ import annotations

import inspect
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chord_git import config as config_mod
from chord_git.errors import ChordError
from chord_git.memory.project import discover
from chord_git.ui import Output


@dataclass(frozen=True)
class Result:
    """What a command returned and printed, named like ``subprocess.CompletedProcess``."""

    returncode: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run(command: Callable[..., int], root: Path, **kwargs: Any) -> Result:
    """``command`` on the project at ``root`` (or, for ``scan``, the repository at ``root``)."""
    wants = inspect.signature(command).parameters
    out = Output(stdout=io.StringIO(), stderr=io.StringIO())
    given: dict[str, Any] = {"out": out}
    try:
        if "start" in wants:
            given["start"] = root
        if "project" in wants:
            given["project"] = discover(root)
        if "cfg" in wants:
            given["cfg"] = config_mod.load(given["project"].root)
        code = command(**given, **kwargs)
    except ChordError as exc:
        out.stderr.write(f"git memory: {exc}\n")
        code = exc.exit_code
    assert isinstance(out.stdout, io.StringIO) and isinstance(out.stderr, io.StringIO)
    return Result(code, out.stdout.getvalue(), out.stderr.getvalue())
