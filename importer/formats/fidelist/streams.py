"""Reading a list's bytes safely: the file, or the one list in a zip, as a stream that
refuses to expand past its limit; a zip member is inflated ahead on a background thread, and
what lxml reads is checked for DTDs and entity declarations on the way.

The readers look the block size and the line limit up here at call time
(``streams.CHUNK_BYTES``), so that a change made here (as the tests make) reaches them all.
"""

from __future__ import annotations

import io
import os
import queue
import threading
import zipfile
import zlib
from collections.abc import Callable
from contextlib import ExitStack, suppress
from typing import IO, Final

from importer.errors import InputError

ProgressHook = Callable[[int, "int | None"], None]

MAX_MEMBER_BYTES: Final = 1 << 30
"""A zip member may not expand past this many bytes (declared or actually read)."""
CHUNK_BYTES: Final = 1 << 20
"""TXT is parsed this many bytes at a time (small enough for the CPU caches); XML 4× that."""
MAX_LINE_BYTES: Final = 1 << 16


class _Stream:
    """A binary reader that refuses to read past ``limit`` bytes; ``unread`` puts data back.

    With ``ahead`` a background thread reads (inflates) the next blocks while the caller
    parses; its errors surface in :meth:`read`.
    """

    def __init__(self, raw: IO[bytes], name: str, limit: int | None, *,
                 total: int | None = None, ahead: bool = False) -> None:
        self.raw, self.name, self.limit, self.total = raw, name, limit, total
        self.pending = b""
        self.offset = 0
        self.count = 0
        self.done = 0
        self.on_progress: ProgressHook | None = None
        self._block = b""
        self._at = 0
        self._queue: queue.Queue[bytes | BaseException] | None = None
        self._stop = threading.Event()
        if ahead:
            self._queue = queue.Queue(maxsize=4)
            self._thread = threading.Thread(target=self._fill, daemon=True)
            self._thread.start()

    def unread(self, data: bytes) -> None:
        """Serve ``data`` before the rest of the stream."""
        self.pending, self.offset = data, 0

    def read(self, size: int = -1) -> bytes:
        if self.offset < len(self.pending):
            end = len(self.pending) if size < 0 else self.offset + size
            data = self.pending[self.offset:end]
            self.offset += len(data)
            return data
        data = self._next(size) if self._queue is not None else self._raw(size)
        if data and self.on_progress is not None:
            self.done += len(data)
            self.on_progress(self.done, self.total)
        return data

    def close(self) -> None:
        """Stop the background reader (if any)."""
        if self._queue is not None:
            self._stop.set()
            while self._thread.is_alive():
                with suppress(queue.Empty):
                    self._queue.get(timeout=0.05)
            self._queue = None

    def _raw(self, size: int) -> bytes:
        data = self.raw.read(size if size >= 0 else CHUNK_BYTES)
        self.count += len(data)
        if self.limit is not None and self.count > self.limit:
            raise InputError(f"zip member expands past {self.limit} bytes", source=self.name)
        return data

    def _fill(self) -> None:
        assert self._queue is not None
        while not self._stop.is_set():
            item: bytes | BaseException
            try:
                item = self._raw(4 * CHUNK_BYTES)
            except BaseException as exc:  # handed to the reading thread
                item = exc
            while not self._stop.is_set():
                try:
                    self._queue.put(item, timeout=0.05)
                    break
                except queue.Full:
                    continue
            if not isinstance(item, bytes) or not item:
                return

    def _next(self, size: int) -> bytes:
        assert self._queue is not None
        if self._at >= len(self._block):
            if self._block == b"" and self._at < 0:
                return b""
            item = self._queue.get()
            if isinstance(item, BaseException):
                self._block, self._at = b"", -1
                raise item
            self._block, self._at = item, 0
            if not item:
                self._at = -1
                return b""
        if self._at == 0 and (size < 0 or size >= len(self._block)):
            data, self._at = self._block, len(self._block)
            return data
        end = len(self._block) if size < 0 else self._at + size
        data = self._block[self._at:end]
        self._at += len(data)
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
        name, raw, total = "<bytes>", io.BytesIO(source), len(source)
    else:
        name = os.fspath(source)
        try:
            raw = stack.enter_context(open(name, "rb"))  # noqa: SIM115
            total = os.fstat(raw.fileno()).st_size
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", source=name) from None
    magic = raw.read(4)
    raw.seek(0)
    if magic != b"PK\x03\x04":
        return _Stream(raw, name, None, total=total), name
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
        unpacked = stack.enter_context(archive.open(member))
    except (zipfile.BadZipFile, NotImplementedError, zlib.error, EOFError) as exc:
        raise InputError(f"not a readable zip: {exc}", source=name) from None
    stream = _Stream(unpacked, where, limit, total=member.file_size, ahead=True)
    stack.callback(stream.close)
    return stream, where
