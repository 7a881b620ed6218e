"""generator/native/source.py: the text mypyc compiles for a module runs its static types and its
module-level data through `exec` at import, cut where the renderer's tagged sections say
(render/sections.py), never by parsing the text. Checked here without a C compiler: the text keeps
the module's line numbers, defines exactly the same names to the same values (types compared by
what they say), leaves functions and (in a module of ordinary size) constants compiled, declares
for mypy each name the compiled code uses, and demotes the constants of a module too large for
mypyc's top level. (tests/test_native.py builds modules through it and compares them with the
pure ones.)
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

from generator.api import compile_rendered
from generator.codegen import literal
from generator.jobs import Registries, render_job
from generator.native import NativeBuildError, _compiled_text, source
from generator.native.source import mypyc_source
from generator.project import find_config, load_project
from generator.render.sections import CODE, CONSTANT, DATA, TYPES, RenderedModule

from .conftest import ROOT

sys.path.insert(0, str(ROOT))
from bench.cases import select_cases  # noqa: E402


def _run(text: str, name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(text, f"{name}.py", "exec"), module.__dict__)
    return module


def _bench_module(case_name: str, format: bool = False) -> RenderedModule:
    load = select_cases([case_name])[0][0][1]
    case = load()
    return compile_rendered(case.schema_text, profile=case.profile, format=format)[0]


def _generated(stem: str) -> RenderedModule:
    """The module of generated/ whose file is `stem`.py, rendered as `straightline compile`
    renders it (its text is the file's)."""
    project = load_project(find_config(ROOT))
    (job,) = [job for job in project.jobs if job.target.stem == stem]
    rendered = render_job(job, Registries(), on_event=lambda event: None)
    assert rendered.text == job.target.read_text()
    return rendered


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
    "tool-package": lambda: _generated("tool_package_schema"),
    "math.add": lambda: _generated("math_add"),
    "swagger": lambda: _bench_module("swagger"),
    "swagger-formatted": lambda: _bench_module("swagger", format=True),
}


@pytest.mark.parametrize("which", sorted(SOURCES))
def test_the_same_names_and_values_with_the_same_line_numbers(which: str) -> None:
    module = SOURCES[which]()
    text = module.text
    compiled = mypyc_source(module, "sample")
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


@pytest.mark.parametrize("which", ["swagger", "swagger-formatted", "math.add"])
def test_the_sections_are_the_text_cut_at_top_level_statements(which: str) -> None:
    """The renderer's sections: whole lines, in order, that join to the text; each starts a
    top-level statement, and each tagged one holds what its kind says (checked here with ast,
    which the build itself never uses)."""
    module = SOURCES[which]()
    assert "".join(s.text for s in module.sections) == module.text
    line = 1
    starts = {s.lineno for s in ast.parse(module.text).body}
    kinds = set()
    for section in module.sections:
        assert section.text.endswith("\n")
        kinds.add(section.kind)
        body = ast.parse(section.text).body  # each section is whole statements
        if section is not module.sections[0]:
            assert line in starts
        if section.kind == CONSTANT:
            (statement,) = body
            assert isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
            assert section.defines == (statement.target.id,)
            assert ast.unparse(statement.annotation).startswith("Final")
        elif section.kind == TYPES:
            assert all(isinstance(s, (ast.AnnAssign, ast.Assign, ast.ClassDef)) for s in body)
        elif section.kind == DATA:
            bound = [
                s.targets[0].id
                for s in body
                if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
            ]
            assert list(section.defines) == bound
        line += section.text.count("\n")
    assert {CODE, CONSTANT, TYPES} <= kinds


def test_the_native_builds_are_made_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No module of generator/native imports `ast` (the C backend reads a literal's value from
    the code tree's Lit, not its text), and no parse runs while the mypyc text is made."""
    for stem in sorted(p.stem for p in (ROOT / "generator" / "native").glob("*.py")):
        text = (ROOT / "generator" / "native" / f"{stem}.py").read_text()
        assert not re.search(r"^\s*(import ast\b|from ast import)|\bast\.", text, re.M), stem
    module = _generated("tool_package_schema")
    calls: list[object] = []
    real = ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert "exec(compile(" in mypyc_source(module, "m")
    assert calls == []


def test_swagger_constants_stay_compiled_and_its_tables_are_run() -> None:
    """A module of ordinary size: its Final constants are still top-level statements mypyc
    compiles; its table updates, the pairs they hold and the aliases are not; the root type is
    declared, and each name of the data the compiled code reads, by the type the renderer gave it.
    """
    compiled_text = mypyc_source(_bench_module("swagger"), "swagger")
    compiled = ast.parse(compiled_text)
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
        if isinstance(s, ast.Assign) and re.match(r"_Q|_v0r", ast.unparse(s.targets[0]))
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
    annotated = {
        ast.unparse(s) for s in compiled.body if isinstance(s, ast.AnnAssign) and s.value is None
    }
    # a plain alias, a tuple of alternatives (swagger memoizes nothing: its doublings are bounded)
    assert "_v20r: Any" in annotated
    assert any(re.fullmatch(r"_B\d+: tuple\[Any, \.\.\.\]", d) for d in annotated), annotated
    assert not [d for d in annotated if "Callable" in d]
    assert not [d for d in annotated if d.startswith("_Q")]  # only the tables read them
    # an alias through a memo wrapper is declared by the wrapper's return type
    recursive = ast.parse(mypyc_source(_bench_module("recursive"), "recursive"))
    declared = {
        ast.unparse(s) for s in recursive.body if isinstance(s, ast.AnnAssign) and s.value is None
    }
    assert any(re.fullmatch(r"_v\d+r: Callable\[\.\.\., bool\]", d) for d in declared), declared


def test_a_module_too_large_for_mypycs_top_level_runs_its_constants_at_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = _generated("tool_package_schema")
    constants = [s for s in module.sections if s.kind == CONSTANT]
    assert len(constants) > 50
    small = ast.parse(mypyc_source(module, "small"))
    compiled_constants = [s for s in small.body if isinstance(s, ast.AnnAssign) and s.value]
    assert len(compiled_constants) >= len(constants)  # (and the copied primitives' own)
    monkeypatch.setattr(source, "_MAX_COMPILED_TOP_LEVEL", len(constants) - 1)
    large_text = mypyc_source(module, "large")
    large = ast.parse(large_text)
    left = {
        ast.unparse(s.target)
        for s in large.body
        if isinstance(s, ast.AnnAssign) and s.value is not None
    }
    assert not left & {name for s in constants for name in s.defines}
    # the names the compiled functions use are declared for mypy: with the type their Final or
    # their value says
    declared = {ast.unparse(s) for s in large.body if isinstance(s, ast.AnnAssign) and not s.value}
    assert {
        "_F26: dict[str, tuple[Any, Any]]",
        "_T28: tuple[frozenset[Any], tuple[Any, ...]]",
        "_S18: frozenset[Any]",
        "_A23: tuple[Any, ...]",
    } <= declared
    assert not [d for d in declared if d.startswith("_L27")]  # no compiled code reads it
    pure, variant = _run(module.text, "m"), _run(large_text, "m")
    assert sorted(vars(pure)) == sorted(vars(variant))
    for instance in ({}, {"name": "x"}, [], {"artifacts": {"source": 3}}):
        assert variant.is_valid(instance) is pure.is_valid(instance)
        assert [e.message for e in variant.errors(instance)] == [
            e.message for e in pure.errors(instance)
        ]


def test_a_module_of_one_code_section_is_unchanged() -> None:
    text = "def f(x: int) -> int:\n    return x + 1\n\n\nclass A(Exception):\n    pass\n"
    assert mypyc_source(RenderedModule.of_text(text), "m") == text


def test_the_build_takes_the_rendered_module_of_the_files_text_only(tmp_path: Path) -> None:
    """Without the rendered module, mypyc is given the module as it stands; with one, its text
    must be the file's (else a typed error: the sections would cut other text)."""
    module = _generated("math_add")
    path = tmp_path / "math_add.py"
    data = module.text.encode()
    assert _compiled_text(data, "math_add", None, path) == data
    assert b"exec(compile(" in _compiled_text(data, "math_add", module, path)
    with pytest.raises(NativeBuildError, match="not the one given as rendered"):
        _compiled_text(data + b"\nX = 1\n", "math_add", module, path)


def test_a_type_named_only_in_a_string_is_declared() -> None:
    """A module whose is_valid is its root function names the root type only in a cast's string."""
    module = compile_rendered({"type": "object", "properties": {"a": {"type": "integer"}}})[0]
    assert 'is_valid = cast("Callable[[Any], TypeGuard[Instance]]", _v0)' in module.text
    assert "Instance = Any; exec(" in mypyc_source(module, "m")


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
# enum value (one alone, and one in quotes: a literal whose text holds the other's) and a pattern
# with one; the module writes each as a \u escape in a literal (a docstring names the property).
SURROGATES = {
    "type": "object",
    "properties": {
        "\ud83dkey": {"const": "a\udc00"},
        "lone": {"enum": ["\ud83d", 1, '"\ud83d"']},
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


@pytest.mark.parametrize("format", [True, False])
def test_literals_holding_a_lone_surrogate_are_built_with_chr(format: bool) -> None:
    """mypyc refuses a str literal with a surrogate ("use chr(...) instead"): each becomes the same
    text joined from parts and chr() calls, on the same lines, and the module means the same. The
    renderer names those literals, as codegen.literal wrote them."""
    module = compile_rendered(SURROGATES, name="surrogates", format=format)[0]
    text = module.text
    found = _surrogate_literals(text)
    assert found  # the control: the module has such literals, a docstring among them
    assert "Every error of the subschema at /properties/\ud83dkey." in found
    assert dict(module.surrogates) == {literal(v).text: v for v in set(found)}
    compiled = mypyc_source(module, "surrogates")
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
    for instance in (
        {"\ud83dkey": "a\udc00", "lone": "\ud83d", "escaped": "\ud83dx"},
        {"\ud83dkey": "a"},
        {"lone": "\ud83e"},
        {"lone": '"\ud83d"'},
        {"lone": '"\ud83d'},
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
    assert source._without_surrogate_literals(plain, dict(module.surrogates)) == plain


def test_a_string_of_many_surrogates_is_made_by_an_expression_of_one_size() -> None:
    """A string holding thousands of lone surrogates: its expression compiles, keeps the value and
    is no larger than for a few more than _MOST_CHR (a chain of `+ chr(55357)` took mypyc's build
    of 1,000 of them past 22 GB, and past about 1,500 is deeper than CPython compiles)."""

    def rebuilt(value: str) -> ast.expr:
        written = literal(value).text
        text = source._without_surrogate_literals(f"X = {written}\n", {written: value})
        statement = ast.parse(text).body[0]
        assert isinstance(statement, ast.Assign) and not _surrogate_literals(text)
        namespace: dict[str, Any] = {}
        exec(compile(text, "many", "exec"), namespace)
        assert namespace["X"] == value
        return statement.value

    part = "a\ud83d\udc00\u00e9\U0001f600"  # (a high and a low surrogate side by side stay two)
    many = rebuilt(part * 4000)
    assert len(list(ast.walk(many))) == len(list(ast.walk(rebuilt(part * source._MOST_CHR))))


def test_compile_hands_each_mypyc_build_the_module_it_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`straightline compile` with native = "mypyc" gives each build the module as it rendered
    it (a schema's and a tool contract's), whose text is the file it wrote; no build runs here."""
    from generator import jobs

    (tmp_path / "a.json").write_text('{"type": "object", "required": ["\\ud83d"]}')
    (tmp_path / "math_add.json").write_bytes((ROOT / "contracts/tools/math.add.json").read_bytes())
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[tool.straightline]\nout = "out"\ncontracts = ["a.json", "math_add.json"]\n'
        'native = "mypyc"\n'
    )
    given: list[tuple[Path, RenderedModule | None]] = []

    def build(path: Path, rendered: RenderedModule | None = None, **options: Any) -> Path:
        given.append((path, rendered))
        return path.with_suffix(".so")

    monkeypatch.setattr(jobs, "check_toolchain", lambda **options: None)
    monkeypatch.setattr(jobs, "build_native", build)
    result = jobs.compile_jobs(load_project(config).jobs)
    assert sorted(path.name for path, _ in given) == ["a.py", "math_add.py"], result.events
    for path, rendered in given:
        assert rendered is not None and rendered.text == path.read_text()
        assert [s.kind for s in rendered.sections].count(TYPES) >= 1
    (schema,) = [rendered for path, rendered in given if path.name == "a.py"]
    assert schema is not None and dict(schema.surrogates) == {'"\\ud83d"': "\ud83d"}


def test_sealing_grows_the_first_section_only() -> None:
    """The header's seal adds lines to the first section; any other change of the text is not
    this module's sealing and is refused."""
    module = RenderedModule(
        (RenderedModule.of_text("# header\n").sections[0], *_generated("math_add").sections[1:])
    )
    sealed = module.resealed("# header\n# sealed: 1\n" + module.text[len("# header\n") :])
    assert sealed.sections[0].text == "# header\n# sealed: 1\n"
    assert sealed.sections[1:] == module.sections[1:]
    with pytest.raises(ValueError):
        module.resealed(module.text + "X = 1\n")
