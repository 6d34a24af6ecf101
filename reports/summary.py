"""The one-screen import summary printed on stderr."""

from __future__ import annotations

from collections import Counter

from importer.model import Status, Tournament

__all__ = ["summary_lines"]

MAX_WARNINGS = 10


def summary_lines(t: Tournament) -> list[str]:
    """Name, dates, rounds, players, games played / forfeits / byes, warnings."""
    i = t.info
    dates = " – ".join(d.isoformat() for d in (i.start_date, i.end_date) if d) or "dates unknown"
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
        f"{rounds} round{'s' if rounds != 1 else ''} ({t.rounds_seen} with results)",
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
