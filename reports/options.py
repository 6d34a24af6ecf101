"""The output options every writing command shares: ``--out/-o DIR`` and ``--force``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["iso_date", "k_option", "out_options", "system_option"]

F = TypeVar("F", bound=Callable[..., Any])


def _folder(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("an empty name: give a folder")
    return value


def iso_date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> Any:
    """A ``--date YYYY-MM-DD`` option's value as a date (None when not given)."""
    if value is None:
        return None
    from reports.settings import SettingError, parse_date  # lazy: --help reads no rating code

    try:
        return parse_date(value)
    except SettingError as exc:
        raise click.BadParameter(str(exc)) from None


def k_option(text: str) -> Callable[[F], F]:
    """Add ``--k K`` (1 to 100, default 20) with this help."""
    def checked(_ctx: click.Context, _param: click.Parameter, value: str | int) -> int:
        from reports.settings import SettingError, parse_k  # lazy, as above

        try:
            return parse_k(value)
        except SettingError as exc:
            raise click.BadParameter(str(exc)) from None
    return click.option("--k", "k_default", default=20, show_default=True, metavar="K",
                        callback=checked, help=text)


def out_options(help_text: str, *, required: bool = False) -> Callable[[F], F]:
    """Add ``--out/-o DIR`` (the folder written whole, never merged) and ``--force``."""
    def add(f: F) -> F:
        f = click.option("--force", is_flag=True,
                         help="Replace DIR even when it holds files fiderate did not write.")(f)
        return click.option("--out", "-o", required=required, type=click.Path(file_okay=False),
                            metavar="DIR", callback=_folder, help=help_text)(f)
    return add


class _SystemChoice(click.Choice[str]):
    """The registered rating systems, looked up only when an option is parsed or shown (so
    ``fiderate --help`` does not import the rating code)."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from rating import registry

        return tuple(registry.names())

    @choices.setter
    def choices(self, _value: object) -> None:
        pass

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> str:
        from reports.settings import SettingError, parse_system  # lazy, as above

        try:
            return parse_system(str(value))
        except SettingError as exc:
            self.fail(str(exc), param, ctx)


class _SystemOption(click.Option):
    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from rating import registry

        self.help = "Rating system: " + "; ".join(
            f"{r.name}, {r.help}" for r in registry.registrations()) + "."
        return super().get_help_record(ctx)


def system_option(f: F) -> F:
    """Add ``--system NAME``: one of the registered rating systems (default fide)."""
    return click.option("--system", cls=_SystemOption, type=_SystemChoice(), default="fide",
                        show_default=True)(f)
