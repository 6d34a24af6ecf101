"""chess-results page parsers: every real page in ../shared/realdata/chess-results and the
project's own edge-case fixtures (fixtures/chess-results/README.md)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from importer.errors import ImporterError, InputError
from importer.formats.chessresults import Page, build_tournament, looks_like_chess_results, parse_page
from importer.model import Colour, GameResult, RatingList, RoundResult, Status, System

CR = "chess-results"


def read(folder: Path, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8", errors="strict")


def real(realdata: Path, name: str) -> Page:
    return parse_page((realdata / CR / name).read_bytes().decode("utf-8"), source=name)


def own(fixtures_dir: Path, name: str) -> Page:
    return parse_page(read(fixtures_dir / CR, name), source=name)


def statuses(page: Page) -> Counter[str]:
    return Counter(r.status.value for r in page.results)


def result(page: Page, no: int, rd: int) -> RoundResult:
    return next(r for r in page.results if r.start_no == no and r.round == rd)


def cells_of(page: Page, no: int) -> list[tuple[int | None, str, float | None, str]]:
    return [(r.opponent_no, r.colour.value, r.points, r.status.value)
            for r in sorted(page.results, key=lambda r: r.round) if r.start_no == no]


def assert_symmetric(page: Page) -> None:
    """Both sides of every pairing on one page agree (spec §8.3)."""
    by = {(r.start_no, r.round): r for r in page.results}
    for r in page.results:
        if r.opponent_no is None:
            continue
        o = by[(r.opponent_no, r.round)]
        assert o.opponent_no == r.start_no
        if r.colour is not Colour.NONE:
            assert {r.colour, o.colour} == {Colour.WHITE, Colour.BLACK}
        if r.status is Status.PLAYED:
            assert r.points is not None and o.points is not None
            assert r.points + o.points == 1.0
        if r.status is Status.FORFEIT_WIN:
            assert o.status is Status.FORFEIT_LOSS


# ------------------------------------------------------------------ crosstables (art=5)


def test_british_crosstable_after_round_7(realdata: Path) -> None:
    p = real(realdata, "british2026_champ_crosstable.html")
    assert p.kind == "crosstable_start"
    assert p.tnr == "1452107" and not p.has_gate and not p.is_team_event
    assert len(p.players) == 108
    assert {r.round for r in p.results} == set(range(1, 8))
    assert len(p.results) == 108 * 7
    assert statuses(p) == {"played": 734, "absent": 19, "bye": 3}
    assert cells_of(p, 1) == [(54, "b", 1.0, "played"), (29, "w", 0.5, "played"),
                              (30, "b", 0.5, "played"), (38, "w", 1.0, "played"),
                              (16, "b", 1.0, "played"), (10, "w", 1.0, "played"),
                              (3, "b", 0.0, "played")]
    mcshane = p.players[0]
    assert (mcshane.name, mcshane.title, mcshane.rating, mcshane.federation) == (
        "Mcshane Luke J", "GM", 2597, "ENG")
    # no Pts. column: TB1 is "points (game-points)" per the Annotation (spec §8.2)
    assert (mcshane.points, mcshane.rank) == (5.0, 7)
    by_no = {pl.start_no: pl for pl in p.players}
    assert by_no[2].points == 5.5 and by_no[3].points == 6.0 and by_no[108].points == 0.0
    assert result(p, 106, 6).status is Status.BYE and result(p, 106, 6).points == 1.0
    assert cells_of(p, 108)[1] == (89, "w", 0.0, "played")
    assert result(p, 108, 7).status is Status.ABSENT
    assert p.live_round is None
    # the details block (spec §15)
    i = p.info
    assert (i.name, i.rounds, i.system, i.rating_list) == (
        "2026 British Chess Championships: Championship", 9, System.SWISS, RatingList.STANDARD)
    assert (i.start_date, i.end_date) == (date(2026, 8, 1), date(2026, 8, 9))
    assert (i.federation, i.fide_event_id) == ("ENG", "485896")
    assert i.rating_calculation == "Rating national, Rating international"
    assert_symmetric(p)
    for pl in p.players:  # printed TB1 = sum of the round points
        assert pl.points == sum(r.points or 0 for r in p.results if r.start_no == pl.start_no)


def test_british_final_crosstable_live_round_with_forfeits(realdata: Path) -> None:
    p = real(realdata, "en_swiss_crosstable_art5_final_british2026.html")
    assert p.kind == "crosstable_start" and len(p.players) == 108
    assert len(p.results) == 108 * 9
    assert statuses(p) == {"played": 838, "pending": 94, "absent": 32, "forfeit_loss": 2,
                           "forfeit_win": 2, "bye": 4}
    assert p.live_round == 9
    assert result(p, 3, 9) == RoundResult(start_no=3, round=9, status=Status.PENDING,
                                          opponent_no=4, colour=Colour.WHITE, points=None)
    assert result(p, 62, 8).status is Status.FORFEIT_LOSS and result(p, 62, 8).opponent_no == 100
    assert result(p, 100, 8).status is Status.FORFEIT_WIN and result(p, 100, 8).points == 1.0
    assert result(p, 62, 9).colour is Colour.BLACK and result(p, 104, 9).status is (
        Status.FORFEIT_WIN)
    by_no = {pl.start_no: pl for pl in p.players}
    assert (by_no[3].points, by_no[3].rank) == (6.5, 1)
    assert cells_of(p, 107)[-2:] == [(None, "", 0.0, "absent")] * 2
    pending_games = [g for g in p.games if g.result is GameResult.PENDING]
    assert len(pending_games) == 47
    assert_symmetric(p)


def test_frome_open_gated_crosstable_half_byes(realdata: Path) -> None:
    p = real(realdata, "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html")
    assert p.kind == "crosstable_start" and p.has_gate and p.tnr == "1393521"
    assert p.info.name == "Frome Chess Congress 2026 - Open"  # trailing space stripped
    assert len(p.players) == 38 and {r.round for r in p.results} == set(range(1, 6))
    assert statuses(p) == {"played": 166, "half_bye": 14, "bye": 3, "absent": 7}
    assert result(p, 1, 1) == RoundResult(start_no=1, round=1, status=Status.HALF_BYE,
                                          points=0.5)
    assert cells_of(p, 2)[3] == (3, "w", 0.0, "played")
    by_no = {pl.start_no: pl for pl in p.players}
    assert by_no[1].points == 4.0 and by_no[3].points == 4.5 and by_no[38].rating is None
    assert_symmetric(p)


def test_frome_standard_gated_crosstable_forfeit(realdata: Path) -> None:
    p = real(realdata, "frome2026_standard_crosstable.html")
    assert p.kind == "crosstable_start" and p.has_gate and len(p.players) == 31
    assert statuses(p) == {"played": 132, "absent": 13, "half_bye": 6, "forfeit_loss": 1,
                           "forfeit_win": 1, "bye": 2}
    assert result(p, 9, 2) == RoundResult(start_no=9, round=2, status=Status.FORFEIT_LOSS,
                                          opponent_no=23, colour=Colour.BLACK, points=0.0)
    assert result(p, 23, 2).status is Status.FORFEIT_WIN
    assert [g for g in p.games if g.round == 2 and g.white_no == 23] == [
        pytest.approx(g) for g in p.games if g.round == 2 and g.black_no == 9]
    assert next(g for g in p.games if g.white_no == 23 and g.round == 2).result is (
        GameResult.WHITE_FORFEIT_WIN)
    assert {pl.start_no: pl.rating for pl in p.players}[29] is None  # printed 0 = unrated
    assert_symmetric(p)


# ------------------------------------------------------------------ round robin


def test_round_robin_matrix(realdata: Path) -> None:
    p = real(realdata, "en_roundrobin_crosstable_art5_ussa2026.html")
    assert p.kind == "crosstable_rr" and p.info.system is System.ROUND_ROBIN
    assert len(p.players) == 9 and len(p.rr_scores) == 72
    by_no = {pl.start_no: pl for pl in p.players}
    assert (by_no[1].points, by_no[1].rank, by_no[5].title) == (6.5, 1, "AIM")
    scores = {(a, b): c for a, b, c in p.rr_scores}
    assert scores[(2, 8)].status is Status.FORFEIT_WIN
    assert scores[(8, 2)].status is Status.FORFEIT_LOSS
    assert scores[(1, 6)].points == 0.5
    # rounds and colours from the Berger tables, with a warning
    assert any("Berger" in w.message for w in p.warnings)
    assert result(p, 1, 1).status is Status.ABSENT  # 9 players: one free round each
    assert_symmetric(p)


def test_round_robin_all_rounds_pairings(realdata: Path) -> None:
    p = real(realdata, "en_roundrobin_pairings_art2_allrounds_ussa2026.html")
    assert p.kind == "pairings_rr" and p.round is None
    assert {r.round for r in p.results} == set(range(1, 10))
    assert len(p.games) == 36 and len(p.results) == 81
    assert statuses(p) == {"played": 70, "absent": 9, "forfeit_loss": 1, "forfeit_win": 1}
    # round 1: 2-9, 3-8, 4-7, 5-6; player 1 has the free round (Black 'bye', result 0)
    assert sorted((g.white_no, g.black_no, g.board) for g in p.games if g.round == 1) == [
        (2, 9, 1), (3, 8, 2), (4, 7, 3), (5, 6, 4)]
    assert result(p, 1, 1) == RoundResult(start_no=1, round=1, status=Status.ABSENT, points=0.0)
    # the forfeit '- - +' (the spec says round 3; the page files it under Round 9)
    forfeit = next(g for g in p.games if g.result is GameResult.BLACK_FORFEIT_WIN)
    assert (forfeit.round, forfeit.white_no, forfeit.black_no) == (9, 8, 2)
    assert_symmetric(p)


# ------------------------------------------------------------------ pairings (art=2)


@pytest.mark.parametrize(
    ("name", "rd", "games", "counts"),
    [
        ("british2026_champ_r1.html", 1, 53, {"played": 106, "absent": 2}),
        ("british2026_champ_r2.html", 2, 53, {"played": 106, "absent": 2}),
        ("british2026_champ_r3.html", 3, 53, {"played": 106, "absent": 2}),
        ("british2026_champ_r4.html", 4, 53, {"played": 106, "absent": 2}),
        ("british2026_champ_r5.html", 5, 52, {"played": 104, "bye": 1, "absent": 3}),
        ("british2026_champ_r6_finished.html", 6, 52, {"played": 104, "bye": 1, "absent": 3}),
        ("en_swiss_pairings_art2_rd6_midround_byes_british2026.html", 6, 52,
         {"played": 92, "pending": 12, "bye": 1, "absent": 3}),
        ("british2026_champ_r7_finished.html", 7, 51, {"played": 102, "bye": 1, "absent": 5}),
        ("british2026_champ_r7_midround.html", 7, 51, {"pending": 102, "bye": 1, "absent": 5}),
        ("en_swiss_pairings_art2_rd8_forfeit_british2026.html", 8, 51,
         {"played": 100, "forfeit_loss": 1, "forfeit_win": 1, "bye": 1, "absent": 5}),
        ("british2026_champ_r9.html", 9, 50,
         {"pending": 94, "played": 4, "forfeit_win": 1, "forfeit_loss": 1, "absent": 8}),
        ("frome2026_open_r1.html", 1, 13, {"played": 26, "half_bye": 12}),
        ("frome2026_standard_r1.html", 1, 12, {"played": 24, "bye": 1, "half_bye": 6}),
    ],
)
def test_pairings_pages(realdata: Path, name: str, rd: int, games: int,
                        counts: dict[str, int]) -> None:
    p = real(realdata, name)
    assert p.kind == "pairings" and p.round == rd
    assert len(p.games) == games
    assert statuses(p) == counts
    assert {r.round for r in p.results} == {rd}
    assert all(g.board is not None for g in p.games)
    pending = sum(g.result is GameResult.PENDING for g in p.games)
    assert p.live_round == (rd if pending else None)
    assert_symmetric(p)


def test_british_round_1_and_5_rows(realdata: Path) -> None:
    r1 = real(realdata, "british2026_champ_r1.html")
    assert r1.games[0].board == 1
    assert (r1.games[0].white_no, r1.games[0].black_no, r1.games[0].result) == (
        54, 1, GameResult.BLACK_WIN)
    assert {r.start_no for r in r1.results if r.status is Status.ABSENT} == {69, 108}
    r5 = real(realdata, "british2026_champ_r5.html")
    g1 = next(g for g in r5.games if g.board == 1)
    assert (g1.white_no, g1.black_no, g1.result) == (3, 6, GameResult.DRAW)
    assert result(r5, 107, 5) == RoundResult(start_no=107, round=5, status=Status.BYE,
                                             points=1.0)
    assert {r.start_no for r in r5.results if r.status is Status.ABSENT} == {47, 59, 108}
    hebden = next(pl for pl in r5.players if pl.start_no == 23)
    assert hebden.name == "Hebden, Mark L"  # the fixed-board marker ' *)' is dropped
    assert next(g for g in r5.games if g.board == 14).black_no == 23


def test_live_round_bye_has_no_points_yet(realdata: Path) -> None:
    p = real(realdata, "british2026_champ_r7_midround.html")
    assert result(p, 105, 7) == RoundResult(start_no=105, round=7, status=Status.BYE)
    assert all(g.result is GameResult.PENDING for g in p.games)


def test_forfeit_directions(realdata: Path) -> None:
    r8 = real(realdata, "en_swiss_pairings_art2_rd8_forfeit_british2026.html")
    f8 = next(g for g in r8.games if g.result is GameResult.BLACK_FORFEIT_WIN)
    assert (f8.white_no, f8.black_no, f8.board) == (62, 100, 45)
    r9 = real(realdata, "british2026_champ_r9.html")
    f9 = next(g for g in r9.games if g.result is GameResult.WHITE_FORFEIT_WIN)
    assert (f9.white_no, f9.black_no, f9.board) == (104, 62, 48)
    assert sum(g.result is GameResult.DRAW for g in r9.games) == 2


def test_frome_pairings_use_no_columns(realdata: Path) -> None:
    p = real(realdata, "frome2026_open_r1.html")
    assert p.has_gate
    g = next(g for g in p.games if g.board == 1)
    assert (g.white_no, g.black_no, g.result) == (19, 2, GameResult.BLACK_WIN)
    assert result(p, 29, 1).status is Status.HALF_BYE and result(p, 29, 1).points == 0.5
    s = real(realdata, "frome2026_standard_r1.html")
    assert {pl.start_no: pl.rating for pl in s.players}[31] is None


def test_unpaired_round_and_not_started_are_no_data(realdata: Path) -> None:
    r8 = real(realdata, "british2026_champ_r8_unpaired_only.html")
    assert r8.kind == "no_data" and r8.round == 8 and r8.results == ()
    w = real(realdata, "warsaw2026_notstarted_r1.html")
    assert w.kind == "no_data" and w.round == 1 and w.tnr == "1449763"
    assert w.info.system is System.ROUND_ROBIN


# ------------------------------------------------------------------ lists


def test_british_starting_rank(realdata: Path) -> None:
    p = real(realdata, "en_swiss_startingrank_art0_british2026.html")
    assert p.kind == "starting_rank" and len(p.players) == 108 and p.results == ()
    by_no = {pl.start_no: pl for pl in p.players}
    baz = by_no[6]
    assert (baz.name, baz.title, baz.fide_id, baz.federation, baz.rating, baz.national_id) == (
        "Bazakutsa, Svyatoslav", "IM", "14198525", "UKR", 2488, "352799")
    # Swiss-Manager's sex column marks women only ('w'): a blank there is a man
    assert (by_no[107].sex, by_no[107].national_id, by_no[1].sex) == ("f", "", "m")
    assert p.info.rounds == 9  # from the menu 'Rd.6/9'


def test_round_robin_starting_rank_sorted_by_rating(realdata: Path) -> None:
    p = real(realdata, "ussa2026_roundrobin_startingrank.html")
    assert [pl.start_no for pl in p.players][:3] == [1, 4, 9]
    first = p.players[0]
    assert (first.federation, first.rating, first.national_rating, first.fide_id) == (
        "RSA", 1936, 1955, "14351323")
    assert {pl.start_no: pl.title for pl in p.players}[5] == "AIM"


def test_warsaw_starting_rank_without_fed_column(realdata: Path) -> None:
    p = real(realdata, "warsaw2026_notstarted_startingrank.html")
    assert p.kind == "starting_rank" and len(p.players) == 6
    assert [pl.federation for pl in p.players] == ["POL", "CZE", "POL", "POL", "POL", "IND"]
    assert p.players[0].club == "AZS KU Politechniki Opolskiej" and p.players[0].sex == "m"
    assert p.info.rounds == 1 and p.info.system is System.ROUND_ROBIN  # details say 1 (§15)


def test_not_paired_grids(realdata: Path) -> None:
    p = real(realdata, "en_swiss_notpaired_art40_british2026.html")
    assert p.kind == "notpaired" and len(p.players) == 15
    assert statuses(p) == {"absent": 32, "forfeit_loss": 3, "bye": 4}
    assert result(p, 54, 9).status is Status.FORFEIT_LOSS
    assert result(p, 106, 6).status is Status.BYE
    assert {r.round for r in p.results if r.start_no == 47} == {5, 6, 7, 8, 9}
    f = real(realdata, "frome2026_open_notpaired.html")
    assert f.kind == "notpaired" and f.has_gate and len(f.players) == 18
    assert result(f, 34, 3).status is Status.BYE


# ------------------------------------------------------------------ player card (art=9)


def test_russian_player_card(realdata: Path) -> None:
    p = real(realdata, "ru_player_details_art9_2020.html")  # starts with HTTP headers
    assert p.kind == "player_card" and p.snr == 8 and p.tnr == "502281" and p.language == "ru"
    me = p.players[0]
    assert (me.start_no, me.name, me.points, me.rank) == (8, "Алипов Давид", 7.5, 1)
    assert (me.rating, me.national_rating, me.fide_id, me.birth_year) == (
        None, 1180, "34470263", 2009)
    assert len(p.results) == 8
    assert cells_of(p, 8)[0] == (30, "w", 1.0, "played")
    assert cells_of(p, 8)[1] == (26, "b", 1.0, "played")
    assert cells_of(p, 8)[6] == (1, "w", 0.5, "played")
    assert sum(r.points or 0 for r in p.results) == me.points


def test_english_player_card_with_k(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art9_player_card_en_k.html")
    assert p.kind == "player_card" and p.snr == 5
    me = p.players[0]
    assert (me.name, me.title, me.rating, me.national_rating, me.rating_change, me.k) == (
        "Smith, Sam", "CM", 1850, 1870, Decimal("7.6"), 20)
    assert (me.fide_id, me.birth_year, me.club) == ("4190001", 1990, "Frome")
    rs = {r.round: r for r in p.results}
    assert (rs[1].opponent_no, rs[1].colour, rs[1].points, rs[1].k, rs[1].rating_change) == (
        12, Colour.WHITE, 1.0, 20, Decimal("8.80"))
    assert (rs[2].colour, rs[2].points, rs[2].k, rs[2].rating_change) == (
        Colour.BLACK, 0.5, None, None)  # unrated opponent: one empty cell for K and rtg+/-
    assert (rs[3].status, rs[3].points, rs[3].opponent_no) == (Status.BYE, 1.0, None)
    assert (rs[4].status, rs[4].points) == (Status.ABSENT, 0.0)
    assert (rs[5].status, rs[5].points) == (Status.FORFEIT_WIN, 1.0)
    assert rs[6].rating_change == Decimal("-1.20")
    assert (rs[7].status, rs[7].points, rs[7].colour) == (Status.PENDING, None, Colour.WHITE)
    assert p.live_round == 7
    assert {pl.start_no for pl in p.players} == {5, 12, 7, 9, 3, 4}


def test_turkish_card_b_is_white(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art9_player_card_tr.html")
    assert p.language == "tr" and p.snr == 6
    assert [r.colour for r in p.results] == [Colour.WHITE, Colour.BLACK]
    assert p.players[0].national_rating == 1680


# ------------------------------------------------------------------ team events


def test_team_player_list(realdata: Path) -> None:
    p = real(realdata, "cnyt2026_g14_playerrank.html")
    assert p.kind == "player_list" and p.is_team_event and len(p.players) == 32
    xue = next(pl for pl in p.players if pl.name == "Xue, Tianhao")
    assert (xue.start_no, xue.title, xue.rating, xue.team, xue.fide_id) == (
        13, "WIM", 2218, "Shanghai Chess Academy", "8626480")  # snr= link, not the No. cell
    assert sum(pl.rating is None for pl in p.players) >= 3


def test_team_pairings_and_board_pairings(realdata: Path) -> None:
    t = real(realdata, "en_team_pairings_art2_rd1_cnyt2026.html")
    assert t.kind == "team_pairings" and t.is_team_event and t.round == 1
    b = real(realdata, "en_team_boardpairings_art3_rd1_cnyt2026.html")
    assert b.kind == "team_board_pairings" and b.is_team_event and b.round == 1
    assert len(b.games) == 16 and all(g.result is GameResult.PENDING for g in b.games)
    assert (b.games[0].white_no, b.games[0].black_no, b.games[0].board) == (27, 13, 1)
    assert (b.games[1].white_no, b.games[1].black_no) == (14, 28)  # board 2: colours swap
    teams = {pl.start_no: pl.team for pl in b.players}
    assert teams[27] == "Hangzhou Chess Association" and teams[13] == "Shanghai Chess Academy"
    assert b.live_round == 1
    assert_symmetric(b)


def test_german_team_all_details(realdata: Path) -> None:
    p = real(realdata, "de_team_roundrobin_all_details_art20_tmm2026.html")
    assert p.kind == "team_all_details" and p.is_team_event and p.language == "de"
    i = p.info
    assert (i.rounds, i.federation, i.rating_calculation, i.rating_list, i.system) == (
        5, "AUT", "Elo national", RatingList.STANDARD, System.TEAM)
    assert (i.start_date, i.end_date) == (date(2026, 9, 26), date(2026, 11, 28))
    assert len(p.players) == 24 and len(p.games) == 12
    g = p.games[0]
    assert (g.round, g.white_no, g.black_no, g.result) == (1, 5, 76, GameResult.BLACK_WIN)
    # the result reads home first: 1.2 Brunner (home, Black) 0 - 1 Motz (White)
    g2 = p.games[1]
    assert (g2.white_no, g2.black_no, g2.result) == (77, 8, GameResult.WHITE_WIN)
    by_no = {pl.start_no: pl for pl in p.players}
    assert (by_no[92].name, by_no[92].fide_id, by_no[92].team) == (
        "Schett, Franz Mag.", "1611135", "Völs & Hak Ibk")
    assert by_no[101].rating is None  # Elo 0
    for pl in p.players:  # the team composition's Pkt. agrees with the board results
        assert pl.points == sum(r.points or 0 for r in p.results if r.start_no == pl.start_no)
    assert_symmetric(p)


# ------------------------------------------------------------------ own fixtures


def test_ranking_crosstable_maps_ranks_through_links(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art4_ranking_crosstable_links.html")
    assert p.kind == "crosstable_rank" and not p.by_rank
    # player 4 (rank 1) beat player 2 (rank 4), drew 3 (rank 2), beat 1 (rank 3)
    assert cells_of(p, 4) == [(2, "b", 1.0, "played"), (3, "b", 0.5, "played"),
                              (1, "w", 1.0, "played")]
    assert {pl.start_no: pl.rank for pl in p.players} == {4: 1, 3: 2, 1: 3, 2: 4}
    assert {pl.start_no: pl.points for pl in p.players} == {4: 2.5, 3: 1.5, 1: 1.0, 2: 1.0}
    assert_symmetric(p)


def test_gated_ranking_crosstable_keeps_ranks(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art4_ranking_crosstable_gated.html")
    assert p.kind == "crosstable_rank" and p.by_rank and p.has_gate and p.games == ()
    assert any("ranks" in w.message for w in p.warnings)


def test_unknown_language_reads_by_structure(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art5_crosstable_unknown_language.html")
    assert p.kind == "crosstable_start" and p.language == ""
    assert any(w.message.startswith("unknown language") for w in p.warnings)
    assert [pl.name for pl in p.players] == ["Alder Ann", "Birch Ben", "Cedar Cy", "Dogwood Dan"]
    assert cells_of(p, 4)[0] == (2, "b", 1.0, "played")


def test_small_crosstable_and_pairings(fixtures_dir: Path) -> None:
    p = own(fixtures_dir, "art5_crosstable_small.html")
    assert p.kind == "crosstable_start" and len(p.results) == 12
    assert {pl.start_no: pl.points for pl in p.players} == {1: 1.0, 2: 1.0, 3: 1.5, 4: 2.5}
    assert {pl.start_no: pl.rating for pl in p.players}[4] is None
    q = own(fixtures_dir, "art2_pairings_double_forfeit.html")
    assert q.kind == "pairings" and q.round == 2 and q.has_gate
    assert [(g.board, g.white_no, g.black_no, g.result) for g in q.games] == [
        (1, 1, 2, GameResult.DOUBLE_FORFEIT), (2, 3, 4, GameResult.PENDING)]
    assert result(q, 1, 2).status is Status.FORFEIT_LOSS
    assert result(q, 2, 2).status is Status.FORFEIT_LOSS
    assert result(q, 5, 2) == RoundResult(start_no=5, round=2, status=Status.BYE, points=1.0)
    assert q.players[0].name == "Alder, Ann"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty page"),
        ("   \r\n", "empty page"),
        ("\x00\x01\x02PK\x03\x04binary", "binary"),
        ("no markup at all", "no HTML"),
        ("<html><body><p>hello</p></body></html>", "not a chess-results"),
    ],
)
def test_bad_input_raises_input_error(text: str, match: str) -> None:
    with pytest.raises(InputError, match=match) as e:
        parse_page(text, source="x.html")
    assert e.value.source == "x.html"


def test_not_chess_results_and_truncated(fixtures_dir: Path) -> None:
    with pytest.raises(InputError, match="not a chess-results"):
        own(fixtures_dir, "not_chess_results.html")
    with pytest.raises(InputError, match="truncated") as e:
        own(fixtures_dir, "art5_crosstable_truncated.html")
    assert "art5_crosstable_truncated.html" in str(e.value)


def test_unknown_tokens_name_the_row(fixtures_dir: Path) -> None:
    text = read(fixtures_dir / CR, "art5_crosstable_small.html").replace("  2w1", "  2w9")
    with pytest.raises(InputError, match=r"player 1 .*round 2.*'2w9'"):
        parse_page(text, source="s.html")
    text = read(fixtures_dir / CR, "art2_pairings_double_forfeit.html").replace("- - -", "2 - 0")
    with pytest.raises(InputError, match=r"row 1 \(Alder, Ann - Birch, Ben\).*'2 - 0'"):
        parse_page(text)


def test_cut_real_crosstable_is_refused(realdata: Path) -> None:
    text = (realdata / CR / "british2026_champ_crosstable.html").read_bytes().decode("utf-8")
    cut = text[: text.index(">54<") + 3]  # mid-table, mid-row of player 54
    with pytest.raises(InputError, match="truncated"):
        parse_page(cut, source="cut.html")
    rows_only = text[: text.index('<tr class="CRng1 ENG"><td class="CRc">54<')]
    with pytest.raises(InputError, match="not in the table: broken or truncated"):
        parse_page(rows_only, source="cut.html")


def test_crlf_stray_cr_and_nbsp_survive(realdata: Path) -> None:
    raw = (realdata / CR / "british2026_champ_crosstable.html").read_bytes()
    assert b"\r\n" in raw and raw.count(b"\r") > raw.count(b"\r\n")
    a = parse_page(raw.decode("utf-8"))
    b = parse_page(raw.decode("utf-8").replace("\r\n", "\n").replace("\r", ""))
    assert a.results == b.results and a.players == b.players


def test_sniff(realdata: Path, fixtures_dir: Path) -> None:
    for path in sorted((realdata / CR).glob("*.html")):
        assert looks_like_chess_results(path.read_text(encoding="utf-8")), path.name
    assert not looks_like_chess_results(read(fixtures_dir / CR, "not_chess_results.html"))
    assert not looks_like_chess_results("")


# ------------------------------------------------------------------ fuzzing


@pytest.fixture(scope="module")
def small_crosstable() -> str:
    return (Path(__file__).resolve().parents[2] / "fixtures" / CR /
            "art5_crosstable_small.html").read_text(encoding="utf-8")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_crosstable_only_raises_importer_errors(small_crosstable: str,
                                                        data: st.DataObject) -> None:
    text = small_crosstable
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        pieces = st.sampled_from([*"<>/=\"' &;tdrabcw0123456789½-+*.,\r\n\x00",
                                  "<td>", "</tr>", "<tr>", "</table>", "&nbsp;", "-1", "w+"])
        junk = "".join(data.draw(st.lists(pieces, max_size=8)))
        text = text[:i] + junk + text[j:]
    try:
        page = parse_page(text, source="fuzz.html")
        build_tournament([page])
    except ImporterError:
        return
    assert page.kind in ("crosstable_start", "crosstable_rank", "starting_rank", "no_data",
                         "notpaired", "pairings", "player_card", "crosstable_rr", "ranking")


def test_unknown_language_pairings_read_by_structure(fixtures_dir: Path) -> None:
    text = read(fixtures_dir / CR, "art2_pairings_double_forfeit.html")
    for en, pl in (("Bo.", "Szach."), ("No.", "Nr st."), ("White", "Białe"), ("Rtg", "Ranking"),
                   ("Pts.", "Punkty"), ("Result", "Wynik"), ("Black", "Czarne")):
        text = text.replace(f">{en}<", f">{pl}<")
    p = parse_page(text, source="pl.html")
    assert p.kind == "pairings" and p.round == 2
    assert any(w.message.startswith("unknown language") for w in p.warnings)
    assert [(g.board, g.white_no, g.black_no, g.result) for g in p.games] == [
        (1, 1, 2, GameResult.DOUBLE_FORFEIT), (2, 3, 4, GameResult.PENDING)]


def test_player_card_games_from_one_side(realdata: Path) -> None:
    p = real(realdata, "ru_player_details_art9_2020.html")
    assert [(g.round, g.white_no, g.black_no, g.result, g.board) for g in p.games][:3] == [
        (1, 8, 30, GameResult.WHITE_WIN, 8), (2, 26, 8, GameResult.BLACK_WIN, 6),
        (3, 8, 42, GameResult.WHITE_WIN, 3)]
    assert len(p.games) == 8


def test_team_board_with_an_empty_seat(realdata: Path) -> None:
    text = (realdata / CR / "en_team_boardpairings_art3_rd1_cnyt2026.html").read_bytes().decode()
    start = text.index('<td class="CRc">1.1</td>')
    row = text[start:text.index("</td> </tr>", start) + 5]  # board 1.1: Wang (27) - Xue (13)
    away = row[row.index('<td class="CRc">-</td>'):]
    seat = away[away.index("<table>"):away.index("</table>") + len("</table>")]
    row2 = row.replace(away, away.replace(seat, "")).replace(
        '<td class="CRc"></td>', '<td class="CRc">+ - -</td>')
    page = parse_page(text.replace(row, row2), source="seat.html")
    assert result(page, 27, 1) == RoundResult(start_no=27, round=1, status=Status.FORFEIT_WIN,
                                              points=1.0)
    assert len(page.games) == 15


def test_cut_list_warns(fixtures_dir: Path) -> None:
    text = read(fixtures_dir / CR, "art0_startingrank_small.html").replace(
        "</table>", '</table><p><a class=fett href="tnr999001.aspx?lan=1&amp;art=0&amp;'
        'zeilen=99999">Show complete list</a></p>')
    p = parse_page(text)
    assert p.kind == "starting_rank" and p.cut and p.shows_ratings
    assert [w.message for w in p.warnings if "cut" in w.message] == [
        "the list on this page is cut ('Show complete list'): players beyond it are missing"]


def test_minimal_crosstable_is_not_a_not_paired_grid(fixtures_dir: Path) -> None:
    text = read(fixtures_dir / CR, "art5_crosstable_small.html")
    text = text.replace('<th class="CRc">Pts.</th>', "").replace("art=5", "art=99")
    for pts in ("1", "1,5", "2,5"):
        text = text.replace(f'<td class="CRc">{pts}</td></tr>', "</tr>")
    p = parse_page(text)
    assert p.kind == "crosstable_start" and len(p.results) == 12
