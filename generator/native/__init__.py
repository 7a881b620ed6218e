"""Native builds: a generated module compiled with mypyc (mypy's compiler) into a C extension
beside it, `NAME.cpython-311-x86_64-linux-gnu.so` next to `NAME.py`.

Python's import system tries a directory's extension modules before its source files, so
`import NAME` loads the native module where one was built for the running interpreter, and the
pure-Python module everywhere else (another Python version, a machine without the build, the
extension removed). The pure module stays the default and the fallback; both are the same
program, from the same text.

Each extension has a record beside it, `NAME.cpython-311-x86_64-linux-gnu.so.json`: the SHA-256 of
the module text it was compiled from and of the extension itself. It is how `straightline check`
tells an extension that still matches its module from one that would shadow a newer module, and
how `straightline compile` knows which extensions it built (it removes only those).

The build runs in a temporary directory, in a process of its own (generator/native/worker.py), and
the extension is moved into place atomically: a failed or interrupted build never leaves a
half-written extension, and a process that has the old one loaded keeps it.

What mypyc compiles is the module's text with its static types and module-level tables run through
`exec` at import, cut where the renderer's sections say (generator/native/source.py: mypy spent
minutes on FHIR's types, and mypyc's analysis of a huge top level ran out of memory); the C it writes is compiled in parts, in parallel
(worker.py). Each of those C files includes guard.h first: an int comparison at the recursion limit
cannot abort the process, and a call that would run the C stack low raises RecursionError instead.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..errors import StraightlineError
from ..files import write_atomic
from ..render.sections import RenderedModule
from .source import mypyc_source

# The file name ending of an extension module for the running interpreter (the first is the
# one the import system tries first, and the one setuptools builds).
EXTENSION_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
RECORD_SUFFIX = ".json"
RECORD_FORMAT = "straightline-native/1"
# Any interpreter's extension module of NAME: NAME.<tag>.so / NAME.so / NAME.<tag>.pyd.
_EXTENSION_NAME = re.compile(r"(?P<stem>[^.]+)(?P<tag>\.[A-Za-z0-9_-]+)?\.(so|pyd)")
# Package directories followed upwards to name the module (mypy's own rule: __init__.py files).
_MAX_PACKAGE_DEPTH = 32
# mypyc's C file is split into files of about this much C, compiled in parallel (worker.py): FHIR's
# 22 MB in 15.
C_PART_BYTES = 1_500_000
# How many of mypy's error lines a refused build reports.
_SHOWN_ERRORS = 8
_SHOWN_OUTPUT = 2000


class NativeBuildError(StraightlineError):
    """A native build could not be made; the pure-Python module is unaffected."""

    code = "native-build-failed"


class CompilerNotFound(NativeBuildError):
    """No C compiler (or no Python headers) for a native build: the message names what is missing."""

    code = "no-c-compiler"


# -- the toolchain ---------------------------------------------------------------------------------


def c_compiler() -> tuple[str, str]:
    """The C compiler command the build will run, and where that choice comes from (setuptools
    runs `CC` from the environment, else the one Python was built with)."""
    if os.environ.get("CC"):
        return os.environ["CC"], "the CC environment variable"
    return (
        str(sysconfig.get_config_var("CC") or "cc"),
        "the compiler Python was built with (sysconfig CC)",
    )


def check_toolchain(mypyc: bool = True) -> None:
    """Raise CompilerNotFound (naming it) unless a C compiler, Python's headers and (`mypyc`)
    mypyc are there. (On Windows, setuptools finds MSVC itself: only mypyc and the headers are
    checked.)"""
    if mypyc and importlib.util.find_spec("mypyc") is None:
        raise NativeBuildError(
            "native builds need mypyc, which comes with mypy: pip install 'straightline[native]'"
        )
    if os.name != "nt":
        command, source = c_compiler()
        try:
            program = shlex.split(command)[0]
        except (ValueError, IndexError):
            raise CompilerNotFound(
                f"no C compiler: {source} is {command!r}, not a command"
            ) from None
        if shutil.which(program) is None:
            raise CompilerNotFound(
                f"no C compiler found: {program!r} ({source}) is not installed or not on "
                "PATH; install one (gcc or clang) or set CC, or compile without native"
            )
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        raise CompilerNotFound(
            f"Python's C headers are not installed ({headers} is missing): install the "
            "python3-dev (or python3-devel) package, or compile without native"
        )


# -- names and records -----------------------------------------------------------------------------


def extension_path(module: Path) -> Path:
    """The extension module the running interpreter imports in place of `module` (NAME.py)."""
    return module.with_name(module.stem + EXTENSION_SUFFIX)


def record_path(extension: Path) -> Path:
    return extension.with_name(extension.name + RECORD_SUFFIX)


def library_stem(stem: str) -> str:
    """The name of the library mypyc builds beside a module that lies inside a package."""
    return stem + "__mypyc"


def library_path(module: Path) -> Path:
    return module.with_name(library_stem(module.stem) + EXTENSION_SUFFIX)


def dotted_name(module: Path) -> str:
    """The name the module is imported by: its stem, under each enclosing package (a directory
    with an __init__.py), as mypy names it."""
    parts = [module.stem]
    directory = module.resolve().parent
    for _ in range(_MAX_PACKAGE_DEPTH):
        if not (directory / "__init__.py").is_file() or not directory.name.isidentifier():
            break
        parts.insert(0, directory.name)
        directory = directory.parent
    return ".".join(parts)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class NativeModule:
    """An extension module found beside a module file, and whether it may be used: `problem` is
    None when its record says it was built from the module's current text and it is unchanged."""

    path: Path
    recorded: bool  # straightline built it (a record is beside it)
    problem: str | None
    current_interpreter: bool  # the running interpreter would import it


def native_modules(module: Path) -> list[NativeModule]:
    """Every extension module beside `module` that some interpreter would import in its place."""
    try:
        names = sorted(os.listdir(module.parent))
    except OSError:
        return []
    text = _read_or_none(module)
    found = []
    for name in names:
        match = _EXTENSION_NAME.fullmatch(name)
        if match is None or match.group("stem") != module.stem:
            continue
        path = module.parent / name
        recorded, problem = _judge(path, text)
        found.append(NativeModule(path, recorded, problem, name == module.stem + EXTENSION_SUFFIX))
    return found


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _judge(extension: Path, module_text: bytes | None) -> tuple[bool, str | None]:
    """(whether straightline's record is there, what is wrong with the extension or None)."""
    fields = _record_of(extension)
    if fields is None:
        return False, "an extension module straightline did not build (no record beside it)"
    files = fields.get("files")
    if (
        not isinstance(files, dict)
        or fields.get("format") != RECORD_FORMAT
        or extension.name not in files
    ):
        return True, "its record is unreadable"
    if module_text is None:
        return True, "its module is missing"
    if fields.get("module_sha256") != _sha256(module_text):
        return True, "it was built from another version of the module"
    for name, sha in files.items():
        data = _read_or_none(extension.with_name(str(name)))
        if data is None or sha != _sha256(data):
            return True, f"{name} is missing or was changed after it was built"
    return True, None


def _record_of(extension: Path) -> dict[str, object] | None:
    """The record beside an extension ({} when it is there but not JSON), or None."""
    data = _read_or_none(record_path(extension))
    if data is None:
        return None
    try:
        fields = json.loads(data)
    except ValueError:
        return {}
    return fields if isinstance(fields, dict) else {}


def backend_of(module: Path) -> str | None:
    """The backend ("c" or "mypyc") that built the running interpreter's extension of `module`,
    as its record names it; None without a record."""
    fields = _record_of(extension_path(module))
    if fields is None:
        return None
    backend = fields.get("backend", "mypyc")
    return backend if isinstance(backend, str) else None


def remove_native(module: Path, *, keep_current: bool = False) -> list[Path]:
    """Remove the extension modules straightline built for `module` (with their records), and
    return them; `keep_current` keeps one that matches the module text. An extension without a
    record is never removed (straightline did not write it). OSError propagates."""
    removed = []
    for found in native_modules(module):
        if not found.recorded or (keep_current and found.problem is None):
            continue
        files = (_record_of(found.path) or {}).get("files")
        found.path.unlink(missing_ok=True)  # the extension first: without it the library is unused
        for name in files if isinstance(files, dict) else ():
            if _is_library_of(str(name), module.stem):
                (module.parent / str(name)).unlink(missing_ok=True)
        record_path(found.path).unlink(missing_ok=True)
        removed.append(found.path)
    return removed


def _is_library_of(name: str, stem: str) -> bool:
    """Whether a file named in a record is the module's mypyc library (a record names nothing
    else that may be removed: it is data in the user's tree)."""
    match = _EXTENSION_NAME.fullmatch(name)
    return match is not None and match.group("stem") == library_stem(stem)


def built_files(module: Path) -> list[Path]:
    """The files a package needs at run time for the native module of `module` (the extension
    and its library), when the running interpreter's is there and current; else none."""
    extension = extension_path(module)
    if not is_current(module):
        return []
    files = (_record_of(extension) or {}).get("files")
    return [module.parent / str(name) for name in files] if isinstance(files, dict) else [extension]


def is_current(module: Path) -> bool:
    """Whether the running interpreter's extension of `module` is there and built from its text."""
    return any(f.current_interpreter and f.problem is None for f in native_modules(module))


# -- the build -------------------------------------------------------------------------------------


def build_native(
    module_path: str | os.PathLike[str],
    rendered: RenderedModule | None = None,
    *,
    opt_level: int = 3,
    timeout: float | None = None,
) -> Path:
    """Compile the generated module at `module_path` with mypyc into an extension module beside
    it (for the running interpreter), with its record, and return the extension's path.

    `rendered`: the module as the compile rendered it (generator.api.compile_rendered, or
    contracts.compile_contract_rendered): its text must be the file's. With it, mypyc compiles a
    variant of the text that runs the static types and tables at import (native/source.py);
    without it, the module as it stands (a small module's build only: a module with a str that
    holds a lone surrogate is refused, and a large one's types take mypy minutes).

    Raises CompilerNotFound when there is no C compiler or no Python headers, and
    NativeBuildError when mypy refuses the module or the C build fails (with their messages);
    then nothing beside the module has changed. The module must be importable by its file name
    (an identifier); its enclosing packages (directories with __init__.py) give its full name.
    `timeout` (seconds) ends a build that takes longer, with NativeBuildError (a large module's
    build takes minutes, nearly all in the C compiler: docs/native.md); `opt_level` is the C
    compiler's -O. mypyc's C is compiled in parts in parallel (worker.py); the record names the
    module text itself.
    """
    module = Path(module_path)
    if module.suffix != ".py" or not module.stem.isidentifier():
        raise NativeBuildError(
            f"{module}: a native build needs a module file NAME.py, NAME an identifier"
        )
    if not module.is_file():
        raise NativeBuildError(f"{module}: not a file")
    check_toolchain()
    text = module.read_bytes()
    name = dotted_name(module)
    compiled = _compiled_text(text, name.rsplit(".", 1)[-1], rendered, module)
    with tempfile.TemporaryDirectory(prefix="straightline-native-") as work:
        built = [
            path.read_bytes() for path in _compile(Path(work), name, compiled, opt_level, timeout)
        ]
    if _read_or_none(module) != text:
        raise NativeBuildError(
            f"{module}: the module changed while it was being compiled; build it again"
        )
    return _install(module, text, built)


def _compile(
    work: Path, name: str, compiled: bytes, opt_level: int, timeout: float | None
) -> list[Path]:
    """Run the worker on a copy of the module in its package layout under `work`: the extension
    and, for a module inside a package, its library (mypyc's layout: a small extension of the
    module's name that loads the compiled code from `NAME__mypyc`, beside it)."""
    source_root = work / "src"
    *packages, stem = name.split(".")
    directory = source_root
    for package in packages:
        directory = directory / package
        directory.mkdir(parents=True)
        (directory / "__init__.py").write_bytes(b"")
    directory.mkdir(parents=True, exist_ok=True)
    copy = directory / (stem + ".py")
    copy.write_bytes(compiled)
    (source_root / "mypy.ini").write_text(
        "[mypy]\n"
    )  # mypy reads this, not the user's configuration
    relative = copy.relative_to(source_root).as_posix()
    command = [
        sys.executable,
        str(Path(__file__).with_name("worker.py")),
        "--opt-level",
        str(opt_level),
        "--part-bytes",
        str(C_PART_BYTES),
        "--build",
        str(work / "build"),
        "--lib",
        str(work / "lib"),
        relative,
    ]
    status, output = _run(command, source_root, timeout)
    if status is None:
        raise NativeBuildError(
            f"the native build of module {name} took over {timeout:g} s and was "
            "stopped; the pure-Python module is used"
        )
    built = work / "lib" / Path(relative).parent
    files = [built / (stem + EXTENSION_SUFFIX), built / (library_stem(stem) + EXTENSION_SUFFIX)]
    if status != 0 or not files[0].is_file() or (packages and not files[1].is_file()):
        raise NativeBuildError(_failure(name, relative, output))
    return files if packages else files[:1]


def _compiled_text(text: bytes, name: str, rendered: RenderedModule | None, module: Path) -> bytes:
    """What mypyc compiles: the module with its static types and tables run at import, from how
    it was rendered (native/source.py); without that, the module as it stands."""
    if rendered is None:
        return text
    if rendered.text.encode("utf-8", "surrogatepass") != text:
        raise NativeBuildError(
            f"{module}: the module is not the one given as rendered; compile it again, then "
            "build it"
        )
    return mypyc_source(rendered, name).encode("utf-8")


def _run(command: list[str], directory: Path, timeout: float | None) -> tuple[int | None, str]:
    """Run the worker; (exit status, output), or (None, output) when it ran out of time (then it
    and everything it started, the C compiler included, are stopped: it leads a session)."""
    with subprocess.Popen(
        command,
        cwd=directory,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        start_new_session=os.name != "nt",
    ) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(process)
            output, _ = process.communicate()
            return None, output
        except BaseException:  # interrupted: leave no compiler running
            _stop(process)
            raise
        return process.returncode, output


def _stop(process: subprocess.Popen[str]) -> None:
    if os.name != "nt":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
    process.kill()


def _failure(name: str, relative: str, output: str) -> str:
    """The message of a failed build: mypy's errors when it refused the module, else the end of
    the compiler's output."""
    errors = [line for line in output.splitlines() if ": error:" in line]
    if errors:
        shown = [
            line.replace(relative, name.rsplit(".", 1)[-1] + ".py", 1)
            for line in errors[:_SHOWN_ERRORS]
        ]
        more = f" (and {len(errors) - _SHOWN_ERRORS} more)" if len(errors) > _SHOWN_ERRORS else ""
        return (
            f"mypyc refused module {name} ({len(errors)} type error(s){more}); the pure-Python module "
            "is used:\n  " + "\n  ".join(shown)
        )
    tail = output.strip()[-_SHOWN_OUTPUT:] or "(no output)"
    return f"the C build of module {name} failed; the pure-Python module is used:\n{tail}"


def _install(module: Path, text: bytes, built: list[bytes], backend: str = "mypyc") -> Path:
    """Move the built files beside the module, each atomically (the library before the extension
    that loads it), then write the record (which names the backend that built them)."""
    extension = extension_path(module)
    record = record_path(extension)
    record.unlink(missing_ok=True)  # an extension without its record is never taken for current
    files = [extension, library_path(module)][: len(built)]
    for path, data in reversed(list(zip(files, built))):
        write_atomic(path, data, executable=True)
    fields = {
        "format": RECORD_FORMAT,
        "module": module.name,
        "module_sha256": _sha256(text),
        "files": {path.name: _sha256(data) for path, data in zip(files, built)},
        "straightline": __version__,
        "python": sys.implementation.cache_tag,
        **({"mypy": _mypy_version()} if backend == "mypyc" else {"backend": backend}),
    }
    write_atomic(record, json.dumps(fields, indent=2, sort_keys=True) + "\n")
    return extension


def _mypy_version() -> str | None:
    try:
        from mypy.version import __version__ as version
    except ImportError:  # the build just ran mypyc, so this is not expected
        return None
    return version


__all__ = [
    "CompilerNotFound",
    "EXTENSION_SUFFIX",
    "NativeBuildError",
    "NativeModule",
    "backend_of",
    "build_native",
    "built_files",
    "check_toolchain",
    "c_compiler",
    "dotted_name",
    "extension_path",
    "is_current",
    "native_modules",
    "record_path",
    "remove_native",
]
