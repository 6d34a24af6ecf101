"""The library to call: each package exports its API with ``__all__``, every name resolves,
and the names load on first use (``import rating, reports`` loads neither pandas nor numpy)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

import importer
import rating
import reports

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"importer": importer, "rating": rating, "reports": reports}

PROMISED = {
    "importer": {"load", "load_many", "load_events", "Tournament", "Player", "RoundResult",
                 "Game", "TournamentInfo", "RatingList", "Status", "Colour"},
    "rating": {"rate_tournament", "run_period", "rate_period", "FideSystem", "EloSystem",
               "RatingSystem", "registry", "rules_for", "Register", "PeriodResult",
               "PeriodPlayer", "PeriodGame", "PeriodGames", "PeriodStatus", "PeriodTournament",
               "Standing", "PeriodSource", "TournamentRating", "PlayerRating", "frames"},
    "reports": {"build_report", "write_report", "render_report", "write_period_files"},
}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_promised_names_are_exported(name):
    exported = PACKAGES[name].__all__
    assert PROMISED[name] <= set(exported)
    assert len(set(exported)) == len(exported)


def test_every_exported_name_resolves_in_a_fresh_interpreter():
    code = ("import sys, importer, rating, reports\n"
            "assert not {'pandas', 'numpy'} & set(sys.modules), 'imported eagerly'\n"
            "for m in (importer, rating, reports):\n"
            "    for n in m.__all__:\n"
            "        assert getattr(m, n) is not None, (m.__name__, n)\n"
            "print(rating.__all__, reports.__all__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "'rate_tournament'" in out.stdout and "'write_report'" in out.stdout


def _type_checking_imports(module: ModuleType) -> set[str]:
    """The names the package's ``if TYPE_CHECKING:`` block imports (what mypy sees)."""
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.Import | ast.ImportFrom):
                    names |= {a.asname or a.name for a in stmt.names}
    return names


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_lazy_names_are_the_modules_own_and_typed(name):
    """Each lazy name is the very object of the module it comes from, declared for the type
    checker too, so that ``__all__``, the lazy table and the typed imports never drift."""
    package = PACKAGES[name]
    lazy = {n: m for m, ns in package._FROM.items() for n in ns}
    modules = getattr(package, "_MODULES", {})
    eager = set(package.__all__) - set(lazy) - set(modules)
    assert set(package.__all__) == eager | set(lazy) | set(modules)
    assert _type_checking_imports(package) == set(lazy) | set(modules)
    for n, module in lazy.items():
        assert getattr(package, n) is getattr(importlib.import_module(module), n)
    for n, module in modules.items():
        assert getattr(package, n) is importlib.import_module(module)
    for n in eager:
        assert n in vars(package)


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_unknown_names_are_attribute_errors_and_dir_lists_the_api(name):
    package = PACKAGES[name]
    with pytest.raises(AttributeError, match=f"module '{name}' has no attribute 'nope'"):
        package.nope  # noqa: B018
    assert not hasattr(package, "nope")
    assert set(package.__all__) <= set(dir(package))


def test_star_import_gives_the_api():
    namespace: dict[str, object] = {}
    exec("from rating import *\nfrom reports import *\nfrom importer import *", namespace)
    assert {"rate_tournament", "write_report", "load_events", "registry"} <= set(namespace)


def test_the_registry_is_the_rating_system_registry():
    assert "fide" in rating.registry.names()
    built = rating.registry.build("elo", rating.registry.Settings(on=date(2026, 3, 1)))
    assert isinstance(built, rating.EloSystem)


def test_a_submodule_named_like_an_export_does_not_shadow_it():
    """``rating.period.register`` (the module of ``Register``) is imported everywhere; the
    registry's ``register`` function is reached as ``rating.registry.register``."""
    import rating.period.register as module

    assert rating.Register is module.Register
    assert callable(rating.registry.register)
