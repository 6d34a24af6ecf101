"""UKD, the Turkish national rating: table, cap, K, modes, rounding and worked tournaments."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.model import RatingList
from rating import numbers
from rating.errors import RatingError
from rating.results import GameRating
from rating.systems.base import PlayerFacts, rate_games
from rating.systems.ukd import (
    DEFAULT_CAP,
    FIRST_UKD_MIN_GAMES,
    K_BANDS,
    K_TOP,
    MAX_UKD,
    MIN_UKD,
    Below1000,
    FirstUkd,
    Rounding,
    RoundScope,
    UkdSystem,
    UnratedOpponent,
    apply_floor,
    archive_first_ukd,
    change_h,
    expected_h,
    first_ukd,
    floor_note,
    invalid_ukd_reason,
    k_for,
    names_turkish_national_rating,
    outcomes_h,
    round_total,
    running_totals,
    total_change,
    usable_ukd,
)

W, DRAW, L = Decimal(1), Decimal("0.5"), Decimal(0)
D = Decimal
DEFAULT = UkdSystem()
CAP400 = UkdSystem(cap=400)
MODE_A = UkdSystem(unrated_opponent=UnratedOpponent.CAP)
MODE_D = UkdSystem(unrated_opponent=UnratedOpponent.SKIP)

# FIDE's table 8.1.2 as UKD uses it, transcribed: (lowest D, highest D, PD of the higher-rated
# player in hundredths).
SPEC_TABLE = (
    (0, 3, 50), (4, 10, 51), (11, 17, 52), (18, 25, 53), (26, 32, 54), (33, 39, 55), (40, 46, 56),
    (47, 53, 57), (54, 61, 58), (62, 68, 59), (69, 76, 60), (77, 83, 61), (84, 91, 62), (92, 98, 63),
    (99, 106, 64), (107, 113, 65), (114, 121, 66), (122, 129, 67), (130, 137, 68), (138, 145, 69),
    (146, 153, 70), (154, 162, 71), (163, 170, 72), (171, 179, 73), (180, 188, 74), (189, 197, 75),
    (198, 206, 76), (207, 215, 77), (216, 225, 78), (226, 235, 79), (236, 245, 80), (246, 256, 81),
    (257, 267, 82), (268, 278, 83), (279, 290, 84), (291, 302, 85), (303, 315, 86), (316, 328, 87),
    (329, 344, 88), (345, 357, 89), (358, 374, 90), (375, 391, 91), (392, 411, 92),
)


def rows(games: list[GameRating]) -> list[tuple[Decimal | None, Decimal | None]]:
    """(E, ΔR) per game; (None, None) when not rated."""
    return [(g.expected, g.change) if g.rated else (None, None) for g in games]


def provisional(system: UkdSystem, own: int, games: list[GameRating]) -> list[int | None]:
    """The provisional UKD after each game: R_p + round(cum)."""
    return [system.new_rating(own, c) for c in running_totals(games)]


# --- the table and the difference cap ---

def test_spec_table_pinned_row_for_row():
    assert SPEC_TABLE[0][0] == 0
    for (_, hi, _), (lo, _, _) in pairwise(SPEC_TABLE):
        assert lo == hi + 1  # contiguous bands: every integer D is covered
    for lo, hi, pd in SPEC_TABLE:
        for d in (lo, (lo + hi) // 2, hi):
            assert expected_h(1000 + d, 1000, cap=None) == pd, d
            assert expected_h(1000, 1000 + d, cap=None) == (100 - pd if d else 50), d
            assert expected_h(1000 + d, 1000, cap=411) == pd, d  # any cap ≥ 411 reaches every row


@pytest.mark.parametrize(("d", "cap350", "cap400"), [
    (3, 50, 50), (4, 51, 51), (10, 51, 51), (11, 52, 52), (344, 88, 88), (345, 89, 89),
    (350, 89, 89), (351, 89, 89), (380, 89, 91), (400, 89, 92), (1000, 89, 92),
])
def test_6_1_table_lookups(d, cap350, cap400):
    assert expected_h(1500 + d, 1500) == cap350
    assert expected_h(1500 + d, 1500, cap=400) == cap400
    assert DEFAULT.expected(1500 + d, 1500, capped=d > 350) == Decimal(cap350).scaleb(-2)
    assert CAP400.expected(1500 + d, 1500, capped=d > 400) == Decimal(cap400).scaleb(-2)


@pytest.mark.parametrize(("opponent", "e", "win", "draw", "loss"), [
    (1503, "0.50", 1250, 0, -1250),
    (1504, "0.49", 1275, 25, -1225),
    (1844, "0.12", None, None, None),
    (1845, "0.11", 2225, 975, -275),
    (1850, "0.11", 2225, 975, -275),
    (1900, "0.11", 2225, 975, -275),
    (1600, "0.36", 1600, 350, -900),
])
def test_6_1_one_player_at_1500(opponent, e, win, draw, loss):
    capped = DEFAULT.cap_mask(1500, [opponent])[0]
    assert DEFAULT.expected(1500, opponent, capped=capped) == Decimal(e)
    if win is not None:
        assert outcomes_h(25, expected_h(1500, opponent)) == (win, draw, loss)
        assert win - loss == 2500  # the scenario invariant win − loss = K


def test_expected_returns_two_place_decimals():
    assert str(DEFAULT.expected(1500, 1600, capped=False)) == "0.36"
    assert str(DEFAULT.expected(1500, 1500, capped=False)) == "0.50"


def test_cap_mask_is_every_game_over_the_cap():
    assert DEFAULT.cap_mask(1500, [1850, 1851, 1149, 1150, 1500]) == [False, True, True, False, False]
    assert UkdSystem(cap=None).cap_mask(1500, [3000]) == [False]
    assert expected_h(1500, 3000, cap=None) == 0  # no cap: FIDE's rows beyond 411 (D ≥ 736 → 1.00)


# --- K ---

@pytest.mark.parametrize(("ukd", "k", "win_h"), [
    (1299, 30, 1500), (1300, 25, 1250), (1599, 25, 1250), (1600, 20, 1000), (1999, 20, 1000),
    (2000, 15, 750), (2399, 15, 750), (2400, 10, 500),
])
def test_6_2_k_bands(ukd, k, win_h):
    assert k_for(ukd) == k
    assert change_h(k, 100, expected_h(ukd, ukd)) == win_h
    (g,) = DEFAULT.rate(ukd, k_for(ukd), [(ukd, W)])
    assert g.change == Decimal(win_h).scaleb(-2)


def test_k_extremes_and_a_player_without_ukd():
    assert k_for(1000) == 30 and k_for(2900) == 10
    assert DEFAULT.k(PlayerFacts(rating=1650, games_played=3, birth_year=2015, year=2026)) == 20
    assert DEFAULT.k(PlayerFacts(rating=None)) == 0


# --- worked tournaments (T1 …), round by round ---
# Source: the project's UKD spec (shared/spec/ukd.md §6.3), whose cases marked ✓JS are the
# figures the public calculator ukd-proxy (JavaScript) gives for the same games; TSF itself
# has published no worked example (docs/ukd.md).

def test_t1_default_mode_b():
    games = DEFAULT.rate(1500, k_for(1500), [(1600, W), (1450, DRAW), (1700, L), (None, W), (1200, W)])
    assert rows(games) == [(D("0.36"), D("16.00")), (D("0.57"), D("-1.75")), (D("0.24"), D("-6.00")),
                           (D("0.50"), D("3.00")), (D("0.85"), D("3.75"))]
    assert running_totals(games) == [D("16.00"), D("14.25"), D("8.25"), D("11.25"), D("15.00")]
    assert provisional(DEFAULT, 1500, games) == [1516, 1514, 1508, 1511, 1515]
    assert "opponent without UKD: estimate (mode fixed" in games[3].reason
    assert "K 6" in games[3].reason


def test_t1_other_modes():
    played = [(1600, W), (1450, DRAW), (1700, L), (None, W), (1200, W)]
    a = MODE_A.rate(1500, k_for(1500), played)
    assert rows(a)[3] == (D("0.89"), D("2.75")) and a[3].capped
    assert total_change(a) == D("14.75") and MODE_A.new_rating(1500, total_change(a)) == 1515
    d = MODE_D.rate(1500, k_for(1500), played)
    assert not d[3].rated and d[3].reason == "opponent without UKD (skip)"
    assert total_change(d) == D("12.00") and MODE_D.new_rating(1500, total_change(d)) == 1512


def test_t2_k20_with_a_capped_game():
    played = [(1850, DRAW), (2050, L), (1700, W), (1910, W), (1790, DRAW), (2200, L), (1650, W)]
    games = DEFAULT.rate(1820, k_for(1820), played)
    assert [g.expected for g in games] == [D(x) for x in
                                           ("0.46", "0.21", "0.66", "0.38", "0.54", "0.11", "0.72")]
    assert [g.change for g in games] == [D(x) for x in
                                         ("0.80", "-4.20", "6.80", "12.40", "-0.80", "-2.20", "5.60")]
    assert running_totals(games) == [D(x) for x in
                                     ("0.80", "-3.40", "3.40", "15.80", "15.00", "12.80", "18.40")]
    assert [g.capped for g in games] == [False] * 5 + [True, False]
    assert DEFAULT.new_rating(1820, total_change(games)) == 1838
    wide = CAP400.rate(1820, k_for(1820), played)
    assert rows(wide)[5] == (D("0.09"), D("-1.80"))
    assert total_change(wide) == D("18.80") and CAP400.new_rating(1820, D("18.80")) == 1839


def test_t3_junior_modes_b_a_d():
    played = [(1250, W), (1400, L), (None, W), (None, L), (1100, DRAW)]
    b = DEFAULT.rate(1180, k_for(1180), played)
    assert rows(b) == [(D("0.40"), D("18.00")), (D("0.22"), D("-6.60")), (D("0.50"), D("3.00")),
                       (D("0.50"), D("-3.00")), (D("0.61"), D("-3.30"))]
    assert total_change(b) == D("8.10") and DEFAULT.new_rating(1180, D("8.10")) == 1188
    a = MODE_A.rate(1180, k_for(1180), played)
    assert rows(a)[2:4] == [(D("0.89"), D("3.30")), (D("0.89"), D("-26.70"))]
    assert total_change(a) == D("-15.30") and MODE_A.new_rating(1180, D("-15.30")) == 1165
    d = MODE_D.rate(1180, k_for(1180), played)
    assert total_change(d) == D("8.10") and MODE_D.new_rating(1180, D("8.10")) == 1188


def test_t4_k10_and_the_cap_400_tie():
    played = [(2300, DRAW), (2500, W), (1990, W)]
    games = DEFAULT.rate(2450, k_for(2450), played)
    assert rows(games) == [(D("0.70"), D("-2.00")), (D("0.43"), D("5.70")), (D("0.89"), D("1.10"))]
    assert total_change(games) == D("4.80") and DEFAULT.new_rating(2450, D("4.80")) == 2455
    wide = CAP400.rate(2450, k_for(2450), played)
    assert rows(wide)[2] == (D("0.92"), D("0.80"))
    total = total_change(wide)
    assert total == D("4.50")
    assert [UkdSystem(cap=400, rounding=r).new_rating(2450, total) for r in Rounding] == [
        2455, 2455, 2454]
    assert 2450 + round(total) == 2454  # the forbidden half-even differs from the default


def test_t5_loss_to_1000():
    (g,) = DEFAULT.rate(1500, k_for(1500), [(1000, L)])
    assert rows([g]) == [(D("0.89"), D("-22.25"))] and DEFAULT.new_rating(1500, g.change or D(0)) == 1478
    (w,) = CAP400.rate(1500, k_for(1500), [(1000, L)])
    assert rows([w]) == [(D("0.92"), D("-23.00"))] and CAP400.new_rating(1500, D("-23.00")) == 1477


@pytest.mark.parametrize(("own", "played", "total", "away", "up", "trunc"), [
    (1500, [(1504, DRAW), (1504, DRAW)], "0.50", 1501, 1501, 1500),
    (1504, [(1500, DRAW), (1500, DRAW)], "-0.50", 1503, 1504, 1504),
    (1200, [(1010, L)], "-22.50", 1177, 1178, 1178),
])
def test_t6_rounding_ties(own, played, total, away, up, trunc):
    games = DEFAULT.rate(own, k_for(own), played)
    assert total_change(games) == D(total)
    got = [UkdSystem(rounding=r).new_rating(own, D(total)) for r in
           (Rounding.HALF_AWAY, Rounding.HALF_UP, Rounding.TRUNCATE)]
    assert got == [away, up, trunc]


def test_t7_forfeit_and_bye_are_not_rated():
    played = DEFAULT.rate(1650, k_for(1650), [(1700, W), (1580, L)])
    forfeit = GameRating(None, W, rated=False, reason="forfeit")
    bye = GameRating(None, W, rated=False, reason="bye")
    rounds = [played[0], forfeit, bye, played[1]]
    assert rows(played) == [(D("0.43"), D("11.40")), (D("0.60"), D("-12.00"))]
    assert running_totals(rounds) == [D("11.40"), D("11.40"), D("11.40"), D("-0.60")]
    assert sum(g.score for g in rounds) == 3  # tournament points 3/4, rated score 1 from 2
    assert DEFAULT.new_rating(1650, total_change(rounds)) == 1649


def test_t8_k_and_rating_stay_at_the_pre_tournament_value():
    games = DEFAULT.rate(1595, k_for(1595), [(1600, W), (1620, W), (1700, DRAW)])
    assert rows(games) == [(D("0.49"), D("12.75")), (D("0.47"), D("13.25")), (D("0.36"), D("3.50"))]
    assert running_totals(games) == [D("12.75"), D("26.00"), D("29.50")]
    assert provisional(DEFAULT, 1595, games) == [1608, 1621, 1625]


def test_t9_opponents_without_ukd_and_the_fide_fallback():
    played = [(0, W), (950, L)]
    games = DEFAULT.rate(1400, k_for(1400), played, opponent_fide=[1650, None])
    assert rows(games) == [(D("0.50"), D("3.00")), (D("0.50"), D("-3.00"))]
    assert "below 1000" in games[1].reason and games[1].opponent_rating is None
    assert DEFAULT.new_rating(1400, total_change(games)) == 1400
    fallback = UkdSystem(opponent_fide_fallback=True)
    fb = fallback.rate(1400, k_for(1400), played, opponent_fide=[1650, None])
    assert rows(fb) == [(D("0.19"), D("20.25")), (D("0.50"), D("-3.00"))]
    assert "FIDE rating 1650 used" in fb[0].reason and fb[0].opponent_rating == 1650
    assert total_change(fb) == D("17.25") and fallback.new_rating(1400, D("17.25")) == 1417


@pytest.mark.parametrize(("opponents", "score", "avg", "rp", "eligible", "reason"), [
    ([1100, 1300, 1150, 1250, 1200, 1200, 1200], "3.5", 1200, 1200, True,
     "eligible for first UKD (estimate)"),
    ([1200] * 5, "2.5", 1200, 1200, False, "archived: fewer than 7 games"),
    ([1100] * 7, "0", 1100, 300, False, "archived: performance ≤ 1000"),
])
def test_t10_player_without_ukd(opponents, score, avg, rp, eligible, reason):
    scores = [D(score) / len(opponents)] * len(opponents)
    first = first_ukd(list(zip(opponents, scores, strict=True)))
    assert (first.games, first.average, first.performance, first.eligible, first.reason) == (
        len(opponents), avg, rp, eligible, reason)
    games = DEFAULT.rate(None, 0, list(zip(opponents, scores, strict=True)))
    assert all(not g.rated and g.reason == "player without UKD" for g in games)  # no change shown


def test_first_ukd_counts_only_opponents_with_a_valid_ukd():
    first = first_ukd([(1200, W), (None, W), (950, W), (0, L)] + [(1200, DRAW)] * 6)
    assert (first.games, first.p_h, first.dp, first.performance) == (7, 57, 50, 1250)
    assert first_ukd([(None, W)]).performance is None


# --- arithmetic and rounding ---

def test_round_total_modes():
    cases = [D("-22.5"), D("22.5"), D("-0.5"), D("0.5"), D("4.5"), D("-0.49"), D("2.51"), D("0")]
    assert [round_total(x) for x in cases] == [-23, 23, -1, 1, 5, 0, 3, 0]
    assert [round_total(x, Rounding.HALF_UP) for x in cases] == [-22, 23, 0, 1, 5, 0, 3, 0]
    assert [round_total(x, Rounding.TRUNCATE) for x in cases] == [-22, 22, 0, 0, 4, 0, 2, 0]


@given(st.integers(-100_000, 100_000))
def test_round_total_agrees_with_integer_hundredths(h):
    total = Decimal(h).scaleb(-2)
    assert round_total(total) == numbers.round_half_away(h)
    assert round_total(total, Rounding.HALF_UP) == (h + 50) // 100
    assert round_total(total, Rounding.TRUNCATE) == (abs(h) // 100) * (1 if h >= 0 else -1)


def test_round_scope():
    totals = [D("0.50"), D("0.50"), D("-0.40")]
    assert DEFAULT.period_change(totals) == 1
    assert UkdSystem(round_scope=RoundScope.TOURNAMENT).period_change(totals) == 2
    assert DEFAULT.period_change([]) == 0


# --- rating cells that are not a valid UKD, the 1000 floor ---

@pytest.mark.parametrize(("cell", "usable", "warns"), [
    (None, None, False), (0, None, False), (950, None, True), (999, None, True),
    (1000, 1000, False), (3000, 3000, False), (3001, None, True), (-5, None, True),
])
def test_rating_cells(cell, usable, warns):
    assert usable_ukd(cell) == usable
    assert (invalid_ukd_reason(cell) is not None) == warns


def test_not_rated_reasons():
    assert DEFAULT.not_rated_reason(None, 1500) == "player without UKD"
    assert DEFAULT.not_rated_reason(1500, None) is None  # rated in mode B (by UkdSystem.rate)
    assert MODE_D.not_rated_reason(1500, None) == "opponent without UKD (skip)"
    assert "below 1000" in (DEFAULT.not_rated_reason(1500, 950) or "")
    assert DEFAULT.not_rated_reason(1500, 1000) is None


def test_floor_flag_and_reset():
    assert floor_note(999) == "below 1000: UKD may be withdrawn" and floor_note(1000) is None
    assert apply_floor(990) == 990 and apply_floor(990, Below1000.RESET) is None
    assert apply_floor(1000, Below1000.RESET) == 1000
    assert DEFAULT.new_rating(1010, D("-22.50")) == 987  # flagged, not clamped
    assert UkdSystem(below_1000=Below1000.RESET).new_rating(1010, D("-22.50")) is None


# --- does the details block name the national rating? ---

@pytest.mark.parametrize(("line", "federation", "applies"), [
    ("Ulusal rating", "TUR", True),
    ("Ulusal rating", "", True),
    ("Uluslararası ELO ve Ulusal rating", "TUR", True),
    ("Uluslararası ELO ve Ulusal rating", "", True),
    ("Rating national, Rating international", "TUR", True),
    ("Rating national, Rating international", "", False),  # 'national' alone need not be Turkey
    ("Rating international", "TUR", False),
    ("FIDE rating", "TUR", False),
    ("Elo national", "AUT", False),
    ("Elo national", "TUR", True),
    ("Ulusal rating", "AUT", False),
    ("", "TUR", False),
    ("Uluslararası rating", "TUR", False),
    ("international", "TUR", False),
    ("ULUSAL RATİNG", "", True),
    ("Kuvvet puanı hesaplaması : Ulusal rating", " tur ", True),
    ("Rating calculation: Rating international", "TUR", False),
    ("Uluslararas&#305; ELO ve Ulusal rating", "TUR", True),
    ("Elo nacional", "TUR", True),
    ("UKD", "", True),
])
def test_names_turkish_national_rating(line, federation, applies):
    assert names_turkish_national_rating(line, federation) is applies


# --- the RatingSystem protocol and settings ---

def test_protocol_and_rate_games_agree_for_rated_opponents():
    assert (DEFAULT.name, DEFAULT.label) == ("ukd", "UKD")
    played = [(1850, DRAW), (2200, L), (1650, W)]
    direct = rate_games(DEFAULT, 1820, 20, played)
    assert direct == DEFAULT.rate(1820, k_for(1820), played)


def test_rates_standard_only_unless_asked():
    assert DEFAULT.rates(RatingList.STANDARD) and DEFAULT.rates(None)
    assert not DEFAULT.rates(RatingList.RAPID) and not DEFAULT.rates(RatingList.BLITZ)
    assert UkdSystem(rate_rapid_blitz=True).rates(RatingList.BLITZ)


def test_defaults_pinned():
    assert DEFAULT_CAP == 350 and MIN_UKD == 1000 and MAX_UKD == 3000 and FIRST_UKD_MIN_GAMES == 7
    assert K_BANDS == ((1299, 30), (1599, 25), (1999, 20), (2399, 15)) and K_TOP == 10
    s = UkdSystem()
    assert (s.cap, s.unrated_opponent, s.fixed_expected_h, s.fixed_k, s.rounding, s.round_scope,
            s.opponent_fide_fallback, s.below_1000, s.rate_rapid_blitz) == (
        350, UnratedOpponent.FIXED, 50, 6, Rounding.HALF_AWAY, RoundScope.PERIOD, False,
        Below1000.FLAG, False)
    assert s.describe() == (
        "UKD estimate: cap 350, unrated = fixed (E 0.50, K 6), rounding half away from zero")
    assert UkdSystem(cap=None, unrated_opponent=UnratedOpponent.CAP,
                     rounding=Rounding.TRUNCATE).describe() == (
        "UKD estimate: cap none, unrated = cap, rounding truncate")


def test_bad_settings_are_refused():
    with pytest.raises(RatingError):
        UkdSystem(cap=-1)
    with pytest.raises(RatingError):
        UkdSystem(fixed_expected_h=101)


# --- properties ---

ratings = st.integers(0, 3500)
caps = st.sampled_from([350, 400, None])


@given(ratings, ratings, caps)
def test_expected_high_plus_low_is_one(a, b, cap):
    assert expected_h(a, b, cap) + expected_h(b, a, cap) == 100
    system = UkdSystem(cap=cap)
    capped = system.cap_mask(a, [b])[0]
    assert system.expected(a, b, capped=capped) + system.expected(b, a, capped=capped) == 1


@given(ratings, ratings, st.integers(0, 500), caps)
def test_expected_is_monotonic_in_the_difference(own, opponent, step, cap):
    assert expected_h(own, opponent, cap) >= expected_h(own, opponent + step, cap)
    assert expected_h(own + step, opponent, cap) >= expected_h(own, opponent, cap)


@given(ratings, st.integers(0, 3000), st.sampled_from([350, 400]), st.booleans())
def test_the_cap(own, d, cap, above):
    opponent = own - d if above else own + d
    assert expected_h(own, opponent, cap) == expected_h(own, own + (-1 if above else 1) * min(d, cap),
                                                         cap)
    bound = {350: 89, 400: 92}[cap]
    assert 100 - bound <= expected_h(own, opponent, cap) <= bound


@given(st.integers(1000, 3000), st.one_of(st.none(), st.integers(1000, 3000)),
       st.sampled_from([W, DRAW, L]), st.sampled_from(list(UnratedOpponent)))
def test_a_game_changes_by_k_times_s_minus_e(own, opponent, score, mode):
    system = UkdSystem(unrated_opponent=mode)
    (g,) = system.rate(own, k_for(own), [(opponent, score)])
    if opponent is None and mode is UnratedOpponent.SKIP:
        assert not g.rated and g.change is None
        return
    k = 6 if opponent is None and mode is UnratedOpponent.FIXED else k_for(own)
    assert g.rated and g.expected is not None and g.change == k * (score - g.expected)
    assert g.change == Decimal(change_h(k, int(score * 100), int(g.expected * 100))).scaleb(-2)


@given(st.integers(1000, 3000), st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 3500)),
                                                     st.sampled_from([W, DRAW, L])), max_size=12))
def test_running_totals_end_at_the_total(own, played):
    games = DEFAULT.rate(own, k_for(own), played)
    totals = running_totals(games)
    assert len(totals) == len(games)
    assert (totals[-1] if totals else Decimal(0)) == total_change(games)
    assert all(g.rated for g in games)  # mode B rates every played game of a UKD-rated player


# --- rules pinned to TSF's own texts (no published TSF worked example was found: see
# docs/ukd.md).  S1 = TSF's UKD answers ("Sıkça Sorulan Sorular", ukd.tsf.org.tr/index.php?t=sss,
# as copied in marmarissatranc/marmarissatranc.github.io sayfalar/sss.md @6462663);
# S4 = TSF-TK-PRS/05, opening and definitions, reposted 2009-09-08 at
# http://scholars.logu2.com/t214-ukd-ulusal-kuvvet-derecesi-nedir;
# S2 = TSF news of 2007-02-07, https://tsf.org.tr/guncel-haberler?start=7282. ---

def _event(games: int, performance: int | None) -> FirstUkd:
    """An archived event as first_ukd reports it (only games and performance matter here)."""
    return FirstUkd(games, performance, 50, 0, performance, False, "archived")


@pytest.mark.parametrize(("opponent", "n", "rp", "eligible"), [
    (1001, 7, 1001, True),   # 'en az 7 maç' and '1000 üzeri': both met
    (1000, 7, 1000, False),  # a performance of exactly 1000 is not above 1000
    (1001, 6, 1001, False),  # six games are fewer than 7
])
def test_s1_q2_first_ukd_needs_7_games_and_a_performance_above_1000(opponent, n, rp, eligible):
    """S1, question 2: 'En az 7 maç oynamak kaydı ile 1000 üzeri performans gösteren her
    sporcunun ukd puanı çıkar.'  Draws against equal opponents: p 0.50, dp 0, Rp = Ra."""
    first = first_ukd([(opponent, DRAW)] * n)
    assert (first.games, first.performance, first.eligible) == (n, rp, eligible)
    assert FIRST_UKD_MIN_GAMES == 7 and MIN_UKD == 1000


@pytest.mark.parametrize(("events", "games", "mean", "eligible", "reason"), [
    ([(5, 1100), (3, 950)], 8, Fraction(1025), True,
     "eligible for first UKD from the archive (estimate)"),
    ([(5, 1100), (3, 900)], 8, Fraction(1000), False, "archive: mean performance ≤ 1000"),
    ([(3, 1200), (3, 1200)], 6, Fraction(1200), False, "archive: fewer than 7 games"),
    ([(4, 1001), (2, 1000), (1, 1000)], 7, Fraction(3001, 3), True,
     "eligible for first UKD from the archive (estimate)"),  # 1000.33…: above 1000, exactly
    ([(2, 1500), (5, None)], 2, Fraction(1500), False, "archive: fewer than 7 games"),
    ([], 0, None, False, "archive: no games against UKD-rated opponents"),
])
def test_s1_q2_archive_mean_of_performances(events, games, mean, eligible, reason):
    """S1, question 2: archived players get a UKD once they meet 'en az 7 maç' and 'bu
    yarışmalardan elde ettiği performans puanlarının aritmetik ortalamasının 1000 üzeri olması'
    — the plain arithmetic mean of the events' performances, one per event, not weighted by
    games.  (8 games: 1100 and 950 average 1025 although the game-weighted mean is 1043.75.)"""
    decision = archive_first_ukd([_event(g, rp) for g, rp in events])
    assert (decision.games, decision.mean_performance, decision.eligible, decision.reason) == (
        games, mean, eligible, reason)


def test_s1_q2_archive_over_real_events():
    """S1, question 2, end to end: two events of 4 and 3 games (neither reaches 7 alone) are
    archived, and the archive earns a first UKD (mean of 1200 and 1100 = 1150 > 1000)."""
    a = first_ukd([(1200, DRAW)] * 4)
    b = first_ukd([(1100, DRAW)] * 3)
    assert (a.performance, a.eligible, b.performance, b.eligible) == (1200, False, 1100, False)
    assert archive_first_ukd([a, b]).eligible


@given(st.integers(1000, 3000), st.integers(1000, 3000), st.integers(1, 600))
def test_s1_q4_beating_a_higher_rated_player_gains_more(own, opponent, step):
    """S1, question 4: 'Oynadığınız sporcunun UKD puanı sizden ne kadar yüksek ise kazanımınız
    doğal olarak o kadar yüksek olacaktır.'  With K fixed by the player's own UKD, a win never
    gains less against a stronger opponent."""
    (weaker,) = DEFAULT.rate(own, k_for(own), [(opponent, W)])
    (stronger,) = DEFAULT.rate(own, k_for(own), [(min(opponent + step, 3000), W)])
    assert stronger.change is not None and weaker.change is not None
    assert stronger.change >= weaker.change


@given(st.integers(1000, 3000), st.permutations(
    [(1600, W), (1450, DRAW), (None, L), (2100, W), (1000, L), (1850, DRAW)]))
def test_s1_q4_placings_add_nothing(own, played):
    """S1, question 4: 'Turnuvada derece yapmanızın direkt olarak UKD puanınız artışına
    herhangi bir katkısı yoktur.'  The change is a sum over games: the same games in any
    order (any pairing history, any final place) give the same total."""
    reference = [(1600, W), (1450, DRAW), (None, L), (2100, W), (1000, L), (1850, DRAW)]
    assert total_change(DEFAULT.rate(own, k_for(own), list(played))) == total_change(
        DEFAULT.rate(own, k_for(own), reference))


@pytest.mark.parametrize(("cell", "usable"), [
    (999, None), (1, None), (1000, 1000), (1001, 1001), (2999, 2999),
])
def test_s4_ukd_is_a_four_digit_number(cell, usable):
    """S4, definitions: UKD is '… Türkiye'de geçerli olan dört basamaklı bir sayı' (a four-digit
    number), so a cell of 1–999 is not a UKD (treated as without UKD, with a warning).  S2:
    the lowest UKD TSF awarded in 2007 was 1001 ('puan alamayan sporculara 1001 UKD verildi')."""
    assert usable_ukd(cell) == usable
    assert (invalid_ukd_reason(cell) is not None) == (usable is None)
    assert floor_note(999) is not None and floor_note(1000) is None


def test_s1_q3_the_period_is_the_calendar_month():
    """S1, question 3: 'UKD Listesi, her ayın ilk günü "Güncel UKD Listesi" olarak yeniden
    yayınlanır.'  A month's tournaments are rated together on the month's list, and by
    default their exact totals are rounded once for the month."""
    assert DEFAULT.per_tournament is False and DEFAULT.round_scope is RoundScope.PERIOD
    assert DEFAULT.period_change([D("0.50"), D("0.50"), D("0.49")]) == 1
