"""The period engine's named pieces: the (person, list) codes, and the first event of a period of
many tournaments."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_register import event

from importer.identity import EventIdentity
from importer.model import RatingList
from rating.errors import RatingError
from rating.period.core import PlayerLists
from rating.period.engine import _K_SPAN, _distinct_ks, rate_period
from rating.period.records import LIST_CODES, LISTS, Standing


def test_codes_go_both_ways_for_ints_and_arrays():
    codes = PlayerLists(4)
    assert codes.size == 4 * len(LISTS)
    every = [(p, li) for p in range(4) for li in range(len(LISTS))]
    assert [codes.code_of(p, li) for p, li in every] == list(range(codes.size))
    assert all((codes.person_of(codes.code_of(p, li)), codes.list_of(codes.code_of(p, li)))
               == (p, li) for p, li in every)
    people = np.array([3, 0, 2])
    got = codes.code_of(people, LIST_CODES[RatingList.BLITZ])
    assert codes.person_of(got).tolist() == [3, 0, 2]
    assert codes.list_of(got).tolist() == [LIST_CODES[RatingList.BLITZ]] * 3
    per_code = np.arange(codes.size)
    assert per_code[codes.on_list(1)].tolist() == [codes.code_of(p, 1) for p in range(4)]
    assert list(codes.codes_of(2)) == [codes.code_of(2, li) for li in range(len(LISTS))]
    assert codes.per_person(np.array([7, 8, 9, 10]))[codes.code_of(2, 2)] == 9
    assert codes.per_list(np.array([5, 6, 7]))[codes.code_of(3, 1)] == 6


def test_the_first_event_is_the_earliest_among_more_than_a_thousand_tournaments():
    # An unrated player scores in the 1 002nd tournament, a day before a zero in the first one:
    # the first event is the one scored in, so the later zero counts.
    day = date(2025, 10, 10)
    filler = [event(day, {f"9{i:04d}": 1800, f"8{i:04d}": 1800}, [(f"9{i:04d}", f"8{i:04d}", 1)],
                    f"t{i}") for i in range(1000)]
    newcomer = {"21": None, "31": 1900, "32": 1900}
    late = event(day.replace(day=11), newcomer, [("21", "31", 0), ("21", "32", 0)], "late")
    early = event(day, newcomer, [("21", "31", 1), ("21", "32", 0.5)], "early")
    previous = {(p.fide_id, RatingList.STANDARD): Standing(rating=p.rating)
                for t in (early, *filler) for p in t.players if p.rating is not None}
    period = [late, *filler, early]
    r = rate_period(period, date(2025, 11, 1), previous=previous,
                    events=[EventIdentity(chess_results=str(i)) for i in range(len(period))])
    assert {(g.tournament, g.disregarded) for g in r.pool if g.key == "21"} == {
        ("t1", False), ("t1002", False)}
    assert not any("scored nothing" in n for n in r.notes)


@pytest.mark.parametrize("rating", [-5, 3501, 2 ** 70, 10 ** 400])
def test_a_printed_rating_that_is_no_rating_is_refused_with_the_player(rating):
    t = event(date(2025, 10, 10), {"11": rating, "12": 1800}, [("11", "12", 1)], "open")
    with pytest.raises(RatingError, match=rf"t1: player 1 \(P 11\) has rating {rating}, which "
                                          r"is not a rating \(expected 1 to 3500\)"):
        rate_period([t], date(2025, 11, 1))


def test_a_rating_of_0_is_none_but_the_tournament_still_carries_ratings():
    t = event(date(2025, 10, 10), {"11": 0, "12": 1800}, [("11", "12", 1)], "open")
    spec = rate_period([t], date(2025, 11, 1)).tournaments[0]
    assert spec.ratings_from == "source"
    no_ratings = event(date(2025, 10, 10), {"11": None, "12": None}, [("11", "12", 1)], "open")
    assert rate_period([no_ratings], date(2025, 11, 1)).tournaments[0].ratings_from == "list"


@given(st.lists(st.tuples(st.integers(0, 30), st.sampled_from([10, 15, 20, 40])), max_size=200))
def test_each_code_s_distinct_ks_are_those_of_its_rows(rows):
    pl = np.array([c for c, _ in rows], dtype=np.int64)
    k = np.array([k for _, k in rows], dtype=np.int64)
    assert _distinct_ks(pl, k, 31).tolist() == sorted({c * _K_SPAN + k for c, k in rows})
