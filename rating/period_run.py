"""A rating officer's month as one library call: :func:`run_period`.

Chooses the tournaments of the list month, reads the previous FIDE list and the register,
rates with :func:`rating.period.rate_period` and returns typed records; writing files and
the register is the caller's (``fiderate period`` does both in one atomic step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from importer.model import RatingList, Tournament
from rating.errors import RatingError
from rating.period import LISTS, month_add, player_key, rate_period
from rating.period_records import PeriodResult, Standing

if TYPE_CHECKING:
    from importer.fidelist import FideList
    from rating.register import Register

__all__ = ["PeriodSource", "check_month", "run_period"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodSource:
    """A tournament offered to a period, with where it came from."""

    tournament: Tournament
    source: str = ""
    """The file or link it was read from (for its key and the notes)."""
    month: date | None = None
    """The list month it is assigned to (None: the month its dates give)."""


_MONTH_TEXT = re.compile(r"(\d{4})-(\d{2})")


def parse_month(text: str) -> date | None:
    """``YYYY-MM`` (blanks around allowed) as the first day of that month; None if it is not
    one (month 13, year 0000, other shapes)."""
    m = _MONTH_TEXT.fullmatch(text.strip())
    if not m or not 1 <= int(m.group(2)) <= 12 or int(m.group(1)) < 1:
        return None
    return date(int(m.group(1)), int(m.group(2)), 1)


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
               replace_older: bool = False, k_default: int = 20,
               today: date | None = None) -> PeriodResult:
    """Rate every tournament of the list month *period* (the 1st of a month).

    ``ratings_list`` is the previous FIDE list (base ratings, K, birth years, the inactive
    flag): FIDE's download as read by :func:`importer.fidelist.read_fide_list`, or standings
    per (player key, list); with it, a player not on the list is unrated.  Without it, the
    list stored in the register for the previous month is used (``fiderate list import``).  ``register`` adds
    what earlier periods computed (games played, the 2400 history, pooled games of unrated
    players) and is only read here.  Tournaments assigned to another month, or of another
    list than ``only_list``, are left out with a note.  ``corrections`` replace base ratings
    (FIDE id → rating).  RatingError for a period that is not a real month, or older than the
    register's newest without ``replace_older``.
    """
    check_month(period, today=today)
    if register is not None:
        register.check_period(period, replace=replace_older)
    notes: list[str] = []
    chosen: list[Tournament] = []
    keys: list[str] = []
    assigned: set[str] = set()
    for item in tournaments:
        src = item if isinstance(item, PeriodSource) else PeriodSource(tournament=item)
        t, name = src.tournament, src.source or src.tournament.info.name or "a tournament"
        if src.month is not None and src.month != period:
            notes.append(f"{name}: assigned to {src.month:%Y-%m}; not rated in {period:%Y-%m}")
            continue
        rl = t.info.rating_list or RatingList.STANDARD
        if only_list is not None and rl is not only_list:
            notes.append(f"{name}: a {rl} tournament; left out (only {only_list} is rated)")
            continue
        chosen.append(t)
        keys.append(tournament_key(src.source, t, set(keys)))
        if src.month is not None:
            assigned.add(keys[-1])
    pkeys = {player_key(p)[0] for t in chosen for p in t.players}
    if ratings_list is None and register is not None:
        ratings_list = _register_list(register, period, pkeys, notes)
    imported = (dict(ratings_list) if isinstance(ratings_list, Mapping)
                else standings(ratings_list, pkeys, month_add(period, -1), notes)
                if ratings_list is not None else {})
    previous: dict[tuple[str, RatingList], Standing] = dict(imported)
    in_force = {}
    pools = {}
    if register is not None:
        previous = _merge(register.previous(pkeys, period), imported)
        months = {t.info.start_date.replace(day=1) for t in chosen if t.info.start_date}
        in_force = {m: register.ratings_on(m, pkeys) for m in months if m < month_add(period, -1)}
        pools = register.pools(pkeys, period)
    result = rate_period(chosen, period, keys=keys, previous=previous, in_force=in_force,
                         pools=pools, corrections=corrections or {},
                         list_complete=ratings_list is not None, assigned=assigned,
                         k_default=k_default)
    return replace(result, notes=(*notes, *result.notes), previous=previous, imported=imported)


def _register_list(register: Register, period: date, keys: set[str], notes: list[str]
                   ) -> FideList | None:
    """The FIDE list stored in the register for the previous month (or the newest before it),
    unless the register computed a later list itself."""
    fl = register.list_in_force(month_add(period, -1), keys)
    computed = register.newest_period(before=period)
    if fl is None or fl.list_date is None or (computed is not None and fl.list_date < computed):
        return None
    notes.append(f"ratings and K from the FIDE list of {fl.list_date:%Y-%m} in the register")
    return fl


def tournament_key(source: str, t: Tournament, taken: set[str]) -> str:
    """A short unique id for a tournament: its chess-results number, FIDE event id or file name."""
    raw = t.info.id or t.info.fide_event_id or PurePosixPath(source.rstrip("/")).stem or t.info.name
    key = re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip("-.") or "tournament"
    unique, n = key, 2
    while unique in taken:
        unique, n = f"{key}-{n}", n + 1
    return unique


def standings(fl: FideList, keys: set[str], prev: date, notes: list[str]
              ) -> dict[tuple[str, RatingList], Standing]:
    """Each player's standing on the previous list, per rating list, from the FIDE download."""
    if fl.list_date is not None and fl.list_date != prev:
        notes.append(f"{fl.source}: the list of {fl.list_date:%Y-%m}, used as the previous list "
                     f"({prev:%Y-%m})")
    out: dict[tuple[str, RatingList], Standing] = {}
    for key in keys:
        e = fl.get(key) if key.isdigit() else None
        if e is None:
            continue
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
