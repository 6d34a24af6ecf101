"""Fetching, kept apart from parsing: the one polite HTTP session (timeouts, retries, a minimum
delay per host, the cache, only chess-results and FIDE hosts), the addresses it may ask, whose
turn it is to ask a host, and the walk over a tournament's chess-results pages.

The session and the walk (requests, urllib3: ~120 ms) are imported on first use (PEP 562):
reading a file never loads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from importer.net.fetch import TournamentPage, fetch_tournament
    from importer.net.http import default_cache_path, get_text, make_session

__all__ = ["TournamentPage", "default_cache_path", "fetch_tournament", "get_text",
           "make_session"]

_FROM = {"importer.net.fetch": ("TournamentPage", "fetch_tournament"),
         "importer.net.http": ("default_cache_path", "get_text", "make_session")}
__getattr__, __dir__ = lazy_exports(__name__, _FROM)
