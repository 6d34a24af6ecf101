"""Small record helpers shared by the page parsers and the merge: game results, mirrors, games."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from operator import attrgetter

from importer.chessresults.cells import clean
from importer.errors import InputError
from importer.model import Colour, Game, GameResult, RoundResult, Status

__all__ = ["games_from_results", "mirror", "mirrored_status", "parse_decimal", "parse_game_result",
           "sides"]

_GAME_RESULTS = {
    "1-0": GameResult.WHITE_WIN, "0-1": GameResult.BLACK_WIN, "½-½": GameResult.DRAW,
    "+--": GameResult.WHITE_FORFEIT_WIN, "--+": GameResult.BLACK_FORFEIT_WIN,
    "---": GameResult.DOUBLE_FORFEIT, "": GameResult.PENDING,
}
_SIDES: dict[GameResult, tuple[tuple[Status, float | None], tuple[Status, float | None]]] = {
    GameResult.WHITE_WIN: ((Status.PLAYED, 1.0), (Status.PLAYED, 0.0)),
    GameResult.BLACK_WIN: ((Status.PLAYED, 0.0), (Status.PLAYED, 1.0)),
    GameResult.DRAW: ((Status.PLAYED, 0.5), (Status.PLAYED, 0.5)),
    GameResult.WHITE_FORFEIT_WIN: ((Status.FORFEIT_WIN, 1.0), (Status.FORFEIT_LOSS, 0.0)),
    GameResult.BLACK_FORFEIT_WIN: ((Status.FORFEIT_LOSS, 0.0), (Status.FORFEIT_WIN, 1.0)),
    GameResult.DOUBLE_FORFEIT: ((Status.FORFEIT_LOSS, 0.0), (Status.FORFEIT_LOSS, 0.0)),
    GameResult.PENDING: ((Status.PENDING, None), (Status.PENDING, None)),
}
_MIRROR = {Status.PLAYED: Status.PLAYED, Status.PENDING: Status.PENDING,
           Status.FORFEIT_WIN: Status.FORFEIT_LOSS, Status.FORFEIT_LOSS: Status.FORFEIT_WIN,
           Status.UNPLAYED: Status.UNPLAYED}
_OPPOSITE = {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE, Colour.NONE: Colour.NONE}


def parse_game_result(text: str) -> GameResult:
    """A pairings result cell (spec §10.1): '1 - 0', '½ - ½', '+ - -', '- - +', '- - -', ''."""
    key = "".join(clean(text).replace("&frac12;", "½").replace(":", "-").split())
    key = key.replace("0,5", "½").replace("0.5", "½").replace("1/2", "½")
    try:
        return _GAME_RESULTS[key]
    except KeyError:
        raise InputError(f"unknown result {text!r}: expected '1 - 0', '0 - 1', '½ - ½', "
                         "'+ - -', '- - +', '- - -' or an empty (pending) cell") from None


def sides(result: GameResult) -> tuple[tuple[Status, float | None], tuple[Status, float | None]]:
    """(status, points) of White and of Black for a game result."""
    return _SIDES[result]


def mirror(r: RoundResult) -> RoundResult | None:
    """The opponent's view of a game result (None when there is no opponent)."""
    if r.opponent_no is None or r.status not in _MIRROR:
        return None
    status = _MIRROR[r.status]
    points: float | None
    if r.points is None:
        points = None
    elif r.status is Status.PLAYED:
        points = 1.0 - r.points
    else:
        points = 1.0 if status is Status.FORFEIT_WIN else 0.0
    return RoundResult(start_no=r.opponent_no, round=r.round, status=status,
                       opponent_no=r.start_no, colour=_OPPOSITE[r.colour], points=points)


_PLAYED_RESULT = {1.0: GameResult.WHITE_WIN, 0.0: GameResult.BLACK_WIN, 0.5: GameResult.DRAW}


def _game_result(white: RoundResult, black: RoundResult | None) -> GameResult:
    w = white.status
    if w is Status.PLAYED and white.points in _PLAYED_RESULT:
        return _PLAYED_RESULT[white.points]
    if w is Status.FORFEIT_WIN:
        return GameResult.WHITE_FORFEIT_WIN
    if w is Status.FORFEIT_LOSS:
        double = black is not None and black.status is Status.FORFEIT_LOSS
        return GameResult.DOUBLE_FORFEIT if double else GameResult.BLACK_FORFEIT_WIN
    return GameResult.PENDING


def games_from_results(results: Sequence[RoundResult],
                       boards: dict[tuple[int, int, int], int] | None = None, *,
                       index: dict[tuple[int, int], RoundResult] | None = None) -> list[Game]:
    """One Game per pairing, from the White side's result (the lower number is White when the
    colours are unknown); ``boards`` maps (round, white, black) to a board number; ``index``
    is the results keyed by (player, round) when the caller already has it."""
    by_key = index if index is not None else {(r.start_no, r.round): r for r in results}
    rounds: dict[int, list[Game]] = {}
    for r in results:
        opp = r.opponent_no
        if opp is None or r.status not in _MIRROR:
            continue
        if r.colour is Colour.BLACK or (r.colour is Colour.NONE and r.start_no > opp):
            if (opp, r.round) in by_key:
                continue  # the other side's result makes this game
            mirrored = mirror(r)  # a one-sided page (a player card): this side makes it
            if mirrored is None:
                continue
            r, opp = mirrored, r.start_no
        rd, no = r.round, r.start_no
        board = boards.get((rd, no, opp)) if boards else None
        black = by_key.get((opp, rd)) if r.status is Status.FORFEIT_LOSS else None
        game = Game(round=rd, white_no=no, black_no=opp, result=_game_result(r, black),
                    board=board)
        if rd in rounds:
            rounds[rd].append(game)
        else:
            rounds[rd] = [game]
    games = []
    for rd in sorted(rounds):
        games += sorted(rounds[rd], key=_by_board if boards else _by_white)
    return games


def _by_board(g: Game) -> tuple[int, int]:
    return g.board or 0, g.white_no


_by_white = attrgetter("white_no")


def mirrored_status(status: Status) -> Status | None:
    """The opponent's status for a game status (None when there is no game)."""
    return _MIRROR.get(status)


def parse_decimal(text: str) -> Decimal | None:
    """A published figure with a decimal comma ('1,20', '-3,5') → Decimal; '' → None."""
    t = clean(text).replace(",", ".").replace("−", "-")
    if not t:
        return None
    try:
        value = Decimal(t)
    except InvalidOperation:
        raise InputError(f"bad number {text!r}: expected e.g. '1,20' or '-3,5'") from None
    if not value.is_finite():
        raise InputError(f"bad number {text!r}: expected a finite number")
    return value
