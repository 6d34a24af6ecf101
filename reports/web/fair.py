"""Fair shares of chess-results for the server's users: who is asking, how much each may ask,
and requests taking turns.

* :class:`Clients` tells clients apart: by the address the connection comes from, an IPv6
  address by its /64 network (what one household or machine is given); behind a proxy
  trusted with ``--trusted-proxy``, by the address that proxy puts in ``X-Forwarded-For``
  (never otherwise: anyone can write the header).
* :class:`Budget` gives each client a few tournaments fetched from chess-results at once,
  refilled over a minute; over it, 429 with ``Retry-After`` before anything is sent.  What
  memory or the HTTP cache answers costs nothing.
* :class:`Turns` lets the requests to one host go one at a time, ``--delay`` apart for all
  clients together, the waiting clients taking turns, so one client's queue never holds
  another's back by more than one request a turn; :func:`take_turns` puts them in front of
  the session's polite adapter (whose own delay then never has to wait).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from reports.web.problems import Problem

if TYPE_CHECKING:
    import requests

__all__ = ["BURST", "REFILL_SECONDS", "Budget", "Clients", "OverBudget", "Ticket", "Turns",
           "asking", "parse_networks", "take_turns"]

BURST = 6
"""Tournaments a client may have fetched from chess-results at once."""
REFILL_SECONDS = 60.0
"""Seconds in which a client's whole allowance comes back."""
MAX_CLIENTS = 100_000
"""Allowances remembered at most (the full ones are forgotten first: they are the default)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> Address | None:
    try:
        found = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def parse_networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.7``, ``10.0.0.0/8``, ``::1``); ValueError for another."""
    found = []
    for text in texts:
        try:
            found.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{text!r}: not an IP address or network (e.g. 127.0.0.1 or "
                             "10.0.0.0/8)") from None
    return tuple(found)


class Clients:
    """Tells the server's clients apart (see the module's docstring)."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = parse_networks(trusted)

    def _trusts(self, address: Address) -> bool:
        return any(address.version == n.version and address in n for n in self.trusted)

    def of(self, peer: str | None, forwarded: Iterable[str] = ()) -> str:
        """The client of a request from *peer* whose ``X-Forwarded-For`` headers are
        *forwarded*: the peer, unless it is a trusted proxy; then the address the proxies
        name, read from the right and passing over the trusted ones (an earlier entry is the
        client's own to write)."""
        address = _address(peer or "")
        if address is None:
            return peer or "unknown"
        if self.trusted and self._trusts(address):
            hops = [hop for line in forwarded for hop in line.split(",")]
            for hop in reversed(hops):
                named = _address(hop)
                if named is None:
                    break
                address = named
                if not self._trusts(named):
                    break
        return _key(address)


def _key(address: Address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class OverBudget(BaseException):
    """A client's allowance is spent: raised where its request would reach chess-results.

    A BaseException, so that nothing between there and the server takes it for a failed
    request (the HTTP cache serves a stale page for any Exception); :meth:`Budget.asking`
    turns it into the 429 :class:`Problem`.
    """

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait
        """Seconds until the client may ask again."""

    def problem(self) -> Problem:
        """The refusal, as the user reads it."""
        return Problem(f"too many new tournaments asked for from your address: try again in "
                       f"{self.wait} seconds (reports already made open at once)", 429,
                       retry_after=self.wait)


@dataclass(slots=True)
class Ticket:
    """What a request is fetched for: its client, and whether chess-results was asked for it
    (its allowance is charged then, once)."""

    client: str
    budget: Budget | None = None
    spent: bool = False

    def charge(self) -> None:
        """Take one tournament of the client's allowance, the first time (OverBudget when
        none is left)."""
        if not self.spent:
            if self.budget is not None:
                self.budget.take(self.client)
            self.spent = True


_asking: ContextVar[Ticket | None] = ContextVar("fiderate_asking", default=None)


def asking() -> Ticket | None:
    """The ticket of the request this thread is fetching for, if any."""
    return _asking.get()


@dataclass(slots=True)
class _Allowance:
    tokens: float
    at: float


class Budget:
    """Each client's allowance of tournaments fetched from chess-results: *burst* at once,
    refilled evenly over *refill* seconds (a token bucket by client).  A tournament costs one
    when chess-results is asked for it; what memory or the HTTP cache answers is free."""

    def __init__(self, burst: int = BURST, refill: float = REFILL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = burst / refill
        self._clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, _Allowance] = {}

    def _now(self, client: str) -> _Allowance:
        now = self._clock()
        left = self._clients.get(client)
        if left is None:
            return _Allowance(float(self.burst), now)
        left.tokens = min(float(self.burst), left.tokens + (now - left.at) * self.rate)
        left.at = now
        return left

    def left(self, client: str) -> float:
        """Tournaments *client* may have fetched now."""
        with self._lock:
            return self._now(client).tokens

    def take(self, client: str) -> None:
        """Take one tournament of *client*'s allowance: OverBudget (with the seconds until
        the next comes back) when none is left."""
        with self._lock:
            left = self._now(client)
            if left.tokens < 1:
                raise OverBudget(max(1, math.ceil((1 - left.tokens) / self.rate)))
            left.tokens -= 1
            self._clients[client] = left
            if len(self._clients) > MAX_CLIENTS:
                self._forget()

    def _forget(self) -> None:
        now = self._clock()
        full = [c for c, a in self._clients.items()
                if a.tokens + (now - a.at) * self.rate >= self.burst]
        for client in full:
            del self._clients[client]
        while len(self._clients) > MAX_CLIENTS:  # all busy: the oldest go
            del self._clients[next(iter(self._clients))]

    @contextmanager
    def asking(self, client: str) -> Iterator[Ticket]:
        """Fetch for *client* in the block: a request that reaches chess-results charges its
        allowance (:func:`take_turns`); Problem 429 when it is spent."""
        ticket = Ticket(client, self)
        token = _asking.set(ticket)
        try:
            yield ticket
        except OverBudget as refused:
            raise refused.problem() from None
        finally:
            _asking.reset(token)


@dataclass(slots=True)
class _Line:
    """The requests waiting for one host."""

    busy: bool = False
    ready: float = float("-inf")
    """When the next request may go (the delay after the last one)."""
    waiting: dict[str, deque[object]] = field(default_factory=dict)
    """Each waiting client's requests, first come first."""
    served: dict[str, int] = field(default_factory=dict)
    """When each client was last served (a counter), since the line was last quiet."""
    turn: int = 0

    def first(self) -> object | None:
        """The request whose turn it is: the first of the waiting client served longest ago
        (never served: first of all)."""
        if not self.waiting:
            return None
        client = min(self.waiting, key=lambda c: self.served.get(c, -1))
        return self.waiting[client][0]


class Turns:
    """One request at a time to each host, *delay* seconds apart, the waiting clients taking
    turns (see the module's docstring): whose turn it is is decided when the next request may
    go, so a client who comes in during the delay goes before one who has just been served."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self._lock = threading.Condition()
        self._lines: dict[str, _Line] = {}

    def waiting(self, host: str) -> int:
        """Requests waiting for *host* (not the one being sent)."""
        with self._lock:
            line = self._lines.get(host)
            return sum(map(len, line.waiting.values())) if line else 0

    @contextmanager
    def turn(self, host: str, client: str) -> Iterator[None]:
        """Wait for *client*'s turn at *host*, and hold it for the block."""
        mine = object()
        with self._lock:
            line = self._lines.setdefault(host, _Line())
            if not line.busy and not line.waiting and time.monotonic() >= line.ready:
                line.served.clear()  # all quiet: who was served when no longer matters
            line.waiting.setdefault(client, deque()).append(mine)
            self._lock.notify_all()  # a newcomer may go first
            try:
                while True:
                    wait = line.ready - time.monotonic()
                    if not line.busy and line.first() is mine and wait <= 0:
                        break
                    self._lock.wait(wait if not line.busy and line.first() is mine else None)
            finally:  # taken, or given up (interrupted): out of the line either way
                queue = line.waiting[client]
                queue.remove(mine)
                if not queue:
                    del line.waiting[client]
                self._lock.notify_all()
            line.busy = True
        try:
            yield
        finally:
            with self._lock:
                line.busy = False
                line.ready = time.monotonic() + self.delay
                line.turn += 1
                line.served[client] = line.turn
                self._lock.notify_all()


def take_turns(session: requests.Session, turns: Turns) -> None:
    """Put *turns* in front of every request *session* sends to the network (cache hits never
    wait), for the client of the thread's :class:`Ticket`, charging it first."""
    for adapter in {id(a): a for a in session.adapters.values()}.values():  # one per scheme
        send = adapter.send

        def taking_turns(request: requests.PreparedRequest, *args: Any,
                         _send: Callable[..., requests.Response] = send,
                         **kwargs: Any) -> requests.Response:
            ticket = asking()
            if ticket is not None:
                ticket.charge()
            host = urlsplit(request.url or "").netloc.lower()
            with turns.turn(host, ticket.client if ticket is not None else ""):
                return _send(request, *args, **kwargs)

        adapter.send = taking_turns  # type: ignore[method-assign]
