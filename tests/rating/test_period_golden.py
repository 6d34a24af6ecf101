"""A fixed month's files, byte for byte as before (the speed work of issue 31 changes no figure):
60 synthetic Swiss events of 30 players and 7 rounds from a federation of 3,000 (the federation
benchmark's generator, seed 7), rated as the period of November 2026 on the previous list.
``tests/golden/period_month.json`` holds the SHA-256 of each CSV file the period and its
tournaments' reports write, made by the code before the change."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from rating.period.run import PeriodSource, run_period
from reports.period.pages import render_period_files

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "period_month.json"
sys.path.insert(0, str(ROOT / "tests" / "bench"))
from federation_bench import PERIOD, federation, previous_list, tournament  # noqa: E402


def test_a_fixed_month_writes_the_same_bytes_as_before() -> None:
    rng = np.random.default_rng(7)
    people = federation(3000, rng)
    events = [tournament(i, people, 30, 7, rng) for i in range(60)]
    result = run_period([PeriodSource(tournament=t, source=t.info.name) for t in events],
                        period=PERIOD, ratings_list=previous_list(people), today=PERIOD)
    files = render_period_files(result, pages=False, reports=True)
    got = {name: hashlib.sha256(text.encode()).hexdigest() for name, text in files.items()
           if name.endswith(".csv")}
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(want) > 200 and {"period_players.csv", "period_games.csv"} <= set(want)
    assert sorted(n for n in got if got[n] != want.get(n)) == []
    assert set(got) == set(want)
