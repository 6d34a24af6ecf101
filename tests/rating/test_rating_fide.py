"""The FIDE rating core: tables, rule versions, K, exact changes, rounding, Rp and Ru."""

from __future__ import annotations

import csv
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.model import RatingList
from rating import numbers
from rating.systems import fide
from rating.systems.base import EloSystem, FideSystem, PlayerFacts, rate_games
from rating.systems.elo import expected as elo_expected
from rating.systems.fide_rules import CapRule, rules_for
from rating.systems.fide_tables import DP_TABLE, PD_TABLE, dp_for, pd_h, pd_higher_h

NOW = rules_for(date(2026, 11, 1))


def win_draw_loss(own, opp, k, rules=NOW):
    e = fide.expected_h(own, opp, rules)
    return [k * (s - e) for s in (100, 50, 0)]


# --- tables ---

def test_table_812_matches_the_oracle_row_for_row(realdata):
    with (realdata / "oracle" / "fide_table_8_1_2_pd.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(PD_TABLE) + 1 == 51
    for row in rows:
        lo = int(row["diff_from"])
        hi = 2000 if row["diff_to"] == "inf" else int(row["diff_to"])
        higher = round(float(row["PD_higher"]) * 100)
        lower = round(float(row["PD_lower"]) * 100)
        for d in {lo, hi, (lo + hi) // 2}:  # every row boundary, both edges
            assert pd_higher_h(d) == higher, d
            assert pd_h(1000, 1000 + d) == (lower if d else 50)


def test_table_812_pinned_edges():
    assert [pd_higher_h(d) for d in (0, 3, 4, 10, 11, 391, 392, 411, 412, 735, 736, 5000)] == [
        50, 50, 51, 51, 52, 91, 92, 92, 93, 99, 100, 100]


def test_table_811_pinned():
    assert len(DP_TABLE) == 51
    assert [dp_for(p) for p in (100, 99, 57, 50, 43, 21, 1, 0)] == [
        800, 677, 50, 0, -50, -230, -677, -800]
    for p in range(101):
        assert dp_for(p) == -dp_for(100 - p)


# --- single games: the figures and the oracle file ---

def test_equal_ratings_k20():
    assert win_draw_loss(1500, 1500, 20) == [1000, 0, -1000]


def test_junior_1500_v_1600_and_the_400_cap():
    assert fide.expected_h(1500, 1600, NOW) == 36
    assert win_draw_loss(1500, 1600, 40) == [2560, 560, -1440]
    assert fide.expected_h(1500, 2000, NOW) == 8  # D counts as 400
    assert win_draw_loss(1500, 2000, 40)[0] == 3680


def test_same_win_in_each_category():
    gains = {c: fide.k_for_category(c, NOW) * 50 for c in fide.Category}
    assert gains == {fide.Category.NEW: 2000, fide.Category.JUNIOR: 2000,
                     fide.Category.ESTABLISHED: 1000, fide.Category.MASTER: 500}


def test_oracle_single_game_cases(realdata):
    with (realdata / "oracle" / "single_game_reference_cases.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 32
    system = FideSystem(NOW)
    for row in rows:
        own, opp, k = int(row["player_rating"]), int(row["opponent_rating"]), int(row["K"])
        (game,) = rate_games(system, own, k, [(opp, Decimal(row["score"]))])
        want = Decimal(row["recomputed_change_unrounded"])
        assert game.change == want, row


def test_generic_elo_figures():
    assert [elo_expected(1500, o) for o in (1200, 1500, 1800)] == [
        Decimal("0.849"), Decimal("0.500"), Decimal("0.151")]
    changes = [20 * (1 - elo_expected(1500, o)) for o in (1200, 1500, 1800)]
    assert changes == [Decimal("3.020"), Decimal("10.000"), Decimal("16.980")]
    assert elo_expected(1700, 1500) == Decimal("0.760")
    assert elo_expected(1900, 1500) == Decimal("0.909")
    assert elo_expected(1500, 2300, cap=400) == elo_expected(1500, 1900)
    (g,) = rate_games(EloSystem(cap=400), 1500, 20, [(2300, Decimal(1))])
    assert g.capped and g.change == Decimal("18.180")


# --- rule versions by tournament start date ---

@pytest.mark.parametrize(("start", "cap", "rule"), [
    (date(2009, 6, 30), 350, CapRule.EVERY_GAME),
    (date(2009, 7, 1), 400, CapRule.EVERY_GAME),
    (date(2021, 12, 31), 400, CapRule.EVERY_GAME),
    (date(2022, 1, 1), 400, CapRule.ONCE_PER_TOURNAMENT),
    (date(2024, 2, 29), 400, CapRule.ONCE_PER_TOURNAMENT),
    (date(2024, 3, 1), 400, CapRule.EVERY_GAME),
    (date(2025, 9, 30), 400, CapRule.EVERY_GAME),
    (date(2025, 10, 1), 400, CapRule.BELOW_2650),
])
def test_cap_versions(start, cap, rule):
    r = rules_for(start)
    assert (r.cap, r.cap_rule) == (cap, rule)


def test_350_rule_before_july_2009():
    old = rules_for(date(2008, 1, 1))
    assert fide.expected_h(1500, 1900, old) == fide.expected_h(1500, 1850, old) == 11


def test_once_per_tournament_caps_only_the_widest_game():
    r = rules_for(date(2023, 5, 1))
    assert fide.cap_mask(2000, [1500, 1400, 1900, 2450], r) == [False, True, False, False]
    system = FideSystem(r)
    games = rate_games(system, 2000, 20, [(1500, Decimal(1)), (1400, Decimal(1))])
    # D 500 uncapped → 0.96; D 600 capped to 400 → 0.92
    assert [g.expected for g in games] == [Decimal("0.96"), Decimal("0.92")]
    every = rate_games(FideSystem(rules_for(date(2021, 5, 1))), 2000, 20,
                       [(1500, Decimal(1)), (1400, Decimal(1))])
    assert [g.expected for g in every] == [Decimal("0.92"), Decimal("0.92")]


def test_2650_exemption_is_asymmetric_and_standard_only():
    oct25 = rules_for(date(2025, 10, 1))
    assert fide.expected_h(2813, 2400, oct25) == 93  # uncapped D 413
    assert fide.expected_h(2400, 2813, oct25) == 8  # the 2400 player still sees a cap
    assert fide.expected_h(2813, 2400, rules_for(date(2025, 9, 30))) == 92
    rapid = rules_for(date(2025, 10, 1), RatingList.RAPID)
    assert fide.expected_h(2813, 2400, rapid) == 92


def test_2813_player_october_2025():
    system = FideSystem.on(date(2025, 10, 5))
    scores = [Decimal(1), Decimal(1), Decimal(1), Decimal(1), Decimal("0.5")]
    games = rate_games(system, 2813, 10, list(zip([1787, 2025, 2310, 2400, 2505], scores,
                                                  strict=True)))
    total = sum(g.change for g in games)
    assert total == Decimal("-2.50")
    assert numbers.round_half_away(-250) == -3 and 2813 - 3 == 2810
    assert [g.expected for g in games][:2] == [Decimal("1.00"), Decimal("1.00")]


def test_600_point_rule_rapid_blitz_from_december_2024():
    blitz = rules_for(date(2024, 12, 1), RatingList.BLITZ)
    assert fide.excluded_reason(2700, 2100, blitz)
    assert fide.excluded_reason(2600, 2000, blitz) is None  # nobody above 2600
    assert fide.excluded_reason(2700, 2101, blitz) is None  # gap 599
    assert fide.excluded_reason(2700, 2100, rules_for(date(2024, 11, 30), RatingList.BLITZ)) is None
    assert fide.excluded_reason(2700, 2100, rules_for(date(2025, 1, 1))) is None  # standard


# --- K ---

def test_k_precedence_and_history():
    k = fide.k_factor
    assert k(NOW, rating=2350, games_played=5, reached_2400=True) == 10
    assert k(NOW, rating=2250, games_played=100, birth_year=2010, year=2026) == 40
    assert k(NOW, rating=2310, games_played=100, birth_year=2010, year=2026) == 20
    assert k(NOW, rating=1800, games_played=12, birth_year=1980, year=2026) == 40
    assert k(NOW, rating=1800, games_played=300, birth_year=1980, year=2026) == 20
    assert k(NOW, rating=2400, games_played=300) == 10
    assert k(NOW, rating=1800, games_played=300, birth_year=2008, year=2026) == 40  # turns 18
    assert k(NOW, rating=1800, games_played=300, birth_year=2007, year=2026) == 20
    old = rules_for(date(2010, 1, 1))
    assert (old.k_new, old.k_established, old.k_top) == (25, 15, 10)
    assert k(old, rating=2450, games_played=10) == 25  # 10 needed 30 games then
    mid = rules_for(date(2014, 6, 30))
    assert (mid.k_new, mid.k_established, mid.k_top) == (30, 15, 10)
    assert fide.k_factor(mid, rating=1900, games_played=50, birth_year=2000, year=2014) == 15


@pytest.mark.parametrize(("k", "n", "want"), [
    (40, 17, 40), (40, 18, 38), (40, 26, 26), (40, 36, 19), (20, 35, 20), (20, 36, 19),
    (20, 39, 17), (20, 45, 15), (10, 70, 10), (10, 71, 9),
])
def test_period_cap(k, n, want):
    assert fide.period_k(k, n, NOW) == want


# --- rounding, performance, initial rating ---

def test_rounding_half_away_from_zero():
    assert [numbers.round_half_away(h) for h in (250, -250, 249, -249, 251, 0, 50, -50, 49)] == [
        3, -3, 2, -2, 3, 0, 1, -1, 0]
    assert [str(numbers.to_decimal(h)) for h in (-320, 5, -5, 1000)] == [
        "-3.20", "0.05", "-0.05", "10.00"]


def test_initial_rating_example_f_n01():
    r = fide.initial_rating([1900, 1900, 1900, 1900, 1907], 300, NOW)
    assert r.average == Fraction(13107, 7)
    assert (r.p_h, r.dp, r.value, r.published) == (57, 50, 1922, True)


def test_initial_rating_limits():
    assert not fide.initial_rating([1800] * 4, 200, NOW).published
    low = fide.initial_rating([1000] * 5, 0, NOW)
    assert low.value is not None and low.value < 1400 and not low.published
    assert fide.initial_rating([2500] * 9, 900, NOW).value == 2200
    assert fide.initial_rating([1800] * 5, 50, NOW).value == 1570  # the ½-of-5 example


def test_performance():
    assert fide.performance([1900, 1900, 1900, 1900, 1907], 300) == 1901 + 72
    assert fide.performance([], 0) is None


# --- properties ---

@given(st.integers(0, 3000))
def test_pd_columns_sum_to_one(d):
    assert pd_h(1000 + d, 1000) + pd_h(1000, 1000 + d) == 100


@given(st.integers(0, 2000), st.integers(0, 2000))
def test_pd_monotonic_in_d(a, b):
    lo, hi = sorted((a, b))
    assert pd_higher_h(lo) <= pd_higher_h(hi)


@given(st.integers(1000, 2649), st.integers(1000, 3000))
def test_cap_limits_expectation(own, opp):
    e = fide.expected_h(own, opp, NOW)
    assert 8 <= e <= 92


@given(st.integers(-100000, 100000))
def test_rounding_is_symmetric(h):
    assert numbers.round_half_away(-h) == -numbers.round_half_away(h)
    assert abs(numbers.round_half_away(h) * 100 - h) <= 50
    assert numbers.round_whole(numbers.to_decimal(h)) == numbers.round_half_away(h)
    assert numbers.to_cent(numbers.to_decimal(h)) == numbers.to_decimal(h)


@given(st.integers(1400, 2600), st.integers(1400, 2600), st.sampled_from([10, 20, 40]))
def test_equal_k_is_zero_sum(a, b, k):
    system = FideSystem(NOW)
    (ga,) = rate_games(system, a, k, [(b, Decimal(1))])
    (gb,) = rate_games(system, b, k, [(a, Decimal(0))])
    assert ga.change is not None and gb.change is not None
    assert ga.change + gb.change == 0


def test_k_from_facts():
    assert FideSystem(NOW).k(PlayerFacts(rating=None)) == 40


def test_table_811_matches_the_spec_row_for_row(realdata):
    import re

    spec = (realdata.parent / "spec" / "fide-rules.md").read_text(encoding="utf-8")
    section = spec.split("### 6.3 Table 8.1.1", 1)[1].split("###", 1)[0]
    pairs = re.findall(r"([01]\.\d\d)\s*\|\s*(−?\d+)", section)
    table = {round(float(p) * 100): int(dp.replace("−", "-")) for p, dp in pairs}
    assert len(table) == 101
    for p_h, dp in table.items():  # every row of the table, both halves
        assert dp_for(p_h) == dp, p_h


def test_junior_from_a_source_category_without_birth_year():
    from rating.tournament import is_junior_category

    assert fide.category_of(NOW, rating=2100, junior=True, year=2026) is fide.Category.JUNIOR
    assert fide.category_of(NOW, rating=2310, junior=True, year=2026) is fide.Category.ESTABLISHED
    # a birth year wins over the category flag
    assert fide.category_of(NOW, rating=2100, birth_year=1990, junior=True,
                            year=2026) is fide.Category.ESTABLISHED
    assert [is_junior_category(c) for c in ("U18", "u14", "G12", "U21", "S65", "", "刘")] == [
        True, True, True, False, False, False, False]
