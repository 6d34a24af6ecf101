"""chess-results Excel exports (``chessResultsList.xlsx``, and the older ``.xls``) → :class:`Tournament`.

Only the workbook → rows step differs between the two: openpyxl reads ``.xlsx``, xlrd the
BIFF8 ``.xls`` (an OLE2 "Composite Document"); everything after it is one code path.

Starting-rank lists, starting-rank crosstables (``No.`` first: cells hold starting numbers)
and ranking crosstables (``Rk.`` first).  A ranking crosstable has no starting numbers: its
players are numbered by their row (rank order) and its cells name opponents by that row
number, as on the ranking page itself, so a ranking export cut at 150 rows whose cells name
rows beyond the file cannot be paired and is refused (InputError), as is any opponent
missing from a file.

The preamble (database line, name, ``Key : Value`` details, 'Last update', list title) is
read from column A above the header row, which is found by its words in any known language.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from xml.etree.ElementTree import ParseError

import lxml.etree
import openpyxl
import xlrd
from openpyxl.utils.exceptions import InvalidFileException
from xlrd.compdoc import CompDocError

from importer.errors import InputError
from importer.formats.chessresults.cells import parse_points, parse_rating, parse_round_cell
from importer.formats.chessresults.details import Details, last_update, parse_details, title_dates
from importer.formats.chessresults.lang import header_key, round_column, tiebreak_column
from importer.formats.trf import classify_time_control
from importer.model import (
    DateSource,
    Player,
    RoundResult,
    SourceWarning,
    Status,
    System,
    Tournament,
    TournamentInfo,
)
from importer.parsing.list_hints import with_list_hint
from importer.parsing.numbers import checked_rating, whole_number
from importer.parsing.pairings import games_from_results

__all__ = ["MAX_UNPACKED_BYTES", "OLE2_SIGNATURE", "looks_like_xls", "looks_like_xlsx", "parse_xls",
           "parse_xlsx"]

OLE2_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The first eight bytes of an OLE2 compound document: an ``.xls`` workbook (BIFF8)."""
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
"""A workbook whose members declare more than this, unpacked, is refused (zip bombs)."""
_MAX_MEMBERS = 10_000
_MAX_ROWS = 100_000
_FOOTERS = ("annotation", "you find all details", "encontrará todos", "chess-tournament-results",
            "servidor de resultados")
_TB1_IS_POINTS = re.compile(r"tie\s*break\s*1\s*:\s*points", re.IGNORECASE)
_SEX = {"w": "w", "f": "w", "m": "m"}
_LAST_UPDATE = re.compile(
    r"^(?:last update|última atualização|die seite wurde zuletzt aktualisiert am|"
    r"последнее обновление|viimeisin päivitys)\s*\d", re.IGNORECASE)


def looks_like_xlsx(data: bytes) -> bool:
    """True when the bytes are a zip archive holding an Excel workbook."""
    if not data.startswith(b"PK"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "xl/workbook.xml" in z.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return False


def looks_like_xls(data: bytes) -> bool:
    """True when the bytes start as an OLE2 compound document (an old ``.xls`` workbook)."""
    return data.startswith(OLE2_SIGNATURE)


def _check_archive(data: bytes, source: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise InputError("not an Excel workbook (not a zip archive)", source=source) from None
    if len(infos) > _MAX_MEMBERS:
        raise InputError(f"refused: the workbook has {len(infos)} members", source=source)
    unpacked = sum(i.file_size for i in infos)
    if unpacked > MAX_UNPACKED_BYTES:
        raise InputError(f"refused: the workbook would unpack to {unpacked} bytes (more than "
                         f"{MAX_UNPACKED_BYTES}; a zip bomb?)", source=source)
    if "xl/workbook.xml" not in {i.filename for i in infos}:
        raise InputError("a zip archive that is not an Excel workbook (no xl/workbook.xml)",
                         source=source)
    if any(i.flag_bits & 0x1 for i in infos):  # zipfile would need a password
        raise InputError("the workbook's zip archive is encrypted", source=source)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).replace("\xa0", " ").split())


def _damaged_workbook_errors() -> tuple[type[Exception], ...]:
    """What openpyxl (and the zipfile and XML parsers under it) raise on a damaged workbook.

    Each was seen on a truncated, bit-flipped or hand-edited workbook: a bad CRC
    (``BadZipFile``), broken deflate data (``zlib.error``, ``EOFError``), a zip feature
    zipfile does not support (``NotImplementedError``), no workbook part (``OSError``,
    ``InvalidFileException``), malformed XML (``ParseError`` from the worksheet reader,
    ``XMLSyntaxError`` from the other parts; also what an entity bomb ends in), a missing
    part or relationship (``KeyError``), a shared-string index past the table
    (``IndexError``), an unknown attribute (``TypeError``) and an unparsable cell, date,
    style or cell reference (``ValueError``).
    """
    return (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            InvalidFileException, ParseError, lxml.etree.LxmlError, KeyError, IndexError,
            TypeError, ValueError)


def _unreadable(exc: Exception, source: str) -> InputError:
    detail = " ".join(str(exc).split())[:200]
    return InputError(f"unreadable Excel workbook: it is damaged or cut short (the reader "
                      f"says: {detail or 'nothing more'})", source=source)


def _xlsx_cells(data: bytes, source: str) -> list[tuple[object, ...]]:
    _check_archive(data, source)

    # Only openpyxl runs inside the try: its errors mean a damaged file.  Our own handling of
    # the cells comes after it, so a bug there is not reported as the file's fault.
    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            if not wb.worksheets:
                raise InputError("the workbook has no worksheet", source=source)
            cells: list[tuple[object, ...]] = []
            for row in wb.worksheets[0].iter_rows(values_only=True):
                if len(cells) >= _MAX_ROWS:
                    raise InputError(f"refused: more than {_MAX_ROWS} rows", source=source)
                cells.append(row)
        finally:
            wb.close()
    except InputError:
        raise
    except _damaged_workbook_errors() as exc:
        raise _unreadable(exc, source) from None
    return cells


_DAMAGED_XLS = (ArithmeticError, AssertionError, EOFError, LookupError, MemoryError, TypeError,
                ValueError, struct.error)
"""What xlrd raises on a truncated, bit-flipped or garbage OLE2 file besides its own
``XLRDError`` and ``CompDocError``: it unpacks records with :mod:`struct`, indexes into them
and asserts their sizes, so a short or wrong record ends in ``struct.error``, ``IndexError``,
``KeyError``, ``AssertionError`` or ``UnicodeDecodeError`` (all seen by cutting and flipping
bytes of a real ``.xls``), or in the arithmetic, type and memory errors of the same
record arithmetic."""


def _xls_cells(data: bytes, source: str) -> list[tuple[object, ...]]:
    """The first sheet of an ``.xls`` as openpyxl would give it: numbers as floats, text,
    dates as datetimes, booleans, error cells as their ``#`` text and empty cells as None."""
    # Only xlrd (and the cell kinds it gives) runs inside the try: its errors mean a damaged
    # file.  Its warnings go to a throwaway log, not to stdout; ragged rows, so that a damaged
    # size record cannot make it pad every row to thousands of empty cells.
    try:
        book = xlrd.open_workbook(file_contents=data, logfile=io.StringIO(), on_demand=True,
                                  ragged_rows=True)
        try:
            if book.nsheets == 0:
                raise InputError("the workbook has no worksheet", source=source)
            sheet = book.sheet_by_index(0)
            if sheet.nrows > _MAX_ROWS:
                raise InputError(f"refused: more than {_MAX_ROWS} rows", source=source)
            error_text = xlrd.error_text_from_code
            cells: list[tuple[object, ...]] = []
            for i in range(sheet.nrows):
                row: list[object] = []
                for c in sheet.row(i):
                    kind, value = c.ctype, c.value
                    if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                        value = None
                    elif kind == xlrd.XL_CELL_DATE:
                        value = xlrd.xldate.xldate_as_datetime(value, book.datemode)
                    elif kind == xlrd.XL_CELL_BOOLEAN:
                        value = bool(value)
                    elif kind == xlrd.XL_CELL_ERROR:
                        value = error_text.get(value, "#ERR")
                    row.append(value)
                cells.append(tuple(row))
        finally:
            book.release_resources()
    except InputError:
        raise
    except (xlrd.XLRDError, CompDocError, *_DAMAGED_XLS) as exc:
        raise _unreadable(exc, source) from None
    return cells


def _raw(value: object) -> str:
    """A cell as text, keeping inner spacing (round cells are right-aligned: ' 84b1')."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _find_header(rows: Sequence[Sequence[str]]) -> int | None:
    for i, row in enumerate(rows):
        keys = {k[0] for k in (header_key(c) for c in row if c.strip()) if k}
        if "name" in keys and keys & {"no", "rank"}:
            return i
    return None


def _preamble(lines: list[str]) -> tuple[str, list[tuple[str, str]], datetime | None]:
    """(name, detail rows, last update) from the column-A lines above the header."""
    name = ""
    details: list[tuple[str, str]] = []
    updated: datetime | None = None
    rest = [t for t in lines if t and "chess-results" not in t.casefold()]
    for t in rest:
        if " : " in t:
            key, _, value = t.partition(" : ")
            details.append((key.strip(), value.strip()))
        elif _LAST_UPDATE.match(t):
            updated = updated or last_update(t)
        elif not name:
            name = t
    return name, details, updated


def _dates(det: Details, name: str, updated: datetime | None,
           ) -> tuple[date | None, date | None, DateSource]:
    """The details' dates, else a date in the name, else the last update (an upper bound)."""
    if det.start_date is not None:
        return det.start_date, det.end_date, DateSource.DETAILS
    named = title_dates(name)
    if named:
        return min(named), max(named) if len(set(named)) > 1 else None, DateSource.TITLE
    if updated is not None:
        return updated.date(), None, DateSource.LAST_UPDATE
    return None, None, DateSource.NONE


def _cell_error(exc: InputError, source: str, row: int) -> InputError:
    return InputError(str(exc), source=source, line=row)


def parse_xlsx(data: bytes, *, source: str = "") -> Tournament:
    """Parse a chess-results ``.xlsx`` export (starting rank list or crosstable)."""
    return _tournament(_xlsx_cells(data, source), source)


def parse_xls(data: bytes, *, source: str = "") -> Tournament:
    """Parse an old chess-results ``.xls`` export (BIFF8), read as :func:`parse_xlsx` reads."""
    return _tournament(_xls_cells(data, source), source)


def _tournament(sheet: list[tuple[object, ...]], source: str) -> Tournament:
    """The first sheet's cells (as openpyxl gives them) → the tournament."""
    rows = [[_raw(v) for v in row] for row in sheet]
    h = _find_header(rows)
    if h is None:
        raise InputError("no chess-results header row (No./Rk. … Name …) in the first sheet",
                         source=source)
    warnings: list[SourceWarning] = []

    def warn(w: SourceWarning) -> None:
        warnings.append(w.at(source))

    name, detail_rows, updated = _preamble([_text(r[0]) if r else "" for r in rows[:h]])
    det = parse_details(detail_rows)
    start, end, date_source = _dates(det, name, updated)
    for w in det.warnings:
        warn(w)
    header = [c.strip() for c in rows[h]]
    cols: dict[str, int] = {}
    rounds: dict[int, int] = {}
    tb1: int | None = None
    for j, label in enumerate(header):
        key = header_key(label) if label else None
        if key and key[0] not in cols:
            cols[key[0]] = j
        elif label and (r := round_column(label)) is not None:
            rounds[r] = j
        elif label and tiebreak_column(label) == 1:
            tb1 = j
    if "points" not in cols and tb1 is not None and any(
            _TB1_IS_POINTS.search(_text(r[0]) if r else "") for r in rows[h + 1:]):
        cols["points"] = tb1  # the Annotation says 'Tie Break1: points': TB1 is the score
    elif "points" not in cols and rounds:
        warn(SourceWarning("points-unchecked", "no Pts. column and no 'Tie Break1: points' "
                           "legend: printed scores not checked"))
    name_col = cols["name"]
    if name_col > 0 and not header[name_col - 1]:
        cols["title"] = name_col - 1
    by_rank = "no" not in cols
    players: list[Player] = []
    cells: dict[int, dict[int, tuple[str, int]]] = {}
    last_rank: int | None = None
    for i in range(h + 1, len(rows)):
        row = rows[i] + [""] * (len(header) - len(rows[i]))
        first = _text(row[0]).casefold()
        if not any(_text(c) for c in row) or first.startswith(_FOOTERS):
            break
        lineno = i + 1

        def get(key: str, row: list[str] = row) -> str:
            return _text(row[cols[key]]) if key in cols else ""

        try:
            rank = _int(get("rank"))
            start_no = len(players) + 1 if by_rank else _int(get("no"))
            if start_no is None:
                raise InputError("expected a starting number in the No. column")
            who = get("name")
            rating = checked_rating(parse_rating(get("rating") or get("rating_intl")),
                                    start_no, who)
            national_rating = checked_rating(parse_rating(get("rating_nat")), start_no, who,
                                             national=True)
            points = parse_points(get("points"))
        except InputError as exc:
            raise _cell_error(exc, source, lineno) from None
        if "rank" in cols:
            rank = last_rank = rank if rank is not None else last_rank
        fide_id = get("fide_id")
        players.append(Player(
            start_no=start_no, name=who, title=get("title"), federation=get("fed"),
            fide_id="" if fide_id in ("", "0") else fide_id, national_id=get("national_id"),
            rating=rating, national_rating=national_rating, sex=_SEX.get(get("sex").lower(), ""),
            club=get("club"),
            team=get("team"), points=points, rank=rank))
        cells[start_no] = {r: (row[j], lineno) for r, j in rounds.items()}
    if not players:
        raise InputError("the header row is followed by no player rows", source=source)
    if len({p.start_no for p in players}) != len(players):
        raise InputError("a starting number appears twice", source=source)
    if len(players) == 150:
        warn(SourceWarning("cut-list", "exactly 150 players: chess-results cuts lists at 150 "
                           "rows; the export may be incomplete (export again with all rows)"))
    if by_rank and rounds:
        warn(SourceWarning("numbered-by-rank", "ranking crosstable: players are numbered by "
                           "rank (the export has no starting numbers)"))
    results = _results(cells, {p.start_no for p in players}, source, warn)
    games = games_from_results(results, warn=warn) if rounds else []
    _check_points(players, results, warn)
    info = TournamentInfo(
        name=name, source=source, start_date=start, end_date=end, date_source=date_source,
        rounds=det.rounds or (max(rounds) if rounds else None),
        rating_list=det.rating_list or classify_time_control(det.time_control),
        federation=det.federation, time_control=det.time_control,
        rating_calculation=det.rating_calculation, fide_event_id=det.fide_event_id,
        system=det.system or System.SWISS, last_update=updated)
    info, notes = with_list_hint(info)
    return Tournament(info=info, players=tuple(sorted(players, key=lambda p: p.start_no)),
                      results=tuple(results), games=tuple(games),
                      warnings=(*warnings, *notes))


def _int(text: str) -> int | None:
    t = text.strip()
    if not t:
        return None
    value = whole_number(t)
    if value is None:
        raise InputError(f"expected a whole number, found {t!r}")
    return value


def _results(cells: dict[int, dict[int, tuple[str, int]]], known: set[int], source: str,
             warn: Callable[[SourceWarning], None]) -> list[RoundResult]:
    out: list[RoundResult] = []
    empty = 0
    for no in sorted(cells):
        for rnd in sorted(cells[no]):
            text, lineno = cells[no][rnd]
            if not text.strip():
                empty += 1
                out.append(RoundResult(start_no=no, round=rnd, status=Status.ABSENT,
                                       points=Decimal(0)))
                continue
            # a workbook re-saved in Excel turns '-1' and '-0' into the numbers -1 and 0
            text = _RESAVED.get(text.strip(), text)
            try:
                c = parse_round_cell(text)
            except InputError as exc:
                raise _cell_error(exc, source, lineno) from None
            if c.opponent_no is not None and c.opponent_no not in known:
                raise InputError(
                    f"round {rnd}: opponent {c.opponent_no} is not in the file (broken or "
                    f"truncated export: {len(known)} players; chess-results cuts lists at 150 "
                    f"rows, export again with all rows)", source=source, line=lineno)
            status = c.status
            if c.opponent_no is None and status.is_game:  # a bare matrix result: no pairing
                raise InputError(f"round {rnd}: cell {text.strip()!r} names no opponent",
                                 source=source, line=lineno)
            out.append(RoundResult(start_no=no, round=rnd, status=status,
                                   opponent_no=c.opponent_no, colour=c.colour,
                                   points=c.points))
    if empty:
        warn(SourceWarning("empty-cells", f"{empty} empty round cell(s) read as absent"))
    return out


_RESAVED = {"0": "-0", "-0.5": "-½"}
def _check_points(players: Iterable[Player], results: Iterable[RoundResult],
                  warn: Callable[[SourceWarning], None]) -> None:
    """Warn when a printed score differs from the sum of the round results."""
    totals: dict[int, Decimal] = {}
    pending: set[int] = set()
    for r in results:
        totals[r.start_no] = totals.get(r.start_no, Decimal(0)) + (r.points or 0)
        if r.status is Status.PENDING:
            pending.add(r.start_no)
    for p in players:
        if (p.points is not None and p.start_no in totals and p.start_no not in pending
                and p.points != totals[p.start_no]):
            warn(SourceWarning("points-differ", f"player {p.start_no}: printed points "
                               f"{p.points:g} but the round cells give {totals[p.start_no]:g}",
                               (p.start_no,)))
