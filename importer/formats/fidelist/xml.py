"""XML downloads: regular blocks of ``<player>`` records are cut at their tags with numpy,
laid out as fixed-width rows and parsed on worker threads, and handed to the builder in file
order; from the first block that is not regular on (comments, CDATA, attributes, other
layouts), lxml parses the rest (imported only then).
"""

from __future__ import annotations

import re
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

import importer.formats.fidelist.streams as streams
from importer.errors import InputError, UnknownFormat
from importer.formats.fidelist.columns import _Builder, _Deferred, _Field, _RowParser
from importer.formats.fidelist.store import _BLANKS, INT_FIELDS, Array, _rows
from importer.formats.fidelist.streams import _Stream, _XmlGuard

_XML_TAGS: Final = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title",
    "rating": "std_rating", "games": "std_games", "k": "std_k",
    "rapid_rating": "rpd_rating", "rapid_games": "rpd_games", "rapid_k": "rpd_k",
    "blitz_rating": "blz_rating", "blitz_games": "blz_games", "blitz_k": "blz_k",
    "birthday": "birth_year", "flag": "flags",
}
_XML_PROLOG: Final = re.compile(rb"\A(?:\s+|<\?.*?\?>|<!--.*?-->)*<([A-Za-z_][\w.-]*)", re.S)

XML_BLOCK: Final = 4
"""XML is read ``streams.CHUNK_BYTES`` × this at a time."""
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
    if not data.isascii():  # before any value is decoded
        try:
            str(memoryview(data)[:size], "utf-8")
        except UnicodeDecodeError:
            return None
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
    from lxml import etree  # lazy: a TXT list (most) never needs lxml

    if preamble is not None:
        stream.unread(preamble)
        offset = 0
    else:
        stream.unread(b"<playerslist>" + data)
        offset = at - 1
    batch = _XmlBatch(builder)
    wanted, feds = builder.wanted, set(builder.wanted_feds)
    try:
        for _, elem in etree.iterparse(_XmlGuard(stream), events=("end",), tag="player",
                                       resolve_entities=False, no_network=True,
                                       huge_tree=False, load_dtd=False,
                                       chunk_size=1 << 20):
            builder.scanned += 1
            if wanted is None or (elem.findtext("fideid") or "").strip().encode() in wanted or (
                    (elem.findtext("country") or "").strip().upper().encode() in feds):
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
