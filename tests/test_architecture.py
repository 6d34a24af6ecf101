"""Structure checks: the import direction importer ← rating ← reports, and the packaging."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"importer": {"rating", "reports"}, "rating": {"reports"}}


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


def test_pyproject_declares_every_third_party_import():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=\[ ]", d)[0].lower() for d in declared}
    import_to_dist = {"bs4": "beautifulsoup4", "requests_cache": "requests-cache",
                      "yaml": "pyyaml", "dateutil": "python-dateutil"}
    stdlib = set(__import__("sys").stdlib_module_names)
    ours = {"importer", "rating", "reports"}
    missing = set()
    for package in ours:
        for path in (ROOT / package).rglob("*.py"):
            for name in _imported_packages(path) - stdlib - ours:
                dist = import_to_dist.get(name, name).lower()
                if dist not in names and dist.replace("_", "-") not in names:
                    missing.add(f"{name} ({path.relative_to(ROOT)})")
    assert not missing, f"imports not declared in pyproject.toml: {sorted(missing)}"


def test_each_package_ships_py_typed():
    for package in ("importer", "rating", "reports"):
        assert (ROOT / package / "py.typed").is_file()
