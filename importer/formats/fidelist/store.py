"""The loaded list: :class:`ListEntry`, the :class:`FideList` column store and its fields.

Text fields are held as fixed-width ``S`` columns, stripped on use; the names are joined
into one byte array, each ended by a separator.  The helpers here read (and, for
:func:`_compact`, write) that layout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from importer.formats.fidelist.entry import ListEntry

if TYPE_CHECKING:
    import pandas as pd

Array = npt.NDArray[Any]

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


class FideList:
    """A loaded rating list as columns: ``len()``, ``get(fide_id)``, ``to_frame()``.

    ``format`` is 'foa', 'legacy', 'single', 'old', 'xml-combined' or 'xml-single' (or
    'register' for entries read back from the rating register); ``lists`` the rating lists it
    holds; ``list_date`` the first of the list's month when the header, the file name or the
    caller tells, else None.
    """

    def __init__(self, columns: dict[str, Array], *, fmt: str, lists: tuple[str, ...],
                 list_date: dt.date | None, source: str, warnings: list[str],
                 size: int | None = None) -> None:
        self._cols = columns
        self.size = len(columns["_key"]) if size is None else size
        """Players in the whole list (a filtered load keeps only some of them)."""
        self.format = fmt
        self.lists = lists
        self.list_date = list_date
        self.source = source
        self.warnings = warnings
        self._index = _id_order(columns["_key"])
        self._all_names: list[str] | None = None

    @classmethod
    def of(cls, entries: Iterable[ListEntry], *, lists: tuple[str, ...],
           list_date: dt.date | None, source: str) -> FideList:
        """A list of the given entries (as the register stores them)."""
        entries = list(entries)
        cols: dict[str, Array] = {
            "_key": np.array([int(e.fide_id) for e in entries], dtype=np.int64),
            "_line": np.zeros(len(entries), np.int32)}
        for f in STRING_FIELDS:
            if f != "name":
                cols[f] = np.array([getattr(e, f).encode() for e in entries], dtype="S")
        names = [e.name.replace("\x01", " ").encode() + b"\x01" for e in entries]
        cols["name"] = np.frombuffer(b"".join(names), np.uint8)
        cols["_name_len"] = np.array([len(n) for n in names], dtype=np.int32)
        for f in INT_FIELDS:
            cols[f] = np.array([-1 if getattr(e, f) is None else getattr(e, f) for e in entries],
                               dtype=np.int16)
        _name_ends(cols)
        return cls(cols, fmt="register", lists=lists, list_date=list_date, source=source,
                   warnings=[])

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

    def entries(self, fide_ids: Iterable[str]) -> dict[str, ListEntry]:
        """The players with these ids (an id's first line), looked up together; absent ids
        are left out."""
        texts = {t for t in (str(i).strip() for i in fide_ids)
                 if t.isascii() and t.isdigit() and len(t) <= 18}
        if not texts or not len(self):
            return {}
        order, keys = self._index
        wanted = np.array(sorted({int(t) for t in texts}), dtype=np.int64)
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        rows = order[at[keys[at] == wanted]]
        return {e.fide_id: e for e in self._entries(rows) if e.fide_id in texts}

    def named(self, wanted: Collection[tuple[str, str]], key: Callable[[str], str]
              ) -> list[ListEntry]:
        """The players whose (federation, ``key(name)``) is wanted, in list order."""
        feds = sorted({f.strip().upper().encode() for f, _ in wanted if f.strip()})
        if not feds or not len(self):
            return []
        codes = np.char.upper(np.char.strip(self._cols["federation"]))
        rows = [row for row in np.flatnonzero(np.isin(codes, feds)).tolist()
                if (_decode(codes[row]), key(self._name(row))) in wanted]
        return self._entries(np.array(rows, dtype=np.int64))

    def _entries(self, rows: Array) -> list[ListEntry]:
        values = self.columns(rows)
        names = list(values)
        return [ListEntry(**dict(zip(names, row, strict=True)))
                for row in zip(*values.values(), strict=True)]

    def line_of(self, fide_id: str) -> int | None:
        """The source line (TXT) or the ``<player>`` line (XML) of this id."""
        row = self._find(fide_id)
        return None if row is None else int(self._cols["_line"][row])

    def first_rows(self) -> Array:
        """The rows in id order, each id once (its first line)."""
        order, keys = self._index
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        return np.asarray(order[first])

    def id_numbers(self, rows: Array) -> list[int]:
        """The ids of these rows as numbers."""
        numbers: list[int] = self._cols["_key"][rows].tolist()
        return numbers

    def columns(self, rows: Array) -> dict[str, list[Any]]:
        """These rows as lists of plain values (str, int; None when unrated or unknown), one
        per :data:`FRAME_DTYPES` column."""
        pandas = _pandas()
        out: dict[str, list[Any]] = {}
        for name in FRAME_DTYPES:
            if name == "name":
                if self._all_names is None and len(rows) * 50 > len(self):
                    self._all_names = self._names()  # kept for the next rows
                names = self._all_names
                out[name] = ([self._name(int(r)) for r in rows] if names is None
                             else [names[r] for r in rows.tolist()])
                continue
            values = self._cols[name][rows]
            if name == "fide_id":
                out[name] = _ids(values)
            elif name in STRING_FIELDS:
                codes, texts = _few_codes(pandas, values)
                out[name] = np.array(texts, dtype=object)[codes].tolist()
            else:
                numbers = values.astype(object)
                numbers[values < 0] = None
                out[name] = numbers.tolist()
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per player, columns and dtypes as :data:`FRAME_DTYPES`; unrated is <NA>."""
        pandas = _pandas()
        data: dict[str, Any] = {}
        for name, dtype in FRAME_DTYPES.items():
            values = self._cols[name]
            if name in ("fide_id", "name"):
                texts = self._names() if name == "name" else _ids(values)
                data[name] = pandas.arrays.StringArray(np.array(texts, dtype=object))
            elif dtype == "string":
                data[name] = _few_texts(pandas, values)
            else:
                data[name] = pandas.arrays.IntegerArray(
                    values.astype(np.int64 if dtype == "Int64" else np.int16), values < 0)
        frame: pd.DataFrame = pandas.DataFrame(data, copy=False)
        return frame

    def _find(self, fide_id: str) -> int | None:
        text = str(fide_id).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 18:
            return None
        order, keys = self._index
        key = int(text)
        lo, hi = np.searchsorted(keys, [key, key + 1])
        want = text.encode()
        for row in order[lo:hi]:
            if self._cols["fide_id"][row].strip(_BLANKS) == want:
                return int(row)
        return None

    def _entry(self, row: int) -> ListEntry:
        values: dict[str, Any] = {f: _decode(self._cols[f][row].strip(_BLANKS))
                                  for f in STRING_FIELDS if f != "name"}
        values["name"] = self._name(row)
        for f in INT_FIELDS:
            v = int(self._cols[f][row])
            values[f] = None if v < 0 else v
        return ListEntry(**values)

    def _name(self, row: int) -> str:
        ends = self._cols["_name_end"]
        start = int(ends[row - 1]) + 1 if row else 0
        return _decode(self._cols["name"][start:int(ends[row])].tobytes())

    def _names(self) -> list[str]:
        data = self._cols["name"].tobytes()
        try:
            return data.decode().split("\x01")[:-1]
        except UnicodeDecodeError:
            return [_decode(v) for v in data.split(b"\x01")[:-1]]


def _pandas() -> Any:
    """pandas, imported on first use: reading a list, the register and the period need none of
    it (0.4 s to import)."""
    import pandas  # lazy: 0.4 s to import, for frames only

    return pandas


def _name_ends(cols: dict[str, Array]) -> None:
    """Where each row's name ends in the joined names (at its separator)."""
    cols["_name_end"] = np.cumsum(cols.pop("_name_len"), dtype=np.int64) - 1


_BLANKS: Final = bytes(range(33))
"""What is stripped from a value: blanks, line ends (XML) and the NUL padding of ``S``."""
_SEPARATOR: Final = 1
"""Ends each name in the joined names: a byte no value holds (control characters are
refused in TXT lines and cannot occur in XML text)."""


def _id_order(keys: Array) -> tuple[Array, Array]:
    """Rows in id order (stable: a repeated id's first line first) and the sorted ids."""
    n = len(keys)
    if n < 1 << 31 and (not n or int(keys.max()) < 1 << 31):
        packed = np.sort((keys << 32) | np.arange(n))  # unique, so any sort is stable
        return packed & 0xFFFFFFFF, packed >> 32
    order = np.argsort(keys, kind="stable")
    return order, keys[order]


def _rows(values: Array) -> Array:
    """An ``S`` array as a (rows, width) byte matrix."""
    return values.view(np.uint8).reshape(len(values), values.dtype.itemsize)


def _compact(part: Array) -> tuple[Array, Array]:
    """The values of a (rows, width) byte block, stripped, each followed by the separator;
    and each one's length with its separator.

    The block is transposed to find where each value ends; the few that start blank are
    trimmed one by one.
    """
    k, width = part.shape
    if not k:
        return np.zeros(0, np.uint8), np.zeros(0, np.int32)
    dtype = np.uint8 if width < 255 else np.uint16
    up = np.arange(1, width + 1, dtype=dtype)[:, None]
    end = ((np.ascontiguousarray(part.T) > 32).view(np.uint8) * up).max(axis=0)
    keep = np.arange(width + 1, dtype=dtype) < end[:, None]
    lengths = end.astype(np.int32) + 1
    for row in np.flatnonzero(part[:, 0] <= 32):
        lead = width - len(bytes(part[row]).lstrip(_BLANKS))
        keep[row, :lead] = False
        lengths[row] = max(0, int(end[row]) - lead) + 1
    keep[:, width] = True
    joined = np.empty((k, width + 1), np.uint8)
    joined[:, :width] = part
    joined[:, width] = _SEPARATOR
    return np.asarray(joined[keep]), lengths


def _texts(values: Array, block: int = 16384) -> list[str]:
    """The stripped, decoded strings of an ``S`` array."""
    pieces = [_compact(_rows(values[a:a + block]))[0].tobytes()
              for a in range(0, len(values), block)]
    data = b"".join(pieces)
    try:
        return data.decode().split("\x01")[:-1]
    except UnicodeDecodeError:
        return [_decode(v) for v in data.split(b"\x01")[:-1]]


def _ids(values: Array) -> list[str]:
    """FIDE ids as strings (digits only, so a whitespace split strips them)."""
    rows = _rows(values)
    if len(rows) and rows.min() == 0:
        rows = np.where(rows == 0, 32, rows).astype(np.uint8)
    parts = rows.tobytes().decode("latin-1").split()
    return parts if len(parts) == len(values) else _texts(values)


def _few_codes(pd: Any, values: Array) -> tuple[Array, list[str]]:
    """A column with few distinct values as codes into its distinct strings (each decoded
    once): the fixed-width values are hashed as 64-bit words."""
    n, width = len(values), values.dtype.itemsize
    size = next(k for k in (1, 2, 4, 8) if k >= width) if width <= 8 else -(-width // 8) * 8
    if size == width:
        padded = values
    else:
        padded = np.zeros(n, f"S{size}")
        _rows(padded)[:, :width] = _rows(values)
    words = padded.view(f"<u{min(size, 8)}").reshape(n, max(1, size // 8)).T
    codes, uniques = pd.factorize(words[0])
    distinct: Array = uniques.reshape(-1, 1)
    for word in words[1:]:
        part, more = pd.factorize(word)
        codes, pairs = pd.factorize(codes * len(more) + part)
        distinct = np.column_stack([distinct[pairs // len(more)], more[pairs % len(more)]])
    return codes, _texts(np.ascontiguousarray(distinct).view(f"S{size}").ravel())


def _few_texts(pd: Any, values: Array) -> Any:
    """A StringArray of a column with few distinct values."""
    codes, texts = _few_codes(pd, values)
    return pd.arrays.StringArray(np.array(texts, dtype=object)).take(codes)


def _decode(value: bytes) -> str:
    try:
        return value.decode()
    except UnicodeDecodeError:
        return value.decode("latin-1")
