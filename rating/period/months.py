"""Months of the rating lists: FIDE publishes one list a month, in force from its first day."""

from __future__ import annotations

from datetime import date

__all__ = ["list_in_force", "month_add"]


def month_add(month: date, n: int) -> date:
    """The first of the month *n* months after *month*'s."""
    m = month.year * 12 + month.month - 1 + n
    return date(m // 12, m % 12 + 1, 1)


def list_in_force(day: date) -> date:
    """The monthly list in force on *day*."""
    return day.replace(day=1)
