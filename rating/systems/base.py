"""The rating-system interface and the one per-tournament game rater built on it.

A rating system declares everything the tournament view and the reports need from it: its
name and label, its K, which games it rates and how (``rate``, with the opponents' ratings
resolved its own way), when it is rated beside FIDE without being asked, and the extra
columns it adds to the players and rounds tables.  FIDE and generic Elo live here; a
national system (e.g. :mod:`rating.systems.ukd`) is one more module, registered in
:mod:`rating.systems.registry`.  The records they give are in :mod:`rating.results`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import ClassVar, Generic, Protocol, TypeAlias, TypeVar

from importer.model import RatingList, TournamentInfo
from rating.numbers import round_whole, to_decimal
from rating.results import GameRating, PlayerRating, RoundLine
from rating.systems import elo, fide
from rating.systems.fide import InitialRating, KSource, PlayerFacts
from rating.systems.fide_rules import FideRules, rules_for

__all__ = [
    "Cell",
    "Column",
    "EloSystem",
    "FideSystem",
    "Form",
    "PlayerFacts",
    "RatingSystem",
    "change_if_rated",
    "rate_games",
]

Cell: TypeAlias = "int | Decimal | str | bool | None"
"""One value of a column: a whole number, an exact decimal, text, true/false or nothing."""

T = TypeVar("T")


class Form(StrEnum):
    """How the reports write a column's value (they format every number, in one place)."""

    PLAIN = "plain"
    """As it is: a whole number, true/false, or nothing."""
    TEXT = "text"
    """Words (in a CSV, a cell that looks like a formula is neutralised)."""
    POINTS = "points"
    """Points: 1.5 in a CSV, 1½ on the pages."""
    TOTAL = "total"
    """A sum to two decimals, e.g. of expected scores: 1.67."""
    EXPECTED = "expected"
    """An expected score as the system keeps it: 0.36, 0.849."""
    CHANGE = "change"
    """A rating change: -1.70 in a CSV, signed on the pages (+3.00)."""
    WHOLE_CHANGE = "whole_change"
    """A change in whole points (the change as the new rating takes it): 3 in a CSV, +3 on
    the pages."""
    PUBLISHED = "published"
    """A change as a source printed it, exact: 8.9 in a CSV, signed to the hundredth on the
    pages (+8.90)."""


@dataclass(frozen=True, slots=True)
class Column(Generic[T]):
    """One column of a report table: its name, its exact value for a row, how the reports
    format that value (:class:`Form`) and its header for people.

    The reports' own columns (:mod:`reports.render.columns`) are Columns, and so are the extra ones
    a rating system adds for the rows it rates: player columns read the system's
    :class:`~rating.results.PlayerRating` of a player, round columns its
    :class:`~rating.results.RoundLine` of one round.
    """

    name: str
    """The CSV column's name, and the JSON's key: 'ukd_change'."""
    value: Callable[[T], Cell]
    """The row's exact value: the CSV writes it formatted, the JSON carries it exactly."""
    form: Form = Form.PLAIN
    header: str = ""
    """The column's header on the pages and in the terminal; '' keeps it to the CSV."""
    shown: Callable[[T], Cell] | None = None
    """The value on the pages and in the terminal when it differs from the CSV's (e.g. no
    change shown for a player without a rating); None: the same."""
    title: str = ""
    """What the header says when pointed at on the pages ('' : nothing more)."""
    short: str = ""
    """The header in the terminal's narrow tables ('': the same as on the pages)."""

    def page_value(self, row: T) -> Cell:
        """The value shown on the pages and in the terminal."""
        return (self.shown or self.value)(row)


class RatingSystem(Protocol):
    """What a rating system declares to rate a tournament and to show it in the reports."""

    @property
    def name(self) -> str:
        """Short id: 'fide', 'elo', 'ukd' (the ``--system`` choice, the columns' prefix)."""

    @property
    def label(self) -> str:
        """Display name: 'FIDE', 'Elo', 'UKD'."""

    @property
    def national(self) -> bool:
        """Rates national ratings (``Player.national_rating``) with its own K, never the K a
        source or the FIDE list publishes."""

    @property
    def coefficient(self) -> str:
        """What the system calls the K it rates with: 'K'; DWZ's 'E' (its development
        coefficient)."""

    @property
    def per_tournament(self) -> bool:
        """A period rates each tournament on the rating the one before left (DWZ), rather
        than a month's tournaments together on the month's rating (FIDE, ECF, UKD)."""

    @property
    def player_columns(self) -> Sequence[Column[PlayerRating]]:
        """The columns it adds to the players table when rated beside another system."""

    @property
    def round_columns(self) -> Sequence[Column[RoundLine]]:
        """The columns it adds to the rounds table when rated beside another system."""

    def describe(self) -> str:
        """One line naming the rules or settings in use (for report headers)."""

    def rules_label(self) -> str:
        """The rules in a few words: 'FIDE 2024-03', 'Elo: logistic formula'."""

    def applies(self, info: TournamentInfo) -> bool:
        """Whether a tournament is rated with this system beside FIDE without being asked
        (e.g. a national rating the source names)."""

    def list_note(self, rating_list: RatingList) -> str:
        """A note when asked to rate an event on a list the system does not rate ('' if none)."""

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """A player's K before any cap, and where it comes from; when unknown, the system's
        own default K if it has one (Elo's ``default_k``), else *default*."""

    def capped_k(self, k: int, games: int) -> int:
        """The K for a player's *games* rated games of one tournament (a cap on K × n)."""

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        """What the system assumes of a player for want of facts (an age group, an index),
        each in words; () when nothing is assumed."""

    def rate(self, own: int | None, k: int, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None,
             facts: PlayerFacts | None = None) -> list[GameRating]:
        """Rate one player's played games of one tournament: (opponent's rating, score) pairs.

        The opponent's rating is the cell the system reads (``Player.national_rating`` for a
        national system); *opponent_fide* are the opponents' FIDE ratings, for a system that
        falls back on them; *facts* what is known of the player (age, earlier evaluations),
        for a system whose coefficient depends on the whole event (DWZ).  Usually
        :func:`rate_games` once the opponents are resolved.  Each rated game's ``change`` is
        its share of the event's change.
        """

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        """Why a game played over the board is not rated for *own*, or None when it is."""

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        """A game against an opponent without a rating, rated the system's way, or None when
        such games are not rated (FIDE, Elo)."""

    def new_rating(self, own: int, change: Decimal) -> int | None:
        """The rating after a tournament's exact *change*, rounded the system's way."""

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        """A first rating for a player without one, from their rated opponents and score in
        hundredths; None when the system gives none here."""

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        """Which of a player's rated games in one tournament get the difference cap."""

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        """The player's expected score in one game."""

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """The performance rating over games against rated opponents (their ratings, the
        points in hundredths), the system's way; None where it gives none."""


class _GameByGame:
    """A system that rates a player's games one by one (:func:`rate_games`)."""

    __slots__ = ()

    def rate(self, own: int | None, k: int, games: Sequence[tuple[int | None, Decimal]],
             opponent_fide: Sequence[int | None] | None = None,
             facts: PlayerFacts | None = None) -> list[GameRating]:
        return rate_games(self, own, k, games)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class FideSystem(_GameByGame):
    """FIDE's rules in force for a tournament starting on a given date."""

    rules: FideRules
    name: str = "fide"
    label: str = "FIDE"
    national: bool = False
    per_tournament: bool = False
    coefficient: str = "K"
    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = ()
    round_columns: ClassVar[tuple[Column[RoundLine], ...]] = ()

    @classmethod
    def on(cls, start: date, rating_list: RatingList = RatingList.STANDARD) -> FideSystem:
        """The FIDE system for a tournament starting on *start*, rated on *rating_list*."""
        return cls(rules_for(start, rating_list))

    def describe(self) -> str:
        return self.rules.name

    def rules_label(self) -> str:
        return self.rules.label

    def applies(self, info: TournamentInfo) -> bool:
        return False  # the main system, never an addition

    def list_note(self, rating_list: RatingList) -> str:
        return ""

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """:func:`rating.systems.fide.player_k`, the one K rule the rating period shares."""
        return fide.player_k(self.rules, facts, default)

    def capped_k(self, k: int, games: int) -> int:
        return fide.period_k(k, games, self.rules)  # R24 8.3.3: K × n ≤ 700

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        return ()  # an unknown K is the default K, noted where it is used

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if own is None:
            return "player unrated"
        if opponent is None:
            return "opponent unrated"  # R24 8.3.1: only games against rated players
        return fide.excluded_reason(own, opponent, self.rules)

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None

    def new_rating(self, own: int, change: Decimal) -> int | None:
        return own + round_whole(change)  # R24 8.3.4

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        """R24 7.1.4 and 8.2: published from 5 games against rated opponents; with fewer, the
        workings so far and how many games are still needed."""
        return fide.initial_rating(opponents, score_h, self.rules)

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        return fide.cap_mask(own, opponents, self.rules)

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        return to_decimal(fide.expected_h(own, opponent, self.rules, capped=capped))

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """Ra + dp (table 8.1.1), :func:`rating.systems.fide.performance`."""
        return fide.performance(opponents, score_h)

    def k(self, facts: PlayerFacts) -> int:
        """The K of the player's category alone (R24 8.3.3), without a published or listed K."""
        return fide.k_factor(self.rules, rating=facts.rating, games_played=facts.games_played,
                             birth_year=facts.birth_year, reached_2400=facts.reached_2400,
                             year=facts.year)


@dataclass(frozen=True, slots=True)
class EloSystem(_GameByGame):
    """Generic Elo with the logistic curve, an optional difference cap and a fixed default K.

    ``default_k`` is the K of every player whose K the source or list does not give: the
    system's own, whatever default the caller passes to :meth:`player_k` (``rate_tournament``
    builds 'elo' by name with its ``k_default``).
    """

    cap: int | None = None
    default_k: int = 20
    name: str = "elo"
    label: str = "Elo"
    national: bool = False
    per_tournament: bool = False
    coefficient: str = "K"
    player_columns: ClassVar[tuple[Column[PlayerRating], ...]] = ()
    round_columns: ClassVar[tuple[Column[RoundLine], ...]] = ()

    def describe(self) -> str:
        return "logistic formula" + (f", {self.cap}-point cap" if self.cap is not None else "")

    def rules_label(self) -> str:
        return f"{self.label}: {self.describe()}"

    def applies(self, info: TournamentInfo) -> bool:
        return False  # only when asked

    def list_note(self, rating_list: RatingList) -> str:
        return ""

    def player_k(self, facts: PlayerFacts, default: int) -> tuple[int, KSource]:
        """A published K, else the listed one, else ``default_k`` (no categories; the
        caller's *default* is not used: the system has its own)."""
        if facts.published_k is not None:
            return facts.published_k, KSource.SOURCE
        if facts.list_k is not None:
            return facts.list_k, KSource.LIST
        return self.default_k, KSource.DEFAULT

    def capped_k(self, k: int, games: int) -> int:
        return k

    def assumptions(self, facts: PlayerFacts | None) -> tuple[str, ...]:
        return ()

    def not_rated_reason(self, own: int | None, opponent: int | None) -> str | None:
        if own is None:
            return "player unrated"
        return "opponent unrated" if opponent is None else None

    def unrated_opponent_game(self, own: int, k: int, score: Decimal) -> GameRating | None:
        return None

    def new_rating(self, own: int, change: Decimal) -> int | None:
        return own + round_whole(change)

    def first_rating(self, opponents: Sequence[int], score_h: int) -> InitialRating | None:
        return None

    def cap_mask(self, own: int, opponents: Sequence[int]) -> list[bool]:
        return [self.cap is not None and abs(own - o) > self.cap for o in opponents]

    def expected(self, own: int, opponent: int, *, capped: bool) -> Decimal:
        return elo.expected(own, opponent, cap=self.cap if capped else None)

    def performance(self, opponents: Sequence[int], score_h: int) -> int | None:
        """FIDE's Ra + dp (table 8.1.1): generic Elo has no rule of its own."""
        return fide.performance(opponents, score_h)


def change_if_rated(pr: PlayerRating) -> Cell:
    """A player's change as a national system's columns show it: none without its rating."""
    return pr.change if pr.rating is not None else None


def rate_games(system: RatingSystem, own: int | None, k: int,
               games: Sequence[tuple[int | None, Decimal]]) -> list[GameRating]:
    """Rate one player's played games of one tournament: (opponent rating, score) pairs."""
    reasons = [system.not_rated_reason(own, opp) for opp, _ in games]
    rated_opps = [opp for (opp, _), why in zip(games, reasons, strict=True)
                  if opp is not None and why is None]
    mask = iter(system.cap_mask(own, rated_opps) if own is not None else [])
    out: list[GameRating] = []
    for (opp, score), why in zip(games, reasons, strict=True):
        special = (system.unrated_opponent_game(own, k, score)
                   if own is not None and opp is None and why is None else None)
        if special is not None:
            out.append(special)
        elif own is None or opp is None or why is not None:
            out.append(GameRating(opp, score, rated=False, reason=why or "opponent unrated"))
        else:
            capped = next(mask)
            exp = system.expected(own, opp, capped=capped)
            out.append(GameRating(opp, score, rated=True, capped=capped, expected=exp,
                                  change=k * (score - exp), k=k))
    return out
