"""A rating officer's month from its events: the one path ``fiderate period`` and the web
server's period page share (the FIDE list read for the events' players, the month rated with
the register, the notes of sources and list first)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from importer.events import Event, Events
from importer.fidelist import FideList, read_fide_list
from rating.identity import wanted_on_list
from rating.notes import Note
from rating.period_records import PeriodResult
from rating.period_run import PeriodSource, run_period
from rating.register import Register
from reports.errors import ReportError
from reports.report import list_warnings

__all__ = ["Month", "rate_month"]


@dataclass(frozen=True, slots=True)
class Month:
    """A rated month and the FIDE list it was rated with (None: the register's)."""

    result: PeriodResult
    fide_list: FideList | None


def rate_month(found: Events, *, period: date, ratings_list: str | os.PathLike[str] | None,
               register: Register | None, month_of: Callable[[Event], date | None] | None = None,
               **options: Any) -> Month:
    """Rate the month *period* of the events *found*: *ratings_list* a FIDE download (only
    the events' players read), *month_of* the month an event is assigned to (None: its own),
    *options* those of :func:`rating.period_run.run_period`.  ReportError when no event of the
    month has a game: nothing is written, and the register is unchanged."""
    fide_list = None
    notes = [Note(w.message) for w in found.notes]
    if ratings_list is not None:
        ids, federations = wanted_on_list(e.tournament for e in found.events)
        fide_list = read_fide_list(ratings_list, fide_ids=ids, federations=federations)
        notes += map(Note, list_warnings(fide_list.warnings))
    offered = [PeriodSource(tournament=e.tournament, source=e.label,
                            month=month_of(e) if month_of else None) for e in found.events]
    result = run_period(offered, period=period, ratings_list=fide_list, register=register,
                        **options)
    if not result.players:
        raise ReportError(f"nothing to rate in {period:%Y-%m}: no tournament of the month has "
                          "a game (nothing written, the register is unchanged)")
    return Month(replace(result, notes=(*notes, *result.notes)), fide_list)
