"""chess-results.com HTML pages → model (pure: text in, records out; spec chess-results.md).

``parse_page`` reads one page into a :class:`Page`; ``build_tournament`` merges the pages of
one tournament into a :class:`~importer.model.Tournament`; ``parse_round_cell`` reads one
crosstable round cell (also used by the Excel-export reader).
"""

from __future__ import annotations

from importer.chessresults.cells import Cell, parse_round_cell
from importer.chessresults.merge import build_tournament
from importer.chessresults.pages import KINDS, Page, looks_like_chess_results, parse_page

__all__ = ["KINDS", "Cell", "Page", "build_tournament", "looks_like_chess_results",
           "parse_page", "parse_round_cell"]
