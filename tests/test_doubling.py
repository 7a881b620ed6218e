"""Who owns a call's memo table (generator/doubling.py, generator/memo_runtime.py): the public
functions (is_valid, errors...), so the root's own function is wrapped only where it can be
applied twice to one value; each public call gets a table of its own, and one made during
another puts the outer call's table back."""

from __future__ import annotations

import inspect
import re
import sys
import warnings
from typing import Any

import jsonschema
import pytest

import generator
from generator import doubling, pipeline

D = {"$ref": "#/$defs/d"}
# d doubles at every level of an array (repeating: memoized); the root parts (properties and
# allOf) and both sides meet at d on /a, but nothing applies the root to a value twice
SCHEMA = {
    "$defs": {"d": {"allOf": [{"items": D}, {"items": D}], "type": ["array", "integer"]}},
    "properties": {"a": D},
    "allOf": [{"properties": {"a": D}}],
}


def arrays(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def _module() -> Any:
    return generator.compile_module(SCHEMA, format=False)


def _raw_function(module: Any, pointer: str) -> str:
    """The name of the function a memo wrapper of the subschema at `pointer` wraps."""
    found = re.findall(rf'= _memo_fast\((\w+), "{re.escape(pointer)}"', module.__source__)
    assert len(found) == 1, found
    return str(found[0])


def _runs(module: Any, name: str, entry: Any, instance: Any) -> int:
    """How often the function `name` of the module runs during entry(instance)."""
    runs = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal runs
        if event == "call" and frame.f_code.co_name == name:
            runs += 1

    sys.setprofile(profile)
    try:
        entry(instance)
    finally:
        sys.setprofile(None)
    return runs


def test_the_root_is_plain_unless_it_doubles() -> None:
    module = _module()
    assert "_memo_fast(_v0," not in module.__source__
    assert _raw_function(module, "/$defs/d") != "_v0"
    # the root that can meet itself on one value stays memoized (its own doubling)
    doubled = generator.compile_module(
        {"allOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}}]}, format=False
    )
    assert "_memo_fast(_v0," in doubled.__source__


@pytest.mark.parametrize("depth", [0, 1, 6])
def test_one_table_serves_the_whole_call(depth: int) -> None:
    """Both sides of the root reach d on /a: the table the public function made serves both,
    so d is evaluated once on each value (two tables, one per side, would evaluate it twice)."""
    module = _module()
    name = _raw_function(module, "/$defs/d")
    instance = {"a": arrays(depth, 1)}
    assert _runs(module, name, module.is_valid, instance) == depth + 1
    oracle = jsonschema.Draft202012Validator(SCHEMA)
    for value in (instance, {"a": arrays(depth, "s")}, {"a": "s"}, {"b": 1}, []):
        assert module.is_valid(value) is oracle.is_valid(value), value
        assert bool(module.errors(value)) is not oracle.is_valid(value), value


def test_a_call_made_during_another_gets_its_own_table_and_puts_the_outer_one_back() -> None:
    """A custom format checker that validates during a validation: its call gets a fresh table,
    and the outer call goes on with its own (else it would lose its answers, or share them)."""
    module = _module()
    seen: list[Any] = []

    def run(instance: Any) -> bool:
        outer = module._MEMO.table
        answer = module.is_valid(instance)
        seen.append((outer is not None, module._MEMO.table is outer))
        return bool(answer)

    assert module._memo_owned(run, ({"a": arrays(3, 1)},)) is True
    assert seen == [(True, True)]
    assert module._MEMO.table is None  # (dropped once the outermost call ends)


def test_errors_are_cut_at_max_errors_by_the_public_function() -> None:
    """The root's error function is plain now: errors() cuts the list at MAX_ERRORS itself,
    and its last entry says how many were left out."""
    module = _module()
    bad = {"a": ["s"] * 7}
    every = module.errors(bad)
    assert len(every) > 3 and all(e.keyword != "maxErrors" for e in every)
    module.MAX_ERRORS = 2
    try:
        cut = module.errors(bad)
    finally:
        module.MAX_ERRORS = 1000
    assert [e.keyword for e in cut[:2]] == [e.keyword for e in every[:2]]
    assert len(cut) == 3 and cut[-1].keyword == "maxErrors"
    assert cut[-1].params["left_out"] == len(every) - 2


def test_which_member_steps_may_reach_one_member() -> None:
    """The search pairs two member steps only where they may reach the same member: a name and
    a pattern that may match it; a name and additionalProperties where no sibling takes the name
    (a pattern certainly matching it, or `properties` naming it). A pattern the linear planner
    cannot read counts as matching any name (a pair kept: memoized at worst, never missed) and
    as taking none."""
    from generator.doubling import _compatible, _matches, _may_match

    assert _may_match("^a", "ab") and not _may_match("^a", "b")
    assert _may_match("[", "b")  # (RegexTranslationError: may match)
    assert _matches("^a", "ab") and not _matches("^a", "b")
    assert not _matches("[", "b")  # (never certainly matching)
    other = ("other", ("x",), ("^a",))
    assert not _compatible(("name", "ab"), other)  # (the pattern takes it)
    assert _compatible(("name", "zz"), other)
    assert not _compatible(("name", "x"), other)  # (properties names it)
    assert _compatible(("pattern", "^a"), ("name", "ab"))
    assert not _compatible(("pattern", "^a"), ("name", "b"))


LOOP_MESSAGE = (
    "the schema's references at {} loop back to the same subschema without consuming any of the "
    "instance, so this value can never be validated"
)


@pytest.mark.parametrize(
    "schema,instance,place,named,relative",
    [
        ({"$ref": "#"}, 1, "", "the root", "/$ref/$ref"),
        (
            {
                "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}},
                "properties": {"p": {"$ref": "#/$defs/a"}},
            },
            {"p": 1},
            "/$defs/a",
            "/$defs/a",
            "/allOf/0/$ref",
        ),
    ],
)
def test_a_reference_loop_error_names_the_subschema_it_re_enters(
    schema: Any, instance: Any, place: str, named: str, relative: str
) -> None:
    """ReferenceLoopError's message names the subschema the loop re-enters ("the root" for the
    root); the fast path (is_valid, validate) knows no location but that subschema's, the error
    path the keyword path from the re-entered subschema's own evaluation to the re-entry."""
    with pytest.warns(generator.SchemaWarning):
        module = generator.compile_module(schema, profile="draft2020-12", format=False)
    for run, keyword_location in (
        (module.is_valid, place),
        (module.validate, place),
        (module.errors, relative),
    ):
        with pytest.raises(module.ReferenceLoopError) as raised:
            run(instance)
        error = raised.value
        assert error.message == LOOP_MESSAGE.format(named)
        assert (error.instance_location, error.keyword_location) == ("", keyword_location)
        assert (error.keyword, error.params) == ("$ref", {"subschema": place})


def test_a_loop_through_a_dynamic_reference_is_met_as_a_reference_loop_error() -> None:
    """The loop search follows a dynamic reference to its candidates (the dynamic tables): the
    root's own anchor here, so `not` re-enters the root on the same value."""
    schema = {
        "$id": "https://example.com/root",
        "$dynamicAnchor": "node",
        "anyOf": [{"type": "string"}, {"not": {"$dynamicRef": "#node"}}],
    }
    with pytest.warns(generator.SchemaWarning, match="an instance that reaches it") as caught:
        module = generator.compile_module(schema, profile="draft2020-12", format=False)
    (warning,) = [w.message for w in caught if isinstance(w.message, generator.SchemaWarning)]
    assert warning.pointer == "/anyOf/1/not/$dynamicRef"
    assert module.is_valid("s") and module.errors("s") == []
    for run in (module.is_valid, module.errors):
        with pytest.raises(module.ReferenceLoopError) as raised:
            run(1)
        assert raised.value.params == {"subschema": ""}


def _error(message: str, ip: str, kp: str, context: list[Any] | None = None) -> Any:
    from generator.primitives import ValidationError

    return ValidationError(message, ip, kp, "https://e/s#" + kp, "k", {"n": [1]}, [ip], context)


def _shape(error: Any) -> Any:
    """(message, locations, nested errors' shapes) of an error tree."""
    return (error.message, error.instance_location, error.keyword_location) + tuple(
        _shape(inner) for inner in error.context
    )


def test_a_replayed_error_keeps_as_much_context_as_the_room_allows_shallowest_first() -> None:
    """An application of a memoized subschema copies its errors below its own locations, with at
    most room[0] nested errors: every alternative's own error before any error nested in one."""
    from generator.memo_runtime import _memo_rebased

    tree = _error(
        "top",
        "",
        "/anyOf",
        [
            _error("a", "", "/anyOf/0", [_error("a0", "/0", "/anyOf/0/items")]),
            _error("b", "", "/anyOf/1", [_error("b0", "/1", "/anyOf/1/items")]),
        ],
    )
    expected = {
        0: ("top", "/x", "/p/anyOf"),
        1: ("top", "/x", "/p/anyOf", ("a", "/x", "/p/anyOf/0")),
        2: ("top", "/x", "/p/anyOf", ("a", "/x", "/p/anyOf/0"), ("b", "/x", "/p/anyOf/1")),
        3: (
            "top",
            "/x",
            "/p/anyOf",
            ("a", "/x", "/p/anyOf/0", ("a0", "/x/0", "/p/anyOf/0/items")),
            ("b", "/x", "/p/anyOf/1"),
        ),
    }
    for room, shape in expected.items():
        left = [room]
        assert _shape(_memo_rebased(tree, "/x", "/p", left)) == shape, room
        assert left == [0]
    left = [10]
    whole = _memo_rebased(tree, "/x", "/p", left)
    assert left == [6] and _shape(whole)[3][3] == ("a0", "/x/0", "/p/anyOf/0/items")
    assert _shape(tree)[:3] == ("top", "", "/anyOf")  # (the recorded errors stay as they were)


ANY = ("any",)
PROPNAME = ("propname",)
ADDITIONAL = ("other", ("x",), ("^a",))  # (beside properties {x} and patternProperties {^a})
# (first step, second step, whether they may reach one member), each read both ways round
MEMBER_STEPS = [
    (ANY, PROPNAME, True),  # (a step to any member: nothing is told apart)
    (ANY, ("index", 0), True),
    (PROPNAME, PROPNAME, True),  # (propertyNames: the names as values, met only by itself)
    (PROPNAME, ("index", 0), False),
    (PROPNAME, ("name", "ab"), False),
    (("name", "ab"), ("index", 0), False),  # (an object's members are no array's)
    (("anyprop",), ("from", 0), False),
    (("index", 0), ("index", 0), True),
    (("index", 1), ("index", 0), False),
    (("index", 0), ("from", 1), False),  # (items from 1 on: never the first)
    (("index", 1), ("from", 1), True),
    (("index", 2), ("from", 1), True),
    (("from", 1), ("from", 2), True),
    (("name", "ab"), ("name", "ab"), True),
    (("name", "ab"), ("name", "b"), False),
    (("name", "ab"), ("anyprop",), True),
    (("pattern", "^a"), ("anyprop",), True),
    (("name", "ab"), ("pattern", "^a"), True),
    (("name", "b"), ("pattern", "^a"), False),
    (("pattern", "^a"), ("pattern", "^b"), True),  # (two patterns: not told apart)
    (("name", "ab"), ADDITIONAL, False),  # (the pattern takes it)
    (("name", "x"), ADDITIONAL, False),  # (properties names it)
    (("name", "zz"), ADDITIONAL, True),
    (("pattern", "^a"), ADDITIONAL, False),  # (what the pattern matches is no other's)
    (("pattern", "^b"), ADDITIONAL, True),
    (ADDITIONAL, ("other", (), ()), True),
]


@pytest.mark.parametrize("first,second,may_meet", MEMBER_STEPS)
def test_two_member_steps_are_paired_only_where_they_may_reach_one_member(
    first: Any, second: Any, may_meet: bool
) -> None:
    from generator.doubling import _compatible

    assert _compatible(first, second) is may_meet
    assert _compatible(second, first) is may_meet


def test_each_member_step_has_the_key_its_pairing_reads() -> None:
    from generator import ir
    from generator.doubling import _kind

    assert _kind(ir.ByName("a")) == ("name", "a")
    assert _kind(ir.ByPattern("^a")) == ("pattern", "^a")
    assert _kind(ir.Additional(("a",), ("^b",))) == ("other", ("a",), ("^b",))
    assert _kind(ir.AtIndex(2)) == ("index", 2)
    assert _kind(ir.FromIndex(3)) == ("from", 3)
    assert _kind(ir.AnyProperty()) == ("anyprop",)
    assert _kind(ir.PropertyName()) == ("propname",)


def test_the_vertices_on_cycles_and_what_a_start_reaches() -> None:
    """Tarjan's components, iteratively: a vertex is on a cycle when its component has two or
    more vertices or an edge to itself; the order of the starts changes nothing."""
    from generator.doubling import _closure, _on_cycles

    # 1 -> 2 -> 3 -> 1 (a cycle), 3 -> 4 -> 4 (a loop), 4 -> 5, 6 -> 5, 7 alone, 8 <-> 9
    edges = {1: [2], 2: [3], 3: [4, 1], 4: [4, 5], 6: [5], 8: [9], 9: [8]}
    vertices = list(range(1, 10))
    for order in (
        vertices,
        vertices[::-1],
        [5, 4, 3, 2, 1, 6, 7, 9, 8],
        [2, 6, 9, 1, 3, 4, 5, 7, 8],
    ):
        assert _on_cycles(edges, order) == {1, 2, 3, 4, 8, 9}, order
    assert _on_cycles({1: [2], 2: [3], 3: []}, [1, 2, 3]) == set()
    # a cycle reached through a vertex off it, and a chain into it from behind
    assert _on_cycles({0: [1], 1: [2], 2: [1], 5: [0]}, [5, 0, 1, 2]) == {1, 2}
    assert _on_cycles({0: [1, 3], 1: [2], 2: [0], 3: [4], 4: [3]}, [0, 1, 2, 3, 4]) == {
        0,
        1,
        2,
        3,
        4,
    }
    assert _closure([6], edges) == {6, 5}
    assert _closure([1], edges) == {1, 2, 3, 4, 5}
    assert _closure([7, 8], edges) == {7, 8, 9}
    assert _closure([], edges) == set()


def test_a_replayed_error_is_a_copy_of_every_field_below_the_new_locations() -> None:
    from generator.memo_runtime import _memo_moved
    from generator.primitives import ValidationError

    class Special(ValidationError):
        pass

    error = Special("m", "/0", "/items", "https://e/s#/items", "type", {"n": [1]}, [2], [])
    error.context.append(_error("inner", "", ""))
    error.branch = 3
    error._matches = True
    copy = _memo_moved(error, "/a", "/p")
    assert type(copy) is Special
    assert (copy.message, copy.instance_location, copy.keyword_location) == (
        "m",
        "/a/0",
        "/p/items",
    )
    assert (copy.absolute_keyword_location, copy.keyword) == ("https://e/s#/items", "type")
    assert copy.params == {"n": [1]} and copy.params["n"] is not error.params["n"]
    assert copy.instance is error.instance and copy.context == []
    assert (copy.branch, copy._matches) == (3, True)


def _memoized(schema: Any, profile: str = "draft2020-12") -> list[str]:
    """The pointers of the subschemas whose fast path is memoized (doubling.py decides)."""
    source = generator.compile_source(schema, profile=profile, format=False)
    return re.findall(r'_memo_fast\(\w+, "([^"]*)"', source)


R = {"$ref": "#"}


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": [{"items": R}, {"allOf": [{"items": R}]}]},
        {"allOf": [{"allOf": [{"items": R}]}, {"items": R}]},
        {"allOf": [{"items": R}, {"not": {"not": {"items": R}}}]},
        {"allOf": [{"not": {"not": {"items": R}}}, {"items": R}]},
    ],
)
def test_a_doubling_is_found_whichever_side_steps_in_place_first(schema: Any) -> None:
    """One side steps to the items while the other has in-place steps left before its own: the
    first waits (a pending member step) until the second reaches a member step, and they meet at
    the root on every item."""
    assert _memoized(schema) == [""]
    module = generator.compile_module(schema, format=False)
    oracle = jsonschema.Draft202012Validator(schema)
    for instance in (arrays(3, 1), [[1], [[]]], arrays(2, "s")):
        assert module.is_valid(instance) is oracle.is_valid(instance) is True


def test_a_loop_behind_a_branch_nothing_applies_compiles_without_a_warning() -> None:
    """Only a loop some instance can reach counts: the search starts from the root (`loop` is
    lowered, behind the `else` of an `if` every value passes, but never applied)."""
    schema = {
        "properties": {"p": {"if": {}, "else": {"$ref": "#/$defs/loop"}}},
        "$defs": {"loop": {"anyOf": [{"$ref": "#/$defs/loop"}, {"type": "null"}]}},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        module = generator.compile_module(schema, profile="draft2020-12", format=False)
    assert module.is_valid({"p": 1}) and module.errors({"p": None}) == []


def test_the_loop_warning_is_raised_from_the_compiler_s_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(stacklevel=2: the warning names the compile step that lowered the schema, the caller of
    doubling.loops_allowed, not the warn call itself)"""
    callers: list[tuple[str, int]] = []
    warn = warnings.warn

    def spy(message: Any, category: Any = None, stacklevel: int = 1, source: Any = None) -> None:
        # the frame that called the function that called warn: where level 2 must point
        caller = sys._getframe(2)
        callers.append((caller.f_code.co_filename, caller.f_lineno))
        warn(message, category, stacklevel + 1, source)

    monkeypatch.setattr(warnings, "warn", spy)
    with pytest.warns(generator.SchemaWarning, match="an instance that reaches it") as caught:
        generator.compile_source({"$ref": "#"}, profile="draft2020-12", format=False)
    (warning,) = [w for w in caught if isinstance(w.message, generator.SchemaWarning)]
    assert str(warning.message) == (
        "/$ref: this $ref starts a cycle of references that never reaches a schema: an instance"
        " that reaches it gets a ReferenceLoopError there [ref-cycle]"
    )
    assert (warning.filename, warning.lineno) in callers
    # (mutmut's runs put its trampoline between the two: the line is checked only without it)
    if doubling.loops_allowed.__code__.co_filename == doubling.__file__:
        lines, first = inspect.getsourcelines(pipeline.build)
        (call,) = [first + i for i, line in enumerate(lines) if "doubling.loops_allowed(" in line]
        assert (warning.filename, warning.lineno) == (pipeline.__file__, call)


def test_with_dynamic_references_every_meeting_is_memoized() -> None:
    """The same anyOf sharing a definition: plain (it cannot repeat down the instance) in a
    schema of static references; memoized with a dynamic reference in the schema, where the
    simple rule holds (every subschema applied twice to one value)."""
    shared = {
        "$defs": {
            "d": {"properties": {"x": {"$ref": "#/$defs/leaf"}}},
            "leaf": {"type": "integer"},
        },
        "anyOf": [{"$ref": "#/$defs/d"}, {"$ref": "#/$defs/d", "required": ["x"]}],
    }
    assert _memoized({**shared, "properties": {"y": R}}) == []
    dynamic = {**shared, "$dynamicAnchor": "n", "properties": {"y": {"$dynamicRef": "#n"}}}
    assert _memoized(dynamic) == ["/$defs/d"]
    module = generator.compile_module(dynamic, format=False)
    oracle = jsonschema.Draft202012Validator(dynamic)
    for instance in ({"x": 1}, {"x": "s"}, {"y": {"x": 1}}, {"y": {"x": "s"}}, {}):
        assert module.is_valid(instance) is oracle.is_valid(instance), instance


DYNAMIC = {"$dynamicRef": "#n"}


@pytest.mark.parametrize(
    "schema",
    [
        {"$dynamicAnchor": "n", "allOf": [{"items": DYNAMIC}, {"items": DYNAMIC}]},
        {"$dynamicAnchor": "n", "allOf": [{"items": DYNAMIC}, {"allOf": [{"items": DYNAMIC}]}]},
        {"$dynamicAnchor": "n", "allOf": [{"allOf": [{"items": DYNAMIC}]}, {"items": DYNAMIC}]},
    ],
)
def test_a_doubling_through_dynamic_references_is_found(schema: Any) -> None:
    """Without an order of the in-place steps (dynamic references), both sides step on their
    own and then to their members together: the two `items` meet at the root on every item."""
    assert _memoized(schema) == [""]
    module = generator.compile_module(schema, format=False)
    oracle = jsonschema.Draft202012Validator(schema)
    for instance in (arrays(3, 1), [[1], [[]]], [1, "s"]):
        assert module.is_valid(instance) is oracle.is_valid(instance) is True


A = {"$ref": "#/$defs/a"}


@pytest.mark.parametrize(
    "schema,memoized",
    [
        # (items and properties never reach one member)
        ({"allOf": [{"items": R}, {"properties": {"a": R}}]}, []),
        # (the root meets itself on every item: through the reference and through allOf)
        ({"$defs": {"a": {"items": R}}, "$ref": "#/$defs/a", "allOf": [{"items": R}]}, [""]),
        (
            {
                "$defs": {"a": {"type": ["array", "integer"]}},
                "$ref": "#/$defs/a",
                "allOf": [{"items": R}, {"items": R}],
            },
            [""],
        ),
        ({"$defs": {"a": {"items": R}}, "allOf": [A, {"items": R}], "properties": {"x": R}}, [""]),
        # (`a`, a reference with a type beside it and a plain one, meets itself on the root's value;
        # each of its items is the root, which parts again: the doubling repeats at `a`)
        ({"$defs": {"a": {"items": R}}, "allOf": [{**A, "type": "array"}, A]}, ["/$defs/a"]),
        # (b meets itself on the root's value, through a plain reference and directly; below it
        # one derivation goes on: bounded, plain)
        (
            {
                "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"items": A}},
                "allOf": [A, {"$ref": "#/$defs/b"}],
            },
            [],
        ),
    ],
)
def test_which_subschemas_are_memoized(schema: Any, memoized: list[str]) -> None:
    assert _memoized(schema) == memoized
    module = generator.compile_module(schema, format=False)
    oracle = jsonschema.Draft202012Validator(schema)
    instances: list[Any] = [arrays(3, 1), [[1], [[]]], [1, "s"], {"a": [1]}, {"x": [[]]}]
    for instance in instances:
        assert module.is_valid(instance) is oracle.is_valid(instance), instance


@pytest.mark.parametrize(
    "schema",
    [
        # (dynamic references: the wrapper takes the dynamic scope too)
        {
            "$dynamicAnchor": "n",
            "allOf": [{"items": DYNAMIC}, {"items": DYNAMIC}],
            "type": ["array", "integer"],
        },
        # (a loop that consumes nothing elsewhere: the wrapper watches for a re-entry)
        {
            "$defs": {"loop": {"allOf": [{"$ref": "#/$defs/loop"}]}},
            "properties": {"never": {"$ref": "#/$defs/loop"}},
            "allOf": [{"items": R}, {"items": R}],
            "type": ["array", "integer", "object"],
        },
    ],
)
@pytest.mark.parametrize("depth", [0, 1, 5])
def test_each_wrapper_evaluates_its_subschema_once_per_value(schema: Any, depth: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the loop's own warning)
        module = generator.compile_module(schema, format=False)
    name = _raw_function(module, "")
    oracle = jsonschema.Draft202012Validator(schema)
    for leaf, valid in ((1, True), ("s", False)):
        instance = arrays(depth, leaf)
        # (the same value again and again: each evaluation is a table look-up after the first)
        assert _runs(module, name, module.is_valid, instance) == depth + 1
        assert module.is_valid(instance) is valid is oracle.is_valid(instance)
        assert module.is_valid(instance) is valid  # (a second call: a table of its own)
        assert (module.errors(instance) == []) is valid


def test_the_error_path_wrapper_replays_each_value_s_own_errors() -> None:
    """d's error path is memoized: each value gets its own entry (an item that fails beside one
    that passes), MAX_ERRORS = 1 cuts at one, and the wrapper called without a call's table (not
    through errors()) makes one of its own and drops it."""
    from generator.reference import DraftReference

    module = _module()
    instance = {"a": [1, "s", [["s"], 2]]}
    found = sorted((e.instance_location, e.keyword_location) for e in module.errors(instance))
    expected = DraftReference(SCHEMA, "draft2020-12").errors(instance)
    assert found == sorted((e.instance_location, e.keyword_location) for e in expected)
    assert len(found) > 2
    module.MAX_ERRORS = 1
    try:
        cut = module.errors(instance)
    finally:
        module.MAX_ERRORS = 1000
    assert [e.keyword for e in cut] == ["type", "maxErrors"]
    assert cut[1].params == {"left_out": len(found) - 1, "max_errors": 1}
    (wrapper,) = re.findall(r'(\w+) = _memo_errors\(\w+, "/\$defs/d"', module.__source__)
    out: list[Any] = []
    getattr(module, wrapper)(["s", 1], "/x", "/k", out, None)
    alone = DraftReference({**SCHEMA["$defs"]["d"], "$defs": SCHEMA["$defs"]}, "draft2020-12")
    assert sorted((e.instance_location, e.keyword_location) for e in out) == sorted(
        ("/x" + e.instance_location, "/k" + e.keyword_location) for e in alone.errors(["s", 1])
    )
    assert len(out) == 2 and module._MEMO.table is None


def _ref(name: str) -> dict[str, str]:
    return {"$ref": "#/$defs/" + name}


# d is applied twice on the root's value only (the alternatives share it), once a level: plain in
# a search with an order of the in-place steps, memoized in one without (a loop in place)
SHARED = {"d": {"properties": {"x": _ref("leaf")}}, "leaf": {"type": "integer"}}
ALTERNATIVES = [_ref("d"), {**_ref("d"), "required": ["x"]}]
# Schemas where a change to the search (doubling.py) changes what is memoized; those with a
# bare id were shrunk from random schemas that told a change apart (2026-12-07), and exercise
# the step the id names.
SEARCH_CASES = [
    # (a loop in place leaves the search without an order of the in-place steps: every meeting
    # is memoized, d and the loop at y; a loop missed would leave d plain)
    pytest.param(
        {
            "properties": {"y": {"anyOf": [{"$ref": "#/properties/y"}, {"type": "null"}]}},
            "anyOf": ALTERNATIVES,
            "$defs": SHARED,
        },
        ["/properties/y", "/$defs/d"],
        id="a loop in place that starts at a member",
    ),
    pytest.param(
        {
            "properties": {"y": {"allOf": [_ref("leaf"), {"$ref": "#/properties/y"}]}},
            "anyOf": ALTERNATIVES,
            "$defs": SHARED,
        },
        ["/properties/y", "/$defs/d"],
        id="a loop in place through a second step",
    ),
    pytest.param(
        {
            "anyOf": [R, _ref("a")],
            "$defs": {
                "a": {"properties": {"y": {"contains": _ref("c"), "prefixItems": [_ref("c")]}}},
                "c": {"patternProperties": {"^y": R}},
            },
        },
        ["", "/$defs/a", "/$defs/c"],
        id="a loop in place through the root",
    ),
    # (two references on one node are two steps: d applied twice on the root's value, and
    # again on each item)
    pytest.param(
        {"$defs": {"d": {"items": R}}, "$ref": "#/$defs/d", "$dynamicRef": "#/$defs/d"},
        ["/$defs/d"],
        id="two references of one node part",
    ),
    # (J meets itself once, on the root's value; K doubles on every item below it: J plain)
    pytest.param(
        {
            "$defs": {
                "J": {"properties": {"x": _ref("K")}},
                "K": {"allOf": [{"items": _ref("K")}, {"items": _ref("K")}]},
            },
            "anyOf": [_ref("J"), {**_ref("J"), "required": ["x"]}],
        },
        ["/$defs/K"],
        id="a repeating doubling below a bounded one",
    ),
    # (A and B go down the items in step, a cycle of pairs with no fresh start on it: M is
    # applied twice a value, never more; plain)
    pytest.param(
        {
            "$defs": {
                "A": {"items": _ref("A"), "properties": {"x": _ref("M")}},
                "B": {"items": _ref("B"), "properties": {"x": _ref("M")}},
                "M": {"properties": {"y": _ref("L")}},
                "L": {"type": "integer"},
            },
            "anyOf": [_ref("A"), _ref("B")],
        },
        [],
        id="two derivations in step meet a bounded number of times",
    ),
    pytest.param(
        {
            "not": {"prefixItems": [_ref("b")]},
            "$defs": {
                "b": {"items": {"anyOf": [_ref("c")]}},
                "c": {"allOf": [{"if": _ref("b"), "prefixItems": [R]}]},
            },
        },
        ["/$defs/b"],
        id="keys by node",
    ),
    pytest.param(
        {
            "not": {"prefixItems": [_ref("b")]},
            "$defs": {
                "b": {"items": {"propertyNames": R, "anyOf": [_ref("c")]}},
                "c": {
                    "allOf": [{"if": _ref("b")}],
                    "items": {"patternProperties": {".": _ref("b")}},
                },
            },
        },
        [],
        id="member index by kind",
    ),
    pytest.param(
        {"dependentSchemas": {"x": _ref("a")}, "$defs": {"a": {"contains": R}}},
        [],
        id="members not applied in place",
    ),
    pytest.param(
        {
            "additionalProperties": {"dependentSchemas": {"x": {}}, "$ref": "#/$defs/a"},
            "$defs": {"a": _ref("b"), "b": {"if": R}},
        },
        [],
        id="groups of in-place steps",
    ),
    pytest.param(
        {
            "anyOf": [_ref("a")],
            "$defs": {
                "a": {
                    "properties": {
                        "y": {"dependentSchemas": {"x": _ref("b")}, "prefixItems": [_ref("a")]}
                    }
                },
                "b": {"contains": R},
            },
        },
        ["/$defs/a"],
        id="ranks from every start",
    ),
    pytest.param(
        {"unevaluatedItems": {"if": R}, "allOf": [_ref("b")], "$defs": {"b": {"prefixItems": [R]}}},
        [""],
        id="a node side against a pending side",
    ),
    pytest.param(
        {
            "additionalProperties": _ref("a"),
            "$defs": {
                "a": {
                    "prefixItems": [{"contains": _ref("b")}],
                    "oneOf": [{"prefixItems": [R]}, _ref("b")],
                },
                "b": {"contains": {"allOf": [_ref("a")]}},
            },
        },
        ["/$defs/b"],
        id="ranks of every in-place step",
    ),
    pytest.param(
        {
            "additionalProperties": _ref("a"),
            "$defs": {
                "a": {
                    "prefixItems": [{"prefixItems": [_ref("c"), R]}],
                    "oneOf": [{"prefixItems": [{}, R]}, _ref("b")],
                },
                "b": {"contains": {"allOf": [_ref("a")]}},
                "c": {},
            },
        },
        [""],
        id="every member step waits for the other side",
    ),
    pytest.param(
        {
            "$ref": "#",
            "dependentSchemas": {"x": _ref("c")},
            "$defs": {"a": {}, "c": {"additionalProperties": _ref("a")}},
        },
        ["", "/$defs/c"],
        id="in-place steps of every check",
    ),
    pytest.param(
        {"$ref": "#", "items": {}, "dependentSchemas": {"x": {}}}, [""], id="refers of siblings"
    ),
    pytest.param(
        {
            "properties": {"x": {"allOf": [{"if": _ref("c")}, _ref("c")]}},
            "$defs": {"b": _ref("b"), "c": {"propertyNames": _ref("b")}},
        },
        ["/$defs/c", "/$defs/c/propertyNames"],
        id="ranks: a loop below a start",
    ),
    pytest.param(
        {
            "additionalProperties": {"unevaluatedItems": {"additionalProperties": _ref("a")}},
            "$defs": {
                "a": {"oneOf": [_ref("b")]},
                "b": {
                    "items": {"prefixItems": [_ref("c")], "not": _ref("a")},
                    "properties": {"z": _ref("c")},
                },
                "c": {"contains": _ref("a")},
            },
        },
        ["/$defs/a"],
        id="named members meet only their name",
    ),
    pytest.param(
        {
            "anyOf": [_ref("c")],
            "items": {"allOf": [_ref("a")]},
            "$defs": {
                "a": {"if": {}, "then": {"oneOf": [R]}},
                "b": {"items": _ref("c")},
                "c": {"$ref": "#/$defs/b", "type": "object"},
            },
        },
        ["/$defs/c"],
        id="a reference beside a type is no plain reference",
    ),
    pytest.param(
        {
            "propertyNames": {
                "if": _ref("c"),
                "then": {},
                "else": {"if": {"type": "string"}, "else": R},
                "allOf": [R, {}],
            },
            "$defs": {"c": {}},
        },
        [""],
        id="groups of one check's in-place steps",
    ),
    pytest.param(
        {
            "patternProperties": {"^y": {}},
            "$ref": "#/$defs/c",
            "$defs": {
                "c": {"unevaluatedItems": {"if": {}, "then": R}, "items": {"allOf": [_ref("c"), R]}}
            },
        },
        ["", "/$defs/c"],
        id="the root counted as memoized",
    ),
    pytest.param(
        {
            "properties": {
                "x": {"contains": _ref("b"), "unevaluatedItems": _ref("b"), "allOf": [R]}
            },
            "$defs": {"b": {"$ref": "#", "properties": {"z": {}}}},
        },
        ["/$defs/b"],
        id="every parting node reached",
    ),
    pytest.param(
        {
            "not": {
                "unevaluatedItems": {"prefixItems": [R]},
                "anyOf": [{"if": {}, "then": _ref("c")}],
            },
            "$defs": {"c": {"items": {"prefixItems": [_ref("c")]}}},
        },
        ["/$defs/c"],
        id="a fresh start on either side",
    ),
    pytest.param(
        {
            "properties": {
                "z": {"$ref": "#/$defs/A", "$dynamicRef": "#/$defs/B"},
                "b": _ref("A"),
                "c": _ref("B"),
            },
            "$defs": {
                "A": {"allOf": [_ref("k1"), _ref("k2"), _ref("k3")]},
                "B": {"anyOf": [_ref("k1"), _ref("k2"), _ref("k3")]},
                "k1": {"properties": {"p": R}},
                "k2": {"properties": {"q": R}},
                "k3": {"properties": {"r": R}},
            },
        },
        ["/$defs/k1", "/$defs/k2", "/$defs/k3"],
        id="three meetings after the last node that parts",
    ),
    pytest.param(
        {
            "allOf": [_ref("a")],
            "$defs": {
                "a": {"contains": {"oneOf": [_ref("c")]}},
                "c": {
                    "unevaluatedItems": {"prefixItems": [R], "oneOf": [_ref("a")]},
                    "items": {"patternProperties": {"^y": _ref("c")}},
                },
            },
        },
        ["/$defs/a"],
        id="pending sides of one kind at two nodes",
    ),
    # (pending sides keyed by their objects, not kind and node: the id of one freed is reused
    # for another, taken as a pair already searched)
    pytest.param(
        {
            "patternProperties": {".": {"items": {"anyOf": [R]}}},
            "oneOf": [{"unevaluatedItems": R, "anyOf": [{"prefixItems": [_ref("a")]}]}],
            "$defs": {"a": {"unevaluatedItems": _ref("a")}},
        },
        ["/$defs/a"],
        id="pending sides made again",
    ),
]


@pytest.mark.parametrize("schema,memoized", SEARCH_CASES)
def test_the_search_memoizes_the_subschemas_whose_doubling_can_repeat(
    schema: Any, memoized: list[str]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the loops' own warnings)
        assert _memoized(schema) == memoized


def _search_of(schema: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Any]:
    """A search over the lowered `schema` (not yet run), its graph and its root node."""
    from generator import doubling

    calls: list[Any] = []
    monkeypatch.setattr(doubling, "memoized", lambda *args: calls.append(args) or set())
    generator.compile_source(schema, format=False)
    graph, tables, root, live, _ = calls[0]
    return doubling._Search(graph, tables, live, bool(tables)), graph, graph[root]


def test_a_pending_member_step_to_a_plain_reference_waits_at_its_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(a plain reference is its target: one pair for both, a pending side too)"""
    from generator import doubling

    schema = {"items": _ref("t"), "$defs": {"t": {"items": R, "type": "array"}}}
    search, graph, root = _search_of(schema, monkeypatch)
    search.run(root)
    ((kind, member),) = search.edges(root)[1]
    assert search._plain_ref(member) is not None
    pending = search._through(doubling._Pending(kind, member))
    assert (pending.kind, pending.node) == (kind, graph["#/$defs/t"])


def test_the_search_gives_up_only_past_max_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_PAIRS it gives up (every live key counts as found); at MAX_PAIRS it goes on."""
    from generator import doubling

    schema = {"allOf": [{"items": R}, {"items": R}], "properties": {"a": R, "b": R}}
    search, graph, root = _search_of(schema, monkeypatch)
    found = search.run(root)
    pairs = len(search.sides)
    assert pairs > 1 and not search.gave_up and found == {"#"}
    for limit, gives_up in ((pairs, False), (pairs - 1, True)):
        monkeypatch.setattr(doubling, "MAX_PAIRS", limit)
        again = doubling._Search(graph, search.tables, search.live, False)
        assert again.run(root) == (search.live if gives_up else found)
        assert again.gave_up is gives_up


def test_no_pair_of_the_search_holds_a_plain_reference_as_a_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each side is followed through plain references (`_through`): the items' two references
    to t are one pair (t, t), where the two derivations meet (t's own items: the root)."""
    schema = {
        "allOf": [{"items": _ref("t")}, {"items": _ref("t")}],
        "$defs": {"t": {"items": R, "type": "array"}},
    }
    search, graph, root = _search_of(schema, monkeypatch)
    assert "#/$defs/t" in search.run(root)
    plain = {key for key, node in search.nodes.items() if search._plain_ref(node) is not None}
    sides = {side for pair in search.sides.values() for side in pair}
    assert len(plain) == 3 and id(graph["#/$defs/t"]) in sides
    assert not plain & sides


def test_a_pending_side_is_keyed_by_its_member_step_and_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pair's key says what its sides are: a pending side's, the kind of its member step and
    the node it waits at, not the object holding them (one made again, by another pair or where a
    freed one's id is reused, is the same pair: searched once, never taken for another)."""
    schema = {
        "items": _ref("t"),
        "allOf": [_ref("t")],
        "$defs": {"t": {"items": R, "type": "array"}},
    }
    search, graph, root = _search_of(schema, monkeypatch)
    search.run(root)
    t = id(graph["#/$defs/t"])
    # (t, reached in place, against the root's step to its items, waiting at t)
    assert (("n", t), ("p", ("from", 0), t)) in search.sides
