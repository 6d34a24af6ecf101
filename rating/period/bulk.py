"""Records made many at once: a period makes tens of thousands (its people, its players' rows,
its pooled games), so each field is set on every record in one pass, without keywords."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import fields
from itertools import repeat
from typing import Any, TypeVar

__all__ = ["records"]

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
