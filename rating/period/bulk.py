"""Many objects at once: a period makes tens of thousands of records (its people, its players'
rows, its pooled games), each field set on every record in one pass, without keywords
(:func:`records`), and millions of small objects with the cycle collector paused
(:func:`no_cycle_collection`)."""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields
from itertools import repeat
from typing import Any, TypeVar, overload

__all__ = ["LazyMapping", "LazyRecords", "no_cycle_collection", "records"]

_R = TypeVar("_R")
_K = TypeVar("_K")
_V = TypeVar("_V")


def records(cls: type[_R], columns: Mapping[str, Sequence[Any]], count: int) -> list[_R]:
    """*count* records of *cls*, a frozen, slotted dataclass whose fields take their values as
    they are, from *columns* (each field → its values, one per record): each slot filled
    directly, field by field, as :func:`importer.model.quick_init` fills one record."""
    made: list[_R] = list(map(object.__new__, repeat(cls, count)))
    for f in fields(cls):  # type: ignore[arg-type]
        values = columns[f.name]
        if len(values) != count:
            raise ValueError(f"{cls.__name__}.{f.name}: {len(values)} values for {count} records")
        deque(map(getattr(cls, f.name).__set__, made, values), maxlen=0)
    return made


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused (a context or a decorator): a month makes millions of
    small objects, none in a cycle (reference counting frees them), and the collector's runs
    over a heap of a million games cost a third of rating the month or preparing its pages."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():  # nobody else froze objects (a forking server may)
                # What was made meanwhile and lives on (the month's result) goes to the oldest
                # generation as it is: the young collection that enabling sets off would only
                # walk all of it to find it alive.
                gc.freeze()
                gc.unfreeze()
            gc.enable()


class LazyRecords(Sequence[_R]):
    """Records made when first read, all at once (a period holds tens of thousands, which many
    callers never read): *make* makes the *count* of them."""

    def __init__(self, count: int, make: Callable[[], list[_R]]) -> None:
        self._count = count
        self._make: Callable[[], list[_R]] | None = make
        self._made: list[_R] = []

    def _all(self) -> list[_R]:
        if self._make is not None:
            self._made, self._make = self._make(), None
        return self._made

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> _R: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[_R]: ...

    def __getitem__(self, i: int | slice) -> _R | Sequence[_R]:
        return self._all()[i]

    def __iter__(self) -> Iterator[_R]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self._all()))


class LazyMapping(Mapping[_K, _V]):
    """A dict made when first read, by *make* (a period holds thousands, which many callers
    never read)."""

    def __init__(self, make: Callable[[], dict[_K, _V]]) -> None:
        self._make: Callable[[], dict[_K, _V]] | None = make
        self._made: dict[_K, _V] = {}

    def _all(self) -> dict[_K, _V]:
        if self._make is not None:
            self._made, self._make = self._make(), None
        return self._made

    def __getitem__(self, key: _K) -> _V:
        return self._all()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return repr(self._all())
