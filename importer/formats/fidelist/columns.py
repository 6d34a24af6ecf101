"""Building the list, shared by TXT and XML: fixed-width rows (TXT lines, or XML records
laid out so) are validated by :class:`_RowParser`, numbers read with numpy down transposed
columns, into column blocks that :class:`_Builder` collects, with the warnings, into a
:class:`~importer.formats.fidelist.store.FideList`.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from importer.formats.fidelist.entry import _PREFIX, LISTS
from importer.formats.fidelist.store import (
    _BLANKS,
    _SEPARATOR,
    INT_FIELDS,
    STRING_FIELDS,
    Array,
    FideList,
    _compact,
    _decode,
    _name_ends,
    _rows,
)

WarningHook = Callable[[str], None]

MAX_WARNINGS: Final = 1000
"""Warnings kept (and passed to ``on_warning``) per list; a summary counts the rest."""

# Values that mean "absent": ratings, K and birth years of 0 are unrated / unknown.
_ZERO_IS_NA: Final = frozenset(f for f in INT_FIELDS if not f.endswith("_games"))
_MAX_DIGITS: Final = 4
_MONTHS: Final = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                  "dec")
_ARCHIVE_NAME: Final = re.compile(rf"(?i)({'|'.join(_MONTHS)})(\d\d)frl")
# TRF06 one-letter titles of the pre-2012 list → (title, women's title).
_OLD_TITLES: Final = {b"g": (b"GM", b""), b"m": (b"IM", b""), b"f": (b"FM", b""),
                      b"c": (b"CM", b""), b"wg": (b"", b"WGM"), b"wm": (b"", b"WIM"),
                      b"wf": (b"", b"WFM"), b"wc": (b"", b"WCM")}


class _Builder:
    """Collects column blocks and warnings; turns them into a :class:`FideList`."""

    def __init__(self, name: str, fide_ids: Collection[str] | None,
                 on_warning: WarningHook | None, federations: Collection[str] = ()) -> None:
        self.name = name
        self.on_warning = on_warning
        self.warnings: list[str] = []
        self.skipped = 0
        self.columns: dict[str, Array] = {}
        self.used: dict[str, int] = {}
        self.capacity = 1024
        self.fmt = ""
        self.header_date: dt.date | None = None
        self.unknown_tags: set[str] = set()
        self.wanted: set[bytes] | None = None
        self.wanted_keys: Array = np.empty(0, np.int64)
        self.wanted_bits: Array = np.zeros(0, bool)
        self.scanned = 0
        """Records a filtered load looked at (all of them, kept or not)."""
        self.wanted_feds = sorted({f.strip().upper().encode() for f in federations if f.strip()})
        """Every player of these federations is kept too (for matching players by name)."""
        if fide_ids is not None:
            self.wanted = {str(i).strip().encode() for i in fide_ids}
            keys = [int(i) for i in self.wanted if i.isdigit() and len(i) <= 18]
            self.wanted_keys = np.array(sorted(keys), dtype=np.int64)
            self.wanted_bits = np.zeros(1 << 20, dtype=bool)
            self.wanted_bits[self.wanted_keys & 0xFFFFF] = True

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

    def reserve(self, rows: int) -> None:
        """Expect about this many rows (the columns are allocated once, grown if short)."""
        self.capacity = rows if self.wanted is None else min(rows, 4 * len(self.wanted) + 64)

    def add(self, block: dict[str, Array]) -> None:
        """Append a block's rows to the columns (a text field may come as a (rows, width)
        byte matrix: it is copied straight into its ``S`` column)."""
        k = len(block["_key"])
        if not k:
            return
        rows = max(self.capacity, k)
        for name, values in block.items():
            dtype = np.dtype(f"S{values.shape[1]}") if values.ndim == 2 else values.dtype
            col = self.columns.get(name)
            used = self.used.get(name, 0)
            need = used + len(values)
            if col is None:
                size = rows if name != "name" else int(len(values) / k * rows * 1.2) + 64
                col = self.columns[name] = np.empty(max(size, need), dtype)
            elif need > len(col) or dtype.itemsize > col.dtype.itemsize:
                grown = np.empty(max(need, len(col) * 3 // 2), np.promote_types(col.dtype, dtype))
                grown[:used] = col[:used]
                col = self.columns[name] = grown
            if values.ndim == 2:
                cells = _rows(col)
                cells[used:need, :values.shape[1]] = values
                cells[used:need, values.shape[1]:] = 0
            else:
                col[used:need] = values
            self.used[name] = need

    def finish(self, kind: str | None, list_date: dt.date | None) -> FideList:
        cols: dict[str, Array] = {}
        for name in (*STRING_FIELDS, *INT_FIELDS, "_key", "_line", "_name_len"):
            col = self.columns.pop(name, None)
            if col is None:
                cols[name] = np.empty(0, _empty_dtype(name))
                continue
            used = self.used[name]
            cols[name] = col[:used].copy() if len(col) > used * 5 // 4 + 64 else col[:used]
            del col
        _name_ends(cols)
        lists: tuple[str, ...] = LISTS
        if self.fmt in ("single", "xml-single", "old"):
            lists = (self._kind(kind),)
            if lists[0] != "standard":
                for what in ("rating", "games", "k"):
                    cols[f"{_PREFIX[lists[0]]}_{what}"] = cols[f"std_{what}"]
                    cols[f"std_{what}"] = np.full(len(cols["_key"]), -1, np.int16)
        date = list_date or self.header_date or _date_from_name(self.name)
        result = FideList(cols, fmt=self.fmt, lists=lists, list_date=date, source=self.name,
                          warnings=self.warnings,
                          size=self.scanned if self.wanted is not None else None)
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
            if ids[first].strip(_BLANKS) == ids[again].strip(_BLANKS):
                self.warn(f"FIDE id {_decode(ids[again].strip(_BLANKS))} repeats line "
                          f"{lines[first]}; the first line is used", int(lines[again]))


def _empty_dtype(name: str) -> str:
    if name in STRING_FIELDS:
        return "u1" if name == "name" else "S1"
    return {"_key": "i8", "_line": "i4", "_name_len": "i4"}.get(name, "i2")


def _month_date(month: str, yy: str) -> dt.date:
    year = int(yy)
    return dt.date(year + (1900 if year >= 70 else 2000), _MONTHS.index(month.lower()) + 1, 1)


def _date_from_name(name: str) -> dt.date | None:
    found = _ARCHIVE_NAME.findall(name)
    return _month_date(*found[-1]) if found else None


class _Deferred:
    """What a row parser on a worker thread hands the builder: kept, then replayed in order
    with line numbers shifted by then known.  It reads the builder's filter, never writes."""

    def __init__(self, builder: _Builder) -> None:
        self.wanted = builder.wanted
        self.wanted_keys = builder.wanted_keys
        self.wanted_bits = builder.wanted_bits
        self.wanted_feds = builder.wanted_feds
        self.fmt = builder.fmt
        self.skips: list[tuple[int, str]] = []
        self.blocks: list[dict[str, Array]] = []
        self.scanned = 0

    def skip(self, line: int, reason: str) -> None:
        self.skips.append((line, reason))

    def add(self, block: dict[str, Array]) -> None:
        self.blocks.append(block)

    def replay(self, builder: _Builder, line: int) -> None:
        builder.scanned += self.scanned
        for at, reason in self.skips:
            builder.skip(line + at, reason)
        for block in self.blocks:
            block["_line"] += line
            builder.add(block)


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    token: str
    start: int
    end: int


class _RowParser:
    """Fixed-width rows (TXT lines, or XML records laid out so) → a validated column block.

    Broken rows are skipped and reported with their line; ``xml`` words the messages
    after the XML element instead of the TXT column.
    """

    def __init__(self, fields: list[_Field], builder: _Builder | _Deferred, *,
                 xml: bool = False) -> None:
        self.fields = fields
        self.builder = builder
        self.xml = xml
        self.width = fields[-1].end
        self.by_name = {f.name: f for f in fields}
        self.idf = self.by_name["fide_id"]
        self.numbers = _NumberPlan([self.idf, *(f for f in fields if f.name in INT_FIELDS)])
        self.ids = _NumberPlan([self.idf])
        self.held: list[tuple[Array, Array, dict[int, tuple[str, bytes]]]] = []

    def parse(self, m: Array, lines: Array, *, clean: bool,
              patches: dict[int, tuple[str, bytes]] | None = None) -> None:
        """Parse the rows of ``m`` (each a line, then its line end if any); ``clean`` says
        that no line holds a control character.  A filtered load only picks its rows out
        here; :meth:`flush` parses them together."""
        patches = patches or {}
        if self.builder.wanted is not None:
            self.builder.scanned += len(m)
            keys = _numbers(self.ids, m)["fide_id"][0]
            sel = np.flatnonzero(_member(keys, self.builder.wanted_keys, self.builder.wanted_bits))
            wanted = self.builder.wanted
            sel = np.array([r for r in sel.tolist() if bytes(
                m[r, self.idf.start:self.idf.end]).strip() in wanted], dtype=np.int64)
            fed = self.by_name.get("federation")
            if self.builder.wanted_feds and fed is not None:
                codes = np.char.upper(np.char.strip(_column(m, fed)))
                sel = np.union1d(sel, np.flatnonzero(np.isin(codes, self.builder.wanted_feds)))
            if len(sel):
                self.held.append((m[sel, :self.width], lines[sel], {
                    j: patches[r] for j, r in enumerate(sel.tolist()) if r in patches}))
            return
        self._parse(m, lines, clean, patches)

    def flush(self) -> None:
        """Parse the rows a filtered load picked out."""
        if self.held:
            rows = np.concatenate([m for m, _, _ in self.held])
            lines = np.concatenate([n for _, n, _ in self.held])
            patches: dict[int, tuple[str, bytes]] = {}
            at = 0
            for m, _, own in self.held:
                patches |= {at + j: p for j, p in own.items()}
                at += len(m)
            self.held.clear()
            self._parse(rows, lines, False, patches)

    def _parse(self, m: Array, lines: Array, clean: bool,
               patches: dict[int, tuple[str, bytes]]) -> None:
        builder = self.builder
        numbers = _numbers(self.numbers, m)
        keys, id_present, id_bad = numbers["fide_id"]
        checks: list[tuple[Array, _Field | None, str]] = [
            (id_bad | ~id_present, self.idf, "expected digits")]
        if not clean:
            checks.insert(0, (np.asarray((m[:, :self.width] < 32).any(axis=1)), None,
                              "control characters in the line"))
        ints: dict[str, Array] = {}
        for field in self.fields:
            if field.name in INT_FIELDS:
                values, present, bad = numbers[field.name]
                na = ~present | (values == 0) if field.name in _ZERO_IS_NA else ~present
                values = values.view(np.int16)
                values[na] = -1
                ints[field.name] = values
                checks.append((bad, field, f"expected a number of at most {_MAX_DIGITS} digits"))
        broken = np.zeros(len(m), dtype=bool)
        for mask, _, _ in checks:
            broken |= mask
        if broken.any():
            for row in np.flatnonzero(broken):
                builder.skip(int(lines[row]), self._reason(m[row], checks, int(row)))
            keep = ~broken
            m, lines, keys = m[keep], lines[keep], keys[keep]
            ints = {name: values[keep] for name, values in ints.items()}
            moved = np.cumsum(keep) - 1
            patches = {int(moved[at]): p for at, p in patches.items() if keep[at]}
        self._add(m, lines, keys, ints, patches)

    def _reason(self, row: Array, checks: list[tuple[Array, _Field | None, str]],
                at: int) -> str:
        _, field, expected = next(c for c in checks if c[0][at])
        if field is None:
            return expected
        text = bytes(row[field.start:field.end]).strip(_BLANKS).decode("latin-1")
        if self.xml:
            text = _decode(bytes(row[field.start:field.end]).strip(_BLANKS))
            return f"<{field.token}> is {text!r}, {expected}"
        return f"{field.token} column has {text!r}, {expected}"

    def _add(self, m: Array, lines: Array, keys: Array, ints: dict[str, Array],
             patches: dict[int, tuple[str, bytes]]) -> None:
        n = len(m)
        block: dict[str, Array] = {"_key": keys, "_line": lines}
        for name in STRING_FIELDS:
            spec = self.by_name.get(name)
            if name == "name":
                block[name], block["_name_len"] = (
                    _compact(m[:, spec.start:spec.end]) if spec
                    else (np.full(n, _SEPARATOR, np.uint8), np.ones(n, np.int32)))
            elif spec is None:
                block[name] = np.zeros(n, "S1")
            else:  # copied into the column by the builder (an S array once patched)
                raw = m[:, spec.start:spec.end]
                block[name] = _column(m, spec) if patches or self.builder.fmt == "old" else raw
        for name in INT_FIELDS:
            block[name] = ints[name] if name in ints else np.full(n, -1, np.int16)
        for at, (target, patch) in patches.items():
            if target == "name":
                names = [bytes(r).strip(_BLANKS) for r in m[:, self.by_name["name"].start:
                                                           self.by_name["name"].end]]
                for at2, (target2, patch2) in patches.items():
                    if target2 == "name":
                        names[at2] = patch2
                block["name"] = np.frombuffer(b"".join(v + b"\x01" for v in names), np.uint8)
                block["_name_len"] = np.array([len(v) + 1 for v in names], dtype=np.int32)
                continue
            col = block[target]
            if len(patch) > col.itemsize:
                col = block[target] = col.astype(f"S{len(patch)}")
            col[at] = patch
        if self.builder.fmt == "old":
            _old_titles_and_sex(block)
        self.builder.add(block)


class _NumberPlan:
    """The numeric fields of a layout: their columns, read together as one transposed block."""

    def __init__(self, fields: list[_Field]) -> None:
        self.ranges = [(f.start, f.end) for f in fields]
        self.spans: list[tuple[str, int, int, int]] = []
        at = 0
        for f in fields:
            width = f.end - f.start
            self.spans.append((f.name, at, at + width, 18 if f.name == "fide_id" else _MAX_DIGITS))
            at += width


def _numbers(plan: _NumberPlan, m: Array) -> dict[str, tuple[Array, Array, Array]]:
    """Per field of ``plan``, per row of ``m``: (value, has digits, not one run of at most
    its digits). Values of up to four digits are uint16, longer ones int64. The columns are
    transposed first so that every step runs over whole rows; columns blank in every row
    are skipped."""
    block = np.empty((plan.spans[-1][2], len(m)), np.uint8)
    for (start, end), (_, a, b, _) in zip(plan.ranges, plan.spans, strict=True):
        block[a:b] = m[:, start:end].T
    value = block - np.uint8(48)
    digit = (value < 10).view(np.uint8)
    blank = block == 32
    clean = np.count_nonzero(digit) + np.count_nonzero(blank) == block.size
    used = np.flatnonzero(~blank.all(axis=1)).tolist()
    out: dict[str, tuple[Array, Array, Array]] = {}
    for name, first, last, limit in plan.spans:
        inside = [c for c in used if first <= c < last]
        if not inside:
            empty = np.zeros(len(m), np.uint16 if limit <= 4 else np.int64)
            out[name] = (empty, np.zeros(len(m), bool), np.zeros(len(m), bool))
            continue
        a, b = inside[0], inside[-1] + 1
        dig = digit[a:b]
        count = dig.sum(axis=0, dtype=np.uint8)
        runs = dig[0] + (dig[1:] > dig[:-1]).sum(axis=0, dtype=np.uint8)
        bad = (runs > 1) | (count > limit)
        if not clean:
            bad |= ~(dig.view(bool) | blank[a:b]).all(axis=0)
        if limit <= 4:  # exact up to four digits; more is flagged anyway
            number = _horner(value[a:b], dig, np.uint16)
        else:
            for g in range(a, b, 9):  # nine digits fit the 32-bit steps
                part = _horner(value[g:min(g + 9, b)], digit[g:min(g + 9, b)], np.uint32)
                if g == a:
                    number = part.astype(np.int64)
                else:
                    shift = digit[g:min(g + 9, b)].sum(axis=0, dtype=np.uint8)
                    number = number * _POW10[shift] + part
        out[name] = (number, count > 0, bad)
    return out


_POW10: Final = np.array([10 ** i for i in range(10)], dtype=np.int64)


def _horner(value: Array, digit: Array, dtype: type[np.unsignedinteger[Any]]) -> Array:
    """The number the digits down each column spell, blanks skipped."""
    step = np.multiply(digit, 9, dtype=dtype)
    step += 1
    add = np.multiply(value, digit, dtype=dtype)
    number: Array = add[0].copy()
    for j in range(1, len(value)):
        number *= step[j]
        number += add[j]
    return number


def _member(keys: Array, wanted: Array, bits: Array) -> Array:
    """Whether each key is in the sorted array ``wanted``; ``bits`` marks their low 20 bits."""
    out = np.zeros(len(keys), dtype=bool)
    if not len(wanted):
        return out
    maybe = np.flatnonzero(bits[keys & 0xFFFFF])
    at = np.minimum(np.searchsorted(wanted, keys[maybe]), len(wanted) - 1)
    out[maybe] = wanted[at] == keys[maybe]
    return out


def _column(m: Array, field: _Field) -> Array:
    """A field of the rows of ``m`` as fixed-width ``S`` strings (blanks kept; stripped on use)."""
    width = field.end - field.start
    return np.array(m[:, field.start:field.end], order="C").view(f"S{width}").ravel()


def _old_titles_and_sex(block: dict[str, Array]) -> None:
    """Pre-2012 list: TRF06 title letters → titles; sex from the ``w`` flag."""
    raw = np.strings.strip(block["title"])
    title = raw.astype("S3")
    w_title = np.zeros(len(title), "S3")
    for code, (main, women) in _OLD_TITLES.items():
        hit = raw == code
        title[hit] = main
        w_title[hit] = women
    block["title"], block["w_title"] = title, w_title
    woman = np.strings.find(block["flags"], b"w") >= 0
    block["sex"] = np.where(woman, b"F", b"M").astype("S1")
