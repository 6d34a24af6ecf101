"""Title norms (rating.norms): every rule of the FIDE Title Regulations 2024 the check applies,
each test citing its article, on small events built here; and Ra and Rp on the real British
Championship 2026, against figures worked out by hand from the pages."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

import importer
from importer.formats.trf.reader import parse_trf
from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    System,
    Tournament,
    TournamentInfo,
)
from rating.norms import (
    EventClass,
    NormCheck,
    NormResult,
    check_norms,
    norms_sought,
    swiss_exemption,
)
from rating.systems.fide_rules import NormTitle, norm_rules_for

RULES = norm_rules_for(date(2026, 3, 1))
GM, IM, WGM, WIM = NormTitle.GM, NormTitle.IM, NormTitle.WGM, NormTitle.WIM
ME = Player(start_no=1, name="Applicant, Ann", title="IM", federation="ENG", rating=2450, sex="m")
FEDS = ["GER", "FRA", "ESP", "ENG", "ENG", "ENG", "NED", "USA", "IND"]
TITLES = ["GM", "GM", "GM", "IM", "IM", "FM", "CM", "", ""]
"""Nine opponents that meet 1.4.3 and 1.4.5 for a GM norm: 6 other federations, 3 from
England (at most 5), 6 titled (at least 5), 3 GMs (at least 3)."""
GOOD = [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5]  # 6.5/9 = 72 % → dp 166; 2450 + 166 = 2616


def opponents(ratings: list[int | None] | None = None, feds: list[str] | None = None,
              titles: list[str] | None = None, n: int = 9) -> list[Player]:
    ratings = ratings or [2450] * n
    feds = feds or (FEDS * 3)[:len(ratings)]
    titles = titles or (TITLES * 3)[:len(ratings)]
    return [Player(start_no=i + 2, name=f"Opponent {i + 2}", rating=r, federation=f, title=t)
            for i, (r, f, t) in enumerate(zip(ratings, feds, titles, strict=True))]


def event(opps: list[Player], scores: list[float], *, me: Player = ME,
          system: System = System.SWISS, rounds: int | None = None,
          statuses: dict[int, Status] | None = None, requested: bool = False,
          extra: tuple[list[Player], list[RoundResult]] = ([], []),
          rating_list: RatingList = RatingList.STANDARD) -> Tournament:
    """Player 1 meets opponent i in round i and scores ``scores[i - 1]``; *statuses* makes a
    round a forfeit, a bye or pending instead."""
    results = list(extra[1])
    for rd, (o, s) in enumerate(zip(opps, scores, strict=True), 1):
        status = (statuses or {}).get(rd, Status.PLAYED)
        if status is Status.BYE:
            results.append(RoundResult(start_no=1, round=rd, status=status, points=1,
                                       requested=requested))
            continue
        mine = None if status is Status.PENDING else Decimal(str(s))
        other = {Status.FORFEIT_WIN: Status.FORFEIT_LOSS}.get(status, status)
        results += [RoundResult(start_no=1, round=rd, status=status, opponent_no=o.start_no,
                                colour=Colour.WHITE, points=mine),
                    RoundResult(start_no=o.start_no, round=rd, status=other, opponent_no=1,
                                colour=Colour.BLACK, points=None if mine is None else 1 - mine)]
    info = TournamentInfo(name="Test Open", start_date=date(2026, 3, 1),
                          end_date=date(2026, 3, 9), rounds=rounds or len(opps), system=system,
                          rating_list=rating_list, federation="ENG")
    return Tournament(info=info, players=(me, *opps, *extra[0]), results=tuple(results))


def norm(t: Tournament, title: NormTitle = GM, **kwargs: object) -> NormCheck:
    return next(c for c in check_norms(t, 1, **kwargs) if c.norm is title)  # type: ignore[arg-type]


def condition(c: NormCheck, name: str) -> bool | None:
    return next(x.ok for x in c.conditions if x.name == name)


def test_a_gm_norm_with_every_column():
    c = norm(event(opponents(), GOOD))
    assert c.result is NormResult.ACHIEVED, c.reasons
    assert (c.rounds, c.games, c.score, c.ra, c.ra_floor_raised, c.performance) == (
        "1-9", 9, Decimal("6.5"), 2450, False, 2616)
    assert (c.titled_opponents, c.title_opponents, c.federations, c.own_federation) == (6, 3, 6, 3)
    assert c.exemption == "" and c.application_games == 9
    # what no page shows is listed, and never decides
    assert {x.name for x in c.conditions if not x.checked} >= {
        "time control", "registration", "chief arbiter", "event class", "rounds a day"}
    assert all(x.words.startswith("not checked") for x in c.conditions if not x.checked)


# --- who seeks which norm (1.4, the reading) --------------------------------------------

@pytest.mark.parametrize(("title", "sex", "sought"), [
    ("GM", "m", ()),
    ("IM", "m", (GM,)),
    ("FM", "m", (GM, IM)),
    ("IM", "w", (GM, WGM)),  # a woman IM may seek the WGM norm
    ("WGM", "", (GM, IM)),  # known a woman from her title
    ("WIM", "", (GM, IM, WGM)),
    ("WFM", "", (GM, IM, WGM, WIM)),  # a woman FM may seek the WIM norm
    ("", "f", (GM, IM, WGM, WIM)),  # chess-results' sex field
    ("", "", (GM, IM)),  # sex unknown: only the open norms
])
def test_the_norms_a_player_can_seek(title, sex, sought):
    assert norms_sought(replace(ME, title=title, sex=sex), RULES) == sought


def test_unknown_sex_says_the_womens_norms_were_not_checked():
    t = event(opponents(), GOOD, me=replace(ME, sex=""))
    assert [c.norm for c in check_norms(t, 1)] == [GM]
    words = [x.words for x in norm(t).conditions if x.name == "women's norms"]
    assert words == ["not checked: WGM and WIM norms (the source does not show whether the "
                     "player is a woman)"]


# --- Ra (1.4.6–1.4.7) -----------------------------------------------------------------------------

def test_1_4_7_only_the_lowest_opponent_is_raised_to_the_floor():
    ratings = [2000, 2100, 2450, 2500, 2500, 2500, 2500, 2500, 2500]
    c = norm(event(opponents(ratings), GOOD))
    # GM floor 2200: 2000 → 2200, the 2100 stays: (2200 + 2100 + 2450 + 6 × 2500) / 9 = 2416.7
    assert (c.ra, c.ra_floor_raised) == (2417, True)
    # IM floor 2050: the 2000 → 2050 only: (2050 + 2100 + 2450 + 15000) / 9 = 2400
    w = norm(event(opponents(ratings), GOOD, me=replace(ME, title="FM")), IM)
    assert (w.ra, w.ra_floor_raised) == (2400, True)


def test_1_4_6_an_unrated_opponent_counts_1400_and_is_the_one_raised():
    ratings: list[int | None] = [None, 2000, 2450, 2500, 2500, 2500, 2500, 2500, 2500]
    c = norm(event(opponents(ratings), GOOD))
    # 1400 → 2200 (the lowest); 2000 stays: (2200 + 2000 + 2450 + 15000) / 9 = 2405.6
    assert (c.ra, c.ra_floor_raised) == (2406, True)
    assert norm(event(opponents([2201] * 9), GOOD)).ra_floor_raised is False


def test_1_4_7_ra_is_rounded_half_up_before_anything_else():
    # 8 games (round 9 a forfeit win, the 9-round case) make a .5 possible:
    # 7 × 2400 + 2404 = 19204 / 8 = 2400.5 → 2401; Rp = 2401 + dp(6/8 = 75 % → 193) = 2594
    def eight(last: int) -> NormCheck:
        return norm(event(opponents([2400] * 7 + [last, 2400]), [*GOOD[:8], 1],
                          statuses={9: Status.FORFEIT_WIN}))
    assert (eight(2404).ra, eight(2404).performance) == (2401, 2594)
    assert eight(2403).ra == 2400  # 19203 / 8 = 2400.375
    assert norm(event(opponents([2400] * 8 + [2404]), GOOD)).ra == 2400  # 21604 / 9 = 2400.4


def test_0_5_minimum_ra():
    # 2379 average with a 2600+ performance: Ra fails alone
    c = norm(event(opponents([2379] * 9), [1, 1, 1, 1, 1, 1, 1, 1, 0.5]))
    assert c.result is NormResult.MISSED and c.performance is not None and c.performance > 2600
    assert condition(c, "Ra") is False and condition(c, "performance") is True
    assert any("average rating of the opponents 2379 (at least 2380)" in r for r in c.reasons)
    assert norm(event(opponents([2380] * 9), [1, 1, 1, 1, 1, 1, 1, 1, 0.5])).result is \
        NormResult.ACHIEVED


# --- Rp and 35 % (1.4.8–1.4.9) --------------------------------------------------------------------

def test_1_4_9_rp_is_ra_plus_dp_of_the_rounded_percentage():
    # 6/9 = 66.7 % → 67 → dp 125: 2450 + 125 = 2575 < 2600; 6.5/9 = 72.2 % → 72 → 166: 2616
    six = norm(event(opponents(), [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0]))
    assert (six.performance, six.result) == (2575, NormResult.MISSED)
    assert condition(six, "performance") is False
    # 5/8 = 62.5 % → 63 (.5 up) → dp 95 (a 9-round event with a forfeit win in round 9)
    c = norm(event(opponents([2520] * 9), [1, 1, 1, 1, 0.5, 0, 0, 0.5, 1],
                   statuses={9: Status.FORFEIT_WIN}))
    assert (c.games, c.score, c.performance) == (8, Decimal(5), 2520 + 95)


def test_1_4_8_at_least_35_percent_unrounded():
    strong = opponents([3000] * 13, n=13)
    # 4.5/13 = 34.6 % (rounded 35 → dp −110): Rp 2890 is enough, the score is not
    c = norm(event(strong, [0] * 8 + [1] * 4 + [0.5]))  # losses first: no prefix does better
    assert c.performance == 3000 - 110 and condition(c, "performance") is True
    assert condition(c, "score") is False and c.result is NormResult.MISSED
    assert "score: 4½ from 13 games (at least 35 %)" in c.reasons
    assert next(x.words for x in c.conditions if x.name == "performance").endswith(
        "Ra 3000 − 110 for 35 % (1.4.9)")  # a negative dp in words, not '+ -110'
    # 5/13 = 38.5 %
    assert condition(norm(event(strong, [0] * 8 + [1] * 5)), "score") is True
    # exactly 35 %: 7/20
    twenty = opponents([3000] * 20, n=20)
    assert condition(norm(event(twenty, [0] * 13 + [1] * 7)), "score") is True


# --- games (1.4.1–1.4.2) --------------------------------------------------------------------------

def test_1_4_1_nine_rounds_with_a_forfeit_win_or_an_allocated_bye_need_8_games():
    for status in (Status.FORFEIT_WIN, Status.BYE):
        c = norm(event(opponents(), [*GOOD[:8], 1], statuses={9: status}))
        assert c.result is NormResult.ACHIEVED, (status, c.reasons)
        assert (c.games, c.score) == (8, Decimal("6"))  # over those 8 games: 6/8 = 75 %
        assert "usable once per title application" in next(
            x.words for x in c.conditions if x.name == "games")
    # a requested bye, a forfeit loss or a 10-round event: 8 games are not enough
    requested = norm(event(opponents(), [*GOOD[:8], 1], statuses={9: Status.BYE}, requested=True))
    assert condition(requested, "games") is False and requested.result is NormResult.MISSED
    lost = norm(event(opponents(), [*GOOD[:8], 0], statuses={9: Status.FORFEIT_LOSS}))
    assert condition(lost, "games") is False
    ten = norm(event(opponents(n=10), [*GOOD[:8], 1, 1], statuses={9: Status.FORFEIT_WIN,
                                                                    10: Status.FORFEIT_WIN}))
    assert condition(ten, "games") is False
    assert "games counted: 8 (at least 9 needed); not counted: round 9: forfeit win, " \
        "round 10: forfeit win" in ten.reasons


def test_the_trf_reader_tells_a_requested_bye_from_an_allocated_one():
    def line(no: int, points: str, *blocks: str) -> str:  # the TRF16 columns
        return (f"001 {no:4d} m    {'Player ' + str(no):<33} 2000 ENG {'':>11} {'':<10} "
                f"{points:>4} {'':>4}" + "".join(f"  {b}" for b in blocks))
    lines = ["012 Bye kinds", line(1, "2.0", "0000 - U", "0000 - F"),
             line(2, "0.0", "0000 - Z", "0000 - Z")]
    t = parse_trf("\n".join(lines) + "\n")
    one = t.results_of(1)
    assert [(r.status, r.requested) for r in one] == [(Status.BYE, False), (Status.BYE, True)]


def test_1_4_1_seven_games_in_a_team_championship_given_as_the_event_class():
    opps = opponents(n=7)
    scores = [1, 1, 1, 1, 0.5, 0.5, 0.5]  # 5.5/7 = 78.6 % → 79 → dp 230: 2680
    assert condition(norm(event(opps, scores)), "games") is False
    c = norm(event(opps, scores), event_class=EventClass.TEAM_CHAMPIONSHIP)
    assert c.result is NormResult.ACHIEVED and c.games == 7


def test_1_4_1_more_than_13_rounds_count_as_13_games():
    opps = opponents(n=15)
    c = norm(event(opps, [1] * 8 + [0.5] * 7))  # 11.5/15 = 76.7 % → 77 → dp 211
    assert c.result is NormResult.ACHIEVED and (c.games, c.performance) == (15, 2450 + 211)
    assert c.application_games == 13
    assert "an event of more than 13 rounds counts as 13 games" in next(
        x.words for x in c.conditions if x.name == "games")


def test_1_4_2_forfeits_are_not_counted():
    # 10 rounds, round 10 a forfeit win: 9 games, their score and their Ra only
    opps = opponents([2450] * 9 + [1000], n=10)
    c = norm(event(opps, [*GOOD, 1], statuses={10: Status.FORFEIT_WIN}))
    assert (c.games, c.score, c.ra, c.result) == (9, Decimal("6.5"), 2450, NormResult.ACHIEVED)


def test_1_4_2_a_round_robin_leaves_out_an_unrated_player_who_scored_0():
    ratings: list[int | None] = [2450] * 9 + [None]
    opps = opponents(ratings, n=10)
    scores = [*GOOD, 1]  # the unrated player lost to the (rated) applicant, and scored 0
    rr = norm(event(opps, scores, system=System.ROUND_ROBIN))
    assert (rr.games, rr.score, rr.ra, rr.result) == (9, Decimal("6.5"), 2450,
                                                      NormResult.ACHIEVED)
    assert "round 10: an unrated opponent who scored 0 against rated players (1.4.2)" in next(
        x.words for x in rr.conditions if x.name == "games")
    # a Swiss counts them: 1400 raised to the floor 2200, (9 × 2450 + 2200) / 10 = 2425
    swiss = norm(event(opps, scores))
    assert (swiss.games, swiss.ra, swiss.ra_floor_raised) == (10, 2425, True)
    # an unrated player who drew is counted in a round robin too
    drew = norm(event(opps, [*GOOD, 0.5], system=System.ROUND_ROBIN))
    assert drew.games == 10


def test_1_4_1_a_swiss_counts_the_best_prefix_of_rounds():
    opps = opponents(n=11)
    c = norm(event(opps, [*GOOD, 0, 0]))  # made after 9 rounds, then two losses
    assert c.result is NormResult.ACHIEVED and (c.rounds, c.games) == ("1-9", 9)
    # never in a round robin: all rounds count (6.5/11 = 59 % → dp 65: 2515)
    rr = norm(event(opps, [*GOOD, 0, 0], system=System.ROUND_ROBIN))
    assert rr.result is NormResult.MISSED and (rr.rounds, rr.games, rr.performance) == (
        "1-11", 11, 2515)


def test_1_4_1_a_swiss_counts_the_prefix_worth_most_games_even_when_all_rounds_make_it():
    """1.4.1: once the norm is reached later games may be disregarded, so the rounds counted
    are the ones worth most toward the application (1.4.1d), even when all of them make it."""
    scores = [1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0]  # 7.5/9 against 2520, then lost to a 2200
    c = norm(event(opponents([2520] * 9 + [2200], n=10), scores))
    # rounds 1-9: 83 % → dp 273 → Rp 2793; 2600 needs 5.5 (61 % → dp 80; 5 is 56 % → 43), so
    # 2 full points over: 11 games. Rounds 1-10: Ra (9 × 2520 + 2200) / 10 = 2488, 75 % → dp
    # 193 → 2681, made too, but 2600 needs 7 (70 % → dp 149; 6.5 is 65 % → 110): 10 games.
    assert c.result is NormResult.ACHIEVED
    assert (c.rounds, c.games, c.ra, c.performance, c.application_games) == (
        "1-9", 9, 2520, 2793, 11)


# --- overscore (1.4.1d) ---------------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "application"), [
    (GOOD, 9),  # 6.5 is the least score for 2600 against 2450 (6/9 gives 2575)
    ([1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5], 9),  # 7: half a point over, no extra game
    ([1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5], 10),  # 7.5: one full point over
    ([1, 1, 1, 1, 1, 1, 1, 1, 0.5], 11),  # 8.5: two
])
def test_1_4_1d_each_full_point_over_the_norm_is_an_application_game(scores, application):
    c = norm(event(opponents(), scores))
    assert c.result is NormResult.ACHIEVED and c.games == 9
    assert c.application_games == application


def test_1_4_1d_overscore_never_makes_up_a_missing_game():
    c = norm(event(opponents(n=8), [1] * 8))  # 8/8 in an 8-round event
    assert c.result is NormResult.MISSED and c.application_games == 0
    assert condition(c, "games") is False


# --- titled opponents (1.4.5) ---------------------------------------------------------------------

def test_1_4_5_half_titleholders_and_a_third_of_the_title_sought():
    # 4 titled of 9 (need 5, rounded up); CM and WCM do not count
    few = ["GM", "GM", "GM", "IM", "CM", "WCM", "CM", "", ""]
    c = norm(event(opponents(titles=few), GOOD))
    assert (c.titled_opponents, condition(c, "titled opponents")) == (4, False)
    assert "titled opponents: 4 (at least 5; GM, IM, WGM, WIM, FM or WFM)" in c.reasons
    # 2 GMs of 9 (need 3): no GM norm; IM counts GM and IM for an IM norm
    two = ["GM", "GM", "IM", "IM", "IM", "FM", "WFM", "", ""]
    g = norm(event(opponents(titles=two), GOOD))
    assert (g.title_opponents, condition(g, "title opponents")) == (2, False)
    i = norm(event(opponents(titles=two), GOOD, me=replace(ME, title="FM")), IM)
    assert (i.title_opponents, condition(i, "title opponents")) == (5, True)
    # a WGM norm counts GM, IM and WGM; a WIM norm WIM as well
    women = ["WGM", "WIM", "WIM", "WFM", "WFM", "FM", "", "", ""]
    w = replace(ME, title="", sex="w")
    assert norm(event(opponents(titles=women), GOOD, me=w), WGM).title_opponents == 1
    assert norm(event(opponents(titles=women), GOOD, me=w), WIM).title_opponents == 3
    # a third rounded up: 12 games need 4 (a round robin: no shorter prefix of 9 rounds)
    twelve = norm(event(opponents(n=12, titles=["GM"] * 3 + ["IM"] * 9), [1] * 6 + [0.5] * 6,
                        system=System.ROUND_ROBIN))
    assert (twelve.title_opponents, condition(twelve, "title opponents")) == (3, False)


def test_titles_the_source_does_not_show_are_not_decidable():
    c = norm(event(opponents(titles=[""] * 9), GOOD, me=replace(ME, title="")))
    assert c.result is NormResult.NOT_DECIDABLE
    assert "not decidable: the source shows no player's title" in c.reasons


# --- federations (1.4.3–1.4.4) --------------------------------------------------------------------

def test_1_4_3_federation_limits_with_fid_opponents():
    # FID counts for games and Ra, never as a federation: 5 FID + 4 ENG → no other federation
    c = norm(event(opponents(feds=["FID"] * 5 + ["ENG"] * 4), GOOD))
    assert (c.federations, c.own_federation, c.games, c.ra) == (0, 4, 9, 2450)
    assert condition(c, "federations") is False and c.result is NormResult.MISSED
    # 7 FID + GER + FRA: two other federations; FID is not "one federation" of 7 > 6
    fid = norm(event(opponents(feds=["FID"] * 7 + ["GER", "FRA"]), GOOD))
    assert fid.result is NormResult.ACHIEVED and fid.federations == 2
    # own federation at most 3/5 of 9 = 5 (rounded down): 6 English opponents fail
    own = norm(event(opponents(feds=["ENG"] * 6 + ["GER", "FRA", "ESP"]), GOOD))
    assert (own.own_federation, condition(own, "own federation")) == (6, False)
    assert "opponents from ENG: 6 (at most 5)" in own.reasons
    # any one federation at most 2/3 of 9 = 6: 7 Germans fail, 6 pass
    seven = norm(event(opponents(feds=["GER"] * 7 + ["FRA", "ENG"]), GOOD))
    assert condition(seven, "one federation") is False
    six = norm(event(opponents(feds=["GER"] * 6 + ["FRA", "ENG", "ESP"]), GOOD))
    assert condition(six, "one federation") is True and six.result is NormResult.ACHIEVED
    # a FID player has no own federation: every real one is another
    me_fid = norm(event(opponents(feds=["ENG"] * 5 + ["GER"] * 4), GOOD,
                        me=replace(ME, federation="FID")))
    assert (me_fid.federations, me_fid.own_federation) == (2, 0)


def test_federations_the_source_does_not_show_are_not_decidable():
    c = norm(event(opponents(feds=["", *FEDS[1:]]), GOOD))
    assert c.result is NormResult.NOT_DECIDABLE and c.result is not NormResult.MISSED
    assert "not decidable: the source does not show every opponent's federation" in c.reasons


def test_a_rating_or_own_federation_the_source_does_not_show_is_not_decidable():
    opps = opponents()
    cut = [replace(opps[0], rating=None, rating_known=False), *opps[1:]]
    c = norm(event(cut, GOOD))
    assert (c.result, c.ra, c.performance) == (NormResult.NOT_DECIDABLE, None, None)
    assert "no average rating: the source does not show every opponent's rating" in c.reasons
    stateless = norm(event(opps, GOOD, me=replace(ME, federation="")))
    assert stateless.result is NormResult.NOT_DECIDABLE
    assert "not decidable: the source does not show the player's federation" in stateless.reasons


def test_1_4_3_an_event_class_exempts_and_the_exemption_is_marked():
    english = opponents(feds=["ENG"] * 9)
    assert norm(event(english, GOOD)).result is NormResult.MISSED
    c = norm(event(english, GOOD), event_class=EventClass.NATIONAL_FINAL)
    assert c.result is NormResult.ACHIEVED
    assert c.exemption == "a national championship final (1.4.3)"
    assert any("one norm of a title application must meet it (1.4.3e)" in x.words
               for x in c.conditions)
    # a norm that meets the normal rule is not marked
    assert norm(event(opponents(), GOOD), event_class=EventClass.ZONAL).exemption == ""


def field_of_foreigners(count: int, titled: int, feds: list[str], rounds: int = 9,
                        missing: dict[int, int] | None = None
                        ) -> tuple[list[Player], list[RoundResult]]:
    """*count* rated players from *feds* (cycled), *titled* of them IMs, who play each other
    every round; ``missing`` = {player index: a round they miss}."""
    players = [Player(start_no=100 + i, name=f"Foreigner {i}", rating=2300,
                      federation=feds[i % len(feds)], title="IM" if i < titled else "FM")
               for i in range(count)]
    results = []
    for rd in range(1, rounds + 1):
        for i, p in enumerate(players):
            away = (missing or {}).get(i) == rd
            results.append(RoundResult(start_no=p.start_no, round=rd,
                                       status=Status.ABSENT if away else Status.PLAYED,
                                       opponent_no=None if away else 100 + (i ^ 1),
                                       points=Decimal(0) if away else Decimal("0.5")))
    return players, results


def test_1_4_3d_the_swiss_exemption_at_exactly_its_minimum():
    english = opponents(feds=["ENG"] * 9)
    feds = ["GER", "FRA", "ESP"]
    exactly = event(english, GOOD, extra=field_of_foreigners(20, 10, feds))
    assert swiss_exemption(exactly, RULES)[0] is True
    c = norm(exactly)
    assert c.result is NormResult.ACHIEVED and "(1.4.3d)" in c.exemption
    # one short of each minimum: 19 players, 9 titled, 2 federations
    for field in (field_of_foreigners(19, 10, feds), field_of_foreigners(20, 9, feds),
                  field_of_foreigners(20, 10, feds[:2])):
        t = event(english, GOOD, extra=field)
        assert swiss_exemption(t, RULES)[0] is False
        assert norm(t).result is NormResult.MISSED
    # a player who missed one round still counts (not in the round missed: 21 needed then);
    # one who missed two does not
    one = field_of_foreigners(21, 11, feds, missing={20: 3})
    assert swiss_exemption(event(english, GOOD, extra=one), RULES)[0] is True
    two = field_of_foreigners(21, 10, feds, missing={0: 3})
    two[1][:] = [r if not (r.start_no == 100 and r.round == 4) else
                 replace(r, status=Status.ABSENT, opponent_no=None) for r in two[1]]
    assert swiss_exemption(event(english, GOOD, extra=two), RULES)[0] is False
    # FID players are no federation and the host's are not foreigners
    fid = field_of_foreigners(20, 10, ["GER", "FRA", "FID"])
    assert swiss_exemption(event(english, GOOD, extra=fid), RULES)[0] is False
    host = field_of_foreigners(20, 10, ["GER", "FRA", "ESP", "ENG"])
    assert swiss_exemption(event(english, GOOD, extra=host), RULES)[0] is False
    # never a round robin
    rr = event(english, GOOD, system=System.ROUND_ROBIN, extra=field_of_foreigners(20, 10, feds))
    assert swiss_exemption(rr, RULES)[0] is False


# --- the event: time control, live rounds --------------------------------------------------------

def test_1_1_norms_come_from_standard_games_only():
    c = norm(event(opponents(), GOOD, rating_list=RatingList.RAPID))
    assert c.result is NormResult.MISSED
    assert "a rapid event: norms come only from standard games" in c.reasons


def test_1_1_rounds_a_day_when_the_round_dates_are_shown():
    t = event(opponents(), GOOD)
    days = [date(2026, 3, d) for d in (1, 2, 3, 4, 5, 6, 7, 8, 9)]
    ok = replace(t, info=replace(t.info, round_dates=tuple(days)))
    assert condition(norm(ok), "rounds a day") is True and norm(ok).result is NormResult.ACHIEVED
    three = replace(t, info=replace(t.info, round_dates=tuple([days[0]] * 3 + days[3:])))
    assert condition(norm(three), "rounds a day") is False
    assert "at most 3 rounds a day (2 allowed)" in norm(three).reasons


def test_1_1_4_a_long_event_says_the_ratings_when_played_were_not_checked():
    t = event(opponents(), GOOD)
    long = replace(t, info=replace(t.info, end_date=date(2026, 4, 15)))
    c = norm(long)
    assert c.result is NormResult.ACHIEVED
    assert "ratings when played" in {x.name for x in c.conditions if not x.checked}
    assert "ratings when played" not in {x.name for x in norm(t).conditions}


def test_a_live_event_is_possible_until_it_is_decided():
    scores = [*GOOD[:8], 0]
    pending = norm(event(opponents(), scores, statuses={9: Status.PENDING}))
    assert (pending.result, pending.rounds, pending.games) == (NormResult.POSSIBLE, "1-8", 8)
    # 6/8 against 2450: 6.5/9 = 72 % → dp 166 → 2616 makes it, 6/9 (67 % → 125: 2575) does not
    assert (pending.needs, pending.points_needed) == ("draw", None)  # no estimate: the last round
    assert pending.reasons[-1] == "1 round still to play"
    # out of reach even with a win: 2/8 against 2450
    hopeless = norm(event(opponents(), [0] * 6 + [1, 1, 0], statuses={9: Status.PENDING}))
    assert hopeless.result is NormResult.MISSED
    # a round robin is not made before its last round; a Swiss can be
    rr = norm(event(opponents(n=10), [*GOOD, 0], system=System.ROUND_ROBIN,
                    statuses={10: Status.PENDING}))
    assert rr.result is NormResult.POSSIBLE
    swiss = norm(event(opponents(n=10), [*GOOD, 0], statuses={10: Status.PENDING}))
    assert swiss.result is NormResult.ACHIEVED and swiss.rounds == "1-9"


# --- the forecast of a live event (the item 3) -------------------------------------------

@pytest.mark.parametrize(("scores", "needs"), [
    ([1, 1, 1, 1, 1, 1, 1, 0], "any"),  # 7/8: a loss gives 7/9 = 78 % → dp 220 → 2670
    ([1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5], "draw"),  # 6/8: 6.5/9 → 2616, 6/9 → 2575
    ([1, 1, 1, 1, 0.5, 0.5, 0.5, 0], "win"),  # 5.5/8: only 6.5/9
    ([1, 1, 1, 1, 0, 0, 0, 0], ""),  # 4/8: a win gives 5/9 = 56 % → dp 43 → 2493
])
def test_needs_is_the_least_result_of_the_round_in_progress_that_makes_the_norm(scores, needs):
    c = norm(event(opponents(), [*scores, 0], statuses={9: Status.PENDING}))
    assert c.needs == needs
    assert c.result is (NormResult.POSSIBLE if needs else NormResult.MISSED)
    if not needs:
        assert "round 9: not even a win would make it" in c.reasons


def test_a_live_norm_that_turns_on_an_unknown_federation_is_not_decidable_never_missed():
    c = norm(event(opponents(feds=["", *FEDS[1:]]), [*GOOD[:8], 0], statuses={9: Status.PENDING}))
    assert (c.result, c.needs) == (NormResult.NOT_DECIDABLE, "")
    assert "not decidable: the source does not show every opponent's federation" in c.reasons
    assert not any("not even a win" in r for r in c.reasons)


def test_needs_judges_the_paired_opponent_not_the_average():
    # 6/8 against 2450; round 9 against a 2200: a draw gives Ra (19600 + 2200) / 9 = 2422,
    # 6.5/9 = 72 % → 2588; a win 7/9 = 78 % → dp 220 → 2642 (the average alone would say draw)
    c = norm(event(opponents([2450] * 8 + [2200]), [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0],
                   statuses={9: Status.PENDING}))
    assert (c.result, c.needs) == (NormResult.POSSIBLE, "win")


def test_before_later_rounds_an_estimate_of_the_points_still_needed():
    # 11 rounds, 8 played (5/8 against 2450), round 9 not paired yet: over 11 games against
    # 2450 a performance of 2600 needs 8 (72.7 % → 73 → dp 175: 2625; 7.5 → 68 % → dp 133:
    # 2583), so 3 points from the 3 rounds still to play, an estimate
    opps = opponents(n=9)
    scores = [1, 1, 1, 1, 0.5, 0.5, 0, 0, 0]
    unpaired = norm(event(opps[:8], scores[:8], rounds=11))
    assert (unpaired.result, unpaired.points_needed, unpaired.needs) == (
        NormResult.POSSIBLE, Decimal(3), "")
    assert unpaired.reasons[-1] == ("estimate: 3 points from the 3 rounds still to play, "
                                    "against opponents averaging 2450")
    # round 9 paired against a 2450: it must be won (a draw leaves 7.5 at most: 5.5/9 + 2),
    # then 2 points from the last 2 rounds
    c = norm(event(opps, scores, rounds=11, statuses={9: Status.PENDING}))
    assert (c.result, c.needs, c.points_needed) == (NormResult.POSSIBLE, "win", Decimal(3))
    assert c.reasons[-1] == ("estimate: 3 points from the 3 rounds still to play, this "
                             "round's opponent as paired, then opponents averaging 2450")
    # paired against a 2700 instead: Ra (8 × 2450 + 2700) / 9 = 2477.8 → 2478. A draw keeps it
    # in reach (7.5/11 = 68 % → dp 133: 2611; 7/11 = 64 % → 102: 2580), a win makes it at once
    # (6/9 = 67 % → dp 125: 2603), so the least points still needed are that win's 1
    strong = [*opps[:8], replace(opps[8], rating=2700)]
    s = norm(event(strong, scores, rounds=11, statuses={9: Status.PENDING}))
    assert (s.result, s.needs, s.points_needed) == (NormResult.POSSIBLE, "draw", Decimal(1))
    # what the performance no longer allows is missed: 3/8 needs 5 from 3
    lost = norm(event(opps[:8], [1, 1, 1, 0, 0, 0, 0, 0], rounds=11))
    assert (lost.result, lost.points_needed) == (NormResult.MISSED, None)


def test_a_norm_the_rounds_left_cannot_give_the_titled_opponents_is_missed():
    # 1.4.5: 11 games need 4 GMs; none met in 9 rounds, 2 to play: out of reach, whatever the
    # performance (8/9 against 2450); for the IM norm (IMs met) it stays possible
    no_gm = ["IM", "IM", "IM", "IM", "FM", "FM", "CM", "", ""]
    t = event(opponents(titles=no_gm), [1] * 8 + [0], rounds=11, me=replace(ME, title="FM"))
    gm = norm(t)
    assert (gm.result, gm.title_opponents) == (NormResult.MISSED, 0)
    assert norm(t, IM).result is NormResult.ACHIEVED  # 4 IMs of 9: the IM norm is made already


def test_a_score_the_rounds_left_cannot_lift_to_35_percent_is_missed():
    """1.4.8: 1/9 with one round to play reaches at most 2/10 (35 % needs 3.5), whatever the
    ratings, even one the source does not show; 3/9 could still reach 4/10."""
    opps = opponents(n=9)
    unknown = [replace(opps[0], rating=None, rating_known=False), *opps[1:]]
    low = norm(event(unknown, [1] + [0] * 8, rounds=10))
    assert (low.ra, low.result) == (None, NormResult.MISSED)
    assert norm(event(unknown, [1, 1, 1] + [0] * 6, rounds=10)).result is NormResult.POSSIBLE
    # over: 1/9 is missed, not "not decidable", though Ra and Rp are unknown
    over = norm(event(unknown, [1] + [0] * 8))
    assert (over.result, condition(over, "performance")) == (NormResult.MISSED, None)


def test_what_no_round_can_change_makes_a_live_norm_missed():
    # 1.1: a rapid event, or 3 rounds on one day, never gives a norm, however many rounds left
    c = norm(event(opponents(n=8), [1] * 8, rounds=11, rating_list=RatingList.RAPID))
    assert (c.result, c.points_needed) == (NormResult.MISSED, None)


def test_needs_in_a_round_robin_mirrors_the_opponents_result():
    # 1.4.2: round 10 against an unrated player who has no other game: if the applicant wins,
    # that player scored 0 against rated opponents and the game is left out; 9 games with 3 GMs
    # (a third of 9) make it; a draw keeps 10 games, which need 4 GMs
    opps = opponents([2450] * 9 + [None], titles=[*TITLES, ""], n=10)
    c = norm(event(opps, [*GOOD, 0], system=System.ROUND_ROBIN, statuses={10: Status.PENDING}))
    assert (c.result, c.needs) == (NormResult.POSSIBLE, "win")


# --- the real British Championship 2026 ------------------------------------------------------------

def test_ra_and_rp_on_the_british_championship_2026(realdata: Path):
    """Figures read off the crosstable (opponents by start number, results) and the starting
    rank (their ratings), worked out by hand; the event is live before round 9."""
    cr = realdata / "chess-results"
    t = importer.load_many([cr / "en_swiss_crosstable_art5_final_british2026.html",
                            cr / "en_swiss_startingrank_art0_british2026.html"])

    def of(no: int, title: NormTitle) -> NormCheck:
        return next(c for c in check_norms(t, no) if c.norm is title)

    # Grieve (4, IM): 57w1 33b1 27w1 15b½ 7w1 6b½ 2b½ 12w1 = 6.5/8; ratings 2220 2293 2315 2421
    # 2470 2488 2595 2439 = 19241 / 8 = 2405.125 → Ra 2405 (lowest 2220 ≥ 2200: none raised);
    # 6.5/8 = 81.25 % → 81 → dp 251 → Rp 2656.
    g = of(4, GM)
    assert (g.rounds, g.games, g.score, g.ra, g.ra_floor_raised, g.performance) == (
        "1-8", 8, Decimal("6.5"), 2405, False, 2656)
    # 8 games so far, 1 GM faced: with one round left at most 2 of the 3 GMs 1.4.5 asks for
    assert g.result is NormResult.MISSED and g.needs == ""
    assert "opponents holding GM: 1 (at least 3)" in g.reasons
    assert (g.titled_opponents, g.title_opponents) == (8, 1)
    # Banerjee (22, FM): 76w1 86b1 9w½ 3b0 51w1 5b½ 15w1 10b1 = 6/8; ratings 2143 2085 2455
    # 2514 2244 2494 2421 2455 = 18811. IM (floor 2050, none raised): 2351.375 → 2351; 75 % →
    # dp 193 → 2544. GM: 2085 → 2200 (+115): 18926 / 8 = 2365.75 → 2366; 2366 + 193 = 2559.
    i, gm = of(22, IM), of(22, GM)
    assert (i.ra, i.ra_floor_raised, i.performance) == (2351, False, 2544)
    assert (gm.ra, gm.ra_floor_raised, gm.performance) == (2366, True, 2559)
    # Sivanandan (24, FM, a woman per the sex column): 78w½ 80b1 53w1 5b1 15w½ 3w0 10b½ 41b½
    # = 5/8; ratings 2125 2110 2235 2494 2421 2514 2455 2266 = 18620 / 8 = 2327.5 → 2328 (.5
    # up); 62.5 % → 63 → dp 95 → 2423 (WGM, WIM, IM: floors 2000/1850/2050 raise nobody).
    # GM: 2110 → 2200 (+90): 18710 / 8 = 2338.75 → 2339; 2339 + 95 = 2434.
    s = {c.norm: c for c in check_norms(t, 24)}
    assert set(s) == {GM, IM, WGM, WIM}
    for title in (IM, WGM, WIM):
        assert (s[title].ra, s[title].ra_floor_raised, s[title].performance) == (2328, False, 2423)
    assert (s[GM].ra, s[GM].ra_floor_raised, s[GM].performance) == (2339, True, 2434)
    # round 9 (pending) against Hobson (51, FM, ENG, 2244): 18620 + 2244 = 20864 / 9 = 2318.2 →
    # Ra 2318. A win: 6/9 = 67 % → dp 125 → 2443, a WGM norm (GM/IM/WGM faced: 5, 15, 3, 10;
    # 6 of 9 titled; 6 English opponents of at most 5, waived by 1.4.3d), no IM norm (2450);
    # a draw: 5.5/9 = 61 % → dp 80 → 2398 < 2400.
    assert (s[WGM].result, s[WGM].needs) == (NormResult.POSSIBLE, "win")
    assert (s[IM].result, s[IM].needs) == (NormResult.MISSED, "")
    assert "round 9: not even a win would make it" in s[IM].reasons
    # Banerjee's GM norm: a win against Adams (2, GM, ENG, 2595) in round 9 makes it: 18926 +
    # 2595 = 21521 / 9 = 2391.2 → Ra 2391 (≥ 2380); 7/9 = 78 % → dp 220 → 2611; GMs 3, 5, 2;
    # 5 English opponents (at most 5); IND, POL, NED, SCO. A draw: 72 % → dp 166 → 2557.
    assert (gm.result, gm.needs) == (NormResult.POSSIBLE, "win")


def test_the_swiss_exemption_on_the_british_championship_2026(realdata: Path):
    """1.4.3d read off the crosstable page by hand (its rows, not the importer): rated players
    not from England (nor FID) who missed at most one round, counted in each round they sat at
    a board ('57w1', '3b', '104b+'; '-0' and '100w-' are rounds missed)."""
    page = realdata / "chess-results" / "en_swiss_crosstable_art5_final_british2026.html"
    text = page.read_text(encoding="utf-8")
    rows = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", text, re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        if len(cells) == 17 and cells[0].isdigit():  # No., -, title, name, rating, fed, 9 rounds, …
            rows.append(cells)
    assert len(rows) == 108

    def sat(cell: str) -> bool:
        return re.fullmatch(r"\d+[wb][01½+]?", cell) is not None

    foreign = [r for r in rows if r[5] not in ("ENG", "FID") and int(r[4] or 0) > 0
               and sum(not sat(c) for c in r[6:15]) <= 1]
    per_round = [[r for r in foreign if sat(r[6 + i])] for i in range(9)]
    least = (min(len(here) for here in per_round),
             min(len({r[5] for r in here}) for here in per_round),
             min(sum(r[2] in ("GM", "IM", "WGM", "WIM") for r in here) for here in per_round))
    assert least == (28, 13, 10)  # 10 GM/IM/WGM/WIM: exactly the minimum, in every round
    t = importer.load_many([page, page.with_name("en_swiss_startingrank_art0_british2026.html")])
    exempt, words = swiss_exemption(t, RULES)
    assert exempt is True and "(1.4.3d)" in words



def _assert_no_norm_decided_from_a_ranking(path: Path) -> None:
    """A final ranking (art=1 with the published Rp, n, w, we, K, rtg+/-) shows no games: its
    norms are 'not decidable from this page', never 'possible', no round is 'still to play',
    and the games and score a norm counts are unknown (never 0)."""
    from reports.render.columns import NORMS, values
    from reports.report import build_report

    report = build_report(importer.load(path))
    assert report.norms, "titled players seek norms"
    assert {c.result for c in report.norms} == {NormResult.NOT_DECIDABLE}
    for c in report.norms:
        assert not any("still to play" in r for r in c.reasons), c.reasons
        assert any("not decidable from this page" in r for r in c.reasons)
        row = dict(zip((col.name for col in NORMS), values(NORMS, c), strict=True))
        assert row["games"] is None and row["score"] is None


def test_a_finished_events_final_ranking_decides_no_norm(realdata: Path):
    """Portimão 2024, 9 rounds all played: 95 players were 'GM norm possible' with '9 rounds
    still to play'."""
    _assert_no_norm_decided_from_a_ranking(
        realdata / "chess-results" / "en_final_ranking_rtgchange_art1_portimao2024.html")


def test_a_ranking_alone_decides_no_norm(fixtures_dir: Path):
    _assert_no_norm_decided_from_a_ranking(
        fixtures_dir / "chess-results" / "art1_ranking_published_small.html")
