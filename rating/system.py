"""The rating-system interface and the one per-tournament game rater built on it.

A rating system answers three questions (``expected``, ``k``, ``rated?``) plus
which games get the difference cap.  FIDE and generic Elo live here; a national
system (e.g. :mod:`rating.ukd`) is one more class in one file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Protocol

from importer.model import RatingList
from rating import elo, fide
from rating.fide import PlayerFacts
from rating.numbers import round_whole, to_decimal
from rating.rules import FideRules, rules_for

__all__ = [
    "EloSystem",
    "FideSystem",
    "GameRating",
    "PlayerFacts",
    "RatingSystem",
    "rate_games",
]


class RatingSystem(Protocol):
    """What a rating system must provide to rate a tournament."""

    @property
    def name(self) -> str:
        """Short id: 'fide', 'elo', 'ukd'."""

    @property
    def label(self) -> str:
        """Display name: 'FIDE', 'Elo', 'UKD'."""

    @property
    def national(self) -> bool:
        """Rates national ratings (``Player.national_rating``) with its own K, never FIDE's."""

    def describe(self) -> str:
        """One line naming the rules or settings in use (for report headers)."""

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        """Why a game played over the board is not rated for *own*, or None when it is."""

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        """A game against an opponent without a rating, rated the system's way, or None when
        such games are not rated (FIDE, Elo)."""

    def new_rating(self, own: int, change: Decimal) -> int | None:
        """The rating after a tournament's exact *change*, rounded the system's way."""

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        """Which of a player's rated games in one tournament get the difference cap."""

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """The player's expected score in one game."""

    def k(self, facts: PlayerFacts) -> int:
        """The development coefficient for a player."""


@dataclass(frozen=True, slots=True)
class FideSystem:
    """FIDE's rules in force for a tournament starting on a given date (fide-rules.md §11)."""

    rules: FideRules
    name: str = "fide"
    label: str = "FIDE"
    national: bool = False

    @classmethod
    def on(cls, start: date, rating_list: RatingList = RatingList.STANDARD) -> FideSystem:
        """The FIDE system for a tournament starting on *start*, rated on *rating_list*."""
        return cls(rules_for(start, rating_list))

    def describe(self) -> str:
        return self.rules.name

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if own is None:
            return "player unrated"
        if opponent is None:
            return "opponent unrated"  # R24 §8.3.1: only games against rated players
        return fide.excluded_reason(own, opponent, self.rules)

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None

    def new_rating(self, own: int, change: Decimal) -> int | None:
        return own + round_whole(change)  # R24 §8.3.4

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        return fide.cap_mask(own, opponents, self.rules)

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        return to_decimal(fide.expected_h(own, opponent, self.rules, capped=capped))

    def k(self, facts: PlayerFacts) -> int:
        return fide.k_factor(self.rules, rating=facts.rating, games_played=facts.games_played,
                             birth_year=facts.birth_year, reached_2400=facts.reached_2400,
                             year=facts.year)


@dataclass(frozen=True, slots=True)
class EloSystem:
    """Generic Elo with the logistic curve, an optional difference cap and a fixed default K."""

    cap: int | None = None
    default_k: int = 20
    name: str = "elo"
    label: str = "Elo"
    national: bool = False

    def describe(self) -> str:
        return "logistic formula" + (f", {self.cap}-point cap" if self.cap is not None else "")

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if own is None:
            return "player unrated"
        return "opponent unrated" if opponent is None else None

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None

    def new_rating(self, own: int, change: Decimal) -> int | None:
        return own + round_whole(change)

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        return [self.cap is not None and abs(own - o) > self.cap for o in opponents]

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        return elo.expected(own, opponent, cap=self.cap if capped else None)

    def k(self, facts: PlayerFacts) -> int:
        return self.default_k


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


def rate_games(system: RatingSystem, own: int | None, k: int,
               games: Sequence[tuple[int | None, Decimal]]) -> list[GameRating]:
    """Rate one player's played games of one tournament: (opponent rating, score) pairs."""
    reasons = [system.not_rated_reason(own, opp) for opp, _ in games]
    rated_opps = [opp for (opp, _), why in zip(games, reasons, strict=True)
                  if opp is not None and why is None]
    mask = iter(system.cap_mask(own, rated_opps) if own is not None else [])
    out: list[GameRating] = []
    for (opp, score), why in zip(games, reasons, strict=True):
        special = (system.unrated_opponent_game(own, k, score)
                   if own is not None and opp is None and why is None else None)
        if special is not None:
            out.append(special)
        elif own is None or opp is None or why is not None:
            out.append(GameRating(opp, score, rated=False, reason=why or "opponent unrated"))
        else:
            capped = next(mask)
            exp = system.expected(own, opp, capped=capped)
            out.append(GameRating(opp, score, rated=True, capped=capped, expected=exp,
                                  change=k * (score - exp), k=k))
    return out
