"""The Elo calculator: one player's games (one tournament or period) → the full calculation.

Pure; used by ``fiderate calc``.  K × n ≤ 700 (R24 8.3.3) is applied over the
games given, the change is kept exact and rounded once (R24 8.3.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from rating.errors import RatingError
from rating.results import GameRating
from rating.systems import fide
from rating.systems.base import RatingSystem
from rating.systems.fide_rules import FideRules

__all__ = ["MAX_RATING", "MIN_RATING", "Calculation", "calculate", "check_k", "check_rating"]

MIN_RATING = 100
MAX_RATING = 3500


def check_rating(value: int, what: str = "rating") -> int:
    """A plausible Elo rating, else RatingError."""
    if not MIN_RATING <= value <= MAX_RATING:
        raise RatingError(f"{what} {value} is outside {MIN_RATING}–{MAX_RATING}")
    return value


def check_k(value: int, what: str = "K") -> int:
    """A usable K factor (1–100), else RatingError."""
    if not 1 <= value <= 100:
        raise RatingError(f"{what} must be a whole number from 1 to 100, got {value}")
    return value


@dataclass(frozen=True, slots=True)
class Calculation:
    """One player's rated games with totals, exact until the single rounding."""

    rating: int
    k: int
    """The K used (after the K × n ≤ 700 cap)."""
    games: list[GameRating]
    score: Decimal
    expected_total: Decimal
    change: Decimal
    rounded_change: int
    new_rating: int
    performance: int | None
    notes: list[str] = field(default_factory=list)

    @property
    def rated_games(self) -> int:
        return sum(g.rated for g in self.games)


def calculate(system: RatingSystem, rating: int, k: int,
              games: Sequence[tuple[int | None, Decimal]], *,
              rules: FideRules | None = None, facts: fide.PlayerFacts | None = None
              ) -> Calculation:
    """Rate *games* (opponent rating or None, score) for a player rated *rating* with *k*,
    through the system's own ``rate`` (with what is known of the player, *facts*).

    With FIDE *rules*, K is reduced so that K × n ≤ 700 over the rated games (R24 8.3.3).
    """
    check_rating(rating)
    check_k(k)
    for opp, _ in games:
        if opp is not None:
            check_rating(opp, "opponent rating")
    notes: list[str] = []
    first = system.rate(rating, k, games, None, facts)
    n = sum(g.rated for g in first)
    used_k = fide.period_k(k, n, rules) if rules is not None else k
    if used_k != k and rules is not None:
        notes.append(f"K {k} × {n} games exceeds {rules.period_cap}: K {used_k} used")
        first = system.rate(rating, used_k, games, None, facts)
    rated = [g for g in first if g.rated]
    change = sum((g.change for g in rated if g.change is not None), Decimal("0.00"))
    score = sum((g.score for g in rated), Decimal(0))
    expected_total = sum((g.expected for g in rated if g.expected is not None), Decimal("0.00"))
    new_rating = system.new_rating(rating, change)
    if new_rating is None:
        raise RatingError(f"{system.label} gives no rating after a change of {change}")
    perf = system.performance([g.opponent_rating for g in rated
                               if g.opponent_rating is not None], int(score * 100))
    used_k = next((g.k for g in rated if g.opponent_rating is not None and g.k is not None),
                  used_k)  # the K (DWZ: the E) the games were rated with
    return Calculation(rating=rating, k=used_k, games=first, score=score,
                       expected_total=expected_total, change=change,
                       rounded_change=new_rating - rating, new_rating=new_rating,
                       performance=perf, notes=notes)
