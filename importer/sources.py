"""One entry point: a path, URL or tournament number → :class:`Tournament`, detected by content.

File names never decide the format: the bytes do (a zip that is a workbook, an OLE2
``.xls`` workbook, TRF record lines, a chess-results page (also inside an MHTML file), the
Swiss-Manager CSV export, or our own normalized CSV folder).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

import importer.formats.mhtml as mhtml
from importer import formats, net
from importer.errors import InputError, UnknownFormat
from importer.formats.normalized import is_normalized_folder, read_folder
from importer.model import Provenance, Tournament
from importer.net.urls import FideCalcRef, parse_fide_calc_url, parse_ref
from importer.parsing.decoding import decode_page
from importer.parsing.text import display_name

if TYPE_CHECKING:
    import requests

    from importer.formats.chessresults import Page, PageKind
    from importer.formats.fidecalc import FideCalculation
    from importer.net.fetch import TournamentPage

__all__ = [
    "FidePage",
    "Progress",
    "SavedPage",
    "display_name",
    "from_pages",
    "load",
    "load_fide_url",
    "load_url",
    "read_file",
    "something_read",
]

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Larger inputs are refused: no tournament file comes near this."""


def _read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"file of {size} bytes is larger than any tournament file",
                             source=str(path))
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or exc})", source=str(path)) from None


def _provenance(path: Path, data: bytes, kind: str) -> Provenance:
    return Provenance(location=str(path), kind=kind, sha256=hashlib.sha256(data).hexdigest())


def _chess_results_page(path: Path, text: str) -> Page | None:
    cr = formats.chessresults
    return cr.parse_page(text, source=str(path)) if cr.looks_like_chess_results(text) else None


@dataclass(slots=True)
class SavedPage:
    """A saved chess-results page, read but not yet merged with the others of its tournament."""

    source: str
    page: Page
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class FidePage:
    """FIDE's calculations page of one player's period: its figures and its events as
    tournaments (``fiderate period`` checks the period against it)."""

    source: str
    calculation: FideCalculation
    tournaments: tuple[Tournament, ...]

    def only_event(self) -> Tournament:
        """The page's one event; InputError when it shows several (a period, not a
        tournament)."""
        if len(self.tournaments) == 1:
            return self.tournaments[0]
        raise InputError(f"FIDE's calculations page shows {len(self.tournaments)} events "
                         f"({formats.fidecalc.event_names(self.calculation.events)}), not one "
                         "tournament: rate it as a period", source=self.source)


def _fide_page(text: str, source: str, provenance: Provenance,
               ref: FideCalcRef | None = None) -> FidePage:
    fidecalc = formats.fidecalc
    calc = fidecalc.parse_fide_calculation(text, source=source)
    if ref is not None:  # what the page leaves out, its address says
        calc = replace(calc, fide_id=calc.fide_id or ref.fide_id, period=calc.period or ref.period,
                       rating_list=calc.rating_list or ref.rating_list)
    return FidePage(source, calc, fidecalc.to_tournaments(calc, provenance=provenance))


@overload
def read_file(path: Path, *, pages: Literal[False] = False) -> Tournament: ...
@overload
def read_file(path: Path, *, pages: bool) -> Tournament | SavedPage | FidePage: ...


def read_file(path: Path, *, pages: bool = False) -> Tournament | SavedPage | FidePage:
    """One file, detected by content; with *pages*, a chess-results page comes back unmerged
    and FIDE's calculations page as a :class:`FidePage`."""
    data = _read_bytes(path)
    source = str(path)
    if not data.strip():
        raise InputError("the file is empty", source=source)
    if mhtml.looks_like_mhtml(data):  # a page saved as one MIME file: read the page inside
        data = mhtml.page_bytes(data, source=source)
    # Each reader is imported when first used (importer.formats): the bytes say which.
    if data.startswith((b"PK", _OLE2)):
        excel = formats.excel
        if excel.looks_like_xlsx(data):
            t = excel.parse_xlsx(data, source=source)
            return something_read(replace(t, provenance=(_provenance(path, data, "xlsx"),)),
                                  source=source)
        if excel.looks_like_xls(data):  # an OLE2 compound document: binary, but a workbook
            t = excel.parse_xls(data, source=source)
            return something_read(replace(t, provenance=(_provenance(path, data, "xls"),)),
                                  source=source)
        if data.startswith(b"PK"):
            raise UnknownFormat("a zip archive that is not an Excel workbook", source=source)
    if b"\x00" in data[:4096]:
        raise UnknownFormat("binary data, not a chess-results page, Excel export or TRF file",
                            source=source)
    text = decode_page(data)
    if _MARKUP.search(text, 0, 65536):
        if formats.fidecalc.looks_like_fide_calculation(text):
            kind = formats.fidecalc.PROVENANCE_KIND
            fide = _fide_page(text, source, _provenance(path, data, kind))
            return fide if pages else fide.only_event()
        page = _chess_results_page(path, text)
        if page is not None:
            prov = _provenance(path, data, f"chess-results:{page.kind}")
            if pages:
                return SavedPage(source, page, prov)
            t = formats.chessresults.build_tournament([page], source=source)
            return something_read(replace(t, provenance=(prov,)), [page], source=source)
    trf = formats.trf
    text = trf.decode_trf(data)
    if trf.looks_like_trf(text):
        t = trf.parse_trf(text, source=source)
        return something_read(replace(t, provenance=(_provenance(path, data, "trf"),)),
                              source=source)
    jsonfile, smcsv = formats.jsonfile, formats.smcsv
    if jsonfile.looks_like_json(text):
        return something_read(jsonfile.from_json(text, source=source), source=source)
    if smcsv.looks_like_smcsv(text):
        t = smcsv.parse_smcsv(text, source=source)
        return something_read(replace(t, provenance=(_provenance(path, data, "swiss-manager-csv"),)),
                              source=source)
    if _HTML.match(text):
        raise UnknownFormat("an HTML page that is not a chess-results page (none of its tables, "
                            "links or footer): save the page from chess-results.com",
                            source=source)
    raise UnknownFormat("not a chess-results page, Excel export, TRF file, Swiss-Manager CSV "
                        "or normalized folder", source=source)


_HTML = re.compile(r"\s*(?:<!doctype html|<html|<head|<body|<table|<div|<p\b|<!--)", re.IGNORECASE)
"""The start of an HTML document or fragment."""
_MARKUP = re.compile(r"<(?:!doctype|html|head|body|table|div|tr|td|!--)\b", re.IGNORECASE)
"""HTML anywhere near the start (a page may follow saved HTTP headers): only then are the
page readers asked."""
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The signature of an OLE2 compound document (an old ``.xls`` workbook)."""


def something_read(t: Tournament, pages: Sequence[Page] = (), *, source: str) -> Tournament:
    """*t*, or InputError when no player and no game could be read from it (never an empty
    import): the message says what the source is and what to add."""
    if t.players or t.games:
        return t
    raise InputError(_nothing_read({p.kind for p in pages}), source=source)


def _nothing_read(kinds: set[PageKind]) -> str:
    kind = formats.chessresults.PageKind
    if kinds == {kind.TEAM_PAIRINGS}:
        return ("a chess-results pairings page of a team event with no boards: save the board "
                "pairings (art=3) or the all-details page (art=20)")
    if kinds == {kind.NO_DATA}:
        return ("a chess-results page with no players or games yet (not started, or the round "
                "not paired yet): save the starting rank (art=0), or this page once the round "
                "is paired")
    if kinds:
        return ("no players or games on these chess-results pages: add the starting rank "
                "(art=0), a crosstable (art=4 or 5), a round's pairings (art=2), or for a team "
                "event the board pairings (art=3)")
    return "no players or games in it: expected a tournament's players and results"


Progress = Callable[[str], None]
"""Called with each file or URL just before it is read."""


def load_url(text: str, *, session: requests.Session | None = None, base_url: str | None = None,
             progress: Progress | None = None) -> Tournament:
    """Import a tournament from a chess-results URL or number only: never a local file.

    InputError when *text* is no chess-results reference (see :func:`importer.net.urls.parse_ref`).
    """
    if parse_fide_calc_url(text) is not None:
        return load_fide_url(text, session=session, progress=progress).only_event()
    ref = parse_ref(text, base_url=base_url)
    if ref is None:
        raise InputError("no such file or folder, and not a chess-results URL or tournament "
                         "number", source=text)
    session = session or net.make_session(base_url=base_url)
    fetched = net.fetch_tournament(ref, session, base_url=base_url, progress=progress)
    return from_pages(fetched, source=text, focus=ref.snr)


def load_fide_url(text: str, *, session: requests.Session | None = None,
                  progress: Progress | None = None) -> FidePage:
    """FIDE's calculations page by its ratings.fide.com address (the page or its data
    endpoint), fetched from the data endpoint with the polite session; InputError when *text*
    is no such address."""
    ref = parse_fide_calc_url(text)
    if ref is None:
        raise InputError("not an address of FIDE's calculations page", source=text)
    session = session or net.make_session()
    url = ref.data_url()
    if progress is not None:
        progress(url)
    # FIDE's page loads these data itself and its server answers only such a request
    fetched = net.get_text(session, url, headers={"X-Requested-With": "XMLHttpRequest",
                                              "Referer": ref.page_url()})
    prov = Provenance(location=url, kind=formats.fidecalc.PROVENANCE_KIND, final_url=fetched.final_url,
                      fetched_at=fetched.fetched_at, from_cache=fetched.from_cache)
    return _fide_page(fetched.text, text, prov, ref)


def from_pages(fetched: Sequence[TournamentPage], *, source: str,
               focus: int | None = None) -> Tournament:
    """The tournament in the pages :func:`importer.net.fetch.fetch_tournament` fetched (and parsed),
    with their provenance; *focus* is the player of a player-card link."""
    pages = [p.parsed() for p in fetched]  # each page parsed once, by the fetcher
    t = formats.chessresults.build_tournament(pages, source=source, focus=focus)
    prov = tuple(Provenance(location=p.url, kind="chess-results", final_url=p.final_url,
                            fetched_at=p.fetched_at, from_cache=p.from_cache) for p in fetched)
    return something_read(replace(t, provenance=prov), pages, source=source)


def load(source: str | os.PathLike[str], *, session: requests.Session | None = None,
         base_url: str | None = None, progress: Progress | None = None) -> Tournament:
    """Import one tournament from a file, a normalized folder, a chess-results URL or a number.

    *session* is the HTTP session to use for URLs (default: :func:`importer.net.http.make_session`);
    *base_url* points URL imports at a mirror or a local test double; *progress* is called
    with each file or URL before it is read.
    """
    path = Path(os.fspath(source))
    if path.is_dir():
        if is_normalized_folder(path):
            return something_read(read_folder(path), source=str(path))
        for name in ("tournament.json", "tournament.trf"):  # fiderate import's other outputs
            if (path / name).is_file():
                return read_file(path / name)
        raise InputError("a folder without fiderate's files (tournament.csv, players.csv, "
                         "results.csv and games.csv; or tournament.json or tournament.trf)",
                         source=str(path))
    if path.is_file():
        if progress is not None:
            progress(str(path))
        return read_file(path)
    return load_url(os.fspath(source), session=session, base_url=base_url, progress=progress)
