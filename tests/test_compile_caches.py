"""What makes compiling fast leaves no trace between compiles: the caches a process keeps (string
literals, copied sources, statements black laid out, translated patterns) give each compile what
it gives alone, whatever was compiled before with other options; and the cyclic garbage collector,
held off during a compile, is as the caller left it afterwards."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

import generator

from .conftest import ROOT

# One subschema text (long names, a pattern, a format, a oneOf of references) under options that
# change what is emitted for it: the draft, format assertion, unknown formats, formatting.
SHARED = {"type": "string", "pattern": "^[A-Za-z]+-[0-9]{2,}$", "format": "email", "minLength": 3}
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {"a" * 70: SHARED, "b" * 70: {"type": "integer", "minimum": 10**30}},
    "oneOf": [{"$ref": "#/definitions/" + "a" * 70}, {"$ref": "#/definitions/" + "b" * 70}],
    "properties": {"status": {"enum": [f"status-number-{i}-of-many" for i in range(12)]}},
}
OPTIONS = [
    {"profile": "draft7", "format_assertion": True},
    {"profile": "draft2020-12", "format_assertion": False},
    {"profile": "draft2020-12", "format_assertion": True, "format": False},
    {"profile": "lenient", "format_assertion": False},
]


def _alone(options: dict[str, object], schema: object) -> str:
    """The module text a fresh process compiles (nothing cached before)."""
    program = (
        "import json, sys, generator\n"
        "options, schema = json.loads(sys.stdin.read())\n"
        "sys.stdout.write(generator.compile_source(schema, **options))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        input=json.dumps([options, schema]),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=300,
    )
    return done.stdout


def test_a_compile_gives_what_it_gives_alone_after_compiles_with_other_options() -> None:
    lenient_schema = {k: v for k, v in SCHEMA.items() if k != "$schema"}
    cases = [
        (options, lenient_schema if options["profile"] == "lenient" else SCHEMA)
        for options in OPTIONS
    ]
    alone = [_alone(options, schema) for options, schema in cases]
    assert len(set(alone)) == len(alone)  # the options do change the module
    for _ in range(2):  # every order of neighbours: forwards, then backwards
        for (options, schema), expected in zip(cases, alone):
            assert generator.compile_source(schema, **options) == expected
        cases.reverse()
        alone.reverse()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_the_caller_had_it(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        generator.compile_source(SCHEMA)
        assert gc.isenabled() is enabled
        with pytest.raises(generator.SchemaError):
            generator.compile_source({"$ref": "#/definitions/missing"})
        assert gc.isenabled() is enabled
        generator.compile_contract_source(
            {"name": "t", "input": {"type": "object"}, "output": {"type": "string"}}
        )
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_the_collector_runs_during_a_compile_only_if_nothing_paused_it() -> None:
    """Held off while the compile runs, from inside: a nested compile (a custom format's module
    compiling a schema, say) does not turn it back on before the outer one ends."""
    from generator.collector import paused

    was = gc.isenabled()
    seen = []
    try:
        gc.enable()
        with paused():
            with paused():
                seen.append(gc.isenabled())
            seen.append(gc.isenabled())
        assert seen == [False, False] and gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()
