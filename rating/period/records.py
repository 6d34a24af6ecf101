"""What a rating period gives back: typed records, one per player and list, rated game and pooled
game (the engine's numpy stays inside :mod:`rating.period.engine`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from types import SimpleNamespace
from typing import Any, overload

from importer.identity import EventIdentity
from importer.model import RatingList, Tournament, quick_init
from rating.notes import Note
from rating.period.identity import MatchedBy, RatingFrom
from rating.systems.fide_rules import FideRules

__all__ = [
    "LISTS",
    "LIST_CODES",
    "PeriodGame",
    "PeriodGames",
    "PeriodPlayer",
    "PeriodResult",
    "PeriodStatus",
    "PeriodTournament",
    "Pool",
    "PoolGame",
    "Standing",
]


LISTS = (RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ)
"""The lists by code 0, 1, 2 (as the engine numbers them)."""
LIST_CODES = {rl: i for i, rl in enumerate(LISTS)}


def _as_list(values: Iterable[Any]) -> list[Any]:
    """A column as a list of Python values (a numpy array's converted)."""
    tolist = getattr(values, "tolist", None)
    return tolist() if tolist is not None else list(values)


class PeriodStatus(StrEnum):
    """A player's standing on the new list."""

    RATED = "rated"
    NEWLY_RATED = "newly_rated"
    """A first rating (R24 8.2): five games against rated opponents and at least the floor."""
    UNRATED = "unrated"
    DROPPED_BELOW_FLOOR = "dropped_below_floor"
    """Fell below the rating floor (R24 7.2.1): unrated on the new list."""
    INACTIVE = "inactive"
    """No rated game for a year (R24 7.2.2)."""

    @property
    def words(self) -> str:
        """The status for people: 'newly rated', 'dropped below the floor'."""
        return {"dropped_below_floor": "dropped below the floor"}.get(self.value,
                                                                       self.value.replace("_", " "))


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """What the previous list (T − 1) and the register know about a player on one list."""

    rating: int | None = None
    k: int | None = None
    games_total: int | None = None
    """All rated games ever (register); None when unknown."""
    reached_2400: bool = False
    birth_year: int | None = None
    inactive: bool = False
    """The list's flag ``i`` (R24 7.2.2)."""
    last_played: date | None = None
    """The last period with a rated game (register), for the one-year inactivity rule."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pool:
    """An unrated player's pooled results from earlier periods (within 26 months, R24 7.1.4)."""

    games: int = 0
    opponents_sum: int = 0
    score_h: int = 0
    events: int = 0
    """Earlier events (including a disregarded zero first event): later zeros count."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodTournament:
    """One tournament as the period rates it."""

    key: str
    tournament: Tournament
    rating_list: RatingList
    start: date
    rules: FideRules
    ratings_from: str
    """'source', 'register' or 'list': where the ratings used in its games come from."""
    keys: Mapping[int, str] = field(default_factory=dict)
    """Start number → the player's key (who each player is across the period)."""
    identity: EventIdentity = field(default_factory=EventIdentity)
    """What identifies the event (the register rates an event once)."""


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodPlayer:
    """One player on one list after the period."""

    key: str
    """The FIDE id, else name|federation|birth year."""
    fide_id: str
    name: str
    federation: str
    birth_year: int | None
    list: RatingList
    old_rating: int | None
    """The previous list's rating (the base), None when unrated."""
    matched_by: MatchedBy
    """How the player was found: by the source's FIDE id, by name and federation, or not."""
    rating_from: RatingFrom
    """Where ``old_rating`` comes from: FIDE's list, the register, or the tournament."""
    where: str
    """Where the player is first seen: 'No. 2 in 1452107'."""
    ks: tuple[int, ...]
    """The K of the rated games, after K × n ≤ 700 (several only when rule versions differ)."""
    games: int
    """Rated games in the period."""
    score_h: int
    """Points in those games, in hundredths."""
    change_h: int
    """Σ K × (S − PD) over the period in hundredths, exact."""
    rounded_change: int
    """The change rounded once, half away from zero (R24 8.3.4)."""
    new_rating: int | None
    status: PeriodStatus
    pool_games: int
    """Games against rated opponents pooled for a first rating (this and earlier periods)."""
    pool_opponents_sum: int
    pool_score_h: int
    initial_rating: int | None
    """The first rating the pool gives (shown even before it is published)."""

    @property
    def k(self) -> str:
        """The K as printed: '20', or '20/15' when rule versions differ."""
        return "/".join(map(str, self.ks))

    @property
    def changed_rating(self) -> int | None:
        """The old rating plus the rounded change, before the floor or a one-time adjustment
        made it ``new_rating`` (None when unrated)."""
        return None if self.old_rating is None else self.old_rating + self.rounded_change


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodGame:
    """One rated game from the rated player's side."""

    tournament: str
    round: int
    key: str
    fide_id: str
    name: str
    list: RatingList
    own_rating: int
    opponent: str
    """The opponent's FIDE id, else their key."""
    opponent_name: str
    opponent_rating: int
    """After the difference cap (FIDE prints it with '*')."""
    capped: bool
    score_h: int
    expected_h: int
    k: int
    change_h: int


class PeriodGames(Sequence[PeriodGame]):
    """The period's rated games, held as columns; each is a :class:`PeriodGame` when read.

    A federation's month has a million of them, so no record is made until one is read:
    :meth:`rows` gives plain tuples (for files and the register) and :meth:`of` one player's
    games by index.  Players are held as positions in ``people`` (each with ``key``,
    ``fide_id`` and ``name``) and tournaments as positions in ``tournaments`` (their keys).
    """

    FIELDS = ("tournament", "round", "key", "fide_id", "name", "list", "own_rating", "opponent",
              "opponent_name", "opponent_rating", "capped", "score_h", "expected_h", "k",
              "change_h")
    _PLAIN = ("round", "own_rating", "opponent_rating", "capped", "score_h", "expected_h", "k",
              "change_h")

    def __init__(self, columns: Mapping[str, Collection[Any]], *, me: Collection[int],
                 them: Collection[int], lists: Collection[int], tours: Collection[int],
                 people: Sequence[Any], tournaments: Sequence[str]) -> None:
        """*columns*: the games' :attr:`_PLAIN` fields; the players, lists and tournaments as
        positions.  Each column is a sequence or a numpy array (a list when first read)."""
        self._columns: dict[str, Collection[Any]] = {
            **{name: columns[name] for name in self._PLAIN},
            "_me": me, "_them": them, "_lists": lists, "_tours": tours}
        self._len = len(me)
        self._people, self._tournaments = people, tournaments
        self._by_key: dict[str, list[int]] | None = None

    def _column(self, name: str) -> list[Any]:
        """A held column as a list (made one when first read)."""
        values = self._columns[name]
        if not isinstance(values, list):
            values = self._columns[name] = _as_list(values)
        return values

    @classmethod
    def of_records(cls, games: Sequence[PeriodGame]) -> PeriodGames:
        """Games from records (e.g. a filtered copy)."""

        people = [SimpleNamespace(key=g.key, fide_id=g.fide_id, name=g.name) for g in games]
        people += [SimpleNamespace(key=g.opponent, fide_id=g.opponent if g.opponent.isdigit()
                                   else "", name=g.opponent_name) for g in games]
        tournaments = list(dict.fromkeys(g.tournament for g in games))
        n = len(games)
        return cls({name: [getattr(g, name) for g in games] for name in cls._PLAIN},
                   me=range(n), them=range(n, 2 * n), lists=[LIST_CODES[g.list] for g in games],
                   tours=[tournaments.index(g.tournament) for g in games], people=people,
                   tournaments=tournaments)

    def __len__(self) -> int:
        return self._len

    def column(self, name: str) -> list[Any]:
        """One field of every game, in order."""
        if name in self._PLAIN:
            return self._column(name)
        if name == "tournament":
            return [self._tournaments[t] for t in self._column("_tours")]
        if name == "list":
            return [LISTS[c] for c in self._column("_lists")]
        people = self._people
        if name in ("key", "fide_id", "name"):
            return [getattr(people[m], name) for m in self._column("_me")]
        if name == "opponent":
            return [people[o].fide_id or people[o].key for o in self._column("_them")]
        if name == "opponent_name":
            return [people[o].name for o in self._column("_them")]
        raise KeyError(name)

    def rows(self, *names: str) -> Iterator[tuple[Any, ...]]:
        """The games as tuples of these fields (all, in :attr:`FIELDS` order, by default)."""
        return zip(*(self.column(n) for n in (names or self.FIELDS)), strict=True)

    @overload
    def __getitem__(self, i: int) -> PeriodGame: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[PeriodGame]: ...

    def __getitem__(self, i: int | slice) -> PeriodGame | Sequence[PeriodGame]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        me, them = self._people[self._column("_me")[i]], self._people[self._column("_them")[i]]
        return PeriodGame(tournament=self._tournaments[self._column("_tours")[i]], key=me.key,
                          fide_id=me.fide_id, name=me.name, list=LISTS[self._column("_lists")[i]],
                          opponent=them.fide_id or them.key, opponent_name=them.name,
                          **{name: self._column(name)[i] for name in self._PLAIN})

    def __iter__(self) -> Iterator[PeriodGame]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def of(self, key: str) -> list[PeriodGame]:
        """One player's rated games, in the order they were rated."""
        if self._by_key is None:
            self._by_key = {}
            for i, k in enumerate(self.column("key")):
                self._by_key.setdefault(k, []).append(i)
        return [self[i] for i in self._by_key.get(key, ())]


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class PoolGame:
    """An unrated player's game against a rated opponent, pooled for a first rating."""

    key: str
    list: RatingList
    tournament: str
    start: date
    opponent_rating: int
    score_h: int
    disregarded: bool
    """A zero score in the player's first event (R24 8.2.1): counted as an event, not a game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PeriodResult:
    """A computed period: per (player, list) rows, per rated game rows, the pool, notes."""

    period: date
    players: Sequence[PeriodPlayer]
    """By list, then key (a tuple, or :class:`rating.period.bulk.LazyRecords` as the engine gives them)."""
    games: PeriodGames
    pool: Sequence[PoolGame]
    """In the order of the period's table (a tuple, or :class:`rating.period.bulk.LazyRecords`)."""
    tournaments: tuple[PeriodTournament, ...]
    notes: tuple[Note, ...] = field(default=())
    """For people, each remembering the players it is about (none: the month or an event)."""
    previous: Mapping[tuple[str, RatingList], Standing] = field(default_factory=dict)
    """What the period started from: the previous list and the register, per (player, list)."""
    imported: Mapping[tuple[str, RatingList], Standing] = field(default_factory=dict)
    """The given FIDE list's entries (kept in the register as the list of T − 1)."""
    replaces: Mapping[str, date] = field(default_factory=dict)
    """Tournaments rated in another month before, re-rated here: key → that month (writing
    the period moves them)."""
    sources: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each tournament's sources: the one it is read from, then those counted in it (copies,
    older snapshots of the same event)."""

    def player(self, key: str, rating_list: RatingList = RatingList.STANDARD) -> PeriodPlayer | None:
        """The row of one player on one list, or None."""
        return next((p for p in self.players if p.key == key and p.list is rating_list), None)

    def games_of(self, key: str) -> list[PeriodGame]:
        """One player's rated games, by tournament and round."""
        return sorted(self.games.of(key), key=lambda g: (g.tournament, g.round))
