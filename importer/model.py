"""The normalized tournament model every source is turned into.

Frozen, typed records that cross every layer: `TournamentInfo` (the header),
`Player`, `RoundResult` (one per player per round), `Game` (one per pairing) and
`Tournament`, which holds them all.  Unrated is ``None``, never 0, and every reader checks
its ratings with :func:`importer.parsing.numbers.checked_rating` (1 to 3500); ids are text.
This module imports nothing heavy: pandas lives in :mod:`importer.frames`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields, replace
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar, Final, TypeVar

from importer.parsing.text import display_name, person_name, printable

__all__ = [
    "FULL_POINT",
    "HALF_POINT",
    "NO_POINT",
    "Colour",
    "DateSource",
    "Game",
    "GameResult",
    "ListSource",
    "Player",
    "Provenance",
    "RatingList",
    "RoundResult",
    "SourceWarning",
    "Status",
    "System",
    "Tournament",
    "TournamentInfo",
    "as_points",
    "format_timestamp",
    "parse_timestamp",
]


_T = TypeVar("_T")


class System(StrEnum):
    """How the tournament is paired."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    TEAM = "team"


class DateSource(StrEnum):
    """Where the tournament's start date was read from (best first)."""

    DETAILS = "details"
    ROUND_DATES = "round dates"
    TITLE = "title"
    LAST_UPDATE = "last update"
    NONE = "none"


class RatingList(StrEnum):
    """The FIDE list a tournament is rated on, from its time control."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


class ListSource(StrEnum):
    """Where ``TournamentInfo.rating_list`` was read from (or that nothing said)."""

    TIME_CONTROL = "time control"
    TRF_222 = "TRF 222"
    TRF_122 = "TRF 122"
    TOURNAMENT_TYPE = "tournament type"
    EVENT_NAME = "event name"
    """A guess from the event's name ('… Blitz …'), with a note."""
    DEFAULT = "default"
    """Nothing says: rated as standard."""
    NONE = ""
    """Not recorded (a source that keeps no such record)."""


class Colour(StrEnum):
    """The colour a player had in a round ('' when there was no game)."""

    WHITE = "w"
    BLACK = "b"
    NONE = ""


class Status(StrEnum):
    """What happened to a player in a round."""

    PLAYED = "played"
    """A game over the board (a rating candidate)."""
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    UNPLAYED = "unplayed"
    """A game that lasted less than one move (TRF W/D/L): scored, never rated."""
    BYE = "bye"
    """A full-point bye: allocated by the pairing, or requested (``RoundResult.requested``)."""
    HALF_BYE = "half_bye"
    ABSENT = "absent"
    """Not paired, zero-point bye, withdrawn or not fielded."""
    PENDING = "pending"
    """Paired, result not yet known."""
    UNKNOWN = "unknown"
    """A round the sources do not show for this player: no points, never rated."""

    @property
    def is_game(self) -> bool:
        """True when there was an opponent at the board (played, pending or forfeited)."""
        return self in _GAME_STATUSES


_GAME_STATUSES = frozenset(
    {Status.PLAYED, Status.PENDING, Status.FORFEIT_WIN, Status.FORFEIT_LOSS, Status.UNPLAYED}
)


class GameResult(StrEnum):
    """The result of a pairing, from White's side."""

    WHITE_WIN = "1-0"
    BLACK_WIN = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+/-"
    BLACK_FORFEIT_WIN = "-/+"
    DOUBLE_FORFEIT = "-/-"
    PENDING = ""


FULL_POINT, HALF_POINT, NO_POINT = Decimal(1), Decimal("0.5"), Decimal(0)
"""The points of a win, a draw and a loss (one set of constants for every reader)."""
_POINTS: dict[object, Decimal] = {1: FULL_POINT, 0.5: HALF_POINT, 0: NO_POINT}
"""0, ½ and 1 (equal numbers hash alike, so 1.0, 1 and Decimal('1.0') all find Decimal('1'))."""
_WHOLE = Decimal(1)


def as_points(value: Decimal | float | int | str | None) -> Decimal | None:
    """Points as an exact Decimal (1.0 → Decimal('1'), '7.5' → Decimal('7.5'); a Decimal and
    None stay as they are)."""
    if value is None or type(value) is Decimal:  # the hot path: parsers give Decimals
        return value
    found = _POINTS.get(value) if not isinstance(value, str) else None
    if found is not None:
        return found
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    return exact.quantize(_WHOLE) if exact == exact.to_integral_value() else exact.normalize()


def format_timestamp(moment: datetime) -> str:
    """A naive datetime as the normalized folder and the JSON file write it:
    '2026-08-07T21:04:32' (ISO 8601 to the second, no time zone)."""
    return moment.isoformat(timespec="seconds")


def parse_timestamp(text: str) -> datetime:
    """'2026-08-07T21:04:32' → a naive datetime (ValueError for any other form)."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")  # noqa: DTZ007 - local time as printed


def quick_init(cls: type[_T]) -> type[_T]:
    """Give a frozen, slotted dataclass an ``__init__`` that fills its slots directly.

    Same keyword-only signature and defaults as the generated one, and instances stay frozen;
    it skips ``object.__setattr__`` per field, which makes building the thousands of records of
    a large import (or of a federation's month) about 2.5× cheaper.  A field named ``points``
    is made exact (:func:`as_points`), the fields the class names in ``TEXT_FIELDS`` printable
    (:func:`importer.parsing.text.printable`), and a person's ``name`` among them also without
    a trailing comma (:func:`importer.parsing.text.person_name`); a field with a
    ``default_factory`` is not supported.
    """
    text_fields = getattr(cls, "TEXT_FIELDS", ())
    ns: dict[str, Any] = {}
    params, body = [], []
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: a default_factory is not supported")
        ns[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is not MISSING:
            ns[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        value = (f"_as_points({f.name})" if f.name == "points"  # exact, always
                 else f"_person_name({f.name})" if f.name in text_fields and f.name == "name"
                 else f"_printable({f.name})" if f.name in text_fields else f.name)
        body.append(f"    _set_{f.name}(self, {value})")
    ns["_as_points"] = as_points
    ns["_printable"] = printable
    ns["_person_name"] = person_name
    exec(f"def __init__(self, *, {', '.join(params)}):\n" + "\n".join(body), ns)
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - mypy keeps the dataclass signature
    return cls


FIDE_CALCULATIONS: Final = "fide-calculation"
"""The provenance kind of FIDE's calculations page (:mod:`importer.formats.fidecalc`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where one input came from: a file or a fetched URL."""

    location: str
    kind: str = ""
    final_url: str = ""
    fetched_at: str = ""
    from_cache: bool = False
    sha256: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentInfo:
    """The tournament header."""

    id: str = ""
    name: str = ""
    source: str = ""
    start_date: date | None = None
    end_date: date | None = None
    rounds: int | None = None
    system: System = System.SWISS
    rating_list: RatingList | None = None
    """None when the source does not say (rated as standard, with a note)."""
    list_source: ListSource = field(default=ListSource.NONE, compare=False)
    """Where ``rating_list`` comes from (provenance: two readings of one tournament that
    found its list in different places are still equal)."""
    federation: str = ""
    time_control: str = ""
    rating_calculation: str = ""
    """The details block's 'Rating calculation' line, e.g. 'Rating national, international'."""
    fide_event_id: str = ""
    date_source: DateSource = DateSource.NONE
    """Where ``start_date`` comes from; a 'last update' date is only an upper bound."""
    city: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    round_dates: tuple[date | None, ...] = ()
    """The date of each round (round 1 first; None where the source gives none)."""
    last_update: datetime | None = None
    """When the source was last updated ('Last update 07.08.2026 21:04:32'), naive local time
    as printed; None when the source does not show it.  Tells two snapshots apart."""

    def __post_init__(self) -> None:
        """The header's text printable (:func:`importer.parsing.text.printable`)."""
        for name in ("id", "name", "federation", "time_control", "rating_calculation",
                     "fide_event_id", "city", "chief_arbiter"):
            value = getattr(self, name)
            if not value.isprintable():
                object.__setattr__(self, name, printable(value))
        if not all(map(str.isprintable, self.deputy_arbiters)):
            object.__setattr__(self, "deputy_arbiters",
                               tuple(map(printable, self.deputy_arbiters)))


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    """A player of the tournament, as the source prints them (its text printable: no control
    characters or escape sequences)."""

    TEXT_FIELDS: ClassVar[tuple[str, ...]] = (
        "name", "title", "federation", "fide_id", "national_id", "sex", "club", "team",
        "category")
    start_no: int
    name: str
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    rating: int | None = None
    national_rating: int | None = None
    national_id: str = ""
    national_evaluations: int | None = None
    """How many times the national rating has been evaluated before (DWZ's index), where a
    source or a national list gives it."""
    birth_year: int | None = None
    birth_date: date | None = None
    """The full birth date where the source gives one (TRF); ``birth_year`` is always set too."""
    sex: str = ""
    club: str = ""
    team: str = ""
    category: str = ""
    """The source's player category as printed (chess-results 'Typ': U18, S65, …)."""
    points: Decimal | None = None
    """Points as printed by the source, exact (None when it prints none)."""
    rank: int | None = None
    k: int | None = None
    """A K factor the source publishes (player card, ranking list)."""
    rating_change: Decimal | None = None
    """The source's own total rating change ('FIDE rtg +/-'), kept as published."""
    rating_known: bool = True
    """False when the source cut this player's rating off (unknown, not unrated)."""
    published_performance: int | None = None
    """The source's printed performance rating (chess-results 'Rp')."""
    published_games: int | None = None
    """The number of rated games the source printed ('n')."""
    published_score: Decimal | None = None
    """The score in rated games the source printed ('w')."""
    published_expected: Decimal | None = None
    """The expected score the source printed ('we')."""


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundResult:
    """One player's outcome in one round."""

    start_no: int
    round: int
    status: Status
    opponent_no: int | None = None
    colour: Colour = Colour.NONE
    points: Decimal | None = None
    """0, 0.5 or 1, exact (None while pending or unknown)."""
    k: int | None = None
    """The K the source published for this game (player card)."""
    rating_change: Decimal | None = None
    """The source's published change for this game (player card 'rtg+/-')."""
    requested: bool = False
    """A full-point bye the player asked for (TRF ``F``); False for one the pairing allocated
    (TRF ``U``) and where the source does not tell the two apart."""


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """One pairing on one board."""

    round: int
    white_no: int
    black_no: int
    result: GameResult = GameResult.PENDING
    board: int | None = None


@dataclass(frozen=True, slots=True)
class SourceWarning:
    """Something odd in the source, for people: a stable ``code`` ('points-differ'), the
    sentence shown, the start numbers of the players it is about (none: the event) and the
    round it is about, if one."""

    code: str
    message: str
    players: tuple[int, ...] = ()
    round: int | None = None

    def __post_init__(self) -> None:
        """The message printable: a source's text quoted in it carries no escape sequence."""
        if not self.message.isprintable():
            object.__setattr__(self, "message", printable(self.message))

    def __str__(self) -> str:
        return self.message

    def at(self, where: str) -> SourceWarning:
        """The same warning with where it was found before its message ('a.trf:12: …'), a
        file named by its name alone (:func:`importer.parsing.text.display_name`)."""
        return replace(self, message=f"{display_name(where)}: {self.message}") if where else self


@dataclass(frozen=True, slots=True, kw_only=True)
class Tournament:
    """A whole tournament: header, players, per-player round results and games."""

    info: TournamentInfo
    players: tuple[Player, ...] = ()
    results: tuple[RoundResult, ...] = ()
    games: tuple[Game, ...] = ()
    focus: int | None = None
    """The start number of the player the user asked about (player-card URL), if any."""
    warnings: tuple[SourceWarning, ...] = field(default=(), compare=False)
    provenance: tuple[Provenance, ...] = field(default=(), compare=False)

    def player(self, start_no: int) -> Player | None:
        """The player with this start number, or None."""
        for p in self.players:
            if p.start_no == start_no:
                return p
        return None

    def players_by_no(self) -> dict[int, Player]:
        """Players keyed by start number."""
        return {p.start_no: p for p in self.players}

    def results_of(self, start_no: int) -> list[RoundResult]:
        """A player's round results, in round order."""
        return sorted((r for r in self.results if r.start_no == start_no), key=lambda r: r.round)

    @property
    def rounds_seen(self) -> int:
        """The highest round number with any result row."""
        return max((r.round for r in self.results), default=0)

    @property
    def pending_games(self) -> tuple[Game, ...]:
        """The paired games without a result yet (a round still being played)."""
        return tuple(g for g in self.games if g.result is GameResult.PENDING)

    def with_warnings(self, extra: Iterable[SourceWarning]) -> Tournament:
        """A copy with more warnings appended."""
        return replace(self, warnings=self.warnings + tuple(extra))
