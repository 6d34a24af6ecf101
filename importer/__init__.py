"""fiderate's importer: sources (chess-results pages and URLs, Excel, TRF, FIDE lists) → model.

Library use::

    import importer
    t = importer.load("fixtures/sample_open.trf")
"""

from __future__ import annotations

from importer.errors import FetchError, ImporterError, InputError, NoSuchTournament, UnknownFormat
from importer.events import load_many
from importer.model import (
    Colour,
    Game,
    GameResult,
    Player,
    RatingList,
    RoundResult,
    Status,
    System,
    Tournament,
    TournamentInfo,
)
from importer.sources import load

__owner__ = "fiderate"
__all__ = [
    "Colour",
    "FetchError",
    "Game",
    "GameResult",
    "ImporterError",
    "InputError",
    "NoSuchTournament",
    "Player",
    "RatingList",
    "RoundResult",
    "Status",
    "System",
    "Tournament",
    "TournamentInfo",
    "UnknownFormat",
    "load",
    "load_many",
]
