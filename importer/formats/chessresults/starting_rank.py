"""The starting rank (``art=0``) and a team event's player list: one player per row."""

from __future__ import annotations

from importer.formats.chessresults.table import Ctx, Table, men_where_blank, player_from_row, player_index
from importer.model import Player

__all__ = ["read_starting_rank"]

def read_starting_rank(ctx: Ctx, t: Table) -> list[Player]:
    idx = player_index(t.keys)
    return men_where_blank([player_from_row(ctx, idx, tr, cells, i + 1)
                            for i, (tr, cells) in enumerate(t.rows)], idx)
