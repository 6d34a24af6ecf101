"""The rating-period engine (rating/period/engine.py) against hand-computed and FIDE-published figures."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from importer.formats.trf import parse_trf, write_trf
from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.errors import RatingError
from rating.period.engine import (
    Pool,
    Standing,
    default_period,
    initial_ratings,
    rate_period,
)
from rating.period.run import run_period
from rating.systems.fide import cap_mask, initial_rating
from rating.systems.fide_rules import InitialRule, rules_for

STD, RAPID = RatingList.STANDARD, RatingList.RAPID


def event(start: date, players: dict[str, int | None], games: list[tuple[int, str, str, float]], *,
          end: date | None = None, rl: RatingList | None = STD, name: str = "t",
          extra: tuple[RoundResult, ...] = ()) -> Tournament:
    """A tournament: players {fide_id: rating}, games (round, white id, black id, white's score)."""
    ids = list(players)
    no = {fid: i for i, fid in enumerate(ids, 1)}
    people = tuple(Player(start_no=no[f], name=f"Player {f}", fide_id=f, rating=r)
                   for f, r in players.items())
    res: list[RoundResult] = []
    for rnd, a, b, s in games:
        res.append(RoundResult(start_no=no[a], round=rnd, status=Status.PLAYED, opponent_no=no[b],
                               colour=Colour.WHITE, points=s))
        res.append(RoundResult(start_no=no[b], round=rnd, status=Status.PLAYED, opponent_no=no[a],
                               colour=Colour.BLACK, points=1 - s))
    info = TournamentInfo(name=name, start_date=start, end_date=end or start, rating_list=rl)
    return Tournament(info=info, players=people, results=(*res, *extra))


def prev(**ratings: tuple[int, int] | int) -> dict[tuple[str, RatingList], Standing]:
    """The previous list: id=(rating, K) or id=rating."""
    out = {}
    for fid, v in ratings.items():
        rating, k = v if isinstance(v, tuple) else (v, None)
        out[(fid.lstrip("p"), STD)] = Standing(rating=rating, k=k)
    return out


def row(result, fid: str, rl: str = "standard") -> dict:
    found = result.player(fid, RatingList(rl))
    assert found is not None, f"{fid} {rl}: no row"
    return {f: getattr(found, f) for f in (*found.__slots__, "k")}


NOV25, DEC25 = date(2025, 11, 1), date(2025, 12, 1)


def test_2813_player_uncapped_while_opponents_see_the_cap():
    # FIDE's published case: 4.5/5 against 1787, 2025, 2310, 2400, 2505 in Oct 2025.
    t = event(date(2025, 10, 10), {"1": 2813, "2": 1787, "3": 2025, "4": 2310, "5": 2400, "6": 2505},
              [(1, "1", "2", 1), (2, "3", "1", 0), (3, "1", "4", 1), (4, "5", "1", 0.5),
               (5, "1", "6", 1)], end=date(2025, 10, 15))
    r = rate_period([t], NOV25, previous=prev(p1=(2813, 10), p2=(1787, 20), p3=(2025, 20),
                                              p4=(2310, 20), p5=(2400, 10), p6=(2505, 10)))
    top = row(r, "1")
    assert (top["change_h"], top["rounded_change"], top["new_rating"]) == (-250, -3, 2810)
    mine = r.games_of("1")
    assert [g.expected_h for g in mine] == [100, 100, 96, 93, 86]  # D = 1026, 788, 503, 413, 308
    assert not any(g.capped for g in mine)
    egan = r.games_of("5")[0]
    assert (egan.opponent_rating, egan.capped, egan.expected_h) == (2800, True, 8)
    assert row(r, "5")["change_h"] == 420  # K 10 × (0.5 − 0.08)
    assert row(r, "6")["change_h"] == -140  # D = 308 < 400: no cap either way


def test_39_games_over_5_tournaments_use_k17_everywhere():
    # FIDE's published case: published K 20, n = 39 → K = ⌊700/39⌋ = 17 in every tournament.
    opps = {str(9000100 + i): 2000 for i in range(8)}
    prev_list = prev(p9000001=(2000, 20), **{f"p{k}": (2000, 20) for k in opps})
    tournaments = []
    results = [1, 0.5, 1, 0, 0.5, 1, 1, 0.5] * 5
    for ti, n_games in enumerate((8, 8, 8, 8, 7)):
        games = [(g + 1, "9000001", str(9000100 + g), results[ti * 8 + g]) for g in range(n_games)]
        t = event(date(2025, 11, 2 + 5 * ti), {"9000001": 2000, **opps}, games)
        tournaments.append(parse_trf(write_trf(t), source=f"t{ti}.trf"))  # as TRF events
    r = rate_period(tournaments, DEC25, previous=prev_list)
    me = row(r, "9000001")
    score = sum(results[ti * 8 + g] for ti, n in enumerate((8, 8, 8, 8, 7)) for g in range(n))
    assert me["games"] == 39
    assert {g.k for g in r.games_of("9000001")} == {17}
    assert me["change_h"] == 17 * round(100 * score - 39 * 50)
    assert me["new_rating"] == 2000 + (17 * (100 * score - 1950) + 50) // 100


def test_event_starting_31_october_uses_october_ratings_and_november_base():
    # FIDE's published case: ratings of the list in force at the start; the base is the previous list.
    t = event(date(2025, 10, 31), {"7": 2395, "8": 2300, "9": 2200, "10": 2100},
              [(1, "7", "8", 1), (1, "9", "10", 0.5), (2, "9", "7", 0.5), (2, "10", "8", 0),
               (3, "7", "10", 1), (3, "8", "9", 0.5)], end=date(2025, 11, 2))
    r = rate_period([t], DEC25, previous=prev(p7=(2400, 10), p8=(2310, 20), p9=(2190, 20),
                                              p10=(2100, 20)))
    me = row(r, "7")
    # 2395 vs 2300 (.63), 2200 (.75), 2100 (.85): +.37 −.25 +.15 = +.27 × K 10.
    assert (me["old_rating"], me["change_h"], me["new_rating"]) == (2400, 270, 2403)
    assert {g.own_rating for g in r.games_of("7")} == {2395}
    assert not any("suggests" in n for n in r.notes)


def test_first_rating_1922_from_3_of_5_against_9507():
    # FIDE's published case: Ra = (9507 + 3600) / 7, p = 4/7 → .57 → dp 50, Ru = 1922.
    opps = {"11": 1850, "12": 1880, "13": 1900, "14": 1927, "15": 1950}
    t = event(date(2025, 11, 12), {"20": None, **opps},
              [(i + 1, "20", o, s) for i, (o, s) in enumerate(zip(opps, (1, 0, 0.5, 0.5, 1), strict=True))])
    r = rate_period([t], DEC25, previous=prev(**{f"p{k}": v for k, v in opps.items()}))
    me = row(r, "20")
    assert (me["status"], me["new_rating"], me["pool_games"], me["pool_opponents_sum"]) == (
        "newly_rated", 1922, 5, 9507)
    assert initial_rating(list(opps.values()), 300, rules_for(NOV25)).value == 1922
    assert all(row(r, o)["games"] == 0 for o in opps)  # an unrated opponent gives no rated game


def test_zero_in_first_event_is_disregarded_but_a_later_zero_counts():
    opps = {"11": 1850, "12": 1880, "13": 1900, "14": 1927, "15": 1950}
    games = [(i + 1, o, "21", 1) for i, o in enumerate(opps)]
    t = event(date(2025, 11, 12), {"21": None, **opps}, games)
    previous = prev(**{f"p{k}": v for k, v in opps.items()})
    r = rate_period([t], DEC25, previous=previous)
    me = row(r, "21")
    assert (me["status"], me["pool_games"]) == ("unrated", 0)
    assert all(g.disregarded for g in r.pool) and len(r.pool) == 5
    assert any("scored nothing in their first event" in n and "Player 21 (No. 1 in t1)" in n
               for n in r.notes)
    later = rate_period([t], DEC25, previous=previous,
                        pools={("21", STD): Pool(games=0, events=1)})
    me = row(later, "21")
    # Ra = (9507 + 3600) / 7 = 1872.43; p = 1/7 → .14 → dp −309; Ru = 1563.43 → 1563 (≥ 1400).
    assert (me["pool_games"], me["status"], me["new_rating"]) == (5, "newly_rated", 1563)


def test_zero_in_first_event_with_a_better_second_event_in_the_same_period():
    opps = {"11": 1850, "12": 1880, "13": 1900, "14": 1927, "15": 1950}
    previous = prev(**{f"p{k}": v for k, v in opps.items()})
    first = event(date(2025, 11, 3), {"21": None, **opps}, [(1, "21", "11", 0), (2, "12", "21", 1)])
    second = event(date(2025, 11, 20), {"21": None, **opps},
                   [(i + 1, "21", o, 0.5) for i, o in enumerate(opps)])
    r = rate_period([second, first], DEC25, previous=previous)
    assert row(r, "21")["pool_games"] == 5
    assert {t: all(g.disregarded for g in r.pool if g.tournament == t) for t in ("t1", "t2")} == {
        "t1": False, "t2": True}


def test_rounding_half_away_from_zero_once_per_period():
    # A draw 2000 (K 10) vs 1807 (K 10): D = 193 → .75/.25 → −2.50 and +2.50 → −3 and +3.
    t = event(date(2025, 11, 5), {"1": 2000, "2": 1807}, [(1, "1", "2", 0.5)])
    r = rate_period([t], DEC25, previous=prev(p1=(2000, 10), p2=(1807, 10)))
    assert (row(r, "1")["change_h"], row(r, "1")["rounded_change"]) == (-250, -3)
    assert (row(r, "2")["change_h"], row(r, "2")["rounded_change"]) == (250, 3)
    # Two tournaments of +1.60 each: per tournament 2 + 2 = 4, per period round(3.20) = 3.
    a = event(date(2025, 11, 5), {"3": 2250, "4": 1800}, [(1, "3", "4", 1)])
    b = event(date(2025, 11, 20), {"3": 2250, "4": 1800}, [(1, "4", "3", 0)])
    r = rate_period([a, b], DEC25, previous=prev(p3=(2250, 20), p4=(1800, 20)))
    assert (row(r, "3")["change_h"], row(r, "3")["rounded_change"], row(r, "3")["new_rating"]) == (
        320, 3, 2253)
    assert row(r, "4")["rounded_change"] == -3


def test_forfeits_byes_short_games_and_unrated_opponents_are_not_rated():
    extra = (
        RoundResult(start_no=1, round=2, status=Status.FORFEIT_WIN, opponent_no=2, points=1.0),
        RoundResult(start_no=2, round=2, status=Status.FORFEIT_LOSS, opponent_no=1, points=0.0),
        RoundResult(start_no=1, round=3, status=Status.UNPLAYED, opponent_no=2, points=1.0),
        RoundResult(start_no=2, round=3, status=Status.UNPLAYED, opponent_no=1, points=0.0),
        RoundResult(start_no=1, round=4, status=Status.BYE, points=1.0),
        RoundResult(start_no=2, round=4, status=Status.HALF_BYE, points=0.5),
    )
    t = event(date(2025, 11, 5), {"1": 2000, "2": 1900, "3": None},
              [(1, "1", "2", 1), (5, "1", "3", 1)], extra=extra)
    r = rate_period([t], DEC25, previous=prev(p1=(2000, 20), p2=(1900, 20)))
    assert row(r, "1")["games"] == 1 and row(r, "2")["games"] == 1
    assert len(r.games) == 2


def test_rapid_600_point_rule_and_standard_rating_fallback():
    t = event(date(2025, 1, 10), {"1": 2700, "2": 2050, "3": 2300}, [(1, "1", "2", 1), (2, "3", "2", 0.5)],
              rl=RAPID)
    previous = {("1", RAPID): Standing(rating=2700, k=10), ("2", STD): Standing(rating=2050, k=20),
                ("3", RAPID): Standing(rating=2300, k=20)}
    r = rate_period([t], date(2025, 2, 1), previous=previous)
    assert row(r, "1", "rapid")["games"] == 0  # |D| = 650 ≥ 600 with a player above 2600 (RB24)
    two = row(r, "2", "rapid")
    assert (two["old_rating"], two["games"]) == (2050, 1)  # unrated in rapid: standard used
    assert two["change_h"] == 20 * (50 - 19)  # D = 250 → .81/.19 (K 20: established)
    # Unrated in rapid in the source itself, but rated 1900 in standard: rated both ways.
    t = event(date(2025, 1, 10), {"3": 2300, "4": None}, [(1, "3", "4", 0)], rl=RAPID)
    previous[("4", STD)] = Standing(rating=1900, k=20)
    r = rate_period([t], date(2025, 2, 1), previous=previous)
    assert row(r, "4", "rapid")["change_h"] == 20 * (100 - 8)  # 2300 − 1900 = 400 → .92/.08
    assert row(r, "3", "rapid")["games"] == 1


def test_lists_are_kept_apart_and_the_700_cap_counts_per_list():
    opps = {str(100 + i): 2000 for i in range(20)}
    std = event(date(2025, 11, 3), {"1": 2000, **opps}, [(i + 1, "1", o, 1) for i, o in enumerate(opps)])
    rapid = event(date(2025, 11, 9), {"1": 2000, **opps}, [(i + 1, "1", o, 0) for i, o in enumerate(opps)],
                  rl=RAPID)
    previous = {**prev(p1=(2000, 20)), ("1", RAPID): Standing(rating=2000, k=20),
                **{(o, rl): Standing(rating=2000, k=20) for o in opps for rl in (STD, RAPID)}}
    r = rate_period([std, rapid], DEC25, previous=previous)
    assert row(r, "1")["change_h"] == 20 * 20 * 50  # n = 20 per list: K 20 × 20 = 400 ≤ 700
    assert row(r, "1", "rapid")["change_h"] == -20 * 20 * 50


def test_2022_rules_cap_only_the_widest_game_per_tournament():
    t = event(date(2023, 5, 4), {"1": 2000, "2": 1500, "3": 1550, "4": 1900},
              [(1, "1", "2", 1), (2, "1", "3", 1), (3, "1", "4", 1)])
    r = rate_period([t], date(2023, 6, 1), previous=prev(p1=(2000, 20), p2=1500, p3=1550, p4=1900))
    mine = r.games_of("1")
    rules = rules_for(date(2023, 5, 4))
    assert [g.capped for g in mine] == cap_mask(2000, [1500, 1550, 1900], rules) == [True, False, False]
    assert [g.expected_h for g in mine] == [92, 94, 64]  # D 400 (capped), 450, 100


def test_rated_player_below_the_floor_drops_off():
    t = event(date(2025, 11, 5), {"1": 1410, "2": 1600}, [(1, "1", "2", 0), (2, "2", "1", 1)])
    r = rate_period([t], DEC25, previous=prev(p1=(1410, 40), p2=(1600, 20)))
    me = row(r, "1")
    # D = 190 → .25; K 40 × (0 − .25) × 2 = −20.00 → 1390 < 1400: unrated next list (R24 7.2.1).
    assert me["change_h"] == -2000
    assert me["status"] == "dropped_below_floor" and me["new_rating"] is None


def test_k_from_list_then_register_history_then_category():
    t = event(date(2025, 11, 5), {str(i): 2000 for i in range(1, 7)} | {"9": 2000},
              [(i, str(i), "9", 1) for i in range(1, 7)])
    previous = {
        ("1", STD): Standing(rating=2000, k=10),  # the list's K wins
        ("2", STD): Standing(rating=2000, games_total=10),  # fewer than 30 games → 40
        ("3", STD): Standing(rating=2000, games_total=30),  # → 20
        ("4", STD): Standing(rating=2000, games_total=300, reached_2400=True),  # → 10
        ("5", STD): Standing(rating=2000, games_total=300, birth_year=2008),  # junior → 40
        ("6", STD): Standing(rating=2000),  # nothing known → established 20
        ("9", STD): Standing(rating=2000, k=20),
    }
    r = rate_period([t], DEC25, previous=previous)
    ks = {k: r.games_of(k)[0].k for k in "123456"}
    assert ks == {"1": 10, "2": 40, "3": 20, "4": 10, "5": 40, "6": 20}


def test_identity_by_name_is_reported_and_corrections_apply():
    def anon(start: date, score: float) -> Tournament:
        t = event(start, {"1": 1900}, [])
        players = (Player(start_no=1, name="Doe, Jo", federation="IRL", birth_year=1990, rating=1900),
                   Player(start_no=2, name="Roe, Al", fide_id="2", rating=1900))
        res = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, points=score),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, points=1 - score))
        return Tournament(info=t.info, players=players, results=res)

    r = rate_period([anon(date(2025, 11, 3), 1), anon(date(2025, 11, 10), 1)], DEC25,
                    corrections={"2": 1950})
    jo = row(r, "doe jo|IRL|1990")
    assert jo["games"] == 2 and jo["fide_id"] == ""
    assert sum("without a FIDE id" in n and "Doe, Jo (No. 1 in t1)" in n for n in r.notes) == 1
    assert row(r, "2")["old_rating"] == 1950


def test_period_must_be_a_list_date_and_dates_that_suggest_another_period_warn():
    t = event(date(2025, 12, 10), {"1": 2000, "2": 2000}, [(1, "1", "2", 1)], end=date(2025, 12, 20))
    with pytest.raises(RatingError):
        rate_period([t], date(2025, 12, 2))
    r = rate_period([t], DEC25, previous=prev(p1=2000, p2=2000))
    assert any("suggests the 2026-01 list" in n for n in r.notes)
    r = rate_period([t], DEC25, previous=prev(p1=2000, p2=2000), keys=["x"], assigned={"x"})
    assert not any("suggests" in n for n in r.notes)
    assert default_period(date(2025, 10, 29)) == date(2025, 11, 1)
    assert default_period(date(2025, 10, 30)) == date(2025, 12, 1)
    assert default_period(date(2026, 2, 26)) == date(2026, 3, 1)


def test_no_time_control_is_rated_as_standard_with_a_note():
    t = event(date(2025, 11, 5), {"1": 2000, "2": 2000}, [(1, "1", "2", 1)], rl=None)
    r = rate_period([t], DEC25, previous=prev(p1=2000, p2=2000))
    assert row(r, "1")["games"] == 1
    assert any("rated as standard" in n for n in r.notes)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1400, 2700), min_size=1, max_size=30), st.data())
def test_vectorised_initial_rating_matches_rating_fide(opps, data):
    score_h = 50 * data.draw(st.integers(0, 2 * len(opps)))
    for rule, on in ((InitialRule.R24, date(2025, 1, 1)), (InitialRule.R22, date(2023, 1, 1))):
        rules = rules_for(on)
        assert rules.initial_rule is rule
        want = initial_rating(opps, score_h, rules)
        got = initial_ratings(np.array([len(opps)]), np.array([sum(opps)]), np.array([score_h]),
                              rules)[0]
        assert got == want.value  # the maximum (R24: 2200) included


def test_a_source_without_ratings_uses_the_list_in_force_at_its_start():
    t = event(date(2026, 9, 28), {"1": None, "2": None}, [(1, "1", "2", 1)], end=date(2026, 10, 2))
    previous = prev(p1=(2000, 20), p2=(1900, 20))  # the October list (T − 1 for November)
    september = {("1", STD): 1990, ("2", STD): 1910}
    r = rate_period([t], date(2026, 11, 1), previous=previous, in_force={date(2026, 9, 1): september})
    game = r.games_of("1")[0]
    assert (game.own_rating, game.opponent_rating, game.expected_h) == (1990, 1910, 61)
    assert row(r, "1")["old_rating"] == 2000 and row(r, "1")["change_h"] == 20 * 39
    assert any("ratings of the register used" in n for n in r.notes)
    r = rate_period([t], date(2026, 11, 1), previous=previous)
    game = r.games_of("1")[0]
    assert (game.own_rating, game.opponent_rating) == (2000, 1900)
    assert any("ratings of the given list used" in n for n in r.notes)


def test_a_player_rated_since_the_start_counts_as_unrated_for_opponents():
    # R24 8.2.4: unrated in the source, rated on the previous list → rated with that rating,
    # but the opponent's game against them is not rated.
    t = event(date(2025, 10, 31), {"1": None, "2": 2000}, [(1, "1", "2", 1)], end=date(2025, 11, 2))
    r = rate_period([t], DEC25, previous=prev(p1=(1800, 40), p2=(2000, 20)))
    assert row(r, "1")["games"] == 1 and row(r, "2")["games"] == 0
    assert row(r, "1")["change_h"] == 40 * (100 - 24)  # D = 200 → .24


def test_first_rating_is_capped_at_2200_and_duplicates_are_noted():
    opps = {str(10 + i): 2400 for i in range(5)}
    t = event(date(2025, 11, 12), {"20": None, **opps}, [(i + 1, "20", o, 1) for i, o in enumerate(opps)])
    twice = replace(t, info=replace(t.info, name="t again", start_date=date(2025, 11, 13)))
    r = rate_period([t, twice], DEC25, previous=prev(**{f"p{k}": v for k, v in opps.items()}))
    me = row(r, "20")
    # 10/10 (two events) + 2 draws: p = 11/12 → .92 → +401 on Ra 2300 → 2701 → 2200 (R24 8.2.3).
    assert (me["status"], me["new_rating"], me["pool_games"]) == ("newly_rated", 2200, 10)
    with pytest.raises(RatingError, match="the same event"):
        rate_period([t, t], DEC25)
    once = run_period([t, t], period=DEC25, ratings_list=prev(**{f"p{k}": v for k, v in opps.items()}),
                      today=DEC25)
    assert row(once, "20")["pool_games"] == 5
    assert any("show the same event" in n and "counted once" in n for n in once.notes)
