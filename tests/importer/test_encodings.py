"""Saved chess-results pages in any encoding a browser or an editor leaves: the same text.

The fixtures (``fixtures/chess-results/*_enc_*.html``, written by ``make_encodings.py``) are
one Russian player card and one English starting rank with accented names, each saved as
UTF-8 with and without a ``<meta charset>``, with a byte-order mark, as Windows cp1251 or
cp1252 with the right label, a stale label, a Latin-1 label or none, and after HTTP
response headers.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import importer
from importer.model import Tournament
from importer.parsing.decoding import _http_charset, _legacy_encoding, decode_page

CR = "chess-results"
PAGES = {
    "art9_player_card_ru_enc": ["utf8", "utf8_bom", "utf8_no_meta", "cp1251_meta",
                                "cp1251_stale_utf8_meta", "cp1251_no_meta", "cp1251_http_headers"],
    "art0_startingrank_accents_enc": ["utf8", "utf8_bom", "utf8_no_meta",
                                      "utf8_stale_cp1252_meta", "cp1252_meta",
                                      "cp1252_latin1_label", "cp1252_no_meta"],
}
EXPECTED = {
    "art9_player_card_ru_enc": ["Фестиваль «Зимний кубок» 2026. Турнир №2", "Ёлкин Пётр",
                                "Кузьмина Ольга", "Щукин Артём", "Последнее обновление14.01.2026"],
    "art0_startingrank_accents_enc": ["Fiderate Café Open – Sønderborg 2026", "Müller, Jürgen",
                                      "Sørensen, Åse", "Ó Briain, Seán", "St. Mary’s",
                                      "Núñez, Begoña"],
}
VARIANTS = [(stem, v) for stem, variants in PAGES.items() for v in variants if v != "utf8"]
_META_CHARSET = re.compile(r"<meta[^>]*charset[^>]*>", re.IGNORECASE)


def page(fixtures_dir: Path, stem: str, variant: str) -> Path:
    return fixtures_dir / CR / f"{stem}_{variant}.html"


def comparable_text(text: str) -> str:
    """The decoded page without what differs between the saved variants by design: the
    HTTP response headers and the charset label."""
    if text.startswith("HTTP/"):
        text = text[text.index("<"):]
    return _META_CHARSET.sub("", text)


def comparable(t: Tournament) -> Tournament:
    return replace(t, info=replace(t.info, source=""), provenance=())


@pytest.mark.parametrize(("stem", "variant"), VARIANTS, ids=[f"{s[:4]}-{v}" for s, v in VARIANTS])
def test_every_saved_variant_decodes_to_the_same_text(fixtures_dir, stem, variant):
    reference = decode_page(page(fixtures_dir, stem, "utf8").read_bytes())
    text = decode_page(page(fixtures_dir, stem, variant).read_bytes())
    assert comparable_text(text) == comparable_text(reference)
    assert "\ufeff" not in text
    for words in EXPECTED[stem]:
        assert words in text


@pytest.mark.parametrize(("stem", "variant"), VARIANTS, ids=[f"{s[:4]}-{v}" for s, v in VARIANTS])
def test_every_saved_variant_imports_identically(fixtures_dir, stem, variant):
    reference = importer.load(page(fixtures_dir, stem, "utf8"))
    t = importer.load(page(fixtures_dir, stem, variant))
    assert comparable(t) == comparable(reference)
    assert EXPECTED[stem][0] == t.info.name
    assert set(EXPECTED[stem][1:]) & {p.name for p in t.players}


def test_the_russian_card_reads_its_games(fixtures_dir):
    t = importer.load(page(fixtures_dir, "art9_player_card_ru_enc", "cp1251_no_meta"))
    names = {p.start_no: p.name for p in t.players}
    assert names[3] == "Ёлкин Пётр"
    assert {names[r.opponent_no] for r in t.results if r.start_no == 3 and r.opponent_no} == {
        "Соколов Илья", "Кузьмина Ольга", "Щукин Артём", "Жукова Юлия"}


def test_the_cp1251_variants_need_more_than_utf8_then_cp1252(fixtures_dir):
    """The guess the importer made before (UTF-8, else cp1252) turns these into mojibake."""
    data = page(fixtures_dir, "art9_player_card_ru_enc", "cp1251_no_meta").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert "Ёлкин" not in data.decode("cp1252", errors="replace")
    assert "Ёлкин Пётр" in decode_page(data)


def test_a_label_never_beats_valid_utf8(fixtures_dir):
    """An editor re-saved the page as UTF-8 and left its windows-1252 label: the bytes win."""
    data = page(fixtures_dir, "art0_startingrank_accents_enc", "utf8_stale_cp1252_meta").read_bytes()
    assert b"charset=windows-1252" in data
    assert "Müller, Jürgen" in decode_page(data)
    assert "MÃ¼ller" in data.decode("cp1252")  # what trusting the label would give


@given(body=st.text(), label=st.sampled_from(["", "windows-1251", "windows-1252", "iso-8859-1",
                                             "koi8-r", "utf-16", "no-such-charset"]))
def test_valid_utf8_always_reads_as_utf8(body, label):
    assume(not body.startswith("\ufeff"))
    text = f'<html><head><meta charset="{label}"></head><body>{body}</body></html>'
    assert decode_page(text.encode("utf-8")) == text


def test_a_latin1_label_reads_windows_1252_quotes_and_dashes():
    data = ('<html><head><meta charset="iso-8859-1"></head><body>St. Mary’s – 30 €'
            "</body></html>").encode("cp1252")
    assert "St. Mary’s – 30 €" in decode_page(data)


def test_the_declared_legacy_charset_decides_when_the_bytes_are_not_utf8():
    text = '<html><head><meta charset="koi8-r"></head><body>Пётр</body></html>'
    assert "Пётр" in decode_page(text.encode("koi8-r"))
    text = '<html><head><meta charset="windows-1250"></head><body>Łódź</body></html>'
    assert "Łódź" in decode_page(text.encode("cp1250"))


def test_a_utf16_label_on_ascii_compatible_bytes_is_ignored():
    data = '<html><head><meta charset="utf-16"></head><body>Ёлкин</body></html>'.encode("cp1251")
    assert "Ёлкин" in decode_page(data)


def test_a_utf16_byte_order_mark_decides():
    text = '<html><head><meta charset="utf-8"></head><body>Ёлкин Пётр</body></html>'
    assert decode_page(b"\xff\xfe" + text.encode("utf-16-le")) == text
    assert decode_page(b"\xfe\xff" + text.encode("utf-16-be")) == text


def test_undecodable_bytes_still_give_text():
    assert decode_page(b"<html>\x81\x8d\x8f\x90\x9d\x98</html>").startswith("<html>")


@pytest.mark.parametrize(("text", "codec"), [
    ("Кузнецов Иван, Оренбург, Нац.рейтинг 1180, FIDE", "cp1251"),
    ("ЩУКИН АРТЁМ", "cp1251"),
    ("Müller, Jürgen – Sørensen, Åse", "cp1252"),
    ("Núñez, Begoña; Gonçalves, João", "cp1252"),
    ("St. Mary’s – 30 €", "cp1252"),
    ("plain ASCII", "cp1252"),
])
def test_the_legacy_guess(text, codec):
    assert _legacy_encoding(text.encode(codec)) == codec


def test_the_http_headers_charset():
    assert _http_charset(b"<html>") is None
    assert _http_charset(b"HTTP/1.1 200 OK\r\nServer: x\r\n\r\n<html>") is None
    assert _http_charset(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n") \
        == "utf-8"
    redirected = (b"HTTP/1.1 301 Moved Permanently\r\nLocation: /tnr1.aspx\r\n"
                  b"Content-Type: text/html; charset=iso-8859-1\r\n\r\n"
                  b"HTTP/2 200\r\ncontent-type: text/html;charset=\"windows-1251\"\r\n\r\n<html>")
    assert _http_charset(redirected) == "windows-1251"


def test_real_pages_decode_as_before(realdata):
    """Every real page is UTF-8 (most of them pure ASCII with character references): the
    result is exactly the UTF-8 text, headers and all."""
    for path in sorted((realdata / CR).glob("*.html")):
        data = path.read_bytes()
        assert decode_page(data) == data.decode("utf-8"), path.name


def test_the_real_page_with_http_headers(realdata):
    data = (realdata / CR / "ru_player_details_art9_2020.html").read_bytes()
    assert _http_charset(data) == "utf-8"
    cp1251 = data.decode("utf-8").encode("cp1251")  # the same page as a Russian editor saves it
    assert b"charset=UTF-8" in cp1251  # its labels are now wrong: the bytes decide
    assert decode_page(cp1251) == data.decode("utf-8")
