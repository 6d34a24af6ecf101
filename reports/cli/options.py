"""The options several commands share: ``--out/-o DIR`` and ``--force``, ``--k``,
``--system`` and ``--national-list``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from importer.formats.nationallist import SYSTEMS, read_national_list
from rating.systems import registry
from reports.errors import ReportError
from reports.settings import SettingError, parse_date, parse_k, parse_systems

if TYPE_CHECKING:
    from importer.formats.nationallist import NationalList

__all__ = ["SystemOption", "iso_date", "k_option", "national_list_option", "out_options",
           "read_national_lists", "system_option"]

F = TypeVar("F", bound=Callable[..., Any])


def _folder(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("an empty name: give a folder")
    return value


def iso_date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> Any:
    """A ``--date YYYY-MM-DD`` option's value as a date (None when not given)."""
    if value is None:
        return None

    try:
        return parse_date(value)
    except SettingError as exc:
        raise click.BadParameter(str(exc)) from None


def k_option(text: str) -> Callable[[F], F]:
    """Add ``--k K`` (1 to 100, default 20) with this help."""
    def checked(_ctx: click.Context, _param: click.Parameter, value: str | int) -> int:
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
    """The registered rating systems, comma-separated (the first the report's own, the
    others beside it)."""

    def __init__(self) -> None:
        super().__init__(registry.names())

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        if isinstance(value, tuple):
            return value
        try:
            return parse_systems(str(value))
        except SettingError as exc:
            self.fail(str(exc), param, ctx)


class SystemOption(click.Option):
    """``--system``, its help listing the registered systems when shown; ``several``: a
    comma-separated list."""

    def __init__(self, *args: Any, several: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.several = several

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        lead = ("Rating system, or several comma-separated (fide,dwz: the others shown "
                "beside the first)" if self.several else "Rating system")
        self.help = (lead + ": " + "; ".join(f"{r.name}, {r.help}"
                                             for r in registry.registrations()) + ".")
        return super().get_help_record(ctx)


def system_option(f: F) -> F:
    """Add ``--system NAME[,NAME…]``: registered rating systems, the report's own first
    (default fide), as a tuple of names."""
    return click.option("--system", cls=SystemOption, type=_SystemChoice(), default="fide",
                        show_default=True, metavar="SYSTEM[,SYSTEM…]")(f)


def national_list_option(f: F) -> F:
    """Add ``--national-list [SYSTEM=]FILE`` (repeatable): a national list file for a national
    system asked with ``--system`` (see :func:`read_national_lists`)."""
    return click.option(
        "--national-list", multiple=True, metavar="[SYSTEM=]FILE",
        help="A national rating list for a national --system (the DSB's DWZ export, the "
             "ECF's list): its ratings, index and birth years fill in what the source does "
             "not show (default: the list stored with 'fiderate list import --system'). "
             "SYSTEM= is needed only when several national systems are asked.")(f)


def read_national_lists(given: tuple[str, ...], systems: tuple[str, ...]
                        ) -> dict[str, NationalList]:
    """Each ``--national-list`` read, by system name (ReportError naming the option)."""

    readable = [s for s in systems if s in SYSTEMS]
    out: dict[str, NationalList] = {}
    for text in given:
        name, sep, path = text.partition("=")
        if not sep or name not in SYSTEMS:
            if len(readable) != 1:
                asked = " or ".join(readable) if readable else ", ".join(SYSTEMS)
                raise ReportError(f"--national-list {text}: say whose list it is "
                                  f"({asked}=FILE), and ask for that system with --system")
            name, path = readable[0], text
        elif name not in systems:
            raise ReportError(f"--national-list {text}: {name} is not among --system "
                              f"{','.join(systems)}")
        out[name] = read_national_list(path, name)
    return out
