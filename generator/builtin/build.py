"""Compile the built-in schemas into generator/builtin/modules/ (`make builtin`), or say which
modules are stale (`--check`; tests/validate/test_builtin.py runs the same comparison).

    python -m generator.builtin.build [--check]

Each vendored schema is compiled as `straightline validate --schema` would compile it (format an
annotation, unknown keywords ignored), with every vendored SchemaStore file as its registry under
SchemaStore's URLs (https://json.schemastore.org/NAME.json, the www. host, http:, and without
.json), so pyproject's `$ref: "partial-black.json"` and drone's Kubernetes definitions resolve;
nothing is fetched. Modules are written unformatted (nobody reads them; black on 4 MB of code
would take long) and atomically.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

from . import BUILTINS, MODULES, VENDOR, Builtin

HOSTS = (
    "https://json.schemastore.org/",
    "https://www.schemastore.org/",
    "http://json.schemastore.org/",
    "http://www.schemastore.org/",
)
INIT_TEXT = (
    '"""The built-in schemas, compiled by generator/builtin/build.py (do not edit: '
    '`make builtin`)."""\n'
)


def registry() -> dict[str, Any]:
    """Every vendored SchemaStore schema under each spelling of its SchemaStore URL."""
    found: dict[str, Any] = {}
    for path in sorted((VENDOR / "schemastore").glob("*.json")):
        value = json.loads(path.read_text(encoding="utf-8-sig"))
        for host in HOSTS:
            found[host + path.name] = value
            found.setdefault(host + path.stem, value)
    return found


def compile_builtin(builtin: Builtin, schemas: dict[str, Any] | None = None) -> str:
    """The module text of one built-in schema."""
    from ..api import compile_source

    source = (VENDOR / builtin.source).read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # (unsafe patterns run in `re`, as validate --schema runs them)
        return compile_source(
            source,
            name=builtin.module,
            format=False,
            profile=builtin.profile,
            registry=registry() if schemas is None else schemas,
            base_uri=builtin.origin,
            unknown_keywords="ignore",
        )


def stale() -> list[str]:
    """The module files that are missing or differ from what the vendored schemas compile to."""
    schemas = registry()
    problems = []
    for builtin in BUILTINS:
        path = builtin.module_path
        text = compile_builtin(builtin, schemas)
        if not path.is_file():
            problems.append(f"{path.relative_to(MODULES.parent)}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{path.relative_to(MODULES.parent)}: stale")
    init = MODULES / "__init__.py"
    if not init.is_file() or init.read_text(encoding="utf-8") != INIT_TEXT:
        problems.append("modules/__init__.py: missing or changed")
    listed = {builtin.module_path.name for builtin in BUILTINS} | {"__init__.py"}
    problems += [
        f"modules/{path.name}: no built-in schema compiles to it"
        for path in sorted(MODULES.glob("*.py"))
        if path.name not in listed
    ]
    return problems


def _write(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (a temporary file renamed over it)."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def build() -> None:
    MODULES.mkdir(exist_ok=True)
    schemas = registry()
    for builtin in BUILTINS:
        _write(builtin.module_path, compile_builtin(builtin, schemas))
    _write(MODULES / "__init__.py", INIT_TEXT)
    listed = {builtin.module_path.name for builtin in BUILTINS} | {"__init__.py"}
    for path in MODULES.glob("*.py"):
        if path.name not in listed:
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        problems = stale()
        for problem in problems:
            print(f"generator/builtin/{problem} (regenerate: make builtin)", file=sys.stderr)
        return 1 if problems else 0
    if args:
        print("usage: python -m generator.builtin.build [--check]", file=sys.stderr)
        return 2
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
