"""Whose turn it is to ask a host, and who is fetching a tournament: the interface every
fetch goes through (:class:`Shared`) and one process's own (:class:`LocalShared`).  The stores
several server processes or machines share are the server's (:mod:`reports.web.shared`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, Protocol

__all__ = ["REDIS_SCHEMES", "LocalShared", "Shared"]

REDIS_SCHEMES: Final = ("redis://", "rediss://", "unix://")
"""A cache location starting so is a Redis server."""


class Shared(Protocol):
    """Whose turn it is to ask a host, and who is fetching a tournament."""

    shares: bool
    """Other processes see what this one puts (False for :class:`LocalShared`)."""

    def turn(self, host: str, delay: float) -> Any:
        """A context manager: one request to *host* at a time, *delay* seconds apart."""

    def flight(self, name: str) -> Any:
        """A context manager: one process at a time fetches *name* (a tournament)."""

    def put(self, key: str, data: bytes, ttl: float) -> None:
        """Keep *data* under *key* for *ttl* seconds, for the other processes."""

    def get(self, key: str) -> bytes | None:
        """What another process kept under *key* (None: nothing, or expired)."""


class LocalShared:
    """Within one process: a lock per host and per tournament."""

    shares = False

    def __init__(self) -> None:
        self._locks: dict[str, threading.Lock] = {}
        self._last: dict[str, float] = {}
        self._guard = threading.Lock()

    def _lock(self, name: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(name, threading.Lock())

    @contextmanager
    def turn(self, host: str, delay: float) -> Iterator[None]:
        """One request to *host* at a time, *delay* seconds after the previous one ended."""
        with self._lock(f"host:{host}"):
            wait = self._last.get(host, float("-inf")) + delay - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                yield
            finally:
                self._last[host] = time.monotonic()

    @contextmanager
    def flight(self, name: str) -> Iterator[None]:
        """One fetch of *name* at a time."""
        with self._lock(f"flight:{name}"):
            yield

    def put(self, key: str, data: bytes, ttl: float) -> None:
        """Nothing to share: the one process keeps what it made itself."""

    def get(self, key: str) -> bytes | None:
        """Nothing is kept by another process."""
        return None
