"""A period's players, read once: every tournament's players one after another, with the
columns every step reads (identity, games, the engine's entries)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, pairwise, repeat
from operator import add, attrgetter

from importer.identity import fide_id_texts, name_tokens
from importer.model import Player, Tournament

__all__ = ["Roster"]

_START, _FIDE_ID, _NAME = attrgetter("start_no"), attrgetter("fide_id"), attrgetter("name")


@dataclass(frozen=True, slots=True)
class Roster:
    """Tournaments' players one after another (their entries), each read once: the player, its
    tournament's position, its start number, its FIDE id ('' for none) and its name's
    :func:`importer.identity.name_token`."""

    players: list[Player]
    first: list[int]
    """Per tournament: its first entry (and one past the last)."""
    tour: list[int]
    start_nos: list[int]
    fids: list[str]
    name_tokens: list[str]
    numbered: bool
    """Every tournament numbers its players 1, 2, … n, in order (no start number twice)."""

    @classmethod
    def of(cls, tournaments: Sequence[Tournament]) -> Roster:
        """The entries of *tournaments*."""
        players = list(chain.from_iterable(t.players for t in tournaments))
        return cls._made([len(t.players) for t in tournaments], players,
                         list(map(_START, players)),
                         fide_id_texts.many(list(map(_FIDE_ID, players))),
                         name_tokens.many(list(map(_NAME, players))))

    def select(self, tours: Sequence[int]) -> Roster:
        """The entries of the tournaments at these positions, in this order (nothing read
        again)."""
        spans = [range(self.first[i], self.first[i + 1]) for i in tours]
        take = list(chain.from_iterable(spans))
        return self._made(list(map(len, spans)), list(map(self.players.__getitem__, take)),
                          list(map(self.start_nos.__getitem__, take)),
                          list(map(self.fids.__getitem__, take)),
                          list(map(self.name_tokens.__getitem__, take)))

    @classmethod
    def _made(cls, sizes: list[int], players: list[Player], nos: list[int], fids: list[str],
              tokens: list[str]) -> Roster:
        """The roster of tournaments of *sizes*, from their entries' columns."""
        return cls(players, [0, *accumulate(sizes)],
                   list(chain.from_iterable(map(repeat, range(len(sizes)), sizes))), nos, fids,
                   tokens, nos == list(chain.from_iterable(map(range, repeat(1),
                                                               map(add, sizes, repeat(1))))))

    def spans(self) -> Iterator[tuple[int, int]]:
        """Each tournament's entries, as (first, one past the last)."""
        return pairwise(self.first)
