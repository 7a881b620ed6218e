"""SchemaStore's cloudify.json (tests/corpus/cloudify, issue 29): refused whole before for one
self-referencing allOf its samples never reach, it compiles in the draft-07 profile with a warning
naming that loop, and validates every one of its 56 samples as valid."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import generator

CORPUS = Path(__file__).parent / "corpus" / "cloudify"
LOOP = "/definitions/nodeTypeCloudifyAzureNodesComputeWindowsVirtualMachineProperties"


@pytest.fixture(scope="module")
def module() -> Any:
    schema = json.loads((CORPUS / "cloudify.json").read_text(encoding="utf-8"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = generator.compile_module(schema, format=False)
    found = [w.message for w in caught if isinstance(w.message, generator.SchemaWarning)]
    assert [(w.code, w.pointer) for w in found if w.code == "ref-cycle"] == [
        ("ref-cycle", LOOP + "/allOf/0/$ref")
    ]
    return compiled


SAMPLES = sorted((CORPUS / "samples").glob("*.json"))


def test_all_56_samples_are_there() -> None:
    assert len(SAMPLES) == 56


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_sample_validates_as_valid(module: Any, sample: Path) -> None:
    instance = json.loads(sample.read_text(encoding="utf-8"))
    assert module.is_valid(instance)
    assert module.errors(instance) == []
    module.validate(instance)


def test_an_instance_that_reaches_the_loop_gets_a_reference_loop_error(module: Any) -> None:
    """A node template of the type whose properties loop, with properties: the loop's place."""
    instance = {
        "tosca_definitions_version": "cloudify_dsl_1_3",
        "node_templates": {
            "vm": {"type": "cloudify.azure.nodes.compute.WindowsVirtualMachine", "properties": {}}
        },
    }
    with pytest.raises(module.ReferenceLoopError) as raised:
        module.is_valid(instance)
    assert raised.value.params["subschema"] == LOOP
