"""Atomic output: every file or folder the tool writes goes through here.

A writer fills a temporary sibling and renames it into place only when it has
finished, so a crash, a kill or an exception leaves the previous output intact
and never a half-written file.  An output folder is exactly one run: it is swapped in
whole, and a folder holding files fiderate did not write is refused unless forced.
Permissions follow the umask (0755 folders, 0644 files under umask 022), so a web
server can serve what was written.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from importer.errors import OutputError

__all__ = ["MANIFEST", "StagedDir", "atomic_dir", "atomic_file", "check_output_folder",
           "finish_swap", "manifest_text", "recover_folder", "write_folder_atomic",
           "write_text_atomic"]

MANIFEST = ".fiderate"
"""The file in an output folder listing what fiderate wrote there (one path a line)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write *text* to *path* atomically (UTF-8, no newline translation)."""
    with atomic_file(path) as fh:
        fh.write(text)


class StagedDir:
    """An output folder being prepared beside its target, to replace it whole.

    :meth:`swap` moves the target aside (``.NAME.old``), renames the staged folder onto it and
    removes the old one; a kill at any moment leaves the target, or its ``.NAME.old``, or the
    complete staged folder, from which :func:`recover_folder` and :func:`finish_swap` restore
    one whole folder.  Nothing is ever deleted that is not a copy.
    """

    def __init__(self, target: Path, path: Path) -> None:
        self.target = target
        self.path = path

    @classmethod
    def beside(cls, path: str | os.PathLike[str], *, force: bool = False) -> StagedDir:
        """A new staged folder for *path* (checked as :func:`check_output_folder` does, after
        recovering what an earlier kill left)."""
        target = check_output_folder(recover_folder(path), force=force)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp",
                                        dir=target.parent))
        except OSError as exc:
            raise OutputError(f"{target}: cannot write here ({exc.strerror or exc})") from None
        return cls(target, tmp)

    def finish(self) -> None:
        """Write the manifest, set the permissions and flush everything to disk."""
        _finish(self.path)

    def swap(self) -> None:
        """Replace the target with the staged folder."""
        finish_swap(self.target, self.path)

    def discard(self) -> None:
        """Remove the staged folder (the target stays as it was)."""
        shutil.rmtree(self.path, ignore_errors=True)


def _old(target: Path) -> Path:
    return target.parent / f".{target.name}.old"


def finish_swap(target: str | os.PathLike[str], staged: str | os.PathLike[str]) -> None:
    """Bring a swap of *staged* onto *target* to its end, from wherever a kill stopped it."""
    target, staged = Path(target), Path(staged)
    old = _old(target)
    if staged.is_dir():
        if target.exists():
            if old.exists():  # an old copy from an earlier swap that had finished
                shutil.rmtree(old)
            os.replace(target, old)
            _sync_dir(target.parent)
        os.replace(staged, target)
        _sync_dir(target.parent)
    shutil.rmtree(old, ignore_errors=True)


def recover_folder(path: str | os.PathLike[str]) -> Path:
    """What a kill left beside *path*: a missing folder whose ``.NAME.old`` is there is put
    back; staged folders of runs that never finished (``.NAME.*.tmp``) are removed.  Returns
    *path*."""
    target = Path(path)
    old = _old(target)
    if not target.exists() and old.is_dir():
        os.replace(old, target)
        _sync_dir(target.parent)
    if target.parent.is_dir():
        for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
    return target


def _sync_dir(folder: Path) -> None:
    """Flush a folder's entries (a rename inside it) to disk, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_dir(path: str | os.PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Yield a temporary folder; on success it replaces *path* whole.

    An existing *path* must be empty or hold only what an earlier fiderate run wrote (its
    manifest says so); otherwise OutputError, unless *force*.  On any exception the
    temporary folder is removed and *path* is untouched; what an earlier kill left is
    recovered first (:func:`recover_folder`).
    """
    staged = StagedDir.beside(path, force=force)
    try:
        yield staged.path
        staged.finish()
        staged.swap()
    finally:
        staged.discard()


def check_output_folder(path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Check before any work that *path* can be written as an output folder (OutputError)."""
    if not str(path).strip():
        raise OutputError("the output folder is empty: give a folder name")
    target = Path(path)
    if target.exists():
        if not force:
            _check_ours(target)
        return target
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    try:  # a real try: permission bits do not tell (root, read-only mounts, /proc)
        os.rmdir(tempfile.mkdtemp(prefix=".fiderate-check.", dir=parent))
    except OSError as exc:
        raise OutputError(f"{target}: cannot write here ({exc.strerror or exc})") from None
    return target


def write_folder_atomic(path: str | os.PathLike[str], files: Mapping[str, str], *,
                        force: bool = False) -> Path:
    """Write *files* (name → text, UTF-8, line ends as given) as the folder *path*, swapped
    in whole (see :func:`atomic_dir`)."""
    with atomic_dir(path, force=force) as tmp:
        for name, text in files.items():
            (tmp / name).write_text(text, encoding="utf-8", newline="")
    return Path(path)


def _check_ours(target: Path) -> None:
    """Refuse to replace a folder holding files fiderate did not write."""
    if not target.is_dir():
        raise OutputError(f"{target}: exists and is not a folder")
    listed = set((target / MANIFEST).read_text(encoding="utf-8").splitlines()) if (
        target / MANIFEST).is_file() else set()
    foreign = sorted(str(p.relative_to(target)) for p in target.rglob("*")
                     if p.is_file() and p.name != MANIFEST
                     and str(p.relative_to(target)) not in listed)
    if foreign:
        more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        raise OutputError(f"{target}: holds files fiderate did not write ({', '.join(foreign[:3])}"
                          f"{more}); choose another folder, or --force to replace it")


def manifest_text(files: list[str]) -> str:
    """The manifest of an output folder holding *files* (relative paths): one a line, sorted."""
    return "".join(f + "\n" for f in sorted(files))


def _finish(tmp: Path) -> None:
    """Write the manifest, give folder and files the umask's permissions, and flush them to
    disk (so that a swap never brings in a folder whose files are still in memory)."""
    files = [str(p.relative_to(tmp)) for p in tmp.rglob("*") if p.is_file()]
    (tmp / MANIFEST).write_text(manifest_text(files), encoding="utf-8")
    mask = _umask()
    for p in [tmp, *tmp.rglob("*")]:
        os.chmod(p, (0o777 if p.is_dir() else 0o666) & ~mask)
    if hasattr(os, "sync"):
        os.sync()  # one flush for the thousands of files of a month's pages
    else:  # pragma: no cover - Windows
        for p in tmp.rglob("*"):
            if p.is_file():
                with p.open("rb+") as fh:
                    os.fsync(fh.fileno())
