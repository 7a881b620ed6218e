"""The C backend's build (`build_c_native`): a generated module's fast path rendered as C from its
code tree (c_module.py) and built with the system C compiler, through setuptools and sysconfig's
settings, into the extension module beside the module file, as build_native puts mypyc's.

The code tree comes from the caller who compiled the module (`compiled`: `straightline compile`,
the build hooks and the bench pass theirs, so a schema is compiled once per build), or else from
compiling the schema again with the options the module was compiled with; the module text of that
compile must be the module file's, byte for byte, so the C is always the fast path of exactly that
module (the record names the text it was built from, as for mypyc). No mypy: a C compiler and
Python's headers are all the build needs. A large module's C is cut into units compiled in
parallel (c_units), along the top-level units c_module.py records as it writes the C.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..render.module import root_of
from . import (
    EXTENSION_SUFFIX,
    NativeBuildError,
    _install,
    _read_or_none,
    _run,
    check_toolchain,
    dotted_name,
)
from .c_module import CModule, CUnit, public_is_valid

if TYPE_CHECKING:
    from ..api import Built

# The headers of generator/native the C file includes, by the names it includes them by.
C_HEADERS = {"straightline_c.h": "c_runtime.h", "straightline_stack.h": "stack.h"}
# The C of functions one compiler process takes (c_units): a larger module is cut into units.
UNIT_BYTES = 1_000_000
# The C compiler's optimisation level (opt_level None): a module cut into units is compiled at
# -O1, which takes about 0.6 of -O2's time (FHIR, docs/native.md); others at -O2.
OPT_LEVEL, UNITS_OPT_LEVEL = 2, 1


def render_c(
    schema: Any,
    module_text: str,
    dotted: str,
    filename: str,
    compiled: tuple[str, Built] | None = None,
    **options: Any,
) -> CModule:
    """The C module of the module text compiled from `schema` with `options` (compile_source's),
    or of `compiled` (compile_built's answer for them, when the caller has it: the schema is then
    not compiled again); NativeBuildError when that text is not `module_text`."""
    from ..api import compile_built

    text, built = compiled if compiled is not None else compile_built(schema, **options)
    if text != module_text:
        raise NativeBuildError(
            f"{filename}: the module is not what this schema compiles to with these options; "
            "compile it again, then build it"
        )
    module = CModule(
        dotted,
        text,
        built.emitter.functions,
        built.emitter.aliases,
        filename,
        built.emitter.consts.definitions,
        built.emitter.pattern_sources,
        built.emitter.consts.late,
        public_is_valid(text, root_of(built.emitter, built.fast, built.error)),
    )
    module.render()
    return module


def build_c_native(
    module_path: str | os.PathLike[str],
    schema: Any,
    *,
    timeout: float | None = None,
    opt_level: int | None = None,
    sanitize: bool = False,
    unit_bytes: int = UNIT_BYTES,
    compiled: tuple[str, Built] | None = None,
    **options: Any,
) -> Path:
    """Build the C backend's extension of the generated module at `module_path` (compiled from
    `schema` with `options`, as compile_source takes them), beside it, with its record; return
    the extension's path. Raises CompilerNotFound without a C compiler or Python's headers, and
    NativeBuildError when the module is not the schema's or the C build fails (then nothing beside
    the module has changed). `sanitize` builds with AddressSanitizer and UndefinedBehaviorSanitizer
    (gcc or clang; the process that imports it must load the sanitizer's runtime first).
    `unit_bytes`: the C of a module whose functions come to more is compiled in units of about
    that size, in parallel (c_units). `opt_level`: the C compiler's for every module; None: -O2,
    and -O1 for a module cut into units. `compiled`: compile_built(schema, **options), when the
    caller has it (render_c; `schema` and `options` are then not read)."""
    return build_c_natives(
        [(module_path, schema, options)],
        timeout=timeout,
        opt_level=opt_level,
        sanitize=sanitize,
        unit_bytes=unit_bytes,
        compiled=[compiled],
    )[0]


def build_c_natives(
    jobs: list[tuple[str | os.PathLike[str], Any, dict[str, Any]]],
    *,
    timeout: float | None = None,
    opt_level: int | None = None,
    sanitize: bool = False,
    unit_bytes: int = UNIT_BYTES,
    compiled: list[tuple[str, Built] | None] | None = None,
) -> list[Path]:
    """build_c_native of each (module path, schema, options), in one build that compiles the C
    files in parallel; the modules' dotted names must differ. A failure builds none. `compiled`:
    each job's compile_built answer, or None (render_c)."""
    check_toolchain(mypyc=False)
    modules = []
    for (module_path, schema, options), tree in zip(
        jobs, compiled or [None] * len(jobs), strict=True
    ):
        module = Path(module_path)
        if module.suffix != ".py" or not module.stem.isidentifier():
            raise NativeBuildError(
                f"{module}: a native build needs a module file NAME.py, NAME an identifier"
            )
        data = _read_or_none(module)
        if data is None:
            raise NativeBuildError(f"{module}: not a file")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NativeBuildError(
                f"{module}: not a module straightline wrote (not UTF-8)"
            ) from None
        name = dotted_name(module)
        # (options may hold the module's own `name`: the C module's is its dotted name)
        c_module = render_c(schema, text, name, module.name, tree, **options)
        modules.append((module, data, name, c_module))
    names = [name for _, _, name, _ in modules]
    if len(set(names)) != len(names):
        raise NativeBuildError(
            "one build cannot hold two modules of the same name: " + ", ".join(sorted(names))
        )
    with tempfile.TemporaryDirectory(prefix="straightline-c-") as work:
        built = _compile(
            Path(work),
            [(name, c_units(c.units(), unit_bytes)) for _, _, name, c in modules],
            opt_level,
            sanitize,
            timeout,
        )
    for module, data, _, _ in modules:
        if _read_or_none(module) != data:
            raise NativeBuildError(
                f"{module}: the module changed while it was being compiled; build it again"
            )
    return [
        _install(module, data, [extension], backend="c")
        for (module, data, _, _), extension in zip(modules, built)
    ]


def _compile(
    work: Path,
    sources: list[tuple[str, list[str]]],
    opt_level: int | None,
    sanitize: bool,
    timeout: float | None,
) -> list[bytes]:
    """Build each (dotted name, its C units) in one worker; the extensions' bytes."""
    here = Path(__file__).parent
    pairs = []
    for index, (name, units) in enumerate(sources):
        directory = work / f"source{index}"
        directory.mkdir()
        stem = name.rsplit(".", 1)[-1]
        files = []
        for number, unit in enumerate(units):
            source = directory / (f"{stem}__unit{number}.c" if number else f"{stem}.c")
            source.write_text(unit, encoding="utf-8")
            files.append(source.relative_to(work).as_posix())
        for copied, original in C_HEADERS.items():
            (directory / copied).write_bytes((here / original).read_bytes())
        pairs += ["--c", f"{name}={','.join(files)}"]
    command = [
        sys.executable,
        str(here / "worker.py"),
        *pairs,
        "--opt-level",
        str(OPT_LEVEL if opt_level is None else opt_level),
        "--units-opt-level",
        str(UNITS_OPT_LEVEL if opt_level is None else opt_level),
        "--build",
        str(work / "build"),
        "--lib",
        str(work / "lib"),
        *(["--sanitize"] if sanitize else []),
    ]
    status, output = _run(command, work, timeout)
    shown = ", ".join(name for name, _ in sources)
    if status is None:
        raise NativeBuildError(
            f"the C build of {shown} took over {timeout:g} s and was stopped; "
            "the pure-Python module is used"
        )
    extensions = [
        work / "lib" / Path(*name.split(".")[:-1]) / (name.rsplit(".", 1)[-1] + EXTENSION_SUFFIX)
        for name, _ in sources
    ]
    if status != 0 or not all(path.is_file() for path in extensions):
        tail = output.strip()[-2000:] or "(no output)"
        raise NativeBuildError(
            f"the C build of {shown} failed; the pure-Python module is used:\n{tail}"
        )
    return [path.read_bytes() for path in extensions]


# -- translation units ----------------------------------------------------------------------------
# One compiler process on one C file took most of a large module's build (FHIR's 6 MB of
# functions: about 100 CPU s at -O2). Over unit_bytes of functions, the file is cut into units,
# compiled in parallel and linked: what the file kept to itself (`static`) becomes hidden
# (-fvisibility=hidden) and is declared in the prelude every unit starts with. The cut follows
# the file's top-level units as c_module.py recorded them when it wrote the file (CUnit).

# stack.h's per-thread state, one for all units (else each finds the thread's stack again), and
# c_runtime.h's (the running call's memo table: one for all units, as the call is)
_SHARED_STACK = "#define STRAIGHTLINE_STACK_SHARED 1\n"
_STACK_STATE = (
    "#ifdef STRAIGHTLINE_KNOWS_STACKS\n"
    "_Thread_local straightline_stack straightline_this_stack;\n"
    "#endif\n"
    "_Thread_local sl_memo *sl_memo_now;\n"  # (c_runtime.h's memo table of the running call)
)


def c_units(file_units: list[CUnit], unit_bytes: int = UNIT_BYTES) -> list[str]:
    """The C file of `file_units` (CModule.units()) as translation units: the first holds the
    module's data and initialisation, each other about `unit_bytes` of its functions. The file
    whole, alone, when its functions come to `unit_bytes` or less, or it has a unit this cut does
    not know (a kind it has no place for, a static unit that does not open with its declarator, a
    directive after a definition)."""
    whole = ["".join(unit.text for unit in file_units)]
    prelude: list[str] = []  # every unit's: directives, declarations, inline functions
    data: list[str] = []  # the first unit's: the module's data and its initialisation
    functions: list[str] = []
    declared: set[str] = set()
    for unit in file_units:
        static = unit.kind in ("prototype", "function", "data")
        if static and not (unit.declarator and unit.code.startswith(f"static {unit.declarator}")):
            return whole  # (what it declares is not what it says: no declaration to share)
        if unit.kind == "directive":
            if functions or data:  # (among definitions: it may guard them)
                return whole
            prelude.append(unit.text)
        elif unit.kind == "prototype":
            declared.add(unit.declarator)
            prelude.append(unit.shared)
        elif unit.kind == "inline":
            prelude.append(unit.text)
        elif unit.kind == "function":
            if unit.declarator not in declared:
                declared.add(unit.declarator)
                prelude.append(unit.declarator + ";\n")
            functions.append(unit.shared)
        elif unit.kind == "data":
            prelude.append("extern " + unit.declarator + ";\n")
            data.append(unit.shared)
        elif unit.kind == "init":
            data.append(unit.text)
        else:
            return whole
    size = sum(map(len, functions))
    if size <= unit_bytes:
        return whole
    count = -(-size // unit_bytes)
    units: list[list[str]] = [[] for _ in range(count)]
    done = 0
    for function in functions:  # (in order: a unit holds neighbours, which call each other)
        units[min(count - 1, done * count // size)].append(function)
        done += len(function)
    head = _SHARED_STACK + "".join(prelude)
    return [head + _STACK_STATE + "".join(data)] + [head + "".join(unit) for unit in units]


__all__ = ["C_HEADERS", "UNIT_BYTES", "build_c_native", "build_c_natives", "c_units", "render_c"]
