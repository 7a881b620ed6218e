"""Native builds (generator/native): a generated module compiled with mypyc into an extension
beside it, which Python imports in place of the module; the same answers and errors as the pure
module; no crash on deep instances; the build's failures are typed errors that leave nothing
behind; `straightline compile --native` / `check --native` and `native = true`.

mypyc builds are slow (tens of seconds each on a shared 2-core machine), so `make test` builds a
small sample (two at a time): the seed tool-package contract, a recursive schema with a dynamic
reference, a schema asserting every format (with a pattern for the linear-time matcher) and one
asserting draft 7's content, whose strings hold lone surrogates too; and math.add through the
command line. STRAIGHTLINE_NATIVE_SUITE=1 also builds every schema of the official test suite and
the bench schemas natively and checks them the same way (tests/test_native_suite.py).
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import types
import typing
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import generator
from generator.api import compile_rendered
from generator.jobs import Registries, render_job
from generator.native import (
    EXTENSION_SUFFIX,
    CompilerNotFound,
    NativeBuildError,
    build_native,
    extension_path,
    native_modules,
    record_path,
    remove_native,
)
from generator.native import source as native_source
from generator.project import find_config, load_project
from generator.reference import DraftReference
from generator.render.sections import RenderedModule

from .conftest import ROOT
from .errors.structure import structure
from .strategies import JSON, instances
from .test_subclass_values import lying
from .test_tool_package import SCHEMA as PACKAGE_SCHEMA
from .test_tool_package import valid_package

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler on this machine",
)

PACKAGE = "straightline_native_sample"  # the package the sample modules are imported from
TREE_BASE = "https://example.com/tree"
TREE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": TREE_BASE,
    "$dynamicAnchor": "node",
    "type": "object",
    "properties": {"data": True, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}},
}
# A strict tree (no unknown properties anywhere, through $dynamicRef), whose nodes may carry a
# chain of `meta` objects (a static recursion through $ref).
STRICT_TREE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.com/strict-tree",
    "$dynamicAnchor": "node",
    "$ref": "tree",
    "unevaluatedProperties": False,
    "properties": {"meta": {"$ref": "#/$defs/meta"}},
    "$defs": {
        "meta": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "pattern": "^[a-z]+$"},
                "parent": {"$ref": "#/$defs/meta"},
            },
            "additionalProperties": False,
        }
    },
}
REGISTRY = {TREE_BASE: TREE}
# Every code the module copies in beside the primitives: each format checker (format asserted), a
# pattern run by the linear-time matcher, a pattern run as str tests, and the applicators whose
# errors carry context; CONTENT: draft 7's content checkers.
FORMATS = [
    "date",
    "time",
    "date-time",
    "duration",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "ipv4",
    "ipv6",
    "hostname",
    "idn-hostname",
    "email",
    "idn-email",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "regex",
]
CHECKS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["date"],
    "properties": {
        **{name: {"type": "string", "format": name} for name in FORMATS},
        "risky": {"type": "string", "pattern": "^(a+)+b$"},
        "hex": {"type": "string", "pattern": "^[a-f0-9]{8}$"},
        "unique": {"type": "array", "uniqueItems": True},
        "enum": {"enum": [{"a": 1}, [1, 2], 1.5, "x"]},
        "cents": {"multipleOf": 0.01},
        "any": {"anyOf": [{"type": "integer", "minimum": 3}, {"type": "string", "minLength": 2}]},
        "one": {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
        "contains": {"type": "array", "contains": {"type": "integer"}, "minContains": 2},
        "closed": {"type": "object", "properties": {"a": True}, "unevaluatedProperties": False},
    },
}
# (with strings holding lone surrogates, which JSON allows and mypyc takes only from chr():
# generator/native/source.py)
CONTENT = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "json64": {"contentEncoding": "base64", "contentMediaType": "application/json"},
        "json": {"contentMediaType": "application/json"},
        "\ud83dkey": {"const": "a\udc00"},
        "lone": {"enum": ["\ud83d", 1]},
        "escaped": {"type": "string", "pattern": "^\\ud83d"},
    },
}


def _write_package(directory: Path) -> dict[str, RenderedModule]:
    """The sample modules written into the package, each as the compile rendered it (what the
    mypyc build reads: generator/native/source.py), by stem."""
    package = directory / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    project = load_project(find_config(ROOT))
    (job,) = [job for job in project.jobs if job.target.stem == "tool_package_schema"]
    modules = {
        "tool_package": render_job(job, Registries(), on_event=lambda event: None),
        "tree": compile_rendered(STRICT_TREE, registry=REGISTRY, name="tree")[0],
        "checks": compile_rendered(
            CHECKS, name="checks", format_assertion=True, unsafe_patterns="allow"
        )[0],
        "content": compile_rendered(CONTENT, name="content", content_assertion=True)[0],
    }
    assert modules["tool_package"].text == job.target.read_text()
    for stem, module in modules.items():
        (package / f"{stem}.py").write_text(module.text)
    return modules


def _pure(path: Path) -> Any:
    """The module file itself, executed as Python (whatever lies beside it)."""
    spec = importlib.util.spec_from_file_location(f"pure_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Sample:
    """The sample modules, native (imported by name) and pure (the same files, executed)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        rendered = _write_package(directory)
        self.package = directory / PACKAGE
        modules = [
            self.package / f"{name}.py" for name in ("tool_package", "tree", "checks", "content")
        ]
        # checks.py is built as a module too large for mypyc's top level (its constants run at
        # import, read from the module's namespace: generator/native/source.py) and for one C
        # file (its C compiled in parts of 100 KB: worker.py); the others as usual
        with (
            mock.patch.object(native_source, "_MAX_COMPILED_TOP_LEVEL", 0),
            mock.patch.object(generator.native, "C_PART_BYTES", 100_000),
        ):
            checks = build_native(modules[2], rendered["checks"])
        with ThreadPoolExecutor(max_workers=2) as pool:
            others = list(
                pool.map(
                    lambda module: build_native(module, rendered[module.stem]),
                    modules[:2] + modules[3:],
                )
            )
        self.extensions = others[:2] + [checks] + others[2:]
        sys.path.insert(0, str(directory))
        try:
            native = [importlib.import_module(f"{PACKAGE}.{module.stem}") for module in modules]
        finally:
            sys.path.remove(str(directory))
        self.package_native, self.tree_native, self.checks_native, self.content_native = native
        self.package_pure, self.tree_pure, self.checks_pure, self.content_pure = map(_pure, modules)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    return Sample(tmp_path_factory.mktemp("native"))


def _described(found: list[Any]) -> list[tuple[Any, ...]]:
    """Errors as comparable values: locations, message, keyword, params, the instance's JSON
    text, branch, and their context, recursively."""
    return [
        (
            e.instance_location,
            e.keyword_location,
            e.absolute_keyword_location,
            e.message,
            e.keyword,
            json.dumps(e.params, sort_keys=True, default=repr),
            json.dumps(e.instance, sort_keys=True, default=repr),
            e.branch,
            _described(e.context),
        )
        for e in found
    ]


def _errors(module: Any, instance: Any) -> list[tuple[Any, ...]]:
    return _described(module.errors(instance))


def assert_same(native: Any, pure: Any, instance: Any) -> None:
    """The native module answers exactly as the pure one: is_valid, every error (locations,
    absolute location, message, keyword, params, instance, context, in order), validate's first
    error, best_match and every output format (the report functions copied into the module)."""
    valid = pure.is_valid(instance)
    assert native.is_valid(instance) is valid, instance
    assert _errors(native, instance) == _errors(pure, instance), instance
    if not valid:
        with pytest.raises(native.ValidationError) as raised:
            native.validate(instance)
        assert raised.value.keyword_location == pure.errors(instance)[0].keyword_location
        assert _described([native.best_match(native.errors(instance))]) == _described(
            [pure.best_match(pure.errors(instance))]
        )
    for format in ("flag", "basic", "detailed", "verbose"):
        assert native.output(instance, format) == pure.output(instance, format), (format, instance)


# -- the native module is the one imported ----------------------------------------------------------


def test_the_extension_is_built_beside_the_module_with_its_record(sample: Sample) -> None:
    for extension in sample.extensions:
        assert extension.name.endswith(EXTENSION_SUFFIX) and extension.parent == sample.package
        record = json.loads(record_path(extension).read_text())
        assert record["module"] == extension.name[: -len(EXTENSION_SUFFIX)] + ".py"
        assert all((sample.package / name).is_file() for name in record["files"])
    assert not [p for p in sample.package.iterdir() if p.name.endswith(".tmp")]


def test_python_imports_the_extension_in_place_of_the_module(sample: Sample) -> None:
    native = sample.package_native
    assert native.__file__ == str(sample.package / ("tool_package" + EXTENSION_SUFFIX))
    assert (
        native.__name__ == f"{PACKAGE}.tool_package"
        and native.ValidationError.__module__ == native.__name__
    )
    assert not isinstance(native.is_valid, types.FunctionType)  # compiled: a builtin function
    assert isinstance(sample.package_pure.is_valid, types.FunctionType)


def _public(module: Any) -> dict[str, str]:
    """A module's names, each as what it holds: a TypedDict by its module, keys and their types,
    anything else as _plain says (without addresses)."""
    described = {}
    for name, value in vars(module).items():
        if name.startswith("__"):
            continue
        if typing.is_typeddict(value):
            assert value.__module__ == module.__name__, name
            value = (
                value.__name__,
                value.__total__,
                sorted(value.__required_keys__),
                sorted(value.__optional_keys__),
                value.__annotations__,
            )
        else:
            value = _plain(value)
        text = re.sub(r" at 0x[0-9a-f]+", "", repr(value))
        described[name] = text.replace(module.__name__, "MODULE")
    return described


def _plain(value: Any) -> Any:
    """A value with its sets sorted (a frozenset's order is how it was built) and what is called
    named by its name (a compiled function is a builtin)."""
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(repr(_plain(v)) for v in value))
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if callable(value) and hasattr(value, "__name__") and not isinstance(value, type):
        return ("callable", value.__name__)
    return value


def test_the_native_modules_define_the_same_names_and_types_as_the_pure_ones(
    sample: Sample,
) -> None:
    """The static types, tables and constants run at import in the extension (native/source.py)
    are there under the same names with the same values: TypedDicts with the same keys, each of
    the same type, made in the module (their __module__), the aliases the same unions."""
    pairs = [
        (sample.package_native, sample.package_pure),
        (sample.tree_native, sample.tree_pure),
        (sample.checks_native, sample.checks_pure),
        (sample.content_native, sample.content_pure),
    ]
    for native, pure in pairs:
        assert _public(native) == _public(pure), native.__name__
    assert typing.is_typeddict(sample.package_native.Instance)


def test_removing_the_extension_falls_back_to_the_pure_module(
    tmp_path: Path, sample: Sample
) -> None:
    """In a fresh interpreter: the extension is what imports; once removed, the module file."""
    copy_dir = tmp_path / "copy"
    shutil.copytree(sample.package, copy_dir / PACKAGE)
    probe = (
        f"import sys, types; sys.path.insert(0, {str(copy_dir)!r}); import {PACKAGE}.tool_package as m; "
        "print(m.__file__, isinstance(m.is_valid, types.FunctionType), m.is_valid({}))"
    )

    def imported() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert imported() == [
        str(copy_dir / PACKAGE / ("tool_package" + EXTENSION_SUFFIX)),
        "False",
        "False",
    ]
    module = copy_dir / PACKAGE / "tool_package.py"
    removed = remove_native(module)
    assert removed == [extension_path(module)] and native_modules(module) == []
    assert not list(
        (copy_dir / PACKAGE).glob("tool_package*.so*")
    )  # the library and the record too
    assert list((copy_dir / PACKAGE).glob("tree*.so*"))  # another module's are kept
    assert imported() == [str(module), "True", "False"]


# -- the same answers and errors as the pure module ----------------------------------------------

PACKAGE_REFERENCE = DraftReference(PACKAGE_SCHEMA, "draft2020-12")
SHA = "a" * 64


def _package_changes() -> list[Any]:
    """The seed contract's rules, each broken (the cases of tests/test_tool_package.py)."""
    base = valid_package()
    out: list[Any] = [base, [], "package", None]
    for path, value in [
        (["entry", "path"], "../etc/passwd"),
        (["entry", "path"], "src/./x"),
        (["entry", "runtime_version"], "latest"),
        (["entry", "runtime_version"], "latest\n"),
        (["artifacts", "source", "sha256"], "A" * 64),
        (["dependencies", 0, "sha256"], SHA + "\n"),
        (["entry", "artifact"], "binary"),
        (["effect"], "connector"),
        (["uses_model"], True),
        (["connector_operations"], ["a", "a"]),
        (["repeatability", "kind"], "declared_variation"),
        (["limits", "timeout_ms"], 0),
        (["limits", "timeout_ms"], 2.0),
        (["version"], True),
        (["extra"], 1),
        (["artifacts"], {}),
        (["artifacts", "binary"], {"uri": "u", "sha256": SHA}),
        (["provenance_refs"], []),
    ]:
        changed = copy.deepcopy(base)
        target = changed
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        out.append(changed)
    out += [{k: v for k, v in base.items() if k != key} for key in ("tool_key", "entry", "limits")]
    return out


@pytest.mark.parametrize("index", range(len(_package_changes())))
def test_the_seed_contract_natively_as_the_pure_module_and_the_reference(
    sample: Sample, index: int
) -> None:
    instance = _package_changes()[index]
    assert_same(sample.package_native, sample.package_pure, instance)
    assert sample.package_native.is_valid(instance) is PACKAGE_REFERENCE.is_valid(instance)
    found = sorted(
        (e.instance_location, e.keyword_location) for e in sample.package_native.errors(instance)
    )
    assert found == sorted(
        (e.instance_location, e.keyword_location) for e in PACKAGE_REFERENCE.errors(instance)
    )


def _mutated(draw: st.DrawFn) -> Any:
    """The valid package with a few of its values replaced, removed or added, anywhere."""
    package = valid_package()
    for _ in range(draw(st.integers(0, 3))):
        target, key = package, None
        while True:
            keys = (
                list(target)
                if isinstance(target, dict)
                else list(range(len(target))) if isinstance(target, list) else []
            )
            if not keys or (key is not None and draw(st.booleans())):
                break
            key = draw(st.sampled_from(keys))
            if not isinstance(target[key], (dict, list)):
                break
            target = target[key]
        if isinstance(target, dict) and key is not None and key in target:
            if draw(st.booleans()):
                target[key] = draw(JSON)
            else:
                del target[key]
        elif isinstance(target, dict):
            target[draw(st.sampled_from(["extra", "uri", "platform"]))] = draw(JSON)
    return package


@settings(max_examples=150)
@given(instance=st.composite(_mutated)())
def test_differential_seed_contract_native_and_pure(sample: Sample, instance: Any) -> None:
    assert_same(sample.package_native, sample.package_pure, instance)


@settings(max_examples=100)
@given(instance=st.composite(_mutated)())
def test_native_modules_read_subclasses_as_the_values_they_hold(
    sample: Sample, instance: Any
) -> None:
    """A subclass whose methods lie (tests/test_subclass_values.py) gets from the native module
    exactly what its plain value gets from the pure one."""
    disguised = lying(instance)
    assert sample.package_native.is_valid(disguised) is sample.package_pure.is_valid(instance)
    assert structure(sample.package_native.errors(disguised)) == structure(
        sample.package_pure.errors(instance)
    )


TREE_REFERENCE = DraftReference(STRICT_TREE, "draft2020-12", registry=REGISTRY)


@settings(max_examples=150)
@given(instance=st.one_of(instances(STRICT_TREE), instances(TREE), JSON))
def test_differential_dynamic_tree_native_pure_and_reference(sample: Sample, instance: Any) -> None:
    assert_same(sample.tree_native, sample.tree_pure, instance)
    found = sorted(
        (e.instance_location, e.keyword_location) for e in sample.tree_native.errors(instance)
    )
    assert found == sorted(
        (e.instance_location, e.keyword_location) for e in TREE_REFERENCE.errors(instance)
    )


def test_dynamic_tree_examples(sample: Sample) -> None:
    good = {
        "data": 1,
        "children": [{"children": []}, {"meta": {"name": "a", "parent": {"name": "b"}}}],
    }
    bad = {
        "children": [{"children": [{"oops": 1}]}],
        "meta": {"name": "a", "parent": {"name": "B"}},
    }
    for instance in (good, bad):
        assert_same(sample.tree_native, sample.tree_pure, instance)
    assert sample.tree_native.is_valid(good) and not sample.tree_native.is_valid(bad)
    assert (
        sorted(e.instance_location for e in sample.tree_native.errors(bad))
        == sorted(e.instance_location for e in TREE_REFERENCE.errors(bad))
        == ["/children", "/children/0/children", "/children/0/children/0/oops", "/meta/parent/name"]
    )


CHECK_STRINGS = [
    "",
    "x",
    "2020-01-01",
    "2020-02-30",
    "12:00:00Z",
    "2020-01-01T12:00:00+01:00",
    "P1D",
    "PT",
    "123e4567-e89b-12d3-a456-426614174000",
    "/a~1b",
    "0/a",
    "1#",
    "192.168.0.1",
    "256.1.1.1",
    "::1",
    "1::2::3",
    "example.com",
    "-bad-.com",
    "b\u00fccher.de",
    "xn--bcher-kva.de",
    "a@b.c",
    "a@[1.2.3.4]",
    "\u00fc@b.de",
    "http://example.com/a?b#c",
    "http://\u00fc.de/",
    "//a/b",
    "{a}",
    "{a",
    "(?<n>a)\\p{L}",
    "[",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac",
    "deadbeef",
    "DEADBEEF",
]


@pytest.mark.parametrize("text", CHECK_STRINGS)
def test_format_checkers_and_matchers_natively_as_the_pure_module(
    sample: Sample, text: str
) -> None:
    """Every copied format checker and both pattern engines, on each string (one instance holds
    it in every formatted property), and the applicators' errors with their context."""
    instance: dict[str, Any] = {name: text for name in FORMATS}
    instance |= {"risky": text, "hex": text}
    assert_same(sample.checks_native, sample.checks_pure, instance)
    assert_same(
        sample.checks_native,
        sample.checks_pure,
        {
            "date": text,
            "any": 1,
            "one": {"a": 1, "b": 2},
            "contains": [1, "a"],
            "closed": {"b": text},
        },
    )
    assert_same(
        sample.checks_native,
        sample.checks_pure,
        {"date": text, "unique": [1, 1.0, text, {"a": text}], "enum": {"a": 1.0}, "cents": 0.3},
    )


@pytest.mark.parametrize(
    "instance",
    [
        {"json64": "eyJhIjogMX0=", "json": "{}"},
        {"json64": "!!", "json": "{"},
        {"json64": "e30", "json": "[1]"},
        {"json64": "bm9wZQ==", "json": 1},
        [],
    ],
)
def test_content_checkers_natively_as_the_pure_module(sample: Sample, instance: Any) -> None:
    assert_same(sample.content_native, sample.content_pure, instance)


@pytest.mark.parametrize(
    "instance",
    [
        {"\ud83dkey": "a\udc00", "lone": "\ud83d", "escaped": "\U0001f600"},
        {"\ud83dkey": "a"},
        {"lone": "\ud83e"},
        {"escaped": "\ud83dx"},
        {"escaped": "x\ud83d"},
        {"lone": 1},
    ],
)
def test_lone_surrogates_in_the_schema_natively_as_the_pure_module(
    sample: Sample, instance: Any
) -> None:
    """A module whose literals hold lone surrogates is built (mypyc refused it) and answers alike."""
    assert sample.content_native.__file__.endswith(EXTENSION_SUFFIX)
    assert_same(sample.content_native, sample.content_pure, instance)


_DEEP = """
import sys
sys.path.insert(0, sys.argv[1])
import {package}.tree as tree
assert tree.__file__.endswith({suffix!r})
depth = int(sys.argv[2])
meta = {{"name": "a"}}
for _ in range(depth):
    meta = {{"name": "a", "parent": meta}}
node = {{}}
for _ in range(depth):
    node = {{"children": [node]}}
for instance in ({{"meta": meta}}, node):
    errors = tree.errors(instance)
    print(tree.is_valid(instance), len(errors), errors[0].message if errors else "")
"""


# (10, not more: unevaluatedProperties over this recursive $dynamicRef takes time exponential in the
# depth of `children`, natively and in the pure module alike, which is not this test's subject)
@pytest.mark.parametrize("depth", [10, 100_000])
def test_deep_instances_are_refused_never_a_crash(sample: Sample, depth: int) -> None:
    """mypyc's own calls do not count against the recursion limit: the calls that can recurse go
    through an alias (plan/recursion.py), which does. Without it, 100,000 levels of `meta` end the
    process (a C stack overflow). Run in a child process, so a crash would be seen, not suffered."""
    script = _DEEP.format(package=PACKAGE, suffix=EXTENSION_SUFFIX)
    done = subprocess.run(
        [sys.executable, "-c", script, str(sample.directory), str(depth)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    lines = done.stdout.splitlines()
    if depth == 10:
        assert lines == ["True 0 ", "True 0 "]
    else:
        too_deep = (
            "False 1 the instance is nested too deeply to validate (over Python's recursion limit)"
        )
        assert lines == [too_deep, too_deep]


# -- failures: typed, and nothing left behind --------------------------------------------------------


def _contents(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def _module(tmp_path: Path, text: str = "") -> Path:
    module = tmp_path / "contract.py"
    module.write_text(
        generator.compile_source({"type": "object", "required": ["a"]}, name="contract") + text
    )
    return module


def test_a_module_mypy_refuses_is_a_typed_error_and_leaves_nothing(tmp_path: Path) -> None:
    module = _module(tmp_path, '\n\nBROKEN: int = "not an int"\n')
    with pytest.raises(NativeBuildError) as raised:
        build_native(module)
    assert raised.value.code == "native-build-failed"
    assert "mypyc refused module contract" in raised.value.message
    assert (
        "contract.py:" in raised.value.message
        and "Incompatible types in assignment" in raised.value.message
    )
    assert _contents(tmp_path) == ["contract.py"]


def test_a_failing_c_compiler_is_a_typed_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bin" / "fakecc"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'fakecc: internal error' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    work = tmp_path / "work"
    work.mkdir()
    module = _module(work)
    with pytest.raises(NativeBuildError) as raised:
        build_native(module)
    assert "the C build of module contract failed" in raised.value.message
    assert "fakecc: internal error" in raised.value.message
    assert _contents(work) == ["contract.py"]


def test_a_split_that_does_not_compile_is_built_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypyc's C file is split into parts compiled in parallel (native/worker.py); when a part does
    not compile (a C file shaped otherwise than the split expects), the file is built whole, as
    mypyc wrote it, and the extension works. Here a compiler that refuses every part, on a module
    split into small parts."""
    import sysconfig

    log = tmp_path / "parts.log"
    fake = tmp_path / "bin" / "partcc"
    fake.parent.mkdir()
    real = sysconfig.get_config_var("CC") or "cc"
    fake.write_text(f"""#!/bin/sh
for a in "$@"; do
  case "$a" in *__part*.c) echo "$a" >> "{log}"; echo "partcc: part refused" >&2; exit 1;; esac
done
exec {real} "$@"
""")
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    monkeypatch.setattr(generator.native, "C_PART_BYTES", 20_000)
    work = tmp_path / "work"
    work.mkdir()
    module = _module(work)
    extension = build_native(module)
    assert log.is_file() and "__part" in log.read_text()  # the parts were tried, and refused
    assert sorted(_contents(work)) == sorted(
        ["contract.py", extension.name, record_path(extension).name]
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import contract; print(contract.__file__, contract.is_valid({'a': 1}), "
            "contract.is_valid({}))",
        ],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert done.stdout.split() == [str(extension), "True", "False"], done.stderr


def test_a_build_over_its_time_is_stopped_and_leaves_nothing(tmp_path: Path) -> None:
    module = _module(tmp_path)
    with pytest.raises(NativeBuildError, match="took over 0.5 s and was stopped"):
        build_native(module, timeout=0.5)
    assert _contents(tmp_path) == ["contract.py"]


def test_no_c_compiler_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc -O2")
    module = _module(tmp_path)
    with pytest.raises(CompilerNotFound) as raised:
        build_native(module)
    assert raised.value.code == "no-c-compiler"
    assert (
        "'/nonexistent/cc'" in raised.value.message
        and "CC environment variable" in raised.value.message
    )
    assert _contents(tmp_path) == ["contract.py"]


def test_only_a_module_file_is_built(tmp_path: Path) -> None:
    with pytest.raises(NativeBuildError, match="not a file"):
        build_native(tmp_path / "missing.py")
    (tmp_path / "not-a-name.py").write_text("")
    with pytest.raises(NativeBuildError, match="NAME an identifier"):
        build_native(tmp_path / "not-a-name.py")


# -- the command line --------------------------------------------------------------------------------


def straightline(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).with_name("straightline")), *args]
    return subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, **(env or {})},
    )


def test_compile_and_check_native_from_the_command_line(tmp_path: Path) -> None:
    source = str(ROOT / "contracts" / "octoscript" / "math.add.input.json")
    out = tmp_path / "out"
    common = [source, "--profile", "octoscript", "--out", str(out)]
    done = straightline("compile", *common, "--native", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    module = out / "math_add_input.py"
    extension = extension_path(module)
    assert f"-> {extension.name} (native," in done.stdout and extension.is_file()
    assert straightline("check", *common, "--native", cwd=tmp_path).returncode == 0
    again = straightline(
        "compile", *common, "--native", cwd=tmp_path
    )  # the same text: not built again
    assert (
        again.returncode == 0
        and f"{extension.name}: up to date (native)" in again.stdout.replace(str(out) + "/", "")
    )
    probe = (
        f"import sys; sys.path.insert(0, {str(out)!r}); import math_add_input as m; "
        "print(m.__file__, m.is_valid({'left': 1, 'right': 2}), m.is_valid({'left': 1}))"
    )
    imported = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert imported.stdout.split() == [str(extension), "True", "False"], imported.stderr

    # an edited module: the extension no longer matches it, and check says so
    module.write_text(module.read_text() + "\n")
    stale = straightline("check", *common, cwd=tmp_path)
    assert (
        stale.returncode == 1 and "it was built from another version of the module" in stale.stderr
    )
    # compiled without --native: the extension straightline built goes, the module imports again
    plain = straightline("compile", *common, cwd=tmp_path)
    assert plain.returncode == 0 and "removed (not native)" in plain.stdout
    assert sorted(p.name for p in out.iterdir() if p.name != "__pycache__") == ["math_add_input.py"]
    imported = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert imported.stdout.split() == [str(module), "True", "False"], imported.stderr
    missing = straightline("check", *common, "--native", cwd=tmp_path)
    assert missing.returncode == 1 and "its native module math_add_input" in missing.stderr


def test_no_c_compiler_is_a_usage_error_and_nothing_is_written(tmp_path: Path) -> None:
    source = str(ROOT / "contracts" / "octoscript" / "math.add.input.json")
    done = straightline(
        "compile",
        source,
        "--out",
        str(tmp_path / "out"),
        "--native",
        cwd=tmp_path,
        env={"CC": "no-such-compiler-here"},
    )
    assert done.returncode == 2
    assert (
        "no C compiler found: 'no-such-compiler-here' (the CC environment variable)" in done.stderr
    )
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_an_extension_straightline_did_not_build_is_reported_never_removed(tmp_path: Path) -> None:
    source = str(ROOT / "contracts" / "octoscript" / "math.add.output.json")
    out = tmp_path / "out"
    foreign = out / ("math_add_output" + EXTENSION_SUFFIX)
    out.mkdir()
    foreign.write_bytes(b"not ours")
    done = straightline("compile", source, "--out", str(out), cwd=tmp_path)
    assert done.returncode == 1 and "an extension module straightline did not build" in done.stderr
    assert "it shadows" in done.stderr and foreign.read_bytes() == b"not ours"
    check = straightline("check", source, "--out", str(out), cwd=tmp_path)
    assert check.returncode == 1 and "did not build" in check.stderr


def test_native_is_a_project_setting(tmp_path: Path) -> None:
    from generator.errors import ConfigError
    from generator.project import load_project

    (tmp_path / "a.json").write_text("{}")
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[tool.straightline]\nout = "out"\ncontracts = ["a.json"]\nnative = true\n'
        '[tool.straightline.groups.g]\ncontracts = ["a.json"]\nnative = false\n'
    )
    project = load_project(config)
    assert [job.settings.native for job in project.jobs] == [True, False]
    config.write_text('[tool.straightline]\nout = "out"\ncontracts = ["a.json"]\nnative = "yes"\n')
    with pytest.raises(
        ConfigError, match=r"native: must be true, false, \"c\" or \"mypyc\", not 'yes'"
    ):
        load_project(config)
