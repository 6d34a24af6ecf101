"""One entry point: a path, URL or tournament number → :class:`Tournament` (detected by content)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from importer.errors import InputError, UnknownFormat
from importer.model import Tournament
from importer.normalized import is_normalized_folder, read_folder

if TYPE_CHECKING:
    import requests

__all__ = ["load"]


def load(source: str | os.PathLike[str], *, session: requests.Session | None = None) -> Tournament:
    """Import one tournament from a path (file or normalized folder), a URL or a number."""
    path = os.fspath(source)
    if is_normalized_folder(path):
        return read_folder(path)
    if not os.path.exists(path):
        raise InputError("no such file or folder", source=path)
    raise UnknownFormat("not a format fiderate reads", source=path)
