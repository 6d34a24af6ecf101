"""Team events: the team pairings (``art=2``), the board pairings (``art=3``) and the
all-details page (``art=20``: every board of every round and each team's composition).

A board row reads '1.1 | title | home player | rating | - | title | away player | rating |
result'; the colour squares (``FarbewT``/``FarbesT``) give the colours, and the result reads
home first, not White first.
"""

from __future__ import annotations

import re
from dataclasses import replace

from importer.errors import InputError
from importer.formats.chessresults.lang import header_key
from importer.formats.chessresults.records import parse_game_result, sides
from importer.formats.chessresults.table import (
    BOARD,
    FIRST_INT,
    Ctx,
    El,
    cell_at,
    cell_text,
    check_round,
    dedupe,
    is_game_result,
    is_header,
    link_snr,
    player_from_row,
    player_index,
    player_name,
    read_rating,
    row_cells,
    table_rows,
)
from importer.model import Colour, Player, RoundResult, Status
from importer.parsing.numbers import whole_number

__all__ = ["read_all_details", "read_board_pairings"]

def read_board_pairings(ctx: Ctx, table: El, default_round: int | None,
                    ) -> tuple[list[Player], list[RoundResult], list[tuple[int, int, int, int]]]:
    """Team board pairings (art=3, art=20 'Spielerpaarungen'): squares give colours.

    The players are the cells with an ``snr=`` link or a colour square, else the columns the
    match header heads with the team names.  Without any player link (an old tournament's
    gated page) players are numbered in the order they appear, with a warning."""
    players: dict[int, Player] = {}
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    rd = default_round
    teams: list[str] = []
    team_cols: list[int] = []
    rows = [(tr, row_cells(tr)) for tr in table_rows(table)]
    linked = any(link_snr(c) is not None for _, cells in rows for c in cells)
    unlinked: dict[tuple[str, str], int] = {}
    boards_seen: dict[int | None, int] = {}
    for tr, cells in rows:
        if len(cells) == 1:
            m = FIRST_INT.search(cell_text(cells[0]))
            rd = whole_number(m[0]) if m else rd
            continue
        if not cells:
            continue
        if is_header(tr, cells):
            named = [(i, x) for i, c in enumerate(cells) if i and (x := cell_text(c))
                     and not x.replace(" ", "").replace(":", "").replace("½", "")
                     .replace(",", "").isdigit() and header_key(x) is None and x != "-"]
            team_cols, teams = [i for i, _ in named], [x for _, x in named]
            continue
        m = BOARD.fullmatch(cell_text(cells[0]))
        if m is None:
            continue
        if rd is None:
            raise ctx.error(f"board {m[0]}: board pairings without a round number (no "
                            "'Round N' caption row and no rd= in the page's URL): save the "
                            "whole table with its caption row, or add the page's URL in a "
                            "comment, e.g. <!-- https://chess-results.com/"
                            "tnr123456.aspx?lan=1&art=3&rd=1 -->")
        board_no = boards_seen[rd] = boards_seen.get(rd, 0) + 1  # 1.1, 1.2, 2.1 … → 1, 2, 3 …
        side_cells = [i for i, c in enumerate(cells) if link_snr(c) is not None
                      or any((d.get("class") or "").startswith("Farbe") for d in c.iter("div"))]
        if not linked and len(team_cols) == 2:
            side_cells = [i for i in team_cols if i < len(cells)]
        if len(side_cells) not in (1, 2):
            continue
        check_round(ctx, rd, f"board {m[0]}")
        sides_: list[tuple[int, Colour, bool]] = []
        for i in side_cells:
            home = i < len(cells) // 2  # home player left of the '-' cell
            team = teams[0 if home else 1] if len(teams) == 2 else ""
            name = player_name(cell_text(cells[i]))
            snr = link_snr(cells[i])
            if snr is None and not linked and name:
                snr = unlinked.setdefault((name, team), len(unlinked) + 1)
            if snr is None:
                continue
            square = next((d.get("class") for d in cells[i].iter("div")
                           if (d.get("class") or "").startswith("Farbe")), "")
            colour = _SQUARES.get(square or "", Colour.NONE)
            rating = read_rating(ctx, cell_at(cells, i + 1), f"board {m[0]} round {rd}", snr,
                                 name)
            if snr not in players:
                players[snr] = Player(start_no=snr, name=name,
                                      title=cell_text(cells[i - 1]) if i else "",
                                      rating=rating, team=team)
            sides_.append((snr, colour, home))
        text = _board_result(cells, max(side_cells))
        try:
            gr = parse_game_result(text)
        except InputError as e:
            raise ctx.error(f"board {m[0]} round {rd}: {e}") from None
        (ws, wp), (bs, bp) = sides(gr)  # the result reads home (left) first, not White first
        if len(sides_) == 1 and text:  # the other board is empty: a forfeit
            snr, _, home = sides_[0]
            status, points = (ws, wp) if home else (bs, bp)
            if status in (Status.FORFEIT_WIN, Status.FORFEIT_LOSS):
                results.append(RoundResult(start_no=snr, round=rd, status=status, points=points))
            else:
                ctx.warn("one-player-board", f"board {m[0]} round {rd}: result {text!r} with "
                         "one player; skipped", (snr,), rd)
        if len(sides_) != 2:
            continue
        (a, ca, _), (b, cb, _) = sides_
        white, black = a, b
        known = ca is not Colour.NONE or cb is not Colour.NONE  # else White is the lower number
        if ca is Colour.BLACK or (ca is Colour.NONE and cb is Colour.WHITE) or (
                not known and a > b):
            white, black, (ws, wp), (bs, bp) = b, a, (bs, bp), (ws, wp)
        results.append(RoundResult(start_no=white, round=rd, status=ws, opponent_no=black,
                                   colour=Colour.WHITE if known else Colour.NONE, points=wp))
        results.append(RoundResult(start_no=black, round=rd, status=bs, opponent_no=white,
                                   colour=Colour.BLACK if known else Colour.NONE, points=bp))
        boards.append((rd, white, black, board_no))
    if unlinked:
        ctx.warn("numbered-by-appearance", "no player links on the board pairings: players "
                 "are numbered in the order they appear, not by their starting numbers")
    return list(players.values()), results, boards


_SQUARES = {"FarbewT": Colour.WHITE, "FarbesT": Colour.BLACK}
"""The colour squares of a board row: white, black ('schwarz')."""


def _board_result(cells: list[El], last_side: int) -> str:
    """The result cell of a board row: the last cell after the players that reads as a game
    result, so trailing columns such as PGN are skipped; '' while pending."""
    found = ""
    for cell in cells[last_side + 1:]:
        text = cell_text(cell)
        if text and is_game_result(text):
            found = text
    return found


def read_team_composition(ctx: Ctx, table: El) -> list[Player]:
    """art=20 'Teamaufstellung': caption per team, then its players with snr= links."""
    players = []
    team = ""
    keys: list[str] = []
    for n, tr in enumerate(table_rows(table), start=1):
        cells = row_cells(tr)
        if len(cells) == 1:
            caption = cell_text(cells[0])
            team = re.sub(r"^\d+\.\s*", "", caption).split(" (")[0].strip()
        elif cells and is_header(tr, cells):
            keys = ctx.columns([cell_text(c) for c in cells])
        elif cells and keys:
            p = player_from_row(ctx, player_index([("" if k == "board" else k) for k in keys]),
                                 tr, cells, n)
            players.append(replace(p, team=team))
    return players


def read_all_details(ctx: Ctx, tables: list[El], default_round: int | None,
                     ) -> tuple[list[Player], list[RoundResult], list[tuple[int, int, int, int]]]:
    """art=20: every round's board pairings ('Spielerpaarungen') and each team's composition
    ('Teamaufstellung'), whichever tables the page holds."""
    players: list[Player] = []
    results: list[RoundResult] = []
    boards: list[tuple[int, int, int, int]] = []
    for table in tables:
        rows = list(table_rows(table))
        first = row_cells(rows[0]) if rows else []
        second = row_cells(rows[1]) if len(rows) > 1 else []
        if any(BOARD.fullmatch(cell_text(c[0])) for tr in rows[:4] if (c := row_cells(tr))):
            ps, rs, bs = read_board_pairings(ctx, table, default_round)
            known = {p.start_no for p in players}
            players += [p for p in ps if p.start_no not in known]
            results += rs
            boards += bs
        elif len(first) == 1 and second and (header_key(cell_text(second[0])) or ("",))[0] == (
                "board"):  # team composition: a team caption, then 'Br. | … | Name'
            players = read_team_composition(ctx, table) + players
    return dedupe(players), results, boards
