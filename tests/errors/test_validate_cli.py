"""`straightline validate` with the structured errors, through the installed command: the text
output shows each record's best match first, the json output carries keyword, params, context and
best_match, and --output basic/detailed/verbose is the module's output()."""

from __future__ import annotations

import json
from pathlib import Path

from ..validate.conftest import run, write
from .helpers import module
from .workflow import MISTAKES, WORKFLOW

RUNS_ON, BOTH, _, _, BRANCHES = (m[1] for m in MISTAKES[:5])


def test_text_output_shows_each_records_deepest_cause_first(tmp_path: Path) -> None:
    write(tmp_path / "workflow.json", WORKFLOW)
    write(tmp_path / "runs.jsonl", "\n".join(json.dumps(d) for d in (RUNS_ON, BRANCHES)) + "\n")
    result = run("--schema", "workflow.json", "runs.jsonl", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        # the job's oneOf descends into the normal job; there runs-on's alternatives fail alike
        "runs.jsonl:1:/jobs/build/runs-on: 5 is not valid under any of the given schemas (in oneOf alternative 0 "
        'at /jobs/build: workflow.json#/$defs/normalJob); alternatives: [0] 5 is not of type "string"; '
        '[1] 5 is not of type "array"; [2] 5 is not of type "object"',
        'runs.jsonl:2:/on/push/branches: "main" is not of type "array" (in oneOf alternative 2 at /on: '
        "#/properties/on/oneOf/2; in oneOf alternative 1 at /on/push: workflow.json#/$defs/branches/oneOf/1)",
        "2 records in 1 file: 0 valid, 2 invalid, 0 unreadable",
    ]


def test_a_best_match_that_is_one_of_the_errors_is_shown_once(tmp_path: Path) -> None:
    write(tmp_path / "s.json", {"required": ["a"], "properties": {"b": {"type": "string"}}})
    write(tmp_path / "d.json", {"b": 1})
    result = run("--schema", "s.json", "d.json", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        'd.json:(root): "a" is a required property',
        'd.json:/b: 1 is not of type "string"',
        "1 record in 1 file: 0 valid, 1 invalid, 0 unreadable",
    ]


def test_json_output_carries_the_structured_errors(tmp_path: Path) -> None:
    write(tmp_path / "workflow.json", WORKFLOW)
    write(tmp_path / "both.json", BOTH)
    result = run("--schema", "workflow.json", "--output", "json", "both.json", cwd=tmp_path)
    (record,) = json.loads(result.stdout)["records"]
    (job,) = record["errors"]
    assert (job["keyword"], job["params"], job["instance_location"]) == (
        "oneOf",
        {"passingSchemas": []},
        "/jobs/build",
    )
    assert [(c["branch"], c["keyword"], c["instance_location"]) for c in job["context"]] == [
        (0, "oneOf", "/jobs/build/steps/0"),
        (1, "required", "/jobs/build"),
        (1, "additionalProperties", "/jobs/build/runs-on"),
        (1, "additionalProperties", "/jobs/build/timeout-minutes"),
        (1, "additionalProperties", "/jobs/build/env"),
        (1, "additionalProperties", "/jobs/build/steps"),
    ]
    assert record["best_match"] == {
        "instance_location": "/jobs/build/steps/0",
        "keyword_location": "/properties/jobs/patternProperties/^[_a-zA-Z][a-zA-Z0-9_-]*$/oneOf/0/$ref/properties/steps/"
        "items/$ref/oneOf",
        "absolute_keyword_location": "https://example.com/workflow.json#/$defs/step/oneOf",
        "message": '{"uses": "actions/checkout@v4", "run": "echo"} is valid under more than one of the given '
        "schemas: [0, 1]",
        "keyword": "oneOf",
        "params": {"passingSchemas": [0, 1]},
        "branch": 0,
    }


def test_the_output_formats_are_the_modules(tmp_path: Path) -> None:
    write(tmp_path / "workflow.json", WORKFLOW)
    write(tmp_path / "branches.json", BRANCHES)
    for fmt in ("basic", "detailed", "verbose"):
        result = run("--schema", "workflow.json", "--output", fmt, "branches.json", cwd=tmp_path)
        (record,) = json.loads(result.stdout)["records"]
        assert record["output"] == module(WORKFLOW).output(BRANCHES, fmt), fmt
