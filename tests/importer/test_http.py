"""The session factory and get_text (importer.net.http), with `responses` (no network).

`responses` replaces the adapter's send, so retries are checked here as configuration only;
their behaviour is exercised against the loopback double in test_loopback_faults.py.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import requests
import responses
from responses import matchers

from importer.errors import FetchError, NoSuchTournament
from importer.net.http import (
    FINISHED_EXPIRY,
    LIVE_EXPIRY,
    PoliteAdapter,
    PoliteRetry,
    default_user_agent,
    get_text,
    keep_cached,
    make_session,
)

CR = "https://chess-results.com/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
S2 = "https://s2.chess-results.com/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
HTML = "<html><head><meta charset='utf-8'></head><body>Kälin ½</body></html>"


@pytest.fixture
def mock() -> responses.RequestsMock:
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


@pytest.fixture
def cached(tmp_path: Path) -> requests.Session:
    return make_session(delay=0, cache_path=str(tmp_path / "cache.sqlite"))


@pytest.fixture
def plain() -> requests.Session:
    return make_session(delay=0, cache=False)


def test_adapter_configuration() -> None:
    session = make_session(cache=False, timeout=7, delay=1.5, retries=3)
    for url in ("https://chess-results.com/", "http://127.0.0.1:8000/"):
        adapter = session.get_adapter(url)
        assert isinstance(adapter, PoliteAdapter)
        assert adapter.timeout == (5.0, 7)
        assert adapter.delay == 1.5
        retry = adapter.max_retries
        assert isinstance(retry, PoliteRetry)
        assert (retry.total, retry.connect, retry.read, retry.status) == (3, 3, 1, 3)
        assert retry.backoff_factor == 0.5
        assert set(retry.status_forcelist or ()) == {429, 500, 502, 503, 504}
        assert 404 not in (retry.status_forcelist or ())
        assert set(retry.allowed_methods or ()) == {"GET", "HEAD", "POST"}
        assert retry.respect_retry_after_header
        assert not retry.raise_on_status
        assert PoliteRetry.RETRY_AFTER_CAP == 30.0
    assert session.verify is True
    assert make_session(cache=False, timeout=2).get_adapter(CR).timeout == (2, 2)


def test_user_agent_is_honest_and_configurable() -> None:
    ua = make_session(cache=False).headers["User-Agent"]
    assert ua == default_user_agent()
    assert ua.startswith("fiderate/")
    assert ua.endswith("(+https://github.com/fiderate/fiderate)")
    assert make_session(cache=False, user_agent="me/1").headers["User-Agent"] == "me/1"


def test_cached_session_configuration(tmp_path: Path) -> None:
    from requests_cache import CachedSession

    session = make_session(cache_path=str(tmp_path / "c.sqlite"), base_url="http://127.0.0.1:1")
    assert isinstance(session, CachedSession)
    assert (tmp_path / "c.sqlite").exists()
    settings = session.settings
    assert set(settings.allowable_methods) == {"GET", "HEAD", "POST"}
    assert 200 in settings.allowable_codes
    assert 302 in settings.allowable_codes
    assert settings.stale_if_error
    assert settings.expire_after == LIVE_EXPIRY
    assert isinstance(session.get_adapter(CR), PoliteAdapter)
    assert session.fiderate_base_url == "http://127.0.0.1:1"  # type: ignore[attr-defined]
    assert "Cache-Control" not in session.headers
    assert not isinstance(make_session(cache=False), CachedSession)


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME is the Linux convention")
def test_default_cache_lives_in_the_user_cache_dir(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    session = make_session()
    assert Path(session.cache.db_path) == tmp_path / "fiderate" / "http.sqlite"  # type: ignore[attr-defined]


def test_importing_http_stays_light() -> None:
    code = "import sys, importer.net.http; print('requests_cache' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_get_text_decodes_and_records_provenance(mock: responses.RequestsMock,
                                                 plain: requests.Session) -> None:
    mock.get(CR, body=HTML.encode("utf-8"), content_type="text/html")
    page = get_text(plain, CR)
    assert "Kälin ½" in page.text
    assert (page.url, page.final_url, page.status, page.from_cache) == (CR, CR, 200, False)
    fetched = datetime.fromisoformat(page.fetched_at)
    assert abs(fetched - datetime.now(UTC)) < timedelta(minutes=1)
    assert mock.calls[0].request.headers["User-Agent"].startswith("fiderate/")


@pytest.mark.parametrize(
    ("body", "content_type", "expected"),
    [
        ("Kälin".encode("cp1252"), "text/html; charset=windows-1252", "Kälin"),
        (b"<meta charset=\"iso-8859-1\">K\xe4lin", "text/html", "Kälin"),
        ("\ufeffKälin".encode(), "text/html", "Kälin"),
        ("Kälin".encode(), "text/html; charset=nonsense-42", "Kälin"),
        (b"\xff\xfe" + "Kälin".encode("utf-16-le"), "text/html", "Kälin"),  # the BOM decides
        (b"\x81\x8d garbage", "application/octet-stream", " garbage"),  # never fails
    ],
)
def test_get_text_decoding(mock: responses.RequestsMock, plain: requests.Session, body: bytes,
                           content_type: str, expected: str) -> None:
    """Fetched pages are decoded as saved ones are (importer.parsing.decoding), the response's
    charset standing for the saved headers'."""
    mock.get(CR, body=body, content_type=content_type)
    assert get_text(plain, CR).text.endswith(expected)


def test_redirect_to_a_numbered_node_is_followed(mock: responses.RequestsMock,
                                                 plain: requests.Session) -> None:
    mock.get(CR, status=302, headers={"Location": S2})
    mock.get(S2, body=HTML)
    page = get_text(plain, CR)
    assert (page.url, page.final_url) == (CR, S2)
    assert len(mock.calls) == 2


def test_relative_redirect_on_the_same_host(mock: responses.RequestsMock) -> None:
    mock.get("http://127.0.0.1:9/tnr1.aspx", status=301, headers={"Location": "/tnr2.aspx"})
    mock.get("http://127.0.0.1:9/tnr2.aspx", body=HTML)
    mirrored = make_session(delay=0, cache=False, base_url="http://127.0.0.1:9")
    assert get_text(mirrored, "http://127.0.0.1:9/tnr1.aspx").final_url.endswith("/tnr2.aspx")


@pytest.mark.parametrize("location", ["https://evil.example/tnr1.aspx",
                                      "https://chess-results.com.evil.example/",
                                      "http://127.0.0.1:8000/tnr1452107.aspx"])
def test_redirect_to_another_host_is_refused(mock: responses.RequestsMock,
                                             plain: requests.Session, location: str) -> None:
    mock.get(CR, status=302, headers={"Location": location})
    with pytest.raises(FetchError, match="refusing redirect to") as info:
        get_text(plain, CR)
    assert info.value.status == 302
    assert len(mock.calls) == 1


def test_redirect_loop_is_bounded(mock: responses.RequestsMock, plain: requests.Session) -> None:
    mock.get(CR, status=302, headers={"Location": CR})
    with pytest.raises(FetchError, match="too many redirects"):
        get_text(plain, CR)
    assert len(mock.calls) == 6


def test_post_redirected_with_302_becomes_get(mock: responses.RequestsMock,
                                              plain: requests.Session) -> None:
    mock.post(CR, status=302, headers={"Location": S2},
              match=[matchers.urlencoded_params_matcher({"a": "1"})])
    mock.get(S2, body=HTML)
    assert get_text(plain, CR, method="POST", data={"a": "1"}).final_url == S2


def test_404_is_no_such_tournament(mock: responses.RequestsMock, plain: requests.Session) -> None:
    mock.get(CR, status=404, body="Not found")
    with pytest.raises(NoSuchTournament, match="no such tournament") as info:
        get_text(plain, CR)
    assert info.value.status == 404
    assert info.value.url == CR


@pytest.mark.parametrize("status", [403, 429, 500, 503])
def test_other_errors_are_fetch_errors(mock: responses.RequestsMock, plain: requests.Session,
                                       status: int) -> None:
    mock.get(CR, status=status, headers={"Retry-After": "120"})
    with pytest.raises(FetchError, match=f"HTTP {status}") as info:
        get_text(plain, CR)
    assert not isinstance(info.value, NoSuchTournament)
    assert "retry after 120 s" in str(info.value)
    assert "\n" not in str(info.value)


def test_connection_error_is_a_one_line_fetch_error(mock: responses.RequestsMock,
                                                    plain: requests.Session) -> None:
    mock.get(CR, body=requests.ConnectionError("boom"))
    with pytest.raises(FetchError, match="request failed") as info:
        get_text(plain, CR)
    assert isinstance(info.value.__cause__, requests.ConnectionError)


def test_cache_hit_makes_no_request(mock: responses.RequestsMock,
                                    cached: requests.Session) -> None:
    mock.get(CR, status=302, headers={"Location": S2})
    mock.get(S2, body=HTML)
    first = get_text(cached, CR)
    again = get_text(cached, CR)
    assert len(mock.calls) == 2
    assert not first.from_cache
    assert again.from_cache
    assert again.text == first.text
    assert again.final_url == S2
    assert again.fetched_at == first.fetched_at


def test_post_is_cached_by_body(mock: responses.RequestsMock, cached: requests.Session) -> None:
    mock.post(CR, body=HTML, match=[matchers.urlencoded_params_matcher({"v": "1"})])
    mock.post(CR, body="other", match=[matchers.urlencoded_params_matcher({"v": "2"})])
    assert get_text(cached, CR, method="POST", data={"v": "1"}).text == HTML
    assert get_text(cached, CR, method="POST", data={"v": "1"}).from_cache
    assert get_text(cached, CR, method="POST", data={"v": "2"}).text == "other"
    assert len(mock.calls) == 2


def test_refresh_refetches(mock: responses.RequestsMock, tmp_path: Path) -> None:
    path = str(tmp_path / "cache.sqlite")
    mock.get(CR, body="old")
    mock.get(CR, body="new")
    assert get_text(make_session(delay=0, cache_path=path), CR).text == "old"
    fresh = make_session(delay=0, cache_path=path, refresh=True)
    page = get_text(fresh, CR, expire_after=FINISHED_EXPIRY)
    assert (page.text, page.from_cache) == ("new", False)
    assert get_text(make_session(delay=0, cache_path=path), CR).text == "new"
    assert len(mock.calls) == 2


def test_expiry_per_page_and_keep_cached(mock: responses.RequestsMock,
                                         cached: requests.Session) -> None:
    mock.get(CR, status=302, headers={"Location": S2})
    mock.get(S2, body=HTML)
    page = get_text(cached, CR)
    assert len(page.cache_keys) == 2

    def lifetimes() -> list[float]:
        now = datetime.now(UTC)
        return [(cached.cache.get_response(k).expires - now).total_seconds()  # type: ignore[attr-defined]
                for k in page.cache_keys]

    assert all(LIVE_EXPIRY - 60 < s <= LIVE_EXPIRY for s in lifetimes())
    keep_cached(cached, page, FINISHED_EXPIRY)
    assert all(FINISHED_EXPIRY - 60 < s <= FINISHED_EXPIRY for s in lifetimes())
    assert get_text(cached, CR).from_cache
    keep_cached(make_session(cache=False), page, FINISHED_EXPIRY)  # no cache: nothing to do
