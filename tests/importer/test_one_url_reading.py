"""One URL reading: the host check and the connection read every URL the same way.

``http://127.0.0.1:PORT\\@chess-results.com/`` named chess-results to the standard library's
``urlsplit`` (the old check) while urllib3 connected to 127.0.0.1:PORT.  Every such URL is now
refused before any connection — typed, redirected to, or a gate form's action — and a trap
listener on 127.0.0.1 (a socket each test opens) sees no connection at all.
"""

from __future__ import annotations

import select
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import responses
from loopback import ChessResults, Reply

from importer.errors import FetchError
from importer.net.fetch import fetch_tournament
from importer.net.http import RefusedAddress, get_text, make_session
from importer.net.urls import Ref, is_allowed_host, parse_ref, read_origin

TNR = "1452107"
PATH = f"/tnr{TNR}.aspx"


@pytest.fixture(autouse=True)
def _no_proxy_for_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")


class Trap:
    """A listening socket on 127.0.0.1 that must never be connected to."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]

    def connections(self, wait: float = 0.02) -> int:
        """How many connections are waiting to be accepted.  A connection is in the backlog as
        soon as connect() returns, before any request is sent, so no long wait is needed."""
        count = 0
        self.sock.setblocking(False)
        while select.select([self.sock], [], [], wait if count == 0 else 0)[0]:
            conn, _ = self.sock.accept()
            conn.close()
            count += 1
        return count


@pytest.fixture
def trap() -> Iterator[Trap]:
    t = Trap()
    try:
        yield t
    finally:
        t.sock.close()


@pytest.fixture
def site() -> Iterator[Any]:
    with ChessResults() as double:
        yield double


def tricky(port: int, base_port: int | None = None) -> list[str]:
    """URLs that a lax reading takes for chess-results (or the mirror on ``base_port``) while
    a connection made from them would go to 127.0.0.1:``port``."""
    other = f"127.0.0.1:{base_port}" if base_port else "chess-results.com"
    return [
        f"http://127.0.0.1:{port}\\@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}\\\\@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}%5C@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}%5c@{other}/tnr1.aspx",
        f"http://{other}@127.0.0.1:{port}/tnr1.aspx",
        f"http://user:pw@127.0.0.1:{port}/tnr1.aspx",
        f"http://user@{other}/tnr1.aspx",
        f"http://user:pw@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}\t@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}\n@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}\r\n@{other}/tnr1.aspx",
        f"http://{other}\t@127.0.0.1:{port}/tnr1.aspx",
        f"http://127.0.0.1:{port} @{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}\\{other}/tnr1.aspx",
        f"http://{other}\\@127.0.0.1:{port}/",
        f"http://127.0.0.1:{port}\uff3c@{other}/tnr1.aspx",  # a fullwidth backslash
        f"http://127.0.0.1:{port}/\\@{other}/tnr1.aspx",
        f"http://127.0.0.1:{port}/tnr1.aspx",
        f"http://[::ffff:127.0.0.1]:{port}/tnr1.aspx",
        f"http://[::1]:{port}/tnr1.aspx",
        f"http://0x7f000001:{port}/tnr1.aspx",
        f"http://2130706433:{port}/tnr1.aspx",
        f"http://chess-results.com:{port}/tnr1.aspx",
        f"https://s2.chess-results.com:{port}/tnr1.aspx",
        "http://chess-results.com:0/tnr1.aspx",
        f"http://localhost:{port}/tnr1.aspx",
    ]


TRICKY_COUNT = len(tricky(1))


@pytest.mark.parametrize("i", range(TRICKY_COUNT))
def test_a_tricky_url_is_refused_at_the_first_hop(trap: Trap, i: int) -> None:
    url = tricky(trap.port)[i]
    session = make_session(cache=False, delay=0, timeout=1, retries=0)
    with pytest.raises(FetchError, match="refusing to fetch") as info:
        get_text(session, url)
    assert "\n" not in str(info.value) and "\r" not in str(info.value)
    assert not is_allowed_host(url, None)
    assert parse_ref(url) is None
    assert trap.connections() == 0


@pytest.mark.parametrize("i", range(TRICKY_COUNT))
def test_a_tricky_url_on_the_mirror_is_refused(site: Any, trap: Trap, i: int) -> None:
    """With a ``--base-url`` double, only its own origin is allowed: a URL that names the
    double to one reading and the trap to the other is refused."""
    url = tricky(trap.port, base_port=int(site.url.rsplit(":", 1)[1]))[i]
    session = make_session(cache=False, delay=0, timeout=1, retries=0, base_url=site.url)
    with pytest.raises(FetchError, match="refusing to fetch"):
        get_text(session, url)
    assert trap.connections() == 0
    assert site.count() == 0


@pytest.mark.parametrize("i", range(TRICKY_COUNT))
def test_a_redirect_to_a_tricky_url_is_refused(site: Any, trap: Trap, i: int) -> None:
    # headers hold no line ends, and their bytes arrive as Latin-1: send UTF-8 as it would come
    location = tricky(trap.port)[i].replace("\r", "").replace("\n", "")
    location = location.encode("utf-8").decode("latin-1")
    site.page(TNR, art=0, body=Reply.redirect(location))
    session = make_session(cache=False, delay=0, timeout=1, retries=0, base_url=site.url)
    with pytest.raises(FetchError, match="refusing redirect to") as info:
        fetch_tournament(Ref(TNR), session)
    assert "\n" not in str(info.value)
    assert info.value.status == 302
    assert trap.connections() == 0
    assert site.count() == 1


def test_the_old_lax_reading_is_gone(site: Any, trap: Trap) -> None:
    """The URL of the issue: it names the mirror to urlsplit, and the trap to urllib3."""
    base_port = int(site.url.rsplit(":", 1)[1])
    url = f"http://127.0.0.1:{trap.port}\\@127.0.0.1:{base_port}{PATH}?art=0"
    assert read_origin(url) is None
    assert not is_allowed_host(url, site.url)
    session = make_session(cache=False, delay=0, timeout=1, retries=0, base_url=site.url)
    for attempt in (lambda: get_text(session, url), lambda: session.get(url)):
        with pytest.raises((FetchError, RefusedAddress)):
            attempt()
    assert trap.connections() == 0


def test_the_adapter_refuses_before_connecting(trap: Trap) -> None:
    """Whatever reaches the session directly (not through get_text) is checked again on the
    prepared request's URL, the one the connection is made from."""
    session = make_session(cache=False, delay=0, timeout=1, retries=0)
    checked = 0
    for url in tricky(trap.port):
        try:
            prepared = requests.Request("GET", url).prepare()
        except (requests.exceptions.InvalidURL, UnicodeError):
            continue  # requests itself will not send it
        if is_allowed_host(prepared.url or "", None):
            continue  # prepared, it is a chess-results URL (get_text refuses it as typed)
        with pytest.raises(RefusedAddress, match="refusing to connect to"):
            session.get(url)
        checked += 1
    assert checked >= TRICKY_COUNT - 6
    assert trap.connections() == 0


def test_the_gate_postback_to_a_tricky_action_is_not_sent(trap: Trap, realdata: Path) -> None:
    d = realdata / "chess-results"
    gated = (d / "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html"
             ).read_text(encoding="utf-8")
    action = "./tnr1393521.aspx?lan=1&amp;art=5&amp;flag=30&amp;SNode=S0"
    assert action in gated
    for form in ("http://127.0.0.1:{trap}\\@{mirror}/tnr1393521.aspx?art=5",
                 "http://127.0.0.1:{trap}/tnr1393521.aspx?art=5",
                 "http://x@{mirror}/tnr1393521.aspx?art=5",
                 "http://{mirror}%5C@127.0.0.1:{trap}/tnr1393521.aspx?art=5"):
        with ChessResults() as double:
            mirror = double.url.removeprefix("http://")
            page = gated.replace(action, form.format(trap=trap.port, mirror=mirror))
            double.page("1393521", art=0, body=page)
            double.page("1393521", art=5, body=page)
            session = make_session(cache=False, delay=0, timeout=1, retries=0,
                                   base_url=double.url)
            fetch_tournament(Ref("1393521"), session)  # the gated page is kept as it is
            assert [r.method for r in double.requests] == ["GET", "GET"], form
    assert trap.connections() == 0


def test_the_gate_postback_never_leaves_https(mock: responses.RequestsMock,
                                              realdata: Path) -> None:
    d = realdata / "chess-results"
    gated = (d / "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html"
             ).read_text(encoding="utf-8").replace(
        "./tnr1393521.aspx?lan=1&amp;art=5", "http://chess-results.com/tnr1393521.aspx?lan=1&amp;art=5")
    mock.get("https://chess-results.com/tnr1393521.aspx", body=gated)
    fetch_tournament(Ref("1393521"), make_session(cache=False, delay=0))
    assert [c.request.method for c in mock.calls] == ["GET", "GET"]
    assert all(c.request.url.startswith("https://") for c in mock.calls)


@pytest.fixture
def mock() -> Iterator[responses.RequestsMock]:
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


CR = "https://chess-results.com/tnr1452107.aspx?lan=1&art=0"


def test_https_is_never_left_for_http(mock: responses.RequestsMock) -> None:
    mock.get(CR, status=302, headers={"Location": "http://s2.chess-results.com/tnr1.aspx"})
    session = make_session(cache=False, delay=0)
    with pytest.raises(FetchError, match=r"refusing redirect to s2\.chess-results\.com "
                                         r"\(from https to http\)"):
        get_text(session, CR)
    assert len(mock.calls) == 1


def test_http_may_go_to_https(mock: responses.RequestsMock) -> None:
    plain = CR.replace("https:", "http:")
    mock.get(plain, status=301, headers={"Location": CR})
    mock.get(CR, body="<html>ok</html>")
    page = get_text(make_session(cache=False, delay=0), plain)
    assert page.final_url == CR


def test_ordinary_urls_are_sent_as_given(mock: responses.RequestsMock) -> None:
    """The reading changes nothing for the URLs fiderate builds (lower-case host, default port)."""
    url = "https://S2.chess-results.com:443/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
    sent = "https://s2.chess-results.com:443/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
    mock.get(sent, body="<html>ok</html>")
    page = get_text(make_session(cache=False, delay=0), url)
    assert (page.url, page.final_url) == (url, sent)
