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

The modules: :mod:`~importer.formats.fidelist.reader` opens the download and tells TXT from XML;
:mod:`~importer.formats.fidelist.streams` reads its bytes within limits;
:mod:`~importer.formats.fidelist.txt` and :mod:`~importer.formats.fidelist.xml` cut it into fixed-width
rows, which :mod:`~importer.formats.fidelist.columns` parses and collects into the
:class:`FideList` of :mod:`~importer.formats.fidelist.store`.  Each name is imported on first
use (PEP 562): the package costs nothing until a list is read (numpy, ~100 ms).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from importer.formats.fidelist.entry import LISTS, ListEntry
    from importer.formats.fidelist.reader import read_fide_list
    from importer.formats.fidelist.store import FRAME_DTYPES, FideList
    from importer.formats.fidelist.streams import MAX_MEMBER_BYTES

__all__ = [
    "FRAME_DTYPES",
    "LISTS",
    "MAX_MEMBER_BYTES",
    "FideList",
    "ListEntry",
    "read_fide_list",
]

_FROM = {"importer.formats.fidelist.reader": ("read_fide_list",),
         "importer.formats.fidelist.entry": ("LISTS", "ListEntry"),
         "importer.formats.fidelist.store": ("FRAME_DTYPES", "FideList"),
         "importer.formats.fidelist.streams": ("MAX_MEMBER_BYTES",)}
__getattr__, __dir__ = lazy_exports(__name__, _FROM)
