"""Every published figure read (ranking lists, player cards) and compared with ours.

The real ranking list is ../shared/realdata/chess-results/en_final_ranking_rtgchange_art1_
portimao2024.html (99 rows, 93 FIDE-rated; K × (w − we) = rtg+/- on every rated row).  The
comparison runs on a made-up event whose ranking list and crosstable are in
fixtures/chess-results/ (art1_ranking_published_small.html, art5_crosstable_published_small.html,
written by make_published_pair.py from the FIDE table, not with fiderate's engine).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from importer.formats.chessresults import KINDS, Page, build_tournament, parse_page
from importer.model import (
    Player,
    RatingList,
    RoundResult,
    SourceWarning,
    Status,
    Tournament,
    TournamentInfo,
)
from rating.published import compare_published
from rating.tournament import rate_tournament
from reports.render.terminal import render_text
from reports.render.view import published_view
from reports.report import build_report, render_report

CR = "chess-results"
PORTIMAO = "en_final_ranking_rtgchange_art1_portimao2024.html"
RANKING = "art1_ranking_published_small.html"
CROSSTABLE = "art5_crosstable_published_small.html"

# The Portimão header, cell by cell, and the same header in other UI languages.
EN = ["Rk.", "SNo", "&nbsp;", "", "Name", "Typ", "sex", "FED", "RtgI", "Club/City", "Pts.",
      "&nbsp;TB1&nbsp;", "&nbsp;TB2&nbsp;", "&nbsp;TB3&nbsp;", "&nbsp;TB4&nbsp;",
      "&nbsp;TB5&nbsp;", "Rp", "n", "w", "we", "w-we", "K", "rtg+/-"]
PT = ["Rk.", "Nº.Inic.", "&nbsp;", "", "Nome", "Tipo", "sexo", "FED", "EloI", "Clube/Cidade",
      "Pts.", "Desp1", "Desp2", "Desp3", "Desp4", "Desp5", "Perf.", "N.J.", "Pt", "Esp.",
      "Pt-Esp", "Fc", "+/-Elo"]  # the last six: words fiderate does not know
MADE_UP = ["Qa", "Wub", "&nbsp;", "", "Zorp", "Fib", "Gna", "Drel", "Plok", "Mubbo/Tr", "Xat",
           "Yy1", "Yy2", "Yy3", "Yy4", "Yy5", "Ruv", "Ka", "Ke", "Ki", "Ko", "Ku", "Kyy"]
RU = ["Ст.ном", "Ст.ном.", "&nbsp;", "", "Имя", "Тип", "пол", "ФЕД.", "Рейт.М", "Клуб/Город",
      "Очки", "Доп1", "Доп2", "Доп3", "Доп4", "Доп5", "Рп", "n", "w", "we", "w-we", "K",
      "Рейт+/-"]  # the Russian UI heads the rank column 'Ст.ном' too


def real_text(realdata: Path, name: str) -> str:
    return (realdata / CR / name).read_bytes().decode("utf-8")


def own_text(fixtures_dir: Path, name: str) -> str:
    return (fixtures_dir / CR / name).read_text(encoding="utf-8")


def with_header(text: str, words: list[str]) -> str:
    """The ranking page with its header cells' words replaced, cell by cell."""
    start = text.index('<tr class="CRng1b">')
    end = text.index("</tr>", start)
    cells = re.findall(r'<t[hd] class="[^"]*">.*?</t[hd]>', text[start:end])
    assert len(cells) == len(words)
    row = "".join(re.sub(r">.*?<", f">{w}<", c, count=1) for c, w in zip(cells, words,
                                                                         strict=True))
    return text[:start] + '<tr class="CRng1b">' + row + text[end:]


def figures(page: Page) -> list[tuple[object, ...]]:
    return [(p.start_no, p.rank, p.points, p.rating, p.k, p.rating_change,
             p.published_performance, p.published_games, p.published_score,
             p.published_expected, p.name, p.title, p.federation, p.category, p.sex, p.club)
            for p in page.players]


@pytest.fixture(scope="module")
def portimao(realdata: Path) -> str:
    return real_text(realdata, PORTIMAO)


# ------------------------------------------------------------------ the ranking list (art=1)


def test_ranking_kind_is_known() -> None:
    assert "ranking" in KINDS


def test_portimao_ranking_reads_every_published_figure(portimao: str) -> None:
    page = parse_page(portimao, source=PORTIMAO)
    assert page.kind == "ranking" and page.round == 9 and page.warnings == ()
    assert len(page.players) == 99 and page.has_gate
    rated = [p for p in page.players if p.rating is not None]
    assert len(rated) == 93  # the MANIFEST: 93 FIDE-rated of 99 rows
    assert Counter(p.k for p in rated) == {10: 13, 20: 41, 40: 39}
    for p in rated:  # every rated row: K × (w − we) = rtg+/-, all figures present
        assert None not in (p.k, p.rating_change, p.published_games, p.published_score,
                            p.published_expected), p
        assert p.k is not None and p.published_score is not None
        assert p.published_expected is not None
        assert p.k * (p.published_score - p.published_expected) == p.rating_change, p
    for p in page.players:
        if p.rating is None:  # unrated (RtgI 0): n and w printed, no we, K or rtg+/-
            assert (p.k, p.rating_change, p.published_expected) == (None, None, None)
            assert p.published_games is not None and p.published_score is not None
    first = page.players[0]
    assert (first.start_no, first.rank, first.name, first.title, first.category) == (
        5, 1, "SPRAGGETT, Kevin", "GM", "S65")
    assert (first.points, first.published_performance, first.published_games) == (7.0, 2496, 9)
    assert (first.published_score, first.published_expected, first.k, first.rating_change) == (
        Decimal(7), Decimal("5.85"), 10, Decimal("11.5"))  # not TB2 49,5 or TB3 55
    gupta = next(p for p in page.players if p.start_no == 51)
    assert (gupta.rank, gupta.sex, gupta.published_games, gupta.published_performance) == (
        97, "f", 0, None)  # no games: the printed Rp 0 is no performance
    last = page.players[-1]
    # no rank printed: a tie with the row above (same points and tie-breaks) shares its rank
    assert (last.start_no, last.rank, last.points) == (49, 98, 0.0)
    assert [p.rank for p in page.players[:-1]] == list(range(1, 99))
    tsuzuki = next(p for p in page.players if p.start_no == 98)
    assert (tsuzuki.rating, tsuzuki.published_performance) == (None, 479)


@pytest.mark.parametrize(("words", "language"), [(EN, "en"), (PT, "pt"), (MADE_UP, ""),
                                                  (RU, "ru")])
def test_ranking_by_structure_in_any_language(portimao: str, words: list[str],
                                              language: str) -> None:
    english = parse_page(portimao, source="en.html")
    assert with_header(portimao, EN) == portimao
    page = parse_page(with_header(portimao, words), source="other.html")
    assert page.kind == "ranking" and page.language == language
    assert figures(page) == figures(english)
    rated = [p for p in page.players if p.rating is not None]
    assert len(rated) == 93 and all(p.k is not None and p.rating_change is not None
                                    for p in rated)
    unknown = [w.message for w in page.warnings if w.message.startswith("unknown language")]
    assert bool(unknown) == (words in (PT, MADE_UP))


def test_made_up_language_warning_names_the_columns(portimao: str) -> None:
    page = parse_page(with_header(portimao, MADE_UP), source="xx.html")
    (warning,) = tuple(w.message for w in page.warnings)
    assert "'Qa'" in warning and "read the ranking list by its values" in warning
    assert "rating_change" in warning and "§" not in warning


def test_ranking_structure_does_not_take_other_tables(realdata: Path,
                                                      fixtures_dir: Path) -> None:
    # a starting rank, a pairings page and a crosstable stay what they are
    assert parse_page(real_text(realdata, "en_swiss_startingrank_art0_british2026.html")
                      ).kind == "starting_rank"
    text = own_text(fixtures_dir, "art5_crosstable_unknown_language.html")
    assert parse_page(text).kind == "crosstable_start"
    pairings = own_text(fixtures_dir, "art2_pairings_double_forfeit.html")
    for en, pl in (("Bo.", "Szach."), ("No.", "Nr st."), ("White", "Białe"),
                   ("Rtg", "Ranking"), ("Pts.", "Punkty"), ("Result", "Wynik"),
                   ("Black", "Czarne")):
        pairings = pairings.replace(f">{en}<", f">{pl}<")
    assert parse_page(pairings).kind == "pairings"


def test_ranking_mismatched_figure_warns(fixtures_dir: Path) -> None:
    text = own_text(fixtures_dir, RANKING).replace(
        '<td class="CRr">-11,2</td>', '<td class="CRr">-11,4</td>')
    page = parse_page(text, source="r.html")
    assert page.kind == "ranking"
    assert any("not K × (w − we)" in w.message and "4 Dunn, Dave" in w.message for w in page.warnings)
    dunn = next(p for p in page.players if p.start_no == 4)
    assert dunn.rating_change == Decimal("-11.4")  # kept as printed


def test_ranking_second_change_column_is_national(fixtures_dir: Path) -> None:
    text = own_text(fixtures_dir, RANKING)
    text = text.replace('<th class="CRr">rtg+/-</th></tr>',
                        '<th class="CRr">rtg+/-</th><th class="CRr">RtgN+/-</th></tr>')
    text = re.sub(r"(<tr class=\"CRng[12] [A-Z]{3}\">.*?)</tr>",
                  lambda m: m[1] + '<td class="CRr">3,3</td></tr>', text)
    page = parse_page(text, source="n.html")
    assert page.kind == "ranking"
    assert [p.rating_change for p in page.players][:2] == [Decimal("-0.9"), Decimal("1.8")]
    assert any("'RtgN+/-'" in w.message and "national" in w.message for w in page.warnings)
    # two columns both headed rtg+/-, the national one first: the one that is K × (w − we)
    # is kept, whatever its place
    swapped = text.replace('<th class="CRr">RtgN+/-</th>', '<th class="CRr">rtg+/-</th>')
    first_is_national = re.sub(
        r'(<td class="CRr">(?:10|20|40)</td>)(<td class="CRr">[^<]*</td>)(<td class="CRr">3,3</td>)',
        r"\1\3\2", swapped)
    page = parse_page(first_is_national, source="n2.html")
    assert [p.rating_change for p in page.players][:2] == [Decimal("-0.9"), Decimal("1.8")]
    assert any("national" in w.message for w in page.warnings)


def test_ranking_alone_merges_without_point_warnings(portimao: str) -> None:
    t = build_tournament([parse_page(portimao, source=PORTIMAO)])
    assert t.warnings == (SourceWarning(
        "no-results", "these pages show no round results: only what they print per player "
        "(points, rank, published figures) is known"),)
    assert len(t.players) == 99 and t.results == ()
    assert t.player(5) is not None and t.player(5).points == 7.0  # type: ignore[union-attr]
    assert t.player(49) is not None and t.player(49).rank == 98  # type: ignore[union-attr]


def test_rank_from_ranking_crosstables(fixtures_dir: Path, realdata: Path) -> None:
    links = parse_page(own_text(fixtures_dir, "art4_ranking_crosstable_links.html"))
    assert [(p.start_no, p.rank) for p in links.players] == [(4, 1), (3, 2), (1, 3), (2, 4)]
    british = parse_page(real_text(realdata, "british2026_champ_crosstable.html"))
    assert all(p.rank is not None for p in british.players)  # its Rk. column


# ------------------------------------------------------------------ player cards (art=9)


def test_card_opponents_points_and_national_ratings(realdata: Path) -> None:
    page = parse_page(real_text(realdata, "ru_player_details_art9_2020.html"), source="ru")
    me, *opponents = page.players
    assert me.published_performance == 1607  # 'Рейтинговый перфоманс'
    by_no = {p.start_no: p for p in opponents}
    # 'Очки' is the opponent's own score, not the one game against the card's player
    assert (by_no[30].points, by_no[1].points, by_no[15].points) == (5.0, 6.0, 5.0)
    # the card's 'Рейтинг' is its 'Нац.рейтинг': the games table's 'Рейт.' is national
    assert (by_no[30].national_rating, by_no[2].national_rating) == (1137, 1194)
    assert all(p.points is not None and p.national_rating is not None for p in opponents)


def test_english_card_rtgn_pts_and_performance(fixtures_dir: Path) -> None:
    page = parse_page(own_text(fixtures_dir, "art9_player_card_en_k.html"))
    by_no = {p.start_no: p for p in page.players}
    assert by_no[5].published_performance == 1901
    assert (by_no[9].rating, by_no[9].national_rating, by_no[9].points) == (2050, 1990, 3.0)
    assert (by_no[12].rating, by_no[12].national_rating, by_no[12].points) == (1893, None, 2.0)
    assert by_no[7].points == 1.5


def test_turkish_card_puan_and_ukd(fixtures_dir: Path) -> None:
    page = parse_page(own_text(fixtures_dir, "art9_player_card_tr.html"))
    by_no = {p.start_no: p for p in page.players}
    assert (by_no[8].rating, by_no[8].national_rating, by_no[8].points) == (1700, 1650, 1.0)
    assert (by_no[3].national_rating, by_no[3].points) == (1720, 2.0)


def test_card_key_value_published_figures(fixtures_dir: Path) -> None:
    text = own_text(fixtures_dir, "art9_player_card_en_k.html").replace(
        '<tr><td class="CR">Points</td>',
        '<tr><td class="CR">K</td><td class="CR">40</td></tr>'
        '<tr><td class="CR">n</td><td class="CR">3</td></tr>'
        '<tr><td class="CR">w</td><td class="CR">1,5</td></tr>'
        '<tr><td class="CR">we</td><td class="CR">1,22</td></tr>'
        '<tr><td class="CR">Points</td>')
    me = parse_page(text).players[0]
    assert (me.k, me.published_games, me.published_score, me.published_expected) == (
        40, 3, Decimal("1.5"), Decimal("1.22"))  # the card's K wins over the games' K
    assert (me.published_performance, me.rating_change) == (1901, Decimal("7.6"))


def test_synthetic_card_performance(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "report" / "card_k_rtg_en.html").read_text(encoding="utf-8")
    page = parse_page(text)
    me = page.players[0]
    assert (me.published_performance, me.rating_change, me.k) == (1929, Decimal("18.8"), 20)
    assert {p.start_no: p.points for p in page.players[1:]}[2] == 5.5


# ------------------------------------------------------------------ the comparison


def pair(fixtures_dir: Path, ranking_text: str | None = None) -> Tournament:
    ranking = parse_page(ranking_text or own_text(fixtures_dir, RANKING), source="ranking")
    crosstable = parse_page(own_text(fixtures_dir, CROSSTABLE), source="crosstable")
    return build_tournament([ranking, crosstable])


def test_pair_agrees_everywhere(fixtures_dir: Path) -> None:
    t = pair(fixtures_dir)
    assert t.warnings == ()
    assert t.info.start_date == date(2026, 5, 2) and t.info.rating_list is RatingList.STANDARD
    assert [(p.start_no, p.rank, p.points) for p in t.players] == [
        (1, 1, 3.5), (2, 2, 3.0), (3, 3, 2.0), (4, 6, 0.5), (5, 3, 2.0), (6, 5, 1.0)]
    check = compare_published(t, rate_tournament(t))
    assert (check.change.compared, check.change.agreements) == (5, 5)
    assert (check.performance.compared, check.performance.agreements) == (6, 6)
    assert check.change.disagreements == () and check.notes == ()
    assert check.change.summary == ("5 of 5 players agree with chess-results' published "
                                    "rating change")
    assert check.performance.summary == ("6 of 6 players agree with chess-results' published "
                                         "performance (Rp)")
    assert "K × Σ(S − PD)" in check.change.method and "Swiss-Manager" in check.change.method
    assert "round(Ra) + dp(p)" in check.performance.method
    # the other order of pages gives the same tournament figures and no warnings
    crosstable_first = build_tournament([
        parse_page(own_text(fixtures_dir, CROSSTABLE)), parse_page(own_text(fixtures_dir,
                                                                            RANKING))])
    assert crosstable_first.warnings == ()
    assert [(p.start_no, p.k, p.rating_change) for p in crosstable_first.players] == [
        (p.start_no, p.k, p.rating_change) for p in t.players]


def test_report_shows_the_agreement(fixtures_dir: Path) -> None:
    report = build_report(pair(fixtures_dir))
    text = render_text(report)
    assert "5 of 5 players agree with chess-results' published rating change." in text
    assert "6 of 6 players agree with chess-results' published performance (Rp)." in text
    files = render_report(report)
    rows = list(csv.DictReader(io.StringIO(files["rating_players.csv"])))
    assert [(r["start_no"], r["published_change"], r["change_agrees"]) for r in rows] == [
        ("1", "-0.9", "true"), ("2", "1.8", "true"), ("3", "2.4", "true"),
        ("4", "-11.2", "true"), ("5", "20", "true"), ("6", "", "")]
    index = files["index.html"]
    assert "5 of 5 players agree with chess-results&#39; published rating change." in index
    assert 'id="published"' in index


def test_one_altered_figure_is_one_disagreement(fixtures_dir: Path) -> None:
    text = own_text(fixtures_dir, RANKING).replace(
        '<td class="CRr">-11,2</td>', '<td class="CRr">-11,4</td>')
    t = pair(fixtures_dir, text)
    check = compare_published(t, rate_tournament(t))
    assert (check.change.compared, check.change.agreements) == (5, 4)
    (d,) = check.change.disagreements
    assert (d.start_no, d.name, d.ours, d.theirs, d.notes) == (
        4, "Dunn, Dave", Decimal("-11.20"), Decimal("-11.4"), ())
    report = build_report(t)
    line = "4 Dunn, Dave: ours -11.20, chess-results -11.40"
    assert "4 of 5 players agree with chess-results' published rating change." in (
        render_text(report))
    assert line in render_text(report)
    files = render_report(report)
    assert f"<li>{line}</li>" in files["index.html"]
    agrees = {r["start_no"]: r["change_agrees"]
              for r in csv.DictReader(io.StringIO(files["rating_players.csv"]))}
    assert agrees == {"1": "true", "2": "true", "3": "true", "4": "false", "5": "true",
                      "6": ""}


def test_disagreement_names_the_cap_reading_that_agrees(fixtures_dir: Path) -> None:
    # Ashby (2480) met 1820, 1950 and 1700: three games more than 400 apart.  The 2026 rules
    # cap all three (-0.90); capping only the widest, as in 2022–Feb 2024, gives -2.10.
    text = own_text(fixtures_dir, RANKING).replace(
        '<td class="CRr">-0,9</td>', '<td class="CRr">-2,1</td>')
    t = pair(fixtures_dir, text)
    (d,) = compare_published(t, rate_tournament(t)).change.disagreements
    assert (d.start_no, d.ours, d.theirs) == (1, Decimal("-0.90"), Decimal("-2.1"))
    assert d.notes == ("agrees under the 400-point cap on one game per tournament "
                       "(2022 rule)",)


def test_disagreement_notes_k_and_games(fixtures_dir: Path) -> None:
    t = pair(fixtures_dir)
    players = tuple(replace(p, k=20, published_games=4) if p.start_no == 3 else p
                    for p in t.players)
    t = replace(t, players=players)
    rating = rate_tournament(t)  # K 20 now: Cole's change halves, the printed one does not
    (d,) = compare_published(t, rating).change.disagreements
    assert (d.start_no, d.ours, d.theirs) == (3, Decimal("1.20"), Decimal("2.4"))
    assert d.notes == ("3 rated games here, 4 published",)


def test_focus_limits_the_check(fixtures_dir: Path) -> None:
    report = build_report(pair(fixtures_dir), focus=2)
    assert report.published is not None
    assert report.published.change.players == (2,) and report.published.change.compared == 1
    assert "1 of 1 player agrees with chess-results' published rating change." in (
        render_text(report))


def test_no_games_no_comparison(portimao: str) -> None:
    t = build_tournament([parse_page(portimao, source=PORTIMAO)])
    check = compare_published(t, rate_tournament(t, on=date(2024, 2, 11)))
    assert not check.compared
    (note,) = check.notes
    assert "no games" in note and "crosstable" in note
    view = published_view(build_report(t, on=date(2024, 2, 11)))
    assert view is not None and view.figures == () and view.notes == (note,)


def test_other_systems_do_not_compare_the_change(fixtures_dir: Path) -> None:
    t = pair(fixtures_dir)
    check = compare_published(t, rate_tournament(t, "elo"))
    assert check.change.compared == 0 and check.performance.compared == 6
    assert any("FIDE's" in n and "Elo" in n for n in check.notes)


def test_exact_at_the_hundredth() -> None:
    # one game: 1850 v 1893, draw, K 20 → 20 × (0.5 − 0.44) = 1.20, printed '1,2' and '1,20'
    players = (Player(start_no=1, name="A", rating=1850, k=20, rating_change=Decimal("1.2")),
               Player(start_no=2, name="B", rating=1893, k=20, rating_change=Decimal("-1.21")))
    results = (RoundResult(start_no=1, round=1, status=Status.PLAYED, opponent_no=2, points=0.5),
               RoundResult(start_no=2, round=1, status=Status.PLAYED, opponent_no=1, points=0.5))
    t = Tournament(info=TournamentInfo(start_date=date(2026, 1, 10)), players=players,
                   results=results)
    check = compare_published(t, rate_tournament(t))
    assert (check.change.compared, check.change.agreements) == (2, 1)
    (d,) = check.change.disagreements
    assert (d.start_no, d.ours, d.theirs) == (2, Decimal("-1.20"), Decimal("-1.21"))


def test_figures_from_an_earlier_round_are_named(fixtures_dir: Path) -> None:
    t = pair(fixtures_dir)
    players = tuple(replace(p, published_games=(p.published_games or 1) - 1)
                    if p.published_games else p for p in t.players)
    check = compare_published(replace(t, players=players), rate_tournament(t))
    assert any(n.startswith("5 of 5 players have more rated games here") for n in check.notes)
