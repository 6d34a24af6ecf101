"""Every page's kind, pinned; the classifier's routes; and errors that tell the truth.

The tables below pin the kind each saved page had before the reader was split by page kind
(issue 10): a page that changes kind fails here, and a new page must be added to the table.
The fault-injection tests check that a programming error inside a reader or the merge is
raised as itself, never dressed up as an input error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import importer.formats.chessresults.crosstable as crosstable_module
import importer.formats.chessresults.merge as merge_module
import importer.formats.chessresults.pairings as pairings_module
import importer.formats.chessresults.parse as parse_module
from importer.errors import ImporterError, InputError
from importer.formats.chessresults import KINDS, Page, PageKind, build_tournament, parse_page
from importer.formats.chessresults.classify import classify
from importer.formats.chessresults.document import load_document
from importer.formats.chessresults.table import Ctx, data_tables

CR = "chess-results"
K = PageKind

REAL_KINDS = {
    "british2026_champ_crosstable.html": K.CROSSTABLE_START,
    "british2026_champ_r1.html": K.PAIRINGS,
    "british2026_champ_r2.html": K.PAIRINGS,
    "british2026_champ_r3.html": K.PAIRINGS,
    "british2026_champ_r4.html": K.PAIRINGS,
    "british2026_champ_r5.html": K.PAIRINGS,
    "british2026_champ_r6_finished.html": K.PAIRINGS,
    "british2026_champ_r7_finished.html": K.PAIRINGS,
    "british2026_champ_r7_midround.html": K.PAIRINGS,
    "british2026_champ_r8_unpaired_only.html": K.NO_DATA,
    "british2026_champ_r9.html": K.PAIRINGS,
    "cnyt2026_g14_playerrank.html": K.PLAYER_LIST,
    "de_team_roundrobin_all_details_art20_tmm2026.html": K.TEAM_ALL_DETAILS,
    "en_final_ranking_rtgchange_art1_portimao2024.html": K.RANKING,
    "en_roundrobin_crosstable_art5_ussa2026.html": K.CROSSTABLE_RR,
    "en_roundrobin_pairings_art2_allrounds_ussa2026.html": K.PAIRINGS_RR,
    "en_swiss_crosstable_art5_final_british2026.html": K.CROSSTABLE_START,
    "en_swiss_crosstable_art5_oldtournament_gated_halfbyes_frome2026.html": K.CROSSTABLE_START,
    "en_swiss_notpaired_art40_british2026.html": K.NOTPAIRED,
    "en_swiss_pairings_art2_rd6_midround_byes_british2026.html": K.PAIRINGS,
    "en_swiss_pairings_art2_rd8_forfeit_british2026.html": K.PAIRINGS,
    "en_swiss_startingrank_art0_british2026.html": K.STARTING_RANK,
    "en_team_boardpairings_art3_rd1_cnyt2026.html": K.TEAM_BOARD_PAIRINGS,
    "en_team_pairings_art2_rd1_cnyt2026.html": K.TEAM_PAIRINGS,
    "frome2026_open_notpaired.html": K.NOTPAIRED,
    "frome2026_open_r1.html": K.PAIRINGS,
    "frome2026_standard_crosstable.html": K.CROSSTABLE_START,
    "frome2026_standard_r1.html": K.PAIRINGS,
    "ru_player_details_art9_2020.html": K.PLAYER_CARD,
    "ussa2026_roundrobin_startingrank.html": K.STARTING_RANK,
    "warsaw2026_notstarted_r1.html": K.NO_DATA,
    "warsaw2026_notstarted_startingrank.html": K.STARTING_RANK,
}

OWN_KINDS: dict[str, PageKind | None] = {  # None: the page is refused with an InputError
    "art0_startingrank_accents_enc_cp1252_latin1_label.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_cp1252_meta.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_cp1252_no_meta.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_utf8.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_utf8_bom.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_utf8_no_meta.html": K.STARTING_RANK,
    "art0_startingrank_accents_enc_utf8_stale_cp1252_meta.html": K.STARTING_RANK,
    "art9_player_card_ru_enc_cp1251_http_headers.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_cp1251_meta.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_cp1251_no_meta.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_cp1251_stale_utf8_meta.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_utf8.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_utf8_bom.html": K.PLAYER_CARD,
    "art9_player_card_ru_enc_utf8_no_meta.html": K.PLAYER_CARD,
    "art0_startingrank_small.html": K.STARTING_RANK,
    "art0_startingrank_title_date.html": K.STARTING_RANK,
    "art1_ranking_published_small.html": K.RANKING,
    "art2_pairings_ambiguous_date.html": K.PAIRINGS,
    "art2_pairings_double_forfeit.html": K.PAIRINGS,
    "art2_pairings_live_caption_row.html": K.PAIRINGS,
    "art2_pairings_ru_tur.html": K.PAIRINGS,
    "art3_team_boardpairings_pgn.html": K.TEAM_BOARD_PAIRINGS,
    "art4_ranking_crosstable_gated.html": K.CROSSTABLE_RANK,
    "art4_ranking_crosstable_links.html": K.CROSSTABLE_RANK,
    "art5_crosstable_published_small.html": K.CROSSTABLE_START,
    "art5_crosstable_small.html": K.CROSSTABLE_START,
    "art5_crosstable_truncated.html": None,
    "art5_crosstable_no_rating.html": K.CROSSTABLE_START,
    "art5_crosstable_unknown_language.html": K.CROSSTABLE_START,
    "art9_player_card_en_k.html": K.PLAYER_CARD,
    "art9_player_card_tr.html": K.PLAYER_CARD,
    "fragment_pairings_canonical_relative.html": K.PAIRINGS,
    "fragment_pairings_caption.html": K.PAIRINGS,
    "fragment_pairings_comment_url.html": K.PAIRINGS,
    "fragment_pairings_link_back.html": K.PAIRINGS,
    "fragment_pairings_no_round.html": None,
    "fragment_pairings_saved_from.html": K.PAIRINGS,
    "not_chess_results.html": None,
}


def _text(path: Path) -> str:
    """A saved page decoded as the importer decodes it (some fixtures are cp1251/cp1252)."""
    from importer.parsing.decoding import decode_page

    return decode_page(path.read_bytes())


def test_kinds_keep_their_names() -> None:
    assert KINDS == ("starting_rank", "crosstable_start", "crosstable_rank", "crosstable_rr",
                     "pairings", "pairings_rr", "notpaired", "player_card", "team_pairings",
                     "team_board_pairings", "team_all_details", "player_list", "ranking",
                     "no_data")
    assert all(K(k) == k for k in KINDS)  # a StrEnum: equal to its old string value
    assert f"chess-results:{K.PLAYER_CARD}" == "chess-results:player_card"


def test_every_real_page_keeps_its_kind(realdata: Path) -> None:
    names = sorted(p.name for p in (realdata / CR).glob("*.html"))
    assert names == sorted(REAL_KINDS), "a real page was added or removed: pin its kind here"
    for name in names:
        page = parse_page(_text(realdata / CR / name), source=name)
        assert (name, page.kind) == (name, REAL_KINDS[name])
        assert type(page.kind) is PageKind


def test_every_own_fixture_keeps_its_kind(fixtures_dir: Path) -> None:
    names = sorted(p.name for p in (fixtures_dir / CR).glob("*.html"))
    assert names == sorted(OWN_KINDS), "a fixture was added or removed: pin its kind here"
    for name in names:
        want = OWN_KINDS[name]
        if want is None:
            with pytest.raises(InputError):
                parse_page(_text(fixtures_dir / CR / name), source=name)
            continue
        assert (name, parse_page(_text(fixtures_dir / CR / name), source=name).kind) == (
            name, want)


def test_the_classifier_routes_as_the_page_says(realdata: Path) -> None:
    """classify() alone (no reader run) gives the page's kind, except where the reader finds
    only not-paired rows (a round not paired yet: no data)."""
    for name, kind in REAL_KINDS.items():
        doc = load_document(_text(realdata / CR / name), source=name)
        route = classify(Ctx(name), doc, data_tables(doc.root))
        expected = K.PAIRINGS if name == "british2026_champ_r8_unpaired_only.html" else kind
        assert (name, route.kind) == (name, expected)


def test_a_page_given_a_kind_by_its_value_gets_the_enum(realdata: Path) -> None:
    page = parse_page(_text(realdata / CR / "british2026_champ_crosstable.html"))
    again = Page(kind="crosstable_start", info=page.info)  # type: ignore[arg-type]
    assert again.kind is K.CROSSTABLE_START
    with pytest.raises(ValueError, match="crosstable_final"):
        Page(kind="crosstable_final", info=page.info)  # type: ignore[arg-type]


# ------------------------------------------------------------------ errors tell the truth


def _raise(exc: BaseException):
    def fail(*args: object, **kwargs: object) -> object:
        raise exc
    return fail


@pytest.mark.parametrize("exc", [KeyError("rd:3"), ZeroDivisionError("division by zero"),
                                 IndexError("list index out of range"),
                                 TypeError("unsupported operand"), AttributeError("no .text"),
                                 ValueError("a bug, not the page")])
def test_a_bug_in_a_reader_is_raised_as_itself(fixtures_dir: Path, monkeypatch,
                                               exc: Exception) -> None:
    text = _text(fixtures_dir / CR / "art5_crosstable_small.html")
    parse_page(text)  # reads fine without the fault
    monkeypatch.setattr(crosstable_module, "parse_round_cell", _raise(exc))
    with pytest.raises(type(exc)) as info:
        parse_page(text, source="small.html")
    assert info.value is exc
    assert not isinstance(info.value, ImporterError)


def test_a_bug_in_the_pairings_reader_is_raised_as_itself(fixtures_dir: Path,
                                                          monkeypatch) -> None:
    text = _text(fixtures_dir / CR / "art2_pairings_double_forfeit.html")
    monkeypatch.setattr(pairings_module, "sides", _raise(KeyError("WHITE_WIN")))
    with pytest.raises(KeyError) as info:
        parse_page(text)
    assert not isinstance(info.value, ImporterError)


def test_a_bug_in_the_classifier_is_raised_as_itself(fixtures_dir: Path, monkeypatch) -> None:
    text = _text(fixtures_dir / CR / "art0_startingrank_small.html")
    monkeypatch.setattr(parse_module, "classify", _raise(ZeroDivisionError("oops")))
    with pytest.raises(ZeroDivisionError):
        parse_page(text)


def test_a_bug_in_the_merge_is_raised_as_itself(fixtures_dir: Path, monkeypatch) -> None:
    page = parse_page(_text(fixtures_dir / CR / "art5_crosstable_small.html"))
    build_tournament([page])
    monkeypatch.setattr(merge_module, "_check_pairs", _raise(TypeError("None + float")))
    with pytest.raises(TypeError) as info:
        build_tournament([page])
    assert not isinstance(info.value, ImporterError)


def test_a_bad_cell_is_an_input_error_naming_its_row(fixtures_dir: Path) -> None:
    text = _text(fixtures_dir / CR / "art0_startingrank_small.html")
    page = parse_page(text)
    second = page.players[1]
    bad = text.replace(f">{second.rating}<", ">12x4<", 1)
    assert bad != text
    with pytest.raises(InputError, match=r"row 2 \(player \d+\): bad number '12x4'") as info:
        parse_page(bad, source="bad.html")
    assert info.value.source == "bad.html"


def test_a_round_number_no_event_has_is_an_input_error(fixtures_dir: Path) -> None:
    """Found by fuzzing: a player card round '150999999999999' made the merge walk every
    round up to it; the reader now refuses it where it reads it."""
    text = _text(fixtures_dir / CR / "art9_player_card_en_k.html")
    card = parse_page(text)
    rd = card.results[-1].round
    cell = f">{rd}<"
    assert cell in text
    with pytest.raises(InputError, match=r"round 150999999999999 is not a round number"):
        parse_page(text.replace(cell, ">150999999999999<"), source="card.html")
