"""National ratings beside FIDE: whose national column a source shows, a national list
filled in (by national id, FIDE id, or an unambiguous name), and the register's national
lists."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from importer.formats.nationallist import NationalEntry, NationalList
from importer.identity import NationalIndex, find_on_national_list, national_person_key
from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.national import national_tournament, rate_national_period
from rating.period.register import Register
from rating.systems.base import EloSystem
from rating.systems.ukd import UkdSystem

ON = date(2026, 4, 1)


def event(name: str = "Spring open", *, day: date = date(2026, 4, 4), fed: str = "",
          calc: str = "", national: tuple[int | None, ...] = (1500, 1600, None),
          ids: tuple[str, ...] = ("", "", "")) -> Tournament:
    """Three players, a round robin of three rounds (one sits out each): 1 beats 2, 2 beats
    3, 3 draws 1."""
    names = ("Anna, Ada", "Berg, Bo", "Corr, Cy")
    players = tuple(Player(start_no=no, name=names[no - 1], federation="GER", rating=1900,
                           national_rating=national[no - 1], national_id=ids[no - 1])
                    for no in (1, 2, 3))
    results = tuple(RoundResult(start_no=no, round=rnd, status=Status.PLAYED, opponent_no=opp,
                                colour=colour, points=Decimal(pts))
                    for rnd, white, black, won in ((1, 1, 2, "1"), (2, 2, 3, "1"), (3, 3, 1, "0.5"))
                    for no, opp, colour, pts in ((white, black, Colour.WHITE, won),
                                                 (black, white, Colour.BLACK, 1 - Decimal(won))))
    info = TournamentInfo(name=name, start_date=day, end_date=day, rounds=3, federation=fed,
                          rating_calculation=calc, rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=players, results=results)


def entry(nid: str, name: str, rating: int | None, **kw: object) -> NationalEntry:
    return NationalEntry(system="ukd", national_id=nid, name=name, rating=rating, **kw)  # type: ignore[arg-type]


# --- whose column ---

def test_a_source_naming_the_system_or_none_is_read_and_another_systems_column_is_not():
    ukd = UkdSystem()
    turkish = event(fed="TUR", calc="Rating national, Rating international")
    seen, notes = national_tournament(turkish, ukd, None, on=ON)
    assert seen is turkish and notes == ()  # the source names UKD: its column, no note
    silent = event()
    seen, notes = national_tournament(silent, ukd, None, on=ON)
    assert [p.national_rating for p in seen.players] == [1500, 1600, None]
    assert notes == ("the source does not say which national rating it shows: its national "
                     "ratings are read as UKD",)


# --- a national list ---

def test_a_list_fills_in_what_the_source_leaves_out_and_the_source_stands_where_it_shows():
    listed = NationalList("ukd", (
        entry("10-1", "Anna, Ada", 1480, evaluations=12, birth_year=1990),
        entry("10-2", "Berg, Bo", 1600, evaluations=3),
        entry("10-3", "Corr, Cy", 1300, evaluations=1, birth_year=2012)), ON, "list.csv")
    seen, notes = national_tournament(event(), UkdSystem(), listed, on=ON)
    ada, bo, cy = seen.players
    assert (ada.national_rating, ada.national_evaluations, ada.birth_year) == (1500, 12, 1990)
    assert (bo.national_rating, bo.national_evaluations) == (1600, 3)
    assert (cy.national_rating, cy.national_evaluations, cy.birth_year) == (1300, 1, 2012)
    assert "3 of 3 players found on the UKD list of 2026-04 (list.csv): the rating of 1 taken " \
           "from it; the index of 3" in notes
    assert any("1 players' UKD in the source differs" in n for n in notes)


def test_players_are_found_by_national_id_then_fide_id_and_namesakes_are_not_guessed():
    index = NationalIndex([entry("7-1", "Smith, John", 1500, fide_id="123"),
                           entry("7-2", "Smith, John", 1700, fide_id="456"),
                           entry("7-3", "Jones, Ann", 1600, birth_year=1980)])
    by_id = Player(start_no=1, name="Smyth, J.", national_id="7-2")
    assert find_on_national_list(by_id, index)[1] == "national_id"
    by_fide = Player(start_no=1, name="Smith John", fide_id="456")
    assert find_on_national_list(by_fide, index) == (index.by_id["7-2"], "fide_id")
    other_id = Player(start_no=1, name="Smith, John", fide_id="999")
    assert find_on_national_list(other_id, index) == (None, "")  # another FIDE id: another one
    namesake = Player(start_no=1, name="Smith, John")
    assert find_on_national_list(namesake, index) == (None, "")  # two of that name: ambiguous
    ann = Player(start_no=1, name="ANN JONES", birth_year=1980)
    assert find_on_national_list(ann, index) == (index.by_id["7-3"], "name")
    assert find_on_national_list(replace(ann, birth_year=1999), index) == (None, "")
    assert national_person_key(ann, index.by_id["7-3"]) == "list:7-3"
    assert national_person_key(by_fide, None) == "456"


# --- the register ---

def test_the_register_keeps_national_lists_by_system_month_and_list(tmp_path):
    listed = NationalList("dwz", (
        NationalEntry(system="dwz", national_id="10401-1", name="Anna, Ada", rating=1480,
                      evaluations=12, birth_year=1990),
        NationalEntry(system="dwz", national_id="10401-2", name="Berg, Bo", rating=None),
        NationalEntry(system="dwz", national_id="10401-2", name="Berg, Bo", rating=1200)),
        date(2026, 3, 1))
    with Register(tmp_path / "r.sqlite") as reg:
        stored = reg.import_national_list(listed, date(2026, 3, 1), source="dsb.zip")
        assert (stored.players, stored.lists) == (2, ("standard",))  # each id once: its first
        again = reg.import_national_list(listed, date(2026, 3, 1), source="dsb.zip")
        assert again == stored and len(reg.table("national_players")) == 2
        assert reg.national_in_force("dwz", date(2026, 2, 1), RatingList.STANDARD, []) is None
        found = reg.national_in_force("dwz", date(2026, 5, 9), RatingList.STANDARD,
                                      event().players)
        assert found is not None and found.published == date(2026, 3, 1)
        assert {(e.name, e.rating, e.evaluations) for e in found.entries} == {
            ("Anna, Ada", 1480, 12), ("Berg, Bo", None, None)}
        assert reg.national_in_force("ecf", date(2026, 5, 9), RatingList.STANDARD,
                                     event().players) is None
        assert [s.system for s in reg.stored_national_lists()] == ["dwz"]


# --- a month rated as one ---

def test_a_month_rates_its_tournaments_on_the_months_rating_and_rounds_once():
    """UKD (and Elo) rate a month's tournaments together: each on the month's rating, the
    changes summed exactly and rounded once."""
    first, second = event("A", day=date(2026, 4, 4)), event("B", day=date(2026, 4, 18))
    for system in (UkdSystem(), EloSystem()):
        period = rate_national_period([second, first], system, on=ON)
        assert not period.per_tournament
        assert [s.tournament for s in period.steps[:2]] == ["A", "A"]
        ada = next(p for p in period.players if p.name == "Anna, Ada")
        a_steps = [s for s in period.steps if s.name == "Anna, Ada"]
        own = 1500 if system.national else 1900  # Elo rates the FIDE ratings
        assert [s.rating for s in a_steps] == [own, own] and ada.events == 2
        assert ada.change == sum((s.change for s in a_steps), Decimal(0)) != 0
        assert ada.new_rating == system.new_rating(own, ada.change)
