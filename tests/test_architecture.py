"""Structure checks: the import direction importer ← rating ← reports, and the packaging:
every third-party import is declared, and every declared dependency is imported."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"importer": {"rating", "reports"}, "rating": {"reports"}}
OURS = {"importer", "rating", "reports"}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package):
    offenders = [f"{path.relative_to(ROOT)} imports {bad}"
                 for path in sorted((ROOT / package).rglob("*.py"))
                 for bad in sorted(_imported_packages(path) & FORBIDDEN[package])]
    assert offenders == []


def test_the_direction_check_can_fail(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("from reports.cli import main\nimport rating.fide\n")
    assert _imported_packages(bad) == {"reports", "rating"}


IMPORT_NAMES = {"beautifulsoup4": {"bs4"}, "pyyaml": {"yaml"}, "python-dateutil": {"dateutil"},
                "pillow": {"PIL"}, "scikit-learn": {"sklearn"}, "python-multipart": {"python_multipart"}}
"""Distributions whose import name is not their normalized name (``requests-cache`` →
``requests_cache`` needs no entry)."""


def _dist(requirement: str) -> str:
    """The normalized distribution name of a requirement string (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.split(r"[\s<>=!~;\[(@]", requirement.strip(), maxsplit=1)[0]).lower()


def _import_names(dist: str) -> set[str]:
    return IMPORT_NAMES.get(dist, {dist.replace("-", "_")})


def _declared() -> set[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {_dist(d) for d in pyproject["project"]["dependencies"]}


def _third_party_imports() -> dict[str, set[str]]:
    """Top-level third-party module → the files importing it, in importer/, rating/, reports/."""
    stdlib = set(sys.stdlib_module_names)
    found: dict[str, set[str]] = {}
    for package in sorted(OURS):
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in _imported_packages(path) - stdlib - OURS:
                found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def _undeclared(imports: dict[str, set[str]], declared: set[str]) -> list[str]:
    provided = {name for dist in declared for name in _import_names(dist)}
    return sorted(f"{name} ({', '.join(sorted(files))})" for name, files in imports.items()
                  if name not in provided)


def _unused(declared: set[str], imports: dict[str, set[str]]) -> list[str]:
    return sorted(dist for dist in declared if not _import_names(dist) & set(imports))


def test_pyproject_declares_every_third_party_import():
    missing = _undeclared(_third_party_imports(), _declared())
    assert not missing, f"imports not declared in pyproject.toml: {missing}"


def test_every_declared_dependency_is_imported():
    """A runtime dependency nothing imports is dead weight for every user: use it or drop it."""
    unused = _unused(_declared(), _third_party_imports())
    assert not unused, f"dependencies in pyproject.toml that no module imports: {unused}"


def test_the_dependency_checks_can_fail():
    imports = {"bs4": {"importer/sources.py"}, "requests_cache": {"importer/http.py"},
               "rich": {"reports/sources.py"}}
    declared = {_dist("beautifulsoup4>=4.13"), _dist("Requests_Cache >= 1.2"), _dist("defusedxml")}
    assert declared == {"beautifulsoup4", "requests-cache", "defusedxml"}
    assert _undeclared(imports, declared) == ["rich (reports/sources.py)"]
    assert _unused(declared, imports) == ["defusedxml"]
    assert _undeclared(imports, declared | {"rich"}) == []
    assert _unused(declared - {"defusedxml"}, imports) == []


def test_each_package_ships_py_typed():
    for package in ("importer", "rating", "reports"):
        assert (ROOT / package / "py.typed").is_file()
