"""Event dates and rounds from wherever chess-results prints them: the details block, round
captions, the tournament name, the 'Last update' line; their merge over several pages; the
rules date the report picks from them.

The expected dates of the real pages were read by eye from each saved file.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from importer.formats.chessresults import Page, build_tournament, parse_page
from importer.formats.chessresults.details import (
    find_dates,
    last_update,
    round_caption,
    rounds_in_heading,
    title_dates,
)
from importer.model import DateSource, Player, RatingList, Tournament, TournamentInfo
from rating.systems.fide_rules import rules_for
from rating.tournament import rate_tournament, rules_date
from reports.render.summary import dates_line, summary_lines
from reports.render.view import rated_with
from reports.report import build_report

CR = "chess-results"
D = date
DETAILS, ROUNDS, TITLE, UPDATE, NONE = (DateSource.DETAILS, DateSource.ROUND_DATES,
                                        DateSource.TITLE, DateSource.LAST_UPDATE, DateSource.NONE)


def real(realdata: Path, *names: str) -> list[Page]:
    return [parse_page((realdata / CR / n).read_bytes().decode("utf-8"), source=n)
            for n in names]


def own(fixtures_dir: Path, *names: str) -> list[Page]:
    return [parse_page((fixtures_dir / CR / n).read_text(encoding="utf-8"), source=n)
            for n in names]


# ------------------------------------------------------------------ reading dates


@pytest.mark.parametrize(("text", "want"), [
    ("2026/08/01 to 2026/08/09", [D(2026, 8, 1), D(2026, 8, 9)]),
    ("26.09.2026 bis 28.11.2026", [D(2026, 9, 26), D(2026, 11, 28)]),
    ("2026-08-10", [D(2026, 8, 10)]),
    ("10 August 2026", [D(2026, 8, 10)]),
    ("August 10, 2026", [D(2026, 8, 10)]),
    ("10th Aug 2026", [D(2026, 8, 10)]),
    ("10. August 2026", [D(2026, 8, 10)]),
    ("10-15 August 2026", [D(2026, 8, 10), D(2026, 8, 15)]),
    ("30 July - 5 August 2026", [D(2026, 7, 30), D(2026, 8, 5)]),
    ("28 Dec 2025 - 3 Jan 2026", [D(2025, 12, 28), D(2026, 1, 3)]),
    ("10 de agosto de 2026", [D(2026, 8, 10)]),
    ("10 августа 2026", [D(2026, 8, 10)]),
    ("3 Mart 2026", [D(2026, 3, 3)]),
    ("12 października 2026", [D(2026, 10, 12)]),
    ("2026. augusztus 10.", [D(2026, 8, 10)]),
    ("27.12.-30.12.2025", [D(2025, 12, 27), D(2025, 12, 30)]),
    ("28.-30.12.2025", [D(2025, 12, 28), D(2025, 12, 30)]),
    ("13/06/2026", [D(2026, 6, 13)]),
    ("06/13/2026", [D(2026, 6, 13)]),
    ("05/05/2026", [D(2026, 5, 5)]),
])
def test_dates_read_for_certain(text: str, want: list[date]) -> None:
    assert find_dates(text) == want


@pytest.mark.parametrize("text", [
    "05/06/2026",          # the fifth of June or the sixth of May: never guessed
    "05-06-2026",
    "11/02 to 18/02",      # no year
    "2026/2027",           # a season, not a date
    "2026/02/30",          # no such day
    "Marchfield Open 2026",
    "Open Mayday 2026",
    "32.01.2026",
    "10 listopada 2026",   # November in Polish, October in Croatian
])
def test_no_date_when_the_reading_is_not_certain(text: str) -> None:
    assert find_dates(text) == []


@pytest.mark.parametrize(("name", "want"), [
    ("20260808-10 - USSA Closed 2026 Open", [D(2026, 8, 8), D(2026, 8, 10)]),
    ("Fiderate Summer Open 10 August 2026", [D(2026, 8, 10)]),
    ("Open 10.08.2026", [D(2026, 8, 10)]),
    ("Open 2026-08-10", [D(2026, 8, 10)]),
    ("TMM Gebietsklasse West 2026/2027", []),
    ("Portimão Chess Festival - Classic (11/02 to 18/02)", []),
    ("2026 British Chess Championships: Championship", []),
    ("Club 12345678", []),  # eight digits that are no date
])
def test_title_dates(name: str, want: list[date]) -> None:
    assert title_dates(name) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Round 2 on 2026/08/10 at 10:00", (2, D(2026, 8, 10))),
    ("1. Тур on 2019/10/12", (1, D(2019, 10, 12))),
    ("1. Runde am 26.09.2026 um 14:00", (1, D(2026, 9, 26))),
    ("Round 1 on 2026/05/15 at 1900", (1, D(2026, 5, 15))),
    ("Rd.4 2026/08/10", (4, D(2026, 8, 10))),
    ("Round 2 on 05/06/2026 at 19:30", None),   # ambiguous
    ("Round 2", None),                          # no date
    ("3rd place on 2026/08/10", None),          # '3rd' is no round
    ("Note: updated 2024/01/02", None),         # no round word
    ("1. Absam (Elo-Ø 1600)", None),            # a team caption
])
def test_round_captions(text: str, want: tuple[int, date] | None) -> None:
    assert round_caption(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Last update 06.08.2026 20:41:16, Creator/Last Upload: englishchessfederation",
     datetime(2026, 8, 6, 20, 41, 16)),
    ("Последнее обновление08.01.2020 15:43:59, Автор/Последняя загрузка: anton",
     datetime(2020, 1, 8, 15, 43, 59)),
    ("Die Seite wurde zuletzt aktualisiert am 27.09.2026 11:01:05, Ersteller",
     datetime(2026, 9, 27, 11, 1, 5)),
    ("Última Atualização11.04.2026 23:11:09", datetime(2026, 4, 11, 23, 11, 9)),
    ("Last update 29.09.2018 14:17:36", datetime(2018, 9, 29, 14, 17, 36)),
    ("Last update 10.06.2019 14:17", datetime(2019, 6, 10, 14, 17)),  # no seconds: 0
    ("Last update 10.06.2019 25:17:00", None),  # no such time
    ("Last update 10.06.2019", None),           # a date without a time is no update line
    ("Show tournament details", None),
    ("", None),
])
def test_last_update_line(text: str, want: datetime | None) -> None:
    assert last_update(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("Final Ranking after 9 Rounds", 9), ("Endstand nach 9 Runden", 9),
    ("Итоговое положение после 9 тура", 9), ("Ranking crosstable after Round 7", None),
    ("Starting rank", None),
])
def test_rounds_in_headings(text: str, want: int | None) -> None:
    assert rounds_in_heading(text) == want


# ------------------------------------------------------------------ every real page

# file: (start, end, source, rounds) as the page prints them
REAL_PAGES = {
    "british2026_champ_crosstable.html": (D(2026, 8, 1), D(2026, 8, 9), DETAILS, 9),
    "british2026_champ_r1.html": (D(2026, 8, 1), D(2026, 8, 1), ROUNDS, 9),
    "british2026_champ_r2.html": (D(2026, 8, 2), D(2026, 8, 2), ROUNDS, 9),
    "british2026_champ_r3.html": (D(2026, 8, 3), D(2026, 8, 3), ROUNDS, 9),
    "british2026_champ_r4.html": (D(2026, 8, 4), D(2026, 8, 4), ROUNDS, 9),
    "british2026_champ_r5.html": (D(2026, 8, 5), D(2026, 8, 5), ROUNDS, 9),
    "british2026_champ_r6_finished.html": (D(2026, 8, 1), D(2026, 8, 9), DETAILS, 9),
    "british2026_champ_r7_finished.html": (D(2026, 8, 7), D(2026, 8, 7), ROUNDS, 9),
    "british2026_champ_r7_midround.html": (D(2026, 8, 7), D(2026, 8, 7), ROUNDS, 9),
    "british2026_champ_r8_unpaired_only.html": (D(2026, 8, 8), D(2026, 8, 8), ROUNDS, 9),
    "british2026_champ_r9.html": (D(2026, 8, 9), D(2026, 8, 9), ROUNDS, 9),
    "cnyt2026_g14_playerrank.html": (D(2026, 8, 10), None, UPDATE, None),
    "de_team_roundrobin_all_details_art20_tmm2026.html": (D(2026, 9, 26), D(2026, 11, 28),
                                                          DETAILS, 5),
    "en_final_ranking_rtgchange_art1_portimao2024.html": (D(2024, 2, 23), None, UPDATE, 9),
    "en_roundrobin_crosstable_art5_ussa2026.html": (D(2026, 8, 8), D(2026, 8, 10), TITLE, 9),
    "en_roundrobin_pairings_art2_allrounds_ussa2026.html": (D(2026, 8, 8), D(2026, 8, 10),
                                                            ROUNDS, 9),
    "en_swiss_crosstable_art5_final_british2026.html": (D(2026, 8, 1), D(2026, 8, 9), DETAILS,
                                                        9),
    "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html": (
        D(2026, 5, 17), None, UPDATE, 5),
    "en_swiss_notpaired_art40_british2026.html": (D(2026, 8, 9), None, UPDATE, 9),
    "en_swiss_pairings_art2_rd6_midround_byes_british2026.html": (D(2026, 8, 6), D(2026, 8, 6),
                                                                  ROUNDS, 9),
    "en_swiss_pairings_art2_rd8_forfeit_british2026.html": (D(2026, 8, 8), D(2026, 8, 8),
                                                            ROUNDS, 9),
    "en_swiss_startingrank_art0_british2026.html": (D(2026, 8, 6), None, UPDATE, 9),
    "en_team_boardpairings_art3_rd1_cnyt2026.html": (D(2026, 8, 11), D(2026, 8, 11), ROUNDS,
                                                     None),
    "en_team_pairings_art2_rd1_cnyt2026.html": (D(2026, 8, 11), D(2026, 8, 11), ROUNDS, None),
    "frome2026_open_notpaired.html": (D(2026, 5, 17), None, UPDATE, 5),
    "frome2026_open_r1.html": (D(2026, 5, 15), D(2026, 5, 15), ROUNDS, None),
    "frome2026_standard_crosstable.html": (D(2026, 5, 18), None, UPDATE, 5),
    "frome2026_standard_r1.html": (D(2026, 5, 15), D(2026, 5, 15), ROUNDS, None),
    "ru_player_details_art9_2020.html": (D(2020, 1, 8), None, UPDATE, 8),  # menu 'Тур8/8'
    "ussa2026_roundrobin_startingrank.html": (D(2026, 8, 8), D(2026, 8, 10), TITLE, None),
    # the details block says one round (sic): details come first
    "warsaw2026_notstarted_r1.html": (D(2026, 8, 27), D(2026, 8, 31), DETAILS, 1),
    "warsaw2026_notstarted_startingrank.html": (D(2026, 8, 27), D(2026, 8, 31), DETAILS, 1),
}


@pytest.mark.parametrize("name", sorted(REAL_PAGES))
def test_every_real_page(realdata: Path, name: str) -> None:
    (page,) = real(realdata, name)
    i = page.info
    assert (i.start_date, i.end_date, i.date_source, i.rounds) == REAL_PAGES[name]


def test_every_saved_page_is_listed(realdata: Path) -> None:
    assert {p.name for p in (realdata / CR).glob("*.html")} == set(REAL_PAGES)


def test_round_dates_of_the_all_rounds_round_robin_page(realdata: Path) -> None:
    (page,) = real(realdata, "en_roundrobin_pairings_art2_allrounds_ussa2026.html")
    assert page.round_dates == tuple(
        (rd, D(2026, 8, day)) for rd, day in enumerate([8, 8, 8, 8, 9, 9, 9, 9, 10], start=1))


def test_round_dates_of_the_german_team_page(realdata: Path) -> None:
    (page,) = real(realdata, "de_team_roundrobin_all_details_art20_tmm2026.html")
    assert page.round_dates == ((1, D(2026, 9, 26)), (2, D(2026, 10, 10)), (3, D(2026, 10, 24)),
                                (4, D(2026, 11, 14)), (5, D(2026, 11, 28)))


def test_round_heading_dates_on_british_pages(realdata: Path) -> None:
    pages = real(realdata, "british2026_champ_r9.html", "en_team_boardpairings_art3_rd1_cnyt2026.html")
    assert [p.round_dates for p in pages] == [((9, D(2026, 8, 9)),), ((1, D(2026, 8, 11)),)]


# ------------------------------------------------------------------ own fixtures


def test_russian_tur_caption(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art2_pairings_ru_tur.html")
    assert page.round_dates == ((1, D(2019, 10, 12)),)
    assert (page.info.start_date, page.info.date_source) == (D(2019, 10, 12), ROUNDS)
    t = build_tournament([page])
    assert not [w.message for w in t.warnings if "round date" in w.message]  # round 1: the real start


def test_live_round_with_a_caption_row(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art2_pairings_live_caption_row.html")
    assert (page.round, page.live_round, page.info.rounds) == (5, 5, 9)
    t = build_tournament([page])
    assert (t.info.start_date, t.info.end_date, t.info.date_source) == (
        D(2025, 12, 20), D(2025, 12, 20), ROUNDS)
    assert "the earliest round date shown is round 5's (2025-12-20): the event started on or " \
           "before it" in tuple(w.message for w in t.warnings)


def test_ambiguous_round_date_is_never_guessed(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art2_pairings_ambiguous_date.html")
    assert page.round == 2 and page.round_dates == ()
    assert (page.info.start_date, page.info.date_source) == (D(2026, 6, 6), UPDATE)


def test_date_in_the_name(fixtures_dir: Path) -> None:
    (page,) = own(fixtures_dir, "art0_startingrank_title_date.html")
    assert (page.info.start_date, page.info.end_date, page.info.date_source) == (
        D(2026, 8, 10), None, TITLE)


# ------------------------------------------------------------------ merging pages

BRITISH_NO_DETAILS = ["british2026_champ_r1.html", "british2026_champ_r2.html",
                      "british2026_champ_r3.html", "british2026_champ_r4.html",
                      "british2026_champ_r5.html", "british2026_champ_r7_finished.html",
                      "en_swiss_pairings_art2_rd8_forfeit_british2026.html",
                      "british2026_champ_r9.html"]


def test_british_pages_without_details_date_from_round_dates(realdata: Path) -> None:
    t = build_tournament(real(realdata, *BRITISH_NO_DETAILS))
    i = t.info
    assert (i.start_date, i.end_date, i.date_source, i.rounds) == (
        D(2026, 8, 1), D(2026, 8, 9), ROUNDS, 9)
    assert not [w.message for w in t.warnings if "round date" in w.message]


def test_round_dates_of_later_rounds_only_say_so(realdata: Path) -> None:
    t = build_tournament(real(realdata, "en_swiss_startingrank_art0_british2026.html",
                              "en_swiss_pairings_art2_rd6_midround_byes_british2026.html"))
    assert (t.info.start_date, t.info.end_date, t.info.date_source) == (
        D(2026, 8, 6), D(2026, 8, 6), ROUNDS)
    assert any("round 6's (2026-08-06): the event started on or before it" in w.message
               for w in t.warnings)


def test_details_beat_round_dates(realdata: Path) -> None:
    t = build_tournament(real(realdata, "british2026_champ_r3.html",
                              "en_swiss_crosstable_art5_final_british2026.html"))
    assert (t.info.start_date, t.info.end_date, t.info.date_source) == (
        D(2026, 8, 1), D(2026, 8, 9), DETAILS)


def test_round_dates_beat_the_title(realdata: Path) -> None:
    t = build_tournament(real(realdata, "en_roundrobin_crosstable_art5_ussa2026.html",
                              "en_roundrobin_pairings_art2_allrounds_ussa2026.html",
                              "ussa2026_roundrobin_startingrank.html"))
    assert (t.info.start_date, t.info.end_date, t.info.date_source, t.info.rounds) == (
        D(2026, 8, 8), D(2026, 8, 10), ROUNDS, 9)


def test_round_dates_beat_the_last_update(realdata: Path) -> None:
    t = build_tournament(real(realdata, "frome2026_standard_crosstable.html",
                              "frome2026_standard_r1.html"))
    assert (t.info.start_date, t.info.date_source, t.info.rounds) == (D(2026, 5, 15), ROUNDS, 5)


def test_the_earliest_last_update_is_the_bound(realdata: Path) -> None:
    t = build_tournament(real(realdata, "en_swiss_notpaired_art40_british2026.html",
                              "en_swiss_startingrank_art0_british2026.html"))
    assert (t.info.start_date, t.info.end_date, t.info.date_source) == (
        D(2026, 8, 6), None, UPDATE)


def test_rounds_take_the_most_any_page_gives(realdata: Path) -> None:
    t = build_tournament(real(realdata, "frome2026_open_r1.html",
                              "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html"))
    assert t.info.rounds == 5  # the crosstable's columns; the pairings page gives none
    assert not any("rounds but show" in w.message for w in t.warnings)


def test_player_card_alone(realdata: Path) -> None:
    t = build_tournament(real(realdata, "ru_player_details_art9_2020.html"))
    assert (t.info.start_date, t.info.date_source, t.info.rounds) == (D(2020, 1, 8), UPDATE, 8)
    assert t.rounds_seen == 8  # the card's rounds; the Russian menu 'Тур8/8' says how many


def test_xlsx_last_update_and_details(realdata: Path, fixtures_dir: Path) -> None:
    from importer.formats.excel import parse_xlsx

    old = parse_xlsx((realdata / CR / "xlsx_en_startingrank_2018.xlsx").read_bytes())
    assert (old.info.start_date, old.info.date_source) == (D(2018, 9, 29), UPDATE)
    pt = parse_xlsx((realdata / CR / "xlsx_pt_startingrank_with_details_2026.xlsx").read_bytes())
    assert (pt.info.start_date, pt.info.date_source, pt.info.rounds) == (D(2026, 4, 11), DETAILS,
                                                                          6)
    own_ = parse_xlsx((fixtures_dir / "excel" / "crosstable_tb1_points_annotation_sex.xlsx")
                      .read_bytes())
    assert (own_.info.start_date, own_.info.date_source) == (D(2026, 3, 14), UPDATE)


def test_tournament_csv_keeps_the_date_source(realdata: Path, tmp_path: Path) -> None:
    from importer.formats.normalized import read_folder, write_folder

    t = build_tournament(real(realdata, *BRITISH_NO_DETAILS[:2]))
    back = read_folder(write_folder(t, tmp_path / "n"))
    assert (back.info.start_date, back.info.date_source) == (D(2026, 8, 1), ROUNDS)


# ------------------------------------------------------------------ the summary


def test_summary_says_where_the_dates_come_from(realdata: Path) -> None:
    t = build_tournament(real(realdata, *BRITISH_NO_DETAILS))
    assert "dates 2026-08-01 – 2026-08-09 (from the round dates)" in summary_lines(t)[1]
    card = build_tournament(real(realdata, "ru_player_details_art9_2020.html"))
    assert dates_line(card.info) == ("last updated 2020-01-08 (no event date: it started on or "
                                     "before then)")
    assert dates_line(TournamentInfo()) == "no date"


# ------------------------------------------------------------------ the rules date


def _bare(info: TournamentInfo) -> Tournament:
    return Tournament(info=info, players=(Player(start_no=1, name="A", rating=2000),))


def test_rules_date_order() -> None:
    today, given = D(2026, 8, 12), D(2024, 6, 1)
    own_date = TournamentInfo(start_date=D(2019, 10, 12), date_source=ROUNDS)
    assert rules_date(own_date, on=given, today=today).on == D(2019, 10, 12)  # type: ignore[union-attr]
    updated = TournamentInfo(start_date=D(2020, 1, 8), date_source=UPDATE)
    basis = rules_date(updated, today=today)
    assert basis is not None and (basis.on, basis.source) == (D(2020, 1, 8), "last update")
    basis = rules_date(updated, on=D(2019, 12, 28), today=today)
    assert basis is not None and (basis.on, basis.source) == (D(2019, 12, 28), "given")
    basis = rules_date(TournamentInfo(), today=today)
    assert basis is not None and (basis.on, basis.source) == (today, "none")
    assert rules_date(TournamentInfo()) is None
    # a start date of unnamed origin (a TRF header) is the event's own
    trf = rules_date(TournamentInfo(start_date=D(2023, 5, 1)))
    assert trf is not None and trf.source == "details" and trf.note == ""


def test_no_date_one_plain_warning() -> None:
    bare = _bare(TournamentInfo(name="Undated", rating_list=RatingList.STANDARD))
    tr = rate_tournament(bare, today=D(2026, 8, 12))
    assert tr.notes == ("the source gives no date: rated with the rules in force today "
                        "(FIDE 2025-10); an event before October 2025 would use other "
                        "rating-difference cap rules",)
    report = build_report(bare)
    dated = [n.text for n in report.notes if "date" in n.text]
    assert len(dated) == 1 and dated[0].startswith(
        f"the source gives no date: rated with the rules in force today "
        f"({rules_for(date.today()).label})")
    assert report.rating.on == date.today() and report.rating.date_source == "none"


def test_last_update_is_an_upper_bound_said_plainly() -> None:
    info = TournamentInfo(start_date=D(2020, 1, 8), date_source=UPDATE,
                          rating_list=RatingList.STANDARD)
    tr = rate_tournament(_bare(info))
    assert tr.on == D(2020, 1, 8) and tr.rules_label == "FIDE 2014-07"
    assert tr.notes == ("the source gives no event date, only its last update (2020-01-08): "
                        "the event started on or before that day and is rated with the rules "
                        "in force then (FIDE 2014-07); an event before July 2014 would use "
                        "other K rules",)
    march = rate_tournament(_bare(TournamentInfo(start_date=D(2024, 3, 9), date_source=UPDATE,
                                                 rating_list=RatingList.STANDARD)))
    assert march.notes[0].endswith("(FIDE 2024-03); an event before March 2024 would use other "
                                   "rating-difference cap, rating-floor and first-rating rules")


def test_given_date_over_a_last_update() -> None:
    info = TournamentInfo(start_date=D(2020, 1, 8), date_source=UPDATE,
                          rating_list=RatingList.STANDARD)
    tr = rate_tournament(_bare(info), on=D(2020, 2, 1))
    assert tr.on == D(2020, 2, 1) and tr.date_source == "given"
    assert tr.notes == ("the source gives no event date: rated with the rules in force on "
                        "2020-02-01, the date given; the source was last updated on 2020-01-08, "
                        "so the event started on or before that day (FIDE 2014-07)",)


def test_event_dates_need_no_note() -> None:
    for source in (DETAILS, ROUNDS, TITLE):
        tr = rate_tournament(_bare(TournamentInfo(start_date=D(2026, 8, 1), date_source=source,
                                                  rating_list=RatingList.STANDARD)))
        assert tr.notes == () and tr.date_source == source.value


def test_rated_with_sentence(realdata: Path) -> None:
    t = build_tournament(real(realdata, "british2026_champ_r1.html", "british2026_champ_r2.html",
                              "british2026_champ_r7_midround.html"))
    assert rated_with(build_report(t)) == (
        "Rated with FIDE rules of 2025-10 (event date 2026-08-01, from the round dates) · "
        "9 rounds, 2 with results · round 7 in progress")
    card = build_tournament(real(realdata, "ru_player_details_art9_2020.html"))
    assert rated_with(build_report(card)) == (
        "Rated with FIDE rules of 2014-07 (no event date: the source's last update 2020-01-08, "
        "on or before which it started) · 8 rounds, 8 with results")
