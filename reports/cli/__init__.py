"""The ``fiderate`` command line: one thin module per command, commands loaded only when run (so
``fiderate --help`` is fast), the options they share, and errors turned into one line.
"""

from reports.cli.main import cli, main

__all__ = ["cli", "main"]
