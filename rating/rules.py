"""FIDE rule versions by tournament start date and rating list.

One frozen :class:`FideRules` per period of validity; :func:`rules_for` picks it
from the tournament's **start date** (the deciding date for every switch).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from importer.model import RatingList

__all__ = ["CapRule", "FideRules", "InitialRule", "all_rules", "previous_rules", "rules_for"]


class CapRule(StrEnum):
    """How the rating-difference cap applies."""

    EVERY_GAME = "every_game"
    """Every game's difference is capped at ``cap`` points."""
    ONCE_PER_TOURNAMENT = "once_per_tournament"
    """R22 8.3.1 (2022-01-01 … 2024-02-29): only the game with the largest |D| > cap is capped."""
    BELOW_2650 = "below_2650"
    """R24 8.3.1 as amended 2025-10-01: no cap for a player rated 2650 or more (standard only)."""


class InitialRule(StrEnum):
    """How an unrated player's first rating is computed."""

    R24 = "2024"
    """R24 8.2: two hypothetical 1800 draws, Ru = Ra + dp, at most 2200."""
    R22 = "2022"
    """R22 8.2: real opponents only; +20 per half point above 50 %."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FideRules:
    """The rating parameters in force for tournaments starting on or after ``valid_from``."""

    name: str
    valid_from: date
    rating_list: RatingList
    cap: int
    cap_rule: CapRule
    no_cap_from: int | None = None
    """R24 8.3.1 (2025-10-01, standard): players rated this much or more are never capped."""
    exclude_gap: int | None = None
    """RB24 7.3.1 (2024-12-01, rapid/blitz): a game with |D| ≥ this is not rated when …"""
    exclude_above: int | None = None
    """… at least one player is rated strictly above this."""
    k_new: int = 40
    k_established: int = 20
    k_top: int = 10
    k_junior: int | None = 40
    """R24 8.3.3: K for juniors until the end of the year of their 18th birthday (None: no rule)."""
    junior_below: int = 2300
    top_threshold: int = 2400
    new_player_games: int = 30
    top_needs_games: bool = False
    """Before 2011-07-01 K = 10 needed 30 games as well as 2400 (historical rules)."""
    period_cap: int | None = 700
    """R24 8.3.3: K is reduced so that K × n ≤ 700 (applied from 2014-07-01 in our reading)."""
    floor: int = 1400
    """R24 7.2.1: below this the player is unrated on the next list (1000 before 2024-03-01)."""
    initial_rule: InitialRule = InitialRule.R24
    initial_min_games: int = 5
    initial_max: int | None = 2200
    hypothetical_opponent: int = 1800

    @property
    def label(self) -> str:
        """The version's short name: 'FIDE 2024-03', 'FIDE before 2009-07'."""
        if self.valid_from.year <= 1:
            return self.name.split(" (")[0]
        return f"FIDE {self.valid_from:%Y-%m}"

    def cap_applies(self, own: int) -> bool:
        """Whether the difference cap applies at all to a player rated *own*."""
        return self.no_cap_from is None or own < self.no_cap_from


_D = date


def _standard() -> list[FideRules]:
    std = RatingList.STANDARD
    return [
        # Historical: the 350-point rule, replaced by the 400-point rule on 2009-07-01.
        FideRules(name="FIDE before 2009-07 (350-point rule, K 25/15/10)", valid_from=_D(1, 1, 1),
                  cap=350, cap_rule=CapRule.EVERY_GAME, k_new=25, k_established=15,
                  k_junior=None, top_needs_games=True, period_cap=None, floor=1000,
                  initial_rule=InitialRule.R22, initial_max=None, rating_list=std),
        FideRules(name="FIDE 2009-07 (400-point rule, K 25/15/10)", valid_from=_D(2009, 7, 1),
                  cap=400, cap_rule=CapRule.EVERY_GAME, k_new=25, k_established=15,
                  k_junior=None, top_needs_games=True, period_cap=None, floor=1000,
                  initial_rule=InitialRule.R22, initial_max=None, rating_list=std),
        # Historical: K 30 for new players from 2011-07-01.
        FideRules(name="FIDE 2011-07 (K 30/15/10)", valid_from=_D(2011, 7, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, k_new=30, k_established=15, k_junior=None,
                  period_cap=None, floor=1000, initial_rule=InitialRule.R22, initial_max=None,
                  rating_list=std),
        # Historical: K 40/20/10 and the junior rule from 2014-07-01; the 700 cap read from here.
        FideRules(name="FIDE 2014-07 (K 40/20/10)", valid_from=_D(2014, 7, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, floor=1000, initial_rule=InitialRule.R22,
                  initial_max=None, rating_list=std),
        # R22 8.3.1: one upgrade per tournament.
        FideRules(name="FIDE 2022 (400-point rule once per tournament)", valid_from=_D(2022, 1, 1),
                  cap=400, cap_rule=CapRule.ONCE_PER_TOURNAMENT, floor=1000,
                  initial_rule=InitialRule.R22, initial_max=None, rating_list=std),
        # R24 (QC24): cap every game, floor 1400, new initial-rating rule.
        FideRules(name="FIDE 2024-03", valid_from=_D(2024, 3, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, rating_list=std),
        # R24 8.3.1 as amended with effect from 2025-10-01.
        FideRules(name="FIDE 2025-10 (no cap from 2650)", valid_from=_D(2025, 10, 1), cap=400,
                  cap_rule=CapRule.BELOW_2650, no_cap_from=2650, rating_list=std),
    ]


def _rapid_blitz(rating_list: RatingList) -> list[FideRules]:
    # RB24: as standard for the same dates but never a 2650 exemption (our reading up to
    # 2024-11-30); from 2024-12-01 the 600-point exclusion (RB24 7.3.1).
    out: list[FideRules] = []
    for r in _standard():
        if r.cap_rule is CapRule.BELOW_2650:
            continue
        out.append(replace(r, rating_list=rating_list))
    out.append(replace(out[-1], name="FIDE rapid/blitz 2024-12 (600-point exclusion)",
                        valid_from=_D(2024, 12, 1), exclude_gap=600, exclude_above=2600))
    return out


_VERSIONS: dict[RatingList, list[FideRules]] = {
    RatingList.STANDARD: _standard(),
    RatingList.RAPID: _rapid_blitz(RatingList.RAPID),
    RatingList.BLITZ: _rapid_blitz(RatingList.BLITZ),
}


def rules_for(start: date, rating_list: RatingList = RatingList.STANDARD) -> FideRules:
    """The rules for a tournament starting on *start* rated on *rating_list*."""
    chosen = _VERSIONS[rating_list][0]
    for r in _VERSIONS[rating_list]:
        if r.valid_from <= start:
            chosen = r
    return chosen


def all_rules() -> list[FideRules]:
    """Every rule version of every list, oldest first per list."""
    return [r for versions in _VERSIONS.values() for r in versions]


def previous_rules(rules: FideRules) -> FideRules | None:
    """The version in force before *rules* on the same list (None for the first)."""
    versions = _VERSIONS[rules.rating_list]
    earlier = [r for r in versions if r.valid_from < rules.valid_from]
    return earlier[-1] if earlier else None
