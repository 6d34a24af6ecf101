"""The Swiss-Manager / chess-results ranking CSV export → :class:`Tournament`.

``;``-separated; a preamble (name lines, list title), then ``Rank;SNo.;;Name;Rtg;FED;1.Rd.;;;…;
Pts;RecRp``, each round an ``opponent;colour;result`` triplet: ``81;b;1``, ``5;b;x`` (``x`` = ½),
``149;-;+`` / ``107;-;-`` forfeits (colour ``-``), ``-;-;x`` / ``-;-;1`` / ``-;-;0`` half-point
bye, bye and absence.  A blank result with an opponent is a pending game.  Forfeits carry no
colour, so their :class:`Game` has the lower starting number as White.
"""

from __future__ import annotations

import re
from decimal import Decimal

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_points, parse_rating
from importer.formats.chessresults.lang import header_key, round_column
from importer.model import FULL_POINT as _ONE
from importer.model import HALF_POINT as _HALF
from importer.model import NO_POINT as _ZERO
from importer.model import (
    Colour,
    Player,
    RoundResult,
    SourceWarning,
    Status,
    Tournament,
    TournamentInfo,
)
from importer.parsing.list_hints import with_list_hint
from importer.parsing.numbers import checked_rating, whole_number
from importer.parsing.pairings import games_from_results

__all__ = ["looks_like_smcsv", "parse_smcsv"]

_COLOURS = {"w": Colour.WHITE, "b": Colour.BLACK, "s": Colour.BLACK, "-": Colour.NONE,
            "": Colour.NONE}
_PLAYED = {"1": (_ONE, Status.PLAYED), "0": (_ZERO, Status.PLAYED), "x": (_HALF, Status.PLAYED),
           "½": (_HALF, Status.PLAYED), "+": (_ONE, Status.FORFEIT_WIN),
           "-": (_ZERO, Status.FORFEIT_LOSS)}
_NO_GAME = {"1": (_ONE, Status.BYE), "x": (_HALF, Status.HALF_BYE), "½": (_HALF, Status.HALF_BYE),
            "0": (_ZERO, Status.ABSENT), "": (_ZERO, Status.ABSENT), "-": (_ZERO, Status.ABSENT)}


def _header(cells: list[str]) -> tuple[dict[str, int], dict[int, int]] | None:
    """(column of each known header, first column of each round) when *cells* is the header."""
    cols: dict[str, int] = {}
    rounds: dict[int, int] = {}
    for j, label in enumerate(cells):
        if not label.strip():
            continue
        key = header_key(label)
        if key is not None:
            cols.setdefault(key[0], j)
        elif (r := round_column(label)) is not None:
            rounds[r] = j
    if "name" in cols and "no" in cols and rounds:
        return cols, rounds
    return None


def looks_like_smcsv(text: str) -> bool:
    """True when a ``;``-separated line of the first 30 is a ranking header with round columns."""
    for line in re.split(r"\r\n|\r|\n", text.lstrip("\ufeff"), maxsplit=30)[:30]:
        if line.count(";") >= 4 and _header(line.split(";")) is not None:
            return True
    return False


def parse_smcsv(text: str, *, source: str = "") -> Tournament:
    """Parse a Swiss-Manager ranking CSV export."""
    lines = re.split(r"\r\n|\r|\n", text.lstrip("\ufeff"))
    found = None
    h = next((i for i, line in enumerate(lines[:200])
              if line.count(";") >= 4 and _header(line.split(";")) is not None), None)
    found = None if h is None else _header(lines[h].split(";"))
    if h is None or found is None:
        raise InputError("not a Swiss-Manager CSV export: no 'SNo.;…;Name;…;1.Rd.' header",
                         source=source)
    cols, rounds = found
    preamble = [line.strip().strip(";").strip() for line in lines[:h]]
    preamble = [p for p in preamble if p]
    name = preamble[0] if preamble else ""
    warnings: list[SourceWarning] = []

    def warn(w: SourceWarning) -> None:
        warnings.append(w.at(source))

    if "name" in cols and cols["name"] > 0 and cols["name"] - 1 not in cols.values():
        cols.setdefault("title", cols["name"] - 1)
    players: list[Player] = []
    raw: list[tuple[int, int, list[str]]] = []
    last_rank: int | None = None
    for i in range(h + 1, len(lines)):
        line = lines[i]
        if not line.strip(" ;"):
            if players:
                break
            continue
        cells = [c.strip() for c in line.split(";")]
        cells += [""] * (max(rounds.values()) + 3 - len(cells))

        def get(key: str, cells: list[str] = cells) -> str:
            return cells[cols[key]] if key in cols and cols[key] < len(cells) else ""

        try:
            start_no = _int(get("no"), "a starting number (SNo.)")
            rank = _int(get("rank"), "a rank") if get("rank") else last_rank
            who = " ".join(get("name").split())
            rating = checked_rating(parse_rating(get("rating")), start_no, who)
            points = parse_points(get("points"))
        except InputError as exc:
            raise InputError(str(exc), source=source, line=i + 1) from None
        last_rank = rank
        players.append(Player(start_no=start_no, name=who,
                              title=get("title"), federation=get("fed"), rating=rating,
                              fide_id=get("fide_id"), club=get("club"), points=points,
                              rank=rank))
        raw.append((start_no, i + 1, cells))
    if not players:
        raise InputError("the header is followed by no player rows", source=source)
    known = {p.start_no for p in players}
    if len(known) != len(players):
        raise InputError("a starting number (SNo.) appears twice", source=source)
    by_sno = _results(raw, rounds, {no: no for no in known}, source, strict=False)
    by_row = _results(raw, rounds, {i: no for i, (no, _, _) in enumerate(raw, 1)}, source,
                      strict=False)
    if not by_sno and not by_row:
        _results(raw, rounds, {no: no for no in known}, source)  # raises the first error
    results = by_sno
    if _mirrored(by_row) > _mirrored(by_sno):
        results = by_row
        warn(SourceWarning("numbered-by-rank",
                           "opponents are numbered by ranking row (a ranking export)"))
    games = games_from_results(results, warn=warn)
    totals: dict[int, Decimal] = {}
    for res in results:
        totals[res.start_no] = totals.get(res.start_no, Decimal(0)) + (res.points or 0)
    for p in players:
        if p.points is not None and p.points != totals.get(p.start_no, 0):
            warn(SourceWarning("points-differ", f"player {p.start_no}: printed points "
                               f"{p.points:g} but the rounds give "
                               f"{totals.get(p.start_no, Decimal(0)):g}", (p.start_no,)))
    info = TournamentInfo(name=name, source=source, rounds=max(rounds))
    info, notes = with_list_hint(info)
    return Tournament(info=info, players=tuple(sorted(players, key=lambda p: p.start_no)),
                      results=tuple(results), games=tuple(games),
                      warnings=(*warnings, *notes))


def _results(raw: list[tuple[int, int, list[str]]], rounds: dict[int, int],
             number: dict[int, int], source: str, *, strict: bool = True) -> list[RoundResult]:
    """Every player's triplets, opponents mapped through *number* (row or SNo → SNo)."""
    try:
        return sorted((_triplet(no, r, cells[col:col + 3], number, source, lineno)
                       for no, lineno, cells in raw for r, col in rounds.items()),
                      key=lambda res: (res.start_no, res.round))
    except InputError:
        if strict:
            raise
        return []


def _mirrored(results: list[RoundResult]) -> int:
    """How many game results the opponent's result points back at."""
    back = {(r.start_no, r.round): r.opponent_no for r in results}
    return sum(1 for r in results
               if r.opponent_no is not None and back.get((r.opponent_no, r.round)) == r.start_no)


def _int(text: str, what: str) -> int:
    value = whole_number(text)
    if not value:
        raise InputError(f"expected {what}, found {text!r}")
    return value


def _triplet(no: int, rnd: int, cells: list[str], number: dict[int, int], source: str,
             lineno: int) -> RoundResult:
    opp, colour, result = (c.lower() for c in cells)
    if colour not in _COLOURS:
        raise InputError(f"round {rnd}: colour {colour!r} is not w, b or -", source=source,
                         line=lineno)
    if opp in ("", "-"):
        if result not in _NO_GAME:
            raise InputError(f"round {rnd}: result {result!r} without an opponent is not "
                             f"1, x, 0 or -", source=source, line=lineno)
        points, status = _NO_GAME[result]
        return RoundResult(start_no=no, round=rnd, status=status, points=points)
    opp_no = whole_number(opp)
    if opp_no is None:
        raise InputError(f"round {rnd}: expected an opponent number, found {opp!r}",
                         source=source, line=lineno)
    if opp_no not in number:
        raise InputError(f"round {rnd}: opponent {opp} is not in the file (broken or truncated "
                         f"file)", source=source, line=lineno)
    opponent = number[opp_no]
    if result == "":
        return RoundResult(start_no=no, round=rnd, status=Status.PENDING,
                           opponent_no=opponent, colour=_COLOURS[colour])
    if result not in _PLAYED:
        raise InputError(f"round {rnd}: result {result!r} is not 1, x, 0, + or -",
                         source=source, line=lineno)
    points, status = _PLAYED[result]
    return RoundResult(start_no=no, round=rnd, status=status, opponent_no=opponent,
                       colour=_COLOURS[colour], points=points)
