"""Structure checks: the import direction importer ← rating ← reports, no import circles
(no module imports one that imports it back, whether at the top, under ``TYPE_CHECKING`` or
inside a function), and the packaging: every third-party import is declared, and every
declared dependency is imported."""

from __future__ import annotations

import ast
import itertools
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
    bad.write_text("from reports.cli import main\nimport rating.systems.fide\n")
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
    imports = {"bs4": {"importer/sources.py"}, "requests_cache": {"importer/net/http.py"},
               "rich": {"reports/cli/sources.py"}}
    declared = {_dist("beautifulsoup4>=4.13"), _dist("Requests_Cache >= 1.2"), _dist("defusedxml")}
    assert declared == {"beautifulsoup4", "requests-cache", "defusedxml"}
    assert _undeclared(imports, declared) == ["rich (reports/cli/sources.py)"]
    assert _unused(declared, imports) == ["defusedxml"]
    assert _undeclared(imports, declared | {"rich"}) == []
    assert _unused(declared - {"defusedxml"}, imports) == []


def test_each_package_ships_py_typed():
    for package in ("importer", "rating", "reports"):
        assert (ROOT / package / "py.typed").is_file()


# ------------------------------------------------------------------ no module imports its importers

def _module_files(root: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module of importer/, rating/ and reports/
    (a package is its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in sorted(OURS):
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _module_imports(name: str, path: Path, known: set[str]) -> dict[str, int]:
    """The modules of ours that *name* imports → the line of the first such import.  Every
    import counts: at the top, under ``if TYPE_CHECKING:`` and inside functions.  ``from P
    import x`` imports the module ``P.x`` when there is one, else ``P``; a package's own
    submodule importing nothing from it does not import the package (Python runs a
    package's ``__init__`` first, but that is not an import the module asks for)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted

    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in map(resolve, targets):
            if target and target != name:
                found[target] = min(found.get(target, node.lineno), node.lineno)
    return found


def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """Each module of ours → the modules of ours it imports (→ the line)."""
    files = _module_files(root)
    return {name: _module_imports(name, path, set(files)) for name, path in files.items()}


def circles(graph: dict[str, dict[str, int]], limit: int = 200) -> list[list[str]]:
    """Every import circle, each as its path ``[a, b, …, a]`` starting at its smallest module
    (each circle once; at most *limit*)."""
    found: list[list[str]] = []

    def walk(start: str, path: list[str]) -> None:
        for nxt in sorted(graph[path[-1]]):
            if len(found) >= limit:
                return
            if nxt == start:
                found.append([*path, start])
            elif nxt > start and nxt not in path:
                walk(start, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def _describe(circle: list[str], graph: dict[str, dict[str, int]], root: Path) -> str:
    files = _module_files(root)
    return "; ".join(f"{a} → {b} ({files[a].relative_to(root)}:{graph[a][b]})"
                     for a, b in itertools.pairwise(circle))


def test_no_module_imports_one_that_imports_it_back():
    graph = import_graph(ROOT)
    found = circles(graph)
    report = "\n".join(_describe(c, graph, ROOT) for c in found)
    assert not found, f"{len(found)} import circles:\n{report}"


def test_the_circle_check_finds_every_circle_with_its_path(tmp_path):
    for package, files in {
        "importer": {"__init__.py": "", "a.py": "from importer.b import x\n",
                     "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                             "    from importer import a\n",
                     "c.py": "def f():\n    from . import d\n", "d.py": "import importer.c\n",
                     "e.py": "from importer import a  # no circle: a never imports e\n"},
        "rating": {"__init__.py": "from rating.x import y\n", "x.py": "from rating import z\n",
                   "z.py": "import rating.x\nimport importer.a\n"},
        "reports": {"__init__.py": ""},
    }.items():
        (tmp_path / package).mkdir()
        for name, text in files.items():
            (tmp_path / package / name).write_text(text)
    graph = import_graph(tmp_path)
    assert graph["importer.e"] == {"importer.a": 1}
    assert graph["rating.z"] == {"rating.x": 1, "importer.a": 2}
    found = circles(graph)
    assert found == [["importer.a", "importer.b", "importer.a"],
                     ["importer.c", "importer.d", "importer.c"],
                     ["rating.x", "rating.z", "rating.x"]]
    assert _describe(found[0], graph, tmp_path) == (
        "importer.a → importer.b (importer/a.py:1); importer.b → importer.a (importer/b.py:3)")


# ------------------------------------------------------------------ the map: docs/architecture.md

MAP = ROOT / "docs" / "architecture.md"


def _packages(root: Path) -> list[str]:
    """Every package of ours, dotted: each folder with an ``__init__.py``."""
    return sorted(".".join(p.parent.relative_to(root).parts)
                  for package in sorted(OURS) for p in (root / package).rglob("__init__.py"))


def _map(text: str) -> dict[str, tuple[str, set[str]]]:
    """Each package's section of the map: its paragraph and the packages it may import."""
    found = re.findall(r"^## (\S+)\n\n(.+?)\n\nMay import: ?([^\n]*)", text, re.M | re.S)
    return {name: (" ".join(words.split()), {p.strip() for p in allowed.split(",") if p.strip()})
            for name, words, allowed in found}


def _package_of(module: str, files: dict[str, Path], root: Path) -> str:
    return ".".join(files[module].parent.relative_to(root).parts)


def _not_allowed(root: Path, sections: dict[str, tuple[str, set[str]]]) -> list[str]:
    files = _module_files(root)
    graph = import_graph(root)
    out = []
    for module, targets in sorted(graph.items()):
        own = _package_of(module, files, root)
        allowed = sections.get(own, ("", set()))[1]
        for target, line in sorted(targets.items()):
            theirs = _package_of(target, files, root)
            if theirs != own and theirs not in allowed:
                out.append(f"{files[module].relative_to(root)}:{line} imports {target} "
                           f"({theirs}, not in {own}'s 'May import')")
    return out


def _first_paragraph(doc: str) -> str:
    return " ".join(doc.split("\n\n", 1)[0].replace("``", "`").split())


def test_every_package_has_its_section_and_its_docstring_says_the_same():
    sections = _map(MAP.read_text(encoding="utf-8"))
    assert sorted(sections) == _packages(ROOT)
    for package, (words, _) in sections.items():
        init = ROOT.joinpath(*package.split("."), "__init__.py")
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert _first_paragraph(doc) == words, f"{package}: its __init__ docstring differs from the map"


def test_imports_between_packages_are_those_the_map_allows():
    assert _not_allowed(ROOT, _map(MAP.read_text(encoding="utf-8"))) == []


def test_the_map_checks_can_fail(tmp_path):
    for package, body in (("importer", ""), ("importer/net", "import rating\n"),
                          ("rating", "")):
        folder = tmp_path / package
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text(f'"""{package} words."""\n{body}')
    sections = _map("## importer\n\nimporter words.\n\nMay import: importer.net\n\n"
                    "## importer.net\n\nimporter/net words.\n\nMay import: importer\n")
    assert sorted(sections) == ["importer", "importer.net"] != _packages(tmp_path)
    assert _not_allowed(tmp_path, sections) == [
        "importer/net/__init__.py:2 imports rating (rating, not in importer.net's 'May import')"]


# ------------------------------------------------------------------ imports at the top

MAX_LOCAL_IMPORTS = 10


def _local_imports(root: Path) -> list[tuple[str, bool]]:
    """Each import inside a function of the library (file:line), and whether a comment on its
    line or the line before says why it is there."""
    found = []
    for package in sorted(OURS):
        for path in sorted((root / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            tree = ast.parse("\n".join(lines))
            seen: set[int] = set()
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in seen:
                        seen.add(node.lineno)
                        said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].strip().startswith("#")
                        found.append((f"{path.relative_to(root)}:{node.lineno}", said))
    return found


def test_imports_are_at_the_top_but_for_a_few_slow_or_optional_ones_each_with_its_reason():
    found = _local_imports(ROOT)
    assert len(found) <= MAX_LOCAL_IMPORTS, found
    assert [where for where, said in found if not said] == []


def test_the_local_import_check_can_fail(tmp_path):
    (tmp_path / "rating").mkdir()
    (tmp_path / "rating" / "x.py").write_text(
        "def f():\n    import json\n\n\ndef g():\n    # Lazy: slow\n    import csv\n")
    assert _local_imports(tmp_path) == [("rating/x.py:2", False), ("rating/x.py:7", True)]
