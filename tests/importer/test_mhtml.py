"""Pages saved as MHTML (Chrome on Android, "save as single file") read as the page inside.

Each MHTML is built here with the standard library's :mod:`email` from a real chess-results
page, the way Chrome writes one: ``multipart/related``, the page quoted-printable with CRLF
line ends, then a few images in base64, each part named by its ``Content-Location``.
"""

from __future__ import annotations

import dataclasses
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from test_bad_files import assert_refused

import importer
from importer.errors import InputError
from importer.formats.mhtml import looks_like_mhtml, page_bytes
from importer.model import Tournament
from reports.cli.sources import LoadOptions, load_one

CR = "chess-results"
PAGES = {"british2026_champ_crosstable.html":
         "https://chess-results.com/tnr1452107.aspx?lan=1&art=5&flag=30",
         "ru_player_details_art9_2020.html":
         "https://chess-results.com/tnr502281.aspx?lan=11&art=9&fed=RUS&snr=8"}
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8cfc0f01f0005000201a5e2d1a10000000049454e44ae426082")


def html_of(realdata: Path, name: str) -> str:
    """The page as a browser holds it: without the HTTP response headers a saved page may
    start with (``ru_player_details_art9_2020.html`` does)."""
    text = (realdata / CR / name).read_bytes().decode("utf-8")
    return text[text.index("<"):] if not text.lstrip().startswith("<") else text


def mhtml(html: str, url: str, *, charset: str | None = None, first: str | None = None,
          cte: str = "quoted-printable") -> bytes:
    """An MHTML file as Chrome saves it: *html* first (after a *first* frame, if given), then
    images, each part with its Content-Location; the page part without a charset label (as
    Chrome writes it: UTF-8), or encoded in and labelled with *charset*."""
    msg = EmailMessage(policy=policy.default.clone(linesep="\r\n"))
    msg["From"] = "<Saved by Blink>"
    msg["Snapshot-Content-Location"] = url
    msg["Subject"] = "Chess-Results Server Chess-results.com"
    msg["Date"] = "Sat, 8 Aug 2026 21:04:32 -0000"
    msg["MIME-Version"] = "1.0"
    msg.set_content("placeholder")
    msg.make_related()
    msg.set_param("type", "text/html")
    pages = [(first, "https://chess-results.com/frame.html")] if first else []
    for i, (text, location) in enumerate([*pages, (html, url)]):
        part = EmailMessage(policy=msg.policy)
        part.set_content(text, subtype="html", charset=charset or "utf-8", cte=cte)
        if charset is None:
            part.del_param("charset")
        part["Content-ID"] = f"<frame-{i}@mhtml.blink>"
        part["Content-Location"] = location
        msg.attach(part)
    msg.get_payload().pop(0)  # the placeholder
    for i in range(3):
        msg.add_related(PNG, maintype="image", subtype="png", cte="base64",
                        headers=[f"Content-Location: https://chess-results.com/Images/f{i}.png"])
    return msg.as_bytes()


def same(t: Tournament) -> tuple[object, ...]:
    return (dataclasses.replace(t.info, source=""), t.players, t.results, t.games,
            tuple(w.message.split(": ", 1)[-1] for w in t.warnings), t.focus)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_mhtml_imports_as_its_html_twin(realdata: Path, tmp_path: Path, name: str) -> None:
    data = mhtml(html_of(realdata, name), PAGES[name])
    assert data.startswith(b"From: <Saved by Blink>\r\n") and b"=\r\n" in data  # soft breaks
    assert looks_like_mhtml(data)
    saved = tmp_path / "page.mhtml"
    saved.write_bytes(data)
    twin = tmp_path / "page.html"
    twin.write_text(html_of(realdata, name), encoding="utf-8")
    t, html = importer.load(saved), importer.load(twin)
    assert t.players and same(t) == same(html)
    assert same(html) == same(importer.load(realdata / CR / name))


def test_part_decoded_with_its_charset(realdata: Path, tmp_path: Path) -> None:
    """A windows-1251 part (its page's meta still saying UTF-8), base64: read as Russian."""
    name = "ru_player_details_art9_2020.html"
    saved = tmp_path / "snr8.mht"
    saved.write_bytes(mhtml(html_of(realdata, name), PAGES[name], charset="windows-1251",
                            cte="base64"))
    t = importer.load(saved)
    assert same(t) == same(importer.load(realdata / CR / name))
    assert any("\u0400" <= c <= "\u04ff" for c in t.info.name)


def test_the_main_page_is_the_snapshot_location(realdata: Path) -> None:
    name = "british2026_champ_crosstable.html"
    frame = "<html><body><p>an advert frame</p></body></html>"
    data = mhtml(html_of(realdata, name), PAGES[name], first=frame)
    page = page_bytes(data)
    assert b"CRs1" in page and b"advert" not in page
    # without a location to match, the first page part is taken
    anonymous = data.replace(b"Snapshot-Content-Location", b"X-Snapshot")
    assert page_bytes(anonymous).lstrip().startswith(b"<html><body><p>an advert")
    # the root's 'start' parameter names the page by its Content-ID (RFC 2387)
    started = anonymous.replace(b'type="text/html";', b'type="text/html"; start="<frame-1@mhtml.blink>";')
    assert started != anonymous and b"CRs1" in page_bytes(started)


def test_recognised_by_structure_not_name() -> None:
    assert looks_like_mhtml(b"MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n"
                            b"\ttype=\"text/html\"; boundary=\"b\"\r\n\r\n--b\r\n")
    assert looks_like_mhtml(b"MIME-Version: 1.0\nContent-Type: Multipart/Related; boundary=b\n")
    # HTML first, or a MIME block of another kind, or the words in the page: not MHTML
    assert not looks_like_mhtml(b"<html>Content-Type: multipart/related</html>")
    assert not looks_like_mhtml(b"MIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n<html>")
    assert not looks_like_mhtml(b"012 Content-Type: multipart/related\r\n001    1")


GARBAGE = {
    "no_parts.mhtml": b"From: <Saved by Blink>\r\nMIME-Version: 1.0\r\nContent-Type: "
                      b"multipart/related; boundary=\"--b\"\r\n\r\n\x00\xff garbage \x81\r\n",
    "images_only.mht": None,
    "not_a_page.mhtml": None,
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_mhtml_is_one_line_exit_2(run_cli, tmp_path: Path, name: str) -> None:
    data = GARBAGE[name]
    if name == "images_only.mht":
        msg = EmailMessage()
        msg["MIME-Version"] = "1.0"
        msg.set_content(PNG, maintype="image", subtype="png")
        msg.make_related()
        data = msg.as_bytes()
    elif name == "not_a_page.mhtml":
        data = mhtml("<html><body><p>My holiday</p></body></html>", "https://example.org/")
    assert data is not None and looks_like_mhtml(data)
    bad = tmp_path / name
    bad.write_bytes(data)
    out = tmp_path / "out"
    assert_refused(run_cli("import", str(bad), "--out", str(out)), out, name)


def test_page_bytes_refuses_what_holds_no_page() -> None:
    with pytest.raises(InputError, match=r"x\.mht: an MHTML file .* expected a text/html part"):
        page_bytes(GARBAGE["no_parts.mhtml"] or b"", source="x.mht")


def test_import_and_report_on_an_mhtml_exit_0(run_cli, realdata: Path, tmp_path: Path) -> None:
    name = "british2026_champ_crosstable.html"
    saved = tmp_path / "crosstable.mhtml"
    saved.write_bytes(mhtml(html_of(realdata, name), PAGES[name]))
    res = run_cli("import", str(saved), "--out", str(tmp_path / "imported"), "-q")
    assert res.code == 0, res
    assert (tmp_path / "imported" / "games.csv").read_text().count("\n") > 300
    res = run_cli("report", str(saved), "--out", str(tmp_path / "report"), "-q")
    assert res.code == 0, res
    assert (tmp_path / "report" / "index.html").is_file()


def test_mhtml_page_merges_with_the_tournaments_other_pages(realdata: Path, tmp_path: Path) -> None:
    name = "british2026_champ_crosstable.html"
    saved = tmp_path / "crosstable.mhtml"
    saved.write_bytes(mhtml(html_of(realdata, name), PAGES[name]))
    twin = tmp_path / "crosstable.html"
    twin.write_text(html_of(realdata, name), encoding="utf-8")
    other = str(realdata / CR / "british2026_champ_r8_unpaired_only.html")
    opts = LoadOptions(quiet=True)
    merged, twins = load_one((str(saved), other), opts), load_one((str(twin), other), opts)
    assert len(merged.players) == 108 and same(merged) == same(twins)
