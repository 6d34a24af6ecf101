"""The rating package's errors."""

from __future__ import annotations

__all__ = ["RatingError"]


class RatingError(ValueError):
    """Inputs the rating rules cannot work with (an impossible rating, K of 0, …)."""
