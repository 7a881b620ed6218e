"""Deep instances against recursive schemas: the answer does not depend on which function is asked
(is_valid, validate, errors) nor on how deep the caller's stack already is (issue: a 600-deep list
was valid for is_valid and "nested too deeply" for errors(); from a caller 900 frames deep a valid
100-deep instance was refused, and at 995 frames a raw RecursionError escaped)."""

from __future__ import annotations

import sys
from typing import Any, Callable

import pytest

import generator

DYNAMIC = {"$dynamicAnchor": "n", "type": "array", "items": {"$dynamicRef": "#n"}}
RECURSIVE = {
    "$schema": "https://json-schema.org/draft/2019-09/schema",
    "$recursiveAnchor": True,
    "type": "array",
    "items": {"$recursiveRef": "#"},
}
PLAIN = {"type": "array", "items": {"$ref": "#"}}
SCHEMAS = {"dynamicRef": DYNAMIC, "recursiveRef": RECURSIVE, "ref": PLAIN}
# Whether a 600-deep list is within Python's recursion limit on a fresh stack: a call per level
# is (items by a plain $ref are checked by a loop calling the items' function; through
# all(map(...)), whose C calls count against the limit too, that module refused it as too deep).
SIX_HUNDRED_FITS = {"dynamicRef": True, "recursiveRef": True, "ref": True}


def _nested(depth: int, leaf: Any = None) -> Any:
    value: Any = [] if leaf is None else [leaf]
    for _ in range(depth):
        value = [value]
    return value


def _headroom() -> int:
    """How many more plain Python calls fit on the stack from here (C calls count against the
    recursion limit too, so counting frames is not enough: it is probed)."""

    def probe(n: int) -> int:
        try:
            return probe(n + 1)
        except RecursionError:
            return n

    return probe(0)


def _with_headroom(left: int, function: Callable[[], Any]) -> Any:
    """`function()` called when only about `left` more calls fit on the caller's stack."""
    return _descend(_headroom() - left, function)


def _descend(more: int, function: Callable[[], Any]) -> Any:
    return function() if more <= 0 else _descend(more - 1, function)


@pytest.fixture(scope="module", params=sorted(SCHEMAS))
def module(request: pytest.FixtureRequest) -> Any:
    compiled = generator.compile_module(SCHEMAS[request.param], format=False)
    compiled.case = request.param
    return compiled


@pytest.mark.parametrize("depth", [100, 500, 600, 800, 990, 1500, 3000])
def test_every_function_gives_the_same_answer(module: Any, depth: int) -> None:
    valid = _nested(depth)
    invalid = _nested(depth, leaf=1)  # an integer where an array belongs, at the bottom
    assert module.is_valid(valid) == (module.errors(valid) == [])
    assert module.is_valid(invalid) is False and module.errors(invalid)
    if module.is_valid(valid):
        module.validate(valid)
    else:  # too deep even on a fresh stack: refused by all three, with the error saying why
        assert [e.message for e in module.errors(valid)] == [module._TOO_DEEP_MESSAGE]
        with pytest.raises(module.ValidationError, match="nested too deeply"):
            module.validate(valid)
    with pytest.raises(module.ValidationError):
        module.validate(invalid)


def test_the_functions_agree_at_the_deepest_valid_depth(module: Any) -> None:
    """At the last depth is_valid accepts, and one deeper, errors() says the same (the error
    path, on its fresh stack, must not have a frame less than is_valid's: it once did)."""
    low, high = 1, 5000  # is_valid holds at `low`, not at 5000
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if module.is_valid(_nested(middle)) else (low, middle)
    assert module.errors(_nested(low)) == []
    module.validate(_nested(low))
    assert [e.message for e in module.errors(_nested(low + 1))] == [module._TOO_DEEP_MESSAGE]


def test_the_answer_does_not_depend_on_the_callers_stack(module: Any) -> None:
    """From a caller with only a few calls of stack left (20: a caller that deep could hardly
    call anything), the answer is still the one a shallow caller gets."""
    for depth in (100, 600):
        instance = _nested(depth)
        expected = (module.is_valid(instance), [e.message for e in module.errors(instance)])
        for left in (sys.getrecursionlimit() // 2, 200, 60, 20):
            got = _with_headroom(
                left,
                lambda instance=instance: (
                    module.is_valid(instance),
                    [e.message for e in module.errors(instance)],
                ),
            )
            assert got == expected, (depth, left)
        assert expected[0] is (depth == 100 or SIX_HUNDRED_FITS[module.case])


def test_too_deep_is_the_same_answer_everywhere(module: Any) -> None:
    instance = _nested(5000)
    assert module.is_valid(instance) is False
    assert [e.message for e in module.errors(instance)] == [module._TOO_DEEP_MESSAGE]
    assert _with_headroom(100, lambda: module.is_valid(instance)) is False


def test_errors_of_a_tool_contract_side_are_caller_independent_too() -> None:
    contract = {
        "name": "deep",
        "profile": "draft2020-12",
        "input": {
            "type": "object",
            "properties": {"tree": {"$ref": "#/$defs/t"}},
            "$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}},
        },
        "output": {"type": "object"},
    }
    module = generator.compile_contract_module(contract, format=False)
    instance = {"tree": _nested(300)}
    assert module.is_valid_input(instance) and module.input_errors(instance) == []
    assert _with_headroom(
        30, lambda: (module.is_valid_input(instance), module.input_errors(instance))
    ) == (True, [])


def test_output_of_a_deep_error_tree_does_not_depend_on_the_callers_stack() -> None:
    """Each level of this instance fails a oneOf, so its errors nest (context in context) as deep
    as the instance, and the output formats' trees deeper still: they are walked iteratively, so a
    caller with little stack left gets what a shallow one gets (once a RecursionError)."""
    module = generator.compile_module(
        {
            "$defs": {
                "n": {
                    "oneOf": [{"type": "array", "items": {"$ref": "#/$defs/n"}}, {"type": "null"}]
                }
            },
            "$ref": "#/$defs/n",
        },
        format=False,
    )
    instance = _nested(120, leaf=1)
    depth, errors = 0, module.errors(instance)
    while errors and errors[0].context:  # the tree really is deep
        depth, errors = depth + 1, list(errors[0].context)
    assert depth > 100
    expected = [module.output(instance, kind) for kind in ("basic", "detailed", "verbose")]
    got = _with_headroom(
        40, lambda: [module.output(instance, kind) for kind in ("basic", "detailed", "verbose")]
    )
    assert got == expected
    assert len(expected[0]["errors"]) > 200
