"""The one polite HTTP session fiderate uses, and :func:`get_text` to fetch a page with it.

:func:`make_session` builds it in one place: a requests-cache
``CachedSession`` (SQLite in the user cache dir) with a :class:`PoliteAdapter` mounted on it
that adds a default ``(connect, read)`` timeout, a minimum delay between network requests to the
same host, and urllib3 retries on 429/5xx that honour ``Retry-After``.  Cache hits are answered
by the session before the adapter is reached, so they are neither delayed nor counted.

Every answer is bounded: the adapter reads each body itself, as it streams, and refuses one
that grows past :data:`MAX_PAGE_BYTES` once decoded (a gzip bomb is stopped after that many
bytes, never expanded whole: urllib3 2.6+ decompresses no more than each read asks for) or
that is not complete within :data:`PAGE_DEADLINE` seconds (a watchdog shuts the socket, so a
server trickling its headers or body a byte at a time is cut off too).  A refused body raises
before requests-cache sees the response, so the cache never stores it; a cache that fails to
read or write is skipped for that page (:mod:`importer.net.cache`), never left to block the
session.

Only chess-results is ever connected to: each URL is read once, the way the HTTP client reads
it (:func:`importer.net.urls.read_origin`), on the first hop, every redirect and the gate's
postback, and the adapter checks the prepared request's URL once more before it connects.
:func:`get_text` follows redirects itself, only within chess-results hosts and the
``base_url`` mirror, never from https to http, decodes the body, and turns every failure into
one-line :class:`FetchError`.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import socket
import threading
import time
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from importlib.metadata import PackageNotFoundError, version
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urljoin, urlsplit

import requests
import urllib3.poolmanager
from platformdirs import user_cache_dir
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import (
    ConnectTimeoutError,
    IncompleteRead,
    InvalidHeader,
    MaxRetryError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    ResponseError,
)
from urllib3.util.retry import Retry

from importer.errors import FetchError, NoSuchTournament, RefusedFetch, one_line
from importer.net.turns import LocalShared, Shared
from importer.net.urls import FIDE_RATINGS_HOST, is_allowed_host, is_downgrade, read_origin
from importer.parsing.decoding import decode_page

if TYPE_CHECKING:
    from urllib3.connectionpool import ConnectionPool
    from urllib3.poolmanager import PoolManager
    from urllib3.response import BaseHTTPResponse, HTTPResponse

__all__ = [
    "FINISHED_EXPIRY",
    "LIVE_EXPIRY",
    "MAX_PAGE_BYTES",
    "PAGE_DEADLINE",
    "FetchedPage",
    "PageTooLarge",
    "PageTooSlow",
    "PoliteAdapter",
    "PoliteRetry",
    "RefusedAddress",
    "default_cache_path",
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
MAX_PAGE_BYTES = 20 * 1024 * 1024
"""The most one answer may hold once decoded: 20 MB.  The biggest chess-results pages (a
crosstable of a thousand players) are about a megabyte; anything larger is refused unread."""
PAGE_DEADLINE = 30.0
"""Seconds a page may take to arrive whole (or the read timeout, when that is longer): its
redirects and retries included, the polite waits between requests not.  The read timeout
bounds each wait for the next bytes; this bounds the whole, however slowly they come."""
RETRY_STATUSES = (429, 500, 502, 503, 504)


def default_user_agent() -> str:
    """``fiderate/<version> (+project URL)``: an honest identity."""
    try:
        ver = version("fiderate")
    except PackageNotFoundError:
        ver = "dev"
    return f"fiderate/{ver} (+https://github.com/fiderate/fiderate)"


class PageTooLarge(requests.RequestException):
    """The answer grew past the adapter's byte limit (nothing of it is kept)."""

    def __init__(self, limit: int, **kwargs: Any) -> None:
        super().__init__(f"more than {limit} bytes", **kwargs)
        self.limit = limit


class PageTooSlow(requests.RequestException):
    """The answer was not complete within the page's deadline (nothing of it is kept)."""

    def __init__(self, seconds: float, **kwargs: Any) -> None:
        super().__init__(f"not complete within {seconds:g} s", **kwargs)
        self.seconds = seconds


class RefusedAddress(requests.RequestException):
    """The adapter was asked to connect somewhere other than chess-results or the mirror."""


class _GaveUp(MaxRetryError):
    """MaxRetryError that remembers how many tries were made."""

    def __init__(self, pool: ConnectionPool | None, url: str, reason: Exception | None, *,
                 tries: int = 1) -> None:
        super().__init__(pool, url, reason)  # type: ignore[arg-type]
        self.tries = tries


class _Exchange:
    """One request to the network and its answer, under a deadline.

    The connection that carries it registers its socket (:meth:`watch`); when the deadline
    passes, a timer thread shuts that socket down, so a read blocked on a server that trickles
    bytes returns at once, and :attr:`expired` tells that the answer is incomplete.
    """

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.expired = False
        self._done = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(seconds, 0.0), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: Any) -> None:
        """Shut ``sock`` down at the deadline (at once when it has passed)."""
        if not isinstance(sock, socket.socket):
            return
        with self._lock:
            self._sock = sock
            if self.expired:
                _shut(sock)

    def over(self) -> bool:
        """True when the deadline has passed."""
        if not self.expired and time.monotonic() >= self.deadline:
            self._expire()
        return self.expired

    def close(self) -> None:
        """The exchange is over: the timer no longer touches the socket."""
        with self._lock:
            self._done = True
            self._sock = None
        self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            if self._sock is not None:
                _shut(self._sock)


def _shut(sock: socket.socket) -> None:
    """Shut a socket down under a reader blocked on it (the TLS layer is left alone)."""
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


@dataclass(slots=True)
class _Budget:
    """Seconds of network time one page has used, over its redirects."""

    used: float = 0.0


_EXCHANGE: ContextVar[_Exchange | None] = ContextVar("fiderate_exchange", default=None)
_BUDGET: ContextVar[_Budget | None] = ContextVar("fiderate_budget", default=None)


def _watch(sock: Any) -> None:
    exchange = _EXCHANGE.get()
    if exchange is not None:
        exchange.watch(sock)


class _WatchedHTTPConnection(HTTPConnection):
    """An http connection whose socket the current exchange's deadline can shut."""

    def getresponse(self) -> HTTPResponse:  # type: ignore[override]
        """Register the socket, then read the answer's status line and headers."""
        _watch(self.sock)
        return super().getresponse()


class _WatchedHTTPSConnection(HTTPSConnection):
    """An https connection whose socket the current exchange's deadline can shut."""

    def getresponse(self) -> HTTPResponse:  # type: ignore[override]
        """Register the socket, then read the answer's status line and headers."""
        _watch(self.sock)
        return super().getresponse()


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


def _watch_pools(manager: PoolManager) -> None:
    """Make ``manager`` open watched connections (a SOCKS proxy's own pools are left alone:
    their sockets are watched from the headers on)."""
    if manager.pool_classes_by_scheme is urllib3.poolmanager.pool_classes_by_scheme:
        manager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


class PoliteRetry(Retry):
    """urllib3 ``Retry`` that never waits longer than :attr:`RETRY_AFTER_CAP` seconds, nor past
    the page's deadline.

    A ``Retry-After`` above the cap (or beyond the deadline) ends the retries at once (the last
    429/503 is returned), so a server asking us to come back in an hour is neither hammered nor
    waited for; once the deadline has passed nothing is tried again.
    """

    RETRY_AFTER_CAP = 30.0

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        """The Retry-After header in seconds, or None when it is absent or unreadable (a
        server's bad header is no reason to crash: it is then treated as absent)."""
        try:
            return super().get_retry_after(response)
        except InvalidHeader:
            return None

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
        exchange = _EXCHANGE.get()
        if exchange is not None and exchange.over():
            raise _GaveUp(_pool, url or "", error or ResponseError("deadline passed"), tries=tries)
        if response is not None:
            after = self.get_retry_after(response)
            left = exchange.deadline - time.monotonic() if exchange is not None else math.inf
            if after is not None and after > min(self.RETRY_AFTER_CAP, left):
                reason = ResponseError(f"server asked to wait {math.ceil(after)} s")
                raise _GaveUp(_pool, url or "", reason, tries=tries)
        try:
            return super().increment(method, url, response, error, _pool, _stacktrace)
        except MaxRetryError as exc:
            raise _GaveUp(exc.pool, exc.url or "", exc.reason, tries=tries) from exc.reason


class PoliteAdapter(HTTPAdapter):
    """HTTPAdapter with a default timeout, a minimum delay between requests to one host, and
    bounded answers.

    Thread-safe: requests to one host are sent one at a time, each at least ``delay`` seconds
    after the previous one ended, however many threads share the session — or, with a
    ``shared`` state (:mod:`importer.net.turns`; a server shares it between processes), however
    many processes or machines.  Every body is read
    here, as it streams (whatever ``stream`` the caller asked for), at most ``max_bytes``
    decoded bytes within ``deadline`` seconds of network time per page (:class:`PageTooLarge`,
    :class:`PageTooSlow`).  A request for anything but chess-results or ``base_url``'s origin
    raises :class:`RefusedAddress` before any connection.
    """

    def __init__(self, *, timeout: tuple[float, float], delay: float, retries: Retry,
                 max_bytes: int = MAX_PAGE_BYTES, deadline: float = PAGE_DEADLINE,
                 base_url: str | None = None, shared: Shared | None = None) -> None:
        super().__init__(max_retries=retries)
        self.timeout = timeout
        self.delay = delay
        self.max_bytes = max_bytes
        self.deadline = deadline
        self.base_url = base_url
        self.shared: Shared = shared if shared is not None else LocalShared()
        """Whose turn it is to ask a host: this process's threads, or several processes'."""

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False,
                         **pool_kwargs: Any) -> None:
        """The pool manager, opening watched connections."""
        super().init_poolmanager(connections, maxsize, block, **pool_kwargs)
        _watch_pools(self.poolmanager)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> PoolManager:
        """A proxy's pool manager, opening watched connections."""
        manager: PoolManager = super().proxy_manager_for(proxy, **proxy_kwargs)
        _watch_pools(manager)
        return manager

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: float | tuple[float, float] | tuple[float, None] | None = None,
        verify: bool | str = True,
        cert: bytes | str | tuple[bytes | str, bytes | str] | None = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        """Check the address, wait out the per-host delay, then send with the default timeout
        and read the answer whole, within the limits."""
        url = request.url or ""
        if not is_allowed_host(url, self.base_url):
            raise RefusedAddress(f"refusing to connect to {_shown_host(url)}", request=request)
        host = urlsplit(url).netloc.lower()
        with self.shared.turn(host, self.delay):
            budget = _BUDGET.get()
            left = self.deadline - (budget.used if budget is not None else 0.0)
            if left <= 0:
                raise PageTooSlow(self.deadline, request=request)
            exchange = _Exchange(left)
            token = _EXCHANGE.set(exchange)
            started = time.monotonic()
            try:
                resp = super().send(request, True, timeout or self.timeout, verify, cert,
                                    proxies)
                self._read_body(resp, exchange)
                return resp
            except PageTooLarge:
                raise
            except Exception as exc:
                if exchange.over():
                    raise PageTooSlow(self.deadline, request=request) from exc
                raise
            finally:
                exchange.close()
                _EXCHANGE.reset(token)
                if budget is not None:
                    budget.used += time.monotonic() - started

    def _read_body(self, resp: requests.Response, exchange: _Exchange) -> None:
        """Read the body, decoded, into ``resp`` (refusing one too large or too slow)."""
        try:
            _watch(getattr(getattr(resp.raw, "connection", None), "sock", None))
            length = resp.headers.get("Content-Length", "")
            encoding = resp.headers.get("Content-Encoding", "").strip().lower()
            if length.isdigit() and encoding in ("", "identity") and int(length) > self.max_bytes:
                raise PageTooLarge(self.max_bytes, request=resp.request, response=resp)
            chunks: list[bytes] = []
            size = 0
            for chunk in resp.iter_content(_CHUNK):
                size += len(chunk)
                if size > self.max_bytes or _raw_bytes(resp) > self.max_bytes:
                    raise PageTooLarge(self.max_bytes, request=resp.request, response=resp)
                if exchange.over():
                    break
                chunks.append(chunk)
            if exchange.over():  # a read the deadline cut short looks like the end of the body
                raise PageTooSlow(self.deadline, request=resp.request, response=resp)
        except BaseException:
            resp.close()
            raise
        resp._content = b"".join(chunks)
        resp.raw.release_conn()


_CHUNK = 64 * 1024


def _raw_bytes(resp: requests.Response) -> int:
    """Bytes read from the socket so far (before decoding), when urllib3 tells."""
    tell = getattr(resp.raw, "tell", None)
    try:
        return int(tell()) if callable(tell) else 0
    except (TypeError, ValueError, OSError):
        return 0


def _shown_host(url: str) -> str:
    """The host part of ``url`` as written, for a message: one line, at most 100 characters."""
    shown = one_line(url)
    rest = shown.split("//", 1)[1] if "//" in shown else shown
    host = re.split(r"[/?#]", rest, maxsplit=1)[0] or shown
    return host if len(host) <= 100 else host[:99] + "…"


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
    max_bytes: int = MAX_PAGE_BYTES,
    deadline: float | None = None,
    shared: Shared | None = None,
) -> requests.Session:
    """The session for every chess-results request.

    ``timeout`` is the read timeout (connect: at most 5 s); ``delay`` the minimum seconds between
    network requests to one host; ``retries`` the retries on connection errors and 429/5xx
    (read timeouts are retried once: a stalled server is not asked again and again).  POST is
    retried too: the only POST is the gate postback, which changes nothing on the server.
    ``cache=False`` gives a plain session; ``refresh=True`` refetches every page (and overwrites
    the cache).  ``cache_path`` is the SQLite file (default: ``http.sqlite`` in the user cache
    dir, e.g. ``~/.cache/fiderate/``; WAL, so that several processes share it), or a Redis
    server's ``redis://…`` URL for several machines.  ``shared`` is whose turn it is to ask a
    host (:mod:`importer.net.turns`; default: this process's threads).  ``base_url`` (a mirror
    or a local test double) is the one origin besides chess-results the session connects
    to, and is remembered for
    :func:`importer.net.fetch.fetch_tournament`.  ``max_bytes`` bounds each answer's decoded body
    (:data:`MAX_PAGE_BYTES`); ``deadline`` the seconds a page may take (default
    :data:`PAGE_DEADLINE`, or ``timeout`` when that is longer).
    """
    session: requests.Session
    if cache:
        # Lazy: requests-cache takes ~400 ms to import; a session without a cache (and
        # importing this module) must not pay for it.
        from importer.net import cache as with_cache

        session = with_cache.cached_session(cache_path or default_cache_path(),
                                            expire_after=LIVE_EXPIRY)
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
                            retries=retry, max_bytes=max_bytes,
                            deadline=deadline if deadline is not None
                            else max(PAGE_DEADLINE, timeout),
                            base_url=base_url, shared=shared)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    session.headers["User-Agent"] = user_agent or default_user_agent()
    session.verify = True
    session.fiderate_base_url = base_url  # type: ignore[attr-defined]
    return session


def default_cache_path() -> str:
    """The HTTP cache file when none is given: ``http.sqlite`` in the user cache folder."""
    return os.path.join(user_cache_dir("fiderate"), "http.sqlite")


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
    base_url: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> FetchedPage:
    """Fetch ``url`` and return the decoded page.

    Only chess-results hosts (on their standard ports) and ``base_url``'s origin (default: the
    session's) are fetched, each URL read once as the HTTP client reads it
    (:func:`importer.net.urls.read_origin`): anything else, user info, a backslash, a control
    character, raises ``FetchError("refusing to fetch …")`` before any connection.  Redirects
    are followed (at most 5) under the same rule and never from https to http; any other
    target raises ``FetchError("refusing redirect to <host>")``.  HTTP 404 raises
    :class:`NoSuchTournament`; other errors, timeouts, resets, bodies shorter than their
    Content-Length, too large (:data:`MAX_PAGE_BYTES`) or too slow (:data:`PAGE_DEADLINE`,
    over all the hops) raise :class:`FetchError`, never a partial page.  ``expire_after``
    (seconds) overrides the session's cache lifetime for this page; ``headers`` are sent
    with this request only.
    """
    base = base_url if base_url is not None else getattr(session, "fiderate_base_url", None)
    current = _checked(url, base)
    if current is None:
        raise RefusedFetch(url, f"refusing to fetch {_shown_host(url)}: not an address fiderate "
                              "reads (chess-results, or FIDE's calculations)")
    verb, body = method.upper(), data
    keys: list[str] = []
    from_cache = True
    token = _BUDGET.set(_Budget())
    try:
        for _hop in range(MAX_REDIRECTS + 1):
            resp = _send(session, url, verb, current, body, expire_after, headers)
            from_cache = from_cache and bool(getattr(resp, "from_cache", False))
            key = getattr(resp, "cache_key", None)
            if key:
                keys.append(key)
            if not resp.is_redirect:
                break
            target = urljoin(current, resp.headers["Location"])
            checked = _checked(target, base)
            if checked is None or is_downgrade(current, checked):
                why = " (from https to http)" if checked is not None else ""
                raise RefusedFetch(url, f"refusing redirect to {_shown_host(target)}{why}",
                                   status=resp.status_code)
            if resp.status_code == 303 or (resp.status_code in (301, 302) and verb == "POST"):
                verb, body = "GET", None
            current = checked
        else:
            raise RefusedFetch(url, f"too many redirects (more than {MAX_REDIRECTS})")
    finally:
        _BUDGET.reset(token)
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


def _checked(url: str, base_url: str | None) -> str | None:
    """``url`` as the HTTP client will send it, when that may be fetched; else None.

    The URL is allowed as read (:func:`importer.net.urls.is_allowed_host`), then prepared as
    requests prepares it, and the prepared URL must be allowed and name the same origin.
    """
    if not is_allowed_host(url, base_url):
        return None
    prepared = requests.PreparedRequest()
    try:
        prepared.prepare_url(url, None)
    except requests.RequestException:
        return None
    sent = prepared.url or ""
    if read_origin(sent) != read_origin(url) or not is_allowed_host(sent, base_url):
        return None
    return sent


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


def _send(session: requests.Session, url: str, verb: str, current: str,
          body: Mapping[str, str] | None, expire_after: int | None,
          headers: Mapping[str, str] | None = None) -> requests.Response:
    kwargs: dict[str, Any] = {"allow_redirects": False}
    extra: dict[str, str | bytes] = dict(headers or {})
    if expire_after is not None and hasattr(session, "cache"):
        kwargs["expire_after"] = expire_after
        refresh = session.headers.get("Cache-Control")
        if refresh:  # a per-request header would replace the session's no-cache: keep it
            extra["Cache-Control"] = refresh
    if extra:
        kwargs["headers"] = extra
    try:
        resp = session.request(verb, current, data=body, **kwargs)  # reads the whole body
    except requests.RequestException as exc:
        refused = isinstance(exc, PageTooLarge | PageTooSlow | RefusedAddress)
        raise (RefusedFetch if refused else FetchError)(url, _describe(exc, session, current)) \
            from exc
    length = resp.headers.get("Content-Length", "")
    if (length.isdigit() and not resp.headers.get("Content-Encoding")
            and len(resp.content) < int(length)):
        raise FetchError(url, f"truncated body ({len(resp.content)} of {length} bytes)",
                         status=resp.status_code)
    return resp


def _describe(exc: requests.RequestException, session: requests.Session, url: str) -> str:
    """One line saying what went wrong, e.g. 'timed out after 2 tries (read timeout 2 s)'."""
    site = FIDE_RATINGS_HOST if urlsplit(url).hostname == FIDE_RATINGS_HOST else "chess-results"
    if isinstance(exc, PageTooLarge):
        return f"{site} sent more than {_size(exc.limit)} for this page; nothing kept"
    if isinstance(exc, PageTooSlow):
        return (f"{site} did not finish sending this page within {exc.seconds:g} s; "
                "nothing kept")
    if isinstance(exc, RefusedAddress):
        return f"{exc}: not an address fiderate reads (chess-results, or FIDE's calculations)"
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
        seconds = _retry_after_seconds(after)
        message += (f" (server asks to retry after {seconds} s)" if seconds is not None
                    else " (server asks to retry later)")
    if tries > 1:
        message += f" after {tries} tries"
    raise FetchError(url, message, status=status)


def _retry_after_seconds(value: str) -> int | None:
    """A Retry-After header in whole seconds from now (it is seconds or an HTTP date), or None
    when it is neither."""
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0, math.ceil((when - datetime.now(UTC)).total_seconds()))


def _size(n: int) -> str:
    """A byte count in words: '20 MB', '64 KB', '300 bytes'."""
    for unit, name in ((1024 * 1024, "MB"), (1024, "KB")):
        if n >= unit:
            return f"{n / unit:.3g} {name}"
    return f"{n} bytes"


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
