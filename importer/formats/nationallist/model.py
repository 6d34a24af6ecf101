"""The records of a national rating list: one :class:`NationalEntry` per player and list."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from importer.model import RatingList

__all__ = ["NationalEntry", "NationalList"]


@dataclass(frozen=True, slots=True, kw_only=True)
class NationalEntry:
    """One player's rating on one national list; what the list does not show is None/''."""

    system: str
    """The rating system's registered name: 'dwz', 'ecf'."""
    national_id: str
    """The federation's own id: the DSB's 'ZPS-member number' (e.g. '10401-123'), the ECF
    code (e.g. '123456A')."""
    name: str
    """'Surname, Given' as the list prints it."""
    rating_list: RatingList = RatingList.STANDARD
    rating: int | None = None
    """None: the player has no rating on this list (not zero)."""
    evaluations: int | None = None
    """How many times the rating has been evaluated (DWZ's index)."""
    birth_year: int | None = None
    fide_id: str = ""
    federation: str = ""
    """FIDE federation code where the list gives one ('GER', 'ENG')."""
    club: str = ""
    sex: str = ""
    """'M', 'F' or ''."""
    category: str = ""
    """The list's own category or code for the rating (ECF: its rating category letter;
    DSB: '' ), as printed."""
    last_evaluated: str = ""
    """The list's 'last evaluation' field as printed (DSB: year and week, e.g. '202514')."""


@dataclass(frozen=True, slots=True)
class NationalList:
    """A parsed national list: its entries, the date it was published (None: unknown), the
    file it was read from and the lines that could not be read."""

    system: str
    entries: tuple[NationalEntry, ...]
    published: dt.date | None = None
    source: str = ""
    warnings: tuple[str, ...] = field(default=())
