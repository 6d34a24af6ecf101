"""The ``fiderate`` command line: a thin click layer over the library.

Each command lives in its own module (``reports/cmd_*.py``) and imports what it
needs inside the command, so ``fiderate --help`` starts in a few milliseconds.
Errors are translated here, once.  Bad input (the library's own error types, unreadable
files, bad options) is one line on stderr and exit code 2.  Anything else is a bug in
fiderate, not a fault of the input: one ``fiderate: internal error: …`` line and exit code 1.
``--debug`` shows the traceback instead of either line.
"""

from __future__ import annotations

import sys

import click

from importer.parsing.text import printable
from reports.cli.calc import calc
from reports.cli.import_ import import_
from reports.cli.lists import list_
from reports.cli.period import period
from reports.cli.report import report
from reports.cli.serve import serve

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT_SETTINGS, invoke_without_command=True)
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


SUMMARIES = {
    calc: "Expected score, K and rating change for one game or several.",
    import_: "Read a tournament into normalized CSV files, JSON or TRF.",
    report: "Rating changes round by round, as CSV, HTML or a table.",
    period: "Rate several tournaments as one FIDE rating period (list month).",
    list_: "Store FIDE rating lists in the register and show players on them.",
    serve: "The web page: paste a chess-results link or drop files.",
}
"""Each command's line in ``fiderate --help`` (click would cut the docstrings' first
sentences to fit)."""

for command, summary in SUMMARIES.items():
    command.short_help = summary
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning errors into one line on stderr.

    Bad input: ``fiderate: error: …`` and exit code 2.  An unexpected exception (a bug):
    ``fiderate: internal error: <type>: <message> (…)`` and exit code 1.  With ``--debug``
    both are re-raised, so Python prints the traceback.
    """
    from reports.errors import internal_error_line, user_facing_errors

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
    except user_facing_errors() as exc:
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
