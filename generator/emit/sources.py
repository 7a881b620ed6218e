"""The primitives a module copies in: the source of each function of generator/primitives.py and
generator/outputs.py that the emitted code, the API template (best_match, output) or another
primitive uses, with the imports and constants they need."""

from __future__ import annotations

import inspect
from typing import Iterable

from .. import outputs, primitives
from ..codegen import Code

# Where each copied name is defined: the leaf primitives, then the report functions.
_SOURCES = (primitives, outputs)
_DEPENDS = {name: uses for source in _SOURCES for name, uses in source.DEPENDS.items()}
_CONSTANTS = {name: text for source in _SOURCES for name, text in source.CONSTANTS.items()}
# What every module's API uses (templates/api.py.j2): best_match, output() and their messages.
API_PRIMITIVES = ("_best_match", "_output", "_show")


def primitive_sources(used: Iterable[str], uses_decimal: bool, uses_re: bool) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and function sources of the primitives `used` (and what they use)."""
    needed: set[str] = set()
    stack = sorted(set(used) - {"_ok"})  # _ok is written by the template
    while stack:
        item = stack.pop()
        if item not in needed:
            needed.add(item)
            stack.extend(_DEPENDS.get(item, ()))
    if uses_decimal:
        needed.add("_Decimal")
    imports = [Code(primitives.PRELUDE_IMPORTS[n]) for n in sorted(needed) if n in primitives.PRELUDE_IMPORTS]
    imports.append(Code("from typing import Any"))
    if uses_re:
        imports.insert(0, Code("import re as _re"))
    constants = [Code(_CONSTANTS[n]) for n in sorted(needed) if n in _CONSTANTS]
    order = [(source, n) for source in _SOURCES for n in source.DEPENDS
             if n in needed and callable(getattr(source, n))]
    return imports, constants, [Code(inspect.getsource(getattr(source, n))) for source, n in order]
