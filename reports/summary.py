"""The one-screen import summary printed on stderr."""

from __future__ import annotations

from collections import Counter

from importer.model import GameResult, Status, Tournament

__all__ = ["plural", "summary_lines"]

MAX_WARNINGS = 10

_FORFEITS = frozenset({GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN,
                       GameResult.DOUBLE_FORFEIT})


def plural(n: int, word: str, many: str = "") -> str:
    """'1 bye', '3 byes', '2 absences' (*many* when the plural is not word + 's')."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


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
    """Name, dates, rounds, players, games (boards) and other player-rounds, and the warnings
    (unless the caller prints them itself, as the report's notes do)."""
    i = t.info
    dates = " – ".join(d.isoformat() for d in (i.start_date, i.end_date) if d) or "dates unknown"
    rounds = i.rounds or t.rounds_seen
    rated = sum(1 for p in t.players if p.rating is not None)
    games, others = _counts(t)
    lines = [
        f"{i.name or 'Unnamed tournament'}" + (f" (id {i.id})" if i.id else ""),
        f"  {dates}; {i.system.value.replace('_', ' ')}; "
        f"{(i.rating_list.value if i.rating_list else 'list not stated')}; "
        f"{plural(rounds, 'round')} ({t.rounds_seen} with results)",
        f"  {plural(len(t.players), 'player')} ({rated} rated); {games}",
        f"  {others}",
    ]
    if t.focus is not None:
        p = t.player(t.focus)
        lines.append(f"  focus: No. {t.focus} {p.name if p else '(not in the player list)'}")
    if warnings and t.warnings:
        lines.append(f"  {plural(len(t.warnings), 'warning')}:")
        lines += [f"    - {w}" for w in t.warnings[:MAX_WARNINGS]]
        if len(t.warnings) > MAX_WARNINGS:
            lines.append(f"    … and {len(t.warnings) - MAX_WARNINGS} more")
    return lines
