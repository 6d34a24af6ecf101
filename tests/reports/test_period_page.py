"""The period's pages as a rating officer reads them: period.html (headers in words, signs,
status in words, links to each tournament's report and to each player's page) and each
player's page in period-players/ (FIDE's per-tournament lines Ro, Rc, W, N, chg, K, K × chg,
and the workings of a first rating) — checked against the worked example of
fixtures/period/README.md; then the pages of a large month: small, and made in one pass."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag

import importer
from importer.formats.fidelist import read_fide_list
from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.notes import Note
from rating.period.engine import rate_period
from rating.period.identity import MatchedBy, RatingFrom, fallback_key
from rating.period.records import (
    PeriodGame,
    PeriodGames,
    PeriodPlayer,
    PeriodResult,
    PeriodStatus,
    PeriodTournament,
    Pool,
    PoolGame,
)
from rating.period.run import PeriodSource, run_period
from rating.systems.fide_rules import rules_for
from reports.period.pages import (
    PLAYERS_FOLDER,
    page_names,
    period_pages,
    sections,
    write_period_files,
)

PERIOD = Path(__file__).resolve().parents[2] / "fixtures" / "period"
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
    write_period_files(result, folder, ratings_list=fide_list, reports=True)
    return folder


@pytest.fixture(scope="module")
def page(out: Path) -> BeautifulSoup:
    return soup(out / "period.html")


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def cells(row: Tag) -> list[str]:
    return [c.get_text(" ", strip=True) for c in row.find_all(["th", "td"])]


def calculation(out: Path, page: BeautifulSoup, name: str, rating_list: str = "standard"
                ) -> BeautifulSoup:
    """A player's calculation page, reached from their name in the players table."""
    found = [a for tr in page.select("#players tbody tr") if (a := tr.th.a) is not None
             and a.get_text() == name and cells(tr)[2] == rating_list]
    assert len(found) == 1, name
    return soup(out / str(found[0]["href"]))


def lines(calc: BeautifulSoup, table: str = "#calc") -> list[list[str]]:
    """The rows of a player's calculation table (tournament lines, game lines, the period)."""
    return [cells(tr) for tr in calc.select(f"{table} tbody tr")]


def test_headers_are_words(out: Path, page: BeautifulSoup) -> None:
    assert cells(page.select_one("#players thead tr")) == [
        "Name", "FIDE ID", "List", "Old rating", "K", "Games", "Change", "Rounded", "New rating",
        "Status"]
    assert cells(page.select_one("#tournaments thead tr")) == [
        "Tournament", "Id", "Dates", "List", "Rules", "Ratings used", "Players"]
    assert cells(calculation(out, page, "Arkell, Magnus").select_one("#calc thead tr")) == [
        "Tournament", "Ro", "Rc", "W", "N", "chg", "K", "K × chg"]
    for path in [out / "period.html", *sorted((out / PLAYERS_FOLDER).glob("*.html"))]:
        text = soup(path).get_text(" ")
        for raw in ("fide_id", "old_rating", "rounded_change", "new_rating", "newly_rated",
                    "dropped_below_floor", "ratings_from", "|"):
            assert raw not in text, (path.name, raw)


def test_players_table_signs_status_and_first_ratings(out: Path, page: BeautifulSoup) -> None:
    rows = {r[0]: r for r in map(cells, page.select("#players tbody tr"))}
    assert len(rows) == 19
    assert rows["Egan, Dev"] == ["Egan, Dev", "99200005", "standard", "2400", "10", "1", "+4.20",
                                 "+4", "2404", "rated"]
    assert rows["Arkell, Magnus"][6:9] == ["-2.50", "-3", "2810"]
    # A first rating never reads "games 0": the pooled games are counted and named.
    assert rows["Ulm, Una"] == ["Ulm, Una", "99200020", "standard", "unrated", "", "5 pooled", "",
                                "", "1922", "newly rated"]
    assert rows["Zorn, Zak"][5:] == ["0 pooled", "", "", "", "unrated"]
    assert "“pooled”: an unrated player's games" in page.get_text()
    # by name; each name leads to the player's own page, named by FIDE id and list
    assert list(rows) == sorted(rows, key=str.casefold)
    ulm = page.find("a", string="Ulm, Una")
    assert ulm is not None and ulm["href"] == f"{PLAYERS_FOLDER}/99200020-standard.html"
    una = soup(out / str(ulm["href"]))
    assert una.h1.get_text() == "Ulm, Una" and una.title.get_text() == (
        "Ulm, Una – FIDE rating period 2025-12")


def test_every_player_has_a_page_and_every_link_resolves(out: Path, page: BeautifulSoup) -> None:
    linked = {str(tr.th.a["href"]) for tr in page.select("#players tbody tr")}
    assert linked == {f"{PLAYERS_FOLDER}/{p.name}"
                      for p in (out / PLAYERS_FOLDER).glob("*.html")}
    assert len(linked) == 19
    hrefs = [str(a["href"]) for a in page.find_all("a", href=True)]
    folders = {h for h in hrefs if h.endswith("/index.html")}
    assert folders == {f"{e.removesuffix('.trf')}/index.html" for e in EVENTS}
    for path in [out / "period.html", *(out / h for h in sorted(linked))]:
        html = soup(path)
        for a in html.find_all("a", href=True):
            href = str(a["href"])
            if href.startswith("#"):
                assert html.find(id=href[1:]) is not None, (path.name, href)
            elif href.startswith("https://"):  # a player's FIDE profile
                assert href.startswith("https://ratings.fide.com/profile/"), (path.name, href)
            else:
                assert (path.parent / href).resolve().is_file(), (path.name, href)
    # each tournament line leads to the player's own page in that tournament's report, and
    # the page back to the index
    arkell = calculation(out, page, "Arkell, Magnus")
    link = arkell.find("a", string="Fjord Elite Invitational")
    assert link is not None and str(link["href"]).startswith("../elite_nov2025/player-")
    assert "Arkell, Magnus" in (out / PLAYERS_FOLDER / str(link["href"])).read_text(
        encoding="utf-8")
    assert arkell.select_one("nav a")["href"] == "../period.html"
    # an opponent's name leads to the opponent's calculation
    egan = arkell.find("a", string="Egan, Dev")
    assert egan is not None and egan["href"] == "../period-players/99200005-standard.html"


def test_per_tournament_lines_are_fides(out: Path, page: BeautifulSoup) -> None:
    # Arkell: 4½/5 against 1787, 2025, 2310, 2400, 2505 (Rc 11027 / 5 = 2205), expected 4.75.
    arkell = lines(calculation(out, page, "Arkell, Magnus"))
    assert arkell[0] == ["Fjord Elite Invitational", "2813", "2205", "4½", "5", "-0.25", "10",
                         "-2.50"]
    assert arkell[4] == ["Round 4: Egan, Dev", "", "2400", "½", "", "-0.43", "10", "-4.30"]
    assert arkell[-1] == ["Period", "", "", "4½", "5", "", "10", "-2.50"]
    # Egan sees Arkell capped at 2800 (the * of FIDE's page).
    assert lines(calculation(out, page, "Egan, Dev"))[1] == [
        "Round 4: Arkell, Magnus", "", "2800*", "½", "", "+0.42", "10", "+4.20"]
    # Garr: the Halloween Weekender uses her October 2395 (Ro); the base is November's 2400.
    garr = calculation(out, page, "Garr, Fay")
    assert lines(garr)[0] == ["Halloween Weekender", "2395", "2200", "2½", "3", "+0.27", "10",
                              "+2.70"]
    assert garr.select_one("#outcome").get_text() == (
        "Rating 2400, K 10, 3 rated games: change +2.70 → +3 → new rating 2403")
    # Reed: +1.60 in each of two events, summed and rounded once: +3, not 2 + 2.
    reed = calculation(out, page, "Reed, Rui")
    assert [ln[0] for ln in lines(reed) if not ln[0].startswith("Round")] == [
        "Newcomers Cup", "Late November Open", "Period"]
    assert [ln[-1] for ln in lines(reed)] == ["+1.60", "+1.60", "+1.60", "+1.60", "+3.20"]
    assert "change +3.20 → +3 → new rating 2253" in reed.get_text()
    # Olsen played only Ulm (unrated): no rated game, the rating stays.
    olsen = calculation(out, page, "Olsen, Ola")
    assert lines(olsen) == [["Newcomers Cup", "", "", "", "0", "", "", ""]]
    assert "no rated game in the period, so the rating stays 1850" in olsen.get_text()


def test_first_rating_workings(out: Path, page: BeautifulSoup) -> None:
    ulm = calculation(out, page, "Ulm, Una")
    assert ulm.select("#calc") == []
    assert lines(ulm, "#pool") == [["Newcomers Cup", "5", "3", "9507", "yes"]]
    assert [li.get_text() for li in ulm.select("ul.workings li")] == [
        "5 games against rated opponents and two hypothetical draws against 1800",
        "Ra = (9507 + 2 × 1800) / (5 + 2) = 1872.43",
        "p = (3 + 1) / (5 + 2) = 0.57, so dp = +50",
        "Ra + dp = 1922.43, rounded 1922",
        "first rating 1922"]
    zorn = calculation(out, page, "Zorn, Zak")
    assert lines(zorn, "#pool") == [
        ["Newcomers Cup", "5", "0", "9507", "no: a zero score in the first event is not counted"]]
    assert zorn.select("ul.workings") == []
    note = ("1 unrated player scored nothing in their first event, which is not counted: "
            "Zorn, Zak (No. 7 in newcomers_nov2025)")
    assert note in page.get_text() and note in zorn.select_one(".notes").get_text()
    assert ulm.select(".notes") == []  # no note about Ulm


def test_marks_are_explained_only_when_used(out: Path, page: BeautifulSoup) -> None:
    def legend(calc: BeautifulSoup) -> list[str]:
        return [dt.get_text() for dt in calc.select("#legend dt")]

    assert legend(calculation(out, page, "Egan, Dev")) == [
        "Ro", "Rc", "W", "N", "chg", "K", "K × chg", "*"]  # Arkell capped at 2800
    assert legend(calculation(out, page, "Arkell, Magnus"))[-1] == "K × chg"
    assert legend(calculation(out, page, "Ulm, Una")) == ["W", "N", "pooled"]


def test_no_option_text_in_any_page(out: Path) -> None:
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 40
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


# ------------------------------------------------------------------------ a large month

class Counted(tuple):  # type: ignore[type-arg]
    """A tuple that counts how often it is walked through."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.walks += 1
        return super().__iter__()


def large_month(players: int, games_each: int = 2) -> PeriodResult:
    """A synthetic month: *players* in one tournament, each with a few rated games, a note for
    every player (as a month without a FIDE list has), 1 in 20 unrated, 1 in 50 without a
    FIDE id."""
    rules = rules_for(date(2026, 10, 10))
    people = tuple(Player(start_no=i, name=f"Van der Synthetic-Player {i:05d}, Alexandra Maria",
                          fide_id="" if i % 50 == 0 else str(30_000_000 + i),
                          federation="NED", birth_year=1990)
                   for i in range(1, players + 1))
    keys = [p.fide_id or fallback_key(p.name, p.federation, p.birth_year) for p in people]
    t = Tournament(info=TournamentInfo(name="The Large Synthetic Open", start_date=date(2026, 10, 10),
                                       rating_list=RatingList.STANDARD), players=people)
    spec = PeriodTournament(key="large", tournament=t, rating_list=RatingList.STANDARD,
                            start=date(2026, 10, 10), rules=rules, ratings_from="source",
                            keys={p.start_no: k for p, k in zip(people, keys, strict=True)})
    games, pool, rows = [], [], []
    for i, (p, key) in enumerate(zip(people, keys, strict=True)):
        unrated = i % 20 == 0
        for rd in range(1, games_each + 1):
            j = (i + rd) % players
            if unrated:
                pool.append(PoolGame(key=key, list=RatingList.STANDARD, tournament="large",
                                     start=spec.start, opponent_rating=1900, score_h=50,
                                     disregarded=False))
            else:
                games.append(PeriodGame(
                    tournament="large", round=rd, key=key, fide_id=p.fide_id, name=p.name,
                    list=RatingList.STANDARD, own_rating=1850, opponent=keys[j],
                    opponent_name=people[j].name, opponent_rating=1900, capped=False,
                    score_h=50, expected_h=43, k=20, change_h=140))
        rows.append(PeriodPlayer(
            key=key, fide_id=p.fide_id, name=p.name, federation="NED", birth_year=1990,
            list=RatingList.STANDARD, old_rating=None if unrated else 1850,
            matched_by=MatchedBy.FIDE_ID if p.fide_id else MatchedBy.NONE,
            rating_from=RatingFrom.SOURCE, where=f"No. {p.start_no} in large",
            score_h=0 if unrated else 50 * games_each,
            ks=() if unrated else (20,), games=0 if unrated else games_each,
            change_h=0 if unrated else 140 * games_each, rounded_change=0 if unrated else 3,
            new_rating=None if unrated else 1853,
            status=PeriodStatus.UNRATED if unrated else PeriodStatus.RATED,
            pool_games=games_each if unrated else 0,
            pool_opponents_sum=1900 * games_each if unrated else 0,
            pool_score_h=50 * games_each if unrated else 0, initial_rating=None))
    notes = tuple(Note(f"{p.name} (No. {p.start_no} in large): a note about one player", [key])
                  for p, key in zip(people, keys, strict=True))
    return PeriodResult(period=date(2026, 11, 1), players=tuple(rows), games=Counted(games),
                        pool=Counted(pool), tournaments=Counted([spec]), notes=notes)


@pytest.fixture(scope="module")
def large() -> tuple[PeriodResult, dict[str, str]]:
    result = large_month(20_000)
    for records in (result.games, result.pool, result.tournaments):
        records.walks = 0  # type: ignore[attr-defined]
    return result, period_pages(result)


@pytest.mark.slow  # a month of 2,000 players' pages: 6 s
def test_a_large_month_is_many_small_pages(large: tuple[PeriodResult, dict[str, str]]) -> None:
    result, pages = large
    sizes = {name: len(text.encode("utf-8")) for name, text in pages.items()}
    parts = sorted(n for n in pages if re.fullmatch(rf"{PLAYERS_FOLDER}/players-\d+\.html", n))
    assert len(parts) == 7 and len(pages) == 1 + 7 + 20_000
    assert max(sizes.values()) < 1_000_000, max(sizes, key=sizes.__getitem__)
    assert sizes["period.html"] < 60_000  # the parts and 50 of the 20,000 notes
    index = BeautifulSoup(pages["period.html"], "lxml")
    assert index.select("#players") == []
    assert [a["href"] for a in index.select("ul.parts a")] == parts
    assert "… and 19950 more notes about single players, each on the player's page" in \
        index.get_text()
    # every player is in exactly one part, and each part's names lead to pages that exist
    linked = [f"{PLAYERS_FOLDER}/{href}" for n in parts
              for href in re.findall(r'<th scope="row"><a href="([^"]+)">', pages[n])]
    assert len(linked) == len(set(linked)) == 20_000 and set(linked) <= set(pages)
    # a player's page leads to its part, a part to the parts beside it
    assert f'href="../{parts[0]}"' in pages[linked[0]]
    assert f'href="../{parts[0]}" rel="prev"' in pages[parts[1]]
    assert f'href="../{parts[2]}" rel="next"' in pages[parts[1]]
    # a player matched by name: a stable, URL-safe page name, and no internal key on the page
    nameless = next(p for p in result.players if not p.fide_id)
    name = page_names(result)[(nameless.key, RatingList.STANDARD)]
    assert name == f"{PLAYERS_FOLDER}/van-der-synthetic-player-00050-alexandra-{name[-22:-14]}" \
        "-standard.html"
    assert re.fullmatch(rf"{PLAYERS_FOLDER}/[a-z0-9-]+-[0-9a-f]{{8}}-standard\.html", name), name
    assert "|" not in BeautifulSoup(pages[name], "lxml").get_text()
    assert "(No. 50 in large): a note about one player" in pages[name]


def test_the_pages_walk_the_month_once(large: tuple[PeriodResult, dict[str, str]]) -> None:
    """Linear time: the games, the pooled games and the tournaments are each grouped by player
    in one pass (a scan per player would walk them 20,000 times)."""
    result, _ = large
    assert result.games.walks == result.pool.walks == 1  # type: ignore[attr-defined]
    assert result.tournaments.walks <= 5  # type: ignore[attr-defined]  # a few: 1 tournament


def test_page_names_are_stable_and_leave_the_tournaments_folders_alone() -> None:
    small = large_month(100)
    names = page_names(small)
    assert names == page_names(large_month(100)) and len(set(names.values())) == 100
    assert names[("30000001", RatingList.STANDARD)] == f"{PLAYERS_FOLDER}/30000001-standard.html"
    assert all(re.fullmatch(rf"{PLAYERS_FOLDER}/[a-z0-9-]+\.html", n) for n in names.values())
    spec = replace(small.tournaments[0], key=PLAYERS_FOLDER)
    clash = replace(small, tournaments=(spec,), games=PeriodGames.of_records(
        [replace(g, tournament=spec.key) for g in small.games]))
    assert {n.partition("/")[0] for n in page_names(clash).values()} == {f"{PLAYERS_FOLDER}-2"}


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
    tab.click("#players thead th:nth-child(4) button")  # Old rating: the unrated last
    assert tab.eval_on_selector_all("#players tbody tr", names)[-2:] == ["Ulm, Una", "Zorn, Zak"]
    tab.click("text=Arkell, Magnus")
    assert tab.url.endswith(f"/{PLAYERS_FOLDER}/99200001-standard.html")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    box = tab.eval_on_selector("#calc", "t => t.closest('.scroll').scrollWidth")
    assert box <= 390  # the calculation in stacked rows: nothing to scroll, K × chg in sight
    right = tab.eval_on_selector_all("#calc tbody td:last-child",
                                     "cs => Math.max(...cs.map(c => c.getBoundingClientRect().right))")
    assert 0 < right <= 390
    tab.click("text=Fjord Elite Invitational")
    assert tab.url.endswith("/elite_nov2025/player-1.html")
    tab.close()


def test_a_player_on_two_lists_has_two_pages_that_link_each_other() -> None:
    month = large_month(3)
    first = month.players[1]
    rapid = replace(first, list=RatingList.RAPID)
    pages = period_pages(replace(month, players=(*month.players, rapid)))
    standard = BeautifulSoup(pages[f"{PLAYERS_FOLDER}/{first.key}-standard.html"], "lxml")
    other = standard.find("a", string="the rapid list")
    assert other is not None and other["href"] == f"../{PLAYERS_FOLDER}/{first.key}-rapid.html"
    assert f"{PLAYERS_FOLDER}/{first.key}-rapid.html" in pages
    # with several lists, the neighbours say which list they are on
    assert [a.get_text() for a in standard.select("nav a[rel]")] == [
        f"‹ {month.players[0].name} (standard)", f"{first.name} (rapid) ›"]
