"""The shared services behind the pages and the API.

* :class:`Fetcher`: the one polite HTTP session (:func:`importer.net.http.make_session`) for
  every user: cached, rate-limited per host across all threads, the requests of different
  clients taking turns (:mod:`reports.web.fair`), one fetch at a time per tournament (users
  asking for the same tournament together share it), and a tournament that does not exist
  remembered for a few minutes.
* :class:`Reports`: builds reports from links and uploads (reading and rating in a job
  process, :mod:`reports.web.jobs`: a link's pages are fetched here and read there) and keeps
  them in memory under their keys, a live tournament's for five minutes, a finished one's for
  an hour, uploads' for an hour, within a budget of bytes shared fairly among the clients
  (:class:`Store`); each client's new tournaments within its own budget.
* :class:`Periods`: the rating-period page from uploaded files.
"""

from __future__ import annotations

import pickle
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from importer.errors import NoSuchTournament
from importer.net.fetch import PageRead, Reader, TournamentPage, fetch_tournament, read_page
from importer.net.http import FetchedPage, default_cache_path, make_session
from importer.net.urls import Ref, parse_ref
from reports.web.fair import Budget, Clients, OverBudget, Turns, take_turns
from reports.web.jobs import Job
from reports.web.kept import UPLOAD_TTL, Kept, Want
from reports.web.keys import link_key, parse_link_key, upload_key
from reports.web.problems import Problem
from reports.web.security import token_matches
from reports.web.shared import REDIS_SCHEMES, LocalShared, Shared, shared_for

if TYPE_CHECKING:
    import requests

    from reports.settings import ReportSettings
    from reports.web.jobs import PeriodFiles, PeriodRequest, Runner
    from reports.web.uploads import Upload

__all__ = ["Config", "Fetcher", "Periods", "Reports", "SingleFlight", "Store"]

_REPORT_FROM_PAGES: Job[Kept] = Job("report_from_pages")
_READ_PAGE: Job[PageRead] = Job("read_page")
_REPORT_FROM_FILES: Job[Kept] = Job("report_from_files")
_PERIOD_FILES: Job[PeriodFiles] = Job("period_files")
"""The jobs run in worker processes (:mod:`reports.web.work`), by name."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

LINK_TTL_LIVE = 5 * 60
"""Seconds a report of a tournament that may still change is kept (chess-results' pages of a
running tournament stay five minutes in the HTTP cache too)."""
LINK_TTL_FINISHED = 60 * 60
MISSING_TTL = 10 * 60
"""Seconds chess-results' 'no such tournament' is remembered (asking again costs nothing)."""
MISSING_KEPT = 10_000
DEFAULT_MEMORY = 256 * 1024 * 1024
"""Bytes of kept reports (three quarters) and rating periods (a quarter) in memory."""


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
    page_deadline: float | None = None
    """Most seconds a chess-results page may take (None: importer.net.http's default)."""
    cache_path: str | None = None
    """The HTTP cache: a SQLite file (None: the user cache folder's) or a Redis server's
    ``redis://…`` URL (several machines)."""
    workers: int = 1
    """Processes serving together: they share the HTTP cache, the turns to ask chess-results,
    one fetch per tournament and the reports of uploads (:mod:`reports.web.shared`)."""
    time_limit: float = 20.0
    memory: int = DEFAULT_MEMORY
    """Bytes of reports and rating periods kept in memory (:data:`DEFAULT_MEMORY`)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of proxies whose ``X-Forwarded-For`` names the client."""


class SingleFlight(Generic[K, V]):
    """Callers asking for the same key at the same time share one call and its outcome."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[K, Future[V]] = {}

    def run(self, key: K, fn: Callable[[], V]) -> V:
        """``fn()``, or the outcome of the call already running for *key* (unless that
        caller was refused for being over its own budget: then this one tries itself)."""
        while True:
            with self._lock:
                running = self._calls.get(key)
                if running is None:
                    mine: Future[V] = Future()
                    self._calls[key] = mine
                    break
            try:
                return running.result()
            except OverBudget:
                continue
        try:
            value = fn()
        except BaseException as exc:
            self._done(key)
            mine.set_exception(exc)
            raise
        self._done(key)
        mine.set_result(value)
        return value

    def _done(self, key: K) -> None:
        """The call for *key* has ended: the next caller makes a new one."""
        with self._lock:
            del self._calls[key]


@dataclass(slots=True)
class _Entry(Generic[V]):
    value: V
    expires: float
    owner: str
    rebuildable: bool
    weight: int


class Store(Generic[V]):
    """Values by key, each until its own expiry, within *capacity* values and *max_bytes*
    bytes of their weight (*weigh*: the bytes a value holds).

    Each value has an owner (the client that made it) and is rebuildable (a link report:
    made again from its key) or not (an upload's).  Room is made, every time a value is kept
    or grows, in this order:

    1. expired values go;
    2. a client holding more than *share* of *max_bytes* makes room among its own values:
       a rebuildable one goes, else one is lightened (*lighten* forgets what the value can
       make again from itself), else one goes, least recently used first;
    3. past *max_bytes* in all, the least recently used rebuildable value of anyone goes,
       then the client holding the most bytes makes room as in 2.

    The value just kept or grown never goes to make room for itself: it is lightened when it
    alone is more than its client's share (so one value may pass the bounds; the uploads'
    limits bound it).
    """

    def __init__(self, capacity: int = 1 << 20, *, max_bytes: int | None = None,
                 share: float = 1 / 3, weigh: Callable[[V], int] | None = None,
                 lighten: Callable[[V], None] | None = None) -> None:
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.share = int(max_bytes * share) if max_bytes is not None else None
        self._weigh = weigh or (lambda _v: 0)
        self._lighten = lighten
        self._lock = threading.Lock()
        self._items: OrderedDict[str, _Entry[V]] = OrderedDict()
        self._owned: dict[str, int] = {}
        self.total = 0
        """Bytes held, by the values' weights."""

    def __len__(self) -> int:
        return len(self._items)

    def held_by(self, owner: str) -> int:
        """Bytes held for *owner*."""
        with self._lock:
            return self._owned.get(owner, 0)

    def get(self, key: str) -> V | None:
        """The value kept under *key*, if it has not expired."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item.expires <= time.monotonic():
                self._drop(key)
                return None
            self._items.move_to_end(key)
            return item.value

    def put(self, key: str, value: V, ttl: float, *, owner: str = "",
            rebuildable: bool = False) -> None:
        """Keep *value* under *key* for *ttl* seconds for *owner*, making room for it."""
        weight = self._weigh(value)
        with self._lock:
            if key in self._items:
                self._drop(key)
            self._items[key] = _Entry(value, time.monotonic() + ttl, owner, rebuildable, 0)
            self._set_weight(key, weight)
            self._fit(key)

    def reweigh(self, key: str, value: V) -> None:
        """*value*, kept under *key*, has grown or shrunk: weigh it again and make room."""
        weight = self._weigh(value)
        with self._lock:
            item = self._items.get(key)
            if item is None or item.value is not value:
                return  # forgotten meanwhile, or made again
            self._set_weight(key, weight)
            self._fit(key)

    def _set_weight(self, key: str, weight: int) -> None:
        item = self._items[key]
        self.total += weight - item.weight
        self._count(item.owner, weight - item.weight)
        item.weight = weight

    def _count(self, owner: str, change: int) -> None:
        held = self._owned.get(owner, 0) + change
        if held:
            self._owned[owner] = held
        else:
            self._owned.pop(owner, None)

    def _drop(self, key: str) -> None:
        item = self._items.pop(key)
        self.total -= item.weight
        self._count(item.owner, -item.weight)

    def _lightened(self, key: str) -> bool:
        """Lighten the value under *key*: True when that made it lighter."""
        if self._lighten is None:
            return False
        item = self._items[key]
        before = item.weight
        self._lighten(item.value)
        self._set_weight(key, self._weigh(item.value))
        return item.weight < before

    def _victims(self, touched: str, owner: str | None = None) -> list[str]:
        """The keys that may make room, in the order they go: rebuildable ones first, each
        kind least recently used first (only *owner*'s, when given)."""
        keys = [k for k, i in self._items.items()
                if k != touched and (owner is None or i.owner == owner)]
        return sorted(keys, key=lambda k: not self._items[k].rebuildable)

    def _over(self) -> bool:
        return self.max_bytes is not None and self.total > self.max_bytes

    def _fit(self, touched: str) -> None:
        now = time.monotonic()
        for key in [k for k, i in self._items.items() if i.expires <= now and k != touched]:
            self._drop(key)
        owner = self._items[touched].owner
        if self.share is not None:
            share = self.share
            while self._owned.get(owner, 0) > share and self._shed(touched, owner):
                pass
            if self._owned.get(owner, 0) > share:
                self._lightened(touched)
        while len(self._items) > self.capacity:
            victims = self._victims(touched)
            if not victims:
                return
            self._drop(victims[0])
        while self._over() and self._make_room(touched, owner):
            pass

    def _shed(self, touched: str, owner: str) -> bool:
        """Make room among *owner*'s values but the one *touched*: forget a rebuildable
        one, else lighten one, else forget one (False: nothing is left to make room)."""
        victims = self._victims(touched, owner)
        if not victims:
            return False
        if not self._items[victims[0]].rebuildable and any(map(self._lightened, victims)):
            return True
        self._drop(victims[0])
        return True

    def _make_room(self, touched: str, owner: str) -> bool:
        """Forget or lighten one value to make room (False: nothing more can go): the least
        recently used rebuildable one, else one of the client holding the most bytes (the
        one of *touched* first on a tie, else the one with the oldest value)."""
        victims = self._victims(touched)
        if victims and self._items[victims[0]].rebuildable:
            self._drop(victims[0])
            return True
        oldest: dict[str, int] = {}
        for i, key in enumerate(victims):
            oldest.setdefault(self._items[key].owner, i)
        for heavy in sorted(self._owned, key=lambda o: (-self._owned[o], o != owner,
                                                        oldest.get(o, len(victims)))):
            if self._shed(touched, heavy):
                return True
            if heavy == owner and self._lightened(touched):
                return True
        return False


class Fetcher:
    """chess-results pages through the one polite session of the server, the requests of
    different clients taking turns (:class:`~reports.web.fair.Turns`); a tournament that
    does not exist is remembered for :data:`MISSING_TTL` seconds."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.turns = Turns(config.delay)
        cache = config.cache_path
        self.shared = (shared_for(cache or _default_cache()) if config.workers > 1
                       or (cache or "").startswith(REDIS_SCHEMES) else LocalShared())
        """What this process shares with the other workers (nothing when it is the only one)."""
        self._session: requests.Session | None = None
        self._lock = threading.Lock()
        self._flight: SingleFlight[tuple[str, int | None], list[TournamentPage]] = SingleFlight()
        self._missing: Store[tuple[str, str, int | None]] = Store(MISSING_KEPT)
        """What chess-results said of a tournament that does not exist: url, words, status."""

    def session(self) -> requests.Session:
        """The session, made on first use."""
        with self._lock:
            if self._session is None:
                c = self.config
                session = make_session(timeout=c.timeout, delay=c.delay,
                                       cache_path=c.cache_path, base_url=c.base_url,
                                       shared=self.shared, deadline=c.page_deadline)
                take_turns(session, self.turns)
                self._session = session
            return self._session

    def ref(self, text: str) -> Ref:
        """The tournament a typed link or number names (Problem 400 for anything else)."""
        ref = parse_ref(text, base_url=self.config.base_url)
        if ref is None:
            shown = text if len(text) <= 100 else text[:99] + "…"
            raise Problem(f"{shown}: not a chess-results link or tournament number")
        return ref

    def missing(self, ref: Ref) -> NoSuchTournament | None:
        """What chess-results answered the last few minutes when asked for this tournament,
        if it was that there is no such tournament (nothing is asked for it meanwhile)."""
        said = self._missing.get(f"{ref.tnr}|{ref.snr}") or self._missing.get(f"{ref.tnr}|None")
        return NoSuchTournament(said[0], said[1], status=said[2]) if said is not None else None

    def fetch(self, ref: Ref, read: Reader | None = None) -> list[TournamentPage]:
        """The pages of one tournament (at most three requests; none when cached, or when it
        was found missing a moment ago), each read by *read* (default: here)."""
        known = self.missing(ref)
        if known is not None:
            raise known

        def fetch() -> list[TournamentPage]:
            try:
                with self.shared.flight(f"{ref.tnr}|{ref.snr}"):  # the other workers wait
                    return fetch_tournament(ref, self.session(), base_url=self.config.base_url,
                                            read=read or read_page)
            except NoSuchTournament as exc:
                words = str(exc).removeprefix(f"{exc.url}: ")
                self._missing.put(f"{ref.tnr}|{ref.snr}", (exc.url, words, exc.status),
                                  MISSING_TTL)
                raise

        return self._flight.run((ref.tnr, ref.snr), fetch)


class Reports:
    """Reports built from links and uploads, kept under their keys within *memory* bytes
    (each client a third of it at most, link reports forgotten before uploads: :class:`Store`);
    each client's new tournaments within its :class:`~reports.web.fair.Budget`."""

    def __init__(self, fetcher: Fetcher, runner: Runner, *, capacity: int = 4096,
                 memory: int | None = None) -> None:
        self.fetcher = fetcher
        self.runner = runner
        self.clients = Clients(fetcher.config.trusted_proxies)
        self.budget = Budget()
        memory = memory if memory is not None else fetcher.config.memory * 3 // 4
        self.kept: Store[Kept] = Store(capacity, max_bytes=memory, weigh=Kept.weight,
                                       lighten=Kept.lighten)
        self._asked: Store[str] = Store(capacity * 4)  # the key each request was given
        self._flight: SingleFlight[str, Kept] = SingleFlight()

    def get(self, key: str, client: str = "") -> Kept | None:
        """The report under *key*: kept, or rebuilt from its link (None: no such key, or an
        upload's that has expired)."""
        kept = self.kept.get(key)
        if kept is not None:
            return kept
        parsed = parse_link_key(key)
        if parsed is None:
            return self._from_another_worker(key, client)
        ref, options, _ = parsed
        return self.link(ref, options, client=client)

    def link(self, ref: Ref, options: ReportSettings, want: Want = "page", *, client: str = ""
             ) -> Kept:
        """The report of a chess-results tournament (one build at a time per request);
        *want* is what to make first: its first 'page' or its 'json'.  A tournament new to
        the server costs one of *client*'s budget if chess-results is asked for it (Problem
        429, before anything is sent, when it is spent)."""
        asked = f"{ref.tnr}|{ref.snr}|{options!r}"
        key = link_key(ref, options, None) if options.player is None else self._asked.get(asked)
        kept = self.kept.get(key) if key is not None else None
        if kept is not None:
            return kept
        known = self.fetcher.missing(ref)
        if known is not None:
            raise known
        with self.budget.asking(client):
            kept = self._flight.run(asked, lambda: self._build_link(ref, options, want, client))
        self._asked.put(asked, kept.key, LINK_TTL_FINISHED)
        return kept

    def _keep(self, kept: Kept, ttl: float, client: str) -> None:
        kept.watch(self.kept.reweigh)
        self.kept.put(kept.key, kept, ttl, owner=client, rebuildable=kept.link)

    def _share(self, kept: Kept) -> None:
        """An upload's report, for the other workers (a link's is rebuilt from its key)."""
        if self.fetcher.shared.shares:
            self.fetcher.shared.put(f"report:{kept.key}", pickle.dumps(kept), UPLOAD_TTL)

    def _from_another_worker(self, key: str, client: str) -> Kept | None:
        """The report of an upload another worker made (None: none, or expired)."""
        data = self.fetcher.shared.get(f"report:{key}")
        if data is None:
            return None
        kept: Kept = pickle.loads(data)
        self._keep(kept, UPLOAD_TTL, client)
        return kept

    def _build_link(self, ref: Ref, options: ReportSettings, want: Want, client: str) -> Kept:
        pages = self.fetcher.fetch(ref, self._read)
        source = pages[0].url if pages else ref.tnr
        kept = self.runner.run(_REPORT_FROM_PAGES, pages, source, ref.snr,
                               self._with_register(options), want)
        kept.key = link_key(ref, options, kept.focus if options.player is not None else None)
        self._keep(kept, LINK_TTL_FINISHED if kept.finished else LINK_TTL_LIVE, client)
        return kept

    def _with_register(self, options: ReportSettings) -> ReportSettings:
        """The options with the server's register, whose FIDE list gives players' K."""
        return replace(options, store=self.fetcher.config.store)

    def _read(self, fetched: FetchedPage, first: bool) -> PageRead:
        """A fetched page read in a job process (the fetch plan's reader)."""
        return self.runner.run(_READ_PAGE, fetched, first)

    def upload(self, files: list[Upload], options: ReportSettings, want: Want = "page", *,
               client: str = "") -> Kept:
        """The report of uploaded files, under a new random key."""

        kept = self.runner.run(_REPORT_FROM_FILES, files, self._with_register(options), want)
        kept.key = upload_key()
        self._keep(kept, UPLOAD_TTL, client)
        self._share(kept)
        return kept


def _default_cache() -> str:
    return default_cache_path()


def _texts_weight(files: dict[str, str]) -> int:
    return sum(sys.getsizeof(name) + sys.getsizeof(text) for name, text in files.items())


class Periods:
    """Rating-period pages from uploaded files, kept for an hour under random keys within
    *memory* bytes (each client a third of it at most); the register (*store*) read, and
    written only for a request with the write token."""

    def __init__(self, runner: Runner, store: str | None, write_token: str | None = None, *,
                 memory: int = DEFAULT_MEMORY // 4, shared: Shared | None = None) -> None:
        self.runner = runner
        self.store = store
        self.shared: Shared = shared if shared is not None else LocalShared()
        """What the workers share: a period rated by one is shown by any."""
        self._token = write_token
        self.kept: Store[dict[str, str]] = Store(256, max_bytes=memory, weigh=_texts_weight)
        self._register = threading.Lock()

    @property
    def saves(self) -> bool:
        """The server has a register and a write token: a period can be saved."""
        return self.store is not None and bool(self._token)

    def may_write(self, given: str | None) -> bool:
        """*given* is the write token of a server that saves periods."""
        return self.saves and token_matches(self._token, given)

    def run(self, files: list[Upload], ratings_list: Upload | None, request: PeriodRequest,
            site: dict[str, Any], *, client: str = "") -> tuple[str, PeriodFiles]:
        """Rate the period: the key of its files, and them (the register read and written one
        period at a time)."""

        with self._register:
            out = self.runner.run(_PERIOD_FILES, files, ratings_list, request, site)
        key = upload_key()
        self.kept.put(key, out.files, UPLOAD_TTL, owner=client)
        if self.shared.shares:
            self.shared.put(f"period:{key}", pickle.dumps(out.files), UPLOAD_TTL)
        return key, out

    def get(self, key: str, client: str = "") -> dict[str, str] | None:
        """A period's files by key: kept here, or rated by another worker (None: neither)."""
        files = self.kept.get(key)
        if files is None:
            data = self.shared.get(f"period:{key}")
            if data is not None:
                files = pickle.loads(data)
                self.kept.put(key, files, UPLOAD_TTL, owner=client)
        return files
