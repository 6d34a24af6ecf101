"""Rounds, ranks and printed points read by structure, in any UI language (issue 20, item 3).

Real English pages from ../shared/realdata/chess-results are rewritten into the Russian UI
(its menu 'Тур5/7', its ranking header 'Ст.ном' for the rank next to 'Ст.ном.' for the
starting number, its pairings header words) and must read as their English twins do.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_published import with_header  # the tests folder is on the path (pyproject)

from importer.formats.chessresults import Page, build_tournament, parse_page
from importer.model import Status

CR = "chess-results"
PORTIMAO = "en_final_ranking_rtgchange_art1_portimao2024.html"
RU_RANKING = ["Ст.ном", "Ст.ном.", "&nbsp;", "", "Имя", "Тип", "пол", "ФЕД.", "Рейт.М",
              "Клуб/Город", "Очки", "Доп1", "Доп2", "Доп3", "Доп4", "Доп5", "Рп", "n", "w", "we",
              "w-we", "K", "Рейт+/-"]
RU_PAIRINGS = {"White": "Белые", "Rtg": "Рейт.", "Pts.": "Очки",
               "Result": "Результат", "Black": "Черные"}


def text_of(realdata: Path, name: str) -> str:
    return (realdata / CR / name).read_bytes().decode("utf-8")


def russian_menu(text: str) -> str:
    """The menu's round links as the Russian UI prints them: 'Rd.6/9' → 'Тур6/9'."""
    return re.sub(r">Rd\.(\d)", r">Тур\1", text)


def russian_header(text: str, words: dict[str, str]) -> str:
    """Every header row's words replaced (the cells' text only)."""
    def row(m: re.Match[str]) -> str:
        return re.sub(r"(<t[hd][^>]*>)([^<]*)(</t[hd]>)",
                      lambda c: c[1] + words.get(c[2].strip(), c[2]) + c[3], m[0])
    return re.sub(r'<tr class="CRn?g1b">.*?</tr>', row, text, flags=re.DOTALL)


def blank_ties(text: str) -> str:
    """The rank cell left empty on every row whose points equal the row above's (a tie, as
    chess-results prints it)."""
    above: list[str] = [""]

    def row(m: re.Match[str]) -> str:
        cells = re.findall(r"<td[^>]*>.*?</td>", m[0])
        tied = cells[10] == above[0]
        above[0] = cells[10]
        return m[0].replace(cells[0], "<td></td>", 1) if tied else m[0]
    return re.sub(r'<tr class="CRng[12] [A-Z]+">.*?</tr>', row, text, flags=re.DOTALL)


# ------------------------------------------------------------------ rounds


@pytest.mark.parametrize("name", ["en_swiss_startingrank_art0_british2026.html",
                                  "british2026_champ_r7_midround.html"])
def test_russian_menu_rounds_read_as_the_english(realdata: Path, name: str) -> None:
    english = text_of(realdata, name)
    russian = russian_menu(english)
    assert "Тур6/9" in russian or "Тур7/9" in russian
    assert parse_page(russian, source="ru.html").info.rounds == parse_page(
        english, source="en.html").info.rounds == 9


def test_real_russian_page_reads_its_menu_rounds(realdata: Path) -> None:
    page = parse_page(text_of(realdata, "ru_player_details_art9_2020.html"), source="ru.html")
    assert page.info.rounds == 8  # the menu 'Тур8/8'


def test_menu_rounds_by_structure_in_a_made_up_language(realdata: Path) -> None:
    text = re.sub(r">Rd\.(\d)", r">Zork \1", text_of(
        realdata, "en_swiss_startingrank_art0_british2026.html"))
    assert parse_page(text, source="x.html").info.rounds == 9


@pytest.mark.parametrize("heading", ["Итоговое положение после 9 тура",
                                     "Endstand nach der 9. Runde",
                                     "Classificação final após a 9ª ronda",
                                     "Clasificación final tras 9 rondas"])
def test_heading_after_n_rounds_in_other_languages(realdata: Path, heading: str) -> None:
    text = text_of(realdata, PORTIMAO)  # a gated page: no menu, only the heading
    assert "<h2>Final Ranking after 9 Rounds</h2>" in text
    page = parse_page(text.replace("Final Ranking after 9 Rounds", heading), source="x.html")
    assert (page.info.rounds, page.round) == (9, 9)


# ------------------------------------------------------------------ ranks with blank ties


@pytest.fixture(scope="module")
def tied(realdata: Path) -> str:
    return blank_ties(text_of(realdata, PORTIMAO))


def expected_ranks(page: Page) -> list[int | None]:
    """Competition ranks from the points: a tie shares the rank of its first row."""
    ranks: list[int | None] = []
    for n, p in enumerate(page.players, start=1):
        above = page.players[n - 2] if n > 1 else None
        ranks.append(ranks[-1] if above is not None and above.points == p.points else n)
    return ranks


def test_english_ranking_blank_ties_take_the_rank_above(tied: str) -> None:
    page = parse_page(tied, source="en.html")
    ranks = [p.rank for p in page.players]
    assert ranks[:6] == [1, 1, 1, 4, 4, 4] and ranks == expected_ranks(page)


def test_russian_ranking_with_blank_ties_reads_every_rank(realdata: Path, tied: str) -> None:
    english = parse_page(tied, source="en.html")
    page = parse_page(with_header(tied, RU_RANKING), source="ru.html")
    assert page.kind == "ranking" and page.language == "ru"
    assert [(p.start_no, p.rank, p.points) for p in page.players] == [
        (p.start_no, p.rank, p.points) for p in english.players]
    assert None not in [p.rank for p in page.players]


# ------------------------------------------------------------------ printed points, pairings


def test_live_pairings_page_reads_the_points(realdata: Path) -> None:
    english = parse_page(text_of(realdata, "british2026_champ_r7_midround.html"), source="en")
    page = parse_page(russian_header(text_of(realdata, "british2026_champ_r7_midround.html"),
                                     RU_PAIRINGS), source="ru.html")
    assert page.language == "ru"
    points = {p.start_no: p.points for p in page.players}
    assert points == {p.start_no: p.points for p in english.players}
    assert None not in points.values()
    assert points[3] == 5  # Royal, 5 before round 7, his game still being played
    statuses = {r.start_no: r for r in page.results}
    assert statuses[3].status is Status.PENDING


def test_finished_pairings_page_points_after_the_round(realdata: Path) -> None:
    page = parse_page(text_of(realdata, "british2026_champ_r7_finished.html"), source="r7")
    points = {p.start_no: p.points for p in page.players}
    assert points[3] == 6  # Royal: 5 before round 7, won it


@pytest.mark.parametrize("live", ["en_swiss_pairings_art2_rd8_forfeit_british2026.html",
                                  "british2026_champ_r7_finished.html"])
def test_crosstable_and_next_round_give_no_points_note(realdata: Path, live: str) -> None:
    crosstable = parse_page(text_of(realdata, "british2026_champ_crosstable.html"), source="ct")
    page = parse_page(russian_header(text_of(realdata, live), RU_PAIRINGS), source="ru.html")
    t = build_tournament([crosstable, page])
    assert not [w for w in t.warnings if w.code == "points-differ"]


def test_live_round_after_the_crosstable_gives_no_points_note(realdata: Path) -> None:
    pages = [parse_page(text_of(realdata, n), source=n) for n in (
        "british2026_champ_crosstable.html",
        "en_swiss_pairings_art2_rd8_forfeit_british2026.html", "british2026_champ_r9.html")]
    t = build_tournament(pages)
    assert not [w for w in t.warnings if w.code == "points-differ"]
    # the live page alone: its printed points stand (rounds 1-8 are not on it)
    alone = build_tournament(pages[2:])
    assert not [w for w in alone.warnings if w.code == "points-differ"]
    assert all(p.points is not None for p in alone.players)


def test_pairings_points_checked_against_the_rounds_they_cover(realdata: Path) -> None:
    """A crosstable that prints no points (no 'Tie Break1: points' legend): the pairings pages'
    points are the printed ones, and each covers only up to its own round."""
    bare = text_of(realdata, "british2026_champ_crosstable.html").replace(
        "Tie Break1: points", "Tie Break1: something else")
    crosstable = parse_page(bare, source="ct")
    assert all(p.points is None for p in crosstable.players)
    r8 = parse_page(russian_header(text_of(
        realdata, "en_swiss_pairings_art2_rd8_forfeit_british2026.html"), RU_PAIRINGS), source="r8")
    r9 = parse_page(text_of(realdata, "british2026_champ_r9.html"), source="r9")
    for pages in ([crosstable, r8], [crosstable, r8, r9], [crosstable, r9, r8]):
        t = build_tournament(pages)
        assert not [w for w in t.warnings if w.code == "points-differ"]
    t = build_tournament([crosstable, r8, r9])
    royal = t.player(3)
    assert royal is not None and royal.points is not None
    # the points printed on a pairings page, the rounds they cover summed the same way
    covered = [r for r in t.results_of(3) if r.round <= 9 and r.points is not None]
    assert royal.points == sum(r.points for r in covered if r.points is not None)
