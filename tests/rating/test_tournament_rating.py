"""The tournament view (rating/tournament.py): per-game changes, reasons, K, scenarios."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from rating.systems.base import EloSystem, FideSystem
from rating.systems.ukd import UkdSystem
from rating.tournament import KSource, rate_tournament

D = Decimal


def make(players: list[Player], rounds: dict[int, list[tuple]], *, start=date(2026, 3, 1),
         rating_list=RatingList.STANDARD, focus=None) -> Tournament:
    """A tournament from players and, per start number, (opponent, points, status[, k, rtg])."""
    results = []
    for no, games in rounds.items():
        for rnd, g in enumerate(games, start=1):
            opp, pts, status, *extra = g
            k, published = [*extra, None, None][:2]
            results.append(RoundResult(start_no=no, round=rnd, status=status, opponent_no=opp,
                                       colour=Colour.WHITE if rnd % 2 else Colour.BLACK,
                                       points=pts, k=k,
                                       rating_change=None if published is None else D(published)))
    return Tournament(info=TournamentInfo(name="Test", start_date=start, rating_list=rating_list),
                      players=tuple(players), results=tuple(results), focus=focus)


P = Status.PLAYED

# UKD's worked tournament T2 under FIDE's table with the 400 cap (worked for UKD too: "Cap 400:
# round 6 becomes E .09, −1.80; total +18.80 → 1839"), laid out as a chess-results player card:
# published K and rtg+/- per game, none for the unrated opponent.
T2_OPPONENTS = [1850, 2050, 1700, 1910, 1790, 2200, 1650]
T2_POINTS = [0.5, 0, 1, 1, 0.5, 0, 1]
T2_PUBLISHED = ["0.80", "-4.20", "6.80", "12.40", "-0.80", "-1.80", "5.60"]


def t2_card() -> Tournament:
    players = [Player(start_no=1, name="Card, Player", rating=1820, fide_id="1001",
                      rating_change=D("18.8"))]
    players += [Player(start_no=i + 2, name=f"Opp {i + 2}", rating=r)
                for i, r in enumerate(T2_OPPONENTS)]
    players.append(Player(start_no=20, name="Unrated, Una"))
    games = [(i + 2, pts, P, 20, pub)
             for i, (pts, pub) in enumerate(zip(T2_POINTS, T2_PUBLISHED, strict=True))]
    games.append((20, 1, P))  # K and rtg+/- cells missing: not rated
    return make(players, {1: games}, focus=1)


def test_player_card_published_changes_match_to_the_hundredth():
    tr = rate_tournament(t2_card())
    card = tr.player(1)
    assert card.k == 20 and card.k_source is KSource.CARD
    rated = [ln for ln in card.rounds if ln.rated]
    assert [str(ln.change) for ln in rated] == T2_PUBLISHED
    assert all(ln.change == ln.published_change for ln in rated)
    unrated = card.rounds[-1]
    assert not unrated.rated and unrated.reason == "opponent unrated"
    assert card.change == D("18.80") == card.published_change
    assert card.new_rating == 1839
    assert card.rated_games == 7 and card.score == 4


def test_chess_results_spec_example_draw_with_black():
    # A chess-results player card: 1850, K 20, draws with Black against 1893 → 1,20.
    t = make([Player(start_no=1, name="A", rating=1850), Player(start_no=57, name="Doe, John",
                                                                rating=1893)],
             {1: [(57, 0.5, P, 20, "1.20")]})
    line = rate_tournament(t).player(1).rounds[0]
    assert (line.expected, line.change, line.k) == (D("0.44"), D("1.20"), 20)


def test_published_k_wins_over_the_category():
    players = [Player(start_no=1, name="A", rating=1500, birth_year=1980),
               Player(start_no=2, name="B", rating=1600)]
    t = make(players, {1: [(2, 1, P, 40)]})
    line = rate_tournament(t).player(1).rounds[0]
    assert line.k == 40 and line.change == D("25.60")


def test_unplayed_rounds_are_listed_with_reasons():
    players = [Player(start_no=i, name=f"P{i}", rating=2000) for i in range(1, 6)]
    t = make(players, {1: [(2, 1, Status.FORFEIT_WIN), (3, 0, Status.FORFEIT_LOSS),
                           (4, 0, Status.UNPLAYED), (None, 1, Status.BYE),
                           (None, 0.5, Status.HALF_BYE), (None, 0, Status.ABSENT),
                           (5, None, Status.PENDING)]})
    rounds = rate_tournament(t).player(1).rounds
    assert [ln.rated for ln in rounds] == [False] * 7
    reasons = [ln.reason for ln in rounds]
    assert reasons[:3] == ["forfeit", "forfeit",
                           "less than one move"]
    assert reasons[3:] == ["bye", "half-point bye", "absent / not paired",
                           "pending"]
    assert rate_tournament(t).player(1).points == D("2.5")


def test_opponent_missing_from_the_list():
    t = make([Player(start_no=1, name="A", rating=2000)], {1: [(9, 1, P)]})
    line = rate_tournament(t).player(1).rounds[0]
    assert not line.rated and line.reason == "opponent not in the player list"


def test_scenarios_for_a_pending_game():
    players = [Player(start_no=1, name="A", rating=1500, birth_year=1990),
               Player(start_no=2, name="B", rating=1600), Player(start_no=3, name="C", rating=1400)]
    t = make(players, {1: [(3, 1, P), (2, None, Status.PENDING)]})
    pr = rate_tournament(t).player(1)
    (s,) = pr.scenarios
    assert (s.round, s.opponent_no, s.k, s.expected) == (2, 2, 20, D("0.36"))
    assert (s.win, s.draw, s.loss) == (D("12.80"), D("2.80"), D("-7.20"))
    assert s.total_if_win == pr.change + s.win
    assert s.win - s.loss == s.k and s.draw * 2 == s.win + s.loss


def test_a_pending_game_that_will_not_be_rated_is_a_scenario_with_its_reason():
    players = [Player(start_no=1, name="A", rating=1500, birth_year=1990),
               Player(start_no=2, name="B"), Player(start_no=3, name="C", rating=1400)]
    t = make(players, {1: [(3, 1, P), (2, None, Status.PENDING)],
                       3: [(1, 0, P), (9, None, Status.PENDING)]})
    tr = rate_tournament(t)
    pr = tr.player(1)
    (s,) = pr.scenarios
    assert (s.rated, s.reason, s.opponent_rating, s.k, s.win, s.draw, s.loss) == (
        False, "opponent unrated", None, None, None, None, None)
    assert s.total_if_win == s.total_if_draw == s.total_if_loss == pr.change
    (gone,) = tr.player(3).scenarios
    assert (gone.rated, gone.reason) == (False, "opponent not in the player list")


@given(own=st.integers(1000, 2800), opp=st.integers(1000, 2800),
       others=st.lists(st.integers(1000, 2800), max_size=4),
       start=st.sampled_from([date(2023, 5, 1), date(2024, 5, 1), date(2026, 1, 1)]))
def test_scenario_consistency(own, opp, others, start):
    players = [Player(start_no=1, name="A", rating=own, birth_year=1970),
               Player(start_no=2, name="B", rating=opp)]
    players += [Player(start_no=3 + i, name=f"O{i}", rating=r) for i, r in enumerate(others)]
    games = [(3 + i, 0.5, P) for i in range(len(others))] + [(2, None, Status.PENDING)]
    pr = rate_tournament(make(players, {1: games}, start=start)).player(1)
    (s,) = pr.scenarios
    assert s.win - s.loss == s.k
    assert s.draw - s.loss == s.win - s.draw
    assert (s.total_if_win, s.total_if_draw, s.total_if_loss) == (
        pr.change + s.win, pr.change + s.draw, pr.change + s.loss)


def test_k_precedence_and_default_warning():
    players = [Player(start_no=1, name="Listed", rating=2100, fide_id="11"),
               Player(start_no=2, name="Published", rating=2100, k=40),
               Player(start_no=3, name="Junior", rating=2100, birth_year=2012),
               Player(start_no=4, name="Master", rating=2300, title="IM"),
               Player(start_no=5, name="Nobody, Known", rating=2100)]
    rounds = {i: [(1 if i != 1 else 2, 0.5, P)] for i in range(1, 6)}
    tr = rate_tournament(make(players, rounds), k_lookup=lambda p: 30 if p.fide_id else None,
                         k_default=15)
    got = {p.start_no: (p.k, p.k_source) for p in tr.players}
    assert got == {1: (30, KSource.LIST), 2: (40, KSource.SOURCE), 3: (40, KSource.CATEGORY),
                   4: (10, KSource.CATEGORY), 5: (15, KSource.DEFAULT)}
    assert tr.default_k_players == (5,)


def test_unrated_player_gets_performance_and_initial_rating():
    # R24 7.1.4 and 8.2: 5 games, 3 points, opponents summing to 9507 → 1922.
    opps = [1900, 1901, 1902, 1902, 1902]
    players = [Player(start_no=1, name="New")]
    players += [Player(start_no=i + 2, name=f"O{i}", rating=r) for i, r in enumerate(opps)]
    pts = [1, 1, 1, 0, 0]
    pr = rate_tournament(make(players, {1: [(i + 2, s, P) for i, s in enumerate(pts)]})).player(1)
    assert pr.rating is None and pr.new_rating is None and pr.k is None
    assert pr.initial is not None and pr.initial.value == 1922 and pr.initial.published
    assert pr.performance == 1901 + 72  # Ra 1901.4 → 1901; p 3/5 = 0.60 → dp 72 (table 8.1.1)
    assert all(ln.reason == "player unrated" for ln in pr.rounds)


def test_no_initial_rating_below_five_games():
    players = [Player(start_no=1, name="New"), Player(start_no=2, name="O", rating=1800)]
    pr = rate_tournament(make(players, {1: [(2, 1, P)]})).player(1)
    assert pr.performance == 2600
    # the workings so far, not published: (1800 + 2 × 1800) / 3 = 1800, p (1 + 1) / 3 = .67
    i = pr.initial
    assert i is not None and not i.published and i.reason == "1 of 5 games against rated opponents"
    assert (i.games, i.average, i.p_h, i.score_h, i.hypothetical, i.hypothetical_rating,
            i.min_games) == (1, 1800, 67, 100, 2, 1800, 5)


def test_once_per_tournament_cap_2022():
    # R22 8.3.1: only the game with the greatest |D| > 400 is capped.
    players = [Player(start_no=1, name="A", rating=2000, birth_year=1970),
               Player(start_no=2, name="B", rating=1500), Player(start_no=3, name="C", rating=1450)]
    t = make(players, {1: [(2, 1, P), (3, 1, P)]}, start=date(2023, 6, 1))
    rounds = rate_tournament(t).player(1).rounds
    assert [ln.capped for ln in rounds] == [False, True]
    assert [ln.expected for ln in rounds] == [D("0.96"), D("0.92")]  # D 500 uncapped


def test_no_cap_from_2650_after_october_2025():
    players = [Player(start_no=1, name="Top", rating=2800), Player(start_no=2, name="B",
                                                                   rating=1800)]
    t = make(players, {1: [(2, 1, P)], 2: [(1, 0, P)]}, start=date(2025, 10, 1))
    tr = rate_tournament(t)
    assert tr.player(1).rounds[0].change == D("0.00")  # D 1000 → PD 1.00
    assert tr.player(2).rounds[0].expected == D("0.08")  # capped for the 1800 player


def test_rules_follow_the_start_date_and_list():
    players = [Player(start_no=1, name="A", rating=2000), Player(start_no=2, name="B", rating=2000)]
    tr = rate_tournament(make(players, {1: [(2, 1, P)]}, rating_list=None, start=date(2024, 6, 1)))
    assert tr.rating_list is RatingList.STANDARD and tr.rules.startswith("FIDE 2024-03")
    assert any("rated as standard" in n for n in tr.notes)


def test_missing_start_date():
    players = [Player(start_no=1, name="A", rating=2000)]
    t = make(players, {}, start=None)
    with pytest.raises(RatingError):
        rate_tournament(t)
    tr = rate_tournament(t, on=date(2026, 5, 1))
    assert tr.on == date(2026, 5, 1) and any("gives no event date" in n for n in tr.notes)


def test_system_is_a_parameter():
    players = [Player(start_no=1, name="A", rating=1500, national_rating=1820),
               Player(start_no=2, name="B", rating=1200, national_rating=1850)]
    t = make(players, {1: [(2, 1, P)]})
    elo = rate_tournament(t, "elo", k_default=32).player(1)
    assert elo.rounds[0].expected == D("0.849") and elo.change == D("4.832")
    fide = rate_tournament(t, FideSystem.on(date(2026, 3, 1))).player(1)
    assert fide.rounds[0].expected == D("0.85")
    capped = rate_tournament(t, EloSystem(cap=100, default_k=10)).player(1)
    assert capped.rounds[0].capped


def test_ukd_system_uses_national_ratings():
    ukd = pytest.importorskip("rating.systems.ukd")
    # UKD's worked tournament T2: UKD 1820 (K 20), cap 350 → +18.40 → 1838.
    players = [Player(start_no=1, name="A", rating=2100, national_rating=1820, k=10)]
    players += [Player(start_no=i + 2, name=f"O{i}", national_rating=r, rating=2000)
                for i, r in enumerate(T2_OPPONENTS)]
    games = [(i + 2, pts, P, 10) for i, pts in enumerate(T2_POINTS)]
    pr = rate_tournament(make(players, {1: games}), ukd.UkdSystem()).player(1)
    assert pr.k == 20 and pr.k_source is KSource.CATEGORY  # the card's FIDE K is not UKD's
    assert [str(ln.change) for ln in pr.rounds] == ["0.80", "-4.20", "6.80", "12.40", "-0.80",
                                                   "-2.20", "5.60"]
    assert pr.change == D("18.40") and pr.new_rating == 1838


def test_new_rating_rounds_half_away_from_zero():
    # UKD's worked tournament T6b under FIDE: 1504 (K 25), two draws v 1500 (E .51) → −0.50
    # → 1503.
    players = [Player(start_no=1, name="A", rating=1504, k=25),
               Player(start_no=2, name="B", rating=1500), Player(start_no=3, name="C", rating=1500)]
    pr = rate_tournament(make(players, {1: [(2, 0.5, P), (3, 0.5, P)]})).player(1)
    assert pr.change == D("-0.50") and pr.new_rating == 1503


def test_ukd_game_against_an_opponent_without_ukd_keeps_its_own_k():
    ukd = pytest.importorskip("rating.systems.ukd")
    system = ukd.UkdSystem()
    players = [Player(start_no=1, name="A", national_rating=1500),
               Player(start_no=2, name="B", rating=1650), Player(start_no=3, name="C")]
    pr = rate_tournament(make(players, {1: [(2, 0.5, P), (3, 1, P)]}), system).player(1)
    draw, win = pr.rounds
    assert (pr.k, pr.k_before_cap) == (25, None)  # the player's own K, though no game used it
    assert draw.rated and draw.k == system.fixed_k and draw.change == 0
    assert win.k == system.fixed_k and "without UKD" in win.reason


def marathon(**player: object) -> Tournament:
    """Player 1 (rated 1500) beats twenty players rated 1500, one per round."""
    players = [Player(start_no=1, name="Marathon", rating=1500, national_rating=1500, **player)]
    players += [Player(start_no=i, name=f"O{i}", rating=1500, national_rating=1500)
                for i in range(2, 22)]
    return make(players, {1: [(i, 1, P) for i in range(2, 22)]})


def test_fide_k_is_reduced_so_that_k_times_n_stays_within_700():
    # R24 8.3.3: a junior's K 40 over 20 games is 800 > 700 → K = ⌊700 / 20⌋ = 35.
    tr = rate_tournament(marathon(birth_year=2014))
    pr = tr.player(1)
    assert (pr.k, pr.k_before_cap, pr.k_source) == (35, 40, KSource.CATEGORY)
    assert {ln.k for ln in pr.rounds} == {35} and pr.change == D("350.00")
    assert [n.sentence for n in tr.player_notes] == [
        "K reduced so that K × rated games stays within 700: K 40 → 35"]
    assert tr.player_notes[0].start_no == 1 and tr.notes == ()


def test_no_k_cap_for_elo_and_ukd_or_a_card_k():
    elo = rate_tournament(marathon(k=40), "elo").player(1)
    assert (elo.k, elo.k_before_cap, elo.k_source) == (40, None, KSource.SOURCE)
    ukd = rate_tournament(marathon(), "ukd").player(1)
    assert (ukd.k, ukd.k_before_cap, ukd.k_source) == (25, None, KSource.CATEGORY)
    t = marathon()
    card = Tournament(info=t.info, players=t.players,
                      results=tuple(replace(r, k=40) for r in t.results))
    pr = rate_tournament(card).player(1)
    assert (pr.k, pr.k_before_cap, pr.k_source) == (40, None, KSource.CARD)
    assert {ln.k for ln in pr.rounds} == {40}  # the card's own K, as published


def test_systems_by_name_and_their_k():
    t = marathon(k=10)
    assert rate_tournament(t, "ukd") == rate_tournament(t, UkdSystem())
    assert rate_tournament(t, "elo", k_default=32) == rate_tournament(t, EloSystem(default_k=32),
                                                                      k_default=32)
    # a national system takes no K published for FIDE: UKD's band K for 1500 is 25
    assert rate_tournament(t, "ukd").player(1).k == 25
    with pytest.raises(ValueError, match="unknown rating system 'glicko': use fide, elo, ukd"):
        rate_tournament(t, "glicko")


def test_ukd_notes_an_event_off_its_list():
    t = marathon()
    rapid = Tournament(info=replace(t.info, rating_list=RatingList.RAPID), players=t.players,
                       results=t.results)
    assert ("UKD is the standard-time rating: this event was rated as asked, but TSF may not "
            "rate it") in rate_tournament(rapid, "ukd").notes
    assert not any("TSF" in n for n in rate_tournament(t, "ukd").notes)


def born_this_year() -> Tournament:
    """A 2026 event whose source gives one player the event's own year as birth year."""
    players = (Player(start_no=1, name="Young, Yan", rating=1500, birth_year=2026),
               Player(start_no=2, name="Old, Ola", rating=1600, birth_year=2010))
    results = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2,
                           colour=Colour.WHITE, points=Decimal(1)),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1,
                           colour=Colour.BLACK, points=Decimal(0)))
    return Tournament(info=TournamentInfo(name="Spring", start_date=date(2026, 5, 1), rounds=1),
                      players=players, results=results)


def test_a_birth_year_of_the_events_own_year_decides_no_k_and_is_said_once():
    """A source that gives the event's year as a birth year: not a player's age (K 40 as a
    junior would be a guess), so the K is the default's, and one note names the player."""
    t = born_this_year()
    rated = rate_tournament(t)
    young, old = rated.players
    assert (young.k, young.k_source) == (20, KSource.DEFAULT)
    assert (old.k, old.k_source) == (40, KSource.CATEGORY)  # 16 years old: a junior
    (note,) = [n for n in rated.player_notes if "birth year" in n.text]
    assert note.start_no == 1 and note.detail == "born 2026"


def test_the_period_leaves_out_the_same_birth_year_and_says_so_once():
    """The month as the report: the birth year 2026 in a 2026 event decides no K (K 20, not a
    junior's 40), and one note names the player."""
    from rating.period.engine import rate_period

    t = born_this_year()
    month = rate_period([t], date(2026, 6, 1))
    ks = {p.name: p.k for p in month.players}
    assert ks == {"Young, Yan": "20", "Old, Ola": "40"}
    said = [n for n in month.notes if "birth year in" in n]
    assert len(said) == 1 and "Young, Yan" in said[0] and "Old, Ola" not in said[0]
