"""Pure rating math over the model: a tournament rated round by round under any rating system
(``tournament.py``, records in ``results.py``), the calculator, the title norms, national
ratings beside FIDE (``national.py``), the comparison with figures a source publishes, and the
numbers, notes and errors they share.

Library use::

    import importer, rating
    rated = rating.rate_tournament(importer.load("fixtures/sample_open.trf"), "fide")
    frames = rating.frames.to_frames(rated)      # pandas, exact Decimals

Every name below is imported on first use (PEP 562): ``import rating`` loads nothing; numpy
comes only with :func:`run_period`, :func:`rate_period` or :class:`Register`, and pandas
only with :mod:`rating.frames`.  ``registry`` is the rating-system registry
(``registry.names()``, ``registry.build(name, registry.Settings(...))``,
``registry.register(name, build, help)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    import rating.frames as frames
    import rating.systems.registry as registry
    from rating.errors import RatingError
    from rating.national import NationalPeriod, national_tournament, rate_national_period
    from rating.norms import EventClass, NormCheck, NormResult, check_event_norms, check_norms
    from rating.period.engine import rate_period
    from rating.period.records import (
        PeriodGame,
        PeriodGames,
        PeriodPlayer,
        PeriodResult,
        PeriodStatus,
        PeriodTournament,
        Pool,
        PoolGame,
        Standing,
    )
    from rating.period.register import Register
    from rating.period.run import PeriodSource, run_period
    from rating.results import GameRating, PlayerRating, RoundLine, Scenario, TournamentRating
    from rating.systems.base import EloSystem, FideSystem, RatingSystem, rate_games
    from rating.systems.dwz import DwzSystem
    from rating.systems.ecf import EcfSystem
    from rating.systems.fide_rules import FideRules, rules_for
    from rating.systems.ukd import UkdSystem
    from rating.tournament import rate_tournament

__all__ = [
    "DwzSystem",
    "EcfSystem",
    "EloSystem",
    "EventClass",
    "FideRules",
    "FideSystem",
    "GameRating",
    "NationalPeriod",
    "NormCheck",
    "NormResult",
    "PeriodGame",
    "PeriodGames",
    "PeriodPlayer",
    "PeriodResult",
    "PeriodSource",
    "PeriodStatus",
    "PeriodTournament",
    "PlayerRating",
    "Pool",
    "PoolGame",
    "RatingError",
    "RatingSystem",
    "Register",
    "RoundLine",
    "Scenario",
    "Standing",
    "TournamentRating",
    "UkdSystem",
    "check_event_norms",
    "check_norms",
    "frames",
    "national_tournament",
    "rate_games",
    "rate_national_period",
    "rate_period",
    "rate_tournament",
    "registry",
    "rules_for",
    "run_period",
]

_MODULES = {"frames": "rating.frames", "registry": "rating.systems.registry"}
"""Modules exported by name."""
_FROM = {
    "rating.errors": ("RatingError",),
    "rating.systems.dwz": ("DwzSystem",),
    "rating.systems.ecf": ("EcfSystem",),
    "rating.systems.ukd": ("UkdSystem",),
    "rating.national": ("NationalPeriod", "national_tournament", "rate_national_period"),
    "rating.norms": ("EventClass", "NormCheck", "NormResult", "check_event_norms", "check_norms"),
    "rating.period.engine": ("rate_period",),
    "rating.period.records": ("PeriodGame", "PeriodGames", "PeriodPlayer", "PeriodResult",
                              "PeriodStatus", "PeriodTournament", "Pool", "PoolGame", "Standing"),
    "rating.period.run": ("PeriodSource", "run_period"),
    "rating.period.register": ("Register",),
    "rating.systems.fide_rules": ("FideRules", "rules_for"),
    "rating.systems.base": ("EloSystem", "FideSystem", "RatingSystem", "rate_games"),
    "rating.results": ("GameRating", "PlayerRating", "RoundLine", "Scenario", "TournamentRating"),
    "rating.tournament": ("rate_tournament",),
}
__getattr__, __dir__ = lazy_exports(__name__, _FROM, _MODULES)
