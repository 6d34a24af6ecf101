"""One player on one FIDE list (:class:`ListEntry`), light: looking players up in the register
needs neither numpy nor the list's reader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["LISTS", "ListEntry"]

LISTS: Final = ("standard", "rapid", "blitz")
_PREFIX: Final = {"standard": "std", "rapid": "rpd", "blitz": "blz"}


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One player on one rating list. Ratings/games/K are None when absent or unrated."""

    fide_id: str
    name: str
    federation: str
    sex: str
    title: str
    birth_year: int | None
    flags: str
    w_title: str = ""
    o_title: str = ""
    foa_title: str = ""
    std_rating: int | None = None
    std_games: int | None = None
    std_k: int | None = None
    rpd_rating: int | None = None
    rpd_games: int | None = None
    rpd_k: int | None = None
    blz_rating: int | None = None
    blz_games: int | None = None
    blz_k: int | None = None

    @property
    def inactive(self) -> bool:
        """Flag ``i``: inactive on this list."""
        return "i" in self.flags

    @property
    def woman(self) -> bool:
        """Flag ``w``."""
        return "w" in self.flags

    def rating(self, rating_list: str) -> int | None:
        """The rating on 'standard', 'rapid' or 'blitz' (a :class:`RatingList` works too)."""
        return self._get(rating_list, "rating")

    def games(self, rating_list: str) -> int | None:
        """Games rated in the period that produced this list."""
        return self._get(rating_list, "games")

    def k(self, rating_list: str) -> int | None:
        """The K factor published on this list (valid at this list date)."""
        return self._get(rating_list, "k")

    def _get(self, rating_list: str, what: str) -> int | None:
        value: int | None = getattr(self, f"{_PREFIX[str(rating_list)]}_{what}")
        return value
