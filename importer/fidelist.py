"""FIDE rating list downloads (TXT or XML, plain or zipped) → a column store, streamed.

Every official layout is detected by content: the TXT header's tokens (columns are taken
from the token positions, spec Part B5) or the XML root. Broken lines are skipped and
reported in :attr:`FideList.warnings`; unreadable input raises :class:`InputError`.

Ratings, games and K are held per list ('standard', 'rapid', 'blitz') in explicit fields
``std_rating, std_games, std_k, rpd_…, blz_…``; unrated (blank or ``0``) is ``None``, as
are a K or birth year of ``0``. A single-type list fills only its own list's fields. The
pre-2012 list's TRF06 title letters are mapped (``g`` → GM, ``wg`` → women's title WGM…)
and, having no Sex column, its sex is taken from the ``w`` flag.
"""

from __future__ import annotations

import datetime as dt
import io
import operator
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Callable, Collection, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from importer.errors import InputError, UnknownFormat

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FRAME_DTYPES",
    "LISTS",
    "MAX_MEMBER_BYTES",
    "FideList",
    "ListEntry",
    "read_fide_list",
]

Array = npt.NDArray[Any]
WarningHook = Callable[[str], None]

MAX_MEMBER_BYTES: Final = 1 << 30
"""A zip member may not expand past this many bytes (declared or actually read)."""
MAX_WARNINGS: Final = 1000
"""Warnings kept (and passed to ``on_warning``) per list; a summary counts the rest."""
CHUNK_BYTES: Final = 8 << 20
MAX_LINE_BYTES: Final = 1 << 16

LISTS: Final = ("standard", "rapid", "blitz")
_PREFIX: Final = {"standard": "std", "rapid": "rpd", "blitz": "blz"}
STRING_FIELDS: Final = ("fide_id", "name", "federation", "sex", "title", "w_title", "o_title",
                        "foa_title", "flags")
RATING_FIELDS: Final = tuple(f"{p}_{v}" for p in ("std", "rpd", "blz")
                             for v in ("rating", "games", "k"))
INT_FIELDS: Final = ("birth_year", *RATING_FIELDS)
FRAME_DTYPES: Final[dict[str, str]] = {
    **dict.fromkeys(STRING_FIELDS, "string"), "birth_year": "Int16",
    **{f: ("Int64" if f.endswith("_rating") else "Int16") for f in RATING_FIELDS},
}
"""The columns of :meth:`FideList.to_frame`, in order, with their pandas dtypes."""

# Values that mean "absent": ratings, K and birth years of 0 are unrated / unknown.
_ZERO_IS_NA: Final = frozenset(f for f in INT_FIELDS if not f.endswith("_games"))
_MAX_DIGITS: Final = 4

_HEADER_TOKENS: Final = {
    "name": "name", "fed": "federation", "sex": "sex", "tit": "title", "titl": "title",
    "wtit": "w_title", "otit": "o_title", "foa": "foa_title",
    "srtng": "std_rating", "rtng": "std_rating", "sgm": "std_games", "gms": "std_games",
    "games": "std_games", "sk": "std_k", "k": "std_k",
    "rrtng": "rpd_rating", "rgm": "rpd_games", "rk": "rpd_k",
    "brtng": "blz_rating", "bgm": "blz_games", "bk": "blz_k",
    "b-day": "birth_year", "bday": "birth_year", "born": "birth_year", "flag": "flags",
}
_XML_TAGS: Final = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title",
    "rating": "std_rating", "games": "std_games", "k": "std_k",
    "rapid_rating": "rpd_rating", "rapid_games": "rpd_games", "rapid_k": "rpd_k",
    "blitz_rating": "blz_rating", "blitz_games": "blz_games", "blitz_k": "blz_k",
    "birthday": "birth_year", "flag": "flags",
}
_MONTHS: Final = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                  "dec")
_MONTH_TOKEN: Final = re.compile(rf"(?i)({'|'.join(_MONTHS)})(\d\d)")
_ARCHIVE_NAME: Final = re.compile(rf"(?i)({'|'.join(_MONTHS)})(\d\d)frl")
# TRF06 one-letter titles of the pre-2012 list → (title, women's title).
_OLD_TITLES: Final = {b"g": (b"GM", b""), b"m": (b"IM", b""), b"f": (b"FM", b""),
                      b"c": (b"CM", b""), b"wg": (b"", b"WGM"), b"wm": (b"", b"WIM"),
                      b"wf": (b"", b"WFM"), b"wc": (b"", b"WCM")}
_XML_PROLOG: Final = re.compile(rb"\A(?:\s+|<\?.*?\?>|<!--.*?-->)*<([A-Za-z_][\w.-]*)", re.S)
_EXPECTED: Final = ("a FIDE rating list: a TXT header line starting 'ID Number' "
                    "or XML with a <playerslist> root")


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One player on one rating list. Ratings/games/K are None when absent or unrated."""

    fide_id: str
    name: str
    federation: str
    sex: str
    title: str
    birth_year: int | None
    flags: str
    w_title: str = ""
    o_title: str = ""
    foa_title: str = ""
    std_rating: int | None = None
    std_games: int | None = None
    std_k: int | None = None
    rpd_rating: int | None = None
    rpd_games: int | None = None
    rpd_k: int | None = None
    blz_rating: int | None = None
    blz_games: int | None = None
    blz_k: int | None = None

    @property
    def inactive(self) -> bool:
        """Flag ``i``: inactive on this list."""
        return "i" in self.flags

    @property
    def woman(self) -> bool:
        """Flag ``w``."""
        return "w" in self.flags

    def rating(self, rating_list: str) -> int | None:
        """The rating on 'standard', 'rapid' or 'blitz' (a :class:`RatingList` works too)."""
        return self._get(rating_list, "rating")

    def games(self, rating_list: str) -> int | None:
        """Games rated in the period that produced this list."""
        return self._get(rating_list, "games")

    def k(self, rating_list: str) -> int | None:
        """The K factor published on this list (valid at this list date)."""
        return self._get(rating_list, "k")

    def _get(self, rating_list: str, what: str) -> int | None:
        value: int | None = getattr(self, f"{_PREFIX[str(rating_list)]}_{what}")
        return value


class FideList:
    """A loaded rating list as columns: ``len()``, ``get(fide_id)``, ``to_frame()``.

    ``format`` is 'foa', 'legacy', 'single', 'old', 'xml-combined' or 'xml-single';
    ``lists`` the rating lists it holds; ``list_date`` the first of the list's month
    when the header, the file name or the caller tells, else None.
    """

    def __init__(self, columns: dict[str, Array], *, fmt: str, lists: tuple[str, ...],
                 list_date: dt.date | None, source: str, warnings: list[str]) -> None:
        self._cols = columns
        self.format = fmt
        self.lists = lists
        self.list_date = list_date
        self.source = source
        self.warnings = warnings
        # Rows in id order (stable: a repeated id's first line first) and the sorted ids.
        order = np.argsort(columns["_key"], kind="stable")
        self._index = order, columns["_key"][order]

    def __len__(self) -> int:
        return len(self._cols["_key"])

    def __repr__(self) -> str:
        return (f"<FideList {self.format} {'/'.join(self.lists)} {self.list_date or 'undated'}: "
                f"{len(self)} players, {len(self.warnings)} warnings from {self.source}>")

    def __contains__(self, fide_id: object) -> bool:
        return isinstance(fide_id, str) and self._find(fide_id) is not None

    def __iter__(self) -> Iterator[ListEntry]:
        for row in range(len(self)):
            yield self._entry(row)

    def get(self, fide_id: str) -> ListEntry | None:
        """The player with this id (the first line if the id repeats), or None."""
        row = self._find(fide_id)
        return None if row is None else self._entry(row)

    def line_of(self, fide_id: str) -> int | None:
        """The source line (TXT) or the ``<player>`` line (XML) of this id."""
        row = self._find(fide_id)
        return None if row is None else int(self._cols["_line"][row])

    def to_frame(self) -> pd.DataFrame:
        """One row per player, columns and dtypes as :data:`FRAME_DTYPES`; unrated is <NA>."""
        import pandas as pd

        data: dict[str, Any] = {}
        for name, dtype in FRAME_DTYPES.items():
            values = self._cols[name]
            if dtype == "string":
                texts = _decode_all(values)
                if name not in ("fide_id", "name"):  # few distinct values: share the objects
                    texts = list(map(sys.intern, texts))
                data[name] = pd.arrays.StringArray(np.array(texts, dtype=object))
            else:
                data[name] = pd.arrays.IntegerArray(
                    values.astype(np.int64 if dtype == "Int64" else np.int16), values < 0)
        return pd.DataFrame(data, copy=False)

    def _find(self, fide_id: str) -> int | None:
        text = str(fide_id).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 18:
            return None
        order, keys = self._index
        key = int(text)
        lo, hi = np.searchsorted(keys, [key, key + 1])
        want = text.encode()
        for row in order[lo:hi]:
            if self._cols["fide_id"][row] == want:
                return int(row)
        return None

    def _entry(self, row: int) -> ListEntry:
        values: dict[str, Any] = {f: _decode(self._cols[f][row]) for f in STRING_FIELDS}
        for f in INT_FIELDS:
            v = int(self._cols[f][row])
            values[f] = None if v < 0 else v
        return ListEntry(**values)


def read_fide_list(source: str | os.PathLike[str] | bytes, *,
                   fide_ids: Collection[str] | None = None,
                   on_warning: WarningHook | None = None,
                   kind: str | None = None, list_date: dt.date | None = None,
                   max_member_bytes: int = MAX_MEMBER_BYTES) -> FideList:
    """Load a FIDE rating list: a TXT or XML download, or a .zip holding one.

    ``fide_ids`` keeps only those players (only their lines are validated);
    ``on_warning`` is called with each warning as it is found. ``kind`` names the list of a
    single-type download ('standard', 'rapid', 'blitz'; else taken from the file name, else
    standard); ``list_date`` overrides the date taken from the header or file name. A zip
    member may not expand past ``max_member_bytes``.
    """
    if kind is not None and kind not in LISTS:
        raise ValueError(f"kind must be one of {LISTS}, not {kind!r}")
    with ExitStack() as stack:
        stream, name = _open(source, max_member_bytes, stack)
        builder = _Builder(name, fide_ids, on_warning)
        try:
            _read(stream, builder)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise InputError(f"corrupt zip member: {exc}", source=name) from None
        return builder.finish(kind, list_date)


def _read(stream: _Stream, builder: _Builder) -> None:
    """Detect the layout from the first bytes and read the whole stream into ``builder``."""
    head = stream.read(CHUNK_BYTES)
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if not head.strip():
        raise InputError(f"empty file; expected {_EXPECTED}", source=builder.name)
    if b"\x00" in head[:4096]:
        raise UnknownFormat(f"binary content; expected {_EXPECTED}", source=builder.name)
    if head.lstrip()[:1] == b"<":
        _read_xml(head, stream, builder)
    else:
        _read_txt(head, stream, builder)


# ---------------------------------------------------------------------------- input streams


class _Stream:
    """A binary reader that refuses to read past ``limit`` bytes; ``unread`` puts data back."""

    def __init__(self, raw: IO[bytes], name: str, limit: int | None) -> None:
        self.raw, self.name, self.limit = raw, name, limit
        self.pending = b""
        self.offset = 0
        self.count = 0

    def unread(self, data: bytes) -> None:
        """Serve ``data`` before the rest of the stream."""
        self.pending, self.offset = data, 0

    def read(self, size: int = -1) -> bytes:
        if self.offset < len(self.pending):
            end = len(self.pending) if size < 0 else self.offset + size
            data = self.pending[self.offset:end]
            self.offset += len(data)
            return data
        data = self.raw.read(size if size >= 0 else CHUNK_BYTES)
        self.count += len(data)
        if self.limit is not None and self.count > self.limit:
            raise InputError(f"zip member expands past {self.limit} bytes", source=self.name)
        return data


class _XmlGuard:
    """Feeds lxml, refusing any DTD or entity declaration on the way."""

    def __init__(self, stream: _Stream) -> None:
        self.stream = stream
        self.tail = b""

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        window = self.tail + data
        if b"<!DOCTYPE" in window or b"<!ENTITY" in window:
            raise InputError("entity declarations are not allowed (DOCTYPE/ENTITY found)",
                             source=self.stream.name)
        self.tail = window[-8:]
        return data


def _open(source: str | os.PathLike[str] | bytes, limit: int,
          stack: ExitStack) -> tuple[_Stream, str]:
    """The list's byte stream (the member, for a zip) and a name for messages."""
    raw: IO[bytes]
    if isinstance(source, bytes | bytearray):
        name, raw = "<bytes>", io.BytesIO(source)
    else:
        name = os.fspath(source)
        try:
            raw = stack.enter_context(open(name, "rb"))  # noqa: SIM115
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", source=name) from None
    magic = raw.read(4)
    raw.seek(0)
    if magic != b"PK\x03\x04":
        return _Stream(raw, name, None), name
    try:
        archive = stack.enter_context(zipfile.ZipFile(raw))
        members = [m for m in archive.infolist() if not m.is_dir()]
        lists = [m for m in members if m.filename.lower().endswith((".txt", ".xml"))]
        if len(members) == 1:
            lists = members
        if len(lists) != 1:
            found = ", ".join(m.filename for m in members) or "nothing"
            raise InputError(f"expected one .txt or .xml list in the zip, found {found}",
                             source=name)
        member = lists[0]
        where = f"{name}[{member.filename}]"
        if member.file_size > limit:
            raise InputError(f"zip member expands past {limit} bytes "
                             f"(declares {member.file_size})", source=where)
        if member.flag_bits & 0x1:
            raise InputError("zip member is encrypted", source=where)
        stream = stack.enter_context(archive.open(member))
    except (zipfile.BadZipFile, NotImplementedError, zlib.error, EOFError) as exc:
        raise InputError(f"not a readable zip: {exc}", source=name) from None
    return _Stream(stream, where, limit), where


# ---------------------------------------------------------------------------- building


class _Builder:
    """Collects column blocks and warnings; turns them into a :class:`FideList`."""

    def __init__(self, name: str, fide_ids: Collection[str] | None,
                 on_warning: WarningHook | None) -> None:
        self.name = name
        self.on_warning = on_warning
        self.warnings: list[str] = []
        self.skipped = 0
        self.blocks: list[dict[str, Array]] = []
        self.fmt = ""
        self.header_date: dt.date | None = None
        self.wanted: set[bytes] | None = None
        self.wanted_keys: Array = np.empty(0, np.int64)
        if fide_ids is not None:
            self.wanted = {str(i).strip().encode() for i in fide_ids}
            keys = [int(i) for i in self.wanted if i.isdigit() and len(i) <= 18]
            self.wanted_keys = np.array(sorted(keys), dtype=np.int64)

    def warn(self, message: str, line: int | None = None) -> None:
        """Record a warning (the first MAX_WARNINGS; later ones are only counted)."""
        if len(self.warnings) >= MAX_WARNINGS:
            return
        where = f"{self.name}:{line}" if line is not None else self.name
        text = f"{where}: {message}"
        self.warnings.append(text)
        if self.on_warning is not None:
            self.on_warning(text)

    def skip(self, line: int, reason: str) -> None:
        """Report a broken line (or record) that was left out."""
        self.skipped += 1
        self.warn(f"{reason}; line skipped", line)

    def add(self, block: dict[str, Array]) -> None:
        if len(block["_key"]):
            self.blocks.append(block)

    def finish(self, kind: str | None, list_date: dt.date | None) -> FideList:
        cols = {name: np.concatenate([b[name] for b in self.blocks]) if self.blocks
                else np.empty(0, _empty_dtype(name))
                for name in (*STRING_FIELDS, *INT_FIELDS, "_key", "_line")}
        self.blocks.clear()
        lists: tuple[str, ...] = LISTS
        if self.fmt in ("single", "xml-single", "old"):
            lists = (self._kind(kind),)
            if lists[0] != "standard":
                for what in ("rating", "games", "k"):
                    cols[f"{_PREFIX[lists[0]]}_{what}"] = cols[f"std_{what}"]
                    cols[f"std_{what}"] = np.full(len(cols["_key"]), -1, np.int16)
        date = list_date or self.header_date or _date_from_name(self.name)
        result = FideList(cols, fmt=self.fmt, lists=lists, list_date=date, source=self.name,
                          warnings=self.warnings)
        self._report_duplicates(result._index, cols["_line"], cols["fide_id"])
        if self.skipped > MAX_WARNINGS:
            self.warnings.append(f"{self.name}: {self.skipped} broken lines skipped in all")
        return result

    def _kind(self, kind: str | None) -> str:
        if kind is not None or self.fmt == "old":
            return kind or "standard"
        lowered = os.path.basename(self.name).lower()
        for name in LISTS:
            if name in lowered:
                return name
        self.warn("single-type list whose kind the file name does not tell; read as standard")
        return "standard"

    def _report_duplicates(self, index: tuple[Array, Array], lines: Array, ids: Array) -> None:
        order, ordered = index
        for pos in np.flatnonzero(ordered[1:] == ordered[:-1])[:MAX_WARNINGS]:
            first = order[np.searchsorted(ordered, ordered[pos])]
            again = order[pos + 1]
            if ids[first] == ids[again]:
                self.warn(f"FIDE id {_decode(ids[again])} repeats line {lines[first]}; "
                          "get() returns the first", int(lines[again]))


def _empty_dtype(name: str) -> str:
    if name in STRING_FIELDS:
        return "S1"
    return {"_key": "i8", "_line": "i4"}.get(name, "i2")


def _decode(value: bytes) -> str:
    try:
        return value.decode()
    except UnicodeDecodeError:
        return value.decode("latin-1")


def _decode_all(values: Array) -> list[str]:
    if not len(values):
        return []
    joined = b"\x00".join(values.tolist())
    try:
        return joined.decode().split("\x00")
    except UnicodeDecodeError:
        return [_decode(v) for v in values.tolist()]


def _month_date(month: str, yy: str) -> dt.date:
    year = int(yy)
    return dt.date(year + (1900 if year >= 70 else 2000), _MONTHS.index(month.lower()) + 1, 1)


def _date_from_name(name: str) -> dt.date | None:
    found = _ARCHIVE_NAME.findall(name)
    return _month_date(*found[-1]) if found else None


# ---------------------------------------------------------------------------- TXT


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    token: str
    start: int
    end: int


def _split_token(token: str, start: int) -> list[tuple[str, str, int]] | None:
    """A header token as (field, token, start) parts; glued tokens like TitlFed split."""
    if len(token) > 24:
        return None
    field = _HEADER_TOKENS.get(token.lower())
    if field is None and _MONTH_TOKEN.fullmatch(token):
        field = "std_rating"
    if field is not None:
        return [(field, token, start)]
    for cut in range(len(token) - 1, 0, -1):
        head = _split_token(token[:cut], start)
        if head is not None and len(head) == 1:
            tail = _split_token(token[cut:], start + cut)
            if tail is not None:
                return head + tail
    return None


def _parse_header(line: bytes, name: str) -> tuple[list[_Field], str, dt.date | None]:
    """The fields of a TXT header (by token positions), the format and the month token."""
    try:
        text = line.decode("ascii").rstrip()
    except UnicodeDecodeError:
        raise UnknownFormat(f"header line is not ASCII; expected {_EXPECTED}",
                            source=name, line=1) from None
    matches = list(re.finditer(r"\S+", text))
    if len(matches) < 2 or matches[0].group() != "ID" or matches[0].start() != 0 \
            or matches[1].group().lower() != "number":
        raise UnknownFormat(f"unknown header {text[:40]!r}; expected {_EXPECTED}",
                            source=name, line=1)
    parts: list[tuple[str, str, int]] = [("fide_id", "ID Number", 0)]
    for m in matches[2:]:
        split = _split_token(m.group(), m.start())
        if split is None:
            raise UnknownFormat(f"unknown column {m.group()[:24]!r} in the header; expected the "
                                "columns of a FIDE rating list", source=name, line=1)
        parts += split
    months = [found for _, token, _ in parts if (found := _MONTH_TOKEN.fullmatch(token))]
    month = _month_date(*months[0].groups()) if months else None
    names = [p[0] for p in parts]
    for field in names:
        if names.count(field) > 1:
            raise UnknownFormat(f"column {field} appears twice in the header", source=name,
                                line=1)
    if "name" not in names or ("std_rating" not in names and "rpd_rating" not in names):
        raise UnknownFormat("header lacks the Name or rating column", source=name, line=1)
    width = len(text)
    fields = [_Field(f, tok, s, parts[i + 1][2] if i + 1 < len(parts) else width)
              for i, (f, tok, s) in enumerate(parts)]
    if "rpd_rating" in names or "blz_rating" in names:
        fmt = "foa" if "foa_title" in names else "legacy"
    else:
        fmt = "single" if "sex" in names else "old"
    return fields, fmt, month


def _read_txt(head: bytes, stream: _Stream, builder: _Builder) -> None:
    end = head.find(b"\n")
    header = head[:end if end >= 0 else len(head)].rstrip(b"\r")
    fields, builder.fmt, builder.header_date = _parse_header(header, builder.name)
    parser = _TxtParser(fields, builder)
    carry = head[end + 1:] if end >= 0 else b""
    lineno = 2
    while True:
        data = stream.read(CHUNK_BYTES)
        if not data:
            break
        buf = carry + data
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            if len(buf) > MAX_LINE_BYTES:
                builder.skip(lineno, f"line longer than {MAX_LINE_BYTES} bytes")
                buf = _drop_line(stream)
                lineno += 1
            carry = buf
            continue
        lineno = parser.block(buf[:cut], lineno)
        carry = buf[cut:]
    if carry:
        parser.block(carry + b"\n", lineno)


def _drop_line(stream: _Stream) -> bytes:
    """Skip to the end of an overlong line; the bytes after it."""
    while True:
        data = stream.read(CHUNK_BYTES)
        cut = data.find(b"\n")
        if not data or cut >= 0:
            return data[cut + 1:] if data else b""


class _TxtParser:
    """Parses blocks of whole fixed-width lines with numpy on the bytes."""

    def __init__(self, fields: list[_Field], builder: _Builder) -> None:
        self.fields = fields
        self.builder = builder
        self.width = fields[-1].end
        self.by_name = {f.name: f for f in fields}

    def block(self, data: bytes, lineno: int) -> int:
        """Parse lines (``data`` ends with a newline); the line number after them."""
        n = data.count(b"\n")
        w = self.width
        arr = np.frombuffer(data, np.uint8)
        patches: dict[int, tuple[str, bytes]] = {}
        if len(data) == n * (w + 2) and _column_is(arr, n, w + 2, w, 13) \
                and _column_is(arr, n, w + 2, w + 1, 10):
            matrix, lines = arr.reshape(n, w + 2)[:, :w], lineno + np.arange(n)
        elif len(data) == n * (w + 1) and _column_is(arr, n, w + 1, w, 10):
            matrix, lines = arr.reshape(n, w + 1)[:, :w], lineno + np.arange(n)
        else:
            matrix, lines, patches = self._normalise(data.split(b"\n")[:-1], lineno)
        self._parse(matrix, lines.astype(np.int32), patches)
        return lineno + n

    def _normalise(self, raw_lines: list[bytes], lineno: int
                   ) -> tuple[Array, Array, dict[int, tuple[str, bytes]]]:
        """Pad trimmed lines to the header width; shift lines a string field overflows."""
        w = self.width
        out: list[bytes] = []
        lines: list[int] = []
        patches: dict[int, tuple[str, bytes]] = {}
        for i, raw in enumerate(raw_lines):
            line = raw.rstrip(b"\r")
            if len(line) > w:
                fixed = self._overflow(line)
                if fixed is None:
                    self.builder.skip(lineno + i, f"line has {len(line)} characters, "
                                      f"expected at most {w}")
                    continue
                line, patch = fixed
                if patch is not None:
                    patches[len(out)] = patch
            elif not line.strip():
                continue
            out.append(line.ljust(w))
            lines.append(lineno + i)
        matrix = np.frombuffer(b"".join(out), np.uint8).reshape(len(out), w)
        return matrix, np.array(lines, dtype=np.int64), patches

    def _overflow(self, line: bytes) -> tuple[bytes, tuple[str, bytes] | None] | None:
        """An overlong line: a text field running into the next one (the OTit overflow) is
        shifted back, with the field's whole value as a patch; trailing blanks are cut.
        None when neither fixes it."""
        extra = len(line) - self.width
        for before, field in zip(self.fields, self.fields[1:], strict=False):
            b = field.start
            if line[b - 1] != 32 and line[b] != 32:
                if before.name not in STRING_FIELDS or before.name == "fide_id" or extra > 8:
                    return None
                value = line[before.start:b + extra].strip()
                return line[:b] + line[b + extra:], (before.name, value)
        line = line.rstrip()
        return (line, None) if len(line) <= self.width else None

    def _parse(self, m: Array, lines: Array, patches: dict[int, tuple[str, bytes]]) -> None:
        builder = self.builder
        idf = self.by_name["fide_id"]
        keys, id_present, id_bad = _digits(m[:, idf.start:idf.end], 18)
        if builder.wanted is not None:
            sel = np.flatnonzero(np.isin(keys, builder.wanted_keys) & ~id_bad)
            ids = _strings(m[sel, idf.start:idf.end])
            sel = sel[np.isin(ids, list(builder.wanted))] if len(sel) else sel
            patches = {int(j): patches[int(r)] for j, r in enumerate(sel) if int(r) in patches}
            m, lines, keys = m[sel], lines[sel], keys[sel]
            id_present, id_bad = id_present[sel], id_bad[sel]
        control = np.asarray((m < 32).any(axis=1))
        checks: list[tuple[Array, _Field | None, str]] = [
            (control, None, "control characters in the line"),
            (id_bad | ~id_present, idf, "expected digits"),
        ]
        ints: dict[str, Array] = {}
        for field in self.fields:
            if field.name in INT_FIELDS:
                values, present, bad = _digits(m[:, field.start:field.end], _MAX_DIGITS)
                na = ~present | (values == 0) if field.name in _ZERO_IS_NA else ~present
                ints[field.name] = np.where(na, -1, values).astype(np.int16)
                checks.append((bad, field, f"expected a number of at most {_MAX_DIGITS} digits"))
        broken = np.zeros(len(m), dtype=bool)
        for mask, _, _ in checks:
            broken |= mask
        for row in np.flatnonzero(broken):
            _, bad_field, expected = next(c for c in checks if c[0][row])
            if bad_field is not None:
                text = bytes(m[row, bad_field.start:bad_field.end]).strip().decode("latin-1")
                expected = f"{bad_field.token} column has {text!r}, {expected}"
            builder.skip(int(lines[row]), expected)
        keep = ~broken
        block: dict[str, Array] = {"_key": keys[keep], "_line": lines[keep].astype(np.int32)}
        n = int(keep.sum())
        for name in STRING_FIELDS:
            spec = self.by_name.get(name)
            block[name] = (_strings(m[keep, spec.start:spec.end]) if spec
                           else np.zeros(n, "S1"))
        for name in INT_FIELDS:
            block[name] = ints[name][keep] if name in ints else np.full(n, -1, np.int16)
        if patches:
            rows = np.cumsum(keep) - 1
            for at, (target, patch) in patches.items():
                if keep[at]:
                    col = block[target]
                    if len(patch) > col.itemsize:
                        col = block[target] = col.astype(f"S{len(patch)}")
                    col[rows[at]] = patch
        if self.builder.fmt == "old":
            _old_titles_and_sex(block)
        builder.add(block)


def _column_is(arr: Array, n: int, stride: int, col: int, byte: int) -> bool:
    """Whether every ``stride``-byte row of ``arr`` has ``byte`` at ``col`` (a line end)."""
    return n > 0 and bool((arr.reshape(n, stride)[:, col] == byte).all())


def _digits(block: Array, max_digits: int) -> tuple[Array, Array, Array]:
    """Per row of a fixed-width byte block: (value, has digits, not one run of ≤ max digits)."""
    d = block - np.uint8(48)
    isdig = d < 10
    bad = ~(isdig | (block == 32)).all(axis=1)
    runs = isdig[:, 0].astype(np.int16) + (isdig[:, 1:] & ~isdig[:, :-1]).sum(axis=1)
    bad |= (runs > 1) | (isdig.sum(axis=1) > max_digits)
    value = np.zeros(len(block), np.int64)
    for j in range(block.shape[1]):
        value = np.where(isdig[:, j], value * 10 + d[:, j], value)
    return value, runs > 0, bad


def _strings(block: Array) -> Array:
    """The rows of a byte block as stripped ``S`` strings."""
    width = block.shape[1]
    if not len(block) or not width:
        return np.zeros(len(block), "S1")
    values = np.ascontiguousarray(block).view(f"S{width}").ravel()
    stripped = np.strings.strip(values)
    longest = int(np.strings.str_len(stripped).max()) if len(stripped) else 1
    return stripped.astype(f"S{max(longest, 1)}")


def _old_titles_and_sex(block: dict[str, Array]) -> None:
    """Pre-2012 list: TRF06 title letters → titles; sex from the ``w`` flag."""
    title = block["title"].astype("S3")
    w_title = np.zeros(len(title), "S3")
    raw = block["title"]
    for code, (main, women) in _OLD_TITLES.items():
        hit = raw == code
        title[hit] = main
        w_title[hit] = women
    block["title"], block["w_title"] = title, w_title
    woman = np.strings.find(block["flags"], b"w") >= 0
    block["sex"] = np.where(woman, b"F", b"M").astype("S1")


# ---------------------------------------------------------------------------- XML


def _read_xml(head: bytes, stream: _Stream, builder: _Builder) -> None:
    """Stream ``<player>`` records with lxml (no DTD, no entity expansion, no network)."""
    from lxml import etree

    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise InputError("entity declarations are not allowed (DOCTYPE/ENTITY found)",
                         source=builder.name)
    root = _XML_PROLOG.match(head)
    if root is None or root.group(1) != b"playerslist":
        found = f"<{root.group(1).decode('latin-1')}>" if root else "no element"
        raise UnknownFormat(f"XML root is {found}; expected <playerslist>", source=builder.name)
    stream.unread(head)
    batch = _XmlBatch(builder)
    wanted = builder.wanted
    try:
        for _, elem in etree.iterparse(_XmlGuard(stream), events=("end",), tag="player",
                                       resolve_entities=False, no_network=True,
                                       huge_tree=False, load_dtd=False,
                                       chunk_size=1 << 20):
            if wanted is None or (elem.findtext("fideid") or "").strip().encode() in wanted:
                batch.add(list(elem), elem.sourceline or 0)
            elem.clear(keep_tail=False)
            while elem.getprevious() is not None:
                del elem.getparent()[0]
            if batch.size >= 50_000:
                batch.flush()
    except etree.XMLSyntaxError as exc:
        raise InputError(f"malformed XML: {exc.msg}", source=builder.name,
                         line=exc.lineno) from None
    batch.flush()
    builder.fmt = "xml-combined" if batch.combined else "xml-single"


_TAG: Final = operator.attrgetter("tag")
_TEXT: Final = operator.attrgetter("text")


class _XmlBatch:
    """``<player>`` records grouped by their child-tag layout, converted column-wise."""

    def __init__(self, builder: _Builder) -> None:
        self.builder = builder
        self.groups: dict[tuple[object, ...], tuple[list[list[str | None]], list[int]]] = {}
        self.size = 0
        self.combined = False
        self.unknown: set[str] = set()

    def add(self, children: list[Any], line: int) -> None:
        tags = tuple(map(_TAG, children))
        group = self.groups.get(tags)
        if group is None:
            group = self.groups[tags] = ([], [])
            self._check_layout(tags, line)
        group[0].append(list(map(_TEXT, children)))
        group[1].append(line)
        self.size += 1

    def _check_layout(self, tags: tuple[object, ...], line: int) -> None:
        for tag in tags:
            if not isinstance(tag, str):
                continue
            if tag in ("rapid_rating", "blitz_rating"):
                self.combined = True
            if tag not in _XML_TAGS and tag not in self.unknown:
                self.unknown.add(tag)
                self.builder.warn(f"unknown element <{tag}> ignored", line)

    def flush(self) -> None:
        blocks = [self._convert(tags, rows, lines)
                  for tags, (rows, lines) in self.groups.items()]
        self.groups.clear()
        self.size = 0
        if len(blocks) > 1:  # records of mixed layouts: back into file order
            block = {k: np.concatenate([b[k] for b in blocks]) for k in blocks[0]}
            order = np.argsort(block["_line"], kind="stable")
            blocks = [{k: v[order] for k, v in block.items()}]
        for block in blocks:
            self.builder.add(block)

    def _convert(self, tags: tuple[object, ...], rows: list[list[str | None]],
                 lines: list[int]) -> dict[str, Array]:
        n = len(rows)
        texts: dict[str, Array] = {}
        for tag, column in zip(tags, zip(*rows, strict=True), strict=True):
            if isinstance(tag, str) and tag in _XML_TAGS:
                raw = np.array([v.encode() if v else b"" for v in column], dtype="S")
                texts[tag] = np.strings.strip(raw) if n else np.zeros(0, "S1")
        line_no = np.array(lines, dtype=np.int32)
        fid = texts.get("fideid", np.zeros(n, "S1"))
        id_len = np.strings.str_len(fid)
        checks: list[tuple[Array, str]] = [
            (~np.strings.isdigit(fid) | (id_len > 18), "fideid")]
        block: dict[str, Array] = {"_line": line_no}
        for tag, field in _XML_TAGS.items():
            values = texts.get(tag)
            if values is None:
                block[field] = (np.zeros(n, "S1") if field in STRING_FIELDS
                                else np.full(n, -1, np.int16))
            elif field in STRING_FIELDS:
                block[field] = values
            else:
                length = np.strings.str_len(values)
                checks.append(((length > 0) & ~np.strings.isdigit(values)
                               | (length > _MAX_DIGITS), tag))
                number = np.where(checks[-1][0] | (length == 0), b"0", values).astype(np.int16)
                na = (length == 0) | ((number == 0) & (field in _ZERO_IS_NA))
                block[field] = np.where(na, -1, number).astype(np.int16)
        bad = np.zeros(n, dtype=bool)
        for mask, _ in checks:
            bad |= mask
        for row in np.flatnonzero(bad):
            tag = next(t for mask, t in checks if mask[row])
            text = _decode(bytes(texts[tag][row])) if tag in texts else ""
            expected = ("digits" if tag == "fideid"
                        else f"a number of at most {_MAX_DIGITS} digits")
            self.builder.skip(int(line_no[row]), f"<{tag}> is {text!r}, expected {expected}")
        keep = ~bad
        block["_key"] = np.where(bad, b"0", fid).astype(np.int64)
        return {k: v[keep] for k, v in block.items()}
