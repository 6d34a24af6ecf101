"""fiderate's reports (CSV, HTML, terminal) and the command-line interface.

Library use::

    import importer, reports
    reports.write_report(importer.load("fixtures/sample_open.trf"), "report")

Every name below is imported on first use (PEP 562): ``fiderate --help`` loads none of
them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reports.errors import ReportError
    from reports.period_report import render_period_files, write_period_files
    from reports.report import build_report, render_report, save_report, write_report
    from reports.view import Report

__all__ = [
    "Report",
    "ReportError",
    "build_report",
    "render_period_files",
    "render_report",
    "save_report",
    "write_period_files",
    "write_report",
]

_FROM = {
    "reports.errors": ("ReportError",),
    "reports.period_report": ("render_period_files", "write_period_files"),
    "reports.report": ("build_report", "render_report", "save_report", "write_report"),
    "reports.view": ("Report",),
}
_WHERE = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
