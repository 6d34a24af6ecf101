"""A national list file read by the parser of the system asked for."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from importer.errors import InputError
from importer.formats.nationallist.dsb import read_dsb_list
from importer.formats.nationallist.ecf import read_ecf_list
from importer.formats.nationallist.model import NationalList

__all__ = ["MAX_LIST_BYTES", "SYSTEMS", "read_national_list"]

MAX_LIST_BYTES = 512 * 1024 * 1024
"""A national list file larger than this is refused (the DSB's whole export is ~10 MB)."""


SYSTEMS: dict[str, Callable[..., NationalList]] = {"dwz": read_dsb_list, "ecf": read_ecf_list}
"""The national systems whose lists can be read, by the rating system's name."""


def read_national_list(path: str | os.PathLike[str], system: str) -> NationalList:
    """Read *path* as *system*'s national list (InputError when it cannot be)."""
    name = Path(path).name
    reader = SYSTEMS.get(system)
    if reader is None:
        raise InputError(f"no national list is read for {system!r}: use "
                         f"{' or '.join(SYSTEMS)}", source=name)
    try:
        size = os.path.getsize(path)
        if size > MAX_LIST_BYTES:
            raise InputError(f"{size:,} bytes: larger than any national list "
                             f"({MAX_LIST_BYTES:,} bytes at most)", source=name)
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", source=name) from None
    return reader(data, source=name)
