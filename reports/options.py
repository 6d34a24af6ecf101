"""The output options every writing command shares: ``--out/-o DIR`` and ``--force``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["out_options"]

F = TypeVar("F", bound=Callable[..., Any])


def _folder(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("an empty name: give a folder")
    return value


def out_options(help_text: str, *, required: bool = False) -> Callable[[F], F]:
    """Add ``--out/-o DIR`` (the folder written whole, never merged) and ``--force``."""
    def add(f: F) -> F:
        f = click.option("--force", is_flag=True,
                         help="Replace DIR even when it holds files fiderate did not write.")(f)
        return click.option("--out", "-o", required=required, type=click.Path(file_okay=False),
                            metavar="DIR", callback=_folder, help=help_text)(f)
    return add
