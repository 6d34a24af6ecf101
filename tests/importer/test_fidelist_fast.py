"""importer.formats.fidelist's fast paths agree with the careful ones, value for value and line for line.

The numpy readers (fixed-width TXT blocks, regular XML blocks) are checked against the
line-by-line TXT path and against lxml on the same players, and their edge cases (number
layouts, references, irregular XML, chunk boundaries, zips read ahead) one by one.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

import importer.formats.fidelist.streams as fidelist_streams
from importer.errors import InputError
from importer.formats.fidelist import FideList, ListEntry, read_fide_list

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)
TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title", "rating",
        "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating", "blitz_games",
        "blitz_k", "birthday", "flag")


def players(n: int) -> list[list[str]]:
    """``n`` varied players, as the 19 field texts of the combined layout."""
    out = []
    for i in range(n):
        rated = i % 5 != 0
        out.append([str(30_000_000 + 7 * i), f"Player{i}, O'Neil" if i % 7 == 0 else f"Player{i}, A",
                    ("NOR", "IND", "", "NON")[i % 4], "F" if i % 3 == 0 else "M",
                    ("GM", "", "", "FM")[i % 4], "WIM" if i % 6 == 0 else "",
                    "FA,FI" if i % 11 == 0 else "", "", str(1400 + i % 1400) if rated else "",
                    str(i % 31) if rated else "", ("10", "20", "40")[i % 3] if rated else "",
                    str(1500 + i % 900) if i % 2 else "", "3" if i % 2 else "", "20" if i % 2 else "",
                    "", "", "", str(1950 + i % 60) if i % 9 else "0", ("", "i", "w", "wi")[i % 4]])
    return out


def txt(rows: list[list[str]], end: str = "\r\n") -> bytes:
    lines = [HEADER] + ["".join(v.ljust(w) for v, w in zip(r, WIDTHS, strict=True)) for r in rows]
    return (end.join(lines) + end).encode()


def xml(rows: list[list[str]], *, sep: str = "\n") -> bytes:
    def esc(v: str) -> str:
        return v.replace("&", "&amp;").replace("'", "&apos;")

    records = ["<player>" + sep + "".join(f"<{t}>{esc(v)}</{t}>{sep}"
                                         for t, v in zip(TAGS, r, strict=True)) + "</player>"
               for r in rows]
    return ("<playerslist>\n" + "\n".join(records) + "\n</playerslist>\n").encode()


@pytest.fixture(scope="module")
def many() -> list[list[str]]:
    return players(3000)


def test_fast_and_line_by_line_txt_agree(many: list[list[str]]) -> None:
    crlf = read_fide_list(txt(many))
    assert len(crlf) == 3000 and crlf.warnings == []
    # LF endings and trailing blanks cut: the careful path, line by line.
    trimmed = b"\n".join(x.rstrip() for x in txt(many).split(b"\r\n"))
    careful = read_fide_list(trimmed)
    assert list(careful) == list(crlf)
    assert crlf.to_frame().equals(careful.to_frame())
    o_neil = crlf.get("30000000")
    assert o_neil is not None and o_neil.name == "Player0, O'Neil" and o_neil.std_rating is None
    assert o_neil.birth_year is None and o_neil.o_title == "FA,FI" and o_neil.title == "GM"
    sixth = crlf.get(str(30_000_000 + 7 * 6))
    assert sixth == ListEntry(fide_id="30000042", name="Player6, A", federation="", sex="F",
                              title="", birth_year=1956, flags="w", w_title="WIM", std_rating=1406,
                              std_games=6, std_k=10)


def test_numbers_as_fide_writes_them_and_as_it_does_not() -> None:
    row = players(1)[0]
    cases = {"2000  ": 2000, "  2000": 2000, "0040  ": 40, " 7    ": 7, "0     ": None,
             "      ": None}
    for text, want in cases.items():
        line = txt([row]).split(b"\r\n")[1]
        line = line[:113] + text.encode() + line[119:]
        fl = read_fide_list(txt([])[:-2] + b"\r\n" + line + b"\r\n")
        assert fl.warnings == [] and fl.get("30000000").std_rating == want, text  # type: ignore[union-attr]
    for text in ("20 00 ", "12345 ", "2x00  ", "-2000 "):
        line = txt([row]).split(b"\r\n")[1]
        line = line[:113] + text.encode() + line[119:]
        fl = read_fide_list(txt([])[:-2] + b"\r\n" + line + b"\r\n")
        assert len(fl) == 0, text
        assert fl.warnings == [f"<bytes>:2: SRtng column has {text.strip()!r}, expected a number "
                               "of at most 4 digits; line skipped"]


@pytest.mark.parametrize(("fide_id", "key"), [("1", 1), ("123456789012345", 123456789012345)])
def test_ids_of_any_length_up_to_the_column(fide_id: str, key: int) -> None:
    row = players(1)[0]
    row[0] = fide_id
    fl = read_fide_list(txt([row]))
    assert fl.get(fide_id) is not None and fl.id_numbers(fl.first_rows()) == [key]


def reads(data: bytes) -> int:
    """How many blocks a load of ``data`` reads (so that a test knows it read several)."""
    seen: list[int] = []
    read_fide_list(data, on_progress=lambda done, total: seen.append(done))
    return len(seen)


def test_chunks_cut_anywhere(many: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    whole = list(read_fide_list(txt(many[:400])))
    for size in (1000, 4096, 16_383):
        monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", size)
        assert list(read_fide_list(txt(many[:400]))) == whole
        assert reads(txt(many[:400])) > 4


def test_regular_xml_equals_the_txt(many: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 20_000)  # several blocks
    from_txt = read_fide_list(txt(many))
    from_xml = read_fide_list(xml(many))
    assert from_xml.format == "xml-combined" and from_xml.warnings == []
    assert list(from_xml) == list(from_txt)
    assert from_xml.to_frame().equals(from_txt.to_frame())
    # Each record's <player> line: the root on line 1, then 21 lines a record.
    assert [from_xml.line_of(r[0]) for r in many[:3]] == [2, 23, 44]
    assert from_xml.line_of(many[-1][0]) == 2 + 21 * 2999
    assert reads(xml(many)) > 10


def test_irregular_xml_goes_through_lxml_from_there_on(many: list[list[str]],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 20_000)
    plain = read_fide_list(xml(many))
    data = xml(many)
    middle = data.index(b"<player>", len(data) // 2)
    commented = data[:middle] + b"<!-- a comment -->" + data[middle:]  # same lines
    with_comment = read_fide_list(commented)
    assert list(with_comment) == list(plain)
    assert [with_comment.line_of(r[0]) for r in many[::500]] == [plain.line_of(r[0])
                                                                 for r in many[::500]]
    # Values with line ends, attributes, self-closed elements: all read as lxml reads them.
    odd = xml(many[:50]).replace(b"<name>Player3, A</name>", b"<name>\n Player3,\n A </name>")
    odd = odd.replace(b"<player>\n<fideid>30000028", b'<player id="x">\n<fideid>30000028')
    odd = odd.replace(b"<foa_title></foa_title>", b"<foa_title/>")
    fl = read_fide_list(odd)
    assert fl.get("30000021").name == "Player3,\n A"  # type: ignore[union-attr]
    assert [e for e in fl if e.fide_id != "30000021"] == [e for e in read_fide_list(xml(many[:50]))
                                                          if e.fide_id != "30000021"]


def test_xml_references_in_the_fast_path() -> None:
    rows = players(40)
    rows[3][1] = "J&#233;r&#xF4;me &amp; Co, D&apos;Arcy"  # already escaped: written as is
    data = xml(rows).replace(b"J&amp;#233;r&amp;#xF4;me &amp;amp; Co, D&amp;apos;Arcy",
                             b"J&#233;r&#xF4;me &amp; Co, D&apos;Arcy")
    fl = read_fide_list(data)
    assert fl.get("30000021").name == "J\u00e9r\u00f4me & Co, D'Arcy"  # type: ignore[union-attr]
    assert fl.get("30000000").name == "Player0, O'Neil"  # type: ignore[union-attr]
    with pytest.raises(InputError, match="malformed XML"):  # as lxml says it (no line)
        read_fide_list(data.replace(b"&amp; Co", b"&nbsp; Co"))
    with pytest.raises(InputError, match="malformed XML"):
        read_fide_list(data.replace(b"</rating>", b"</ratinx>", 1))


def test_broken_xml_records_are_reported_by_line() -> None:
    rows = players(30)
    rows[10][8] = "high"
    rows[20][0] = "12x"
    fl = read_fide_list(xml(rows))
    assert len(fl) == 28
    assert fl.warnings == [
        "<bytes>:212: <rating> is 'high', expected a number of at most 4 digits; line skipped",
        "<bytes>:422: <fideid> is '12x', expected digits; line skipped"]


def test_filtered_loads_read_only_the_wanted(many: list[list[str]]) -> None:
    wanted = [many[5][0], many[2999][0], "999", "x", f" {many[77][0]} "]
    for data in (txt(many), xml(many)):
        fl = read_fide_list(data, fide_ids=wanted)
        assert sorted(e.fide_id for e in fl) == sorted([many[5][0], many[77][0], many[2999][0]])
        assert fl.get(many[77][0]) == read_fide_list(data).get(many[77][0])


def test_a_zip_is_read_ahead_and_reports_progress(many: list[list[str]], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 50_000)
    data = txt(many)
    path = tmp_path / "players_list.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("players_list_foa.txt", data)
    seen: list[tuple[int, int | None]] = []
    fl = read_fide_list(path, on_progress=lambda done, total: seen.append((done, total)))
    assert list(fl) == list(read_fide_list(data))
    assert seen[-1] == (len(data), len(data)) and len(seen) > 3
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_list_rebuilt_from_entries(many: list[list[str]]) -> None:
    fl = read_fide_list(txt(many[:100]))
    again = FideList.of(list(fl), lists=fl.lists, list_date=dt.date(2026, 10, 1), source="x")
    assert list(again) == list(fl) and again.format == "register"
    assert again.to_frame().equals(fl.to_frame())
    rows = fl.first_rows()
    columns = fl.columns(rows)
    assert columns["fide_id"][:2] == ["30000000", "30000007"]
    assert columns["std_rating"][:2] == [None, 1401] and columns["name"][1] == "Player1, A"


def test_repeated_ids_keep_the_first_line(many: list[list[str]]) -> None:
    rows = [many[0], many[1], [*many[0][:8], "2500", *many[0][9:]]]
    fl = read_fide_list(txt(rows))
    assert fl.get(many[0][0]).std_rating is None  # type: ignore[union-attr]
    assert fl.warnings == ["<bytes>:4: FIDE id 30000000 repeats line 2; the first line is used"]
    assert len(fl.first_rows()) == 2


def _through_lxml(data: bytes) -> bytes:
    """The same document, made irregular from its first record on (a comment), so that lxml
    reads all of it."""
    return data.replace(b"<player>", b"<!-- lxml --><player>", 1)


def test_blocks_read_ahead_report_in_order(many: list[list[str]],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks are laid out on worker threads; warnings and rows still come in file order."""
    rows = [list(r) for r in many]
    broken = (10, 700, 701, 1500, 2999)
    for i in broken:
        rows[i][8] = "x1"
    monkeypatch.setattr(fidelist_streams, "CHUNK_BYTES", 20_000)  # 18 blocks of 80 kB
    fl = read_fide_list(xml(rows))
    assert fl.warnings == [f"<bytes>:{2 + 21 * i}: <rating> is 'x1', expected a number of at "
                           "most 4 digits; line skipped" for i in broken]
    assert [e.fide_id for e in fl] == [r[0] for i, r in enumerate(rows) if i not in broken]
    assert list(fl) == list(read_fide_list(_through_lxml(xml(rows))))
    assert reads(xml(rows)) > 10


@pytest.mark.parametrize("value", ["A\tB", "A\nB", "A\rB"])
def test_values_with_line_ends_or_tabs_are_read_as_lxml_reads_them(value: str) -> None:
    rows = players(40)
    rows[20][1] = value
    data = xml(rows)
    assert list(read_fide_list(data)) == list(read_fide_list(_through_lxml(data)))


@pytest.mark.parametrize("bad", [b"<name>A\x01B</name>", b"<name>A&#1;B</name>",
                                 b"<name>A&#xD800;B</name>", b"<name>A&#xFFFE;B</name>",
                                 b"</player>\x0b<player>"])
def test_characters_xml_forbids_are_refused_as_lxml_refuses_them(bad: bytes) -> None:
    data = xml(players(40))
    at = data.index(b"<name>Player30, A</name>") if bad.startswith(b"<name>") \
        else data.index(b"</player>\n<player>", len(data) // 2)
    end = data.index(b"</name>", at) + 7 if bad.startswith(b"<name>") else at + 19
    with pytest.raises(InputError, match="malformed XML"):
        read_fide_list(data[:at] + bad + data[end:])


@pytest.mark.parametrize("value", [b"A&amp;\x80", b"\xc3(&amp;", b"&\x80"])
def test_bytes_that_are_not_utf8_are_refused_as_lxml_refuses_them(value: bytes) -> None:
    data = xml(players(10)).replace(b"<name>Player3, A</name>", b"<name>" + value + b"</name>")
    with pytest.raises(InputError, match="malformed XML"):
        read_fide_list(data)


def test_an_unknown_element_holding_a_control_character_is_refused() -> None:
    rows = players(40)
    data = xml(rows).replace(b"<flag>", b"<club>C</club>\n<flag>")
    fl = read_fide_list(data)
    assert list(fl) == list(read_fide_list(xml(rows)))
    assert fl.warnings == ["<bytes>:2: unknown element <club> ignored"]  # the record's line
    assert read_fide_list(_through_lxml(data)).warnings == fl.warnings
    with pytest.raises(InputError, match="malformed XML"):
        read_fide_list(data.replace(b"<club>C</club>", b"<club>\x02</club>", 1))


def test_an_overlong_number_is_a_broken_record_in_both_paths() -> None:
    rows = players(40)
    rows[5][8] = "1" * 40
    data = xml(rows)
    fl = read_fide_list(data)
    assert len(fl) == 39 and fl.warnings == read_fide_list(_through_lxml(data)).warnings


_TEXT = st.text(st.sampled_from(list("abc XYZ,.'-&<>\"é\u00fcЖ\u4e2d0123456789")), max_size=12)
_NUMBER = st.one_of(st.just(""), st.integers(0, 99999).map(str), st.sampled_from(["x", "1 2",
                                                                                  "-5", " 7 "]))


@st.composite
def _documents(draw: st.DrawFn) -> bytes:
    """A <playerslist> whose records have the same elements in the same order and the same
    blanks inside, values of any length (escaped as XML requires), some of them broken; the
    blanks between records alike, or not (then lxml reads from the first odd one on)."""
    tags = draw(st.lists(st.sampled_from(TAGS[1:]), unique=True, max_size=len(TAGS) - 1))
    tags = ["fideid", *tags] if draw(st.booleans()) else [*tags, "fideid"]
    if draw(st.booleans()):
        tags.insert(draw(st.integers(0, len(tags))), "club")  # not a list element
    sep = draw(st.sampled_from(["\n", "", "\r\n", "\n\t", " "]))
    records = []
    for i in range(draw(st.integers(1, 16))):
        values = {t: draw(_NUMBER if t in TAGS[8:18] else _TEXT) for t in tags}  # numbers
        values["club"] = draw(st.sampled_from(["", "Club", "Åbo SK"]))  # a reference: lxml
        values["fideid"] = str(1000 + i) if draw(st.integers(0, 9)) else draw(_NUMBER)
        body = "".join(f"<{t}>{escape(values[t])}</{t}>{sep}" for t in tags)
        records.append(f"<player>{sep}{body}</player>")
    gaps = draw(st.lists(st.sampled_from(["\n", "\n\n", " "]), min_size=len(records),
                         max_size=len(records))) if draw(st.booleans()) else ["\n"] * len(records)
    return ("<playerslist>" + "".join(g + r for g, r in zip(gaps, records, strict=True))
            + "\n</playerslist>\n").encode()


@given(_documents(), st.integers(500, 3000))
def test_any_regular_document_reads_as_lxml_reads_it(document: bytes, chunk: int) -> None:
    """The numpy path (blocks cut anywhere, laid out on worker threads) and lxml agree on
    every value, every broken record and every line number."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fidelist_streams, "CHUNK_BYTES", chunk)
        fast = read_fide_list(document)
        careful = read_fide_list(_through_lxml(document))
    assert list(fast) == list(careful)
    assert fast.warnings == careful.warnings
    assert [fast.line_of(e.fide_id) for e in fast] == [careful.line_of(e.fide_id)
                                                         for e in careful]
