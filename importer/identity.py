"""Sameness, decided once: when two sources show one event, and who a player is.

Two sources show **one event** when (in this order, the first that both can answer decides):

1. both give a chess-results tournament number: the same number;
2. both give a FIDE event id: the same id;
3. they show the same players (FIDE ids where both sources give them, else the players'
   names) playing the same games (round, both players, result), with no two different
   start dates.  A source holding the first rounds of the other's (an earlier moment of the
   same event) is a *snapshot* of it.

Nothing else makes two sources one event: an equal name, date or pattern of results never
does (two sections of one open, two quads of one club stay apart).  Each decision is a
:class:`Sameness`: its rule and the games it rests on, said in words.

A **player** is their FIDE id; without one, their name, federation and birth year
(:func:`player_key`).  On a national list a player is found by the federation's own id,
else the FIDE id, else the name (with federation and birth year to tell namesakes apart);
an ambiguous name finds no one (:func:`find_on_national_list`).
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter, is_, not_
from typing import Final, NamedTuple, cast

from importer.formats.nationallist import NationalEntry
from importer.model import (
    FULL_POINT,
    HALF_POINT,
    NO_POINT,
    DateSource,
    Player,
    RoundResult,
    Status,
    Tournament,
)
from importer.parsing.names import name_key

__all__ = [
    "Digests",
    "EventIdentity",
    "Grouping",
    "Keyed",
    "NationalIndex",
    "PlayerTokens",
    "Remembered",
    "SameBy",
    "Sameness",
    "fide_id_text",
    "fide_id_texts",
    "find_on_national_list",
    "group_events",
    "name_token",
    "name_tokens",
    "national_person_key",
    "player_key",
    "player_token",
    "player_tokens",
    "shows_games_of",
    "tokens_of",
]

_POINTS_H: Final = {FULL_POINT: 100, HALF_POINT: 50, NO_POINT: 0}
"""Points in hundredths (keyed by the model's own Decimals, which most readers give)."""
_FIDE_ID, _NAME, _START_NO = attrgetter("fide_id"), attrgetter("name"), attrgetter("start_no")


class Remembered:
    """A function of a text, remembered for many texts at once (:meth:`many`): a dict, looked
    up in one pass and emptied when it holds ``size`` (an ``lru_cache`` reorders a linked list
    at every hit, which costs as much again over a month's players)."""

    def __init__(self, function: Callable[[str], str], size: int = 1 << 17) -> None:
        self._function, self._size = function, size
        self._known: dict[str, str] = {}

    def many(self, given: Sequence[str]) -> list[str]:
        """The function of each text of *given*."""
        known = self._known
        out: list[str | None] = list(map(known.get, given))
        if None not in out:
            return cast("list[str]", out)
        new = list(dict.fromkeys(compress(given, map(is_, out, repeat(None)))))
        made = dict(zip(new, map(self._function, new), strict=True))
        if len(known) >= self._size:
            known.clear()
        known.update(made)
        return cast("list[str]", list(map(made.get, given, out)))  # made now, else found before

    def cache_clear(self) -> None:
        """Forget every text (as a fresh process has them)."""
        self._known.clear()


@lru_cache(maxsize=1 << 16)
def fide_id_text(given: str) -> str:
    """A FIDE id as the source gives it, or '' when it is none (blank, zeros, not digits)."""
    text = given.strip()
    return text if text.isascii() and text.isdigit() and text.strip("0") else ""


def player_key(name: str, federation: str, birth_year: int | None, fide_id: str = "") -> str:
    """Who a player is across sources and months: the FIDE id, else
    'adams michael|ENG|1971' (name, federation, birth year)."""
    return fide_id_text(fide_id) or f"{name_key(name)}|{federation.strip().upper()}|{birth_year or ''}"


def same_player(fide_id: str, name: str, other_id: str, other_name: str) -> bool:
    """Whether two sources' players are one person: by FIDE id where both give one (one
    name under two spellings is one player, two ids are two), else by name."""
    mine, theirs = fide_id_text(fide_id), fide_id_text(other_id)
    if mine and theirs:
        return mine == theirs
    return bool(name_key(name)) and name_key(name) == name_key(other_name)


class NationalIndex:
    """A national list's entries, looked up by national id, FIDE id and name."""

    def __init__(self, entries: Iterable[NationalEntry]) -> None:
        self.by_id: dict[str, NationalEntry] = {}
        self.by_fide: dict[str, NationalEntry] = {}
        self.by_name: dict[str, list[NationalEntry]] = {}
        for e in entries:
            self.by_id.setdefault(e.national_id.strip(), e)
            if fide_id_text(e.fide_id):
                self.by_fide.setdefault(fide_id_text(e.fide_id), e)
            self.by_name.setdefault(name_key(e.name), []).append(e)


def find_on_national_list(p: Player, index: NationalIndex) -> tuple[NationalEntry | None, str]:
    """*p*'s entry on a national list, and how it was found: 'national_id', 'fide_id',
    'name' (one entry of that name, federation and birth year agreeing where both give
    them), or '' with no entry (none, or several namesakes: ambiguous is not guessed)."""
    nid, fid = p.national_id.strip(), fide_id_text(p.fide_id)
    if nid and nid in index.by_id:
        return index.by_id[nid], "national_id"
    if fid:  # a FIDE id on both sides decides: another id is another player
        return (index.by_fide[fid], "fide_id") if fid in index.by_fide else (None, "")
    fed = p.federation.strip().upper()
    found = [e for e in index.by_name.get(name_key(p.name), ())
             if (not fed or not e.federation or e.federation.upper() == fed)
             and (p.birth_year is None or e.birth_year is None or e.birth_year == p.birth_year)]
    return (found[0], "name") if len(found) == 1 and name_key(p.name) else (None, "")


def national_person_key(p: Player, entry: NationalEntry | None) -> str:
    """Who *p* is across the events of a national period: their entry on the national list
    ('list:' and the national id), else the FIDE id, else the national id the source gives,
    else name, federation and birth year (:func:`player_key`)."""
    if entry is not None:
        return f"list:{entry.national_id.strip()}"
    if fide_id_text(p.fide_id):
        return fide_id_text(p.fide_id)
    if p.national_id.strip():
        return f"id:{p.national_id.strip()}"
    return player_key(p.name, p.federation, p.birth_year)


def _short(text: str) -> str:
    return f"{zlib.crc32(text.encode()):08x}"


def player_token(p: Player) -> str:
    """A player as one event shows them: the FIDE id, else a short hash of name and
    federation (a source of the event may not show the birth year)."""
    return fide_id_text(p.fide_id) or _short(f"{name_key(p.name)}|{p.federation.strip().upper()}")


@lru_cache(maxsize=1 << 16)
def name_token(name: str) -> str:
    """A name as an event's identity by name shows it: a short hash of its name key."""
    return _short(name_key(name))


fide_id_texts = Remembered(fide_id_text.__wrapped__)
""":func:`fide_id_text` of many texts at once (``fide_id_texts.many``)."""
name_tokens = Remembered(name_token.__wrapped__)
""":func:`name_token` of many names at once (``name_tokens.many``)."""


class PlayerTokens(NamedTuple):
    """A tournament's players, in order, as its identity names them."""

    keyed: list[str]
    """By :func:`player_token`: the FIDE id, else a short hash of name and federation."""
    named: list[str]
    """By a short hash of the name alone."""
    all_ids: bool
    """Every player has a FIDE id."""
    start_nos: Sequence[int]
    """Their start numbers."""


def player_tokens(t: Tournament) -> PlayerTokens:
    """*t*'s players as its identity names them."""
    players = t.players
    return tokens_of(players, list(map(fide_id_text, map(_FIDE_ID, players))),
                     list(map(_START_NO, players)), list(map(name_token, map(_NAME, players))))


def tokens_of(players: Sequence[Player], fids: Sequence[str], start_nos: Sequence[int],
              named: list[str]) -> PlayerTokens:
    """*players* as their event's identity names them, from their FIDE ids
    (:func:`fide_id_text`), start numbers and :func:`name_token`\\ s, read already."""
    keyed = list(fids)
    for j in compress(range(len(keyed)), map(not_, keyed)):
        keyed[j] = player_token(players[j])
    return PlayerTokens(keyed, named, bool(keyed) and all(fids), start_nos)


class SameBy(StrEnum):
    """The rule that made two sources one event."""

    CHESS_RESULTS = "chess_results"
    FIDE_EVENT = "fide_event"
    GAMES = "games"
    """The same players and the same games."""
    SNAPSHOT = "snapshot"
    """The same players; one source's games are the other's first rounds."""


Rows = Mapping[int, frozenset[tuple[str, str, int]]]
"""Games by round: (player, opponent, score in hundredths), from each player's side."""

Digests = tuple[tuple[int, str], ...]
"""Each round's digest of its games, by round (:attr:`Keyed.rounds`)."""

_Played = list[tuple[int, int, int, int]]
"""Games played over the board: (round, start number, opponent's start number, score in
hundredths), from each player's side."""


def _game(r: RoundResult, known: Collection[int]) -> tuple[int, int, int, int] | None:
    """A result as a game played over the board, (round, start number, opponent's start number,
    score in hundredths), or None when its status, opponent or points make no game (*known*:
    the players' start numbers)."""
    if r.status is not Status.PLAYED or r.opponent_no is None or r.points is None:
        return None
    score = _POINTS_H.get(r.points)
    if score is None or r.start_no not in known or r.opponent_no not in known:
        return None
    return r.round, r.start_no, r.opponent_no, score


def _played(t: Tournament) -> _Played:
    """*t*'s games played over the board (a result whose player, opponent or points make no
    game is left out)."""
    known = {p.start_no for p in t.players}
    return [g for g in map(_game, t.results, repeat(known)) if g is not None]


def _by_start_no(start_nos: Sequence[int], names: Sequence[str]) -> dict[int, str]:
    """Start number → name (of two players with one start number, the later)."""
    return dict(zip(start_nos, names, strict=True))


def _rows(played: _Played, token: Mapping[int, str]) -> Rows:
    """The games by round, each player named by *token* (start number → name)."""
    by_round: dict[int, set[tuple[str, str, int]]] = {}
    for rnd, me, them, score in played:
        by_round.setdefault(rnd, set()).add((token[me], token[them], score))
    return {rnd: frozenset(games) for rnd, games in sorted(by_round.items())}


def _digest(rows: Iterable[tuple[str, str, int]]) -> str:
    return hashlib.sha1("\n".join(sorted(f"{a} {b} {s}" for a, b, s in rows)).encode()
                        ).hexdigest()[:16]


def _round_digests(rows: Rows) -> Digests:
    """Each round's digest (:attr:`Keyed.rounds`)."""
    return tuple((rnd, _digest(games)) for rnd, games in rows.items())


def _game_count(rows: Rows) -> int:
    """Games (not rows): a game shown from both sides counts once."""
    return sum(len({frozenset((a, b)) for a, b, _ in games}) for games in rows.values())


@dataclass(frozen=True, slots=True, eq=False)
class Keyed:
    """An event's players and games under one way of naming players (two are equal when their
    players and their rounds' digests are)."""

    players: frozenset[str] = frozenset()
    known: Digests | None = ()
    """The rounds' digests when known (stored, or made already); None: made when first asked
    for (:attr:`rounds`)."""
    shown: tuple[Tournament, Sequence[int], Sequence[str]] | None = field(default=None,
                                                                          repr=False)
    """The tournament, its players' start numbers and their names here, when read from a
    source (not from the register): the games are read from it when two sources are
    compared."""
    later: Callable[[], Digests] | None = field(default=None, repr=False)
    """What makes the digests when first asked for (default: read from ``shown``)."""

    @classmethod
    def of(cls, t: Tournament, start_nos: Sequence[int], names: Sequence[str], *,
           unique: bool, later: Callable[[], Digests] | None = None) -> Keyed:
        """*t*'s players and games, each player named by *names* (in the order of
        *start_nos*; *unique*: no start number twice, else of two players with one start
        number the later counts); the digests are made when first asked for, by *later* when
        given (many events' at once)."""
        players = frozenset(names if unique else _by_start_no(start_nos, names).values())
        return cls(players, None, (t, start_nos, names), later)

    @property
    def rounds(self) -> Digests:
        """Each round's digest of its games, by round: the SHA-1 (its first 16 hex digits) of
        the round's distinct games as sorted lines 'player opponent score' (made once, when
        first asked for)."""
        if self.known is not None:
            return self.known
        if self.later is not None:
            made = self.later()
        elif self.shown is not None:
            made = _round_digests(_rows(_played(self.shown[0]), _by_start_no(*self.shown[1:])))
        else:  # nothing shown: no games
            made = ()
        object.__setattr__(self, "known", made)  # a cache: equal to what it stands for
        return made

    @property
    def has_games(self) -> bool:
        """Whether any game is shown (read from the source, without the digests, when it is
        one)."""
        if self.known is not None or self.shown is None:
            return bool(self.rounds)
        t, start_nos, _ = self.shown
        return any(_game(r, start_nos) is not None for r in t.results)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Keyed):
            return NotImplemented
        return self.players == other.players and self.rounds == other.rounds

    def __hash__(self) -> int:
        return hash((self.players, self.rounds))

    @property
    def rows(self) -> Rows | None:
        """The games themselves, when read from a source (None: from the register)."""
        if self.shown is None:
            return None
        return _rows(_played(self.shown[0]), _by_start_no(*self.shown[1:]))

    @property
    def text(self) -> str:
        """The rounds as stored: '1:0a1b… 2:9f3c…'."""
        return " ".join(f"{rnd}:{d}" for rnd, d in self.rounds)

    @classmethod
    def stored(cls, players: str, rounds: str) -> Keyed:
        """The identity as :attr:`text` and a space-separated player list stored it."""
        parsed = []
        for part in rounds.split():
            rnd, _, d = part.partition(":")
            if not d or not rnd.isdigit():
                return cls(frozenset(players.split()))  # an older register's fingerprint
            parsed.append((int(rnd), d))
        return cls(frozenset(players.split()), tuple(parsed))

    def within(self, other: Keyed) -> SameBy | None:
        """GAMES when both show the same games, SNAPSHOT when this one's are the first
        rounds of *other*'s, else None (the players must be the same)."""
        if not self.rounds or self.players != other.players:
            return None
        if self.rounds == other.rounds:
            return SameBy.GAMES
        mine, theirs = dict(self.rounds), dict(other.rounds)
        last = self.rounds[-1][0]
        if any(rnd not in mine for rnd in theirs if rnd < last):
            return None
        if any(theirs.get(rnd) != d for rnd, d in self.rounds[:-1]):
            return None
        if theirs.get(last) == mine[last]:
            return SameBy.SNAPSHOT
        rows, others = self.rows, other.rows
        if rows is None or others is None or last not in others:
            return None
        return SameBy.SNAPSHOT if rows[last] <= others[last] else None


@dataclass(frozen=True, slots=True)
class Sameness:
    """Why two sources are one event."""

    by: SameBy
    games: int = 0
    players: int = 0
    number: str = ""
    """The tournament number or event id, for the id rules."""

    @property
    def words(self) -> str:
        """The reason, for people: 'the same 36 games of the same 10 players'."""
        if self.by is SameBy.CHESS_RESULTS:
            return f"the same chess-results tournament (number {self.number})"
        if self.by is SameBy.FIDE_EVENT:
            return f"the same FIDE event (id {self.number})"
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        players = f"{self.players} player{'s' if self.players != 1 else ''}"
        if self.by is SameBy.GAMES:
            return f"the same {games} of the same {players}"
        return f"the same {players}, and the {games} of the one are the other's first rounds"


@dataclass(frozen=True, slots=True, kw_only=True)
class EventIdentity:
    """What identifies a tournament across files, snapshots and months."""

    chess_results: str = ""
    """The chess-results tournament number."""
    fide_event: str = ""
    """FIDE's event id (the details' 'FIDE event' or a TRF's)."""
    name: str = ""
    """The name as compared (:func:`importer.parsing.names.name_key`): shown, never deciding."""
    start: date | None = None
    """The start date, when the source gives it (a page's last update is not one)."""
    keyed: Keyed = field(default_factory=Keyed)
    """Players by FIDE id where the source gives one, else by name and federation."""
    named: Keyed = field(default_factory=Keyed)
    """Players by name alone (for a source of the event that gives no ids)."""
    all_ids: bool = False
    """Every player has a FIDE id."""

    @classmethod
    def of(cls, t: Tournament, tokens: PlayerTokens | None = None,
           later: tuple[Callable[[], Digests], Callable[[], Digests]] | None = None
           ) -> EventIdentity:
        """The identity of a tournament; *tokens*: its players' (:func:`player_tokens`).  The
        round digests (:attr:`Keyed.rounds`) are made when first asked for: by *later* (by
        FIDE id, by name) when given (:func:`rating.period.played.event_identities` makes
        many events' at once), else from the tournament."""
        info = t.info
        start = None if info.date_source is DateSource.LAST_UPDATE else info.start_date
        tokens = tokens or player_tokens(t)
        nos = tokens.start_nos
        unique = len(set(nos)) == len(nos)
        by_id, by_name = later or (None, None)
        return cls(chess_results=info.id.strip(), fide_event=info.fide_event_id.strip(),
                   name=name_key(info.name), start=start,
                   keyed=Keyed.of(t, nos, tokens.keyed, unique=unique, later=by_id),
                   named=Keyed.of(t, nos, tokens.named, unique=unique, later=by_name),
                   all_ids=tokens.all_ids)

    @property
    def players(self) -> frozenset[str]:
        """The players: FIDE ids, else short hashes of name and federation."""
        return self.keyed.players

    @property
    def games(self) -> int:
        """How many games the source shows played."""
        rows = self.keyed.rows
        return _game_count(rows) if rows is not None else 0

    def within(self, other: EventIdentity) -> Sameness | None:
        """Why this source shows the event *other* shows (the same, or an earlier moment of
        it), or None when they are two events."""
        if self.chess_results and other.chess_results:
            return (Sameness(SameBy.CHESS_RESULTS, number=self.chess_results)
                    if self.chess_results == other.chess_results else None)
        if self.fide_event and other.fide_event:
            return (Sameness(SameBy.FIDE_EVENT, number=self.fide_event)
                    if self.fide_event == other.fide_event else None)
        if self.start is not None and other.start is not None and self.start != other.start:
            return None
        by = self.keyed.within(other.keyed)
        if by is None and not (self.all_ids and other.all_ids):
            by = self.named.within(other.named)
        if by is None:
            return None
        return Sameness(by, games=self.games or other.games, players=len(self.players))

    def same_as(self, other: EventIdentity) -> Sameness | None:
        """Why both show one event (either the earlier moment), or None."""
        return self.within(other) or other.within(self)

    def buckets(self) -> Iterable[tuple[str, Hashable]]:
        """Where to look for the same event: only identities sharing a bucket (the same
        number, or the same players) are compared."""
        if self.chess_results:
            yield "cr", self.chess_results
        if self.fide_event:
            yield "fide", self.fide_event
        if self.keyed.has_games:
            yield "players", self.keyed.players
            yield "names", self.named.players


@dataclass(frozen=True, slots=True)
class Grouping:
    """Sources grouped into events: each group one event, with why its members are."""

    groups: tuple[tuple[int, ...], ...]
    why: Mapping[tuple[int, int], Sameness]
    """For two members of one group that were compared: why they are one event."""
    ambiguous: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    """A source showing the games of two events that are not one (say, without FIDE ids,
    two sections of namesakes): merged with neither; the two it matched."""

    def reason(self, a: int, b: int, identities: Sequence[EventIdentity]) -> Sameness:
        """Why sources *a* and *b* of one group are one event."""
        found = self.why.get((a, b)) or identities[a].same_as(identities[b])
        return found or next(s for (x, _), s in self.why.items() if x == a)


def group_events(identities: Sequence[EventIdentity], *, apart: Collection[int] = ()
                 ) -> Grouping:
    """Which of *identities* show one event (the rules of this module).  A source in
    *apart* (by index) is an event alone; a source that matches two events that are not one
    is merged with neither (``ambiguous``)."""
    same: dict[tuple[int, int], Sameness] = {}
    seen: dict[tuple[str, Hashable], list[int]] = {}
    for i, ident in enumerate(identities):
        if i in apart:
            continue
        for bucket in ident.buckets():
            for j in seen.get(bucket, []):
                if (j, i) not in same and (s := ident.same_as(identities[j])):
                    same[(j, i)] = same[(i, j)] = s
            seen.setdefault(bucket, []).append(i)
    linked: dict[int, list[int]] = {}
    for a, b in same:
        linked.setdefault(a, []).append(b)

    def one(a: int, b: int) -> bool:
        return (a, b) in same or identities[a].same_as(identities[b]) is not None

    ambiguous = {}
    for i, others in linked.items():
        pair = next(((a, b) for n, a in enumerate(others) for b in others[n + 1:]
                     if not one(a, b)), None)
        if pair is not None:
            ambiguous[i] = pair
    parent = list(range(len(identities)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in sorted(same):
        if a < b and a not in ambiguous and b not in ambiguous:
            parent[max(root(a), root(b))] = min(root(a), root(b))
    groups: dict[int, list[int]] = {}
    for i in range(len(identities)):
        groups.setdefault(root(i), []).append(i)
    return Grouping(tuple(map(tuple, groups.values())), same, ambiguous)


def _games_of(t: Tournament, no: int) -> list[tuple[str, str, int]]:
    """Player *no*'s games: (opponent's FIDE id, opponent's name, score in hundredths)."""
    by_no = t.players_by_no()
    out = []
    for r in t.results:
        opp = by_no.get(r.opponent_no) if r.opponent_no is not None else None
        score = _POINTS_H.get(r.points) if r.points is not None else None
        if r.start_no == no and r.status is Status.PLAYED and opp is not None and score is not None:
            out.append((opp.fide_id, opp.name, score))
    return out


def shows_games_of(t: Tournament, player: Player, shown: Tournament) -> bool:
    """Whether tournament *t* holds the games *shown* shows of *player* (FIDE's calculation
    of one player's event): the same FIDE event id, or the player (by FIDE id, else name) in
    *t* with each shown game: the same opponent (by id where both give one, else by name),
    the same result."""
    if t.info.fide_event_id and t.info.fide_event_id == shown.info.fide_event_id:
        return True
    me = next((p for p in t.players
               if same_player(p.fide_id, p.name, player.fide_id, player.name)), None)
    if me is None:
        return False
    wanted = _games_of(shown, player.start_no)
    held = _games_of(t, me.start_no)
    for oid, oname, score in wanted:
        found = next((g for g in held if g[2] == score and same_player(*g[:2], oid, oname)),
                     None)
        if found is None:
            return False
        held.remove(found)
    return bool(wanted)
