"""The list (standard, rapid, blitz) from every hint, where it came from, and TRF points written
as all zeros (issue 20, items 5 and 6).

The TRF cases rewrite fixtures/sample_open.trf (its 122 says '90 min + 30 sec'); the
chess-results cases rewrite real pages of ../shared/realdata/chess-results.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from importer.formats.chessresults import build_tournament, parse_page
from importer.formats.normalized import read_folder, render_folder, write_folder
from importer.formats.trf import parse_trf
from importer.formats.trf.dates import encoded_time_control
from importer.model import ListSource, RatingList
from importer.parsing.list_hints import list_from_name

SAMPLE = "sample_open.trf"


def sample(fixtures_dir: Path) -> str:
    return (fixtures_dir / SAMPLE).read_text(encoding="utf-8")


def header(text: str, code: str, value: str | None) -> str:
    """The TRF with record *code* set to *value* (None: removed)."""
    lines = [ln for ln in text.splitlines() if not ln.startswith(code + " ")]
    if value is not None:
        lines.insert(1, f"{code} {value}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "expected"), [
    ("Blitz Open 2026", RatingList.BLITZ), ("Juni Blitzschach 5 Plus 0", RatingList.BLITZ),
    ("Открытый Блиц-турнир", RatingList.BLITZ), ("Torneo Lampo di Natale", RatingList.BLITZ),
    ("Campeonato de Partidas Rápidas", RatingList.RAPID),
    ("Offene Schnellschach-Meisterschaft", RatingList.RAPID),
    ("Быстрые шахматы: Кубок", RatingList.RAPID), ("Open Rapide de Nice", RatingList.RAPID),
    ("Mistrzostwa w Szachach Szybkich", RatingList.RAPID),
    ("Szachy szybkie 2024", RatingList.RAPID), ("Rapid Quads: Mon AM", RatingList.RAPID),
    ("2026 British Chess Championships", None), ("Rapid & Blitz Weekend", None),
])
def test_event_name_words(name: str, expected: RatingList | None) -> None:
    hit = list_from_name(name)
    assert (hit[0] if hit else None) is expected


@pytest.mark.parametrize(("code", "expected"), [
    ("5400+30", RatingList.STANDARD), ("3600", RatingList.STANDARD),  # 60 min: standard
    ("3540", RatingList.RAPID), ("900+10", RatingList.RAPID),  # 15 + 10 = 25 min
    ("600", RatingList.BLITZ), ("601", RatingList.RAPID),  # 10 min exactly: blitz
    ("180+2", RatingList.BLITZ), ("180", None), ("60+0", None),  # 3 min or less: no list
    ("40/6000+30:900+30", RatingList.STANDARD)])
def test_trf26_encoded_time_control_thresholds(code: str, expected: RatingList | None) -> None:
    assert encoded_time_control(code) is expected


def test_trf_list_sources(fixtures_dir: Path) -> None:
    text = sample(fixtures_dir)
    t = parse_trf(text, source="a.trf")
    assert (t.info.rating_list, t.info.list_source) == (RatingList.STANDARD, ListSource.TRF_122)
    t = parse_trf(header(text, "222", "900+10"), source="a.trf")
    assert (t.info.rating_list, t.info.list_source) == (RatingList.RAPID, ListSource.TRF_222)
    no_tc = header(header(text, "122", None), "092", "Individual: Swiss-System")
    t = parse_trf(no_tc, source="a.trf")
    assert (t.info.rating_list, t.info.list_source) == (None, ListSource.DEFAULT)
    assert not [w for w in t.warnings if w.code == "list-guessed"]
    t = parse_trf(header(no_tc, "012", "Harbourside Autumn Blitz"), source="a.trf")
    assert (t.info.rating_list, t.info.list_source) == (RatingList.BLITZ, ListSource.EVENT_NAME)
    assert [w.message for w in t.warnings if w.code == "list-guessed"] == [
        "a.trf: no time control shown: rated as blitz, guessed from the word 'blitz' in the "
        "event name 'Harbourside Autumn Blitz'"]
    t = parse_trf(header(no_tc, "012", "Harbourside Quickplay"), source="a.trf")
    assert (t.info.rating_list, t.info.list_source) == (None, ListSource.DEFAULT)
    (note,) = [w.message for w in t.warnings if w.code == "list-guessed"]
    assert "'quickplay'" in note and "rated as standard" in note


def test_list_source_column_in_tournament_csv(fixtures_dir: Path, tmp_path: Path) -> None:
    text = header(header(sample(fixtures_dir), "122", None), "012", "Harbourside Rapid")
    t = parse_trf(text, source="a.trf")
    (row,) = csv.DictReader(io.StringIO(render_folder(t)["tournament.csv"]))
    assert (row["rating_list"], row["list_source"]) == ("rapid", "event name")
    back = read_folder(write_folder(t, tmp_path / "out"))
    assert back.info.list_source is ListSource.EVENT_NAME


def test_chess_results_list_from_the_event_name(realdata: Path) -> None:
    text = (realdata / "chess-results" / "en_swiss_startingrank_art0_british2026.html"
            ).read_bytes().decode("utf-8")
    plain = build_tournament([parse_page(text, source="a.html")])
    assert (plain.info.rating_list, plain.info.list_source) == (None, ListSource.DEFAULT)
    blitz = re.sub(r"<h2>2026 British Chess Championships: Championship</h2>",
                   "<h2>2026 British Blitz Championship</h2>", text, count=1)
    t = build_tournament([parse_page(blitz, source="a.html")])
    assert (t.info.rating_list, t.info.list_source) == (RatingList.BLITZ, ListSource.EVENT_NAME)
    assert [w.code for w in t.warnings].count("list-guessed") == 1
    details = build_tournament([parse_page((
        realdata / "chess-results" / "british2026_champ_r6_finished.html").read_bytes().decode(
        "utf-8"), source="r6.html")])
    assert (details.info.rating_list, details.info.list_source) == (  # '40/90’ + Game/30’ …'
        RatingList.STANDARD, ListSource.TIME_CONTROL)


# ------------------------------------------------------------------ TRF points all zero


def zero_points(text: str) -> str:
    return "\n".join(ln[:80] + " 0.0" + ln[84:] if ln.startswith("001") else ln
                     for ln in text.splitlines()) + "\n"


def test_trf_points_all_zero_one_note_points_from_results(fixtures_dir: Path) -> None:
    text = sample(fixtures_dir)
    right = parse_trf(text, source="a.trf")
    t = parse_trf(zero_points(text), source="a.trf")
    notes = [w for w in t.warnings if w.code.startswith("points")]
    assert [(w.code, w.message) for w in notes] == [(
        "points-zero", "a.trf: every player's points (columns 81-84) are 0 although games were "
        "played: the points are taken from the results")]
    assert [p.points for p in t.players] == [p.points for p in right.players]
    assert t.player(3) is not None and t.player(3).points == Decimal("6.5")  # type: ignore[union-attr]


def test_trf_points_zero_before_any_game_is_no_note(fixtures_dir: Path) -> None:
    text = "\n".join(ln[:80] + " 0.0" if ln.startswith("001") else ln
                     for ln in sample(fixtures_dir).splitlines()) + "\n"  # no rounds at all
    t = parse_trf(text, source="a.trf")
    assert not [w for w in t.warnings if w.code.startswith("points")]
    assert all(p.points == 0 for p in t.players)
