"""Atomic output: every file or folder the tool writes goes through here.

A writer fills a temporary sibling and renames it into place only when it has
finished, so a crash, a kill or an exception leaves the previous output intact
and never a half-written file.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

__all__ = ["atomic_dir", "atomic_file", "write_text_atomic"]


@contextmanager
def atomic_file(path: str | os.PathLike[str], mode: str = "w", *,
                encoding: str | None = "utf-8", newline: str | None = "") -> Iterator[IO[str]]:
    """Open a temporary file next to *path*; rename it onto *path* on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=encoding if "b" not in mode else None,
                       newline=newline if "b" not in mode else None) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write *text* to *path* atomically (UTF-8, no newline translation)."""
    with atomic_file(path) as fh:
        fh.write(text)


@contextmanager
def atomic_dir(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary folder; on success its files replace those of the same name in *path*.

    Files already in *path* that the writer did not produce are left alone.  On any
    exception the temporary folder is removed and *path* is untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        yield tmp
        if not target.exists():
            os.replace(tmp, target)
            return
        _merge_into(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _merge_into(src: Path, dst: Path) -> None:
    """Move every file of *src* into *dst* with one rename each (same file system)."""
    for item in sorted(src.rglob("*")):
        rel = item.relative_to(src)
        if item.is_dir():
            (dst / rel).mkdir(parents=True, exist_ok=True)
        else:
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(item, dst / rel)
