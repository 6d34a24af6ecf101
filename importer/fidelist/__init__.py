"""FIDE rating list downloads (TXT or XML, plain or zipped) → a column store, streamed.

Every official layout is detected by content: the TXT header's tokens (columns are taken
from the token positions) or the XML root. Broken lines are skipped and
reported in :attr:`FideList.warnings`; unreadable input raises :class:`InputError`.

Speed: fixed-width lines are parsed a block at a time with numpy on the bytes (digits are
read down transposed columns); regular XML is cut at its tags with numpy the same way, a
block of records per worker thread (two at a time; numpy lets go of the GIL), and anything
irregular (comments, CDATA, attributes, other layouts) goes through lxml.  A zip member is
inflated in a background thread while the previous block is parsed.

Ratings, games and K are held per list ('standard', 'rapid', 'blitz') in explicit fields
``std_rating, std_games, std_k, rpd_…, blz_…``; unrated (blank or ``0``) is ``None``, as
are a K or birth year of ``0``. A single-type list fills only its own list's fields. The
pre-2012 list's TRF06 title letters are mapped (``g`` → GM, ``wg`` → women's title WGM…)
and, having no Sex column, its sex is taken from the ``w`` flag.

(Long on purpose, for now: the TXT and XML readers share the streams, the column builder and
the numpy helpers that make a 1.9-million-line list load in about a second; splitting them
into a package of modules is the next step once the fast paths have settled.)
"""

from __future__ import annotations

import datetime as dt
import os
import re
import zipfile
import zlib
from collections import deque
from collections.abc import Collection
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from importer.errors import InputError, UnknownFormat
from importer.fidelist import streams
from importer.fidelist.columns import (
    _MONTHS,
    WarningHook,
    _Builder,
    _Deferred,
    _Field,
    _month_date,
    _RowParser,
)
from importer.fidelist.store import (
    _BLANKS,
    FRAME_DTYPES,
    INT_FIELDS,
    LISTS,
    STRING_FIELDS,
    Array,
    FideList,
    ListEntry,
    _rows,
)
from importer.fidelist.streams import MAX_MEMBER_BYTES, ProgressHook, _open, _Stream, _XmlGuard

__all__ = [
    "FRAME_DTYPES",
    "LISTS",
    "MAX_MEMBER_BYTES",
    "FideList",
    "ListEntry",
    "read_fide_list",
]


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
_MONTH_TOKEN: Final = re.compile(rf"(?i)({'|'.join(_MONTHS)})(\d\d)")
_XML_PROLOG: Final = re.compile(rb"\A(?:\s+|<\?.*?\?>|<!--.*?-->)*<([A-Za-z_][\w.-]*)", re.S)
_EXPECTED: Final = ("a FIDE rating list: a TXT header line starting 'ID Number' "
                    "or XML with a <playerslist> root")


def read_fide_list(source: str | os.PathLike[str] | bytes, *,
                   fide_ids: Collection[str] | None = None,
                   on_warning: WarningHook | None = None,
                   kind: str | None = None, list_date: dt.date | None = None,
                   max_member_bytes: int = MAX_MEMBER_BYTES,
                   on_progress: ProgressHook | None = None) -> FideList:
    """Load a FIDE rating list: a TXT or XML download, or a .zip holding one.

    ``fide_ids`` keeps only those players (only their lines are validated);
    ``on_warning`` is called with each warning as it is found. ``kind`` names the list of a
    single-type download ('standard', 'rapid', 'blitz'; else taken from the file name, else
    standard); ``list_date`` overrides the date taken from the header or file name. A zip
    member may not expand past ``max_member_bytes``. ``on_progress`` is called with the
    bytes read so far and the total (when known) after each block.
    """
    if kind is not None and kind not in LISTS:
        raise ValueError(f"kind must be one of {LISTS}, not {kind!r}")
    with ExitStack() as stack:
        stream, name = _open(source, max_member_bytes, stack)
        stream.on_progress = on_progress
        builder = _Builder(name, fide_ids, on_warning)
        try:
            _read(stream, builder)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise InputError(f"corrupt zip member: {exc}", source=name) from None
        return builder.finish(kind, list_date)


def _read(stream: _Stream, builder: _Builder) -> None:
    """Detect the layout from the first bytes and read the whole stream into ``builder``."""
    head = stream.read(streams.CHUNK_BYTES)
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


# ---------------------------------------------------------------------------- TXT


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


# ---------------------------------------------------------------------------- XML

XML_BLOCK: Final = 4
"""XML is read CHUNK_BYTES × this at a time."""
XML_THREADS: Final = 2
"""Worker threads laying out regular XML blocks (numpy lets go of the GIL meanwhile)."""
_XML_START: Final = re.compile(rb"\s*>")
_XML_END: Final = re.compile(rb"(?:\s|<!--.*?-->|<\?.*?\?>)*</playerslist\s*>"
                             rb"(?:\s|<!--.*?-->|<\?.*?\?>)*", re.S)
_XML_ENCODING: Final = re.compile(rb"""\A\s*<\?xml[^>]*encoding\s*=\s*["']([^"']*)""")
_XML_NAME: Final = re.compile(rb"[A-Za-z_][\w.-]*")
_XML_FORBIDDEN: Final = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""The control characters XML 1.0 does not allow anywhere."""
_XML_REFERENCE: Final = re.compile(r"&(#[0-9]+|#x[0-9A-Fa-f]+|lt|gt|amp|quot|apos);")
_XML_ENTITIES: Final = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_NUMERIC_TAGS: Final = frozenset(t for t, f in _XML_TAGS.items() if f in INT_FIELDS)
_KEEP_BYTES: Final = np.array([(1 << 8 * k) - 1 for k in range(9)], dtype=np.uint64)
_SPACES: Final = np.uint64(0x2020202020202020)
_BLANK_FILL: Final = _SPACES & ~_KEEP_BYTES
_MAX_NUMBER_WIDTH: Final = 32
_PAD: Final = b" " * 8
"""Blanks before each block: a record's first gather starts up to a word before it."""


def _read_xml(head: bytes, stream: _Stream, builder: _Builder) -> None:
    """Read ``<player>`` records: regular blocks are cut with numpy at their tags; from the
    first block that is not regular on, lxml parses the rest (no DTD, no entity expansion)."""
    if b"<!DOCTYPE" in head or b"<!ENTITY" in head:
        raise InputError("entity declarations are not allowed (DOCTYPE/ENTITY found)",
                         source=builder.name)
    root = _XML_PROLOG.match(head)
    if root is None or root.group(1) != b"playerslist":
        found = f"<{root.group(1).decode('latin-1')}>" if root else "no element"
        raise UnknownFormat(f"XML root is {found}; expected <playerslist>", source=builder.name)
    tag_end = _XML_START.match(head, root.end())
    encoding = _XML_ENCODING.match(head)
    if tag_end is None or (encoding is not None
                           and encoding.group(1).lower() not in (b"utf-8", b"us-ascii")):
        _xml_with_lxml(b"", stream, builder, at=0, preamble=head)
        builder.fmt = "xml-combined" if builder.fmt == "xml-combined" else "xml-single"
        return
    if stream.total is not None:
        builder.reserve(stream.total // 400 + 1)
    with ThreadPoolExecutor(XML_THREADS, thread_name_prefix="fiderate-xml") as pool:
        _XmlBlocks(builder, stream, pool).read(_PAD + head[tag_end.end():],
                                               1 + head.count(b"\n", 0, tag_end.end()))


class _XmlBlocks:
    """Cuts the stream into blocks of whole ``<player>`` records, has worker threads lay
    them out and parse their rows (:func:`_xml_block`) a few blocks ahead, and hands the
    results to the builder in order.  From the first block that is not regular on, lxml
    parses the rest."""

    def __init__(self, builder: _Builder, stream: _Stream, pool: ThreadPoolExecutor) -> None:
        self.builder = builder
        self.stream = stream
        self.pool = pool
        self.ahead: deque[tuple[Future[tuple[_Regular, _Deferred] | None], bytes, int]] = deque()
        self.combined = False

    def read(self, pending: bytes, line: int) -> None:
        """Parse the records in ``pending`` (starting on ``line``), then the stream."""
        eof = irregular = False
        while True:
            while len(self.ahead) <= XML_THREADS:  # read blocks and hand them out
                while not eof and len(pending) < streams.CHUNK_BYTES * XML_BLOCK:
                    data = self.stream.read(streams.CHUNK_BYTES * XML_BLOCK)
                    eof = not data
                    pending += data
                cut = pending.rfind(b"</player>") + len(b"</player>")
                if cut < len(b"</player>"):  # no whole record in a block: the end, or irregular
                    break
                data = pending if len(pending) >= cut + 16 else pending + b" " * 16
                self.ahead.append((self.pool.submit(_xml_block, data, cut, self.builder), data, cut))
                pending = _PAD + pending[cut:]
            if not self.ahead:
                break
            future, data, cut = self.ahead.popleft()
            done = future.result()
            if done is None:  # lxml from here on
                for later, _, _ in self.ahead:
                    later.cancel()
                pending = b"".join([data[:cut], *(d[:c] for _, d, c in self.ahead), pending])
                self.ahead.clear()
                irregular = True
                break
            line += self._take(*done, line)
        if irregular or not (eof and _XML_END.fullmatch(pending)):
            _xml_with_lxml(pending, self.stream, self.builder, at=line)
        if self.builder.fmt != "xml-combined":
            self.builder.fmt = "xml-combined" if self.combined else "xml-single"

    def _take(self, block: _Regular, rows: _Deferred, line: int) -> int:
        """Hand a parsed block to the builder, its first line being ``line``; its line ends."""
        for tag in block.tags:
            if tag not in _XML_TAGS:
                if tag not in self.builder.unknown_tags:
                    self.builder.unknown_tags.add(tag)
                    self.builder.warn(f"unknown element <{tag}> ignored", line + block.first)
            elif tag in ("rapid_rating", "blitz_rating"):
                self.combined = True
        rows.replay(self.builder, line)
        return block.newlines


def _xml_block(data: bytes, size: int, builder: _Builder) -> tuple[_Regular, _Deferred] | None:
    """A block laid out (:func:`_regular`) and its rows parsed, for the builder to take in
    order; line numbers count from the block's first line.  Runs on a worker thread."""
    block = _regular(data, size)
    if block is None:
        return None
    rows = _Deferred(builder)
    parser = _RowParser(block.fields, rows, xml=True)
    parser.parse(block.m, (block.first + block.step * np.arange(len(block.m))).astype(np.int32),
                 clean=True)
    parser.flush()
    return block, rows


@dataclass(frozen=True, slots=True)
class _Regular:
    """A block of regular records laid out as fixed-width rows."""

    m: Array
    fields: list[_Field]
    tags: list[str]
    first: int
    """Line ends before the first record."""
    step: int
    """Line ends from one record to the next."""
    newlines: int
    """Line ends in the whole block."""


def _regular(data: bytes, size: int) -> _Regular | None:
    """The records in the first ``size`` bytes of ``data`` (at least 16 more follow) as rows;
    None unless all records are laid out byte for byte as the first, values aside: the same
    plain elements (no comments, CDATA or attributes), the same blanks between them, and
    values free of control characters and of references other than XML's own; and the text
    is UTF-8.  Pure: it runs on worker threads."""
    arr = np.frombuffer(data, np.uint8, count=size)
    opens = np.flatnonzero(arr == 60)
    layout = _xml_layout(data, opens)
    if layout is None:
        return None
    tags, children = layout
    records = len(opens) // len(tags)
    if not records or records * len(tags) != len(opens) or data[:opens[0]].strip():
        return None
    flat: Array = np.empty_like(opens)  # from each tag to the next
    np.subtract(opens[1:], opens[:-1], out=flat[:-1])
    gaps = flat.reshape(records, len(tags))
    varying = [o for _, o, c in children if c is not None]  # open tag to close: the value
    gaps[:, varying] = gaps[0, varying]
    gaps[-1, -1] = gaps[0, -1]
    if not (gaps == gaps[0]).all():  # else some record's tags are not where the first's are
        return None
    by_tag = opens.reshape(records, len(tags)).T.copy()  # one row per tag of the layout
    values = []
    for tag, o, c in children:
        start = by_tag[o] + len(tags[o]) + 2
        values.append((tag, start, by_tag[c] if c is not None else start))
    longest = {t: int((end - start).max()) for t, start, end in values if t in _XML_TAGS}
    fields = _xml_fields(longest)
    columns = _Columns(records, fields)
    same = _same_layout(data, by_tag[0], by_tag[-1] + len(tags[-1]) + 2, values, columns)
    if same is None:
        return None
    first, step, controls = same
    spans = {t: (start, end) for t, start, end in values if t in _XML_TAGS}
    fixes = _xml_references(data, arr, spans) if data.find(b"&", 0, size) >= 0 else {}
    if fixes is None:
        return None
    m = columns.matrix()
    _patch(m, fields, fixes)
    whole = len(longest) == len(values) and all(  # the rows hold every value whole
        longest.get(f.token, 0) <= f.end - f.start for f in fields)
    if (m < 32).any() if whole else np.count_nonzero(arr < 32) != controls:
        return None  # a control character in a value
    if not data.isascii():
        try:
            str(memoryview(data)[:size], "utf-8")
        except UnicodeDecodeError:
            return None
    newlines = first + step * (records - 1) + data.count(b"\n", int(by_tag[0, -1]), size)
    return _Regular(m, fields, [tag for tag, _, _ in children], first, step, newlines)


def _same_layout(data: bytes, starts: Array, ends: Array,
                 values: list[tuple[str, Array, Array]], columns: _Columns
                 ) -> tuple[int, int, int] | None:
    """Whether every record (from ``starts`` to ``ends``; all alike in their tags' places),
    values left out, is the first record byte for byte, and so are the blanks between
    records, holding no character XML forbids.  Then (line ends before the first record,
    line ends from one record to the next, control characters outside the values), else
    None.  ``values`` are the children's (tag, start, end) in document order; each known
    one's value is put into ``columns``.

    One gather per child reads, from every record, the layout before the value and the
    value's words: it starts where the value falls on a word boundary."""
    records = len(starts)
    pieces = []
    before = starts
    for tag, start, end in values:
        width = int(start[0] - before[0])
        piece = data[int(before[0]):int(start[0])]
        pad = -(-width // 8)
        field = columns.field(tag)
        got = _gather(data, start - 8 * pad, 8 * (pad + (_words_of(field) if field else 0)))
        layout = np.ndarray((records,), f"V{width}", buffer=got, offset=8 * pad - width,
                            strides=(got.itemsize,))
        if layout.tobytes() != piece * records:
            return None
        if field:
            columns.put(field, got.view("<u8").reshape(records, -1)[:, pad:], end - start)
        pieces.append(piece)
        before = end
    tail = data[int(before[0]):int(ends[0])]
    between = data[int(ends[0]):int(starts[1])] if records > 1 else b""
    if between.strip() or data[int(before[-1]):int(ends[-1])] != tail:
        return None
    gap = tail + between  # each record's tail and the blanks before the next record
    if records > 1 and _gather(data, before[:-1], len(gap)).tobytes() != gap * (records - 1):
        return None
    one = b"".join(pieces) + tail
    lead = data[:int(starts[0])]
    if _XML_FORBIDDEN.search(lead + one + between):
        return None

    def controls(part: bytes) -> int:
        return sum(b < 32 for b in part)

    return (lead.count(b"\n"), (one + between).count(b"\n"),
            controls(lead) + controls(between) * (records - 1) + controls(one) * records)


def _xml_layout(region: bytes, opens: Array
                ) -> tuple[list[bytes], list[tuple[str, int, int | None]]] | None:
    """The tags of the first record and its children (name, open tag, close tag or None for
    ``<x/>``), or None when it is not ``<player>`` holding simple elements once each."""
    tags: list[bytes] = []
    for o in opens[:200].tolist():
        close = region.find(b">", o)
        if close < 0:
            return None
        tags.append(region[o + 1:close])
        if tags[-1] == b"/player":
            break
    else:
        return None
    if tags[0] != b"player":
        return None
    children: list[tuple[str, int, int | None]] = []
    i = 1
    while i < len(tags) - 1:
        tag = tags[i]
        name = tag[:-1] if tag.endswith(b"/") else tag
        if not _XML_NAME.fullmatch(name):
            return None
        if tag.endswith(b"/"):
            children.append((name.decode(), i, None))
            i += 1
        elif tags[i + 1] == b"/" + tag:
            children.append((name.decode(), i, i + 1))
            i += 2
        else:
            return None
    if len({c[0] for c in children}) != len(children):
        return None
    return tags, children


def _gather(data: bytes, starts: Array, width: int) -> Array:
    """The ``width`` bytes at each of ``starts`` (ascending; outside ``data``, blanks) as
    ``V`` items: one fancy index whose items need no alignment."""
    if len(starts) and (starts[0] < 0 or starts[-1] + width > len(data)):
        front = max(0, -int(starts[0]))
        data = b" " * front + data + b" " * max(0, int(starts[-1]) + width - len(data))
        starts = starts + front
    return np.ndarray((len(data) - width + 1,), f"V{width}", buffer=data, strides=(1,))[starts]


def _xml_references(data: bytes, arr: Array, spans: dict[str, tuple[Array, Array]]
                    ) -> dict[str, dict[int, bytes]] | None:
    """Text values holding entity or character references, decoded (by element and row);
    None when a reference is outside a text value or is not one XML predefines."""
    found: list[int] = []
    at = data.find(b"&", 0, len(arr))
    while at >= 0 and len(found) < 4096:
        found.append(at)
        at = data.find(b"&", at + 1, len(arr))
    amps = np.array(found, dtype=np.int64) if at < 0 else np.flatnonzero(arr == 38)
    fixes: dict[str, dict[int, bytes]] = {}
    inside = np.zeros(len(amps), dtype=bool)
    for tag, (start, end) in spans.items():
        if tag in _NUMERIC_TAGS or tag == "fideid":
            continue
        row = np.searchsorted(start, amps, side="right") - 1
        hit = (row >= 0) & (amps < end[np.maximum(row, 0)])
        inside |= hit
        rows = np.array(sorted(set(row[hit].tolist())), dtype=np.int64)
        own: dict[int, bytes] = {}
        for r, a, b in zip(rows.tolist(), start[rows].tolist(), end[rows].tolist(), strict=True):
            text = _xml_unescape(data[a:b].decode())
            if text is None:
                return None
            own[r] = text.encode()
        if own:
            fixes[tag] = own
    return fixes if inside.all() else None


def _xml_unescape(text: str) -> str | None:
    """Predefined entities and character references decoded; None if another ``&`` remains
    or a reference is to a character XML does not allow."""
    def one(m: re.Match[str]) -> str:
        ref = m.group(1)
        if ref[0] != "#":
            return _XML_ENTITIES[ref]
        code = int(ref[2:], 16) if ref[1] == "x" else int(ref[1:])
        allowed = code in (9, 10, 13) or 32 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD \
            or 0x10000 <= code <= 0x10FFFF
        return chr(code) if allowed else "\x00"
    out = _XML_REFERENCE.sub(one, text)
    return None if "&" in _XML_REFERENCE.sub("", text) or "\x00" in out else out


def _xml_fields(longest: dict[str, int]) -> list[_Field]:
    """Each known element as a field as wide as its longest value (by tag; an absent one is
    blank; a number is cut at the widest any list could hold), every field starting on an
    8-byte word."""
    fields: list[_Field] = []
    at = 0
    for tag, name in _XML_TAGS.items():
        width = max(1, longest.get(tag, 0))
        if tag in _NUMERIC_TAGS or tag == "fideid":
            width = min(width, _MAX_NUMBER_WIDTH)
        fields.append(_Field(name, tag, at, at + width))
        at += 8 * -(-width // 8)
    return fields


def _words_of(field: _Field) -> int:
    return -(-(field.end - field.start) // 8)


class _Columns:
    """Fixed-width rows of :func:`_xml_fields`, built a field at a time (in 8-byte words, a
    word of every row at once), each value left-aligned and blank-padded."""

    def __init__(self, n: int, fields: list[_Field]) -> None:
        self.fields = {f.token: f for f in fields}
        self.unset = set(fields)
        self.words = np.empty((fields[-1].start // 8 + _words_of(fields[-1]), n), np.uint64)

    def field(self, tag: str) -> _Field | None:
        return self.fields.get(tag)

    def put(self, field: _Field, words: Array, length: Array) -> None:
        """Each row's value: its first words (rows × words), ``length`` bytes of them."""
        self.unset.discard(field)
        for k in range(_words_of(field)):
            keep = np.minimum(length, 8) if k == 0 else np.clip(length - 8 * k, 0, 8)
            row = self.words[field.start // 8 + k]
            np.bitwise_and(words[:, k], _KEEP_BYTES.take(keep), out=row)
            row |= _BLANK_FILL.take(keep)

    def matrix(self) -> Array:
        """The rows as a byte matrix (absent fields blank)."""
        for f in self.unset:
            self.words[f.start // 8:f.start // 8 + _words_of(f)] = _SPACES
        return self.words.T.copy().view(np.uint8)


def _patch(m: Array, fields: list[_Field], fixes: dict[str, dict[int, bytes]]) -> None:
    """Put the values decoded by :func:`_xml_references` into their rows."""
    for f in fields:
        own = fixes.get(f.token)
        if own:
            rows = np.fromiter(own, dtype=np.int64, count=len(own))
            values = np.array(list(own.values()), dtype=f"S{f.end - f.start}")
            block = _rows(values)
            m[rows, f.start:f.end] = np.where(block == 0, 32, block)


def _xml_matrix(data: bytes, spans: dict[str, tuple[Array, Array]], n: int
                ) -> tuple[Array, list[_Field]]:
    """The values at ``spans`` (by tag) as fixed-width rows of :func:`_xml_fields`."""
    fields = _xml_fields({tag: int((end - start).max()) if n else 0
                          for tag, (start, end) in spans.items()})
    columns = _Columns(n, fields)
    for f in fields:
        if f.token in spans:
            start, end = spans[f.token]
            got = _gather(data, start, 8 * _words_of(f)).view("<u8").reshape(n, -1)
            columns.put(f, got, end - start)
    return columns.matrix(), fields


def _xml_with_lxml(data: bytes, stream: _Stream, builder: _Builder, *, at: int,
                   preamble: bytes | None = None) -> None:
    """Stream the rest with lxml: ``data`` (starting on line ``at``, inside the root), then
    the stream; or, with ``preamble``, the whole document from its start."""
    from lxml import etree

    if preamble is not None:
        stream.unread(preamble)
        offset = 0
    else:
        stream.unread(b"<playerslist>" + data)
        offset = at - 1
    batch = _XmlBatch(builder)
    wanted = builder.wanted
    try:
        for _, elem in etree.iterparse(_XmlGuard(stream), events=("end",), tag="player",
                                       resolve_entities=False, no_network=True,
                                       huge_tree=False, load_dtd=False,
                                       chunk_size=1 << 20):
            if wanted is None or (elem.findtext("fideid") or "").strip().encode() in wanted:
                batch.add(elem, (elem.sourceline or 0) + offset)
            elem.clear(keep_tail=False)
            while elem.getprevious() is not None:
                del elem.getparent()[0]
            if len(batch.lines) >= 50_000:
                batch.flush()
    except etree.XMLSyntaxError as exc:
        raise InputError(f"malformed XML: {exc.msg}", source=builder.name,
                         line=exc.lineno + offset if exc.lineno else None) from None
    batch.flush()
    if batch.combined:
        builder.fmt = "xml-combined"


class _XmlBatch:
    """``<player>`` records from lxml, laid out as fixed-width rows for a :class:`_RowParser`."""

    def __init__(self, builder: _Builder) -> None:
        self.builder = builder
        self.values: dict[str, list[bytes]] = {tag: [] for tag in _XML_TAGS}
        self.lines: list[int] = []
        self.combined = False

    def add(self, elem: Any, line: int) -> None:
        seen: dict[str, bytes] = {}
        for child in elem:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            if tag in _XML_TAGS:
                seen[tag] = (child.text or "").encode().strip(_BLANKS)
                if tag in ("rapid_rating", "blitz_rating"):
                    self.combined = True
            elif tag not in self.builder.unknown_tags:
                self.builder.unknown_tags.add(tag)
                self.builder.warn(f"unknown element <{tag}> ignored", line)
        for tag, values in self.values.items():
            values.append(seen.get(tag, b""))
        self.lines.append(line)

    def flush(self) -> None:
        n = len(self.lines)
        if not n:
            return
        joined = b"".join(v for values in self.values.values() for v in values) + b" " * 16
        offsets = np.cumsum([0, *(len(v) for values in self.values.values() for v in values)])
        starts = offsets[:-1].reshape(len(_XML_TAGS), n)
        ends = offsets[1:].reshape(len(_XML_TAGS), n)
        spans = {tag: (starts[i], ends[i]) for i, tag in enumerate(_XML_TAGS)}
        m, fields = _xml_matrix(joined, spans, n)
        rows = _RowParser(fields, self.builder, xml=True)
        rows.parse(m, np.array(self.lines, dtype=np.int32), clean=True)
        rows.flush()
        for values in self.values.values():
            values.clear()
        self.lines.clear()
