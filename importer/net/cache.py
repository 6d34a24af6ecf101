"""The HTTP cache's SQLite backend, made safe to fail: a cache error costs one page its cache
entry, never the session.

requests-cache 1.x opens a write transaction (``BEGIN IMMEDIATE``) around each write and rolls
it back only on ``sqlite3.OperationalError``: any other error there (a ``DataError`` for a body
too big for SQLite, a value it cannot bind) leaves the transaction open on the backend's one
connection, and every later write waits for good for a lock it can never take.
:class:`SafeSQLiteCache` catches every error of a cache read, write or delete, closes the
connections (closing rolls an open transaction back; the next use opens them again), drops the
entry it was writing, logs one warning and goes on as if the page was not cached.

:func:`cached_session` is the session with the cache: a SQLite file in WAL mode (several
processes of one machine) or a Redis server (``redis://…``: several machines).  Imported only
with requests-cache, when a session has a cache.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import redis
from requests import Response
from requests_cache import CachedSession
from requests_cache.backends.redis import RedisCache
from requests_cache.backends.sqlite import SQLiteCache
from requests_cache.models.response import CachedResponse

from importer.net.turns import REDIS_SCHEMES

__all__ = ["SafeSQLiteCache", "cached_session"]

CACHEABLE_CODES = (200, 301, 302, 303, 307, 308)
"""Answers kept: pages and redirects (so a cached re-import makes no request at all; an error is
asked again)."""

log = logging.getLogger(__name__)
_DONE = {"read": "read", "write": "written", "delete": "cleaned"}


class SafeSQLiteCache(SQLiteCache):
    """requests-cache's SQLite backend, whose errors are skipped (see the module docstring)."""

    def get_response(self, key: str, default: Any = None) -> CachedResponse | None:
        """The cached response, or ``default`` when it is absent or cannot be read."""
        try:
            return super().get_response(key, default)
        except Exception as exc:
            self._recover("read", exc, key)
            return default  # type: ignore[no-any-return]

    def save_response(self, response: Response, cache_key: str | None = None,
                      expires: datetime | None = None) -> None:
        """Store a response; on any error, store nothing (the page itself is unharmed)."""
        try:
            super().save_response(response, cache_key, expires)
        except Exception as exc:
            self._recover("write", exc, cache_key)

    def delete(self, *keys: str, **kwargs: Any) -> None:
        """Delete entries; on any error, leave them (they expire)."""
        try:
            super().delete(*keys, **kwargs)
        except Exception as exc:
            self._recover("delete", exc, None)

    def _recover(self, what: str, exc: Exception, key: str | None) -> None:
        log.warning("the HTTP cache could not be %s (%s); going on without it for this page",
                    _DONE[what], exc or type(exc).__name__)
        with self.responses._lock:
            for table in (self.responses, self.redirects):
                try:
                    table.close()  # type: ignore[no-untyped-call]  # rolls back an open transaction
                except Exception:  # a connection that cannot even close is dropped
                    table._connection = None
        if key is not None and what == "write":
            try:
                super().delete(key)
            except Exception:
                log.warning("the HTTP cache could not drop a page it failed to store")


def cached_session(where: str, *, expire_after: int) -> CachedSession:
    """A session whose GET, HEAD and POST answers are kept in the cache at *where* (a SQLite
    file, or a Redis server's ``redis://…`` URL) for *expire_after* seconds unless a page says
    otherwise, and served stale when the server fails."""
    if where.startswith(REDIS_SCHEMES):
        backend: Any = RedisCache(namespace="fiderate-http",
                                  connection=redis.Redis.from_url(where))
    else:
        backend = SafeSQLiteCache(where, wal=True)
    return CachedSession(backend=backend, expire_after=expire_after,
                         allowable_codes=CACHEABLE_CODES,
                         allowable_methods=("GET", "HEAD", "POST"), stale_if_error=True)
