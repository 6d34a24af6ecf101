"""A rating officer's month as one library call: :func:`run_period`.

Chooses the tournaments of the list month, reads the previous FIDE list and the register,
rates with :func:`rating.period.engine.rate_period` and returns typed records; writing files and
the register is the caller's (``fiderate period`` does both in one atomic step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from importer.errors import InputError
from importer.events import Event, distinct_events
from importer.identity import EventIdentity
from importer.model import RatingList, Tournament
from rating.errors import RatingError
from rating.notes import Note, grouped, plural
from rating.period.engine import rate_period
from rating.period.identity import RatingFrom, identify, list_candidates, wanted_names, wanted_on_list
from rating.period.months import month_add
from rating.period.played import PlayedGames, event_identities
from rating.period.records import LISTS, PeriodResult, Standing
from rating.period.roster import Roster

if TYPE_CHECKING:
    from importer.formats.fidelist import FideList
    from rating.period.register import Register

__all__ = ["PeriodSource", "check_month", "run_period"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodSource:
    """A tournament offered to a period, with where it came from."""

    tournament: Tournament
    source: str = ""
    """The file or link it was read from (for its key and the notes)."""
    month: date | None = None
    """The list month it is assigned to (None: the month its dates give)."""
    apart: bool = False
    """The user said it is an event of its own (never the same as another source)."""
    counted: tuple[str, ...] = ()
    """Other sources of the same event counted in this one (copies, older snapshots)."""


def check_month(month: date, *, today: date | None = None) -> date:
    """A list month must be a real month, not after next month (RatingError otherwise)."""
    now = (today or date.today()).replace(day=1)  # noqa: DTZ011 - the user's local month
    if month.year < 1971:  # FIDE's first rating list
        raise RatingError(f"{month:%Y-%m} is before FIDE's first rating list (1971)")
    if month > month_add(now, 1):
        raise RatingError(f"{month:%Y-%m} is after next month ({month_add(now, 1):%Y-%m})")
    return month


def run_period(tournaments: Sequence[Tournament | PeriodSource], *, period: date,
               ratings_list: FideList | Mapping[tuple[str, RatingList], Standing] | None = None,
               register: Register | None = None,
               only_list: RatingList | None = None, corrections: Mapping[str, int] | None = None,
               replace_older: bool = False, rerate: bool = False, k_default: int = 20,
               today: date | None = None) -> PeriodResult:
    """Rate every tournament of the list month *period* (the 1st of a month).

    Each event is rated once: tournaments showing one event (:mod:`importer.events`) keep the
    newer snapshot, with a note.  Players are found by FIDE id, else by name and federation on
    the list, in the register and among the tournaments' other players
    (:mod:`rating.period.identity`).  ``ratings_list`` is the previous FIDE list (base ratings, K,
    birth years, the inactive flag): FIDE's download as read by
    :func:`importer.formats.fidelist.read_fide_list` (read with ``federations=`` those of the players
    without an id, so that they can be found by name), or standings per (player key, list).
    Without it, the list stored in the register for the previous month is used (``fiderate
    list import``).  A player the tournament shows rated who is on no list keeps the
    tournament's rating as the base, with one note counting them.  ``register`` adds what
    earlier periods computed (games played, the 2400 history, pooled games of unrated
    players) and the events they rated, and is only read here.  An event the register rated
    in another month is refused (RatingError) unless ``rerate`` (the result then replaces
    that rating when written).  Tournaments assigned to another month, or of another list
    than ``only_list``, are left out with a note.  ``corrections`` replace base ratings
    (FIDE id → rating).  RatingError for a period that is not a real month, or older than
    the register's newest without ``replace_older``.
    """
    check_month(period, today=today)
    if register is not None:
        register.check_period(period, replace=replace_older)
    notes: list[Note] = []
    offered = [item if isinstance(item, PeriodSource) else PeriodSource(tournament=item)
               for item in tournaments]
    sources = [s.tournament for s in offered]
    seen = Roster.of(sources)  # every source's players and games read once
    every: PlayedGames | None = None
    read: Sequence[EventIdentity | None] = [None] * len(offered)
    try:
        every = PlayedGames.of(sources, seen)
        read = event_identities(sources, every, seen)
    except InputError:  # refused below if it is rated
        pass
    found = distinct_events([replace(Event.of(s.tournament, [_label(s)]), apart=s.apart,
                                     counted=s.counted, known=identity)
                             for s, identity in zip(offered, read, strict=True)])
    notes += (Note(w.message) for w in found.notes)
    by_tournament = {id(s.tournament): s for s in offered}
    position = {id(s.tournament): i for i, s in enumerate(offered)}
    chosen: list[Tournament] = []
    keys: list[str] = []
    assigned: set[str] = set()
    identities: list[EventIdentity] = []
    read_from: dict[str, tuple[str, ...]] = {}
    for event in found.events:
        src = by_tournament[id(event.tournament)]
        t, name = src.tournament, _label(src)
        if src.month is not None and src.month != period:
            notes.append(Note(f"{name}: assigned to {src.month:%Y-%m}; not rated in {period:%Y-%m}"))
            continue
        rl = t.info.rating_list or RatingList.STANDARD
        if only_list is not None and rl is not only_list:
            notes.append(Note(f"{name}: a {rl} tournament; left out (only {only_list} is rated)"))
            continue
        chosen.append(t)
        identities.append(event.identity)
        keys.append(tournament_key(src.source, t, set(keys)))
        read_from[keys[-1]] = (_label(src), *event.counted)
        if src.month is not None:
            assigned.add(keys[-1])
    if every is not None:
        at = [position[id(t)] for t in chosen]
        played, roster = every.select(at), seen.select(at)
    else:
        roster = Roster.of(chosen)
        played = PlayedGames.of(chosen, roster)
    ids_given, federations = wanted_on_list(chosen)
    if ratings_list is None and register is not None:
        ratings_list = _register_list(register, period, ids_given, federations, notes)
    names = wanted_names(chosen)
    known = []
    if names and ratings_list is not None and not isinstance(ratings_list, Mapping):
        known.append(list_candidates(ratings_list, names))
    if names and register is not None:
        known.append(register.candidates(names))
    ids = identify(list(zip(keys, chosen, strict=True)), known=known, roster=roster)
    pkeys = {p.key for p in ids.people}
    imported = (dict(ratings_list) if isinstance(ratings_list, Mapping)
                else standings(ratings_list, pkeys, month_add(period, -1), notes)
                if ratings_list is not None else {})
    previous: dict[tuple[str, RatingList], Standing] = dict(imported)
    in_force = {}
    pools = {}
    replaces: dict[str, date] = {}
    if register is not None:
        previous = _merge(register.previous(pkeys, period), imported)
        months = {t.info.start_date.replace(day=1) for t in chosen if t.info.start_date}
        in_force = {m: register.ratings_on(m, pkeys) for m in months if m < month_add(period, -1)}
        pools = register.pools(pkeys, period)
        replaces = _rated_before(register, period, keys, chosen, identities, rerate=rerate,
                                 notes=notes)
    notes += _pending_notes(keys, chosen, stored=register is not None)
    result = rate_period(chosen, period, keys=keys, identities=ids, events=identities,
                         roster=roster, played=played, previous=previous,
                         listed=set(imported), in_force=in_force, pools=pools,
                         corrections=corrections or {}, assigned=assigned, k_default=k_default)
    notes += _not_listed(result, ratings_list)
    return replace(result, notes=(*notes, *result.notes), previous=previous, imported=imported,
                   replaces=replaces, sources=read_from)


def _pending_notes(keys: Sequence[str], chosen: Sequence[Tournament], *, stored: bool
                   ) -> list[Note]:
    """One note per event rated with games still without a result: which event, how many
    games of which rounds, and (*stored*: a register keeps the month) that its complete
    results replace this rating in a later month."""
    out = []
    for key, t in zip(keys, chosen, strict=True):
        pending = t.pending_games
        if not pending:
            continue
        rounds = sorted({g.round for g in pending})
        which = (f"round {rounds[0]}" if len(rounds) == 1
                 else "rounds " + ", ".join(map(str, rounds)))
        n = len(pending)
        out.append(Note(
            f"{t.info.name or key} ({key}) is not finished: {plural(n, 'game')} of {which} "
            f"{'have' if n != 1 else 'has'} no result yet. It is rated without "
            f"{'them' if n != 1 else 'it'}"
            + (" and kept as incomplete: its complete results, given in a later month, "
               "replace this rating" if stored else "")))
    return out


def _label(src: PeriodSource) -> str:
    return src.source or src.tournament.info.name or "a tournament"


def _rated_before(register: Register, period: date, keys: Sequence[str],
                  chosen: Sequence[Tournament], identities: Sequence[EventIdentity], *,
                  rerate: bool, notes: list[Note]) -> dict[str, date]:
    """The events the register rated in another month: refused, or with *rerate* moved here
    (tournament key → the month that rated it), with a note on the months now stale.  An
    event rated while games were without a result is replaced without *rerate*, with a note."""
    moved: dict[str, date] = {}
    for key, t, identity in zip(keys, chosen, identities, strict=True):
        for month, stored, name, pending in register.rated_events(identity):
            if month == period:
                continue
            title = t.info.name or name or key
            if pending:
                notes.append(Note(
                    f"{title} ({key}): rated in {month:%Y-%m} while {plural(pending, 'game')} had no "
                    f"result; these results replace that rating"))
            elif not rerate:
                raise RatingError(f"{key} ({title}) was already rated in {month:%Y-%m} (as "
                                  f"{stored}); an event is rated once: leave it out of "
                                  f"{period:%Y-%m}, or move its rating here (--rerate)")
            moved[key] = min(month, moved.get(key, month))
    if moved:
        first = min(moved.values())
        stale = [m for m in register.periods() if m >= first and m != period]
        notes.append(grouped(
            f"{len(moved)} event{'s' if len(moved) != 1 else ''} rated before now rated in "
            f"{period:%Y-%m} instead; the lists computed for "
            f"{', '.join(f'{m:%Y-%m}' for m in stale)} counted "
            f"{'them' if len(moved) != 1 else 'it'} and are now stale: run those months again",
            [f"{k} (was {m:%Y-%m})" for k, m in moved.items()]))
    return moved


def _not_listed(result: PeriodResult,
                ratings_list: FideList | Mapping[tuple[str, RatingList], Standing] | None
                ) -> list[Note]:
    """One note on the players rated in the tournaments whom no list gives: their tournament
    rating is the base."""
    rated = [p for p in result.players if p.old_rating is not None]
    off = [p for p in rated if p.rating_from is RatingFrom.SOURCE]
    if not off:
        return []
    off.sort(key=lambda p: (p.name.casefold(), p.where))
    names = [f"{p.name} ({p.where})" for p in off]
    if ratings_list is None:
        return [Note(f"no FIDE list was given or stored for {month_add(result.period, -1):%Y-%m}: "
                     f"the tournaments' own ratings are the base of all {len(off)} rated players")]
    if isinstance(ratings_list, Mapping):
        where = "the previous list given"
    elif ratings_list.format == "register":
        where = f"the FIDE list of {ratings_list.list_date:%Y-%m} in the register"
    else:
        name = PurePosixPath(ratings_list.source.replace("\\", "/")).name or ratings_list.source
        n = ratings_list.size
        where = f"{name} ({n} player{'s' if n != 1 else ''}"
        where += "): is it FIDE's full list?" if 2 * len(off) > len(rated) else ")"
    head = (f"{len(off)} of {len(rated)} players rated in the tournaments are not on {where} "
            "Their tournament rating is the base")
    return [grouped(head, names, [p.key for p in off])]


def _register_list(register: Register, period: date, ids: set[str], federations: set[str],
                   notes: list[Note]) -> FideList | None:
    """The FIDE list stored in the register for the previous month (or the newest before it),
    unless the register computed a later list itself: these players, and every player of
    these federations (to find players without an id by name)."""
    fl = register.list_in_force(month_add(period, -1), ids, federations=federations)
    computed = register.newest_period(before=period)
    if fl is None or fl.list_date is None or (computed is not None and fl.list_date < computed):
        return None
    notes.append(Note(f"ratings and K from the FIDE list of {fl.list_date:%Y-%m} in the register"))
    return fl


def tournament_key(source: str, t: Tournament, taken: set[str]) -> str:
    """A short unique id for a tournament: its chess-results number, FIDE event id or file name."""
    raw = t.info.id or t.info.fide_event_id or PurePosixPath(source.rstrip("/")).stem or t.info.name
    key = re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-.") or "tournament"
    unique, n = key, 2
    while unique in taken:
        unique, n = f"{key}-{n}", n + 1
    return unique


def standings(fl: FideList, keys: set[str], prev: date, notes: list[Note]
              ) -> dict[tuple[str, RatingList], Standing]:
    """Each player's standing on the previous list, per rating list, from the FIDE download."""
    if fl.list_date is not None and fl.list_date != prev:
        notes.append(Note(f"{fl.source}: the list of {fl.list_date:%Y-%m}, used as the previous "
                          f"list ({prev:%Y-%m})"))
    out: dict[tuple[str, RatingList], Standing] = {}
    for key, e in fl.entries(keys).items():
        for rl in LISTS:
            if str(rl) in fl.lists:
                out[(key, rl)] = Standing(rating=e.rating(rl), k=e.k(rl), birth_year=e.birth_year,
                                          inactive=e.inactive)
    return out


def _merge(register: Mapping[tuple[str, RatingList], Standing],
           imported: Mapping[tuple[str, RatingList], Standing]
           ) -> dict[tuple[str, RatingList], Standing]:
    """The list's rating and K win; the register adds games played and the 2400 history."""
    merged = dict(register)
    for key, st in imported.items():
        old = register.get(key)
        if old is None:
            merged[key] = st
            continue
        merged[key] = replace(st, games_total=old.games_total, last_played=old.last_played,
                              reached_2400=old.reached_2400 or st.reached_2400,
                              birth_year=st.birth_year or old.birth_year)
    return merged
