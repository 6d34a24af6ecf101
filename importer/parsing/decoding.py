"""Page bytes → text: what a browser would show, for saved and fetched pages alike.

Valid UTF-8 is read as UTF-8 whatever the page's label says.  Otherwise, each tried
strictly: the byte-order mark's encoding; the charset of the HTTP response (given by the
fetcher, or in the headers a saved page may start with), then the ``<meta charset>`` (or
XML) declaration; then cp1251 or cp1252, whichever reads more like words; Latin-1 last,
which cannot fail.
"""

from __future__ import annotations

import re

__all__ = ["decode_page"]

_HTTP_HEAD = re.compile(rb"HTTP/\d(?:\.\d)? \d{3}[^\r\n]*\r?\n(.*?)\r?\n\r?\n", re.DOTALL)
_HTTP_CHARSET = re.compile(rb"^content-type:[^\r\n]*?charset\s*=\s*[\"']?([\w.:-]+)",
                           re.IGNORECASE | re.MULTILINE)
_WINDOWS_1252_LABELS = frozenset({"ascii", "us-ascii", "iso-8859-1", "iso8859-1", "latin1",
                                  "latin-1", "l1", "iso_8859-1", "cp819", "ibm819"})
"""Labels browsers read as windows-1252 (https://encoding.spec.whatwg.org/#names-and-labels):
pages that say Latin-1 use the 0x80–0x9F bytes for quotes, dashes and the euro sign."""
_SNIFF_BYTES = 256 * 1024
_CYRILLIC_TOUCHING_LATIN = re.compile(r"[A-Za-z][\u0400-\u04ff]|[\u0400-\u04ff][A-Za-z]")
_ACCENTED_ONLY_WORD = re.compile(r"(?<![A-Za-z\u00c0-\u00ff])[\u00c0-\u00ff]{2,}(?![A-Za-z\u00c0-\u00ff])")


def _http_charset(data: bytes) -> str | None:
    """The charset of the HTTP response headers a page was saved with (``curl -i``), if any:
    the last response's, when redirects left several header blocks."""
    charset, pos = None, 0
    while (head := _HTTP_HEAD.match(data, pos, min(len(data), pos + 16384))) is not None:
        found = _HTTP_CHARSET.search(head[1])
        charset = found[1].decode("ascii").lower() if found else None
        pos = head.end()
    return charset


def _usable_label(label: str | None) -> str | None:
    """A declared charset as the codec to try: Latin-1 and ASCII labels mean windows-1252,
    and a UTF-16/32 label found in ASCII-readable bytes is wrong: browsers then read UTF-8,
    which is tried anyway (the HTML standard's prescan,
    https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding).
    """
    if not label:
        return None
    label = label.strip().lower()
    if label in _WINDOWS_1252_LABELS:
        return "cp1252"
    if label.replace("-", "").replace("_", "").startswith(("utf16", "utf32", "ucs2")):
        return None
    return label


def _legacy_encoding(data: bytes) -> str:
    """cp1251 (Russian Windows) or cp1252 (Western Windows) for a page that is not UTF-8.

    Cyrillic read as cp1252 gives words of accented letters only (``Êóçíåöîâ``); accented
    Latin read as cp1251 puts Cyrillic letters inside Latin words (``Mьller``).  The reading
    with fewer such oddities wins; cp1252 on a tie.
    """
    sample = data[:_SNIFF_BYTES]
    if sample.isascii():
        return "cp1252"
    odd_1251 = len(_CYRILLIC_TOUCHING_LATIN.findall(sample.decode("cp1251", errors="replace")))
    odd_1252 = len(_ACCENTED_ONLY_WORD.findall(sample.decode("cp1252", errors="replace")))
    return "cp1251" if odd_1252 > odd_1251 else "cp1252"


def decode_page(data: bytes, charset: str | None = None) -> str:
    """A page's bytes → text; ``charset`` is the HTTP response's, when it was fetched.

    Valid UTF-8 is read as UTF-8 whatever the page's label says: valid UTF-8 with non-ASCII
    text is never a legacy encoding by accident, and a stale label is what an editor leaves
    when it re-saves a page.  Otherwise Beautiful Soup's ``UnicodeDammit`` tries, each
    strictly: the byte-order mark's encoding; ``charset``, or that of the HTTP response
    headers a saved page may start with; then the ``<meta charset>`` (or XML) declaration;
    then cp1251 or cp1252 by :func:`_legacy_encoding`; Latin-1 last, which cannot fail.
    """
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # the only BOM valid UTF-8 has
    except UnicodeDecodeError:
        pass
    # Lazy: Beautiful Soup takes ~100 ms to import, and a UTF-8 page (most) never needs it.
    from bs4.dammit import EncodingDetector, UnicodeDammit

    _, bom = EncodingDetector.strip_byte_order_mark(data)
    declared = (_usable_label(charset or _http_charset(data)),
                _usable_label(EncodingDetector.find_declared_encoding(data, is_html=True)))
    order = [e for e in (bom, *declared) if e] + [_legacy_encoding(data), "latin-1"]
    text = UnicodeDammit(data, known_definite_encodings=order, is_html=True).unicode_markup
    return text if text is not None else data.decode("latin-1")
