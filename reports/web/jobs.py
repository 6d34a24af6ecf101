"""Run work on untrusted input in separate processes, stopped when it runs over its time limit.

A few worker processes, forked from a fork server that has already imported the library
(:mod:`reports.web.work`), take one job at a time.  A job gets ``limit`` seconds: past that
its worker is killed (and replaced) and the request answered with one line.  Each worker may
use at most :data:`MEMORY_LIMIT` bytes and is replaced after :data:`JOBS_PER_WORKER` jobs, so
nothing one upload did outlives it for long.  When every worker is busy, jobs wait their turn.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import queue
import resource
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rating.notes import Note
from reports.web.problems import Problem, problem

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkServerContext, ForkServerProcess

__all__ = ["JOBS_PER_WORKER", "MEMORY_LIMIT", "TIME_LIMIT", "WORK", "Job", "PeriodFiles",
           "PeriodRequest", "Runner"]

TIME_LIMIT = 20.0
"""Seconds a job may take: reading a 10 MB file takes a fraction of it."""
MEMORY_LIMIT = 2 * 1024 * 1024 * 1024
"""Bytes of address space a worker may use."""
JOBS_PER_WORKER = 200
WORKER_NICENESS = 5
"""Workers yield the processor to the server itself, which answers from memory in
milliseconds: a page already made never waits behind an upload being read."""

T = TypeVar("T")


WORK = "reports.web.work"
"""The module the fork server imports before any job."""


@dataclass(frozen=True, slots=True)
class Job(Generic[T]):
    """A function of :data:`WORK` by name: a worker has the module (its fork server imported
    it), so the server itself need not import it and starts fast."""

    name: str

    def __call__(self, *args: Any) -> T:
        return getattr(importlib.import_module(WORK), self.name)(*args)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class PeriodRequest:
    """What the period form asks for."""

    period: date
    """The list month (its first day)."""
    only_list: str | None = None
    store: str | None = None
    """The rating register to read (None: none)."""
    write: bool = False
    """Write the period to the register too (the request carried the write token); without
    it a register that does not exist yet is not made either."""


@dataclass(frozen=True, slots=True)
class PeriodFiles:
    """What a period run gives back."""

    files: dict[str, str]
    """Its files by relative path."""
    notes: tuple[Note, ...]
    """The notes the period page shows, each with the keys of the players it is about."""
    players: tuple[dict[str, Any], ...] = ()
    """The rows of period_players.csv: whole numbers as numbers, exact decimals as Decimals."""


def _serve(conn: Connection) -> None:
    """A worker: run each job sent, send back ('ok', value) or ('error', (status, line))."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.nice(WORKER_NICENESS)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", fn(*args)))
        except BaseException as exc:  # every failure becomes one line for the server
            status, line = problem(exc)
            if status >= 500:
                traceback.print_exc()  # the server's log: a bug, not the input
            conn.send(("error", (status, line)))


_SOCKET_DIR_MAX = 60
"""The fork server listens on a Unix socket in the temporary folder, and a socket's path holds
at most about 104 bytes: under a longer temporary folder a short one is used."""


@contextmanager
def _short_temp_dir() -> Iterator[None]:
    """The temporary folder kept short while a process starts (the first start makes the fork
    server's socket there; a long TMPDIR would fail it with 'AF_UNIX path too long')."""
    if len(tempfile.gettempdir()) <= _SOCKET_DIR_MAX or not os.path.isdir("/tmp"):
        yield
        return
    kept = tempfile.tempdir
    tempfile.tempdir = "/tmp"
    try:
        yield
    finally:
        tempfile.tempdir = kept


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: ForkServerContext) -> None:
        self.conn, theirs = ctx.Pipe()
        self.proc: ForkServerProcess = ctx.Process(target=_serve, args=(theirs,), daemon=True)
        with _short_temp_dir():
            self.proc.start()
        theirs.close()
        self.jobs = 0

    def stop(self) -> None:
        self.conn.close()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()


class Runner:
    """Runs jobs in worker processes, each under a time limit."""

    def __init__(self, *, limit: float = TIME_LIMIT, workers: int = 0) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._ctx: ForkServerContext | None = None
        self._idle: queue.Queue[_Worker | None] = queue.Queue()
        for _ in range(workers or max(2, os.cpu_count() or 2)):
            self._idle.put(None)  # a worker is started when first needed

    def _context(self) -> ForkServerContext:
        with self._lock:
            if self._ctx is None:
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload([WORK])
                self._ctx = ctx
            return self._ctx

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker: its value, or Problem with the status and line of its
        error (422 when it runs over the time limit)."""
        worker = self._idle.get()
        try:
            if worker is None or worker.jobs >= JOBS_PER_WORKER or not worker.proc.is_alive():
                if worker is not None:
                    worker.stop()
                worker = None
                worker = _Worker(self._context())
            worker.jobs += 1
            worker.conn.send((fn, args))
            if not worker.conn.poll(self.limit):
                raise Problem(f"reading this took longer than {self.limit:g} seconds, the "
                              "limit here: is it a tournament file?", 422)
            outcome, value = worker.conn.recv()
        except BaseException as exc:
            if worker is not None:  # its state is unknown: a new one takes its place
                worker.stop()
                worker = None
            if isinstance(exc, EOFError):
                raise Problem("the worker reading this stopped (it may have needed more "
                              "memory than this server allows)", 422) from None
            raise
        finally:
            self._idle.put(worker)
        if outcome == "ok":
            return value  # type: ignore[no-any-return]
        status, line = value
        raise Problem(line, status)

    def warm(self) -> None:
        """Start every worker now, so that the first jobs do not wait for them."""
        slots = [self._idle.get() for _ in range(self._idle.qsize())]
        try:
            slots = [w if w is not None else _Worker(self._context()) for w in slots]
        finally:
            for w in slots:
                self._idle.put(w)
