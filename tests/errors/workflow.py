"""A GitHub-workflow-like schema (written for these tests after the shape of GitHub Actions
workflow files: `on` as an event name, a list or a map; jobs that are normal or reusable-workflow
jobs; steps that `uses` an action or `run` a command) and workflows with the mistakes people make,
each with the cause a user should be shown."""

from __future__ import annotations

from typing import Any

EVENTS = ["push", "pull_request", "workflow_dispatch", "schedule", "release"]
STRINGS = {"type": "array", "items": {"type": "string"}, "minItems": 1}
STRING_OR_LIST = {"oneOf": [{"type": "string"}, STRINGS]}
ENV = {
    "type": "object",
    "additionalProperties": {
        "oneOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
    },
}

WORKFLOW: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.com/workflow.json",
    "type": "object",
    "required": ["on", "jobs"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "on": {
            "oneOf": [
                {"enum": EVENTS},
                {"type": "array", "items": {"enum": EVENTS}, "minItems": 1},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "push": {"$ref": "#/$defs/branches"},
                        "pull_request": {"$ref": "#/$defs/branches"},
                        "workflow_dispatch": {"oneOf": [{"type": "null"}, {"type": "object"}]},
                        "schedule": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["cron"],
                                "properties": {"cron": {"type": "string"}},
                            },
                        },
                    },
                },
            ]
        },
        "env": ENV,
        "jobs": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "patternProperties": {
                "^[_a-zA-Z][a-zA-Z0-9_-]*$": {
                    "oneOf": [{"$ref": "#/$defs/normalJob"}, {"$ref": "#/$defs/reusableJob"}]
                }
            },
        },
    },
    "$defs": {
        "branches": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"branches": STRINGS, "paths": STRINGS, "tags": STRINGS},
                },
            ]
        },
        "normalJob": {
            "type": "object",
            "required": ["runs-on"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "needs": STRING_OR_LIST,
                "runs-on": {
                    "oneOf": [
                        {"type": "string"},
                        STRINGS,
                        {
                            "type": "object",
                            "properties": {"group": {"type": "string"}, "labels": STRING_OR_LIST},
                        },
                    ]
                },
                "timeout-minutes": {"type": "number", "minimum": 1},
                "env": ENV,
                "steps": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/step"}},
            },
        },
        "reusableJob": {
            "type": "object",
            "required": ["uses"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "needs": STRING_OR_LIST,
                "uses": {"type": "string", "pattern": "^(\\./|[^/]+/[^/]+/).+@.+$|^\\./.+$"},
                "with": {"type": "object"},
                "secrets": {"oneOf": [{"const": "inherit"}, {"type": "object"}]},
            },
        },
        "step": {
            "type": "object",
            "additionalProperties": False,
            "oneOf": [{"required": ["uses"]}, {"required": ["run"]}],
            "dependentRequired": {"shell": ["run"], "working-directory": ["run"]},
            "properties": {
                "id": {"type": "string"},
                "if": {"type": ["string", "boolean"]},
                "name": {"type": "string"},
                "uses": {"type": "string"},
                "run": {"type": "string"},
                "shell": {"type": "string"},
                "working-directory": {"type": "string"},
                "with": {"type": "object"},
                "env": ENV,
                "continue-on-error": {"type": "boolean"},
                "timeout-minutes": {"type": "number"},
            },
        },
    },
}

GOOD: dict[str, Any] = {
    "name": "ci",
    "on": {"push": {"branches": ["main"]}, "pull_request": None},
    "jobs": {
        "build": {
            "runs-on": "ubuntu-latest",
            "timeout-minutes": 10,
            "env": {"CI": True},
            "steps": [
                {"uses": "actions/checkout@v4"},
                {"name": "test", "run": "make test", "shell": "bash"},
            ],
        },
        "call": {
            "uses": "octo/repo/.github/workflows/w.yml@v1",
            "needs": "build",
            "secrets": "inherit",
        },
    },
}


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    """GOOD with the value at `path` replaced (a copy)."""
    import copy

    document = copy.deepcopy(GOOD)
    target: Any = document
    for token in path[:-1]:
        target = target[token]
    target[path[-1]] = value
    return document


# (what is wrong, the workflow, the instance location and keyword of its best match). Where every
# alternative fails alike (a step with neither `uses` nor `run`), the oneOf itself is the answer.
MISTAKES: list[tuple[str, dict[str, Any], str, str]] = [
    ("runs-on is a number", _with(["jobs", "build", "runs-on"], 5), "/jobs/build/runs-on", "oneOf"),
    (
        "a step both uses and runs",
        _with(["jobs", "build", "steps", 0, "run"], "echo"),
        "/jobs/build/steps/0",
        "oneOf",
    ),
    (
        "a step neither uses nor runs",
        _with(["jobs", "build", "steps", 0], {"name": "x"}),
        "/jobs/build/steps/0",
        "oneOf",
    ),
    (
        "a misspelt step key",
        _with(["jobs", "build", "steps", 0], {"use": "actions/checkout@v4"}),
        "/jobs/build/steps/0",
        "oneOf",
    ),
    (
        "branches as one string",
        _with(["on", "push", "branches"], "main"),
        "/on/push/branches",
        "type",
    ),
    (
        "timeout-minutes as a string",
        _with(["jobs", "build", "timeout-minutes"], "10"),
        "/jobs/build/timeout-minutes",
        "type",
    ),
    (
        "a job without runs-on",
        _with(["jobs", "build"], {"steps": [{"run": "x"}]}),
        "/jobs/build",
        "oneOf",
    ),
    ("needs as a number", _with(["jobs", "call", "needs"], 3), "/jobs/call/needs", "oneOf"),
    (
        "a cron that is not a string",
        _with(["on"], {"schedule": [{"cron": 5}]}),
        "/on/schedule/0/cron",
        "type",
    ),
    (
        "an env value that is a list",
        _with(["jobs", "build", "env", "CI"], [1]),
        "/jobs/build/env/CI",
        "oneOf",
    ),
    (
        "continue-on-error as a string",
        _with(["jobs", "build", "steps", 1, "continue-on-error"], "yes"),
        "/jobs/build/steps/1/continue-on-error",
        "type",
    ),
    ("a misspelt event", _with(["on"], "pushh"), "/on", "oneOf"),
    (
        "shell without run",
        _with(["jobs", "build", "steps", 0, "shell"], "bash"),
        "/jobs/build/steps/0",
        "dependentRequired",
    ),
    (
        "a step's with as a list",
        _with(["jobs", "build", "steps", 0, "with"], ["a"]),
        "/jobs/build/steps/0/with",
        "type",
    ),
    (
        "a reusable job's uses without a version",
        _with(["jobs", "call", "uses"], "octo/repo/w.yml"),
        "/jobs/call/uses",
        "pattern",
    ),
    ("an empty steps list", _with(["jobs", "build", "steps"], []), "/jobs/build/steps", "minItems"),
]
# Where our best_match goes further than python-jsonschema's, by the refinement that every
# alternative failing at the same member makes that member the cause (python-jsonschema stops at
# the job's oneOf, /jobs/call).
DEEPER_THAN_PYTHON_JSONSCHEMA = {"needs as a number"}
