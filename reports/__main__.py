"""``python -m reports`` runs the fiderate CLI."""

from reports.cli import main

main()
