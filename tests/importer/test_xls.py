"""Old ``.xls`` (BIFF8) chess-results exports read as their ``.xlsx`` twins; an HTML table
saved as ``.xls`` reads as the page it is; a damaged ``.xls`` is one line and exit 2.

The ``.xls`` files are written here with xlwt (test-only) from the cells openpyxl reads from
the real ``.xlsx`` exports: the real files are never copied into the repository.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path

import openpyxl
import pytest
import xlwt
from test_bad_files import assert_refused

import importer
from importer.errors import InputError
from importer.formats.excel import OLE2_SIGNATURE, looks_like_xls, parse_xls, parse_xlsx
from importer.model import Tournament

CR = "chess-results"
RANKING = "xlsx_en_ranking_crosstable_resaved_2025.xlsx"
STARTING = ["xlsx_en_startingrank_2018.xlsx", "xlsx_pt_startingrank_with_details_2026.xlsx"]


def to_xls(workbook: openpyxl.Workbook) -> bytes:
    """The first sheet's values, as an ``.xls`` (BIFF8) workbook."""
    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("chessResultsList")
    for i, row in enumerate(workbook.worksheets[0].iter_rows(values_only=True)):
        for j, value in enumerate(row):
            if value is not None:
                sheet.write(i, j, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xls_of(data: bytes) -> bytes:
    return to_xls(openpyxl.load_workbook(io.BytesIO(data), data_only=True))


def within_the_file(realdata: Path) -> openpyxl.Workbook:
    """The real ranking crosstable, with the cells naming rows beyond the 150 exported turned
    into '-0' (as tests/importer/test_excel.py does), so that it can be paired."""
    wb = openpyxl.load_workbook(realdata / CR / RANKING, data_only=True)
    for row in wb.worksheets[0].iter_rows(min_row=2, min_col=7, max_col=15):
        for cell in row:
            text = str(cell.value or "").strip()
            digits = text[:len(text) - len(text.lstrip("0123456789"))]
            if digits and int(digits) > 150:
                cell.value = "-0"
    return wb


def xlsx_bytes(wb: openpyxl.Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def same(t: Tournament) -> tuple[object, ...]:
    return dataclasses.replace(t.info, source=""), t.players, t.results, t.games, t.warnings


@pytest.mark.parametrize("name", STARTING)
def test_real_exports_as_xls_import_the_same(realdata: Path, tmp_path: Path, name: str) -> None:
    data = (realdata / CR / name).read_bytes()
    xls = tmp_path / "chessResultsList.xls"
    xls.write_bytes(xls_of(data))
    assert looks_like_xls(xls.read_bytes())
    old, new = importer.load(xls), parse_xlsx(data, source=str(xls))
    assert len(old.players) in (150, 47)
    assert same(old) == same(new)
    assert [p.kind for p in old.provenance] == ["xls"]


def test_ranking_crosstable_as_xls_gives_the_same_games(realdata: Path) -> None:
    wb = within_the_file(realdata)
    old, new = parse_xls(to_xls(wb), source="r"), parse_xlsx(xlsx_bytes(wb), source="r")
    assert len(old.players) == 150 and len(old.games) > 400
    assert same(old) == same(new)


def test_truncated_ranking_crosstable_as_xls_is_refused_alike(realdata: Path) -> None:
    data = (realdata / CR / RANKING).read_bytes()
    with pytest.raises(InputError) as xlsx_error:
        parse_xlsx(data, source=RANKING)
    with pytest.raises(InputError) as xls_error:
        parse_xls(xls_of(data), source=RANKING)
    assert str(xls_error.value) == str(xlsx_error.value)
    assert "opponent 256 is not in the file" in str(xls_error.value)


def test_xls_cell_kinds_read_as_openpyxl_reads_them() -> None:
    """Numbers, text, booleans, error cells and blanks: the same rows whichever reader."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in (["Test Open 2026"], ["No.", "", "Name", "Rtg", "FED", "Pts."],
                [1, "GM", "Alpha, Ann", 2500, "ENG", 1.5], [2, None, "Beta, Bob", 0, "ENG", 0.5],
                [3, "", "Gamma, Gil", 1800.0, "SCO", True]):
        ws.append(row)
    with pytest.raises(InputError) as both:  # a boolean is no score: the same refusal
        parse_xlsx(xlsx_bytes(wb), source="k")
    with pytest.raises(InputError) as old:
        parse_xls(to_xls(wb), source="k")
    assert str(old.value) == str(both.value)
    ws["F5"] = 1
    assert same(parse_xls(to_xls(wb), source="k")) == same(parse_xlsx(xlsx_bytes(wb), source="k"))


def test_import_and_report_on_an_xls_exit_0(run_cli, realdata: Path, tmp_path: Path) -> None:
    xls = tmp_path / "crosstable.xls"
    xls.write_bytes(to_xls(within_the_file(realdata)))
    res = run_cli("import", str(xls), "--out", str(tmp_path / "imported"))
    assert res.code == 0, res
    assert (tmp_path / "imported" / "games.csv").read_text().count("\n") > 400
    res = run_cli("report", str(xls), "--out", str(tmp_path / "report"), "-q")
    assert res.code == 0, res
    assert (tmp_path / "report" / "index.html").is_file()


def damaged(realdata: Path) -> dict[str, bytes]:
    good = xls_of((realdata / CR / STARTING[1]).read_bytes())
    rng = random.Random(20)
    flipped = bytearray(good)
    for _ in range(40):
        flipped[rng.randrange(512, len(flipped))] = rng.randrange(256)
    return {"truncated.xls": good[:len(good) // 2], "signature_only.xls": OLE2_SIGNATURE,
            "garbage.xls": OLE2_SIGNATURE + bytes(rng.randrange(256) for _ in range(3000)),
            "header_only.xls": good[:512], "flipped.xls": bytes(flipped)}


@pytest.mark.parametrize("name", ["truncated.xls", "signature_only.xls", "garbage.xls",
                                  "header_only.xls", "flipped.xls"])
def test_damaged_xls_is_one_line_exit_2(run_cli, realdata: Path, tmp_path: Path, name: str) -> None:
    bad = tmp_path / name
    bad.write_bytes(damaged(realdata)[name])
    out = tmp_path / "out"
    result = run_cli("import", str(bad), "--out", str(out))
    assert_refused(result, out, name)
    assert not re.search(r"[A-Z]\w+Error\b|struct\.error", result.stderr), result.stderr


def test_damaged_xls_bytes_never_crash(realdata: Path) -> None:
    """Cut and flipped copies of a real export: a Tournament or an InputError, nothing else."""
    good = xls_of((realdata / CR / STARTING[1]).read_bytes())
    rng = random.Random(8)
    messages = []
    for i in range(150):
        data = bytearray(good[:rng.randrange(8, len(good))] if i % 2 else good)
        for _ in range(rng.randrange(1, 12) if i % 3 else 0):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            parse_xls(bytes(data), source="x.xls")
        except InputError as exc:
            messages.append(str(exc))
    assert messages and all(m.startswith("x.xls") and "\n" not in m for m in messages)


def test_html_saved_as_xls_reads_as_the_page(realdata: Path, tmp_path: Path) -> None:
    """chess-results' older 'Excel' download: the page's HTML with an .xls name."""
    page = realdata / CR / "en_swiss_crosstable_art5_final_british2026.html"
    saved = tmp_path / "chessResultsList.xls"
    saved.write_bytes(page.read_bytes())
    old, new = importer.load(saved), importer.load(page)
    assert len(old.players) > 50 and same(old) == same(new)
    assert old.provenance[0].kind.startswith("chess-results")


def test_html_table_alone_saved_as_xls_reads_as_the_page(realdata: Path, tmp_path: Path) -> None:
    """Only the crosstable, in the HTML wrapper Excel opens (its office namespaces, a
    windows-1252 label): read as a saved fragment of the page."""
    text = (realdata / CR / "en_swiss_crosstable_art5_final_british2026.html").read_text("utf-8")
    start = text.index("<table", text.index("CRs1") - 200)
    table = text[start:text.index("</table>", start) + len("</table>")]
    wrapper = ('<html xmlns:o="urn:schemas-microsoft-com:office:office" '
               'xmlns:x="urn:schemas-microsoft-com:office:excel">\r\n<head><meta '
               'http-equiv="Content-Type" content="text/html; charset=windows-1252"></head>'
               f'\r\n<body>\r\n{table}\r\n</body></html>\r\n')
    saved = tmp_path / "chessResultsList.xls"
    saved.write_bytes(wrapper.encode("cp1252", errors="xmlcharrefreplace"))
    t = importer.load(saved)
    full = importer.load(realdata / CR / "en_swiss_crosstable_art5_final_british2026.html")
    assert [(p.start_no, p.name, p.rating) for p in t.players] == [
        (p.start_no, p.name, p.rating) for p in full.players]
    assert t.results == full.results and t.games == full.games
