"""The primitives a module copies in: the source of each function of generator/primitives.py that
the emitted code (or another primitive) uses, with the imports and constants they need."""

from __future__ import annotations

import inspect
from typing import Iterable

from .. import primitives
from ..codegen import Code
from ..regex import matcher_sources


def primitive_sources(used: Iterable[str], uses_decimal: bool, uses_re: bool,
                      matchers: Iterable[str] = ()) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and function sources of the primitives `used` (and what they use), and
    of the linear-time pattern `matchers` (regex/matcher.py: their table types are constants)."""
    needed: set[str] = set()
    stack = sorted(set(used) - {"_ok"})  # _ok is written by the template
    while stack:
        item = stack.pop()
        if item not in needed:
            needed.add(item)
            stack.extend(primitives.DEPENDS.get(item, ()))
    if uses_decimal:
        needed.add("_Decimal")
    matcher_imports, matcher_types, matcher_functions = matcher_sources(sorted(set(matchers)))
    imports = [Code(line) for line in matcher_imports]
    imports += [Code(primitives.PRELUDE_IMPORTS[n]) for n in sorted(needed) if n in primitives.PRELUDE_IMPORTS]
    imports.append(Code("from typing import Any"))
    if uses_re:
        imports.insert(0, Code("import re as _re"))
    constants = [Code(primitives.CONSTANTS[n]) for n in sorted(needed) if n in primitives.CONSTANTS]
    constants += [Code(line) for line in matcher_types]
    order = [n for n in primitives.DEPENDS if n in needed and callable(getattr(primitives, n))]
    functions = [Code(inspect.getsource(getattr(primitives, n))) for n in order]
    return imports, constants, functions + [Code(source) for source in matcher_functions]
