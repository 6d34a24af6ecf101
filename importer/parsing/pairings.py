"""From per-player round results to games: the one place every importer builds ``Game`` records.

Each source (chess-results pages, Excel and CSV exports, TRF) records a pairing twice, once
per player.  :func:`games_from_results` makes one :class:`Game` of the two sides, says when
they disagree, and also makes a game of a side whose opponent no page shows (a player card).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal

from importer.model import Colour, Game, GameResult, RoundResult, SourceWarning, Status

__all__ = ["COLOUR_WORDS", "game_result", "games_from_results", "told"]

_PLAYED: dict[Decimal, GameResult] = {Decimal(1): GameResult.WHITE_WIN, Decimal("0.5"): GameResult.DRAW,
                                     Decimal(0): GameResult.BLACK_WIN}
_MIRROR = {Status.PLAYED: Status.PLAYED, Status.UNPLAYED: Status.UNPLAYED,
           Status.PENDING: Status.PENDING, Status.FORFEIT_WIN: Status.FORFEIT_LOSS,
           Status.FORFEIT_LOSS: Status.FORFEIT_WIN}
_SCORED = frozenset({Status.PLAYED, Status.UNPLAYED})
_NO_COLOUR, _BLACK = Colour.NONE, Colour.BLACK
"""Bound once for the loop over every result: a member looked up on its enum class costs
~70 ns a time (Python 3.11), as much as the rest of a step of the loop."""


def game_result(white: RoundResult, black: RoundResult | None) -> GameResult:
    """The game's result from White's round result (and Black's, to tell a double forfeit).

    A game of less than one move (``unplayed``) is written with the result it was scored as.
    """
    w = white.status
    if w in _SCORED and white.points in _PLAYED:
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


def games_from_results(results: Iterable[RoundResult], *,
                       boards: Mapping[tuple[int, int, int], int] | None = None,
                       warn: Callable[[SourceWarning], None] | None = None) -> list[Game]:
    """One Game per pairing, in round, board and number order.

    White is the side whose colour says so (else the other side's colour, else the lower
    number).  *boards* maps (round, white, black) to a board number.  With *warn*, each
    pairing whose two sides disagree is reported (the game is kept as White's side tells it,
    unless the sides name different opponents: then there is no game).
    """
    by_key = {(r.start_no, r.round): r for r in results}
    games: list[Game] = []
    for (no, rd), r in by_key.items():
        opp = r.opponent_no
        if opp is None or r.status not in _MIRROR:
            continue
        o = by_key.get((opp, rd))
        if o is not None:
            if o.opponent_no != no:
                if warn is not None:
                    warn(SourceWarning(
                        "asymmetric-pairing", f"round {rd}: asymmetric pairing: player {no} has "
                        f"opponent {opp}, whose opponent is {o.opponent_no or 'nobody'} (no game "
                        "recorded)", (no, opp), rd))
                continue
            colour = r.colour
            if colour is _NO_COLOUR:
                colour = _OTHER[o.colour]
            elif colour is o.colour:
                colour = _NO_COLOUR  # both claim one colour: decide by number, as if unknown
            if colour is _BLACK or (colour is _NO_COLOUR and no > opp):
                continue  # the game is made from White's side
            if warn is not None and not _agree(r, o):
                same = (f"; both claim {COLOUR_WORDS[r.colour]}"
                        if r.colour is o.colour is not Colour.NONE else "")
                warn(SourceWarning(
                    "asymmetric-pairing", f"round {rd}: asymmetric pairing: player {no} "
                    f"({told(r)}) vs player {opp} ({told(o)}){same}", (no, opp), rd))
            white, black, result = no, opp, game_result(r, o)
        elif r.colour is _BLACK:  # a one-sided page (a player card) shows Black's side
            white, black, result = opp, no, _black_view(r)
        else:
            white, black, result = no, opp, game_result(r, None)
        games.append(Game(round=rd, white_no=white, black_no=black, result=result,
                          board=boards.get((rd, white, black)) if boards else None))
    games.sort(key=_order)
    return games


_OTHER = {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE, Colour.NONE: Colour.NONE}
COLOUR_WORDS = {Colour.WHITE: "White", Colour.BLACK: "Black", Colour.NONE: "no colour shown"}
_STATUS_WORDS = {Status.FORFEIT_WIN: "won by forfeit", Status.FORFEIT_LOSS: "lost by forfeit",
                 Status.PENDING: "result pending"}


def told(r: RoundResult) -> str:
    """One side of a pairing in words: 'White, scored ½'."""
    if r.points is None or r.status in _STATUS_WORDS:
        what = _STATUS_WORDS.get(r.status, "no result shown")
    else:
        what = "scored " + ("½" if r.points == Decimal("0.5") else str(r.points))
        if r.status is Status.UNPLAYED:
            what += " without playing"
    return f"{COLOUR_WORDS[r.colour]}, {what}"


def _order(g: Game) -> tuple[int, int, int]:
    return g.round, g.board or 0, min(g.white_no, g.black_no)


def _black_view(black: RoundResult) -> GameResult:
    """The result when only Black's side is known (a one-sided page)."""
    if black.status is Status.FORFEIT_WIN:
        return GameResult.BLACK_FORFEIT_WIN
    if black.status is Status.FORFEIT_LOSS:
        return GameResult.WHITE_FORFEIT_WIN
    if black.status in (Status.PLAYED, Status.UNPLAYED) and black.points in _PLAYED:
        return _PLAYED[1 - black.points]
    return GameResult.PENDING
