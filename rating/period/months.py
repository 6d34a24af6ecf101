"""Months of the rating lists: FIDE publishes one list a month, in force from its first day."""

from __future__ import annotations

import re
from datetime import date

__all__ = ["list_in_force", "month_add", "parse_month"]


def month_add(month: date, n: int) -> date:
    """The first of the month *n* months after *month*'s."""
    m = month.year * 12 + month.month - 1 + n
    return date(m // 12, m % 12 + 1, 1)


def list_in_force(day: date) -> date:
    """The monthly list in force on *day*."""
    return day.replace(day=1)


_MONTH_TEXT = re.compile(r"(\d{4})-(\d{2})")


def parse_month(text: str) -> date | None:
    """``YYYY-MM`` (blanks around allowed) as the first day of that month; None if it is not
    one (month 13, year 0000, other shapes)."""
    m = _MONTH_TEXT.fullmatch(text.strip())
    if not m or not 1 <= int(m.group(2)) <= 12 or int(m.group(1)) < 1:
        return None
    return date(int(m.group(1)), int(m.group(2)), 1)
