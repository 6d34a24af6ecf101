"""Number formatting shared by every report: one place, so CSV, HTML and terminal agree."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from rating.numbers import round_half_up, to_cent

__all__ = ["average", "change", "expected", "first_few", "hundredths", "list_warnings", "points",
           "sentence", "signed", "text_table"]


def change(value: Decimal | None) -> str:
    """A rating change to two decimals, '-' only when negative: Decimal('-3.2') → '-3.20'."""
    if value is None:
        return ""
    return str(to_cent(value))


@lru_cache(maxsize=1 << 14)  # a month's CSV prints a few thousand values a million times
def hundredths(h: int) -> str:
    """Integer hundredths as a decimal: −320 → '-3.20', 5 → '0.05', 1000 → '10.00' (as
    ``str(to_decimal(h))``, in integer arithmetic: a month's CSV has millions)."""
    whole, part = divmod(abs(h), 100)
    return f"{'-' if h < 0 else ''}{whole}.{part:02d}"


def average(value: Fraction) -> str:
    """An exact non-negative average to the hundredth, .5 up: Fraction(13107, 7) → '1872.43'."""
    return hundredths(round_half_up(value * 100))


def signed(value: Decimal | int | None) -> str:
    """A change for people: '+25.60', '-14.40', '0.00'; whole numbers as '+3'."""
    if value is None:
        return ""
    text = str(value) if isinstance(value, int) else change(value)
    return "+" + text if value > 0 else text


def expected(value: Decimal | None) -> str:
    """An expected score as the system keeps it: '0.36' (FIDE), '0.849' (Elo)."""
    return "" if value is None else str(value)


def points(value: Decimal | float | None) -> str:
    """Points for people: 1, ½, 0, 4½."""
    if value is None:
        return ""
    whole = int(value)
    half = Decimal(str(value)) - whole
    if half == 0:
        return str(whole)
    return ("" if whole == 0 else str(whole)) + "½"


def sentence(words: str) -> str:
    """Words as the start of a sentence: only the first letter raised ('FIDE' stays)."""
    return words[:1].upper() + words[1:]


def text_table(rows: Sequence[Sequence[str]], left: Collection[int] = (0,)) -> list[str]:
    """Rows as aligned terminal lines: columns in *left* flush left, the others right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i in left else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]


def first_few(items: Sequence[str], limit: int, *, indent: str = "", what: str = "") -> list[str]:
    """The first ``limit`` items (each after ``indent``), then how many more there are."""
    more = len(items) - limit
    tail = [f"{indent}… and {more} more{' ' + what if what else ''}"] if more > 0 else []
    return [f"{indent}{item}" for item in items[:limit]] + tail


def list_warnings(warnings: Sequence[str], limit: int = 5) -> list[str]:
    """A rating list's warnings as notes: the first few, then how many more."""
    return first_few(warnings, limit, what="rating-list warnings")
