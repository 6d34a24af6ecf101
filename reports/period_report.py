"""The files of ``fiderate period``: period_players.csv, period_games.csv, period.html.

Numbers come from :class:`rating.period_records.PeriodResult` (hundredths) and are printed with two
decimals; every file goes through :mod:`importer.csvio` / :mod:`importer.atomic`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from importer.atomic import write_text_atomic
from importer.csvio import render_csv, write_csv
from rating.period_records import PeriodResult, PeriodStatus
from reports import fmt

__all__ = ["GAME_COLUMNS", "PLAYER_COLUMNS", "render_period_files", "write_period_files"]

PLAYER_COLUMNS = ("fide_id", "name", "list", "old_rating", "k", "games", "change",
                  "rounded_change", "new_rating", "status")
GAME_COLUMNS = ("tournament", "round", "fide_id", "name", "list", "opponent", "opponent_name",
                "own_rating", "opponent_rating", "capped", "score", "expected", "change", "k")
_NUMERIC = ("old_rating", "k", "games", "change", "rounded_change", "new_rating", "round",
            "own_rating", "opponent_rating", "score", "expected")


def player_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_players.csv rows: the change exact to the hundredth, then rounded once."""
    return [{
        "fide_id": p.fide_id, "name": p.name, "list": str(p.list), "old_rating": p.old_rating,
        "k": p.k, "games": p.games,
        "change": fmt.hundredths(p.change_h) if p.old_rating is not None else None,
        "rounded_change": p.rounded_change if p.old_rating is not None else None,
        "new_rating": p.new_rating, "status": p.status.value,
    } for p in result.players]


def game_rows(result: PeriodResult) -> list[dict[str, Any]]:
    """period_games.csv rows: one per rated game, from the rated player's side."""
    return [{
        "tournament": g.tournament, "round": g.round, "fide_id": g.fide_id, "name": g.name,
        "list": str(g.list), "opponent": g.opponent, "opponent_name": g.opponent_name,
        "own_rating": g.own_rating, "opponent_rating": g.opponent_rating, "capped": g.capped,
        "score": fmt.hundredths(g.score_h), "expected": fmt.hundredths(g.expected_h),
        "change": fmt.hundredths(g.change_h), "k": g.k,
    } for g in result.games]


def _html(result: PeriodResult, players: list[dict[str, Any]],
          site: Mapping[str, Any] | None = None) -> str:
    """period.html through the reports' Jinja2 environment (autoescaped: names are untrusted);
    *site* is what ``fiderate serve`` adds around the page."""
    from reports.html import environment

    counts = Counter(p.status for p in result.players)
    tournaments = [{"key": t.key, "name": t.tournament.info.name, "list": str(t.rating_list),
                    "start": t.start, "rules": t.rules.name} for t in result.tournaments]
    return environment().get_template("period.html").render(
        period=f"{result.period:%Y-%m}", columns=PLAYER_COLUMNS, numeric=set(_NUMERIC),
        players=players, tournaments=tournaments, notes=list(result.notes),
        summary=", ".join(f"{counts[s]} {s.words}" for s in PeriodStatus if counts[s]),
        site=site)


def render_period_files(result: PeriodResult, *, site: Mapping[str, Any] | None = None
                        ) -> dict[str, str]:
    """The texts of period_players.csv, period_games.csv and period.html (nothing written)."""
    players = player_rows(result)
    return {"period_players.csv": render_csv(PLAYER_COLUMNS, players, numeric=_NUMERIC),
            "period_games.csv": render_csv(GAME_COLUMNS, game_rows(result), numeric=_NUMERIC),
            "period.html": _html(result, players, site)}


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
