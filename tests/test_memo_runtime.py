"""The memo wrappers of generator/memo_runtime.py as a generated module holds them (copied as
source text: a module compiled here runs the copy of the memo_runtime.py being tested). Each
wrapper evaluates its function once per value (and dynamic scope, or absolute location) in one
call's table; called without a table it owns one for its own call and drops it; a re-entry on the
value being evaluated is a ReferenceLoopError; and the error path keeps at most MAX_ERRORS errors
in a list, counting the others, with the last entry saying how many were left out."""

from __future__ import annotations

import inspect
from typing import Any, Callable

import pytest

import generator

D = {"$ref": "#/$defs/d"}
# d doubles at every level of an array: its fast and error paths are memoized
SCHEMA = {
    "$defs": {"d": {"allOf": [{"items": D}, {"items": D}], "type": ["array", "integer"]}},
    "properties": {"a": D},
    "allOf": [{"properties": {"a": D}}],
}


@pytest.fixture(scope="module")
def module() -> Any:
    """A module compiled now, with every memo function copied in (the wrappers, _memo_owned, the
    error path's owner): the tests wrap functions of their own with its wrappers."""
    return generator.compile_module(SCHEMA, format=False)


class Counted:
    """A function to wrap: True for 1 and for a list whose items all are (each item through the
    wrapper, with the same scope), counting its runs by value and noting whether a table was
    there."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.wrapper: Callable[..., Any] = lambda x, *scope: None
        self.runs: list[Any] = []
        self.tables: list[bool] = []

    def __call__(self, x: Any, *scope: Any) -> bool:
        self.runs.append(x)
        self.tables.append(self.module._MEMO.table is not None)
        if type(x) is list:
            return all([self.wrapper(item, *scope) for item in x])
        return bool(x == 1)


def _wrapped(module: Any, how: str) -> Counted:
    """A Counted function behind the wrapper the emitter binds (emit/memo.py): `loops` where the
    schema has a reference loop, `scoped` with dynamic references, `plain` otherwise."""
    function = Counted(module)
    arguments = {"loops": (), "scoped": (False,), "plain": (False, False)}[how]
    function.wrapper = module._memo_once(function, "/p", *arguments)
    return function


SCOPES = {"loops": ("s",), "scoped": ("s",), "plain": ()}


@pytest.mark.parametrize("how", ["loops", "scoped", "plain"])
def test_a_wrapper_called_without_a_table_owns_one_and_evaluates_each_value_once(
    module: Any, how: str
) -> None:
    function = _wrapped(module, how)
    leaf = [1]
    scope = SCOPES[how]
    assert function.wrapper([leaf, leaf], *scope) is True
    # the list, leaf once (its second application is a look-up), and 1
    assert function.runs == [[leaf, leaf], leaf, 1] and all(function.tables)
    assert module._MEMO.table is None  # (dropped when the owning call ends)
    # each value has its own answer; and a new call, a new table: everything runs again
    function.runs.clear()
    assert function.wrapper([leaf, leaf, 2], *scope) is False
    assert function.runs == [[leaf, leaf, 2], leaf, 1, 2]
    assert module._MEMO.table is None


def test_the_wrapper_takes_a_dynamic_scope_only_where_the_module_has_one(module: Any) -> None:
    """(no loop and no dynamic scope: the wrapper takes the value alone, the cheapest call)"""
    shapes = {
        how: list(inspect.signature(_wrapped(module, how).wrapper).parameters)
        for how in ("loops", "scoped", "plain")
    }
    assert shapes == {"loops": ["x", "scope"], "scoped": ["x", "scope"], "plain": ["x"]}


def test_a_re_entry_on_the_value_being_evaluated_is_a_reference_loop_error(module: Any) -> None:
    """(the wrapper of a schema with a reference loop, bound without `loops`: its default)"""
    runs: list[Any] = []

    def again(x: Any) -> bool:
        runs.append(x)
        return bool(wrapper(x))

    wrapper = module._memo_once(again, "/$defs/p")
    with pytest.raises(module.ReferenceLoopError) as raised:
        wrapper(1)
    assert raised.value.params == {"subschema": "/$defs/p"} and runs == [1]
    assert module._MEMO.table is None


def test_a_value_evaluated_before_is_no_re_entry(module: Any) -> None:
    """Once the wrapped function returns (or raises), its value is no longer being evaluated:
    the same value in another dynamic scope, or again after an exception, is evaluated anew."""
    function = _wrapped(module, "loops")
    leaf = [1]
    failing = [False]

    def flaky(x: Any, *scope: Any) -> bool:
        if failing[0]:
            failing[0] = False
            raise ValueError("once")
        return function(x, *scope)

    wrapper = module._memo_once(flaky, "/p")
    function.wrapper = wrapper

    def run() -> list[Any]:
        answers = [function.wrapper(leaf, "a"), function.wrapper(leaf, "b")]
        failing[0] = True
        with pytest.raises(ValueError):
            function.wrapper(2)
        answers.append(function.wrapper(2))
        return answers

    assert module._memo_owned(run, ()) == [True, True, False]
    assert function.runs == [leaf, 1, leaf, 1, 2]
    assert module._MEMO.table is None


class Failing:
    """An error function to wrap: a list's items through the wrapper (below /n, with the
    absolute location /items), an error of its own for anything but 1."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.wrapper: Callable[..., Any] = module._memo_errors(self, "/p")
        self.runs: list[Any] = []

    def __call__(self, x: Any, ip: str, kp: str, out: list[Any], ak: Any, *scope: Any) -> None:
        self.runs.append((x, ak))
        if type(x) is list:
            for i, item in enumerate(x):
                self.wrapper(item, f"{ip}/{i}", kp + "/items", out, ak and ak + "/items")
        elif x != 1:
            out.append(self.module.ValidationError(f"{x!r} is not 1", ip, kp, ak, "const", {}, x))


def _locations(errors: list[Any]) -> list[tuple[Any, ...]]:
    return [(e.instance_location, e.keyword_location, e.absolute_keyword_location) for e in errors]


def test_the_error_wrapper_hands_the_absolute_location_to_its_function(module: Any) -> None:
    failing = Failing(module)
    out: list[Any] = []
    failing.wrapper(["s"], "/x", "/k", out, "#/p")
    assert _locations(out) == [("/x/0", "/k/items", "#/p/items")]
    assert failing.runs == [(["s"], "#/p"), ("s", "#/p/items")]
    assert module._MEMO.table is None


def test_errors_below_a_reference_have_the_absolute_location_of_its_target() -> None:
    """Each error below d (memoized) has d's absolute location: its keyword path from the last
    $ref on, below #/$defs/d."""
    module = generator.compile_module(SCHEMA, format=False)
    found = module.errors({"a": ["s", [["s"]]]})
    # (each "s" once per path: 2 root sides x 2 allOf members a level, /a/0 one level down)
    assert len(found) == 2 * 2 + 2 * 2**3
    for error in found:
        below = error.keyword_location.rpartition("/$ref")[2]
        assert error.absolute_keyword_location == "#/$defs/d" + below == "#/$defs/d/type"


def test_an_error_wrapper_evaluates_each_value_once_per_absolute_location(module: Any) -> None:
    failing = Failing(module)
    value = ["s"]
    out: list[Any] = []

    def run() -> None:
        for ak in ("#/a", "#/b", "#/a"):
            failing.wrapper(value, "/x", "/k", out, ak)

    module._memo_owned(run, ())
    # (#/a's second application replays: no run)
    assert failing.runs == [(value, "#/a"), ("s", "#/a/items"), (value, "#/b"), ("s", "#/b/items")]
    assert [e.absolute_keyword_location for e in out] == ["#/a/items", "#/b/items", "#/a/items"]


def _dropped(module: Any, out: list[Any]) -> Any:
    """How many errors the call's table counts as left out of the list `out`."""
    slot = module._memo_extra(module._MEMO.table)[1].get(id(out))
    return None if slot is None else slot[1]


@pytest.mark.parametrize("max_errors", [0, 1, 2])
def test_a_list_holds_at_most_max_errors_the_others_are_counted(
    module: Any, max_errors: int
) -> None:
    """Within a call (the public function's table), a replay adds errors to a list only up to
    MAX_ERRORS (1 at least), and counts the others against that list: a list that is full gets
    none, however many applications follow."""
    limit = max(1, max_errors)
    failing = Failing(module)
    seen: list[Any] = []

    def run() -> None:
        out: list[Any] = []
        failing.wrapper(["s", "t", "u"], "", "", out, None)
        seen.append((len(out), _dropped(module, out)))
        failing.wrapper([4, 5], "", "", out, None)  # (full: counted only)
        seen.append((len(out), _dropped(module, out)))
        filled = [module.ValidationError("other", "", "")] * limit
        failing.wrapper(["v"], "", "", filled, None)
        seen.append((len(filled), _dropped(module, filled)))

    module.MAX_ERRORS = max_errors
    try:
        module._memo_owned(run, ())
    finally:
        module.MAX_ERRORS = 1000
    assert seen == [(limit, 3 - limit), (limit, 5 - limit), (limit, 1)]


def test_the_last_entry_says_how_many_errors_were_left_out_below_the_call_s_place(
    module: Any,
) -> None:
    """The wrapper called without a table ends the list as errors() does: cut at MAX_ERRORS,
    then one error at the call's own locations, on its value, counting the others."""
    failing = Failing(module)
    value = ["s", "t", "u"]
    out: list[Any] = []
    module.MAX_ERRORS = 1
    try:
        failing.wrapper(value, "/x", "/k", out, None)
    finally:
        module.MAX_ERRORS = 1000
    assert [e.message for e in out[:1]] == ["'s' is not 1"]
    last = out[-1]
    assert len(out) == 2 and (last.keyword, last.params) == (
        "maxErrors",
        {"left_out": 2, "max_errors": 1},
    )
    assert (last.instance_location, last.keyword_location) == ("/x", "/k")
    assert last.instance is value
    assert last.message == (
        "2 more errors were left out (errors() lists at most MAX_ERRORS = 1 of them)"
    )


def test_a_list_the_caller_filled_before_is_cut_at_max_errors_from_its_own_start(
    module: Any,
) -> None:
    """(errors the caller's list held before the call are not the call's: room is left for
    MAX_ERRORS of them, and nothing left out is no maxErrors entry)"""
    failing = Failing(module)
    before = module.ValidationError("before", "", "")
    out: list[Any] = [before]
    module.MAX_ERRORS = 2
    try:
        failing.wrapper("s", "/x", "/k", out, None)
    finally:
        module.MAX_ERRORS = 1000
    assert out[0] is before and [e.keyword for e in out] == [None, "const"]


def test_errors_the_public_function_s_own_code_adds_past_max_errors_are_counted_too() -> None:
    """The root is plain: its own errors (required) go straight to the list, past MAX_ERRORS;
    d's replays, after them, find the list full. The last entry counts both."""
    schema = {**SCHEMA, "required": ["x", "y", "z"]}
    module = generator.compile_module(schema, format=False)
    assert "_memo_errors(_e0," not in module.__source__  # (the root: plain)
    every = module.errors({"a": "s"})
    assert [e.keyword for e in every] == ["required"] * 3 + ["type"] * 2
    module.MAX_ERRORS = 1
    try:
        cut = module.errors({"a": "s"})
    finally:
        module.MAX_ERRORS = 1000
    assert [e.keyword for e in cut] == ["required", "maxErrors"]
    assert cut[-1].params == {"left_out": 4, "max_errors": 1}
