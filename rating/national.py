"""National ratings beside FIDE: which system a source's national column holds, a national
list filled in, and a national rating period.

A source has one national rating column (chess-results' ``RtgN``/``DWZ``/``ELO nat.``).  It
is read as a national system's rating when the source names that system (its rating
calculation, its federation) or names none; when it names another (a Turkish event's UKD
asked as DWZ) the column is not that system's, and only a national list gives ratings.  A
national list (the DSB's, the ECF's) fills in what the source leaves out: the rating of a
player the source shows without one, the index (DWZ's number of evaluations), the birth
year.  The source's own rating stands where it shows one: it is the rating the event was
played on.

A **national period** rates several events for one system the way its federation does:
each tournament on the ratings the one before left (``per_tournament``: DWZ, in the order
the events ended), or a month's tournaments together on the month's ratings, rounded once
(ECF, UKD).  Every event is rated by the system's own rules (:func:`rating.tournament.
rate_tournament`); a player is the same person across events by :mod:`importer.identity`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from importer.formats.nationallist import NationalEntry, NationalList
from importer.identity import NationalIndex, find_on_national_list, national_person_key
from importer.model import Player, Tournament
from rating.results import ZERO
from rating.systems import registry
from rating.systems.base import RatingSystem
from rating.tournament import rate_tournament

__all__ = ["NationalPeriod", "NationalPlayer", "NationalStep", "named_beside",
           "national_tournament", "rate_national_period"]


def _others(system: RatingSystem, on: date) -> list[RatingSystem]:
    settings = registry.Settings(on=on)
    built = (registry.build(name, settings) for name in registry.names() if name != system.name)
    return [s for s in built if s.national]


def _column_is_own(t: Tournament, system: RatingSystem, on: date) -> tuple[bool, str]:
    """Whether the source's national column holds *system*'s rating, and a note when that
    is a reading, not what the source says."""
    shown = any(p.national_rating is not None for p in t.players)
    if system.applies(t.info) or not shown:
        return True, ""
    other = next((s for s in _others(system, on) if s.applies(t.info)), None)
    if other is not None:
        return False, (f"the source's national ratings are {other.label}, not {system.label}: "
                       f"{system.label} ratings come from a {system.label} list only")
    return True, (f"the source does not say which national rating it shows: its national "
                  f"ratings are read as {system.label}")


def named_beside(t: Tournament, settings: registry.Settings,
                 listed: Callable[[RatingSystem], bool]) -> list[RatingSystem]:
    """The national systems *t*'s source names (:func:`rating.systems.registry.beside`) that have
    figures to show: national ratings in the source, or a national list (*listed*)."""
    shown = any(p.national_rating is not None for p in t.players)
    return [s for s in registry.beside(t.info, settings) if shown or listed(s)]


def national_tournament(t: Tournament, system: RatingSystem, listed: NationalList | None,
                        *, on: date) -> tuple[Tournament, tuple[str, ...]]:
    """*t* as *system* sees it (see the module docstring): its players' national ratings,
    index and birth years, from the source and *listed*; the notes say what was read how."""
    own, note = _column_is_own(t, system, on)
    notes = [note] if note else []
    players = list(t.players) if own else [
        replace(p, national_rating=None, national_evaluations=None) for p in t.players]
    if listed is not None:
        players, said = _filled(players, listed, system.label)
        notes += said
    changed = any(a is not b for a, b in zip(players, t.players, strict=True))
    return (replace(t, players=tuple(players)) if changed else t), tuple(notes)


def _filled(players: Sequence[Player], listed: NationalList, label: str
            ) -> tuple[list[Player], list[str]]:
    index = NationalIndex(listed.entries)
    out: list[Player] = []
    found = rated = indexed = differ = 0
    for p in players:
        entry, _how = find_on_national_list(p, index)
        if entry is None:
            out.append(p)
            continue
        found += 1
        rating = p.national_rating if p.national_rating is not None else entry.rating
        rated += p.national_rating is None and entry.rating is not None
        differ += (p.national_rating is not None and entry.rating is not None
                   and p.national_rating != entry.rating)
        evaluations = (p.national_evaluations if p.national_evaluations is not None
                       else entry.evaluations)
        indexed += p.national_evaluations is None and entry.evaluations is not None
        out.append(replace(p, national_rating=rating, national_evaluations=evaluations,
                           birth_year=p.birth_year or entry.birth_year,
                           national_id=p.national_id or entry.national_id))
    what = _list_name(listed, label)
    notes = [f"{found} of {len(players)} players found on {what}"
             + (f": the rating of {rated} taken from it" if rated else "")
             + (f"; the index of {indexed}" if indexed else "")]
    if differ:
        notes.append(f"{differ} players' {label} in the source differs from {what}: the "
                     "source's (the rating the event was played on) is used")
    return out, notes


def _list_name(listed: NationalList, label: str) -> str:
    month = f" of {listed.published:%Y-%m}" if listed.published else ""
    source = f" ({listed.source})" if listed.source else ""
    return f"the {label} list{month}{source}"


# --- the national period ---

@dataclass(frozen=True, slots=True, kw_only=True)
class NationalStep:
    """One player's one event in a national period."""

    key: str
    """Who the player is across events (:func:`importer.identity.national_person_key`)."""
    name: str
    tournament: str
    start: date | None
    rating: int | None
    """The rating the event was rated on (after the events before it, per tournament)."""
    evaluations: int | None
    coefficient: int | None
    """The system's K (DWZ: its development coefficient E)."""
    games: int
    score: Decimal
    expected: Decimal
    change: Decimal
    """Exact, unrounded."""
    new_rating: int | None
    """After this event (per tournament); None in a month rated as one."""
    first_rating: int | None = None
    """A first rating given by this event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NationalPlayer:
    """One player's national period: the rating before and after."""

    key: str
    name: str
    national_id: str
    fide_id: str
    old_rating: int | None
    new_rating: int | None
    evaluations: int | None
    """The index after the period (DWZ), where known."""
    events: int
    games: int
    score: Decimal
    change: Decimal
    """Exact: the sum of the events' changes."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NationalPeriod:
    """A national rating period of one system."""

    system: str
    label: str
    per_tournament: bool
    steps: tuple[NationalStep, ...]
    players: tuple[NationalPlayer, ...]
    notes: tuple[str, ...]


@dataclass(slots=True)
class _State:
    name: str
    national_id: str
    fide_id: str
    old: int | None
    rating: int | None
    evaluations: int | None
    events: int = 0
    games: int = 0
    score: Decimal = Decimal(0)
    change: Decimal = ZERO


def _order(t: Tournament) -> tuple[date, date, str]:
    """Events in the order they ended (then started, then by name); undated last."""
    info = t.info
    end = info.end_date or info.start_date or date.max
    return end, info.start_date or date.max, info.name


def rate_national_period(tournaments: Sequence[Tournament], system: RatingSystem, *,
                         listed: NationalList | None = None, on: date,
                         k_default: int = 20) -> NationalPeriod:
    """Rate *tournaments* as *system*'s period (see the module docstring); *on* dates an
    event without a date of its own."""
    per_tournament = system.per_tournament
    order = sorted(tournaments, key=_order)
    states: dict[str, _State] = {}
    steps: list[NationalStep] = []
    notes: list[str] = []
    index = NationalIndex(listed.entries) if listed is not None else None
    for t in order:
        seen, said = national_tournament(t, system, listed, on=t.info.start_date or on)
        notes += [f"{t.info.name}: {n}" for n in said]
        keys = {p.start_no: national_person_key(p, _entry(p, index)) for p in seen.players}
        if per_tournament:  # rated on what the events before left
            seen = replace(seen, players=tuple(_current(p, states.get(keys[p.start_no]))
                                               for p in seen.players))
        rated = rate_tournament(seen, system, k_default=k_default, on=on)
        notes += [f"{t.info.name}: {n}" for n in rated.notes]
        for p in seen.players:
            pr = rated.player(p.start_no)
            if pr is None:
                continue
            key = keys[p.start_no]
            state = states.get(key)
            if state is None:
                state = states[key] = _State(p.name, p.national_id, p.fide_id, pr.rating,
                                             pr.rating, p.national_evaluations)
            first = pr.initial.value if (pr.initial is not None and pr.initial.published
                                         and pr.rating is None) else None
            if pr.rated_games == 0 and first is None:
                continue
            new = pr.new_rating if per_tournament else None
            steps.append(NationalStep(
                key=key, name=p.name, tournament=t.info.name, start=t.info.start_date,
                rating=pr.rating, evaluations=p.national_evaluations, coefficient=pr.k,
                games=pr.rated_games, score=pr.score, expected=pr.expected,
                change=pr.change, new_rating=new, first_rating=first))
            state.events += 1
            state.games += pr.rated_games
            state.score += pr.score
            state.change += pr.change
            if per_tournament:
                state.rating = new if new is not None else first
                state.evaluations = _evaluated(state.evaluations, first)
            elif state.rating is None and first is not None:
                state.rating, state.evaluations = first, 1
    players = tuple(_player(key, s, system, per_tournament) for key, s in states.items()
                    if s.events)
    return NationalPeriod(system=system.name, label=system.label, per_tournament=per_tournament,
                          steps=tuple(steps), players=tuple(sorted(players, key=_by_name)),
                          notes=tuple(dict.fromkeys(notes)))


def _evaluated(before: int | None, first: int | None) -> int | None:
    """The index after one more evaluation: 1 for a first rating, unknown stays unknown."""
    if first is not None:
        return 1
    return None if before is None else before + 1


def _entry(p: Player, index: NationalIndex | None) -> NationalEntry | None:
    return find_on_national_list(p, index)[0] if index is not None else None


def _current(p: Player, state: _State | None) -> Player:
    """*p* with the rating and index an earlier event of the period left."""
    if state is None or state.events == 0:
        return p
    return replace(p, national_rating=state.rating, national_evaluations=state.evaluations)


def _player(key: str, s: _State, system: RatingSystem, per_tournament: bool) -> NationalPlayer:
    if per_tournament or s.old is None:
        new, evaluations = s.rating, s.evaluations
    else:
        new, evaluations = system.new_rating(s.old, s.change), _evaluated(s.evaluations, None)
    return NationalPlayer(key=key, name=s.name, national_id=s.national_id, fide_id=s.fide_id,
                          old_rating=s.old, new_rating=new, evaluations=evaluations,
                          events=s.events, games=s.games, score=s.score, change=s.change)


def _by_name(p: NationalPlayer) -> tuple[str, str]:
    return p.name.casefold(), p.key
