"""The ECF's rating list download → :class:`NationalList` (pure: bytes in, records out).

The ECF rating database offers its whole list as a CSV (``api.php?v2/rating_list_csv`` on
ecfrating.org.uk, later rating.englishchess.org.uk), one row per player::

    ECF_code,full_name,member_no,FIDE_no,gender,nation,
    original_standard,standard_original_category,revised_standard,standard_revised_category,
    original_rapid,…,revised_rapid,…,original_blitz,…,revised_blitz,…,
    (the same for the online lists),club_code,club_name,title

The ECF code is six digits and a check letter (``230785G``); names are written
``Surname, Given``; a rating is four digits with a category letter beside it (A, K, P; H in
2022).  The *revised* rating is the official one, recalculated as late results arrive; the
*original* one is the list as first published (ECF rating help, "Player's Profile").
Older exports name the columns otherwise (``original_standard`` only, ``ECF_junior``), the
rating API answers the same rows as JSON (``column_names`` and ``players``), and a file
saved from a spreadsheet may use ``;`` and cp1252 with headers such as ``ECF code``,
``Standard``, ``Std cat``: the layout is found from the header, by names folded to letters
and digits.

One :class:`NationalEntry` per player and over-the-board list (standard, rapid, blitz) with a
rating; the online lists are another system and are not read.  A file that is not such a
list raises :class:`InputError`; a line that cannot be read is skipped with a warning.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from importer.errors import InputError
from importer.formats.nationallist.model import NationalEntry, NationalList
from importer.model import RatingList
from importer.parsing.text import printable

__all__ = ["MAX_WARNINGS", "read_ecf_list"]

MAX_WARNINGS = 100
"""Warnings kept one by one; later ones are only counted."""

_HEADER_SEARCH = 10
"""Non-empty lines searched for the header (a saved file may start with a title)."""

_CODE = re.compile(r"^\d{6}[A-Z]$")
_RATING = re.compile(r"^(\d{1,4})(?:\.0+)?\s*([A-Z*])?$")
_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d)(?!\d)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MIN_RATING, _MAX_RATING = 1, 3500

_FIELDS: dict[str, tuple[str, ...]] = {
    "code": ("ecfcode", "ecfref", "ref", "code", "refcode", "gradingcode", "ecfgradingcode",
             "ratingcode", "ecfratingcode"),
    "name": ("fullname", "name", "playername", "player"),
    "fide": ("fideno", "fideid", "fidecode", "fidenumber", "fin"),
    "sex": ("gender", "sex"),
    "nation": ("nation", "federation", "fed", "nationality", "country"),
    "club": ("clubname", "club", "club1"),
    "birth": ("dateofbirth", "dob", "birthdate", "yearofbirth", "birthyear", "yob", "born"),
}
"""Folded header names of each field, first match wins."""

_LISTS: dict[RatingList, tuple[str, ...]] = {
    RatingList.STANDARD: ("standard", "std"),
    RatingList.RAPID: ("rapid", "rapidplay", "rp"),
    RatingList.BLITZ: ("blitz",),
}


def _rating_names(words: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...],
                                                    tuple[str, ...], tuple[str, ...]]:
    """(revised rating, its category, original rating, its category) header names of a list."""
    revised = tuple(n for w in words for n in (f"revised{w}", f"{w}revised", f"{w}revisedrating",
                                               f"{w}rating", f"{w}", f"current{w}", f"{w}grade"))
    revised_cat = tuple(n for w in words for n in (f"{w}revisedcategory", f"revised{w}category",
                                                   f"{w}category", f"{w}cat", f"{w}ratingcategory"))
    original = tuple(n for w in words for n in (f"original{w}", f"{w}original",
                                                f"{w}originalrating"))
    original_cat = tuple(n for w in words for n in (f"{w}originalcategory",
                                                    f"original{w}category"))
    return revised, revised_cat, original, original_cat


def _fold(name: str) -> str:
    """A header as compared: lower case, letters and digits only ('ECF code' → 'ecfcode')."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True, slots=True)
class _ListColumns:
    """Where one list's rating and category are: the revised columns, else the original."""

    rating: int
    category: int | None


@dataclass(frozen=True, slots=True)
class _Layout:
    """The columns found in a header (indices; None where the file has no such column)."""

    code: int
    name: int
    fide: int | None
    sex: int | None
    nation: int | None
    club: int | None
    birth: int | None
    lists: dict[RatingList, _ListColumns]
    width: int


def _find(folded: Sequence[str], names: Sequence[str]) -> int | None:
    for name in names:
        if name in folded:
            return folded.index(name)
    return None


def _layout(header: Sequence[str]) -> _Layout | None:
    """The columns of a header, or None when it is not the ECF list's (no code or name
    column, or no rating column)."""
    folded = [_fold(h) for h in header]
    found = {key: _find(folded, names) for key, names in _FIELDS.items()}
    code, name = found["code"], found["name"]
    if code is None or name is None:
        return None
    lists: dict[RatingList, _ListColumns] = {}
    for rating_list, words in _LISTS.items():
        revised, revised_cat, original, original_cat = _rating_names(words)
        rating = _find(folded, revised)
        category = _find(folded, revised_cat)
        if rating is None:  # an older export: only the list as first published
            rating, category = _find(folded, original), _find(folded, original_cat)
        if rating is not None:
            lists[rating_list] = _ListColumns(rating, category)
    if not lists:
        return None
    return _Layout(code, name, found["fide"], found["sex"], found["nation"], found["club"],
                   found["birth"], lists, len(header))


class _Reader:
    """Rows → entries, collecting the warnings."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.skipped = 0
        self.count = 0
        self.seen: dict[str, int] = {}

    def warn(self, message: str, line: int | None = None) -> None:
        self.count += 1
        if len(self.warnings) >= MAX_WARNINGS:
            return
        if line is None:
            where = self.source
        else:
            where = f"{self.source}:{line}" if self.source else f"line {line}"
        self.warnings.append(f"{where}: {message}" if where else message)

    def skip(self, line: int, reason: str) -> None:
        self.skipped += 1
        self.warn(f"{reason}; line skipped", line)

    def entries(self, layout: _Layout, row: Sequence[str], line: int) -> list[NationalEntry]:
        """The row's entries (none when the player has no rating), or [] with a warning."""
        row = list(row)
        while len(row) > layout.width and not row[-1].strip():
            row.pop()  # empty cells a spreadsheet added at the end
        if len(row) > layout.width:
            self.skip(line, f"{len(row)} cells where the header has {layout.width} (a comma "
                            "in a name not quoted?)")
            return []

        def cell(index: int | None) -> str:
            return printable(row[index]).strip() if index is not None and index < len(row) else ""

        code = cell(layout.code).upper()
        if not code:
            self.skip(line, "no ECF code")
            return []
        if not _CODE.match(code):
            self.skip(line, f"{code[:20]!r} is not an ECF code (six digits and a letter)")
            return []
        name = cell(layout.name)
        if not name:
            self.skip(line, f"{code}: no name")
            return []
        if code in self.seen:
            self.skip(line, f"{code} repeats line {self.seen[code]}")
            return []
        self.seen[code] = line
        fide = cell(layout.fide)
        if fide.endswith(".0"):
            fide = fide[:-2]  # a spreadsheet's number
        if fide and not fide.isdigit():
            self.warn(f"{code}: FIDE id {fide[:20]!r} is not a number; left out", line)
            fide = ""
        fide = fide.lstrip("0")
        sex = cell(layout.sex).upper()
        nation = cell(layout.nation).upper()
        player = NationalEntry(system="ecf", national_id=code, name=name, fide_id=fide,
                               sex=sex if sex in ("M", "F") else "", club=cell(layout.club),
                               federation=nation if re.fullmatch(r"[A-Z]{3}", nation) else "",
                               birth_year=_birth_year(cell(layout.birth)))
        out: list[NationalEntry] = []
        for rating_list, cols in layout.lists.items():
            text = cell(cols.rating)
            if not text:
                continue
            parsed = _RATING.match(text.upper())
            if parsed is None:
                self.warn(f"{code}: {rating_list} rating {text[:20]!r} is not a rating; left out",
                          line)
                continue
            value = int(parsed[1])
            if value == 0:
                continue  # no rating
            if not _MIN_RATING <= value <= _MAX_RATING:
                self.warn(f"{code}: {rating_list} rating {value} is not plausible; left out", line)
                continue
            category = cell(cols.category).upper()[:3] if cols.category is not None else ""
            out.append(replace(player, rating_list=rating_list, rating=value,
                               category=category or parsed[2] or ""))
        return out


def _birth_year(text: str) -> int | None:
    """A year of birth from a date or year cell ('2011-04-30', '30/04/2011', '2011')."""
    found = _YEAR.search(text)
    return int(found[1]) if found else None


def _decode(data: bytes, source: str) -> str:
    """UTF-8 (with or without BOM), else cp1252 as a spreadsheet saves it, else Latin-1."""
    if not data.strip():
        raise InputError("empty file: not an ECF rating list", source=source)
    if data.startswith(b"PK\x03\x04"):
        raise InputError("a ZIP archive: unpack the ECF rating list (CSV) first", source=source)
    if b"\x00" in data[:4096]:
        raise InputError("binary data, not the ECF rating list (a CSV text file)", source=source)
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _cells(line: str, delimiter: str) -> list[str]:
    """One line's cells (csv.Error for a line the csv module cannot read, e.g. an open quote)."""
    (cells,) = csv.reader([line], delimiter=delimiter, strict=True)
    return cells


def _csv_rows(text: str, reader: _Reader) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of each non-empty line: first the header, the first of the first
    lines that reads as the ECF list's in one of the delimiters ``,`` ``;`` tab (a saved file
    may start with a title); then the rows in its delimiter, a line the csv module cannot
    read skipped with a warning.  Nothing when no header is found."""
    lines = _LINE_BREAK.split(text)
    filled = [i for i, line in enumerate(lines) if line.strip()][:_HEADER_SEARCH]
    found = next(((i, d) for i in filled for d in (",", ";", "\t")
                  if _layout(_safe_cells(lines[i], d)) is not None), None)
    if found is None:
        return
    first, delimiter = found
    yield first + 1, _cells(lines[first], delimiter)
    for number, line in enumerate(lines[first + 1:], first + 2):
        if not line.strip():
            continue
        try:
            cells = _cells(line, delimiter)
        except csv.Error as exc:
            reader.skip(number, f"not a CSV line ({exc})")
            continue
        yield number, cells


def _safe_cells(line: str, delimiter: str) -> list[str]:
    try:
        return _cells(line, delimiter)
    except csv.Error:
        return []


def _json_rows(text: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """The rating API's JSON answer as rows: the header, then one per player (line = row)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"not valid JSON ({exc})", source=source) from None
    names = data.get("column_names") if isinstance(data, dict) else None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(names, list) or not isinstance(players, list):
        raise InputError("JSON without 'column_names' and 'players': not the ECF rating list",
                         source=source)
    yield 1, ["" if n is None else str(n) for n in names]
    for number, player in enumerate(players, 2):
        values = ([player.get(str(n)) for n in names] if isinstance(player, dict)
                  else player if isinstance(player, list) else [])
        yield number, ["" if v is None or isinstance(v, bool) else str(v) for v in values]


def read_ecf_list(data: bytes, *, source: str = "") -> NationalList:
    """Read the ECF's rating list download (CSV, or the rating API's JSON); see the module
    docstring.  *source* names the file in messages.  InputError when it is not such a list.
    """
    text = _decode(data, source)
    reader = _Reader(source)
    rows = _json_rows(text, source) if text.lstrip().startswith("{") else _csv_rows(text, reader)
    layout: _Layout | None = None
    entries: list[NationalEntry] = []
    for number, cells in rows:
        if layout is None:
            layout = _layout(cells)
            if layout is None:
                break
            continue
        if not any(c.strip() for c in cells):
            reader.skip(number, "not a player row")
            continue
        entries.extend(reader.entries(layout, cells, number))
    if layout is None:
        raise InputError("not the ECF rating list: no header with an ECF code, a name and a "
                         "rating column (e.g. ECF_code, full_name, revised_standard)",
                         source=source)
    if reader.count > MAX_WARNINGS:
        reader.warnings.append(f"{source or 'the list'}: {reader.count} warnings in all "
                               f"({reader.skipped} lines skipped)")
    return NationalList("ecf", tuple(entries), None, source, tuple(reader.warnings))
