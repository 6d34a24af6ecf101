"""The records of a rating: what a rating system gives for one game, and the tournament
view's result, tournament → player → round.

A leaf module (it imports only the tournament model and :mod:`rating.systems.fide`), so that the
rating systems (:mod:`rating.systems.base`, :mod:`rating.systems.ukd`), the registry, the tournament view
(:mod:`rating.tournament`) and the reports all read the same records without importing
one another.

:class:`GameRating` is one game as a system rates it; :class:`TournamentRating` holds one
:class:`PlayerRating` per player → one :class:`RoundLine` per round and one
:class:`Scenario` per paired, unfinished game; :class:`PlayerNote` is a note about one
player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from importer.model import Colour, RatingList, Status
from rating.systems.fide import InitialRating, KSource

__all__ = [
    "ZERO",
    "GameRating",
    "PlayerNote",
    "PlayerRating",
    "RoundLine",
    "Scenario",
    "TournamentRating",
]

ZERO = Decimal("0.00")
"""No change yet, to the hundredth."""


@dataclass(frozen=True, slots=True)
class GameRating:
    """One game as a rating system rates it for one player."""

    opponent_rating: int | None
    score: Decimal
    rated: bool
    reason: str = ""
    capped: bool = False
    expected: Decimal | None = None
    change: Decimal | None = None
    """K × (S − E), exact and unrounded."""
    k: int | None = None
    """The K this game was rated with (a system may use another K for some games)."""



@dataclass(frozen=True, slots=True, kw_only=True)
class RoundLine:
    """One round of one player: the game (or bye) and, when rated, its change."""

    round: int
    status: Status
    opponent_no: int | None
    opponent_rating: int | None
    colour: Colour
    points: Decimal | None
    """0, 0.5 or 1 as scored in the tournament (None while pending)."""
    rated: bool
    reason: str = ""
    """Why the game is not rated ('' when it is)."""
    k: int | None = None
    expected: Decimal | None = None
    change: Decimal | None = None
    """K × (S − PD), exact and unrounded."""
    cumulative: Decimal = ZERO
    """The running total of changes up to and including this round."""
    capped: bool = False
    published_change: Decimal | None = None
    """The source's own figure for this game, when it prints one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """What a paired, unfinished game would bring: win − loss = K, draw halfway, and the new
    rating each result gives by the system's own rule (its ``new_rating``, the one that gives
    :attr:`PlayerRating.new_rating`: FIDE rounds half away from zero, UKD as configured).

    A game that will not be rated whatever its result (an opponent without a rating, a game
    the rules exclude) is a scenario too, with ``rated`` false, its ``reason``, no K,
    expectation or change, and the tournament's totals and new rating as they stand.
    """

    round: int
    opponent_no: int
    opponent_rating: int | None
    k: int | None
    expected: Decimal | None
    win: Decimal | None
    draw: Decimal | None
    loss: Decimal | None
    total_if_win: Decimal
    total_if_draw: Decimal
    total_if_loss: Decimal
    new_if_win: int | None
    """The new rating after a win (None when the system gives none, e.g. UKD's 1000 rule)."""
    new_if_draw: int | None
    new_if_loss: int | None
    rated: bool = True
    reason: str = ""
    """Why the game will not be rated ('' when it will)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRating:
    """One player's tournament: totals exact until the single rounding of the new rating."""

    start_no: int
    rating: int | None
    """The player's own rating used (the tournament's list)."""
    k: int | None
    k_source: KSource
    rounds: tuple[RoundLine, ...]
    rated_games: int
    score: Decimal
    """Points in rated games."""
    points: Decimal | None
    """Points in all rounds as the source prints them (else the rounds' sum when every round is
    known; None when unknown)."""
    expected: Decimal
    """Σ PD over rated games."""
    change: Decimal
    """Σ K × (S − PD), unrounded."""
    new_rating: int | None
    """rating + change rounded the system's way (FIDE: half away from zero, R24 8.3.4);
    None when unrated."""
    performance: int | None
    """Rp over games against rated opponents (table 8.1.1)."""
    k_before_cap: int | None = None
    """The category/list K when K × games > 700 reduced it to ``k`` (R24 8.3.3)."""
    initial: InitialRating | None = None
    """A first rating for an unrated player, as the system gives it (FIDE: from 5 games
    against rated opponents, R24 7.1.4 and 8.2)."""
    scenarios: tuple[Scenario, ...] = ()
    published_change: Decimal | None = None
    """The source's own total ('FIDE rtg +/-'), as published."""
    assumed: tuple[str, ...] = ()
    """What the system assumed of the player for want of facts (an age group, an index),
    when it rated games of theirs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerNote:
    """A note about one player: a sentence shared by every player it concerns, and what it
    says about this one."""

    start_no: int
    text: str
    """The same for each player concerned: 'K reduced so that K × rated games stays within
    700' (the rules' cap)."""
    detail: str = ""
    """What it says about this player alone ('K 40 → 35'); '' when the text says it all."""

    @property
    def sentence(self) -> str:
        """The note as the player's own page says it."""
        return f"{self.text}: {self.detail}" if self.detail else self.text


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRating:
    """Every player's rating in one tournament under one rating system."""

    system: str
    """The system's name: 'fide', 'elo', 'ukd', …"""
    label: str
    rules: str
    """The FIDE rule version used, or the system's settings line (e.g. UKD's)."""
    on: date
    """The date that chose the rules (the tournament start, or the caller's date)."""
    rules_label: str = ""
    """The rule version's short name ('FIDE 2024-03'), or the system's label and settings."""
    date_source: str = ""
    """Where ``on`` comes from: a :class:`DateSource` value, 'given' or 'none' (today)."""
    rating_list: RatingList
    players: tuple[PlayerRating, ...]
    notes: tuple[str, ...] = ()
    """Notes about the whole event."""
    player_notes: tuple[PlayerNote, ...] = ()
    """Notes about single players (each player's page shows only its own)."""
    default_k_players: tuple[int, ...] = field(default=())
    """Start numbers of the players with rated games whose K is the default (the caller
    warns about them, naming them)."""
    default_k: int
    """That default: the K the system gives a player nothing is known about (its own, e.g.
    Elo's ``default_k``, else the caller's)."""
    k_cap: int | None = None
    """The cap on K × rated games the system applies (FIDE: the rules', R24 8.3.3), or None."""

    _index: dict[int, PlayerRating] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {p.start_no: p for p in self.players})

    def player(self, start_no: int) -> PlayerRating | None:
        """The rating of the player with this start number, or None."""
        return self._index.get(start_no)
