"""The report's CSV files, written from the view's tables (:mod:`reports.render.view`).

* ``rating_players.csv``: one row per player (totals);
* ``rating_rounds.csv``: one row per player and round;
* ``scenarios.csv``: when a paired game is unfinished, what a win, draw or loss would bring
  (only when there is one);
* ``norms.csv``: one row per player and title norm achieved, possible or not decidable
  (only the header when there is none);
* ``rating_tournament.csv``: one row: the rules applied, the date that chose them and where
  that date comes from, the rounds, how many have results, and whether a round is in progress.

Each column is written as its form says (:func:`reports.render.columns.csv_value`); text cells go
through :mod:`importer.writing.csvio` (spreadsheet formulas neutralised).
"""

from __future__ import annotations

from importer.writing.csvio import render_csv
from rating.systems.base import Form
from reports.render.columns import csv_value
from reports.render.view import (
    Report,
    Table,
    norm_table,
    player_table,
    round_table,
    scenario_table,
    tournament_table,
)

__all__ = ["csv_files", "render_table"]


def _one_line(value: object) -> object:
    """Text on one line: a bare CR inside a cell is not quoted by the csv module (its line
    end is LF) and would split the row in a spreadsheet."""
    if isinstance(value, str) and ("\r" in value or "\n" in value):
        return " ".join(value.splitlines())
    return value


def render_table(table: Table) -> str:
    """One table as CSV text: a header line, then a line per row."""
    names = table.names
    forms = [c.form for c in table.columns]
    rows = ({name: _one_line(csv_value(form, value))
             for name, form, value in zip(names, forms, row, strict=True)}
            for row in table.rows)
    return render_csv(names, rows, numeric=[c.name for c in table.columns
                                            if c.form is not Form.TEXT])


def csv_files(report: Report) -> dict[str, str]:
    """The report's CSV files as text, by file name (scenarios.csv only when there is one)."""
    files = {"rating_tournament.csv": render_table(tournament_table(report)),
             "rating_players.csv": render_table(player_table(report)),
             "rating_rounds.csv": render_table(round_table(report)),
             "norms.csv": render_table(norm_table(report))}
    scenarios = scenario_table(report)
    if scenarios.rows:
        files["scenarios.csv"] = render_table(scenarios)
    return files
