"""The one polite HTTP session fiderate uses, and :func:`get_text` to fetch a page with it.

:func:`make_session` builds it in one place: a requests-cache
``CachedSession`` (SQLite in the user cache dir) with a :class:`PoliteAdapter` mounted on it
that adds a default ``(connect, read)`` timeout, a minimum delay between network requests to the
same host, and urllib3 retries on 429/5xx that honour ``Retry-After``.  Cache hits are answered
by the session before the adapter is reached, so they are neither delayed nor counted.

:func:`get_text` follows redirects itself, only within chess-results hosts and the start URL's
own host, decodes the body, and turns every failure into one-line :class:`FetchError`.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urljoin, urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import (
    ConnectTimeoutError,
    IncompleteRead,
    MaxRetryError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    ResponseError,
)
from urllib3.util.retry import Retry

from importer.decoding import decode_page
from importer.errors import FetchError, NoSuchTournament
from importer.urls import is_allowed_host

if TYPE_CHECKING:
    from urllib3.connectionpool import ConnectionPool
    from urllib3.response import BaseHTTPResponse

__all__ = [
    "FINISHED_EXPIRY",
    "LIVE_EXPIRY",
    "FetchedPage",
    "PoliteAdapter",
    "PoliteRetry",
    "default_user_agent",
    "get_text",
    "keep_cached",
    "make_session",
]

LIVE_EXPIRY = 5 * 60
"""Seconds a page of a running tournament stays fresh in the cache (the session default)."""
FINISHED_EXPIRY = 24 * 60 * 60
"""Seconds a page of a finished tournament stays fresh."""
MAX_REDIRECTS = 5
CONNECT_TIMEOUT = 5.0
"""The connect timeout, or the read timeout when that is shorter."""
RETRY_STATUSES = (429, 500, 502, 503, 504)
_CACHEABLE_CODES = (200, 301, 302, 303, 307, 308)
"""Redirects are cached too, so a cached re-import makes no request at all."""


def default_user_agent() -> str:
    """``fiderate/<version> (+project URL)``: an honest identity."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("fiderate")
    except PackageNotFoundError:
        ver = "dev"
    return f"fiderate/{ver} (+https://github.com/fiderate/fiderate)"


class _GaveUp(MaxRetryError):
    """MaxRetryError that remembers how many tries were made."""

    def __init__(self, pool: ConnectionPool | None, url: str, reason: Exception | None, *,
                 tries: int = 1) -> None:
        super().__init__(pool, url, reason)  # type: ignore[arg-type]
        self.tries = tries


class PoliteRetry(Retry):
    """urllib3 ``Retry`` that never waits longer than :attr:`RETRY_AFTER_CAP` seconds.

    A ``Retry-After`` above the cap ends the retries at once (the last 429/503 is returned), so
    a server asking us to come back in an hour is neither hammered nor waited for.
    """

    RETRY_AFTER_CAP = 30.0

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: ConnectionPool | None = None,
        _stacktrace: TracebackType | None = None,
    ) -> Self:
        """Count one failed try, refusing long Retry-After waits and recording the try count."""
        tries = len(self.history) + 1
        if response is not None:
            after = self.get_retry_after(response)
            if after is not None and after > self.RETRY_AFTER_CAP:
                reason = ResponseError(f"server asked to wait {after:g} s")
                raise _GaveUp(_pool, url or "", reason, tries=tries)
        try:
            return super().increment(method, url, response, error, _pool, _stacktrace)
        except MaxRetryError as exc:
            raise _GaveUp(exc.pool, exc.url or "", exc.reason, tries=tries) from exc.reason


class PoliteAdapter(HTTPAdapter):
    """HTTPAdapter with a default timeout and a minimum delay between requests to one host.

    Thread-safe: requests to one host are sent one at a time, each at least ``delay`` seconds
    after the previous one ended, however many threads share the session.
    """

    def __init__(self, *, timeout: tuple[float, float], delay: float, retries: Retry) -> None:
        super().__init__(max_retries=retries)
        self.timeout = timeout
        self.delay = delay
        self._last: dict[str, float] = {}
        self._hosts: dict[str, threading.Lock] = {}
        self._hosts_lock = threading.Lock()

    def _host_lock(self, host: str) -> threading.Lock:
        with self._hosts_lock:
            return self._hosts.setdefault(host, threading.Lock())

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: float | tuple[float, float] | tuple[float, None] | None = None,
        verify: bool | str = True,
        cert: bytes | str | tuple[bytes | str, bytes | str] | None = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        """Wait out the per-host delay, then send with the default timeout."""
        host = urlsplit(request.url or "").netloc.lower()
        with self._host_lock(host):
            wait = self._last.get(host, float("-inf")) + self.delay - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                return super().send(request, stream, timeout or self.timeout, verify, cert,
                                    proxies)
            finally:
                self._last[host] = time.monotonic()


def make_session(
    *,
    timeout: float = 10.0,
    delay: float = 1.0,
    retries: int = 3,
    cache: bool = True,
    refresh: bool = False,
    cache_path: str | None = None,
    user_agent: str | None = None,
    base_url: str | None = None,
) -> requests.Session:
    """The session for every chess-results request.

    ``timeout`` is the read timeout (connect: at most 5 s); ``delay`` the minimum seconds between
    network requests to one host; ``retries`` the retries on connection errors and 429/5xx
    (read timeouts are retried once: a stalled server is not asked again and again).  POST is
    retried too: the only POST is the gate postback, which changes nothing on the server.
    ``cache=False`` gives a plain session; ``refresh=True`` refetches every page (and overwrites
    the cache).  ``cache_path`` is the SQLite file (default: ``http.sqlite`` in the user cache
    dir, e.g. ``~/.cache/fiderate/``).  ``base_url``
    (a mirror or a local test double) is remembered for :func:`importer.fetch.fetch_tournament`.
    """
    session: requests.Session
    if cache:
        from platformdirs import user_cache_dir
        from requests_cache import CachedSession

        session = CachedSession(
            cache_path or os.path.join(user_cache_dir("fiderate"), "http.sqlite"),
            backend="sqlite",
            expire_after=LIVE_EXPIRY,
            allowable_codes=_CACHEABLE_CODES,
            allowable_methods=("GET", "HEAD", "POST"),
            stale_if_error=True,
        )
        if refresh:
            session.headers["Cache-Control"] = "no-cache"
    else:
        session = requests.Session()
    retry = PoliteRetry(
        total=retries,
        connect=retries,
        read=min(retries, 1),
        status=retries,
        backoff_factor=0.5,
        status_forcelist=RETRY_STATUSES,
        allowed_methods=frozenset({"GET", "HEAD", "POST"}),
        respect_retry_after_header=True,
        raise_on_status=False,
        raise_on_redirect=False,
    )
    adapter = PoliteAdapter(timeout=(min(CONNECT_TIMEOUT, timeout), timeout), delay=delay,
                            retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    session.headers["User-Agent"] = user_agent or default_user_agent()
    session.verify = True
    session.fiderate_base_url = base_url  # type: ignore[attr-defined]
    return session


@dataclass(frozen=True, slots=True)
class FetchedPage:
    """One fetched page, decoded, with its provenance."""

    url: str
    final_url: str
    text: str
    from_cache: bool
    fetched_at: str
    """When the body was fetched from the network (ISO 8601, UTC), also for cache hits."""
    status: int
    cache_keys: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """The cache entries behind this page (every redirect hop), for :func:`keep_cached`."""


def get_text(
    session: requests.Session,
    url: str,
    *,
    method: str = "GET",
    data: Mapping[str, str] | None = None,
    expire_after: int | None = None,
) -> FetchedPage:
    """Fetch ``url`` and return the decoded page.

    Redirects are followed (at most 5) to chess-results hosts and to the start URL's own host;
    any other target raises ``FetchError("refusing redirect to <host>")``.  HTTP 404 raises
    :class:`NoSuchTournament`; other errors, timeouts, resets and bodies shorter than their
    Content-Length raise :class:`FetchError`, never a partial page.  ``expire_after`` (seconds)
    overrides the session's cache lifetime for this page.
    """
    current, verb, body = url, method.upper(), data
    keys: list[str] = []
    from_cache = True
    for _hop in range(MAX_REDIRECTS + 1):
        resp = _send(session, url, verb, current, body, expire_after)
        from_cache = from_cache and bool(getattr(resp, "from_cache", False))
        key = getattr(resp, "cache_key", None)
        if key:
            keys.append(key)
        if not resp.is_redirect:
            break
        target = urljoin(current, resp.headers["Location"])
        if not (is_allowed_host(target, None) or _same_origin(target, url)):
            host = urlsplit(target).netloc or target
            raise FetchError(url, f"refusing redirect to {host}", status=resp.status_code)
        if resp.status_code == 303 or (resp.status_code in (301, 302) and verb == "POST"):
            verb, body = "GET", None
        current = target
    else:
        raise FetchError(url, f"too many redirects (more than {MAX_REDIRECTS})")
    _check_status(url, resp)
    return FetchedPage(
        url=url,
        final_url=current,
        text=decode_page(resp.content, _charset(resp)),
        from_cache=from_cache,
        fetched_at=_fetched_at(resp),
        status=resp.status_code,
        cache_keys=tuple(keys),
    )


def keep_cached(session: requests.Session, page: FetchedPage, expire_after: int) -> None:
    """Give a page already in the cache a new lifetime (expiry is otherwise fixed when stored)."""
    cache = getattr(session, "cache", None)
    if cache is None:
        return
    expires = datetime.now(UTC) + timedelta(seconds=expire_after)
    for key in page.cache_keys:
        cached = cache.get_response(key)
        if cached is not None:
            cache.save_response(cached, key, expires)


def _same_origin(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme, pa.netloc.lower()) == (pb.scheme, pb.netloc.lower())


def _send(session: requests.Session, url: str, verb: str, current: str,
          body: Mapping[str, str] | None, expire_after: int | None) -> requests.Response:
    kwargs: dict[str, Any] = {"allow_redirects": False}
    if expire_after is not None and hasattr(session, "cache"):
        kwargs["expire_after"] = expire_after
        refresh = session.headers.get("Cache-Control")
        if refresh:  # a per-request header would replace the session's no-cache: keep it
            kwargs["headers"] = {"Cache-Control": refresh}
    try:
        resp = session.request(verb, current, data=body, **kwargs)  # reads the whole body
    except requests.RequestException as exc:
        raise FetchError(url, _describe(exc, session, current)) from exc
    length = resp.headers.get("Content-Length", "")
    if (length.isdigit() and not resp.headers.get("Content-Encoding")
            and len(resp.content) < int(length)):
        raise FetchError(url, f"truncated body ({len(resp.content)} of {length} bytes)",
                         status=resp.status_code)
    return resp


def _describe(exc: requests.RequestException, session: requests.Session, url: str) -> str:
    """One line saying what went wrong, e.g. 'timed out after 2 tries (read timeout 2 s)'."""
    adapter = session.get_adapter(url)
    connect_t, read_t = adapter.timeout if isinstance(adapter, PoliteAdapter) else (None, None)
    inner: BaseException | None = exc.args[0] if exc.args else None
    tries = inner.tries if isinstance(inner, _GaveUp) else 1
    reason = inner.reason if isinstance(inner, MaxRetryError) else inner
    after = f"after {tries} {'try' if tries == 1 else 'tries'}"
    if isinstance(reason, ProtocolError):
        cause = reason.args[1] if len(reason.args) > 1 else None
        if isinstance(cause, IncompleteRead):
            return f"truncated body ({cause}); nothing kept"
        if isinstance(cause, ConnectionResetError):
            return "connection reset while reading the page; nothing kept"
        return f"connection broken while reading the page ({cause or reason}); nothing kept"
    if isinstance(exc, requests.exceptions.ReadTimeout) or isinstance(reason, ReadTimeoutError):
        return f"timed out {after} (read timeout {read_t:g} s)" if read_t else "read timed out"
    if isinstance(reason, NewConnectionError):  # a ConnectTimeoutError subclass: test it first
        return f"could not connect {after}: {str(reason).split(': ', 1)[-1]}"
    if isinstance(exc, requests.exceptions.ConnectTimeout) or isinstance(
            reason, ConnectTimeoutError):
        return f"could not connect {after} (connect timeout {connect_t:g} s)" if connect_t \
            else "connect timed out"
    if isinstance(exc, requests.exceptions.SSLError):
        return f"TLS error: {exc}"
    return f"request failed {after}: {reason or exc}"


def _check_status(url: str, resp: requests.Response) -> None:
    status = resp.status_code
    if status < 400:
        return
    if status == 404:
        raise NoSuchTournament(url, "no such tournament (HTTP 404)", status=404)
    raw_retries = getattr(resp.raw, "retries", None)
    tries = len(raw_retries.history) + 1 if isinstance(raw_retries, Retry) else 1
    message = f"HTTP {status} {resp.reason or ''}".rstrip()
    after = resp.headers.get("Retry-After")
    if after:
        message += f" (server asks to retry after {after} s)"
    if tries > 1:
        message += f" after {tries} tries"
    raise FetchError(url, message, status=status)


def _charset(resp: requests.Response) -> str | None:
    """The charset the response's Content-Type declares, if any."""
    match = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", resp.headers.get("Content-Type", ""))
    return match.group(1).lower() if match else None


def _fetched_at(resp: requests.Response) -> str:
    created = getattr(resp, "created_at", None)
    when = created if isinstance(created, datetime) else datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds")
