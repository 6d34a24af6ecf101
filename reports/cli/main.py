"""The ``fiderate`` command line: a thin click layer over the library.

Each command lives in its own module (``reports/cli/*.py``), imported only when the command
runs (:data:`COMMANDS`), so ``fiderate --help`` starts in a few milliseconds.
Errors are translated here, once.  Bad input (the library's own error types, unreadable
files, bad options) is one line on stderr and exit code 2.  Anything else is a bug in
fiderate, not a fault of the input: one ``fiderate: internal error: …`` line and exit code 1.
``--debug`` shows the traceback instead of either line.
"""

from __future__ import annotations

import importlib
import sys

import click

from importer.parsing.text import printable
from reports.errors import USER_FACING, internal_error_line

COMMANDS: dict[str, tuple[str, str]] = {
    "calc": ("reports.cli.calc:calc",
             "Expected score, K and rating change for one game or several."),
    "import": ("reports.cli.import_:import_",
               "Read a tournament into normalized CSV files, JSON or TRF."),
    "report": ("reports.cli.report:report",
               "Rating changes round by round, as CSV, HTML or a table."),
    "period": ("reports.cli.period:period",
               "Rate several tournaments as one FIDE rating period (list month)."),
    "list": ("reports.cli.lists:list_",
             "Store rating lists (FIDE, DWZ, ECF) and show players on them."),
    "serve": ("reports.cli.serve:serve", "The web page: paste a chess-results link or drop files."),
}
"""Each command: where it lives (``module:attribute``) and its line in ``fiderate --help``
(click would cut the docstrings' first sentences to fit)."""


class _Commands(click.Group):
    """The commands of :data:`COMMANDS`, each module imported only when its command runs
    (``fiderate --help`` lists them from the table)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        where, summary = COMMANDS[cmd_name]
        module, _, name = where.partition(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        command.short_help = summary
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=_Commands, context_settings=CONTEXT_SETTINGS, invoke_without_command=True)
@click.version_option(package_name="fiderate", prog_name="fiderate")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """fiderate: chess tournament results → exact FIDE (and national) rating changes.

    \b
    Examples:
      fiderate calc --rating 1500 --opponent 1600 --result win --category junior
      fiderate import fixtures/sample_open.trf --out out/
      fiderate report https://chess-results.com/tnr1452107.aspx --player 12
      fiderate list import players_list.zip --month 2026-10
    """
    ctx.obj = {"debug": debug}
    if ctx.invoked_subcommand is None:  # bare `fiderate`: the help, not an error
        click.echo(ctx.get_help())


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning errors into one line on stderr.

    Bad input: ``fiderate: error: …`` and exit code 2.  An unexpected exception (a bug):
    ``fiderate: internal error: <type>: <message> (…)`` and exit code 1.  With ``--debug``
    both are re-raised, so Python prints the traceback.
    """
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="fiderate", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx and exc.ctx.parent else ""
        click.echo(f"fiderate: error: {exc.format_message()}{hint}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except USER_FACING as exc:
        if debug:
            raise
        click.echo(f"fiderate: error: {printable(str(exc))}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except Exception as exc:  # not bad input: a bug, reported as ours and not the input's
        if debug:
            raise
        click.echo(internal_error_line(exc), err=True)
        sys.exit(1)
