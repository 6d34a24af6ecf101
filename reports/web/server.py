"""Running an application on uvicorn the way ``fiderate serve`` does: the listening socket,
the protocol under :class:`~reports.web.limits.Limits`, the access log, the shutdown.

    sock = listen("127.0.0.1", 8000)
    run(create_app(config), sock, Settings())

The socket is made before the application, so a port in use is one line at once, and so
several processes share it: :func:`run_workers` forks them, each running :func:`run`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import uvicorn

from reports.web.access import AccessLog, Sink
from reports.web.limits import InFlight, Limits, nodelay, protocol

if TYPE_CHECKING:
    from starlette.types import ASGIApp

__all__ = ["SHUTDOWN_SECONDS", "Settings", "listen", "run", "run_workers", "uvicorn_config",
           "wrap"]

log = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 3
"""On SIGTERM or Ctrl+C, requests still being answered get this long, then are dropped."""


@dataclass(frozen=True)
class Settings:
    """How the server runs: its limits, and where the access log goes (None: nowhere)."""

    limits: Limits = field(default_factory=Limits)
    access_log: Sink | None = None
    secrets: tuple[str, ...] = ()
    """Text never written to the access log (the write token)."""


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket (OSError when it cannot be had), ``TCP_NODELAY`` set so the
    connections it accepts have it too."""
    sock = socket.create_server((host, port), backlog=2048,
                                family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    nodelay(sock)
    return sock


def wrap(app: ASGIApp, settings: Settings) -> ASGIApp:
    """*app* with what belongs to the server rather than to the application: the access log
    (outermost: every answer, as sent) and the cap on requests at once."""
    app = InFlight(app, settings.limits.requests)
    if settings.access_log is not None:
        app = AccessLog(app, settings.access_log, secrets=settings.secrets)
    return app


def uvicorn_config(app: ASGIApp, limits: Limits) -> uvicorn.Config:
    """uvicorn's settings for *app* (already wrapped)."""
    return uvicorn.Config(
        app, http=protocol(limits), ws="none", lifespan="on", log_level="warning",
        access_log=False, server_header=False, proxy_headers=False,
        timeout_keep_alive=limits.keep_alive, limit_concurrency=None,
        h11_max_incomplete_event_size=limits.header_bytes,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS)


def run(app: ASGIApp, sock: socket.socket, settings: Settings) -> None:
    """Serve *app* on *sock* until SIGTERM or Ctrl+C."""
    uvicorn.Server(uvicorn_config(wrap(app, settings), settings.limits)).run(sockets=[sock])


def run_workers(make_app: Callable[[], ASGIApp], sock: socket.socket, settings: Settings,
                workers: int) -> None:
    """Serve on *sock* from *workers* processes, each with its own application (made after
    the fork, so no thread or process of one is shared); the kernel hands each connection to
    one of them.  A worker that dies is replaced; SIGTERM or Ctrl+C stops them all."""
    if workers <= 1:
        run(make_app(), sock, settings)
        return
    children: set[int] = set()
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            code = 0
            try:
                run(make_app(), sock, settings)
            except BaseException:
                log.exception("a worker stopped")
                code = 1
            finally:
                os._exit(code)
        children.add(pid)

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    for _ in range(workers):
        start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while children:
        try:
            pid, _status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        children.discard(pid)
        if not stopping:
            log.warning("a worker (process %d) ended; starting another", pid)
            start()
