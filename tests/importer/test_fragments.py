"""Pages saved as fragments, board pairings with a PGN column, and a sweep of every real page.

The fragments in fixtures/chess-results/fragment_pairings_*.html are cut from
../shared/realdata/chess-results/british2026_champ_r7_finished.html (the header, boards 1–3,
the bye row and one not-paired row, byte for byte, CRs kept); they differ in where the round
is written: a comment URL, a canonical link, a caption row, a browser's 'saved from url=' line,
a link back to the same round, or nowhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import importer
from importer.errors import InputError
from importer.formats.chessresults import build_tournament, looks_like_chess_results, parse_page
from importer.model import GameResult, Status

CR = "chess-results"
FULL = "british2026_champ_r7_finished.html"
FRAGMENTS = {  # fixture → the art= its URL gives ('' when no URL is on the fragment)
    "fragment_pairings_comment_url.html": "2",
    "fragment_pairings_canonical_relative.html": "2",
    "fragment_pairings_caption.html": "",
    "fragment_pairings_saved_from.html": "2",
    "fragment_pairings_link_back.html": "",
}


def own(fixtures_dir: Path, name: str) -> str:
    return (fixtures_dir / CR / name).read_text(encoding="utf-8")


def games(text: str) -> list[tuple[int | None, int, int, GameResult]]:
    return [(g.board, g.white_no, g.black_no, g.result) for g in parse_page(text).games]


@pytest.mark.parametrize(("name", "art"), sorted(FRAGMENTS.items()))
def test_fragment_reads_its_round(fixtures_dir: Path, realdata: Path, name: str,
                                  art: str) -> None:
    text = own(fixtures_dir, name)
    assert looks_like_chess_results(text)
    page = parse_page(text, source=name)
    assert (page.kind, page.round, page.tnr, page.art) == ("pairings", 7, "1452107", art)
    assert page.warnings == ()
    want = games((realdata / CR / FULL).read_bytes().decode("utf-8"))[:3]
    assert games(text) == want == [(1, 3, 1, GameResult.WHITE_WIN),
                                   (2, 2, 4, GameResult.DRAW), (3, 7, 6, GameResult.DRAW)]
    by = {(r.start_no, r.round): r for r in page.results}
    assert (by[(105, 7)].status, by[(105, 7)].points) == (Status.BYE, 1.0)
    assert (by[(21, 7)].status, by[(21, 7)].points) == (Status.ABSENT, 0.0)


def test_fragment_without_a_round_says_how_to_fix_it(fixtures_dir: Path) -> None:
    text = own(fixtures_dir, "fragment_pairings_no_round.html")
    assert looks_like_chess_results(text)  # its only table is a CRs1 table
    with pytest.raises(InputError, match=r"no rd= in the page's URL.*<!-- https://"):
        parse_page(text, source="f.html")
    url = "<!-- https://chess-results.com/tnr1452107.aspx?lan=1&art=2&rd=7 -->\n"
    assert parse_page(url + text).round == 7


def test_fragment_loads_as_a_file(fixtures_dir: Path) -> None:
    t = importer.load(fixtures_dir / CR / "fragment_pairings_canonical_relative.html")
    assert t.info.id == "1452107" and len(t.games) == 3
    assert t.provenance[0].kind == "chess-results:pairings"


def test_fragment_merges_with_the_whole_pages(fixtures_dir: Path, realdata: Path) -> None:
    r6 = parse_page((realdata / CR / "british2026_champ_r6_finished.html").read_bytes()
                    .decode("utf-8"))
    fragment = parse_page(own(fixtures_dir, "fragment_pairings_comment_url.html"))
    t = build_tournament([r6, fragment])
    assert {g.round for g in t.games} == {6, 7}


def test_sniff_fragments_and_others(fixtures_dir: Path) -> None:
    assert not looks_like_chess_results(own(fixtures_dir, "not_chess_results.html"))
    assert not looks_like_chess_results("<table class='results'><tr><td>1</td></tr></table>")
    # a CRs1 table after another site's layout table is no fragment
    assert not looks_like_chess_results('<table class="layout"><tr><td><table class="CRs1">'
                                        "</table></td></tr></table>")
    assert looks_like_chess_results('<table class="CRs1"><tr><td><table><tr><td>x</td></tr>'
                                    "</table></td></tr></table>")
    assert looks_like_chess_results("<!-- saved from url=(0040)https://chess-results.com/"
                                    "tnr1.aspx -->\n<p>x</p>")
    assert not looks_like_chess_results("<!-- https://example.com/ -->\n<p>x</p>")


def test_a_url_comment_gives_art_and_snr(fixtures_dir: Path) -> None:
    card = own(fixtures_dir, "art9_player_card_en_k.html")
    start = card.index('<table Class="CRs1"')
    end = card.rindex("</table>") + len("</table>")
    fragment = ("<!-- https://chess-results.com/tnr999003.aspx?lan=1&art=9&snr=5 -->\n"
                + card[start:end])
    page = parse_page(fragment)
    assert (page.kind, page.tnr, page.art, page.snr) == ("player_card", "999003", "9", 5)


# ------------------------------------------------------------------ board pairings with PGN


def test_board_pairings_with_a_pgn_column(fixtures_dir: Path) -> None:
    page = parse_page(own(fixtures_dir, "art3_team_boardpairings_pgn.html"), source="b.html")
    assert page.kind == "team_board_pairings" and page.round == 1 and page.warnings == ()
    assert [(g.board, g.white_no, g.black_no, g.result) for g in page.games] == [
        (1, 27, 13, GameResult.BLACK_WIN), (2, 14, 28, GameResult.DRAW),
        (3, 1, 17, GameResult.WHITE_WIN), (4, 18, 2, GameResult.WHITE_FORFEIT_WIN)]
    assert {p.team for p in page.players} == {
        "Hangzhou Chess Association", "Shanghai Chess Academy", "Liaoning Chess Association",
        "Hebei Sports Bureau Chess Center"}


def test_board_pairings_pending_with_pgn_column(fixtures_dir: Path) -> None:
    text = own(fixtures_dir, "art3_team_boardpairings_pgn.html")
    for res in ("0 - 1", "&frac12; - &frac12;", "1 - 0", "- - +"):
        text = text.replace(f'<td class="CRc">{res}</td>', '<td class="CRc"></td>', 1)
    page = parse_page(text)
    assert {g.result for g in page.games} == {GameResult.PENDING}


# ------------------------------------------------------------------ every real page

KIND_OF = {
    "british2026_champ_crosstable.html": "crosstable_start",
    "british2026_champ_r8_unpaired_only.html": "no_data",
    "cnyt2026_g14_playerrank.html": "player_list",
    "de_team_roundrobin_all_details_art20_tmm2026.html": "team_all_details",
    "en_final_ranking_rtgchange_art1_portimao2024.html": "ranking",
    "en_roundrobin_crosstable_art5_ussa2026.html": "crosstable_rr",
    "en_roundrobin_pairings_art2_allrounds_ussa2026.html": "pairings_rr",
    "en_swiss_crosstable_art5_final_british2026.html": "crosstable_start",
    "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html": "crosstable_start",
    "en_swiss_notpaired_art40_british2026.html": "notpaired",
    "en_swiss_startingrank_art0_british2026.html": "starting_rank",
    "en_team_boardpairings_art3_rd1_cnyt2026.html": "team_board_pairings",
    "en_team_pairings_art2_rd1_cnyt2026.html": "team_pairings",
    "frome2026_open_notpaired.html": "notpaired",
    "frome2026_standard_crosstable.html": "crosstable_start",
    "ru_player_details_art9_2020.html": "player_card",
    "ussa2026_roundrobin_startingrank.html": "starting_rank",
    "warsaw2026_notstarted_r1.html": "no_data",
    "warsaw2026_notstarted_startingrank.html": "starting_rank",
}


def test_every_real_page_has_its_kind(realdata: Path) -> None:
    seen = set()
    for path in sorted((realdata / CR).glob("*.html")):
        page = parse_page(path.read_bytes().decode("utf-8"), source=path.name)
        seen.add(path.name)
        assert page.kind == KIND_OF.get(path.name, "pairings"), path.name
        assert not any("§" in w.message for w in page.warnings), (path.name, page.warnings)
        build_tournament([page])
    assert set(KIND_OF) <= seen
