"""The fetch plan (importer.net.fetch) with `responses`: which pages, in which order, how many.

Bodies are the real pages in ../shared/realdata/chess-results (via the `realdata` fixture).
Every mocked URL is matched with its full query, so `lan=1&…&turdet=YES&zeilen=99999` is checked
on every request.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
import responses
from responses import matchers

from importer.errors import FetchError, InputError, NoSuchTournament
from importer.net.fetch import PageFacts, fetch_tournament, gate_form, page_facts
from importer.net.http import FINISHED_EXPIRY, LIVE_EXPIRY, make_session
from importer.net.urls import Ref

CR = "https://chess-results.com"
S2 = "https://s2.chess-results.com"


@pytest.fixture
def pages(realdata: Path) -> Path:
    return realdata / "chess-results"


@pytest.fixture
def mock() -> responses.RequestsMock:
    with responses.RequestsMock(assert_all_requests_are_fired=True) as rsps:
        yield rsps


@pytest.fixture
def plain() -> requests.Session:
    return make_session(delay=0, cache=False)


def body(pages: Path, name: str) -> bytes:
    raw = (pages / name).read_bytes()
    return raw[raw.find(b"<"):]


def serve(mock: responses.RequestsMock, tnr: str, art: int, content: bytes | str, *,
          root: str = CR, method: str = "GET", **extra: int) -> None:
    """Mock one view, matching its complete query (strict)."""
    query = {"lan": "1", "art": str(art), **{k: str(v) for k, v in extra.items()},
             "turdet": "YES", "zeilen": "99999"}
    mock.add(method, f"{root}/tnr{tnr}.aspx", body=content, content_type="text/html",
             match=[matchers.query_param_matcher(query)])


def arts(mock: responses.RequestsMock) -> list[tuple[str, str]]:
    out = []
    for call in mock.calls:
        query = parse_qs(urlsplit(call.request.url).query)
        assert query["zeilen"] == ["99999"]
        assert query["lan"] == ["1"]
        out.append((call.request.method, query["art"][0]))
    return out


def test_finished_swiss_takes_two_pages(mock: responses.RequestsMock, plain: requests.Session,
                                        pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"))
    serve(mock, "1452107", 5, body(pages, "en_swiss_crosstable_art5_final_british2026.html"))
    got = fetch_tournament(Ref("1452107"), plain)
    assert arts(mock) == [("GET", "0"), ("GET", "5")]
    assert [p.status for p in got] == [200, 200]
    assert "Starting rank crosstable" in got[1].text


def test_running_swiss_adds_the_live_round(mock: responses.RequestsMock, plain: requests.Session,
                                           pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, body(pages, "en_swiss_crosstable_art5_final_british2026.html"))
    serve(mock, "1452107", 2, body(pages, "british2026_champ_r9.html"), rd=9)
    seen: list[str] = []
    got = fetch_tournament(Ref("1452107"), plain, progress=seen.append)
    assert arts(mock) == [("GET", "0"), ("GET", "5"), ("GET", "2")]
    assert len(got) == 3
    assert seen == [p.url for p in got]


def test_running_swiss_between_rounds_takes_two_pages(mock: responses.RequestsMock,
                                                       plain: requests.Session,
                                                       pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, body(pages, "british2026_champ_crosstable.html"))
    assert len(fetch_tournament(Ref("1452107"), plain)) == 2


def test_unparseable_crosstable_takes_no_extra_page(mock: responses.RequestsMock,
                                                    plain: requests.Session,
                                                    pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, "\x00\x01 garbage, not a page")
    got = fetch_tournament(Ref("1452107"), plain)
    assert got[1].text == "\x00\x01 garbage, not a page"  # left to the parser


def test_round_robin_adds_the_all_rounds_pairings(mock: responses.RequestsMock,
                                                  plain: requests.Session, pages: Path) -> None:
    serve(mock, "1471902", 0, body(pages, "ussa2026_roundrobin_startingrank.html"))
    serve(mock, "1471902", 5, body(pages, "en_roundrobin_crosstable_art5_ussa2026.html"))
    serve(mock, "1471902", 2, body(pages, "en_roundrobin_pairings_art2_allrounds_ussa2026.html"))
    assert len(fetch_tournament(Ref("1471902"), plain)) == 3
    assert arts(mock) == [("GET", "0"), ("GET", "5"), ("GET", "2")]


def test_team_event_takes_art20_instead_of_a_crosstable(mock: responses.RequestsMock,
                                                        plain: requests.Session,
                                                        pages: Path) -> None:
    serve(mock, "1472122", 0, body(pages, "en_team_pairings_art2_rd1_cnyt2026.html"))
    serve(mock, "1472122", 20, body(pages, "de_team_roundrobin_all_details_art20_tmm2026.html"))
    assert len(fetch_tournament(Ref("1472122", snr=3, art=9), plain)) == 2
    assert arts(mock) == [("GET", "0"), ("GET", "20")]


def test_player_card_takes_the_third_slot(mock: responses.RequestsMock, plain: requests.Session,
                                          pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, body(pages, "british2026_champ_crosstable.html"))
    serve(mock, "1452107", 9, body(pages, "ru_player_details_art9_2020.html"), snr=81)
    got = fetch_tournament(Ref("1452107", snr=81, art=9), plain)
    assert arts(mock) == [("GET", "0"), ("GET", "5"), ("GET", "9")]
    assert "snr=81" in got[2].url


def test_old_tournament_passes_the_gate_with_its_hidden_fields(
        mock: responses.RequestsMock, plain: requests.Session, pages: Path) -> None:
    gated = body(pages, "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html")
    form = gate_form(gated.decode("utf-8"), f"{S2}/tnr1393521.aspx?lan=1&art=0")
    assert form is not None
    assert set(form.fields) == {"__VIEWSTATE", "__VIEWSTATEGENERATOR", "__EVENTVALIDATION",
                                "cb_alleDetails"}
    assert form.fields["cb_alleDetails"] == "Show tournament details"
    assert form.fields["__VIEWSTATEGENERATOR"] == "D5991272"
    assert form.action == f"{S2}/tnr1393521.aspx?lan=1&art=5&flag=30&SNode=S0"

    mock.get(f"{CR}/tnr1393521.aspx", status=302,
             headers={"Location": f"{S2}/tnr1393521.aspx?lan=1&art=0&turdet=YES&zeilen=99999"})
    serve(mock, "1393521", 0, gated, root=S2)
    mock.post(f"{S2}/tnr1393521.aspx", body=body(pages, "british2026_champ_crosstable.html"),
              match=[matchers.urlencoded_params_matcher(form.fields),
                     matchers.query_param_matcher({"lan": "1", "art": "5", "flag": "30",
                                                   "SNode": "S0"})])
    serve(mock, "1393521", 5, gated, root=S2)
    got = fetch_tournament(Ref("1393521"), plain)
    assert [c.request.method for c in mock.calls] == ["GET", "GET", "POST", "GET"]
    assert [p.url.split("?")[0] for p in got] == [f"{S2}/tnr1393521.aspx"] * 2
    assert not page_facts(got[0].text).has_gate


def test_later_pages_go_straight_to_the_node(mock: responses.RequestsMock,
                                             plain: requests.Session, pages: Path) -> None:
    start = f"{CR}/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
    mock.get(start, status=302, headers={"Location": start.replace(CR, S2)},
             match=[matchers.query_param_matcher({"lan": "1", "art": "0", "turdet": "YES",
                                                  "zeilen": "99999"})])
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"), root=S2)
    serve(mock, "1452107", 5, body(pages, "british2026_champ_crosstable.html"), root=S2)
    got = fetch_tournament(Ref("1452107"), plain)
    assert [urlsplit(c.request.url).hostname for c in mock.calls] == [
        "chess-results.com", "s2.chess-results.com", "s2.chess-results.com"]
    assert got[0].url.startswith(CR)
    assert got[0].final_url.startswith(S2)


def test_a_ref_on_a_node_is_fetched_from_that_node(mock: responses.RequestsMock,
                                                   plain: requests.Session, pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"), root=S2)
    serve(mock, "1452107", 5, body(pages, "british2026_champ_crosstable.html"), root=S2)
    fetch_tournament(Ref("1452107", host="s2.chess-results.com"), plain)


def test_base_url_builds_every_url_on_the_mirror(mock: responses.RequestsMock,
                                                 pages: Path) -> None:
    base = "http://127.0.0.1:8765"
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"), root=base)
    serve(mock, "1452107", 5, body(pages, "british2026_champ_crosstable.html"), root=base)
    session = make_session(delay=0, cache=False, base_url=base)
    assert all(p.url.startswith(base) for p in fetch_tournament(Ref("1452107"), session))


def test_cached_reimport_makes_no_request(mock: responses.RequestsMock, tmp_path: Path,
                                          pages: Path) -> None:
    start = f"{CR}/tnr1452107.aspx?lan=1&art=0&turdet=YES&zeilen=99999"
    mock.get(start, status=302, headers={"Location": start.replace(CR, S2)})
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"), root=S2)
    serve(mock, "1452107", 5, body(pages, "en_swiss_crosstable_art5_final_british2026.html"),
          root=S2)
    path = str(tmp_path / "cache.sqlite")
    first = fetch_tournament(Ref("1452107"), make_session(delay=0, cache_path=path))
    assert len(mock.calls) == 3
    session = make_session(delay=0, cache_path=path)
    again = fetch_tournament(Ref("1452107"), session)
    assert len(mock.calls) == 3
    assert all(p.from_cache for p in again)
    assert [p.text for p in again] == [p.text for p in first]
    now = datetime.now(UTC)
    lifetimes = [(r.expires - now).total_seconds() for r in session.cache.responses.values()]
    assert len(lifetimes) == 3
    assert all(FINISHED_EXPIRY - 120 < s <= FINISHED_EXPIRY for s in lifetimes)


def test_running_tournament_is_cached_briefly(mock: responses.RequestsMock, tmp_path: Path,
                                              pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, body(pages, "en_swiss_crosstable_art5_final_british2026.html"))
    serve(mock, "1452107", 2, body(pages, "british2026_champ_r9.html"), rd=9)
    session = make_session(delay=0, cache_path=str(tmp_path / "cache.sqlite"))
    fetch_tournament(Ref("1452107"), session)
    now = datetime.now(UTC)
    lifetimes = [(r.expires - now).total_seconds() for r in session.cache.responses.values()]
    assert len(lifetimes) == 3
    assert all(LIVE_EXPIRY - 60 < s <= LIVE_EXPIRY for s in lifetimes)


def test_404_is_no_such_tournament(mock: responses.RequestsMock,
                                   plain: requests.Session) -> None:
    serve(mock, "999999999", 0, "")
    mock.replace(responses.GET, f"{CR}/tnr999999999.aspx", status=404, body="Not found")
    with pytest.raises(NoSuchTournament, match="no such tournament"):
        fetch_tournament(Ref("999999999"), plain)
    assert len(mock.calls) == 1


def test_record_not_found_page_is_no_such_tournament(mock: responses.RequestsMock,
                                                     plain: requests.Session) -> None:
    page = ("<html><head><title>Chess-Results Server Chess-results.com - Base de dados de "
            "torneio</title></head><body><div>Record not found</div></body></html>")
    serve(mock, "12", 0, page)
    with pytest.raises(NoSuchTournament, match="Record not found"):
        fetch_tournament(Ref("12"), plain)


def test_failures_surface_as_fetch_errors(mock: responses.RequestsMock, plain: requests.Session,
                                          pages: Path) -> None:
    serve(mock, "1452107", 0, body(pages, "british2026_champ_crosstable.html"))
    mock.get(f"{CR}/tnr1452107.aspx", status=503,
             match=[matchers.query_param_matcher({"art": "5"}, strict_match=False)])
    with pytest.raises(FetchError, match="HTTP 503"):
        fetch_tournament(Ref("1452107"), plain)


def test_page_facts_on_real_pages(pages: Path) -> None:
    def facts(name: str) -> PageFacts:
        return page_facts(body(pages, name).decode("utf-8"))

    british = facts("british2026_champ_crosstable.html")
    assert (british.is_team_event, british.is_round_robin, british.has_gate) == (False,) * 3
    assert str(british.end_date) == "2026-08-09"
    assert facts("ussa2026_roundrobin_startingrank.html").is_round_robin
    assert facts("warsaw2026_notstarted_startingrank.html").is_round_robin
    assert facts("cnyt2026_g14_playerrank.html").is_team_event
    assert facts("de_team_roundrobin_all_details_art20_tmm2026.html").is_team_event
    old = facts("frome2026_standard_crosstable.html")
    assert old.has_gate
    assert old.finished(datetime.now(UTC).date())
    assert page_facts("") == page_facts("\x00 not html")
    row = "<table><tr><td>Date</td><td>2026/13/45 to 31.12.2026</td></tr></table>"
    assert page_facts(row) == PageFacts()  # no chess-results page: the reader states nothing
    odd = ("<html><body><!-- https://chess-results.com/tnr1.aspx?lan=1&art=0 -->"
           f'<div class="defaultDialog"><h2>Odd Open</h2>{row}</div>'
           '<p class="CRsmall">Chess-Results</p></body></html>')
    assert str(page_facts(odd).end_date) == "2026-12-31"  # 2026/13/45 is no date
    german = facts("de_team_roundrobin_all_details_art20_tmm2026.html")  # 'Datum' read too
    assert german.end_date is not None and german.finished(german.end_date.replace(year=9999))
    assert gate_form(body(pages, "british2026_champ_crosstable.html").decode("utf-8"), CR) is None


def test_cached_reimport_of_an_old_tournament_makes_no_request(
        mock: responses.RequestsMock, tmp_path: Path, pages: Path) -> None:
    gated = body(pages, "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html")
    serve(mock, "1393521", 0, gated)
    mock.post(f"{CR}/tnr1393521.aspx", body=body(pages, "british2026_champ_crosstable.html"))
    serve(mock, "1393521", 5, gated)
    path = str(tmp_path / "cache.sqlite")
    fetch_tournament(Ref("1393521"), make_session(delay=0, cache_path=path))
    assert len(mock.calls) == 3
    session = make_session(delay=0, cache_path=path)
    again = fetch_tournament(Ref("1393521"), session)
    assert len(mock.calls) == 3
    assert all(p.from_cache for p in again)
    now = datetime.now(UTC)
    lifetimes = [(r.expires - now).total_seconds() for r in session.cache.responses.values()]
    assert len(lifetimes) == 3
    assert all(FINISHED_EXPIRY - 120 < s <= FINISHED_EXPIRY for s in lifetimes)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Count every HTML parse, every document load and every page read, by page source."""
    import lxml.etree

    import importer.formats.chessresults.parse as parse_module
    import importer.net.fetch as fetch_module

    seen: dict[str, list[str]] = {"html": [], "load": [], "read": []}
    real_fromstring = lxml.etree.fromstring
    real_load, real_read = parse_module.load_document, parse_module.parse_document

    def fromstring(*args, **kwargs):
        seen["html"].append("")
        return real_fromstring(*args, **kwargs)

    def load(text: str, *, source: str = ""):
        seen["load"].append(source)
        return real_load(text, source=source)

    def read(doc):
        seen["read"].append(doc.source)
        return real_read(doc)

    monkeypatch.setattr(lxml.etree, "fromstring", fromstring)
    for module in (parse_module, fetch_module):
        monkeypatch.setattr(module, "load_document", load)
        monkeypatch.setattr(module, "parse_document", read)
    return seen


def test_each_fetched_page_is_parsed_once(mock: responses.RequestsMock, plain: requests.Session,
                                          pages: Path, counted: dict[str, list[str]]) -> None:
    import importer

    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, body(pages, "en_swiss_crosstable_art5_final_british2026.html"))
    serve(mock, "1452107", 2, body(pages, "british2026_champ_r9.html"), rd=9)
    t = importer.load(f"{CR}/tnr1452107.aspx", session=plain)
    urls = [p.final_url for p in t.provenance]
    assert len(urls) == 3 and len(set(urls)) == 3
    assert counted["load"] == urls  # one load per fetched page, in plan order
    assert counted["read"] == urls  # one read per fetched page, none again for the import
    assert len(counted["html"]) == 3  # one lxml parse per page: no sniffing parse beside it
    assert len(t.players) == 108


def test_the_fetched_pages_carry_their_parse(mock: responses.RequestsMock,
                                             plain: requests.Session, pages: Path,
                                             counted: dict[str, list[str]]) -> None:
    serve(mock, "1471902", 0, body(pages, "ussa2026_roundrobin_startingrank.html"))
    serve(mock, "1471902", 5, body(pages, "en_roundrobin_crosstable_art5_ussa2026.html"))
    serve(mock, "1471902", 2, body(pages, "en_roundrobin_pairings_art2_allrounds_ussa2026.html"))
    got = fetch_tournament(Ref("1471902"), plain)
    assert [p.parsed().kind for p in got] == ["starting_rank", "crosstable_rr", "pairings_rr"]
    assert all(p.error is None for p in got)
    assert counted["read"] == [p.final_url for p in got]


def test_a_gated_page_is_loaded_once_and_not_read(mock: responses.RequestsMock,
                                                  plain: requests.Session, pages: Path,
                                                  counted: dict[str, list[str]]) -> None:
    gated = body(pages, "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html")
    serve(mock, "1393521", 0, gated)
    mock.post(f"{CR}/tnr1393521.aspx", body=body(pages, "british2026_champ_crosstable.html"))
    serve(mock, "1393521", 5, gated)
    got = fetch_tournament(Ref("1393521"), plain)
    assert len(counted["load"]) == 3  # the gated page, the postback's answer, the crosstable
    assert len(counted["html"]) == 3  # the gate form is read from the same parse
    assert counted["read"] == [p.final_url for p in got]  # the gated page is replaced unread


def test_an_unreadable_page_carries_its_error(mock: responses.RequestsMock,
                                              plain: requests.Session, pages: Path) -> None:
    import importer

    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, "\x00\x01 garbage, not a page")
    got = fetch_tournament(Ref("1452107"), plain)
    assert got[0].error is None and got[0].page is not None
    assert got[1].page is None and isinstance(got[1].error, InputError)
    with pytest.raises(InputError, match="binary data"):
        got[1].parsed()
    serve(mock, "1452107", 0, body(pages, "en_swiss_startingrank_art0_british2026.html"))
    serve(mock, "1452107", 5, "\x00\x01 garbage, not a page")
    with pytest.raises(InputError, match=r"tnr1452107\.aspx\?.*art=5.*: binary data"):
        importer.load(f"{CR}/tnr1452107.aspx", session=plain)
