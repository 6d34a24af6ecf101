"""Fuzzing across the importers: whatever the input, an importer error or a consistent result.

Each fuzz test checks what comes out: a parse that succeeds must give a consistent result
(every result's player and opponent in the tournament, points 0 to 1, rounds from 1, a cell
read the same way twice), and a parse that fails must fail with the importer's own error naming
its source.  Any other exception fails the test: the readers no longer turn a crash into an
"unusable page", so a crash here is a bug to fix where the input is read.  The parsers' own
test files fuzz their formats too (TRF lines, FIDE-list lines and XML, the Swiss-Manager CSV,
small crosstables); these add round cells, Excel cells, the cells of a real crosstable, the
cells, rows and headers of every kind of saved page, and arbitrary bytes through
``importer.load``.  Example counts scale with the hypothesis profile
(``HYPOTHESIS_PROFILE=ci`` runs the full budget).
"""

from __future__ import annotations

import copy
import functools
import io
import random
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import importer
from importer.errors import ImporterError, InputError
from importer.formats.chessresults import Page, build_tournament, parse_page, parse_round_cell
from importer.formats.chessresults.table import MAX_ROUND
from importer.formats.excel import parse_xlsx
from importer.model import Colour, Status, Tournament
from importer.parsing.numbers import MAX_RATING, whole_number

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TOKENS = ["w", "b", "s", "+", "-", "1", "0", "½", "=", "*", " ", "\xa0", "256", "-1", "-0",
          "-½", "x", "K", "13", "999999999999", ",", ".", "5"]
PAGE_TOKENS = [*TOKENS, "bye", "not paired", "1.1", "2.3", "Rd.", "1.Rd", "0.", "Name", "Pts.",
               "Rk.", "SNo", "No.", "Result", "Bo.", "1 - 0", "½ - ½", "- - +", "Round 3 on",
               "2026/08/03", "0F", "w 1", "s ½", "-2", "150", "00", "٣", "Team", "MP", "Rtg",
               "K", "rtg+/-", "Rp", "n", "we", "w-we", "FED", "ENG"]
# Printable text: Excel and XML (hence lxml and openpyxl) cannot hold control characters at all.
printable = st.characters(blacklist_categories=("Cc", "Cs"))
cell_text = st.one_of(st.text(printable, max_size=12),
                      st.lists(st.sampled_from(TOKENS), max_size=5).map("".join))
page_text = st.one_of(st.text(printable, max_size=12),
                      st.lists(st.sampled_from(PAGE_TOKENS), max_size=4).map("".join))

POINTS = {None, 0.0, 0.5, 1.0}


def consistent(t: Tournament) -> None:
    """What every imported tournament holds, whatever its source said."""
    assert isinstance(t, Tournament)
    numbers = [p.start_no for p in t.players]
    assert len(numbers) == len(set(numbers))
    known = set(numbers)
    seen = set()
    for r in t.results:
        assert r.start_no in known, r
        assert r.opponent_no is None or r.opponent_no in known, r
        assert r.points in POINTS or r.status is Status.BYE, r
        assert 1 <= r.round <= MAX_ROUND, r
        assert (r.start_no, r.round) not in seen, r
        seen.add((r.start_no, r.round))
    for p in t.players:
        assert p.points is None or p.points >= 0, p
        for rating in (p.rating, p.national_rating):  # unrated is None, never 0
            assert rating is None or 0 < rating <= MAX_RATING, p
    for g in t.games:
        assert g.white_no in known and g.black_no in known, g


def refused(exc: ImporterError, source: str) -> None:
    """An importer error that names where it comes from."""
    assert str(exc), exc
    if isinstance(exc, InputError):
        assert exc.source == source or source in str(exc), exc


CHEAP = settings(max_examples=3 * settings.default.max_examples)  # microseconds an input


@CHEAP
@given(st.one_of(st.text(max_size=12), cell_text))
def test_fuzz_round_cells(text):
    try:
        cell = parse_round_cell(text)
    except InputError as e:
        refused(e, repr(text))  # the message quotes the cell
        return
    assert parse_round_cell(text) == cell  # the same reading every time
    assert cell.points in POINTS
    if cell.opponent_no is not None:
        assert cell.colour in (Colour.WHITE, Colour.BLACK)
    if cell.status is Status.PENDING:
        assert cell.points is None and cell.opponent_no is not None
    if cell.status is Status.FORFEIT_WIN:
        assert cell.points == 1.0


@pytest.fixture(scope="module")
def workbook_bytes(fixtures_dir: Path) -> bytes:
    return (fixtures_dir / "excel" / "crosstable_art5_details_byes_forfeits_pending.xlsx").read_bytes()


@settings(SLOW, max_examples=max(10, settings.default.max_examples // 10))  # a workbook each: slow
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(1, 20), cell_text), min_size=1,
                max_size=4))
def test_fuzz_excel_cells(workbook_bytes, edits):
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(workbook_bytes))
    ws = wb.active
    assert ws is not None
    for row, col, text in edits:
        ws.cell(row=row, column=col, value=text)
    out = io.BytesIO()
    wb.save(out)
    try:
        t = parse_xlsx(out.getvalue(), source="fuzz.xlsx")
    except ImporterError as e:
        refused(e, "fuzz.xlsx")
        return
    assert isinstance(t, Tournament) and t.players


@pytest.fixture(scope="module")
def crosstable(realdata: Path) -> str:
    return (realdata / "chess-results" / "en_roundrobin_crosstable_art5_ussa2026.html").read_text(
        encoding="utf-8")


def _edit_cells(html: str, seed: int, texts: list[str]) -> str:
    doc = lxml.html.fromstring(html)
    cells = doc.xpath("//table[contains(@class,'CRs1')]//td")
    rng = random.Random(seed)
    for text in texts:
        cell = rng.choice(cells)
        for child in list(cell):
            cell.remove(child)
        cell.text = text
    return lxml.html.tostring(doc, encoding="unicode")


def test_the_crosstable_fuzz_starts_from_a_readable_page(crosstable):
    """The control: the real crosstable, serialised as the fuzz test does, reads in full (so
    the fuzz test cannot pass by every input being refused)."""
    t = build_tournament([parse_page(_edit_cells(crosstable, 0, []), source="fuzz.html")])
    consistent(t)
    assert len(t.players) == 9 and len(t.results) == 81


@SLOW
@given(st.integers(0, 2**32 - 1), st.lists(cell_text, min_size=1, max_size=6))
def test_fuzz_real_crosstable_cells(crosstable, seed, texts):
    html = _edit_cells(crosstable, seed, texts)
    try:
        page = parse_page(html, source="fuzz.html")
        t = build_tournament([page], source="fuzz.html")
    except ImporterError as e:
        refused(e, "fuzz.html")
        return
    consistent(t)
    assert len(page.players) == 9  # an edited cell changes no row count


# ------------------------------------------------------------------ every kind of page

READABLE = ["art0_startingrank_small.html", "art1_ranking_published_small.html",
            "art2_pairings_double_forfeit.html", "art2_pairings_live_caption_row.html",
            "art2_pairings_ru_tur.html", "art3_team_boardpairings_pgn.html",
            "art4_ranking_crosstable_gated.html", "art4_ranking_crosstable_links.html",
            "art5_crosstable_published_small.html", "art5_crosstable_small.html",
            "art5_crosstable_unknown_language.html", "art9_player_card_en_k.html",
            "art9_player_card_tr.html", "fragment_pairings_caption.html"]
"""Own fixtures of every kind the reader knows, small enough to fuzz quickly."""


OWN = Path(__file__).resolve().parents[2] / "fixtures" / "chess-results"


@functools.cache
def own_page(name: str) -> str:
    """An own fixture's text (cached here, not a fixture argument: hypothesis records every
    argument of every example, and the pages are large)."""
    return (OWN / name).read_text(encoding="utf-8")


def _mutate(html: str, ops: list[tuple[int, int, int, str]]) -> str:
    """Apply (operation, which, where, text) edits to the data tables and the details block:
    set a cell (header cells too), drop a cell, drop a row, copy a row elsewhere, widen a
    cell."""
    doc = lxml.html.fromstring(html)
    for op, which, where, text in ops:
        cells = doc.xpath("//table[contains(@class,'CRs1')]//*[self::td or self::th]"
                          " | //div[contains(@class,'defaultDialog')]//td")
        rows = doc.xpath("//table[contains(@class,'CRs1')]//tr")
        if not cells or not rows:
            break
        cell, row = cells[which % len(cells)], rows[which % len(rows)]
        if op == 0:
            for child in list(cell):
                cell.remove(child)
            cell.text = text
        elif op == 1 and len(row):
            row.remove(row[where % len(row)])
        elif op == 2 and row.getparent() is not None:
            row.getparent().remove(row)
        elif op == 3 and row.getparent() is not None:
            parent = row.getparent()
            parent.insert(where % (len(parent) + 1), copy.deepcopy(rows[where % len(rows)]))
        elif op == 4:
            cell.set("colspan", str(where % 4 + 1))
    return lxml.html.tostring(doc, encoding="unicode")


STARTING_LISTS = {"999001": "art0_startingrank_small.html",
                  "999005": "art0_startingrank_title_date.html"}
"""The clean starting list each fuzzed page is merged with, where its tournament has one (a
ranking crosstable without links needs it to map ranks to starting numbers)."""


@functools.cache
def starting_list(tnr: str) -> Page | None:
    name = STARTING_LISTS.get(tnr)
    return None if name is None else parse_page(own_page(name), source=name)


def _merged(page: Page) -> Tournament:
    start = starting_list(page.tnr)
    return build_tournament([page] if start is None or start.source == page.source else
                            [start, page], source=page.source)


RATING_CELLS = st.one_of(st.integers(0, 10**40).map(str), st.integers(0, 4000).map(str),
                        cell_text)


@CHEAP
@given(st.lists(RATING_CELLS, min_size=1, max_size=4))
def test_fuzz_rating_cells(cells):
    """Whatever the rating cells of a starting list hold: refused, or every rating is None or
    0 < r <= 3500; ratings 0 to 3500 are never refused."""
    html = own_page("art0_startingrank_small.html")
    for old, new in zip((">2400<", ">2300<", ">2200<", ">0<"), cells, strict=False):
        html = html.replace(old, f">{new}<", 1)
    in_range = all((n := whole_number(c)) is not None and n <= MAX_RATING for c in cells)
    try:
        t = _merged(parse_page(html, source="ratings.html"))
    except InputError as e:
        refused(e, "ratings.html")
        t = None
    if t is None:
        assert not in_range, cells
        return
    consistent(t)
    assert len(t.players) == 4


def test_every_fuzzed_kind_starts_readable():
    for name in READABLE:
        consistent(_merged(parse_page(_mutate(own_page(name), []), source=name)))


@settings(SLOW, max_examples=3 * settings.default.max_examples)
@given(st.sampled_from(READABLE),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.integers(0, 10_000),
                          page_text), min_size=1, max_size=6))
@example("fragment_pairings_caption.html",  # a shifted row read a 'Pts.' 5 as a bye's points
         [(0, 1, 0, ""), (1, 170, 30, ""), (1, 170, 11, ""), (1, 170, 29, "")])
def test_fuzz_every_kind_of_page(name, ops):
    html = _mutate(own_page(name), ops)
    try:
        t = _merged(parse_page(html, source=name))
    except ImporterError as e:
        refused(e, name)
        return
    consistent(t)


@pytest.mark.parametrize("name", ["art5_crosstable_unknown_language.html",
                                  "art2_pairings_ru_tur.html"])
def test_a_header_shorter_than_its_rows_is_read_by_structure(name):
    """Found by fuzzing: reading columns by structure (header words unknown) walked past the
    end of a header with fewer cells than its rows (an IndexError the old catch-all hid)."""
    doc = lxml.html.fromstring(own_page(name))
    header = doc.xpath("//table[contains(@class,'CRs1')]//tr")[0]
    header.remove(header[-1])
    html = lxml.html.tostring(doc, encoding="unicode")
    try:
        t = _merged(parse_page(html, source=name))
    except InputError as e:
        refused(e, name)
        return
    consistent(t)


@settings(SLOW, max_examples=2 * settings.default.max_examples)
@given(st.binary(max_size=600), st.sampled_from([b"", b"012 ", b"<html>", b"PK\x03\x04",
                                                 b"ID Number      Name", b"001    1"]))
def test_fuzz_any_file_through_load(tmp_path_factory, data, prefix):
    path = tmp_path_factory.mktemp("fuzz") / "input"
    path.write_bytes(prefix + data)
    try:
        t = importer.load(path)
    except ImporterError as e:
        refused(e, str(path))
        return
    assert t.provenance and t.provenance[0].location == str(path)
