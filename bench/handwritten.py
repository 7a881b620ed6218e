"""Hand-written straight-line validators for the math.add contract and the seed tool-package
contract: the pure-Python limit.

Written the way a careful engineer would write them by hand for values made by `json.loads`:
exact `type(...) is ...` tests, a key count and `in` tests for `required` plus
`additionalProperties: false` (cheaper than comparing a keys view with a set: no view is made),
and JSON Schema's integer rule (`bool` is not an integer, a float
with no fractional part such as `1.0` is). Subclasses of dict and Decimal numbers are not
handled: `json.loads` makes neither, and the benchmark instances contain neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


def math_add_input_is_valid(instance: Any) -> bool:
    """{"left": integer, "right": integer}, nothing else."""
    # Both properties are required and no others are allowed: exactly these two keys.
    if type(instance) is not dict or len(instance) != 2:
        return False
    if "left" not in instance or "right" not in instance:
        return False
    left = instance["left"]
    left_type = type(left)
    # type(...) is int excludes bool (a subclass of int); 1.0 is an integer in JSON Schema.
    if left_type is not int and not (left_type is float and left.is_integer()):
        return False
    right = instance["right"]
    right_type = type(right)
    return right_type is int or (right_type is float and right.is_integer())


def math_add_output_is_valid(instance: Any) -> bool:
    """{"total": integer}, nothing else."""
    if type(instance) is not dict or len(instance) != 1 or "total" not in instance:
        return False
    total = instance["total"]
    total_type = type(total)
    return total_type is int or (total_type is float and total.is_integer())


# -- the seed tool-package contract (contracts/draft2020-12/tool-package.schema.json) ----------------

_PACKAGE_KEYS = frozenset(
    {
        "tool_key",
        "version",
        "owner_domain",
        "purpose",
        "applies_when",
        "artifacts",
        "entry",
        "input_schema",
        "output_schema",
        "dependencies",
        "effect",
        "connector_operations",
        "uses_model",
        "repeatability",
        "limits",
        "tests",
        "provenance_refs",
    }
)
_ENTRY_KEYS = frozenset({"artifact", "path", "runtime_id", "runtime_version", "kind"})
_ARTIFACT_KEYS = frozenset({"uri", "sha256", "revision", "platform"})
_DEPENDENCY_KEYS = frozenset({"key", "version", "sha256"})
_REPEATABILITY_KEYS = frozenset({"kind", "comparison", "tolerance_ref"})
_LIMITS_KEYS = frozenset({"timeout_ms", "max_output_bytes"})
_TESTS_KEYS = frozenset({"corpus_ref", "result_ref"})
_EFFECTS = frozenset({"compute", "case_artifacts", "connector"})
# ECMA-262 regexes as Python's: `$` is the end of the text only (\Z), `[a-z]` is ASCII.
_TOOL_KEY = re.compile(r"[a-z][a-z0-9_.-]+\Z").match
_SHA256 = re.compile(r"[a-f0-9]{64}\Z").match
_PATH_CHARACTERS = re.compile(r"[A-Za-z0-9_./-]+\Z").match
# ECMA's `.` matches anything but these line terminators.
_LINE_TERMINATORS = "\n\r\u2028\u2029"


def _text(value: Any) -> bool:
    """A string of at least one character (minLength 1)."""
    return type(value) is str and len(value) >= 1


def _positive_integer(value: Any) -> bool:
    """An integer (1.0 is one, True is not) of at least 1."""
    kind = type(value)
    return (kind is int or (kind is float and value.is_integer())) and value >= 1


def _artifact(value: Any) -> bool:
    if type(value) is not dict or "uri" not in value or "sha256" not in value:
        return False
    if not value.keys() <= _ARTIFACT_KEYS or not _text(value["uri"]):
        return False
    sha = value["sha256"]
    if type(sha) is not str or _SHA256(sha) is None:
        return False
    return all(_text(value[key]) for key in ("revision", "platform") if key in value)


def _artifacts(value: Any) -> bool:
    if type(value) is not dict or not value.keys() <= {"source", "binary"}:
        return False
    if "source" not in value and "binary" not in value:  # anyOf: source or binary
        return False
    return all(_artifact(value[key]) for key in ("source", "binary") if key in value)


def _entry(value: Any) -> bool:
    if type(value) is not dict or value.keys() != _ENTRY_KEYS:
        return False
    if value["artifact"] not in ("source", "binary") or type(value["artifact"]) is not str:
        return False
    if (
        value["kind"] not in ("managed_handler", "restricted_process")
        or type(value["kind"]) is not str
    ):
        return False
    path = value["path"]
    # ^(?!/)(?!.*(?:^|/)\.\.(?:/|$))[A-Za-z0-9_./-]+$: allowed characters, not absolute, no ".." segment
    if (
        type(path) is not str
        or _PATH_CHARACTERS(path) is None
        or path[0] == "/"
        or ".." in path.split("/")
    ):
        return False
    version = value["runtime_version"]
    # ^(?!latest$).+ : a first character that is no line terminator, and not exactly "latest"
    if (
        type(version) is not str
        or not version
        or version[0] in _LINE_TERMINATORS
        or version == "latest"
    ):
        return False
    return _text(value["runtime_id"])


def _dependency(value: Any) -> bool:
    if type(value) is not dict or value.keys() != _DEPENDENCY_KEYS:
        return False
    sha = value["sha256"]
    return (
        _text(value["key"])
        and _text(value["version"])
        and type(sha) is str
        and _SHA256(sha) is not None
    )


def _repeatability(value: Any) -> bool:
    if type(value) is not dict or "kind" not in value or "comparison" not in value:
        return False
    if not value.keys() <= _REPEATABILITY_KEYS or not _text(value["comparison"]):
        return False
    if (
        value["kind"] not in ("deterministic", "declared_variation")
        or type(value["kind"]) is not str
    ):
        return False
    return "tolerance_ref" not in value or _text(value["tolerance_ref"])


def tool_package_is_valid(instance: Any) -> bool:
    """The seed tool package: seventeen fields, nothing else, and six rules between them (the
    cheap rules first, then each field)."""
    if type(instance) is not dict or instance.keys() != _PACKAGE_KEYS:
        return False
    entry, artifacts, effect = instance["entry"], instance["artifacts"], instance["effect"]
    repeatability, operations, uses_model = (
        instance["repeatability"],
        instance["connector_operations"],
        instance["uses_model"],
    )
    # the rules (allOf of if/then); each tests only what its `if` names, as the schema says
    artifact = entry.get("artifact") if type(entry) is dict else None
    if type(artifact) is str and type(artifacts) is dict:
        if artifact == "source" and "source" not in artifacts:
            return False
        if artifact == "binary":
            binary = artifacts.get("binary")
            if binary is None and "binary" not in artifacts:
                return False
            if type(binary) is dict and "platform" not in binary:
                return False
    if type(effect) is str and effect == "compute":
        if (type(operations) is list and len(operations) > 0) or (
            type(uses_model) is bool and uses_model
        ):
            return False
    if (
        type(effect) is str
        and effect == "connector"
        and type(operations) is list
        and not operations
    ):
        return False
    kind = repeatability.get("kind") if type(repeatability) is dict else None
    if type(kind) is str and kind == "deterministic" and type(uses_model) is bool and uses_model:
        return False
    if type(kind) is str and kind == "declared_variation" and "tolerance_ref" not in repeatability:
        return False
    # the fields
    tool_key = instance["tool_key"]
    if (
        type(tool_key) is not str
        or _TOOL_KEY(tool_key) is None
        or not _positive_integer(instance["version"])
    ):
        return False
    if not (
        _text(instance["owner_domain"])
        and _text(instance["purpose"])
        and _text(instance["applies_when"])
    ):
        return False
    if not _artifacts(artifacts) or not _entry(entry):
        return False
    if type(instance["input_schema"]) is not dict or type(instance["output_schema"]) is not dict:
        return False
    dependencies = instance["dependencies"]
    if type(dependencies) is not list or not all(_dependency(d) for d in dependencies):
        return False
    if type(effect) is not str or effect not in _EFFECTS or type(uses_model) is not bool:
        return False
    if (
        type(operations) is not list
        or not all(_text(o) for o in operations)
        or len(set(operations)) != len(operations)
    ):
        return False
    if not _repeatability(repeatability):
        return False
    limits, tests = instance["limits"], instance["tests"]
    if (
        type(limits) is not dict
        or limits.keys() != _LIMITS_KEYS
        or not all(map(_positive_integer, limits.values()))
    ):
        return False
    if (
        type(tests) is not dict
        or tests.keys() != _TESTS_KEYS
        or not all(map(_text, tests.values()))
    ):
        return False
    references = instance["provenance_refs"]
    return type(references) is list and len(references) >= 1 and all(map(_text, references))


# Case name -> validator. Cases not listed here have no hand-written column.
HANDWRITTEN: dict[str, Callable[[Any], bool]] = {
    "math.add.input": math_add_input_is_valid,
    "math.add.output": math_add_output_is_valid,
    "tool-package": tool_package_is_valid,
}
