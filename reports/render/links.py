"""The pages' links to other sites, made only from what is known for sure: a player's profile
on ratings.fide.com (a FIDE id of digits) and the event's page on chess-results (a
chess-results address the event was read from, or the tournament number its chess-results
pages give)."""

from __future__ import annotations

import re

from importer.model import Tournament
from importer.net.urls import CHESS_RESULTS_HOST, FIDE_RATINGS_HOST, parse_ref

__all__ = ["event_page", "fide_profile"]

_FIDE_ID = re.compile(r"[0-9]{1,12}")


def fide_profile(fide_id: str | None) -> str:
    """The player's profile on ratings.fide.com ('' unless *fide_id* is a FIDE id).

    >>> fide_profile("1503014")
    'https://ratings.fide.com/profile/1503014'
    >>> fide_profile("") + fide_profile(None) + fide_profile("15 03")
    ''
    """
    if fide_id is None or not _FIDE_ID.fullmatch(fide_id) or not fide_id.strip("0"):
        return ""
    return f"https://{FIDE_RATINGS_HOST}/profile/{fide_id}"


def event_page(t: Tournament) -> str:
    """The event's page on chess-results, from the address it was read from (on chess-results
    itself, never a mirror), else from the tournament number of the chess-results pages it was
    read from; '' when neither is known.

    >>> from importer.model import Provenance, TournamentInfo
    >>> def read(*where: Provenance) -> Tournament:
    ...     return Tournament(info=TournamentInfo(id="1452107"), players=(), results=(),
    ...                       provenance=where)
    >>> event_page(read(Provenance(location="british.html", kind="chess-results:ranking")))
    'https://chess-results.com/tnr1452107.aspx?lan=1'
    >>> event_page(read(Provenance(location="https://s2.chess-results.com/tnr1452107.aspx?art=1",
    ...                            kind="chess-results")))
    'https://s2.chess-results.com/tnr1452107.aspx?lan=1'
    >>> event_page(read(Provenance(location="british.trf", kind="trf")))
    ''
    """
    pages = [p for p in t.provenance if p.kind.split(":")[0] == "chess-results"]
    for p in pages:
        for url in (p.final_url, p.location):
            ref = parse_ref(url) if "://" in url else None
            if ref is not None:
                return f"https://{ref.host}/tnr{ref.tnr}.aspx?lan=1"
    if pages and t.info.id.isdigit():
        return f"https://{CHESS_RESULTS_HOST}/tnr{int(t.info.id)}.aspx?lan=1"
    return ""
