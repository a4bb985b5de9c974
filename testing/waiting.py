"""Waiting on a condition with a generous bound: how tests meet background work without sleeps."""
from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(check: Callable[[], bool], timeout: float = 20.0, poll: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(poll)
    return check()
