"""The record of one chess-results page: :class:`PageKind` and :class:`Page`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from functools import cached_property

from importer.formats.chessresults.cells import Cell
from importer.model import Game, Player, RoundResult, SourceWarning, System, TournamentInfo
from importer.parsing.pairings import games_from_results

__all__ = ["ALL_ROUNDS", "KINDS", "TEAM_KINDS", "Page", "PageKind", "Reading"]


class PageKind(StrEnum):
    """What a page shows; the value is the kind's name in messages and provenance
    ('chess-results:crosstable_start')."""

    STARTING_RANK = "starting_rank"
    """The starting rank, ``art=0``: players with ids, ratings and titles."""
    CROSSTABLE_START = "crosstable_start"
    """The starting-rank crosstable, ``art=5``: players in starting order, a cell per round."""
    CROSSTABLE_RANK = "crosstable_rank"
    """The ranking crosstable, ``art=4``: rows in final order, opponents numbered by rank."""
    CROSSTABLE_RR = "crosstable_rr"
    """A round robin's crosstable: a matrix of results by opponent."""
    PAIRINGS = "pairings"
    """One round's pairings, ``art=2&rd=N``."""
    PAIRINGS_RR = "pairings_rr"
    """A round robin's pairings of every round, ``art=2``."""
    NOTPAIRED = "notpaired"
    """The not-paired grid, ``art=40``."""
    PLAYER_CARD = "player_card"
    """One player's card, ``art=9&snr=N``, with the published K and rtg+/- per game."""
    TEAM_PAIRINGS = "team_pairings"
    """A team round's match pairings (teams only, no boards)."""
    TEAM_BOARD_PAIRINGS = "team_board_pairings"
    """A team round's board pairings, ``art=3``."""
    TEAM_ALL_DETAILS = "team_all_details"
    """A team event's all-details page, ``art=20``: every board of every round."""
    PLAYER_LIST = "player_list"
    """A team event's list of players."""
    RANKING = "ranking"
    """The final ranking list, ``art=1``, with the published rating figures."""
    NO_DATA = "no_data"
    """A page of the tournament without a data table (not started, or not paired yet)."""


KINDS = tuple(k.value for k in PageKind)
"""Every kind's value, in :class:`PageKind` order."""

ALL_ROUNDS = frozenset({PageKind.CROSSTABLE_START, PageKind.CROSSTABLE_RANK,
                        PageKind.CROSSTABLE_RR, PageKind.PAIRINGS_RR, PageKind.NOTPAIRED})
"""Pages that show every round so far: their last round is the number of rounds when nothing
better says it (the details block, the menu 'Rd.7/9', a heading 'after 9 Rounds')."""

TEAM_KINDS = frozenset({PageKind.TEAM_PAIRINGS, PageKind.TEAM_BOARD_PAIRINGS,
                        PageKind.TEAM_ALL_DETAILS, PageKind.PLAYER_LIST})
"""Pages only a team event has."""

Boards = tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Page:
    """What one chess-results page says.

    ``results`` number players by starting number, except on a ranking crosstable without
    player links (``by_rank``, an old tournament's ``art=4``), where start numbers and
    opponents are final ranks until :func:`~importer.formats.chessresults.build_tournament` maps them.
    ``round`` is the round of a pairings page (of a ``ranking``: the round it ranks after);
    ``live_round`` the first round paired but not finished; ``has_gate`` the old-tournament
    gate (the "Show tournament details" button); ``snr`` the player-card player.
    ``rr_scores`` holds a round-robin matrix as (player, opponent, cell).  ``boards`` holds
    (round, white, black, board) as printed on a pairings page.  ``round_dates`` holds
    (round, date) from the page's round captions and headings ('Round 2 on 2026/08/02').
    ``games`` (one Game per pairing) is computed from the results on first use.
    """

    kind: PageKind
    info: TournamentInfo
    players: tuple[Player, ...] = ()
    results: tuple[RoundResult, ...] = ()
    round: int | None = None
    warnings: tuple[SourceWarning, ...] = ()
    is_team_event: bool = False
    has_gate: bool = False
    live_round: int | None = None
    tnr: str = ""
    snr: int | None = None
    source: str = ""
    language: str = ""
    art: str = ""
    by_rank: bool = False
    rr_scores: tuple[tuple[int, int, Cell], ...] = ()
    boards: Boards = ()
    shows_ratings: bool = False
    """The page has a rating column: a player on it without a rating is unrated."""
    cut: bool = False
    """The page's list is cut (a 'Show complete list' link, or exactly 150 rows)."""
    round_dates: tuple[tuple[int, date], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, PageKind):  # a kind given by its value: 'pairings'
            object.__setattr__(self, "kind", PageKind(self.kind))

    @cached_property
    def games(self) -> tuple[Game, ...]:
        """One Game per pairing on the page, with the printed boards."""
        if self.by_rank:
            return ()
        boards = {(rd, w, b): x for rd, w, b, x in self.boards}
        return tuple(games_from_results(self.results, boards=boards))


@dataclass(frozen=True)
class Reading:
    """What one page reader found: the kind it settled on and the :class:`Page` fields that
    depend on the kind (the page-wide facts come from the document)."""

    kind: PageKind
    system: System | None = None
    players: tuple[Player, ...] = ()
    results: tuple[RoundResult, ...] = ()
    boards: Boards = ()
    round: int | None = None
    live_round: int | None = None
    snr: int | None = None
    by_rank: bool = False
    rr_scores: tuple[tuple[int, int, Cell], ...] = ()
