"""fiderate's importer: sources (chess-results pages and URLs, Excel, TRF, FIDE lists) → model.

Library use::

    import importer
    t = importer.load("fixtures/sample_open.trf")
    month = importer.load_events(["fixtures/period/elite_nov2025.trf"])  # each event once

The model and its errors are imported with the package; :func:`load`, :func:`load_many` and
:func:`load_events` on first use (PEP 562), so reading a FIDE list loads no page parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.errors import FetchError, ImporterError, InputError, NoSuchTournament, UnknownFormat
from importer.lazy import lazy_exports
from importer.model import (
    Colour,
    Game,
    GameResult,
    Player,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    System,
    Tournament,
    TournamentInfo,
)

if TYPE_CHECKING:
    from importer.events import Event, Events, load_events, load_many
    from importer.sources import load

__all__ = [
    "Colour",
    "Event",
    "Events",
    "FetchError",
    "Game",
    "GameResult",
    "ImporterError",
    "InputError",
    "NoSuchTournament",
    "Player",
    "RatingList",
    "RoundResult",
    "SourceWarning",
    "Status",
    "System",
    "Tournament",
    "TournamentInfo",
    "UnknownFormat",
    "load",
    "load_events",
    "load_many",
]

_FROM = {"importer.events": ("Event", "Events", "load_events", "load_many"),
         "importer.sources": ("load",)}
__getattr__, __dir__ = lazy_exports(__name__, _FROM)
