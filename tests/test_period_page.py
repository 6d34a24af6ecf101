"""period.html as a rating officer reads it: headers in words, signs, status in words, links to
each tournament's report, and per player FIDE's per-tournament lines (Ro, Rc, W, N, chg, K,
K × chg) and the workings of a first rating — checked against the worked example of
fixtures/period/README.md."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag

import importer
from importer.fidelist import read_fide_list
from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.period import rate_period
from rating.period_records import PeriodGames, PeriodStatus, Pool
from rating.period_run import PeriodSource, run_period
from reports.period_report import sections, write_period_files

PERIOD = Path(__file__).resolve().parent.parent / "fixtures" / "period"
EVENTS = ("elite_nov2025.trf", "halloween_weekender.trf", "newcomers_nov2025.trf",
          "late_november.trf")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's December 2025, written as ``fiderate period`` writes it."""
    month = [PeriodSource(tournament=importer.load(PERIOD / e), source=e) for e in EVENTS]
    fide_list = read_fide_list(PERIOD / "players_list_foa_nov25.txt")
    result = run_period(month, period=date(2025, 12, 1), ratings_list=fide_list,
                        today=date(2025, 12, 5))
    folder = tmp_path_factory.mktemp("dec")
    write_period_files(result, folder, ratings_list=fide_list)
    return folder


@pytest.fixture(scope="module")
def page(out: Path) -> BeautifulSoup:
    return BeautifulSoup((out / "period.html").read_text(encoding="utf-8"), "lxml")


def cells(row: Tag) -> list[str]:
    return [c.get_text(" ", strip=True) for c in row.find_all(["th", "td"])]


def section(page: BeautifulSoup, name: str) -> Tag:
    found = [s for s in page.select("section.player") if s.h3 and s.h3.get_text().startswith(name)]
    assert len(found) == 1, name
    return found[0]


def lines(sec: Tag) -> list[list[str]]:
    """The rows of a player's calculation table (tournament lines, game lines, the period)."""
    table = sec.select_one("table.calc")
    assert table is not None
    return [cells(tr) for tr in table.select("tbody tr")]


def test_headers_are_words(page: BeautifulSoup) -> None:
    assert cells(page.select_one("#players thead tr")) == [
        "Name", "FIDE ID", "List", "Old rating", "K", "Games", "Change", "Rounded", "New rating",
        "Status"]
    assert cells(page.select_one("#tournaments thead tr")) == [
        "Tournament", "Id", "Dates", "List", "Rules", "Ratings used", "Players"]
    text = page.get_text(" ")
    for raw in ("fide_id", "old_rating", "rounded_change", "new_rating", "newly_rated",
                "dropped_below_floor", "ratings_from"):
        assert raw not in text, raw


def test_players_table_signs_status_and_first_ratings(page: BeautifulSoup) -> None:
    rows = {r[0]: r for r in map(cells, page.select("#players tbody tr"))}
    assert len(rows) == 19
    assert rows["Egan, Dev"] == ["Egan, Dev", "99200005", "standard", "2400", "10", "1", "+4.20",
                                 "+4", "2404", "rated"]
    assert rows["Arkell, Magnus"][6:9] == ["-2.50", "-3", "2810"]
    # A first rating never reads "games 0": the pooled games are counted and named.
    assert rows["Ulm, Una"] == ["Ulm, Una", "99200020", "standard", "unrated", "", "5 pooled", "",
                                "", "1922", "newly rated"]
    assert rows["Zorn, Zak"][5:] == ["0 pooled", "", "", "", "unrated"]
    ulm = page.find("a", string="Ulm, Una")
    assert ulm is not None and page.find(id=str(ulm["href"]).lstrip("#")) is not None


def test_every_link_resolves(out: Path, page: BeautifulSoup) -> None:
    hrefs = [str(a["href"]) for a in page.find_all("a", href=True)]
    folders = {h for h in hrefs if h.endswith("/index.html")}
    assert folders == {f"{e.removesuffix('.trf')}/index.html" for e in EVENTS}
    for href in hrefs:
        if href.startswith("#"):
            assert page.find(id=href[1:]) is not None, href
        else:
            assert (out / href).is_file(), href
    # each tournament line leads to the player's own page in that tournament's report
    arkell = section(page, "Arkell, Magnus").find("a", string="Fjord Elite Invitational")
    assert arkell is not None and "Arkell, Magnus" in (out / str(arkell["href"])).read_text(
        encoding="utf-8")


def test_per_tournament_lines_are_fides(page: BeautifulSoup) -> None:
    # Arkell: 4½/5 against 1787, 2025, 2310, 2400, 2505 (Rc 11027 / 5 = 2205), expected 4.75.
    arkell = lines(section(page, "Arkell, Magnus"))
    assert arkell[0] == ["Fjord Elite Invitational", "2813", "2205", "4½", "5", "-0.25", "10",
                         "-2.50"]
    assert arkell[4] == ["Round 4: Egan, Dev", "", "2400", "½", "", "-0.43", "10", "-4.30"]
    assert arkell[-1] == ["Period", "", "", "4½", "5", "", "10", "-2.50"]
    # Egan sees Arkell capped at 2800 (the * of FIDE's page).
    assert lines(section(page, "Egan, Dev"))[1] == [
        "Round 4: Arkell, Magnus", "", "2800*", "½", "", "+0.42", "10", "+4.20"]
    # Garr: the Halloween Weekender uses her October 2395 (Ro); the base is November's 2400.
    garr = section(page, "Garr, Fay")
    assert lines(garr)[0] == ["Halloween Weekender", "2395", "2200", "2½", "3", "+0.27", "10",
                              "+2.70"]
    assert "Rating 2400, K 10, 3 rated games: change +2.70 → +3 → new rating 2403" in garr.get_text()
    # Reed: +1.60 in each of two events, summed and rounded once: +3, not 2 + 2.
    reed = section(page, "Reed, Rui")
    assert [ln[0] for ln in lines(reed) if not ln[0].startswith("Round")] == [
        "Newcomers Cup", "Late November Open", "Period"]
    assert [ln[-1] for ln in lines(reed)] == ["+1.60", "+1.60", "+1.60", "+1.60", "+3.20"]
    assert "change +3.20 → +3 → new rating 2253" in reed.get_text()
    # Olsen played only Ulm (unrated): no rated game, the rating stays.
    olsen = section(page, "Olsen, Ola")
    assert lines(olsen) == [["Newcomers Cup", "", "", "", "0", "", "", ""]]
    assert "no rated game in the period, so the rating stays 1850" in olsen.get_text()


def test_first_rating_workings(page: BeautifulSoup) -> None:
    ulm = section(page, "Ulm, Una")
    pool = [cells(tr) for tr in ulm.select("table.calc tbody tr")]
    assert pool == [["Newcomers Cup", "5", "3", "9507", "yes"]]
    assert [li.get_text() for li in ulm.select("ul.workings li")] == [
        "5 games against rated opponents and two hypothetical draws against 1800",
        "Ra = (9507 + 2 × 1800) / (5 + 2) = 1872.43",
        "p = (3 + 1) / (5 + 2) = 0.57, so dp = +50",
        "Ra + dp = 1922.43, rounded 1922",
        "first rating 1922"]
    zorn = section(page, "Zorn, Zak")
    assert [cells(tr) for tr in zorn.select("table.calc tbody tr")] == [
        ["Newcomers Cup", "5", "0", "9507", "no: a zero score in the first event is not counted"]]
    assert zorn.select("ul.workings") == []
    assert ("scored nothing in their first event, which is not counted: Zorn, Zak (No. 7 in "
            "newcomers_nov2025)") in page.get_text()


def test_marks_are_explained_only_when_used(page: BeautifulSoup, tmp_path: Path) -> None:
    legend = [dt.get_text() for dt in page.select("dl.legend dt")]
    assert "*" in legend and "pooled" in legend
    result = run_period([importer.load(PERIOD / "elite_nov2025.trf")], period=date(2025, 12, 1),
                        today=date(2025, 12, 5))
    uncapped = replace(result, games=PeriodGames.of_records([g for g in result.games if not g.capped]))
    write_period_files(uncapped, tmp_path)
    plain = BeautifulSoup((tmp_path / "period.html").read_text(encoding="utf-8"), "lxml")
    assert [dt.get_text() for dt in plain.select("dl.legend dt")][-1] == "K × chg"


def test_no_option_text_in_any_page(out: Path) -> None:
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 20
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w-])--[a-z]", text), path


def _unrated_debut(earlier: Pool | None) -> tuple[Tournament, dict]:
    """An unrated player (No. 1) scores 1½ of 2 against two players rated 1900."""
    players = (Player(start_no=1, name="New, Nell", fide_id="501"),
               Player(start_no=2, name="Two, Tom", fide_id="502", rating=1900),
               Player(start_no=3, name="Three, Tia", fide_id="503", rating=1900))
    results = []
    for rd, (opp, pts) in enumerate([(2, 1.0), (3, 0.5)], start=1):
        results += [RoundResult(start_no=1, round=rd, status=Status.PLAYED, opponent_no=opp,
                                colour=Colour.WHITE, points=pts),
                    RoundResult(start_no=opp, round=rd, status=Status.PLAYED, opponent_no=1,
                                colour=Colour.BLACK, points=1 - pts)]
    t = Tournament(info=TournamentInfo(name="Debut", start_date=date(2025, 11, 10),
                                       end_date=date(2025, 11, 12), rating_list=RatingList.STANDARD),
                   players=players, results=tuple(results))
    pools = {} if earlier is None else {("501", RatingList.STANDARD): earlier}
    return t, pools


def test_earlier_periods_are_pooled_and_the_workings_agree_with_the_engine() -> None:
    t, pools = _unrated_debut(Pool(games=3, opponents_sum=5400, score_h=150, events=1))
    result = rate_period([t], date(2025, 12, 1), pools=pools)
    (nell,) = [s for s in sections(result) if s.player.fide_id == "501"]
    assert [(p.label, p.n, p.w, p.opponents_sum) for p in nell.pool] == [
        ("Debut", 2, "1½", 3800), ("Earlier periods", 3, "1½", 5400)]
    # Ra = (9200 + 3600) / 7 = 1828.57; p = (3 + 1) / 7 = 0.57 → dp 50; Ru = 1879.
    assert nell.workings[1:] == ("Ra = (9200 + 2 × 1800) / (5 + 2) = 1828.57",
                                 "p = (3 + 1) / (5 + 2) = 0.57, so dp = +50",
                                 "Ra + dp = 1878.57, rounded 1879", "first rating 1879")
    assert nell.player.status is PeriodStatus.NEWLY_RATED and nell.player.new_rating == 1879


def test_too_few_games_for_a_first_rating_are_said_so() -> None:
    t, pools = _unrated_debut(None)
    result = rate_period([t], date(2025, 12, 1), pools=pools)
    (nell,) = [s for s in sections(result) if s.player.fide_id == "501"]
    assert nell.outcome == ("Unrated; 2 of 5 games against rated opponents pooled for a first "
                            "rating")
    assert nell.workings[-1] == "no first rating yet: 2 of 5 games against rated opponents"



@pytest.mark.browser
def test_sorting_and_a_phone_screen(browser: Any, out: Path) -> None:
    tab = browser.new_page(viewport={"width": 390, "height": 800})
    tab.goto((out / "period.html").as_uri())
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    names = "rows => rows.map(r => r.cells[0].textContent.trim())"
    tab.click("#players thead th:nth-child(7) button")  # Change, ascending
    order = tab.eval_on_selector_all("#players tbody tr", names)
    assert order[:2] == ["Holt, Hal", "Joyce, Jo"]
    assert order[-4:] == ["Egan, Dev", "Ives, Ian", "Ulm, Una", "Zorn, Zak"]  # unrated last
    tab.click("#players thead th:nth-child(7) button")  # descending
    assert tab.eval_on_selector_all("#players tbody tr", names)[:2] == [
        "Ives, Ian", "Egan, Dev"]
    tab.close()
