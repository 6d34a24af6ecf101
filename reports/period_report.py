"""The files of ``fiderate period``: period_players.csv, period_games.csv, period.html.

Numbers come from :class:`rating.period.PeriodResult` (hundredths) and are printed with two
decimals; every file goes through :mod:`importer.csvio` / :mod:`importer.atomic`.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importer.atomic import write_text_atomic
from importer.csvio import write_csv
from rating.fide import format_h
from rating.period import PLAYER_STATUSES, PeriodResult

__all__ = ["GAME_COLUMNS", "PLAYER_COLUMNS", "write_period_files"]

PLAYER_COLUMNS = ("fide_id", "name", "list", "old_rating", "k", "games", "change",
                  "rounded_change", "new_rating", "status")
GAME_COLUMNS = ("tournament", "round", "fide_id", "name", "list", "opponent", "opponent_name",
                "own_rating", "opponent_rating", "capped", "score", "expected", "change", "k")
_NUMERIC = ("old_rating", "k", "games", "change", "rounded_change", "new_rating", "round",
            "own_rating", "opponent_rating", "score", "expected")


def _value(v: Any) -> Any:
    if v is None or v != v:  # None, NaN, pd.NA
        return None
    return v.item() if hasattr(v, "item") else v


def _records(frame: Any) -> Iterator[dict[str, Any]]:
    for row in frame.to_dict("records"):
        yield {k: _value(v) for k, v in row.items()}


def player_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_players.csv rows: the change exact to the hundredth, then rounded once."""
    out = []
    for p in _records(result.players):
        rated = p["old_rating"] is not None
        out.append({
            "fide_id": p["fide_id"], "name": p["name"], "list": p["list"],
            "old_rating": p["old_rating"], "k": p["k"], "games": p["games"],
            "change": format_h(p["change_h"]) if rated else None,
            "rounded_change": p["rounded_change"] if rated else None,
            "new_rating": p["new_rating"], "status": p["status"],
        })
    return out


def game_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_games.csv rows: one per rated game, from the rated player's side."""
    return [{
        "tournament": g["tournament"], "round": g["round"], "fide_id": g["fide_id"],
        "name": g["name"], "list": g["list"], "opponent": g["opponent"],
        "opponent_name": g["opponent_name"], "own_rating": g["own_rating"],
        "opponent_rating": g["opponent_rating"], "capped": bool(g["capped"]),
        "score": format_h(g["score_h"]), "expected": format_h(g["expected_h"]),
        "change": format_h(g["change_h"]), "k": g["k"],
    } for g in _records(result.games)]


def _html(result: PeriodResult, players: list[dict[str, Any]]) -> str:
    esc = html.escape
    counts = Counter(p["status"] for p in players)
    head = "".join(f"<th>{esc(c)}</th>" for c in PLAYER_COLUMNS)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{esc('' if p[c] is None else str(p[c]))}</td>"
                         for c in PLAYER_COLUMNS) + "</tr>" for p in players)
    tours = "".join(f"<li>{esc(t.key)}: {esc(t.tournament.info.name)} ({esc(str(t.rating_list))}, "
                    f"starts {t.start}, {esc(t.rules.name)})</li>" for t in result.tournaments)
    notes = "".join(f"<li>{esc(n)}</li>" for n in result.notes)
    summary = ", ".join(f"{counts[s]} {s}" for s in PLAYER_STATUSES if counts[s])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>FIDE rating period {result.period:%Y-%m}</title>
<style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px}}td{{text-align:right}}</style></head>
<body><h1>FIDE rating period {result.period:%Y-%m}</h1>
<p>{esc(summary)}. Changes are exact to the hundredth and rounded once per player and list
(R24 8.3.4).</p>
<h2>Tournaments</h2><ul>{tours}</ul>
<h2>Players</h2><table><thead><tr>{head}</tr></thead><tbody>
{body}
</tbody></table>
<h2>Notes</h2><ul>{notes}</ul></body></html>
"""


def write_period_files(result: PeriodResult, folder: str | Path, *, html_summary: bool = True
                       ) -> list[Path]:
    """Write period_players.csv, period_games.csv and (optionally) period.html into *folder*."""
    folder = Path(folder)
    players = player_rows(result)
    paths = [folder / "period_players.csv", folder / "period_games.csv"]
    write_csv(paths[0], PLAYER_COLUMNS, players, numeric=_NUMERIC)
    write_csv(paths[1], GAME_COLUMNS, game_rows(result), numeric=_NUMERIC)
    if html_summary:
        paths.append(folder / "period.html")
        write_text_atomic(paths[2], _html(result, players))
    return paths
