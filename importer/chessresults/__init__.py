"""chess-results.com HTML pages → model (pure: text in, records out; spec chess-results.md)."""

from __future__ import annotations

from importer.chessresults.cells import Cell, parse_round_cell

__all__ = ["Cell", "parse_round_cell"]
