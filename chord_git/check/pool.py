"""Both cores for a large batch: the work split in contiguous chunks, one per forked process.

Forking (not spawning) matters: children start with every module the parent imported, so a
batch pays no second start-up. Each child writes its pickled result to a pipe and leaves with
``os._exit`` (nothing of the parent's is flushed twice); a child that fails has its chunk done
again by the parent, where the error surfaces the usual way. Without ``fork`` (Windows), or with
one core, or with ``CHORD_GIT_WORKERS=1``, the work runs in this process.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
WORKERS_ENV = "CHORD_GIT_WORKERS"


def workers() -> int:
    """How many processes a batch may use: the cores this process may run on, at most 4."""
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        data = os.read(fd, 1 << 20)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


def split(items: Sequence[T], parts: int, weight: Callable[[T], int]) -> list[list[T]]:
    """Contiguous chunks of about equal total weight (order kept: results concatenate back)."""
    total = sum(weight(item) for item in items) or 1
    chunks: list[list[T]] = [[]]
    done = 0
    for item in items:
        if len(chunks) < parts and done >= total * len(chunks) / parts and chunks[-1]:
            chunks.append([])
        chunks[-1].append(item)
        done += weight(item)
    return chunks


def map_chunks(work: Callable[[list[T]], list[R]], chunks: list[list[T]]) -> list[R]:
    """``work`` on every chunk, all but the first in forked children; results in chunk order."""
    if len(chunks) < 2 or not hasattr(os, "fork"):
        return [result for chunk in chunks for result in work(chunk)]
    import pickle
    children: list[tuple[int, int, list[T]]] = []
    for chunk in chunks[1:]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's exit code
            os.close(read_fd)
            status = 0
            try:
                payload = pickle.dumps(work(chunk), protocol=pickle.HIGHEST_PROTOCOL)
                view = memoryview(payload)
                while view:
                    view = view[os.write(write_fd, view):]
            except BaseException:  # noqa: BLE001 - the parent redoes the chunk and reports
                status = 1
            finally:
                os._exit(status)
        os.close(write_fd)
        children.append((pid, read_fd, chunk))
    try:
        results = list(work(chunks[0]))
    except BaseException:
        for pid, read_fd, _ in children:  # closing the pipe ends each child's write: reap them
            os.close(read_fd)
            os.waitpid(pid, 0)
        raise
    for pid, read_fd, chunk in children:
        try:
            payload = _read_all(read_fd)
        finally:
            os.close(read_fd)
        _, status = os.waitpid(pid, 0)
        if status == 0 and payload:
            results.extend(pickle.loads(payload))
        else:
            results.extend(work(chunk))
    return results


__all__ = ["WORKERS_ENV", "map_chunks", "split", "workers"]
