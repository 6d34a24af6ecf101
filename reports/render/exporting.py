"""A tournament rendered in one of the import command's output formats (csv, json, trf, trf16)."""

from __future__ import annotations

from importer import formats
from importer.formats.jsonfile import to_json
from importer.formats.normalized import render_folder
from importer.model import Tournament

__all__ = ["render_tournament"]


def render_tournament(t: Tournament, fmt: str) -> dict[str, str]:
    """File name → text for *fmt*: csv (five files), json, trf (TRF-2026) or trf16 (one file)."""
    if fmt == "csv":
        return render_folder(t)
    if fmt == "json":
        return {"tournament.json": to_json(t)}
    return {"tournament.trf": formats.trf.write_trf(t, version="TRF16" if fmt == "trf16" else "TRF26")}
