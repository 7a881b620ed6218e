"""The oracle is independent of the compiler: importing the reference interpreter, and using it on
schemas that reach every part of it (references, dynamic scope, formats, content, unevaluated*, a
custom meta-schema), loads no compiler stage and no keyword unit. Checked in a fresh interpreter,
where nothing else has loaded them first."""

from __future__ import annotations

import json
import subprocess
import sys

# The compiler's packages and modules the oracle must not load.
FORBIDDEN = (
    "generator.lower",
    "generator.plan",
    "generator.emit",
    "generator.render",
    "generator.keywords",
    "generator.preflight",
    "generator.profiles",
)

EXERCISE = r"""
import json, sys
from generator.format_options import format_options
from generator.reference import DraftReference

loaded_by_import = sorted(sys.modules)
meta = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "http://example.com/meta",
    "$vocabulary": {
        "https://json-schema.org/draft/2020-12/vocab/core": True,
        "https://json-schema.org/draft/2020-12/vocab/applicator": True,
    },
}
schema = {
    "$id": "http://example.com/root",
    "$defs": {
        "node": {"$dynamicAnchor": "node", "type": "object"},
        "email": {"type": "string", "format": "email", "pattern": "^[a-z@.]+$"},
        "loose": {"$schema": "http://example.com/meta", "minimum": 10},
    },
    "properties": {
        "tree": {"$dynamicRef": "#node"},
        "mail": {"$ref": "#/$defs/email"},
        "remote": {"$ref": "http://example.com/other#/$defs/n"},
        "loose": {"$ref": "#/$defs/loose"},
        "items": {"prefixItems": [{"const": 1}], "contains": {"enum": [2]}, "uniqueItems": True},
    },
    "patternProperties": {"^x": {"not": {"type": "null"}}},
    "dependentRequired": {"mail": ["tree"]},
    "oneOf": [{"required": ["mail"]}, {"required": ["remote"]}],
    "if": {"required": ["a"]}, "then": {"minProperties": 2}, "else": {"maxProperties": 9},
    "unevaluatedProperties": False,
}
registry = {
    "http://example.com/other": {"$defs": {"n": {"type": "number", "multipleOf": 0.5}}},
    "http://example.com/meta": meta,
}
reference = DraftReference(
    schema, "draft2020-12", registry=registry, format_options=format_options(format_assertion=True)
)
found = reference.errors(
    {"tree": [], "mail": "No", "remote": 0.25, "loose": 1, "items": [1, 1], "x": None, "z": 0}
)
draft7 = DraftReference(
    {"contentMediaType": "application/json", "contentEncoding": "base64"},
    "draft7",
    format_options=format_options(content_assertion=True),
)
found += draft7.errors("bm90IGpzb24=")
draft4 = DraftReference({"minimum": 1, "exclusiveMinimum": True, "dependencies": {"a": ["b"]}}, "draft4")
found += draft4.errors(1)
print(json.dumps({
    "import": loaded_by_import,
    "use": sorted(sys.modules),
    "keywords": sorted({e.keyword for e in found}),
    "locations": sorted({e.keyword_location for e in found}),
}))
"""


def run(code: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def compiler_modules(names: list[str]) -> list[str]:
    return [n for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]


def test_importing_and_using_the_oracle_loads_nothing_of_the_compiler() -> None:
    seen = run(EXERCISE)
    assert "generator.reference" in seen["import"]
    assert compiler_modules(seen["import"]) == []
    assert compiler_modules(seen["use"]) == []
    # the schemas reached what they were written to reach (so the check above is not vacuous)
    assert set(seen["keywords"]) >= {
        "type",
        "format",
        "pattern",
        "multipleOf",
        "uniqueItems",
        "contains",
        "not",
        "unevaluatedProperties",
        "contentMediaType",
        "minimum",
    }
    # the custom meta-schema leaves validation out: its `minimum: 10` is not a check on 1
    assert "/properties/loose/$ref/minimum" not in seen["locations"]
    assert "/properties/remote/$ref/multipleOf" in seen["locations"]  # the remote document


def test_the_check_sees_a_module_that_loads_the_compiler() -> None:
    """The same probe on the compiler's front door finds the stages: the test can fail."""
    seen = run("import json, sys, generator.api; print(json.dumps({'use': sorted(sys.modules)}))")
    assert "generator.emit" in compiler_modules(seen["use"])
    assert "generator.keywords.registry" in compiler_modules(seen["use"])
