"""A rating officer's month: the players identified across events and months, the period's games
rated as one long table, the records of the result, the register that keeps lists and rated
months, and the run that walks them once in order.

Its names are imported on first use (PEP 562): the register and the engine bring numpy
(~100 ms), which a report without a register never needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from rating.period.register import Register, list_for

__all__ = ["Register", "list_for"]

__getattr__, __dir__ = lazy_exports(__name__, {"rating.period.register": ("Register", "list_for")})
