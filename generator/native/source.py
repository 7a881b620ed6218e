"""The text mypyc compiles for a generated module: the module itself, with the top-level statements
that only build data run by the interpreter instead of compiled.

Two parts of a generated module cost a mypyc build far more than they gain from it:

- its static types (render/types.py: `Name: TypeAlias = ...`, `Name = TypedDict(...)`, `class
  Name(_NameRequired, _NameOptional): pass`), for its users' type checkers: the module's own code
  names only the root type (`TypeGuard[Instance]`), yet mypy checks every one before mypyc compiles
  anything; on a large schema the types take mypy far longer than the rest of the module
  (docs/native.md, "Large modules").
- its module-level data (the tables filled by `_F12.update({...})`, the `_Q3 = (_v1, _e1)` pairs
  they hold, and in a large module the constants): mypyc compiles all top-level statements as one
  C function, and its reference-count analysis of a function takes memory that grows with the
  square of its size, so a large module's top level exhausts the build's memory.

So each run of such statements is replaced, in the text given to mypyc, by one line

    Instance = Any; exec(compile('<the run's text>', '<data of NAME>', 'exec'), globals())

(and blank lines, so that what follows keeps its line numbers, which mypy's messages name), which
defines the same objects under the same names in the module's namespace when the extension is
imported: the interpreter runs the very text the pure module runs (a TypedDict's `__module__` is the
module's name either way). For mypy, each name the compiled code uses is declared (`Name = Any` for
a type, `Name: Any` for a value). The constants (`Final`) stay compiled, as C statics the compiled
functions read directly, unless more than _MAX_COMPILED_TOP_LEVEL top-level statements would remain:
then they are run at import too and read from the module's namespace (slower: a dictionary look-up
each, but FHIR's module is built at all). The module file, and the record's hash of it, stay the
module's own text.

A str literal holding a lone surrogate (JSON allows "\\ud83d" in a schema's strings) is written in
that text as the same string joined from parts and chr() calls (or, holding many, as its
`unicode_escape` text decoded when it runs): mypyc writes literals into C as UTF-8, which a
surrogate has not, and refuses them.
"""

from __future__ import annotations

import ast
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from ..codegen import literal

# More top-level statements than this left compiled, and the constants are run at import too.
_MAX_COMPILED_TOP_LEVEL = 500
# Where the run code objects say they come from (tracebacks, `co_filename`).
_RUN_FILE = "<data of {name}>"
# CPython 3.11's ast.parse in two threads at once can fail ("AST constructor recursion depth
# mismatch", a SystemError): build_native runs in threads (the tests build two modules at a time).
_AST_LOCK = threading.Lock()
_WORD = re.compile(r"[A-Za-z_]\w*")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")  # ast's lines end at "\n" (str.splitlines splits at more)


@dataclass(frozen=True)
class _Run:
    """Consecutive top-level statements body[start:end] run at import; `types`: static types."""

    start: int
    end: int
    types: bool


def mypyc_source(text: str, name: str) -> str:
    """`text` (a generated module's source) with its static types and module-level data run through
    `exec` at import (see the module's docstring), and its str literals mypyc cannot write made at
    run time; `name` names the module in the code's file name. SyntaxError propagates (mypy would
    refuse the module too). Thread-safe."""
    with _AST_LOCK:
        return _without_surrogate_literals(_mypyc_source(text, name))


def _mypyc_source(text: str, name: str) -> str:
    body = ast.parse(text).body
    runs = _runs(body, demote_constants=False)
    if _compiled_top_level(body, runs) > _MAX_COMPILED_TOP_LEVEL:
        runs = _runs(body, demote_constants=True)
    lines = _LINE.findall(text)
    returns = {
        s.name: ast.unparse(s.returns) for s in body if isinstance(s, ast.FunctionDef) and s.returns
    }
    in_runs = {index for run in runs for index in range(run.start, run.end)}
    used = _names_in(statement for index, statement in enumerate(body) if index not in in_runs)
    out: list[str] = []
    done = 0  # lines of `text` copied or replaced so far
    for run in runs:
        first, last = (
            body[run.start].lineno,
            body[run.end - 1].end_lineno or body[run.end - 1].lineno,
        )
        section = "".join(lines[first - 1 : last])
        if len(ast.parse(section).body) != run.end - run.start:  # not the statements ast saw
            return text
        out.append("".join(lines[done : first - 1]))
        defined = {
            target: statement
            for statement in body[run.start : run.end]
            for target in _targets(statement)
        }
        declared = [(n, _declared_type(defined[n], returns)) for n in sorted(set(defined) & used)]
        out.append(_run_line(section, declared, run.types, name) + "\n" * (last - first + 1))
        done = last
    out.append("".join(lines[done:]))
    return "".join(out)


# A \\u or \\U escape of a surrogate code point (U+D800 to U+DFFF), as repr() writes one.
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # a surrogate code point itself


def _without_surrogate_literals(text: str) -> str:
    """`text` with each str literal that holds a lone surrogate (JSON allows "\\ud83d" in a
    schema's strings, and the module writes it as that escape) written as an expression of the
    same string (_rebuilt): mypyc writes a literal into C as UTF-8, which a surrogate has not, and
    refuses the module ("Surrogate codepoints in string literals not supported"). The literal's
    lines are kept (the expression stays in parentheses), so mypy's line numbers hold. (The parts
    of an f-string are left: a generated module has none.)"""
    if not _SURROGATE_ESCAPE.search(text):
        return text
    tree = ast.parse(text)
    in_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
    }
    literals = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in in_fstrings
        and _SURROGATE.search(node.value)
    ]
    lines = _LINE.findall(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(lineno: int, col: int) -> int:  # ast's columns count UTF-8 bytes
        return starts[lineno - 1] + len(lines[lineno - 1].encode("utf-8")[:col].decode("utf-8"))

    out, done = [], 0
    for node in sorted(literals, key=lambda n: (n.lineno, n.col_offset)):
        assert (
            isinstance(node.value, str)
            and node.end_lineno is not None
            and node.end_col_offset is not None
        )
        start, end = offset(node.lineno, node.col_offset), offset(
            node.end_lineno, node.end_col_offset
        )
        out += [
            text[done:start],
            "(",
            _rebuilt(node.value),
            "\n" * (node.end_lineno - node.lineno),
            ")",
        ]
        done = end
    return "".join(out + [text[done:]])


# More lone surrogates than this in a string, and it is written as its unicode_escape text decoded
# (one call) rather than its parts joined with chr() (an addition and a call a surrogate).
_MOST_CHR = 8


def _rebuilt(value: str) -> str:
    """An expression of `value` written without a surrogate: its runs of other characters as
    literals, each surrogate chr(N), joined (cheaper where it runs than decoding); for a string
    of more than _MOST_CHR surrogates, its `unicode_escape` text, decoded when it runs, whose size
    does not grow with theirs: a chain for a string of many surrogates exhausts mypyc's memory, or
    is deeper than CPython compiles (docs/native.md, "Large modules")."""
    if len(_SURROGATE.findall(value)) > _MOST_CHR:
        return (
            literal(value.encode("unicode_escape").decode("ascii")).text
            + ".encode().decode('unicode_escape')"
        )
    parts = re.findall("[\ud800-\udfff]|[^\ud800-\udfff]+", value)
    return " + ".join(
        f"chr({ord(part)})" if _SURROGATE.fullmatch(part) else literal(part).text for part in parts
    )


def _run_line(section: str, used: list[tuple[str, str]], types: bool, name: str) -> str:
    declared = "".join(
        f"{used_name} = Any; " if types else f"{used_name}: {type_}; " for used_name, type_ in used
    )
    return (
        declared + f"exec(compile({section!r}, {_RUN_FILE.format(name=name)!r}, 'exec'), globals())"
    )


def _declared_type(statement: ast.stmt, returns: dict[str, str]) -> str:
    """The static type a value run at import is declared with, for the compiled code that reads
    it (a dict's `.get` is a C call only on a `dict`): what its `Final[T]` says, else what its
    value is (a display, frozenset(...), a call of a module function with a return type); Any
    where that is not plain. (The compiled code checks the type of what it reads.)"""
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.annotation, ast.Subscript):
        return ast.unparse(statement.annotation.slice)
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    displays = {
        ast.Tuple: "tuple[Any, ...]",
        ast.List: "list[Any]",
        ast.Dict: "dict[Any, Any]",
        ast.Set: "set[Any]",
    }
    if type(value) in displays:
        return displays[type(value)]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id == "frozenset":
            return "frozenset[Any]"
        return returns.get(value.func.id, "Any")
    if isinstance(value, ast.Constant) and type(value.value) in (str, int, float, bytes, bool):
        return type(value.value).__name__
    return "Any"


def _runs(body: list[ast.stmt], *, demote_constants: bool) -> list[_Run]:
    """The maximal runs of consecutive type statements, and of data statements, in order."""
    all_typed_dicts = _typed_dict_names(body)
    in_functions = _names_in(
        s
        for s in body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and not _is_type_statement(s, all_typed_dicts)
    )
    typed_dicts: set[str] = set()
    runs: list[_Run] = []
    start, types = -1, False
    for index, statement in enumerate(body + [ast.Pass()]):
        kind = _kind(statement, typed_dicts, in_functions, demote_constants)
        if start >= 0 and kind != types:
            runs.append(_Run(start, index, types))
            start = -1
        if kind is not None and start < 0:
            start, types = index, kind
        typed_dicts.update(_typed_dict_name(statement) if kind else [])
    return runs


def _kind(
    statement: ast.stmt, typed_dicts: set[str], in_functions: set[str], demote_constants: bool
) -> bool | None:
    """True for a static type statement, False for a data statement, None for one compiled."""
    if _is_type_statement(statement, typed_dicts):
        return True
    return False if _is_data_statement(statement, in_functions, demote_constants) else None


def _is_type_statement(statement: ast.stmt, typed_dicts: set[str]) -> bool:
    """`Name: TypeAlias = ...`, `Name = TypedDict(...)`, or a class whose bases are TypedDicts
    defined before it and whose body is `pass`."""
    if isinstance(statement, ast.AnnAssign):
        return (
            isinstance(statement.target, ast.Name)
            and isinstance(statement.annotation, ast.Name)
            and statement.annotation.id == "TypeAlias"
            and statement.value is not None
        )
    if isinstance(statement, ast.ClassDef):
        return (
            bool(statement.bases)
            and not statement.keywords
            and not statement.decorator_list
            and all(isinstance(b, ast.Name) and b.id in typed_dicts for b in statement.bases)
            and all(isinstance(s, ast.Pass) for s in statement.body)
        )
    return bool(_typed_dict_name(statement))


def _is_data_statement(statement: ast.stmt, in_functions: set[str], demote_constants: bool) -> bool:
    """`TABLE.update({...})`; `name = value` that no function or class uses; with
    `demote_constants`, also `name: Final = value`."""
    if isinstance(statement, ast.Expr):
        call = statement.value
        return (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "update"
            and isinstance(call.func.value, ast.Name)
        )
    if isinstance(statement, ast.Assign):
        return all(isinstance(t, ast.Name) and t.id not in in_functions for t in statement.targets)
    if isinstance(statement, ast.AnnAssign) and demote_constants:
        return (
            isinstance(statement.target, ast.Name)
            and statement.value is not None
            and _is_final(statement.annotation)
        )
    return False


def _is_final(annotation: ast.expr) -> bool:
    """`Final` or `Final[...]`."""
    node = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return isinstance(node, ast.Name) and node.id == "Final"


def _typed_dict_name(statement: ast.stmt) -> list[str]:
    """[Name] for `Name = TypedDict(...)` or a class (taken for a TypedDict over TypedDicts); else []."""
    if isinstance(statement, ast.ClassDef):
        return [statement.name]
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Name)
        and statement.value.func.id == "TypedDict"
    ):
        return [statement.targets[0].id]
    return []


def _typed_dict_names(body: list[ast.stmt]) -> set[str]:
    return {
        name
        for statement in body
        if not isinstance(statement, ast.ClassDef)
        for name in _typed_dict_name(statement)
    }


def _compiled_top_level(body: list[ast.stmt], runs: list[_Run]) -> int:
    """How many top-level statements other than definitions and imports stay compiled."""
    in_runs = {index for run in runs for index in range(run.start, run.end)}
    plain = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    return sum(
        1
        for index, statement in enumerate(body)
        if index not in in_runs and not isinstance(statement, plain)
    )


def _targets(statement: ast.stmt) -> list[str]:
    if isinstance(statement, ast.ClassDef):
        return [statement.name]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    if isinstance(statement, ast.Assign):
        return [t.id for t in statement.targets if isinstance(t, ast.Name)]
    return []


def _names_in(statements: Iterable[ast.stmt]) -> set[str]:
    """Every name read or written in the statements, and every word of their strings (a type in
    quotes, `cast("Callable[[Any], TypeGuard[Instance]]", _v0)`, names one too)."""
    names: set[str] = set()
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.update(_WORD.findall(node.value))
    return names
