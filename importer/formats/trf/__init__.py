"""FIDE Tournament Report Files: the reader (TRF16, TRF26, TRF(x)), the writer (TRF-2026 or TRF16),
and the dates and time controls they write."""

from __future__ import annotations

from importer.formats.trf.dates import classify_time_control, parse_date
from importer.formats.trf.reader import decode_trf, looks_like_trf, parse_trf
from importer.formats.trf.writer import write_trf

__all__ = ["classify_time_control", "decode_trf", "looks_like_trf", "parse_date", "parse_trf",
           "write_trf"]
