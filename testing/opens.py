"""Which files a piece of code opens, seen through the interpreter's audit hooks (PEP 578).

An audit hook cannot be removed once added, so one hook is installed on first use and reports
to whatever ``recording_opens`` blocks are active; outside them it does nothing.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_listeners: list[list[str]] = []
_installed: list[bool] = []


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _listeners and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        for opened in _listeners:
            opened.append(path)


@contextmanager
def recording_opens() -> Iterator[list[str]]:
    """The paths opened (``open``, ``io.open``, ``os.open``) in this process while the block runs."""
    if not _installed:
        sys.addaudithook(_hook)
        _installed.append(True)
    opened: list[str] = []
    _listeners.append(opened)
    try:
        yield opened
    finally:
        _listeners.remove(opened)
