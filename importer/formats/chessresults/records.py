"""Small record helpers shared by the page parsers and the merge: game results, mirrors, games."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from importer.errors import InputError
from importer.formats.chessresults.cells import clean
from importer.model import FULL_POINT as _ONE
from importer.model import HALF_POINT as _HALF
from importer.model import NO_POINT as _ZERO
from importer.model import Colour, GameResult, RoundResult, Status

__all__ = ["mirror", "mirrored_status", "parse_decimal", "parse_game_result",
           "sides"]

_GAME_RESULTS = {
    "1-0": GameResult.WHITE_WIN, "0-1": GameResult.BLACK_WIN, "½-½": GameResult.DRAW,
    "+--": GameResult.WHITE_FORFEIT_WIN, "--+": GameResult.BLACK_FORFEIT_WIN,
    "---": GameResult.DOUBLE_FORFEIT, "": GameResult.PENDING,
}
_SIDES: dict[GameResult, tuple[tuple[Status, Decimal | None], tuple[Status, Decimal | None]]] = {
    GameResult.WHITE_WIN: ((Status.PLAYED, _ONE), (Status.PLAYED, _ZERO)),
    GameResult.BLACK_WIN: ((Status.PLAYED, _ZERO), (Status.PLAYED, _ONE)),
    GameResult.DRAW: ((Status.PLAYED, _HALF), (Status.PLAYED, _HALF)),
    GameResult.WHITE_FORFEIT_WIN: ((Status.FORFEIT_WIN, _ONE), (Status.FORFEIT_LOSS, _ZERO)),
    GameResult.BLACK_FORFEIT_WIN: ((Status.FORFEIT_LOSS, _ZERO), (Status.FORFEIT_WIN, _ONE)),
    GameResult.DOUBLE_FORFEIT: ((Status.FORFEIT_LOSS, _ZERO), (Status.FORFEIT_LOSS, _ZERO)),
    GameResult.PENDING: ((Status.PENDING, None), (Status.PENDING, None)),
}
_MIRROR = {Status.PLAYED: Status.PLAYED, Status.PENDING: Status.PENDING,
           Status.FORFEIT_WIN: Status.FORFEIT_LOSS, Status.FORFEIT_LOSS: Status.FORFEIT_WIN,
           Status.UNPLAYED: Status.UNPLAYED}
_OPPOSITE = {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE, Colour.NONE: Colour.NONE}


def parse_game_result(text: str) -> GameResult:
    """A pairings result cell (art=2): '1 - 0', '½ - ½', '+ - -', '- - +', '- - -', ''."""
    key = "".join(clean(text).replace("&frac12;", "½").replace(":", "-").split())
    key = key.replace("0,5", "½").replace("0.5", "½").replace("1/2", "½")
    try:
        return _GAME_RESULTS[key]
    except KeyError:
        raise InputError(f"unknown result {text!r}: expected '1 - 0', '0 - 1', '½ - ½', "
                         "'+ - -', '- - +', '- - -' or an empty (pending) cell") from None


def sides(result: GameResult) -> tuple[tuple[Status, Decimal | None], tuple[Status, Decimal | None]]:
    """(status, points) of White and of Black for a game result."""
    return _SIDES[result]


def mirror(r: RoundResult) -> RoundResult | None:
    """The opponent's view of a game result (None when there is no opponent)."""
    if r.opponent_no is None or r.status not in _MIRROR:
        return None
    status = _MIRROR[r.status]
    points: Decimal | None
    if r.points is None:
        points = None
    elif r.status is Status.PLAYED:
        points = 1 - r.points
    else:
        points = Decimal(1 if status is Status.FORFEIT_WIN else 0)
    return RoundResult(start_no=r.opponent_no, round=r.round, status=status,
                       opponent_no=r.start_no, colour=_OPPOSITE[r.colour], points=points)


def mirrored_status(status: Status) -> Status | None:
    """The opponent's status for a game status (None when there is no game)."""
    return _MIRROR.get(status)


def parse_decimal(text: str) -> Decimal | None:
    """A published figure with a decimal comma ('1,20', '-3,5') → Decimal; '' → None.

    A half written ``½`` is read too ('6½' → 6.5, '½' → 0.5), for score columns.
    """
    t = clean(text).replace(",", ".").replace("−", "-")
    if not t:
        return None
    if t.endswith("½"):
        t = t[:-1].strip()
        t = f"{t}.5" if t.lstrip("-").isdigit() else ("0.5" if t == "" else "-0.5" if t == "-"
                                                      else "½")
    try:
        value = Decimal(t)
    except InvalidOperation:
        raise InputError(f"bad number {text!r}: expected e.g. '1,20' or '-3,5'") from None
    if not value.is_finite():
        raise InputError(f"bad number {text!r}: expected a finite number")
    return value
