"""The rating-period engine: every tournament of one FIDE list month → new list ratings.

Two layers.  :func:`rate_rows` is the vectorised core: one numpy row per player-game (long
table), per-tournament rule parameters and per-(player, list) facts in, per-row PD, K and
change and per-(player, list) totals out; no per-game Python loop.  :func:`rate_period`
turns :class:`~importer.model.Tournament` records plus what the previous list and the
register know (:class:`Standing`, :class:`Pool`) into that table, runs the core and
returns :class:`PeriodResult` frames.

Arithmetic is exact in integer hundredths; the change is rounded once per player, list and
period, 0.5 away from zero (R24 8.3.4).  Everything here is pure.

(Over 600 lines on purpose: building the long table and rating it share the player and
tournament codes and the private arrays; split apart they would have to expose them.)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from importer.model import Player, RatingList, Status, Tournament
from rating.errors import RatingError
from rating.fide import PlayerFacts, is_junior_category, player_k
from rating.period_records import (
    PeriodGame,
    PeriodPlayer,
    PeriodResult,
    PeriodStatus,
    PeriodTournament,
    Pool,
    PoolGame,
    Standing,
)
from rating.rules import CapRule, FideRules, InitialRule, rules_for
from rating.tables import DP_TABLE, PD_TABLE

if TYPE_CHECKING:
    import pandas as pd  # noqa: F401 - only inside the engine

__all__ = [
    "LISTS",
    "PeriodGame",
    "PeriodPlayer",
    "PeriodResult",
    "PeriodStatus",
    "PeriodTournament",
    "Pool",
    "PoolGame",
    "RateOutput",
    "RuleArrays",
    "Standing",
    "default_period",
    "initial_ratings",
    "list_in_force",
    "month_add",
    "player_key",
    "rate_period",
    "rate_rows",
]

Array = npt.NDArray[Any]
LISTS: Final = (RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ)
"""List codes 0, 1, 2: standard, rapid and blitz are rated apart."""
NONE: Final = -1
"""No rating (unrated), in the int16 rating columns."""
_BIG: Final = 1 << 30
POOL_MONTHS: Final = 26
"""R24 7.1.4: results within consecutive rating periods of at most 26 months are pooled."""

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

def month_add(month: date, n: int) -> date:
    """The first of the month *n* months after *month*'s."""
    m = month.year * 12 + month.month - 1 + n
    return date(m // 12, m % 12 + 1, 1)


def list_in_force(day: date) -> date:
    """The monthly list in force on *day*."""
    return day.replace(day=1)


def default_period(end: date) -> date:
    """R24 7.1.3: the first list dated at least 3 days after the tournament's last day."""
    cut = end + timedelta(days=3)
    return cut if cut.day == 1 else month_add(cut, 1)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def player_key(p: Player) -> tuple[str, bool]:
    """A player's identity across tournaments: the FIDE id, else name|federation|birth year.

    The second item is True for the fallback (which callers must report, never use silently).
    """
    if p.fide_id.strip():
        return p.fide_id.strip(), False
    return f"{_fold(p.name)}|{p.federation.strip().upper()}|{p.birth_year or ''}", True


def _half_up_div(num: Array, den: Array) -> Array:
    """round(num / den), .5 up, for non-negative integer arrays."""
    out: Array = (2 * num + den) // (2 * den)
    return out


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

    Rows: ``pl`` player-list code (player × 3 + list), ``tour`` tournament code, ``own`` and
    ``opp`` the ratings used in the tournament (int16, −1 unrated), ``score_h`` 0/50/100, and
    ``k`` the player's K for that tournament before the period cap, from
    :func:`rating.fide.player_k`.  Per player-list code: ``base`` the previous list's rating
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
    rounded = np.sign(total) * ((np.abs(total) + 50) // 100)
    return RateOutput(reason=reason, capped=capped, opp_used=opp_used, pd_h=pd_h, k=k,
                      change_h=change_h, games=games, total_h=total, rounded=rounded)


def initial_ratings(games: Array, opp_sum: Array, score_h: Array,
                    rule: InitialRule = InitialRule.R24) -> Array:
    """Ru per pool (R24 8.2.2–8.2.3; R22 8.2), vectorised, before the 2200 cap; −1 without games.

    R24: Ra = (Σ opp + 2 × 1800) / (n + 2); p = (W + 1) / (n + 2) to the hundredth (.005 up);
    Ru = round(Ra + dp), .5 up.
    """
    n = games.astype(np.int64)
    s = opp_sum.astype(np.int64)
    w = score_h.astype(np.int64)
    safe = np.maximum(n, 1)
    if rule is InitialRule.R24:
        m = n + 2
        p_h = _half_up_div(w + 100, m)
        ru = _half_up_div(s + 3600 + _DP_LUT[p_h] * m, m)
    else:
        # R22 8.2: Ra of the real opponents; above 50 % +20 per half point over 50 %, else + dp.
        p_h = _half_up_div(w, safe)
        over = (2 * w) // 100 - n
        dp = np.where(2 * w > 100 * n, 20 * over, _DP_LUT[np.minimum(p_h, 100)])
        ru = _half_up_div(s + dp * safe, safe)
    return np.where(n > 0, ru, NONE)


# --------------------------------------------------------------------------- from tournaments

def _tournament_list(t: Tournament, notes: list[str], key: str) -> RatingList:
    if t.info.rating_list is None:
        notes.append(f"{key}: the source gives no time control; rated as standard")
        return RatingList.STANDARD
    return t.info.rating_list


def _prepare(tournaments: Sequence[Tournament], keys: Sequence[str], period: date,
             notes: list[str], assigned: Collection[str]) -> list[PeriodTournament]:
    out: list[PeriodTournament] = []
    seen: dict[tuple[object, ...], str] = {}
    for t, key in zip(tournaments, keys, strict=True):
        sig = (t.info.name, t.info.start_date, t.info.end_date, len(t.players), len(t.results))
        if sig in seen:
            notes.append(f"{key}: looks like {seen[sig]} again (same name, dates and players); "
                         f"both are rated")
        seen.setdefault(sig, key)
        rl = _tournament_list(t, notes, key)
        start = t.info.start_date
        if start is None:
            start = month_add(period, -1)
            notes.append(f"{key}: no start date; the rules and list of {start:%Y-%m} are used")
        end = t.info.end_date or t.info.start_date
        if end is not None and default_period(end) != period and key not in assigned:
            notes.append(f"{key}: ends {end}, which suggests the {default_period(end):%Y-%m} list; "
                         f"rated in {period:%Y-%m} as given")
        carries = any(p.rating is not None for p in t.players)
        out.append(PeriodTournament(key=key, tournament=t, rating_list=rl, start=start,
                                    rules=rules_for(start, rl),
                                    ratings_from="source" if carries else "list"))
    return out


def _lookup(table: Mapping[tuple[str, RatingList], int], key: str, rl: RatingList) -> int | None:
    """A rating on *rl*; for rapid/blitz a player unrated there uses the standard one (RB24 7.2.1)."""
    value = table.get((key, rl))
    if value is None and rl is not RatingList.STANDARD:
        value = table.get((key, RatingList.STANDARD))
    return value


@dataclass(frozen=True, slots=True)
class _Facts:
    """Per (player, list) code: what the previous list and the register say for K."""

    base: Array
    list_k: Array
    games_total: Array
    reached: Array
    birth: Array


def _row_k(specs: Sequence[PeriodTournament], local: Sequence[Mapping[int, int]], start_no: Array,
           lengths: Sequence[int], facts: _Facts, k_default: int) -> Array:
    """Each row's K before the period cap: :func:`rating.fide.player_k` once per player and
    tournament (the same rule the tournament view uses)."""
    k = np.zeros(len(start_no), dtype=np.int16)
    at = 0
    for spec, mine, n in zip(specs, local, lengths, strict=True):
        li = LISTS.index(spec.rating_list)
        by_no = spec.tournament.players_by_no()
        k_of = np.zeros(max(mine, default=0) + 1, dtype=np.int16)
        for no, p_code in mine.items():
            c = 3 * p_code + li
            p = by_no[no]
            k_of[no] = player_k(spec.rules, PlayerFacts(
                rating=int(facts.base[c]) if facts.base[c] >= 0 else None,
                games_played=int(facts.games_total[c]) if facts.games_total[c] >= 0 else None,
                birth_year=int(facts.birth[c]) or None, reached_2400=bool(facts.reached[c]),
                year=spec.start.year, title=p.title, junior=is_junior_category(p.category),
                published_k=p.k, list_k=int(facts.list_k[c]) or None), k_default)[0]
        k[at:at + n] = k_of[start_no[at:at + n]]
        at += n
    return k


def rate_period(tournaments: Sequence[Tournament], period: date, *,
                keys: Sequence[str] | None = None,
                previous: Mapping[tuple[str, RatingList], Standing] | None = None,
                in_force: Mapping[date, Mapping[tuple[str, RatingList], int]] | None = None,
                pools: Mapping[tuple[str, RatingList], Pool] | None = None,
                corrections: Mapping[str, int] | None = None,
                list_complete: bool = False, assigned: Collection[str] = (),
                k_default: int = 20) -> PeriodResult:
    """Rate every tournament of the list month *period*.

    ``previous``: the T − 1 list (and register) per (player key, list); ``in_force``: ratings of
    older lists by list month (the register), for sources that carry none; ``pools``: unrated
    players' earlier pooled results; ``corrections``: base ratings that replace the list's.
    With ``list_complete`` (a FIDE list was given) a player absent from ``previous`` is unrated;
    otherwise the tournament's rating is the base, with a note.  Tournaments whose key is in
    ``assigned`` were put in this period on purpose: their dates raise no note.  ``k_default``
    is the K of a rated player about whom nothing decides the K (as in the tournament view).
    """
    import pandas as pd

    if period.day != 1:
        raise RatingError(f"a rating period is a list date (the 1st of a month), not {period}")
    previous = previous or {}
    in_force = in_force or {}
    pools = pools or {}
    corrections = corrections or {}
    notes: list[str] = []
    keys = list(keys) if keys is not None else [f"t{i + 1}" for i in range(len(tournaments))]
    if len(set(keys)) != len(keys):
        raise RatingError("two tournaments of the period have the same id")
    specs = _prepare(tournaments, keys, period, notes, assigned)
    prev_month = month_add(period, -1)

    # Player identity across tournaments (FIDE id; the fallback is always reported).
    codes: dict[str, int] = {}
    people: list[Player] = []
    fallback: set[str] = set()
    local: list[dict[int, int]] = []
    for spec in specs:
        mine: dict[int, int] = {}
        for p in spec.tournament.players:
            key, is_fallback = player_key(p)
            if is_fallback and key not in fallback:
                fallback.add(key)
                notes.append(f"{spec.key}: {p.name or '?'} has no FIDE id; identified by name, "
                             f"federation and birth year ({key})")
            if key not in codes:
                codes[key] = len(people)
                people.append(p)
            mine[p.start_no] = codes[key]
        local.append(mine)
    pkeys = list(codes)
    n_pl = 3 * len(pkeys)

    # Per (player, list): the previous list (T − 1) — the base of the new rating (R24 8.3.2).
    base = np.full(n_pl, NONE, dtype=np.int32)
    list_k = np.zeros(n_pl, dtype=np.int32)
    games_total = np.full(n_pl, NONE, dtype=np.int32)
    reached = np.zeros(n_pl, dtype=bool)
    idle = np.zeros(n_pl, dtype=bool)
    birth = np.zeros(n_pl, dtype=np.int32)
    year_ago = month_add(period, -12)
    prev_ratings = {k: s.rating for k, s in previous.items() if s.rating is not None}
    list_code = {rl: li for li, rl in enumerate(LISTS)}
    for (key, rl), st in previous.items():
        code = codes.get(key)
        if code is None:
            continue
        c = 3 * code + list_code[rl]
        list_k[c] = st.k or 0
        games_total[c] = NONE if st.games_total is None else st.games_total
        reached[c] = st.reached_2400
        idle[c] = st.inactive or (st.last_played is not None and st.last_played <= year_ago)
        base[c] = NONE if st.rating is None else st.rating
        birth[c] = st.birth_year or 0
    # RB24 7.2.1: unrated in rapid/blitz with a standard rating → the standard rating.
    std_base = np.repeat(base[0::3], 2).reshape(-1, 2)
    rb = base.reshape(-1, 3)[:, 1:]
    rb[rb < 0] = std_base[rb < 0]
    reached |= base >= 2400
    birth[birth == 0] = np.repeat([p.birth_year or 0 for p in people], 3)[birth == 0]
    for key in sorted(corrections.keys() & codes.keys()):
        code = codes[key]
        rated_on = [3 * code + li for li in range(3) if base[3 * code + li] >= 0]
        base[rated_on or [3 * code]] = corrections[key]
        notes.append(f"{_who(people[code], key)}: base rating corrected to {corrections[key]}")

    # The long table: one row per player per played game (R24 5.1: forfeits, byes, games of
    # less than one move are never rated).
    parts: list[Array] = []
    for ti, (spec, mine) in enumerate(zip(specs, local, strict=True)):
        li = LISTS.index(spec.rating_list)
        month = list_in_force(spec.start)
        older = in_force.get(month, {})
        by_no = spec.tournament.players_by_no()
        size = max(mine, default=0) + 1
        code_of = np.full(size, NONE, dtype=np.int64)
        seen = np.full(size, NONE, dtype=np.int64)  # the rating the opponents see
        for no, p_code in mine.items():
            c = 3 * p_code + li
            code_of[no] = c
            if spec.ratings_from == "source":
                r = by_no[no].rating
                if r is None and spec.rating_list is not RatingList.STANDARD:
                    # RB24 7.2.1: unrated here but with a standard rating → that rating, as rated.
                    std = older if older and month != prev_month else prev_ratings
                    r = std.get((pkeys[p_code], RatingList.STANDARD))
            elif month == prev_month or not older:
                r = int(base[c]) if base[c] >= 0 else None
            else:
                r = _lookup(older, pkeys[p_code], spec.rating_list)
            seen[no] = NONE if r is None else r
        # R24 8.2.4: a player rated by now is rated with their current rating, but their
        # opponents still count them as unrated.
        own_by_no = np.where((seen < 0) & (code_of >= 0), base[np.maximum(code_of, 0)], seen)
        hidden = {p.start_no for p in spec.tournament.players if not p.rating_known}
        played = np.array([(r.start_no, r.opponent_no, round(100 * r.points), r.round)
                           for r in spec.tournament.results
                           if r.status is Status.PLAYED and r.opponent_no is not None
                           and r.points is not None and r.start_no not in hidden
                           and r.opponent_no not in hidden], dtype=np.int64).reshape(-1, 4)
        me, them = played[:, 0], played[:, 1]
        ok = (me < size) & (them < size)
        ok[ok] &= (code_of[me[ok]] >= 0) & (code_of[them[ok]] >= 0)
        me, them, played = me[ok], them[ok], played[ok]
        parts.append(np.stack([code_of[me], np.full(len(me), ti), own_by_no[me], seen[them],
                               played[:, 2], played[:, 3], code_of[them], me], axis=1))
    table = np.concatenate(parts) if parts else np.zeros((0, 8), dtype=np.int64)
    cols = {name: table[:, i] for i, name in enumerate(("pl", "tour", "own", "opp", "score",
                                                         "round", "opp_pl", "start_no"))}
    for spec in specs:
        if spec.ratings_from == "list":
            src = "the register" if in_force.get(list_in_force(spec.start)) else "the given list"
            notes.append(f"{spec.key}: the source carries no ratings; ratings of {src} used")

    pl = cols["pl"].astype(np.int32)
    tour = cols["tour"].astype(np.int32)
    own = cols["own"].astype(np.int16)
    opp = cols["opp"].astype(np.int16)
    score = cols["score"].astype(np.int16)
    if not list_complete:
        # Not on the previous list or in the register: the tournament's own rating is the base.
        last = np.full(n_pl, -1, dtype=np.int64)
        with_rating = np.flatnonzero(own >= 0)
        order = with_rating[np.argsort(tour[with_rating], kind="stable")]
        last[pl[order]] = order
        for c in np.flatnonzero((base < 0) & (last >= 0)).tolist():
            if (pkeys[c // 3], LISTS[c % 3]) in previous:
                continue
            base[c] = int(own[last[c]])
            reached[c] |= base[c] >= 2400
            notes.append(f"{_who(people[c // 3], pkeys[c // 3])}: not on the previous list; the "
                         f"tournament rating {base[c]} is the base ({LISTS[c % 3]})")
    has_games = np.bincount(pl, minlength=n_pl) > 0
    rules = RuleArrays.of([s.rules for s in specs]) if specs else RuleArrays.of([rules_for(period)])
    facts = _Facts(base=base, list_k=list_k, games_total=games_total, reached=reached,
                   birth=birth)
    k = _row_k(specs, local, cols["start_no"], [len(part) for part in parts], facts, k_default)
    out = rate_rows(pl, tour, own, opp, score, rules=rules, base=base, k=k)

    period_rules = rules_for(period)  # floor and initial-rating rule of the new list (our reading)
    reason = out.reason.copy()
    players, pool = _finish(pd, specs, pkeys, people, pl, tour, opp, score, reason, out, base,
                            birth, idle, pools, has_games, period_rules, period, notes)
    games = _game_records(specs, pkeys, people, cols, pl, tour, own, score, reason, out)
    return PeriodResult(period=period, players=players, games=games, pool=pool,
                        tournaments=tuple(specs), notes=tuple(notes), previous=dict(previous))


def _finish(pd: Any, specs: Sequence[PeriodTournament], pkeys: list[str], people: list[Player],
            pl: Array, tour: Array, opp: Array, score: Array, reason: Array, out: RateOutput,
            base: Array, birth: Array, idle: Array, pools: Mapping[tuple[str, RatingList], Pool],
            has_games: Array,
            period_rules: FideRules, period: date, notes: list[str]
            ) -> tuple[tuple[PeriodPlayer, ...], tuple[PoolGame, ...]]:
    n_pl = len(base)
    # R24 8.2.1: an unrated player's zero score in their first event is disregarded.
    starts = np.array([s.start.toordinal() * 1000 + i for i, s in enumerate(specs)], dtype=np.int64)
    unrated_rows = np.flatnonzero(base[pl] < 0)
    if len(unrated_rows):
        frame = pd.DataFrame({"pl": pl[unrated_rows], "t": tour[unrated_rows],
                              "o": starts[tour[unrated_rows]], "s": score[unrated_rows]})
        first = frame.groupby("pl")["o"].transform("min") == frame["o"]
        zero = frame.groupby(["pl", "t"])["s"].transform("sum") == 0
        earlier = np.array([pools.get((pkeys[c // 3], LISTS[c % 3]), Pool()).events > 0
                            for c in frame["pl"]], dtype=bool)
        drop = (first & zero).to_numpy() & ~earlier & (reason[unrated_rows] == POOLED)
        reason[unrated_rows[drop]] = DISREGARDED
        for c in np.unique(frame["pl"].to_numpy()[drop]):
            notes.append(f"{_who(people[c // 3], pkeys[c // 3])}: zero score in the first event "
                         "disregarded")
    pooled = reason == POOLED
    n_now = np.bincount(pl[pooled], minlength=n_pl)
    s_now = np.bincount(pl[pooled], weights=opp[pooled], minlength=n_pl).astype(np.int64)
    w_now = np.bincount(pl[pooled], weights=score[pooled], minlength=n_pl).astype(np.int64)
    n_pool, s_pool, w_pool = n_now.astype(np.int64), s_now, w_now
    for c in np.flatnonzero(has_games & (base < 0)).tolist():
        prior = pools.get((pkeys[c // 3], LISTS[c % 3]))
        if prior is not None:
            n_pool[c] += prior.games
            s_pool[c] += prior.opponents_sum
            w_pool[c] += prior.score_h
    ru = initial_ratings(n_pool, s_pool, w_pool, period_rules.initial_rule)
    if period_rules.initial_max is not None:
        ru = np.where(ru >= 0, np.minimum(ru, period_rules.initial_max), ru)
    ru[base >= 0] = NONE

    new = base + out.rounded
    if period == date(2024, 3, 1):
        # FIDE's one-time adjustment of 1 March 2024, on the post-period rating.
        adj = np.where((base >= 0) & (new < 2000), (4 * (2000 - new) + 5) // 10, 0)
        new = new + adj
        notes.append("2024-03: FIDE's one-time adjustment 0.4 × (2000 − R) is applied")
    floor = period_rules.floor
    rated = base >= 0
    # R24 7.2.2: no rated game for a year (or the list's flag and none now) → inactive.
    status = np.where(rated, np.where((out.games == 0) & idle, "inactive",
                                      np.where(new < floor, "dropped_below_floor", "rated")),
                      np.where((n_pool >= period_rules.initial_min_games) & (ru >= floor),
                               "newly_rated", "unrated"))
    new_rating = np.where(rated, np.where(new < floor, NONE, new),
                          np.where(status == "newly_rated", ru, NONE))
    # K per player: the distinct K of their rated games (several when rules differ).
    ks: dict[int, list[int]] = {}
    rated_rows = reason == RATED
    pairs = np.unique(pl[rated_rows].astype(np.int64) * 128 + out.k[rated_rows])
    for c, k in zip((pairs // 128).tolist(), (pairs % 128).tolist(), strict=True):
        ks.setdefault(c, []).append(k)
    who = _people_columns(pkeys, people)
    players = tuple(sorted((PeriodPlayer(
        key=who["key"][c // 3], fide_id=who["fide_id"][c // 3], name=who["name"][c // 3],
        federation=who["federation"][c // 3], birth_year=int(birth[c]) or None,
        list=LISTS[c % 3], old_rating=_rating(base[c]), ks=tuple(ks.get(c, ())),
        games=int(out.games[c]), change_h=int(out.total_h[c]), rounded_change=int(out.rounded[c]),
        new_rating=_rating(new_rating[c]), status=PeriodStatus(str(status[c])),
        pool_games=int(n_pool[c]), pool_opponents_sum=int(s_pool[c]), pool_score_h=int(w_pool[c]),
        initial_rating=_rating(ru[c]))
        for c in np.flatnonzero(has_games).tolist()), key=lambda p: (str(p.list), p.key)))
    prow = np.flatnonzero((reason == POOLED) | (reason == DISREGARDED)).tolist()
    pool = tuple(PoolGame(
        key=who["key"][pl[i] // 3], list=LISTS[pl[i] % 3], tournament=specs[tour[i]].key,
        start=specs[tour[i]].start, opponent_rating=int(opp[i]), score_h=int(score[i]),
        disregarded=bool(reason[i] == DISREGARDED)) for i in prow)
    return players, pool


def _who(p: Player, key: str) -> str:
    """A player in a note: 'Zorn, Zak (99200021)'."""
    return f"{p.name} ({key})" if p.name else key


def _rating(value: Any) -> int | None:
    """A rating from the int columns (−1 or 0: none)."""
    return int(value) if value > 0 else None


def _people_columns(pkeys: list[str], people: list[Player]) -> dict[str, list[str]]:
    """Identity columns by player code."""
    return {"key": pkeys, "fide_id": [p.fide_id for p in people], "name": [p.name for p in people],
            "federation": [p.federation for p in people]}


def _game_records(specs: Sequence[PeriodTournament], pkeys: list[str], people: list[Player],
                  cols: Mapping[str, Array], pl: Array, tour: Array, own: Array, score: Array,
                  reason: Array, out: RateOutput) -> tuple[PeriodGame, ...]:
    rows = np.flatnonzero(reason == RATED)
    who = _people_columns(pkeys, people)
    me, them = (pl[rows] // 3).tolist(), (cols["opp_pl"][rows] // 3).tolist()
    keys = [t.key for t in specs]
    return tuple(PeriodGame(
        tournament=keys[t], round=rd, key=who["key"][m], fide_id=who["fide_id"][m],
        name=who["name"][m], list=LISTS[c % 3], own_rating=o,
        opponent=who["fide_id"][o2] or who["key"][o2], opponent_name=who["name"][o2],
        opponent_rating=orat, capped=cap, score_h=sc, expected_h=ex, k=k, change_h=ch)
        for t, rd, m, c, o, o2, orat, cap, sc, ex, k, ch in zip(
            tour[rows].tolist(), cols["round"][rows].tolist(), me, pl[rows].tolist(),
            own[rows].tolist(), them, out.opp_used[rows].tolist(), out.capped[rows].tolist(),
            score[rows].tolist(), out.pd_h[rows].tolist(), out.k[rows].tolist(),
            out.change_h[rows].tolist(), strict=True))
