"""The British Championship's U18 players get FIDE's junior K (R24 8.3.3) from the Typ column."""

from __future__ import annotations

import importer
from rating.tournament import rate_tournament


def test_u18_category_gives_junior_k(realdata):
    d = realdata / "chess-results"
    t = importer.load_many([d / "en_swiss_startingrank_art0_british2026.html",
                            d / "en_swiss_crosstable_art5_final_british2026.html"])
    by_no = t.players_by_no()
    assert by_no[40].category == "U18"
    assert by_no[40].rating == 2270
    rated = {p.start_no: p for p in rate_tournament(t, "fide").players}
    assert (rated[40].k, rated[40].k_source.value) == (40, "category")  # junior below 2300
    assert rated[3].k == 10  # U18 GM Royal, 2514: K 10 once 2400 was reached
    assert rated[41].k == 40  # U18, 2266
    juniors = [p for p in rated.values() if by_no[p.start_no].category == "U18"]
    assert len(juniors) == 39
    assert all(p.k == (10 if p.rating >= 2400 else 20 if p.rating >= 2300 else 40)
               for p in juniors)
