"""Pairings pages (``art=2``): one round of a Swiss event (``rd=N``), or every round of a
round robin, each after its caption row ('Round 3 on 2026/08/03').

A row is White, the result, Black; a 'bye' or 'not paired' word on the black side is a
pairing-allocated bye or an absence.  The Pts. printed beside each player are the points before
the round: a player's points are those plus the round's result where it is shown (the points
before the round while the game is being played).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_points
from importer.formats.chessresults.lang import BYE_WORDS, NOT_PAIRED_WORDS, norm
from importer.formats.chessresults.records import parse_game_result, sides
from importer.formats.chessresults.table import (
    FED,
    FIRST_INT,
    Ctx,
    El,
    Table,
    cell_at,
    cell_text,
    check_round,
    find_column,
    link_snr,
    player_name,
    read_int,
    read_rating,
)
from importer.model import FULL_POINT, HALF_POINT, NO_POINT, Colour, Player, RoundResult, Status
from importer.parsing.numbers import whole_number

__all__ = ["read_pairings"]

@dataclass
class _Side:
    no: int | None
    name: str
    title: str
    rating: int | None
    fed: str
    word: str
    points: Decimal | None
    """The points printed beside the player: before the round."""


def _pairing_side(ctx: Ctx, keys: list[str], cells: list[El],
                  lo: int, hi: int, row: int) -> _Side:
    name_i = next((i for i in range(lo, min(hi, len(keys)))
                   if keys[i] in ("white", "black", "name")), None)
    if name_i is None or name_i >= len(cells):
        raise ctx.error(f"pairings row {row}: no player cell")
    text = cell_text(cells[name_i])
    word = norm(text)
    no = link_snr(cells[name_i])
    if no is None:
        no_text = cell_at(cells, find_column(keys, "no", lo, hi))
        no = None if no_text in ("", "-1", "-2", "-") else read_int(ctx, no_text, "No.", row)
    fed = (cells[name_i].get("class") or "").strip()
    intl = find_column(keys, "rating_intl", lo, hi)
    name = player_name(text)
    try:
        points = parse_points(cell_at(cells, find_column(keys, "points", lo, hi)))
    except InputError as e:
        raise ctx.error(f"pairings row {row} ({name}): {e}") from None
    return _Side(no=no, name=name, title=cell_at(cells, find_column(keys, "title", lo, hi)),
                 rating=read_rating(ctx, cell_at(cells, intl if intl is not None
                                                 else find_column(keys, "rating", lo, hi)),
                                    f"pairings row {row}", no, name),
                 fed=fed if FED.fullmatch(fed) else "", word=word, points=points)


def _printed_points(players: dict[int, Player], side: _Side, result: Decimal | None) -> None:
    """The side's printed points before the round, plus the round's result when it is shown."""
    if side.no is None or side.points is None:
        return
    points = side.points if result is None else side.points + result
    players[side.no] = replace(players[side.no], points=points)


def read_pairings(ctx: Ctx, t: Table, default_round: int | None,
              ) -> tuple[list[Player], list[RoundResult], list[tuple[int, int, int, int]], int]:
    """Swiss (one round, rd=N) or round-robin (all rounds, caption rows) pairings (art=2)."""
    res_i = find_column(t.keys, "result")
    if res_i is None:
        raise ctx.error("pairings table without a Result column")
    players: dict[int, Player] = {}
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    caption_at = dict(t.captions)
    rd = default_round
    game_rows = 0
    for n, (_tr, cells) in enumerate(t.rows):
        if n in caption_at:
            m = FIRST_INT.search(caption_at[n])
            rd = whole_number(m[0]) if m else rd
        if rd is None:
            raise ctx.error("pairings page without a round number (no 'Round N' caption and "
                            "no rd= in the page's URL): save the whole page, or add its URL "
                            "in a comment, e.g. <!-- https://chess-results.com/"
                            "tnr123456.aspx?lan=1&art=2&rd=7 -->")
        row = n + 1
        check_round(ctx, rd, f"pairings row {row}")
        white = _pairing_side(ctx, t.keys, cells, 0, res_i, row)
        black = _pairing_side(ctx, t.keys, cells, res_i + 1, len(t.keys), row)
        text = cell_at(cells, res_i)
        board = read_int(ctx, cell_at(cells, find_column(t.keys, "board", 0, res_i)), "Bo.", row)
        for s in (white, black):
            if s.no is not None and s.no not in players:
                players[s.no] = Player(start_no=s.no, name=s.name, title=s.title,
                                       rating=s.rating, federation=s.fed)
        if white.no is None:
            raise ctx.error(f"pairings row {row}: no starting number for {white.name!r} "
                            "(no player link and no No. column)")
        if black.no is None and black.word not in BYE_WORDS | NOT_PAIRED_WORDS and black.word:
            raise ctx.error(f"pairings row {row}: no starting number for {black.name!r} "
                            "(no player link and no No. column)")
        if black.no is None:  # a 'bye' or 'not paired' row
            try:
                pts = parse_points(text)
                if pts not in (None, NO_POINT, HALF_POINT, FULL_POINT):  # e.g. a shifted row
                    raise InputError(f"{pts} points for one round")
            except InputError:
                raise ctx.error(f"pairings row {row} ({white.name}): unknown bye result "
                                f"{text!r}; expected 1, ½, 0 or empty") from None
            if black.word in BYE_WORDS:
                status = Status.BYE if pts is None or pts > 0 else Status.ABSENT
            else:
                status = {FULL_POINT: Status.BYE, HALF_POINT: Status.HALF_BYE}.get(
                    pts or NO_POINT, Status.ABSENT)
            results.append(RoundResult(start_no=white.no, round=rd, status=status, points=pts))
            _printed_points(players, white, pts)
            continue
        try:
            gr = parse_game_result(text)
        except InputError as e:
            raise ctx.error(f"pairings row {row} ({white.name} - {black.name}): {e}") from None
        game_rows += 1
        (ws, wp), (bs, bp) = sides(gr)
        results.append(RoundResult(start_no=white.no, round=rd, status=ws, opponent_no=black.no,
                                   colour=Colour.WHITE, points=wp))
        results.append(RoundResult(start_no=black.no, round=rd, status=bs, opponent_no=white.no,
                                   colour=Colour.BLACK, points=bp))
        _printed_points(players, white, wp)
        _printed_points(players, black, bp)
        if board is not None:
            boards.append((rd, white.no, black.no, board))
    return list(players.values()), results, boards, game_rows
