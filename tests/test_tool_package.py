"""The seed 001 contract (tool-package.schema.json, draft 2020-12), compiled by `make generate`,
behaves as the schema says for each of its rules; and its $defs/invocation compiles on its own."""

from __future__ import annotations

import copy
import importlib.util
from typing import Any

import pytest

from generator.load import load_json
from generator.reference import DraftReference

from .conftest import ROOT

SHA = "a" * 64
SCHEMA = load_json((ROOT / "contracts" / "draft2020-12" / "tool-package.schema.json").read_bytes())


def _load(name: str) -> Any:
    path = ROOT / "generated" / "draft2020_12" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"tool_package_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PACKAGE = _load("tool_package_schema")
INVOCATION = _load("tool_package_schema_invocation")
REFERENCE = DraftReference(SCHEMA, "draft2020-12")


def valid_package() -> dict[str, Any]:
    return {
        "tool_key": "pdf.extract_tables",
        "version": 3,
        "owner_domain": "documents",
        "purpose": "Extract tables from PDF files.",
        "applies_when": "A case has PDF attachments.",
        "artifacts": {"source": {"uri": "git://tools/pdf", "sha256": SHA, "revision": "r1"}},
        "entry": {
            "artifact": "source",
            "path": "src/tools/pdf/main.py",
            "runtime_id": "python",
            "runtime_version": "3.11",
            "kind": "managed_handler",
        },
        "input_schema": {"type": "object"},
        "output_schema": {"type": "object"},
        "dependencies": [{"key": "pdfminer", "version": "2024.1", "sha256": SHA}],
        "effect": "compute",
        "connector_operations": [],
        "uses_model": False,
        "repeatability": {"kind": "deterministic", "comparison": "exact"},
        "limits": {"timeout_ms": 30000, "max_output_bytes": 1048576},
        "tests": {"corpus_ref": "corpus/pdf", "result_ref": "results/pdf"},
        "provenance_refs": ["adr-017"],
    }


def changed(path: list[Any], value: Any) -> dict[str, Any]:
    package = copy.deepcopy(valid_package())
    target = package
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return package


DELETE = object()


def locations(errors: list[Any]) -> set[tuple[str, str]]:
    return {(e.instance_location, e.keyword_location) for e in errors}


def assert_outcome(instance: Any, valid: bool, where: tuple[str, str] | None = None) -> None:
    assert PACKAGE.is_valid(instance) is valid
    assert REFERENCE.is_valid(instance) is valid
    found = locations(PACKAGE.errors(instance))
    assert found == locations(REFERENCE.errors(instance))
    if where is not None:
        assert where in found, found


def test_a_complete_source_package_is_valid() -> None:
    assert_outcome(valid_package(), True)


@pytest.mark.parametrize(
    "path",
    [
        "../etc/passwd",
        "src/../../etc",
        "a/..",
        "..",
        "/abs/path",
        "/",
        "src/tool main.py",
        "",
        "src/..\\x",
        "src/\u00e9.py",
    ],
)
def test_entry_path_refuses_dot_dot_segments_absolute_paths_and_odd_characters(path: str) -> None:
    assert_outcome(
        changed(["entry", "path"], path),
        False,
        ("/entry/path", "/properties/entry/properties/path/pattern"),
    )


@pytest.mark.parametrize(
    "path", ["src/main.py", "a..b/c", "..a/b", "x/.../y", "a/.b", "./src/x", "tools/v1.2/run"]
)
def test_entry_path_accepts_relative_paths_without_dot_dot_segments(path: str) -> None:
    assert_outcome(changed(["entry", "path"], path), True)


@pytest.mark.parametrize(
    "version,valid",
    [
        ("latest", False),
        ("3.11", True),
        ("latest-1", True),
        ("Latest", True),
        ("", False),
        ("latest\n", True),
    ],
)
def test_runtime_version_refuses_latest(version: str, valid: bool) -> None:
    # ECMA-262: `$` is the end of input only and `.` stops at "\n", so "latest\n" is not "latest"
    assert_outcome(changed(["entry", "runtime_version"], version), valid)


@pytest.mark.parametrize(
    "sha,valid",
    [
        (SHA, True),
        ("A" * 64, False),
        ("a" * 63, False),
        ("a" * 65, False),
        ("g" * 64, False),
        ("0123456789abcdef" * 4, True),
        (SHA + "\n", False),
    ],
)
def test_sha256_shape(sha: str, valid: bool) -> None:
    assert_outcome(changed(["artifacts", "source", "sha256"], sha), valid)
    assert_outcome(changed(["dependencies", 0, "sha256"], sha), valid)


def test_binary_entry_needs_a_binary_artifact_with_a_platform() -> None:
    binary = {"uri": "s3://tools/pdf.bin", "sha256": SHA}
    package = changed(["entry", "artifact"], "binary")
    assert_outcome(package, False, ("/artifacts", "/allOf/1/then/properties/artifacts/required"))
    package["artifacts"]["binary"] = dict(binary)
    assert_outcome(
        package,
        False,
        ("/artifacts/binary", "/allOf/1/then/properties/artifacts/properties/binary/required"),
    )
    package["artifacts"]["binary"]["platform"] = "linux-x86_64"
    assert_outcome(package, True)


def test_source_entry_needs_a_source_artifact() -> None:
    package = changed(
        ["artifacts"], {"binary": {"uri": "s3://x", "sha256": SHA, "platform": "linux"}}
    )
    assert_outcome(package, False, ("/artifacts", "/allOf/0/then/properties/artifacts/required"))


def test_artifacts_need_source_or_binary() -> None:
    assert_outcome(changed(["artifacts"], {}), False, ("/artifacts", "/properties/artifacts/anyOf"))


def test_compute_effect_means_no_connector_operations_and_no_model() -> None:
    assert_outcome(
        changed(["connector_operations"], ["crm.read"]),
        False,
        ("/connector_operations", "/allOf/2/then/properties/connector_operations/maxItems"),
    )
    assert_outcome(
        changed(["uses_model"], True),
        False,
        ("/uses_model", "/allOf/2/then/properties/uses_model/const"),
    )


def test_connector_effect_needs_connector_operations() -> None:
    package = changed(["effect"], "connector")
    assert_outcome(
        package,
        False,
        ("/connector_operations", "/allOf/3/then/properties/connector_operations/minItems"),
    )
    package["connector_operations"] = ["crm.read", "crm.write"]
    assert_outcome(package, True)
    package["connector_operations"] = ["crm.read", "crm.read"]
    assert_outcome(
        package, False, ("/connector_operations", "/properties/connector_operations/uniqueItems")
    )


def test_deterministic_repeatability_forbids_a_model() -> None:
    package = changed(["effect"], "case_artifacts")
    package["uses_model"] = True
    assert_outcome(package, False, ("/uses_model", "/allOf/4/then/properties/uses_model/const"))
    package["repeatability"] = {"kind": "declared_variation", "comparison": "semantic"}
    assert_outcome(
        package, False, ("/repeatability", "/allOf/5/then/properties/repeatability/required")
    )
    package["repeatability"]["tolerance_ref"] = "tolerances/semantic"
    assert_outcome(package, True)


@pytest.mark.parametrize("key", ["tool_key", "entry", "limits", "provenance_refs", "input_schema"])
def test_every_required_field_is_required(key: str) -> None:
    assert_outcome(changed([key], DELETE), False, ("", "/required"))


def test_unknown_fields_are_refused_at_every_level() -> None:
    assert_outcome(changed(["extra"], 1), False, ("/extra", "/additionalProperties"))
    assert_outcome(
        changed(["entry", "extra"], 1),
        False,
        ("/entry/extra", "/properties/entry/additionalProperties"),
    )
    assert_outcome(
        changed(["limits", "timeout_ms"], 0),
        False,
        ("/limits/timeout_ms", "/properties/limits/properties/timeout_ms/minimum"),
    )
    assert_outcome(
        changed(["tool_key"], "Pdf"), False, ("/tool_key", "/properties/tool_key/pattern")
    )
    assert_outcome(changed(["version"], 1.0), True)
    assert_outcome(changed(["version"], True), False, ("/version", "/properties/version/type"))


def test_invocation_compiled_on_its_own_by_fragment() -> None:
    call = {
        "skill_key": "tables",
        "skill_version": 1,
        "tool_key": "pdf.extract_tables",
        "tool_version": 3,
        "input": {"file": "a.pdf"},
    }
    assert INVOCATION.is_valid(call)
    assert not INVOCATION.is_valid({**call, "input": []})
    assert not INVOCATION.is_valid({**call, "skill_version": 0})
    bad = {k: v for k, v in call.items() if k != "tool_key"}
    assert {(e.instance_location, e.keyword_location) for e in INVOCATION.errors(bad)} == {
        ("", "/required")
    }
    assert INVOCATION.STRAIGHTLINE["options"] == {"fragment": "/$defs/invocation"}
