"""FIDE rating arithmetic, exact, in integer hundredths.

Every function is pure and names the regulation it implements: R24 is the FIDE
Rating Regulations effective 1 March 2024 (amended 1 October 2025), RB24 the
Rapid and Blitz Regulations (amended 1 December 2024), R22 the 2022 text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Final

from rating.numbers import round_half_up
from rating.systems.fide_rules import CapRule, FideRules, InitialRule
from rating.systems.fide_tables import dp_for, pd_h

__all__ = [
    "MASTER_TITLES",
    "Category",
    "InitialRating",
    "KSource",
    "PlayerFacts",
    "average_rating",
    "cap_mask",
    "capped_opponent",
    "category_of",
    "disregarded_first_event",
    "excluded_reason",
    "expected_h",
    "initial_rating",
    "is_junior_category",
    "k_factor",
    "k_for_category",
    "list_rating",
    "percent_h",
    "performance",
    "period_k",
    "plausible_birth_year",
    "player_k",
    "pooled_initial_rating",
]


# --- the difference cap (R24 8.3.1, R22 8.3.1, historical rules) and the 600-point rule (RB24 7.3.1) ---

def capped_opponent(own: int, opponent: int, rules: FideRules) -> int:
    """The opponent rating used after the difference cap (FIDE prints it with '*')."""
    return max(own - rules.cap, min(own + rules.cap, opponent))


def cap_mask(own: int, opponents: Sequence[int], rules: FideRules) -> list[bool]:
    """Which of a player's games in one tournament have their difference capped.

    EVERY_GAME (historical rules, R24 8.3.1): every |D| > cap.  ONCE_PER_TOURNAMENT (R22 8.3.1): only the
    game with the greatest |D| > cap, per player.  BELOW_2650 (R24 8.3.1 from 2025-10-01): as
    EVERY_GAME for a player rated below 2650, never for one rated 2650 or more.
    """
    over = [abs(own - o) > rules.cap for o in opponents]
    if not rules.cap_applies(own):
        return [False] * len(opponents)
    if rules.cap_rule is CapRule.ONCE_PER_TOURNAMENT and any(over):
        widest = max(range(len(opponents)), key=lambda i: abs(own - opponents[i]))
        return [i == widest for i in range(len(opponents))]
    return over


def expected_h(own: int, opponent: int, rules: FideRules, *, capped: bool = True) -> int:
    """PD in hundredths (table 8.1.2, R24 8.3.2 a) after the cap when *capped* applies."""
    used = capped_opponent(own, opponent, rules) if capped and rules.cap_applies(own) else opponent
    return pd_h(own, used)


def excluded_reason(own: int, opponent: int, rules: FideRules) -> str | None:
    """Why a played game between two rated players is not rated, or None (RB24 7.3.1)."""
    if (rules.exclude_gap is not None and rules.exclude_above is not None
            and abs(own - opponent) >= rules.exclude_gap
            and max(own, opponent) > rules.exclude_above):
        return (f"difference of {rules.exclude_gap}+ with a player above "
                f"{rules.exclude_above}")
    return None


# --- the rating a player is rated with (RB24 7.2.1) ---

def list_rating(rules: FideRules, own: int | None, standard: int | None) -> int | None:
    """The rating a player is rated with on *rules*' list: their own rating there, else, in
    rapid and blitz, their standard rating (*standard*, at the tournament's start).

    RB24 7.2.1: "If an unrated player has a standard rating at the beginning of a rapid or
    blitz tournament, their standard rating is used for rating calculation. Such a player is
    considered to be rated" (``rules.unrated_uses_standard``).
    """
    if own is None and rules.unrated_uses_standard:
        return standard
    return own


# --- K (R24 8.3.3; earlier values from FIDE's announcements of each change) ---

class Category(StrEnum):
    """The four K categories of R24 8.3.3."""

    NEW = "new"
    JUNIOR = "junior"
    ESTABLISHED = "established"
    MASTER = "master"


def k_for_category(category: Category, rules: FideRules) -> int:
    """K of a category under *rules* (historical values where the rules are old)."""
    if category is Category.MASTER:
        return rules.k_top
    if category is Category.NEW:
        return rules.k_new
    if category is Category.JUNIOR and rules.k_junior is not None:
        return rules.k_junior
    return rules.k_established


def category_of(rules: FideRules, *, rating: int | None, games_played: int | None = None,
                birth_year: int | None = None, reached_2400: bool = False,
                year: int | None = None, junior: bool = False) -> Category:
    """The K category, in the order that reproduces FIDE's published lists.

    1. ever published ≥ 2400 → master (before 2011-07 also ≥ 30 games);
    2. junior (year − birth year ≤ 18, or *junior* when the source says so without a birth
       year, e.g. an U18 category) still below 2300 → junior;
    3. fewer than 30 games, or unrated → new;  4. otherwise established.
    """
    top = reached_2400 or rules.reaches_top(rating)
    enough_games = games_played is None or games_played >= rules.new_player_games
    if top and (enough_games or not rules.top_needs_games):
        return Category.MASTER
    young = junior if birth_year is None or year is None else year - birth_year <= 18
    if rules.k_junior is not None and young and (rating is None or rating < rules.junior_below):
        return Category.JUNIOR
    if rating is None or (games_played is not None and games_played < rules.new_player_games):
        return Category.NEW
    return Category.ESTABLISHED


def k_factor(rules: FideRules, **player: object) -> int:
    """K for a player described by :func:`category_of`'s keywords."""
    return k_for_category(category_of(rules, **player), rules)  # type: ignore[arg-type]


MASTER_TITLES = frozenset({"GM", "IM"})
"""Titles that need a published rating of 2400 or more: their holders have K 10 (R24 8.3.3)."""

_JUNIOR_CATEGORY = re.compile(r"[UGB](\d{1,2})", re.IGNORECASE)


def is_junior_category(category: str) -> bool:
    """Whether a source's category (U18, U14, G12, …) makes the player a junior for K.

    An U18 player is under 18 on 1 January, so turns at most 18 this year: a junior under
    R24 8.3.3 (K 40 until the end of the year of the 18th birthday).
    """
    m = _JUNIOR_CATEGORY.fullmatch(category.strip())
    return m is not None and int(m.group(1)) <= 18


class KSource(StrEnum):
    """Where a player's K came from, in the order of precedence."""

    CARD = "card"
    """Published per game by the source (player card 'K' column)."""
    SOURCE = "source"
    """Published per player by the source (a ranking list's or card's K)."""
    LIST = "list"
    """The FIDE rating list in force."""
    CATEGORY = "category"
    """The K category from rating, title, birth year and games (R24 8.3.3)."""
    DEFAULT = "default"
    """Nothing known: the caller's default K (a warning names the player)."""


YOUNGEST: Final = 4
"""A player younger than this in the event's year is a birth year the source got wrong (the
event's own year, a typing slip): it decides no K."""


def plausible_birth_year(birth_year: int | None, year: int | None) -> int | None:
    """*birth_year* when it can be a player's in an event of *year*, else None."""
    if birth_year is None or year is None or year - birth_year >= YOUNGEST:
        return birth_year
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerFacts:
    """What is known about a player when choosing K (every path asks :func:`player_k`)."""

    rating: int | None
    """The rating the K is for (the tournament's, or the previous list's in a period)."""
    games_played: int | None = None
    """Rated games before this period (None: unknown)."""
    birth_year: int | None = None
    reached_2400: bool = False
    year: int | None = None
    """The year the K is for (the tournament's start)."""
    title: str = ""
    junior: bool = False
    """The source's category says junior (U18 …) where no birth year is known."""
    published_k: int | None = None
    """A K the source publishes for the player."""
    list_k: int | None = None
    """The K on the FIDE rating list in force."""
    evaluations: int | None = None
    """How many times a national list has rated the player before (DWZ's index; None:
    unknown)."""

    def __post_init__(self) -> None:
        """A birth year no player of the event can have is unknown (every path, every system)."""
        object.__setattr__(self, "birth_year", plausible_birth_year(self.birth_year, self.year))


@cache
def player_k(rules: FideRules, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
    """A player's K before the period cap (R24 8.3.3), the one rule every path uses.

    Published by the source, else on the rating list, else the category when any fact
    decides it (a title or rating of 2400+, a birth year or junior category, a games count),
    else *default*.
    """
    if facts.published_k is not None:
        return facts.published_k, KSource.SOURCE
    if facts.list_k:
        return facts.list_k, KSource.LIST
    master = facts.reached_2400 or facts.title.upper() in MASTER_TITLES
    top = master or rules.reaches_top(facts.rating)
    if top or facts.birth_year is not None or facts.junior or facts.games_played is not None:
        cat = category_of(rules, rating=facts.rating, games_played=facts.games_played,
                          birth_year=facts.birth_year, reached_2400=master, year=facts.year,
                          junior=facts.junior)
        return k_for_category(cat, rules), KSource.CATEGORY
    return default, KSource.DEFAULT


def period_k(k: int, n: int, rules: FideRules) -> int:
    """R24 8.3.3: if K × n > 700, K is the largest whole number with K × n ≤ 700."""
    if rules.period_cap is not None and n > 0 and k * n > rules.period_cap:
        return rules.period_cap // n
    return k


# --- performance and initial rating (R24 8.2, tables 8.1.1; R22 8.2) ---

def percent_h(score_h: int, games: int) -> int:
    """p in hundredths, rounded to the nearest hundredth with .005 up."""
    return round_half_up(Fraction(score_h, games))


def average_rating(opponents: Sequence[int]) -> int:
    """Ra, the opponents' average rating to the whole number, .5 up (R24 8.2.3; FIDE's Rc of a
    tournament line); at least one opponent."""
    return round_half_up(Fraction(sum(opponents), len(opponents)))


def performance(opponents: Sequence[int], score_h: int) -> int | None:
    """Rp = round(Ra) + dp(p) over rated opponents; None without games."""
    n = len(opponents)
    if n == 0:
        return None
    return average_rating(opponents) + dp_for(percent_h(score_h, n))


@dataclass(frozen=True, slots=True)
class InitialRating:
    """An unrated player's first rating from their pool of games against rated opponents."""

    games: int
    average: Fraction
    """Ra (with the hypothetical opponents under R24)."""
    p_h: int
    dp: int
    value: int | None
    """Ru, rounded and capped at the maximum; None without games."""
    published: bool
    reason: str = ""
    score_h: int = 0
    """The points scored against the rated opponents, in hundredths."""
    hypothetical: int = 0
    """How many hypothetical opponents, each a draw, Ra and p include (R24: two)."""
    hypothetical_rating: int = 0
    """Their rating (R24: 1800)."""
    min_games: int = 0
    """The games against rated opponents a first rating needs (R24: five)."""
    opponents_sum: int = 0
    """The rated opponents' ratings added up (the hypothetical opponents not included)."""
    rounded: int | None = None
    """Ra + dp rounded, before the maximum (``value`` is at most the rules' maximum); None
    without games."""

    @property
    def exact(self) -> Fraction:
        """Ra + dp, unrounded."""
        return self.average + self.dp

    @property
    def at_maximum(self) -> bool:
        """Whether the rules' maximum (R24 7.1.4: 2200) cut the rounded Ra + dp down."""
        return self.value is not None and self.rounded is not None and self.rounded > self.value


def disregarded_first_event(earlier_events: int, first: bool, score_h: int) -> bool:
    """R24 8.2.1: "If an unrated player scores zero in their first event this score is
    disregarded" — an event is the first when it is the earliest of the period (*first*) and
    no earlier event is pooled (*earlier_events*); *score_h*: its score in hundredths."""
    return earlier_events == 0 and first and score_h == 0


def initial_rating(opponents: Sequence[int], score_h: int, rules: FideRules) -> InitialRating:
    """Ru of an unrated player (R24 7.1.4, 8.2; R22 8.2 for older rules).

    R24: Ra = (Σ opponents + 2 × 1800) / (n + 2), p = (W + 1) / (n + 2) to the hundredth,
    Ru = round(Ra + dp), at most 2200; published from 5 games and if Ru ≥ 1400.
    """
    return pooled_initial_rating(len(opponents), sum(opponents), score_h, rules)


def pooled_initial_rating(n: int, opponents_sum: int, score_h: int, rules: FideRules
                          ) -> InitialRating:
    """:func:`initial_rating` from a pool's totals: *n* games, their opponents' ratings summed,
    the score in hundredths (a period's pool keeps only totals of earlier periods)."""
    progress = f"{n} of {rules.initial_min_games} games against rated opponents"
    extra = rules.hypothetical_opponents if rules.initial_rule is InitialRule.R24 else 0

    def result(games: int, ra: Fraction, p_h: int, dp: int, rounded: int | None,
               published: bool, reason: str = "") -> InitialRating:
        value = (rounded if rounded is None or rules.initial_max is None
                 else min(rounded, rules.initial_max))
        return InitialRating(games, ra, p_h, dp, value, published, reason, score_h=score_h,
                             hypothetical=extra,
                             hypothetical_rating=rules.hypothetical_opponent if extra else 0,
                             min_games=rules.initial_min_games, opponents_sum=opponents_sum,
                             rounded=rounded)

    if n == 0:
        return result(0, Fraction(0), 0, 0, None, False, progress)
    if rules.initial_rule is InitialRule.R24:
        ra = Fraction(opponents_sum + extra * rules.hypothetical_opponent, n + extra)
        p_h = percent_h(score_h + 50 * extra, n + extra)
        dp = dp_for(p_h)
    else:
        ra = Fraction(opponents_sum, n)
        p_h = percent_h(score_h, n)
        # R22 8.2: above 50 % add 20 per half point over 50 %; below, Ra + dp.
        half_points_over = Fraction(2 * score_h, 100) - n
        dp = (int(rules.half_point_bonus * half_points_over) if half_points_over > 0
              else dp_for(p_h))
    rounded = round_half_up(ra + dp)
    if n < rules.initial_min_games:
        return result(n, ra, p_h, dp, rounded, False, progress)
    first = result(n, ra, p_h, dp, rounded, True)
    if first.value is not None and first.value < rules.floor:
        return replace(first, published=False, reason=f"below the {rules.floor} floor")
    return first
