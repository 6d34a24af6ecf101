"""People, not rows: who each player is (rating.period.identity), and the names compared."""

from __future__ import annotations

from datetime import date

from importer.formats.fidelist import FideList, ListEntry
from importer.model import Player, RatingList, Tournament, TournamentInfo
from importer.parsing.names import name_key
from rating.period.identity import MatchedBy, identify, list_candidates, wanted_names

STD = RatingList.STANDARD


def entry(fide_id: str, name: str, fed: str = "ENG", *, born: int | None = None,
          rating: int | None = 2000, title: str = "") -> ListEntry:
    return ListEntry(fide_id=fide_id, name=name, federation=fed, sex="", title=title,
                     birth_year=born, flags="", std_rating=rating, std_k=20)


def event(*players: Player) -> Tournament:
    return Tournament(info=TournamentInfo(name="t", start_date=date(2026, 10, 3),
                                          rating_list=STD), players=players)


def who(t: Tournament, fide_list: FideList, no: int = 1):
    ids = identify([("t", t)], known=[list_candidates(fide_list, wanted_names([t]))])
    return ids.person("t", no), ids.notes


def test_names_compare_by_their_words():
    assert name_key("Adams, Michael") == name_key("ADAMS Michael") == name_key("Michael Adams")
    assert name_key("Müller, Jörg") == name_key("Muller Jorg")
    assert name_key("Mcshane Luke J") == name_key("Mcshane, Luke J.")
    assert name_key("Adams, Michael") != name_key("Adams, Michaela")


def test_a_player_without_an_id_is_found_by_name_and_federation():
    fl = FideList.of([entry("400041", "Adams, Michael", rating=2595),
                      entry("400042", "Adams, Michael", "WLS", rating=1900)],
                     lists=("standard",), list_date=date(2026, 9, 1), source="l.txt")
    person, notes = who(event(Player(start_no=1, name="Adams Michael", federation="ENG",
                                     rating=2595)), fl)
    assert (person.key, person.matched_by) == ("400041", MatchedBy.NAME_FED)
    assert len(notes) == 1 and "found by name and federation" in notes[0]
    assert "Adams Michael (No. 1 in t)" in notes[0] and "|" not in notes[0]


def test_namesakes_are_told_apart_by_birth_year_title_and_rating_or_left_unmatched():
    namesakes = [entry("1", "Smith, John", born=1970, rating=2100),
                 entry("2", "Smith, John", born=1990, rating=1600, title="FM")]
    fl = FideList.of(namesakes, lists=("standard",), list_date=None, source="l.txt")
    by_year, _ = who(event(Player(start_no=1, name="Smith John", federation="ENG",
                                  birth_year=1990)), fl)
    assert by_year.key == "2"
    by_title, _ = who(event(Player(start_no=1, name="Smith John", federation="ENG", title="FM")),
                      fl)
    assert by_title.key == "2"
    by_rating, _ = who(event(Player(start_no=1, name="Smith John", federation="ENG",
                                    rating=2100)), fl)
    assert by_rating.key == "1"
    unsure, notes = who(event(Player(start_no=1, name="Smith John", federation="ENG")), fl)
    assert unsure.matched_by is MatchedBy.NONE and not unsure.fide_id
    assert any("match several people" in n and "2 candidates" in n for n in notes)


def test_a_namesake_rated_far_away_is_someone_else():
    fl = FideList.of([entry("1", "Smith, John", rating=2400)], lists=("standard",),
                     list_date=None, source="l.txt")
    person, _ = who(event(Player(start_no=1, name="Smith John", federation="ENG", rating=1500)),
                    fl)
    assert person.matched_by is MatchedBy.NONE


def test_the_other_tournaments_ids_find_a_player_without_one():
    with_id = event(Player(start_no=1, name="Doe, Jo", federation="IRL", fide_id="77"))
    without = event(Player(start_no=5, name="Jo Doe", federation="IRL"))
    ids = identify([("a", with_id), ("b", without)])
    assert ids.person("a", 1) is ids.person("b", 5)
    assert ids.person("b", 5).key == "77"


def test_unmatched_players_are_one_person_across_tournaments_unless_born_apart():
    a = event(Player(start_no=1, name="Roe, Al", federation="USA", birth_year=1980))
    b = event(Player(start_no=2, name="Al Roe", federation="USA"))
    c = event(Player(start_no=3, name="Roe Al", federation="USA", birth_year=2001))
    ids = identify([("a", a), ("b", b)])
    assert ids.person("a", 1) is ids.person("b", 2)
    assert ids.person("a", 1).key == "al roe|USA|1980"
    apart = identify([("a", a), ("c", c)])
    assert apart.person("a", 1) is not apart.person("c", 3)


def test_the_register_knows_a_player_without_an_id_from_an_earlier_month(tmp_path):
    """An unrated newcomer without a FIDE id, born 2012 in December's file and with no birth
    year in January's: one person, whose pooled games go on."""
    from decimal import Decimal

    from importer.model import RoundResult, Status
    from rating.period.records import Standing
    from rating.period.register import Register
    from rating.period.run import run_period

    def month(start: date, born: int | None, opponents: range) -> Tournament:
        players = [Player(start_no=1, name="Newcomer, Nia", federation="ENG", birth_year=born)]
        results = []
        for rd, no in enumerate(opponents, 1):
            players.append(Player(start_no=no, name=f"Opp {no}", fide_id=str(900 + no),
                                  rating=1800))
            results += [RoundResult(start_no=1, round=rd, status=Status.PLAYED, opponent_no=no,
                                    points=Decimal("0.5")),
                        RoundResult(start_no=no, round=rd, status=Status.PLAYED, opponent_no=1,
                                    points=Decimal("0.5"))]
        return Tournament(info=TournamentInfo(name=f"e{start}", start_date=start, end_date=start,
                                              rating_list=STD), players=tuple(players),
                          results=tuple(results))

    listed = {(str(900 + n), STD): Standing(rating=1800, k=20) for n in range(2, 9)}
    with Register(tmp_path / "r.sqlite") as reg:
        dec = run_period([month(date(2025, 11, 10), 2012, range(2, 5))],
                         period=date(2025, 12, 1), ratings_list=listed, register=reg,
                         today=date(2025, 12, 5))
        reg.write_period(dec)
        jan = run_period([month(date(2025, 12, 10), None, range(5, 7))], period=date(2026, 1, 1),
                         ratings_list=listed, register=reg, today=date(2026, 1, 5))
    nia = next(p for p in jan.players if p.name == "Newcomer, Nia")
    assert (nia.key, nia.matched_by) == ("newcomer nia|ENG|2012", MatchedBy.NAME_FED)
    assert (nia.pool_games, nia.status.value, nia.new_rating) == (5, "newly_rated", 1800)


def test_each_entry_s_person_is_the_one_its_start_number_finds():
    """The engine reads each entry's person from ``entries`` when every tournament numbers
    its players 1 … n; it is the person ``code`` finds, the unmatched included."""
    a = event(Player(start_no=1, name="Doe, Jo", federation="IRL", fide_id="77"),
              Player(start_no=2, name="Roe, Al", federation="USA"),
              Player(start_no=3, name="Poe, Ed", federation="USA", fide_id="12"))
    b = event(Player(start_no=1, name="Ed Poe", federation="USA"),
              Player(start_no=2, name="Jo Doe", federation="IRL", fide_id="77"),
              Player(start_no=3, name="Al Roe", federation="USA"))
    ids = identify([("a", a), ("b", b)])
    looked_up = [ids.code[(k, p.start_no)] for k, t in (("a", a), ("b", b)) for p in t.players]
    assert ids.entries == looked_up == [0, 2, 1, 1, 0, 2]
    assert ids.order == ("a", "b")
    assert [p.key for p in ids.people] == ["77", "12", "al roe|USA|"]


def test_a_start_number_given_twice_leaves_each_entry_to_its_start_number():
    twice = event(Player(start_no=1, name="Doe, Jo", federation="IRL", fide_id="77"),
                  Player(start_no=1, name="Roe, Al", federation="USA", fide_id="78"))
    ids = identify([("a", twice)])
    assert ids.entries is None
    assert ids.person("a", 1).key == "78"  # of two players with one start number, the later
