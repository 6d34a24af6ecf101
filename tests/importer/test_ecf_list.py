"""The ECF's rating list download (importer/formats/nationallist/ecf.py): the layouts, the entries,
tolerance of bad lines and refusal of files that are not the list.  The fixtures are
synthetic (fixtures/national/ecf/SOURCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.errors import InputError
from importer.formats.nationallist import SYSTEMS, read_national_list
from importer.formats.nationallist.ecf import MAX_WARNINGS, read_ecf_list
from importer.formats.nationallist.model import NationalEntry
from importer.model import RatingList

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "national" / "ecf"
STANDARD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
HEADER = "ECF_code,full_name,FIDE_no,gender,nation,revised_standard,standard_revised_category"


def read(name: str):
    return read_ecf_list((FIXTURES / name).read_bytes(), source=name)


def by_key(entries: tuple[NationalEntry, ...]) -> dict[tuple[str, RatingList], NationalEntry]:
    return {(e.national_id, e.rating_list): e for e in entries}


# --- the layouts ---

def test_the_current_csv_gives_one_entry_per_player_and_rated_list():
    listed = read("rating_list_csv_2025.csv")
    assert (listed.system, listed.source, listed.published, listed.warnings) == (
        "ecf", "rating_list_csv_2025.csv", None, ())
    got = by_key(listed.entries)
    assert sorted(got) == sorted([
        ("120004B", STANDARD), ("120004B", RAPID), ("137215H", STANDARD), ("137215H", RAPID),
        ("137215H", BLITZ), ("248830K", RAPID), ("095503D", STANDARD)])
    clara = got[("120004B", STANDARD)]
    assert (clara.name, clara.rating, clara.category, clara.sex, clara.federation, clara.club,
            clara.fide_id, clara.birth_year) == (
        "Ashdown, Clara M", 1851, "A", "F", "ENG", "Brighton & Hove", "", None)
    assert got[("120004B", RAPID)].rating == 1795  # revised, not original (1790)
    assert (got[("137215H", BLITZ)].rating, got[("137215H", BLITZ)].category) == (2101, "P")
    assert got[("137215H", STANDARD)].fide_id == "2411125"
    assert got[("248830K", RAPID)].name == "Nguyễn, Minh Anh"  # UTF-8 kept
    assert got[("095503D", STANDARD)].fide_id == "400000001"  # leading zero dropped
    assert got[("095503D", STANDARD)].name == "O'Neill, Seán"


def test_the_revised_rating_is_read_and_online_lists_are_not():
    """The revised rating is the official one (ECF help, Player's Profile); a player with an
    original rating only has none now; the online ratings are another system."""
    got = by_key(read("rating_list_csv_2025.csv").entries)
    assert ("301122C", STANDARD) not in got  # original 1500, revised empty
    assert not any(e.national_id == "311907E" for e in got.values())  # no rating at all
    assert all(e.rating != 1702 for e in got.values())  # Clara's online standard


def test_the_api_json_of_2021_with_original_ratings_only():
    listed = read("rating_list_api_2021.json")
    got = by_key(listed.entries)
    assert sorted(got) == [("120004B", RAPID), ("120004B", STANDARD), ("402281F", STANDARD)]
    assert (got[("120004B", RAPID)].rating, got[("120004B", RAPID)].category) == (1742, "B")
    assert got[("402281F", STANDARD)].fide_id == "4419880"  # a JSON number
    assert listed.warnings == ("rating_list_api_2021.json:5: not a player row; line skipped",)


def test_a_list_saved_from_a_spreadsheet():
    """A title line first, ';', cp1252, other header names, a date of birth, a FIDE id as a
    spreadsheet number and a category in the rating cell."""
    listed = read("rating_list_spreadsheet_cp1252.csv")
    got = by_key(listed.entries)
    assert listed.warnings == ()
    assert sorted(got) == [("120004B", RAPID), ("120004B", STANDARD), ("402281F", RAPID),
                           ("402281F", STANDARD), ("510006A", RAPID)]
    riya = got[("402281F", RAPID)]
    assert (riya.rating, riya.category, riya.birth_year, riya.fide_id) == (1795, "K", 2011,
                                                                         "4419880")
    amelie = got[("510006A", RAPID)]
    assert (amelie.name, amelie.rating, amelie.category, amelie.birth_year) == (
        "Bérard, Amélie", 1502, "P", 2009)


def test_the_header_decides_the_columns_not_their_order():
    data = b'club_name;Rapid;Name;ECF Ref;Sex\nLeeds;1500;"Doe, Jo";123456A;F\n'
    (entry,) = read_ecf_list(data).entries
    assert (entry.national_id, entry.name, entry.rating_list, entry.rating, entry.club,
            entry.sex) == ("123456A", "Doe, Jo", RAPID, 1500, "Leeds", "F")


def test_a_bom_tabs_and_blank_lines_are_read():
    data = "\ufeffECF code\tName\tStandard\r\n\r\n123456a\tDoe, Jo\t1500.0\r\n".encode()
    (entry,) = read_ecf_list(data).entries
    assert (entry.national_id, entry.rating) == ("123456A", 1500)


def test_the_system_table_reads_the_ecf_list(tmp_path):
    path = tmp_path / "ecf_2026_05.csv"
    path.write_bytes((FIXTURES / "rating_list_csv_2025.csv").read_bytes())
    assert "ecf" in SYSTEMS
    assert len(read_national_list(path, "ecf").entries) == 7


# --- bad lines: skipped with a warning, the rest read ---

def test_each_bad_line_is_skipped_or_its_cell_left_out_with_a_warning():
    listed = read("rating_list_bad_lines.csv")
    src = "rating_list_bad_lines.csv"
    assert listed.warnings == (
        f"{src}:3: no ECF code; line skipped",
        f"{src}:4: '12345' is not an ECF code (six digits and a letter); line skipped",
        f"{src}:5: 11 cells where the header has 10 (a comma in a name not quoted?); line "
        "skipped",
        f"{src}:6: 248830K: standard rating 'abc' is not a rating; left out",
        f"{src}:7: 301122C: standard rating 9999 is not plausible; left out",
        f"{src}:8: 095503D: FIDE id 'n/a' is not a number; left out",
        f"{src}:9: 120004B repeats line 2; line skipped",
        f"{src}:10: not a CSV line (unexpected end of data); line skipped",
        f"{src}:11: not a player row; line skipped",
        f"{src}:12: 402282G: no name; line skipped",
    )
    got = by_key(listed.entries)
    assert sorted(got) == sorted([("120004B", STANDARD), ("120004B", RAPID), ("248830K", RAPID),
                                  ("301122C", RAPID), ("095503D", STANDARD), ("510006A", RAPID)])
    assert got[("095503D", STANDARD)].fide_id == ""
    assert got[("120004B", STANDARD)].name == "Ashdown, Clara M"  # the first of the repeats


def test_warnings_beyond_the_limit_are_counted():
    rows = "".join(f"{i:06d}A,\"Doe, Jo\",,,,abc,\n" for i in range(MAX_WARNINGS + 5))
    listed = read_ecf_list((HEADER + "\n" + rows).encode(), source="x.csv")
    assert len(listed.warnings) == MAX_WARNINGS + 1
    assert listed.warnings[-1] == f"x.csv: {MAX_WARNINGS + 5} warnings in all (0 lines skipped)"


def test_control_characters_are_removed_from_names():
    data = (HEADER + "\n" + '123456A,"Doe,\x1b[31m Jo",,,,1500,K\n').encode()
    (entry,) = read_ecf_list(data).entries
    assert entry.name == "Doe, Jo"


# --- files that are not the list ---

@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty file"),
    (b"  \r\n ", "empty file"),
    (b"PK\x03\x04rest", "a ZIP archive"),
    (b"\x00\x01\x02binary", "binary data"),
    (b"ZPS,Mgl-Nr,Status,Spielername,DWZ\n10401,1,A,Doe,1500\n", "not the ECF rating list"),
    (b"ECF_code,full_name,club_name\n123456A,\"Doe, Jo\",Leeds\n", "not the ECF rating list"),
    (b"{not json", "not valid JSON"),
    (b'{"players": []}', "JSON without 'column_names' and 'players'"),
    (b"[1, 2]", "not the ECF rating list"),
])
def test_a_file_that_is_not_the_list_is_refused(data, message):
    with pytest.raises(InputError, match=message) as caught:
        read_ecf_list(data, source="f.csv")
    assert caught.value.source == "f.csv"


def test_a_header_after_ten_lines_is_not_looked_for():
    data = ("note\n" * 10 + HEADER + "\n123456A,\"Doe, Jo\",,,,1500,K\n").encode()
    with pytest.raises(InputError, match="not the ECF rating list"):
        read_ecf_list(data)


def test_a_json_with_an_unknown_header_is_refused():
    data = json.dumps({"column_names": ["a", "b"], "players": [[1, 2]]}).encode()
    with pytest.raises(InputError, match="not the ECF rating list"):
        read_ecf_list(data)


@given(st.binary(max_size=300))
def test_any_bytes_give_a_list_or_an_input_error(data):
    try:
        listed = read_ecf_list(data, source="fuzz")
    except InputError:
        return
    assert all(e.system == "ecf" and e.rating is not None for e in listed.entries)


TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
               max_size=12)


@given(st.lists(TEXT, min_size=1, max_size=8))
def test_any_rows_under_the_real_header_never_crash(cells_per_row):
    header = (FIXTURES / "rating_list_csv_2025.csv").read_text(encoding="utf-8").splitlines()[0]
    body = "\n".join(",".join([c.replace("\n", " ")] * 5) for c in cells_per_row)
    listed = read_ecf_list((header + "\n" + body).encode(), source="fuzz")
    assert all(1 <= (e.rating or 0) <= 3500 for e in listed.entries)
