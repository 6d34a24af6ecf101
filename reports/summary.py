"""The one-screen import summary printed on stderr."""

from __future__ import annotations

from collections import Counter

from importer.model import DateSource, Status, Tournament, TournamentInfo

__all__ = ["FROM_WORDS", "dates_line", "live_round", "rounds_with_results", "summary_lines"]

FROM_WORDS = {DateSource.DETAILS: "from the tournament details",
              DateSource.ROUND_DATES: "from the round dates",
              DateSource.TITLE: "from the tournament name"}
"""Where an event's dates were read, in words."""

MAX_WARNINGS = 10


_GAME_DONE = frozenset({Status.PLAYED, Status.FORFEIT_WIN, Status.FORFEIT_LOSS, Status.UNPLAYED})


def rounds_with_results(t: Tournament) -> int:
    """How many rounds have at least one finished game (played, forfeited, under one move)."""
    return len({r.round for r in t.results if r.status in _GAME_DONE})


def live_round(t: Tournament) -> int | None:
    """The first round paired but unfinished (a game without its result), or None."""
    return min((r.round for r in t.results if r.status is Status.PENDING), default=None)


def dates_line(i: TournamentInfo) -> str:
    """'dates 2026-08-01 – 2026-08-09 (from the round dates)'; 'last updated 2019-06-10 (no
    event date: it started on or before then)'; 'no date'."""
    if i.start_date is None:
        return "no date"
    if i.date_source is DateSource.LAST_UPDATE:
        return (f"last updated {i.start_date.isoformat()} (no event date: it started on or "
                "before then)")
    days = [i.start_date] + ([i.end_date] if i.end_date and i.end_date != i.start_date else [])
    where = FROM_WORDS.get(i.date_source)
    return (f"date{'s' if len(days) > 1 else ''} " + " – ".join(d.isoformat() for d in days)
            + (f" ({where})" if where else ""))


def summary_lines(t: Tournament) -> list[str]:
    """Name, dates and where they come from, rounds, players, games played / forfeits /
    byes, warnings."""
    i = t.info
    dates = dates_line(i)
    counts = Counter(r.status for r in t.results)
    played = sum(1 for g in t.games if g.result.value in ("1-0", "0-1", "1/2-1/2"))
    pending = sum(1 for g in t.games if not g.result.value)
    forfeits = counts[Status.FORFEIT_WIN] + counts[Status.FORFEIT_LOSS]
    byes = counts[Status.BYE] + counts[Status.HALF_BYE]
    rounds = i.rounds or t.rounds_seen
    rated = sum(1 for p in t.players if p.rating is not None)
    lines = [
        f"{i.name or 'Unnamed tournament'}" + (f" (id {i.id})" if i.id else ""),
        f"  {dates}; {i.system.value.replace('_', ' ')}; "
        f"{(i.rating_list.value if i.rating_list else 'list not stated')}; "
        f"{rounds} round{'s' if rounds != 1 else ''} ({rounds_with_results(t)} with results"
        + (f", round {live} in progress)" if (live := live_round(t)) is not None else ")"),
        f"  {len(t.players)} players ({rated} rated); {played} games played, {pending} pending, "
        f"{forfeits} forfeits, {byes} byes, {counts[Status.ABSENT]} absences, "
        f"{counts[Status.UNPLAYED]} unplayed (<1 move)",
    ]
    if t.focus is not None:
        p = t.player(t.focus)
        lines.append(f"  focus: No. {t.focus} {p.name if p else '(not in the player list)'}")
    if t.warnings:
        lines.append(f"  {len(t.warnings)} warning{'s' if len(t.warnings) != 1 else ''}:")
        lines += [f"    - {w}" for w in t.warnings[:MAX_WARNINGS]]
        if len(t.warnings) > MAX_WARNINGS:
            lines.append(f"    … and {len(t.warnings) - MAX_WARNINGS} more")
    return lines
