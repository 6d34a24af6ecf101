"""rating.systems.dwz: the DSB's DWZ, reproduced on published worked examples (each test names its
source), the P(D) table, the rule versions by date, exact shares of the change, the
assumptions named for missing inputs, and the calculator and tournament paths."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
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
from rating.calculator import calculate
from rating.systems.base import RatingSystem
from rating.systems.dwz import (
    RULES,
    SHARE_PLACES,
    WO_2014,
    WO_2022,
    WO_2026,
    AgeGroup,
    DwzSystem,
    age_group,
    change_shares,
    coefficient,
    evaluate,
    exact_change,
    expected_t,
    first_dwz,
    names_german_national_rating,
    new_dwz,
    performance,
    point_expectation_t,
    rules_for,
)
from rating.systems.fide import KSource, PlayerFacts
from rating.tournament import rate_tournament

D = Decimal


def games(pairs):
    return [(o, D(str(s))) for o, s in pairs]


# --- P(D): the normal distribution to three decimals (WO 2014 4.5 / WO 2022 3.3.1, Anh. 2.1) ---

def test_the_probability_table_pins():
    assert [expected_t(1500 + d, 1500) for d in (0, 50, 100, 200, 400, 930, 931, 1500)] == [
        500, 570, 638, 760, 921, 999, 1000, 1000]
    assert [expected_t(1500 - d, 1500) for d in (100, 200, 931, 5000)] == [362, 240, 0, 0]


def test_the_table_is_the_normal_distribution_to_three_decimals_and_symmetric():
    for d in range(-1200, 1201):
        p = expected_t(d, 0)
        assert p + expected_t(0, d) == 1000
        assert p == math.floor(500 * (1 + math.erf(d / 400)) + 0.5)


# --- worked examples ---

BARTOLOMAEUS = games([(2216, 0), (2234, 0.5), (2245, 0), (2247, 0.5), (2270, 0), (2231, 1),
                      (2278, 0), (2118, 0.5), (2337, 0.5)])


def test_dsb_evaluation_2007_bartolomaeus():
    """DSB tournament evaluation A313-000-ONN (2007), player Bartolomaeus, Christian: DWZ
    2253, E 30, 3 from 9, We 4.636, performance 2118, new DWZ 2219 — as quoted in the
    Games::Ratings test t/dwz (CPAN, Games-Ratings 0.0.5), which links
    http://schachbund.de/dwz/turniere/2007.html?code=A313-000-ONN.  The DSB's We is the sum
    of per-game P(D) to three decimals (unrounded: 4.637)."""
    result = evaluate(WO_2014, 2253, BARTOLOMAEUS, given=30)
    assert (result.games, result.score_t, result.expected_t) == (9, 3000, 4636)
    assert result.new_rating == 2219
    assert result.performance == 2118
    assert result.change == Fraction(800 * (3000 - 4636), 1000 * 39)
    # E 30 is also what the rules give a player over 25 rated 2253 with an index over 5
    facts = PlayerFacts(rating=2253, birth_year=1970, year=2007, evaluations=40)
    assert evaluate(WO_2014, 2253, BARTOLOMAEUS, facts).coefficient.value == 30


@pytest.mark.parametrize(("own", "opp", "score", "e", "new"), [
    (1000, 1200, "1", 5, 1101), (1000, 1200, "0.5", 5, 1035), (1000, 1200, "0", 12, 985),
    (1200, 1000, "0", 8, 1132), (1200, 1000, "0.5", 8, 1177), (1200, 1000, "1", 5, 1232)])
def test_sk_troisdorf_2018_one_game_table(own, opp, score, e, new):
    """SK Troisdorf, 'DWZ – Deutsche Wertungszahl' (15 Nov 2018,
    https://sktroisdorf.de/wp/2018/11/15/dwz-deutsche-wertungszahl): DWZ 1000 v 1200,
    expectation 0.24 / 0.76, and the six new DWZ after a win, draw or loss.  The page gives
    no ages: every figure is that of two youths (fB on a win, SBr below 1300 on a loss),
    which the test assumes; E is what the rules then give."""
    facts = PlayerFacts(rating=own, birth_year=2005, year=2018, evaluations=10)
    result = evaluate(rules_for(date(2018, 11, 15)), own, [(opp, D(score))], facts)
    assert result.expected_t == (240 if own == 1000 else 760)
    assert result.coefficient.value == e
    assert result.new_rating == new


def test_randspringer_table_reading():
    """randspringer.de, 'Wie lese ich eine Turniertabelle?': old DWZ 1011, 6.5 points,
    We 5.146, new DWZ 1101 (+90).  The opponents are not printed: E 5 and n 7 are what the
    figures imply (a youth, whose fB = 0.51 gives E 3, raised to the minimum 5)."""
    facts = PlayerFacts(rating=1011, birth_year=2010, year=2016, evaluations=12)
    e = coefficient(WO_2014, 1011, facts, 6500, 5146)
    assert (e.value, e.acceleration, e.bound) == (5, Fraction(1011, 2000), "E at least 5")
    assert new_dwz(WO_2014, 1011, exact_change(WO_2014, e.value, 6500, 5146, 7)) == 1101


def test_first_dwz_of_a_dewis_evaluation():
    """DSB evaluation B431-636-C4F (https://www.schachbund.de/turnier.html?code=B431-636-C4F),
    player Barthel: first DWZ 983 from 2 points against 894, 1087, 905, 1255 and a stored
    game against 1177 — as quoted in Chess League Manager's DWZ calculator test
    (clm_class_dwz_rechner::test, 'tatsächliche neue DWZ: 983').  The iteration stops at the
    rating whose We is nearest W: We(982) = 1.996, We(983) = 2.003."""
    opponents = [894, 1087, 905, 1255, 1177]
    assert point_expectation_t(982, opponents) == 1996
    assert point_expectation_t(983, opponents) == 2003
    first = first_dwz(WO_2014, opponents, 2000)
    assert (first.iteration, first.value, first.published) == (983, 983, True)
    initial = DwzSystem(WO_2014).first_rating(opponents, 200)
    assert initial is not None
    assert (initial.value, initial.published, initial.rounded, initial.min_games) == (983, True, 983, 5)
    assert initial.average == Fraction(5318, 5) and initial.dp == 983 - 1064


def test_first_dwz_below_800_and_when_there_is_none():
    """WO 2014 4.7 / WO 2022 3.4.4: Ri below 800 becomes 700 + Ri/8; 3.4.1.1: 5 games
    against opponents with DWZ and no 100 % or 0 %."""
    low = first_dwz(WO_2022, [900, 950, 1000, 1050, 1100], 500)
    assert (low.iteration, low.value) == (626, 778)  # 700 + 78.25
    few = first_dwz(WO_2022, [1500] * 4, 2000)
    assert not few.published and "4 so far" in few.reason
    assert not first_dwz(WO_2022, [1500] * 5, 5000).published
    assert "0 %" in first_dwz(WO_2022, [1500] * 5, 0).reason
    none = DwzSystem(WO_2022).first_rating([], 0)
    assert none is not None and none.value is None and not none.published


def test_performance_needs_five_games_and_adds_a_draw_at_100_percent():
    """WO 2022 3.6: from 5 games; 100 % counts one draw more against the average (3.6.2)."""
    assert performance(WO_2022, [1500] * 4, 2000) is None
    assert performance(WO_2022, [1500] * 5, 0) is None
    perfect = performance(WO_2022, [1500] * 5, 5000)
    assert perfect == performance(WO_2022, [1500] * 6, 5500)


# --- the coefficient E (WO 2014 4.9.2, Anhang 2.4 / WO 2022 3.5.1, Anhang 1.2) ---

def senior(rating, index=20):
    return PlayerFacts(rating=rating, birth_year=1960, year=2024, evaluations=index)


def youth(rating, index=20):
    return PlayerFacts(rating=rating, birth_year=2012, year=2024, evaluations=index)


def test_e_bounds_index_minimum_and_brake():
    assert coefficient(WO_2022, 1500, senior(1500)).value == 20  # 5.0625 + 15
    assert coefficient(WO_2022, 1500, senior(1500, index=2)).bound == "E at most 5 × index 2"
    assert coefficient(WO_2022, 1500, senior(1500, index=2)).value == 10
    assert coefficient(WO_2022, 1500, senior(1500, index=0)).value == 5  # index 0 counts as 1
    assert coefficient(WO_2022, 2600, senior(2600)).value == 30  # 45.7 + 15 → at most 30
    braked = coefficient(WO_2022, 300, senior(300, index=1), 0, 500)  # SBr = e^(1000/150) − 1
    assert (braked.value, braked.bound) == (150, "E at most 150 (with SBr)")
    assert coefficient(WO_2022, 1200, senior(1200, index=1), 0, 500).value == 18  # no index cap


def test_acceleration_factor_bounds():
    assert coefficient(WO_2022, 800, youth(800), 1000, 500).acceleration == Fraction(1, 2)
    assert coefficient(WO_2022, 1600, youth(1600), 1000, 500).acceleration == Fraction(4, 5)
    assert coefficient(WO_2022, 2400, youth(2400), 1000, 500).acceleration == 1
    assert coefficient(WO_2022, 1600, youth(1600), 0, 500).acceleration == 1  # W < We
    assert coefficient(WO_2022, 1600, senior(1600), 1000, 500).acceleration == 1


def test_the_brake_at_w_equal_we_differs_between_versions():
    """WO 2014 Anhang 2.4: SBr when W ≤ We; WO 2022 Anhang 1.2: when W < We."""
    draw = [(1200, D("0.5"))]
    assert evaluate(WO_2014, 1200, draw, senior(1200)).coefficient.value == 18  # 17.07 + 0.95
    assert evaluate(WO_2022, 1200, draw, senior(1200)).coefficient.value == 17


def test_age_groups_by_the_event_year():
    assert age_group(WO_2022, 2004, 2024)[0] is AgeGroup.YOUTH  # 20
    assert age_group(WO_2022, 2003, 2024)[0] is AgeGroup.JUNIOR  # 21
    assert age_group(WO_2022, 1999, 2024)[0] is AgeGroup.JUNIOR  # 25
    assert age_group(WO_2022, 1998, 2024)[0] is AgeGroup.SENIOR  # 26


def test_missing_inputs_give_a_figure_and_name_the_assumption():
    unknown = coefficient(WO_2022, 1500, PlayerFacts(rating=1500, year=2024))
    assert unknown.value == 20
    assert unknown.reasons == ("DWZ: age group not known, J 15 (over 25) assumed",
                               "DWZ: index not known, 6 assumed (E at most 30)")
    junior = coefficient(WO_2022, 1500, PlayerFacts(rating=1500, year=2024, junior=True,
                                                    evaluations=9))
    assert junior.value == 10 and "youth (up to 20) assumed" in junior.reasons[0]
    rated = DwzSystem(WO_2022).rate(1500, 20, games([(1500, 1)]), None,
                                    PlayerFacts(rating=1500, year=2024))
    assert rated[0].rated and rated[0].k == 20 and rated[0].reason == ""
    assert DwzSystem(WO_2022).assumptions(PlayerFacts(rating=1500, year=2024)) == unknown.reasons
    given_e = DwzSystem(WO_2022).rate(1500, 20, games([(1500, 1)]))
    assert given_e[0].reason == "" and given_e[0].k == 20


# --- rule versions by date ---

@pytest.mark.parametrize(("on", "rules"), [
    (date(2007, 6, 1), WO_2014), (date(2014, 5, 30), WO_2014), (date(2021, 12, 31), WO_2014),
    (date(2022, 1, 1), WO_2022), (date(2026, 6, 7), WO_2022), (date(2026, 6, 8), WO_2026),
    (date(2030, 1, 1), WO_2026)])
def test_rules_by_date(on, rules):
    assert rules_for(on) is rules
    assert DwzSystem.on(on).rules is rules


def test_versions_are_ordered_and_named():
    assert [r.valid_from for r in RULES] == sorted(r.valid_from for r in RULES)
    assert all(r.name and r.label and r.source for r in RULES)
    assert DwzSystem.on(date(2026, 9, 1)).rules_label() == "DWZ WO 2026"
    assert "Stand 30. Mai 2014" in DwzSystem(WO_2014).describe()


# --- the 2026 K factor (reconstructed: see WO_2026's source) ---

def test_k_factor_2026_example_from_dwz_calc_readme():
    """har64/DWZ-Calc README's call Dwz(1742, 81, 1964, [1948, 1874, 1586, 1658, 1853,
    1821, 1697], 4.5), evaluated by the 2026 rules as that program implements them (it
    prints no result, so the figures are worked by hand from the table): an adult under
    2000 with index over 10 has K0 28; W 4.5 ≥ We, DWZ ≥ 1600: a = 0, b = 1: K 28."""
    opponents = [1948, 1874, 1586, 1658, 1853, 1821, 1697]
    we = sum(expected_t(1742, o) for o in opponents)
    assert we == 3179
    facts = PlayerFacts(rating=1742, birth_year=1964, year=2026, evaluations=81)
    result = evaluate(WO_2026, 1742, [(o, D(0)) for o in opponents[:2]]
                      + [(o, D(1)) for o in opponents[2:6]] + [(opponents[6], D("0.5"))], facts)
    assert result.coefficient.value == 28
    assert result.change == Fraction(28 * (4500 - 3179), 1000)  # 36.988
    assert result.new_rating == 1779


def test_k_factor_2026_parts_and_floor():
    young = PlayerFacts(rating=1400, birth_year=2012, year=2026, evaluations=3)
    k = coefficient(WO_2026, 1400, young, 1000, 500)  # K0 48, a = (2000 − 1400)/30 = 20
    assert (k.base, k.surcharge, k.value) == (48, 20, 68)
    adult = PlayerFacts(rating=1500, birth_year=1980, year=2026, evaluations=12)
    braked = coefficient(WO_2026, 1500, adult, 0, 500)  # 28 × 2300/2400 = 26.83 → 26.8
    assert braked.value == Fraction(268, 10)
    assert coefficient(WO_2026, 1500, adult, 1000, 500).value == 32  # 28 + 4
    assert coefficient(WO_2026, 1000, young, 1000, 500).value == Fraction(80)  # 48 + 33.3
    assert new_dwz(WO_2026, 1120, Fraction(-40)) == 1100  # no DWZ below 1100
    assert first_dwz(WO_2026, [1450, 1500, 1550, 1500, 1500], 2500).value == 1540  # + 0.08 × 500
    rated = DwzSystem(WO_2026).rate(1500, 28, games([(1500, 0)]), None, adult)
    assert rated[0].k == 27 and "DWZ: K 26.8" in rated[0].reason


# --- exact shares of the change ---

def test_shares_add_up_exactly_and_half_points_round_up():
    """Rn is rounded half up (the WO says 'gerundet'; public calculators round the new
    value): a change of exactly −0.5 keeps 1500, +0.5 gives 1501."""
    system = DwzSystem(WO_2022)
    down = system.rate(1500, 5, games([(1400, 0.5), (1596, 0.5), (1500, 0.5)]))
    assert sum(g.expected for g in down) == D("1.505")
    total = sum(g.change for g in down)
    assert total == D("-0.5") and system.new_rating(1500, total) == 1500
    up = system.rate(1500, 5, games([(1405, 0.5), (1599, 0.5), (1500, 0.5)]))
    total = sum(g.change for g in up)
    assert total == D("0.5") and system.new_rating(1500, total) == 1501
    assert change_shares([Fraction(1, 3)] * 3, 2) == [D("0.34"), D("0.33"), D("0.33")]


@settings(max_examples=300, deadline=None)
@given(own=st.integers(600, 2700), e=st.integers(5, 150),
       played=st.lists(st.tuples(st.integers(400, 2900), st.sampled_from(["0", "0.5", "1"])),
                       min_size=1, max_size=15))
def test_the_sum_of_the_shares_rounds_like_the_exact_formula(own, e, played):
    system = DwzSystem(WO_2022)
    rated = system.rate(own, e, [(o, D(s)) for o, s in played])
    total = sum(g.change for g in rated)
    w = sum(int(D(s) * 1000) for _, s in played)
    we = sum(expected_t(own, o) for o, _ in played)
    exact = Fraction(800 * (w - we), 1000 * (e + len(played)))
    assert abs(Fraction(total) - exact) <= Fraction(1, 2 * 10 ** SHARE_PLACES)
    assert system.new_rating(own, total) == math.floor(own + exact + Fraction(1, 2))
    assert all(g.change == g.change.quantize(D(1).scaleb(-SHARE_PLACES)) for g in rated)


# --- the system ---

def test_games_without_dwz_are_left_out_with_a_reason():
    rated = DwzSystem(WO_2022).rate(1500, 20, [(None, D(1)), (1500, D(1)), (0, D(0))])
    assert [g.rated for g in rated] == [False, True, False]
    assert rated[0].reason == rated[2].reason == "opponent without DWZ"
    assert sum(g.change for g in rated if g.rated) == D("19.0476190476")
    unrated = DwzSystem(WO_2022).rate(None, 20, [(1500, D(1))])
    assert not unrated[0].rated and unrated[0].reason == "player without DWZ"
    system = DwzSystem(WO_2022)
    assert system.not_rated_reason(1500, None) == "opponent without DWZ"
    assert system.not_rated_reason(None, 1500) == "player without DWZ"
    assert system.unrated_opponent_game(1500, 20, D(1)) is None
    assert system.cap_mask(1500, [100, 2900]) == [False, False]
    assert system.capped_k(30, 40) == 30
    assert system.expected(1700, 1500, capped=True) == D("0.760")


def test_player_k_is_e0_within_its_bounds():
    system = DwzSystem(WO_2022)
    assert system.player_k(senior(1500), 20) == (20, KSource.CATEGORY)
    assert system.player_k(youth(1500, index=1), 20) == (5, KSource.CATEGORY)
    assert system.player_k(PlayerFacts(rating=None), 20) == (20, KSource.DEFAULT)
    assert DwzSystem(WO_2026).player_k(senior(1500), 20) == (28, KSource.CATEGORY)


def test_it_is_a_rating_system():
    system: RatingSystem = DwzSystem.on(date(2024, 1, 1))
    assert (system.name, system.label, system.national, system.per_tournament) == (
        "dwz", "DWZ", True, True)
    assert {c.name for c in system.player_columns} >= {"dwz_expected", "dwz_new"}
    assert all(c.name.startswith("dwz_") for c in (*system.player_columns, *system.round_columns))
    assert [c.header for c in system.player_columns if c.header] == [
        "DWZ", "E", "We", "Lstg.", "+/-", "DWZ neu"]
    assert DwzSystem(WO_2026).player_columns[1].header == "K"


def test_applies_and_list_note():
    def info(calc, fed="", rating_list=RatingList.STANDARD):
        return TournamentInfo(name="x", rating_calculation=calc, federation=fed,
                              rating_list=rating_list)
    system = DwzSystem(WO_2022)
    assert system.applies(info("Elo national, Elo international", "GER"))
    assert system.applies(info("DWZ und Elo"))
    assert not system.applies(info("Rating national, Rating international", "TUR"))
    assert not system.applies(info("Rating national"))
    assert not system.applies(info("Elo national", "GER", RatingList.RAPID))
    assert names_german_national_rating("Deutsche Wertungszahl")
    assert not names_german_national_rating("Rating international", "GER")
    assert system.list_note(RatingList.STANDARD) == ""
    assert "90 minutes" in system.list_note(RatingList.BLITZ)


def test_through_the_calculator():
    """calculate() with the system of the event's date and what is known of the player:
    SK Troisdorf's youth rated 1000 beating a 1200 (see above) gets 1101."""
    facts = PlayerFacts(rating=1000, birth_year=2005, year=2018, evaluations=10)
    calc = calculate(DwzSystem.on(date(2018, 11, 15)), 1000, 5, [(1200, D(1)), (None, D(0))],
                     facts=facts)
    assert (calc.new_rating, calc.rounded_change, calc.rated_games) == (1101, 101, 1)
    assert calc.expected_total == D("0.240")
    assert calc.change == D("101.3333333333")
    assert calc.games[0].k == 5 and not calc.games[1].rated


def test_through_the_tournament_view():
    """A three-player round robin rated with DWZ: 1 beats 2, 2 beats 3, 1 draws 3."""
    players = tuple(Player(start_no=no, name=name, federation="GER", rating=None,
                           national_rating=r, national_evaluations=20, birth_year=1980)
                    for no, name, r in ((1, "Anna, Ada", 1500), (2, "Berg, Bo", 1600),
                                        (3, "Corr, Cy", None)))
    played = {1: [(2, "1"), (3, "0.5")], 2: [(1, "0"), (3, "1")], 3: [(2, "0"), (1, "0.5")]}
    results = tuple(RoundResult(start_no=no, round=rnd, status=Status.PLAYED, opponent_no=opp,
                                colour=Colour.WHITE if no < opp else Colour.BLACK,
                                points=D(pts))
                    for no, rows in played.items() for rnd, (opp, pts) in enumerate(rows, 1))
    info = TournamentInfo(name="t", start_date=date(2024, 3, 1), end_date=date(2024, 3, 2),
                          rounds=2, federation="GER", rating_list=RatingList.STANDARD)
    system = DwzSystem.on(date(2024, 3, 1))
    rated = rate_tournament(Tournament(info=info, players=players, results=results), system)
    ada, bo, cy = (rated.player(n) for n in (1, 2, 3))
    assert ada.rated_games == 1 and ada.expected == D("0.362")
    assert ada.new_rating == new_dwz(WO_2022, 1500, exact_change(WO_2022, Fraction(20), 1000, 362, 1))
    assert (ada.new_rating, ada.k) == (1524, 20)  # E0 20.06: + 800 × 0.638 / 21 = 24.3
    assert (bo.new_rating, bo.k) == (1578, 22)  # E0 21.55: − 800 × 0.638 / 23 = −22.2
    assert cy.new_rating is None and cy.initial is not None and not cy.initial.published
    values = {c.name: c.value(ada) for c in system.player_columns}
    assert values["dwz_new"] == ada.new_rating and values["dwz_performance"] is None
