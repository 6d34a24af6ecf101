"""A period's tournaments as arrays, read once: their games played over the board
(:class:`PlayedGames`) and their event identities (:func:`event_identities`).

Both work on all the tournaments at once: every result is read in one pass, and the
identities' per-round digests (:attr:`importer.identity.Keyed.rounds`), when first asked
for, are made by numpy from the same arrays, equal to
:meth:`importer.identity.EventIdentity.of`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, compress, pairwise, repeat
from operator import attrgetter, is_, methodcaller
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from importer.errors import InputError
from importer.identity import Digests, EventIdentity, PlayerTokens, tokens_of
from importer.model import FULL_POINT, HALF_POINT, NO_POINT, RoundResult, Status, Tournament
from rating.period.core import kept, sorted_unique
from rating.period.roster import Roster

__all__ = ["PlayedGames", "event_identities"]

Array = npt.NDArray[Any]

_POINTS_H: Final = {FULL_POINT: 100, HALF_POINT: 50, NO_POINT: 0}
"""Points in hundredths (keyed by the model's own Decimals, which most readers give)."""
_HEX = methodcaller("hexdigest")
_STATUS, _START, _OPPONENT, _POINTS, _ROUND = (
    attrgetter(n) for n in ("status", "start_no", "opponent_no", "points", "round"))


@dataclass(frozen=True, slots=True)
class PlayedGames:
    """Tournaments' games played over the board, one row per player and game, tournament after
    tournament: ``tour`` is the tournament's position among them, ``me`` and ``them`` index its
    ``players`` (start numbers are labels, of any size), ``score_h`` is 0, 50 or 100,
    ``rounds`` the round."""

    tour: Array
    me: Array
    them: Array
    score_h: Array
    rounds: Array

    @classmethod
    def of(cls, tournaments: Sequence[Tournament], roster: Roster | None = None) -> PlayedGames:
        """The played games of *tournaments* (a result whose opponent or points make no game is
        left out), every result read in one pass (*roster*: their players, when read already);
        InputError for a round number too large to be one."""
        try:
            return cls._at_once(tournaments, roster or Roster.of(tournaments))
        except (TypeError, OverflowError):  # an opponent None, or a number beyond 64 bits
            return cls._one_by_one(tournaments)

    @classmethod
    def _at_once(cls, tournaments: Sequence[Tournament], roster: Roster) -> PlayedGames:
        results = list(chain.from_iterable(t.results for t in tournaments))
        played = np.fromiter(map(is_, map(_STATUS, results), repeat(Status.PLAYED)), bool,
                             len(results))
        rows = results if played.all() else list(compress(results, played.tolist()))
        n = len(rows)
        me = np.fromiter(map(_START, rows), np.int64, n)
        them = np.fromiter(map(_OPPONENT, rows), np.int64, n)
        rounds = np.fromiter(map(_ROUND, rows), np.int64, n)
        score = _scores_h(rows)
        per_t = np.fromiter(map(len, (t.results for t in tournaments)), np.int64, len(tournaments))
        (tour,) = kept(played, np.repeat(np.arange(len(tournaments)), per_t))
        starts = _StartNumbers.of(roster)
        me, them = starts.positions(tour, me), starts.positions(tour, them)
        return cls(*kept((me >= 0) & (them >= 0) & (score >= 0), tour, me, them, score, rounds))

    @classmethod
    def _one_by_one(cls, tournaments: Sequence[Tournament]) -> PlayedGames:
        """Each tournament read alone, start numbers through a dict (any size)."""
        parts = [np.zeros((5, 0), np.int64)]
        for i, t in enumerate(tournaments):
            at = {p.start_no: i for i, p in enumerate(t.players)}
            played = [r for r in t.results
                      if r.status is Status.PLAYED and r.opponent_no is not None]
            n = len(played)
            me = np.fromiter(map(at.get, map(_START, played), repeat(-1)), np.int64, n)
            them = np.fromiter(map(at.get, map(_OPPONENT, played), repeat(-1)), np.int64, n)
            score = np.fromiter(map(_POINTS_H.get, map(_POINTS, played), repeat(-1)), np.int64, n)
            try:
                rounds = np.fromiter(map(_ROUND, played), np.int64, n)
            except OverflowError:
                raise InputError("a round number too large to be one",
                                 source=t.info.source) from None
            ok = (me >= 0) & (them >= 0) & (score >= 0)
            parts.append(np.stack([np.full(n, i), me, them, score, rounds])[:, ok])
        return cls(*np.concatenate(parts, axis=1))

    def select(self, tours: Sequence[int]) -> PlayedGames:
        """The games of the tournaments at these positions, numbered in this order."""
        at = np.asarray(tours, dtype=np.int64)
        first = np.searchsorted(self.tour, at)
        counts = np.searchsorted(self.tour, at, side="right") - first
        rows = np.repeat(first - (np.cumsum(counts) - counts), counts) + np.arange(counts.sum())
        return PlayedGames(np.repeat(np.arange(len(at)), counts), self.me[rows], self.them[rows],
                           self.score_h[rows], self.rounds[rows])


def _scores_h(rows: Sequence[RoundResult]) -> Array:
    """Each result's points in hundredths, −1 for none or for not 0, ½ or 1 (looked up
    without a default first, which is faster, when every result has its points)."""
    n = len(rows)
    try:
        return np.fromiter(map(_POINTS_H.__getitem__, map(_POINTS, rows)), np.int64, n)
    except KeyError:  # a result without its points (None), or with other points
        return np.fromiter(map(_POINTS_H.get, map(_POINTS, rows), repeat(-1)), np.int64, n)


@dataclass(frozen=True, slots=True)
class _StartNumbers:
    """Every tournament's start numbers, to find a (tournament, start number)'s position.

    A tournament whose start numbers are 1, 2, … n (most) finds it by subtraction; the others'
    are keys tournament × ``span`` + (start number − ``low``), sorted stably so that of two
    players with one start number the later is found (as a dict keeps the later)."""

    sizes: Array
    plain: Array
    """Per tournament: whether its start numbers are 1, 2, … n."""
    key: Array
    position: Array
    """Per sorted key: the player's position in its tournament."""
    low: int
    span: int

    @classmethod
    def of(cls, roster: Roster) -> _StartNumbers:
        """OverflowError for a start number beyond 64 bits, or keys beyond 62."""
        first = np.array(roster.first, dtype=np.int64)
        sizes = first[1:] - first[:-1]
        nos = np.array(roster.start_nos, dtype=np.int64).reshape(-1)
        tour = np.repeat(np.arange(len(sizes)), sizes)
        position = np.arange(len(nos)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        plain = np.bincount(tour, weights=nos != position + 1, minlength=len(sizes)) == 0
        odd = ~plain[tour]
        nos, tour, position = nos[odd], tour[odd], position[odd]
        low, high = (int(nos.min()), int(nos.max())) if len(nos) else (0, 0)
        span = high - low + 1
        if span * max(len(sizes), 1) >= 1 << 62:
            raise OverflowError("start numbers too far apart for one key")
        key = tour * span + (nos - low)
        order = np.argsort(key, kind="stable")
        return cls(sizes=sizes, plain=plain, key=key[order], position=position[order], low=low,
                   span=span)

    def positions(self, tour: Array, start_no: Array) -> Array:
        """The position of each (tournament, start number) in its tournament, −1 for none."""
        out = np.where((start_no >= 1) & (start_no <= self.sizes[tour]), start_no - 1, -1)
        odd = np.flatnonzero(~self.plain[tour])
        if len(odd):
            no, t = start_no[odd], tour[odd]
            inside = (no >= self.low) & (no - self.low < self.span)
            key = t * self.span + np.where(inside, no - self.low, 0)
            at = np.maximum(np.searchsorted(self.key, key, side="right") - 1, 0)
            out[odd] = np.where(inside & (self.key[at] == key), self.position[at], -1)
        return out


# --------------------------------------------------------------------------- event identities

_SCORE_TEXT: Final = (b"0", b"100", b"50")
"""The scores as a digest's lines print them, in the order those texts sort."""
_SCORE_RANK: Final = np.zeros(101, dtype=np.int64)
_SCORE_RANK[[0, 100, 50]] = np.arange(3)


def event_identities(tournaments: Sequence[Tournament], played: PlayedGames,
                     roster: Roster | None = None) -> list[EventIdentity]:
    """:meth:`importer.identity.EventIdentity.of` of each tournament, from their played games
    (and their *roster*, when read already): the round digests are made for every tournament
    at once (:class:`_Digests`), when the first is asked for."""
    roster = roster or Roster.of(tournaments)
    tokens = [tokens_of(t.players, roster.fids[lo:hi], roster.start_nos[lo:hi],
                        roster.name_tokens[lo:hi])
              for t, (lo, hi) in zip(tournaments, roster.spans(), strict=True)]
    digests = _Digests(tournaments, played, tokens)
    return [EventIdentity.of(t, x, (partial(digests.of, i, False), partial(digests.of, i, True)))
            for i, (t, x) in enumerate(zip(tournaments, tokens, strict=True))]


class _Digests:
    """The round digests of some tournaments (:attr:`importer.identity.Keyed.rounds`), by FIDE
    id and by name, made for all of them at once when the first is asked for (most periods
    ask for none: only events that may be one are compared, and the register stores them)."""

    def __init__(self, tournaments: Sequence[Tournament], played: PlayedGames,
                 tokens: Sequence[PlayerTokens]) -> None:
        self._from: tuple[Sequence[Tournament], PlayedGames, Sequence[PlayerTokens]] | None = (
            tournaments, played, tokens)
        self._made: tuple[list[Digests], list[Digests]] = ([], [])

    def of(self, i: int, named: bool) -> Digests:
        """Tournament *i*'s digests, its players by name when *named*, else by FIDE id."""
        if self._from is not None:
            self._made = self._make(*self._from)
            self._from = None  # the sources are let go
        return self._made[named][i]

    @staticmethod
    def _make(tournaments: Sequence[Tournament], played: PlayedGames,
              tokens: Sequence[PlayerTokens]) -> tuple[list[Digests], list[Digests]]:
        rows = _Rows.of(tournaments, played)
        try:
            return (_round_digests(rows, [x.keyed for x in tokens]),
                    _round_digests(rows, [x.named for x in tokens]))
        except OverflowError:  # too many for one integer key: each tournament alone
            alone = [EventIdentity.of(t, x) for t, x in zip(tournaments, tokens, strict=True)]
            return [e.keyed.rounds for e in alone], [e.named.rounds for e in alone]


@dataclass(frozen=True, slots=True)
class _Rows:
    """The played games as lines of digests: the round's segment (tournament ×
    ``len(rounds)`` + the round's rank in ``rounds``), the players as positions among all the
    tournaments' players (one tournament's after the other's) and the score's rank in
    :data:`_SCORE_TEXT`."""

    segment: Array
    me: Array
    them: Array
    score: Array
    rounds: Array
    """The rounds played, sorted (with gaps when they are few)."""

    @classmethod
    def of(cls, tournaments: Sequence[Tournament], played: PlayedGames) -> _Rows:
        sizes = np.fromiter(map(len, (t.players for t in tournaments)), np.int64,
                            len(tournaments))
        first = (np.cumsum(sizes) - sizes)[played.tour]
        low, high = int(played.rounds.min(initial=0)), int(played.rounds.max(initial=0))
        if high - low < 1 << 16:
            values, rank = np.arange(low, high + 1), played.rounds - low
        else:
            values = sorted_unique(played.rounds)
            rank = np.searchsorted(values, played.rounds)
        return cls(segment=played.tour * len(values) + rank, me=played.me + first,
                   them=played.them + first, score=_SCORE_RANK[played.score_h], rounds=values)

    def blocks(self) -> Iterator[tuple[int, int]]:
        """The rows in blocks of whole tournaments, a new one begun every :data:`_BLOCK` rows
        (rows are by tournament), as (first, one past the last)."""
        tour = self.segment // len(self.rounds)
        starts = np.flatnonzero(np.append(True, tour[1:] != tour[:-1]))
        window = starts // _BLOCK
        cuts = starts[np.append(True, window[1:] != window[:-1])].tolist()
        return pairwise([*cuts, len(tour)])


_BLOCK: Final = 1 << 16
"""About this many rows are sorted, written and hashed at once (so that they stay in the
processor's cache)."""


def _round_digests(rows: _Rows, names: Sequence[Sequence[str]]) -> list[Digests]:
    """Each tournament's round digests (:attr:`importer.identity.Keyed.rounds`), its players
    named by *names* (per tournament, per position); OverflowError when the rows do not fit
    one integer key.

    A digest hashes the round's distinct lines 'player opponent score', sorted.  Names are
    ranked by their text; since a name (a FIDE id or a hex hash) holds no character that sorts
    before the space, lines sort as (player, opponent, score text) do: the rows are sorted as
    integers, and their lines written by numpy, padded with zero bytes and squeezed.
    """
    if not len(rows.segment):
        return [() for _ in names]
    each = {name: i for i, name in enumerate(dict.fromkeys(chain.from_iterable(names)))}
    table, rank = _ranked(np.array(list(each), dtype="S"))  # each name once
    code = rank[np.fromiter(map(each.__getitem__, chain.from_iterable(names)), np.int64,
                            sum(map(len, names)))]
    bits = max((len(table) - 1).bit_length(), 1)
    if int(rows.segment.max()).bit_length() + 2 * bits + 2 > 63:
        raise OverflowError("too many rounds and players for one key")
    key = code[rows.me]
    key <<= bits
    key |= code[rows.them]
    key <<= 2
    key |= rows.score
    key |= rows.segment << (2 * bits + 2)
    lines, mask = _Lines.of(table), (1 << bits) - 1
    segments: list[Array] = []
    digests: list[str] = []
    for lo, hi in rows.blocks():
        block = sorted_unique(key[lo:hi])  # each line once
        segment = block >> (2 * bits + 2)
        text, length = lines.write((block >> (bits + 2)) & mask, (block >> 2) & mask, block & 3)
        last = np.append(np.flatnonzero(segment[1:] != segment[:-1]), len(block) - 1)
        stops = np.cumsum(length)[last]
        texts = map(text.data.__getitem__,
                    map(slice, np.append(0, stops[:-1]).tolist(), (stops - 1).tolist()))
        digests += [h[:16] for h in map(_HEX, map(hashlib.sha1, texts))]  # no last newline
        segments.append(segment[last])
    tour, rank = np.divmod(np.concatenate(segments), len(rows.rounds))
    pairs = list(zip(rows.rounds[rank].tolist(), digests, strict=True))
    bounds = np.searchsorted(tour, np.arange(len(names) + 1)).tolist()
    return [tuple(pairs[a:b]) for a, b in pairwise(bounds)]


def _ranked(text: Array) -> tuple[Array, Array]:
    """The distinct texts of a bytes array, sorted, as rows of bytes (zero-padded to whole
    8-byte words), and each text's rank among them."""
    words = -(-text.itemsize // 8)
    padded = np.zeros((len(text), 8 * words), np.uint8)
    padded[:, :text.itemsize] = np.frombuffer(text.tobytes(), np.uint8).reshape(len(text), -1)
    big = padded.view(">u8")  # compared as numbers, the words sort as the texts do
    order = np.lexsort(big.T[::-1])
    ordered = big[order]
    new = np.append(True, (ordered[1:] != ordered[:-1]).any(axis=1))
    code = np.empty(len(text), np.int64)
    code[order] = np.cumsum(new) - 1
    return padded[order[new]], code


@dataclass(frozen=True, slots=True)
class _Lines:
    """Writes the lines 'player opponent score\\n' of rows: the player's name (*head*, in
    8-byte words), then ' opponent score\\n' (*tail*, per opponent × 3 + score), squeezed of
    the zero bytes that pad them."""

    head: Array
    tail: Array
    size: Array
    """Per name: its length."""
    tail_size: Array

    @classmethod
    def of(cls, table: Array) -> _Lines:
        """The writer of names given as zero-padded rows of bytes (whole 8-byte words)."""
        n, width = table.shape
        size = (table != 0).sum(axis=1)
        tail_width = 8 * -(-(width + 6) // 8)
        tail = np.zeros((n, len(_SCORE_TEXT), tail_width), np.uint8)
        tail[:, :, 0] = ord(" ")
        tail[:, :, 1:width + 1] = table[:, None, :]
        every = np.arange(n)[:, None]
        for s, words in enumerate(_SCORE_TEXT):
            end = b" " + words + b"\n"
            tail[every, s, size[:, None] + 1 + np.arange(len(end))] = np.frombuffer(end, np.uint8)
        return cls(head=table.view(np.uint64), tail=tail.view(np.uint64).reshape(
            n * len(_SCORE_TEXT), -1), size=size, tail_size=(
            size[:, None] + [len(w) + 3 for w in _SCORE_TEXT]).reshape(-1))

    def write(self, me: Array, them: Array, score: Array) -> tuple[Array, Array]:
        """The lines of the rows (players *me*, opponents *them* by name, score ranks), one
        after the other, and each line's length."""
        opponent = them * len(_SCORE_TEXT) + score
        grid = np.concatenate([self.head.take(me, axis=0), self.tail.take(opponent, axis=0)],
                              axis=1)
        flat = grid.view(np.uint8).reshape(-1)
        return flat[flat != 0], self.size[me] + self.tail_size[opponent]
