"""The calculator's inputs, read once for the command line, the page and ``/api/calc``: each
refusal in words naming its field (never an option), with a machine code; and FIDE's K
categories explained from the rules in force."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from rating.systems.fide import Category
from rating.systems.fide_rules import rules_for
from reports.calc.input import CalcError, CalcInput
from reports.calc.view import k_categories

ONE = [("rating", "1500"), ("opponent", "1600"), ("result", "win")]


def test_fields_are_read_and_typed():
    inputs = CalcInput.from_fields([*ONE, ("k", " 30 "), ("date", "2026-08-01"),
                                    ("list", "Rapid"), ("system", "ELO"), ("elo_cap", "400"),
                                    ("opponent_k", ""), ("category", "")])
    assert (inputs.rating, inputs.opponent, inputs.result, inputs.k) == (1500, 1600, 1, 30)
    assert (inputs.on, inputs.rating_list.value, inputs.system, inputs.elo_cap) == (
        date(2026, 8, 1), "rapid", "elo", 400)
    assert inputs.opponent_k is None and inputs.category is None  # empty: not given
    games = CalcInput.from_fields([("rating", "1850"), ("game", "1900:1"), ("game", "2010 ½"),
                                   ("game", "unrated:=")])
    assert games.games == ((1900, Decimal(1)), (2010, Decimal("0.5")), (None, Decimal("0.5")))
    flags = CalcInput.from_fields([("rating", "2300"), ("game", "2300:1"),
                                   ("reached_2400", ""), ("category", "")])
    assert flags.reached_2400 is True  # a flag given empty is yes
    table = CalcInput.from_fields([("table", "yes")])
    assert table.table and table.rating is None


@pytest.mark.parametrize(("pairs", "field", "code", "words"), [
    ([("rating", "1500")], "opponent", "missing",
     "give the opponent's rating and the result, or the games"),
    ([("opponent", "1600"), ("result", "w")], "rating", "missing", "give the player's rating"),
    ([("rating", "1500"), ("opponent", "1600")], "result", "missing",
     "one game needs both the opponent's rating and the result: give the result"),
    ([*ONE, ("k", "20"), ("category", "junior")], "k", "conflict",
     "K and the category both decide the player's K: give one"),
    ([*ONE, ("category", "new"), ("games_played", "50")], "category", "conflict",
     "the category and the number of rated games played both decide the player's K"),
    ([*ONE, ("elo_cap", "400")], "elo_cap", "conflict",
     "the Elo cap applies to the generic Elo formula only"),
    ([*ONE, ("game", "1900:1")], "game", "conflict",
     "give one game (the opponent's rating and the result) or a list of games, not both"),
    ([("rating", "1500"), ("game", "1900:1"), ("opponent_k", "20")], "opponent_k", "conflict",
     "the opponent's K is for one game only"),
    ([("rating", "99"), ("opponent", "1600"), ("result", "w")], "rating", "bad-value",
     "the player's rating 99 is outside 100–3500"),
    ([("rating", "x"), ("opponent", "1600"), ("result", "w")], "rating", "bad-value",
     "the player's rating 'x': expected a rating, a whole number"),
    ([*ONE[:2], ("result", "maybe")], "result", "bad-value",
     "the result 'maybe': expected win, draw or loss (or 1, ½, 0)"),
    ([*ONE, ("k", "0")], "k", "bad-value", "K 0: expected a whole number from 1 to 100"),
    ([*ONE, ("opponent_k", "101")], "opponent_k", "bad-value",
     "the opponent's K 101: expected a whole number from 1 to 100"),
    ([("rating", "1500"), ("game", "1900")], "game", "bad-value",
     "game 1 ('1900'): expected the opponent's rating (or unrated) and the result"),
    ([("rating", "1500"), ("game", "1900 1"), ("game", "abc:1")], "game", "bad-value",
     "game 2: the opponent's rating 'abc': expected a rating, a whole number"),
    ([*ONE, ("category", "grandmaster")], "category", "bad-value",
     "the category 'grandmaster': choose new, junior, established or master"),
    ([*ONE, ("date", "2026-13-01")], "date", "bad-value",
     "date '2026-13-01': expected a date YYYY-MM-DD"),
    ([*ONE, ("table", "maybe")], "table", "bad-value",
     "'maybe' for the worked examples: expected yes or no"),
    ([*ONE, ("colour", "white")], "colour", "unknown-field", "unknown field 'colour'"),
])
def test_each_refusal_names_its_field_in_words(pairs, field, code, words):
    with pytest.raises(CalcError) as caught:
        CalcInput.from_fields(pairs)
    assert (caught.value.field, caught.value.code) == (field, code)
    assert str(caught.value).startswith(words) and "--" not in str(caught.value)


def test_the_k_categories_are_the_rules_in_force():
    """R24 8.3.3 (from 2014-07): 40 for new players (fewer than 30 games) and juniors (under
    18, below 2300), 20, and 10 once 2400 is reached; before July 2011, 25, 15 and 10 with
    no junior rule."""
    now = {c["category"]: (c["k"], c["means"]) for c in k_categories(rules_for(date(2026, 1, 1)))}
    assert {c: k for c, (k, _) in now.items()} == {"new": 40, "junior": 40, "established": 20,
                                                   "master": 10}
    assert "fewer than 30 rated games" in now["new"][1] and "2300" in now["junior"][1]
    assert "reached 2400" in now["master"][1]
    old = {c["category"]: c["k"] for c in k_categories(rules_for(date(2010, 1, 1)))}
    assert old == {"new": 25, "junior": 15, "established": 15, "master": 10}
    assert [c["category"] for c in k_categories()] == [c.value for c in Category]
