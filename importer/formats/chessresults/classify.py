"""Which reader a chess-results page goes to: its kind, from the view and the table's structure.

The ``art=`` of the page's URL is only a hint (a page saved as a fragment has none): the kind
follows from the first data table's header words and rows, with fallbacks by structure when
the header words are in a language :mod:`importer.formats.chessresults.lang` does not know.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_round_cell
from importer.formats.chessresults.document import Document
from importer.formats.chessresults.lang import card_key, norm
from importer.formats.chessresults.notpaired import NOT_PAIRED_MARKS
from importer.formats.chessresults.page import PageKind
from importer.formats.chessresults.ranking import RankingColumns, heading_round, ranking_columns
from importer.formats.chessresults.table import (
    BOARD,
    FIRST_INT,
    Ctx,
    El,
    Table,
    cell_at,
    cell_text,
    is_game_result,
    row_cells,
    split_table,
    table_rows,
)
from importer.model import System

__all__ = ["Route", "classify", "guess_crosstable", "guess_pairings"]


@dataclass
class Route:
    """Where a page goes: its kind, the first data table as split (the pairings, crosstable,
    list or grid the kind's reader reads), and what the classifier found on the way."""

    kind: PageKind
    table: Table | None = None
    ranking: RankingColumns | None = None
    """The columns of a ranking list, found by header words and values."""
    round: int | None = None
    """The round a ranking list ranks after (its heading 'after N Rounds')."""


def classify(ctx: Ctx, doc: Document, tables: list[El]) -> Route:
    """The kind of a page with these data tables (``CRs1``), checked in this order:

    no data table (a tournament page not started or not paired yet); the team all-details page
    (``art=20``, or board rows '1.1' in the last of three or more tables); team board pairings
    (board rows, or ``art=3`` of a team event); team pairings (Team and MP columns); a player
    card (Round and Result columns, ``art=9``, or a 'Starting rank' key/value row); a ranking
    list (no round columns, a rank; the columns must be found); pairings (a Result column, also
    found by structure in an unknown language; several round captions or a round robin's
    details make it every round's); a round-robin matrix (numbered opponent columns 1, 2, …);
    the not-paired grid (``art=40``, or round columns holding only '*', 'bye', '0F'); a
    starting rank or player list (No. and Name, no rounds); else a crosstable (round
    columns, found by structure in an unknown language), by rank when it is ``art=4`` or its
    first column is the rank.

    Raises InputError for a list of teams (no players) and for a page with data tables that
    none of these readers reads.
    """
    if not tables:
        if doc.name or doc.tnr:
            return Route(PageKind.NO_DATA)
        raise ctx.error("no CRs1 table and no tournament name: not a usable chess-results page")
    if doc.art == "20" or (len(tables) >= 3 and any(
            BOARD.fullmatch(cell_text(c[0])) for tr in table_rows(tables[-1])
            if (c := row_cells(tr)))):
        return Route(PageKind.TEAM_ALL_DETAILS)
    t = split_table(tables[0], ctx)
    keys = set(t.keys)
    if any(BOARD.fullmatch(cell_text(c[0])) for _, c in t.rows[:3] if c) or (
            doc.art == "3" and doc.team):
        return Route(PageKind.TEAM_BOARD_PAIRINGS, t)
    if "team" in keys and "mp" in keys:
        return Route(PageKind.TEAM_PAIRINGS, t)
    if ("round" in keys and "result" in keys) or doc.art == "9" or any(
            card_key(cell_text(c[0])) == "start_no" for tr in islice(table_rows(tables[0]), 20)
            if len(c := row_cells(tr)) == 2):
        return Route(PageKind.PLAYER_CARD, t)
    if "result" not in keys and ctx.unknown and not any(k.startswith("rd:") for k in keys) \
            and guess_pairings(ctx, t):
        keys = set(t.keys)
    no_rounds = not any(k.startswith(("rd:", "n:")) for k in keys)
    if no_rounds and "result" not in keys and (
            "rank" in keys or ctx.unknown or t.keys.count("no") > 1):
        after = heading_round(tables[0])
        cols = ranking_columns(t, doc.rounds or after, cut=doc.cut or len(t.rows) == 150)
        if cols is not None:
            return Route(PageKind.RANKING, t, cols, after)
    if "result" in keys:
        rr = sum(1 for _, c in t.captions if FIRST_INT.search(c)) > 1 or (
            doc.details.system is System.ROUND_ROBIN)
        return Route(PageKind.PAIRINGS_RR if rr else PageKind.PAIRINGS, t)
    if any(k.startswith("n:") for k in keys) and "name" in keys and not any(
            k.startswith("rd:") for k in keys):
        return Route(PageKind.CROSSTABLE_RR, t)
    round_cols = [i for i, k in enumerate(t.keys) if k.startswith("rd:")]
    if doc.art == "40" or (bool(round_cols) and all(  # the art=40 marks '*', 'bye', '0F'
            norm(cell_at(c, i)) in NOT_PAIRED_MARKS for _, c in t.rows[:20] for i in round_cols)):
        return Route(PageKind.NOTPAIRED, t)
    if not any(k.startswith("rd:") for k in keys) and ("name" in keys and "no" in keys):
        return Route(PageKind.PLAYER_LIST if "team" in keys else PageKind.STARTING_RANK, t)
    if not any(k.startswith("rd:") for k in keys):
        if "team" in keys and "name" not in keys:
            raise ctx.error("a list of teams (a team starting rank or ranking), no players on "
                            "it: save the team event's board pairings (art=3) or its "
                            "all-details page (art=20)")
        guess_crosstable(ctx, t)
        if not any(k.startswith("rd:") for k in t.keys):
            raise ctx.error("no table fiderate reads: expected a crosstable, pairings, starting "
                            "rank, not-paired list or player card, or a team event's board "
                            "pairings or all-details page")
    by_rank = doc.art == "4" or t.keys[:1] == ["rank"]
    return Route(PageKind.CROSSTABLE_RANK if by_rank else PageKind.CROSSTABLE_START, t)


def guess_crosstable(ctx: Ctx, t: Table) -> None:
    """Unknown header words: find No., name and round columns by content."""
    if not t.rows:
        return
    width = min(len(t.keys), *(len(c) for _, c in t.rows))  # columns the header names
    rd = 0
    for i in range(width):
        texts = [cell_text(cells[i]) for _, cells in t.rows]
        if t.keys[i] == "" and i == 0 and all(x.isdigit() for x in texts):
            t.keys[i] = "no"
            continue
        if t.keys[i] or not any(texts):
            continue
        try:
            parsed = [parse_round_cell(x) for x in texts]
        except InputError:
            continue
        if any(c.opponent_no is not None for c in parsed):
            rd += 1
            t.keys[i] = f"rd:{rd}"
    if "name" not in t.keys:
        lengths = [(sum(len(cell_text(c[i])) for _, c in t.rows), i) for i in range(width)
                   if t.keys[i] in ("", "title")]
        if lengths:
            t.keys[max(lengths)[1]] = "name"
    ctx.warn("unknown-language", "unknown language: columns "
             + ", ".join(repr(u) for u in ctx.unknown[:8])
             + " not recognised; read the crosstable by structure")


def guess_pairings(ctx: Ctx, t: Table) -> bool:
    """Unknown header words: find the result, board, No. and name columns of a pairings
    table by content; True when a result column was found."""
    if not t.rows:
        return False
    width = min(len(t.keys), *(len(c) for _, c in t.rows))  # columns the header names
    columns = [[cell_text(cells[i]) for _, cells in t.rows] for i in range(width)]
    res_i = None
    for i, texts in enumerate(columns):
        if any("-" in x for x in texts) and all(is_game_result(x) for x in texts if "-" in x):
            res_i = i
            break
    if res_i is None or res_i == 0:
        return False
    digits = [i for i, texts in enumerate(columns)
              if any(texts) and all(x.isdigit() for x in texts if x)]
    for lo, hi, side in ((0, res_i, "white"), (res_i + 1, width, "black")):
        lengths = [(sum(map(len, columns[i])), i) for i in range(lo, hi) if i not in digits]
        if lengths:
            t.keys[max(lengths)[1]] = side
        numbers = [i for i in digits if lo < i < hi]
        if numbers:
            t.keys[numbers[0] if side == "white" else numbers[-1]] = "no"
    if 0 in digits:
        t.keys[0] = "board"
    t.keys[res_i] = "result"
    ctx.warn("unknown-language", "unknown language: columns "
             + ", ".join(repr(u) for u in ctx.unknown[:8])
             + " not recognised; read the pairings by structure")
    return True
