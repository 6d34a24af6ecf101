"""Sources → one normalized, typed tournament model: the model (``model.py``, ``errors.py``,
``frames.py``), the one entry that turns a path, URL or tournament number into a ``Tournament``
(``sources.py``), sources into distinct events (``events.py``) and the one module that decides
when two sources, events or players are the same (``identity.py``).

Library use::

    import importer
    t = importer.load("fixtures/sample_open.trf")
    month = importer.load_events(["fixtures/period/elite_nov2025.trf"])  # each event once

Every name is imported on first use (PEP 562): ``import importer`` loads nothing, and reading
a FIDE list loads no page parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from importer.errors import (
        FetchError,
        ImporterError,
        InputError,
        NoSuchTournament,
        UnknownFormat,
    )
    from importer.events import Event, Events, load_events, load_many
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

_FROM = {"importer.errors": ("FetchError", "ImporterError", "InputError", "NoSuchTournament",
                             "UnknownFormat"),
         "importer.events": ("Event", "Events", "load_events", "load_many"),
         "importer.model": ("Colour", "Game", "GameResult", "Player", "RatingList", "RoundResult",
                            "SourceWarning", "Status", "System", "Tournament", "TournamentInfo"),
         "importer.sources": ("load",)}
__getattr__, __dir__ = lazy_exports(__name__, _FROM)
