"""MHTML (``.mht``, ``.mhtml``) saved pages → the HTML page inside them.

Chrome on Android (and "save as single file" elsewhere) saves a page as one MIME
``multipart/related`` message: the page and its images, each part quoted-printable or base64
and named by its ``Content-Location``.  Such a file is recognised by its structure (a MIME
header block with ``multipart/related`` before anything else), unwrapped with the standard
library's :mod:`email` parser, and its page is then read as any saved page.
"""

from __future__ import annotations

import email
import re
from email import policy
from typing import TYPE_CHECKING

from importer.errors import InputError
from importer.parsing.decoding import decode_page

if TYPE_CHECKING:
    from email.message import Message

__all__ = ["looks_like_mhtml", "page_bytes"]

_FIELD = re.compile(rb"[!-9;-~]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*")
"""One header field (a name, a colon, the value) with its folded continuation lines."""
_RELATED = re.compile(rb"content-type:\s*multipart/related\b", re.IGNORECASE)
_HEAD_BYTES = 64 * 1024


def looks_like_mhtml(data: bytes) -> bool:
    """True when the bytes open with MIME header fields, one of them a ``multipart/related``
    Content-Type (the file name does not matter)."""
    head, pos = data[:_HEAD_BYTES], 0
    while (field := _FIELD.match(head, pos)) is not None:
        if _RELATED.match(field[0]):
            return True
        pos = field.end()
    return False


def _main_part(msg: Message) -> Message | None:
    """The page: the part the ``start`` parameter or the snapshot's location names, else the
    first ``text/html`` part."""
    pages = [p for p in msg.walk() if p.get_content_type() == "text/html"]
    start = str(msg.get_param("start") or "").strip()
    location = str(msg.get("Snapshot-Content-Location") or "").strip()
    for p in pages:
        if (start and str(p.get("Content-ID") or "").strip() == start) or (
                location and str(p.get("Content-Location") or "").strip() == location):
            return p
    return pages[0] if pages else None


def page_bytes(data: bytes, *, source: str = "") -> bytes:
    """The page inside an MHTML file, decoded with its charset, as UTF-8 bytes.

    InputError when the file holds no HTML page.
    """
    # Only the email package runs inside the try: it is lenient with damaged messages, but
    # reading a malformed header can still end in these.
    try:
        msg = email.message_from_bytes(data, policy=policy.default)
        part = _main_part(msg) if msg.is_multipart() else None
        payload = part.get_payload(decode=True) if part is not None else None
        charset = part.get_content_charset() if part is not None else None
    except (LookupError, TypeError, ValueError) as exc:
        detail = " ".join(str(exc).split())[:200]
        raise InputError(f"unreadable MHTML page ({type(exc).__name__}: {detail})",
                         source=source) from None
    if not isinstance(payload, bytes) or not payload.strip():
        raise InputError("an MHTML file (a saved page) without the page in it: expected a "
                         "text/html part", source=source)
    return decode_page(payload, charset).encode("utf-8")
