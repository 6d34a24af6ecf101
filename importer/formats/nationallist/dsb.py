"""The DSB's public DWZ list export → :class:`~importer.formats.nationallist.model.NationalList`.

The DSB publishes its list as ``LV-<n>-csv`` zip archives (``LV-0`` is all of Germany) of
``spieler.csv`` (one line per club membership), ``vereine.csv`` (clubs by ZPS) and
``verbaende.csv``, comma-separated, quoted where needed, in Windows-1252 with CRLF line ends.
Two layouts are known, told apart by the header:

* DeWIS (until 2025): ``ZPS,Mgl_Nr,Status,Spielername,Geschlecht,Spielberechtigung,
  Geburtsjahr,Letzte_Auswertung,DWZ,Index,FIDE_Elo,FIDE_Titel,FIDE_ID,FIDE_Land`` (some copies
  write the names with hyphens or add a leading ``ID``/``PKZ``);
* nuLiga's "Wertungsportal" (from 2025/2026): ``ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",
  Geschlecht,Spielberechtigung,Geburtsjahr,"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,
  FIDE-Titel,FIDE-ID,FIDE-Land,Vorname,Nachname`` (sex M/W; ``ID`` the nu person id).

Columns are found by name (case, spaces, hyphens and underscores ignored), so reordered or
added columns are read too; a file saved again with semicolons or tabs, or as UTF-8 (with a
byte-order mark), is read as well.  The national id is ``ZPS-Mitgliedsnummer`` as printed
(e.g. ``10401-123``), else the list's own ``ID``.  A line that cannot be read is skipped and
named in the warnings; a file that is not such a list raises :class:`InputError` naming what
was expected.  Pure: bytes in, records out.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from importer.errors import InputError
from importer.formats.nationallist.model import NationalEntry, NationalList
from importer.model import RatingList

__all__ = ["MAX_MEMBER_BYTES", "MAX_WARNINGS", "read_dsb_list"]

MAX_MEMBER_BYTES: Final = 256 * 1024 * 1024
"""A zipped member larger than this (declared or read) is refused (spieler.csv of all of
Germany is about 10 MB)."""

MAX_WARNINGS: Final = 1000
"""Warnings kept; later ones are only counted."""

SYSTEM: Final = "dwz"

_EXPECTED = ("the DSB's spieler.csv: a header with ZPS and Mgl_Nr (or Mitgliedsnummer, or "
             "ID), Spielername (or \"Name,Vorname\") and DWZ, e.g. "
             "ZPS,Mgl_Nr,Status,Spielername,Geschlecht,Spielberechtigung,Geburtsjahr,"
             "Letzte_Auswertung,DWZ,Index,FIDE_Elo,FIDE_Titel,FIDE_ID,FIDE_Land")

_ALIASES: Final[dict[str, frozenset[str]]] = {
    "id": frozenset({"id", "pkz", "nuid", "personid"}),
    "zps": frozenset({"zps", "vkz", "vereinskennziffer"}),
    "member": frozenset({"mglnr", "mitgliedsnummer", "mglnummer", "mitgliedsnr"}),
    "status": frozenset({"status"}),
    "name": frozenset({"spielername", "namevorname", "name"}),
    "first": frozenset({"vorname"}),
    "last": frozenset({"nachname"}),
    "sex": frozenset({"geschlecht"}),
    "eligibility": frozenset({"spielberechtigung"}),
    "birth": frozenset({"geburtsjahr", "geburtsdatum"}),
    "evaluated": frozenset({"letzteauswertung"}),
    "dwz": frozenset({"dwz"}),
    "index": frozenset({"index", "dwzindex"}),
    "elo": frozenset({"fideelo", "fideelozahl", "elo"}),
    "title": frozenset({"fidetitel"}),
    "fide_id": frozenset({"fideid"}),
    "country": frozenset({"fideland"}),
}
"""Each field → the normalized header names it goes by."""

_DELIMITERS: Final = (",", ";", "\t", "|")
_STAND = re.compile(r"stand\W{0,3}(\d{1,2})\.(\d{1,2})\.(\d{4})|stand\W{0,3}(\d{4})-(\d{2})-(\d{2})",
                    re.IGNORECASE)
_COMMA = re.compile(r",\s*")
"""The DSB prints 'Surname,Given': the model's form is 'Surname, Given'."""
_BIRTH = re.compile(r"(?:^|\D)(\d{4})(?:\D|$)")


def _key(cell: str) -> str:
    """A header cell normalized: 'Mgl-Nr' → 'mglnr', '"Name,Vorname"' → 'namevorname'."""
    text = unicodedata.normalize("NFKD", cell.replace("\ufeff", "")).lower()
    return "".join(ch for ch in text if ch.isalnum() and ch.isascii())


def _decode(data: bytes) -> str:
    """UTF-8 (a byte-order mark is dropped) when the bytes are valid UTF-8, else
    Windows-1252 as the DSB writes it, else Latin-1 (which cannot fail)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _split(line: str, delimiter: str) -> list[str]:
    """One line's fields (a line with a broken quote still gives its fields)."""
    try:
        return next(csv.reader([line], delimiter=delimiter, skipinitialspace=False), [])
    except csv.Error:
        return line.split(delimiter)


@dataclass(frozen=True, slots=True)
class _Layout:
    delimiter: str
    columns: dict[str, int]
    """Field → column number."""

    @property
    def width(self) -> int:
        """The fewest fields a line needs: up to the last column read."""
        return max(self.columns.values()) + 1


def _layout(header: str) -> _Layout | None:
    """The delimiter and columns of a header line, or None when it is no DSB header."""
    best: _Layout | None = None
    for delimiter in _DELIMITERS:
        keys = [_key(c) for c in _split(header, delimiter)]
        columns: dict[str, int] = {}
        for field_name, names in _ALIASES.items():
            found = next((i for i, k in enumerate(keys) if k in names), None)
            if found is not None:
                columns[field_name] = found
        if best is None or len(columns) > len(best.columns):
            best = _Layout(delimiter, columns)
    if best is None:
        return None
    cols = best.columns
    named = "name" in cols or ("first" in cols and "last" in cols)
    identified = ("zps" in cols and "member" in cols) or "id" in cols
    return best if named and identified and "dwz" in cols else None


class _Warnings:
    def __init__(self, source: str) -> None:
        self.kept: list[str] = []
        self.more = 0
        self.source = source

    def add(self, line: int, message: str) -> None:
        if len(self.kept) < MAX_WARNINGS:
            where = f"{self.source}:{line}" if self.source else f"line {line}"
            self.kept.append(f"{where}: {message}: skipped")
        else:
            self.more += 1

    def all(self) -> tuple[str, ...]:
        tail = (f"… and {self.more} more lines skipped",) if self.more else ()
        return (*self.kept, *tail)


class _BadLine(ValueError):
    """A line that cannot be read (the message says why)."""


def _whole(cell: str, what: str, *, digits: int = 5) -> int | None:
    """A whole number cell: None when empty or 0 ('no value' in the DSB's lists)."""
    text = cell.strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > digits:
        raise _BadLine(f"{what} {text[:20]!r} is not a whole number")
    value = int(text)
    return value or None


def _birth_year(cell: str) -> int | None:
    """A birth year, or the year of a birth date ('1987', '1987-05-01', '01.05.1987')."""
    text = cell.strip()
    if not text or text.strip("0") == "":
        return None
    found = _BIRTH.search(text)
    if found is None:
        raise _BadLine(f"birth year {text[:20]!r} is not a year")
    return int(found.group(1))


def _sex(cell: str) -> str:
    text = cell.strip().upper()
    return {"M": "M", "W": "F", "F": "F"}.get(text, "")


def _entry(fields: list[str], layout: _Layout, clubs: dict[str, str]) -> NationalEntry:
    cols = layout.columns

    def get(name: str) -> str:
        i = cols.get(name)
        return fields[i].strip() if i is not None and i < len(fields) else ""

    if len(fields) < layout.width:
        raise _BadLine(f"expected {layout.width} fields, found {len(fields)}")
    zps, member, own_id = get("zps"), get("member"), get("id")
    national_id = f"{zps}-{member}" if zps and member else own_id
    if not national_id:
        raise _BadLine("no ZPS and member number (nor ID)")
    name = get("name")
    if not name and get("last"):
        name = f"{get('last')}, {get('first')}".strip(", ")
    if not name:
        raise _BadLine("no player name")
    name = _COMMA.sub(", ", name, count=1)
    rating = _whole(get("dwz"), "DWZ", digits=4)
    index = _whole(get("index"), "index", digits=4) if rating is not None else None
    fide_id = get("fide_id")
    if fide_id and not fide_id.isdigit():
        raise _BadLine(f"FIDE id {fide_id[:20]!r} is not a number")
    return NationalEntry(
        system=SYSTEM, national_id=national_id, name=name, rating_list=RatingList.STANDARD,
        rating=rating, evaluations=index, birth_year=_birth_year(get("birth")),
        fide_id="" if fide_id.strip("0") == "" else fide_id, federation=get("country").upper(),
        club=clubs.get(zps, zps), sex=_sex(get("sex")), category="",
        last_evaluated=get("evaluated"))


# --- zip archives and their other members ---

def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, source: str) -> bytes:
    where = f"{source}!{member.filename}" if source else member.filename
    if member.file_size > MAX_MEMBER_BYTES:
        raise InputError(f"{member.file_size:,} bytes declared: larger than any DSB list "
                         f"({MAX_MEMBER_BYTES:,} at most)", source=where)
    with archive.open(member) as stream:
        data = stream.read(MAX_MEMBER_BYTES + 1)
    if len(data) > MAX_MEMBER_BYTES:
        raise InputError(f"more than {MAX_MEMBER_BYTES:,} bytes: larger than any DSB list",
                         source=where)
    return data


def _unzip(data: bytes, source: str) -> tuple[bytes, str, dict[str, str], dt.date | None]:
    """spieler.csv (or the one CSV member) of a DSB zip, its name, the clubs of vereine.csv
    and the date a README states ('Stand: 01.09.2026')."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            csvs = [m for m in members if m.filename.lower().endswith(".csv")]
            players = [m for m in csvs if m.filename.lower().rsplit("/", 1)[-1] == "spieler.csv"]
            if not players and len(csvs) == 1:
                players = csvs
            if not players:
                names = ", ".join(m.filename for m in members[:10]) or "nothing"
                raise InputError(f"the zip holds no spieler.csv (it holds {names}): expected "
                                 "the DSB's LV-0-csv archive", source=source)
            chosen = players[0]
            body = _read_member(archive, chosen, source)
            clubs: dict[str, str] = {}
            published: dt.date | None = None
            for m in members:
                base = m.filename.lower().rsplit("/", 1)[-1]
                if base == "vereine.csv":
                    clubs = _clubs(_decode(_read_member(archive, m, source)))
                elif base.endswith(".txt") and published is None:
                    published = _stand(_decode(_read_member(archive, m, source)))
            return body, chosen.filename, clubs, published
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise InputError(f"not a readable zip archive ({exc})", source=source) from None


def _clubs(text: str) -> dict[str, str]:
    """ZPS → club name from vereine.csv (``ZPS,LV,Verband,Vereinname``); {} if unreadable."""
    lines = text.splitlines()
    if not lines:
        return {}
    header = [_key(c) for c in _split(lines[0], ",")]
    zps = next((i for i, k in enumerate(header) if k in {"zps", "vkz"}), 0)
    name = next((i for i, k in enumerate(header) if k in {"vereinname", "verein", "name"}), 3)
    clubs: dict[str, str] = {}
    for line in lines[1:]:
        fields = _split(line, ",")
        if len(fields) > max(zps, name) and fields[zps].strip():
            clubs[fields[zps].strip()] = fields[name].strip()
    return clubs


def _stand(text: str) -> dt.date | None:
    """The date after 'Stand' in a README, or None."""
    found = _STAND.search(text)
    if found is None:
        return None
    day, month, year = ((found.group(1), found.group(2), found.group(3)) if found.group(3)
                        else (found.group(6), found.group(5), found.group(4)))
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


# --- the reader ---

def read_dsb_list(data: bytes, *, source: str = "") -> NationalList:
    """Read the DSB's ``spieler.csv`` (or its zip, e.g. ``LV-0-csv.zip``) from *data*.

    Raises :class:`InputError` (naming *source* and the line) when the data is not such a
    list; lines that cannot be read are skipped and named in the list's warnings.
    """
    clubs: dict[str, str] = {}
    published: dt.date | None = None
    where = source
    if data[:4] == b"PK\x03\x04":
        data, member, clubs, published = _unzip(data, source)
        where = f"{source}!{member}" if source else member
    text = _decode(data)
    if "\x00" in text[:4096]:
        raise InputError("binary data, not a CSV file: expected " + _EXPECTED, source=where)
    lines: Iterator[tuple[int, str]] = enumerate(text.splitlines(), 1)
    header_line = 0
    layout: _Layout | None = None
    for number, line in lines:
        if not line.strip():
            continue
        header_line, layout = number, _layout(line)
        break
    if header_line == 0:
        raise InputError("empty file: expected " + _EXPECTED, source=where)
    if layout is None:
        raise InputError("not a DSB list header: expected " + _EXPECTED, source=where,
                         line=header_line)
    warnings = _Warnings(where)
    entries: list[NationalEntry] = []
    for number, line in lines:
        if not line.strip():
            continue
        try:
            entries.append(_entry(_split(line, layout.delimiter), layout, clubs))
        except _BadLine as exc:
            warnings.add(number, str(exc))
    if not entries and warnings.kept:
        raise InputError(f"no line could be read ({warnings.kept[0]})", source=where)
    return NationalList(SYSTEM, tuple(entries), published=published, source=source,
                        warnings=warnings.all())
