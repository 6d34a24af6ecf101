"""What one client may cost ``fiderate serve``: a socket for a while, never the service.

uvicorn's HTTP/1.1 protocol (h11) reads a request only once its line and headers are all
in, and waits for them as long as the client likes; a client that opens hundreds of
connections, or sends its headers a byte at a time, would hold them all.  :func:`protocol`
is that protocol with, for each connection:

* a header deadline: the request line and headers must be in within
  :attr:`Limits.header_timeout` seconds of the connection (or of the previous answer on a
  kept-alive one), however slowly they trickle; then the connection is closed;
* a pace for the body: while the server reads a request body it must keep coming, at least
  :attr:`Limits.min_body_rate` bytes a second over each :attr:`Limits.body_timeout` seconds
  (the time the server itself stops reading does not count);
* a pace for the answer: a client that takes none of it for :attr:`Limits.body_timeout`
  seconds is cut off;
* caps: one client address holds at most :attr:`Limits.per_client` connections, all
  clients together at most :attr:`Limits.connections` (see :meth:`_Book.admit`).  An
  address over its cap loses the connections that sent no request within :data:`GRACE`
  seconds (the oldest first), then its idle kept-alive ones, so a user's new connection,
  which sends its request at once, gets in even beside a flood from the same address; a new
  connection finding all of its address's connections answering, or the server full of
  connections none of which could be closed, is answered 503 and closed;
* ``TCP_NODELAY``: small answers go out at once instead of waiting for the client's delayed
  acknowledgement (40 ms on Linux; asyncio sets it only on sockets it made itself).

An idle kept-alive connection is closed after :attr:`Limits.keep_alive` seconds (uvicorn's
own timer), and :class:`InFlight` answers 503 beyond :attr:`Limits.requests` requests at
once.  Every count is per server process.  Cut-off connections are summed up in the log, at
most once a minute.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["FD_RESERVE", "GRACE", "InFlight", "Limits", "Tracked", "file_limit", "protocol"]

FD_RESERVE = 256
"""File descriptors kept for everything but client connections (uploads, worker pipes, the
register, the log, chess-results)."""

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s")
_REPORT_EVERY = 60.0
GRACE = 0.2
"""Seconds a new connection has to send its request before it may be closed to bring its
address back under the cap."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one server process (0 for a cap: none)."""

    header_timeout: float = 10.0
    """Seconds for a request's line and headers, from the connection or the previous answer."""
    body_timeout: float = 30.0
    """The window over which a request body must come at :attr:`min_body_rate`; also how
    long a client may leave an answer untaken."""
    min_body_rate: int = 1024
    """Bytes a second a request body must come at, on average over each window."""
    keep_alive: int = 5
    """Seconds an idle kept-alive connection stays open."""
    connections: int = 1000
    """Connections at once, all clients together."""
    per_client: int = 32
    """Connections at once from one client address."""
    requests: int = 500
    """Requests answered at once (beyond: 503)."""
    header_bytes: int = 16 * 1024
    """The longest request line and headers (beyond: 400)."""

    def fitted(self, descriptors: int) -> Limits:
        """These limits with the connection cap lowered to what *descriptors* allow."""
        room = max(16, descriptors - FD_RESERVE)
        if self.connections and self.connections <= room:
            return self
        return replace(self, connections=room)


def file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (at most 65,536) and
    return it: each connection is one."""

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (OSError, ValueError):
            pass
    return 65536 if soft == resource.RLIM_INFINITY else soft


def nodelay(sock: Any) -> None:
    """``TCP_NODELAY`` on a TCP socket (anything else is left alone)."""
    try:
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass


class _Book:
    """The connections of one server, for the caps: by client address (oldest first), those
    waiting for their first request (``fresh``) and those kept alive between requests
    (``idle``), each oldest first; and the connections cut off, for the log."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.clients: dict[str, dict[_Guarded, None]] = {}
        self.fresh: dict[_Guarded, None] = {}
        self.idle: dict[_Guarded, None] = {}
        self.busy: Counter[str] = Counter()
        self.total = 0
        self.over: set[str] = set()
        self.trimming: asyncio.TimerHandle | None = None
        self.cut: Counter[str] = Counter()
        self.next_report = 0.0
        self.log = logging.getLogger("uvicorn.error")

    def admit(self, conn: _Guarded) -> bool:
        """Count a new connection in (False: no room for it).

        Refused when its address already has :attr:`Limits.per_client` requests being
        answered, or when the server has :attr:`Limits.connections` and none it could close
        (a waiting one of the address holding the most, else any waiting one).  An address
        over its cap loses its surplus :data:`GRACE` seconds later, from those that have
        not sent a request by then (the oldest first), then those kept alive between
        requests: a user's new connection, which sends its request at once, is never the
        one closed.
        """
        limits, address = self.limits, conn.address
        if limits.per_client and self.busy[address] >= limits.per_client:
            return False
        if limits.connections and self.total >= limits.connections:
            victim = self._victim()
            if victim is None:
                return False
            victim.cut_off("too many connections")
        mine = self.clients.setdefault(address, {})
        mine[conn] = None
        self.total += 1
        conn.state = "fresh"
        self.fresh[conn] = None
        if limits.per_client and len(mine) > limits.per_client:
            self.over.add(address)
            if self.trimming is None:
                self.trimming = conn.loop.call_later(GRACE, self._trim)
        return True

    def _victim(self) -> _Guarded | None:
        """The connection to close for a new one when the server is full: a waiting one of
        the address holding the most connections, else the oldest waiting one."""
        largest = max(self.clients.values(), key=len, default={})
        for pool in ((c for c in largest if c.state == "fresh"),
                     (c for c in largest if c.state == "idle"), iter(self.fresh),
                     iter(self.idle)):
            victim = next(pool, None)
            if victim is not None:
                return victim
        return None

    def _trim(self) -> None:
        """Every address back under its cap, from connections that have had their grace."""
        self.trimming = None
        cap = self.limits.per_client
        now = time.monotonic()
        again = False
        for address in list(self.over):
            mine = self.clients.get(address, {})
            excess = len(mine) - cap
            fresh = [c for c in mine if c.state == "fresh"]
            victims = [c for c in fresh if now - c.since >= GRACE][:excess]
            young = len(fresh) - len(victims)  # judged next time, before any kept-alive one
            victims += [c for c in mine if c.state == "idle"][:max(0, excess - len(victims) - young)]
            for victim in victims:
                victim.cut_off("too many connections from one address")
            if len(mine) > cap and any(c.state == "fresh" for c in mine):
                again = True  # some too young to judge yet
            else:
                self.over.discard(address)
        if again:
            self.trimming = asyncio.get_running_loop().call_later(GRACE, self._trim)

    def move(self, conn: _Guarded, state: str) -> None:
        """A counted connection now waits for its first request (``fresh``), waits for
        another (``idle``) or is reading or answering one (``busy``)."""
        old = conn.state
        if old == state or old is None:
            return
        self._leave(conn, old)
        conn.state = state
        if state == "busy":
            self.busy[conn.address] += 1
        else:
            (self.fresh if state == "fresh" else self.idle)[conn] = None

    def _leave(self, conn: _Guarded, state: str) -> None:
        if state == "busy":
            self.busy[conn.address] -= 1
            if not self.busy[conn.address]:
                del self.busy[conn.address]
        else:
            (self.fresh if state == "fresh" else self.idle).pop(conn, None)

    def forget(self, conn: _Guarded) -> None:
        """A connection closed (or cut off): out of every count."""
        if conn.state is None:
            return
        self._leave(conn, conn.state)
        conn.state = None
        mine = self.clients[conn.address]
        del mine[conn]
        if not mine:
            del self.clients[conn.address]
        self.total -= 1

    def note(self, why: str) -> None:
        """A connection cut off: in the log at once, then summed up at most once a minute."""
        self.cut[why] += 1
        now = time.monotonic()
        if now >= self.next_report:
            counts = ", ".join(f"{n} {what}" for what, n in self.cut.most_common())
            self.log.warning("cut off slow or surplus connections (%s)", counts)
            self.cut.clear()
            self.next_report = now + _REPORT_EVERY


class _Guarded(H11Protocol):
    """uvicorn's h11 protocol under :class:`Limits` (see the module)."""

    book: _Book
    state: str | None = None
    """``fresh``, ``idle`` or ``busy`` while the book counts it (see :meth:`_Book.move`)."""
    since = 0.0
    """When it began waiting for its current request (time.monotonic)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        nodelay(transport.get_extra_info("socket"))
        self.address = self.client[0] if self.client else ""
        self._mode: str | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._writer: asyncio.TimerHandle | None = None
        self._answered = False
        self._got = 0
        self.since = time.monotonic()
        if not self.book.admit(self):
            self.book.note("refused (no room)")
            text = b"too many connections at once; try again in a few seconds\n"
            self.transport.write(_BUSY % (len(text), text))
            self.transport.close()
            return
        self._sync()

    def connection_lost(self, exc: Exception | None) -> None:
        self.book.forget(self)
        self._stop_timer()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._got += len(data)
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._sync()

    def on_response_complete(self) -> None:
        self._answered = True
        super().on_response_complete()
        self._sync()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._writer is None:
            self._writer = self.loop.call_later(self.book.limits.body_timeout, self._untaken)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None

    def cut_off(self, why: str) -> None:
        """Close this connection (counted out at once, and in the log)."""
        self.book.forget(self)
        self.book.note(why)
        self._stop_timer()
        if why == "answer not taken":
            self.transport.abort()  # a close would wait for it to take the rest, forever
        elif not self.transport.is_closing():
            self.transport.close()

    # ------------------------------------------------------------------ the timers

    def _sync(self) -> None:
        """Follow the connection's state: waiting for a request's head, reading its body, or
        neither (answering); each with its own timer."""
        if self.transport.is_closing():
            self._stop_timer()
            return
        state = self.conn.their_state
        mode = "head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if mode == self._mode:
            return
        self._stop_timer()
        self._mode = mode
        limits = self.book.limits
        if mode == "head":
            self.since = time.monotonic()
            self.book.move(self, "idle" if self._answered else "fresh")
            if limits.header_timeout:
                self._timer = self.loop.call_later(limits.header_timeout, self._head_late)
        else:
            self.book.move(self, "busy")
            if mode == "body" and limits.body_timeout:
                self._got = 0
                self._timer = self.loop.call_later(limits.body_timeout, self._body_check)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_late(self) -> None:
        self._timer = None
        if self._mode == "head":
            self.cut_off("request headers too slow")

    def _body_check(self) -> None:
        self._timer = None
        if self._mode != "body":
            return
        limits = self.book.limits
        if self._got >= limits.min_body_rate * limits.body_timeout or self.flow.read_paused:
            self._got = 0
            self._timer = self.loop.call_later(limits.body_timeout, self._body_check)
        else:
            self.cut_off("request body too slow")

    def _untaken(self) -> None:
        self._writer = None
        if self.flow.write_paused:
            self.cut_off("answer not taken")


def protocol(limits: Limits) -> type[asyncio.Protocol]:
    """The protocol class for ``uvicorn.Config(http=…)``: one per server, counting its own
    connections."""
    return type("GuardedH11Protocol", (_Guarded,), {"book": _Book(limits)})


class InFlight:
    """ASGI middleware: at most *limit* requests answered at once; beyond, 503 at once (the
    client is told to come back in a few seconds).  A request the server drops because it
    is stopping (uvicorn cancels what is left after its grace period) is answered 503 too,
    not 500 with a traceback."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.limit:
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            await _unavailable(send, b"the server is busy; try again in a few seconds\n")
            return
        tracking = Tracked(send)
        self.active += 1
        try:
            await self.app(scope, receive, tracking)
        except asyncio.CancelledError:
            if tracking.started:
                raise
            await _unavailable(send, b"the server is stopping; try again in a few seconds\n")
        finally:
            self.active -= 1


class Tracked:
    """An ASGI ``send`` that remembers whether the response has started (after that, an
    error can no longer be answered with a page of its own)."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        self.started = self.started or message["type"] == "http.response.start"
        await self.send(message)


async def _unavailable(send: Send, text: bytes) -> None:
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"5"),
        (b"cache-control", b"no-store"), (b"content-length", b"%d" % len(text))]})
    await send({"type": "http.response.body", "body": text})
