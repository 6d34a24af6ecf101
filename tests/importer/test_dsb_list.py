"""importer.formats.nationallist.dsb: the DSB's DWZ list export (spieler.csv, zipped or not), in
both known layouts, re-saved variants, broken lines, and input that is no such list."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import importer.formats.nationallist.dsb as dsb
from importer.errors import InputError
from importer.formats.nationallist import read_national_list
from importer.formats.nationallist.dsb import read_dsb_list
from importer.model import RatingList


@pytest.fixture(scope="module")
def here(fixtures_dir: Path) -> Path:
    return fixtures_dir / "national" / "dsb"


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return buffer.getvalue()


def test_the_dewis_layout_in_windows_1252(here):
    listed = read_dsb_list((here / "spieler_dewis.csv").read_bytes(), source="spieler.csv")
    assert listed.system == "dwz" and listed.warnings == () and listed.published is None
    mueller, weiss, oezdemir, gross, neu = listed.entries
    assert (mueller.national_id, mueller.name, mueller.rating, mueller.evaluations) == (
        "10401-012", "Müller, Jörg", 1834, 57)
    assert (mueller.birth_year, mueller.fide_id, mueller.federation, mueller.sex) == (
        1975, "4600001", "GER", "M")
    assert (mueller.last_evaluated, mueller.club, mueller.rating_list) == (
        "202514", "10401", RatingList.STANDARD)
    assert (weiss.name, weiss.sex, weiss.fide_id, weiss.federation) == ("Weiß, Anna-Lena", "F", "", "")
    assert (oezdemir.name, oezdemir.rating, oezdemir.evaluations) == ("Özdemir, Çetin", None, None)
    assert gross.name == "Groß, Ludwig Dr."
    assert (neu.rating, neu.birth_year) == (None, None)  # 0 is "none" in the DSB's lists


def test_the_nu_layout_of_2026(here):
    listed = read_dsb_list((here / "spieler_nu_2026.csv").read_bytes())
    meier, schaefer, zak, meier_again = listed.entries
    assert (meier.national_id, meier.name, meier.rating, meier.evaluations) == (
        "C0327-1001", "Meier, Anna", 1612, 23)
    assert (meier.sex, meier.last_evaluated, meier.fide_id) == ("F", "2026-08-30", "4600002")
    assert (schaefer.name, schaefer.rating) == ("Schäfer, Björn", 2034)
    assert (zak.name, zak.federation, zak.rating) == ("Žák, Tomáš", "CZE", None)  # cp1252 0x8E
    assert meier_again.national_id == "C0412-55"  # one line per club membership


def test_a_resaved_file_with_semicolons_and_a_utf8_bom(here):
    listed = read_dsb_list((here / "spieler_semicolon_utf8.csv").read_bytes())
    assert [(e.national_id, e.name, e.rating) for e in listed.entries] == [
        ("20101-004", "Jäger, Theo", 1105), ("20101-005", "Kühn, Ida", 1477)]


def test_the_zip_with_clubs_and_its_date(here):
    data = _zip({"LV-0-csv/spieler.csv": (here / "spieler_nu_2026.csv").read_bytes(),
                 "LV-0-csv/vereine.csv": (here / "vereine_nu_2026.csv").read_bytes(),
                 "LV-0-csv/README.txt": (here / "README_nu_2026.txt").read_bytes()})
    listed = read_dsb_list(data, source="LV-0-csv.zip")
    assert listed.published is not None and listed.published.isoformat() == "2026-09-02"
    assert listed.source == "LV-0-csv.zip"
    assert [e.club for e in listed.entries] == ["SK Beispielstadt 1920"] * 2 + [
        "Schachfreunde Musterdorf"] * 2
    only_csv = _zip({"export.csv": (here / "spieler_dewis.csv").read_bytes()})
    assert len(read_dsb_list(only_csv).entries) == 5


def test_bad_lines_are_skipped_and_named(here):
    listed = read_dsb_list((here / "spieler_bad_lines.csv").read_bytes(), source="bad.csv")
    assert [e.national_id for e in listed.entries] == ["30101-001", "30101-008"]
    assert listed.warnings == (
        "bad.csv:3: expected 14 fields, found 6: skipped",
        "bad.csv:4: DWZ '15x0' is not a whole number: skipped",
        "bad.csv:5: no player name: skipped",
        "bad.csv:6: no ZPS and member number (nor ID): skipped",
        "bad.csv:7: FIDE id '46x0' is not a number: skipped",
        "bad.csv:9: birth year 'neunzehn' is not a year: skipped")


def test_warnings_are_capped(monkeypatch):
    monkeypatch.setattr(dsb, "MAX_WARNINGS", 2)
    lines = ["ZPS,Mgl_Nr,Spielername,DWZ", "1,1,A,1500"] + ["1,2,B,x"] * 5
    listed = read_dsb_list("\n".join(lines).encode())
    assert len(listed.entries) == 1
    assert listed.warnings[-1] == "… and 3 more lines skipped"


@pytest.mark.parametrize(("data", "words"), [
    (b"", "empty file"),
    (b"\n\n  \n", "empty file"),
    (b"\x00\x01\x02binary", "binary data"),
    (b"PK\x03\x04 not really a zip", "not a readable zip archive"),
])
def test_unreadable_input_raises_input_error(data, words):
    with pytest.raises(InputError, match=words):
        read_dsb_list(data, source="x.csv")


def test_another_csv_names_what_was_expected(here):
    with pytest.raises(InputError) as raised:
        read_dsb_list((here / "not_a_list.csv").read_bytes(), source="other.csv")
    assert raised.value.line == 1 and raised.value.source == "other.csv"
    assert "expected the DSB's spieler.csv" in str(raised.value)
    assert "Mgl_Nr" in str(raised.value)


def test_a_zip_without_the_list_and_a_too_large_member(here, monkeypatch):
    with pytest.raises(InputError, match=r"no spieler\.csv"):
        read_dsb_list(_zip({"a.txt": b"x", "b.csv": b"y", "c.csv": b"z"}), source="z.zip")
    monkeypatch.setattr(dsb, "MAX_MEMBER_BYTES", 10)
    with pytest.raises(InputError, match="larger than any DSB list"):
        read_dsb_list(_zip({"spieler.csv": (here / "spieler_dewis.csv").read_bytes()}))


def test_a_file_whose_every_line_is_bad_is_unreadable():
    with pytest.raises(InputError, match="no line could be read"):
        read_dsb_list(b"ZPS,Mgl_Nr,Spielername,DWZ\n1,1,A,x\n")


def test_read_through_the_national_list_reader(here):
    listed = read_national_list(here / "spieler_dewis.csv", "dwz")
    assert listed.source == "spieler_dewis.csv" and len(listed.entries) == 5


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=300).map(
    lambda t: ("ZPS,Mgl_Nr,Spielername,DWZ,Index\n" + t).encode()))
def test_no_input_crashes(data):
    try:
        listed = read_dsb_list(data, source="fuzz")
    except InputError:
        return
    assert all(e.national_id and e.name for e in listed.entries)
