"""A national rating period's files: ``period_<system>_players.csv`` (one row per player),
``period_<system>_events.csv`` (one row per player and event, in the order rated) and
``period_<system>.html``, from :class:`rating.national.NationalPeriod`."""

from __future__ import annotations

from typing import Any

from importer.writing.csvio import render_csv
from rating.national import NationalPeriod
from rating.numbers import to_cent
from reports.render import fmt
from reports.render.html import environment
from reports.render.view import Note

__all__ = ["EVENT_COLUMNS", "PLAYER_COLUMNS", "national_files"]

PLAYER_COLUMNS = ("name", "national_id", "fide_id", "old_rating", "events", "games", "score",
                  "change", "new_rating", "evaluations")
"""``period_<system>_players.csv``: change is exact (two decimals); evaluations is the index
after the period where the system keeps one (DWZ)."""
EVENT_COLUMNS = ("name", "tournament", "start", "rating", "evaluations", "coefficient",
                 "games", "score", "expected", "change", "new_rating", "first_rating")
"""``period_<system>_events.csv``: rating is the one the event was rated on; new_rating
the rating after it when the system rates event by event (DWZ), else empty."""
_TEXT = {"name", "national_id", "fide_id", "tournament", "start"}


def national_files(period: NationalPeriod, month: str) -> dict[str, str]:
    """The period's files by name (nothing written)."""
    s = period.system
    players = [{"name": p.name, "national_id": p.national_id, "fide_id": p.fide_id,
                "old_rating": p.old_rating, "events": p.events, "games": p.games,
                "score": p.score, "change": to_cent(p.change), "new_rating": p.new_rating,
                "evaluations": p.evaluations} for p in period.players]
    events = [{"name": e.name, "tournament": e.tournament,
               "start": e.start.isoformat() if e.start else "", "rating": e.rating,
               "evaluations": e.evaluations, "coefficient": e.coefficient, "games": e.games,
               "score": e.score, "expected": e.expected, "change": to_cent(e.change),
               "new_rating": e.new_rating, "first_rating": e.first_rating}
              for e in period.steps]
    return {
        f"period_{s}_players.csv": render_csv(PLAYER_COLUMNS, players, numeric=[
            c for c in PLAYER_COLUMNS if c not in _TEXT]),
        f"period_{s}_events.csv": render_csv(EVENT_COLUMNS, events, numeric=[
            c for c in EVENT_COLUMNS if c not in _TEXT]),
        f"period_{s}.html": _page(period, month, players, events),
    }


def _page(period: NationalPeriod, month: str, players: list[dict[str, Any]],
          events: list[dict[str, Any]]) -> str:
    label = period.label
    how = ("each tournament rated on the rating the one before it left, in the order the "
           "tournaments ended" if period.per_tournament else
           "every tournament of the month rated on the month's rating, the changes summed "
           "and rounded once")
    n = len({e["tournament"] for e in events})
    return environment().get_template("national_period.html").render(
        label=label, system=period.system, month=month, how=how, root="", site=None,
        state={"stage": f"{label} rating period {month}: {n} tournament{'s' if n != 1 else ''}",
               "as_of": how, "live": False},
        players=[{**p, "change_text": fmt.signed(p["change"]), "score_text": fmt.points(p["score"])}
                 for p in players],
        events=[{**e, "change_text": fmt.signed(e["change"]), "score_text": fmt.points(e["score"])}
                for e in events],
        notes=[Note(text) for text in period.notes])
