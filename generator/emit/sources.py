"""What a module copies in: the source of each function of generator/primitives.py and
generator/outputs.py that the emitted code, the API template (best_match, output) or another
primitive uses, of each linear-time pattern matcher
(generator/regex/matcher.py) and each format and content checker (generator/formats/checkers.py)
it calls, with the imports and constants they need; and the imports of the user's custom format
functions."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Iterable, Mapping

from .. import memo_runtime, outputs, primitives
from ..codegen import Code, Name, code, join
from ..regex import matcher_sources

# Where each copied name is defined: the leaf primitives, then the report functions.
_SOURCES = (primitives, outputs, memo_runtime)
_PRELUDE = {**primitives.PRELUDE_IMPORTS, **memo_runtime.PRELUDE_IMPORTS}
_DEPENDS = {name: uses for source in _SOURCES for name, uses in source.DEPENDS.items()}
_CONSTANTS = {name: text for source in _SOURCES for name, text in source.CONSTANTS.items()}
# What every module's API uses (templates/api.py.j2): best_match, output() and their messages.
API_PRIMITIVES = ("_best_match", "_output", "_show")


def primitive_sources(
    used: Iterable[str], uses_decimal: bool, uses_re: bool, matchers: Iterable[str] = ()
) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and function sources of the primitives `used` (and what they use), and
    of the linear-time pattern `matchers` (regex/matcher.py: their table types are constants)."""
    needed: set[str] = set()
    stack = sorted(set(used) - {"_ok"})  # _ok is written by the template
    while stack:
        item = stack.pop()
        if item not in needed:
            needed.add(item)
            stack.extend(_DEPENDS.get(item, ()))
    if uses_decimal:
        needed.add("_Decimal")
    matcher_imports, matcher_types, matcher_functions = matcher_sources(sorted(set(matchers)))
    imports = [Code(line) for line in matcher_imports]
    imports += [Code(_PRELUDE[n]) for n in sorted(needed) if n in _PRELUDE]
    imports.append(Code("from typing import Any"))
    if uses_re:
        imports.insert(0, Code("import re as _re"))
    constants = [Code(_CONSTANTS[n]) for n in sorted(needed) if n in _CONSTANTS]
    constants += [Code(line) for line in matcher_types]
    order = [
        (source, n)
        for source in _SOURCES
        for n in source.DEPENDS
        if n in needed and callable(getattr(source, n))
    ]
    functions = [Code(function_source(getattr(source, n))) for source, n in order]
    return imports, constants, functions + [Code(source) for source in matcher_functions]


@functools.cache
def primitive_returns() -> dict[str, str]:
    """The return annotation of each copied function, as its source writes it (the mypyc build
    declares a value a table function made by it: generator/native/source.py)."""
    found: dict[str, str] = {}
    for source in _SOURCES:
        for name in source.DEPENDS:
            function = getattr(source, name, None)
            if inspect.isfunction(function):
                returns = inspect.get_annotations(function).get("return")
                if isinstance(returns, str):  # (the sources use postponed annotations)
                    found[name] = returns
    return found


@functools.cache
def function_source(function: Callable[..., Any]) -> str:
    """A function's source text, read once per process (inspect re-reads and re-tokenizes the
    file at every call: a tenth of a small schema's compile)."""
    return inspect.getsource(function)


def checker_sources(functions: Iterable[str]) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and function sources of the format and content checkers `functions`
    (generator/formats/checkers.py, with what they use)."""
    from .. import formats

    imports, constants, sources = (
        formats.function_sources(sorted(functions)) if functions else ([], [], [])
    )
    return (
        [Code(line) for line in imports],
        [Code(c) for c in constants],
        [Code(f) for f in sources],
    )


def custom_format_imports(custom: Mapping[str, tuple[str, str]]) -> list[Code]:
    """The import of each custom format function (alias -> (module, function)), from names
    checked to be identifiers (format_options.parse_spec; again here, as codegen.Name)."""
    lines = []
    for alias, (module, function) in sorted(custom.items()):
        dotted = join(".", [Name(part) for part in module.split(".")])
        lines.append(code("from {} import {} as {}", dotted, Name(function), Name(alias)))
    return lines


def merged_imports(
    primitive_imports: list[Code], checker_imports: list[Code], custom: list[Code]
) -> list[Code]:
    """One import list, each line once: `import re as _re` first (pattern and the checkers share
    it), then the checkers' standard-library imports, the primitives' and typing's, and last the
    custom format functions."""
    shared = [
        line
        for line in [*primitive_imports, *checker_imports]
        if line.text.startswith("import re ")
    ]
    return list(dict.fromkeys([*shared, *checker_imports, *primitive_imports, *custom]))
