"""Notes for people: one note about many players names the first few, then counts the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["NAMES_SHOWN", "grouped"]

NAMES_SHOWN: Final = 12
"""How many players a grouped note names before '… and N more'."""


def grouped(head: str, names: Sequence[str]) -> str:
    """One note about many players: *head*, then the first names.

    >>> grouped("2 players unrated", ["Ann (No. 1 in a)", "Bo (No. 2 in a)"])
    '2 players unrated: Ann (No. 1 in a); Bo (No. 2 in a)'
    """
    shown = "; ".join(names[:NAMES_SHOWN])
    more = f"; and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
    return f"{head}: {shown}{more}"
