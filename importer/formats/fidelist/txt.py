"""TXT downloads: the header line names the columns (each field runs from its token's
position to the next one's) and so tells the layout; the lines are cut a block at a time
into fixed-width rows for the row parser, and lines that are trimmed or that a text field
overflows are mended one by one.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

import numpy as np

import importer.formats.fidelist.streams as streams
from importer.errors import UnknownFormat
from importer.formats.fidelist.columns import _MONTHS, _Builder, _Field, _month_date, _RowParser
from importer.formats.fidelist.store import STRING_FIELDS, Array
from importer.formats.fidelist.streams import _Stream

_HEADER_TOKENS: Final = {
    "name": "name", "fed": "federation", "sex": "sex", "tit": "title", "titl": "title",
    "wtit": "w_title", "otit": "o_title", "foa": "foa_title",
    "srtng": "std_rating", "rtng": "std_rating", "sgm": "std_games", "gms": "std_games",
    "games": "std_games", "sk": "std_k", "k": "std_k",
    "rrtng": "rpd_rating", "rgm": "rpd_games", "rk": "rpd_k",
    "brtng": "blz_rating", "bgm": "blz_games", "bk": "blz_k",
    "b-day": "birth_year", "bday": "birth_year", "born": "birth_year", "flag": "flags",
}
_MONTH_TOKEN: Final = re.compile(rf"(?i)({'|'.join(_MONTHS)})(\d\d)")
_EXPECTED: Final = ("a FIDE rating list: a TXT header line starting 'ID Number' "
                    "or XML with a <playerslist> root")


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
    if stream.total is not None:
        builder.reserve(stream.total // (parser.width + 1) + 1)
    carry = head[end + 1:] if end >= 0 else b""
    lineno = 2
    while True:
        data = stream.read(streams.CHUNK_BYTES)
        if not data:
            break
        buf = carry + data
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            if len(buf) > streams.MAX_LINE_BYTES:
                builder.skip(lineno, f"line longer than {streams.MAX_LINE_BYTES} bytes")
                buf = _drop_line(stream)
                lineno += 1
            carry = buf
            continue
        lineno = parser.block(memoryview(buf)[:cut], lineno)
        carry = buf[cut:]
    if carry:
        parser.block(memoryview(carry + b"\n"), lineno)
    parser.rows.flush()


def _drop_line(stream: _Stream) -> bytes:
    """Skip to the end of an overlong line; the bytes after it."""
    while True:
        data = stream.read(streams.CHUNK_BYTES)
        cut = data.find(b"\n")
        if not data or cut >= 0:
            return data[cut + 1:] if data else b""


class _TxtParser:
    """Cuts blocks of whole lines into fixed-width rows for a :class:`_RowParser`."""

    def __init__(self, fields: list[_Field], builder: _Builder) -> None:
        self.fields = fields
        self.builder = builder
        self.width = fields[-1].end
        self.rows = _RowParser(fields, builder)

    def block(self, data: memoryview, lineno: int) -> int:
        """Parse lines (``data`` ends with a newline); the line number after them."""
        w = self.width
        arr = np.frombuffer(data, np.uint8)
        for stride in (w + 2, w + 1):  # CRLF or LF lines of the header's width
            n = len(arr) // stride
            if n * stride != len(arr) or not _column_is(arr, n, stride, w, 13 if stride > w + 1
                                                        else 10) or arr[-1] != 10:
                continue
            controls = np.count_nonzero(arr < 32)
            if controls != n * (stride - w) and np.count_nonzero(arr == 10) != n:
                break  # a line end inside a line: cut it line by line
            self.rows.parse(arr.reshape(n, stride), lineno + np.arange(n, dtype=np.int32),
                            clean=controls == n * (stride - w))
            return lineno + n
        raw_lines = bytes(data).split(b"\n")[:-1]
        rows, lines, patches = self._normalise(raw_lines, lineno)
        if len(lines):
            self.rows.parse(np.frombuffer(rows, np.uint8).reshape(len(lines), w),
                            lines.astype(np.int32), clean=False, patches=patches)
        return lineno + len(raw_lines)

    def _normalise(self, raw_lines: list[bytes], lineno: int
                   ) -> tuple[bytes, Array, dict[int, tuple[str, bytes]]]:
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
        return b"".join(out), np.array(lines, dtype=np.int64), patches

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


def _column_is(arr: Array, n: int, stride: int, col: int, byte: int) -> bool:
    """Whether every ``stride``-byte row of ``arr`` has ``byte`` at ``col`` (a line end)."""
    return n > 0 and bool((arr.reshape(n, stride)[:, col] == byte).all())
