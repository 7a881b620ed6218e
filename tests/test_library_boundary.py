"""The library never imports the command line: no module of generator/ outside generator/cli
imports generator.cli, at its top or inside a function, absolutely or relatively. (The build
hooks and the native build call library functions; generator/__main__.py is the command.)"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "generator"
CLI = "generator.cli"
# `python -m generator` runs the command: it is the command's entry point, not the library
ENTRY_POINTS = {PACKAGE / "__main__.py"}
GENERATED = PACKAGE / "builtin" / "modules"  # compiled modules, not the compiler's code


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(source: str, path: Path) -> list[tuple[int, str]]:
    """Every module an import anywhere in `source` (the text of the module at `path`) names (and
    `from X import name`'s X.name, which may be a module), relative imports resolved."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def _imports_cli(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for line, module in _imported(path.read_text(encoding="utf-8"), path)
        if module == CLI or module.startswith(CLI + ".")
    ]


def test_no_library_module_imports_the_cli() -> None:
    library = [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.is_relative_to(PACKAGE / "cli")
        and not path.is_relative_to(GENERATED)
        and path not in ENTRY_POINTS
    ]
    assert len(library) > 50  # the scan sees the package
    assert [found for path in library for found in _imports_cli(path)] == []


def test_the_scan_sees_every_way_of_importing_it() -> None:
    """Not vacuous: each spelling, at the top or deferred into a function, is found."""
    spellings = [
        "from ..cli.commands import compile_jobs",
        "from .. import cli",
        "from ..cli import main",
        "import generator.cli.files",
        "from generator.cli import files",
        "import importlib\nimportlib.import_module('generator.cli.native')",
    ]
    placed = PACKAGE / "build" / "probe.py"  # (where its relative imports start)
    for spelling in spellings:
        body = "def later():\n" + "".join(f"    {line}\n" for line in spelling.splitlines())
        found = _imported(body, placed)
        assert any(m == CLI or m.startswith(CLI + ".") for _, m in found), spelling
