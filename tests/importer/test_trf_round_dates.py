"""The 132 round dates read in the one order the event's 042/052 dates fix (issue 28, point 4)."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from importer.formats.trf import decode_trf, parse_trf
from importer.model import Tournament

ARMSTRONG = "icu_armstrong_cup_2010_11_team_league_160p.trf"  # 132 in YY.MM.DD, rounds weeks apart
BUNRATTY = "icu_bunratty_masters_2011_34p.trf"  # 132 in YY.DD.MM
GRANDMOMMY = "fide_tec_trf2025_sample_grandmommys_cup_team.trf"  # 132 in YY/MM/DD
JUNIORS = "icu_irish_junior_champs_2011_34p.trf"  # 132 in YY/MM/DD


def _text(realdata: Path, name: str) -> str:
    return decode_trf((realdata / "trf" / name).read_bytes())


def _written(text: str, fmt: str) -> list[date]:
    """The 132 line's dates as the file writes them, read with *fmt* (strptime)."""
    line = next(x for x in text.split("\n") if x.startswith("132"))
    return [datetime.strptime(line[c:c + 8], fmt).date() for c in range(91, len(line), 10)
            if line[c:c + 8].strip()]


def _line_132(fields: list[str]) -> str:
    """A 132 line with *fields* at columns 92-99, 102-109, …"""
    return "132".ljust(91) + "".join(f.ljust(10) for f in fields).rstrip()


def _with_132(text: str, fields: list[str]) -> str:
    """*text* with its 132 line's dates replaced by *fields*."""
    return "\n".join(_line_132(fields) if x.startswith("132") else x for x in text.split("\n"))


def _round_notes(t: Tournament) -> list[str]:
    """The warnings that name the 132 line."""
    return [w.message for w in t.warnings if "132" in w.message]


@pytest.mark.parametrize(("name", "fmt"), [
    (ARMSTRONG, "%y.%m.%d"), (BUNRATTY, "%y.%d.%m"), (GRANDMOMMY, "%y/%m/%d"),
    (JUNIORS, "%y/%m/%d")])
def test_real_round_dates_read_as_written(realdata: Path, name: str, fmt: str) -> None:
    """Armstrong's round 6 (10.12.11, 11 December) was read 12 November, nearer round 5."""
    text = _text(realdata, name)
    t = parse_trf(text, source=name)
    assert list(t.info.round_dates) == _written(text, fmt)
    assert _round_notes(t) == []


@pytest.mark.parametrize(("name", "fmt", "swapped"), [
    (ARMSTRONG, "%y.%m.%d", "%y.%d.%m"), (ARMSTRONG, "%y.%m.%d", "%d/%m/%y"),
    (GRANDMOMMY, "%y/%m/%d", "%y/%d/%m"), (BUNRATTY, "%y.%d.%m", "%y/%m/%d")])
def test_real_round_dates_rewritten_in_another_order(realdata: Path, name: str, fmt: str,
                                                     swapped: str) -> None:
    """The same dates written in another order read the same: the order 042..052 allows."""
    text = _text(realdata, name)
    dates = _written(text, fmt)
    t = parse_trf(_with_132(text, [d.strftime(swapped) for d in dates]), source=name)
    assert list(t.info.round_dates) == dates
    assert _round_notes(t) == []


@pytest.mark.parametrize("fields", [
    ["12.25.02", "12.26.02", "12.27.02"],  # a year late
    ["11.25.03", "11.26.03", "11.27.03"],  # a month late
    ["11/25/02", "11/02/26", "11/31/12"],  # some in order, none in the event in one order
])
def test_round_dates_outside_the_event_in_every_order(realdata: Path, fields: list[str]) -> None:
    """Over a week outside 2011-02-25..27 however read: one note naming 132, no round dates,
    the event's 042/052 dates kept."""
    t = parse_trf(_with_132(_text(realdata, BUNRATTY), fields), source=BUNRATTY)
    notes = _round_notes(t)
    assert len(notes) == 1 and [w.code for w in t.warnings if "132" in w.message] == ["date"]
    assert f"132: the round dates {' '.join(fields)} lie more than a week outside the event's " \
           "dates 2011-02-25 to 2011-02-27" in notes[0]
    assert t.info.round_dates == ()
    assert (t.info.start_date, t.info.end_date) == (date(2011, 2, 25), date(2011, 2, 27))


def test_without_event_dates_each_round_date_nearest_the_one_before(realdata: Path) -> None:
    """No 042/052: nothing to fit, the dates are read as best as can be, with no note."""
    text = "\n".join(x for x in _text(realdata, BUNRATTY).split("\n")
                     if not x.startswith(("042", "052")))
    t = parse_trf(text, source=BUNRATTY)
    assert list(t.info.round_dates) == _written(text, "%y.%d.%m")
    assert (t.info.start_date, t.info.end_date) == (date(2011, 2, 25), date(2011, 2, 27))
    assert _round_notes(t) == []


def _two_players(start: str, end: str, fields: list[str]) -> str:
    """A two-player match of one game a round on the given 042, 052 and 132 dates."""
    n = len(fields)
    lines = ["012 Round Dates Match", f"042 {start}", f"052 {end}", _line_132(fields)]
    for no, first in ((1, "w"), (2, "b")):
        rounds = "".join(f"{3 - no:4d} {first if r % 2 == 0 else 'wb'[first == 'w']} =  "
                         for r in range(n))
        lines.append(f"001 {no:4d} m    {f'Player, {no}':<33} 1800 ENG {'':11} {'':10} "
                     f"{n / 2:4.1f} {no:4d}  {rounds}".rstrip())
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("start", "end", "fields", "expected"), [
    # every date valid both ways, only year/day/month inside: 2 March was read 3 February
    ("2025/01/05", "2025/03/02", ["25/05/01", "25/12/01", "25/09/02", "25/02/03"],
     [date(2025, 1, 5), date(2025, 1, 12), date(2025, 2, 9), date(2025, 3, 2)]),
    # both orders inside: the non-decreasing one (the nearest reading took 2 January twice)
    ("2025/01/01", "2025/02/28", ["25/02/01", "25/01/02"], [date(2025, 1, 2), date(2025, 2, 1)]),
    # both inside and non-decreasing: TRF's own year/month/day
    ("2025/01/01", "2025/03/31", ["25/01/02", "25/01/03"], [date(2025, 1, 2), date(2025, 1, 3)]),
    # a 12-day event in day/month/year: only that order puts 3 and 12 March inside
    ("2025/03/01", "2025/03/12", ["03/03/25", "12/03/25"], [date(2025, 3, 3), date(2025, 3, 12)]),
    # 052 left at the first day: rounds up to a week after it are still read
    ("2025/03/01", "2025/03/01", ["25/01/03", "25/04/03", "25/08/03"],
     [date(2025, 3, 1), date(2025, 3, 4), date(2025, 3, 8)]),
    # year/month/day a day after the event, year/day/month inside it: the one inside
    ("2025/01/01", "2025/01/31", ["25/02/01"], [date(2025, 1, 2)]),
])
def test_ambiguous_round_dates(start: str, end: str, fields: list[str],
                               expected: list[date]) -> None:
    """A hand-made match whose 132 dates read more than one way: 042..052 decides."""
    t = parse_trf(_two_players(start, end, fields), source="match.trf")
    assert list(t.info.round_dates) == expected
    assert _round_notes(t) == [] and t.rounds_seen == len(fields)
