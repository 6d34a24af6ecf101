"""The player card (``art=9&snr=N``): the player's key/value block and the games table, with
the published K and rtg+/- per game.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_int, parse_points, parse_rating
from importer.formats.chessresults.document import Document
from importer.formats.chessresults.lang import card_key
from importer.formats.chessresults.records import parse_decimal
from importer.formats.chessresults.table import (
    Ctx,
    El,
    Table,
    cell_at,
    cell_text,
    check_round,
    column_index,
    find_column,
    id_or_blank,
    link_snr,
    player_name,
    read_int,
    row_cells,
    row_fed,
    split_table,
    table_rows,
)
from importer.model import FULL_POINT as _ONE
from importer.model import HALF_POINT as _HALF
from importer.model import NO_POINT as _ZERO
from importer.model import Colour, Player, RoundResult, Status
from importer.parsing.numbers import whole_number

__all__ = ["read_player_card"]

_NO_OPPONENT = {_ONE: Status.BYE, _HALF: Status.HALF_BYE}
_CARD_RESULTS: dict[str, tuple[Status, Decimal | None]] = {
    "1": (Status.PLAYED, _ONE), "0": (Status.PLAYED, _ZERO), "½": (Status.PLAYED, _HALF),
    "0,5": (Status.PLAYED, _HALF), "1/2": (Status.PLAYED, _HALF),
    "+": (Status.FORFEIT_WIN, _ONE), "-": (Status.FORFEIT_LOSS, _ZERO),
    "1k": (Status.FORFEIT_WIN, _ONE), "0k": (Status.FORFEIT_LOSS, _ZERO),  # Turkish hükmen (by forfeit)
    "": (Status.PENDING, None),
}


def _card_colour(letter: str, language: str) -> Colour:
    """w/s on player cards in every UI; Turkish b = beyaz = white."""
    if letter == "w" or (letter == "b" and language == "tr"):
        return Colour.WHITE
    if letter == "s" or (letter == "b" and language in ("en", "fi")):
        return Colour.BLACK
    return Colour.NONE


def _card_result(ctx: Ctx, cell: El, row: int) -> tuple[Colour, str]:
    """(colour, result token) from 'w 1' text or a colour square + result."""
    square = next((d.get("class") for d in cell.iter("div")
                   if (d.get("class") or "").startswith("Farbe")), None)
    tokens = cell_text(cell).replace("&frac12;", "½").split()
    if square:
        colour = Colour.WHITE if square == "FarbewT" else Colour.BLACK
        return colour, "".join(tokens)
    if len(tokens) == 2:
        letter, res = tokens[0].casefold(), tokens[1]
        if letter == "-":
            return Colour.NONE, res
        colour = _card_colour(letter, ctx.language)
        if colour is Colour.NONE:
            ctx.warn("colour", f"player card row {row}: colour letter {letter!r} is ambiguous "
                     f"on a page in language {ctx.language or 'unknown'}; colour recorded as "
                     "unknown")
        return colour, res
    return Colour.NONE, "".join(tokens)


def read_player_card(ctx: Ctx, doc: Document, tables: list[El],
                 ) -> tuple[list[Player], list[RoundResult], int, list[tuple[int, int, int, int]]]:
    """art=9: the key/value block and the games table with K and rtg+/-."""
    info: dict[str, str] = {}
    games_table: Table | None = None
    for table in tables:
        t = split_table(table, ctx)
        if "round" in t.keys and "result" in t.keys:
            games_table = t
            continue
        for tr in table_rows(table):
            cells = row_cells(tr)
            if len(cells) == 2:
                key = card_key(cell_text(cells[0]))
                if key and key not in info:
                    info[key] = cell_text(cells[1])
    start_no = info.get("start_no", "")
    snr = whole_number(start_no)
    snr = doc.snr if snr is None else snr
    if snr is None:
        raise ctx.error("player card without a starting number ('Starting rank' row or snr=)")
    try:
        intl, display = parse_rating(info.get("rating_intl", "")), parse_rating(
            info.get("rating", ""))
        national = parse_rating(info.get("rating_nat", ""))
    except InputError as e:
        raise ctx.error(f"player card {snr}: {e}") from None
    # 'Rating' repeats the national rating and not the international one: the card (and its
    # games table's single rating column) shows national ratings, e.g. Нац.рейтинг
    display_national = display is not None and display == national and display != intl
    name = player_name(info.get("name", ""))
    rating = ctx.rating(intl if "rating_intl" in info else display, "player card", snr, name)
    national = ctx.rating(national, "player card", snr, name, national=True)
    try:
        me = Player(
            start_no=snr, name=name, title=info.get("title", ""),
            federation=info.get("federation", ""), fide_id=id_or_blank(info.get("fide_id", "")),
            rating=rating, national_rating=national,
            national_id=id_or_blank(info.get("national_id", "")),
            birth_year=parse_int(info.get("birth_year", "")), club=info.get("club", ""),
            points=parse_points(info.get("points", "")),
            rank=parse_int(info.get("rank", "")),
            rating_change=parse_decimal(info.get("rating_change", "")),
            k=parse_int(info.get("k", "")),
            published_performance=parse_int(info.get("performance", "")) or None,
            published_games=parse_int(info.get("games", "")),
            published_score=parse_decimal(info.get("score", "")),
            published_expected=parse_decimal(info.get("expected", "")),
        )
    except InputError as e:
        raise ctx.error(f"player card {snr}: {e}") from None
    players = [me]
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    if games_table is None:
        return players, results, snr, boards
    t = games_table
    k_i, rc_i = find_column(t.keys, "k"), find_column(t.keys, "rating_change")
    res_i = t.keys.index("result")  # the games table was chosen for its Result column
    for n, (tr, cells) in enumerate(t.rows, start=1):
        rd = read_int(ctx, cell_at(cells, find_column(t.keys, "round")), "round", n)
        if rd is None:
            raise ctx.error(f"player card row {n}: no round number")
        check_round(ctx, rd, f"player card row {n}")
        opp_cell = find_column(t.keys, "name")
        opp = link_snr(cells[opp_cell]) if opp_cell is not None and opp_cell < len(cells) else None
        opp_text = cell_at(cells, find_column(t.keys, "no"))
        if opp is None and opp_text not in ("", "-", "-1", "-2"):
            opp = read_int(ctx, opp_text, "SNo", n)
        colour, token = _card_result(ctx, cells[res_i], n) if res_i < len(cells) else (
            Colour.NONE, "")
        if token.casefold() not in _CARD_RESULTS:
            raise ctx.error(f"player card row {n} (round {rd}): unknown result {token!r}; "
                            "expected 1, 0, ½, +, - (after a colour letter) or empty")
        status, points = _CARD_RESULTS[token.casefold()]
        try:
            k = parse_int(cell_at(cells, k_i))
            change = parse_decimal(cell_at(cells, rc_i))
        except InputError as e:
            raise ctx.error(f"player card row {n} (round {rd}): {e}") from None
        if opp is None:
            status = _NO_OPPONENT.get(points or _ZERO, Status.ABSENT)
            colour = Colour.NONE
            points = _ZERO if points is None else points
        else:
            players.append(_card_opponent(ctx, t, tr, cells, opp, n, display_national))
            board = read_int(ctx, cell_at(cells, find_column(t.keys, "board")), "Bo.", n)
            if board is not None and colour is not Colour.NONE:
                white, black = (snr, opp) if colour is Colour.WHITE else (opp, snr)
                boards.append((rd, white, black, board))
        results.append(RoundResult(start_no=snr, round=rd, status=status, opponent_no=opp,
                                   colour=colour, points=points, k=k, rating_change=change))
    ks = {r.k for r in results if r.k is not None}
    if len(ks) == 1 and me.k is None:  # one published K for every rated game: the player's K
        players[0] = replace(me, k=ks.pop())
    return players, results, snr, boards


def _card_opponent(ctx: Ctx, t: Table, tr: El, cells: list[El], opp: int, row: int,
                   display_national: bool) -> Player:
    """An opponent row of a player card: name, ratings, and the opponent's own points as
    printed (Pts.), not the one game against the card's player.

    RtgI (else Rtg) is the rating as before and RtgN the national one; when the card shows
    national ratings (its 'Rating' is its national rating), the single Rtg column is the
    national rating too.
    """
    idx = column_index(t.keys)

    def get(key: str) -> str:
        return cell_at(cells, idx.get(key))

    try:
        points = parse_points(get("points"))
        rating = parse_rating(get("rating_intl") or get("rating"))
        national = parse_rating(get("rating_nat"))
        if national is None and display_national and "rating_intl" not in idx:
            national = parse_rating(get("rating"))
    except InputError as e:
        raise ctx.error(f"player card row {row} (opponent {opp}): {e}") from None
    name, where = player_name(get("name")), f"player card row {row}"
    return Player(start_no=opp, name=name, title=get("title"),
                  rating=ctx.rating(rating, where, opp, name),
                  national_rating=ctx.rating(national, where, opp, name, national=True),
                  points=points, federation=get("fed") or row_fed(tr), club=get("club"))
