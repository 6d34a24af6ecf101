"""The JSON API's figures are the CSV files' figures, character for character: every real
crosstable rated, its report's JSON (as ``serve`` sends it) against its CSV files."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from decimal import Decimal

import pytest

import importer
from importer.writing.csvio import restore
from rating.systems.base import Form
from reports.render.json_report import report_json
from reports.render.view import player_table, round_table, scenario_table
from reports.report import build_report, render_report
from reports.web.api import json_response

CROSSTABLES = ("british2026_champ_crosstable.html", "en_roundrobin_crosstable_art5_ussa2026.html",
               "en_swiss_crosstable_art5_final_british2026.html",
               "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html",
               "frome2026_standard_crosstable.html")
REFUSED = ("xlsx_en_ranking_crosstable_resaved_2025.xlsx",)
"""Crosstables refused at import, so without a report: an export cut at 150 rows."""


def _sent(report):
    """The report's JSON as the API sends it, read back."""
    return json.loads(json_response(report_json(report)).body)


def _rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def _same(cell: str, value: object, form: Form, where: str) -> None:
    """One CSV cell and the JSON's value for it: the same figure, character for character."""
    if value is None:
        assert cell == "", where
    elif isinstance(value, bool):
        assert cell == ("true" if value else "false"), where
    elif isinstance(value, int):
        assert cell == str(value), where
    elif form is Form.TEXT:
        assert restore(cell) == value, where  # the CSV neutralises formulas, the JSON does not
    else:
        assert isinstance(value, str) and cell == value, where  # an exact decimal, as written
        assert Decimal(value).is_finite(), where


def _check(csv_rows, json_rows, columns, name):
    forms = {c.name: c.form for c in columns}
    assert len(csv_rows) == len(json_rows), name
    for i, (cells, values) in enumerate(zip(csv_rows, json_rows, strict=True)):
        for column, value in values.items():
            _same(cells[column], value, forms[column], f"{name} row {i} {column}")


@pytest.mark.parametrize("system", ["fide", "elo"])
@pytest.mark.parametrize("name", CROSSTABLES)
def test_json_figures_are_the_csv_figures(realdata, name, system):
    path = realdata / "chess-results" / name
    if not path.is_file():
        pytest.skip(f"{name} is not in the real data")
    report = build_report(importer.load(path), system=system)
    files, sent = render_report(report, ["csv"]), _sent(report)
    players = [{k: v for k, v in p.items() if k not in ("rounds", "scenarios", "needs", "lists")}
               for p in sent["players"]]
    _check(_rows(files["rating_players.csv"]), players, player_table(report).columns, "players")
    rounds = [{"start_no": p["start_no"], **rd} for p in sent["players"] for rd in p["rounds"]]
    _check(_rows(files["rating_rounds.csv"]), rounds, round_table(report).columns, "rounds")
    scenarios = [s for p in sent["players"] for s in p["scenarios"]]
    _check(_rows(files.get("scenarios.csv", "start_no\n")), scenarios,
           scenario_table(report).columns, "scenarios")
    changes = [p["change"] for p in players if p["change"] is not None]
    assert changes and all(isinstance(c, str) and c == f"{Decimal(c):.2f}" for c in changes)


def test_the_columns_of_a_system_rated_beside_are_exact_too(realdata):
    """A crosstable as a Turkish event naming the national rating: UKD's columns beside FIDE's
    (the national rating set to a third of the players, none for the others)."""
    path = realdata / "chess-results" / CROSSTABLES[0]
    if not path.is_file():
        pytest.skip(f"{path.name} is not in the real data")
    t = importer.load(path)
    players = tuple(replace(p, national_rating=p.rating if p.start_no % 3 == 0 else None)
                    for p in t.players)
    info = replace(t.info, federation="TUR", rating_calculation="Uluslararası ELO ve Ulusal rating")
    report = build_report(replace(t, info=info, players=players))
    assert [b.system.name for b in report.beside] == ["ukd"]
    files, sent = render_report(report, ["csv"]), _sent(report)
    players_json = [{k: v for k, v in p.items() if k not in ("rounds", "scenarios", "needs", "lists")}
                    for p in sent["players"]]
    assert any(isinstance(p["ukd_change"], str) for p in players_json)
    _check(_rows(files["rating_players.csv"]), players_json, player_table(report).columns,
           "players")
    rounds = [{"start_no": p["start_no"], **rd} for p in sent["players"] for rd in p["rounds"]]
    _check(_rows(files["rating_rounds.csv"]), rounds, round_table(report).columns, "rounds")


def test_every_real_crosstable_is_checked(realdata):
    """The lists above are every crosstable of the real data (a new one is added to them)."""
    found = sorted(p.name for p in (realdata / "chess-results").iterdir() if "crosstable" in p.name)
    assert found == sorted(CROSSTABLES + REFUSED)
    for name in REFUSED:
        with pytest.raises(importer.InputError):
            importer.load(realdata / "chess-results" / name)
