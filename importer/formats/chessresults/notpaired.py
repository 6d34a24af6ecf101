"""The not-paired grid (``art=40``): per player and round, '*' not paired (absent, or a
requested half-point bye), 'bye' a pairing-allocated bye, '0F' a forfeit loss.
"""

from __future__ import annotations

from decimal import Decimal

from importer.formats.chessresults.lang import BYE_WORDS, norm
from importer.formats.chessresults.table import Ctx, Table, cell_at, player_from_row, player_index
from importer.model import Player, RoundResult, Status

__all__ = ["NOT_PAIRED_MARKS", "read_notpaired"]

NOT_PAIRED_MARKS = frozenset({"", "*", "0f"}) | BYE_WORDS


def read_notpaired(ctx: Ctx, t: Table) -> tuple[list[Player], list[RoundResult]]:
    """art=40: '*' not paired (absent or requested ½ bye), 'bye', '0F' forfeit loss."""
    round_cols = [(int(k[3:]), i) for i, k in enumerate(t.keys) if k.startswith("rd:")]
    idx = player_index(t.keys)
    players, results = [], []
    for n, (tr, cells) in enumerate(t.rows, start=1):
        p = player_from_row(ctx, idx, tr, cells, n)
        players.append(p)
        for rd, i in round_cols:
            mark = norm(cell_at(cells, i))
            if not mark:
                continue
            if mark == "*":
                status, points = Status.ABSENT, Decimal(0)
            elif mark in BYE_WORDS:
                status, points = Status.BYE, Decimal(1)
            elif mark == "0f":
                status, points = Status.FORFEIT_LOSS, Decimal(0)
            else:
                raise ctx.error(f"not-paired row {n} (player {p.start_no}), round {rd}: "
                                f"unknown mark {mark!r}; expected '*', 'bye' or '0F'")
            results.append(RoundResult(start_no=p.start_no, round=rd, status=status,
                                       points=points))
    return players, results
