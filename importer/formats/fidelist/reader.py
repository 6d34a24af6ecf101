""":func:`read_fide_list`: opens the download, tells TXT from XML by its first bytes and
builds the list."""

from __future__ import annotations

import datetime as dt
import os
import zipfile
import zlib
from collections.abc import Collection
from contextlib import ExitStack

import importer.formats.fidelist.streams as streams
from importer.errors import InputError, UnknownFormat
from importer.formats.fidelist.columns import WarningHook, _Builder
from importer.formats.fidelist.entry import LISTS
from importer.formats.fidelist.store import FideList
from importer.formats.fidelist.streams import MAX_MEMBER_BYTES, ProgressHook, _open, _Stream
from importer.formats.fidelist.txt import _EXPECTED, _read_txt
from importer.formats.fidelist.xml import _read_xml


def read_fide_list(source: str | os.PathLike[str] | bytes, *,
                   fide_ids: Collection[str] | None = None,
                   federations: Collection[str] = (),
                   on_warning: WarningHook | None = None,
                   kind: str | None = None, list_date: dt.date | None = None,
                   max_member_bytes: int = MAX_MEMBER_BYTES,
                   on_progress: ProgressHook | None = None) -> FideList:
    """Load a FIDE rating list: a TXT or XML download, or a .zip holding one.

    ``fide_ids`` keeps only those players (only their lines are validated), and with them
    every player of the ``federations`` given (to find players without an id by name);
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
        builder = _Builder(name, fide_ids, on_warning, federations)
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
