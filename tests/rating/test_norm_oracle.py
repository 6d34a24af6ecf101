"""The norm check against an independent reading of the Title Regulations
(:mod:`tests.norm_oracle`) on real events: every player, every norm they can seek, the same
result (achieved, possible, missed, not decidable) and the same Ra and Rp.

The events: the British Championship 2026 after round 7, during round 9 (the crosstable
captured then) and during round 7 (its pairings pages), each with its starting rank (titles,
federations, sex); the 33rd San Sebastián Open (Swiss-Manager export, 150 players, GMs and
IMs); the Gros Open 2010 after round 4 of 9 (JaVaFo's TRF sample, host ESP); the Bunratty
Masters 2011 (TRF, GMs and IMs, 6 rounds); the USSA Closed 2026 round robin."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from norm_oracle import Oracle
from test_norm_forecast import live_events

import importer
from importer.model import Tournament
from rating.norms import check_norms

EVENTS = {
    "british-after-round-7": ("chess-results/british2026_champ_crosstable.html",
                              "chess-results/en_swiss_startingrank_art0_british2026.html"),
    "british-during-round-9": (
        "chess-results/en_swiss_crosstable_art5_final_british2026.html",
        "chess-results/en_swiss_startingrank_art0_british2026.html"),
    "british-during-round-7": (
        *(f"chess-results/british2026_champ_r{rd}.html" for rd in range(1, 6)),
        "chess-results/british2026_champ_r6_finished.html",
        "chess-results/british2026_champ_r7_midround.html",
        "chess-results/en_swiss_startingrank_art0_british2026.html"),
    "san-sebastian": ("chess-results/san_sebastian_open_33_final_ranking_export.csv",),
    "gros-after-round-4": ("trf/javafo_gros_2010_after_r4_trfx.trf",),
    "bunratty": ("trf/icu_bunratty_masters_2011_34p.trf",),
    "ussa-round-robin": ("chess-results/en_roundrobin_crosstable_art5_ussa2026.html",
                         "chess-results/ussa2026_roundrobin_startingrank.html"),
}


def assert_agree(t: Tournament, dp: dict[int, int]) -> Counter[str]:
    """Every player's every norm: the check's result, Ra and Rp are the oracle's."""
    oracle = Oracle(t, dp)
    found: Counter[str] = Counter()
    for p in t.players:
        checks = check_norms(t, p.start_no)
        assert [c.norm.value for c in checks] == oracle.sought(p.start_no), p.name
        for c in checks:
            want = oracle.reading(p.start_no, c.norm.value)
            assert (c.result.value, c.ra, c.performance, c.dropped) == (
                want.result, want.ra, want.rp, tuple(sorted(want.dropped))), (
                p.start_no, p.name, c.norm, c.reasons)
            found[c.result.value] += 1
    return found


@pytest.mark.parametrize("name", list(EVENTS))
def test_the_check_agrees_with_an_independent_reading(realdata: Path, dp, name):
    found = assert_agree(importer.load_many([realdata / path for path in EVENTS[name]]), dp)
    assert sum(found.values()) > 0


@settings(max_examples=15)
@given(t=live_events())
def test_the_check_agrees_with_it_on_generated_live_events(dp, t):
    assert_agree(t, dp)


def test_the_norms_made_at_the_san_sebastian_open(realdata: Path):
    """Figures read off the export (opponents, results, ratings, titles, federations), worked
    out by hand."""
    t = importer.load(realdata / EVENTS["san-sebastian"][0])
    made = {(c.start_no, c.norm.value): c for p in t.players for c in check_norms(t, p.start_no)
            if c.result.value == "achieved"}
    assert set(made) == {(4, "GM"), (14, "GM"), (29, "IM")}
    # Alsina Leal (4, IM, ESP): 78 1, 41 1, 25 1, 29 ½, 13 ½, 23 ½, 17 1, 7 1, 2 ½ = 7/9;
    # 1958 → 2200 (1.4.7), + 2195 2367 2331 2486 2388 2435 2530 2565 = 21497 / 9 = 2388.6 →
    # Ra 2389; 7/9 = 78 % → dp 220 → Rp 2609; GMs 13, 7, 2; 7 titled; ESP 3 of at most 5.
    g = made[(4, "GM")]
    assert (g.ra, g.ra_floor_raised, g.performance, g.title_opponents, g.titled_opponents,
            g.own_federation, g.federations) == (2389, True, 2609, 3, 7, 3, 6)
    # Thomassen (29, FM, NOR): 105 1, 68 1, 8 1, 4 ½, 6 0, 71 1, 20 1, 2 0, 9 ½ = 6/9; 1800 →
    # 2050, + 2003 2525 2548 2533 1997 2414 2565 2516 = 21151 / 9 = 2350.1 → Ra 2350; 67 % →
    # dp 125 → Rp 2475 (IM 2450); 6 GM/IM; federations ESP, FRA, RUS and one Norwegian.
    i = made[(29, "IM")]
    assert (i.ra, i.performance, i.title_opponents, i.federations, i.own_federation) == (
        2350, 2475, 6, 3, 1)


@pytest.mark.parametrize("name", ["british-after-round-7", "british-during-round-9"])
def test_norms_csv_lists_what_the_independent_reading_finds(realdata: Path, dp, name):
    """The report's norms.csv on the real British Championship (crosstable and starting rank):
    its rows are the norms the independent reading finds achieved, possible or not decidable,
    with the same Ra and Rp."""
    import csv
    import io

    from reports.report import build_report, render_report

    t = importer.load_many([realdata / path for path in EVENTS[name]])
    oracle = Oracle(t, dp)
    want = set()
    for p in t.players:
        for norm in oracle.sought(p.start_no):
            r = oracle.reading(p.start_no, norm)
            if r.result in ("achieved", "possible", "not decidable"):
                want.add((str(p.start_no), norm, r.result, str(r.ra or ""), str(r.rp or "")))
    text = render_report(build_report(t), ["csv"])["norms.csv"]
    rows = list(csv.DictReader(io.StringIO(text)))
    got = {(r["start_no"], r["norm"], r["result"], r["ra"], r["performance"]) for r in rows}
    assert len(rows) == len(got)  # one row per player and norm
    assert got == want
    assert want  # the British has norms in reach
