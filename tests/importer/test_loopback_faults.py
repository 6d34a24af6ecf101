"""Retries, timeouts, broken bodies and redirects against a real socket (tests/support/loopback.py).

`responses` cannot exercise urllib3's retries, so these drive get_text and
fetch_tournament through the loopback chess-results double on 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import requests

from importer.errors import FetchError, NoSuchTournament
from importer.net.fetch import fetch_tournament
from importer.net.http import get_text, make_session
from importer.net.urls import Ref

pytestmark = pytest.mark.slow  # timeouts against a real socket


def _load_loopback() -> ModuleType:
    """tests/ is not on sys.path (--import-mode=importlib): load the double by its path."""
    if "loopback" not in sys.modules:
        spec = importlib.util.spec_from_file_location("loopback",
                                                      Path(__file__).parents[1] / "support" / "loopback.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["loopback"] = module
        spec.loader.exec_module(module)
    return sys.modules["loopback"]


loopback = _load_loopback()
Reply = loopback.Reply
TNR = "1452107"
PATH = f"/tnr{TNR}.aspx"


@pytest.fixture(autouse=True)
def _no_proxy_for_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proxy configured in the environment must not intercept 127.0.0.1."""
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(name, "127.0.0.1,localhost")


@pytest.fixture
def site() -> Iterator[Any]:
    with loopback.ChessResults() as double:
        yield double


@pytest.fixture
def session(site: Any) -> requests.Session:
    return make_session(cache=False, delay=0, timeout=2, base_url=site.url)


@pytest.fixture
def british(realdata: Path) -> dict[str, Path]:
    d = realdata / "chess-results"
    return {"start": d / "en_swiss_startingrank_art0_british2026.html",
            "cross": d / "british2026_champ_crosstable.html",
            "live": d / "british2026_champ_r9.html",
            "final": d / "en_swiss_crosstable_art5_final_british2026.html",
            "gated": d / "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html"}


def test_a_whole_import_through_the_double(site, session, british) -> None:
    site.page_file(TNR, art=0, path=british["start"])
    site.page_file(TNR, art=5, path=british["final"])
    site.page_file(TNR, art=2, path=british["live"], rd=9)
    pages = fetch_tournament(Ref(TNR), session)
    assert [p.status for p in pages] == [200, 200, 200]
    assert site.count(PATH) == 3
    assert site.count(PATH, art="2", rd="9") == 1
    assert all(r.query["zeilen"] == "99999" for r in site.requests)
    assert all(r.headers["User-Agent"].startswith("fiderate/") for r in site.requests)
    raw = british["final"].read_bytes()
    assert pages[1].text.encode("utf-8") == raw[raw.find(b"<"):]  # byte-exact, CRs kept


def test_503_then_429_then_200_is_retried(site, session, british) -> None:
    site.page_file(TNR, art=0, path=british["cross"])
    site.page(TNR, art=5, body=[Reply(503), Reply(429, headers={"Retry-After": "1"}),
                                Reply(200, british["final"].read_bytes())])
    start = time.monotonic()
    pages = fetch_tournament(Ref(TNR), session)
    elapsed = time.monotonic() - start
    assert site.count(PATH, art="5") == 3  # at most 3 tries for the page
    assert "Starting rank crosstable" in pages[1].text
    assert 1.0 <= elapsed < 5  # Retry-After: 1 honoured, no long backoff


def test_retries_are_bounded(site, session) -> None:
    site.page(TNR, art=0, body=Reply(503))
    with pytest.raises(FetchError, match=r"HTTP 503 .*after 4 tries"):
        get_text(session, f"{site.url}{PATH}?art=0")
    assert site.count(PATH) == 4  # 1 try + 3 retries, then give up


def test_long_retry_after_is_not_waited_for(site, session) -> None:
    site.page(TNR, art=0, body=Reply(429, headers={"Retry-After": "3600"}))
    start = time.monotonic()
    with pytest.raises(FetchError, match=r"HTTP 429 .*retry after 3600 s"):
        fetch_tournament(Ref(TNR), session)
    assert time.monotonic() - start < 2
    assert site.count(PATH) == 1


def test_stall_times_out_quickly(site) -> None:
    """A page that stalls for 20 s is read twice for 0.2 s (the session's read timeout), then
    given up: two short reads, far below two stalls."""
    session = make_session(cache=False, delay=0, timeout=0.2, base_url=site.url)
    site.page(TNR, art=0, body=Reply.stalled(20, "<html>late</html>"))
    start = time.monotonic()
    with pytest.raises(FetchError, match=r"timed out after 2 tries \(read timeout 0\.2 s\)") as info:
        fetch_tournament(Ref(TNR), session)
    elapsed = time.monotonic() - start
    assert elapsed < 5  # two 0.2-second reads; far below one 20-second stall
    assert site.count(PATH) == 2
    assert str(info.value).startswith(f"{site.url}{PATH}?")


def test_reset_mid_body_is_an_error_not_a_partial_page(site, session, british) -> None:
    site.page(TNR, art=0, body=Reply.reset(british["cross"].read_bytes()))
    with pytest.raises(FetchError, match="connection reset"):
        fetch_tournament(Ref(TNR), session)


def test_truncated_body_is_an_error_not_a_partial_page(site, session, british) -> None:
    site.page_file(TNR, art=0, path=british["cross"])
    site.page(TNR, art=5, body=Reply.truncated(british["final"].read_bytes()))
    with pytest.raises(FetchError, match="truncated body"):
        fetch_tournament(Ref(TNR), session)


def test_foreign_redirect_is_refused(site, session) -> None:
    site.page(TNR, art=0, body=Reply.redirect("http://evil.example/tnr1452107.aspx"))
    with pytest.raises(FetchError, match=r"refusing redirect to evil\.example"):
        fetch_tournament(Ref(TNR), session)
    assert site.count() == 1


def test_redirect_within_the_double_is_followed(site, session, british) -> None:
    site.page(TNR, art=0, body=Reply.redirect("/node2/tnr1452107.aspx?lan=1&art=0"))
    site.route("/node2/tnr1452107.aspx", british["cross"].read_bytes(), art="0")
    page = get_text(session, f"{site.url}{PATH}?lan=1&art=0")
    assert page.final_url == f"{site.url}/node2/tnr1452107.aspx?lan=1&art=0"


def test_unknown_tournament_is_no_such_tournament(site, session) -> None:
    with pytest.raises(NoSuchTournament, match="HTTP 404"):
        fetch_tournament(Ref("999"), session)
    assert site.count("/tnr999.aspx") == 1


def test_gate_postback_sends_the_hidden_fields(site, session, british) -> None:
    gated, frome = british["gated"].read_bytes(), "1393521"  # its form posts to art=5
    site.page(frome, art=0, body=gated, method="GET")
    site.page(frome, art=5, body=british["cross"].read_bytes(), method="POST")
    site.page(frome, art=5, body=gated, method="GET")
    pages = fetch_tournament(Ref(frome), session)
    posts = [r for r in site.requests if r.method == "POST"]
    assert len(posts) == 1
    assert posts[0].form["cb_alleDetails"] == "Show tournament details"
    assert posts[0].form["__VIEWSTATEGENERATOR"] == "D5991272"
    assert posts[0].form["__VIEWSTATE"].startswith("/wEPDwUKLTYyNDM3NzQz")
    assert posts[0].query == {"lan": "1", "art": "5", "flag": "30", "SNode": "S0"}
    assert "cb_alleDetails" not in pages[0].text
    assert site.count() == 3  # GET, POST, GET


def test_delay_applies_to_network_requests_only(site, british, tmp_path) -> None:
    site.page_file(TNR, art=0, path=british["cross"])
    site.page_file(TNR, art=5, path=british["final"])
    cache = str(tmp_path / "cache.sqlite")
    polite = make_session(delay=0.5, timeout=2, cache_path=cache, base_url=site.url)
    start = time.monotonic()
    fetch_tournament(Ref(TNR), polite)
    assert time.monotonic() - start >= 0.5  # two requests to one host: one delay between them
    again = make_session(delay=5, timeout=2, cache_path=cache, base_url=site.url)
    start = time.monotonic()
    pages = fetch_tournament(Ref(TNR), again)
    assert time.monotonic() - start < 4  # a 5 s delay was not applied: cache hits are free
    assert all(p.from_cache for p in pages)
    assert site.count() == 2


def test_stale_cache_is_used_when_the_server_fails(site, british, tmp_path) -> None:
    site.page(TNR, art=0, body=[Reply(200, british["start"].read_bytes()), Reply(503)])
    cache = str(tmp_path / "cache.sqlite")
    url = f"{site.url}{PATH}?lan=1&art=0"
    first = make_session(delay=0, retries=0, cache_path=cache, base_url=site.url)
    get_text(first, url, expire_after=1)
    time.sleep(1.1)
    page = get_text(make_session(delay=0, retries=0, cache_path=cache, base_url=site.url), url)
    assert page.from_cache
    assert site.count() == 2


def test_the_double_stops_promptly_even_while_stalling() -> None:
    double = loopback.ChessResults().start()
    double.route("/slow", Reply.stalled(60))
    session = make_session(cache=False, delay=0, timeout=0.5, retries=0, base_url=double.url)
    with pytest.raises(FetchError, match="timed out"):
        get_text(session, f"{double.url}/slow")
    start = time.monotonic()
    double.stop()
    assert time.monotonic() - start < 3


def test_connection_refused_is_retried_then_a_fetch_error() -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}{PATH}?lan=1&art=0"
        session = make_session(cache=False, delay=0, timeout=2, retries=1,
                               base_url=url.split("/tnr")[0])
        start = time.monotonic()
        with pytest.raises(FetchError, match=r"could not connect after 2 tries: .*refused") as e:
            get_text(session, url)
    assert time.monotonic() - start < 3
    assert "\n" not in str(e.value)
