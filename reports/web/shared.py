"""What several processes (or machines) asking chess-results share, so that together they stay
as polite as one: whose turn it is to ask a host, and one fetch at a time per tournament.

Three stores, one interface:

* :class:`LocalShared`: one process (threads only) — ``fiderate import``, ``report``, and
  ``serve`` with one worker;
* :class:`SqliteShared`: the processes of one machine, through small SQLite files beside the
  HTTP cache (WAL mode; a turn is a write transaction, so processes queue on SQLite's lock);
* :class:`RedisShared`: several machines, through a Redis server (``--cache redis://…``).

:meth:`Shared.turn` gives one request to a host at a time, each at least ``delay`` seconds
after the previous one ended, whichever process sent it; :meth:`Shared.flight` lets one
process at a time fetch a tournament (the others then find its pages in the shared cache);
:meth:`Shared.put` and :meth:`Shared.get` keep what one process made (a report of uploaded
files) for the others, for a while.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from importer.errors import FetchError
from importer.net.turns import REDIS_SCHEMES, LocalShared, Shared

if TYPE_CHECKING:
    import redis

__all__ = ["FLIGHT_LEASE", "REDIS_SCHEMES", "LocalShared", "RedisShared", "Shared", "SqliteShared",
           "shared_for"]

FLIGHT_LEASE: Final = 120.0
"""Seconds a tournament's fetch may hold its flight: a process that died holding it loses it."""
_POLL: Final = 0.05


class SqliteShared:
    """Between the processes of one machine: a SQLite file (WAL) with each host's last request
    and each tournament's fetch in progress."""

    shares = True

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._flights = self.path.with_name(self.path.name + "-flights")
        """A file of its own: taking a flight must not wait for a request in flight."""
        self._kept = self.path.with_name(self.path.name + "-kept")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for file, table in ((self.path, "turns (host TEXT PRIMARY KEY, last REAL)"),
                                (self._flights, "flights (name TEXT PRIMARY KEY, "
                                                "owner TEXT NOT NULL, expires REAL NOT NULL)"),
                                (self._kept, "kept (key TEXT PRIMARY KEY, expires REAL NOT NULL, "
                                             "data BLOB NOT NULL)")):
                db = self._connect(file)
                try:
                    db.execute("PRAGMA journal_mode = WAL")
                    db.execute(f"CREATE TABLE IF NOT EXISTS {table}")
                finally:
                    db.close()
        except (OSError, sqlite3.Error) as exc:
            raise FetchError(str(self.path), f"cannot share the requests to chess-results "
                                             f"({exc})") from None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        return sqlite3.connect(path, timeout=600, isolation_level=None)

    @contextmanager
    def turn(self, host: str, delay: float) -> Iterator[None]:
        """One request to *host* at a time across processes: the turn is a write transaction
        (the others wait on SQLite's lock), *delay* seconds after the last one ended."""
        db = self._connect(self.path)
        try:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT last FROM turns WHERE host = ?", (host,)).fetchone()
            wait = (row[0] if row else float("-inf")) + delay - time.time()
            if wait > 0:
                time.sleep(min(wait, delay))
            try:
                yield
            finally:
                db.execute("INSERT OR REPLACE INTO turns VALUES (?, ?)", (host, time.time()))
                db.execute("COMMIT")
        finally:
            db.close()

    @contextmanager
    def flight(self, name: str) -> Iterator[None]:
        """One process at a time fetches *name*; a holder that died loses it after
        :data:`FLIGHT_LEASE` seconds."""
        me = uuid.uuid4().hex
        db = self._connect(self._flights)
        try:
            while True:
                now = time.time()
                db.execute("BEGIN IMMEDIATE")
                db.execute("DELETE FROM flights WHERE name = ? AND expires < ?", (name, now))
                taken = db.execute("INSERT OR IGNORE INTO flights VALUES (?, ?, ?)",
                                   (name, me, now + FLIGHT_LEASE)).rowcount
                db.execute("COMMIT")
                if taken:
                    break
                time.sleep(_POLL)
            try:
                yield
            finally:
                db.execute("DELETE FROM flights WHERE name = ? AND owner = ?", (name, me))
        finally:
            db.close()

    def put(self, key: str, data: bytes, ttl: float) -> None:
        """Keep *data* for the other processes (what has expired is cleared meanwhile)."""
        db = self._connect(self._kept)
        try:
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM kept WHERE expires < ?", (now,))
            db.execute("INSERT OR REPLACE INTO kept VALUES (?, ?, ?)", (key, now + ttl, data))
            db.execute("COMMIT")
        finally:
            db.close()

    def get(self, key: str) -> bytes | None:
        """What a process kept under *key*, unless it has expired."""
        db = self._connect(self._kept)
        try:
            row = db.execute("SELECT data FROM kept WHERE key = ? AND expires >= ?",
                             (key, time.time())).fetchone()
        finally:
            db.close()
        return None if row is None else bytes(row[0])


_TURN_SCRIPT: Final = """
local last = tonumber(redis.call('GET', KEYS[1]) or '-1e18')
local wait = last + tonumber(ARGV[1]) - tonumber(ARGV[2])
if wait < 0 then wait = 0 end
return tostring(wait)
"""
_RELEASE_SCRIPT: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisShared:
    """Between machines: a Redis server holds each host's last request and the locks."""

    shares = True

    def __init__(self, url: str) -> None:
        import redis  # only with a Redis cache: 90 ms of every server's start otherwise

        self.client: redis.Redis = redis.Redis.from_url(url, socket_timeout=10)
        try:
            self.client.ping()
        except redis.RedisError as exc:
            raise FetchError(_safe(url), f"cannot reach the shared cache ({exc})") from None
        self._wait = self.client.register_script(_TURN_SCRIPT)
        self._release = self.client.register_script(_RELEASE_SCRIPT)

    @contextmanager
    def _lock(self, key: str, lease: float) -> Iterator[None]:
        me = uuid.uuid4().hex
        while not self.client.set(key, me, nx=True, px=int(lease * 1000)):
            time.sleep(_POLL)
        try:
            yield
        finally:
            self._release(keys=[key], args=[me])

    @contextmanager
    def turn(self, host: str, delay: float) -> Iterator[None]:
        """One request to *host* at a time across machines, *delay* seconds apart."""
        with self._lock(f"fiderate:turn:{host}", FLIGHT_LEASE):
            wait = float(self._wait(keys=[f"fiderate:last:{host}"], args=[delay, time.time()]))
            if wait > 0:
                time.sleep(min(wait, delay))
            try:
                yield
            finally:
                self.client.set(f"fiderate:last:{host}", repr(time.time()), ex=86400)

    @contextmanager
    def flight(self, name: str) -> Iterator[None]:
        """One machine at a time fetches *name*."""
        with self._lock(f"fiderate:flight:{name}", FLIGHT_LEASE):
            yield

    def put(self, key: str, data: bytes, ttl: float) -> None:
        """Keep *data* for the other machines, *ttl* seconds."""
        self.client.set(f"fiderate:kept:{key}", data, px=max(1, int(ttl * 1000)))

    def get(self, key: str) -> bytes | None:
        """What a machine kept under *key*."""
        found = self.client.get(f"fiderate:kept:{key}")
        return None if found is None else bytes(found)  # type: ignore[arg-type]


def _safe(url: str) -> str:
    """A Redis URL without its password, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}{parts.path}"


def shared_for(cache: str | None) -> Shared:
    """The shared state of a cache: ``redis://…`` → :class:`RedisShared`; a SQLite cache file →
    :class:`SqliteShared` beside it; None → :class:`LocalShared`."""
    if cache is None:
        return LocalShared()
    if cache.startswith(REDIS_SCHEMES):
        return RedisShared(cache)
    path = Path(cache)
    return SqliteShared(path.with_name(path.stem + ".shared.sqlite"))
