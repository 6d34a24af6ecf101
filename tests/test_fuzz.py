"""Fuzzing across the importers: whatever the input, only the importer's own errors escape.

The parsers' own test files fuzz their formats too (TRF lines, FIDE-list lines and XML,
the Swiss-Manager CSV, small crosstables); these add round cells, Excel cells, the cells of a
real crosstable, and arbitrary bytes through ``importer.load``.  Example counts scale with the
hypothesis profile (``HYPOTHESIS_PROFILE=ci`` runs the full budget).
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import importer
from importer.chessresults import build_tournament, parse_page, parse_round_cell
from importer.errors import ImporterError
from importer.excel import parse_xlsx

SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TOKENS = ["w", "b", "s", "+", "-", "1", "0", "½", "=", "*", " ", "\xa0", "256", "-1", "-0",
          "-½", "x", "K", "13", "999999999999", ",", ".", "5"]
# Printable text: Excel and XML (hence lxml and openpyxl) cannot hold control characters at all.
printable = st.characters(blacklist_categories=("Cc", "Cs"))
cell_text = st.one_of(st.text(printable, max_size=12),
                      st.lists(st.sampled_from(TOKENS), max_size=5).map("".join))


def _survives(fn, *args, **kwargs) -> None:
    """Call *fn*: success or an ImporterError are both fine; anything else fails the test."""
    with contextlib.suppress(ImporterError):
        fn(*args, **kwargs)


CHEAP = settings(max_examples=3 * settings.default.max_examples)  # microseconds an input


@CHEAP
@given(st.one_of(st.text(max_size=12), cell_text))
def test_fuzz_round_cells(text):
    _survives(parse_round_cell, text)


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
    _survives(parse_xlsx, out.getvalue(), source="fuzz.xlsx")


@pytest.fixture(scope="module")
def crosstable(realdata: Path) -> str:
    return (realdata / "chess-results" / "en_roundrobin_crosstable_art5_ussa2026.html").read_text(
        encoding="utf-8")


@SLOW
@given(st.integers(0, 2**32 - 1), st.lists(cell_text, min_size=1, max_size=6))
def test_fuzz_real_crosstable_cells(crosstable, seed, texts):
    doc = lxml.html.fromstring(crosstable)
    cells = doc.xpath("//table[contains(@class,'CRs1')]//td")
    rng = random.Random(seed)
    for text in texts:
        cell = rng.choice(cells)
        for child in list(cell):
            cell.remove(child)
        cell.text = text
    html = lxml.html.tostring(doc, encoding="unicode")
    with contextlib.suppress(ImporterError):
        build_tournament([parse_page(html, source="fuzz.html")], source="fuzz.html")


@settings(SLOW, max_examples=2 * settings.default.max_examples)
@given(st.binary(max_size=600), st.sampled_from([b"", b"012 ", b"<html>", b"PK\x03\x04",
                                                 b"ID Number      Name", b"001    1"]))
def test_fuzz_any_file_through_load(tmp_path_factory, data, prefix):
    path = tmp_path_factory.mktemp("fuzz") / "input"
    path.write_bytes(prefix + data)
    _survives(importer.load, path)
