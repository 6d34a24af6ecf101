"""Names a package exports but imports only on first use (PEP 562), so that importing the
package stays cheap: ``import rating`` loads no numpy until a period is rated."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module

__all__ = ["lazy_exports"]


def lazy_exports(package: str, names: Mapping[str, Sequence[str]],
                 modules: Mapping[str, str] | None = None
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of *package*: each of *names* (module → the names
    it defines) and each of *modules* (exported name → module) imported when first asked
    for, then kept in the package."""
    where = {name: module for module, found in names.items() for name in found}
    whole = dict(modules or {})

    def getattr_(name: str) -> object:
        if name in whole:
            value: object = import_module(whole[name])
        elif name in where:
            value = getattr(import_module(where[name]), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        module = sys.modules[package]
        return sorted({*vars(module), *getattr(module, "__all__", ())})

    return getattr_, dir_
