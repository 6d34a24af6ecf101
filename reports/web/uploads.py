"""Forms and uploaded files: read as they stream in, within fixed limits.

Each file goes into a private temporary folder (mode 0700) under a name the server makes
from the one sent: its last part only, cut down to letters, digits, ``.``, ``_``, ``-`` and
spaces, numbered when taken (so messages name the user's file, and nothing is ever written
under a path the user chose).  What the
files are is told by their content when they are read, never by their names.  The folder is
removed when the request ends (:meth:`Form.close`), whatever happened.

A file over :data:`MAX_FILE_BYTES`, more than :data:`MAX_FILES` files or a request over
:data:`MAX_REQUEST_BYTES` is refused with 413; the rest of the request is read and dropped
first (up to the request limit), so a browser shows the answer and not a broken connection.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING
from urllib.parse import parse_qsl

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from reports.web.problems import Problem

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = ["MAX_FILES", "MAX_FILE_BYTES", "MAX_REQUEST_BYTES", "Form", "Upload", "display_name",
           "read_form"]

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILES = 20
MAX_REQUEST_BYTES = 50 * 1024 * 1024
MAX_FIELD_BYTES = 64 * 1024
MAX_PASTE_BYTES = 4 * 1024 * 1024
"""A page's text pasted into the link box (a chess-results page is 20–100 KB)."""
PASTE_FIELD = "source"
"""The one field that may hold a pasted page."""
MAX_FIELDS = 50
_MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Upload:
    """One uploaded file: where the server put it, under the name messages show."""

    path: Path
    name: str


@dataclass
class Form:
    """A submitted form: its text fields and its files (by field name)."""

    fields: dict[str, str] = field(default_factory=dict)
    files: dict[str, list[Upload]] = field(default_factory=dict)
    folder: Path | None = None

    def get(self, name: str) -> str:
        """A text field, stripped ('' when absent)."""
        return self.fields.get(name, "").strip()

    def uploads(self, name: str) -> list[Upload]:
        """The files sent in field *name*."""
        return self.files.get(name, [])

    def pasted(self, name: str) -> list[Upload]:
        """The text of a page pasted into field *name* (a saved page's HTML, a TRF), as a file
        read like any upload; [] when the field holds a link or a number."""
        text = self.get(name)
        if not _PAGE_TEXT.search(text[:4096]) and text.count("\n") < 3:
            return []
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="fiderate-upload-"))
        path = self.folder / "pasted-page.html"
        path.write_text(text, encoding="utf-8")
        return [Upload(path, "the pasted page")]

    def clean(self, message: str) -> str:
        """A message with the server's folder taken out of file names."""
        return message.replace(f"{self.folder}/", "") if self.folder is not None else message

    def close(self) -> None:
        """Remove the uploaded files."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


_PAGE_TEXT = re.compile(r"<(?:!doctype|html|head|body|table|div|tr|td|p)\b", re.IGNORECASE)
"""Markup near the start of a field: a page's text, not a link."""


def display_name(raw: str) -> str:
    """The last part of a file name as sent, with only safe characters: '../x<y>.trf' → 'x_y_.trf'."""
    base = re.split(r"[\\/]", raw)[-1]
    safe = "".join(ch if ch.isalnum() or ch in "._- " else "_" for ch in base)
    return safe.strip(" .")[:100] or "upload"


def _too_large(what: str) -> Problem:
    return Problem(what, 413)


async def read_form(request: Request) -> Form:
    """The request's form (multipart or URL-encoded), its files in a private folder.

    Problem 413 for a file, a count of files or a request over the limits; 400 for a form
    that cannot be read.  On any error the files already written are removed.
    """
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_REQUEST_BYTES:
        raise _too_large(f"the upload is larger than {MAX_REQUEST_BYTES // _MB} MB, the limit here")
    ctype = request.headers.get("content-type", "")
    if ctype.lower().startswith("multipart/form-data"):
        return await _multipart(request, ctype)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_PASTE_BYTES + MAX_FIELD_BYTES:
            raise Problem("the form is larger than a form without files can be", 413)
    pairs = parse_qsl(body.decode("utf-8", errors="replace"), keep_blank_values=True)
    return Form(fields=dict(pairs[:MAX_FIELDS]))


class _Reader:
    """python-multipart callbacks writing files as they arrive, counting against the limits."""

    def __init__(self) -> None:
        self.form = Form()
        self.error: Problem | None = None
        self._header = bytearray()
        self._value = bytearray()
        self._disposition = b""
        self._name = ""
        self._filename: str | None = None
        self._data = bytearray()
        self._out: IO[bytes] | None = None
        self._path: Path | None = None
        self._size = 0
        self._count = 0
        self._fields = 0

    def _refuse(self, problem: Problem) -> None:
        if self.error is None:
            self.error = problem
        self._drop_file()

    def _drop_file(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
        if self._path is not None:
            self._path.unlink(missing_ok=True)
            self._path = None

    def on_part_begin(self) -> None:
        self._disposition, self._name, self._filename = b"", "", None
        self._data, self._size = bytearray(), 0

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def on_header_end(self) -> None:
        if bytes(self._header).lower() == b"content-disposition":
            self._disposition = bytes(self._value)
        self._header, self._value = bytearray(), bytearray()

    def on_headers_finished(self) -> None:
        if self.error is not None:
            return
        _, options = parse_options_header(self._disposition)
        self._name = options.get(b"name", b"").decode("utf-8", errors="replace")
        if b"filename" not in options:
            self._fields += 1
            if self._fields > MAX_FIELDS:
                self._refuse(Problem(f"the form has more than {MAX_FIELDS} fields"))
            return
        self._filename = options[b"filename"].decode("utf-8", errors="replace")
        if not self._filename:  # a file field left empty: browsers still send it
            return
        self._count += 1
        if self._count > MAX_FILES:
            self._refuse(_too_large(f"more than {MAX_FILES} files, the limit here"))
            return
        if self.form.folder is None:
            self.form.folder = Path(tempfile.mkdtemp(prefix="fiderate-upload-"))
        name = display_name(self._filename)
        path = self.form.folder / name
        if path.exists():
            stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
            path = self.form.folder / f"{stem}-{self._count}{dot}{ext}"
        self._path = path
        self._out = path.open("xb")

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self.error is not None:
            return
        self._size += end - start
        if self._filename is None:
            if self._size > (MAX_PASTE_BYTES if self._name == PASTE_FIELD else MAX_FIELD_BYTES):
                self._refuse(Problem(f"the field {self._name!r} is too long"))
            else:
                self._data += data[start:end]
        elif self._out is not None:
            if self._size > MAX_FILE_BYTES:
                self._refuse(_too_large(f"{display_name(self._filename)} is larger than "
                                        f"{MAX_FILE_BYTES // _MB} MB, the limit for a file here"))
            else:
                self._out.write(data[start:end])

    def on_part_end(self) -> None:
        if self.error is not None:
            return
        if self._filename is None:
            self.form.fields.setdefault(self._name, self._data.decode("utf-8", errors="replace"))
        elif self._out is not None and self._path is not None:
            self._out.close()
            self._out = None
            self.form.files.setdefault(self._name, []).append(
                Upload(self._path, self._path.name))
            self._path = None


async def _multipart(request: Request, ctype: str) -> Form:
    _, params = parse_options_header(ctype)
    boundary = params.get(b"boundary")
    if not boundary:
        raise Problem("the upload is not a form with files (no boundary)")
    reader = _Reader()
    parser = MultipartParser(boundary, {
        "on_part_begin": reader.on_part_begin, "on_part_data": reader.on_part_data,
        "on_part_end": reader.on_part_end, "on_header_field": reader.on_header_field,
        "on_header_value": reader.on_header_value, "on_header_end": reader.on_header_end,
        "on_headers_finished": reader.on_headers_finished})
    total = 0
    try:
        async for chunk in request.stream():
            total += len(chunk)
            if total > MAX_REQUEST_BYTES:
                raise _too_large(f"the upload is larger than {MAX_REQUEST_BYTES // _MB} MB, "
                                 "the limit here")
            if reader.error is None:
                parser.write(chunk)
        if reader.error is not None:
            raise reader.error
        parser.finalize()
    except MultipartParseError:
        reader.form.close()
        raise Problem("the upload is not a readable form") from None
    except BaseException:
        reader._drop_file()
        reader.form.close()
        raise
    return reader.form
