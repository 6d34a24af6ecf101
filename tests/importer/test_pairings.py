"""importer.parsing.pairings: the one place per-player round results become games."""

from __future__ import annotations

from importer.model import Colour, GameResult, RoundResult, SourceWarning, Status
from importer.parsing.pairings import games_from_results

W, B, N = Colour.WHITE, Colour.BLACK, Colour.NONE


def rr(no, rd, opp, colour, status, points):
    return RoundResult(start_no=no, round=rd, opponent_no=opp, colour=colour, status=status,
                       points=points)


def test_two_sides_make_one_game_with_white_from_the_colours():
    res = [rr(5, 1, 2, B, Status.PLAYED, 1.0), rr(2, 1, 5, W, Status.PLAYED, 0.0)]
    (g,) = games_from_results(res)
    assert (g.white_no, g.black_no, g.result) == (2, 5, GameResult.BLACK_WIN)


def test_forfeits_double_forfeits_and_unplayed_games():
    res = [rr(1, 1, 2, N, Status.FORFEIT_WIN, 1.0), rr(2, 1, 1, N, Status.FORFEIT_LOSS, 0.0),
           rr(3, 1, 4, W, Status.FORFEIT_LOSS, 0.0), rr(4, 1, 3, B, Status.FORFEIT_LOSS, 0.0),
           rr(5, 1, 6, B, Status.UNPLAYED, 1.0), rr(6, 1, 5, W, Status.UNPLAYED, 0.0),
           rr(7, 1, 8, W, Status.PENDING, None), rr(8, 1, 7, B, Status.PENDING, None)]
    games = {(g.white_no, g.black_no): g.result for g in games_from_results(res)}
    assert games == {(1, 2): GameResult.WHITE_FORFEIT_WIN, (3, 4): GameResult.DOUBLE_FORFEIT,
                     (6, 5): GameResult.BLACK_WIN, (7, 8): GameResult.PENDING}


def test_one_sided_page_makes_the_game_from_the_side_it_has():
    (g,) = games_from_results([rr(9, 3, 4, B, Status.PLAYED, 0.5)])
    assert (g.white_no, g.black_no, g.result) == (4, 9, GameResult.DRAW)
    (g,) = games_from_results([rr(9, 3, 4, B, Status.FORFEIT_WIN, 1.0)])
    assert g.result is GameResult.BLACK_FORFEIT_WIN


def test_disagreements_are_warned_and_crossed_opponents_make_no_game():
    said: list[SourceWarning] = []
    res = [rr(1, 1, 2, W, Status.PLAYED, 1.0), rr(2, 1, 3, B, Status.PLAYED, 0.0),
           rr(3, 1, 2, W, Status.PLAYED, 1.0),
           rr(3, 2, 4, W, Status.PLAYED, 1.0), rr(4, 2, 3, W, Status.PLAYED, 1.0)]
    games = games_from_results(res, warn=said.append)
    assert [(g.round, g.white_no, g.black_no) for g in games] == [(1, 3, 2), (2, 3, 4)]
    assert len(said) == 2
    assert all("asymmetric pairing" in s.message and s.code == "asymmetric-pairing" for s in said)
    assert sorted((s.round, s.players) for s in said) == [(1, (1, 2)), (2, (3, 4))]


def test_order_is_round_board_then_number():
    res = [rr(1, 1, 2, W, Status.PLAYED, 1.0), rr(2, 1, 1, B, Status.PLAYED, 0.0),
           rr(3, 1, 4, W, Status.PLAYED, 0.5), rr(4, 1, 3, B, Status.PLAYED, 0.5)]
    games = games_from_results(res, boards={(1, 1, 2): 2, (1, 3, 4): 1})
    assert [(g.board, g.white_no) for g in games] == [(1, 3), (2, 1)]
