"""A tournament rendered in one of the import command's output formats (csv, json, trf)."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any

from importer.model import Tournament
from importer.normalized import render_folder

__all__ = ["render_tournament", "to_json"]


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_json(t: Tournament) -> str:
    """The whole tournament (warnings and provenance included) as one JSON document."""
    doc = {
        "tournament": _plain(asdict(t.info)),
        "focus": t.focus,
        "players": [_plain(asdict(p)) for p in t.players],
        "results": [_plain(asdict(r)) for r in t.results],
        "games": [_plain(asdict(g)) for g in t.games],
        "warnings": list(t.warnings),
        "provenance": [_plain(asdict(p)) for p in t.provenance],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def render_tournament(t: Tournament, fmt: str) -> dict[str, str]:
    """File name → text for *fmt*: csv (four files), json or trf (one file)."""
    if fmt == "csv":
        return render_folder(t)
    if fmt == "json":
        return {"tournament.json": to_json(t)}
    from importer.trf import write_trf

    return {"tournament.trf": write_trf(t)}
