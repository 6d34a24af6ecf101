"""A rating officer's month from its events: the one path ``fiderate period`` and the web
server's period page share (the FIDE list read for the events' players, the month rated with
the register, the notes of sources and list first).

FIDE's calculations pages given beside the tournaments are a check, not events: each event
of a page that a given tournament holds (:func:`importer.identity.shows_games_of`: the same
FIDE event id, else the player in it with each game the page shows) is rated from that
tournament and FIDE's
figures are compared with ours (:func:`rating.period.fide_check.check_fide_page`); an event no
tournament holds is rated from the page itself, with a note."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from importer.events import Event, Events
from importer.formats.fidelist import FideList, read_fide_list
from importer.identity import shows_games_of
from importer.sources import FidePage, display_name
from rating.notes import Note
from rating.period.fide_check import FideCheck, check_fide_page
from rating.period.identity import wanted_on_list
from rating.period.records import PeriodResult
from rating.period.register import Register
from rating.period.run import PeriodSource, run_period
from reports.errors import ReportError
from reports.render import fmt

__all__ = ["Month", "rate_month"]


@dataclass(frozen=True, slots=True)
class Month:
    """A rated month, the FIDE list it was rated with (None: the register's) and the checks
    against FIDE's calculations pages given."""

    result: PeriodResult
    fide_list: FideList | None
    fide_checks: tuple[FideCheck, ...] = ()


def _named_by_file(page: FidePage) -> FidePage:
    """*page* named by its file name alone: the period's pages are published."""
    name = display_name(page.source)
    return replace(page, source=name, calculation=replace(page.calculation, source=name))


def _split(found: Events) -> tuple[list[Event], list[tuple[FidePage, list[Event]]], list[Note]]:
    """The events to rate, each FIDE page with the event holding each of its events, and
    the notes about events rated from a page."""
    from_pages = {id(t) for page in found.fide_pages for t in page.tournaments}
    given = [e for e in found.events if id(e.tournament) not in from_pages]
    rated: list[Event] = list(given)
    checks: list[tuple[FidePage, list[Event]]] = []
    notes: list[Note] = []
    for page in map(_named_by_file, found.fide_pages):
        holders: list[Event] = []
        for shown in page.tournaments:
            holder = next((e for e in given
                           if shows_games_of(e.tournament, shown.players[0], shown)), None)
            if holder is None:
                holder = Event.of(shown, [page.source])
                rated.append(holder)
                notes.append(Note(
                    f"{page.source}: no tournament given holds {shown.info.name}: it is rated "
                    f"from FIDE's page, which shows only {shown.players[0].name}'s games: the "
                    "opponents' ratings are those FIDE used (a capped one is the player's ± "
                    "400) and their own changes count this one game each"))
            holders.append(holder)
        checks.append((page, holders))
    return rated, checks, notes


def _checks(result: PeriodResult, pages: list[tuple[FidePage, list[Event]]]
            ) -> tuple[FideCheck, ...]:
    out = []
    keys = {id(spec.tournament): spec.key for spec in result.tournaments}
    for page, holders in pages:
        events = {i: keys[id(e.tournament)] for i, e in enumerate(holders)
                  if id(e.tournament) in keys}
        own = {i for i, e in enumerate(holders)
               if any(e.tournament is t for t in page.tournaments)}
        out.append(check_fide_page(page.calculation, result, events, from_page=own))
    return tuple(out)


def rate_month(found: Events, *, period: date, ratings_list: str | os.PathLike[str] | None,
               register: Register | None, month_of: Callable[[Event], date | None] | None = None,
               **options: Any) -> Month:
    """Rate the month *period* of the events *found*: *ratings_list* a FIDE download (only
    the events' players read), *month_of* the month an event is assigned to (None: its own),
    *options* those of :func:`rating.period.run.run_period`.  ReportError when no event of the
    month has a game: nothing is written, and the register is unchanged."""
    fide_list = None
    notes = [Note(w.message) for w in found.notes]
    if ratings_list is not None:
        ids, federations = wanted_on_list(e.tournament for e in found.events)
        fide_list = read_fide_list(ratings_list, fide_ids=ids, federations=federations)
        notes += map(Note, fmt.list_warnings(fide_list.warnings))
    events, pages, page_notes = _split(found)
    offered = [PeriodSource(tournament=e.tournament, source=e.label, apart=e.apart,
                            counted=tuple(map(display_name, e.counted)),
                            month=month_of(e) if month_of else None) for e in events]
    result = run_period(offered, period=period, ratings_list=fide_list, register=register,
                        **options)
    if not result.players:
        raise ReportError(f"nothing to rate in {period:%Y-%m}: no tournament of the month has "
                          "a game (nothing written, the register is unchanged)")
    checks = _checks(result, pages)
    page_notes += [Note(f"{page.source} is FIDE's calculation of {page.calculation.period:%Y-%m}, "
                        f"not of {period:%Y-%m}: its figures may not be this month's")
                   for page, _ in pages if page.calculation.period not in (None, period)]
    for check in checks:
        about = [check.key] if check.key else []
        page_notes += [Note(text, about) for text in (check.summary, *check.notes)]
        page_notes += [Note(f"{check.name}: {d.tournament or 'the period'}"
                            f"{', ' + d.game if d.game else ''}: {d.figure} {d.fide} on FIDE's "
                            f"page, {d.ours} here", about) for d in check.differences]
    return Month(replace(result, notes=(*notes, *page_notes, *result.notes)), fide_list, checks)
