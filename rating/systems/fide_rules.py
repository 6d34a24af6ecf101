"""FIDE rule versions by tournament start date and rating list.

One frozen :class:`FideRules` per period of validity; :func:`rules_for` picks it
from the tournament's **start date** (the deciding date for every switch).  Every value
a rule uses — thresholds, caps, floors, the hypothetical opponents of a first rating,
the one-time adjustment of March 2024 — is held here, once, and read from here
(``tests/test_rule_values.py`` checks that no other module spells 2400, 3600 or 700).

The FIDE Title Regulations' norm thresholds are versioned the same way: one frozen
:class:`NormRules` per version, picked by :func:`norm_rules_for` (read by :mod:`rating.norms`);
so are the least time of a standard game (:class:`StandardTimeRules`, Rating Regulations 1.1–1.2)
and FIDE's fast-standard controls (:class:`FastStandardRules`), read by
:mod:`rating.systems.time_controls`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from importer.model import RatingList
from rating.numbers import round_half_away, round_half_away_array

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["CapRule", "FastStandardRules", "FideRules", "InitialRule", "ListAdjustment", "NormRules",
           "NormTitle", "StandardTimeRules", "TitleNorm", "all_rules", "fast_standard_for",
           "list_adjustment", "norm_rules_for", "previous_rules", "rules_for",
           "standard_time_rules_for"]


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
class ListAdjustment:
    """A one-time change FIDE made to every rating below a level on one list, after the
    period's games (a list operation, not part of the regulations).

    The March 2024 one (FIDE Council 14/15 Dec 2023, QC24; on the post-period rating per
    AUDIT; on every list per NOR24): ratings below 2000 rise by 0.4 × (2000 − R), rounded
    half away from zero.
    """

    list_date: date
    """The list it was made on (the period's list date)."""
    below: int
    """Ratings below this rise …"""
    share_h: int
    """… by this share of their distance to ``below``, in hundredths (40: 0.4 × (2000 − R))."""

    def amount(self, rating: int) -> int:
        """The rise of *rating* (after the period's games), in whole points."""
        return round_half_away(self.share_h * (self.below - rating)) if rating < self.below else 0

    def amounts(self, ratings: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """:meth:`amount` of every rating of an integer array (the period engine's)."""
        below = ratings < self.below
        rise: npt.NDArray[Any] = round_half_away_array(self.share_h * (self.below - ratings)) * below
        return rise

    @property
    def words(self) -> str:
        """The formula for people: '0.4 × (2000 − R)'."""
        return f"{Decimal(self.share_h) / 100:f} × ({self.below} − R)"


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
    closing_days: int = 3
    """R24 7.1.3: a tournament ending at least this many days before a list may be rated on it."""
    inactive_months: int = 12
    """R24 7.2.2: no rated game in a one-year period → inactive."""
    initial_rule: InitialRule = InitialRule.R24
    initial_min_games: int = 5
    """R24 7.1.4: a first rating needs this many games against rated opponents."""
    initial_max: int | None = 2200
    """R24 8.2.3: the maximum initial rating (None: no maximum, R22)."""
    hypothetical_opponents: int = 2
    """R24 8.2.2: Ra and p include this many hypothetical opponents, each a draw (R22: none)."""
    hypothetical_opponent: int = 1800
    """R24 8.2.2: their rating."""
    half_point_bonus: int = 20
    """R22 8.2: above 50 %, Ru = Ra + this per half point over 50 % (unused under R24)."""
    pool_months: int = 26
    """R24 7.1.4: results within consecutive rating periods of at most this many months pool."""
    unrated_uses_standard: bool = False
    """RB24 7.2.1 (rapid and blitz): an unrated player with a standard rating is rated with it."""
    adjustment: ListAdjustment | None = None
    """A one-time change to the list dated ``adjustment.list_date`` (see :func:`list_adjustment`)."""

    @property
    def label(self) -> str:
        """The version's short name: 'FIDE 2024-03', 'FIDE before 2009-07'."""
        if self.valid_from.year <= 1:
            return self.name.split(" (")[0]
        return f"FIDE {self.valid_from:%Y-%m}"

    def cap_applies(self, own: int) -> bool:
        """Whether the difference cap applies at all to a player rated *own*."""
        return self.no_cap_from is None or own < self.no_cap_from

    def reaches_top(self, rating: int | None) -> bool:
        """Whether a published *rating* reaches the K-10 threshold (R24 8.3.3: 2400)."""
        return rating is not None and rating >= self.top_threshold

    @property
    def period_cap_words(self) -> str:
        """The K × n cap for people: 'K × games ≤ 700' ('' when these rules have none)."""
        return "" if self.period_cap is None else f"K × games ≤ {self.period_cap}"


_D = date


def _standard() -> list[FideRules]:
    std = RatingList.STANDARD
    # R22 8.2 and earlier: first ratings from the real opponents alone, no maximum, floor 1000.
    r22 = InitialRule.R22
    return [
        # Historical: the 350-point rule, replaced by the 400-point rule on 2009-07-01.
        FideRules(name="FIDE before 2009-07 (350-point rule, K 25/15/10)", valid_from=_D(1, 1, 1),
                  cap=350, cap_rule=CapRule.EVERY_GAME, k_new=25, k_established=15,
                  k_junior=None, top_needs_games=True, period_cap=None, floor=1000,
                  initial_rule=r22, initial_max=None, hypothetical_opponents=0, rating_list=std),
        FideRules(name="FIDE 2009-07 (400-point rule, K 25/15/10)", valid_from=_D(2009, 7, 1),
                  cap=400, cap_rule=CapRule.EVERY_GAME, k_new=25, k_established=15,
                  k_junior=None, top_needs_games=True, period_cap=None, floor=1000,
                  initial_rule=r22, initial_max=None, hypothetical_opponents=0, rating_list=std),
        # Historical: K 30 for new players from 2011-07-01.
        FideRules(name="FIDE 2011-07 (K 30/15/10)", valid_from=_D(2011, 7, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, k_new=30, k_established=15, k_junior=None,
                  period_cap=None, floor=1000, initial_rule=r22, initial_max=None,
                  hypothetical_opponents=0, rating_list=std),
        # Historical: K 40/20/10 and the junior rule from 2014-07-01; the 700 cap read from here.
        FideRules(name="FIDE 2014-07 (K 40/20/10)", valid_from=_D(2014, 7, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, floor=1000, initial_rule=r22,
                  initial_max=None, hypothetical_opponents=0, rating_list=std),
        # R22 8.3.1: one upgrade per tournament.
        FideRules(name="FIDE 2022 (400-point rule once per tournament)", valid_from=_D(2022, 1, 1),
                  cap=400, cap_rule=CapRule.ONCE_PER_TOURNAMENT, floor=1000,
                  initial_rule=r22, initial_max=None, hypothetical_opponents=0, rating_list=std),
        # R24 (QC24): cap every game, floor 1400, new initial-rating rule; and FIDE's one-time
        # adjustment of the 1 March 2024 list (FIDE Qualification Commission, "New rating
        # regulations come into force", qc.fide.com, 1 March 2024: 0.4 × (2000 − R) below 2000).
        FideRules(name="FIDE 2024-03", valid_from=_D(2024, 3, 1), cap=400,
                  cap_rule=CapRule.EVERY_GAME, rating_list=std,
                  adjustment=ListAdjustment(list_date=_D(2024, 3, 1), below=2000, share_h=40)),
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
        # RB24 7.2.1: a player unrated here who has a standard rating is rated with it.
        out.append(replace(r, rating_list=rating_list, unrated_uses_standard=True))
    out.append(replace(out[-1], name="FIDE rapid/blitz 2024-12 (600-point exclusion)",
                        valid_from=_D(2024, 12, 1), exclude_gap=600, exclude_above=2600,
                        adjustment=None))
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


def list_adjustment(period: date, rating_list: RatingList = RatingList.STANDARD
                    ) -> ListAdjustment | None:
    """The one-time adjustment FIDE made to the list dated *period*, or None (most lists)."""
    adj = rules_for(period, rating_list).adjustment
    return adj if adj is not None and adj.list_date == period else None


def all_rules() -> list[FideRules]:
    """Every rule version of every list, oldest first per list."""
    return [r for versions in _VERSIONS.values() for r in versions]


def previous_rules(rules: FideRules) -> FideRules | None:
    """The version in force before *rules* on the same list (None for the first)."""
    versions = _VERSIONS[rules.rating_list]
    earlier = [r for r in versions if r.valid_from < rules.valid_from]
    return earlier[-1] if earlier else None


# --- FIDE Title Regulations: the norm thresholds ----------------------------------------------

class NormTitle(StrEnum):
    """A title a norm is made for."""

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    WIM = "WIM"


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleNorm:
    """The thresholds of one title's norm."""

    title: NormTitle
    floor: int
    """1.4.7: the lowest opponent may be raised to this rating."""
    min_ra: int
    """0.5, 1.4.8: the opponents' average rating needed."""
    min_rp: int
    """0.5, 1.4.8: the performance rating needed."""
    or_higher: frozenset[str]
    """1.4.5: the titles that count as the title sought or higher."""
    women_only: bool = False
    barred: frozenset[str] = frozenset()
    """Titles whose holders do not seek this norm (a woman IM may seek WGM; a woman FM, WIM)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NormRules:
    """One version of the Title Regulations' norm conditions (articles cited per field)."""

    name: str
    valid_from: date
    norms: tuple[TitleNorm, ...]
    min_games: int = 9
    """1.4.1: games a norm needs."""
    team_min_games: int = 7
    """1.4.1: in World and Continental team and club championships."""
    short_event_rounds: int = 9
    """1.4.1: in an event of this many rounds, one game fewer suffices when the missing one is a
    forfeit win or a pairing-allocated bye."""
    most_games: int = 13
    """1.4.1: an event of more rounds counts as this many games."""
    unrated: int = 1400
    """1.4.6: the rating an unrated opponent counts as."""
    min_score: Fraction = Fraction(35, 100)
    """1.4.8: the least share of the points of the games counted (unrounded)."""
    titled_share: Fraction = Fraction(1, 2)
    """1.4.5: the least share of opponents holding a title (rounded up)."""
    titled: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})
    """1.4.5: the titles that count (not CM, WCM)."""
    title_share: Fraction = Fraction(1, 3)
    """1.4.5: the least share of opponents of the title sought or higher (rounded up) …"""
    title_min: int = 3
    """… and never fewer than this many."""
    other_federations: int = 2
    """1.4.3: federations other than the player's, at least."""
    own_share: Fraction = Fraction(3, 5)
    """1.4.3: the most opponents from the player's federation (rounded down)."""
    one_share: Fraction = Fraction(2, 3)
    """1.4.3: the most opponents from any one federation (rounded down)."""
    no_federation: str = "FID"
    """1.4.3: the FIDE flag: counts for games and Ra, never as a federation."""
    swiss_foreigners: int = 20
    """1.4.3d: a Swiss is exempt with, in every round, this many rated players not of the
    host federation …"""
    swiss_federations: int = 3
    """… from this many federations …"""
    swiss_titled: int = 10
    """… this many of them GM, IM, WGM or WIM …"""
    swiss_titles: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM"})
    swiss_missed: int = 1
    """… counting only players who missed at most this many rounds."""
    most_rounds_a_day: int = 2
    """1.1: rounds played in one day, at most."""
    min_minutes: int = 120
    """1.1: each player has at least this many minutes for 60 moves (2 hours)."""
    long_event_days: int = 30
    """1.1.4: an event longer than this counts the ratings in force when each game was played."""
    women_titles: frozenset[str] = frozenset({"WGM", "WIM", "WFM", "WCM"})
    """Titles only women hold: a holder may seek the women's norms."""

    def norm(self, title: NormTitle) -> TitleNorm:
        """The thresholds of *title*'s norm."""
        return next(n for n in self.norms if n.title == title)


_GM, _IM, _WGM, _WIM = NormTitle.GM, NormTitle.IM, NormTitle.WGM, NormTitle.WIM
_NORM_VERSIONS = (
    # Title Regulations effective 1 January 2024 (0.5, 1.4.1–1.4.9).
    NormRules(name="FIDE Title Regulations 2024", valid_from=_D(2024, 1, 1), norms=(
        TitleNorm(title=_GM, floor=2200, min_ra=2380, min_rp=2600, or_higher=frozenset({"GM"}),
                  barred=frozenset({"GM"})),
        TitleNorm(title=_IM, floor=2050, min_ra=2230, min_rp=2450,
                  or_higher=frozenset({"GM", "IM"}), barred=frozenset({"GM", "IM"})),
        TitleNorm(title=_WGM, floor=2000, min_ra=2180, min_rp=2400,
                  or_higher=frozenset({"GM", "IM", "WGM"}), women_only=True,
                  barred=frozenset({"GM", "WGM"})),
        TitleNorm(title=_WIM, floor=1850, min_ra=2030, min_rp=2250,
                  or_higher=frozenset({"GM", "IM", "WGM", "WIM"}), women_only=True,
                  barred=frozenset({"GM", "IM", "WGM", "WIM"})),
    )),
)


def norm_rules_for(start: date) -> NormRules:
    """The Title Regulations for a tournament starting on *start* (the first version for
    earlier events)."""
    chosen = _NORM_VERSIONS[0]
    for r in _NORM_VERSIONS:
        if r.valid_from <= start:
            chosen = r
    return chosen


# --- FIDE Rating Regulations 1.1–1.2: the least time of a standard game -----------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class StandardTimeRules:
    """One version of the Rating Regulations' minimum time for a game to be standard-rated:
    "for a game to be rated each player must have the following minimum periods in which to
    complete all the moves, assuming the game lasts 60 moves" (1.1)."""

    name: str
    valid_from: date
    per_game: bool
    """True: the band of the game's two players ("at least one of the players in the game");
    False: of the tournament's ("at least one of the players in the tournament")."""
    bands: tuple[tuple[int, int], ...]
    """(rating, minutes), highest first: where a player is rated this much or more, each
    player must have these minutes for 60 moves …"""
    least: int = 60
    """… and where every player is rated below them (an unrated player too), this many."""
    first_control_moves: int | None = None
    """1.2: a first control that names a number of moves names at least this many (None: no
    such rule checked)."""
    article: str = "1.1"

    def minimum(self, ratings: Iterable[int | None]) -> int:
        """The minutes for 60 moves each player must have, the highest of *ratings* deciding."""
        top = max((r for r in ratings if r is not None), default=None)
        return next((minutes for rating, minutes in self.bands
                     if top is not None and top >= rating), self.least)

    def band_words(self, minutes: int) -> str:
        """Who needs *minutes*, in words: 'where a player is rated 2400 or more'."""
        where = "in the game" if self.per_game else "in the tournament"
        rating = next((r for r, m in self.bands if m == minutes), None)
        if rating is not None:
            return f"where a player {where} is rated {rating} or more"
        lowest = self.bands[-1][0] if self.bands else 0
        return f"where every player {where} is rated below {lowest}"


_STANDARD_TIMES = (
    # The Rating Regulations as amended by the Presidential Board in 2000 (handbook B02, 1.1):
    # "where at least one of the players in the tournament has a rating 2200 or higher, each
    # player must have a minimum of 120 minutes" (1600: 90; all below 1600: 60).
    StandardTimeRules(name="FIDE Rating Regulations before July 2017", valid_from=_D(1, 1, 1),
                      per_game=False, bands=((2200, 120), (1600, 90))),
    # The Rating Regulations effective 1 July 2017 to 31 December 2021 (1.1): the same
    # thresholds, "at least one of the players in the game".
    StandardTimeRules(name="FIDE Rating Regulations 2017", valid_from=_D(2017, 7, 1),
                      per_game=True, bands=((2200, 120), (1600, 90))),
    # The Rating Regulations effective 1 January 2022 (1.1–1.2), unchanged by those of
    # 1 March 2024: 2400 → 120 minutes, 1800 → 90, both below 1800 → 60, "at the start of the
    # tournament"; a first control of at least 30 moves (1.2).
    StandardTimeRules(name="FIDE Rating Regulations 2022", valid_from=_D(2022, 1, 1),
                      per_game=True, bands=((2400, 120), (1800, 90)), first_control_moves=30),
)


def standard_time_rules_for(start: date) -> StandardTimeRules:
    """The minimum time of a standard game for a tournament starting on *start*."""
    chosen = _STANDARD_TIMES[0]
    for r in _STANDARD_TIMES:
        if r.valid_from <= start:
            chosen = r
    return chosen


@dataclass(frozen=True, slots=True, kw_only=True)
class FastStandardRules:
    """FIDE's fast-standard controls ("Fast Classic"): standard-rated below the Rating
    Regulations' minimum, on FIDE's own terms (not in the Regulations' text)."""

    name: str
    """In words for people: "FIDE's fast-standard pilot of 2025"."""
    valid_from: date
    valid_until: date | None
    """The first day it no longer applies (None: still in force)."""
    minutes: int = 45
    increment: int = 30
    """The control: this many minutes and seconds a move from move 1 …"""
    exact: bool = False
    """… exactly (True) or at least (False: '45+30 or longer (60+30)')."""
    norms: bool = False
    """False: such events award no title norms; True: only events FIDE's Qualification
    Commission approved do."""
    source: str = ""
    """Where FIDE says so, in words."""


_FAST_STANDARD = (
    # FIDE news "FIDE launches pilot project to test Fast Classic for standard rating" (2025):
    # 45 minutes + 30 seconds from move 1, standard-rated, "no title norms will be awarded";
    # the pilot's events were played from 7 September to 24 November 2025.
    FastStandardRules(name="FIDE's fast-standard pilot of 2025", valid_from=_D(2025, 1, 1),
                      valid_until=_D(2026, 1, 1), exact=True, norms=False,
                      source="FIDE's announcement ‘FIDE launches pilot project to test "
                             "Fast Classic for standard rating’"),
    # FIDE news "FIDE updates rating regulations to include faster time controls for major
    # events": the FIDE Council's decision for the 2026 calendar, 45+30 or longer (60+30) rated
    # as standard and counting for title norms in events FIDE's Qualification Commission
    # approved.
    FastStandardRules(name="the FIDE Council's fast-standard decision for 2026",
                      valid_from=_D(2026, 1, 1), valid_until=None, exact=False, norms=True,
                      source="FIDE's announcement ‘FIDE updates rating regulations to "
                             "include faster time controls for major events’"),
)


def fast_standard_for(start: date) -> FastStandardRules | None:
    """FIDE's fast-standard terms for an event starting on *start* (None before 2025)."""
    return next((r for r in _FAST_STANDARD if r.valid_from <= start
                 and (r.valid_until is None or start < r.valid_until)), None)
