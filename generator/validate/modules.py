"""A generated module as something that can travel to another process: its source text (a schema
compiled in the parent) or the path of its file (`--module`). Each process loads a given module
once (keyed by its text's hash or its path) and reuses it for every chunk it is handed, so nothing
is executed, let alone compiled, per chunk."""

from __future__ import annotations

import hashlib
import importlib.util
import stat
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import OptionError

# Output formats of the JSON Schema specification that a module's output() may be asked for.
SPEC_OUTPUT_FORMATS = ("basic", "detailed", "verbose")

# Loaded modules of this process, by ModuleSource.key.
_LOADED: dict[str, types.ModuleType] = {}


@dataclass(frozen=True)
class ModuleSource:
    """A generated module: `text` (executed as a fresh module) or `path` (imported from that
    file). Picklable and small enough to hand to every worker."""

    name: str
    text: str | None = None
    path: str | None = None
    key: str = field(default="", compare=False)
    label: str = field(default="", compare=False)  # the path as the user gave it, for messages

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

    def load(self) -> types.ModuleType:
        """The module, executed once per process."""
        module = _LOADED.get(self.key)
        if module is None:
            module = self._execute()
            _LOADED[self.key] = module
        return module

    def _execute(self) -> types.ModuleType:
        if self.text is not None:
            module = types.ModuleType(self.name)
            module.__dict__["__source__"] = self.text
            try:
                exec(compile(self.text, f"<straightline {self.name}>", "exec"), module.__dict__)
            except (Exception, SystemExit) as exc:  # a custom format's module that does not import
                raise OptionError(
                    f"the compiled schema cannot be loaded ({type(exc).__name__}: {exc}); "
                    "a custom format's module must be importable (on PYTHONPATH)"
                ) from None
            return module
        assert self.path is not None
        return _import_file(Path(self.path), self.name, self.label or self.path)


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


def _import_file(path: Path, name: str, label: str) -> types.ModuleType:
    """Import a module file; any failure is an OptionError naming the file (it is the user's
    file: a syntax error in it is their mistake, not a crash of ours)."""
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
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # arbitrary Python: report, never a traceback or an exit
        raise OptionError(
            f"--module {label}: cannot load it ({type(exc).__name__}: {exc})"
        ) from None
    return module


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
