"""Numbers as every reader takes them from its cells: whole numbers of any size Python reads,
and ratings, which must lie in 0 to 3500 (0 is unrated)."""

from __future__ import annotations

import sys

from importer.errors import InputError

__all__ = ["MAX_RATING", "checked_rating", "whole_number"]

MAX_RATING = 3500
"""The highest rating a reader accepts, FIDE's and national alike (no one has reached 2900)."""


_SHORT = 640
"""Digits fewer than Python's smallest limit on converting them (``sys.int_info``: 640)."""


def whole_number(text: str) -> int | None:
    """ASCII digits as an int, however large ('18446744073709551616' too); None for anything
    else, and for more digits than Python converts (``sys.get_int_max_str_digits()``, 4300 by
    default), which no tournament file holds: the caller refuses it as it refuses a non-number."""
    if not (text.isascii() and text.isdigit()):
        return None
    if len(text) > _SHORT:  # only a long one can be past the limit (which may change)
        limit = sys.get_int_max_str_digits()
        if 0 < limit < len(text):
            return None
    return int(text)


def checked_rating(rating: int | None, start_no: int | None, name: str = "", *,
                   national: bool = False) -> int | None:
    """A rating as a reader read it, checked: 0 (unrated) → None; InputError naming the player
    when it is outside 0 to :data:`MAX_RATING` (the reader adds the file and line or row).

    Every reader's ratings go through here, so the refusal reads the same everywhere:
    'player 3 (Adams, Michael): rating 25000 is not a rating (expected 0 to 3500)'.
    """
    if not rating:
        return None
    if 0 < rating <= MAX_RATING:
        return rating
    who = "player" if start_no is None else f"player {start_no}"
    kind = "national rating" if national else "rating"
    raise InputError(f"{who}{f' ({name})' if name else ''}: {kind} {rating} is not a rating "
                     f"(expected 0 to {MAX_RATING})")
