"""UKD (Ulusal Kuvvet Derecesi), the Turkish national rating, as a rating system.

What TSF itself has published, and what this module takes from it (full list, quotes and
dates in docs/ukd.md):

* TSF's UKD answers to frequent questions ("Sıkça Sorulan Sorular", ukd.tsf.org.tr, text as
  copied in marmarissatranc/marmarissatranc.github.io sayfalar/sss.md): the first-UKD rule
  (at least 7 games and a performance above 1000; otherwise archived until the archive has 7
  games and the arithmetic mean of its performances is above 1000), the monthly list (the
  1st of each month), and that beating a higher-rated player gains more while placings add
  nothing.
* TSF-TK-PRS/05, "Ulusal Kuvvet Derecesi Hesaplama Prosedürü" (Teknik Kurul, in force in
  2009; only its opening survives, reposted 2009-09-08 at
  scholars.logu2.com/t214-ukd-ulusal-kuvvet-derecesi-nedir): scope (games between two
  players under FIDE's Laws), UKD "a four-digit number", and GKD, a provisional rating of a
  player without UKD "for that competition".
* TSF's arbiters' FAQ (tsf.org.tr/mhk-sikca-sorulan-sorular): TSF computes UKD from the
  Swiss-Manager package sent to ukd@tsf.org.tr, so every figure here is an estimate.

The calculation itself (FIDE's pre-2009 table method, the 350 cap, K 30/25/20/15/10, the
unrated-opponent rule, rounding) is in none of TSF's surviving texts: it is reconstructed from
three public UKD calculators that agree with each other (ukd-proxy, a C program, a PHP
program).  No published TSF figure (a tournament report with UKD changes) was found to check
it against.  Where the calculators differ or are silent, the choice is an option of
:class:`UkdSystem`.  Arithmetic is exact: integer hundredths, or Decimals holding whole
hundredths.
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
from typing import ClassVar

from importer.model import RatingList, TournamentInfo
from rating.errors import RatingError
from rating.numbers import to_decimal
from rating.results import GameRating, PlayerRating, RoundLine
from rating.systems.base import Column, Form, PlayerFacts, change_if_rated, rate_games
from rating.systems.fide import InitialRating, KSource, average_rating, percent_h, performance
from rating.systems.fide_tables import dp_for, pd_higher_h

__all__ = [
    "DEFAULT_CAP",
    "FIRST_UKD_MIN_GAMES",
    "K_BANDS",
    "K_TOP",
    "MAX_UKD",
    "MIN_UKD",
    "ArchiveDecision",
    "Below1000",
    "FirstUkd",
    "RoundScope",
    "Rounding",
    "UkdSystem",
    "UnratedOpponent",
    "apply_floor",
    "archive_first_ukd",
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
"""The difference cap (reconstruction, no TSF text): all three public calculators cap D at
350, FIDE's rule of 2006-04-01 to 2009-07-01, when PRS/05 was written; 400 is the other
candidate."""

K_BANDS: tuple[tuple[int, int], ...] = ((1299, 30), (1599, 25), (1999, 20), (2399, 15))
"""K by the player's UKD (reconstruction, no TSF text): (highest UKD of the band, K), as all
three public calculators have it; bands only, no age or game-count rules."""

K_TOP = 10
"""K for a UKD of 2400 or more (reconstruction, as K_BANDS)."""

MIN_UKD = 1000
"""The lowest valid UKD (TSF).  PRS/05 (2009) defines UKD as 'dört basamaklı bir sayı', a
four-digit number; TSF's answers require a performance 'above 1000' for a first UKD; TSF's
news of 2007-02-07 gave 1001, not less, to players who scored nothing.  What TSF does with a
UKD that falls below 1000 is not published (see :class:`Below1000`)."""

MAX_UKD = 3000
"""A UKD above 3000 is not plausible: treated as missing (a plausibility check, not TSF's)."""

FIRST_UKD_MIN_GAMES = 7
"""TSF's answers (question 2): 'En az 7 maç oynamak kaydı ile 1000 üzeri performans gösteren
her sporcunun ukd puanı çıkar' (at least 7 games and a performance above 1000)."""


class UnratedOpponent(StrEnum):
    """How a game against an opponent without UKD is rated (the most uncertain point).

    No TSF text says.  PRS/05's definitions (2009) name a GKD, 'Geçici Kuvvet Derecesi', a
    rating computed for a player without UKD for that competition, which suggests TSF rated
    such games on the opponent's GKD; its formula is not public, so no mode uses it.
    """

    FIXED = "fixed"
    """Mode B (default): E 0.50 and K 6 whatever the player's K, ±3 (ukd-proxy today)."""
    CAP = "cap"
    """Mode A: the opponent counts as rating 0, so E is the table value at the cap (an earlier
ukd-proxy, the C program)."""
    SKIP = "skip"
    """Mode D: not rated (as FIDE does; no UKD source does so)."""


class Rounding(StrEnum):
    """How the total change becomes whole points (uncertain: no TSF text states it; TSF's
    tournament reports show the per-game and total changes as decimals, the list integers)."""

    HALF_AWAY = "half_away"
    """Default: .5 away from zero, symmetric, as FIDE's R24 8.3.4."""
    HALF_UP = "half_up"
    """JavaScript Math.round, .5 towards +∞, as ukd-proxy: −22.5 → −22."""
    TRUNCATE = "truncate"
    """Towards zero, as the C program's int conversion."""


class RoundScope(StrEnum):
    """What is rounded once: the month's sum or each tournament (uncertain).  The month is
    TSF's: 'UKD Listesi, her ayın ilk günü "Güncel UKD Listesi" olarak yeniden yayınlanır'
    (TSF's answers, question 3)."""

    PERIOD = "period"
    TOURNAMENT = "tournament"


class Below1000(StrEnum):
    """What a new UKD below 1000 does (uncertain: no TSF text states it; only that a UKD is a
    four-digit number, see MIN_UKD)."""

    FLAG = "flag"
    """Default: keep the value and flag it."""
    RESET = "reset"
    """Remove the UKD, as the C program does."""


# --- expected score: FIDE's table, a capped difference ---

def expected_h(own: int, opponent: int, cap: int | None = DEFAULT_CAP) -> int:
    """The player's E in hundredths: FIDE's table 8.1.2 (D → PD) with D capped.

    UKD uses FIDE's table as it is and differs only in the cap (reconstruction: the three
    calculators carry this table; TSF's answers say only that beating a higher-rated player
    gains more, which the table gives).
    """
    d = abs(own - opponent)
    h = pd_higher_h(d if cap is None else min(d, cap))
    return h if own >= opponent else 100 - h


# --- K ---

def k_for(ukd: int) -> int:
    """K from the player's own UKD before the tournament, fixed for the whole tournament
    (reconstruction: the calculators; no TSF text)."""
    return next((k for top, k in K_BANDS if ukd <= top), K_TOP)


# --- arithmetic and rounding ---

def change_h(k: int, score_h: int, e_h: int) -> int:
    """ΔR in hundredths: K × (100·S − 100·E)."""
    return k * (score_h - e_h)


def outcomes_h(k: int, e_h: int) -> tuple[int, int, int]:
    """Next-round scenarios win / draw / loss in hundredths: win − loss = K."""
    return change_h(k, 100, e_h), change_h(k, 50, e_h), change_h(k, 0, e_h)


def total_change(games: Iterable[GameRating]) -> Decimal:
    """Σ ΔR over the rated games, exact and unrounded."""
    return sum((g.change for g in games if g.rated and g.change is not None), Decimal("0.00"))


def running_totals(games: Sequence[GameRating]) -> list[Decimal]:
    """The cumulative change C_r after each game; unrated games add nothing."""
    steps = (g.change if g.rated and g.change is not None else Decimal("0.00") for g in games)
    return list(accumulate(steps))


def round_total(total: Decimal, rounding: Rounding = Rounding.HALF_AWAY) -> int:
    """A total change to whole points, once, never per game; never round-half-even (the mode
    is not TSF's: see :class:`Rounding`)."""
    if rounding is Rounding.HALF_UP:
        return int((total + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR))
    mode = ROUND_HALF_UP if rounding is Rounding.HALF_AWAY else ROUND_DOWN  # Decimal's names
    return int(total.to_integral_value(rounding=mode))


# --- which ratings are usable ---

def invalid_ukd_reason(value: int | None) -> str | None:
    """Why a non-empty rating cell is not a valid UKD, or None; 0/None is simply no UKD."""
    if not value:
        return None
    if value < MIN_UKD:
        return f"UKD {value} is below {MIN_UKD}, not a valid UKD: treated as without UKD"
    if value > MAX_UKD:
        return f"UKD {value} is above {MAX_UKD}, not a valid UKD: treated as without UKD"
    return None


def usable_ukd(value: int | None) -> int | None:
    """The value as a UKD, or None when missing (0/empty) or not a valid UKD."""
    return value if value and invalid_ukd_reason(value) is None else None


# --- first UKD and the 1000 floor ---

@dataclass(frozen=True, slots=True)
class FirstUkd:
    """A player without UKD in one event: the performance estimate for a first UKD."""

    games: int
    """Games against opponents with a UKD."""
    average: int | None
    """Ra, their average UKD (rounded .5 up, as fide.performance)."""
    p_h: int
    dp: int
    performance: int | None
    """Rp = Ra + dp(p) (FIDE table 8.1.1); None without such games."""
    eligible: bool
    reason: str


def first_ukd(games: Sequence[tuple[int | None, Decimal]]) -> FirstUkd:
    """Estimate for a player without UKD from (opponent UKD, score) pairs of one event.

    The thresholds are TSF's (answers, question 2: at least 7 games, a performance above
    1000); the performance formula is an estimate (FIDE's Ra + dp, table 8.1.1), and counting
    only opponents with a valid UKD is an assumption.  Eligible when this event alone has ≥ 7
    such games and Rp > 1000.  The player's UKD does not change.
    """
    rated = [(opp, score) for opp, score in ((usable_ukd(o), s) for o, s in games) if opp is not None]
    n = len(rated)
    if n == 0:
        return FirstUkd(0, None, 0, 0, None, False, "archived: no games against UKD-rated opponents")
    average = average_rating([opp for opp, _ in rated])
    p_h = percent_h(int(sum(score for _, score in rated) * 100), n)
    dp = dp_for(p_h)
    rp = average + dp
    if n < FIRST_UKD_MIN_GAMES:
        return FirstUkd(n, average, p_h, dp, rp, False, f"archived: fewer than {FIRST_UKD_MIN_GAMES} games")
    if rp <= MIN_UKD:
        return FirstUkd(n, average, p_h, dp, rp, False, f"archived: performance ≤ {MIN_UKD}")
    return FirstUkd(n, average, p_h, dp, rp, True, "eligible for first UKD (estimate)")


@dataclass(frozen=True, slots=True)
class ArchiveDecision:
    """TSF's archive rule over a player's archived events (answers, question 2)."""

    events: int
    """Archived events with a performance (games against UKD-rated opponents)."""
    games: int
    """Their games against UKD-rated opponents, summed."""
    mean_performance: Fraction | None
    """The arithmetic mean of the events' performances, exact; None without such events."""
    eligible: bool
    reason: str


def archive_first_ukd(events: Sequence[FirstUkd]) -> ArchiveDecision:
    """Whether a player's archive earns a first UKD, as TSF's answers (question 2) put it.

    'Arşivde bulunan sporcular "en az 7 maç" oynama şartını yerine getirmeleri ve bu
    yarışmalardan elde ettiği performans puanlarının aritmetik ortalamasının 1000 üzeri olması
    durumunda UKD puanı sahibi olurlar': at least 7 games in all, and the arithmetic mean of
    the events' performances (one per event, unweighted) above 1000, compared exactly.  The
    rule is TSF's; each event's performance is :func:`first_ukd`'s estimate, and which games
    count toward the 7 (here: those against UKD-rated opponents) is not published.
    """
    rated = [e for e in events if e.performance is not None]
    games = sum(e.games for e in rated)
    if not rated:
        return ArchiveDecision(0, 0, None, False, "archive: no games against UKD-rated opponents")
    mean = Fraction(sum(e.performance or 0 for e in rated), len(rated))
    if games < FIRST_UKD_MIN_GAMES:
        return ArchiveDecision(len(rated), games, mean, False,
                               f"archive: fewer than {FIRST_UKD_MIN_GAMES} games")
    if mean <= MIN_UKD:
        return ArchiveDecision(len(rated), games, mean, False,
                               f"archive: mean performance ≤ {MIN_UKD}")
    return ArchiveDecision(len(rated), games, mean, True,
                           "eligible for first UKD from the archive (estimate)")


def floor_note(rating: int) -> str | None:
    """The flag for a new UKD under 1000, or None (no ceiling is known).  Below 1000 is not a
    four-digit number (PRS/05's definition of UKD); what TSF then does is not published."""
    return f"below {MIN_UKD}: UKD may be withdrawn" if rating < MIN_UKD else None


def apply_floor(rating: int, mode: Below1000 = Below1000.FLAG) -> int | None:
    """A new UKD after the 1000 rule: unchanged (flag), or None (removed) under RESET."""
    return None if mode is Below1000.RESET and rating < MIN_UKD else rating


# --- does the tournament compute UKD? ---

_ASCII_FALLBACK = str.maketrans("çşğıöüâîû", "csgiouaiu")
_NATIONAL = frozenset({"national", "nacional", "ulusal", "ukd", "нац", "национальный"})
_TURKISH_NATIONAL = frozenset({"ulusal", "ukd"})


def _words(text: str) -> set[str]:
    """Whole words of *text*, entity-decoded, NFC, Turkish-aware case-folded with ASCII fallback."""
    text = unicodedata.normalize("NFC", html.unescape(text)).replace("İ", "i").lower()
    return set(re.findall(r"\w+", text.translate(_ASCII_FALLBACK)))


def names_turkish_national_rating(rating_calculation: str, federation: str = "") -> bool:
    """Whether a details 'Rating calculation' line names Turkey's national rating, UKD.

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
    """UKD as a :class:`rating.systems.base.RatingSystem`; the defaults are the likeliest reading."""

    cap: int | None = DEFAULT_CAP
    """350, 400 or None (no cap)."""
    unrated_opponent: UnratedOpponent = UnratedOpponent.FIXED
    fixed_expected_h: int = 50
    """Mode B's E in hundredths (ukd-proxy's 0.50)."""
    fixed_k: int = 6
    """Mode B's K (ukd-proxy's 6)."""
    rounding: Rounding = Rounding.HALF_AWAY
    round_scope: RoundScope = RoundScope.PERIOD
    opponent_fide_fallback: bool = False
    """Rate an opponent without UKD on their FIDE rating (no source does; an option)."""
    below_1000: Below1000 = Below1000.FLAG
    rate_rapid_blitz: bool = False
    """UKD is the standard-time rating: rapid and blitz events only when asked."""
    name: str = "ukd"
    label: str = "UKD"
    national: bool = True
    per_tournament: bool = False
    """A month's tournaments are rated together on the month's UKD (TSF's monthly list)."""
    coefficient: str = "K"

    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = (
        Column("national_rating", lambda p: p.rating, header="UKD"),
        Column("ukd_k", lambda p: p.k),
        Column("ukd_rated_games", lambda p: p.rated_games),
        Column("ukd_score", lambda p: p.score, Form.POINTS),
        Column("ukd_expected", lambda p: p.expected, Form.TOTAL),
        Column("ukd_change", lambda p: p.change, Form.CHANGE, header="UKD change",
               shown=change_if_rated),
        Column("ukd_new_rating", lambda p: p.new_rating, header="New UKD"),
    )
    """What UKD adds to the players table beside FIDE: the UKD and its figures."""
    round_columns: ClassVar[tuple[Column[RoundLine], ...]] = (
        Column("opponent_national_rating", lambda ln: ln.opponent_rating, header="UKD",
               title="the opponent's UKD"),
        Column("ukd_rated", lambda ln: ln.rated),
        Column("ukd_reason", lambda ln: ln.reason, Form.TEXT),
        Column("ukd_expected", lambda ln: ln.expected, Form.EXPECTED),
        Column("ukd_change", lambda ln: ln.change, Form.CHANGE, header="UKD change"),
        Column("ukd_cumulative_change", lambda ln: ln.cumulative, Form.CHANGE),
        Column("ukd_k", lambda ln: ln.k),
    )
    """What UKD adds to the rounds table beside FIDE: the opponent's UKD and the change on
    the pages, all of them in the CSV."""

    def __post_init__(self) -> None:
        if self.cap is not None and self.cap < 0:
            raise RatingError(f"UKD difference cap must be non-negative, got {self.cap}")
        if not 0 <= self.fixed_expected_h <= 100:
            raise RatingError(f"mode B's E must be 0–100 hundredths, got {self.fixed_expected_h}")

    # RatingSystem protocol

    def describe(self) -> str:
        """The active settings for a report header."""
        cap = "none" if self.cap is None else str(self.cap)
        unrated = str(self.unrated_opponent)
        if self.unrated_opponent is UnratedOpponent.FIXED:
            unrated += f" (E {to_decimal(self.fixed_expected_h)}, K {self.fixed_k})"
        rounding = {Rounding.HALF_AWAY: "half away from zero", Rounding.HALF_UP: "half up",
                    Rounding.TRUNCATE: "truncate"}[self.rounding]
        return f"UKD estimate: cap {cap}, unrated = {unrated}, rounding {rounding}"

    def rules_label(self) -> str:
        return f"{self.label}: {self.describe()}"

    def applies(self, info: TournamentInfo) -> bool:
        """Rated beside FIDE when the source's rating calculation names Turkey's national
        rating, on a list UKD rates."""
        return (names_turkish_national_rating(info.rating_calculation, info.federation)
                and self.rates(info.rating_list))

    def list_note(self, rating_list: RatingList) -> str:
        if rating_list is RatingList.STANDARD:
            return ""
        return "UKD is the standard-time rating: this event was rated as asked, but TSF may not rate it"

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """K by the player's UKD band; *default* for a player without UKD (whose games are
        not rated).  A K published for FIDE is not UKD's."""
        if facts.rating is None:
            return default, KSource.DEFAULT
        return k_for(facts.rating), KSource.CATEGORY

    def capped_k(self, k: int, games: int) -> int:
        return k  # no cap on K × n is known

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        return ()  # K by the UKD band alone

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        """None when rated: forfeits and byes never reach here (PRS/05's scope is games played
        between two players); games against an opponent without UKD are rated in modes fixed
        and cap; a rating cell that is not a valid UKD is no UKD."""
        if own is None:
            return "player without UKD"  # no change; see first_ukd
        if opponent is None:
            skip = self.unrated_opponent is UnratedOpponent.SKIP
            return "opponent without UKD (skip)" if skip else None
        return invalid_ukd_reason(opponent)

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        """The cap applies to every game with |D| above it."""
        return [self.cap is not None and abs(own - o) > self.cap for o in opponents]

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """E.g. Decimal('0.36') for 1500 v 1600."""
        return to_decimal(expected_h(own, opponent, self.cap if capped else None))

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """FIDE's Ra + dp (table 8.1.1), as :func:`first_ukd` estimates it."""
        return performance(opponents, score_h)

    def k(self, facts: PlayerFacts) -> int:
        """K by the UKD before the tournament; 0 for a player without UKD (no change)."""
        return 0 if facts.rating is None else k_for(facts.rating)

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        """A game against an opponent without UKD under the configured mode (None: skip)."""
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

    def rate(self, own: int | None, k: int, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None,
             facts: PlayerFacts | None = None) -> list[GameRating]:
        """One player's played games (opponent's UKD cell, score) of one tournament.

        Resolves each opponent's rating (a cell that is not a valid UKD is no UKD; the FIDE
        rating under ``opponent_fide_fallback``), then rates through
        :func:`rating.systems.base.rate_games` with the player's K, fixed for the tournament.
        """
        fides = list(opponent_fide) if opponent_fide is not None else [None] * len(games)
        resolved = [self.opponent_rating(u, f) for (u, _), f in zip(games, fides, strict=True)]
        base = rate_games(self, own, k, [(r, s) for r, (_, s) in zip(resolved, games, strict=True)])
        out: list[GameRating] = []
        for (cell, _), used, game in zip(games, resolved, base, strict=True):
            fallback = (f"opponent without UKD: FIDE rating {used} used (opponent_fide_fallback)"
                        if used is not None and used != cell else None)
            notes = [n for n in (invalid_ukd_reason(cell), game.reason, fallback) if n]
            reason = "; ".join(dict.fromkeys(notes))
            out.append(game if reason == game.reason else replace(game, reason=reason))
        return out

    def new_rating(self, own: int, change: Decimal) -> int | None:
        """R_p + round(ΔR), then the 1000 rule (None only when ``Below1000.RESET`` removes it)."""
        return apply_floor(own + round_total(change, self.rounding), self.below_1000)

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        return None  # a first UKD needs the archive of several events: first_ukd, archive_first_ukd

    # UKD-specific

    def rates(self, rating_list: RatingList | None) -> bool:
        """Standard (or unknown) tournaments; rapid and blitz only if asked (no TSF text says
        which time controls UKD rates; organisers' directives send events with short time
        controls to UKD, so ``rate_rapid_blitz`` may be needed for them)."""
        return rating_list in (None, RatingList.STANDARD) or self.rate_rapid_blitz

    def opponent_rating(self, ukd: int | None, fide: int | None = None) -> int | None:
        """The rating an opponent is rated on: a valid UKD, else FIDE under the fallback."""
        found = usable_ukd(ukd)
        if found is None and self.opponent_fide_fallback and fide:
            return fide
        return found

    def period_change(self, totals: Sequence[Decimal]) -> int:
        """A month's change from its tournaments' exact totals, rounded per the scope."""
        if self.round_scope is RoundScope.PERIOD:
            return round_total(sum(totals, Decimal("0.00")), self.rounding)
        return sum(round_total(t, self.rounding) for t in totals)
