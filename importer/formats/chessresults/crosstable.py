"""Crosstables: the Swiss starting-rank (``art=5``) and ranking (``art=4``) crosstables, and
the round-robin matrix.

A Swiss crosstable row is a player with one cell per round (`` 54b1``: opponent, colour,
result; see :func:`importer.formats.chessresults.cells.parse_round_cell`); on ``art=4`` the rows are in
ranking order and the cells number the opponents by rank.  A round-robin crosstable is a
matrix of results by opponent: the rounds and colours are assumed from the FIDE Berger tables.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from importer.errors import InputError
from importer.formats.chessresults.cells import Cell, clean, parse_round_cell
from importer.formats.chessresults.document import Document
from importer.formats.chessresults.table import (
    Ctx,
    Table,
    cell_text,
    column_index,
    content,
    link_snr,
    player_from_row,
    player_index,
    tied_ranks,
)
from importer.model import Colour, Player, RoundResult, Status

__all__ = ["read_crosstable", "read_crosstable_rr"]

def read_crosstable(ctx: Ctx, doc: Document, t: Table, *, by_rank_cells: bool,
                ) -> tuple[list[Player], list[RoundResult], bool]:
    """A Swiss crosstable (art=5, or art=4 when ``by_rank_cells``) → players, results."""
    round_cols = [(int(k[3:]), i) for i, k in enumerate(t.keys) if k.startswith("rd:")]
    tb1 = column_index(t.keys).get("tb:1")
    idx = player_index(t.keys)
    use_tb1 = "points" not in idx and tb1 is not None and doc.tb1_is_points
    if use_tb1 and tb1 is not None:
        idx["points"] = tb1
    elif "points" not in idx:
        ctx.warn("points-unchecked", "no Pts. column and no 'Tie Break1: points' legend: "
                 "points computed from the round cells")
    first = t.rows[0][1] if t.rows else []
    name_i = idx.get("name", 0)
    by_rank = by_rank_cells and "no" not in idx and (
        name_i >= len(first) or link_snr(first[name_i]) is None)
    if by_rank:  # gated art=4: no links, the ranks stand in for starting numbers
        idx = player_index([("no" if k == "rank" else k) for k in t.keys])
        if use_tb1 and tb1 is not None:
            idx["points"] = tb1
    players: list[Player] = []
    results: list[RoundResult] = []
    rank_to_no: dict[int, int] = {}
    width = len(t.header)
    for n, (tr, cells) in enumerate(t.rows, start=1):
        if len(cells) < width:
            raise ctx.error(f"crosstable row {n} has {len(cells)} cells, the header "
                            f"{width}: broken or truncated page")
        p = player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        no = p.start_no
        rank_to_no[p.rank if p.rank is not None and not by_rank else n] = no
        for rd, i in round_cols:
            cell = cells[i]
            text = content(cell) if len(cell) else cell.text
            if not text:
                continue
            try:  # the hot path: parse_round_cell is cached on the raw text
                c = parse_round_cell(text)
            except InputError:
                if not clean(text):
                    continue
                raise ctx.error(f"crosstable row {n} (player {no} {p.name}), round {rd}: "
                                f"unknown round cell {clean(text)!r}; expected e.g. ' 54b1', "
                                "' 9w+', '-1', '-½' or '-0'") from None
            results.append(RoundResult(start_no=no, round=rd, status=c.status,
                                       opponent_no=c.opponent_no, colour=c.colour,
                                       points=c.points))
    def not_in_table(r: RoundResult) -> InputError:
        name = next(p.name for p in players if p.start_no == r.start_no)
        return ctx.error(f"player {r.start_no} ({name}), round {r.round}: opponent "
                         f"{r.opponent_no} is not in the table: broken or truncated page")

    if by_rank_cells and not by_rank:  # art=4: the cells number the opponents by rank
        for k, r in enumerate(results):
            if r.opponent_no is not None:
                if rank_to_no.get(r.opponent_no, r.start_no) == r.start_no:
                    raise not_in_table(r)
                results[k] = replace(r, opponent_no=rank_to_no[r.opponent_no])
    else:  # as the rows number the players
        numbers = {p.start_no for p in players}
        for r in results:
            if r.opponent_no is not None and (
                    r.opponent_no == r.start_no or r.opponent_no not in numbers):
                raise not_in_table(r)
    players = tied_ranks(players)  # after rank_to_no: a tied row is numbered by its row
    if use_tb1:
        rounds = max((rd for rd, _ in round_cols), default=0)
        if any(p.points is not None and p.points > rounds for p in players):
            ctx.warn("points-unchecked", "TB1 exceeds the number of rounds: it is not the score")
            players = [replace(p, points=None) for p in players]
    return players, results, by_rank


def _berger(n: int) -> dict[tuple[int, int], int]:
    """FIDE Berger tables: (white, black) → round, for n players (a dummy when odd)."""
    m = n + n % 2
    half = m // 2
    out: dict[tuple[int, int], int] = {}
    for rd in range(1, m):
        shift = (rd - 1) * half

        def label(x: int, shift: int = shift) -> int:
            return m if x == m else (x - 1 + shift) % (m - 1) + 1
        for i in range(1, half + 1):
            a, b = label(i), label(m + 1 - i)
            if i == 1 and rd % 2 == 0:
                a, b = b, a
            out[(a, b)] = rd
    return out


def read_crosstable_rr(ctx: Ctx, t: Table) -> tuple[list[Player], list[RoundResult],
                                                  list[tuple[int, int, Cell]]]:
    """A round-robin matrix (results by opponent number); rounds and colours assumed from the
    FIDE Berger tables."""
    opp_cols = [(int(k[2:]), i) for i, k in enumerate(t.keys) if k.startswith("n:")]
    idx = player_index(t.keys)
    players = []
    matrix = []
    for n, (tr, cells) in enumerate(t.rows, start=1):
        if len(cells) < len(t.header):
            raise ctx.error(f"crosstable row {n} has {len(cells)} cells, the header "
                            f"{len(t.header)}: broken or truncated page")
        p = player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        for opp, i in opp_cols:
            text = cell_text(cells[i])
            if opp == p.start_no or text in ("*", ""):
                continue
            try:
                c = parse_round_cell(text)
            except InputError:
                raise ctx.error(f"crosstable row {n} (player {p.start_no}), column {opp}: "
                                f"unknown cell {text!r}; expected 1, 0, ½, +, - or *") from None
            if c.opponent_no is not None or c.status in (Status.BYE, Status.HALF_BYE):
                raise ctx.error(f"crosstable row {n}, column {opp}: {text!r} is not a "
                                "round-robin result")
            matrix.append((p.start_no, opp, c))
    numbers = {p.start_no for p in players}
    if any(opp not in numbers for _, opp, _ in matrix):
        raise ctx.error("round-robin column numbers do not match the players: broken page")
    berger = _berger(len(players))
    played = {(a, b): c for a, b, c in matrix}
    results = []
    for (w, b), rd in berger.items():
        for me, opp, colour in ((w, b, Colour.WHITE), (b, w, Colour.BLACK)):
            if me not in numbers:
                continue
            if opp not in numbers:
                results.append(RoundResult(start_no=me, round=rd, status=Status.ABSENT,
                                           points=Decimal(0)))
                continue
            cell = played.get((me, opp))
            status, points = (cell.status, cell.points) if cell else (Status.PENDING, None)
            results.append(RoundResult(start_no=me, round=rd, status=status, opponent_no=opp,
                                       colour=colour, points=points))
    ctx.warn("berger-assumed", "round-robin crosstable: rounds and colours assumed from the "
             "Berger tables (add the all-rounds pairings page for the real ones)")
    return players, results, matrix
