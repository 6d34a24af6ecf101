"""The starting rank (``art=0``) and a team event's player list: one player per row."""

from __future__ import annotations

from importer.formats.chessresults.table import Ctx, Table, blank_sex, player_from_row, player_index
from importer.model import Player

__all__ = ["read_starting_rank"]

def read_starting_rank(ctx: Ctx, t: Table) -> list[Player]:
    idx = player_index(t.keys)
    sex = blank_sex(t, idx)
    return [player_from_row(ctx, idx, tr, cells, n, texts, blank_sex=sex)
            for n, ((tr, cells), texts) in enumerate(zip(t.rows, t.texts, strict=True), start=1)]
