"""generator/native/source.py: the text mypyc compiles for a module runs its static types and its
module-level data through `exec` at import. Checked here without a C compiler: the text keeps the
module's line numbers, defines exactly the same names to the same values (types compared by what
they say), leaves functions and (in a module of ordinary size) constants compiled, declares for
mypy each name the compiled code uses, and demotes the constants of a module too large for mypyc's
top level. (tests/test_native.py builds modules through it and compares them with the pure ones.)
"""

from __future__ import annotations

import ast
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.native import source
from generator.native.source import mypyc_source

from .conftest import ROOT

sys.path.insert(0, str(ROOT))
from bench.cases import select_cases  # noqa: E402


def _run(text: str, name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(text, f"{name}.py", "exec"), module.__dict__)
    return module


def _bench_text(case_name: str) -> str:
    load = select_cases([case_name])[0][0][1]
    case = load()
    return generator.compile_source(case.schema_text, profile=case.profile, format=False)


def _described(value: Any) -> Any:
    """A value as what it says: a TypedDict by its name, module, keys and their types; anything
    else by its repr without addresses."""
    if typing.is_typeddict(value):
        return (
            "TypedDict",
            value.__name__,
            value.__module__,
            value.__total__,
            sorted(value.__required_keys__),
            sorted(value.__optional_keys__),
            {k: repr(v) for k, v in value.__annotations__.items()},
        )
    return re.sub(r" at 0x[0-9a-f]+", "", repr(value))  # functions, sentinels: by name and kind


SOURCES = {
    "tool-package": lambda: (
        ROOT / "generated" / "draft2020_12" / "tool_package_schema.py"
    ).read_text(),
    "math.add": lambda: (ROOT / "generated" / "tools" / "math_add.py").read_text(),
    "swagger": lambda: _bench_text("swagger"),
}


@pytest.mark.parametrize("which", sorted(SOURCES))
def test_the_same_names_and_values_with_the_same_line_numbers(which: str) -> None:
    text = SOURCES[which]()
    compiled = mypyc_source(text, "sample")
    assert compiled != text and "exec(compile(" in compiled
    assert compiled.count("\n") == text.count("\n")
    original_tree, compiled_tree = ast.parse(text), ast.parse(compiled)
    # every function and class but the static types is where it was, unchanged
    original_defs = {
        s.lineno: ast.dump(s) for s in original_tree.body if isinstance(s, ast.FunctionDef)
    }
    compiled_defs = {
        s.lineno: ast.dump(s) for s in compiled_tree.body if isinstance(s, ast.FunctionDef)
    }
    assert original_defs == compiled_defs
    pure, variant = _run(text, "sample"), _run(compiled, "sample")
    assert sorted(vars(pure)) == sorted(vars(variant))
    # (the module's __annotations__ differ by the declarations for mypy; an extension mypyc
    # builds has no module __annotations__ at all, with or without them)
    for name, value in vars(pure).items():
        if name not in ("__builtins__", "__annotations__"):
            assert _described(getattr(variant, name)) == _described(value), name


def test_swagger_constants_stay_compiled_and_its_tables_are_run() -> None:
    """A module of ordinary size: its Final constants are still top-level statements mypyc
    compiles; its table updates and the pairs they hold are not; the root type is declared."""
    compiled = ast.parse(mypyc_source(_bench_text("swagger"), "swagger"))
    finals = [
        s
        for s in compiled.body
        if isinstance(s, ast.AnnAssign) and "Final" in ast.unparse(s.annotation)
    ]
    assert len(finals) > 100
    calls = [
        s.value for s in compiled.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
    ]
    assert not [c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "update"]
    assert not [
        s
        for s in compiled.body
        if isinstance(s, ast.Assign) and ast.unparse(s.targets[0]).startswith("_Q")
    ]
    assert not [
        s
        for s in compiled.body
        if isinstance(s, ast.AnnAssign) and ast.unparse(s.annotation) == "TypeAlias"
    ]
    declared = [
        s for s in compiled.body if isinstance(s, ast.Assign) and ast.unparse(s) == "Instance = Any"
    ]
    assert len(declared) == 1


def _large_module(constants: int) -> str:
    """A module with many Final constants, one table filled at the top level, and a function
    that reads a constant and the table."""
    lines = ["from typing import Any, Final, TypeAlias, TypedDict", ""]
    lines += [f"_C{i}: Final = frozenset({{'a{i}', 'b{i}'}})" for i in range(constants)]
    lines += [
        "_F: Final[dict[str, Any]] = {}",
        "_Q1 = (1, 2)",
        "_F.update({'x': _Q1})",
        "",
        "def check(x: Any) -> bool:",
        "    return x in _C3 and 'x' in _F",
        "",
        "Point = TypedDict('Point', {'x': int, 'next': 'Point | None'}, total=False)",
        "Instance: TypeAlias = Point | list[Any]",
        "",
        "def is_valid(x: Any) -> 'bool':",
        "    y: Instance = x",
        "    return check(y)",
        "",
    ]
    return "\n".join(lines)


def test_a_module_too_large_for_mypycs_top_level_runs_its_constants_at_import() -> None:
    small, large = _large_module(10), _large_module(source._MAX_COMPILED_TOP_LEVEL + 10)
    small_tree = ast.parse(mypyc_source(small, "small"))
    assert (
        sum(isinstance(s, ast.AnnAssign) and s.value is not None for s in small_tree.body) == 11
    )  # constants compiled
    large_text = mypyc_source(large, "large")
    large_tree = ast.parse(large_text)
    assert not [s for s in large_tree.body if isinstance(s, ast.AnnAssign) and s.value is not None]
    # the names the compiled functions use are declared for mypy: values with the type their Final
    # or their value says, the type as a type
    declared = {
        ast.unparse(s) for s in large_tree.body if isinstance(s, (ast.AnnAssign, ast.Assign))
    }
    assert {"_C3: frozenset[Any]", "_F: dict[str, Any]", "Instance = Any"} <= declared
    assert not [d for d in declared if d.startswith("_C4")]  # no function uses it
    for text in (small, large):
        pure, variant = _run(text, "m"), _run(mypyc_source(text, "m"), "m")
        assert sorted(vars(pure)) == sorted(vars(variant))
        assert variant.is_valid("a3") is pure.is_valid("a3") is True
        assert _described(variant.Point) == _described(pure.Point)


def test_a_module_without_types_or_data_is_unchanged() -> None:
    text = "def f(x: int) -> int:\n    return x + 1\n\n\nclass A(Exception):\n    pass\n"
    assert mypyc_source(text, "m") == text


def test_text_that_is_not_python_is_given_to_mypy_as_it_stands(tmp_path: Path) -> None:
    from generator.native import _compiled_text

    for text in (b"def f(:\n", b"\xff\xfe not utf-8\n"):
        assert _compiled_text(text, "m") == text
    with pytest.raises(SyntaxError):
        mypyc_source("def f(:\n", "m")


def test_a_type_named_only_in_a_string_is_declared() -> None:
    """A module whose is_valid is its root function names the root type only in a cast's string."""
    text = (
        "from typing import Any, Callable, TypeGuard, TypedDict, cast\n\n\ndef _v0(x: Any) -> bool:\n"
        "    return True\n\n\nInstance = TypedDict('Instance', {'a': int})\n\n\n"
        'is_valid = cast("Callable[[Any], TypeGuard[Instance]]", _v0)\n\n\n'
        "def validate(x: Any) -> None:\n    assert is_valid(x)\n"
    )
    assert "Instance = Any; exec(" in mypyc_source(text, "m")


def test_the_c_file_is_split_at_functions_that_use_nothing_file_local(tmp_path: Path) -> None:
    """worker.split_c_file on a C file shaped as mypyc writes them: the functions its headers
    declare and that use no static of the file (nor a function only the file declares) move to
    part files that include the runtime's headers and the file's own; the rest stays, in order."""
    sys.path.insert(0, str(ROOT / "generator" / "native"))
    try:
        from worker import split_c_file
    finally:
        sys.path.remove(str(ROOT / "generator" / "native"))
    (tmp_path / "__native.h").write_text("#include <Python.h>\n")
    (tmp_path / "__native_internal.h").write_text(
        "".join(f"extern char CPyDef_f{i}(PyObject *x);\n" for i in range(40))
        + "extern char CPyDef_g(PyObject *x);\n"
    )
    moved = [
        f"char CPyDef_f{i}(PyObject *cpy_r_x) {{\n    if (x) {{ return '}}'; }} /* }} */\n"
        f'    return CPyDef_f{(i + 1) % 40}(cpy_r_x) + "{{";\n}}\n'
        for i in range(40)
    ]
    kept = [
        "static PyObject *CPyStatic_table;\n",
        "PyObject *CPyDef_local(void);\n",
        "char CPyDef_g(PyObject *cpy_r_x) {\n    return CPyStatic_table != NULL;\n}\n",
        "char CPyDef_h(PyObject *cpy_r_x) {\n    return CPyDef_local() != NULL;\n}\n",
    ]
    text = (
        '#include <init.c>\n#include <str_extra_ops.c>\n#include "__native.h"\n#include "__native_internal.h"\n'
        + kept[0]
        + kept[1]
        + "".join(moved[:20])
        + kept[2]
        + kept[3]
        + "".join(moved[20:])
    )
    path = tmp_path / "__native.c"
    path.write_text(text)
    parts = split_c_file(str(path), part_bytes=len(text) // 5)
    assert len(parts) >= 2
    rest = path.read_text()
    assert all(unit in rest for unit in kept) and not any(function in rest for function in moved)
    bodies = "".join(Path(part).read_text() for part in parts)
    assert all(function in bodies for function in moved) and not any(
        unit in bodies for unit in kept
    )
    for part in parts:
        head = (
            Path(part).read_text().split("char ", 1)[0]
        )  # the includes (a runtime .c's header where there is one)
        assert "#include <str_extra_ops.h>\n" in head and "<init.c>" not in head
        assert head.endswith('#include "__native.h"\n#include "__native_internal.h"\n')
    # a file too small for two parts is left whole
    path.write_text(text)
    assert split_c_file(str(path), part_bytes=len(text)) == [] and path.read_text() == text


def test_the_guard_is_included_first_by_the_c_file_and_each_of_its_parts(tmp_path: Path) -> None:
    """worker.include_guard puts guard.h beside a C file and includes it on the file's first line;
    split_c_file keeps it first in every part (its macros must precede the runtime's code)."""
    sys.path.insert(0, str(ROOT / "generator" / "native"))
    try:
        from worker import GUARD, include_guard, split_c_file
    finally:
        sys.path.remove(str(ROOT / "generator" / "native"))
    (tmp_path / "__native.h").write_text("#include <Python.h>\n")
    functions = "".join(
        f"char CPyDef_f{i}(PyObject *cpy_r_x) {{\n    return {i};\n}}\n" for i in range(40)
    )
    text = '#include <init.c>\n#include <str_extra_ops.c>\n#include "__native.h"\n' + functions
    path = tmp_path / "__native.c"
    path.write_text(text)
    include_guard(str(path))
    include_guard(str(path))  # (once only)
    assert path.read_text() == f'#include "{GUARD}"\n' + text
    assert (tmp_path / GUARD).read_text() == (ROOT / "generator" / "native" / "guard.h").read_text()
    assert (tmp_path / "straightline_stack.h").read_text() == (
        ROOT / "generator" / "native" / "stack.h"
    ).read_text()
    parts = split_c_file(str(path), part_bytes=len(text) // 4)
    assert len(parts) >= 2
    for part in parts:
        part_text = Path(part).read_text()
        assert (
            part_text.startswith(f'#include "{GUARD}"\n#include <str_extra_ops.h>\n')
            and part_text.count(GUARD) == 1
        )


# A schema whose strings hold lone surrogates (JSON allows "\ud83d"): a property name, a const, an
# enum value and a pattern with one; the module writes each as a \u escape in a literal.
SURROGATES = {
    "type": "object",
    "properties": {
        "\ud83dkey": {"const": "a\udc00"},
        "lone": {"enum": ["\ud83d", 1]},
        "escaped": {"type": "string", "pattern": "^\\ud83d"},
    },
}


def _surrogate_literals(text: str) -> list[str]:
    return [
        node.value
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any("\ud800" <= c <= "\udfff" for c in node.value)
    ]


def test_literals_holding_a_lone_surrogate_are_built_with_chr() -> None:
    """mypyc refuses a str literal with a surrogate ("use chr(...) instead"): each becomes the same
    text joined from parts and chr() calls, on the same lines, and the module means the same."""
    text = generator.compile_source(SURROGATES, name="surrogates")
    assert _surrogate_literals(text)  # the control: the module has such literals
    # and an implicit concatenation over three lines, a docstring and a dict key
    text += (
        '\n\nLONG = (\n    "a\\ud83d"\n    "b"\n    "\\udc00c"\n)\n\n\ndef f() -> None:\n'
        '    "At /properties/\\ud83dkey."\n\n\nKEYED = {"\\ud83d": 1, "plain": 2}\n'
    )
    compiled = mypyc_source(text, "surrogates")
    assert _surrogate_literals(compiled) == []
    assert "chr(55357)" in compiled and "chr(56320)" in compiled
    assert compiled.count("\n") == text.count("\n")
    original_defs = {
        s.lineno: s.name for s in ast.parse(text).body if isinstance(s, ast.FunctionDef)
    }
    assert {
        s.lineno: s.name for s in ast.parse(compiled).body if isinstance(s, ast.FunctionDef)
    } == original_defs
    pure, variant = _run(text, "surrogates"), _run(compiled, "surrogates")
    assert variant.LONG == pure.LONG == "a\ud83db\udc00c" and variant.KEYED == pure.KEYED
    for instance in (
        {"\ud83dkey": "a\udc00", "lone": "\ud83d", "escaped": "\ud83dx"},
        {"\ud83dkey": "a"},
        {"lone": "\ud83e"},
        {"escaped": "x\ud83d"},
        {"lone": 1},
    ):
        assert variant.is_valid(instance) == pure.is_valid(instance)
        assert [e.message for e in variant.errors(instance)] == [
            e.message for e in pure.errors(instance)
        ]
    plain = (
        'def g() -> str:\n    return "\\\\ud83d is six characters"\n'  # a backslash, not an escape
    )
    assert source._without_surrogate_literals(plain) == plain


def test_a_string_of_many_surrogates_is_made_by_an_expression_of_one_size() -> None:
    """A string holding thousands of lone surrogates: its expression compiles, keeps the value and
    is no larger than for a few more than _MOST_CHR (a chain of `+ chr(55357)` took mypyc's build
    of 1,000 of them past 22 GB, and past about 1,500 is deeper than CPython compiles)."""

    def rebuilt(value: str) -> ast.expr:
        text = source._without_surrogate_literals(f"X = {value!r}\n")
        statement = ast.parse(text).body[0]
        assert isinstance(statement, ast.Assign) and not _surrogate_literals(text)
        namespace: dict[str, Any] = {}
        exec(compile(text, "many", "exec"), namespace)
        assert namespace["X"] == value
        return statement.value

    part = "a\ud83d\udc00\u00e9\U0001f600"  # (a high and a low surrogate side by side stay two)
    many = rebuilt(part * 4000)
    assert len(list(ast.walk(many))) == len(list(ast.walk(rebuilt(part * source._MOST_CHR))))
