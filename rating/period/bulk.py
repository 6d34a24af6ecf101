"""Many objects at once: a period makes tens of thousands of records (its people, its players'
rows, its pooled games), each field set on every record in one pass, without keywords
(:func:`records`), and millions of small objects with the cycle collector paused
(:func:`no_cycle_collection`)."""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields
from itertools import repeat
from typing import Any, TypeVar

__all__ = ["no_cycle_collection", "records"]

_R = TypeVar("_R")


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
            gc.enable()
