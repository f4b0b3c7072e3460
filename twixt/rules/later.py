"""Names a package offers, each imported from its module when first asked for (a module's
`__getattr__`, PEP 562): so that importing a package does not import every module behind it —
a help text starts before the rules' dataclasses load, `twixt web` answers its first page
before any command or use case is needed. Every layer's package uses it (the rules are the
one room all may import); it imports nothing a help text would wait for."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def importer(package: str, module_of: Mapping[str, str]) -> Callable[[str], Any]:
    """`package`'s `__getattr__`: a name `module_of` lists, from that module (named below
    `package`), imported when first asked for and then kept in the package as if imported
    there; AttributeError for any other name."""
    def named(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return named
