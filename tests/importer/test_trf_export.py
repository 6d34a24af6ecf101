"""``fiderate import --format trf`` writes TRF-2026; ``--format trf16`` the old TRF16.

The TRF-2026 structure check below is first run on the specification's own example (FIDE
TEC's "Grandmommy's Cup" sample in ../shared/realdata), so that it encodes the layout the
spec shows, not our writer's; our output must then pass it.  The golden TRF26 file is compared
with that example record by record (its ``###`` legend, its 001 columns, its 132 columns); the
TRF16 golden file was written by the TRF16 writer before TRF-2026 came (it must not change).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest

import importer
from importer.formats.trf import decode_trf, parse_trf, write_trf
from importer.formats.trf.writer import encode_time_control
from importer.model import RatingList, Tournament

GOLDEN = Path(__file__).parents[1] / "golden" / "trf"
SAMPLE = "fide_tec_trf2025_sample_grandmommys_cup_team.trf"
REAL = [SAMPLE, "icu_irish_junior_champs_2011_34p.trf", "lichess_bullet_2020_112p_21r_withdrawals.trf",
        "javafo_gros_2010_after_r4_trfx.trf", "bbp_autotest_issue15_synthetic_forfeits.trf"]
TOURNAMENT_CODES = {"012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112",
                    "122", "132", "142", "152", "162", "172", "182", "192", "202", "212", "222",
                    "352", "362"}
"""012 … 222, 352, 362: the TRF26 tournament section."""
OTHER_CODES = {"001", "013", "310", "240", "250", "260", "299", "300", "320", "330", "801", "802"}
TITLES = {"", "GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"}
RESULTS = set("+-WDL1=0HFUZ ")
PLAYER = re.compile(r"(?P<code>001|[A-Z]{3}) (?P<no>[ \d]{3}\d) (?P<sex>[mw ])(?P<title>[ A-Z]{3}) "
                    r"(?P<name>.{33}) (?P<rating>[ \d]{4}) (?P<fed>[ A-Z]{3}) (?P<id>[ \d]{11}) "
                    r"(?P<birth>\d{4}/\d\d/\d\d|\s{10}) (?P<points>[ \d]\d\.\d|\s{4}) "
                    r"(?P<rank>[ \d]{4})(?P<rounds>.*)")
BLOCK = re.compile(r"  (?P<opp>[ \d]{4}) (?P<colour>[wb\- ]) (?P<result>.)")


def trf26_problems(text: str, *, line_end: str = "\r") -> list[str]:
    """What in *text* breaks the TRF26 layout (spec/trf-and-fide-list.md §A2-A6)."""
    problems = []
    if not text.endswith(line_end) or (line_end == "\r" and "\n" in text):
        problems.append(f"lines do not all end with {line_end!r}")
    lines = text.split(line_end)[:-1]
    codes = {line[:3] for line in lines}
    for need in ("012", "022", "032", "042", "052", "102", "132", "001"):
        if need not in codes:
            problems.append(f"no {need} record")
    players = 0
    for n, line in enumerate(lines, 1):
        code = line[:3]
        if code == "###" or not line.strip():  # comments; the spec's example has blank lines
            continue
        if len(line) > 3 and line[3] != " ":
            problems.append(f"line {n}: column 4 is not blank")
        if code in ("042", "052") and not re.fullmatch(r"\d{4}/\d\d/\d\d|", line[4:].strip()):
            problems.append(f"line {n}: {code} is not YYYY/MM/DD")
        elif code == "132":
            for c in range(91, len(line), 10):
                if not re.fullmatch(r"\d\d/\d\d/\d\d|\s{8}", line[c:c + 8].ljust(8)):
                    problems.append(f"line {n}: 132 column {c + 1} is not a YY/MM/DD date")
            if line[3:91].strip():
                problems.append(f"line {n}: 132 has text before column 92")
        elif code == "001" or (re.fullmatch(r"[A-Z]{3}", code) and code not in ("XXR", "XXC")):
            m = PLAYER.fullmatch(line.ljust(89))
            if m is None:
                problems.append(f"line {n}: {code} record off its columns: {line[:90]!r}")
                continue
            if code == "001" and m["title"].strip() not in TITLES:  # NRS: a national class
                problems.append(f"line {n}: title {m['title']!r}")
            rounds = m["rounds"]
            for k in range(0, len(rounds), 10):
                b = BLOCK.fullmatch(rounds[k:k + 10].ljust(10))
                if b is None or b["result"] not in RESULTS:
                    problems.append(f"line {n}: round {k // 10 + 1} block {rounds[k:k + 10]!r}")
            players += code == "001"
        elif code == "013":
            if not re.fullmatch(r"013 .{32}(?:[ \d]{3}\d(?: [ \d]{3}\d)*)?", line):
                problems.append(f"line {n}: 013 record off its columns")
        elif code not in TOURNAMENT_CODES | OTHER_CODES:
            problems.append(f"line {n}: record code {code!r} is not TRF26")
    declared = [line[4:].split()[0] for line in lines if line.startswith("062 ")]
    if declared and int(declared[0]) != players:
        problems.append(f"062 says {declared[0]}, the file has {players} players")
    return problems


def real_trf(realdata: Path, name: str) -> Tournament:
    return parse_trf(decode_trf((realdata / "trf" / name).read_bytes()), source=name)


def same(t: Tournament) -> tuple[object, ...]:
    return dataclasses.replace(t.info, source=""), t.players, t.results, t.games


def test_the_structure_check_accepts_the_specs_own_example(realdata: Path) -> None:
    text = (realdata / "trf" / SAMPLE).read_bytes().decode("utf-8")
    assert trf26_problems(text, line_end="\r\n") == []
    broken = text.replace("001    7      Test0007", "001    7     Test0007 ", 1)
    assert any("off its columns" in p for p in trf26_problems(broken, line_end="\r\n"))
    assert trf26_problems(text.replace("\r\n", "\n"))[0] == "lines do not all end with '\\r'"


@pytest.mark.parametrize("name", REAL)
def test_real_trf_written_as_trf26_reads_back_the_same(realdata: Path, name: str) -> None:
    t = real_trf(realdata, name)
    text = write_trf(t)
    assert trf26_problems(text) == []
    assert same(parse_trf(text, source=name)) == same(t)
    rounds = max(t.info.rounds or 0, t.rounds_seen)
    assert f"\r142 {rounds}\r" in text and "XXR" not in text


def test_sample_open_as_trf26_is_the_golden_file(fixtures_dir: Path) -> None:
    t = importer.load(fixtures_dir / "sample_open.trf")
    text = write_trf(t)
    assert text.encode("utf-8") == (GOLDEN / "sample_open_trf26.trf").read_bytes()
    assert trf26_problems(text) == []
    assert parse_trf(text, source=str(fixtures_dir / "sample_open.trf")) == t
    assert "\r122 90 min + 30 sec from move 1\r222 5400+30\r" in text  # encoded when plain


def test_golden_file_has_the_records_of_the_specs_example(realdata: Path) -> None:
    """Record by record against the TRF26 sample: the ### legend, the 001 and 132 columns."""
    spec = (realdata / "trf" / SAMPLE).read_bytes().decode("utf-8").split("\r\n")
    ours = (GOLDEN / "sample_open_trf26.trf").read_bytes().decode("utf-8").split("\r")
    legend = next(line for line in spec if line.startswith("### SSSS")).rstrip()
    mine = next(line for line in ours if line.startswith("###"))
    assert mine == legend[:len(mine)] and len(mine) == 89 + 7 * 10  # 7 rounds of the 14
    spec_132 = next(line for line in spec if line.startswith("132"))
    our_132 = next(line for line in ours if line.startswith("132"))
    dates = [m.start() for m in re.finditer(r"\d\d/\d\d/\d\d", spec_132)]
    assert [m.start() for m in re.finditer(r"\d\d/\d\d/\d\d", our_132)] == dates[:7]
    fields = [m.span() for m in re.finditer(r"\S+", legend)][1:]  # SSSS sTTT NNN… per column
    for line in (x for x in ours if x.startswith("001")):
        for a, b in itertools.pairwise(fields):
            assert not line[a[1]:b[0]].strip(), (line, a, b)  # text only inside the fields
    assert {line[:3] for line in ours if line} <= {line[:3] for line in spec if line}


def test_the_specs_player_records_are_written_back_as_they_are(realdata: Path) -> None:
    """Every 001 line of the TRF26 example, read and written again, is the same line, save
    the no-opponent forfeits the model reads as absences (``0000 - -``) and byes (``- +``)."""
    text = (realdata / "trf" / SAMPLE).read_bytes().decode("utf-8")
    written = [x for x in write_trf(real_trf(realdata, SAMPLE)).split("\r") if x.startswith("001")]
    original = [x.rstrip().replace("0000 - -", "0000 - Z").replace("0000 - +", "0000 - U")
                for x in text.split("\r\n") if x.startswith("001")]
    assert len(written) == 249 and written == original


def test_trf16_keeps_the_old_output(fixtures_dir: Path) -> None:
    t = importer.load(fixtures_dir / "sample_open.trf")
    text = write_trf(t, version="TRF16")
    assert text.encode("utf-8") == (GOLDEN / "sample_open_trf16.trf").read_bytes()
    assert "\r" not in text and "\nXXR 7\n" in text and "142" not in text and "###" not in text
    assert parse_trf(text, source=str(fixtures_dir / "sample_open.trf")) == t


def test_cli_format_trf_and_trf16(run_cli, fixtures_dir: Path, tmp_path: Path) -> None:
    sample = str(fixtures_dir / "sample_open.trf")
    res = run_cli("import", sample, "--format", "trf", "-q")
    assert res.code == 0 and res.stdout == (GOLDEN / "sample_open_trf26.trf").read_bytes().decode("utf-8")
    res = run_cli("import", sample, "--format", "trf16", "-q")
    assert res.code == 0 and res.stdout == (GOLDEN / "sample_open_trf16.trf").read_bytes().decode("utf-8")
    assert run_cli("import", sample, "--format", "trf", "-o", str(tmp_path / "o"), "-q").code == 0
    data = (tmp_path / "o" / "tournament.trf").read_bytes()
    assert data.endswith(b"\r") and b"\n" not in data
    assert same(importer.load(tmp_path / "o")) == same(importer.load(sample))


def test_what_the_model_does_not_know_is_left_blank() -> None:
    t = parse_trf("012 Bare\n001    1      A, B                                 0\n", source="b")
    lines = write_trf(t).split("\r")
    for code in ("022", "032", "042", "052", "102", "132"):
        assert code in lines  # present, blank
    assert not any(x.startswith(("222", "142", "172")) for x in lines)
    assert trf26_problems(write_trf(t)) == []


@pytest.mark.parametrize(("text", "encoded"), [
    ("90 min + 30 sec from move 1", "5400+30"), ("90'+30\"", "5400+30"), ("3+2", "180+2"),
    ("15 min + 10 sec per move", "900+10"), ("60 min", "3600"), ("5400+30", "5400+30"),
    ("40/6000+30:900+30", "40/6000+30:900+30"), ("W300-B240", "W300-B240"),
    ("10+0 7+3", None), ("90", None), ("", None), ("100'x40mm + 50'x20mm", None)])
def test_encode_time_control(text: str, encoded: str | None) -> None:
    assert encode_time_control(text) == encoded


def test_222_only_when_it_reads_back_as_the_list() -> None:
    base = parse_trf("012 X\n122 15 min + 10 sec\n001    1      A, B                                 0\n",
                     source="x")
    assert base.info.rating_list is RatingList.RAPID and "\r222 900+10\r" in write_trf(base)
    blitz = dataclasses.replace(base, info=dataclasses.replace(base.info,
                                                               rating_list=RatingList.BLITZ))
    text = write_trf(blitz)
    assert "222" not in text and parse_trf(text).info.rating_list is RatingList.BLITZ


def test_a_last_update_is_never_written_as_the_start(run_cli, fixtures_dir, tmp_path):
    """A page whose only date is its last update: the TRF leaves 042/052 empty (the update
    bounds the event, it is not its start), and reads back without a start date."""
    page = fixtures_dir / "chess-results" / "art4_ranking_crosstable_links.html"
    res = run_cli("import", str(page), "--format", "trf", "--out", str(tmp_path / "out"), "-q")
    assert res.code == 0, res.stderr
    text = (tmp_path / "out" / "tournament.trf").read_text(encoding="utf-8")
    records = {line[:3]: line[4:].strip() for line in text.replace("\r", "\n").splitlines()}
    assert records["042"] == "" and records["052"] == ""
    back = importer.load(tmp_path / "out" / "tournament.trf")
    assert back.info.start_date is None
