"""Notes for people: one note about many players names the first few, then counts the rest, and
remembers whom it is about (so that each player's page shows the notes that concern them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = ["NAMES_SHOWN", "Note", "full_stop", "grouped", "plural"]

NAMES_SHOWN: Final = 12
"""How many players a grouped note names before '… and N more'."""


def plural(n: int, word: str, many: str = "") -> str:
    """'1 bye', '3 byes', '2 absences' (*many* when the plural is not word + 's')."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def full_stop(text: str) -> str:
    """A note as people read it: a sentence that ends with a full stop (one place: every note
    of a report and of a month is made through it).

    >>> full_stop("rated as standard"), full_stop("done."), full_stop("why?")
    ('rated as standard.', 'done.', 'why?')
    """
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."


class Note(str):
    """A note's text (it is a ``str``), and the keys of the players it is about."""

    players: frozenset[str]

    def __new__(cls, text: str, players: Iterable[str] = ()) -> Note:
        note = super().__new__(cls, full_stop(text))
        note.players = frozenset(players)
        return note


def grouped(head: str, names: Sequence[str], players: Iterable[str] = ()) -> Note:
    """One note about many players: *head*, then the first names; *players* are their keys.

    >>> grouped("2 players unrated", ["Ann (No. 1 in a)", "Bo (No. 2 in a)"])
    '2 players unrated: Ann (No. 1 in a); Bo (No. 2 in a).'
    """
    shown = "; ".join(names[:NAMES_SHOWN])
    more = f"; and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
    return Note(f"{head}: {shown}{more}", players)
