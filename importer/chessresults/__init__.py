"""chess-results.com HTML pages → model (pure: text in, records out).

``parse_page`` reads one page into a :class:`Page` of a :class:`PageKind`;
``build_tournament`` merges the pages of one tournament into a
:class:`~importer.model.Tournament`; ``parse_round_cell`` reads one crosstable round cell (also
used by the Excel-export reader).

The modules: :mod:`~importer.chessresults.document` loads a page and reads the facts the whole
page states (tournament, view, details, dates, gate); :mod:`~importer.chessresults.classify`
decides which reader a page goes to; one module per kind reads it
(:mod:`~importer.chessresults.starting_rank`, :mod:`~importer.chessresults.crosstable`,
:mod:`~importer.chessresults.pairings`, :mod:`~importer.chessresults.notpaired`,
:mod:`~importer.chessresults.player_card`, :mod:`~importer.chessresults.ranking`,
:mod:`~importer.chessresults.team`), with the shared table helpers in
:mod:`~importer.chessresults.table`; :mod:`~importer.chessresults.parse` puts them together and
:mod:`~importer.chessresults.merge` merges pages.
"""

from __future__ import annotations

from importer.chessresults.cells import Cell, parse_round_cell
from importer.chessresults.document import looks_like_chess_results
from importer.chessresults.merge import build_tournament
from importer.chessresults.page import KINDS, Page, PageKind
from importer.chessresults.parse import parse_page

__all__ = ["KINDS", "Cell", "Page", "PageKind", "build_tournament", "looks_like_chess_results",
           "parse_page", "parse_round_cell"]
