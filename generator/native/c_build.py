"""The C backend's build (`build_c_native`): a generated module's fast path rendered as C from its
code tree (c_module.py) and built with the system C compiler, through setuptools and sysconfig's
settings, into the extension module beside the module file, as build_native puts mypyc's.

The code tree comes from compiling the schema again with the options the module was compiled with;
the module text that compile renders must be the module file's, byte for byte, so the C is always
the fast path of exactly that module (the record names the text it was built from, as for mypyc).
No mypy: a C compiler and Python's headers are all the build needs.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import (
    EXTENSION_SUFFIX,
    NativeBuildError,
    _install,
    _read_or_none,
    _run,
    check_toolchain,
    dotted_name,
)
from .c_module import CModule

# The headers of generator/native the C file includes, by the names it includes them by.
C_HEADERS = {"straightline_c.h": "c_runtime.h", "straightline_stack.h": "stack.h"}


def render_c(schema: Any, module_text: str, dotted: str, filename: str, **options: Any) -> CModule:
    """The C module of the module text compiled from `schema` with `options` (compile_source's);
    NativeBuildError when that compile does not give `module_text`."""
    from ..api import compile_built

    text, built = compile_built(schema, **options)
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
    )
    module.render()
    return module


def build_c_native(
    module_path: str | os.PathLike[str],
    schema: Any,
    *,
    timeout: float | None = None,
    opt_level: int = 2,
    sanitize: bool = False,
    **options: Any,
) -> Path:
    """Build the C backend's extension of the generated module at `module_path` (compiled from
    `schema` with `options`, as compile_source takes them), beside it, with its record; return
    the extension's path. Raises CompilerNotFound without a C compiler or Python's headers, and
    NativeBuildError when the module is not the schema's or the C build fails (then nothing beside
    the module has changed). `sanitize` builds with AddressSanitizer and UndefinedBehaviorSanitizer
    (gcc or clang; the process that imports it must load the sanitizer's runtime first)."""
    return build_c_natives(
        [(module_path, schema, options)], timeout=timeout, opt_level=opt_level, sanitize=sanitize
    )[0]


def build_c_natives(
    jobs: list[tuple[str | os.PathLike[str], Any, dict[str, Any]]],
    *,
    timeout: float | None = None,
    opt_level: int = 2,
    sanitize: bool = False,
) -> list[Path]:
    """build_c_native of each (module path, schema, options), in one build that compiles the C
    files in parallel; the modules' dotted names must differ. A failure builds none."""
    check_toolchain(mypyc=False)
    modules = []
    for module_path, schema, options in jobs:
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
        modules.append((module, data, name, render_c(schema, text, name, module.name, **options)))
    names = [name for _, _, name, _ in modules]
    if len(set(names)) != len(names):
        raise NativeBuildError(
            "one build cannot hold two modules of the same name: " + ", ".join(sorted(names))
        )
    with tempfile.TemporaryDirectory(prefix="straightline-c-") as work:
        built = _compile(
            Path(work),
            [(name, c.render()) for _, _, name, c in modules],
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
    sources: list[tuple[str, str]],
    opt_level: int,
    sanitize: bool,
    timeout: float | None,
) -> list[bytes]:
    """Build each (dotted name, C text) in one worker; the extensions' bytes."""
    here = Path(__file__).parent
    pairs = []
    for index, (name, c_text) in enumerate(sources):
        directory = work / f"source{index}"
        directory.mkdir()
        source = directory / (name.rsplit(".", 1)[-1] + ".c")
        source.write_text(c_text, encoding="utf-8")
        for copied, original in C_HEADERS.items():
            (directory / copied).write_bytes((here / original).read_bytes())
        pairs += ["--c", f"{name}={source.relative_to(work).as_posix()}"]
    command = [
        sys.executable,
        str(here / "worker.py"),
        *pairs,
        "--opt-level",
        str(opt_level),
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


__all__ = ["C_HEADERS", "build_c_native", "build_c_natives", "render_c"]
