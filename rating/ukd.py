"""UKD (Ulusal Kuvvet Derecesi), the Turkish national rating, as a rating system (ukd.md).

TSF's procedure TSF-TK-PRS/05 is not public, so the method is reconstructed (ukd.md §0)
and every figure is an estimate.  Section numbers (§) are ukd.md's; source tags in brackets
are its §8: [S1] TSF FAQ, [S4] PRS/05 opening, [S5] ukd-proxy, [S6] the C program,
[S7] the PHP program, [S8] TSF's report, [F1]–[F6] FIDE background.  Arithmetic is exact:
integer hundredths, or Decimals holding whole hundredths (§3.7).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from itertools import accumulate

from importer.model import RatingList
from rating.errors import RatingError
from rating.fide import percent_h
from rating.numbers import round_half_up, to_decimal
from rating.system import GameRating, PlayerFacts, rate_games
from rating.tables import dp_for, pd_higher_h

__all__ = [
    "DEFAULT_CAP",
    "FIRST_UKD_MIN_GAMES",
    "K_BANDS",
    "K_TOP",
    "MAX_UKD",
    "MIN_UKD",
    "Below1000",
    "FirstUkd",
    "RoundScope",
    "Rounding",
    "UkdSystem",
    "UnratedOpponent",
    "apply_floor",
    "change_h",
    "expected_h",
    "first_ukd",
    "floor_note",
    "invalid_ukd_reason",
    "k_for",
    "names_turkish_national_rating",
    "outcomes_h",
    "round_total",
    "running_totals",
    "total_change",
    "usable_ukd",
]

DEFAULT_CAP = 350
"""§3.4, U2: all three implementations cap D at 350 [S5, S6, S7], FIDE's 2006–2009 rule [F1]."""

K_BANDS: tuple[tuple[int, int], ...] = ((1299, 30), (1599, 25), (1999, 20), (2399, 15))
"""§3.5 (H) [S5, S6, S7]: (highest UKD of the band, K); bands only, no age or game rules (U5)."""

K_TOP = 10
"""§3.5: K for a UKD of 2400 or more."""

MIN_UKD = 1000
"""§3.10, §3.12: the lowest valid UKD; a first UKD needs a performance above 1000 [S1]."""

MAX_UKD = 3000
"""§3.10: a UKD above 3000 is treated as missing."""

FIRST_UKD_MIN_GAMES = 7
"""§3.11 [S1]: 'En az 7 maç oynamak kaydı ile 1000 üzeri performans'."""


class UnratedOpponent(StrEnum):
    """How a game against an opponent without UKD is rated (§3.9, U1)."""

    FIXED = "fixed"
    """Mode B (default): E 0.50 and K 6 whatever the player's K, ±3 [S5 a368fb9]."""
    CAP = "cap"
    """Mode A: the opponent counts as rating 0, so E is the table value at the cap [S5 d4a45fb, S6]."""
    SKIP = "skip"
    """Mode D: not rated (no UKD source)."""


class Rounding(StrEnum):
    """How the total change becomes whole points (§3.8, U3)."""

    HALF_AWAY = "half_away"
    """Default: .5 away from zero, symmetric, FIDE B.02 8.3.4 [F4]."""
    HALF_UP = "half_up"
    """JavaScript Math.round, .5 towards +∞, as ukd-proxy [S5]: −22.5 → −22."""
    TRUNCATE = "truncate"
    """Towards zero, as the C program's int conversion [S6]."""


class RoundScope(StrEnum):
    """What is rounded once: the month's sum or each tournament (§3.13, U3)."""

    PERIOD = "period"
    TOURNAMENT = "tournament"


class Below1000(StrEnum):
    """What a new UKD below 1000 does (§3.12, U8)."""

    FLAG = "flag"
    """Default: keep the value and flag it."""
    RESET = "reset"
    """Remove the UKD, as the C program does [S6]."""


# --- expected score (§3.3 table, §3.4 cap) ---

def expected_h(own: int, opponent: int, cap: int | None = DEFAULT_CAP) -> int:
    """The player's E in hundredths: FIDE's D → PD table (§3.3 [F4, F5]) with D capped (§3.4).

    The table is FIDE's table 8.1.2, reused as §3.3 asks (UKD differs only in the cap).
    """
    d = abs(own - opponent)
    h = pd_higher_h(d if cap is None else min(d, cap))
    return h if own >= opponent else 100 - h


# --- K (§3.5) ---

def k_for(ukd: int) -> int:
    """K from the player's own pre-tournament UKD (§3.5, fixed for the tournament §3.1)."""
    return next((k for top, k in K_BANDS if ukd <= top), K_TOP)


# --- arithmetic (§3.6, §3.7) and rounding (§3.8) ---

def change_h(k: int, score_h: int, e_h: int) -> int:
    """ΔR in hundredths: K × (100·S − 100·E) (§3.7)."""
    return k * (score_h - e_h)


def outcomes_h(k: int, e_h: int) -> tuple[int, int, int]:
    """Next-round scenarios win / draw / loss in hundredths (§3.6): win − loss = K."""
    return change_h(k, 100, e_h), change_h(k, 50, e_h), change_h(k, 0, e_h)


def total_change(games: Iterable[GameRating]) -> Decimal:
    """Σ ΔR over the rated games (§3.6), exact and unrounded."""
    return sum((g.change for g in games if g.rated and g.change is not None), Decimal("0.00"))


def running_totals(games: Sequence[GameRating]) -> list[Decimal]:
    """The cumulative change C_r after each game (§3.6); unrated games add nothing."""
    steps = (g.change if g.rated and g.change is not None else Decimal("0.00") for g in games)
    return list(accumulate(steps))


def round_total(total: Decimal, rounding: Rounding = Rounding.HALF_AWAY) -> int:
    """A total change to whole points, once, never per game (§3.8); never round-half-even (§3.7)."""
    if rounding is Rounding.HALF_UP:
        return int((total + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR))
    mode = ROUND_HALF_UP if rounding is Rounding.HALF_AWAY else ROUND_DOWN  # Decimal's names
    return int(total.to_integral_value(rounding=mode))


# --- which ratings are usable (§3.9, §3.10) ---

def invalid_ukd_reason(value: int | None) -> str | None:
    """Why a non-empty rating cell is not a valid UKD (§3.10), or None; 0/None is simply NA (§4.7)."""
    if not value:
        return None
    if value < MIN_UKD:
        return f"UKD {value} is below {MIN_UKD}, not a valid UKD: treated as without UKD"
    if value > MAX_UKD:
        return f"UKD {value} is above {MAX_UKD}, not a valid UKD: treated as without UKD"
    return None


def usable_ukd(value: int | None) -> int | None:
    """The value as a UKD, or None when missing (0/empty, §4.7) or invalid (§3.10)."""
    return value if value and invalid_ukd_reason(value) is None else None


# --- first UKD (§3.11) and the 1000 floor (§3.12) ---

@dataclass(frozen=True, slots=True)
class FirstUkd:
    """A player without UKD in one event: the performance estimate of §3.11 (U4)."""

    games: int
    """Games against opponents with a UKD."""
    average: int | None
    """Ra, their average UKD (rounded .5 up, as fide.performance)."""
    p_h: int
    dp: int
    performance: int | None
    """Rp = Ra + dp(p) (FIDE 8.1(a) [F5]); None without such games."""
    eligible: bool
    reason: str


def first_ukd(games: Sequence[tuple[int | None, Decimal]]) -> FirstUkd:
    """Estimate for a player without UKD from (opponent UKD, score) pairs (§3.11 [S1]; U4: estimate).

    Only opponents with a valid UKD count; eligible when this event alone has ≥ 7 of them and
    Rp > 1000.  The player's UKD does not change.
    """
    rated = [(opp, score) for opp, score in ((usable_ukd(o), s) for o, s in games) if opp is not None]
    n = len(rated)
    if n == 0:
        return FirstUkd(0, None, 0, 0, None, False, "archived: no games against UKD-rated opponents")
    average = round_half_up(Fraction(sum(opp for opp, _ in rated), n))
    p_h = percent_h(int(sum(score for _, score in rated) * 100), n)
    dp = dp_for(p_h)
    rp = average + dp
    if n < FIRST_UKD_MIN_GAMES:
        return FirstUkd(n, average, p_h, dp, rp, False, f"archived: fewer than {FIRST_UKD_MIN_GAMES} games")
    if rp <= MIN_UKD:
        return FirstUkd(n, average, p_h, dp, rp, False, f"archived: performance ≤ {MIN_UKD}")
    return FirstUkd(n, average, p_h, dp, rp, True, "eligible for first UKD (estimate)")


def floor_note(rating: int) -> str | None:
    """The §3.12 flag for a new UKD under 1000, or None (no ceiling is known)."""
    return f"below {MIN_UKD}: UKD may be withdrawn" if rating < MIN_UKD else None


def apply_floor(rating: int, mode: Below1000 = Below1000.FLAG) -> int | None:
    """A new UKD after the §3.12 rule: unchanged (flag), or None (removed) under RESET [S6]."""
    return None if mode is Below1000.RESET and rating < MIN_UKD else rating


# --- does the tournament compute UKD? (§4.2, §4.9) ---

_ASCII_FALLBACK = str.maketrans("çşğıöüâîû", "csgiouaiu")
_NATIONAL = frozenset({"national", "nacional", "ulusal", "ukd", "нац", "национальный"})
_TURKISH_NATIONAL = frozenset({"ulusal", "ukd"})


def _words(text: str) -> set[str]:
    """Whole words of *text*, entity-decoded, NFC, Turkish-aware case-folded with ASCII fallback (§4.9)."""
    text = unicodedata.normalize("NFC", html.unescape(text)).replace("İ", "i").lower()
    return set(re.findall(r"\w+", text.translate(_ASCII_FALLBACK)))


def names_turkish_national_rating(rating_calculation: str, federation: str = "") -> bool:
    """Whether a details 'Rating calculation' line names Turkey's national rating, UKD (§4.2).

    National is a whole word ('international' is not 'national'): national / nacional /
    ulusal / UKD / нац.  With a *federation* it must be TUR; without one only the Turkish
    words (Ulusal, UKD) count, since elsewhere 'national' is another system (DWZ, ECF …).
    """
    words = _words(rating_calculation)
    fed = federation.strip().upper()
    if fed:
        return fed == "TUR" and bool(words & _NATIONAL)
    return bool(words & _TURKISH_NATIONAL)


# --- the rating system ---

@dataclass(frozen=True, slots=True)
class UkdSystem:
    """UKD as a :class:`rating.system.RatingSystem`, configured by ukd.md §5 (defaults = spec's)."""

    cap: int | None = DEFAULT_CAP
    """§3.4, U2: 350, 400 or None (no cap)."""
    unrated_opponent: UnratedOpponent = UnratedOpponent.FIXED
    """§3.9, U1."""
    fixed_expected_h: int = 50
    """§5 ukd.unrated_fixed: mode B's E in hundredths [S5]."""
    fixed_k: int = 6
    """§5 ukd.unrated_fixed: mode B's K [S5]."""
    rounding: Rounding = Rounding.HALF_AWAY
    """§3.8, U3."""
    round_scope: RoundScope = RoundScope.PERIOD
    """§3.13, U3."""
    opponent_fide_fallback: bool = False
    """§3.10, U6: rate an opponent without UKD on their FIDE rating."""
    below_1000: Below1000 = Below1000.FLAG
    """§3.12, U8."""
    rate_rapid_blitz: bool = False
    """§3.13, U10: UKD is the standard-time rating."""
    name: str = "ukd"
    label: str = "UKD"
    national: bool = True

    def __post_init__(self) -> None:
        if self.cap is not None and self.cap < 0:
            raise RatingError(f"UKD difference cap must be non-negative, got {self.cap}")
        if not 0 <= self.fixed_expected_h <= 100:
            raise RatingError(f"mode B's E must be 0–100 hundredths, got {self.fixed_expected_h}")

    # RatingSystem protocol

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        """§3.2, §3.9, §3.10, §3.15: None when rated (modes fixed/cap rate games v no UKD)."""
        if own is None:
            return "player without UKD"  # §3.11: no change
        if opponent is None:
            skip = self.unrated_opponent is UnratedOpponent.SKIP
            return "opponent without UKD (skip)" if skip else None
        return invalid_ukd_reason(opponent)

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        """§3.4: the cap applies to every game with |D| above it."""
        return [self.cap is not None and abs(own - o) > self.cap for o in opponents]

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """§3.3, §3.4: e.g. Decimal('0.36') for 1500 v 1600."""
        return to_decimal(expected_h(own, opponent, self.cap if capped else None))

    def k(self, facts: PlayerFacts) -> int:
        """§3.5 by the pre-tournament UKD; 0 for a player without UKD (no change, §3.11)."""
        return 0 if facts.rating is None else k_for(facts.rating)

    # UKD-specific

    def rates(self, rating_list: RatingList | None) -> bool:
        """§3.13, U10: standard (or unknown) tournaments; rapid and blitz only if asked."""
        return rating_list in (None, RatingList.STANDARD) or self.rate_rapid_blitz

    def opponent_rating(self, ukd: int | None, fide: int | None = None) -> int | None:
        """The rating an opponent is rated on: a valid UKD, else FIDE under the fallback (§3.10, U6)."""
        found = usable_ukd(ukd)
        if found is None and self.opponent_fide_fallback and fide:
            return fide
        return found

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        """§3.9: a game against an opponent without UKD under the configured mode (None: skip)."""
        mode = self.unrated_opponent
        if mode is UnratedOpponent.SKIP:
            return None
        if mode is UnratedOpponent.FIXED:
            exp, used_k, capped = to_decimal(self.fixed_expected_h), self.fixed_k, False
            how = f"E {exp}, K {used_k}"
        else:
            exp, used_k, capped = self.expected(own, 0, capped=True), k, self.cap is not None
            how = "opponent as 0, capped difference"
        return GameRating(None, score, rated=True, capped=capped, expected=exp,
                          change=used_k * (score - exp), k=used_k,
                          reason=f"opponent without UKD: estimate (mode {mode}: {how})")

    def rate(self, own: int | None, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None) -> list[GameRating]:
        """One player's played games (opponent UKD cell, score) of one tournament (§3.6).

        Resolves each opponent's rating (§3.10 suspicious cells, the U6 FIDE fallback), then
        rates through :func:`rating.system.rate_games` with the pre-tournament K (§3.1).
        """
        fides = list(opponent_fide) if opponent_fide is not None else [None] * len(games)
        resolved = [self.opponent_rating(u, f) for (u, _), f in zip(games, fides, strict=True)]
        k = self.k(PlayerFacts(rating=own))
        base = rate_games(self, own, k, [(r, s) for r, (_, s) in zip(resolved, games, strict=True)])
        out: list[GameRating] = []
        for (cell, _), used, game in zip(games, resolved, base, strict=True):
            fallback = (f"opponent without UKD: FIDE rating {used} used (opponent_fide_fallback)"
                        if used is not None and used != cell else None)
            notes = [n for n in (invalid_ukd_reason(cell), game.reason, fallback) if n]
            reason = "; ".join(dict.fromkeys(notes))
            out.append(game if reason == game.reason else replace(game, reason=reason))
        return out

    def new_rating(self, own: int, total: Decimal) -> int | None:
        """R_p + round(ΔR) (§3.6, §3.8), then the §3.12 rule (None only when reset removes it)."""
        return apply_floor(own + round_total(total, self.rounding), self.below_1000)

    def period_change(self, totals: Sequence[Decimal]) -> int:
        """A month's change from its tournaments' exact totals, rounded per the scope (§3.13, U3)."""
        if self.round_scope is RoundScope.PERIOD:
            return round_total(sum(totals, Decimal("0.00")), self.rounding)
        return sum(round_total(t, self.rounding) for t in totals)

    def describe(self) -> str:
        """The active settings for a report header (§5)."""
        cap = "none" if self.cap is None else str(self.cap)
        unrated = str(self.unrated_opponent)
        if self.unrated_opponent is UnratedOpponent.FIXED:
            unrated += f" (E {to_decimal(self.fixed_expected_h)}, K {self.fixed_k})"
        rounding = {Rounding.HALF_AWAY: "half away from zero", Rounding.HALF_UP: "half up",
                    Rounding.TRUNCATE: "truncate"}[self.rounding]
        return f"UKD estimate: cap {cap}, unrated = {unrated}, rounding {rounding}"
