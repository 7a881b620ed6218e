"""straightline: a compiler from JSON contracts to standalone Python validator modules.

Importing the package is cheap: the compiler (black, jinja2 and every stage) loads on first use of
a compile function, so `import generator.runtime` in a service loads none of it.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

from .errors import (  # noqa: E402 (no dependencies)
    ConfigError,
    OptionError,
    SchemaError,
    SchemaWarning,
    StraightlineError,
)

# Public name -> the module that defines it, imported when the name is first used.
_LAZY = {
    "compile_source": ".api",
    "compile_module": ".api",
    "compile_contract_source": ".contracts",
    "compile_contract_module": ".contracts",
    "PROFILES": ".pipeline",
    "load_yaml": ".yaml_loader",  # (a module named load_yaml would shadow the function once imported)
}

__all__ = [
    "ConfigError",
    "OptionError",
    "PROFILES",
    "SchemaError",
    "SchemaWarning",
    "StraightlineError",
    "__version__",
    "compile_contract_module",
    "compile_contract_source",
    "compile_module",
    "compile_source",
    "load_yaml",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
