"""What a rating period gives back: typed records, one per player and list, rated game and pooled
game (the engine's pandas and numpy stay inside :mod:`rating.period`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from importer.model import RatingList, Tournament
from rating.rules import FideRules

__all__ = [
    "PeriodGame",
    "PeriodPlayer",
    "PeriodResult",
    "PeriodStatus",
    "PeriodTournament",
    "Pool",
    "PoolGame",
    "Standing",
]


class PeriodStatus(StrEnum):
    """A player's standing on the new list."""

    RATED = "rated"
    NEWLY_RATED = "newly_rated"
    """A first rating (R24 8.2): five games against rated opponents and at least the floor."""
    UNRATED = "unrated"
    DROPPED_BELOW_FLOOR = "dropped_below_floor"
    """Fell below the rating floor (R24 7.2.1): unrated on the new list."""
    INACTIVE = "inactive"
    """No rated game for a year (R24 7.2.2)."""

    @property
    def words(self) -> str:
        """The status for people: 'newly rated', 'dropped below the floor'."""
        return {"dropped_below_floor": "dropped below the floor"}.get(self.value,
                                                                       self.value.replace("_", " "))


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """What the previous list (T − 1) and the register know about a player on one list."""

    rating: int | None = None
    k: int | None = None
    games_total: int | None = None
    """All rated games ever (register); None when unknown."""
    reached_2400: bool = False
    birth_year: int | None = None
    inactive: bool = False
    """The list's flag ``i`` (R24 7.2.2)."""
    last_played: date | None = None
    """The last period with a rated game (register), for the one-year inactivity rule."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pool:
    """An unrated player's pooled results from earlier periods (within 26 months, R24 7.1.4)."""

    games: int = 0
    opponents_sum: int = 0
    score_h: int = 0
    events: int = 0
    """Earlier events (including a disregarded zero first event): later zeros count."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodTournament:
    """One tournament as the period rates it."""

    key: str
    tournament: Tournament
    rating_list: RatingList
    start: date
    rules: FideRules
    ratings_from: str
    """'source', 'register' or 'list': where the ratings used in its games come from."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodPlayer:
    """One player on one list after the period."""

    key: str
    """The FIDE id, else name|federation|birth year."""
    fide_id: str
    name: str
    federation: str
    birth_year: int | None
    list: RatingList
    old_rating: int | None
    """The previous list's rating (the base), None when unrated."""
    ks: tuple[int, ...]
    """The K of the rated games, after K × n ≤ 700 (several only when rule versions differ)."""
    games: int
    """Rated games in the period."""
    change_h: int
    """Σ K × (S − PD) over the period in hundredths, exact."""
    rounded_change: int
    """The change rounded once, half away from zero (R24 8.3.4)."""
    new_rating: int | None
    status: PeriodStatus
    pool_games: int
    """Games against rated opponents pooled for a first rating (this and earlier periods)."""
    pool_opponents_sum: int
    pool_score_h: int
    initial_rating: int | None
    """The first rating the pool gives (shown even before it is published)."""

    @property
    def k(self) -> str:
        """The K as printed: '20', or '20/15' when rule versions differ."""
        return "/".join(map(str, self.ks))


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodGame:
    """One rated game from the rated player's side."""

    tournament: str
    round: int
    key: str
    fide_id: str
    name: str
    list: RatingList
    own_rating: int
    opponent: str
    """The opponent's FIDE id, else their key."""
    opponent_name: str
    opponent_rating: int
    """After the difference cap (FIDE prints it with '*')."""
    capped: bool
    score_h: int
    expected_h: int
    k: int
    change_h: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolGame:
    """An unrated player's game against a rated opponent, pooled for a first rating."""

    key: str
    list: RatingList
    tournament: str
    start: date
    opponent_rating: int
    score_h: int
    disregarded: bool
    """A zero score in the player's first event (R24 8.2.1): counted as an event, not a game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodResult:
    """A computed period: per (player, list) rows, per rated game rows, the pool, notes."""

    period: date
    players: tuple[PeriodPlayer, ...]
    games: tuple[PeriodGame, ...]
    pool: tuple[PoolGame, ...]
    tournaments: tuple[PeriodTournament, ...]
    notes: tuple[str, ...] = field(default=())
    previous: Mapping[tuple[str, RatingList], Standing] = field(default_factory=dict)
    """What the period started from: the previous list and the register, per (player, list)."""
    imported: Mapping[tuple[str, RatingList], Standing] = field(default_factory=dict)
    """The given FIDE list's entries (kept in the register as the list of T − 1)."""

    def player(self, key: str, rating_list: RatingList = RatingList.STANDARD) -> PeriodPlayer | None:
        """The row of one player on one list, or None."""
        return next((p for p in self.players if p.key == key and p.list is rating_list), None)

    def games_of(self, key: str) -> list[PeriodGame]:
        """One player's rated games, by tournament and round."""
        return sorted((g for g in self.games if g.key == key), key=lambda g: (g.tournament, g.round))
