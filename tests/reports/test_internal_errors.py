"""Errors that tell the truth: a bug in fiderate is reported as one, never as bad input.

Bad input keeps its one ``fiderate: error: …`` line and exit code 2.  Any other exception
(a fault injected here into a library function) ends with exactly one line
``fiderate: internal error: <type>: <message> (please report; …)`` and exit code 1, names no
input file and shows no traceback, unless ``--debug`` asks for it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

import importer.formats.excel
import importer.formats.trf
import reports.cli.report
from importer.errors import InputError
from importer.formats.excel import looks_like_xlsx, parse_xlsx
from reports.errors import internal_error_line

ROOT = Path(__file__).resolve().parents[2]
LINE = "fiderate: internal error: KeyError: 'x' (please report; run with --debug for the traceback)"


def boom(*_args, **_kwargs):
    raise KeyError("x")


def assert_internal_error(res, *not_blamed: str) -> None:
    assert res.code == 1, res
    assert res.stderr.splitlines() == [LINE]
    assert "Traceback" not in res.stderr
    for name in not_blamed:
        assert name not in res.stderr


# ---------------------------------------------------------------- the CLI, in process


def test_import_fault_is_an_internal_error(run_cli, fixtures_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(importer.formats.trf, "parse_trf", boom)
    src, out = fixtures_dir / "sample_open.trf", tmp_path / "out"
    res = run_cli("import", str(src), "--out", str(out))
    assert_internal_error(res, str(src), src.name, "sample_open")
    assert res.stdout == ""
    assert not out.exists()


def test_report_fault_is_an_internal_error(run_cli, fixtures_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(reports.cli.report, "build_report", boom)  # the name the command calls
    src, out = fixtures_dir / "sample_open.trf", tmp_path / "out"
    res = run_cli("report", str(src), "--out", str(out))
    assert_internal_error(res, str(src), src.name, "sample_open")
    assert not out.exists()


def test_excel_fault_after_openpyxl_is_not_blamed_on_the_workbook(run_cli, fixtures_dir, tmp_path,
                                                                  monkeypatch):
    """Our own handling of the cells is outside the 'unreadable workbook' translation."""
    monkeypatch.setattr(importer.formats.excel, "_raw", boom)
    src = fixtures_dir / "excel" / "ranking_crosstable_complete_ties.xlsx"
    with pytest.raises(KeyError):
        parse_xlsx(src.read_bytes(), source=src.name)
    res = run_cli("import", str(src), "--out", str(tmp_path / "out"))
    assert_internal_error(res, src.name, "unreadable")


def test_debug_reraises_the_internal_error(fixtures_dir, tmp_path, monkeypatch):
    from reports.cli import main

    monkeypatch.setattr(importer.formats.trf, "parse_trf", boom)
    with pytest.raises(KeyError, match="x"):
        main(["--debug", "import", str(fixtures_dir / "sample_open.trf"),
              "--out", str(tmp_path / "out")])


@pytest.mark.parametrize(("exc", "code", "line"), [
    (InputError("bad row", source="t.trf", line=3), 2, "fiderate: error: t.trf:3: bad row"),
    (KeyboardInterrupt(), 130, "Aborted."),  # click turns it into Abort
    (RuntimeError(), 1, "fiderate: internal error: RuntimeError (please report; run with "
                        "--debug for the traceback)"),
], ids=["input-error", "interrupt", "no-message"])
def test_what_each_kind_of_exception_ends_with(run_cli, fixtures_dir, tmp_path, monkeypatch,
                                               exc, code, line):
    def fail(*_args, **_kwargs):
        raise exc

    monkeypatch.setattr(importer.formats.trf, "parse_trf", fail)
    res = run_cli("import", str(fixtures_dir / "sample_open.trf"), "--out", str(tmp_path / "o"))
    assert res.code == code, res
    assert res.stderr.strip().splitlines() == [line]


def test_usage_errors_stay_exit_2(run_cli):
    res = run_cli("import", "--no-such-option")
    assert res.code == 2
    assert res.stderr.startswith("fiderate: error: ")
    assert "internal error" not in res.stderr


def test_the_internal_error_line():
    assert internal_error_line(KeyError("x")) == LINE
    line = internal_error_line(ValueError("first line\n  second\tline"))
    assert line.startswith("fiderate: internal error: ValueError: first line second line (")
    long = internal_error_line(ValueError("y" * 1000))
    assert "\n" not in long
    assert len(long) < 400
    assert "y…" in long


# ---------------------------------------------------------------- a real interpreter

_RUN = """
import sys
import importer.formats.trf
def boom(*a, **k):
    raise KeyError("x")
importer.formats.trf.parse_trf = boom
from reports.cli import main
main(sys.argv[1:])
"""


def _fiderate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", _RUN, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_real_run_prints_one_line_and_exits_1(tmp_path):
    src = ROOT / "fixtures" / "sample_open.trf"
    proc = _fiderate("import", str(src), "--out", str(tmp_path / "out"))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == [LINE]
    assert proc.stdout == ""


def test_a_real_run_with_debug_shows_the_traceback(tmp_path):
    src = ROOT / "fixtures" / "sample_open.trf"
    proc = _fiderate("--debug", "import", str(src), "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "Traceback (most recent call last)" in proc.stderr
    assert "in boom" in proc.stderr
    assert proc.stderr.rstrip().endswith("KeyError: 'x'")
    assert "internal error" not in proc.stderr


# ---------------------------------------------------------------- damaged workbooks stay input errors


def _workbook() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["No.", "Name", "Rtg"])
    ws.append([1, "A, B", 2000])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _edit(data: bytes, edits: dict[str, bytes | None], **flags: int) -> bytes:
    """A copy of the workbook with members replaced (None: left out)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = edits.get(info.filename, src.read(info.filename))
            if body is not None:
                z.writestr(info.filename, body)
    raw = bytearray(out.getvalue())
    for offset, value in flags.items():  # e.g. general-purpose flag bits in every header
        at, pos = int(offset.lstrip("_")), 0
        while (pos := raw.find(b"PK\x01\x02", pos)) >= 0:
            raw[pos + at] |= value
            pos += 4
    return bytes(raw)


SHEET = "xl/worksheets/sheet1.xml"


def _sheet(data: bytes) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read(SHEET)


DAMAGED = {
    "sheet-not-xml": lambda d: _edit(d, {SHEET: b"this is not XML"}),
    "sheet-cut": lambda d: _edit(d, {SHEET: _sheet(d)[: len(_sheet(d)) // 2]}),
    "styles-not-xml": lambda d: _edit(d, {"xl/styles.xml": b"<styleSheet"}),
    "no-relationships": lambda d: _edit(d, {"xl/_rels/workbook.xml.rels": None}),
    "no-content-types": lambda d: _edit(d, {"[Content_Types].xml": None}),
    "no-sheet": lambda d: _edit(d, {SHEET: None}),
    "bad-cell-reference": lambda d: _edit(d, {SHEET: _sheet(d).replace(b'r="A2"', b'r="A-"')}),
    "bad-number": lambda d: _edit(d, {SHEET: _sheet(d).replace(b"<v>2000</v>", b"<v>x</v>")}),
    "shared-string-past-the-table": lambda d: _edit(d, {SHEET: _sheet(d).replace(
        b'<c r="B2" t="inlineStr"><is><t>A, B</t></is>', b'<c r="B2" t="s"><v>999</v>')}),
    "encrypted-members": lambda d: _edit(d, {}, _8=0x1),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_damaged_workbooks_are_input_errors(damage):
    data = DAMAGED[damage](_workbook())
    with pytest.raises(InputError, match=r"^x\.xlsx: "):
        parse_xlsx(data, source="x.xlsx")


def test_damage_messages_are_one_line():
    """openpyxl's own message for a bad workbook part runs over three lines."""
    workbook = zipfile.ZipFile(io.BytesIO(_workbook())).read("xl/workbook.xml")
    data = _edit(_workbook(), {"xl/workbook.xml": workbook.replace(b'state="visible"',
                                                                   b'state="nope"')})
    with pytest.raises(InputError, match="Unable to read workbook") as info:
        parse_xlsx(data, source="x.xlsx")
    assert "\n" not in str(info.value)


def test_a_zip_version_zipfile_cannot_read_is_not_a_workbook():
    data = bytearray(_workbook())
    pos = data.find(b"PK\x01\x02")
    data[pos + 6] = 99  # "version needed to extract": 9.9
    assert not looks_like_xlsx(bytes(data))
    with pytest.raises(InputError, match="not a zip archive"):
        parse_xlsx(bytes(data), source="x.xlsx")


def test_entity_bombs_in_a_sheet_are_refused_without_defusedxml(tmp_path):
    """fiderate does not depend on defusedxml: openpyxl then parses sheets with the standard
    library, whose expat (2.4.1 and later) refuses entity amplification itself
    (https://docs.python.org/3/library/xml.html#xml-vulnerabilities).  Checked in a fresh
    interpreter with openpyxl's defusedxml switch off, whether or not it is installed."""
    import pyexpat

    assert pyexpat.version_info >= (2, 4, 1)
    sheet = _sheet(_workbook()).decode()
    start = sheet.index("?>") + 2 if "?>" in sheet else 0
    laughs = '<!DOCTYPE worksheet [<!ENTITY a0 "' + "x" * 10 + '">' + "".join(
        f'<!ENTITY a{i} "' + f"&a{i - 1};" * 10 + '">' for i in range(1, 10)) + "]>"
    bomb = sheet[:start] + laughs + sheet[start:].replace("<v>2000</v>", "<v>&a9;</v>")
    path = tmp_path / "bomb.xlsx"
    path.write_bytes(_edit(_workbook(), {SHEET: bomb.encode()}))
    code = ("import sys, openpyxl\n"
            "assert not openpyxl.DEFUSEDXML\n"
            "from importer.formats.excel import parse_xlsx\n"
            "from importer.errors import InputError\n"
            "try:\n"
            "    parse_xlsx(open(sys.argv[1], 'rb').read(), source='bomb.xlsx')\n"
            "except InputError as exc:\n"
            "    print(exc)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENPYXL_DEFUSEDXML": "False"}
    proc = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("bomb.xlsx: unreadable Excel workbook: it is damaged"), proc.stdout
    assert "ParseError" not in proc.stdout  # words, not the library's class names
    assert "amplification" in proc.stdout
