"""Fixtures of the rating tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from norm_oracle import dp_table


@pytest.fixture(scope="session")
def dp(realdata: Path) -> dict[int, int]:
    """FIDE's table 8.1.1 (p → dp), read from the spec by the independent norm reading."""
    spec = realdata.parent / "spec" / "fide-rules.md"
    if not spec.is_file():
        pytest.skip(f"the spec {spec} (table 8.1.1) is absent")
    return dp_table(spec)
