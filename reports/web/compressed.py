"""Answers compressed once, not once a request: the form, the calculator and the pages of
reports built from chess-results links, which many users open and which do not change.

``GZipMiddleware`` compresses everything else as it goes out (and leaves these alone: they
already say ``Content-Encoding``).  Only public text is kept here, never a page of uploaded
files or a period: nothing of one user's upload outlives its report in this cache.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from typing import TYPE_CHECKING

from starlette.responses import Response

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = ["BUDGET", "answer", "gzipped"]

BUDGET = 32 * 1024 * 1024
"""Bytes of pages and their compressed forms kept (the least recently used go first)."""
MIN_BYTES = 500
"""Shorter answers are sent as they are (as ``GZipMiddleware`` does)."""
LEVEL = 6

_kept: OrderedDict[str, bytes] = OrderedDict()
_size = 0
_lock = threading.Lock()  # sync routes run in threads


def gzipped(text: str) -> bytes:
    """*text* (UTF-8) compressed, from the cache when it was compressed before.  The key is
    the text itself: a kept page is the same string each time, so a lookup is one
    identity comparison and a hash Python already holds."""
    global _size
    with _lock:
        found = _kept.get(text)
        if found is not None:
            _kept.move_to_end(text)
            return found
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    body = packer.compress(text.encode("utf-8")) + packer.flush()
    with _lock:
        if text not in _kept:
            _kept[text] = body
            _size += len(text) + len(body)
        while _size > BUDGET and _kept:
            old, packed = _kept.popitem(last=False)
            _size -= len(old) + len(packed)
    return body


def answer(request: Request, text: str, media_type: str, headers: dict[str, str]) -> Response:
    """*text* as the answer, compressed from the cache when the client takes gzip (as it
    is otherwise: ``GZipMiddleware`` adds its ``Vary``)."""
    if len(text) >= MIN_BYTES and "gzip" in request.headers.get("accept-encoding", ""):
        return Response(gzipped(text), media_type=media_type, headers={
            **headers, "content-encoding": "gzip", "vary": "Accept-Encoding"})
    return Response(text, media_type=media_type, headers=headers)
