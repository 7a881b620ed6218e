"""`python .../generator/native/worker.py`: one mypyc build, run by build_native in a process of its
own (mypy, setuptools and the C compiler print freely, and setuptools changes process state), in a
temporary directory that holds a copy of the module in its package layout.

    python generator/native/worker.py --opt-level 3 --part-bytes N --build DIR --lib DIR PACKAGE/PATH/MODULE.py

or, with `--c NAME=FILE.c[,FILE.c...]` (the C backend, c_module.py; repeated, built in parallel),
each C file (or the units c_build.c_units cut it into, linked) is built as the extension module
of that dotted name, mypyc unused (`--sanitize`: with AddressSanitizer and
UndefinedBehaviorSanitizer).

The extension lands in the --lib directory under the module's package path. Exit status 0 on
success; otherwise mypy's or the compiler's messages are on the output and the status is not 0
(mypyc exits with 1 when mypy refuses the module, which the parent recognises by its messages).
It is run as a script, so it imports nothing of straightline (a package of the user's named
`generator` cannot get in the way), and mypy reads only the empty configuration made for it
(`mypy.ini` in the current directory), never the user's own.
"""

from __future__ import annotations

import argparse
import os
import re
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="worker.py")
    parser.add_argument("--opt-level", default="3", choices=("0", "1", "2", "3"))
    parser.add_argument(
        "--units-opt-level",
        choices=("0", "1", "2", "3"),
        help="(--c) the level for an extension of several units (a large module); --opt-level's if not given",
    )
    parser.add_argument(
        "--part-bytes",
        type=int,
        default=1_500_000,
        help="C text per file: mypyc's C file is split into files of about this size, compiled in parallel",
    )
    parser.add_argument("--build", required=True, help="directory for the C sources and objects")
    parser.add_argument("--lib", required=True, help="directory the extension is written to")
    parser.add_argument(
        "--c",
        metavar="NAME=FILE",
        action="append",
        default=[],
        help="build the C file as the extension module NAME (the module argument is then left out)",
    )
    parser.add_argument(
        "--sanitize", action="store_true", help="(--c) with -fsanitize=address,undefined"
    )
    parser.add_argument(
        "module", nargs="?", help="the module file, relative to the current directory"
    )
    args = parser.parse_args(argv)
    if args.c:
        c_extensions = [c_extension(*pair.split("=", 1), args) for pair in args.c]  # type: ignore[call-arg]
        _setup(c_extensions, args, parallel=os.cpu_count() or 1)
        return 0
    if args.module is None:
        parser.error("a module file is needed")

    from mypyc.build import include_dir, mypycify

    extensions = mypycify(
        ["--config-file", "mypy.ini", args.module],
        opt_level=args.opt_level,
        debug_level="0",
        target_dir=args.build,
    )
    for extension in extensions:
        if (
            include_dir() in extension.include_dirs
        ):  # (not the small extension that loads a library)
            for source in extension.sources:
                if source.endswith(".c"):
                    include_guard(source)
    whole = {
        source: _read(source)
        for extension in extensions
        for source in extension.sources
        if source.endswith(".c")
    }
    if os.name != "nt":  # (the strict flags are gcc's and clang's)
        for extension in extensions:
            parts = [
                part
                for source in list(extension.sources)
                for part in split_c_file(source, args.part_bytes)
            ]
            extension.sources += parts
            extension.extra_compile_args += STRICT_FLAGS if parts else []
    try:
        _setup(extensions, args)
    except (
        SystemExit,
        Exception,
    ):  # noqa: BLE001 - a split that does not compile: built whole, as mypyc wrote it
        if not any("__part" in source for extension in extensions for source in extension.sources):
            raise
        print(
            "straightline: the split C files did not compile; building the C file whole", flush=True
        )
        for extension in extensions:
            extension.sources = [source for source in extension.sources if "__part" not in source]
            extension.extra_compile_args = [
                a for a in extension.extra_compile_args if a not in STRICT_FLAGS
            ]
        for source, text in whole.items():
            with open(source, "w", encoding="utf-8") as file:
                file.write(text)
        _setup(extensions, args)
    return 0


def c_extension(name: str, sources: str, args: argparse.Namespace) -> object:
    """The C backend's extension NAME: its C files (comma-separated: the units c_build.c_units
    cut, compiled in parallel), the headers beside them."""
    from setuptools import Extension

    files = sources.split(",")
    level = args.units_opt_level if len(files) > 1 and args.units_opt_level else args.opt_level
    flags = [f"-O{level}", "-g0"] if os.name != "nt" else []
    if len(files) > 1 and os.name != "nt":
        # (what one file kept static is shared between units, hidden outside the extension; each
        # unit has the runtime header's static functions, most unused there)
        flags += ["-fvisibility=hidden", "-Wno-unused-function", *STRICT_FLAGS]
    linked = []
    if args.sanitize:
        sanitize = [
            "-fsanitize=address,undefined",
            "-fno-omit-frame-pointer",
            "-fno-sanitize-recover=undefined",
        ]
        flags, linked = flags + sanitize, sanitize
    return Extension(
        name,
        sources=files,
        include_dirs=[os.path.dirname(os.path.abspath(files[0]))],
        extra_compile_args=flags,
        extra_link_args=linked,
    )


def _setup(extensions: list[object], args: argparse.Namespace, parallel: int = 1) -> None:
    """setuptools' build_ext of the extensions (`parallel`: that many extensions at a time)."""
    from setuptools import setup

    setup(
        name="straightline-native",
        ext_modules=extensions,
        script_name="setup.py",
        cmdclass={"build_ext": _parallel_build_ext()},
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            args.lib,
            "--build-temp",
            args.build,
            *([f"--parallel={parallel}"] if parallel > 1 and len(extensions) > 1 else []),
        ],
    )


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as file:
        return file.read()


# -- the guard ------------------------------------------------------------------------------------
# guard.h (beside this file) is included first by each C file mypyc writes for the module, and by
# each part of one: it keeps an int comparison at the recursion limit from aborting the process
# and checks the C stack before each call through Python's call protocol (what it says).

GUARD = "straightline_guard.h"
# The headers copied beside the C files: guard.h and the stack check it includes (stack.h).
HEADERS = {GUARD: "guard.h", "straightline_stack.h": "stack.h"}


def include_guard(path: str) -> None:
    """Copy guard.h (and stack.h) beside the C file at `path` and include it first there."""
    copy_headers(os.path.dirname(path))
    text = _read(path)
    if not text.startswith(f'#include "{GUARD}"\n'):
        with open(path, "w", encoding="utf-8") as file:
            file.write(f'#include "{GUARD}"\n' + text)


def copy_headers(directory: str, headers: dict[str, str] = HEADERS) -> None:
    """Write the named headers of generator/native (values) into `directory` under their keys."""
    for copied, original in headers.items():
        text = _read(os.path.join(os.path.dirname(os.path.abspath(__file__)), original))
        with open(os.path.join(directory, copied), "w", encoding="utf-8") as file:
            file.write(text)


# -- the C file split ------------------------------------------------------------------------------
# mypyc writes one C file for a module, and one compiler process on it takes most of a large
# module's build (FHIR's: 22 MB of C). Its functions (`CPyDef_...`, their wrappers `CPyPy_...`) are
# declared in the headers it writes beside it, so those that use nothing the file keeps to itself
# (a `static` of the file) can move to other files, compiled in parallel and linked with it.

_UNIT_END = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|//[^\n]*|^#[^\n]*\n|[{};]', re.S | re.M
)
_FUNCTION_HEAD = re.compile(r"^\s*(?!static\b)[A-Za-z_][\w \t*]*\b(CPyDef|CPyPy)_\w*\s*\(", re.S)
# What the C file keeps to itself: a static, or a function it declares (not its headers).
_STATIC = re.compile(r"^\s*static\b[^=;(\[{]*?(\w+)\s*(?:\[[^\]]*\]\s*)?[=;(\[{]", re.S)
_PROTOTYPE = re.compile(r"^\s*[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^{;]*\)\s*;\s*\Z", re.S)
_DECLARED = re.compile(r"\b(\w+)\s*\(")
_OWN_HEADER = re.compile(r'^#include "([^"]+)"$', re.M)
_RUNTIME_INCLUDE = re.compile(r"^#include <(\w+)\.c>$", re.M)
# Parts are compiled so that any name they lack a declaration for is an error, never a guess.
STRICT_FLAGS = [
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=int-conversion",
]


def split_c_file(path: str, part_bytes: int) -> list[str]:
    """Move the functions of the C file at `path` that may live elsewhere into part files of about
    `part_bytes` each (which include the file's headers), rewrite it without them, and return the
    part files' paths; none when the file is under two parts or its text is not cut as expected."""
    text = _read(path)
    units = _top_level_units(text)
    if len(text) < 2 * part_bytes or units is None or "".join(units) != text:
        return []
    statics = _local_names(units, path, text)
    uses_static = re.compile(r"\b(?:" + "|".join(sorted(statics)) + r")\b") if statics else None
    kept: list[str] = []
    moved: list[str] = []
    for unit in units:
        movable = _FUNCTION_HEAD.match(unit) and unit.rstrip().endswith("}")
        (moved if movable and not (uses_static and uses_static.search(unit)) else kept).append(unit)
    headers = _part_headers(text)
    parts = _parts(moved, part_bytes)
    if not headers or len(parts) < 2:
        return []
    paths = []
    for index, part in enumerate(parts):
        part_path = path[:-2] + f"__part{index}.c"
        with open(part_path, "w", encoding="utf-8") as file:
            file.write(headers + "".join(part))
        paths.append(part_path)
    with open(path, "w", encoding="utf-8") as file:
        file.write("".join(kept))
    return paths


def _local_names(units: list[str], path: str, text: str) -> set[str]:
    """The names only the C file itself declares: its statics, and the functions it declares that
    its own headers do not."""
    directory = os.path.dirname(path)
    in_headers = {
        name
        for header in _OWN_HEADER.findall(text)
        for name in _DECLARED.findall(_read(os.path.join(directory, header)))
    }
    statics = {match.group(1) for unit in units if (match := _STATIC.match(unit))}
    declared_here = {match.group(1) for unit in units if (match := _PROTOTYPE.match(unit))}
    return statics | (declared_here - in_headers)


def _part_headers(text: str) -> str:
    """The includes a part needs: the headers of the runtime's C files the file includes (where
    the runtime has one), then the file's own headers."""
    from mypyc.build import include_dir

    runtime = [
        name
        for name in _RUNTIME_INCLUDE.findall(text)
        if os.path.isfile(os.path.join(include_dir(), name + ".h"))
    ]
    own = [line for line in text.splitlines(keepends=True)[:64] if line.startswith('#include "')]
    guard = [line for line in own if line == f'#include "{GUARD}"\n']  # first, as in the file
    rest = [line for line in own if line not in guard]
    return (
        "".join(guard) + "".join(f"#include <{name}.h>\n" for name in runtime) + "".join(rest)
        if rest
        else ""
    )


def _top_level_units(text: str) -> list[str] | None:
    """The text cut after each top-level `;`, `}` (back at depth 0) and preprocessor line, strings,
    characters and comments skipped; None when the braces do not balance."""
    units, depth, start = [], 0, 0
    for match in _UNIT_END.finditer(text):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        if depth < 0:
            return None
        if depth == 0 and (token in ("}", ";") or token.startswith("#")):
            end = text.find("\n", match.end()) + 1 or len(text)  # the rest of the line with it
            if end > start:
                units.append(text[start:end])
                start = end
    units.append(text[start:])
    return units if depth == 0 else None


def _parts(functions: list[str], part_bytes: int) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    size = 0
    for function in functions:
        if size >= part_bytes:
            parts.append([])
            size = 0
        parts[-1].append(function)
        size += len(function)
    return [part for part in parts if part]


def _parallel_build_ext() -> type:
    """build_ext whose compiler compiles an extension's C files in parallel, one process a core."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class ParallelBuildExt(build_ext):  # type: ignore[misc]
        def build_extension(self, ext: object) -> None:
            compile_serially = self.compiler.compile

            def compile_in_parallel(
                sources: list[str], *args: object, **kwargs: object
            ) -> list[str]:
                with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
                    done = pool.map(
                        lambda source: compile_serially([source], *args, **kwargs), sources
                    )
                    return [obj for objects in done for obj in objects]

            self.compiler.compile = compile_in_parallel
            try:
                super().build_extension(ext)
            finally:
                self.compiler.compile = compile_serially

    return ParallelBuildExt


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
