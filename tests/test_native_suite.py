"""On demand (STRAIGHTLINE_NATIVE_SUITE=1, or a comma-separated list of drafts): every schema of
the official JSON Schema Test Suite and the bench schemas, compiled natively, give the answers
the suite expects, the reference interpreter's error locations, and exactly the pure module's
errors. Hundreds of mypyc builds would take hours, so the suite's modules are compiled in
batches, each one mypyc run over many modules (one library), at -O1; the bench schemas one by
one with build_native, as users build them. Long: tens of minutes on two cores.

A module mypyc refuses because a local is inferred as None (the re-test of a type already
decided, which a tree pass of the emitter is to remove) is listed, not failed; any other refusal
fails the test.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.api import compile_rendered
from generator.native import NativeBuildError, build_native

from .suite import DRAFTS, groups, suite_files
from .test_conformance import _remotes, run_file

WANTED = os.environ.get("STRAIGHTLINE_NATIVE_SUITE", "")
pytestmark = pytest.mark.skipif(
    not WANTED, reason="STRAIGHTLINE_NATIVE_SUITE is not set (long: see the docstring)"
)
SELECTED = [d for d in DRAFTS if WANTED in ("1", "all") or d in WANTED.split(",")]
BATCH = 120  # modules per mypyc run
KNOWN_REFUSAL = "has inferred type None"

_BATCH_BUILD = """
import sys
from mypyc.build import mypycify
from setuptools import setup
paths = sys.argv[1:]
extensions = mypycify(["--config-file", "mypy.ini", *paths], opt_level="1", debug_level="0", multi_file=True)
setup(name="suite", ext_modules=extensions, script_name="setup.py",
      script_args=["--quiet", "build_ext", "--inplace", "--parallel", "2"])
"""


def _key(schema: Any, draft: str) -> str:
    return draft + json.dumps(schema, sort_keys=True)


def _build_batch(
    root: Path, package: str, sources: dict[str, str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Compile `sources` (module name -> text) in one mypyc run as modules of `package` under
    `root`; the imported modules, and the ones mypyc refused (name -> its first error)."""
    directory = root / package
    directory.mkdir(parents=True)
    (directory / "__init__.py").write_text("")
    (root / "mypy.ini").write_text("[mypy]\n")
    refused: dict[str, str] = {}
    names = sorted(sources)
    for name in names:
        (directory / f"{name}.py").write_text(sources[name])
    while True:
        left = [n for n in names if n not in refused]
        done = subprocess.run(
            [sys.executable, "-c", _BATCH_BUILD, *(f"{package}/{n}.py" for n in left)],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=6 * 3600,
        )
        if done.returncode == 0:
            break
        errors = [line for line in done.stdout.splitlines() if ": error:" in line]
        new = {line.split("/", 1)[1].split(".py:", 1)[0]: line for line in errors}
        assert errors and not set(new) & set(refused), done.stdout[-3000:] + done.stderr[-3000:]
        refused.update(new)
    sys.path.insert(0, str(root))
    try:
        modules = {n: importlib.import_module(f"{package}.{n}") for n in names if n not in refused}
    finally:
        sys.path.remove(str(root))
    return modules, refused


@pytest.mark.parametrize("draft", SELECTED)
def test_the_suite_through_native_modules(draft: str, tmp_path: Path) -> None:
    sources: dict[str, str] = {}
    keys: dict[str, str] = {}
    pure: dict[str, Any] = {}
    for path in suite_files(draft):
        for _, schema, _ in groups(path):
            key = _key(schema, draft)
            if key in keys:
                continue
            try:
                text = generator.compile_source(
                    schema, profile=draft, registry=_remotes(), format=False
                )
            except generator.SchemaError:
                continue  # refused by the compiler: run_file reports what the suite expects
            keys[key] = name = f"m{len(keys)}"
            sources[name] = text
            pure[key] = generator.compile_module(
                schema, profile=draft, registry=_remotes(), format=False
            )
    native: dict[str, Any] = {}
    refused: dict[str, str] = {}
    names = sorted(sources, key=lambda n: int(n[1:]))
    for start in range(0, len(names), BATCH):
        chunk = {n: sources[n] for n in names[start : start + BATCH]}
        built, no = _build_batch(
            tmp_path / f"b{start}", f"suite_{draft.replace('-', '_')}_{start}", chunk
        )
        native.update(built)
        refused.update(no)
    unexpected = {n: e for n, e in refused.items() if KNOWN_REFUSAL not in e}
    assert not unexpected, "\n".join(unexpected.values())
    print(
        f"{draft}: {len(native)} modules built natively; {len(refused)} refused ({KNOWN_REFUSAL})"
    )

    def compile_native(schema: Any, draft_: str) -> Any:
        key = _key(schema, draft_)
        if key not in keys:  # the compiler refused it: let run_file see the same refusal
            return generator.compile_module(
                schema, profile=draft_, registry=_remotes(), format=False
            )
        if keys[key] in refused:  # listed above: the pure module stands in
            return pure[key]
        module = native[keys[key]]
        assert module.__file__.endswith(".so")
        return _Both(module, pure[key])

    failures = [
        f
        for path in suite_files(draft)
        for f in run_file(draft, path, compile_native, compare_with_reference=True)
    ]
    assert not failures, "\n".join(failures[:50])


class _Both:
    """A native module that checks, on every call, that the pure module answers the same."""

    def __init__(self, native: Any, pure: Any) -> None:
        self.native, self.pure = native, pure

    def is_valid(self, instance: Any) -> bool:
        answer = self.native.is_valid(instance)
        assert answer is self.pure.is_valid(instance), instance
        return answer

    def errors(self, instance: Any) -> list[Any]:
        found = self.native.errors(instance)
        assert _errors(found) == _errors(self.pure.errors(instance)), instance
        return found


def _errors(found: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (e.instance_location, e.keyword_location, e.absolute_keyword_location, e.message)
        for e in found
    ]


BENCH = [
    "fast",
    "citm",
    "recursive",
    "geojson",
    "swagger",
    "fhir",
    "tool-package",
    "math.add",
    "strict.structured_completion",
]


@pytest.mark.parametrize("case_name", BENCH)
def test_bench_schemas_natively(case_name: str, tmp_path: Path) -> None:
    """Each bench case's module built as users build it: same answers and errors as the pure one
    on every instance of the case (the failing variants included)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.cases import select_cases

    for name, load in select_cases([case_name])[0]:
        case = load()
        rendered = compile_rendered(case.schema_text, profile=case.profile, format=False)[0]
        module_name = "bench_" + "".join(c if c.isalnum() else "_" for c in name)
        (tmp_path / f"{module_name}.py").write_text(rendered.text)
        try:
            build_native(tmp_path / f"{module_name}.py", rendered, timeout=3600)
        except NativeBuildError as error:
            if KNOWN_REFUSAL in error.message:
                pytest.xfail(f"{name}: {error.message}")
            raise
        sys.path.insert(0, str(tmp_path))
        try:
            native = importlib.import_module(module_name)
        finally:
            sys.path.remove(str(tmp_path))
        assert native.__file__.endswith(".so")
        pure = generator.compile_module(case.schema_text, profile=case.profile, format=False)
        for instance in case.instances:
            assert (
                native.is_valid(instance.value)
                is pure.is_valid(instance.value)
                is instance.expected_valid
            )
            assert _errors(native.errors(instance.value)) == _errors(
                pure.errors(instance.value)
            ), instance.name
