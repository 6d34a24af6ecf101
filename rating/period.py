"""Tournaments → a rating period: the long table for :mod:`rating.period_core`, and records back.

:func:`rate_period` takes :class:`~importer.model.Tournament` records, who each player is
(:mod:`rating.identity`) and what the previous list and the register know
(:class:`Standing`, :class:`Pool`); it builds one numpy row per player-game, rates them with
:func:`rating.period_core.rate_rows` and returns a :class:`PeriodResult`.  Start numbers are
labels: they are mapped to positions, and no array is ever sized by a start number or a
rating.  Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from importer.errors import InputError
from importer.events import Event, EventIdentity, PlayedGames, distinct_events
from importer.model import Player, RatingList, Tournament
from importer.numbers import MAX_RATING
from rating.errors import RatingError
from rating.fide import PlayerFacts, is_junior_category, list_rating, player_k
from rating.identity import Identities, Person, RatingFrom, identify
from rating.notes import Note, grouped
from rating.period_core import (
    DISREGARDED,
    NONE,
    POOLED,
    RATED,
    RateOutput,
    RuleArrays,
    default_period,
    initial_ratings,
    list_in_force,
    month_add,
    rate_rows,
)
from rating.period_records import (
    LISTS,
    PeriodGames,
    PeriodPlayer,
    PeriodResult,
    PeriodStatus,
    PeriodTournament,
    Pool,
    PoolGame,
    Standing,
)
from rating.rules import FideRules, list_adjustment, rules_for

__all__ = ["rate_period"]

Array = npt.NDArray[Any]


def _tournament_list(t: Tournament, notes: list[str], key: str) -> RatingList:
    if t.info.rating_list is None:
        notes.append(f"{key}: the source gives no time control; rated as standard")
        return RatingList.STANDARD
    return t.info.rating_list


def _prepare(tournaments: Sequence[Tournament], keys: Sequence[str], period: date,
             notes: list[str], assigned: Collection[str], ids: Identities,
             events: Sequence[EventIdentity]) -> list[PeriodTournament]:
    out: list[PeriodTournament] = []
    for t, key, identity in zip(tournaments, keys, events, strict=True):
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
        people = ids.people
        out.append(PeriodTournament(
            key=key, tournament=t, rating_list=rl, start=start, rules=rules_for(start, rl),
            ratings_from="source" if carries else "list", identity=identity,
            keys={p.start_no: people[ids.code[(key, p.start_no)]].key for p in t.players}))
    return out


def _source_rating(p: Player, key: str) -> int | None:
    """The player's rating as the tournament prints it (RatingError when it is no rating)."""
    r = p.rating
    if r is None or r == 0:
        return None
    if not 0 < r <= MAX_RATING:
        raise RatingError(f"{key}: player {p.start_no} ({p.name}) has rating {r}, which is not "
                          f"a rating (expected 1 to {MAX_RATING})")
    return r


@dataclass(frozen=True, slots=True)
class _Local:
    """One tournament's players by position, and its rated candidates (games of players whose
    rating is known) as positions."""

    person: Array
    """Per player position: the index of the person."""
    rating: list[int | None]
    """Per player position: the rating the tournament prints."""
    me: Array
    them: Array
    score: Array
    rounds: Array


def _local(spec: PeriodTournament, ids: Identities, games: PlayedGames) -> _Local:
    players = spec.tournament.players
    person = np.fromiter((ids.code[(spec.key, p.start_no)] for p in players), np.int64,
                         len(players))
    rating = [_source_rating(p, spec.key) for p in players]
    me, them = games.me, games.them
    ok = np.ones(len(me), dtype=bool)
    hidden = np.fromiter((not p.rating_known for p in players), bool, len(players))
    if hidden.any():  # a rating the source cut off is unknown: neither side's game is rated
        ok = ~hidden[me] & ~hidden[them]
    return _Local(person=person, rating=rating, me=me[ok], them=them[ok],
                  score=games.score_h[ok], rounds=games.rounds[ok])


@dataclass(slots=True)
class _Facts:
    """Per (player, list) code: what the previous list and the register say."""

    base: Array
    list_k: Array
    games_total: Array
    reached: Array
    idle: Array
    birth: Array
    origin: Array
    """0 list, 1 register, 2 source: where the base comes from (see :class:`RatingFrom`)."""


_ORIGINS: Final = (RatingFrom.LIST, RatingFrom.REGISTER, RatingFrom.SOURCE)


def _facts(people: Sequence[Person], previous: Mapping[tuple[str, RatingList], Standing],
           listed: Collection[tuple[str, RatingList]], period: date,
           rated_lists: Collection[RatingList]) -> _Facts:
    """The facts of every (player, list) code; a standard rating stands in (RB24 7.2.1) on the
    lists the period rates (*rated_lists*), the only ones whose codes are read."""
    n_pl = 3 * len(people)
    f = _Facts(base=np.full(n_pl, NONE, dtype=np.int32), list_k=np.zeros(n_pl, dtype=np.int32),
               games_total=np.full(n_pl, NONE, dtype=np.int32), reached=np.zeros(n_pl, dtype=bool),
               idle=np.zeros(n_pl, dtype=bool), birth=np.zeros(n_pl, dtype=np.int32),
               origin=np.full(n_pl, 2, dtype=np.int8))
    index = {p.key: i for i, p in enumerate(people)}
    # R24 7.2.2: no rated game in a one-year period → inactive.
    year_ago = month_add(period, -rules_for(period).inactive_months)
    for (key, rl), st in previous.items():
        i = index.get(key)
        if i is None:
            continue
        c = 3 * i + LISTS.index(rl)
        f.list_k[c] = st.k or 0
        f.games_total[c] = NONE if st.games_total is None else st.games_total
        f.reached[c] = st.reached_2400
        f.idle[c] = st.inactive or (st.last_played is not None and st.last_played <= year_ago)
        f.base[c] = NONE if st.rating is None else st.rating
        f.birth[c] = st.birth_year or 0
        f.origin[c] = 0 if (key, rl) in listed else 1
    # Unrated on a list with a standard rating: what the list's rules say (RB24 7.2.1).
    standard = f.base[0::3]
    for li, rl in enumerate(LISTS):
        if rl not in rated_lists:
            continue
        rules = rules_for(period, rl)
        for i in np.flatnonzero((f.base[li::3] < 0) & (standard >= 0)).tolist():
            got = list_rating(rules, None, int(standard[i]))
            f.base[3 * i + li] = NONE if got is None else got
    # R24 8.3.3: a published rating of 2400 or more (each list's threshold).
    tops = np.array([rules_for(period, rl).top_threshold for rl in LISTS], dtype=np.int32)
    f.reached |= f.base >= np.tile(tops, len(people))
    years = np.repeat(np.array([p.birth_year or 0 for p in people], dtype=np.int32), 3)
    f.birth[f.birth == 0] = years[f.birth == 0]
    return f


class _KCache:
    """:func:`rating.fide.player_k` once per distinct set of facts (the rule every path uses)."""

    def __init__(self, k_default: int) -> None:
        self.k_default = k_default
        self._seen: dict[tuple[object, ...], int] = {}

    def ks(self, spec: PeriodTournament, f: _Facts, codes: Array) -> list[int]:
        """The K of each player of a tournament (*codes*: their (player, list) codes)."""
        rules, year, out = spec.rules, spec.start.year, []
        for p, base, games, birth, reached, list_k in zip(
                spec.tournament.players, f.base[codes].tolist(), f.games_total[codes].tolist(),
                f.birth[codes].tolist(), f.reached[codes].tolist(), f.list_k[codes].tolist(),
                strict=True):
            key = (id(rules), year, base, games, birth, reached, p.title, p.category, p.k, list_k)
            found = self._seen.get(key)
            if found is None:
                found = self._seen[key] = player_k(rules, PlayerFacts(
                    rating=base if base >= 0 else None,
                    games_played=games if games >= 0 else None, birth_year=birth or None,
                    reached_2400=reached, year=year, title=p.title,
                    junior=is_junior_category(p.category), published_k=p.k,
                    list_k=list_k or None), self.k_default)[0]
            out.append(found)
        return out


def rate_period(tournaments: Sequence[Tournament], period: date, *,
                keys: Sequence[str] | None = None, identities: Identities | None = None,
                events: Sequence[EventIdentity] | None = None,
                played: Sequence[PlayedGames] | None = None,
                previous: Mapping[tuple[str, RatingList], Standing] | None = None,
                listed: Collection[tuple[str, RatingList]] = frozenset(),
                in_force: Mapping[date, Mapping[tuple[str, RatingList], int]] | None = None,
                pools: Mapping[tuple[str, RatingList], Pool] | None = None,
                corrections: Mapping[str, int] | None = None, assigned: Collection[str] = (),
                k_default: int = 20) -> PeriodResult:
    """Rate every tournament of the list month *period*.

    ``identities``: who each player is (default: :func:`rating.identity.identify` on the
    tournaments alone); ``events``: each tournament's :class:`~importer.events.EventIdentity`
    (computed when not given; two tournaments of one event are refused) and ``played``
    their games (:class:`~importer.events.PlayedGames`, read when not given); ``previous``: the
    T − 1 list and the register per (player key, list), of which ``listed`` are FIDE's
    list's; ``in_force``: ratings of older lists by list month (the register), for sources
    that carry none; ``pools``: unrated players' earlier pooled results; ``corrections``:
    base ratings that replace the list's (FIDE id → rating).  A
    player on no list keeps the tournament's rating as the base (``rating_from`` 'source'),
    never made unrated by it.  Tournaments whose key is in ``assigned`` were put in this
    period on purpose: their dates raise no note.  ``k_default`` is the K of a rated player
    about whom nothing decides the K (as in the tournament view).
    """
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
    if played is None:
        try:
            played = [PlayedGames.of(t) for t in tournaments]
        except InputError as exc:
            raise RatingError(str(exc)) from None
    if events is None:
        events = [EventIdentity.of(t, g) for t, g in zip(tournaments, played, strict=True)]
        once = distinct_events([Event(tournament=t, sources=(k,), known=i) for t, k, i in zip(
            tournaments, keys, events, strict=True)])
        if len(once) < len(tournaments):
            raise RatingError(f"{once.notes[0]}: rate an event once (run_period keeps the newer "
                              "of two snapshots)")
    ids = identities if identities is not None else identify(list(zip(keys, tournaments,
                                                                       strict=True)))
    notes += ids.notes
    specs = _prepare(tournaments, keys, period, notes, assigned, ids, events)
    people = ids.people
    prev_month = month_add(period, -1)
    f = _facts(people, previous, listed, period, {s.rating_list for s in specs})
    locals_ = [_local(spec, ids, g) for spec, g in zip(specs, played, strict=True)]

    # On no list and unknown to the register: the tournament's own rating is the base (the
    # latest tournament's), so a rated player is never made unrated for want of a list.
    for spec, loc in sorted(zip(specs, locals_, strict=True), key=lambda s: s[0].start):
        li = LISTS.index(spec.rating_list)
        for person, r in zip(loc.person.tolist(), loc.rating, strict=True):
            code = 3 * person + li
            if r is not None and f.origin[code] == 2:
                f.base[code] = r
                f.reached[code] |= spec.rules.reaches_top(r)
    index = {p.key: at for at, p in enumerate(people)}
    for key in sorted(corrections.keys() & index.keys()):
        at = index[key]
        rated_on = [3 * at + li for li in range(3) if f.base[3 * at + li] >= 0]
        f.base[rated_on or [3 * at]] = corrections[key]
        notes.append(Note(f"{_who(people[at])}: base rating corrected to {corrections[key]}",
                          [key]))

    # The long table: one row per player per played game (R24 5.1: forfeits, byes, games of
    # less than one move are never rated).
    prev_ratings = {k: s.rating for k, s in previous.items() if s.rating is not None}
    kcache = _KCache(k_default)
    parts: list[Array] = []
    for ti, (spec, loc) in enumerate(zip(specs, locals_, strict=True)):
        li = LISTS.index(spec.rating_list)
        month = list_in_force(spec.start)
        older = in_force.get(month, {})
        c = 3 * loc.person + li
        if spec.ratings_from == "source":  # the rating the opponents see
            seen = [NONE if r is None else r for r in loc.rating]
            # Unrated in the source: the standard rating where the list's rules say so
            # (RB24 7.2.1), from the list in force at the start.
            std = older if older and month != prev_month else prev_ratings
            for i, r in enumerate(loc.rating):
                if r is None:
                    key = people[loc.person[i]].key
                    got = list_rating(spec.rules, None, std.get((key, RatingList.STANDARD)))
                    seen[i] = NONE if got is None else got
        elif month == prev_month or not older:
            seen = f.base[c].tolist()
        else:
            seen = [_lookup(older, people[i].key, spec.rules) or NONE
                    for i in loc.person.tolist()]
        seen_a = np.array(seen, dtype=np.int64)
        k_of = np.array(kcache.ks(spec, f, c), dtype=np.int64)
        # R24 8.2.4: a player rated by now is rated with their current rating, but their
        # opponents still count them as unrated.
        own_of = np.where(seen_a < 0, f.base[c], seen_a)
        me, them = loc.me, loc.them
        parts.append(np.stack([c[me], np.full(len(me), ti), own_of[me], seen_a[them], loc.score,
                               loc.rounds, c[them], k_of[me]], axis=1))
    table = np.concatenate(parts) if parts else np.zeros((0, 8), dtype=np.int64)
    pl, tour, own, opp, score, rounds, opp_pl, k = (table[:, i] for i in range(8))
    for spec in specs:
        if spec.ratings_from == "list":
            src = "the register" if in_force.get(list_in_force(spec.start)) else "the given list"
            notes.append(f"{spec.key}: the source carries no ratings; ratings of {src} used")

    pl32 = pl.astype(np.int32)
    n_pl = len(f.base)
    has_games = np.bincount(pl32, minlength=n_pl) > 0
    rules = RuleArrays.of([s.rules for s in specs]) if specs else RuleArrays.of([rules_for(period)])
    out = rate_rows(pl32, tour.astype(np.int32), own.astype(np.int16), opp.astype(np.int16),
                    score.astype(np.int16), rules=rules, base=f.base, k=k.astype(np.int16))
    period_rules = rules_for(period)  # floor and initial-rating rule of the new list (our reading)
    reason = out.reason.copy()
    players_, pool = _finish(specs, people, pl32, tour, opp, score, reason, out, f, pools,
                             has_games, period_rules, period, notes)
    rated = np.flatnonzero(reason == RATED)
    games = PeriodGames(
        {"round": rounds[rated].tolist(), "own_rating": own[rated].tolist(),
         "opponent_rating": out.opp_used[rated].tolist(), "capped": out.capped[rated].tolist(),
         "score_h": score[rated].tolist(), "expected_h": out.pd_h[rated].tolist(),
         "k": out.k[rated].tolist(), "change_h": out.change_h[rated].tolist()},
        me=(pl[rated] // 3).tolist(), them=(opp_pl[rated] // 3).tolist(),
        lists=(pl[rated] % 3).tolist(), tours=tour[rated].tolist(), people=people,
        tournaments=[s.key for s in specs])
    return PeriodResult(period=period, players=players_, games=games, pool=pool,
                        tournaments=tuple(specs), notes=tuple(notes), previous=dict(previous))


def _lookup(table: Mapping[tuple[str, RatingList], int], key: str, rules: FideRules
            ) -> int | None:
    """A player's rating on the list of *rules* in *table* (RB24 7.2.1: in rapid and blitz,
    the standard rating of a player unrated there)."""
    return list_rating(rules, table.get((key, rules.rating_list)),
                       table.get((key, RatingList.STANDARD)))


def _finish(specs: Sequence[PeriodTournament], people: Sequence[Person], pl: Array, tour: Array,
            opp: Array, score: Array, reason: Array, out: RateOutput, f: _Facts,
            pools: Mapping[tuple[str, RatingList], Pool], has_games: Array,
            period_rules: FideRules, period: date, notes: list[str]
            ) -> tuple[tuple[PeriodPlayer, ...], tuple[PoolGame, ...]]:
    import pandas as pd

    base = f.base
    n_pl = len(base)
    # R24 8.2.1: an unrated player's zero score in their first event is disregarded.
    starts = np.array([s.start.toordinal() * 1000 + i for i, s in enumerate(specs)], dtype=np.int64)
    unrated_rows = np.flatnonzero(base[pl] < 0)
    if len(unrated_rows):
        frame = pd.DataFrame({"pl": pl[unrated_rows], "t": tour[unrated_rows],
                              "o": starts[tour[unrated_rows]], "s": score[unrated_rows]})
        first = frame.groupby("pl")["o"].transform("min") == frame["o"]
        zero = frame.groupby(["pl", "t"])["s"].transform("sum") == 0
        earlier = np.array([pools.get((people[c // 3].key, LISTS[c % 3]), Pool()).events > 0
                            for c in frame["pl"]], dtype=bool)
        drop = (first & zero).to_numpy() & ~earlier & (reason[unrated_rows] == POOLED)
        reason[unrated_rows[drop]] = DISREGARDED
        zeros = [people[c // 3] for c in np.unique(frame["pl"].to_numpy()[drop]).tolist()]
        if zeros:
            notes.append(grouped(f"{_count(len(zeros), 'unrated player')} scored nothing in "
                                 "their first event, which is not counted",
                                 [_who(p) for p in zeros], [p.key for p in zeros]))
    pooled = reason == POOLED
    n_pool = np.bincount(pl[pooled], minlength=n_pl).astype(np.int64)
    s_pool = np.bincount(pl[pooled], weights=opp[pooled], minlength=n_pl).astype(np.int64)
    w_pool = np.bincount(pl[pooled], weights=score[pooled], minlength=n_pl).astype(np.int64)
    for c in np.flatnonzero(has_games & (base < 0)).tolist():
        prior = pools.get((people[c // 3].key, LISTS[c % 3]))
        if prior is not None:
            n_pool[c] += prior.games
            s_pool[c] += prior.opponents_sum
            w_pool[c] += prior.score_h
    ru = initial_ratings(n_pool, s_pool, w_pool, period_rules)
    ru[base >= 0] = NONE

    new = base + out.rounded
    # A one-time adjustment of this list (FIDE's of 1 March 2024), on the post-period rating.
    adjusted = ""
    for li, rl in enumerate(LISTS):
        adj = list_adjustment(period, rl)
        if adj is not None:
            at = slice(li, None, 3)
            new[at] += adj.amounts(new[at]) * (base[at] >= 0)
            adjusted = adjusted or f"{period:%Y-%m}: FIDE's one-time adjustment {adj.words} is applied"
    if adjusted:
        notes.append(adjusted)
    floor = period_rules.floor
    rated = base >= 0
    # R24 7.2.2: no rated game for a year (or the list's flag and none now) → inactive.
    status = np.where(rated, np.where((out.games == 0) & f.idle, "inactive",
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
    points = np.bincount(pl[rated_rows], weights=score[rated_rows], minlength=n_pl).astype(np.int64)
    shown = np.flatnonzero(has_games)
    rows = [PeriodPlayer(
        key=p.key, fide_id=p.fide_id, name=p.name, federation=p.federation,
        birth_year=by or None, list=LISTS[c % 3], old_rating=b if b > 0 else None,
        matched_by=p.matched_by, rating_from=_ORIGINS[origin], where=p.where,
        ks=tuple(ks.get(c, ())), games=n, score_h=w, change_h=total, rounded_change=rounded,
        new_rating=new if new > 0 else None, status=_STATUS[st], pool_games=pn,
        pool_opponents_sum=ps, pool_score_h=pw, initial_rating=r0 if r0 > 0 else None)
        for c, p, by, b, origin, n, w, total, rounded, new, st, pn, ps, pw, r0 in zip(
            shown.tolist(), (people[c // 3] for c in shown.tolist()), f.birth[shown].tolist(),
            base[shown].tolist(), f.origin[shown].tolist(), out.games[shown].tolist(),
            points[shown].tolist(), out.total_h[shown].tolist(), out.rounded[shown].tolist(),
            new_rating[shown].tolist(), status[shown].tolist(), n_pool[shown].tolist(),
            s_pool[shown].tolist(), w_pool[shown].tolist(), ru[shown].tolist(), strict=True)]
    rows.sort(key=lambda p: (p.list.value, p.key))
    prow = np.flatnonzero((reason == POOLED) | (reason == DISREGARDED)).tolist()
    pool = tuple(PoolGame(
        key=people[pl[i] // 3].key, list=LISTS[pl[i] % 3], tournament=specs[tour[i]].key,
        start=specs[tour[i]].start, opponent_rating=int(opp[i]), score_h=int(score[i]),
        disregarded=bool(reason[i] == DISREGARDED)) for i in prow)
    return tuple(rows), pool


_STATUS: Final = {s.value: s for s in PeriodStatus}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _who(p: Person) -> str:
    """A player in a note: 'Zorn, Zak (No. 4 in newcomers)'."""
    return f"{p.name or 'a player without a name'} ({p.where})"


def _rating(value: Any) -> int | None:
    """A rating from the int columns (−1 or 0: none)."""
    return int(value) if value > 0 else None

