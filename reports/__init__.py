"""fiderate's reports (CSV, HTML, terminal) and the command-line interface."""

__owner__ = "fiderate"
