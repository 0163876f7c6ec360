"""Package names that load from their submodules on first use (PEP 562), for packages whose members
pull in heavy imports: a kind probing a folder must not load every reader and editor with it."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``exports`` maps each name to the submodule
    defining it. A name is imported when first asked for, then kept in the package like any other."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str):  # noqa: N807 (the module hook's own name)
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted([*namespace, *exports])

    return __getattr__, __dir__
