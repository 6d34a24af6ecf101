"""Ratings are range-checked at import: every reader's FIDE and national ratings go through
:func:`importer.parsing.numbers.checked_rating` (0 to 3500, 0 unrated) and a rating outside is refused
with one line naming the player and where; huge numbers in number cells never crash a reader
(start numbers are labels: any size Python reads is kept)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import importer
from importer.errors import InputError
from importer.formats.chessresults import build_tournament, parse_page
from importer.formats.trf import parse_trf
from importer.parsing.numbers import MAX_RATING, checked_rating, whole_number

CR = "chess-results"
BIG = "18446744073709551616"  # 2**64
LONG = "9" * 30
TOO_MANY = "7" * 5000  # more digits than Python converts at once


def message(value: object, who: str = "player 3 (Adams, Michael)", kind: str = "rating") -> str:
    return f"{who}: {kind} {value} is not a rating (expected 0 to {MAX_RATING})"


# ------------------------------------------------------------------ the one check


@pytest.mark.parametrize(("value", "want"), [(None, None), (0, None), (1, 1), (2850, 2850),
                                             (MAX_RATING, MAX_RATING)])
def test_ratings_in_range(value: int | None, want: int | None) -> None:
    assert checked_rating(value, 3, "Adams, Michael") == want


@pytest.mark.parametrize("value", [MAX_RATING + 1, 25000, 2**31, int(LONG), -5])
def test_ratings_out_of_range(value: int) -> None:
    with pytest.raises(InputError) as info:
        checked_rating(value, 3, "Adams, Michael")
    assert str(info.value) == message(value)
    with pytest.raises(InputError) as info:
        checked_rating(value, 3, "", national=True)
    assert str(info.value) == message(value, "player 3", "national rating")


@pytest.mark.parametrize(("text", "want"), [("7", 7), ("007", 7), (BIG, 2**64), (LONG, int(LONG)),
                                            ("", None), ("12x", None), ("-3", None),
                                            ("٣", None), (TOO_MANY, None)])
def test_whole_numbers(text: str, want: int | None) -> None:
    assert whole_number(text) == want


# ------------------------------------------------------------------ TRF

TRF = ("012 Range Cup\n"
       "001    3 m    Adams, Michael                    {rating} ENG        2400001          "
       "1.0          4 w 1\n"
       "001    4 m    Brown, Bea                        1700 ENG                         "
       "0.0          3 b 0\n")


@pytest.mark.parametrize("rating", ["9999", "3501"])
def test_trf_rating(rating: str) -> None:
    with pytest.raises(InputError) as info:
        parse_trf(TRF.format(rating=rating), source="x.trf")
    assert str(info.value) == f"x.trf:2: {message(int(rating))}"


def test_trf_in_range_and_unrated() -> None:
    t = parse_trf(TRF.format(rating="3500"), source="x.trf")
    assert [p.rating for p in t.players] == [3500, 1700]
    t = parse_trf(TRF.format(rating="0000"), source="x.trf")
    assert [p.rating for p in t.players] == [None, 1700]


def test_trf_national_rating_line() -> None:
    nrs = "ENG    3 m    Adams, Michael                    4000 ENG        123456\n"
    with pytest.raises(InputError) as info:
        parse_trf(TRF.format(rating="2400") + nrs, source="x.trf")
    assert str(info.value) == f"x.trf:4: {message(4000, kind='national rating')}"


# ------------------------------------------------------------------ chess-results pages


def own(fixtures_dir: Path, name: str) -> str:
    return (fixtures_dir / CR / name).read_text(encoding="utf-8")


def refused(html: str, source: str) -> str:
    with pytest.raises(InputError) as info:
        build_tournament([parse_page(html, source=source)], source=source)
    return str(info.value)


def test_starting_rank(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art0_startingrank_small.html")
    assert refused(html.replace(">2300<", ">25000<"), "p.html") == (
        f"p.html: row 2: {message(25000, 'player 2 (Birch, Ben)')}")
    national = html.replace('"CRr">Rtg<', '"CRr">RtgN<').replace(">2300<", f">{LONG}<")
    assert refused(national, "p.html") == (
        f"p.html: row 2: {message(LONG, 'player 2 (Birch, Ben)', 'national rating')}")


def test_crosstable(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art5_crosstable_small.html")
    assert refused(html.replace(">2300<", ">3501<"), "x.html") == (
        f"x.html: row 2: {message(3501, 'player 2 (Birch Ben)')}")


def test_pairings(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art2_pairings_double_forfeit.html")
    assert refused(html.replace(">2300<", f">{2**31}<", 1), "r.html") == (
        f"r.html: pairings row 1: {message(2**31, 'player 2 (Birch, Ben)')}")


def test_player_card(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art9_player_card_en_k.html")
    own_rating = html.replace('international</td><td class="CR">1850<',
                              'international</td><td class="CR">9000<')
    assert refused(own_rating, "c.html") == (
        f"c.html: player card: {message(9000, 'player 5 (Smith, Sam)')}")
    national = html.replace('national</td><td class="CR">1870<',
                            'national</td><td class="CR">18700<')
    assert refused(national, "c.html") == (
        f"c.html: player card: {message(18700, 'player 5 (Smith, Sam)', 'national rating')}")
    opponent = html.replace('Doe, John</td><td class="CRc">1893<',
                            'Doe, John</td><td class="CRc">18930<')
    assert refused(opponent, "c.html") == (
        f"c.html: player card row 1: {message(18930, 'player 12 (Doe, John)')}")


def test_team_board_pairings(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art3_team_boardpairings_pgn.html")
    assert refused(html.replace('>1496<', '>14960<', 1), "t.html") == (
        f"t.html: board 1.1 round 1: {message(14960, 'player 27 (Wang, Hanzhang)')}")


def test_ranking_list(fixtures_dir: Path) -> None:
    html = own(fixtures_dir, "art1_ranking_published_small.html")
    page = parse_page(html)
    first = page.players[0]
    assert first.rating is not None
    text = refused(html.replace(f">{first.rating}<", ">25000<", 1), "k.html")
    assert text.startswith("k.html: row 1: ") and text.endswith(
        message(25000, f"player {first.start_no} ({first.name})"))


def test_real_page_rating_cell(realdata: Path) -> None:
    html = (realdata / CR / "en_swiss_startingrank_art0_british2026.html").read_text(
        encoding="utf-8")
    page = parse_page(html)
    assert all(p.rating is None or 0 < p.rating <= MAX_RATING for p in page.players)
    who = page.players[0]
    cell = f'<td class="CRr">{who.rating}</td>'
    assert cell in html
    text = refused(html.replace(cell, f'<td class="CRr">{LONG}</td>', 1), "b.html")
    assert text.endswith(message(LONG, f"player {who.start_no} ({who.name})"))


# ------------------------------------------------------------------ Excel, CSV, our own files


def xlsx(fixtures_dir: Path, edits: dict[str, object]) -> bytes:
    from openpyxl import load_workbook

    wb = load_workbook(fixtures_dir / "excel" / "crosstable_art5_details_byes_forfeits_pending.xlsx")
    ws = wb.active
    assert ws is not None and ws["D14"].value == "Ashdown, Peter " and ws["E13"].value == "Rtg"
    for ref, value in edits.items():
        ws[ref] = value
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_excel(fixtures_dir: Path) -> None:
    from importer.formats.excel import parse_xlsx

    for value in (25000, "25000"):
        with pytest.raises(InputError) as info:
            parse_xlsx(xlsx(fixtures_dir, {"E14": value}), source="x.xlsx")
        assert str(info.value) == f"x.xlsx:14: {message(25000, 'player 1 (Ashdown, Peter)')}"
    with pytest.raises(InputError) as info:
        parse_xlsx(xlsx(fixtures_dir, {"E13": "RtgN", "E14": LONG}), source="x.xlsx")
    assert str(info.value) == (
        f"x.xlsx:14: {message(LONG, 'player 1 (Ashdown, Peter)', 'national rating')}")


def test_excel_huge_numbers(fixtures_dir: Path) -> None:
    from importer.formats.excel import parse_xlsx

    with pytest.raises(InputError, match=r"x\.xlsx:14: expected a whole number"):
        parse_xlsx(xlsx(fixtures_dir, {"A14": TOO_MANY}), source="x.xlsx")
    with pytest.raises(InputError, match=r"x\.xlsx:14: bad number"):
        parse_xlsx(xlsx(fixtures_dir, {"E14": TOO_MANY}), source="x.xlsx")


SMALL = ("Small Open\r\n\r\nStarting rank\r\n\r\n"
         "Rank;SNo.;;Name;Rtg;FED;1.Rd.;;;Pts\r\n"
         "1;1;FM;One, A;2200;ENG;2;w;1;1\r\n"
         "2;2;;Two, B;2100;ENG;1;b;0;0\r\n")


def test_swiss_manager_csv() -> None:
    from importer.formats.smcsv import parse_smcsv

    with pytest.raises(InputError) as info:
        parse_smcsv(SMALL.replace("2100", "25000"), source="s.csv")
    assert str(info.value) == f"s.csv:7: {message(25000, 'player 2 (Two, B)')}"
    t = parse_smcsv(SMALL.replace(";1;FM;", f";{BIG};FM;").replace("1;b;0", f"{BIG};b;0"),
                    source="s.csv")
    assert [p.start_no for p in t.players] == [2, 2**64]
    with pytest.raises(InputError, match=r"s\.csv:6: expected a starting number"):
        parse_smcsv(SMALL.replace(";1;FM;", f";{TOO_MANY};FM;"), source="s.csv")


@pytest.fixture
def sample(fixtures_dir: Path) -> importer.Tournament:
    return importer.load(fixtures_dir / "sample_open.trf")


def test_json(sample: importer.Tournament) -> None:
    from importer.formats.jsonfile import from_json, to_json

    doc = json.loads(to_json(sample))
    first = doc["players"][0]
    who = f"player {first['start_no']} ({first['name']})"
    for key, kind in (("rating", "rating"), ("national_rating", "national rating")):
        for value in (25000, -5, int(LONG)):
            bad = json.loads(json.dumps(doc))
            bad["players"][0][key] = value
            with pytest.raises(InputError) as info:
                from_json(json.dumps(bad), source="t.json")
            assert str(info.value) == f"t.json: players[0]: {message(value, who, kind)}"
    doc["players"][0]["rating"] = 0  # unrated, never 0
    assert from_json(json.dumps(doc)).players[0].rating is None
    doc["players"][0]["rating"] = True
    with pytest.raises(InputError, match=r"players\[0\]\.rating: unexpected value True"):
        from_json(json.dumps(doc))
    text = to_json(sample).replace('"rating": ', f'"rating": {TOO_MANY}, "x": ', 1)
    with pytest.raises(InputError, match=r"t\.json: a number with more digits"):
        from_json(text, source="t.json")


def test_normalized_folder(sample: importer.Tournament, tmp_path: Path) -> None:
    from importer.formats.normalized import read_folder, write_folder

    first = sample.players[0]
    assert first.rating is not None
    folder = write_folder(sample, tmp_path / "n")
    players = folder / "players.csv"
    text = players.read_text(encoding="utf-8")
    players.write_text(text.replace(f",{first.rating},", ",25000,", 1), encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_folder(folder)
    assert str(info.value) == (
        f"{players}:2: {message(25000, f'player {first.start_no} ({first.name})')}")
    players.write_text(text.replace(f",{first.rating},", f",{TOO_MANY},", 1), encoding="utf-8")
    with pytest.raises(InputError, match=r"players\.csv:2: column 'rating': expected a rating"):
        read_folder(folder)


# ------------------------------------------------------------------ huge start numbers


def test_huge_start_numbers_are_labels(fixtures_dir: Path, run_cli, tmp_path: Path) -> None:
    html = own(fixtures_dir, "art5_crosstable_small.html")
    big = (html.replace('<td class="CRc">2</td>', f'<td class="CRc">{BIG}</td>', 1)
           .replace("  2w1", f"{BIG}w1").replace("  2b1", f"{BIG}b1")
           .replace("  2b0", f"{BIG}b0"))
    source = tmp_path / "big.html"
    source.write_text(big, encoding="utf-8")
    t = importer.load(source)
    assert 2**64 in {p.start_no for p in t.players}
    assert {r.opponent_no for r in t.results} >= {2**64}
    for fmt in ("csv", "json"):
        out = tmp_path / fmt
        assert run_cli("import", str(source), "--format", fmt, "-o", str(out), "-q").code == 0
        assert importer.load(out).players == t.players
    res = run_cli("import", str(source), "--format", "trf", "-o", str(tmp_path / "trf"))
    assert res.code == 2 and not (tmp_path / "trf").exists()
    assert f"TRF holds start numbers 1 to 9999 (columns 5-8): player {BIG}" in res.stderr


@pytest.mark.parametrize(("old", "new"), [
    ('<td class="CRc">2</td>', f'<td class="CRc">{TOO_MANY}</td>'),  # No.
    (">2300<", f">{TOO_MANY}<"),                                     # Rtg
    ("  2w1", f"{TOO_MANY}w1"),                                      # a round cell's opponent
    (">1.Rd<", f">{TOO_MANY}.Rd<"),                                  # a round column
])
def test_too_many_digits_never_crash(fixtures_dir: Path, old: str, new: str) -> None:
    html = own(fixtures_dir, "art5_crosstable_small.html")
    assert old in html
    try:
        t = build_tournament([parse_page(html.replace(old, new, 1), source="x.html")])
    except InputError as e:
        error = str(e)
    else:
        assert all(p.rating is None or 0 < p.rating <= MAX_RATING for p in t.players)
        return
    assert error.startswith("x.html: ")


@pytest.mark.parametrize("command", ["import", "report"])
def test_the_cli_prints_one_line_and_exits_2(fixtures_dir: Path, run_cli, tmp_path: Path,
                                              command: str) -> None:
    source = tmp_path / "page.html"
    source.write_text(own(fixtures_dir, "art0_startingrank_small.html").replace(
        ">2300<", ">25000<"), encoding="utf-8")
    res = run_cli(command, str(source), "--out", str(tmp_path / "out"))
    assert res.code == 2 and not (tmp_path / "out").exists()
    assert res.stderr.strip().splitlines() == [
        f"fiderate: error: {source}: row 2: {message(25000, 'player 2 (Birch, Ben)')}"]
