"""The shared services behind the pages and the API.

* :class:`Fetcher`: the one polite HTTP session (:func:`importer.http.make_session`) for
  every user: cached, rate-limited per host across all threads, and one fetch at a time per
  tournament (users asking for the same tournament together share it).
* :class:`Reports`: builds reports from links and uploads (reading and rating in a job
  process, :mod:`reports.web.jobs`) and keeps them in memory under their keys, a live
  tournament's for five minutes, a finished one's for an hour, uploads' for an hour.
* :class:`Periods`: the rating-period page from uploaded files.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from reports.web.problems import Problem

if TYPE_CHECKING:
    import requests

    from importer.fetch import TournamentPage
    from importer.urls import Ref
    from reports.web.jobs import Runner
    from reports.web.kept import Kept, Want
    from reports.web.keys import ReportOptions
    from reports.web.uploads import Upload
    from reports.web.work import PeriodFiles, PeriodRequest

__all__ = ["Config", "Fetcher", "Periods", "Reports", "SingleFlight", "Store"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

LINK_TTL_LIVE = 5 * 60
"""Seconds a report of a tournament that may still change is kept (chess-results' pages of a
running tournament stay five minutes in the HTTP cache too)."""
LINK_TTL_FINISHED = 60 * 60
UPLOAD_TTL = 60 * 60
"""Seconds a report of uploaded files is kept."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """How the server was started."""

    base_url: str | None = None
    """A chess-results mirror or test double (None: chess-results.com)."""
    store: str | None = None
    """The rating register the period page reads, and writes with the write token (None:
    none)."""
    write_token: str | None = field(default=None, repr=False)
    """The secret a request must carry for the period to be written to the register (None:
    the register is only read)."""
    origins: tuple[str, ...] = ()
    """The addresses people open the pages at, as ``scheme://host[:port]`` (empty: each
    request's own); a POST from any other is refused."""
    delay: float = 1.0
    timeout: float = 10.0
    cache_path: str | None = None
    """The HTTP cache file (None: the user cache folder's)."""
    time_limit: float = 20.0


class SingleFlight(Generic[K, V]):
    """Callers asking for the same key at the same time share one call and its outcome."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[K, Future[V]] = {}

    def run(self, key: K, fn: Callable[[], V]) -> V:
        """``fn()``, or the outcome of the call already running for *key*."""
        with self._lock:
            running = self._calls.get(key)
            if running is None:
                mine: Future[V] = Future()
                self._calls[key] = mine
        if running is not None:
            return running.result()
        try:
            value = fn()
        except BaseException as exc:
            mine.set_exception(exc)
            raise
        finally:
            with self._lock:
                del self._calls[key]
        mine.set_result(value)
        return value


class Store(Generic[V]):
    """At most *capacity* values by key, each until its own expiry (least recently used first out)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[float, V]] = OrderedDict()

    def get(self, key: str) -> V | None:
        """The value kept under *key*, if it has not expired."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] <= time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: str, value: V, ttl: float) -> None:
        """Keep *value* under *key* for *ttl* seconds."""
        with self._lock:
            self._items[key] = (time.monotonic() + ttl, value)
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)


class Fetcher:
    """chess-results pages through the one polite session of the server."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._session: requests.Session | None = None
        self._lock = threading.Lock()
        self._flight: SingleFlight[tuple[str, int | None], list[TournamentPage]] = SingleFlight()

    def session(self) -> requests.Session:
        """The session, made on first use."""
        with self._lock:
            if self._session is None:
                from importer.http import make_session

                c = self.config
                self._session = make_session(timeout=c.timeout, delay=c.delay,
                                             cache_path=c.cache_path, base_url=c.base_url)
            return self._session

    def ref(self, text: str) -> Ref:
        """The tournament a typed link or number names (Problem 400 for anything else)."""
        from importer.urls import parse_ref

        ref = parse_ref(text, base_url=self.config.base_url)
        if ref is None:
            shown = text if len(text) <= 100 else text[:99] + "…"
            raise Problem(f"{shown}: not a chess-results link or tournament number")
        return ref

    def fetch(self, ref: Ref) -> list[TournamentPage]:
        """The pages of one tournament (at most three requests; none when cached)."""
        from importer.fetch import fetch_tournament

        return self._flight.run((ref.tnr, ref.snr), lambda: fetch_tournament(
            ref, self.session(), base_url=self.config.base_url))


class Reports:
    """Reports built from links and uploads, kept under their keys."""

    def __init__(self, fetcher: Fetcher, runner: Runner, *, capacity: int = 64) -> None:
        self.fetcher = fetcher
        self.runner = runner
        self.kept: Store[Kept] = Store(capacity)
        self._asked: Store[str] = Store(capacity * 4)  # the key each request was given
        self._flight: SingleFlight[str, Kept] = SingleFlight()

    def get(self, key: str) -> Kept | None:
        """The report under *key*: kept, or rebuilt from its link (None: no such key, or an
        upload's that has expired)."""
        from reports.web.keys import parse_link_key

        kept = self.kept.get(key)
        if kept is not None:
            return kept
        parsed = parse_link_key(key)
        if parsed is None:
            return None
        ref, options, _ = parsed
        return self.link(ref, options)

    def link(self, ref: Ref, options: ReportOptions, want: Want = "page") -> Kept:
        """The report of a chess-results tournament (one build at a time per request);
        *want* is what to make first: its first 'page' or its 'json'."""
        from reports.web.keys import link_key

        asked = f"{ref.tnr}|{ref.snr}|{options!r}"
        key = link_key(ref, options, None) if options.player is None else self._asked.get(asked)
        kept = self.kept.get(key) if key is not None else None
        if kept is not None:
            return kept
        kept = self._flight.run(asked, lambda: self._build_link(ref, options, want))
        self._asked.put(asked, kept.key, LINK_TTL_FINISHED)
        return kept

    def _build_link(self, ref: Ref, options: ReportOptions, want: Want) -> Kept:
        from reports.web import work
        from reports.web.keys import link_key

        pages = self.fetcher.fetch(ref)
        source = pages[0].url if pages else ref.tnr
        kept = self.runner.run(work.report_from_pages, pages, source, ref.snr, options, want)
        kept.key = link_key(ref, options, kept.focus if options.player is not None else None)
        self.kept.put(kept.key, kept, LINK_TTL_FINISHED if kept.finished else LINK_TTL_LIVE)
        return kept

    def upload(self, files: list[Upload], options: ReportOptions, want: Want = "page") -> Kept:
        """The report of uploaded files, under a new random key."""
        from reports.web import work
        from reports.web.keys import upload_key

        kept = self.runner.run(work.report_from_files, files, options, want)
        kept.key = upload_key()
        self.kept.put(kept.key, kept, UPLOAD_TTL)
        return kept


class Periods:
    """Rating-period pages from uploaded files, kept for an hour under random keys; the
    register (*store*) read, and written only for a request with the write token."""

    def __init__(self, runner: Runner, store: str | None, write_token: str | None = None
                 ) -> None:
        self.runner = runner
        self.store = store
        self._token = write_token
        self.kept: Store[dict[str, str]] = Store(16)
        self._register = threading.Lock()

    @property
    def saves(self) -> bool:
        """The server has a register and a write token: a period can be saved."""
        return self.store is not None and bool(self._token)

    def may_write(self, given: str | None) -> bool:
        """*given* is the write token of a server that saves periods."""
        from reports.web.security import token_matches

        return self.saves and token_matches(self._token, given)

    def run(self, files: list[Upload], ratings_list: Upload | None, request: PeriodRequest,
            site: dict[str, Any]) -> tuple[str, PeriodFiles]:
        """Rate the period: the key of its files, and them (the register read and written one
        period at a time)."""
        from reports.web import work
        from reports.web.keys import upload_key

        with self._register:
            out = self.runner.run(work.period_files, files, ratings_list, request, site)
        key = upload_key()
        self.kept.put(key, out.files, UPLOAD_TTL)
        return key, out
