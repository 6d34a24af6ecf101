"""National rating lists (the DSB's DWZ export, the ECF's rating list) → typed entries.

Each format is one pure parser (bytes in, :class:`NationalList` out), in its own module:
:mod:`~importer.formats.nationallist.dsb` and :mod:`~importer.formats.nationallist.ecf`;
:func:`read_national_list` (:mod:`~importer.formats.nationallist.reader`) reads a file and
hands it to the parser of the system asked for.
Unreadable input raises :class:`importer.errors.InputError` naming the file and line; a
line that cannot be read is skipped and reported in :attr:`NationalList.warnings`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from importer.lazy import lazy_exports

if TYPE_CHECKING:
    from importer.formats.nationallist.model import NationalEntry, NationalList
    from importer.formats.nationallist.reader import MAX_LIST_BYTES, SYSTEMS, read_national_list

__all__ = ["MAX_LIST_BYTES", "SYSTEMS", "NationalEntry", "NationalList", "read_national_list"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "importer.formats.nationallist.model": ("NationalEntry", "NationalList"),
    "importer.formats.nationallist.reader": ("MAX_LIST_BYTES", "SYSTEMS", "read_national_list")})
