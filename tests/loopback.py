"""A loopback chess-results.com double: a real HTTP server on 127.0.0.1 with scripted faults.

``responses`` patches the adapter away, so urllib3's retries, timeouts and broken bodies are only
exercised against a real socket (urllib3's retries need a real socket).  Usage::

    with ChessResults() as site:
        site.page("1452107", art=0, body=html)                 # GET /tnr1452107.aspx?art=0…
        site.route("/tnr1452107.aspx", [Reply(503), Reply(429, headers={"Retry-After": "1"}),
                                        Reply(200, html)], art="5")
        session = make_session(cache=False, delay=0, base_url=site.url)
        fetch_tournament(Ref("1452107"), session, base_url=site.url)
        assert site.count("/tnr1452107.aspx") == 4

A route matches on path (case-insensitive), method and a subset of the query; the most specific
match wins.  A list of replies is served in order, the last one repeating.  Unmatched requests get
404.  Every fault is bounded in time, and :meth:`ChessResults.stop` (the context exit) interrupts
stalls, so a test never hangs.  For the CLI: ``fiderate import N --base-url`` + ``site.url``
(with ``--no-cache`` or a temporary ``XDG_CACHE_HOME``, so the user's cache is left alone).

``tests/`` is not on ``sys.path`` (``--import-mode=importlib``, no ``__init__.py``): load this
module by path as ``test_loopback_faults._load_loopback`` does, or add ``pythonpath = ["tests"]``
to ``[tool.pytest.ini_options]`` and write ``from loopback import ChessResults, Reply``.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

__all__ = ["MAX_STALL", "ChessResults", "Reply", "Request"]

MAX_STALL = 30.0
"""No stall lasts longer than this, whatever a test asks for."""


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    ``fault``: ``None`` (a normal reply), ``"stall"`` (wait ``stall`` seconds before answering;
    bounded by :data:`MAX_STALL` and by server stop), ``"reset"`` (send the headers and half the
    body, then reset the connection) or ``"truncate"`` (announce the full Content-Length, send
    half the body and close cleanly).
    """

    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    fault: str | None = None
    stall: float = 0.0

    @classmethod
    def redirect(cls, location: str, status: int = 302) -> Reply:
        """A redirect to ``location`` (absolute or relative)."""
        return cls(status, b"", {"Location": location})

    @classmethod
    def stalled(cls, seconds: float, body: bytes | str = b"") -> Reply:
        """Answer only after ``seconds`` (longer than the client's read timeout, say)."""
        return cls(200, body, fault="stall", stall=seconds)

    @classmethod
    def reset(cls, body: bytes | str) -> Reply:
        """Send half of ``body``, then reset the connection (TCP RST)."""
        return cls(200, body, fault="reset")

    @classmethod
    def truncated(cls, body: bytes | str) -> Reply:
        """Announce ``len(body)`` bytes, send half, close."""
        return cls(200, body, fault="truncate")

    @property
    def data(self) -> bytes:
        """The body as bytes (text is sent as UTF-8)."""
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass(frozen=True)
class Request:
    """One request the double received."""

    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)
    """When it arrived (``time.monotonic()``)."""


@dataclass
class _Route:
    method: str | None
    path: str
    query: dict[str, str]
    replies: list[Reply]
    served: int = 0

    def next_reply(self) -> Reply:
        reply = self.replies[min(self.served, len(self.replies) - 1)]
        self.served += 1
        return reply


class ChessResults:
    """The loopback double: ``with ChessResults() as site: … site.url …``."""

    def __init__(self) -> None:
        self._routes: list[_Route] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.requests: list[Request] = []
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        """The base URL, ``http://127.0.0.1:PORT`` (pass it as ``base_url``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def route(self, path: str, replies: Reply | bytes | str | list[Reply], *,
              method: str | None = None, **query: str | int) -> None:
        """Serve ``replies`` for ``path`` when the query contains ``query`` (and ``method``)."""
        if not isinstance(replies, list):
            replies = [replies if isinstance(replies, Reply) else Reply(200, replies)]
        with self._lock:
            self._routes.append(_Route(method.upper() if method else None, path.lower(),
                                       {k: str(v) for k, v in query.items()}, replies))

    def page(self, tnr: str, *, art: int, body: Reply | bytes | str | list[Reply],
             method: str | None = None, **query: str | int) -> None:
        """Serve a chess-results view: ``/tnr<tnr>.aspx?art=<art>[&rd=…&snr=…]``."""
        self.route(f"/tnr{tnr}.aspx", body, method=method, art=art, **query)

    def page_file(self, tnr: str, *, art: int, path: Path, **query: str | int) -> None:
        """Serve a saved page byte for byte (leading HTTP headers in old saves are skipped)."""
        raw = path.read_bytes()
        self.page(tnr, art=art, body=raw[raw.find(b"<"):], **query)

    def count(self, path: str | None = None, **query: str) -> int:
        """How many requests reached ``path`` (all paths when None) with that query subset."""
        return sum(1 for r in self.requests
                   if (path is None or r.path.lower() == path.lower())
                   and all(r.query.get(k) == v for k, v in query.items()))

    def counts(self) -> Counter[str]:
        """Requests per path."""
        return Counter(r.path for r in self.requests)

    def start(self) -> ChessResults:
        """Start serving in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, interrupt stalls, close the socket (bounded: a few seconds at most)."""
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ChessResults:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _pick(self, method: str, path: str, query: dict[str, str]) -> Reply:
        with self._lock:
            matches = [r for r in self._routes
                       if r.path == path.lower() and r.method in (None, method)
                       and all(query.get(k) == v for k, v in r.query.items())]
            if not matches:
                return Reply(404, "<html><body>Not found</body></html>")
            best = max(matches, key=lambda r: (len(r.query), r.method is not None))
            return best.next_reply()


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer that can end a connection with a reset instead of a clean close."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self.to_reset: set[int] = set()

    def shutdown_request(self, request: Any) -> None:
        """Close; for a reset connection skip the FIN (SO_LINGER 0 then sends RST)."""
        if id(request) in self.to_reset:
            self.to_reset.discard(id(request))
            request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            request.close()
        else:
            super().shutdown_request(request)


def _handler_for(site: ChessResults) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10  # a client that stops talking does not keep a thread forever

        def do_GET(self) -> None:
            self._answer()

        def do_HEAD(self) -> None:
            self._answer()

        def do_POST(self) -> None:
            self._answer()

        def log_message(self, format: str, *args: Any) -> None:
            """Keep the test output quiet."""

        def _answer(self) -> None:
            parts = urlsplit(self.path)
            query = dict(parse_qsl(parts.query, keep_blank_values=True))
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            form = dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
            with site._lock:
                site.requests.append(Request(self.command, parts.path, query, form,
                                             dict(self.headers.items())))
            reply = site._pick(self.command, parts.path, query)
            if reply.fault == "stall" and site._stop.wait(min(reply.stall, MAX_STALL)):
                return
            data = reply.data
            self.send_response(reply.status)
            headers = {"Content-Type": "text/html; charset=utf-8", **reply.headers}
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            if reply.fault in ("reset", "truncate"):
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command == "HEAD":
                return
            if reply.fault in ("reset", "truncate"):
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                if reply.fault == "reset":
                    site._server.to_reset.add(id(self.connection))
                self.close_connection = True
                return
            self.wfile.write(data)

    return Handler
