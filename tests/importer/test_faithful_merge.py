"""Nothing invented, nothing dropped: every real chess-results page alone and in natural merges.

A round that no page shows for a player is ``unknown`` (never ``absent``), printed points stay
as printed, and no "rounds sum" warning appears where the pages agree with themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.errors import InputError
from importer.formats.chessresults import Page, build_tournament, parse_page
from importer.model import Status

CR = "chess-results"
MERGES = {
    "start rank + crosstable after round 7": [
        "en_swiss_startingrank_art0_british2026.html", "british2026_champ_crosstable.html"],
    "… + round 8 pairings + live round 9": [
        "en_swiss_startingrank_art0_british2026.html", "british2026_champ_crosstable.html",
        "en_swiss_pairings_art2_rd8_forfeit_british2026.html", "british2026_champ_r9.html"],
    "start rank + crosstable during round 9 + live round 9": [
        "en_swiss_startingrank_art0_british2026.html",
        "en_swiss_crosstable_art5_final_british2026.html", "british2026_champ_r9.html"],
    "start rank + rounds 1–2": [
        "en_swiss_startingrank_art0_british2026.html", "british2026_champ_r1.html",
        "british2026_champ_r2.html"],
    "live round 7 with the not-paired grid": [
        "british2026_champ_r7_midround.html", "en_swiss_notpaired_art40_british2026.html"],
    "round robin: start rank + crosstable + all rounds": [
        "ussa2026_roundrobin_startingrank.html", "en_roundrobin_crosstable_art5_ussa2026.html",
        "en_roundrobin_pairings_art2_allrounds_ussa2026.html"],
    "gated: crosstable + round 1 + not-paired grid": [
        "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html",
        "frome2026_open_r1.html", "frome2026_open_notpaired.html"],
    "team list + board pairings": [
        "cnyt2026_g14_playerrank.html", "en_team_boardpairings_art3_rd1_cnyt2026.html"],
}


def pages(realdata: Path, names: list[str]) -> list[Page]:
    return [parse_page((realdata / CR / n).read_bytes().decode("utf-8", "replace"), source=n)
            for n in names]


def every_page(realdata: Path) -> list[str]:
    return sorted(p.name for p in (realdata / CR).glob("*.html"))


def assert_faithful(parsed: list[Page]) -> None:
    try:
        t = build_tournament(parsed)
    except InputError as e:  # a page alone may not be enough (e.g. a gated ranking crosstable)
        pytest.skip(f"not a complete source alone: {e}")
    shown = {(r.start_no, r.round): r for p in parsed for r in p.results}
    # the other side of a game one page shows is shown too
    shown.update({(r.opponent_no, r.round): r for p in parsed for r in p.results
                  if r.opponent_no is not None})
    for r in t.results:
        if (r.start_no, r.round) not in shown:
            assert r.status is Status.UNKNOWN and r.points is None, r
        else:
            assert r.status is not Status.UNKNOWN, r
    printed = {}
    for p in parsed:
        for pl in p.players:
            if pl.points is not None:
                printed.setdefault(pl.start_no, pl.points)
    for pl in t.players:
        if pl.start_no in printed:
            assert pl.points == printed[pl.start_no], pl
    assert not [w.message for w in t.warnings if "sum to" in w.message]
    assert len(t.warnings) == len(set(t.warnings))


def test_every_page_alone(realdata: Path) -> None:
    names = every_page(realdata)
    assert len(names) >= 30
    for name in names:
        assert_faithful(pages(realdata, [name]))


@pytest.mark.parametrize("name", list(MERGES))
def test_natural_merges(realdata: Path, name: str) -> None:
    assert_faithful(pages(realdata, MERGES[name]))


def test_live_round_alone_keeps_the_printed_points(realdata: Path) -> None:
    [page] = pages(realdata, ["british2026_champ_r9.html"])
    t = build_tournament([page])
    assert sum(r.status is Status.UNKNOWN for r in t.results) == 108 * 8
    assert not [r for r in t.results if r.round < 9 and r.status is Status.ABSENT]
    notes = [w.message for w in t.warnings if "not shown on these pages" in w.message]
    assert notes == ["rounds 1–8 of 9 not shown on these pages: unknown: not rated and not "
                     "counted in the points"]


def test_player_card_opponents_keep_their_unknown_rounds(realdata: Path) -> None:
    [card] = pages(realdata, ["ru_player_details_art9_2020.html"])
    t = build_tournament([card])
    me = t.player(8)
    assert me is not None and me.points == 7.5
    others = [r for r in t.results if r.start_no != 8]
    assert others and all(r.status in (Status.UNKNOWN, Status.PLAYED) for r in others)
    assert sum(r.status is Status.PLAYED for r in others) == 8  # each opponent's one game
