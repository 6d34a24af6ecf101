"""The report as JSON (what ``fiderate serve``'s API returns), from the view's tables.

The players, their rounds and their scenarios, and the title norms, are the rows of the CSV
files, keyed by the
CSV's column names, with the same figures: every exact decimal is a string holding exactly
the CSV's figure (``"-3.80"``, ``"0.36"``, ``"4.5"``), whole numbers are integers, yes/no
are booleans and an empty cell is ``null`` (see :mod:`reports.render.columns`).
"""

from __future__ import annotations

from dataclasses import asdict
from decimal import Decimal
from typing import Any

from importer.model import DateSource
from reports.render.columns import JsonValue, json_value
from reports.render.needs_view import lists_view, needs_view
from reports.render.summary import live_round, rounds_with_results
from reports.render.view import (
    Report,
    Table,
    norm_table,
    player_table,
    published_view,
    rated_with,
    round_table,
    scenario_table,
)

__all__ = ["json_rows", "needs_json", "report_json"]


def json_rows(table: Table) -> list[dict[str, JsonValue]]:
    """A table's rows as JSON objects: the CSV's columns, the values exact."""
    names, forms = table.names, [c.form for c in table.columns]
    return [{name: json_value(form, value)
             for name, form, value in zip(names, forms, row, strict=True)}
            for row in table.rows]


def _exact(value: Decimal | None) -> str | None:
    """A score as the CSV writes a decimal ('4.5'), or None."""
    return None if value is None else str(value.normalize()) if value % 1 else str(int(value))


def needs_json(report: Report, start_no: int) -> dict[str, Any] | None:
    """One player's "What do I need?" (None when it says nothing): ``rounds_left``, the games
    ``to_play`` (``round``, ``opponent_no`` — null for a round not paired yet — ``rating``,
    ``assumed``), ``goals`` (``kind``, ``verdict``, ``threshold``, ``guaranteed`` and
    ``possible`` as exact decimals, ``estimate``, ``words``), ``crossings`` (``round``,
    ``threshold``, ``direction``, ``before``, ``after``, ``words``), ``norms_counted``
    (``norm``, ``rounds``, ``left_out``, ``secured_after``, ``played_after``,
    ``performance``, ``true_performance``, ``words``), ``prospects`` (``norm``, ``possible``,
    ``words``) and ``notes``; the words as the pages show them."""
    view = needs_view(report, start_no)
    if view is None:
        return None
    pn = view.player
    return {
        "rounds_left": view.rounds_left,
        "to_play": [{"round": g.round, "opponent_no": g.opponent_no, "rating": g.rating,
                     "assumed": g.assumed} for g in (pn.games if pn is not None else ())],
        "goals": [{"kind": n.kind.value, "verdict": n.verdict.value, "threshold": n.threshold,
                   "norm": n.norm.value if n.norm is not None else None,
                   "guaranteed": _exact(n.guaranteed), "possible": _exact(n.possible),
                   "estimate": n.estimate, "words": g.words}
                  for g in view.goals if (n := g.need) is not None],
        "crossings": [{"round": c.crossing.round, "threshold": c.crossing.threshold,
                       "direction": c.crossing.direction.value, "before": c.crossing.before,
                       "after": c.crossing.after, "words": c.words} for c in view.crossings],
        "norms_counted": [{"norm": c.norm, "rounds": c.check.rounds,
                           "left_out": list(c.check.dropped),
                           "secured_after": c.check.secured_after,
                           "played_after": list(c.check.played_after),
                           "performance": c.performance, "true_performance": c.true_performance,
                           "words": f"{c.games}; {c.check.performance_words}"}
                          for c in view.counted],
        "prospects": [{"norm": p.norm.value, "possible": p.possible, "words": g.words}
                      for g in view.prospects if (p := g.prospect) is not None],
        "notes": list(view.notes),
    }


def _lists_json(report: Report, start_no: int) -> list[dict[str, Any]] | None:
    """A long event's games by the list in force when they were played: each ``month``
    ('2026-03', null for rounds without a date) with its ``rounds`` (null: one list)."""
    view = lists_view(report, start_no)
    if view is None:
        return None
    return [{"month": month, "rounds": list(rounds)} for month, rounds in view.months]


def report_json(report: Report) -> dict[str, Any]:
    """The tournament, the rules used, every shown player with their rounds and scenarios,
    the comparison with the source's published figures, the notes (each with the players it
    lists and their start numbers), the source's warnings (code, message, players, round) and
    the title norms achieved, possible or not decidable (the rows of norms.csv), the user's
    rating ``target`` and, per player, ``needs`` (:func:`needs_json`) and ``lists`` (a long
    event's games by list month); the figures exactly as in the CSV files."""
    t, r = report.tournament, report.rating
    rounds: dict[JsonValue, list[dict[str, JsonValue]]] = {}
    for row in json_rows(round_table(report)):
        rounds.setdefault(row.pop("start_no"), []).append(row)
    scenarios: dict[JsonValue, list[dict[str, JsonValue]]] = {}
    for row in json_rows(scenario_table(report)):
        scenarios.setdefault(row["start_no"], []).append(
            {c: v for c, v in row.items() if c not in ("start_no", "name", "rating")})
    players = [{**row, "rounds": rounds.get(row["start_no"], []),
                "scenarios": scenarios.get(row["start_no"], []),
                "needs": needs_json(report, int(str(row["start_no"]))),
                "lists": _lists_json(report, int(str(row["start_no"])))}
               for row in json_rows(player_table(report))]
    event_dates = t.info.date_source is not DateSource.LAST_UPDATE
    published = published_view(report)
    return {
        "tournament": {
            "id": t.info.id, "name": t.info.name, "federation": t.info.federation,
            "start_date": t.info.start_date.isoformat() if t.info.start_date and event_dates
            else None,
            "end_date": t.info.end_date.isoformat() if t.info.end_date and event_dates else None,
            "rounds": t.info.rounds or t.rounds_seen or None,
            "rounds_with_results": rounds_with_results(t), "round_in_progress": live_round(t),
            "players": len(t.players)},
        "rules": {"system": r.system, "rules": r.rules_label, "date": r.on.isoformat(),
                  "date_source": r.date_source, "rating_list": r.rating_list.value,
                  "summary": rated_with(report),
                  "beside": [{"system": b.rating.system, "rules": b.rating.rules_label}
                             for b in report.beside]},
        "players": players,
        "published": asdict(published) if published is not None else None,
        "notes": [{"text": n.text, "items": list(n.items), "players": sorted(n.players)}
                  for n in report.notes],
        "warnings": [{"code": w.code, "message": w.message, "players": list(w.players),
                      "round": w.round} for w in t.warnings],
        "norms": {"event_class": report.event_class.value if report.event_class else None,
                  "rows": json_rows(norm_table(report))},
        "target": report.target,
    }
