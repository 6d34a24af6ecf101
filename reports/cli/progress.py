"""Progress on stderr: a bar that shows only once work has taken a while, and clears itself."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["PROGRESS_DELAY", "Progress", "progress", "progress_bar"]


class Progress:
    """Counts each file read or page fetched on a progress bar on stderr, or shows nothing
    (quiet, or stderr is not a terminal)."""

    def __init__(self, label: str, enabled: bool) -> None:
        self.label, self.enabled, self.count = label, enabled, 0
        self._bar: Any = None

    def __call__(self, what: str) -> None:
        self.count += 1
        if self.enabled:
            if self._bar is None:
                self._bar = progress_bar(self.label, unit=" source")
            self._bar.set_postfix_str(what[-60:], refresh=False)
            self._bar.update(1)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


PROGRESS_DELAY = 1.0
"""Seconds of work before a progress bar shows (quick work shows none)."""


def progress_bar(label: str, *, total: int | None = None, unit: str = "it",
                 scale: bool = False) -> Any:
    """A tqdm bar on stderr, shown once the work has taken PROGRESS_DELAY; it clears itself."""
    from tqdm import tqdm  # lazy: 25 ms, only when a bar is shown (never for list show)

    return tqdm(total=total, desc=label, unit=unit, unit_scale=scale, delay=PROGRESS_DELAY,
                leave=False, file=sys.stderr, dynamic_ncols=True, mininterval=0.2)


@contextmanager
def progress(label: str, *, quiet: bool) -> Iterator[Progress]:
    """A progress bar counting sources on stderr; off when quiet or stderr is not a terminal."""
    bar = Progress(label, enabled=not quiet and sys.stderr.isatty())
    try:
        yield bar
    finally:
        bar.close()
