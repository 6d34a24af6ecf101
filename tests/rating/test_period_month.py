"""The rating officer's month on real pages: events, not files; people, not rows; nothing rated
twice (``fiderate period`` on the 2026 British Championship, tnr1452107)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

import importer

CROSSTABLE = "chess-results/british2026_champ_crosstable.html"  # after round 7 of 9
FINAL = "chess-results/en_swiss_crosstable_art5_final_british2026.html"  # during round 9
STARTING_RANK = "chess-results/en_swiss_startingrank_art0_british2026.html"
EXCERPT = "fide-list/players_list_foa_excerpt.txt"


def foa_list(path: Path, players: list[importer.Player]) -> Path:
    """A FIDE download (the combined list with FOA) holding these players, as FIDE lays it out:
    the columns start where the header's tokens do."""
    header = ("ID Number      Name                                                         Fed Sex "
              "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
    at = {m.group(): m.start() for m in re.finditer(r"\S+", header)}
    lines = [header]
    for p in players:
        line = [" "] * len(header)
        for token, value in (("ID", p.fide_id), ("Name", p.name), ("Fed", p.federation),
                             ("Tit", p.title), ("SRtng", str(p.rating or "")), ("SGm", "0"),
                             ("SK", "20" if (p.rating or 0) < 2400 else "10")):
            start = at[token]
            line[start:start + len(value)] = value
        lines.append("".join(line).rstrip())
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def notes(stderr: str) -> list[str]:
    return [line.removeprefix("note: ") for line in stderr.splitlines() if line.startswith("note: ")]


def test_a_crosstable_without_ids_is_rated_from_the_list(run_cli, realdata: Path, tmp_path: Path):
    """GM Adams (2595) is no newcomer: found on the list by name and federation."""
    listed = [p for p in importer.load(realdata / STARTING_RANK).players if p.fide_id]
    fide_list = foa_list(tmp_path / "players_list_foa.txt", listed)
    res = run_cli("period", str(realdata / CROSSTABLE), "--period", "2026-09", "--ratings-list",
                  str(fide_list), "--store", str(tmp_path / "reg.sqlite"), "--out",
                  str(tmp_path / "out"), "--no-html")
    assert res.code == 0, res.stderr
    got = rows(tmp_path / "out" / "period_players.csv")
    assert len(got) == 108
    assert {(r["matched_by"], r["rating_from"], r["status"]) for r in got} == {
        ("name_fed", "list", "rated")}
    adams = next(r for r in got if r["name"] == "Adams Michael")
    assert (adams["fide_id"], adams["old_rating"], adams["k"]) == ("400041", "2595", "10")
    assert "108 players without a FIDE id in the source found by name and federation" in res.stderr
    assert not any("|" in n for n in notes(res.stderr))


def test_a_list_without_them_never_makes_them_unrated(run_cli, realdata: Path, tmp_path: Path):
    res = run_cli("period", str(realdata / CROSSTABLE), "--period", "2026-09", "--ratings-list",
                  str(realdata / EXCERPT), "--store", str(tmp_path / "reg.sqlite"), "--out",
                  str(tmp_path / "out"), "--no-html")
    assert res.code == 0, res.stderr
    got = rows(tmp_path / "out" / "period_players.csv")
    assert {(r["rating_from"], r["status"]) for r in got} == {("source", "rated")}
    assert next(r for r in got if r["name"] == "Adams Michael")["new_rating"] != "2200"
    counted = [n for n in notes(res.stderr) if "not on players_list_foa_excerpt.txt" in n]
    assert len(counted) == 1
    assert counted[0].startswith("108 of 108 players rated in the tournaments are not on "
                                 "players_list_foa_excerpt.txt (10 players): is it FIDE's full list?")
    assert not any("|" in n for n in notes(res.stderr))


def test_pages_of_one_event_are_one_tournament(run_cli, realdata: Path, tmp_path: Path):
    res = run_cli("period", str(realdata / CROSSTABLE), str(realdata / STARTING_RANK), "--period",
                  "2026-09", "--store", str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"),
                  "--no-html", "--reports")
    assert res.code == 0, res.stderr
    assert "period 2026-09: 1 tournament," in res.stdout
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir()) == ["1452107"]
    got = rows(tmp_path / "out" / "period_players.csv")
    assert {r["matched_by"] for r in got} == {"fide_id"}  # the starting rank gives the ids


def test_two_snapshots_are_one_event_and_the_newer_counts(run_cli, realdata: Path, tmp_path: Path):
    res = run_cli("period", str(realdata / CROSSTABLE), str(realdata / FINAL), "--period",
                  "2026-09", "--store", str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"),
                  "--no-html")
    assert res.code == 0, res.stderr
    assert "period 2026-09: 1 tournament," in res.stdout
    moments = [n for n in notes(res.stderr) if "at two moments" in n]
    assert len(moments) == 1
    assert "(after round 9" in moments[0] and "(after round 7" in moments[0]
    final = importer.load(realdata / FINAL)
    adams = next(p for p in final.players if p.name.startswith("Adams"))
    played = sum(1 for r in final.results_of(adams.start_no) if r.status is importer.Status.PLAYED)
    games = [r for r in rows(tmp_path / "out" / "period_games.csv") if r["name"] == adams.name]
    assert len(games) == played <= 9  # each game once: not 7 + 8


def test_the_same_month_twice_and_the_next_month(run_cli, realdata: Path, tmp_path: Path):
    def period(month: str, out: str, *extra: str):
        return run_cli("period", str(realdata / CROSSTABLE), str(realdata / STARTING_RANK),
                       "--period", month, "--store", str(tmp_path / "reg.sqlite"),
                       "--out", str(tmp_path / out), "--force", *extra)

    assert period("2026-09", "a").code == 0
    assert period("2026-09", "b").code == 0
    for name in ("period_players.csv", "period_games.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    again = period("2026-10", "c")
    assert again.code == 2 and again.stderr.count("\n") == 1
    assert "already rated in 2026-09" in again.stderr and "--rerate" in again.stderr
    assert not (tmp_path / "c").exists()
    moved = period("2026-10", "c", "--rerate")
    assert moved.code == 0, moved.stderr
    assert "2026-09 counted it and are now stale" in moved.stderr
    from rating.period.register import Register

    with Register(tmp_path / "reg.sqlite") as reg:
        assert [r[:2] for r in reg.table("tournaments")] == [("2026-10", "1452107")]


@pytest.mark.parametrize("page", [CROSSTABLE, STARTING_RANK])
def test_no_note_shows_an_internal_key(run_cli, realdata: Path, tmp_path: Path, page: str):
    res = run_cli("period", str(realdata / page), "--period", "2026-09", "--store",
                  str(tmp_path / "reg.sqlite"), "--out", str(tmp_path / "out"))
    if res.code == 0:
        assert not any("|" in n for n in notes(res.stderr))
        text = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").rglob("*.html"))
        assert not re.search(r"[a-z] [a-z]+\|[A-Z]{3}\|", text)
    else:  # a starting rank has no games: nothing to rate, said in one line
        assert res.code == 2 and "nothing to rate" in res.stderr


def test_a_report_finds_its_players_on_the_list_the_same_way(run_cli, realdata: Path,
                                                             tmp_path: Path):
    """People, not rows, in a single tournament's report too: K from the list for a crosstable
    without ids."""
    listed = [p for p in importer.load(realdata / STARTING_RANK).players if p.fide_id]
    fide_list = foa_list(tmp_path / "players_list_foa.txt", listed)
    res = run_cli("report", str(realdata / CROSSTABLE), "--ratings-list", str(fide_list),
                  "--out", str(tmp_path / "out"), "--format", "csv")
    assert res.code == 0, res.stderr
    got = rows(tmp_path / "out" / "rating_players.csv")
    assert {r["k_source"] for r in got} == {"list"}
    assert "K from the list for 108 players without a FIDE id in the source" in res.stderr
