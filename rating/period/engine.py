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

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial
from itertools import compress, pairwise, repeat
from operator import attrgetter, is_not, itemgetter
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from importer.errors import InputError
from importer.events import Event, distinct_events
from importer.identity import EventIdentity
from importer.model import Player, RatingList, Tournament
from importer.parsing.numbers import MAX_RATING
from rating.errors import RatingError
from rating.notes import Note, grouped, plural
from rating.period.bulk import LazyMapping, LazyRecords, no_cycle_collection, records
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
    kept,
    rate_rows,
    sorted_unique,
)
from rating.period.identity import Identities, Person, RatingFrom, identify
from rating.period.months import list_in_force, month_add
from rating.period.played import PlayedGames, event_identities
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
from rating.period.roster import Roster
from rating.systems.fide import (
    PlayerFacts,
    is_junior_category,
    list_rating,
    plausible_birth_year,
    player_k,
)
from rating.systems.fide_rules import FideRules, list_adjustment, rules_for

__all__ = ["PlayedGames", "rate_period"]

Array = npt.NDArray[Any]

_START_NO, _RATING, _RATING_KNOWN, _K, _TITLE, _CATEGORY = (
    attrgetter(n) for n in ("start_no", "rating", "rating_known", "k", "title", "category"))
_STANDING_K, _GAMES_TOTAL, _REACHED, _INACTIVE, _LAST_PLAYED, _BIRTH_YEAR = (
    attrgetter(n) for n in ("k", "games_total", "reached_2400", "inactive", "last_played",
                            "birth_year"))
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _tournament_list(t: Tournament, notes: list[Note], key: str) -> RatingList:
    if t.info.rating_list is None:
        notes.append(Note(f"{key}: the source gives no time control; rated as standard"))
        return RatingList.STANDARD
    return t.info.rating_list


@dataclass(frozen=True, slots=True)
class _Entries:
    """Every tournament's players, one tournament's after the other's (an entry: one player
    of one tournament), as columns."""

    players: list[Player]
    start_nos: list[int]
    tour: Array
    """Per entry: the tournament's position in the period."""
    first: Array
    """Per tournament: its first entry (and one past the last)."""
    person: Array
    """Per entry: the index of the person."""
    rating: Array
    """Per entry: the rating the tournament prints (−1 none)."""
    hidden: Array
    """Per entry: the source cut the rating off (unknown, not unrated)."""
    carries: Array
    """Per tournament: whether it prints any rating (a 0 too)."""

    @classmethod
    def of(cls, roster: Roster, keys: Sequence[str], ids: Identities) -> _Entries:
        """The entries of the tournaments of *roster* (their *keys*); RatingError for a
        printed rating that is no rating."""
        players = roster.players
        tour = np.array(roster.tour, dtype=np.int64).reshape(-1)
        if (ids.entries is not None and ids.order == tuple(keys)
                and len(ids.entries) == len(players)):
            person = np.array(ids.entries, dtype=np.int64).reshape(-1)
        else:
            owners = map(keys.__getitem__, roster.tour)
            person = np.fromiter(map(ids.code.__getitem__, zip(owners, roster.start_nos,
                                                               strict=True)),
                                 np.int64, len(players))
        rating, printed = _source_ratings(players, tour, keys)
        return cls(players=players, start_nos=roster.start_nos, tour=tour,
                   first=np.array(roster.first, dtype=np.int64), person=person, rating=rating,
                   hidden=~np.fromiter(map(_RATING_KNOWN, players), bool, len(players)),
                   carries=np.bincount(tour, weights=printed, minlength=len(keys)) > 0)

    def spans(self) -> Iterator[tuple[int, int]]:
        """Each tournament's entries, as (first, one past the last)."""
        return pairwise(self.first.tolist())


def _source_ratings(players: Sequence[Player], tour: Array, keys: Sequence[str]
                    ) -> tuple[Array, Array]:
    """The ratings the tournaments print (−1 none), and whether each prints one at all (a 0
    too); RatingError for one that is not a rating (expected 1 to MAX_RATING; 0 is none)."""
    given = list(map(_RATING, players))
    try:
        shown = np.array(given, dtype=np.float64).reshape(-1)  # None: NaN
    except OverflowError:  # beyond a float: not a rating either
        shown = np.array([r if r is None or 0 <= r <= MAX_RATING else -1 for r in given],
                         dtype=np.float64).reshape(-1)
    bad = np.flatnonzero((shown < 0) | (shown > MAX_RATING)).tolist()
    if bad:
        p = players[bad[0]]
        raise RatingError(f"{keys[tour[bad[0]]]}: player {p.start_no} ({p.name}) has rating "
                          f"{p.rating}, which is not a rating (expected 1 to {MAX_RATING})")
    printed = ~np.isnan(shown)
    return np.where(printed & (shown != 0), shown, NONE).astype(np.int64), printed


def _prepare(tournaments: Sequence[Tournament], keys: Sequence[str], period: date,
             notes: list[Note], assigned: Collection[str], ids: Identities,
             events: Sequence[EventIdentity], entries: _Entries) -> list[PeriodTournament]:
    out: list[PeriodTournament] = []
    person_keys = ids.keys
    person, start_nos = entries.person.tolist(), entries.start_nos
    for t, key, identity, (lo, hi), carries in zip(tournaments, keys, events, entries.spans(),
                                                   entries.carries.tolist(), strict=True):
        rl = _tournament_list(t, notes, key)
        start = t.info.start_date
        if start is None:
            start = month_add(period, -1)
            notes.append(Note(f"{key}: no start date; the rules and list of {start:%Y-%m} are used"))
        end = t.info.end_date or t.info.start_date
        if end is not None and default_period(end) != period and key not in assigned:
            notes.append(Note(f"{key}: ends {end}, which suggests the {default_period(end):%Y-%m} "
                              f"list; rated in {period:%Y-%m} as given"))
        out.append(PeriodTournament(
            key=key, tournament=t, rating_list=rl, start=start, rules=rules_for(start, rl),
            ratings_from="source" if carries else "list", identity=identity,
            keys=LazyMapping(partial(_keys, start_nos, person, person_keys, lo, hi))))
    return out


def _keys(start_nos: Sequence[int], person: Sequence[int], person_keys: Sequence[str], lo: int,
          hi: int) -> dict[int, str]:
    """Start number → the player's key, of the entries *lo* … *hi* − 1."""
    return dict(zip(start_nos[lo:hi], map(person_keys.__getitem__, person[lo:hi]), strict=True))


@dataclass(frozen=True, slots=True)
class _Period:
    """What every step shares: the month, its tournaments, its people and their codes."""

    period: date
    specs: tuple[PeriodTournament, ...]
    people: Sequence[Person]
    """Made when first read: the steps read ``keys`` and ``birth_years``."""
    keys: Sequence[str]
    birth_years: Sequence[int | None]
    codes: PlayerLists
    index: Mapping[str, int]
    """Player key → position in ``people``."""
    rules: FideRules
    """The new list's rules: its floor and initial-rating rule (our reading)."""
    notes: list[Note]
    """The period's notes so far (each step adds its own)."""

    @classmethod
    def of(cls, period: date, specs: Sequence[PeriodTournament], ids: Identities,
           notes: list[Note]) -> _Period:
        """The period of *specs*, whose players are *ids*' people."""
        return cls(period=period, specs=tuple(specs), people=ids.people, keys=ids.keys,
                   birth_years=ids.birth_years, codes=PlayerLists(len(ids.keys)),
                   index=dict(zip(ids.keys, range(len(ids.keys)), strict=True)),
                   rules=rules_for(period), notes=notes)

    def person(self, code: int) -> Person:
        """The person of a (person, list) code."""
        return self.people[self.codes.person_of(code)]

    def key_of(self, code: int) -> tuple[str, RatingList]:
        """The (player key, list) of a code, as ``previous`` and ``pools`` are keyed."""
        return self.keys[self.codes.person_of(code)], LISTS[self.codes.list_of(code)]

    def list_codes(self) -> Array:
        """Per tournament: the position of its list in :data:`LISTS`."""
        return np.array([LIST_CODES[s.rating_list] for s in self.specs], dtype=np.int64)


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
    person = list(map(at.index.get, map(_FIRST, previous)))
    here = list(map(is_not, person, repeat(None)))
    if any(here):
        found = list(compress(previous, here))
        sts = list(compress(previous.values(), here))
        c = codes.code_of(np.array(list(compress(person, here)), dtype=np.int64),
                          np.fromiter(map(LIST_CODES.__getitem__, map(_SECOND, found)), np.int64,
                                      len(found)))
        f.list_k[c] = [k or 0 for k in map(_STANDING_K, sts)]
        f.games_total[c] = [NONE if g is None else g for g in map(_GAMES_TOTAL, sts)]
        f.reached[c] = list(map(_REACHED, sts))
        f.idle[c] = [gone or (last is not None and last <= year_ago)
                     for gone, last in zip(map(_INACTIVE, sts), map(_LAST_PLAYED, sts), strict=True)]
        f.base[c] = [NONE if r is None else r for r in map(_RATING, sts)]
        f.birth[c] = [y or 0 for y in map(_BIRTH_YEAR, sts)]
        f.origin[c] = np.where(list(map(listed.__contains__, found)), _FROM_LIST, _FROM_REGISTER)
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
    years = codes.per_person(np.array([y or 0 for y in at.birth_years], dtype=np.int32))
    f.birth[f.birth == 0] = years[f.birth == 0]
    return f


def _source_bases(at: _Period, f: _Facts, entries: _Entries, codes: Array) -> None:
    """On no list and unknown to the register: the tournament's own rating is the base (the
    latest tournament's), so a rated player is never made unrated for want of a list
    (*codes*: each entry's (player, list) code)."""
    rated = np.flatnonzero((entries.rating >= 0) & (f.origin[codes] == _FROM_SOURCE))
    if not len(rated):
        return
    n_t = len(at.specs)
    rank = np.empty(n_t, dtype=np.int64)  # the tournaments by start (then as given)
    rank[sorted(range(n_t), key=lambda t: at.specs[t].start)] = np.arange(n_t)
    rated = rated[np.argsort(rank[entries.tour[rated]], kind="stable")]
    c, r = codes[rated], entries.rating[rated]
    by_code = np.argsort(c, kind="stable")
    last = by_code[np.append(c[by_code][1:] != c[by_code][:-1], True)]
    f.base[c[last]] = r[last]  # the latest tournament's rating stays
    tops = np.array([s.rules.top_threshold for s in at.specs], dtype=np.int64)
    f.reached[c[r >= tops[entries.tour[rated]]]] = True


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


def _ks(at: _Period, f: _Facts, entries: _Entries, codes: Array, k_default: int) -> Array:
    """Each entry's K (:func:`rating.systems.fide.player_k`, the rule every path uses): the
    published K, else the list's, else once per distinct set of facts."""
    published = list(map(_K, entries.players))
    k = f.list_k[codes].astype(np.int64)
    has = np.fromiter(map(is_not, published, repeat(None)), bool, len(published))
    k[has] = [published[i] for i in np.flatnonzero(has).tolist()]
    rows = np.flatnonzero(~has & (k == 0))  # once per distinct set of facts:
    players = list(map(entries.players.__getitem__, rows.tolist()))
    words: dict[tuple[str, str], int] = {}  # (title, category) → a number
    said = [words.setdefault(w, len(words)) for w in zip(map(_TITLE, players),
                                                          map(_CATEGORY, players), strict=True)]
    rules: dict[tuple[int, int], int] = {}  # (rules, year) → a number
    rule_of = [rules.setdefault((id(s.rules), s.start.year), len(rules)) for s in at.specs]
    spec_of = dict(zip(rule_of, at.specs, strict=True))  # a tournament of each
    facts, back = np.unique(np.stack(
        [np.array(rule_of, dtype=np.int64)[entries.tour[rows]], f.base[codes][rows],
         f.games_total[codes][rows],
         f.birth[codes][rows], f.reached[codes][rows], np.array(said, dtype=np.int64)],
        axis=1).reshape(-1, 6), axis=0, return_inverse=True)
    text = list(words)
    distinct, odd = [], []
    for r, base, games, birth, reached, w in facts.tolist():
        spec, (title, category) = spec_of[r], text[w]
        distinct.append(player_k(spec.rules, PlayerFacts(
            rating=base if base >= 0 else None, games_played=games if games >= 0 else None,
            birth_year=birth or None, reached_2400=bool(reached), year=spec.start.year,
            title=title, junior=is_junior_category(category)), k_default)[0])
        odd.append(bool(birth) and plausible_birth_year(birth, spec.start.year) is None)
    k[rows] = np.array(distinct, dtype=np.int64)[back.reshape(-1)]
    unlikely = dict.fromkeys(  # the people whose birth year cannot be one, in order
        entries.person[rows][np.array(odd, dtype=bool)[back.reshape(-1)]].tolist())
    if unlikely:
        who = [at.people[i] for i in unlikely]
        at.notes.append(grouped(
            f"{plural(len(who), 'player')} with a birth year in or just before the event's "
            "year, which is no player's: it is left out of the K", [_who(p) for p in who],
            [p.key for p in who]))
    return k


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


def _long_table(at: _Period, f: _Facts, entries: _Entries, codes: Array, played: PlayedGames,
                previous: Mapping[tuple[str, RatingList], Standing],
                in_force: Mapping[date, Mapping[tuple[str, RatingList], int]],
                k_default: int) -> _Table:
    """The period's long table (*codes*: each entry's (player, list) code)."""
    seen = _seen(at, f, entries, codes, previous, in_force)
    k_of = _ks(at, f, entries, codes, k_default)
    # R24 8.2.4: a player rated by now is rated with their current rating, but their
    # opponents still count them as unrated.
    own_of = np.where(seen < 0, f.base[codes], seen)
    first = entries.first[played.tour]
    me, them = played.me + first, played.them + first
    # a rating the source cut off is unknown: neither side's game is rated
    me, them, tour, score, rounds = kept(~entries.hidden[me] & ~entries.hidden[them], me, them,
                                         played.tour, played.score_h, played.rounds)
    return _Table(pl=codes[me].astype(np.int32), tour=tour, own=own_of[me], opp=seen[them],
                  score=score, rounds=rounds, opp_pl=codes[them], k=k_of[me])


def _seen(at: _Period, f: _Facts, entries: _Entries, codes: Array,
          previous: Mapping[tuple[str, RatingList], Standing],
          in_force: Mapping[date, Mapping[tuple[str, RatingList], int]]) -> Array:
    """Per entry: the rating the opponents see (−1 unrated): the tournament's, else the list's
    in force at its start."""
    prev_month = month_add(at.period, -1)
    from_source = np.array([s.ratings_from == "source" for s in at.specs], dtype=bool)
    seen = np.where(from_source[entries.tour], entries.rating, f.base[codes])
    prev_ratings: dict[tuple[str, RatingList], int] | None = None
    for spec, (lo, hi) in zip(at.specs, entries.spans(), strict=True):
        month = list_in_force(spec.start)
        older = in_force.get(month, {})
        person = entries.person[lo:hi]
        if spec.ratings_from == "source":
            if not spec.rules.unrated_uses_standard:
                continue  # unrated in the source stays unrated
            # Unrated in the source: the standard rating where the list's rules say so
            # (RB24 7.2.1), from the list in force at the start.
            if prev_ratings is None:
                prev_ratings = {k: s.rating for k, s in previous.items() if s.rating is not None}
            std = older if older and month != prev_month else prev_ratings
            for i in np.flatnonzero(seen[lo:hi] < 0).tolist():
                got = list_rating(spec.rules, None, std.get((at.keys[person[i]],
                                                              RatingList.STANDARD)))
                seen[lo + i] = NONE if got is None else got
        elif month != prev_month and older:
            seen[lo:hi] = [_lookup(older, at.keys[i], spec.rules) or NONE
                           for i in person.tolist()]
    return seen


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
                      played: PlayedGames | None, events: Sequence[EventIdentity] | None,
                      roster: Roster) -> tuple[PlayedGames, Sequence[EventIdentity]]:
    """The tournaments' games and each one's event identity, read when not given (an event
    twice is refused)."""
    if played is None:
        try:
            played = PlayedGames.of(tournaments, roster)
        except InputError as exc:
            raise RatingError(str(exc)) from None
    if events is None:
        events = event_identities(tournaments, played, roster)
        once = distinct_events([Event(tournament=t, sources=(k,), known=i) for t, k, i in zip(
            tournaments, keys, events, strict=True)])
        if len(once) < len(tournaments):
            raise RatingError(f"{once.notes[0]}: rate an event once (run_period keeps the newer "
                              "of two snapshots)")
    return played, events


@no_cycle_collection()
def rate_period(tournaments: Sequence[Tournament], period: date, *,
                keys: Sequence[str] | None = None, identities: Identities | None = None,
                events: Sequence[EventIdentity] | None = None,
                played: PlayedGames | None = None, roster: Roster | None = None,
                previous: Mapping[tuple[str, RatingList], Standing] | None = None,
                listed: Collection[tuple[str, RatingList]] = frozenset(),
                in_force: Mapping[date, Mapping[tuple[str, RatingList], int]] | None = None,
                pools: Mapping[tuple[str, RatingList], Pool] | None = None,
                corrections: Mapping[str, int] | None = None, assigned: Collection[str] = (),
                k_default: int = 20) -> PeriodResult:
    """Rate every tournament of the list month *period*.

    ``identities``: who each player is (default: :func:`rating.period.identity.identify` on the
    tournaments alone); ``events``: each tournament's :class:`~importer.identity.EventIdentity`
    (computed when not given; two tournaments of one event are refused) and ``played``
    their games (:class:`~rating.period.played.PlayedGames`, read when not given), ``roster``
    their players (:class:`~rating.period.roster.Roster`, read when not given); ``previous``:
    the T − 1 list and the register per (player key, list), of which ``listed`` are FIDE's
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
    roster = roster or Roster.of(tournaments)
    played, events = _games_and_events(tournaments, keys, played, events, roster)
    ids = identities if identities is not None else identify(
        list(zip(keys, tournaments, strict=True)), roster=roster)
    notes = list(ids.notes)
    entries = _Entries.of(roster, keys, ids)
    specs = _prepare(tournaments, keys, period, notes, assigned, ids, events, entries)
    at = _Period.of(period, specs, ids, notes)
    f = _facts(at, previous, listed)
    codes = at.codes.code_of(entries.person, at.list_codes()[entries.tour])
    _source_bases(at, f, entries, codes)
    _correct(at, f, corrections or {})
    table = _long_table(at, f, entries, codes, played, previous, in_force, k_default)
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
            ) -> tuple[Sequence[PeriodPlayer], PeriodGames, Sequence[PoolGame]]:
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
        at.notes.append(grouped(f"{plural(len(zeros), 'unrated player')} scored nothing in "
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
_LIST_ORDER: Final = np.argsort(np.argsort([rl.value for rl in LISTS]))
"""Per list position: its rank by name (the players' order: by list name, then key)."""


def _players(at: _Period, f: _Facts, rated: _Rated, new: _NewList) -> Sequence[PeriodPlayer]:
    """One record per player and list with games, by list and key (made when first read)."""
    pl, out = rated.table.pl, rated.out
    rated_rows = rated.reason == RATED
    points = np.bincount(pl[rated_rows], weights=rated.table.score[rated_rows],
                         minlength=at.codes.size).astype(np.int64)
    shown = np.flatnonzero(rated.has_games)
    ks = _distinct_ks(pl[rated_rows], out.k[rated_rows], at.codes.size)
    columns = {"birth_year": f.birth, "old_rating": f.base, "origin": f.origin,
               "games": out.games, "score_h": points, "change_h": out.total_h,
               "rounded_change": out.rounded, "new_rating": new.rating, "status": new.status,
               "pool_games": new.pool_games, "pool_opponents_sum": new.pool_opponents_sum,
               "pool_score_h": new.pool_score_h, "initial_rating": new.initial}
    columns = {name: values[shown] for name, values in columns.items()}

    def make() -> list[PeriodPlayer]:
        person, li = at.codes.person_of(shown), at.codes.list_of(shown)
        key_rank = np.empty(len(at.people), dtype=np.int64)
        key_rank[np.argsort(np.array(at.keys, dtype=str), kind="stable")] = (
            np.arange(len(at.people)))
        order = np.lexsort((key_rank[person], _LIST_ORDER[li]))
        col = {name: values[order] for name, values in columns.items()}
        people = list(map(at.people.__getitem__, person[order].tolist()))
        return records(PeriodPlayer, {
            **{name: list(map(attrgetter(name), people))
               for name in ("key", "fide_id", "name", "federation", "matched_by", "where")},
            "list": list(map(LISTS.__getitem__, li[order].tolist())),
            "rating_from": list(map(_ORIGINS.__getitem__, col.pop("origin").tolist())),
            "status": list(map(_STATUS.__getitem__, col.pop("status").tolist())),
            "ks": _ks_of(shown[order], ks),
            **{name: _or_none(col.pop(name)) for name in ("birth_year", "old_rating",
                                                         "new_rating", "initial_rating")},
            **{name: values.tolist() for name, values in col.items()}}, len(shown))

    return LazyRecords(len(shown), make)


def _or_none(values: Array) -> list[int | None]:
    """Positive values as they are, the others (none) as None."""
    return [v if v > 0 else None for v in values.tolist()]


def _distinct_ks(pl: Array, k: Array, size: int) -> Array:
    """The sorted distinct (code, K) pairs of rated rows, as code × _K_SPAN + K: each code's
    least and greatest K (one pair when they are equal, as nearly always), and the rows of
    the few codes rated with several K sorted."""
    pl, k = pl.astype(np.intp), k.astype(np.int64)  # ufunc.at is fast on its own dtypes
    low, high = np.full(size, _K_SPAN, dtype=np.int64), np.full(size, -1, dtype=np.int64)
    np.minimum.at(low, pl, k)
    np.maximum.at(high, pl, k)
    one = np.flatnonzero(low == high)
    several = (low != high) & (high >= 0)
    rows = several[pl]
    return np.sort(np.concatenate([one * _K_SPAN + low[one],
                                   sorted_unique(pl[rows].astype(np.int64) * _K_SPAN + k[rows])]))


def _ks_of(codes: Array, pairs: Array) -> list[tuple[int, ...]]:
    """Per code: the distinct K of its rated games, ascending (several when rules differ), of
    the sorted distinct (code, K) *pairs* as code × _K_SPAN + K."""
    of, ks = pairs // _K_SPAN, pairs % _K_SPAN
    first = np.searchsorted(of, codes)
    count = np.searchsorted(of, codes, side="right") - first
    one = {v: (v,) for v in sorted_unique(ks).tolist()}
    out: list[tuple[int, ...]] = (
        list(map(one.__getitem__, ks[np.minimum(first, len(ks) - 1)].tolist())) if len(ks)
        else [() for _ in codes.tolist()])
    for i in np.flatnonzero(count != 1).tolist():  # none, or several
        out[i] = tuple(ks[first[i]:first[i] + count[i]].tolist())
    return out


def _games(at: _Period, rated: _Rated) -> PeriodGames:
    """The rated games, as columns."""
    t, out = rated.table, rated.out
    on = np.flatnonzero(rated.reason == RATED)
    return PeriodGames(
        {"round": t.rounds[on], "own_rating": t.own[on], "opponent_rating": out.opp_used[on],
         "capped": out.capped[on], "score_h": t.score[on], "expected_h": out.pd_h[on],
         "k": out.k[on], "change_h": out.change_h[on]},
        me=at.codes.person_of(t.pl[on]), them=at.codes.person_of(t.opp_pl[on]),
        lists=at.codes.list_of(t.pl[on]), tours=t.tour[on], people=at.people,
        tournaments=[s.key for s in at.specs])


def _pool_games(at: _Period, rated: _Rated) -> Sequence[PoolGame]:
    """The pooled games (and the disregarded ones), in table order (made when first read)."""
    t, reason = rated.table, rated.reason
    on = np.flatnonzero((reason == POOLED) | (reason == DISREGARDED))
    pl, tour, opp, score = t.pl[on], t.tour[on], t.opp[on], t.score[on]
    disregarded = reason[on] == DISREGARDED

    def make() -> list[PoolGame]:
        specs = list(map(at.specs.__getitem__, tour.tolist()))
        return records(PoolGame, {
            "key": list(map(at.keys.__getitem__, at.codes.person_of(pl).tolist())),
            "list": list(map(LISTS.__getitem__, at.codes.list_of(pl).tolist())),
            "tournament": [s.key for s in specs], "start": [s.start for s in specs],
            "opponent_rating": opp.tolist(), "score_h": score.tolist(),
            "disregarded": disregarded.tolist()}, len(on))

    return LazyRecords(len(on), make)


_STATUS: Final = {s.value: s for s in PeriodStatus}


def _who(p: Person) -> str:
    """A player in a note: 'Zorn, Zak (No. 4 in newcomers)'."""
    return f"{p.name or 'a player without a name'} ({p.where})"
