"""National rating lists (the DSB's DWZ export, the ECF's rating list) → typed entries.

Each format is one pure parser (bytes in, :class:`NationalList` out), in its own module:
:mod:`~importer.nationallist.dsb` and :mod:`~importer.nationallist.ecf`.  Unreadable input
raises :class:`importer.errors.InputError` naming the file and line; a line that cannot be
read is skipped and reported in :attr:`NationalList.warnings`.
"""

from __future__ import annotations

from importer.nationallist.model import NationalEntry, NationalList

__all__ = ["NationalEntry", "NationalList"]
