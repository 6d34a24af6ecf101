"""rating/systems/registry.py: one registry of rating systems, and a national system as one module plus
its registration (here a test double, registered by the test, whose one extra column reaches
every output without a change to reports/)."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import ClassVar

import pytest

from importer.model import (
    Colour,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.results import PlayerRating, RoundLine
from rating.systems import registry
from rating.systems.base import Column, EloSystem, FideSystem, Form
from rating.systems.fide import KSource, PlayerFacts
from rating.systems.ukd import UkdSystem
from rating.tournament import rate_tournament
from reports.errors import ReportError
from reports.render import fmt
from reports.render.columns import PLAYER_COLUMNS, ROUND_COLUMNS
from reports.render.terminal import render_text
from reports.report import build_report, render_report

ROOT = Path(__file__).resolve().parents[2]
D = Decimal


@dataclass(frozen=True, slots=True)
class Tenths(EloSystem):
    """A made-up national system: Elo on ``Player.national_rating`` with a flat K, rated
    beside FIDE when the source's rating calculation says 'Tenths'.  It adds one column,
    ``tenths_change``, to both tables."""

    name: str = "tenths"
    label: str = "Tenths"
    national: bool = True

    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = (
        Column("tenths_change", lambda p: p.change, Form.CHANGE, header="Tenths change"),)
    round_columns: ClassVar[tuple[Column[RoundLine], ...]] = (
        Column("tenths_change", lambda ln: ln.change, Form.CHANGE, header="Tenths change"),)

    def applies(self, info: TournamentInfo) -> bool:
        return "tenths" in info.rating_calculation.lower()

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        return 30, KSource.CATEGORY


@pytest.fixture
def tenths():
    with registry.registered("tenths", lambda s: Tenths(), "a made-up national rating"):
        yield


def event(rating_calculation: str = "Tenths rating") -> Tournament:
    """Three players, two rounds; national ratings for the double, FIDE ratings for FIDE."""
    players = (Player(start_no=1, name="One", rating=2000, national_rating=1500),
               Player(start_no=2, name="Two", rating=1900, national_rating=1600),
               Player(start_no=3, name="Three", rating=1800, national_rating=None))
    games = {1: [(2, 1.0), (3, 0.5)], 2: [(1, 0.0), (3, 1.0)], 3: [(2, 0.0), (1, 0.5)]}
    results = tuple(RoundResult(start_no=no, round=rnd, status=Status.PLAYED, opponent_no=opp,
                                colour=Colour.WHITE if (no + rnd) % 2 else Colour.BLACK,
                                points=pts)
                    for no, rows in games.items() for rnd, (opp, pts) in enumerate(rows, 1))
    info = TournamentInfo(name="Double open", start_date=date(2026, 5, 2), rounds=2,
                          rating_list=RatingList.STANDARD, rating_calculation=rating_calculation)
    return Tournament(info=info, players=players, results=results)


def read(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# --- the registry ---

def test_the_shipped_systems_and_the_cli_choices_come_from_the_registry():
    assert registry.names() == ("fide", "elo", "ukd", "dwz", "ecf")
    settings = registry.Settings(on=date(2024, 6, 1), k_default=25)
    fide = registry.build("fide", settings)
    assert isinstance(fide, FideSystem) and fide.rules_label() == "FIDE 2024-03"
    assert registry.build("elo", settings) == EloSystem(default_k=25)
    assert registry.build("ukd", settings) == UkdSystem()
    from reports.cli.report import report

    (option,) = [p for p in report.params if p.name == "system"]
    assert tuple(option.type.choices) == registry.names()
    import click

    record = option.get_help_record(click.Context(report))  # the help is written when shown
    assert record is not None and "ukd, the Turkish national rating (UKD)" in record[1]


def test_unknown_and_taken_names():
    with pytest.raises(ValueError, match="unknown rating system 'glicko': use fide, elo, ukd"):
        registry.build("glicko", registry.Settings(on=date(2026, 1, 1)))
    with pytest.raises(ValueError, match="already registered"):
        registry.register("ukd", lambda s: UkdSystem(), "again")
    with pytest.raises(ValueError, match="lower-case"):
        registry.register("My System", lambda s: UkdSystem(), "bad name")
    with registry.registered("liar", lambda s: UkdSystem(), "builds another system"), \
            pytest.raises(ValueError, match="builds a system named 'ukd'"):
        registry.build("liar", registry.Settings(on=date(2026, 1, 1)))
    assert "liar" not in registry.names()


def test_ukd_is_rated_beside_fide_when_the_source_names_the_turkish_national_rating():
    settings = registry.Settings(on=date(2026, 1, 1))
    turkish = TournamentInfo(name="x", federation="TUR",
                             rating_calculation="Uluslararası ELO ve Ulusal rating")
    assert [s.name for s in registry.beside(turkish, settings)] == ["ukd"]
    for info in (TournamentInfo(name="x", rating_calculation="Rating national"),
                 TournamentInfo(name="x", federation="TUR", rating_list=RatingList.BLITZ,
                                rating_calculation="Ulusal rating")):
        assert registry.beside(info, settings) == ()


def test_rate_tournament_takes_any_registered_name(tenths):
    t = event()
    by_name = rate_tournament(t, "tenths")
    assert by_name == rate_tournament(t, Tenths())
    one = by_name.player(1)
    assert one is not None and (one.rating, one.k, one.k_source) == (1500, 30, KSource.CATEGORY)
    assert by_name.rules_label == "Tenths: logistic formula"


# --- a national system is one module plus its registration ---

def test_a_registered_system_adds_its_column_to_every_output(tenths):
    t = event()
    report = build_report(t)
    assert report.rating.system == "fide"
    assert [b.system.name for b in report.beside] == ["tenths"]
    own = rate_tournament(t, Tenths())
    files = render_report(report)

    players = read(files["rating_players.csv"])
    assert tuple(players[0]) == (*PLAYER_COLUMNS, "tenths_change")
    for row in players:
        pr = own.player(int(row["start_no"]))
        assert pr is not None and row["tenths_change"] == fmt.change(pr.change)
    assert players[0]["tenths_change"] == "19.20"  # 1500 beats 1600 (E .360), K 30

    rounds = read(files["rating_rounds.csv"])
    assert tuple(rounds[0]) == (*ROUND_COLUMNS, "tenths_change")
    assert [(r["start_no"], r["round"], r["tenths_change"]) for r in rounds] == [
        ("1", "1", "19.20"), ("1", "2", ""), ("2", "1", "-19.20"), ("2", "2", ""),
        ("3", "1", ""), ("3", "2", "")]

    index = files["index.html"]
    assert '<th scope="col" class="num wide">Tenths change</th>' in index
    assert '<td class="num wide" data-sort="19.200">+19.20</td>' in index
    page = files["player-1.html"]
    assert '<th scope="col" class="num">Tenths change</th>' in page
    assert '<td class="num c-more" data-label="Tenths change">+19.20</td>' in page
    assert "<dt>Tenths</dt><dd>1500, K 30: change +19.20 → +19 → 1519</dd>" in page
    assert "Tenths change" in render_text(report)


def test_the_main_system_adds_no_columns_of_its_own(tenths):
    report = build_report(event(), system="tenths")
    assert report.rating.system == "tenths" and report.beside == ()
    files = render_report(report, ["csv"])
    assert tuple(read(files["rating_players.csv"])[0]) == PLAYER_COLUMNS


def test_two_systems_beside_fide_keep_their_columns_apart(tenths):
    t = event("Tenths rating, Ulusal rating")
    report = build_report(replace(t, info=replace(t.info, federation="TUR")))
    assert [b.system.name for b in report.beside] == ["ukd", "tenths"]
    header = next(iter(read(render_report(report, ["csv"])["rating_players.csv"])))
    assert tuple(header)[len(PLAYER_COLUMNS):] == (
        *(c.name for c in UkdSystem.player_columns), "tenths_change")


@dataclass(frozen=True, slots=True)
class Clash(Tenths):
    """A double whose column takes a name the report already writes."""

    name: str = "clash"
    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = (
        Column("rating", lambda p: p.rating),)


def test_a_column_named_like_another_is_an_error():
    with registry.registered("clash", lambda s: Clash(), "a clash"):
        report = build_report(event("Tenths rating"))
        assert [b.system.name for b in report.beside] == ["clash"]
        with pytest.raises(ReportError, match="adds a column named like another: rating"):
            render_report(report, ["csv"])


def test_reports_name_no_national_system():
    """Nothing in reports/ (code or templates) names UKD or its columns: they come from the
    system's declaration."""
    mentioned = [f"{path.name}:{n}: {line.strip()}"
                 for path in [*ROOT.joinpath("reports").rglob("*.py"),
                              *ROOT.joinpath("reports", "templates").glob("*.html")]
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"ukd|national_rating", line, re.IGNORECASE)]
    assert mentioned == []


def test_long_lists_show_the_first_few_then_a_count() -> None:
    """Notes, warnings and rating-list warnings are cut alike: the first few, then how many."""
    from reports.render import fmt

    assert fmt.first_few(["a", "b"], 2) == ["a", "b"]
    assert fmt.first_few(["a", "b", "c"], 2, indent="  ") == ["  a", "  b", "  … and 1 more"]
    assert fmt.first_few(list("abcdefg"), 5, what="rating-list warnings")[-1] == (
        "… and 2 more rating-list warnings")
