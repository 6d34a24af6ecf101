"""CSV cells that are safe to open in a spreadsheet, and the one CSV writer.

A text cell starting with ``= + - @`` (or a tab or carriage return) would be run
as a formula by Excel or LibreOffice; such cells get a leading apostrophe.  A
cell that already starts with an apostrophe gets one more, so the mapping is
reversible (:func:`restore`).  Numbers are never neutralised: callers pass them
as ``int``/``float``/``Decimal`` or pre-formatted numeric strings via ``numeric``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

from importer.writing.atomic import atomic_file

__all__ = ["neutralise", "render_columns", "render_csv", "restore", "write_csv"]

_DANGEROUS = ("=", "+", "-", "@", "\t", "\r", "'")


def neutralise(text: str) -> str:
    """Prefix an apostrophe to text a spreadsheet would treat as a formula."""
    return "'" + text if text.startswith(_DANGEROUS) else text


def restore(text: str) -> str:
    """Undo :func:`neutralise`."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_DANGEROUS) else text


def _cell(value: object, numeric: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if numeric or not isinstance(value, str) else neutralise(text)


def _cells(values: Sequence[object], numeric: bool) -> list[str]:
    """A column's cells, each distinct text or whole number made once (names, ratings and
    scores repeat down a column; equal Decimals or floats may print apart: 1.0 and 1.00)."""
    made: dict[tuple[type, object], str] = {}  # by type too: False == 0, yet 'false' ≠ '0'
    out = []
    for v in values:
        kind = type(v)
        if kind is not str and kind is not int:
            out.append(_quote(_cell(v, numeric)))
            continue
        cell = made.get((kind, v))
        if cell is None:
            cell = made[(kind, v)] = _quote(_cell(v, numeric))
        out.append(cell)
    return out


def _quote(text: str) -> str:
    """RFC 4180 quoting; unlike the csv module's, a bare carriage return is quoted too."""
    if any(ch in text for ch in _NEEDS_QUOTES):
        return '"' + text.replace('"', '""') + '"'
    return text


_NEEDS_QUOTES = (",", '"', "\n", "\r")


def render_csv(columns: Sequence[str], rows: Iterable[Mapping[str, object]],
               numeric: Iterable[str] = ()) -> str:
    """The CSV text for *rows* (``\\n`` line ends, UTF-8-safe, text cells neutralised)."""
    numeric_cols = set(numeric)
    lines = [",".join(_quote(c) for c in columns)]
    for row in rows:
        line = ",".join(_quote(_cell(row.get(c), c in numeric_cols)) for c in columns)
        lines.append(line or '""')  # a lone empty cell must not become a blank line
    return "\n".join(lines) + "\n"


def render_columns(columns: Mapping[str, Sequence[object]], numeric: Iterable[str] = ()) -> str:
    """The CSV text of a table held as columns (name → values), as :func:`render_csv` writes
    it: built column by column, for tables of a million rows."""
    numeric_cols = set(numeric)
    cells = [_cells(values, name in numeric_cols) for name, values in columns.items()]
    lines = [",".join(_quote(c) for c in columns),
             *(",".join(row) or '""' for row in zip(*cells, strict=True))]
    return "\n".join(lines) + "\n"


def write_csv(path: str | os.PathLike[str], columns: Sequence[str],
              rows: Iterable[Mapping[str, object]], numeric: Iterable[str] = ()) -> None:
    """Write *rows* to *path* atomically; see :func:`render_csv`."""
    text = render_csv(columns, rows, numeric)
    with atomic_file(path) as fh:
        fh.write(text)
