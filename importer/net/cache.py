"""The HTTP cache's SQLite backend, made safe to fail: a cache error costs one page its cache
entry, never the session.

requests-cache 1.x opens a write transaction (``BEGIN IMMEDIATE``) around each write and rolls
it back only on ``sqlite3.OperationalError``: any other error there (a ``DataError`` for a body
too big for SQLite, a value it cannot bind) leaves the transaction open on the backend's one
connection, and every later write waits for good for a lock it can never take.
:class:`SafeSQLiteCache` catches every error of a cache read, write or delete, closes the
connections (closing rolls an open transaction back; the next use opens them again), drops the
entry it was writing, logs one warning and goes on as if the page was not cached.

Imported only with requests-cache, when a session has a cache.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from requests import Response
from requests_cache.backends.sqlite import SQLiteCache
from requests_cache.models.response import CachedResponse

__all__ = ["SafeSQLiteCache"]

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
