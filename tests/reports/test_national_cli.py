"""National ratings from the command line: ``calc --system dwz|ecf|ukd``, a side-by-side report
on a real chess-results page with national ratings, ``list import --system`` and a national
period that chains a player's tournaments (DWZ) or rates a month as one (ECF)."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest
import requests
from serving import Served

from rating.systems.dwz import WO_2022, evaluate

DSB = Path(__file__).resolve().parents[2] / "fixtures" / "national" / "dsb"
ECF = Path(__file__).resolve().parents[2] / "fixtures" / "national" / "ecf"
USSA = ("en_roundrobin_crosstable_art5_ussa2026.html", "ussa2026_roundrobin_startingrank.html")


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# --- calc ---

@pytest.mark.parametrize("system", ["dwz", "ecf", "ukd"])
def test_calc_json_gives_expected_coefficient_change_and_new_rating(run_cli, system):
    result = run_cli("calc", "--system", system, "-r", "1500", "--birth-year", "1990",
                     "--date", "2025-06-01", "-g", "1600:1", "-g", "1400:0.5", "--json",
                     *(["--index", "5"] if system == "dwz" else []))
    assert result.code == 0, result.stderr
    out = json.loads(result.stdout)
    assert {"expected", "coefficient", "change", "new_rating"} <= set(out)
    assert out["system"] == system and out["new_rating"] == 1500 + out["rounded_change"]


def test_calc_dwz_is_the_rules_own_figure(run_cli):
    """WO 2022 (Anhang 1.2, 3.5.2): 35 years old (J 15), index 5 (E ≤ 25): E0 = 1.5⁴ + 15 =
    20.06 → E 20; We 0.362 + 0.638 = 1.000; Rn = 1500 + 800·(1.5 − 1.0)/(20 + 2) = 1518.18."""
    result = run_cli("calc", "--system", "dwz", "-r", "1500", "--index", "5", "--birth-year",
                     "1990", "--date", "2025-06-01", "-g", "1600:1", "-g", "1400:0.5", "--json")
    out = json.loads(result.stdout)
    assert (out["expected"], out["coefficient"], out["change"], out["new_rating"]) == (
        1.0, 20, 18.18, 1518)
    facts_free = evaluate(WO_2022, 1500, [(1600, Decimal(1)), (1400, Decimal("0.5"))], given=20)
    assert facts_free.new_rating == 1518
    text = run_cli("calc", "--system", "dwz", "-r", "1500", "--date", "2025-06-01", "-g",
                   "1600:1").stdout
    assert "E               " in text and "note: DWZ: age group not known" in text


def test_calc_refuses_what_a_system_does_not_use_in_words(run_cli):
    index = run_cli("calc", "-r", "1500", "--opponent", "1600", "--result", "win", "--index", "4")
    assert index.code == 2 and "the index counts for a national rating" in index.stderr
    category = run_cli("calc", "--system", "ecf", "-r", "1500", "--opponent", "1600",
                       "--result", "win", "--category", "junior")
    assert category.code == 2 and "is FIDE's: leave it out for ECF" in category.stderr


# --- a report with every system side by side, on a real page with national ratings ---

def test_a_real_page_with_national_ratings_side_by_side_in_csv_html_and_terminal(
        run_cli, realdata, tmp_path):
    pages = [str(realdata / "chess-results" / name) for name in USSA]
    out = tmp_path / "out"
    result = run_cli("report", *pages, "--system", "fide,dwz,ecf,ukd", "--out", str(out))
    assert result.code == 0, result.stderr
    players = rows(out / "rating_players.csv")
    header = set(players[0])
    assert {"dwz_old", "dwz_expected", "dwz_new", "ecf_rating", "ecf_new_rating",
            "national_rating", "ukd_new_rating"} <= header
    brander = next(p for p in players if p["name"] == "Brander, Waylon")
    assert (brander["rating"], brander["dwz_old"], brander["ecf_rating"]) == ("1936", "1955", "1955")
    rounds = rows(out / "rating_rounds.csv")
    assert {"dwz_expected", "dwz_change", "ecf_change", "ukd_change"} <= set(rounds[0])
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(f">{h}<" in index or f">{h} " in index for h in ("DWZ neu", "We", "New ECF", "New UKD"))
    player = (out / "player-1.html").read_text(encoding="utf-8")
    assert "DWZ +/-" in player and "UKD change" in player  # round by round, beside FIDE's
    assert "the source does not say which national rating it shows" in index
    table = run_cli("report", *pages, "--system", "fide,dwz")
    assert table.code == 0 and "DWZ neu" in table.stdout
    one = run_cli("report", *pages, "--system", "fide,dwz", "--player", "1")
    assert "DWZ +/-" in one.stdout and "new DWZ" in one.stdout


# --- national lists, and periods ---

EVENTS = [str(DSB.parent / name) for name in ("club_summer_2025.trf", "club_spring_2025.trf")]
"""Two German club events of April 2025 whose players are on the DSB fixture list (given in
the wrong order: a period sorts them by their end)."""


def test_list_import_then_a_dwz_period_chains_each_players_tournaments(run_cli, tmp_path):
    store = tmp_path / "reg.sqlite"
    imported = run_cli("list", "import", "--system", "dwz", str(DSB / "spieler_dewis.csv"),
                       "--month", "2025-04", "--store", str(store))
    assert imported.code == 0, imported.stderr
    assert "stored the 2025-04 DWZ list (standard)" in imported.stdout
    paths = EVENTS
    out = tmp_path / "out"
    result = run_cli("period", *paths, "--period", "2025-05", "--system", "dwz",
                     "--store", str(store), "--out", str(out))
    assert result.code == 0, result.stderr
    assert "DWZ period: 2 tournaments" in result.stdout
    steps = rows(out / "period_dwz_events.csv")
    joerg = [s for s in steps if s["name"] == "Müller, Jörg"]
    assert [s["tournament"] for s in joerg] == [  # in the order they ended, not as given
        "Kassel Club Spring 2025", "Kassel Club Summer 2025"]
    assert joerg[0]["rating"] == "1834" and joerg[0]["evaluations"] == "57"  # index: the list
    assert joerg[1]["rating"] == joerg[0]["new_rating"] != "1834"  # on what the first left
    assert joerg[1]["evaluations"] == "58"
    players = {p["name"]: p for p in rows(out / "period_dwz_players.csv")}
    assert players["Müller, Jörg"]["new_rating"] == joerg[1]["new_rating"]
    assert players["Müller, Jörg"]["evaluations"] == "59"
    kunz = players["Kunz, Otto"]  # on no list: the source's DWZ, the index unknown
    assert (kunz["events"], kunz["old_rating"], kunz["evaluations"]) == ("1", "1650", "")
    page = (out / "period_dwz.html").read_text(encoding="utf-8")
    assert "DWZ rating period 2025-05" in page and "Müller, Jörg" in page
    assert not (out / "period_players.csv").exists()  # FIDE not asked: the register is not written


def test_a_fide_period_with_dwz_beside_writes_both(run_cli, tmp_path):
    paths = EVENTS
    out = tmp_path / "out"
    result = run_cli("period", *paths, "--period", "2025-05", "--system", "fide,dwz",
                     "--national-list", str(DSB / "spieler_dewis.csv"),
                     "--store", str(tmp_path / "r.sqlite"), "--out", str(out))
    assert result.code == 0, result.stderr
    assert (out / "period_players.csv").exists() and (out / "period_dwz_players.csv").exists()
    wrong = run_cli("period", *paths, "--period", "2025-05", "--system", "fide,dwz,ecf",
                    "--national-list", str(DSB / "spieler_dewis.csv"), "--out", str(out),
                    "--force")
    assert wrong.code == 2 and "say whose list it is (dwz or ecf=FILE)" in wrong.stderr


def test_an_ecf_month_rates_its_tournaments_on_the_months_rating(run_cli, tmp_path):
    paths = EVENTS
    out = tmp_path / "out"
    result = run_cli("period", *paths, "--period", "2025-05", "--system", "ecf",
                     "--out", str(out))
    assert result.code == 0, result.stderr
    steps = rows(out / "period_ecf_events.csv")
    joerg = [s for s in steps if s["name"] == "Müller, Jörg"]
    assert [s["rating"] for s in joerg] == ["1834", "1834"] and not joerg[0]["new_rating"]
    player = next(p for p in rows(out / "period_ecf_players.csv") if p["name"] == "Müller, Jörg")
    total = sum(Decimal(s["change"]) for s in joerg)
    assert Decimal(player["change"]) == total
    assert int(player["new_rating"]) == 1834 + int(total.to_integral_value("ROUND_HALF_UP"))


def test_a_report_takes_the_index_and_birth_year_from_the_stored_list(run_cli, tmp_path):
    store = tmp_path / "reg.sqlite"
    run_cli("list", "import", "--system", "dwz", str(DSB / "spieler_dewis.csv"), "--month",
            "2025-03", "--store", str(store))
    path = EVENTS[1]
    out = tmp_path / "out"
    result = run_cli("report", path, "--system", "fide,dwz", "--store", str(store),
                     "--out", str(out))
    assert result.code == 0, result.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "players found on the DWZ list of 2025-03" in index
    assert "DWZ: index not known" not in index  # every player is on the list


def test_list_import_refuses_a_file_that_is_not_the_list_in_one_line(run_cli, tmp_path):
    result = run_cli("list", "import", "--system", "ecf", str(DSB / "spieler_dewis.csv"),
                     "--month", "2025-04", "--store", str(tmp_path / "r.sqlite"))
    assert result.code == 2 and "spieler_dewis.csv" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    ecf = run_cli("list", "import", "--system", "ecf", str(ECF / "rating_list_csv_2025.csv"),
                  "--month", "2025-04", "--store", str(tmp_path / "r.sqlite"))
    assert ecf.code == 0 and "ECF list (standard, rapid, blitz)" in ecf.stdout


# --- the server: the form's ticks and the API ---

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Served(tmp_path_factory.mktemp("national")) as s:
        yield s


def test_the_api_and_the_served_pages_show_each_system_asked(server):
    trf = Path(EVENTS[1])
    api = requests.post(server.url + "api/report", data={"system": "fide,dwz"},
                        files={"files": (trf.name, trf.read_bytes())}, timeout=60)
    assert api.status_code == 200, api.text
    body = api.json()
    assert body["rules"]["beside"] == [{"system": "dwz", "rules": "DWZ WO 2022"}]
    joerg = next(p for p in body["players"] if p["name"] == "Müller, Jörg")
    assert (joerg["dwz_old"], joerg["dwz_new"]) == (1834, 1846)
    assert "dwz_change" in joerg["rounds"][0]
    page = requests.get(server.url + body["url"].lstrip("/") + "player-1.html", timeout=30)
    assert page.status_code == 200 and "DWZ +/-" in page.text and "1846" in page.text
    ticked = requests.post(server.url + "report", data={"also_ecf": "on"},
                           files={"files": (trf.name, trf.read_bytes())}, timeout=60)
    assert ticked.status_code == 200 and "New ECF" in ticked.text and "DWZ neu" not in ticked.text
    form = requests.get(server.url, timeout=30).text
    assert 'name="also_dwz"' in form and 'name="also_ecf"' in form and 'name="also_fide"' not in form


def test_list_import_offers_fide_and_every_national_list_read():
    """``list import --system`` names its choices (so that ``fiderate --help`` imports no
    reader): they are FIDE's and those of importer.formats.nationallist.SYSTEMS, no more, no less."""
    from importer.formats.nationallist import SYSTEMS
    from reports.cli.lists import import_list

    (option,) = [p for p in import_list.params if p.name == "system"]
    assert tuple(option.type.choices) == ("fide", *SYSTEMS)
