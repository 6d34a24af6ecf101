"""The file formats, each a pure parser (text or bytes in, the model out): chess-results pages
(``chessresults/``), TRF (``trf/``), FIDE's rating lists (``fidelist/``), national rating lists
(``nationallist/``), and one module each for Excel exports, Swiss-Manager CSV, JSON, saved web
archives (MHTML), FIDE's calculations pages and fiderate's own normalized folders.

Each reader is imported when a source of its format is first read (PEP 562): the bytes say
which, and a file needs one (Excel's stack alone takes 0.3 s).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    import importer.formats.chessresults as chessresults
    import importer.formats.excel as excel
    import importer.formats.fidecalc as fidecalc
    import importer.formats.jsonfile as jsonfile
    import importer.formats.nationallist as nationallist
    import importer.formats.smcsv as smcsv
    import importer.formats.trf as trf

__all__ = ["chessresults", "excel", "fidecalc", "jsonfile", "nationallist", "smcsv", "trf"]

__getattr__, __dir__ = lazy_exports(__name__, {}, {
    name: f"{__name__}.{name}" for name in __all__})
