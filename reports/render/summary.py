"""The one-screen import summary printed on stderr."""

from __future__ import annotations

from collections import Counter

from importer.model import DateSource, GameResult, Status, Tournament, TournamentInfo
from rating.notes import plural
from reports.render import fmt

__all__ = ["FROM_WORDS", "dates_line", "live_round", "rounds_with_results",
           "summary_lines"]

FROM_WORDS = {DateSource.DETAILS: "from the tournament details",
              DateSource.ROUND_DATES: "from the round dates",
              DateSource.TITLE: "from the tournament name"}
"""Where an event's dates were read, in words."""

MAX_WARNINGS = 10

_FORFEITS = frozenset({GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN,
                       GameResult.DOUBLE_FORFEIT})

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


def _counts(t: Tournament) -> tuple[str, str]:
    """Games counted as boards, and the other outcomes as player-rounds."""
    status = {(r.start_no, r.round): r.status for r in t.results}
    unplayed = sum(1 for g in t.games if status.get((g.white_no, g.round)) is Status.UNPLAYED)
    results = Counter(g.result for g in t.games)
    played = sum(results[r] for r in (GameResult.WHITE_WIN, GameResult.BLACK_WIN,
                                      GameResult.DRAW)) - unplayed
    games = [f"{played} played", f"{results[GameResult.PENDING]} pending",
             f"{sum(results[r] for r in _FORFEITS)} forfeited"]
    if unplayed:
        games.append(f"{unplayed} of less than one move")
    counts = Counter(r.status for r in t.results)
    rounds = [plural(counts[Status.BYE], "bye"), plural(counts[Status.HALF_BYE], "half-point bye"),
              plural(counts[Status.ABSENT], "absence")]
    if counts[Status.UNKNOWN]:
        rounds.append(f"{counts[Status.UNKNOWN]} unknown (not on the pages)")
    games_text = f"{plural(len(t.games), 'game')} ({', '.join(games)})"
    return games_text, "player-rounds without a game: " + ", ".join(rounds)


def summary_lines(t: Tournament, *, warnings: bool = True) -> list[str]:
    """Name, dates and where they come from, rounds, players, games (boards) and other
    player-rounds, and the warnings (unless the caller prints them itself, as the report's
    notes do)."""
    i = t.info
    dates = dates_line(i)
    rounds = i.rounds or t.rounds_seen
    rated = sum(1 for p in t.players if p.rating is not None)
    unknown = sum(1 for p in t.players if not p.rating_known)
    games, others = _counts(t)
    lines = [
        f"{i.name or 'Unnamed tournament'}" + (f" (id {i.id})" if i.id else ""),
        f"  {dates}; {i.system.value.replace('_', ' ')}; "
        f"{(i.rating_list.value if i.rating_list else 'list not stated')}; "
        f"{plural(rounds, 'round')} ({rounds_with_results(t)} with results"
        + (f", round {live} in progress)" if (live := live_round(t)) is not None else ")"),
        f"  {plural(len(t.players), 'player')} ("
        + ("ratings unknown" if t.players and unknown == len(t.players)
           else f"{rated} rated" + (f", {unknown} with the rating unknown" if unknown else ""))
        + f"); {games}",
        f"  {others}",
    ]
    if t.focus is not None:
        p = t.player(t.focus)
        lines.append(f"  focus: No. {t.focus} {p.name if p else '(not in the player list)'}")
    if warnings and t.warnings:
        lines.append(f"  {plural(len(t.warnings), 'warning')}:")
        lines += fmt.first_few([f"- {w}" for w in t.warnings], MAX_WARNINGS, indent="    ")
    return lines
