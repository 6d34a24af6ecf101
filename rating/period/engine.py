"""Tournaments → a rating period: the long table for :mod:`rating.period.core`, and records back.

:func:`rate_period` takes :class:`~importer.model.Tournament` records, who each player is
(:mod:`rating.period.identity`) and what the previous list and the register know
(:class:`Standing`, :class:`Pool`); it builds the long table (one numpy row per player-game,
players as :class:`~rating.period.core.PlayerLists` codes), rates it with
:func:`rating.period.core.rate_rows`, and the finishing step makes the
:class:`PeriodResult`.  Start numbers are
labels: they are mapped to positions, and no array is ever sized by a start number or a
rating.  Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import repeat
from operator import attrgetter
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from importer.errors import InputError
from importer.events import Event, distinct_events
from importer.identity import EventIdentity
from importer.model import Player, RatingList, Status, Tournament
from importer.parsing.numbers import MAX_RATING
from rating.errors import RatingError
from rating.notes import Note, grouped
from rating.period.core import (
    DISREGARDED,
    NONE,
    POOLED,
    RATED,
    PlayerLists,
    RateOutput,
    RuleArrays,
    default_period,
    initial_ratings,
    rate_rows,
)
from rating.period.identity import Identities, Person, RatingFrom, identify
from rating.period.months import list_in_force, month_add
from rating.period.records import (
    LIST_CODES,
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
from rating.systems.fide import PlayerFacts, is_junior_category, list_rating, player_k
from rating.systems.fide_rules import FideRules, list_adjustment, rules_for

__all__ = ["PlayedGames", "rate_period"]

Array = npt.NDArray[Any]


_POINTS_H: Final = {Decimal(1): 100, Decimal("0.5"): 50, Decimal(0): 0}
_START, _OPPONENT, _POINTS, _ROUND = (attrgetter(n) for n in ("start_no", "opponent_no", "points",
                                                               "round"))


@dataclass(frozen=True, slots=True)
class PlayedGames:
    """A tournament's games played over the board, one row per player and game, by position:
    ``me`` and ``them`` index ``Tournament.players`` (start numbers are labels, of any size),
    ``score_h`` is 0, 50 or 100, ``rounds`` the round."""

    me: Array
    them: Array
    score_h: Array
    rounds: Array

    @classmethod
    def of(cls, t: Tournament) -> PlayedGames:
        """The played games of *t* (a result whose opponent or points make no game is left
        out); InputError for a round number too large to be one."""
        at = {p.start_no: i for i, p in enumerate(t.players)}
        played = [r for r in t.results if r.status is Status.PLAYED and r.opponent_no is not None]
        n = len(played)
        me = np.fromiter(map(at.get, map(_START, played), repeat(-1)), np.int64, n)
        them = np.fromiter(map(at.get, map(_OPPONENT, played), repeat(-1)), np.int64, n)
        score = np.fromiter(map(_POINTS_H.get, map(_POINTS, played), repeat(-1)), np.int64, n)
        try:
            rounds = np.fromiter(map(_ROUND, played), np.int64, n)
        except OverflowError:
            raise InputError("a round number too large to be one", source=t.info.source) from None
        ok = (me >= 0) & (them >= 0) & (score >= 0)
        return cls(me[ok], them[ok], score[ok], rounds[ok])


def _tournament_list(t: Tournament, notes: list[Note], key: str) -> RatingList:
    if t.info.rating_list is None:
        notes.append(Note(f"{key}: the source gives no time control; rated as standard"))
        return RatingList.STANDARD
    return t.info.rating_list


def _prepare(tournaments: Sequence[Tournament], keys: Sequence[str], period: date,
             notes: list[Note], assigned: Collection[str], ids: Identities,
             events: Sequence[EventIdentity]) -> list[PeriodTournament]:
    out: list[PeriodTournament] = []
    for t, key, identity in zip(tournaments, keys, events, strict=True):
        rl = _tournament_list(t, notes, key)
        start = t.info.start_date
        if start is None:
            start = month_add(period, -1)
            notes.append(Note(f"{key}: no start date; the rules and list of {start:%Y-%m} are used"))
        end = t.info.end_date or t.info.start_date
        if end is not None and default_period(end) != period and key not in assigned:
            notes.append(Note(f"{key}: ends {end}, which suggests the {default_period(end):%Y-%m} "
                              f"list; rated in {period:%Y-%m} as given"))
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


@dataclass(frozen=True, slots=True)
class _Period:
    """What every step shares: the month, its tournaments, its people and their codes."""

    period: date
    specs: tuple[PeriodTournament, ...]
    people: tuple[Person, ...]
    codes: PlayerLists
    index: Mapping[str, int]
    """Player key → position in ``people``."""
    rules: FideRules
    """The new list's rules: its floor and initial-rating rule (our reading)."""
    notes: list[Note]
    """The period's notes so far (each step adds its own)."""

    @classmethod
    def of(cls, period: date, specs: Sequence[PeriodTournament], people: Sequence[Person],
           notes: list[Note]) -> _Period:
        """The period of *specs*, whose players are *people*."""
        return cls(period=period, specs=tuple(specs), people=tuple(people),
                   codes=PlayerLists(len(people)), index={p.key: i for i, p in enumerate(people)},
                   rules=rules_for(period), notes=notes)

    def person(self, code: int) -> Person:
        """The person of a (person, list) code."""
        return self.people[self.codes.person_of(code)]

    def key_of(self, code: int) -> tuple[str, RatingList]:
        """The (player key, list) of a code, as ``previous`` and ``pools`` are keyed."""
        return self.person(code).key, LISTS[self.codes.list_of(code)]


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
    """Where the base comes from: a position in :data:`_ORIGINS`."""


_ORIGINS: Final = (RatingFrom.LIST, RatingFrom.REGISTER, RatingFrom.SOURCE)
_FROM_LIST, _FROM_REGISTER, _FROM_SOURCE = range(len(_ORIGINS))


def _facts(at: _Period, previous: Mapping[tuple[str, RatingList], Standing],
           listed: Collection[tuple[str, RatingList]]) -> _Facts:
    """The facts of every (player, list) code; a standard rating stands in (RB24 7.2.1) on the
    lists the period rates, the only ones whose codes are read."""
    codes, period = at.codes, at.period
    n_pl = codes.size
    f = _Facts(base=np.full(n_pl, NONE, dtype=np.int32), list_k=np.zeros(n_pl, dtype=np.int32),
               games_total=np.full(n_pl, NONE, dtype=np.int32), reached=np.zeros(n_pl, dtype=bool),
               idle=np.zeros(n_pl, dtype=bool), birth=np.zeros(n_pl, dtype=np.int32),
               origin=np.full(n_pl, _FROM_SOURCE, dtype=np.int8))
    # R24 7.2.2: no rated game in a one-year period → inactive.
    year_ago = month_add(period, -rules_for(period).inactive_months)
    for (key, rl), st in previous.items():
        i = at.index.get(key)
        if i is None:
            continue
        c = codes.code_of(i, LIST_CODES[rl])
        f.list_k[c] = st.k or 0
        f.games_total[c] = NONE if st.games_total is None else st.games_total
        f.reached[c] = st.reached_2400
        f.idle[c] = st.inactive or (st.last_played is not None and st.last_played <= year_ago)
        f.base[c] = NONE if st.rating is None else st.rating
        f.birth[c] = st.birth_year or 0
        f.origin[c] = _FROM_LIST if (key, rl) in listed else _FROM_REGISTER
    # Unrated on a list with a standard rating: what the list's rules say (RB24 7.2.1).
    standard = f.base[codes.on_list(LIST_CODES[RatingList.STANDARD])]
    rated_lists = {s.rating_list for s in at.specs}
    for li, rl in enumerate(LISTS):
        if rl not in rated_lists:
            continue
        rules = rules_for(period, rl)
        for i in np.flatnonzero((f.base[codes.on_list(li)] < 0) & (standard >= 0)).tolist():
            got = list_rating(rules, None, int(standard[i]))
            f.base[codes.code_of(i, li)] = NONE if got is None else got
    # R24 8.3.3: a published rating of 2400 or more (each list's threshold).
    tops = np.array([rules_for(period, rl).top_threshold for rl in LISTS], dtype=np.int32)
    f.reached |= f.base >= codes.per_list(tops)
    years = codes.per_person(np.array([p.birth_year or 0 for p in at.people], dtype=np.int32))
    f.birth[f.birth == 0] = years[f.birth == 0]
    return f


def _source_bases(at: _Period, f: _Facts, locals_: Sequence[_Local]) -> None:
    """On no list and unknown to the register: the tournament's own rating is the base (the
    latest tournament's), so a rated player is never made unrated for want of a list."""
    for spec, loc in sorted(zip(at.specs, locals_, strict=True), key=lambda s: s[0].start):
        codes = at.codes.code_of(loc.person, LIST_CODES[spec.rating_list])
        for code, r in zip(codes.tolist(), loc.rating, strict=True):
            if r is not None and f.origin[code] == _FROM_SOURCE:
                f.base[code] = r
                f.reached[code] |= spec.rules.reaches_top(r)


def _correct(at: _Period, f: _Facts, corrections: Mapping[str, int]) -> None:
    """Base ratings that replace the list's (FIDE id → rating), on every list the player is
    rated on (the standard list when none)."""
    for key in sorted(corrections.keys() & at.index.keys()):
        i = at.index[key]
        rated_on = [c for c in at.codes.codes_of(i) if f.base[c] >= 0]
        standard = at.codes.code_of(i, LIST_CODES[RatingList.STANDARD])
        f.base[rated_on or [standard]] = corrections[key]
        at.notes.append(Note(f"{_who(at.people[i])}: base rating corrected to {corrections[key]}",
                             [key]))


class _KCache:
    """:func:`rating.systems.fide.player_k` once per distinct set of facts (the rule every path uses)."""

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


@dataclass(frozen=True, slots=True)
class _Table:
    """The long table: one row per player per played game (R24 5.1: forfeits, byes, games of
    less than one move are never rated), as columns."""

    pl: Array
    """int32: the player's (person, list) code."""
    tour: Array
    """The tournament's position in the period."""
    own: Array
    """The rating the player is rated with (−1 unrated)."""
    opp: Array
    """The opponent's rating as the tournament shows it (−1 unrated)."""
    score: Array
    """The player's score in hundredths."""
    rounds: Array
    opp_pl: Array
    """The opponent's (person, list) code."""
    k: Array
    """The player's K in the tournament, before the period cap."""

    def rate(self, rules: RuleArrays, base: Array) -> RateOutput:
        """The rows rated by :func:`rating.period.core.rate_rows` (*base*: per code)."""
        return rate_rows(self.pl, self.tour.astype(np.int32), self.own.astype(np.int16),
                         self.opp.astype(np.int16), self.score.astype(np.int16), rules=rules,
                         base=base, k=self.k.astype(np.int16))


def _long_table(at: _Period, f: _Facts, locals_: Sequence[_Local],
                previous: Mapping[tuple[str, RatingList], Standing],
                in_force: Mapping[date, Mapping[tuple[str, RatingList], int]],
                k_default: int) -> _Table:
    """The period's long table, tournament by tournament."""
    prev_ratings = {k: s.rating for k, s in previous.items() if s.rating is not None}
    kcache = _KCache(k_default)
    parts: list[Array] = []
    for ti, (spec, loc) in enumerate(zip(at.specs, locals_, strict=True)):
        c = at.codes.code_of(loc.person, LIST_CODES[spec.rating_list])
        seen = _seen(at, spec, loc, f.base[c], in_force, prev_ratings)
        k_of = np.array(kcache.ks(spec, f, c), dtype=np.int64)
        # R24 8.2.4: a player rated by now is rated with their current rating, but their
        # opponents still count them as unrated.
        own_of = np.where(seen < 0, f.base[c], seen)
        me, them = loc.me, loc.them
        parts.append(np.stack([c[me], np.full(len(me), ti), own_of[me], seen[them], loc.score,
                               loc.rounds, c[them], k_of[me]], axis=1))
    table = np.concatenate(parts) if parts else np.zeros((0, 8), dtype=np.int64)
    pl, tour, own, opp, score, rounds, opp_pl, k = (table[:, i] for i in range(8))
    return _Table(pl=pl.astype(np.int32), tour=tour, own=own, opp=opp, score=score,
                  rounds=rounds, opp_pl=opp_pl, k=k)


def _seen(at: _Period, spec: PeriodTournament, loc: _Local, base: Array,
          in_force: Mapping[date, Mapping[tuple[str, RatingList], int]],
          prev_ratings: Mapping[tuple[str, RatingList], int]) -> Array:
    """Per player position: the rating the opponents see (−1 unrated); *base*: the players'
    base ratings on the tournament's list."""
    month = list_in_force(spec.start)
    older = in_force.get(month, {})
    prev_month = month_add(at.period, -1)
    if spec.ratings_from == "source":
        seen = [NONE if r is None else r for r in loc.rating]
        # Unrated in the source: the standard rating where the list's rules say so
        # (RB24 7.2.1), from the list in force at the start.
        std = older if older and month != prev_month else prev_ratings
        for i, r in enumerate(loc.rating):
            if r is None:
                key = at.people[loc.person[i]].key
                got = list_rating(spec.rules, None, std.get((key, RatingList.STANDARD)))
                seen[i] = NONE if got is None else got
    elif month == prev_month or not older:
        seen = base.tolist()
    else:
        seen = [_lookup(older, at.people[i].key, spec.rules) or NONE for i in loc.person.tolist()]
    return np.array(seen, dtype=np.int64)


def _lookup(table: Mapping[tuple[str, RatingList], int], key: str, rules: FideRules
            ) -> int | None:
    """A player's rating on the list of *rules* in *table* (RB24 7.2.1: in rapid and blitz,
    the standard rating of a player unrated there)."""
    return list_rating(rules, table.get((key, rules.rating_list)),
                       table.get((key, RatingList.STANDARD)))


def _note_list_ratings(at: _Period, in_force: Mapping[date, object]) -> None:
    """A note for each tournament rated with ratings not its own."""
    for spec in at.specs:
        if spec.ratings_from == "list":
            src = "the register" if in_force.get(list_in_force(spec.start)) else "the given list"
            at.notes.append(Note(f"{spec.key}: the source carries no ratings; ratings of {src} used"))


def _games_and_events(tournaments: Sequence[Tournament], keys: Sequence[str],
                      played: Sequence[PlayedGames] | None,
                      events: Sequence[EventIdentity] | None
                      ) -> tuple[Sequence[PlayedGames], Sequence[EventIdentity]]:
    """Each tournament's games and event identity, read when not given (an event twice is
    refused)."""
    if played is None:
        try:
            played = [PlayedGames.of(t) for t in tournaments]
        except InputError as exc:
            raise RatingError(str(exc)) from None
    if events is None:
        events = [EventIdentity.of(t) for t in tournaments]
        once = distinct_events([Event(tournament=t, sources=(k,), known=i) for t, k, i in zip(
            tournaments, keys, events, strict=True)])
        if len(once) < len(tournaments):
            raise RatingError(f"{once.notes[0]}: rate an event once (run_period keeps the newer "
                              "of two snapshots)")
    return played, events


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

    ``identities``: who each player is (default: :func:`rating.period.identity.identify` on the
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
    keys = list(keys) if keys is not None else [f"t{i + 1}" for i in range(len(tournaments))]
    if len(set(keys)) != len(keys):
        raise RatingError("two tournaments of the period have the same id")
    played, events = _games_and_events(tournaments, keys, played, events)
    ids = identities if identities is not None else identify(list(zip(keys, tournaments,
                                                                       strict=True)))
    notes = list(ids.notes)
    specs = _prepare(tournaments, keys, period, notes, assigned, ids, events)
    at = _Period.of(period, specs, ids.people, notes)
    f = _facts(at, previous, listed)
    locals_ = [_local(spec, ids, g) for spec, g in zip(at.specs, played, strict=True)]
    _source_bases(at, f, locals_)
    _correct(at, f, corrections or {})
    table = _long_table(at, f, locals_, previous, in_force, k_default)
    _note_list_ratings(at, in_force)
    out = table.rate(RuleArrays.of([s.rules for s in at.specs] or [at.rules]), f.base)
    players, games, pool = _finish(at, f, table, out, pools or {})
    return PeriodResult(period=period, players=players, games=games, pool=pool,
                        tournaments=at.specs, notes=tuple(notes), previous=dict(previous))


# --------------------------------------------------------------------------- the finishing step

@dataclass(frozen=True, slots=True)
class _Rated:
    """The long table as rated: its rows, what the engine computed, and each row's reason (the
    engine's, with disregarded first-event zeros)."""

    table: _Table
    out: RateOutput
    reason: Array
    has_games: Array
    """Per code: whether the player has a row on that list."""


@dataclass(frozen=True, slots=True)
class _NewList:
    """Per code: the first-rating pool (this period's games and earlier ones), the initial
    rating it gives (−1: none, or rated already), and the new list's rating (−1) and status."""

    pool_games: Array
    pool_opponents_sum: Array
    pool_score_h: Array
    initial: Array
    rating: Array
    status: Array


def _finish(at: _Period, f: _Facts, table: _Table, out: RateOutput,
            pools: Mapping[tuple[str, RatingList], Pool]
            ) -> tuple[tuple[PeriodPlayer, ...], PeriodGames, tuple[PoolGame, ...]]:
    """The rated table → the records: players, rated games and pooled games."""
    rated = _Rated(table=table, out=out, reason=_disregard_zeros(at, f.base, table, out, pools),
                   has_games=np.bincount(table.pl, minlength=at.codes.size) > 0)
    new = _new_list(at, f, rated, pools)
    return _players(at, f, rated, new), _games(at, rated), _pool_games(at, rated)


def _disregard_zeros(at: _Period, base: Array, table: _Table, out: RateOutput,
                     pools: Mapping[tuple[str, RatingList], Pool]) -> Array:
    """Each row's reason: the engine's, but R24 8.2.1: an unrated player's zero score in their
    first event (the earliest start, then the first given) is disregarded."""
    reason = out.reason.copy()
    rows = np.flatnonzero(base[table.pl] < 0)
    if not len(rows):
        return reason
    n_t = len(at.specs)
    rank = np.empty(n_t, dtype=np.int64)
    rank[sorted(range(n_t), key=lambda t: (at.specs[t].start, t))] = np.arange(n_t)
    pl, order = table.pl[rows], rank[table.tour[rows]]
    first_of = np.full(at.codes.size, n_t, dtype=np.int64)
    np.minimum.at(first_of, pl, order)
    first = first_of[pl] == order
    points = np.bincount(pl[first], weights=table.score[rows][first], minlength=at.codes.size)
    drop = first & (points[pl] == 0) & (reason[rows] == POOLED)
    earlier = np.zeros(at.codes.size, dtype=bool)
    for c in np.unique(pl[drop]).tolist():
        earlier[c] = pools.get(at.key_of(c), Pool()).events > 0
    drop &= ~earlier[pl]
    reason[rows[drop]] = DISREGARDED
    zeros = [at.person(c) for c in np.unique(pl[drop]).tolist()]
    if zeros:
        at.notes.append(grouped(f"{_count(len(zeros), 'unrated player')} scored nothing in "
                                "their first event, which is not counted",
                                [_who(p) for p in zeros], [p.key for p in zeros]))
    return reason


def _new_list(at: _Period, f: _Facts, rated: _Rated,
              pools: Mapping[tuple[str, RatingList], Pool]) -> _NewList:
    """Every code's pool, initial rating, new rating and status."""
    base, out, pl, size = f.base, rated.out, rated.table.pl, at.codes.size
    pooled = rated.reason == POOLED
    n_pool = np.bincount(pl[pooled], minlength=size).astype(np.int64)
    s_pool = np.bincount(pl[pooled], weights=rated.table.opp[pooled], minlength=size
                         ).astype(np.int64)
    w_pool = np.bincount(pl[pooled], weights=rated.table.score[pooled], minlength=size
                         ).astype(np.int64)
    for c in np.flatnonzero(rated.has_games & (base < 0)).tolist():
        prior = pools.get(at.key_of(c))
        if prior is not None:
            n_pool[c] += prior.games
            s_pool[c] += prior.opponents_sum
            w_pool[c] += prior.score_h
    rules = at.rules
    ru = initial_ratings(n_pool, s_pool, w_pool, rules)
    ru[base >= 0] = NONE
    new = _adjusted(at, base, base + out.rounded)
    floor = rules.floor
    on_list = base >= 0
    # R24 7.2.2: no rated game for a year (or the list's flag and none now) → inactive.
    status = np.where(on_list, np.where((out.games == 0) & f.idle, "inactive",
                                        np.where(new < floor, "dropped_below_floor", "rated")),
                      np.where((n_pool >= rules.initial_min_games) & (ru >= floor),
                               "newly_rated", "unrated"))
    rating = np.where(on_list, np.where(new < floor, NONE, new),
                      np.where(status == "newly_rated", ru, NONE))
    return _NewList(pool_games=n_pool, pool_opponents_sum=s_pool, pool_score_h=w_pool,
                    initial=ru, rating=rating, status=status)


def _adjusted(at: _Period, base: Array, new: Array) -> Array:
    """*new* with a one-time adjustment of this list (FIDE's of 1 March 2024), on the
    post-period rating of the rated."""
    adjusted = ""
    for li, rl in enumerate(LISTS):
        adj = list_adjustment(at.period, rl)
        if adj is not None:
            on = at.codes.on_list(li)
            new[on] += adj.amounts(new[on]) * (base[on] >= 0)
            adjusted = adjusted or (f"{at.period:%Y-%m}: FIDE's one-time adjustment {adj.words} "
                                    "is applied")
    if adjusted:
        at.notes.append(Note(adjusted))
    return new


_K_SPAN: Final = 128
"""More than any K: (code, K) pairs are found as code × _K_SPAN + K."""


def _players(at: _Period, f: _Facts, rated: _Rated, new: _NewList) -> tuple[PeriodPlayer, ...]:
    """One record per player and list with games, by list and key."""
    pl, out = rated.table.pl, rated.out
    # K per player: the distinct K of their rated games (several when rules differ).
    ks: dict[int, list[int]] = {}
    rated_rows = rated.reason == RATED
    pairs = np.unique(pl[rated_rows].astype(np.int64) * _K_SPAN + out.k[rated_rows])
    for c, k in zip((pairs // _K_SPAN).tolist(), (pairs % _K_SPAN).tolist(), strict=True):
        ks.setdefault(c, []).append(k)
    points = np.bincount(pl[rated_rows], weights=rated.table.score[rated_rows],
                         minlength=at.codes.size).astype(np.int64)
    shown = np.flatnonzero(rated.has_games)
    people = at.people
    rows = [PeriodPlayer(
        key=p.key, fide_id=p.fide_id, name=p.name, federation=p.federation,
        birth_year=by or None, list=LISTS[li], old_rating=b if b > 0 else None,
        matched_by=p.matched_by, rating_from=_ORIGINS[origin], where=p.where,
        ks=tuple(ks.get(c, ())), games=n, score_h=w, change_h=total, rounded_change=rounded,
        new_rating=r if r > 0 else None, status=_STATUS[st], pool_games=pn,
        pool_opponents_sum=ps, pool_score_h=pw, initial_rating=r0 if r0 > 0 else None)
        for c, p, li, by, b, origin, n, w, total, rounded, r, st, pn, ps, pw, r0 in zip(
            shown.tolist(), (people[i] for i in at.codes.person_of(shown).tolist()),
            at.codes.list_of(shown).tolist(), f.birth[shown].tolist(),
            f.base[shown].tolist(), f.origin[shown].tolist(), out.games[shown].tolist(),
            points[shown].tolist(), out.total_h[shown].tolist(), out.rounded[shown].tolist(),
            new.rating[shown].tolist(), new.status[shown].tolist(), new.pool_games[shown].tolist(),
            new.pool_opponents_sum[shown].tolist(), new.pool_score_h[shown].tolist(),
            new.initial[shown].tolist(), strict=True)]
    rows.sort(key=lambda p: (p.list.value, p.key))
    return tuple(rows)


def _games(at: _Period, rated: _Rated) -> PeriodGames:
    """The rated games, as columns."""
    t, out = rated.table, rated.out
    on = np.flatnonzero(rated.reason == RATED)
    return PeriodGames(
        {"round": t.rounds[on].tolist(), "own_rating": t.own[on].tolist(),
         "opponent_rating": out.opp_used[on].tolist(), "capped": out.capped[on].tolist(),
         "score_h": t.score[on].tolist(), "expected_h": out.pd_h[on].tolist(),
         "k": out.k[on].tolist(), "change_h": out.change_h[on].tolist()},
        me=at.codes.person_of(t.pl[on]).tolist(), them=at.codes.person_of(t.opp_pl[on]).tolist(),
        lists=at.codes.list_of(t.pl[on]).tolist(), tours=t.tour[on].tolist(), people=at.people,
        tournaments=[s.key for s in at.specs])


def _pool_games(at: _Period, rated: _Rated) -> tuple[PoolGame, ...]:
    """The pooled games (and the disregarded ones), in table order."""
    t, reason = rated.table, rated.reason
    on = np.flatnonzero((reason == POOLED) | (reason == DISREGARDED))
    people, specs, pl = at.people, at.specs, t.pl[on]
    return tuple(PoolGame(key=people[i].key, list=LISTS[li], tournament=specs[ti].key,
                          start=specs[ti].start, opponent_rating=opp, score_h=score,
                          disregarded=why == DISREGARDED)
                 for i, li, ti, opp, score, why in zip(
                     at.codes.person_of(pl).tolist(), at.codes.list_of(pl).tolist(),
                     t.tour[on].tolist(), t.opp[on].tolist(), t.score[on].tolist(),
                     reason[on].tolist(), strict=True))


_STATUS: Final = {s.value: s for s in PeriodStatus}


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _who(p: Person) -> str:
    """A player in a note: 'Zorn, Zak (No. 4 in newcomers)'."""
    return f"{p.name or 'a player without a name'} ({p.where})"
