"""Polynomial time by construction (issue 29, item 1): every schema where one subschema can apply
more than once to one instance value (a doubling) compiles, its doubled subschemas are evaluated
once per value (generator/doubling.py, generator/memo_runtime.py), and the work grows
polynomially with the instance's depth. The bound is shown by counting the calls made in the
compiled module's code, not by timing; the answers are python-jsonschema's where it can finish."""

from __future__ import annotations

import re
import sys
import threading
import warnings
from typing import Any, Callable

import jsonschema
import pytest

import generator
from generator.reference import DraftReference

R = {"$ref": "#"}
D7 = "http://json-schema.org/draft-07/schema#"


def objects(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def arrays(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def children(depth: int, leaf: Any = None) -> Any:
    value: Any = {"children": []} if leaf is None else leaf
    for _ in range(depth):
        value = {"children": [value]}
    return value


# (name, schema, instance of a depth with a valid leaf, the same with an invalid leaf)
SHAPES: list[tuple[str, Any, Callable[[int], Any], Callable[[int], Any]]] = [
    (
        "dependentSchemas",
        {
            "dependentSchemas": {"a": {"properties": {"a": R}}},
            "properties": {"a": R},
            "type": ["object", "integer"],
        },
        objects,
        lambda d: objects(d, "s"),
    ),
    (
        "dependencies (draft 7)",
        {
            "$schema": D7,
            "dependencies": {"a": {"properties": {"a": R}}},
            "properties": {"a": R},
            "type": ["object", "integer"],
        },
        objects,
        lambda d: objects(d, "s"),
    ),
    (
        "allOf items and not-not items",
        {"allOf": [{"items": R}, {"not": {"not": {"items": R}}}], "type": ["array", "integer"]},
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        "not-not items and unevaluatedItems",
        {"not": {"not": {"items": R}}, "unevaluatedItems": R, "type": ["array", "integer"]},
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        "not-not properties and unevaluatedProperties",
        {
            "not": {"not": {"properties": {"a": R}}},
            "unevaluatedProperties": R,
            "type": ["object", "integer"],
        },
        objects,
        lambda d: objects(d, "s"),
    ),
    (
        "base and derived both declare children",
        {
            "$defs": {"base": {"properties": {"children": {"items": R}}}},
            "allOf": [{"$ref": "#/$defs/base"}],
            "properties": {"children": {"type": "array", "items": R}, "name": {"type": "string"}},
            "type": "object",
        },
        children,
        lambda d: children(d, {"children": [], "name": 1}),
    ),
    (
        "required beside the dependentSchemas doubling",
        {
            "dependentSchemas": {"a": {"properties": {"a": R}}},
            "properties": {"a": R},
            "required": ["b"],
        },
        lambda d: _with_b(objects(d, {"b": 1})),
        objects,
    ),
    (
        "anyOf",
        {"anyOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]},
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        "oneOf",
        {
            "oneOf": [{"items": R}, {"items": R, "minItems": 2}],
            "type": ["array", "integer"],
        },
        lambda d: arrays(d, []),
        lambda d: arrays(d, "s"),
    ),
    (
        "if/then/else",
        {
            "if": {"items": R},
            "then": {"items": R},
            "else": {"items": R},
            "type": ["array", "integer"],
        },
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        "a doubling that takes three levels to come back",
        {"items": {"items": {"allOf": [{"items": R}, {"items": R}]}}, "type": ["array", "integer"]},
        arrays,
        lambda d: arrays(d - d % 3, "s"),  # (where the root applies again: every third level)
    ),
    (
        "items and contains",
        {"items": R, "contains": R, "type": ["array", "integer"]},
        lambda d: arrays(d),
        lambda d: arrays(d, "s"),
    ),
    (
        # (no doubling meets itself again: the root steps down its items while applying `b`, and
        # every level starts `b` afresh, so `b` meets itself once per level above)
        "a recursion beside a reference to a recursive definition",
        {
            "$defs": {"b": {"items": {"$ref": "#/$defs/b"}, "type": ["array", "integer"]}},
            "items": R,
            "allOf": [{"$ref": "#/$defs/b"}],
            "type": ["array", "integer"],
        },
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        # (the root, memoized, is evaluated afresh at every level, and each evaluation starts
        # `p` down the same items)
        "a doubling beside a reference to a recursive definition",
        {
            "$defs": {"p": {"items": {"$ref": "#/$defs/p"}, "type": ["array", "integer"]}},
            "allOf": [{"items": R}, {"items": R}, {"$ref": "#/$defs/p"}],
            "type": ["array", "integer"],
        },
        arrays,
        lambda d: arrays(d, "s"),
    ),
    (
        "properties and an overlapping patternProperties",
        {"properties": {"a": R}, "patternProperties": {"^a": R}, "type": ["object", "integer"]},
        objects,
        lambda d: objects(d, "s"),
    ),
]
IDS = [name for name, *_ in SHAPES]


def _locations(errors: list[Any]) -> list[tuple[str, str]]:
    return sorted((e.instance_location, e.keyword_location) for e in errors)


def _with_b(value: Any) -> Any:
    """Every object of a nested {"a": ...} chain given "b" too (valid for `required: ["b"]`)."""
    current = value
    while isinstance(current, dict):
        current["b"] = 1
        current = current.get("a")
    return value


def _compile(schema: Any) -> Any:
    profile = "draft7" if schema.get("$schema") == D7 else "draft2020-12"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return generator.compile_module(schema, profile=profile, format=False)


def _oracle(schema: Any) -> Any:
    if schema.get("$schema") == D7:
        return jsonschema.Draft7Validator(schema)
    return jsonschema.Draft202012Validator(schema)


def count_calls(module: Any, entry: Callable[[Any], Any], instance: Any) -> int:
    """How many Python function calls entry(instance) makes in the compiled module's own code
    (its validation functions, memo wrappers and copied primitives)."""
    filename = module.is_valid.__code__.co_filename
    calls = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call" and frame.f_code.co_filename == filename:
            calls += 1

    sys.setprofile(profile)
    try:
        entry(instance)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("name,schema,valid,invalid", SHAPES, ids=IDS)
def test_the_work_grows_polynomially_with_depth(
    name: str, schema: Any, valid: Callable[[int], Any], invalid: Callable[[int], Any]
) -> None:
    """Calls at depths 5, 10, 20 and 40 grow polynomially (exponential work would multiply them
    by 2**5, 2**10, 2**20), for is_valid and errors() on valid and invalid instances."""
    module = _compile(schema)
    assert "_memo_fast(" in module.__source__  # (a doubling: memoized)
    # (a list cut short early: until the cut, the list itself doubles with each level)
    module.MAX_ERRORS = 10
    for make in (valid, invalid):
        for entry in (module.is_valid, module.errors):
            counts = [count_calls(module, entry, make(depth)) for depth in (5, 10, 20, 40)]
            # at most cubic from 5 to 10 (where the bounded lists and contexts fill up), at
            # most quadratic after
            assert counts[1] <= 8 * counts[0], (name, entry.__name__, counts)
            for smaller, larger in zip(counts[1:], counts[2:]):
                assert larger <= 4 * smaller, (name, entry.__name__, counts)


@pytest.mark.parametrize("name,schema,valid,invalid", SHAPES, ids=IDS)
def test_every_shape_answers_at_depth_40(
    name: str, schema: Any, valid: Callable[[int], Any], invalid: Callable[[int], Any]
) -> None:
    """Depth 40 (2**40 steps without memoization) is answered: run on a thread given a
    generous hang-catching limit, not a timing."""
    module = _compile(schema)
    answers: list[Any] = []

    def run() -> None:
        answers.append((module.is_valid(valid(40)), module.errors(valid(40))))
        answers.append((module.is_valid(invalid(40)), module.errors(invalid(40))))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "depth 40 did not finish: exponential work"
    (valid_answer, valid_errors), (invalid_answer, invalid_errors) = answers
    assert valid_answer is True and valid_errors == []
    assert invalid_answer is False and invalid_errors


@pytest.mark.parametrize("name,schema,valid,invalid", SHAPES, ids=IDS)
def test_answers_agree_with_python_jsonschema(
    name: str, schema: Any, valid: Callable[[int], Any], invalid: Callable[[int], Any]
) -> None:
    """At depths python-jsonschema finishes (it doubles its work per level on these), the
    validity is its own, and every error's locations the reference interpreter's."""
    module = _compile(schema)
    oracle = _oracle(schema)
    reference = DraftReference(schema, "draft7" if schema.get("$schema") == D7 else "draft2020-12")
    for depth in (0, 1, 2, 3, 6):
        for instance in (valid(depth), invalid(depth)):
            expected = not oracle.is_valid(instance)
            assert module.is_valid(instance) is (not expected), (depth, instance)
            found = module.errors(instance)
            assert (found == []) is (not expected), (depth, instance)
            assert _locations(found) == _locations(reference.errors(instance)), instance


def test_errors_are_bounded_and_the_last_says_how_many_were_left_out() -> None:
    """The issue's errors() reproducer: the dependentSchemas doubling with `required` gives
    2**20 - 1 errors at depth 20 (20.7 s and 3.2 GB before); now MAX_ERRORS of them and a last
    entry counting the rest, exactly; the maximum is a module variable."""
    schema = {
        "dependentSchemas": {"a": {"properties": {"a": R}}},
        "properties": {"a": R},
        "required": ["b"],
    }
    module = _compile(schema)
    assert module.MAX_ERRORS == 1000
    found = module.errors(objects(20))
    assert len(found) == 1001
    last = found[-1]
    assert last.keyword == "maxErrors"
    assert last.params == {"left_out": 2**20 - 1 - 1000, "max_errors": 1000}
    assert f"{2**20 - 1 - 1000} more errors were left out" in last.message
    assert all(e.keyword == "required" for e in found[:-1])
    module.MAX_ERRORS = 5
    try:
        found = module.errors(objects(20))
        assert len(found) == 6 and found[-1].params["left_out"] == 2**20 - 1 - 5
        # below the bound the list is whole, and the same at any MAX_ERRORS above its length
        small = module.errors(objects(1, {}))
        assert [e.keyword for e in small] == ["required"] * 3
    finally:
        module.MAX_ERRORS = 1000
    assert _locations(module.errors(objects(1, {}))) == [
        ("", "/required"),
        ("/a", "/dependentSchemas/a/properties/a/$ref/required"),
        ("/a", "/properties/a/$ref/required"),
    ]


def test_the_same_value_twice_in_an_instance_is_reported_at_each_place() -> None:
    """Memoized on the value's identity, an error found once is reported below every place
    the value is met (an instance built in Python may hold one object twice)."""
    module = _compile({"allOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]})
    shared = ["s"]
    found = module.errors([shared, shared])
    assert sorted({e.instance_location for e in found}) == ["/0/0", "/1/0"]
    assert len(found) == 8  # (each item twice, through both allOf members, and its own type)


def test_schemas_without_a_doubling_compile_as_before() -> None:
    """Recursion that applies each subschema once per value (a tree's left and right, a prefix
    item and the items after it, an anyOf alternative beside a type, a pattern that is another
    name's) is not memoized: its code is the straight-line code."""
    for schema in (
        {"properties": {"left": R, "right": R}, "additionalProperties": R},
        {"prefixItems": [R], "items": R},
        {"anyOf": [{"items": R}, {"type": "string"}]},
        {"properties": {"a": R}, "patternProperties": {"^b": R}},
        {"type": "object", "properties": {"children": {"type": "array", "items": R}}},
        # (a dynamic reference whose static target is also its dynamic one ends at one of them)
        {"$dynamicAnchor": "n", "type": "array", "items": {"$dynamicRef": "#n"}},
    ):
        assert "_memo_" not in generator.compile_source(schema, format=False)


def _resources(depth: int, leaf: Any = "x") -> Any:
    """A resource holding a resource ... `depth` deep, each with a meta whose tags nest too."""
    value: Any = {"kind": "a"}
    for level in range(depth):
        coding: Any = {"code": leaf}
        for _ in range(level % 4):
            coding = {"ext": [coding]}
        value = {"kind": "ab"[level % 2], "meta": {"tag": [coding]}, "contained": [value]}
    return value


# Doublings that cannot repeat: one subschema applied to one value a bounded number of times
# (by the alternatives that share it), never again below, so it stays plain (inlined).
BOUNDED: list[tuple[str, Any, Callable[[int], Any], Callable[[int], Any], list[str]]] = [
    (
        "anyOf alternatives sharing a definition",
        {
            "$defs": {
                "d": {"properties": {"x": {"$ref": "#/$defs/leaf"}}},
                "leaf": {"type": "integer"},
            },
            "anyOf": [{"$ref": "#/$defs/d"}, {"$ref": "#/$defs/d", "required": ["x"]}],
        },
        lambda d: {"x": d},
        lambda d: {"x": "s"},
        [],
    ),
    (
        "anyOf alternatives sharing a recursive definition",
        {
            "$defs": {
                "tree": {
                    "type": ["object", "integer"],
                    "properties": {"a": {"$ref": "#/$defs/tree"}},
                }
            },
            "anyOf": [{"$ref": "#/$defs/tree"}, {"$ref": "#/$defs/tree", "required": ["a"]}],
        },
        objects,
        lambda d: objects(d, "s"),
        [],
    ),
    (
        # (FHIR's shape: a oneOf of resources sharing Meta, each holding resources: the oneOf
        # doubles itself, memoized, Meta and what it holds do not)
        "a oneOf of resources that share a definition and hold resources",
        {
            "$defs": {
                "meta": {"properties": {"tag": {"items": {"$ref": "#/$defs/coding"}}}},
                "coding": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "ext": {"items": {"$ref": "#/$defs/coding"}},
                    },
                },
                "a": {
                    "properties": {
                        "kind": {"const": "a"},
                        "meta": {"$ref": "#/$defs/meta"},
                        "contained": {"items": R},
                    }
                },
                "b": {
                    "properties": {
                        "kind": {"const": "b"},
                        "meta": {"$ref": "#/$defs/meta"},
                        "contained": {"items": R},
                    }
                },
            },
            "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
        },
        _resources,
        lambda d: _resources(d, 1),
        [""],
    ),
]
BOUNDED_IDS = [name for name, *_ in BOUNDED]


@pytest.mark.parametrize("name,schema,valid,invalid,memoized", BOUNDED, ids=BOUNDED_IDS)
def test_a_doubling_that_cannot_repeat_stays_plain_and_linear(
    name: str,
    schema: Any,
    valid: Callable[[int], Any],
    invalid: Callable[[int], Any],
    memoized: list[str],
) -> None:
    """Only the doublings that can repeat down the instance are memoized (doubling.py,
    `_Search.repeating`): here the shared definitions are inlined as before, and is_valid's
    calls still grow linearly with depth (each value is met a bounded number of times)."""
    module = _compile(schema)
    assert re.findall(r'_memo_fast\(\w+, "([^"]*)"', module.__source__) == memoized
    for make in (valid, invalid):
        counts = [count_calls(module, module.is_valid, make(depth)) for depth in (5, 10, 20, 40)]
        # (linear: twice the depth, at most twice the calls and the constant part again)
        for smaller, larger in zip(counts, counts[1:]):
            assert larger <= 2 * smaller + counts[0], (name, counts)
        # (errors() replays the errors found below each level: the main test's bound)
        counts = [count_calls(module, module.errors, make(depth)) for depth in (5, 10, 20, 40)]
        assert counts[1] <= 8 * counts[0], (name, counts)
        for smaller, larger in zip(counts[1:], counts[2:]):
            assert larger <= 4 * smaller, (name, counts)
    oracle = _oracle(schema)
    reference = DraftReference(schema, "draft2020-12")
    for depth in (0, 1, 2, 3, 6):
        for instance in (valid(depth), invalid(depth)):
            assert module.is_valid(instance) is oracle.is_valid(instance), (depth, instance)
            assert _locations(module.errors(instance)) == _locations(reference.errors(instance))


def test_only_a_schema_with_a_reference_loop_has_wrappers_that_watch_for_one() -> None:
    """Without a loop that consumes nothing, no function re-enters on its own value, so the
    wrappers skip the watch (the lean `_memo_lean`); with one, they watch and the loop is met
    as ReferenceLoopError."""
    module = _compile({"allOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]})
    lean = r'_memo_fast\(\w+, "[^"]*", False(?:, False)?\)'  # (False: no dynamic scope)
    assert re.findall(lean, module.__source__)
    assert module._v0r.__code__ is module._memo_lean(len, False).__code__
    loop = {"anyOf": [{"type": "string"}, {"not": {"$ref": "#"}}]}
    with pytest.warns(generator.SchemaWarning, match="an instance that reaches it"):
        looped = generator.compile_module(loop, format=False)
    assert "_memo_fast(" in looped.__source__ and not re.findall(lean, looped.__source__)
    assert looped._v0r.__code__ is not looped._memo_lean(len).__code__
    with pytest.raises(looped.ReferenceLoopError):
        looped.is_valid(1)


def test_validation_stays_thread_safe_and_re_entrant() -> None:
    """The table of one call is per thread and per outermost call: threads validating at once,
    and a call made from inside another (a custom format checker), each get their own answers."""
    module = _compile({"allOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]})
    results: list[bool] = []

    def work(index: int) -> None:
        for depth in range(30):
            results.append(
                module.is_valid(arrays(depth, "s" if index % 2 else 1)) is (index % 2 == 0)
            )

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 120 and all(results)


def test_errors_cut_from_a_context_are_not_counted_as_left_out_of_the_list() -> None:
    """An anyOf doubling: the list holds the root's own errors, whole; the contexts below are
    bounded (100 nested errors a place), and that is not an entry of the list left out."""
    module = _compile({"anyOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]})
    found = module.errors(arrays(20, "s"))
    assert [e.keyword for e in found] == ["anyOf"]
    assert len(found[0].context) == 2 and all(e.keyword == "anyOf" for e in found[0].context)
    expected = module.errors(arrays(3, "s"))
    oracle = jsonschema.Draft202012Validator(
        {"anyOf": [{"items": R}, {"items": R}], "type": ["array", "integer"]}
    )
    assert [e.validator for e in oracle.iter_errors(arrays(3, "s"))] == ["anyOf"]
    assert len(expected[0].context) == len(next(oracle.iter_errors(arrays(3, "s"))).context)


def test_a_schema_too_large_for_the_search_memoizes_every_subschema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past MAX_PAIRS the search gives up on precision, not on the bound: every subschema is
    memoized, and the answers are the same."""
    from generator import doubling

    schema = {
        "$defs": {
            "a": {"properties": {"left": R, "n": {"type": "integer"}}},
            "b": {"properties": {"right": R}, "required": ["right"]},
        },
        "anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
    }
    # (the alternatives part on one value, but never meet again on one: no doubling)
    assert "_memo_" not in generator.compile_source(schema, format=False)
    monkeypatch.setattr(doubling, "MAX_PAIRS", 0)
    module = generator.compile_module(schema, format=False)
    assert "_memo_fast(_v0" in module.__source__
    assert module.is_valid({"left": {"n": 1}, "right": {"right": {"left": {"n": 2}}}})
    instance = {"left": {"left": {"n": "s"}}}
    assert not module.is_valid(instance)
    assert _locations(module.errors(instance)) == _locations(
        DraftReference(schema, "draft2020-12").errors(instance)
    )


@pytest.mark.parametrize("name,schema,valid,invalid", SHAPES, ids=IDS)
def test_answers_agree_with_jsonschema_rs(
    name: str, schema: Any, valid: Callable[[int], Any], invalid: Callable[[int], Any]
) -> None:
    """jsonschema-rs doubles its work per level on these too, but finishes deeper than
    python-jsonschema: the validity agrees at every depth up to 12."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    module = _compile(schema)
    rust = jsonschema_rs.validator_for(schema)
    for depth in range(13):
        for instance in (valid(depth), invalid(depth)):
            assert module.is_valid(instance) is rust.is_valid(instance), (name, depth)
