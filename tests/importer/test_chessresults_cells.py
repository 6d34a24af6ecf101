"""The chess-results round-cell grammar (spec §8.3) and number helpers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importer.errors import ImporterError, InputError
from importer.formats.chessresults.cells import (
    Cell,
    parse_int,
    parse_points,
    parse_rating,
    parse_round_cell,
)
from importer.model import Colour, Status

W, B, N = Colour.WHITE, Colour.BLACK, Colour.NONE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  9w+", Cell(9, W, 1.0, Status.FORFEIT_WIN)),
        (" 23b-", Cell(23, B, 0.0, Status.FORFEIT_LOSS)),
        ("256w1", Cell(256, W, 1.0, Status.PLAYED)),
        ("223b½", Cell(223, B, 0.5, Status.PLAYED)),
        (" 29w&frac12;", Cell(29, W, 0.5, Status.PLAYED)),
        ("  3b0", Cell(3, B, 0.0, Status.PLAYED)),
        ("1234w1", Cell(1234, W, 1.0, Status.PLAYED)),
        (" 13b", Cell(13, B, None, Status.PENDING)),
        ("\xa0 13b\xa0", Cell(13, B, None, Status.PENDING)),
        ("  4w\r\n", Cell(4, W, None, Status.PENDING)),
        ("   -1", Cell(None, N, 1.0, Status.BYE)),
        ("-0", Cell(None, N, 0.0, Status.ABSENT)),
        ("-½", Cell(None, N, 0.5, Status.HALF_BYE)),
        ("   -&frac12;", Cell(None, N, 0.5, Status.HALF_BYE)),
        ("-0,5", Cell(None, N, 0.5, Status.HALF_BYE)),
        ("12s0,5", Cell(12, B, 0.5, Status.PLAYED)),
        ("12w1/2", Cell(12, W, 0.5, Status.PLAYED)),
        ("*", Cell(None, N, None, Status.ABSENT)),
        ("1", Cell(None, N, 1.0, Status.PLAYED)),
        ("½", Cell(None, N, 0.5, Status.PLAYED)),
        ("+", Cell(None, N, 1.0, Status.FORFEIT_WIN)),
        ("-", Cell(None, N, 0.0, Status.FORFEIT_LOSS)),
    ],
)
def test_parse_round_cell(text: str, expected: Cell) -> None:
    assert parse_round_cell(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "w1", "12x1", "12w2", "-2", "bye", "12w1 extra", "½½"])
def test_bad_round_cells_raise_input_error_naming_the_token(text: str) -> None:
    with pytest.raises(InputError, match="unknown round cell"):
        parse_round_cell(text)


@given(st.text(max_size=12))
def test_random_cells_only_raise_input_error(text: str) -> None:
    try:
        cell = parse_round_cell(text)
    except ImporterError:
        return
    assert cell.points in (None, 0.0, 0.5, 1.0)
    assert cell.opponent_no is None or cell.opponent_no >= 0


@pytest.mark.parametrize(
    ("text", "value"),
    [("5,5", 5.5), ("6", 6.0), ("4½ ", 4.5), ("½", 0.5), ("&frac12;", 0.5), ("52.5", 52.5),
     ("7x", 7.5), ("", None), ("\xa0", None)],
)
def test_parse_points(text: str, value: float | None) -> None:
    assert parse_points(text) == value


@pytest.mark.parametrize("text", ["abc", "nan", "-1", "inf", "1,2,3"])
def test_bad_points_raise(text: str) -> None:
    with pytest.raises(InputError):
        parse_points(text)


def test_ratings_and_ints() -> None:
    assert parse_rating("2597") == 2597
    assert parse_rating("0") is None
    assert parse_rating("") is None
    assert parse_int(" 12 ") == 12
    assert parse_int("") is None
    with pytest.raises(InputError):
        parse_int("1a")
    with pytest.raises(InputError):
        parse_int("٣")


@pytest.mark.parametrize(("shown", "read"), [
    (("f", "", ""), ("f", "m", "m")),      # Swiss-Manager: 'w' for women, blank for men
    (("f", "m", ""), ("f", "m", "")),      # a column that marks men too: a blank is unknown
    (("", "", ""), ("", "", "")),          # a column that marks no one says nothing
])
def test_a_sex_column_of_women_only_says_the_blanks_are_men(shown, read):
    from importer.formats.chessresults.table import men_where_blank
    from importer.model import Player

    players = [Player(start_no=i + 1, name=f"P{i}", sex=s) for i, s in enumerate(shown)]
    assert tuple(p.sex for p in men_where_blank(players, {"sex": 4})) == read
    assert men_where_blank(players, {"name": 1}) == players  # no sex column: as shown
