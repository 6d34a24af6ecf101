"""importer.formats.fidelist: every FIDE list layout, zips, broken lines, hostile input, fuzzing."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import importer.formats.fidelist as fidelist
import importer.formats.fidelist.columns as fidelist_columns
import importer.formats.fidelist.streams as fidelist_streams
from importer.errors import ImporterError, InputError, UnknownFormat
from importer.formats.fidelist import FRAME_DTYPES, FideList, ListEntry, read_fide_list
from importer.model import RatingList

CARLSEN = "1503014"


@pytest.fixture(scope="module")
def real(realdata: Path) -> Path:
    """The real FIDE list excerpts (third-party: read in place, never copied)."""
    return realdata / "fide-list"


@pytest.fixture(scope="module")
def own(fixtures_dir: Path) -> Path:
    return fixtures_dir / "fide-list"


def entry(fl: FideList, fide_id: str) -> ListEntry:
    found = fl.get(fide_id)
    assert found is not None, fide_id
    return found


def zipped(tmp_path: Path, name: str, member: str, data: bytes) -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, data)
    return path


# ---------------------------------------------------------------- real excerpts


def test_foa_excerpt_carlsen_and_flags(real: Path) -> None:
    fl = read_fide_list(real / "players_list_foa_excerpt.txt")
    assert fl.format == "foa"
    assert fl.lists == ("standard", "rapid", "blitz")
    assert len(fl) == 10
    carlsen = entry(fl, CARLSEN)
    assert (carlsen.name, carlsen.federation, carlsen.sex, carlsen.title) == (
        "Carlsen, Magnus", "NOR", "M", "GM")
    assert (carlsen.std_rating, carlsen.std_games, carlsen.std_k) == (2823, 0, 10)
    assert (carlsen.rpd_rating, carlsen.rpd_games, carlsen.rpd_k) == (2801, 12, 10)
    assert (carlsen.blz_rating, carlsen.blz_games, carlsen.blz_k) == (2860, 0, 10)
    assert carlsen.birth_year == 1990 and carlsen.flags == ""
    assert carlsen.rating("rapid") == 2801 and carlsen.games("rapid") == 12
    assert carlsen.rating(RatingList.BLITZ) == 2860
    assert carlsen.k("blitz") == 10
    ding = entry(fl, "8603677")
    assert (ding.std_rating, ding.std_games) == (2723, 11)
    assert entry(fl, "2016192").blz_rating == 2800
    ojok = entry(fl, "10001492")
    assert ojok.o_title == "FI,LSI" and ojok.title == "" and ojok.birth_year == 1974
    both = entry(fl, "8605360")
    assert both.flags == "wi" and both.inactive and both.woman and both.sex == "F"
    assert (both.std_rating, both.std_k, both.rpd_rating, both.blz_games) == (1949, 40, None, None)
    assert entry(fl, "25021044").inactive and not entry(fl, "25021044").woman
    unrated_woman = entry(fl, "29976634")
    assert unrated_woman.woman and not unrated_woman.inactive
    assert all(unrated_woman.rating(x) is None for x in fidelist.LISTS)
    assert entry(fl, "1478800").std_games is None


def test_foa_excerpt_repeated_id_is_reported(real: Path) -> None:
    fl = read_fide_list(real / "players_list_foa_excerpt.txt")
    # Carlsen from three months: get() returns the first line (7); lines 10 and 11 warned.
    assert fl.line_of(CARLSEN) == 7
    repeats = [w for w in fl.warnings if "repeats line 7" in w]
    assert [w.split(":")[1] for w in repeats] == ["10", "11"]
    frame = fl.to_frame()
    assert frame.loc[frame.fide_id == CARLSEN, "std_rating"].tolist() == [2823, 2841, 2823]
    assert frame.loc[frame.fide_id == CARLSEN, "std_games"].tolist() == [0, 7, 10]


def test_foa_excerpt_frame_dtypes_and_na(real: Path) -> None:
    frame = read_fide_list(real / "players_list_foa_excerpt.txt").to_frame()
    assert list(frame.columns) == list(FRAME_DTYPES)
    assert {c: str(t) for c, t in frame.dtypes.items()} == FRAME_DTYPES
    assert (frame.std_rating.dropna() > 0).all()
    assert frame.std_rating.isna().sum() == 2
    unrated = frame.set_index("fide_id").loc["29976634"]
    assert pd.isna(unrated.std_rating) and pd.isna(unrated.blz_k)
    assert frame.fide_id.tolist()[:2] == ["10001492", "8605360"]


def test_legacy_excerpt_trimmed_lines_and_empty_name(real: Path) -> None:
    fl = read_fide_list(real / "players_list_legacy_excerpt.txt")
    assert fl.format == "legacy" and len(fl) == 4 and fl.warnings == []
    nameless = entry(fl, "7704658")
    assert (nameless.name, nameless.federation, nameless.birth_year) == ("", "TTO", None)
    assert nameless.std_rating is None and nameless.std_games is None
    doshtagir = entry(fl, "10207538")
    assert (doshtagir.std_rating, doshtagir.std_k, doshtagir.rpd_k) == (1840, 40, 20)
    assert (doshtagir.blz_rating, doshtagir.birth_year) == (1860, 1974)
    akshaya = entry(fl, "5031605")  # line trimmed right after the flag
    assert akshaya.flags == "wi" and akshaya.std_rating == 2014 and akshaya.rpd_rating is None
    aaberg = entry(fl, "1701991")  # trimmed right after the birth year
    assert (aaberg.title, aaberg.std_rating, aaberg.birth_year, aaberg.flags) == (
        "IM", 2393, 1972, "")


def test_old_2011_excerpt_glued_tokens(real: Path) -> None:
    fl = read_fide_list(real / "players_list_old_2011_excerpt.txt")
    assert fl.format == "old" and fl.lists == ("standard",)
    assert repr(fl).startswith("<FideList old standard 2011-03-01: 3 players, 0 warnings")
    assert fl.list_date == dt.date(2011, 3, 1)  # the Mar11 rating column
    andreikin = entry(fl, "4158814")  # right-aligned id, one-letter title
    assert (andreikin.name, andreikin.federation, andreikin.title) == (
        "Andreikin, Dmitry", "RUS", "GM")
    assert (andreikin.std_rating, andreikin.std_games, andreikin.birth_year) == (2686, 9, 1990)
    assert andreikin.std_k is None and andreikin.rpd_rating is None
    sourab = entry(fl, "10206612")
    assert (sourab.std_rating, sourab.std_games, sourab.birth_year) == (1714, 0, None)
    sohita = entry(fl, "5080444")
    assert sohita.flags == "wi" and sohita.sex == "F" and sohita.birth_year == 1995


def test_xml_excerpt_combined_and_single_records(real: Path) -> None:
    fl = read_fide_list(real / "players_list_xml_excerpt.xml")
    assert fl.format == "xml-combined" and len(fl) == 3 and fl.warnings == []
    zeros = entry(fl, "10292519")  # rating 0 everywhere is unrated
    assert zeros.name == "A A M Imtiaz, Chowdhury" and zeros.birth_year == 1975
    assert [zeros.rating(x) for x in fidelist.LISTS] == [None, None, None]
    assert zeros.std_k is None and zeros.std_games == 0
    nameless = entry(fl, "419214")
    assert (nameless.name, nameless.federation, nameless.birth_year) == ("", "ENG", None)
    assert (nameless.std_rating, nameless.std_k, nameless.rpd_rating, nameless.rpd_games) == (
        1736, 20, 1587, 10)
    assert nameless.blz_rating is None and nameless.blz_games is None
    single = entry(fl, "88180085")  # 13-child single-type record: the standard list here
    assert (single.std_rating, single.std_k, single.flags, single.sex) == (1415, 40, "w", "F")
    assert single.rpd_rating is None


def test_real_excerpts_zipped(real: Path, tmp_path: Path) -> None:
    for name in ("players_list_foa_excerpt.txt", "players_list_xml_excerpt.xml"):
        plain = read_fide_list(real / name)
        path = zipped(tmp_path, name + ".zip", name, (real / name).read_bytes())
        packed = read_fide_list(path)
        assert packed.format == plain.format
        assert list(packed) == list(plain)
        assert packed.source == f"{path}[{name}]"
        assert read_fide_list(path.read_bytes()).to_frame().equals(plain.to_frame())


def test_real_xml_filtered(real: Path) -> None:
    fl = read_fide_list(real / "players_list_xml_excerpt.xml", fide_ids=["419214", "123"])
    assert [e.fide_id for e in fl] == ["419214"]


def test_real_filter_and_variants(real: Path) -> None:
    data = (real / "players_list_foa_excerpt.txt").read_bytes()
    full = read_fide_list(data)
    fl = read_fide_list(data, fide_ids={CARLSEN, " 2016192 ", "999", "abc"})
    assert len(fl) == 4 and entry(fl, "2016192").std_rating == 2792
    assert fl.get("8603677") is None
    assert entry(fl, CARLSEN) == entry(full, CARLSEN)
    # LF endings, trimmed trailing blanks and a BOM read the same (the slow path).
    lf = b"\xef\xbb\xbf" + b"\n".join(x.rstrip() for x in data.split(b"\r\n"))
    assert list(read_fide_list(lf)) == list(full)


def test_uneven_lines_with_even_total(real: Path) -> None:
    # One line a blank short, the next a blank long: the block size still looks uniform.
    lines = (real / "players_list_foa_excerpt.txt").read_bytes().split(b"\r\n")
    lines[2], lines[3] = lines[2][:-1], lines[3] + b" "
    fl = read_fide_list(b"\r\n".join(lines))
    assert list(fl) == list(read_fide_list(real / "players_list_foa_excerpt.txt"))


def test_chunk_boundaries(real: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (real / "players_list_foa_excerpt.txt").read_bytes()
    full = list(read_fide_list(data))
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 500)
    assert list(read_fide_list(data)) == full
    assert list(read_fide_list(data.rstrip(b"\r\n"))) == full  # no final newline


# ---------------------------------------------------------------- own fixtures


def test_single_type_list_kind_from_name(own: Path, tmp_path: Path) -> None:
    fl = read_fide_list(own / "rapid_rating_list_oct26.txt")
    assert fl.format == "single" and fl.lists == ("rapid",)
    assert fl.list_date == dt.date(2026, 10, 1)
    alpha = entry(fl, "90000011")
    assert (alpha.rpd_rating, alpha.rpd_games, alpha.rpd_k, alpha.std_rating) == (2650, 7, 10, None)
    assert entry(fl, "90000099").birth_year is None
    assert entry(fl, "90000088").rpd_rating is None
    data = (own / "rapid_rating_list_oct26.txt").read_bytes()
    assert read_fide_list(data, kind="blitz").lists == ("blitz",)
    anonymous = read_fide_list(data)
    assert anonymous.lists == ("standard",)
    assert any("read as standard" in w for w in anonymous.warnings)
    path = zipped(tmp_path, "standard_sep26frl.zip", "standard_sep26frl.txt", data)
    dated = read_fide_list(path)
    assert dated.lists == ("standard",) and dated.list_date == dt.date(2026, 10, 1)
    assert read_fide_list(path, list_date=dt.date(2026, 9, 1)).list_date == dt.date(2026, 9, 1)
    with pytest.raises(ValueError, match="kind"):
        read_fide_list(data, kind="bullet")


def test_single_type_xml(own: Path, tmp_path: Path) -> None:
    fl = read_fide_list(own / "blitz_rating_list_xml.xml")
    assert fl.format == "xml-single" and fl.lists == ("blitz",)
    alpha = entry(fl, "90000011")
    assert (alpha.blz_rating, alpha.blz_games, alpha.blz_k, alpha.std_rating) == (2688, 14, 10, None)
    hotel = entry(fl, "90000088")
    assert (hotel.blz_rating, hotel.blz_k, hotel.w_title, hotel.flags) == (None, None, "WCM", "wi")
    assert len(fl) == 2
    assert any(":4: <fideid> is '9000x'" in w for w in fl.warnings)
    assert any(":5: <rating> is 'high'" in w for w in fl.warnings)
    path = zipped(tmp_path, "blitz_nov25frl_xml.zip", "blitz_nov25frl_xml.xml",
                  (own / "blitz_rating_list_xml.xml").read_bytes())
    packed = read_fide_list(path)
    assert packed.lists == ("blitz",) and packed.list_date == dt.date(2025, 11, 1)


def test_otit_overflow_line(own: Path) -> None:
    fl = read_fide_list(own / "foa_otit_overflow.txt")
    assert len(fl) == 3 and fl.warnings == []
    gamma = entry(fl, "90000033")
    assert (gamma.o_title, gamma.foa_title, gamma.std_rating, gamma.std_games) == (
        "FA,FI,IA,IO,LSI1", "AFM", 2304, 5)
    assert (gamma.rpd_rating, gamma.birth_year, gamma.flags) == (2250, 1980, "i")
    assert entry(fl, "90000022").foa_title == "AGM"
    assert fl.to_frame().o_title.tolist() == ["", "FA,FI,IA,IO,LSI1", ""]
    filtered = read_fide_list(own / "foa_otit_overflow.txt", fide_ids=["90000033"])
    assert list(filtered) == [gamma]


def test_broken_lines_skipped_and_reported(own: Path) -> None:
    seen: list[str] = []
    fl = read_fide_list(own / "foa_broken_lines.txt", on_warning=seen.append)
    assert [e.fide_id for e in fl] == ["90000011", "90000022"]
    assert seen == fl.warnings
    by_line = {int(w.split(":")[1]): w for w in fl.warnings}
    assert sorted(by_line) == [3, 4, 6, 7, 8, 9]
    assert "SRtng column has '21x4'" in by_line[3]
    assert "ID Number column has" in by_line[4]
    assert "170 characters" in by_line[6]
    assert "control characters" in by_line[7]
    assert "'19 00'" in by_line[8]
    assert "163 characters" in by_line[9]
    assert all(w.endswith("line skipped") for w in fl.warnings)


def test_warnings_are_capped(monkeypatch: pytest.MonkeyPatch, own: Path) -> None:
    monkeypatch.setattr(fidelist_columns, "MAX_WARNINGS", 3)
    lines = (own / "foa_broken_lines.txt").read_bytes().split(b"\r\n")
    data = b"\r\n".join([lines[0]] + [lines[2]] * 10 + [lines[1]])
    fl = read_fide_list(data)
    assert len(fl) == 1
    assert len(fl.warnings) == 4 and fl.warnings[-1] == "<bytes>: 10 broken lines skipped in all"


def test_overlong_line_without_newline(monkeypatch: pytest.MonkeyPatch, own: Path) -> None:
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 256)
    monkeypatch.setattr(fidelist_streams, "MAX_LINE_BYTES", 1000)
    lines = (own / "foa_otit_overflow.txt").read_bytes().split(b"\r\n")
    data = b"\r\n".join([lines[0], lines[1], b"9" * 5000, lines[3]])
    fl = read_fide_list(data)
    assert [e.fide_id for e in fl] == ["90000011", "90000022"]
    assert any(":3: line longer than 1000 bytes" in w for w in fl.warnings)


# ---------------------------------------------------------------- refusals


def test_billion_laughs_refused_quickly(own: Path, tmp_path: Path) -> None:
    start = time.perf_counter()
    with pytest.raises(InputError, match="entity declarations are not allowed"):
        read_fide_list(own / "xml_billion_laughs.xml")
    data = (own / "xml_billion_laughs.xml").read_bytes()
    with pytest.raises(InputError, match="entity declarations are not allowed"):
        read_fide_list(zipped(tmp_path, "x.zip", "players_list_xml_foa.xml", data))
    # A DOCTYPE after a long harmless start is caught by the streaming guard.
    late = b"<playerslist>" + b"<!-- pad -->" * 2_000_000 + b"<!DOCTYPE x>"
    with pytest.raises(InputError, match="entity declarations are not allowed"):
        read_fide_list(late)
    assert time.perf_counter() - start < 5


def test_xml_predefined_and_character_references() -> None:
    data = (b"<playerslist><player><fideid>5</fideid><name>O&apos;Brien &amp; Co, "
            b"J&#233;r&#xF4;me</name><rating>2000</rating></player></playerslist>")
    fl = read_fide_list(data, kind="standard")
    assert entry(fl, "5").name == "O'Brien & Co, J\u00e9r\u00f4me"
    assert fl.to_frame().name.tolist() == ["O'Brien & Co, J\u00e9r\u00f4me"]
    assert fl.warnings == []


def test_xml_refusals(own: Path) -> None:
    with pytest.raises(UnknownFormat, match=r"xml_wrong_root\.xml: XML root is <tournament>"):
        read_fide_list(own / "xml_wrong_root.xml")
    with pytest.raises(InputError, match=r"<bytes>:3: malformed XML"):
        read_fide_list(b"<playerslist>\n<player><fideid>1</fideid>\n</playerslist>")
    with pytest.raises(UnknownFormat, match="expected <playerslist>"):
        read_fide_list(b"<html><body>error page</body></html>")


def test_zip_declared_size_bound(tmp_path: Path) -> None:
    path = zipped(tmp_path, "bomb.zip", "players_list_foa.txt", b"0" * 200_000)
    with pytest.raises(InputError, match="zip member expands past 100000 bytes"):
        read_fide_list(path, max_member_bytes=100_000)
    # A member that declares 4 GB (header fields patched; nothing that large is built).
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(signature) + offset
        data[at:at + 4] = struct.pack("<I", 0xF000_0000)
    start = time.perf_counter()
    with pytest.raises(InputError, match="zip member expands past"):
        read_fide_list(bytes(data))
    assert time.perf_counter() - start < 1


def test_zip_stream_bound_counts_bytes() -> None:
    stream = fidelist_streams._Stream(io.BytesIO(b"x" * 5000), "bomb.zip[a.txt]", 4096)
    assert len(stream.read(4000)) == 4000
    with pytest.raises(InputError, match=r"bomb\.zip\[a\.txt\]: zip member expands past 4096"):
        stream.read(4000)


def test_zip_lying_about_size_is_corrupt(tmp_path: Path) -> None:
    # Declares 50 bytes, holds 90 kB: zipfile stops at 50 and the CRC check fails.
    data = bytearray(zipped(tmp_path, "l.zip", "a.txt", b"ID Number " + b" " * 90_000).read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.find(signature) + offset
        data[at:at + 4] = struct.pack("<I", 50)
    with pytest.raises(InputError, match="corrupt zip member"):
        read_fide_list(bytes(data))


def test_zip_members(tmp_path: Path) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", "x")
        zf.writestr("b.xml", "y")
    with pytest.raises(InputError, match=r"expected one \.txt or \.xml list in the zip, found a"):
        read_fide_list(path)
    with pytest.raises(InputError, match="not a readable zip"):
        read_fide_list(b"PK\x03\x04garbage")


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty file; expected a FIDE rating list"),
    (b"  \r\n\r\n", "empty file"),
    (b"\x00\x01\x02\xff" * 100, "binary content"),
    (b"\xff\xfe\x00I\x00D", "binary content"),
    (b"Name,Rating\n", "unknown header 'Name,Rating'"),
    (b"ID Number Name Fed Elo\n", "unknown column 'Elo'"),
    (b"ID Number Fed SRtng\n", "lacks the Name or rating column"),
    (b"ID Number Name SRtng SRtng\n", "appears twice"),
    (b"ID Number Name \xe9 SRtng\n", "not ASCII"),
    (b"ID Number Name SRtng " + b"k" * 5000 + b"\n", "unknown column 'kkkk"),
], ids=["empty", "blank", "binary", "utf16", "csv", "unknown-column", "no-name", "twice",
        "not-ascii", "long-token"])
def test_unreadable_input(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        read_fide_list(data)
    assert str(info.value).startswith("<bytes>")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_fide_list(tmp_path / "nope.txt")


def test_header_only_list_is_empty(real: Path) -> None:
    header = (real / "players_list_foa_excerpt.txt").read_bytes().split(b"\r\n")[0]
    fl = read_fide_list(header)
    assert len(fl) == 0 and fl.get(CARLSEN) is None and CARLSEN not in fl
    assert list(fl.to_frame().columns) == list(FRAME_DTYPES)


def test_get_normalises_ids(real: Path) -> None:
    fl = read_fide_list(real / "players_list_old_2011_excerpt.txt")
    assert fl.get(" 4158814 ") == fl.get("4158814") is not None
    assert fl.get("04158814") is None and fl.get("x") is None and fl.get("") is None
    assert "5080444" in fl and 5080444 not in fl


def test_import_stays_light() -> None:
    code = ("import sys, importer.formats.fidelist; "
            "print(sorted(m for m in ('pandas', 'lxml', 'rating', 'reports') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- fuzzing

_OWN_LINES = (Path(__file__).resolve().parents[2] / "fixtures" / "fide-list"
              / "foa_otit_overflow.txt").read_bytes().split(b"\r\n")
_FOA_HEADER = _OWN_LINES[0]
_FUZZ_LINES = [_OWN_LINES[1], _OWN_LINES[3]]


def test_fuzz_seed_lines_are_valid() -> None:
    fl = read_fide_list(b"\r\n".join([_FOA_HEADER, *_FUZZ_LINES]))
    assert len(fl) == 2 and fl.warnings == []


_mutation = st.tuples(st.integers(0, 2), st.integers(0, 170), st.integers(0, 3),
                      st.binary(min_size=0, max_size=6))


@given(st.lists(_mutation, min_size=1, max_size=6), st.booleans())
def test_fuzz_mutated_lines(mutations: list[tuple[int, int, int, bytes]], crlf: bool) -> None:
    lines = [*_FUZZ_LINES, _FOA_HEADER]  # the header is mutated too (index 2)
    for which, at, cut, insert in mutations:
        line = lines[which]
        lines[which] = line[:at] + insert + line[at + cut:]
    data = (b"\r\n" if crlf else b"\n").join([lines[2], *lines[:2]])
    try:
        fl = read_fide_list(data)
    except ImporterError:
        return
    assert len(fl) + sum("skipped" in w for w in fl.warnings) >= 1
    fl.to_frame()
    for e in fl:
        assert all(e.rating(x) is None or 0 < e.rating(x) < 10_000  # type: ignore[operator]
                   for x in fidelist.LISTS)


_XML_RECORD = (b"<player><fideid>90000011</fideid><name>A, B</name><country>NOR</country>"
               b"<sex>M</sex><rating>2701</rating><games>9</games><k>10</k>"
               b"<birthday>1991</birthday><flag>w</flag></player>")


@given(st.integers(0, len(_XML_RECORD)), st.integers(0, 4), st.binary(max_size=8))
def test_fuzz_mutated_xml(at: int, cut: int, insert: bytes) -> None:
    record = _XML_RECORD[:at] + insert + _XML_RECORD[at + cut:]
    try:
        fl = read_fide_list(b"<playerslist>\n" + record + b"\n</playerslist>\n")
    except ImporterError:
        return
    fl.to_frame()
    assert len(fl) <= 1


@given(st.sampled_from([b"", b"<playerslist>", b"PK\x03\x04", b"ID Number"]),
       st.binary(max_size=300))
def test_fuzz_arbitrary_bytes(prefix: bytes, data: bytes) -> None:
    with contextlib.suppress(ImporterError):
        read_fide_list(prefix + data)
