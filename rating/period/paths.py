"""Where fiderate keeps its files unless told otherwise (light: no numpy, no SQLite)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

__all__ = ["default_store"]


def default_store() -> Path:
    """The register in the user data directory (platformdirs)."""
    return Path(platformdirs.user_data_dir("fiderate", appauthor=False)) / "register.sqlite"
