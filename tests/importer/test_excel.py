"""chess-results Excel exports: the real files, our own fixtures, damaged and hostile zips."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from importer.errors import InputError
from importer.formats.excel import MAX_UNPACKED_BYTES, looks_like_xlsx, parse_xlsx
from importer.model import Colour, Game, GameResult, RatingList, Status, System, Tournament

CR = "chess-results"
RANKING = "xlsx_en_ranking_crosstable_resaved_2025.xlsx"


def real(realdata: Path, name: str) -> bytes:
    return (realdata / CR / name).read_bytes()


def own(fixtures_dir: Path, name: str) -> Tournament:
    return parse_xlsx((fixtures_dir / "excel" / name).read_bytes(), source=name)


def test_english_starting_rank_2018(realdata: Path) -> None:
    data = real(realdata, "xlsx_en_startingrank_2018.xlsx")
    assert looks_like_xlsx(data)
    t = parse_xlsx(data, source="en.xlsx")
    assert t.info.name == "KEJOHANAN TERTUTUP KUANTAN 2018 LELAKI"  # trailing space dropped
    assert len(t.players) == 150 and [p.start_no for p in t.players] == list(range(1, 151))
    p1, p149 = t.players[0], t.players[148]
    assert (p1.name, p1.federation, p1.club, p1.rating, p1.fide_id) == (
        "Abdul Hadi Imran Bin Abdul Wahab", "MAS", "Sk Beserah", None, "")
    assert p149.name == "MUHAMMAD WAFIY HASIF"
    assert all(p.rating is None for p in t.players)  # every rating is 0
    assert t.results == () and t.games == ()
    assert any("150" in w.message for w in t.warnings)  # the pagination trap (spec §4)


def test_portuguese_starting_rank_with_details(realdata: Path) -> None:
    t = parse_xlsx(real(realdata, "xlsx_pt_startingrank_with_details_2026.xlsx"), source="pt")
    assert t.info.name.startswith("Festival Estadual da Criança e Juventude")
    assert t.info.rating_list is RatingList.RAPID  # Tempo de reflexão (Rapid) : 10+0 7+3
    assert t.info.time_control == "10+0 7+3"
    assert t.info.federation == "BRA" and t.info.rounds == 6
    assert t.info.system is System.SWISS  # Tournament type : Suíço
    assert t.info.rating_calculation == "Elo nacional"
    assert t.info.start_date == date(2026, 4, 11)
    assert len(t.players) == 47
    p1 = t.players[0]
    assert (p1.name, p1.fide_id, p1.rating, p1.club) == (
        "Vilela, Vitor Gabriel Felix", "44780613", 1755, "Juca Pirama Campo Grande")
    last = t.players[-1]
    assert (last.start_no, last.name, last.rating) == (47, "Vieira, Rosivaldo Gabriel Siqueira",
                                                       None)


def test_truncated_ranking_crosstable_is_refused(realdata: Path) -> None:
    with pytest.raises(InputError, match=r"opponent 256 is not in the file .*truncated") as e:
        parse_xlsx(real(realdata, RANKING), source=RANKING)
    assert e.value.line == 2  # Carlsen's row, '256w1' in round 1


def test_ranking_crosstable_rows_within_the_file(realdata: Path) -> None:
    """The real grid, with the cells that name rows beyond the 150 exported turned into '-0'."""
    wb = openpyxl.load_workbook(io.BytesIO(real(realdata, RANKING)), data_only=True)
    ws = wb.worksheets[0]
    cut = 0
    for row in ws.iter_rows(min_row=2, min_col=7, max_col=15):
        for cell in row:
            text = str(cell.value or "").strip()
            digits = text[:len(text) - len(text.lstrip("0123456789"))]
            if digits and int(digits) > 150:
                cell.value, cut = "-0", cut + 1
    buf = io.BytesIO()
    wb.save(buf)
    t = parse_xlsx(buf.getvalue(), source=RANKING)
    assert cut > 100 and len(t.players) == 150 and t.rounds_seen == 9
    carlsen = t.players[0]
    assert (carlsen.name, carlsen.title, carlsen.rating, carlsen.points, carlsen.rank) == (
        "Carlsen Magnus", "GM", 2837, 9.0, 1)
    svane = t.players[3]  # tied rank left blank → rank 3
    assert (svane.name, svane.rank) == ("Svane Frederik", 3)
    # ' 84b1' in round 2: row 84 has '  1w0'
    r2 = t.results_of(1)[1]
    assert (r2.opponent_no, r2.colour, r2.points) == (84, Colour.BLACK, 1.0)
    assert Game(round=2, white_no=84, black_no=1, result=GameResult.BLACK_WIN) in t.games
    # Maghsoodloo (row 2): '223b½' is beyond the file; '  1b0' in round 7
    assert t.results_of(2)[6].opponent_no == 1 and t.results_of(2)[6].points == 0.0
    assert not any("asymmetric" in w.message for w in t.warnings)
    # Sorensen (row 58, rank tied with Yoo's 56): Excel re-saved '-1' as -1 and '-0' as 0
    sorensen = t.players[56]
    assert (sorensen.name, sorensen.rank, sorensen.points) == ("Sorensen Hampus", 56, 5.5)
    assert [r.status for r in t.results_of(57)[:4]] == [Status.BYE] * 3 + [Status.ABSENT]


def test_own_crosstable_with_details(fixtures_dir: Path) -> None:
    t = own(fixtures_dir, "crosstable_art5_details_byes_forfeits_pending.xlsx")
    i = t.info
    assert (i.name, i.federation, i.rounds, i.rating_list, i.fide_event_id) == (
        "Riverside Summer Open 2026", "ENG", 5, RatingList.STANDARD, "999001")
    assert (i.start_date, i.end_date) == (date(2026, 8, 1), date(2026, 8, 5))
    assert i.rating_calculation == "Rating national, Rating international"
    assert t.warnings == ()
    by = {(r.start_no, r.round): r for r in t.results}
    assert by[(3, 1)].status is Status.BYE and by[(2, 3)].status is Status.HALF_BYE
    assert by[(4, 4)].status is Status.ABSENT and by[(1, 4)].status is Status.PENDING
    assert by[(1, 3)].status is Status.FORFEIT_WIN and by[(3, 3)].status is Status.FORFEIT_LOSS
    assert Game(round=3, white_no=1, black_no=3, result=GameResult.WHITE_FORFEIT_WIN) in t.games
    assert Game(round=4, white_no=5, black_no=1) in t.games  # pending
    assert t.players[2].rating is None and t.players[4].rating == 1712  # '0'; text '1712'
    assert t.players[0].name == "Ashdown, Peter" and t.players[3].title == "WFM"


def test_own_complete_ranking_crosstable(fixtures_dir: Path) -> None:
    t = own(fixtures_dir, "ranking_crosstable_complete_ties.xlsx")
    assert [(p.start_no, p.name, p.rank) for p in t.players] == [
        (1, "Zorin Pavel", 1), (2, "Young Ada", 2), (3, "Xu Lei", 2), (4, "Webb Sam", 4)]
    assert Game(round=1, white_no=2, black_no=3, result=GameResult.WHITE_WIN) in t.games
    assert any("numbered by rank" in w.message for w in t.warnings)
    assert not any("asymmetric" in w.message or "printed points" in w.message for w in t.warnings)


@pytest.mark.parametrize(("name", "message"), [
    ("not_a_zip.xlsx", "not a zip archive"),
    ("zip_bomb_declared_size.xlsx", "zip bomb"),
    ("no_header_row.xlsx", "no chess-results header row"),
])
def test_bad_workbooks(fixtures_dir: Path, name: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        own(fixtures_dir, name)


def test_bomb_bound_and_sniffing(fixtures_dir: Path) -> None:
    assert MAX_UNPACKED_BYTES == 200 * 1024 * 1024
    assert not looks_like_xlsx(b"PK\x03\x04 not really a zip")
    assert not looks_like_xlsx((fixtures_dir / "excel" / "not_a_zip.xlsx").read_bytes())
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("xl/workbook.xml", "this is not XML")
    with pytest.raises(InputError, match="unreadable Excel workbook"):
        parse_xlsx(buf.getvalue(), source="x")


def test_bad_round_cell_names_the_row() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["No.", "Name", "Rtg", "1.Rd"])
    ws.append([1, "A, B", 2000, " 2w1"])
    ws.append([2, "C, D", 1900, "??"])
    buf = io.BytesIO()
    wb.save(buf)
    with pytest.raises(InputError, match=r"x.xlsx:3: unknown round cell"):
        parse_xlsx(buf.getvalue(), source="x.xlsx")


def test_truncated_workbooks_raise_input_error(fixtures_dir: Path) -> None:
    data = (fixtures_dir / "excel" / "ranking_crosstable_complete_ties.xlsx").read_bytes()
    for n in range(0, len(data), max(1, len(data) // 40)):
        with pytest.raises(InputError):
            parse_xlsx(data[:n], source="cut.xlsx")


def test_tb1_is_the_score_when_the_annotation_says_so(fixtures_dir: Path) -> None:
    t = own(fixtures_dir, "crosstable_tb1_points_annotation_sex.xlsx")
    assert [(p.points, p.sex, p.title) for p in t.players] == [
        (1.5, "w", ""), (1.0, "", "CM"), (1.0, "", "")]
    assert t.warnings == ()  # TB1 agrees with the cells ('1,5' = 1 + ½)
    wb = openpyxl.load_workbook(fixtures_dir / "excel" / "crosstable_tb1_points_annotation_sex.xlsx")
    ws = wb.active
    assert ws is not None
    ws["A11"] = "Tie Break1: Buchholz"
    buf = io.BytesIO()
    wb.save(buf)
    t = parse_xlsx(buf.getvalue(), source="x.xlsx")
    assert all(p.points is None for p in t.players)
    assert any("no Pts. column" in w.message for w in t.warnings)


def test_time_control_without_rate_bracket() -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in [("Some Open",), ("Time control : G/25 + 5 sec",), ("No.", "Name", "Rtg"),
                (1, "A, B", 2000)]:
        ws.append(list(row))
    buf = io.BytesIO()
    wb.save(buf)
    info = parse_xlsx(buf.getvalue(), source="tc.xlsx").info
    assert (info.name, info.time_control, info.rating_list) == ("Some Open", "G/25 + 5 sec",
                                                                RatingList.RAPID)
