"""The file formats, each a pure parser (text or bytes in, the model out): chess-results pages
(``chessresults/``), TRF (``trf/``), FIDE's rating lists (``fidelist/``), national rating lists
(``nationallist/``), and one module each for Excel exports, Swiss-Manager CSV, JSON, saved web
archives (MHTML), FIDE's calculations pages and fiderate's own normalized folders.
"""
