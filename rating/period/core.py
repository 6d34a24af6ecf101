"""The rating-period core: a period's long table of player-games → PD, K and changes, vectorised.

:func:`rate_rows` takes one numpy row per player-game, per-tournament rule parameters and
per-(player, list) facts, and returns per-row PD, K and change and per-(player, list)
totals; no per-game Python loop.  :func:`initial_ratings` does the same for first ratings.
Every parameter comes from the rules (:class:`~rating.systems.fide_rules.FideRules`, as
:class:`RuleArrays` per tournament).  Arithmetic is exact in integer hundredths; the change
is rounded once per player, list and period, 0.5 away from zero (R24 8.3.4), with the
rounding functions of :mod:`rating.numbers`.  Everything here is pure; :mod:`rating.period.engine`
builds the table from tournaments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from rating.numbers import half_up_div_array, round_half_away_array
from rating.period.months import month_add
from rating.period.records import LISTS
from rating.systems.fide_rules import CapRule, FideRules, InitialRule, rules_for
from rating.systems.fide_tables import DP_TABLE, PD_TABLE

__all__ = ["LISTS", "NONE", "PlayerLists", "RateOutput", "RuleArrays", "default_period",
           "initial_ratings", "kept", "rate_rows", "sorted_unique"]

Array = npt.NDArray[Any]
NONE: Final = -1
"""No rating (unrated), in the int16 rating columns."""
_BIG: Final = 1 << 30

# Row reasons (the ``reason`` column of :class:`RateOutput`).
RATED, POOLED, OPP_UNRATED, EXCLUDED_600, BOTH_UNRATED, DISREGARDED = range(6)


# Table 8.1.2 as a lookup by D (built once with searchsorted on the row edges).
_UPPER = np.array([u for u, _ in PD_TABLE], dtype=np.int32)
_PD_LUT = np.append(np.array([h for _, h in PD_TABLE], dtype=np.int16), np.int16(100))[
    np.searchsorted(_UPPER, np.arange(1 << 15), side="left")]
"""PD of the higher-rated player for every int16 D (any D ≥ 736 gives 100)."""
_DP_LUT = np.array([-d for d in DP_TABLE[:0:-1]] + list(DP_TABLE), dtype=np.int32)
"""Table 8.1.1: dp by p in hundredths 0 … 100."""


# --------------------------------------------------------------------------- small helpers

def default_period(end: date) -> date:
    """R24 7.1.3: the first list dated at least 3 days (the rules' closing days) after the
    tournament's last day."""
    cut = end + timedelta(days=rules_for(end).closing_days)
    return cut if cut.day == 1 else month_add(cut, 1)


def kept(keep: Array, *columns: Array) -> list[Array]:
    """The columns' rows where *keep* holds: the columns themselves when it holds for every
    row, as in most periods (no copy)."""
    return list(columns) if keep.all() else [c[keep] for c in columns]


def sorted_unique(values: Array) -> Array:
    """*values* sorted, each once: :func:`numpy.unique` by sorting (its hash table is slower
    on a period's rows)."""
    values = np.sort(values)
    return values[np.append(True, values[1:] != values[:-1])] if len(values) else values


# --------------------------------------------------------------------------- the codes

_Index = TypeVar("_Index", int, Array)
_N_LISTS: Final = len(LISTS)


@dataclass(frozen=True, slots=True)
class PlayerLists:
    """The (person, list) codes of a period's *persons*: person × 3 + the list's position in
    :data:`LISTS`, so a person's lists are adjacent and each list's codes are in person order.
    Every method takes an int or a numpy array of them."""

    persons: int

    @property
    def size(self) -> int:
        """How many codes there are (the length of a per-code array)."""
        return self.persons * _N_LISTS

    def code_of(self, person: _Index, li: _Index | int) -> _Index:
        """The code of *person* on the list at position *li* (an int, or an array of them)."""
        return person * _N_LISTS + li

    def person_of(self, code: _Index) -> _Index:
        """The person a code is of."""
        return code // _N_LISTS

    def list_of(self, code: _Index) -> _Index:
        """The list position (in :data:`LISTS`) a code is of."""
        return code % _N_LISTS

    def codes_of(self, person: int) -> range:
        """A person's codes, one per list, in :data:`LISTS` order."""
        return range(self.code_of(person, 0), self.code_of(person + 1, 0))

    def on_list(self, li: int) -> slice:
        """The codes of one list, in person order, as a slice of a per-code array."""
        return slice(li, None, _N_LISTS)

    def per_person(self, values: Array) -> Array:
        """A per-code array from one value per person (the same on every list)."""
        return np.repeat(values, _N_LISTS)

    def per_list(self, values: Array) -> Array:
        """A per-code array from one value per list (the same for every person)."""
        return np.tile(values, self.persons)


# --------------------------------------------------------------------------- the core

_CAP_CODES: Final = {CapRule.EVERY_GAME: 0, CapRule.ONCE_PER_TOURNAMENT: 1, CapRule.BELOW_2650: 2}


@dataclass(frozen=True, slots=True)
class RuleArrays:
    """Per-tournament rule parameters as arrays (one entry per tournament code)."""

    cap: Array
    cap_rule: Array
    no_cap_from: Array
    exclude_gap: Array
    exclude_above: Array
    period_cap: Array

    @classmethod
    def of(cls, rules: Sequence[FideRules]) -> RuleArrays:
        """The arrays for tournaments 0 … n − 1 rated under *rules*."""
        def col(values: Sequence[int | None], none: int = _BIG) -> Array:
            return np.array([none if v is None else v for v in values], dtype=np.int32)

        return cls(
            cap=col([r.cap for r in rules]),
            cap_rule=col([_CAP_CODES[r.cap_rule] for r in rules]),
            no_cap_from=col([r.no_cap_from for r in rules]),
            exclude_gap=col([r.exclude_gap for r in rules]),
            exclude_above=col([r.exclude_above for r in rules]),
            period_cap=col([r.period_cap for r in rules], none=0),
        )


@dataclass(frozen=True, slots=True)
class RateOutput:
    """What :func:`rate_rows` computes: per row, then per (player, list) code."""

    reason: Array
    """int8 per row: RATED, POOLED, OPP_UNRATED, EXCLUDED_600, BOTH_UNRATED."""
    capped: Array
    opp_used: Array
    """The opponent rating after the difference cap (FIDE prints it with '*')."""
    pd_h: Array
    k: Array
    """The K of the game after the 700 cap (0 for unrated rows)."""
    change_h: Array
    """K × (S − PD) in hundredths (0 for unrated rows)."""
    games: Array
    """Per (player, list): rated games n in the period."""
    total_h: Array
    """Per (player, list): Σ over tournaments of K × Σ(S − PD), exact, in hundredths."""
    rounded: Array
    """Per (player, list): total_h rounded once, half away from zero (R24 8.3.4)."""


class _ByTournament:
    """Tournament parameters applied to rows: a scalar when shared, else gathered once per row."""

    def __init__(self, tour: Array) -> None:
        self._tour = tour
        self._idx: Array | None = None

    def idx(self) -> Array:
        """The tournament codes as an index array (converted once)."""
        if self._idx is None:
            self._idx = self._tour.astype(np.intp)
        return self._idx

    def value(self, values: Array) -> Any:
        """*values* per row, or the one value every tournament shares."""
        if len(values) and bool((values == values[0]).all()):
            return values[0]
        return values[self.idx()]

    def where(self, values: Array, none: int = _BIG) -> tuple[Any, Any]:
        """(applies, value) for a parameter that some rule versions lack (*none*)."""
        applies = values != none
        if not applies.any():
            return False, None
        present = values[applies]
        if bool((present == present[0]).all()):
            return self.value(applies), present[0]
        return self.value(applies), values[self.idx()]


# Row reason by (player rated, opponent rated, excluded): see RATED … BOTH_UNRATED.
_REASON_LUT = np.array([BOTH_UNRATED, BOTH_UNRATED, POOLED, POOLED,
                        OPP_UNRATED, OPP_UNRATED, RATED, EXCLUDED_600], dtype=np.int8)


def rate_rows(pl: Array, tour: Array, own: Array, opp: Array, score_h: Array, *,
              rules: RuleArrays, base: Array, k: Array) -> RateOutput:
    """Rate a period's long table of player-games, vectorised.

    Rows: ``pl`` player-list code (:class:`PlayerLists`), ``tour`` tournament code, ``own`` and
    ``opp`` the ratings used in the tournament (int16, −1 unrated), ``score_h`` 0/50/100, and
    ``k`` the player's K for that tournament before the period cap, from
    :func:`rating.systems.fide.player_k`.  Per player-list code: ``base`` the previous list's rating
    (−1 unrated: the row goes to the initial-rating pool).  Only arithmetic is done here: the
    difference cap, PD, K × n ≤ 700 and the sums.  Parameters shared by every tournament are
    applied as scalars, and selections use integer arithmetic rather than ``np.where`` (it is
    the hot path).
    """
    n_pl = len(base)
    by_t = _ByTournament(tour)
    pli = pl.astype(np.intp)
    own = own.astype(np.int16, copy=False)
    opp = opp.astype(np.int16, copy=False)
    player_rated = (base >= 0)[pli]
    opp_rated = opp >= 0
    diff = own - opp
    absd = np.abs(diff)
    # RB24 7.3.1: |D| ≥ 600 with a player above 2600 → not rated (rapid/blitz from 2024-12).
    ex_applies, gap = by_t.where(rules.exclude_gap)
    _, above = by_t.where(rules.exclude_above)
    excluded = np.zeros(len(pl), dtype=bool)
    if gap is not None:
        excluded = ex_applies & (absd >= gap) & (np.maximum(own, opp) > above)
    code = (player_rated.view(np.int8) << 2) | (opp_rated.view(np.int8) << 1) | excluded.view(np.int8)
    reason = _REASON_LUT[code]
    rated = reason == RATED

    # R24 8.3.1, R22 8.3.1 and older rules: the difference cap by rule version.
    cap = by_t.value(rules.cap)
    capped = rated & (absd > cap)
    nc_applies, no_cap_from = by_t.where(rules.no_cap_from)
    if no_cap_from is not None:
        capped &= ~(nc_applies & (own >= no_cap_from))
    once = capped & (by_t.value(rules.cap_rule) == _CAP_CODES[CapRule.ONCE_PER_TOURNAMENT])
    if once.any():
        idx = np.flatnonzero(once)
        group = pl[idx].astype(np.int64) * (int(tour.max()) + 1) + tour[idx]
        order = np.lexsort((-absd[idx], group))
        first = np.ones(len(order), dtype=bool)
        first[1:] = group[order][1:] != group[order][:-1]
        capped[idx[order[~first]]] = False
    c16 = capped.view(np.int8).astype(np.int16)
    d = absd - c16 * (absd - cap).astype(np.int16)
    high = _PD_LUT[d]
    pd_h = (100 - high) + (diff >= 0) * (2 * high - 100)
    opp_used = opp - c16 * (opp - own + np.sign(diff) * cap).astype(np.int16)

    # K × n ≤ 700 over all the player's rated games of the list in the period (R24 8.3.3).
    rated16 = rated.view(np.int8).astype(np.int16)
    games = np.bincount(pli, weights=rated16.astype(np.float64), minlength=n_pl).astype(np.int32)
    n_row = games[pli]
    pc = by_t.value(rules.period_cap)
    k32 = k.astype(np.int32, copy=False)
    k = np.where((pc > 0) & (k32 * n_row > pc), pc // np.maximum(n_row, 1), k32
                 ).astype(np.int16) * rated16
    change_h = k * (score_h.astype(np.int16, copy=False) - pd_h)
    total = np.rint(np.bincount(pli, weights=change_h.astype(np.float64), minlength=n_pl)
                    ).astype(np.int64)
    rounded = round_half_away_array(total)
    return RateOutput(reason=reason, capped=capped, opp_used=opp_used, pd_h=pd_h, k=k,
                      change_h=change_h, games=games, total_h=total, rounded=rounded)


def initial_ratings(games: Array, opp_sum: Array, score_h: Array, rules: FideRules) -> Array:
    """Ru per pool under *rules* (R24 8.2.2–8.2.3; R22 8.2), vectorised, at most the rules'
    maximum; −1 without games.  :func:`rating.systems.fide.pooled_initial_rating` per pool.

    R24: Ra = (Σ opp + 2 × 1800) / (n + 2); p = (W + 1) / (n + 2) to the hundredth (.005 up);
    Ru = round(Ra + dp), .5 up; at most 2200.
    """
    n = games.astype(np.int64)
    s = opp_sum.astype(np.int64)
    w = score_h.astype(np.int64)
    safe = np.maximum(n, 1)
    if rules.initial_rule is InitialRule.R24:
        extra = rules.hypothetical_opponents  # each a draw against this rating
        m = np.maximum(n + extra, 1)
        p_h = half_up_div_array(w + 50 * extra, m)
        ru = half_up_div_array(s + extra * rules.hypothetical_opponent + _DP_LUT[p_h] * m, m)
    else:
        # R22 8.2: Ra of the real opponents; above 50 % a bonus per half point over 50 %,
        # else + dp.
        p_h = half_up_div_array(w, safe)
        over = (2 * w) // 100 - n
        dp = np.where(2 * w > 100 * n, rules.half_point_bonus * over, _DP_LUT[np.minimum(p_h, 100)])
        ru = half_up_div_array(s + dp * safe, safe)
    if rules.initial_max is not None:
        ru = np.minimum(ru, rules.initial_max)
    return np.where(n > 0, ru, NONE)
