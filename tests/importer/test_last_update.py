"""``TournamentInfo.last_update``: the 'Last update' time a chess-results page or Excel export
prints, kept to the second (the newest of several pages), through the normalized folder and
tournament.json; None where the source shows none (TRF, the Swiss-Manager CSV, fragments).

The expected times were read by eye from each saved file.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

import importer
from importer.errors import InputError
from importer.formats.jsonfile import from_json, to_json
from importer.formats.normalized import read_folder, write_folder
from importer.model import DateSource, Tournament, TournamentInfo

CR = "chess-results"
T = datetime


@pytest.mark.parametrize(("name", "want"), [
    ("british2026_champ_crosstable.html", T(2026, 8, 7, 21, 4, 32)),
    ("british2026_champ_r7_finished.html", T(2026, 8, 9, 12, 53, 57)),
    ("en_final_ranking_rtgchange_art1_portimao2024.html", T(2024, 2, 23, 2, 43, 33)),
    ("en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html",
     T(2026, 5, 17, 19, 48, 53)),
    ("de_team_roundrobin_all_details_art20_tmm2026.html", T(2026, 9, 27, 11, 1, 5)),  # German
    ("ru_player_details_art9_2020.html", T(2020, 1, 8, 15, 43, 59)),  # Russian, no space
    ("xlsx_en_startingrank_2018.xlsx", T(2018, 9, 29, 14, 17, 36)),
    ("xlsx_pt_startingrank_with_details_2026.xlsx", T(2026, 4, 11, 23, 11, 9)),  # no space
])
def test_real_sources_keep_their_last_update(realdata: Path, name: str, want: datetime) -> None:
    t = importer.load(realdata / CR / name)
    assert t.info.last_update == want


def test_the_last_update_date_is_still_the_start_bound(realdata: Path) -> None:
    card = importer.load(realdata / CR / "ru_player_details_art9_2020.html")
    assert (card.info.start_date, card.info.date_source) == (T(2020, 1, 8).date(),
                                                             DateSource.LAST_UPDATE)


@pytest.mark.parametrize("name", ["trf/icu_irish_junior_champs_2011_34p.trf",
                                  f"{CR}/san_sebastian_open_33_final_ranking_export.csv"])
def test_sources_without_a_last_update(realdata: Path, name: str) -> None:
    assert importer.load(realdata / name).info.last_update is None


def test_own_fixtures(fixtures_dir: Path) -> None:
    own = fixtures_dir / "chess-results"
    assert importer.load(own / "art5_crosstable_small.html").info.last_update == T(
        2026, 6, 1, 20, 0, 0)
    assert importer.load(own / "fragment_pairings_caption.html").info.last_update is None
    xlsx = fixtures_dir / "excel" / "crosstable_tb1_points_annotation_sex.xlsx"
    assert importer.load(xlsx).info.last_update == T(2026, 3, 14, 20, 1, 55)
    assert importer.load(fixtures_dir / "sample_open.trf").info.last_update is None


BRITISH = ["british2026_champ_r1.html", "british2026_champ_crosstable.html",
           "british2026_champ_r7_finished.html"]


@pytest.mark.parametrize("order", [BRITISH, BRITISH[::-1], BRITISH[1:] + BRITISH[:1]])
def test_merged_pages_keep_the_latest_update(realdata: Path, order: list[str]) -> None:
    t = importer.load_many([realdata / CR / n for n in order])
    assert t.info.last_update == T(2026, 8, 9, 12, 53, 57)  # r7_finished, in any order


def test_latest_update_beside_the_earliest_start_bound(realdata: Path) -> None:
    """The start date is bounded by the earliest update, the snapshot dated by the latest."""
    t = importer.load_many([realdata / CR / "en_swiss_notpaired_art40_british2026.html",
                            realdata / CR / "en_swiss_startingrank_art0_british2026.html"])
    assert (t.info.start_date, t.info.date_source) == (T(2026, 8, 6).date(),
                                                       DateSource.LAST_UPDATE)
    assert t.info.last_update == T(2026, 8, 9, 17, 48, 47)


def test_a_page_without_one_leaves_the_others() -> None:
    from importer.formats.chessresults import Page, PageKind, build_tournament

    def page(moment: datetime | None) -> Page:
        return Page(kind=PageKind.NO_DATA, info=TournamentInfo(last_update=moment))

    later, earlier = T(2026, 8, 9, 0, 0, 1), T(2026, 8, 8, 23, 59, 59)
    assert build_tournament([page(None), page(later), page(earlier)]).info.last_update == later
    assert build_tournament([page(None)]).info.last_update is None


# ------------------------------------------------------------------ our own files


def _bare(last_update: datetime | None) -> Tournament:
    return Tournament(info=TournamentInfo(name="Snapshot", last_update=last_update))


def test_tournament_csv_column(tmp_path: Path) -> None:
    folder = write_folder(_bare(T(2026, 8, 7, 21, 4, 32)), tmp_path / "n")
    header, row = (folder / "tournament.csv").read_text(encoding="utf-8").splitlines()
    assert header.split(",")[-1] == "last_update" and row.split(",")[-1] == "2026-08-07T21:04:32"
    assert read_folder(folder).info.last_update == T(2026, 8, 7, 21, 4, 32)
    empty = write_folder(_bare(None), tmp_path / "e")
    assert (empty / "tournament.csv").read_text(encoding="utf-8").splitlines()[1].endswith(",")
    assert read_folder(empty).info.last_update is None


def test_an_old_folder_without_the_column_reads(tmp_path: Path) -> None:
    folder = write_folder(_bare(None), tmp_path / "n")
    csv = folder / "tournament.csv"
    header, row = csv.read_text(encoding="utf-8").splitlines()
    assert header.endswith(",last_update")
    csv.write_text(header.removesuffix(",last_update") + "\n" + row[:-1] + "\n",
                   encoding="utf-8")
    t = read_folder(folder)
    assert t.info.name == "Snapshot" and t.info.last_update is None


def test_a_bad_last_update_cell_is_refused(tmp_path: Path) -> None:
    folder = write_folder(_bare(T(2026, 8, 7, 21, 4, 32)), tmp_path / "n")
    csv = folder / "tournament.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("2026-08-07T21:04:32",
                                                           "07.08.2026 21:04"), encoding="utf-8")
    with pytest.raises(InputError, match=r"tournament\.csv:2: column 'last_update': expected a "
                                         r"date and time YYYY-MM-DDTHH:MM:SS, got '07.08.2026"):
        read_folder(folder)


def test_tournament_json(tmp_path: Path) -> None:
    text = to_json(_bare(T(2026, 8, 7, 21, 4, 32)))
    assert json.loads(text)["tournament"]["last_update"] == "2026-08-07T21:04:32"
    assert from_json(text).info.last_update == T(2026, 8, 7, 21, 4, 32)
    doc = json.loads(text)
    del doc["tournament"]["last_update"]  # a file written before the field
    assert from_json(json.dumps(doc)).info.last_update is None
    doc["tournament"]["last_update"] = "2026-08-07T21:04:32+02:00"  # a zone: not ours
    with pytest.raises(InputError, match=r"x\.json: tournament\.last_update: unexpected value"):
        from_json(json.dumps(doc), source="x.json")


def test_import_writes_it(run_cli, realdata: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    source = realdata / CR / "british2026_champ_crosstable.html"
    assert run_cli("import", str(source), "--out", str(out), "-q").code == 0
    assert (out / "tournament.csv").read_text(encoding="utf-8").splitlines()[1].endswith(
        ",2026-08-07T21:04:32")
    assert importer.load(out).info.last_update == T(2026, 8, 7, 21, 4, 32)
