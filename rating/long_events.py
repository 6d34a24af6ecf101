"""Events longer than a rating period: each game on the rating list in force when it was played.

FIDE publishes a rating list on the first day of every month, and "the rating period is the
period where a certain rating list is valid" (Rating Regulations 7.1, 7.1.1; monthly since
2012, :func:`rating.period.months.list_in_force`).  An event of more than 30 days counts, for
each game, the ratings in force when that game was played (Title Regulations 1.1.4, the norm
rules' ``long_event_days``; the project's spec, ``fide-rules.md`` §9, reads the Rating
Regulations, silent on such events, the same way).  So the games of a long event fall into
slices, one per list month, by the date of their round: :func:`list_month` assigns one game,
:func:`list_slices` groups a player's games.

This is the only place that decides which list a game of a long event belongs to.  It does
not decide on which list FIDE rates the event as a whole (the spec: "A tournament is rated
as a whole in one period … not split by game date"; that is :mod:`rating.period`'s).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from importer.model import Tournament
from rating.norms import rounds_words
from rating.period.months import list_in_force
from rating.systems.fide_rules import norm_rules_for

__all__ = ["ARTICLE", "ListSlice", "is_long_event", "list_month", "list_slices"]

ARTICLE = "Title Regulations 1.1.4"
"""The rule: an event of more than 30 days counts the ratings in force when each game was
played."""


@dataclass(frozen=True, slots=True)
class ListSlice:
    """The games of one list month: the rounds played while one rating list was in force."""

    month: date | None
    """The list's first day (None: rounds whose date the source does not show)."""
    rounds: tuple[int, ...]

    @property
    def words(self) -> str:
        """'the March 2026 list: rounds 1–5', 'no date shown: round 9'."""
        said = rounds_words(self.rounds)
        if self.month is None:
            return f"no date shown: {said}"
        return f"the {_MONTHS[self.month.month - 1]} {self.month.year} list: {said}"


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
"""The months' names (never the locale's)."""


def _span(t: Tournament) -> tuple[date | None, date | None]:
    """The event's first and last day: its dates, else its round dates."""
    shown = [d for d in t.info.round_dates if d is not None]
    start = t.info.start_date or (min(shown) if shown else None)
    end = t.info.end_date or (max(shown) if shown else None)
    return start, end


def is_long_event(t: Tournament) -> bool:
    """Whether *t* lasts more than the days after which each game counts the list in force
    when it was played (Title Regulations 1.1.4: 30)."""
    start, end = _span(t)
    if start is None or end is None:
        return False
    return (end - start).days > norm_rules_for(start).long_event_days


def list_month(t: Tournament, round_no: int) -> date | None:
    """The first day of the rating list in force on round *round_no*'s date (Rating
    Regulations 7.1: a list each month, in force from its first day); None when the source
    shows no date for the round."""
    dates = t.info.round_dates
    day = dates[round_no - 1] if 0 < round_no <= len(dates) else None
    return list_in_force(day) if day is not None else None


def list_slices(t: Tournament, start_no: int | None = None) -> tuple[ListSlice, ...]:
    """The games of a long event by the list in force when they were played, in list order
    (rounds without a date last): each round with a game (*start_no*: the rounds in which
    that player had an opponent, forfeits and games to play included; None: every round).
    Empty for an event of 30 days or less (one list counts), or when every game falls in one
    list month."""
    if not is_long_event(t):
        return ()
    if start_no is None:
        rounds = sorted({r.round for r in t.results})
    else:
        rounds = sorted(r.round for r in t.results_of(start_no)
                        if r.status.is_game and r.opponent_no is not None)
    by_month: dict[date | None, list[int]] = {}
    for rd in rounds:
        by_month.setdefault(list_month(t, rd), []).append(rd)
    if len([m for m in by_month if m is not None]) < 2:
        return ()
    order = sorted(by_month, key=lambda m: (m is None, m or date.min))
    return tuple(ListSlice(m, tuple(by_month[m])) for m in order)
