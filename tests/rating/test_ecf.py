"""The ECF rating (rating/systems/ecf.py): the published worked examples and figures, K, the rule
versions by date, missing inputs, the calculator, the tournament view and properties.

Sources (full titles and addresses in docs/ecf.md):
  ECF-M    englishchess.org.uk/the-calculation-of-ecf-grades-on-a-monthly-basis/ (clauses 1–4)
  ECF-H    ecfrating.org.uk/v2/help/help_rating.php (definitions 1–8, the passes)
  ECF-CAT  englishchess.org.uk/ecf-rating-categories/ (v8, Dec 2021) and
           dorsetchess.co.uk/new-rating-categories/ (the dates as they took effect)
  MSCL     mscl.crowborough.org/ECF-Ratings.html (K 40/20, the +10 example)
  DORSET   dorsetchess.co.uk/your-new-monthly-ecf-rating-explained/
  NSTAFFS  northstaffschess.com/2019/02/ecf-grading-proposals.html (grade 140 → 1750)
  YCA-2023 mannchess.org.uk/YNotices/2023-04-02.ECFRatings.htm (the dummy ratings)
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from rating.calculator import calculate
from rating.systems.base import RatingSystem
from rating.systems.ecf import (
    CATEGORY_MEANING,
    ECF_2020,
    ECF_2022_06,
    ECF_2022_12,
    VERSIONS,
    EcfSystem,
    assumptions,
    change_h,
    dummy_rating,
    expected_h,
    game_change,
    grade_to_rating,
    is_unrated,
    junior_status,
    k_for,
    month_change,
    names_ecf_rating,
    p_rating,
    rating_category,
    rating_period,
    rules_for,
    total_change,
)
from rating.systems.fide import KSource, PlayerFacts
from rating.systems.fide_tables import PD_TABLE
from rating.tournament import rate_tournament

D = Decimal
W, DRAW, L = D(1), D("0.5"), D(0)
ECF = EcfSystem.on(date(2026, 5, 9))
ADULT = PlayerFacts(rating=1600, birth_year=1980, year=2026, games_played=200)
JUNIOR = PlayerFacts(rating=1200, birth_year=2014, year=2026, games_played=40)


def changes(games):
    return [(g.expected, g.change) if g.rated else (None, None) for g in games]


# --- the published worked examples and figures ---

def test_mscl_an_adult_beating_an_equal_rated_player_gains_10():
    """MSCL: "on winning against a player of an equal rating the expected score is 0.5 and
    therefore if an adult the live rating will increase by 10" (k "40 for juniors 20 for
    adults")."""
    (game,) = ECF.rate(1650, 20, [(1650, W)], facts=ADULT)
    assert (game.expected, game.change, game.k) == (D("0.50"), D("10.00"), 20)
    assert ECF.new_rating(1650, game.change) == 1660
    (junior,) = ECF.rate(1650, 40, [(1650, W)], facts=JUNIOR)
    assert junior.change == D("20.00")  # the junior's K 40 doubles it


def test_grade_conversion_of_2020():
    """ECF-M clause 1: "new = 7.5*old + 700"; NSTAFFS: "an ECF grade of 140 would become an
    ELO grade of 1750"; DORSET and the YCA (Sept 2020): "Rating = 7.5 x Grade + 700"."""
    assert grade_to_rating(140) == D(1750)
    assert grade_to_rating(181) == D("2057.5")  # kept exact: no source says how .5 was rounded
    assert grade_to_rating(0) == D(700)


def test_the_monthly_formula_sums_the_month_and_rounds_once():
    """ECF-M clause 4: R1 = R0 + k(W − We), W the month's total score, We the expected total
    from FIDE table 8.1(b); DORSET: "new rating (R1) = his/her old rating (R0) + 20 (k) x
    (Actual results less expected results)"."""
    games = ECF.rate(1600, 20, [(1700, W), (1500, DRAW), (1600, L)], facts=ADULT)
    assert changes(games) == [(D("0.36"), D("12.80")), (D("0.64"), D("-2.80")),
                              (D("0.50"), D("-10.00"))]
    assert total_change(games) == D("0.00")
    # Two draws with a lower-rated player 21 points up: +0.60 each; rounded once, not per game.
    twice = ECF.rate(1600, 20, [(1621, DRAW), (1621, DRAW)], facts=ADULT)
    total = total_change(twice)
    assert total == D("1.20") and ECF.new_rating(1600, total) == 1601
    assert month_change([D("0.60"), D("0.60")]) == 1  # two events of one month
    assert month_change([D("2.50")]) == 3 and month_change([D("-2.50")]) == -3  # .5 away from 0


def test_expected_score_is_fide_table_8_1_b():
    """ECF-M clause 4 and DORSET: We from FIDE table 8.1(b) (handbook B.02 2017), the table the
    repository keeps as 8.1.2 (unchanged since)."""
    assert expected_h(1500, 1600) == 36 and expected_h(1600, 1500) == 64  # D 99–106: .64
    assert [expected_h(2000, 2000 - d) for d in (0, 3, 4, 10, 11)] == [50, 50, 51, 51, 52]
    for upper, higher in PD_TABLE:
        assert expected_h(3000, 3000 - upper, cap=None) == higher
        assert expected_h(2000, 2000 + upper, cap=None) == 100 - higher
    assert ECF.expected(1500, 1600, capped=False) == D("0.36")


def test_a_difference_above_400_counts_as_400():
    """Assumption (docs/ecf.md §3): the 400-point rule of the FIDE chapter ECF-M 4 links."""
    assert ECF.cap_mask(2300, [1700, 1950, 1899]) == [True, False, True]
    (game,) = ECF.rate(2300, 20, [(1700, W)], facts=ADULT)
    assert (game.capped, game.expected, game.change) == (True, D("0.92"), D("1.60"))
    assert ECF.expected(2300, 1700, capped=False) == D("0.98")


def test_against_an_opponents_partial_rating_the_change_is_halved():
    """ECF-H, the passes: "When using an opponents Partial Rating use a K of 40 for that
    opponent. This has the effect of reducing any rating adjustment by 50%"."""
    full = game_change(20, W, D("0.36"))
    assert full == D("12.80")
    assert game_change(20, W, D("0.36"), opponent_partial=True) == D("6.40")
    assert game_change(40, L, D("0.64"), opponent_partial=True) == D("-12.80")


def test_the_p_rating_adds_one_dummy_draw():
    """ECF-H 2: a performance rating "based solely on performance versus opponents ratings"
    with "a fictional draw against a fictional opponent of nominal rating"; ECF-H 3: under 10
    games it is partial; ECF-H 4: from 10 games full."""
    first = p_rating([1600, 1700, 1500], 200, dummy=1800)
    assert (first.games, first.average, first.p_h, first.dp, first.value) == (
        3, Fraction(1650), 63, 95, 1745)
    assert (first.hypothetical, first.hypothetical_rating, first.min_games, first.published) == (
        1, 1800, 10, True)
    assert first.reason.startswith("ECF P rating, partial (category P): 3 of 10 games")
    full = p_rating([1500] * 10, 500, dummy=1800)  # 5/10 and the draw: p .50, Ra 1527.27…
    assert (full.average, full.p_h, full.dp, full.value) == (Fraction(16800, 11), 50, 0, 1527)
    assert full.reason.startswith("ECF P rating, full: 10 games")
    none = p_rating([], 0, dummy=1800)
    assert (none.value, none.published) == (None, False)


def test_the_dummy_ratings_of_yca_2023():
    """YCA-2023: the dummy rating "for genuinely new players: 1800 for those aged 18 years +,
    or else age x 100 for those under 18 years, both less 100 for Rapid and Blitz time
    controls"; a returning player's dummy is their last full rating "if that is higher"."""
    assert dummy_rating() == 1800 and dummy_rating(age=18) == 1800 and dummy_rating(age=45) == 1800
    assert dummy_rating(age=12) == 1200 and dummy_rating(age=17) == 1700
    assert dummy_rating(RatingList.RAPID) == 1700 and dummy_rating(RatingList.BLITZ, age=9) == 800
    assert dummy_rating(last_full=1950) == 1950 and dummy_rating(last_full=1500) == 1800
    assert dummy_rating(RatingList.RAPID, age=10, last_full=1300) == 1300


def test_first_rating_of_an_unrated_player_uses_the_adult_dummy_and_says_so():
    first = ECF.first_rating([1600, 1700, 1500], 200)
    assert first is not None and first.value == 1745 and first.hypothetical_rating == 1800
    assert "age not known, the adult dummy rating assumed" in first.reason
    rapid = EcfSystem.on(date(2026, 5, 9), RatingList.RAPID).first_rating([1600], 100)
    assert rapid is not None and rapid.hypothetical_rating == 1700


# --- K ---

@pytest.mark.parametrize(("facts", "k", "source", "reason"), [
    (PlayerFacts(rating=1500, birth_year=2012, year=2026), 40, KSource.CATEGORY, ""),
    (PlayerFacts(rating=1500, birth_year=2009, year=2026), 40, KSource.CATEGORY, ""),  # 17
    (PlayerFacts(rating=1500, birth_year=2007, year=2026), 20, KSource.CATEGORY, ""),  # 19
    (PlayerFacts(rating=1500, birth_year=2008, year=2026), 40, KSource.DEFAULT,
     "ECF: turns 18 in 2026, birthday not known: junior K 40 assumed"),
    (PlayerFacts(rating=1500, junior=True), 40, KSource.CATEGORY, ""),
    (PlayerFacts(rating=1500, birth_year=2008, year=2026, junior=True), 40, KSource.CATEGORY, ""),
    (PlayerFacts(rating=1500), 20, KSource.DEFAULT, "ECF: age not known, adult K 20 assumed"),
    (PlayerFacts(rating=1500, birth_year=1990), 20, KSource.DEFAULT,
     "ECF: the event's year not known, adult K 20 assumed"),
    (PlayerFacts(rating=1500, birth_year=2030, year=2026), 20, KSource.DEFAULT,
     "ECF: age not known, adult K 20 assumed"),
    (PlayerFacts(rating=None, birth_year=1980, year=2026), 20, KSource.CATEGORY, ""),
])
def test_k_by_age(facts, k, source, reason):
    """ECF-M clause 4: "k is 20 or 40"; MSCL: "40 for juniors 20 for adults"; the age limit
    18 from YCA-2023."""
    assert ECF.player_k(facts, 99) == (k, source)  # the caller's default is not the ECF's
    assert junior_status(facts).reason == reason
    assert k_for(facts) == ECF.k(facts) == k


def test_a_k_published_for_fide_is_not_the_ecfs():
    facts = PlayerFacts(rating=1500, birth_year=1980, year=2026, published_k=10, list_k=40)
    assert ECF.player_k(facts, 20) == (20, KSource.CATEGORY)
    assert ECF.capped_k(40, 30) == 40  # no cap on K × n


# --- the rule versions by date ---

def test_the_version_in_force_by_date():
    assert [rules_for(d).name for d in (date(2019, 12, 1), date(2020, 7, 1), date(2022, 5, 31),
                                        date(2022, 6, 1), date(2022, 11, 30), date(2022, 12, 1),
                                        date(2026, 5, 9))] == [
        "ECF 2020-07", "ECF 2020-07", "ECF 2020-07", "ECF 2022-06", "ECF 2022-06",
        "ECF 2022-12", "ECF 2022-12"]
    assert VERSIONS == (ECF_2020, ECF_2022_06, ECF_2022_12)
    assert [v.valid_from for v in VERSIONS] == sorted(v.valid_from for v in VERSIONS)


def test_the_constants_of_each_version_are_pinned():
    for rules in VERSIONS:
        assert (rules.k_adult, rules.k_junior, rules.junior_under, rules.cap,
                rules.full_from_games, rules.partial_opponent_share, rules.dummy_adult,
                rules.dummy_per_year, rules.dummy_fast_offset, rules.category_a_results) == (
            20, 40, 18, 400, 10, D("0.5"), 1800, 100, 100, 30)
    assert [(v.inactive_months, v.categories) for v in VERSIONS] == [
        (60, ()), (36, ("A", "H", "K", "P")), (36, ("A", "K", "P"))]
    assert set(CATEGORY_MEANING) == {"A", "H", "K", "P"}


def test_categories_and_lapsing_by_version():
    """ECF-CAT: A with 30+ rated results in the previous 12 calendar months; H (2022-06 to
    2022-11) for inherited ratings not played since; K otherwise; P for the P method;
    unrated after 36 months without a result (60 in ECF-H 5–6 before)."""
    assert rating_category(ECF_2020, partial=False, results_12_months=40) == ""
    assert rating_category(ECF_2022_06, partial=False, results_12_months=30) == "A"
    assert rating_category(ECF_2022_06, partial=False, results_12_months=29) == "K"
    assert rating_category(ECF_2022_06, partial=False, inherited_unplayed=True) == "H"
    assert rating_category(ECF_2022_12, partial=False, inherited_unplayed=True) == "K"
    assert rating_category(ECF_2022_12, partial=True, results_12_months=3) == "P"
    assert (is_unrated(ECF_2022_12, 35), is_unrated(ECF_2022_12, 36)) == (False, True)
    assert (is_unrated(ECF_2020, 36), is_unrated(ECF_2020, 60)) == (False, True)


def test_the_system_by_date_and_list():
    rapid = EcfSystem.on(date(2021, 10, 2), RatingList.RAPID)
    assert (rapid.rules, rapid.rules_label(), rapid.name, rapid.label) == (
        ECF_2020, "ECF 2020-07 (rapid)", "ecf", "ECF")
    assert ECF.rules_label() == "ECF 2022-12"
    assert ECF.describe() == ("ECF 2022-12: K 20, juniors (under 18) 40; FIDE table 8.1(b), "
                              "difference capped at 400; a month's change rounded once")
    early = EcfSystem.on(date(2019, 11, 2))
    assert "before the ECF's ratings began on 01 July 2020" in early.describe()
    assert ECF.list_note(RatingList.STANDARD) == ECF.list_note(RatingList.RAPID) == ""
    assert "blitz" in ECF.list_note(RatingList.BLITZ)
    assert EcfSystem() == EcfSystem(ECF_2022_12)


def test_a_game_counts_in_its_month():
    """ECF-M clause 3: "All results dated in the last month" are rated on the month's list."""
    assert rating_period(date(2026, 5, 1)) == (date(2026, 5, 1), date(2026, 6, 1))
    assert rating_period(date(2025, 12, 31)) == (date(2025, 12, 1), date(2026, 1, 1))


# --- missing inputs: a figure, and the assumption named ---

def test_without_age_or_games_the_figure_comes_with_its_assumptions():
    facts = PlayerFacts(rating=1600, year=2026)
    k, source = ECF.player_k(facts, 20)
    (game,) = ECF.rate(1600, k, [(1600, W)], facts=facts)
    assert (k, source, game.change, game.reason) == (20, KSource.DEFAULT, D("10.00"), "")
    assert ECF.assumptions(facts) == ("ECF: age not known, adult K 20 assumed",
                                      "ECF: games played not known, a full (K-method) rating "
                                      "assumed")
    (bare,) = ECF.rate(1600, 20, [(1600, W)])
    assert ECF.assumptions(None)[0].startswith("ECF: nothing known of the player")
    assert bare.change == 10
    assert ECF.assumptions(ADULT) == ()


def test_a_partial_players_k_figure_is_called_an_estimate():
    facts = PlayerFacts(rating=1400, birth_year=1970, year=2026, games_played=4)
    assert assumptions(facts) == ("ECF: partial rating (4 games, fewer than 10): the ECF "
                                  "recalculates it by the P method, this K-method figure is an "
                                  "estimate",)


def test_games_without_both_ratings_are_not_rated_with_the_reason():
    games = ECF.rate(1600, 20, [(None, W), (1600, DRAW)], facts=ADULT)
    assert not games[0].rated and "opponent without ECF rating" in games[0].reason
    assert games[1].rated and games[1].change == 0
    (unrated,) = ECF.rate(None, 20, [(1600, W)], facts=ADULT)
    assert not unrated.rated and unrated.reason.startswith("player without ECF rating")
    assert ECF.unrated_opponent_game(1600, 20, W) is None


# --- the calculator and the tournament view ---

def test_through_the_calculator():
    system = EcfSystem.on(date(2026, 5, 9))
    calc = calculate(system, 1600, 20, [(1700, W), (1500, DRAW), (None, W)],
                     facts=PlayerFacts(rating=1600, birth_year=1980, year=2026, games_played=90))
    assert (calc.k, calc.rated_games, calc.score, calc.expected_total, calc.change,
            calc.rounded_change, calc.new_rating) == (20, 2, D("1.5"), D("1.00"), D("10.00"),
                                                     10, 1610)
    assert not calc.games[2].rated
    assert calc.performance == 1793  # Ra 1600 + dp(.75) 193, FIDE's table 8.1(a)


def test_through_the_calculator_a_junior_without_birth_year_is_called_adult():
    facts = PlayerFacts(rating=1200, year=2026, games_played=50)
    system = EcfSystem.on(date(2026, 5, 9))
    calc = calculate(system, 1200, 20, [(1300, W)], facts=facts)
    assert calc.change == D("12.80")
    assert system.assumptions(facts) == ("ECF: age not known, adult K 20 assumed",)


def event() -> Tournament:
    """Three players of an English weekend congress: ECF ratings as the national rating."""
    players = (Player(start_no=1, name="Ashdown, Clara", rating=1900, national_rating=1850,
                      birth_year=1985),
               Player(start_no=2, name="Patel, Riya", rating=None, national_rating=1400,
                      birth_year=2012),
               Player(start_no=3, name="New, Nina", rating=None, national_rating=None))
    games = {1: [(2, 1.0), (3, 0.5)], 2: [(1, 0.0), (3, 1.0)], 3: [(2, 0.0), (1, 0.5)]}
    results = tuple(RoundResult(start_no=no, round=rnd, status=Status.PLAYED, opponent_no=opp,
                                colour=Colour.WHITE if (no + rnd) % 2 else Colour.BLACK,
                                points=D(str(pts)))
                    for no, rows in games.items() for rnd, (opp, pts) in enumerate(rows, 1))
    info = TournamentInfo(name="Weekend congress", start_date=date(2026, 5, 2), rounds=2,
                          rating_list=RatingList.STANDARD, federation="ENG",
                          rating_calculation="Rating national, international")
    return Tournament(info=info, players=players, results=results)


def test_a_tournament_rated_on_ecf_ratings():
    t = event()
    system = EcfSystem.on(t.info.start_date or date(2026, 5, 2))
    assert system.applies(t.info)
    rated = rate_tournament(t, system)
    clara, riya, nina = rated.players
    assert (clara.k, clara.k_source, clara.rated_games, clara.change, clara.new_rating) == (
        20, KSource.CATEGORY, 1, D("1.60"), 1852)  # 1850 v 1400: D 450 → 400, We .92
    assert (riya.k, riya.change, riya.new_rating) == (40, D("-3.20"), 1397)
    assert nina.new_rating is None and nina.initial is not None
    assert nina.initial.value == 1558  # ½/2 and the dummy draw: Ra 1683.33, p .33, dp −125
    assert rated.rules_label == "ECF 2022-12" and rated.system == "ecf"
    assert not any(ln.rated for ln in clara.rounds if ln.opponent_no == 3)


def test_the_columns_the_ecf_adds():
    assert [c.name for c in EcfSystem.player_columns] == [
        "ecf_rating", "ecf_k", "ecf_rated_games", "ecf_score", "ecf_expected", "ecf_change",
        "ecf_new_rating", "ecf_p_rating"]
    assert [c.header for c in EcfSystem.player_columns if c.header] == [
        "ECF", "ECF change", "New ECF", "ECF P rating"]
    assert all(c.name.startswith("ecf_") for c in EcfSystem.round_columns)
    rated = rate_tournament(event(), ECF)
    nina = rated.players[2]
    p_column = EcfSystem.player_columns[-1]
    assert p_column.value(nina) == 1558 and p_column.value(rated.players[0]) is None
    change = next(c for c in EcfSystem.player_columns if c.name == "ecf_change")
    assert change.page_value(nina) is None and change.value(nina) == 0


@pytest.mark.parametrize(("calc", "federation", "applies"), [
    ("Rating national, international", "ENG", True),
    ("Rating national", "eng", True),
    ("Rating international", "ENG", False),
    ("Rating national, international", "GER", False),
    ("Rating national, international", "", False),
    ("ECF rated", "", True),
    ("Rated by the English Chess Federation", "SCO", True),
    ("Elo nacional", "ENG", True),
    ("", "ENG", False),
])
def test_the_source_names_the_ecf_rating(calc, federation, applies):
    assert names_ecf_rating(calc, federation) is applies
    info = TournamentInfo(name="x", rating_calculation=calc, federation=federation)
    assert ECF.applies(info) is applies


def test_the_system_meets_the_protocol():
    system: RatingSystem = ECF  # mypy checks this in rating/systems/ecf.py too
    assert (system.name, system.label, system.national, system.per_tournament) == (
        "ecf", "ECF", True, False)


# --- properties ---

RATINGS = st.integers(min_value=100, max_value=3000)


@given(RATINGS, RATINGS, st.sampled_from([20, 40]))
def test_a_win_never_lowers_and_a_loss_never_raises(own, opponent, k):
    win, loss = (ECF.rate(own, k, [(opponent, s)], facts=ADULT)[0].change for s in (W, L))
    assert win is not None and loss is not None
    assert win >= 0 >= loss and win - loss == k


@given(RATINGS, RATINGS, st.sampled_from([W, DRAW, L]), st.sampled_from([20, 40]))
def test_equal_k_changes_are_equal_and_opposite(a, b, score, k):
    (ga,) = ECF.rate(a, k, [(b, score)], facts=ADULT)
    (gb,) = ECF.rate(b, k, [(a, 1 - score)], facts=ADULT)
    assert ga.change is not None and gb.change is not None and ga.change + gb.change == 0
    assert change_h(k, int(score * 100), expected_h(a, b)) == int(ga.change * 100)


@given(st.lists(st.decimals(min_value=-200, max_value=200, places=2), max_size=6))
def test_the_month_is_rounded_once_half_away_from_zero(totals):
    exact = sum(totals, D("0.00"))
    assert abs(month_change(totals) - exact) <= D("0.5")
    assert month_change(totals) == -month_change([-t for t in totals])
