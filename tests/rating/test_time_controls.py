"""Time controls as FIDE rules them (issue 28, point 5).

* The label read into minutes, increment and periods (:mod:`importer.parsing.time_control`), one parser
  for free text and TRF26's ``222``.
* Rating Regulations 1.1–1.2 by date (:mod:`rating.systems.time_controls`): the minimum per rating band,
  per tournament before July 2017, per game after, 2200/1600 until 2021 and 2400/1800 from
  1 January 2022 (unchanged on 1 March 2024); games below their minimum are left out of the
  rating with one note; an event with none left is refused (``fiderate report`` exit 2).
* Title Regulations 1.1 and FIDE's fast-standard terms: a 45'+30" event of 2025 makes no norm
  (the pilot), one of 2026 only with the Qualification Commission's approval
  (``--qc-approved``).

The events are the Pennine fixture (an IM norm at 90 min/40 moves + 30 min + 30 s, 2026) with
its time control and dates changed in the TRF text.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import importer
from importer.formats.trf.writer import encode_time_control
from importer.model import Colour, Player, RatingList, RoundResult, Status, Tournament, TournamentInfo
from importer.parsing.time_control import (
    classify_time_control,
    encoded_time_control,
    looks_encoded,
    parse_time_control,
)
from rating.norms import NormResult, NormTitle, check_norms
from rating.systems.fide_rules import fast_standard_for, norm_rules_for, standard_time_rules_for
from rating.systems.time_controls import QC_APPROVAL, norm_time_control, standard_time
from rating.tournament import rate_tournament
from reports.report import build_report
from reports.settings import ReportSettings, SettingError
from reports.web.keys import link_key, parse_link_key

ROOT = Path(__file__).resolve().parents[2]
PENNINE = ROOT / "fixtures" / "norms" / "pennine_im_norm.trf"
PENNINE_TC = "90 min for 40 moves + 30 min + 30 sec from move 1"
IM = NormTitle.IM


# --- the label read -----------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "words", "for_60"), [
    ("90 min/40 moves + 30 min + 30 sec from move 1", "90 min/40 moves + 30 min + 30 s", 150),
    ("90 min for 40 moves + 30 min + 30 sec from move 1", "90 min/40 moves + 30 min + 30 s", 150),
    ("90'+30\"", "90 min + 30 s", 120),
    ("45+30", "45 min + 30 s", 75),
    ("45’+30”", "45 min + 30 s", 75),
    ("1h30 + 30s", "90 min + 30 s", 120),
    ("60 min + 30 s", "60 min + 30 s", 90),
    ("15 min + 10 s", "15 min + 10 s", 25),
    ("G/90;+30", "90 min + 30 s", 120),
    ("G/15 + 5 sec", "15 min + 5 s", 20),
    ("1:30 + 10 from move 1", "90 min + 10 s", 100),
    ("All moves in 90 minutes, plus 10 seconds per move", "90 min + 10 s", 100),
    ("40/90’ + Game/30’ + 30”/move", "90 min/40 moves + 30 min + 30 s", 150),
    ("90min +30sec increment per move starting from move 1", "90 min + 30 s", 120),
    ("100'x40mm + 50'x20mm + 30\" from move 1", "100 min/40 moves + 50 min/20 moves + 30 s", 180),
    ("40 moves in 90 min, then 30 min + 30 s", "90 min/40 moves + 30 min + 30 s", 150),
    ("90 Min. + 30 Sek./Zug", "90 min + 30 s", 120),
    ("2 hours", "120 min", 120),
    ("120", "120 min", 120),  # a bare number: minutes (marked bare)
    ("5400+30", "90 min + 30 s", 120),  # TRF26 222: seconds
    ("40/6000+30:900+30", "100 min/40 moves + 15 min + 30 s", 145),
])
def test_labels_are_read_into_minutes_and_increments(label, words, for_60):
    tc = parse_time_control(label)
    assert tc is not None
    assert (tc.words, tc.minutes_for(60)) == (words, Fraction(for_60))


@pytest.mark.parametrize("label", ["", "moves/time, increment", "10+0 7+3", "W300-B240",
                                   "Open 2026 90+30"])
def test_a_label_that_does_not_say_one_control_is_not_read(label):
    assert parse_time_control(label) is None


def test_the_record_holds_each_period():
    tc = parse_time_control("90 min/40 moves + 30 min + 30 sec from move 1")
    assert tc is not None
    assert (tc.minutes, tc.increment, tc.moves) == (90, 30, 40)
    assert tc.second is not None and (tc.second.minutes, tc.second.moves) == (30, None)
    assert parse_time_control("120").bare and not parse_time_control("120 min").bare  # type: ignore[union-attr]
    assert parse_time_control("40/90").minutes_for(60) is None  # type: ignore[union-attr]


def test_the_lists_and_the_encoding_read_through_the_one_parser():
    assert classify_time_control("45+30") is RatingList.STANDARD  # 75 minutes for 60 moves
    assert classify_time_control("15 min + 10 s") is RatingList.RAPID
    assert classify_time_control("Blitz 5+3") is RatingList.BLITZ  # the word first
    assert encoded_time_control("40/6000+30:900+30") is RatingList.STANDARD
    assert encoded_time_control("40/1800:600") is RatingList.RAPID  # 30 + 10 minutes
    assert (encode_time_control("45'+30\""), encode_time_control("1h30 + 30s")) == (
        "2700+30", "5400+30")
    assert encode_time_control("90 min/40 moves + 30 min") is None  # not plainly one period
    assert looks_encoded("2700+30") and not looks_encoded("45+30")


# --- Rating Regulations 1.1–1.2: the minimum by band and date ------------------------------------

@pytest.mark.parametrize(("day", "ratings", "minutes"), [
    (date(2021, 12, 31), (2300, 1500), 120),  # 2017–2021: 2200 or more → 120
    (date(2022, 1, 1), (2300, 1500), 90),  # 2022 on: 2400 → 120, 1800 → 90
    (date(2021, 12, 31), (1700, 1500), 90),  # 1600 or more → 90
    (date(2022, 1, 1), (1700, 1500), 60),  # both below 1800 → 60
    (date(2024, 2, 29), (2400, None), 120),
    (date(2024, 3, 1), (2400, None), 120),
    (date(2024, 2, 29), (1800, 1200), 90),
    (date(2024, 3, 1), (1800, 1200), 90),
    (date(2024, 2, 29), (1799, None), 60),
    (date(2024, 3, 1), (1799, None), 60),  # R24 kept the 2022 bands
])
def test_the_minimum_per_band_by_date(day, ratings, minutes):
    assert standard_time_rules_for(day).minimum(ratings) == minutes


def test_before_july_2017_the_tournaments_top_player_decides():
    before, after = standard_time_rules_for(date(2017, 6, 30)), standard_time_rules_for(
        date(2017, 7, 1))
    assert (before.per_game, after.per_game) == (False, True)
    # a game of two 1500s at 60 + 30 (90 minutes), a 2300 elsewhere in the event
    t = _event([2300, 1500, 1500], "60 min + 30 s", date(2017, 6, 30), [(2, 3)])
    assert standard_time(t, date(2017, 6, 30)).left_out == 1  # 120 needed in the tournament
    t = _event([2300, 1500, 1500], "60 min + 30 s", date(2017, 7, 1), [(2, 3)])
    assert standard_time(t, date(2017, 7, 1)).left_out == 0  # 90 needed in the game: met


def test_games_below_their_band_are_left_out_with_one_note():
    # 60 + 30 = 90 minutes in 2024: the games of the 2450 need 120, the others 90
    t = _event([2450, 2000, 1900, 1700], "60 min + 30 s", date(2024, 5, 1),
               [(1, 2), (3, 4), (1, 3), (2, 4)])
    rated = rate_tournament(t, today=date(2024, 5, 1))
    notes = [n for n in rated.notes if "left out" in n]
    assert notes == ["2 of 4 games left out of the rating: the time control 60 min + 30 s (90 "
                     "minutes for 60 moves) is below FIDE's minimum for standard games where a "
                     "player in the game is rated 2400 or more (120 min for 60 moves, Rating "
                     "Regulations 1.1)"]
    by_no = {p.start_no: p for p in rated.players}
    assert by_no[1].rated_games == 0 and by_no[4].rated_games == 2
    assert {ln.reason for ln in by_no[1].rounds} == {
        "time control below FIDE's standard minimum (Rating Regulations 1.1)"}
    # a system other than FIDE's keeps its own rules
    assert all(p.rated_games for p in rate_tournament(t, "elo", today=date(2024, 5, 1)).players)


def test_a_first_control_of_fewer_than_30_moves_is_not_standard_from_2022():
    t = _event([2000, 1900], "2 hours for 20 moves + 60 min", date(2022, 1, 1), [(1, 2)])
    found = standard_time(t, date(2022, 1, 1))
    assert found.left_out == 1 and "Rating Regulations 1.2" in found.refusal
    assert standard_time(t, date(2021, 12, 31)).refusal == ""


def test_an_unreadable_label_changes_nothing():
    t = _event([2450, 2000], "moves/time, increment", date(2024, 5, 1), [(1, 2)])
    found = standard_time(t, date(2024, 5, 1))
    assert (found.excluded, found.note, found.refusal) == (frozenset(), "", "")
    rated = rate_tournament(t, today=date(2024, 5, 1))
    assert all(p.rated_games == 1 for p in rated.players)
    assert not any("time control" in n for n in rated.notes)


def test_a_fast_standard_event_is_rated_as_fide_rates_one():
    t = _event([2450, 2000], "45+30", date(2024, 5, 1), [(1, 2)])
    assert standard_time(t, date(2024, 5, 1)).left_out == 1  # before the pilot: 75 < 120
    for day in (date(2025, 9, 7), date(2026, 2, 1)):
        found = standard_time(replace(t, info=replace(t.info, start_date=day)), day)
        assert found.excluded == frozenset() and "rated as standard on the terms of" in found.note
    assert fast_standard_for(date(2024, 12, 31)) is None
    assert fast_standard_for(date(2025, 1, 1)).norms is False  # type: ignore[union-attr]
    assert fast_standard_for(date(2026, 1, 1)).norms is True  # type: ignore[union-attr]


# --- a report of a "standard" event below the minimum ----------------------------------------------

def test_a_15_minute_standard_event_is_refused_as_not_standard_rated(tmp_path, run_cli):
    trf = _pennine(tmp_path, "15 min + 10 s", kind="standard")
    assert importer.load(trf).info.rating_list is RatingList.STANDARD
    out = tmp_path / "out"
    res = run_cli("report", str(trf), "--out", str(out))
    assert res.code == 2 and res.stdout == ""
    assert res.stderr.splitlines() == [
        "fiderate: error: Pennine Invitational 2026: the time control 15 min + 10 s is below "
        "FIDE's minimum for standard games (60 min for 60 moves, Rating Regulations 1.1): not "
        "standard-rated"]
    assert not out.exists()  # nothing written
    assert run_cli("report", str(trf), "--norms-only").code == 2
    assert run_cli("report", str(_pennine(tmp_path, PENNINE_TC, name="ok.trf"))).code == 0


def test_a_15_minute_label_read_as_rapid_is_rated_as_rapid(tmp_path, run_cli):
    trf = _pennine(tmp_path, "15 min + 10 s")  # no word says standard: the label decides
    assert importer.load(trf).info.rating_list is RatingList.RAPID
    assert run_cli("report", str(trf)).code == 0


# --- Title Regulations 1.1 and the fast-standard pilot --------------------------------------------

def test_the_norm_time_control_is_checked_when_the_label_reads():
    rules = norm_rules_for(date(2026, 3, 1))
    ok = norm_time_control(PENNINE_TC, date(2026, 3, 1), rules)
    assert (ok.ok, ok.checked) == (True, True)
    assert ok.words == ("time control 90 min/40 moves + 30 min + 30 s: 150 minutes for 60 moves "
                        "(at least 120)")
    short = norm_time_control("90 min", date(2026, 3, 1), rules)
    assert (short.ok, short.words) == (False, "time control 90 min: 90 minutes for 60 moves "
                                              "(at least 120 needed)")
    unknown = norm_time_control("moves/time", date(2026, 3, 1), rules)
    assert (unknown.ok, unknown.checked) == (None, False)
    assert unknown.words == "not checked: at least 2 hours for 60 moves (the source shows moves/time)"


def test_a_45_30_event_of_2025_shows_no_norm_with_the_pilot_named(tmp_path):
    t = importer.load(_pennine(tmp_path, "45'+30\"", year=2025))
    report = build_report(t)
    assert report.rating.players[0].rated_games == 9  # standard-rated, as the pilot's were
    im = next(c for c in report.norms if c.start_no == 1 and c.norm is IM)
    assert im.result is NormResult.MISSED
    assert ("time control 45 min + 30 s: FIDE's fast-standard pilot of 2025 awarded no title "
            "norms (FIDE's announcement ‘FIDE launches pilot project to test Fast Classic for "
            "standard rating’)") in im.reasons
    # approval changes nothing in 2025: the pilot awarded none
    approved = build_report(t, qc_approved=True)
    assert next(c for c in approved.norms if c.norm is IM).result is NormResult.MISSED


def test_a_45_30_event_of_2026_needs_the_qualification_commissions_approval(tmp_path):
    t = importer.load(_pennine(tmp_path, "45'+30\"", year=2026))
    missed = next(c for c in check_norms(t, 1) if c.norm is IM)
    assert missed.result is NormResult.MISSED
    (cond,) = [c for c in missed.conditions if c.name == "time control"]
    assert (cond.ok, cond.need, cond.article) == (False, QC_APPROVAL, "1.1")
    assert "only in an event FIDE's Qualification Commission approved" in cond.words
    assert "--" not in cond.words  # words for pages: no command-line syntax
    made = next(c for c in check_norms(t, 1, qc_approved=True) if c.norm is IM)
    assert made.result is NormResult.ACHIEVED and made.application_games == 10
    # 60 + 30 counts too from 2026 ("45+30 or longer"), but was no pilot control in 2025
    sixty = importer.load(_pennine(tmp_path, "60 min + 30 s", year=2026, name="sixty.trf"))
    assert next(c for c in check_norms(sixty, 1, qc_approved=True)
                if c.norm is IM).result is NormResult.ACHIEVED


def test_the_command_line_takes_qc_approved_and_the_terminal_hints_at_it(tmp_path, run_cli):
    trf = _pennine(tmp_path, "45'+30\"", year=2026)
    without = run_cli("report", str(trf), "--norms-only")
    assert without.code == 0 and "No title norm achieved or possible." in without.stdout
    assert "add --qc-approved" in without.stderr
    given = run_cli("report", str(trf), "--norms-only", "--qc-approved")
    assert given.code == 0 and " 1  Ashworth, Tom  IM    achieved" in given.stdout
    assert "--qc-approved" not in given.stderr
    out = tmp_path / "pages"
    assert run_cli("report", str(trf), "--out", str(out), "-q").code == 0
    page = (out / "player-1.html").read_text(encoding="utf-8")
    assert "Qualification Commission approved" in page and "--qc-approved" not in page


def test_the_web_form_and_the_api_take_qc_approved():
    on = ReportSettings.from_fields({"qc_approved": "on"})
    assert on.qc_approved and not ReportSettings.from_fields({}).qc_approved
    with pytest.raises(SettingError, match="qc_approved"):
        ReportSettings.from_fields({"qc_approved": "maybe"})
    from importer.net.urls import Ref

    key = link_key(Ref(tnr="1452107"), on, None)
    assert key == "1452107-q1"
    parsed = parse_link_key(key)
    assert parsed is not None and parsed[1].qc_approved


# --- helpers --------------------------------------------------------------------------------------

def _pennine(tmp_path: Path, tc: str, *, year: int | None = None, kind: str = "",
             name: str = "event.trf") -> Path:
    """The Pennine fixture with time control *tc*, played in September *year* (default: March
    2026 as it is), its type saying *kind* ('standard') when given."""
    text = PENNINE.read_text(encoding="utf-8").replace(f"122 {PENNINE_TC}", f"122 {tc}")
    if year is not None:
        text = text.replace("2026/03/0", f"{year}/09/1").replace("26/03/0", f"{year % 100}/09/1")
    if kind:
        text = text.replace("092 Individual: Round Robin", f"092 Individual: Round Robin ({kind})")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _event(ratings: list[int], tc: str, day: date, pairs: list[tuple[int, int]]) -> Tournament:
    """Players rated *ratings* (start numbers from 1); each pair plays one round, White wins."""
    players = tuple(Player(start_no=n, name=f"Player {n}", rating=r, fide_id=str(1000 + n))
                    for n, r in enumerate(ratings, 1))
    results = []
    for rd, (w, b) in enumerate(pairs, 1):
        results += [RoundResult(start_no=w, round=rd, status=Status.PLAYED, opponent_no=b,
                                colour=Colour.WHITE, points=Decimal(1)),
                    RoundResult(start_no=b, round=rd, status=Status.PLAYED, opponent_no=w,
                                colour=Colour.BLACK, points=Decimal(0))]
    info = TournamentInfo(name="Club Open", start_date=day, end_date=day, rounds=len(pairs),
                          rating_list=RatingList.STANDARD, time_control=tc)
    return Tournament(info=info, players=players, results=tuple(results))
