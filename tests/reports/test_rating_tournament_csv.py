"""rating_tournament.csv: one row saying which rules rated the tournament, the date that chose
them and where it comes from, the rounds, and whether a round is in progress — read back
from reports written for real page sets.  The HTML index and the terminal header say the same.
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from importer.formats.chessresults import build_tournament, parse_page
from importer.model import Player, RatingList, Tournament, TournamentInfo
from reports.render.columns import TOURNAMENT_COLUMNS
from reports.render.terminal import render_text
from reports.report import build_report, render_report, write_report

CR = "chess-results"


def pages(folder: Path, *names: str) -> Tournament:
    return build_tournament([parse_page((folder / CR / n).read_bytes().decode("utf-8"),
                                        source=n) for n in names])


def row(t: Tournament, tmp_path: Path, **kw: object) -> dict[str, str]:
    paths = write_report(t, tmp_path / "out", formats=["csv"], **kw)  # type: ignore[arg-type]
    path = next(p for p in paths if p.name == "rating_tournament.csv")
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and tuple(rows[0]) == TOURNAMENT_COLUMNS
    return rows[0]


def test_british_round_pages_one_with_details(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "british2026_champ_r1.html", "british2026_champ_r2.html",
              "british2026_champ_r3.html", "british2026_champ_r4.html",
              "british2026_champ_r5.html", "british2026_champ_r6_finished.html",
              "british2026_champ_r7_midround.html")
    assert row(t, tmp_path) == {
        "id": "1452107", "name": "2026 British Chess Championships: Championship",
        "system": "fide", "rules": "FIDE 2025-10", "rules_date": "2026-08-01",
        "date_source": "details", "rating_list": "standard", "list_source": "time control",
        "rounds": "9", "rounds_with_results": "6", "live": "true"}


def test_british_round_dates_only_live_round(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "en_swiss_startingrank_art0_british2026.html",
              "british2026_champ_r1.html", "british2026_champ_r2.html",
              "en_swiss_pairings_art2_rd6_midround_byes_british2026.html")
    r = row(t, tmp_path)
    assert (r["rules"], r["rules_date"], r["date_source"], r["rounds"], r["rounds_with_results"],
            r["live"]) == ("FIDE 2025-10", "2026-08-01", "round dates", "9", "3", "true")
    built = build_report(t)
    index = render_report(built, ["html"])["index.html"]
    sentence = ("Rated with FIDE rules of 2025-10 (event date 2026-08-01, from the round dates) "
                "· 9 rounds, 3 with results · round 6 in progress")
    assert sentence in index
    assert render_text(built).splitlines()[1] == sentence


def test_round_robin_all_rounds_page(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "en_roundrobin_pairings_art2_allrounds_ussa2026.html")
    assert row(t, tmp_path) == {
        "id": "1471902", "name": "20260808-10 - USSA Closed 2026 Open", "system": "fide",
        "rules": "FIDE 2025-10", "rules_date": "2026-08-08", "date_source": "round dates",
        "rating_list": "standard", "list_source": "default", "rounds": "9",
        "rounds_with_results": "9", "live": "false"}  # nothing says: rated as standard


def test_round_robin_crosstable_dated_by_its_name(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "en_roundrobin_crosstable_art5_ussa2026.html",
              "ussa2026_roundrobin_startingrank.html")
    r = row(t, tmp_path)
    assert (r["rules_date"], r["date_source"], r["rounds"]) == ("2026-08-08", "title", "9")


def test_russian_card_rated_by_its_last_update(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "ru_player_details_art9_2020.html")
    r = row(t, tmp_path)
    assert (r["rules"], r["rules_date"], r["date_source"], r["rounds"], r["live"]) == (
        "FIDE 2014-07", "2020-01-08", "last update", "8", "false")
    built = build_report(t)
    assert [n.text for n in built.notes if "last update" in n.text] == [
        "the source gives no event date, only its last update (2020-01-08): the event started "
        "on or before that day and is rated with the rules in force then (FIDE 2014-07); an "
        "event before July 2014 would use other K rules."]


def test_portimao_last_update_before_march_2024(realdata: Path, tmp_path: Path) -> None:
    # the event was in February 2024: its last update (23.02.2024) keeps the 2022 rules
    t = pages(realdata, "en_final_ranking_rtgchange_art1_portimao2024.html")
    r = row(t, tmp_path)
    assert (r["rules"], r["rules_date"], r["date_source"], r["rounds"]) == (
        "FIDE 2022-01", "2024-02-23", "last update", "9")


def test_german_team_event_details(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "de_team_roundrobin_all_details_art20_tmm2026.html")
    r = row(t, tmp_path)
    assert (r["rules"], r["rules_date"], r["date_source"], r["rounds"],
            r["rounds_with_results"]) == ("FIDE 2025-10", "2026-09-26", "details", "5", "1")


def test_given_date_and_no_date(tmp_path: Path) -> None:
    players = (Player(start_no=1, name="A", rating=2000), Player(start_no=2, name="B",
                                                                   rating=1900))
    t = Tournament(info=TournamentInfo(name="Undated", rating_list=RatingList.RAPID),
                   players=players)
    r = row(t, tmp_path / "a", on=date(2023, 5, 1))
    assert (r["rules"], r["rules_date"], r["date_source"], r["rating_list"], r["rounds"],
            r["rounds_with_results"], r["live"]) == ("FIDE 2022-01", "2023-05-01", "given",
                                                     "rapid", "", "0", "false")
    r = row(t, tmp_path / "b")
    assert (r["rules_date"], r["date_source"]) == (date.today().isoformat(), "none")


def test_other_systems_name_their_settings(realdata: Path, tmp_path: Path) -> None:
    t = pages(realdata, "en_roundrobin_pairings_art2_allrounds_ussa2026.html")
    r = row(t, tmp_path, system="elo")
    assert (r["system"], r["rules"]) == ("elo", "Elo: logistic formula")


@pytest.mark.parametrize("name", ["xlsx_en_startingrank_2018.xlsx"])
def test_xlsx_last_update(realdata: Path, tmp_path: Path, name: str) -> None:
    from importer.formats.excel import parse_xlsx

    t = parse_xlsx((realdata / CR / name).read_bytes(), source=name)
    r = row(t, tmp_path)
    assert (r["rules"], r["rules_date"], r["date_source"]) == ("FIDE 2014-07", "2018-09-29",
                                                               "last update")
