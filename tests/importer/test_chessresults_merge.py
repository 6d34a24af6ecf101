"""build_tournament: several chess-results pages of one tournament → one Tournament."""

from __future__ import annotations

import dataclasses
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.errors import ImporterError, InputError
from importer.formats.chessresults import Page, build_tournament, parse_page
from importer.model import Colour, GameResult, RoundResult, Status, System, Tournament

CR = "chess-results"
BRITISH_ROUNDS = ["british2026_champ_r1.html", "british2026_champ_r2.html",
                  "british2026_champ_r3.html", "british2026_champ_r4.html",
                  "british2026_champ_r5.html", "british2026_champ_r6_finished.html",
                  "british2026_champ_r7_finished.html",
                  "en_swiss_pairings_art2_rd8_forfeit_british2026.html",
                  "british2026_champ_r9.html"]


def real(realdata: Path, *names: str) -> list[Page]:
    return [parse_page((realdata / CR / n).read_bytes().decode("utf-8"), source=n)
            for n in names]


def own(fixtures_dir: Path, *names: str) -> list[Page]:
    return [parse_page((fixtures_dir / CR / n).read_text(encoding="utf-8"), source=n)
            for n in names]


def res(t: Tournament, no: int, rd: int) -> RoundResult:
    return next(r for r in t.results if r.start_no == no and r.round == rd)


def assert_complete_and_symmetric(t: Tournament) -> None:
    """One RoundResult per player per round, and both sides of every pairing agree."""
    rounds = t.rounds_seen
    assert Counter((r.start_no, r.round) for r in t.results) == {
        (p.start_no, rd): 1 for p in t.players for rd in range(1, rounds + 1)}
    by = {(r.start_no, r.round): r for r in t.results}
    for r in t.results:
        if r.opponent_no is not None:
            o = by[(r.opponent_no, r.round)]
            assert o.opponent_no == r.start_no
            assert {r.colour, o.colour} in ({Colour.WHITE, Colour.BLACK}, {Colour.NONE})
    for g in t.games:
        assert by[(g.white_no, g.round)].opponent_no == g.black_no


def test_single_final_crosstable(realdata: Path) -> None:
    t = build_tournament(real(realdata, "en_swiss_crosstable_art5_final_british2026.html"))
    assert (len(t.players), t.rounds_seen, t.info.rounds) == (108, 9, 9)
    assert len(t.games) == 468 and t.warnings == ()
    assert sum(g.result is GameResult.PENDING for g in t.games) == 47
    assert_complete_and_symmetric(t)


def test_british_crosstable_starting_rank_and_all_rounds(realdata: Path) -> None:
    pages = real(realdata, "british2026_champ_crosstable.html",
                 "en_swiss_startingrank_art0_british2026.html", *BRITISH_ROUNDS)
    t = build_tournament(pages, source="british")
    assert t.info.source == "british" and t.info.id == "1452107"
    assert (len(t.players), t.rounds_seen) == (108, 9)
    assert len(t.results) == 108 * 9
    assert t.warnings == ()  # every page agrees; the printed TB1 covers rounds 1-7 only
    p1 = t.player(1)
    assert p1 is not None
    assert (p1.name, p1.fide_id, p1.national_id, p1.points, p1.rank) == (
        "Mcshane, Luke J", "404853", "136665", 5.0, 7)
    # rounds 8 and 9 come from the pairings pages, with boards
    assert res(t, 62, 8).status is Status.FORFEIT_LOSS
    g8 = next(g for g in t.games if g.round == 8 and g.white_no == 62)
    assert (g8.black_no, g8.result, g8.board) == (100, GameResult.BLACK_FORFEIT_WIN, 45)
    g9 = next(g for g in t.games if g.round == 9 and g.white_no == 104)
    assert (g9.black_no, g9.result, g9.board) == (62, GameResult.WHITE_FORFEIT_WIN, 48)
    assert sum(g.result is GameResult.PENDING for g in t.games) == 47
    assert all(g.board is not None for g in t.games)
    assert res(t, 107, 5).status is Status.BYE and res(t, 107, 5).points == 1.0
    assert_complete_and_symmetric(t)


def test_final_crosstable_with_live_pairings_and_not_paired(realdata: Path) -> None:
    pages = real(realdata, "en_swiss_crosstable_art5_final_british2026.html",
                 "british2026_champ_r7_midround.html", "british2026_champ_r9.html",
                 "en_swiss_notpaired_art40_british2026.html")
    t = build_tournament(pages)
    # round 7 is finished in the crosstable: the older, live pairings page does not win
    assert res(t, 1, 7).points == 0.0 and res(t, 1, 7).status is Status.PLAYED
    assert res(t, 105, 7).status is Status.BYE and res(t, 105, 7).points == 1.0
    # art=40 (captured later) shows player 54 lost round 9 by forfeit: the opponent gets it
    assert (res(t, 54, 9).status, res(t, 54, 9).opponent_no) == (Status.FORFEIT_LOSS, 86)
    assert (res(t, 86, 9).status, res(t, 86, 9).points) == (Status.FORFEIT_WIN, 1.0)
    # the crosstable printed 86's 4 points while his round-9 game was still open: the newer
    # forfeit win is no contradiction (no "printed points 4, the rounds sum to 5" note)
    assert not [w for w in t.warnings if w.code == "points-differ"]
    p86 = t.player(86)
    assert p86 is not None and p86.points == 4
    assert sum(r.points or 0 for r in t.results_of(86)) == 5
    assert_complete_and_symmetric(t)


def test_round_robin_matrix_pairings_and_starting_rank(realdata: Path) -> None:
    pages = real(realdata, "en_roundrobin_crosstable_art5_ussa2026.html",
                 "en_roundrobin_pairings_art2_allrounds_ussa2026.html",
                 "ussa2026_roundrobin_startingrank.html")
    t = build_tournament(pages)
    assert t.info.system is System.ROUND_ROBIN and t.rounds_seen == 9
    assert len(t.games) == 36 and all(g.board for g in t.games)
    assert not [w.message for w in t.warnings if "matrix" in w.message]  # matrix agrees with the pairings
    forfeit = next(g for g in t.games if g.result is GameResult.BLACK_FORFEIT_WIN)
    assert (forfeit.round, forfeit.white_no, forfeit.black_no) == (9, 8, 2)
    brander = t.player(1)
    assert brander is not None and (brander.points, brander.national_rating) == (6.5, 1955)
    assert res(t, 1, 1).status is Status.ABSENT
    assert_complete_and_symmetric(t)


def test_round_robin_matrix_disagreeing_with_pairings_warns(realdata: Path) -> None:
    matrix, pairings = real(realdata, "en_roundrobin_crosstable_art5_ussa2026.html",
                            "en_roundrobin_pairings_art2_allrounds_ussa2026.html")
    bent = [(a, b, c) for a, b, c in matrix.rr_scores if (a, b) != (2, 8)]
    matrix = dataclasses.replace(matrix, rr_scores=(*bent, (2, 8, matrix.rr_scores[0][2])))
    t = build_tournament([matrix, pairings])
    assert any(w.message.startswith("round-robin matrix: 2 vs 8") for w in t.warnings)


def test_frome_gated_pages(realdata: Path) -> None:
    t = build_tournament(real(realdata,
                              "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html",
                              "frome2026_open_r1.html", "frome2026_open_notpaired.html"))
    assert (len(t.players), t.rounds_seen) == (38, 5)
    assert res(t, 1, 1).status is Status.HALF_BYE
    assert next(g for g in t.games if g.round == 1 and g.white_no == 19).board == 1
    assert [w.message for w in t.warnings if "disagree" in w.message] == []
    s = build_tournament(real(realdata, "frome2026_standard_crosstable.html",
                              "frome2026_standard_r1.html"))
    assert len(s.players) == 31 and s.warnings == ()
    assert_complete_and_symmetric(t)
    assert_complete_and_symmetric(s)


def test_player_card_sets_focus_and_published_figures(fixtures_dir: Path) -> None:
    t = build_tournament(own(fixtures_dir, "art9_player_card_en_k.html"))
    assert t.focus == 5
    me = t.player(5)
    assert me is not None and me.rating_change == Decimal("7.6")
    r1 = res(t, 5, 1)
    assert (r1.k, r1.rating_change) == (20, Decimal("8.80"))
    assert res(t, 12, 1).status is Status.PLAYED and res(t, 12, 1).points == 0.0
    # the opponents' other rounds are on no page: unknown, not absent
    assert res(t, 12, 2).status is Status.UNKNOWN and res(t, 12, 2).points is None
    assert not any(r.status is Status.ABSENT and r.start_no != 5 for r in t.results)
    assert sum("not shown on these pages" in w.message for w in t.warnings) == 1
    assert not any("sum to" in w.message for w in t.warnings)
    assert build_tournament(own(fixtures_dir, "art9_player_card_en_k.html"), focus=9).focus == 9


def test_player_card_with_starting_rank(realdata: Path) -> None:
    card = real(realdata, "ru_player_details_art9_2020.html")[0]
    t = build_tournament([card])
    assert t.focus == 8 and t.rounds_seen == 8
    p8 = t.player(8)
    assert p8 is not None and p8.points == 7.5
    assert res(t, 30, 1).colour is Colour.BLACK and res(t, 30, 1).points == 0.0


def test_ranking_crosstable_gated_needs_the_starting_list(fixtures_dir: Path) -> None:
    gated, start = own(fixtures_dir, "art4_ranking_crosstable_gated.html",
                       "art0_startingrank_small.html")
    with pytest.raises(InputError, match="starting rank"):
        build_tournament([gated])
    t = build_tournament([gated, start])
    links = build_tournament(own(fixtures_dir, "art4_ranking_crosstable_links.html"))
    small = build_tournament(own(fixtures_dir, "art5_crosstable_small.html"))
    key = [(r.start_no, r.round, r.opponent_no, r.colour, r.points) for r in small.results]
    for other in (t, links):
        assert [(r.start_no, r.round, r.opponent_no, r.colour, r.points)
                for r in other.results] == key
    assert {p.start_no: p.rank for p in t.players} == {1: 3, 2: 4, 3: 2, 4: 1}
    assert t.player(1) is not None and t.player(1).fide_id == "1001"  # type: ignore[union-attr]


def test_team_events(realdata: Path) -> None:
    t = build_tournament(real(realdata, "en_team_boardpairings_art3_rd1_cnyt2026.html",
                              "cnyt2026_g14_playerrank.html",
                              "en_team_pairings_art2_rd1_cnyt2026.html"))
    assert t.info.system is System.TEAM and len(t.players) == 32 and len(t.games) == 16
    xue = t.player(13)
    assert xue is not None and (xue.fide_id, xue.team) == ("8626480", "Shanghai Chess Academy")
    assert_complete_and_symmetric(t)
    d = build_tournament(real(realdata, "de_team_roundrobin_all_details_art20_tmm2026.html"))
    assert d.info.system is System.TEAM and d.info.rounds == 5 and len(d.games) == 12
    assert d.warnings == ()
    assert_complete_and_symmetric(d)


def test_different_tournaments_are_refused(realdata: Path) -> None:
    with pytest.raises(InputError, match="different tournaments"):
        build_tournament(real(realdata, "british2026_champ_r1.html", "frome2026_open_r1.html"))
    with pytest.raises(InputError, match="no chess-results pages"):
        build_tournament([])


def test_disagreeing_pages_warn(fixtures_dir: Path) -> None:
    t = build_tournament(own(fixtures_dir, "art5_crosstable_small.html",
                             "art2_pairings_double_forfeit.html"))
    assert [(w.code, w.players, w.round) for w in t.warnings
            if "player 1, round 2: pages disagree" in w.message] == [("pages-disagree", (1,), 2)]
    assert res(t, 1, 2).status is Status.PLAYED  # the crosstable is the base for results


def test_one_sided_pairing_and_points_mismatch_warn(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art5_crosstable_small.html")
    bent = [dataclasses.replace(r, colour=Colour.WHITE) if (r.start_no, r.round) == (3, 1)
            else r for r in page.results]
    bent = [dataclasses.replace(r, points=0.5) if (r.start_no, r.round) == (4, 3) else r
            for r in bent]
    t = build_tournament([dataclasses.replace(page, results=tuple(bent))])
    about = {w.code: (w.players, w.round) for w in t.warnings}
    assert any("both have White" in w.message for w in t.warnings)
    assert not any("None" in w.message for w in t.warnings)
    assert any("disagree on the result" in w.message for w in t.warnings)
    assert any("player 4" in w.message and "printed points 2.5" in w.message for w in t.warnings)
    assert about["points-differ"] == ((4,), None)
    assert about["same-colour"][1] == 1 and 3 in about["same-colour"][0]  # bent: 3 in round 1
    assert about["results-differ"][1] == 3 and 4 in about["results-differ"][0]  # 4 in round 3
    assert len(about["same-colour"][0]) == len(about["results-differ"][0]) == 2


def test_opponent_outside_the_tournament_is_an_error(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art5_crosstable_small.html")
    bent = tuple(dataclasses.replace(r, opponent_no=77) if (r.start_no, r.round) == (1, 1)
                 else r for r in page.results)
    with pytest.raises(InputError, match="opponent 77 is not in the tournament"):
        build_tournament([dataclasses.replace(page, results=bent)])


@given(st.lists(st.sampled_from([
    "art5_crosstable_small.html", "art2_pairings_double_forfeit.html",
    "art4_ranking_crosstable_links.html", "art4_ranking_crosstable_gated.html",
    "art0_startingrank_small.html", "art9_player_card_en_k.html"]), min_size=1, max_size=4))
def test_any_page_mix_builds_or_raises_importer_error(names: list[str]) -> None:
    folder = Path(__file__).resolve().parents[2] / "fixtures" / CR
    pages = [parse_page((folder / n).read_text(encoding="utf-8"), source=n) for n in names]
    try:
        t = build_tournament(pages)
    except ImporterError:
        return
    assert_complete_and_symmetric(t)


def test_every_british_page_together(realdata: Path) -> None:
    names = ["en_swiss_crosstable_art5_final_british2026.html", "british2026_champ_crosstable.html",
             "en_swiss_startingrank_art0_british2026.html", *BRITISH_ROUNDS,
             "en_swiss_pairings_art2_rd6_midround_byes_british2026.html",
             "british2026_champ_r7_midround.html", "british2026_champ_r8_unpaired_only.html",
             "en_swiss_notpaired_art40_british2026.html"]
    t = build_tournament(real(realdata, *names))
    assert (len(t.players), t.rounds_seen, len(t.results)) == (108, 9, 972)
    # the later, live-round crosstable prints the points; finished rounds win over live pages
    p3 = t.player(3)
    assert p3 is not None and (p3.points, p3.rank, p3.fide_id) == (6.5, 1, "448869")
    assert Counter(r.status.value for r in t.results) == {
        "played": 838, "pending": 92, "absent": 32, "forfeit_loss": 3, "forfeit_win": 3,
        "bye": 4}  # art=40 turns the pending 54-86 into a forfeit; r9's draws were already in
    assert sum(g.result is GameResult.PENDING for g in t.games) == 46
    assert not [w.message for w in t.warnings if "disagree" in w.message or "whose opponent" in w.message]
    assert_complete_and_symmetric(t)


def test_player_card_with_the_starting_rank(fixtures_dir: Path) -> None:
    (card,) = own(fixtures_dir, "art9_player_card_en_k.html")
    text = (fixtures_dir / CR / "art0_startingrank_small.html").read_text(encoding="utf-8")
    start = parse_page(text.replace("999001", "999003"), source="start.html")
    t = build_tournament([card, start])
    assert t.focus == 5 and len(t.players) == 8
    cedar = t.player(3)
    assert cedar is not None and (cedar.name, cedar.fide_id, cedar.rating) == (
        "Cedar, Cy", "1003", 2200)  # the starting rank wins over the card's opponent row
    assert (res(t, 5, 6).k, res(t, 5, 6).rating_change) == (20, Decimal("-1.20"))
    assert (res(t, 3, 6).opponent_no, res(t, 3, 6).colour) == (5, Colour.WHITE)


def test_not_started_round_robin(realdata: Path) -> None:
    t = build_tournament(real(realdata, "warsaw2026_notstarted_startingrank.html",
                              "warsaw2026_notstarted_r1.html"))
    assert (len(t.players), t.results, t.games) == (6, (), ())
    assert t.info.system is System.ROUND_ROBIN and t.info.id == "1449763"
    assert all(p.points is None for p in t.players)  # unknown: the source prints none


def test_pages_without_players_say_so(realdata) -> None:
    from importer.formats.chessresults import build_tournament, parse_page

    path = realdata / "chess-results" / "en_team_pairings_art2_rd1_cnyt2026.html"
    t = build_tournament([parse_page(path.read_text(encoding="utf-8"), source=path.name)])
    assert t.players == ()
    assert any("no players on these pages" in w.message for w in t.warnings)
