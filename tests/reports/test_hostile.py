"""Hostile names end to end: never markup in HTML, always a neutralised cell in every CSV.

One small tournament whose players and name are attacks goes through ``import``, ``report`` and
``period``; every CSV they write is read back with a CSV reader, and every HTML page is opened
in headless Chromium (skipped only where Chromium is absent).
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from importer.formats.normalized import write_folder
from importer.model import (
    Colour,
    Game,
    GameResult,
    Player,
    RatingList,
    RoundResult,
    Status,
    Tournament,
    TournamentInfo,
)

HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
           '=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)"]


def hostile_tournament() -> Tournament:
    players = tuple(Player(start_no=i, name=name, fide_id=f"9930000{i}", rating=1800 + 40 * i,
                           club="=1+1", federation="ENG", points=0.5)
                    for i, name in enumerate(HOSTILE, start=1))
    results, games = [], []
    for board, (w, b) in enumerate(((1, 2), (3, 4), (5, 6)), start=1):
        games.append(Game(round=1, board=board, white_no=w, black_no=b, result=GameResult.DRAW))
        results += [RoundResult(start_no=w, round=1, opponent_no=b, colour=Colour.WHITE,
                                points=0.5, status=Status.PLAYED),
                    RoundResult(start_no=b, round=1, opponent_no=w, colour=Colour.BLACK,
                                points=0.5, status=Status.PLAYED)]
    info = TournamentInfo(id="hostile", name='=cmd|"/C calc"!A0 <b>Open</b>', source="test",
                          start_date=date(2026, 10, 10), end_date=date(2026, 10, 11), rounds=1,
                          rating_list=RatingList.STANDARD)
    return Tournament(info=info, players=players, results=tuple(results), games=tuple(games))


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> Path:
    from reports.cli import main

    root = tmp_path_factory.mktemp("hostile")
    write_folder(hostile_tournament(), root / "source")
    for args in (["import", str(root / "source"), "--out", str(root / "import"), "-q"],
                 ["report", str(root / "source"), "--out", str(root / "report"), "-q"],
                 ["period", str(root / "source"), "--period", "2026-11", "--out",
                  str(root / "period"), "--store", str(root / "reg.sqlite"), "-q"]):
        main([*args])  # raises SystemExit only on failure
    return root


def _csv_cells(root: Path) -> list[tuple[Path, str]]:
    cells = []
    for path in sorted(root.rglob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                cells += [(path, cell) for cell in row]
    return cells


def test_every_csv_neutralises_formula_cells(outputs):
    cells = _csv_cells(outputs)
    files = {p.name for p, _ in cells}
    assert {"players.csv", "rating_players.csv", "rating_rounds.csv",
            "period_players.csv", "period_games.csv"} <= files
    for name in HOSTILE[2:]:
        assert any(cell == "'" + name for _, cell in cells), name
    for path, cell in cells:
        if cell.startswith(("=", "+", "@")) or (cell.startswith("-") and not _is_number(cell)):
            pytest.fail(f"{path.relative_to(outputs)}: unneutralised cell {cell!r}")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_html_never_contains_the_markup(outputs):
    pages = sorted(outputs.rglob("*.html"))
    assert len(pages) >= 7
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in html, page
        assert "<img src=x" not in html, page
        assert "<b>Open</b>" not in html, page


@pytest.mark.browser
def test_names_render_as_text_in_chromium(browser, outputs, tmp_path):
    for html in (outputs / "report" / "index.html", outputs / "report" / "player-1.html",
                 outputs / "period" / "period.html",
                 outputs / "period" / "period-players" / "99300001-standard.html"):
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
        page.goto(html.as_uri())
        text = page.inner_text("body")
        assert dialogs == [], html
        assert page.locator("img").count() == 0, html
        for name in HOSTILE[:2]:
            if html.name != "player-1.html" or name == HOSTILE[0]:
                assert name in text, (html, name)
        page.screenshot(path=str(tmp_path / f"{html.parent.name}-{html.stem}.png"))
        page.close()
