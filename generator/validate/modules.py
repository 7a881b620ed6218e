"""A generated module as something that can travel to another process: its source text (a schema
compiled in the parent) or the path of its file (`--module`). Each process loads a given module
once (keyed by its text's hash or its path) and reuses it for every chunk it is handed, so nothing
is executed, let alone compiled, per chunk. A worker process is handed the code the parent
compiled (marshalled), so a module is compiled once per run, not once per process: where no
bytecode cache is written (PYTHONDONTWRITEBYTECODE, a read-only directory), a large module's
compile is most of a short run's start-up (docs/performance.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import marshal
import stat
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import OptionError

# Output formats of the JSON Schema specification that a module's output() may be asked for.
SPEC_OUTPUT_FORMATS = ("basic", "detailed", "verbose")

# Loaded modules of this process, by ModuleSource.key, and the code each was executed from
# (absent for a module that is not Python source: a --native extension).
_LOADED: dict[str, types.ModuleType] = {}
_CODE: dict[str, types.CodeType] = {}


@dataclass(frozen=True)
class ModuleSource:
    """A generated module: `text` (executed as a fresh module) or `path` (imported from that
    file). Picklable and small enough to hand to every worker."""

    name: str
    text: str | None = None
    path: str | None = None
    key: str = field(default="", compare=False)
    label: str = field(default="", compare=False)  # the path as the user gave it, for messages
    # the module's code as this process compiled it, marshalled (for_workers): executed as it is
    code: bytes | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def from_text(text: str, name: str = "straightline_validator") -> "ModuleSource":
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        return ModuleSource(name=name, text=text, key="text:" + digest)

    @staticmethod
    def from_path(path: str | Path) -> "ModuleSource":
        resolved = Path(path).resolve()
        return ModuleSource(
            name=_module_name(resolved),
            path=str(resolved),
            key="path:" + str(resolved),
            label=str(path),
        )

    @staticmethod
    def of(module: Any) -> "ModuleSource":
        """The source of a module object: its recorded text (compile_module keeps it as
        `__source__`) or the file it was imported from."""
        if isinstance(module, ModuleSource):
            return module
        if isinstance(module, (str, Path)):
            return ModuleSource.from_path(module)
        text = getattr(module, "__source__", None)
        if isinstance(text, str):
            return ModuleSource.from_text(
                text, getattr(module, "__name__", "straightline_validator")
            )
        file = getattr(module, "__file__", None)
        if isinstance(file, str):
            return ModuleSource.from_path(file)
        raise OptionError(
            "the module has neither its source text (__source__) nor a file (__file__)"
        )

    def for_workers(self) -> "ModuleSource":
        """This source with the code this process loaded it from, for worker processes of the
        same Python (marshal's format is that of the running version): they execute it without
        compiling it again. Unchanged where this process has not loaded it from Python code."""
        code = _CODE.get(self.key)
        if code is None or self.code is not None:
            return self
        return dataclasses.replace(self, code=marshal.dumps(code))

    def by_key(self) -> "ModuleSource":
        """This source without its text and code, for the tasks of a process that has loaded it
        (ProcessPoolExecutor's initializer did): each task is pickled, and the text of a compiled
        schema can be megabytes."""
        return dataclasses.replace(self, text=None, code=None)

    def load(self) -> types.ModuleType:
        """The module, executed once per process."""
        module = _LOADED.get(self.key)
        if module is None:
            module = self._execute()
            _LOADED[self.key] = module
        return module

    def _compiled(self) -> types.CodeType:
        """The code of `text`: the parent's, where it was handed over, else compiled here."""
        assert self.text is not None
        if self.code is not None:
            return marshal.loads(self.code)  # type: ignore[no-any-return]
        return compile(self.text, f"<straightline {self.name}>", "exec")

    def _execute(self) -> types.ModuleType:
        if self.text is not None:
            module = types.ModuleType(self.name)
            module.__dict__["__source__"] = self.text
            try:
                code = self._compiled()
                exec(code, module.__dict__)
            except (Exception, SystemExit) as exc:  # a custom format's module that does not import
                raise OptionError(
                    f"the compiled schema cannot be loaded ({type(exc).__name__}: {exc}); "
                    "a custom format's module must be importable (on PYTHONPATH)"
                ) from None
            _CODE[self.key] = code
            return module
        if self.path is None:
            raise OptionError(f"the module {self.name} is not loaded in this process")
        module, executed = _import_file(
            Path(self.path), self.name, self.label or self.path, self.code
        )
        if executed is not None:
            _CODE[self.key] = executed
        return module


def _module_name(path: Path) -> str:
    """A module name of its own for a file (two files named alike do not collide)."""
    digest = hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in path.stem)
    return f"straightline_validate_{stem}_{digest}"


def _os_reason(exc: OSError) -> str:
    """Why a path cannot be used, in the words `ls` would use ("no such file", "permission denied")."""
    return (
        "no such file" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc)).lower()
    )


def _import_file(
    path: Path, name: str, label: str, marshalled: bytes | None = None
) -> tuple[types.ModuleType, types.CodeType | None]:
    """Import a module file (from `marshalled`, its code as the parent compiled it, where given),
    and the code it was executed from (None for an extension module); any failure is an
    OptionError naming the file (it is the user's file: a syntax error in it is their mistake,
    not a crash of ours)."""
    try:
        is_file = stat.S_ISREG(path.stat().st_mode)
    except OSError as exc:  # absent, or in a directory that cannot be searched
        raise OptionError(f"--module {label}: {_os_reason(exc)}") from None
    if not is_file:
        raise OptionError(f"--module {label}: not a regular file")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise OptionError(f"--module {label}: not a Python module file")
    module = importlib.util.module_from_spec(spec)
    loader: Any = spec.loader
    code: types.CodeType | None = None
    try:
        # what exec_module does for Python source (get_code, then exec), keeping the code
        if marshalled is not None:
            code = marshal.loads(marshalled)
        elif isinstance(loader, importlib.machinery.SourceFileLoader):
            code = loader.get_code(name)
        if code is None:
            loader.exec_module(module)
        else:
            exec(code, module.__dict__)
    except (Exception, SystemExit) as exc:  # arbitrary Python: report, never a traceback or an exit
        raise OptionError(
            f"--module {label}: cannot load it ({type(exc).__name__}: {exc})"
        ) from None
    return module, code


def check_module(module: types.ModuleType, output_format: str, where: str) -> None:
    """Refuse (OptionError) a module that cannot do what was asked: no is_valid/errors (a tool
    contract module has is_valid_input instead), or no output() for basic/detailed/verbose."""
    missing = [name for name in ("is_valid", "errors") if not callable(getattr(module, name, None))]
    if missing:
        hint = ""
        if callable(getattr(module, "is_valid_input", None)):
            hint = " (a tool contract module: compile its input or output schema on its own)"
        raise OptionError(
            f"{where}: not a straightline validator module, it has no {', '.join(missing)}{hint}"
        )
    if output_format in SPEC_OUTPUT_FORMATS and not callable(getattr(module, "output", None)):
        version = getattr(module, "STRAIGHTLINE", {}).get("version", "an unknown version")
        raise OptionError(
            f"{where}: the module has no output formats (no output() function; made by straightline "
            f"{version}), so --output {output_format} cannot be produced; use --output json or text"
        )
