"""From per-player round results to games: the one place every importer builds ``Game`` records.

Each source (chess-results pages, Excel and CSV exports, TRF) records a pairing twice, once
per player.  :func:`games_from_results` makes one :class:`Game` of the two sides, says when
they disagree, and also makes a game of a side whose opponent no page shows (a player card).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from importer.model import Colour, Game, GameResult, RoundResult, Status

__all__ = ["game_result", "games_from_results"]

_PLAYED = {1.0: GameResult.WHITE_WIN, 0.5: GameResult.DRAW, 0.0: GameResult.BLACK_WIN}
_MIRROR = {Status.PLAYED: Status.PLAYED, Status.UNPLAYED: Status.UNPLAYED,
           Status.PENDING: Status.PENDING, Status.FORFEIT_WIN: Status.FORFEIT_LOSS,
           Status.FORFEIT_LOSS: Status.FORFEIT_WIN}


def game_result(white: RoundResult, black: RoundResult | None) -> GameResult:
    """The game's result from White's round result (and Black's, to tell a double forfeit).

    A game of less than one move (``unplayed``) is written with the result it was scored as.
    """
    w = white.status
    if w in (Status.PLAYED, Status.UNPLAYED) and white.points in _PLAYED:
        return _PLAYED[white.points]
    if w is Status.FORFEIT_WIN:
        return GameResult.WHITE_FORFEIT_WIN
    if w is Status.FORFEIT_LOSS:
        double = black is not None and black.status is Status.FORFEIT_LOSS
        return GameResult.DOUBLE_FORFEIT if double else GameResult.BLACK_FORFEIT_WIN
    return GameResult.PENDING


def _agree(r: RoundResult, o: RoundResult) -> bool:
    """Whether two sides of one pairing tell the same game."""
    if _MIRROR.get(r.status) is not o.status and not (
            r.status is o.status is Status.FORFEIT_LOSS):
        return False
    if r.colour is not Colour.NONE and r.colour is o.colour:
        return False
    return (r.status not in (Status.PLAYED, Status.UNPLAYED) or r.points is None
            or o.points is None or r.points + o.points == 1.0)


def _white_first(r: RoundResult, o: RoundResult | None) -> bool:
    """Whether *r* is White: its colour, else the other side's, else the lower number."""
    if r.colour is not Colour.NONE:
        return r.colour is Colour.WHITE
    if o is not None and o.colour is not Colour.NONE:
        return o.colour is Colour.BLACK
    return r.opponent_no is None or r.start_no < r.opponent_no


def games_from_results(results: Iterable[RoundResult], *,
                       boards: Mapping[tuple[int, int, int], int] | None = None,
                       warn: Callable[[str], None] | None = None) -> list[Game]:
    """One Game per pairing, in round, board and number order.

    *boards* maps (round, white, black) to a board number.  With *warn*, each pairing whose
    two sides disagree is reported (the game is kept as White's side tells it, unless the
    sides name different opponents: then there is no game).
    """
    by_key = {(r.start_no, r.round): r for r in results}
    games: dict[tuple[int, int, int], Game] = {}
    for r in by_key.values():
        opp = r.opponent_no
        if opp is None or r.status not in _MIRROR:
            continue
        key = (r.round, min(r.start_no, opp), max(r.start_no, opp))
        if key in games:
            continue
        o = by_key.get((opp, r.round))
        if o is not None and o.opponent_no != r.start_no:
            if warn is not None:
                warn(f"round {r.round}: asymmetric pairing: player {r.start_no} has opponent "
                     f"{opp}, whose opponent is {o.opponent_no or 'nobody'} (no game recorded)")
            continue
        if o is not None and warn is not None and not _agree(r, o):
            warn(f"round {r.round}: asymmetric pairing: player {r.start_no} "
                 f"({r.status.value} {r.colour.value} {r.points}) vs {opp} "
                 f"({o.status.value} {o.colour.value} {o.points})")
        w_side: RoundResult | None
        b_side: RoundResult | None
        if _white_first(r, o):
            white, black, w_side, b_side = r.start_no, opp, r, o
        else:
            white, black, w_side, b_side = opp, r.start_no, o, r
        result = (game_result(w_side, b_side) if w_side is not None
                  else _black_view(b_side))
        games[key] = Game(round=r.round, white_no=white, black_no=black, result=result,
                          board=boards.get((r.round, white, black)) if boards else None)
    return sorted(games.values(), key=lambda g: (g.round, g.board or 0,
                                                 min(g.white_no, g.black_no)))


def _black_view(black: RoundResult | None) -> GameResult:
    """The result when only Black's side is known (a one-sided page)."""
    if black is None:
        return GameResult.PENDING
    if black.status is Status.FORFEIT_WIN:
        return GameResult.BLACK_FORFEIT_WIN
    if black.status is Status.FORFEIT_LOSS:
        return GameResult.WHITE_FORFEIT_WIN
    if black.status in (Status.PLAYED, Status.UNPLAYED) and black.points in _PLAYED:
        return _PLAYED[1.0 - black.points]
    return GameResult.PENDING
