"""Run work on untrusted input in a separate process, stopped when it runs over its time limit.

Each job is a fresh process forked from a fork server that has already imported the library
(:mod:`reports.web.work`), so a job starts in milliseconds and leaves nothing behind.  A job
gets at most :data:`MEMORY_LIMIT` bytes of memory and ``limit`` seconds; past that it is
killed and the request answered with one line.  At most ``slots`` jobs run at once; the rest
wait their turn.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from reports.web.problems import Problem

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkServerContext

__all__ = ["MEMORY_LIMIT", "TIME_LIMIT", "Runner"]

TIME_LIMIT = 20.0
"""Seconds a job may take: reading a 10 MB file takes a fraction of it."""
MEMORY_LIMIT = 2 * 1024 * 1024 * 1024
"""Bytes of address space a job may use."""

T = TypeVar("T")


def _child(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """The job's process: run *fn* and send back ('ok', value) or ('error', (status, line))."""
    import resource

    from reports.web.problems import problem

    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        conn.send(("ok", fn(*args)))
    except BaseException as exc:  # every failure becomes one line for the parent
        status, line = problem(exc)
        if status >= 500:
            import traceback

            traceback.print_exc()  # the server's log: a bug, not the input
        conn.send(("error", (status, line)))
    finally:
        conn.close()


class Runner:
    """Runs jobs in separate processes, each under a time limit."""

    def __init__(self, *, limit: float = TIME_LIMIT, slots: int = 4) -> None:
        self.limit = limit
        self._slots = threading.BoundedSemaphore(slots)
        self._lock = threading.Lock()
        self._ctx: ForkServerContext | None = None

    def _context(self) -> ForkServerContext:
        with self._lock:
            if self._ctx is None:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["reports.web.work"])
                self._ctx = ctx
            return self._ctx

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a separate process: its value, or Problem with the status and line
        of its error (422 when it runs over the time limit)."""
        ctx = self._context()
        with self._slots:
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
            try:
                proc.start()
                send.close()
                if not receive.poll(self.limit):
                    raise Problem(f"reading this took longer than {self.limit:g} seconds, the "
                                  "limit here: is it a tournament file?", 422)
                try:
                    outcome, value = receive.recv()
                except EOFError:
                    raise Problem("the worker reading this stopped (it may have needed more "
                                  "memory than this server allows)", 422) from None
            finally:
                send.close()
                receive.close()
                if proc.is_alive():
                    proc.kill()
                proc.join()
        if outcome == "ok":
            return value  # type: ignore[no-any-return]
        status, line = value
        raise Problem(line, status)

    def warm(self) -> None:
        """Start the fork server now, so that the first job does not wait for it."""
        import os

        self.run(os.getpid)
