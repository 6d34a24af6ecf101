"""``fiderate import`` reads back its own outputs: the csv folder, tournament.json and
tournament.trf, with nothing lost (TRF keeps what TRF can hold: city, arbiters, round dates,
full birth dates; not a page's last update)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import importer
from importer.model import Tournament


def same(t: Tournament) -> tuple[object, ...]:
    info = dataclasses.replace(t.info, source="")
    return info, t.players, t.results, t.games, t.focus


SOURCES = ["fixtures/sample_open.trf", "realdata/trf/icu_irish_junior_champs_2011_34p.trf",
           "realdata/trf/fide_tec_trf2025_sample_grandmommys_cup_team.trf",
           "realdata/chess-results/en_swiss_crosstable_art5_final_british2026.html",
           "realdata/chess-results/en_final_ranking_rtgchange_art1_portimao2024.html"]


def resolve(name: str, fixtures_dir: Path, realdata: Path) -> Path:
    return (realdata / name.removeprefix("realdata/") if name.startswith("realdata/")
            else fixtures_dir.parent / name)


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("name", SOURCES)
def test_csv_and_json_read_back_identically(run_cli, fixtures_dir, realdata, tmp_path, fmt, name):
    source = resolve(name, fixtures_dir, realdata)
    assert run_cli("import", str(source), "--format", fmt, "-o", str(tmp_path / "a"), "-q").code == 0
    assert run_cli("import", str(tmp_path / "a"), "-o", str(tmp_path / "b"), "-q").code == 0
    back, original = importer.load(tmp_path / "b"), importer.load(source)
    assert same(back) == same(original)
    if name.endswith(".html"):  # the page's 'Last update', to the second
        assert back.info.last_update is not None


@pytest.mark.parametrize("name", SOURCES[:3])
def test_trf_reads_back_what_trf_holds(run_cli, fixtures_dir, realdata, tmp_path, name):
    source = resolve(name, fixtures_dir, realdata)
    assert run_cli("import", str(source), "--format", "trf", "-o", str(tmp_path / "a"), "-q").code == 0
    back, original = importer.load(tmp_path / "a"), importer.load(source)
    assert same(back) == same(original)
    assert back.info.round_dates and back.info.round_dates == original.info.round_dates


def test_trf_keeps_city_arbiters_and_birth_dates(realdata, tmp_path):
    t = importer.load(realdata / "trf" / "icu_irish_junior_champs_2011_34p.trf")
    assert t.info.city.startswith("Green Isle Hotel") and t.info.chief_arbiter == "Sean Hewitt"
    assert t.info.deputy_arbiters == ("Rory Delaney",)
    assert sum(1 for p in t.players if p.birth_date) == 33
    text = importer.formats.trf.write_trf(t)
    assert "\r022 Green Isle Hotel" in text and "\r102 Sean Hewitt\r" in text  # TRF-2026: CR
    assert "\r112 Rory Delaney\r" in text and "\r132 " in text
