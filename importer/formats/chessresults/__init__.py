"""chess-results.com HTML pages → model (pure: text in, records out).

``parse_page`` reads one page into a :class:`Page` of a :class:`PageKind`;
``build_tournament`` merges the pages of one tournament into a
:class:`~importer.model.Tournament`; ``parse_round_cell`` reads one crosstable round cell (also
used by the Excel-export reader).

The modules: :mod:`~importer.formats.chessresults.document` loads a page and reads the facts the whole
page states (tournament, view, details, dates, gate); :mod:`~importer.formats.chessresults.classify`
decides which reader a page goes to; one module per kind reads it
(:mod:`~importer.formats.chessresults.starting_rank`, :mod:`~importer.formats.chessresults.crosstable`,
:mod:`~importer.formats.chessresults.pairings`, :mod:`~importer.formats.chessresults.notpaired`,
:mod:`~importer.formats.chessresults.player_card`, :mod:`~importer.formats.chessresults.ranking`,
:mod:`~importer.formats.chessresults.team`), with the shared table helpers in
:mod:`~importer.formats.chessresults.table`; :mod:`~importer.formats.chessresults.parse` puts them
together and
:mod:`~importer.formats.chessresults.merge` merges pages.
"""

from __future__ import annotations

from importer.formats.chessresults.cells import Cell, parse_round_cell
from importer.formats.chessresults.document import looks_like_chess_results
from importer.formats.chessresults.merge import build_tournament
from importer.formats.chessresults.page import KINDS, Page, PageKind
from importer.formats.chessresults.parse import parse_page

__all__ = ["KINDS", "Cell", "Page", "PageKind", "build_tournament", "looks_like_chess_results",
           "parse_page", "parse_round_cell"]
