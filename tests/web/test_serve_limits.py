"""``fiderate serve`` under slow and greedy clients (a real server process on 127.0.0.1): a
client that opens many connections or trickles its request costs a socket for a while, never
the service; the server stops within seconds even with requests in flight.

The long version of the first test holds the sockets for 30 s, past the default header
timeout: ``FIDERATE_SLOW_HOLD=30 FIDERATE_SLOW_HEADER_TIMEOUT=10 python -m pytest -k half_open``.
"""

from __future__ import annotations

import os
import resource
import selectors
import signal
import socket
import threading
import time

import pytest
import requests
from loopback import ChessResults, Reply
from serving import TNR, Served, Trap, serve_fixtures

pytestmark = pytest.mark.slow  # server processes

HOLD = float(os.environ.get("FIDERATE_SLOW_HOLD", "3.5"))
"""Seconds the half-open sockets are held (past the header timeout, twice)."""
HEADER_TIMEOUT = float(os.environ.get("FIDERATE_SLOW_HEADER_TIMEOUT", "1.5"))
SOCKETS = 600


@pytest.fixture(scope="module")
def site():
    with ChessResults() as double:
        serve_fixtures(double)
        double.page("999777", art=0, body=Reply.stalled(20, "x"))
        yield double


@pytest.fixture(scope="module")
def server(tmp_path_factory, site):
    with Trap() as trap, Served(tmp_path_factory.mktemp("limits"), "--header-timeout",
                                str(HEADER_TIMEOUT), "--body-timeout", "1",
                                base_url=site.url) as s:
        r = requests.post(s.url + "report", data={"source": TNR}, timeout=30)
        assert r.status_code == 200  # the report is held from now on
        yield s
    assert trap.connections == 0


def _port(server: Served) -> int:
    return int(server.url.rstrip("/").rsplit(":", 1)[1])


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closes *sock* (None: still open after *seconds*)."""
    start = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - start


@pytest.fixture
def many_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 4 * SOCKETS
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"needs {want} open files (hard limit {hard})")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


class Slowloris:
    """SOCKETS half-open connections from one process, each a partial request line or
    nothing, reopened (at most twice a second each) when the server closes them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stop = threading.Event()
        self.opened = 0
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open(self, i: int) -> socket.socket:
        sock = _connect(self.port, "127.0.0.1" if i % 2 else "127.0.0.2")
        if i % 3:
            sock.send(b"GET / HT" if i % 3 == 1 else b"POST /report HTTP/1.1\r\nHost: x")
        sock.setblocking(False)
        self.opened += 1
        return sock

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        try:
            for i in range(SOCKETS):
                selector.register(self.open(i), selectors.EVENT_READ, i)
            while not self.stop.is_set():
                time.sleep(0.5)
                for key, _ in selector.select(timeout=0):
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    selector.register(self.open(key.data), selectors.EVENT_READ, key.data)
        except OSError as exc:
            self.errors.append(repr(exc))
        finally:
            for key in list(selector.get_map().values()):
                key.fileobj.close()
            selector.close()

    def __enter__(self) -> Slowloris:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def test_half_open_sockets_cost_a_socket_not_the_service(server, many_files):
    """600 half-open sockets from one process, held (and reopened as the server cuts them)
    past the header timeout: a user's home page and a held report are served within a
    second, every time, on a fresh connection and on a kept-alive one."""
    session = requests.Session()
    times: list[float] = []
    statuses: set[int] = set()
    with Slowloris(_port(server)) as attack:
        time.sleep(0.5)  # every socket open before the first user comes
        end = time.monotonic() + HOLD
        while time.monotonic() < end:
            for path in ("", f"report/{TNR}/"):
                for get in (requests.get, session.get):
                    start = time.monotonic()
                    r = get(server.url + path, timeout=5)
                    times.append(time.monotonic() - start)
                    statuses.add(r.status_code)
            time.sleep(0.05)
    assert attack.errors == []
    assert attack.opened >= SOCKETS
    assert statuses == {200}
    assert max(times) < 1.0, sorted(times)[-5:]
    assert len(times) >= 20
    assert "cut off slow or surplus connections" in server.log()
    assert "internal error" not in server.log()


def test_slow_headers_are_cut_at_the_header_timeout(server):
    """A connection that trickles its request line and headers a byte at a time, and one
    that sends nothing: both closed at the header timeout."""
    silent = _connect(_port(server), "127.0.0.4")
    trickling = _connect(_port(server), "127.0.0.3")
    start = time.monotonic()
    silent_took: list[float | None] = []
    waiter = threading.Thread(target=lambda: silent_took.append(
        _closed_within(silent, HEADER_TIMEOUT + 2)))
    waiter.start()
    took: float | None = None
    try:
        for ch in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 400:
            trickling.send(bytes([ch]))
            time.sleep(0.05)
            if time.monotonic() - start > HEADER_TIMEOUT + 2:
                break
    except (BrokenPipeError, ConnectionResetError):
        took = time.monotonic() - start
    if took is None:
        assert _closed_within(trickling, 2) is not None, "still open"
        took = time.monotonic() - start
    waiter.join()
    trickling.close()
    silent.close()
    assert HEADER_TIMEOUT * 0.9 <= took <= HEADER_TIMEOUT + 1.5, took
    (quiet,) = silent_took
    assert quiet is not None and HEADER_TIMEOUT * 0.9 <= quiet <= HEADER_TIMEOUT + 1, quiet


def test_a_body_that_stops_coming_is_cut(server):
    """--body-timeout 1: a body that stops coming is cut within about a second; the request
    ends without an 'internal error' in the log and its upload folder is removed."""
    sock = _connect(_port(server), "127.0.0.5")
    sock.sendall(b"POST /report HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                 b"boundary=xx\r\nContent-Length: 100000\r\n\r\n--xx\r\nContent-Disposition: "
                 b'form-data; name="files"; filename="a.trf"\r\n\r\n012 a')
    took = _closed_within(sock, 5)
    sock.close()
    assert took is not None and 0.9 <= took <= 2.5, took
    time.sleep(0.2)
    assert "internal error" not in server.log()
    assert server.uploads_left() == []


def test_one_address_keeps_at_most_its_cap_and_its_newest_connection_gets_in(server):
    """100 idle connections from one address: all but 32 are closed within a moment (the
    oldest first, once they have had GRACE seconds to send a request), and a request on a
    new one from there is answered."""
    from reports.web.limits import GRACE

    socks = [_connect(_port(server), "127.0.0.6") for _ in range(100)]
    time.sleep(3 * GRACE)
    closed = sum(1 for s in socks if _closed_within(s, 0.01) is not None)
    assert closed == 100 - 32
    assert all(_closed_within(s, 0.01) is not None for s in socks[:68])  # the oldest went
    newest = _connect(_port(server), "127.0.0.6")
    newest.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    newest.settimeout(5)
    assert newest.recv(4096).startswith(b"HTTP/1.1 200 ")
    newest.close()
    for s in socks:
        s.close()


def test_a_busy_address_is_refused_and_sigterm_stops_the_server_with_requests_in_flight(
        tmp_path, site):
    """--max-client-connections 3, all three answering (chess-results is slow): a fourth
    connection from that address is answered 503 at once.  Then, with those requests in
    flight, a body half sent and a half-open socket, SIGTERM stops the server within a few
    seconds, and the waiting requests are answered 503."""
    with Served(tmp_path, "--max-client-connections", "3", base_url=site.url) as server:
        answers: list[int] = []

        def slow() -> None:
            r = requests.post(server.url + "report", data={"source": "999777"}, timeout=30)
            answers.append(r.status_code)

        threads = [threading.Thread(target=slow) for _ in range(3)]
        for t in threads:
            t.start()
        half = _connect(_port(server), "127.0.0.2")
        half.send(b"GET / HT")
        body = _connect(_port(server), "127.0.0.3")
        body.send(b"POST /report HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nsource=")
        time.sleep(0.5)
        fourth = _connect(_port(server))
        fourth.settimeout(5)
        head = fourth.recv(4096)
        fourth.close()
        assert head.startswith(b"HTTP/1.1 503 ") and b"too many connections" in head
        start = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=15)
        took = time.monotonic() - start
        for t in threads:
            t.join(timeout=10)
        half.close()
        body.close()
        assert took < 5, took
        assert answers == [503, 503, 503]
        assert "Traceback" not in server.log()


# ---------------------------------------------------------------- the pieces, in process

def test_requests_beyond_the_cap_are_answered_503_at_once():
    import asyncio

    from reports.web.limits import InFlight

    release = asyncio.Event()

    async def app(scope, receive, send):
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def ask(guarded):
        sent = []

        async def send(message):
            sent.append(message)

        await guarded({"type": "http", "method": "GET"}, None, send)
        return sent[0]["status"], dict(sent[0]["headers"])

    async def main():
        guarded = InFlight(app, 2)
        first = [asyncio.create_task(ask(guarded)) for _ in range(2)]
        await asyncio.sleep(0.01)
        status, headers = await asyncio.wait_for(ask(guarded), 1)  # not waiting for the two
        assert status == 503 and headers[b"retry-after"] == b"5"
        release.set()
        assert [s for s, _ in await asyncio.gather(*first)] == [200, 200]
        assert guarded.active == 0
        stopped = asyncio.create_task(ask(InFlight(lambda *a: asyncio.sleep(10), 2)))
        await asyncio.sleep(0.01)
        stopped.cancel()  # what uvicorn does to a request left when it stops
        assert (await stopped)[0] == 503

    asyncio.run(main())


def test_the_connection_cap_fits_the_open_files():
    from reports.web.limits import FD_RESERVE, Limits, file_limit

    assert Limits().fitted(100_000).connections == 1000
    assert Limits().fitted(1024).connections == 1024 - FD_RESERVE
    assert Limits(connections=50).fitted(1024).connections == 50
    assert Limits().fitted(10).connections == 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        assert file_limit() == min(hard, 65536) or hard == resource.RLIM_INFINITY
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_access_log_file_is_opened_again_when_logrotate_moves_it(tmp_path):
    from reports.web.access import Sink

    path = tmp_path / "access.log"
    sink = Sink(str(path))
    sink.write("one")
    path.rename(tmp_path / "access.log.1")
    sink.write("two")  # within the second: still the moved file
    sink.checked -= 2
    sink.write("three")
    sink.close()
    assert (tmp_path / "access.log.1").read_text() == "one\ntwo\n"
    assert path.read_text() == "three\n"
