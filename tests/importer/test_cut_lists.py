"""A starting list cut at 150 rows: the ratings of the players beyond it are unknown, not unrated.

The pages are generated in the structure of chess-results' art=0 starting rank (with its
'Show complete list' link when cut) and an art=5 crosstable printed without a rating column.
"""

from __future__ import annotations

import random
from datetime import date

import pytest

from importer.formats.chessresults import build_tournament, parse_page
from importer.model import Status
from rating.tournament import OPPONENT_RATING_UNKNOWN, rate_tournament

N, ROUNDS, SHOWN = 160, 5, 150
HEAD = ('<!DOCTYPE html><html><head><meta charset="utf-8"/><title>Chess-Results Server '
        'Chess-results.com - Cut List Open 2026</title></head><body>'
        '<form method="post" action="./tnr999002.aspx?lan=1&amp;art={art}" id="form1">'
        '<div class="defaultDialog"><h2>Cut List Open 2026</h2>'
        '<p class="CRsmall">Last update 01.06.2026 20:00:00</p></div>'
        '<div class="defaultDialog"><table class="CRs1">')
TAIL = '</table>{more}</div></form></body></html>'


def rating(no: int) -> int:
    return 2450 - 5 * no


def starting_rank(shown: int) -> str:
    rows = ['<tr class="CRg1b"><th class="CRc">No.</th><th class="CR"></th><th class="CR">Name'
            '</th><th class="CR">FED</th><th class="CRr">Rtg</th></tr>']
    rows += [f'<tr class="CRg1"><td class="CRc">{no}</td><td class="CR"></td><td class="CR">'
             f'Player, No{no}</td><td class="CR">ENG</td><td class="CRr">{rating(no)}</td></tr>'
             for no in range(1, shown + 1)]
    more = ('<p><a class="fett" href="tnr999002.aspx?lan=1&amp;art=0&amp;zeilen=99999">Show '
            'complete list</a></p>') if shown < N else ""
    return HEAD.format(art=0) + "".join(rows) + TAIL.format(more=more)


def crosstable() -> tuple[str, dict[int, list[int]]]:
    """A crosstable without ratings, and each player's opponents."""
    rng = random.Random(160)
    cells: dict[int, list[str]] = {no: [] for no in range(1, N + 1)}
    opponents: dict[int, list[int]] = {no: [] for no in range(1, N + 1)}
    points = dict.fromkeys(cells, 0.0)
    for _ in range(ROUNDS):
        order = list(cells)
        rng.shuffle(order)
        for white, black in zip(order[::2], order[1::2], strict=True):
            w = rng.choice((1.0, 0.5, 0.0))
            for me, opp, col, s in ((white, black, "w", w), (black, white, "b", 1 - w)):
                cells[me].append(f"{opp:3d}{col}{'½' if s == 0.5 else int(s)}")
                opponents[me].append(opp)
                points[me] += s
    head = ('<tr class="CRg1b"><th class="CRc">No.</th><th class="CR"></th><th class="CR">Name'
            '</th>' + "".join(f'<td class="CRc">{r}.Rd</td>' for r in range(1, ROUNDS + 1))
            + '<th class="CRc">Pts.</th></tr>')
    rows = [f'<tr class="CRg1"><td class="CRc">{no}</td><td class="CR"></td><td class="CR">'
            f'Player No{no}</td>' + "".join(f'<td class="CRc">{c}</td>' for c in cells[no])
            + f'<td class="CRc">{points[no]:g}</td></tr>'.replace(".", ",")
            for no in cells]
    return HEAD.format(art=5) + head + "".join(rows) + TAIL.format(more=""), opponents


@pytest.fixture(scope="module")
def events():
    table, opponents = crosstable()
    ct = parse_page(table, source="crosstable.html")
    full = build_tournament([parse_page(starting_rank(N), source="start.html"), ct])
    cut = build_tournament([parse_page(starting_rank(SHOWN), source="start.html"), ct])
    on = date(2026, 6, 1)
    return full, cut, rate_tournament(full, on=on), rate_tournament(cut, on=on), opponents


def test_players_beyond_the_cut_have_unknown_ratings(events) -> None:
    _, cut, _, _, _ = events
    hidden = [p.start_no for p in cut.players if not p.rating_known]
    assert hidden == list(range(SHOWN + 1, N + 1))
    assert all(p.rating is None for p in cut.players if not p.rating_known)
    notes = [w.message for w in cut.warnings if "on no page that shows ratings" in w.message]
    assert len(notes) == 1 and "Nos. 151–160" in notes[0] and "cut" in notes[0]
    assert "complete list" in notes[0]


def test_no_rated_player_gets_a_first_rating(events) -> None:
    _, _, _, rated_cut, _ = events
    assert [p.start_no for p in rated_cut.players if p.initial is not None] == []


def test_games_against_cut_off_players_are_not_rated(events) -> None:
    _, _, _, rated_cut, opponents = events
    checked = 0
    for p in rated_cut.players:
        for line in p.rounds:
            if line.opponent_no is not None and line.opponent_no > SHOWN and p.start_no <= SHOWN:
                assert line.status is Status.PLAYED and not line.rated
                assert line.reason == OPPONENT_RATING_UNKNOWN
                checked += 1
    assert checked == sum(o > SHOWN for no, opps in opponents.items() if no <= SHOWN
                          for o in opps) > 0


def test_players_with_opponents_within_the_list_match_the_full_list(events) -> None:
    _, _, rated_full, rated_cut, opponents = events
    inside = [no for no, opps in opponents.items()
              if no <= SHOWN and all(o <= SHOWN for o in opps)]
    assert len(inside) > 100
    for no in inside:
        a, b = rated_full.player(no), rated_cut.player(no)
        assert a is not None and b is not None
        assert (a.k, a.change, a.new_rating, a.rated_games) == (
            b.k, b.change, b.new_rating, b.rated_games)
    assert sum(1 for no in inside if rated_cut.player(no).change) > 100  # type: ignore[union-attr]
