"""The pass that makes two tests of the same value one (generator/emit/fuse.py): copies read as
their source, rules' conditions moved next to each other, same-test `if`s fused; and, for schemas
built around if/then rules on one property, the answers of whole modules against the reference."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import generator
from generator.emit import tree as t
from generator.emit.fuse import fuse
from generator.reference import DraftReference

from ..errors.structure import structure

X, Y, C1, C2 = t.Name("x"), t.Name("y"), t.Name("c1"), t.Name("c2")


def _is(value: t.Expr, name: str) -> t.Expr:
    return t.Compare(t.call("type", value), "is", t.Name(name))


def _text(body: list[t.Stmt] | None) -> list[str]:
    assert body is not None
    return t.render_block(body, 0)


def test_a_copy_is_read_as_its_source() -> None:
    body = [t.Assign(Y, X), t.fail_if(_is(Y, "dict")), t.Return(Y)]
    assert _text(fuse(body)) == ["if type(x) is dict:", "    return False", "return x"]


def test_a_copy_stays_where_its_source_or_itself_is_bound_again_or_read_before() -> None:
    rebound = [t.Assign(Y, X), t.Assign(X, t.lit(1)), t.Return(Y)]
    assert fuse(rebound) is None
    twice = [t.Assign(Y, X), t.Return(Y), t.Assign(Y, t.lit(2))]
    assert fuse(twice) is None
    # read in another arm than the copy's: not only after it
    elsewhere = [t.If(((t.Name("a"), (t.Assign(Y, X),)),), (t.Return(Y),))]
    assert fuse(elsewhere) is None
    # in a loop, the source bound again by the loop after the copy
    loop = [t.For(X, t.Name("items"), (t.Assign(Y, X),)), t.Return(Y)]
    assert fuse(loop) is None
    # the copy's name bound again by a loop and by an assignment: each binding counts once
    again = [
        t.Assign(Y, X),
        t.For(Y, t.Name("items"), (t.Pass(),)),
        t.Assign(Y, t.lit(2)),
        t.Return(t.Tuple((X, Y))),
    ]
    assert fuse(again) is None
    # bound again by a loop alone: after it, x is still x and y the loop's last item
    looped = [t.Assign(Y, X), t.For(Y, t.Name("items"), (t.Pass(),)), t.Return(t.Tuple((X, Y)))]
    assert fuse(looped) is None


def test_a_name_read_before_its_copy_is_not_renamed() -> None:
    """`y = x` with y read before it (a parameter, say): that y is not x, wherever it is read."""
    items, a, i = t.Name("items"), t.Name("a"), t.Name("i")
    in_assignment = [t.Assign(a, Y), t.Assign(Y, X), t.Return(t.Tuple((a, Y)))]
    assert fuse(in_assignment) is None
    in_loop = [t.For(i, items, (t.Return(Y),)), t.Assign(Y, X), t.Return(Y)]
    assert fuse(in_loop) is None


def test_adjacent_ifs_with_the_same_first_test_are_fused() -> None:
    first = t.If(
        ((_is(X, "dict"), (t.Assign(C1, t.FALSE),)), (_is(X, "list"), (t.Pass(),))),
        (t.Assign(C1, t.lit(0)),),
    )
    second = t.If(((_is(X, "dict"), (t.Assign(C2, t.FALSE),)),), (t.Assign(C2, t.lit(0)),))
    # for each kind of x, what ran before runs, in the same order
    assert _text(fuse([first, second])) == [
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
        "else:",
        "    if type(x) is not list:",
        "        c1 = 0",
        "    c2 = 0",
    ]  # (`elif U: pass else: E`)
    # a single `if` left in the else is an elif
    third = t.If(((_is(X, "dict"), (t.Assign(C2, t.FALSE),)),), ())
    assert _text(fuse([first, third])) == [
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
        "elif type(x) is not list:",
        "    c1 = 0",
    ]


def test_a_body_that_binds_what_the_test_reads_is_not_fused() -> None:
    first = t.if_(_is(X, "dict"), [t.Assign(X, t.lit(1))])
    second = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    assert fuse([first, second]) is None


def test_an_other_arm_that_binds_what_the_test_reads_is_not_fused() -> None:
    # the second `if` made its test again after the first's else (or elif) arm ran: fused, a value
    # that arm bound would be tested as it was before it
    second = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    rebind = t.Assign(X, t.Display("dict", ()))
    in_else = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)], [rebind])
    assert fuse([in_else, second]) is None
    in_elif = t.If(((_is(X, "dict"), (t.Assign(C1, t.FALSE),)), (_is(X, "list"), (rebind,))))
    assert fuse([in_elif, second]) is None
    # moved up to it, likewise
    condition = [t.Assign(C2, t.TRUE), second]
    assert fuse([in_else, t.if_(C1, [t.RETURN_FALSE]), *condition]) is None


def test_a_tested_call_is_not_fused() -> None:
    test = t.call("_check", X)
    assert (
        fuse([t.if_(test, [t.Assign(C1, t.FALSE)]), t.if_(test, [t.Assign(C2, t.FALSE)])]) is None
    )


def test_a_condition_moves_up_past_flag_tests_only() -> None:
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    use_1 = t.if_(C1, [t.RETURN_FALSE])
    condition_2 = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    use_2 = t.if_(C2, [t.RETURN_FALSE])
    body = [t.Assign(C1, t.TRUE), condition_1, use_1, t.Assign(C2, t.TRUE), condition_2, use_2]
    assert _text(fuse(body)) == [
        "c1 = True",
        "c2 = True",
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
        "if c1:",
        "    return False",
        "if c2:",
        "    return False",
    ]
    # past a check (which the condition could rely on), it stays
    guarded = [
        t.Assign(C1, t.TRUE),
        condition_1,
        t.fail_if(t.Compare(t.lit("a"), "not in", X)),
        t.Assign(C2, t.TRUE),
        condition_2,
        use_2,
    ]
    assert fuse(guarded) is None
    # a condition that may return is not moved
    leaving = t.if_(_is(X, "dict"), [t.RETURN_FALSE])
    assert fuse([t.Assign(C1, t.TRUE), condition_1, use_1, leaving]) is None
    # next to its partner, nothing is moved: it fuses
    assert _text(fuse([condition_1, leaving])) == [
        "if type(x) is dict:",
        "    c1 = False",
        "    return False",
    ]


def test_rules_on_one_property_read_it_and_test_its_type_once() -> None:
    source = generator.compile_source(
        _schema([("kind", "a", {"required": ["r"]}), ("kind", "b", {"required": ["s"]})]),
        format=False,
    )
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert fast.count('"kind" in x') == 1 and fast.count('x["kind"]') == 1, fast
    assert fast.count("is str") == 1 and 'if x3 != "a":' in fast and 'if x3 != "b":' in fast, fast
    module: Any = generator.compile_module(
        _schema([("kind", "a", {"required": ["r"]}), ("kind", "b", {"required": ["s"]})])
    )
    answers = [
        module.is_valid(i)
        for i in (
            {"kind": "a", "r": 1},
            {"kind": "a"},
            {"kind": "b", "s": 1},
            {"kind": "b", "r": 1},
            {"kind": "c"},
            {"kind": 1},
            {},
            3,
        )
    ]
    # no kind: both conditions hold (properties passes), so both rules apply
    assert answers == [True, False, True, False, True, True, False, False]


def _schema(rules: list[tuple[str, Any, Any]]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "allOf": [
            {"if": {"properties": {name: {"const": value}}}, "then": then}
            for name, value, then in rules
        ],
    }


# -- whole modules against the reference --------------------------------------------------------
_LEAVES = st.sampled_from(["a", "b", "c", 1, 1.0, 2, None, True, False, [], ""])
_NAMES = st.sampled_from(["p", "q", "r"])


@st.composite
def _condition(draw: st.DrawFn) -> Any:
    test = draw(
        st.one_of(
            st.builds(lambda v: {"const": v}, _LEAVES),
            st.builds(lambda vs: {"enum": vs}, st.lists(_LEAVES, min_size=1, max_size=3)),
            st.sampled_from(
                [
                    {"type": "string"},
                    {"type": "integer"},
                    {"minLength": 1},
                    {"type": "object"},
                    {"not": {"const": "a"}},
                ]
            ),
        )
    )
    for name in reversed(draw(st.lists(_NAMES, min_size=1, max_size=2))):
        test = {"properties": {name: test}}
        if draw(st.booleans()):
            test["required"] = [name]
    return test


_OUTCOMES = st.sampled_from(
    [
        {"required": ["r"]},
        {"properties": {"q": {"type": "string"}}},
        False,
        True,
        {"not": {"required": ["p"]}},
        {"properties": {"p": {"properties": {"q": {"const": 1}}}}},
        {"maxProperties": 1},
    ]
)


@st.composite
def _rules_schema(draw: st.DrawFn) -> Any:
    rules = []
    for _ in range(draw(st.integers(2, 5))):
        rule = {"if": draw(_condition()), "then": draw(_OUTCOMES)}
        if draw(st.booleans()):
            rule["else"] = draw(_OUTCOMES)
        rules.append(rule)
    schema: dict[str, Any] = {"allOf": rules}
    if draw(st.booleans()):
        schema["type"] = "object"
    if draw(st.booleans()):
        schema["required"] = draw(st.lists(_NAMES, max_size=2, unique=True))
    return schema


_VALUES = st.recursive(
    _LEAVES, lambda inner: st.dictionaries(_NAMES, inner, max_size=3), max_leaves=6
)
_INSTANCES = st.one_of(st.dictionaries(_NAMES, _VALUES, max_size=3), _LEAVES)


@given(
    schema=_rules_schema(),
    draft=st.sampled_from(["draft2020-12", "draft7"]),
    instances=st.lists(_INSTANCES, min_size=8, max_size=8),
)
def test_rules_on_one_property_agree_with_the_reference(
    schema: Any, draft: str, instances: list[Any]
) -> None:
    module: Any = generator.compile_module(schema, profile=draft, format=False)
    reference = DraftReference(schema, draft)
    for instance in instances:
        expected = reference.errors(instance)
        assert module.is_valid(instance) == (not expected), (instance, expected)
        assert structure(module.errors(instance)) == structure(expected), instance


def test_a_chain_of_copies_is_read_as_its_first_source() -> None:
    """`y = x; z = y`: z is read as x (y's copy is gone too); a second copy in the block after
    the first is propagated as well."""
    z = t.Name("z")
    chain = [t.Assign(Y, X), t.Assign(z, Y), t.Return(z)]
    assert _text(fuse(chain)) == ["return x"]
    w = t.Name("w")
    two = [t.Assign(Y, X), t.Assign(z, w), t.Return(t.Tuple((Y, z)))]
    assert _text(fuse(two)) == ["return (x, w)"]
    # each statement is looked at, the one after a statement left alone too
    after_other = [t.Assign(t.Name("k"), t.lit(1)), t.Assign(Y, X), t.Return(Y)]
    assert _text(fuse(after_other)) == ["k = 1", "return x"]


def test_a_fused_if_keeps_no_pass_beside_other_statements() -> None:
    first = t.if_(_is(X, "dict"), [t.Pass()], [t.Assign(C1, t.lit(0))])
    second = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)], [t.Pass()])
    assert _text(fuse([first, second])) == [
        "if type(x) is dict:",
        "    c2 = False",
        "else:",
        "    c1 = 0",
    ]
    assert _text(fuse([second, t.if_(_is(X, "dict"), [t.Assign(C1, t.TRUE)])])) == [
        "if type(x) is dict:",
        "    c2 = False",
        "    c1 = True",
    ]


def test_a_fused_elif_keeps_its_else() -> None:
    first = t.If(
        ((_is(X, "dict"), (t.Assign(C1, t.FALSE),)), (_is(X, "list"), (t.Assign(C1, t.lit(1)),))),
        (t.Assign(C1, t.lit(0)),),
    )
    second = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    assert _text(fuse([first, second])) == [
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
        "elif type(x) is list:",
        "    c1 = 1",
        "else:",
        "    c1 = 0",
    ]


def test_a_condition_that_may_leave_is_not_moved_up() -> None:
    """A rule's condition moves up past `if c1:` only if it cannot return or break out of the
    block: a break inside a loop of its own leaves only that loop."""
    items, c, i = t.Name("items"), t.Name("c"), t.Name("i")
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    before = [t.Assign(C1, t.TRUE), condition_1, t.if_(C1, [t.RETURN_FALSE])]
    stays_inside = (
        t.For(i, items, (t.Break(),)),
        t.For(i, items, (t.if_(c, [t.Break()]),)),
        t.For(i, items, (t.if_(c, [t.Pass()], [t.Break()]),)),
        t.For(t.Name("j"), items, (t.For(i, items, (t.Pass(),), (t.Break(),)),)),
    )
    leaves = (
        t.Break(),
        t.if_(c, [t.Break()]),
        t.if_(c, [t.Pass()], [t.Break()]),
        t.For(i, items, (t.Pass(),), (t.Break(),)),
        t.For(i, items, (t.Return(t.lit(1)),)),
    )
    for inner in stays_inside:
        moved = fuse([*before, t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE), inner])])
        assert _text(moved)[:4] == [
            "c1 = True",
            "if type(x) is dict:",
            "    c1 = False",
            "    c2 = False",
        ], inner
    for inner in leaves:
        assert fuse([*before, t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE), inner])]) is None, inner


def test_a_condition_moves_up_past_at_most_four_flag_statements() -> None:
    """Past `if c:` / `if not c:` tests, flag settings (its own included) and comments: four at
    most."""
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    condition_2 = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    passed = [
        t.if_(C1, [t.RETURN_FALSE]),
        t.Comment("str-tests"),
        t.if_(t.Not(t.Name("c5")), [t.RETURN_FALSE]),
    ]
    moved = fuse([condition_1, *passed, t.Assign(C2, t.TRUE), condition_2])
    assert _text(moved) == [
        "c2 = True",
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
        "if c1:",
        "    return False",
        f"# {t.COMMENTS['str-tests']}",
        "if not c5:",
        "    return False",
    ]
    five = [condition_1, *passed, t.if_(t.Name("c6"), [t.RETURN_FALSE]), t.Assign(C2, t.TRUE)]
    assert fuse([*five, condition_2]) is None


def test_a_condition_stays_below_a_negated_check() -> None:
    """`if not (len(x) > 0)` is a check the condition could rely on, unlike `if not c1`."""
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    check = t.fail_if(t.Not(t.Compare(t.call("len", X), ">", t.lit(0))))
    assert fuse([condition_1, check, t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])]) is None


def test_the_flag_a_condition_sets_moves_up_with_it() -> None:
    """`c2 = True` just before the condition that may clear it moves too, even right after the
    partner `if`."""
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    condition_2 = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    assert _text(fuse([condition_1, t.Assign(C2, t.TRUE), condition_2])) == [
        "c2 = True",
        "if type(x) is dict:",
        "    c1 = False",
        "    c2 = False",
    ]


def test_tests_without_effects_are_fused_and_others_not() -> None:
    """Names, literals, comparisons, `and`/`or`, `not`, `type()` and `len()` are made again
    freely; a look-up (which may raise) or another call is not, nor a comparison holding one."""
    both = t.BoolOp("and", (_is(X, "dict"), t.Compare(t.call("len", X), ">", t.lit(0))))
    for test in (both, t.Not(_is(X, "dict"))):
        fused = fuse([t.if_(test, [t.Assign(C1, t.FALSE)]), t.if_(test, [t.Assign(C2, t.FALSE)])])
        assert _text(fused) == [f"if {test.render()}:", "    c1 = False", "    c2 = False"]
    effects = (
        t.Subscript(X, t.lit("a")),
        t.Compare(t.call("_check", X), "==", t.lit(1)),
        t.BoolOp("or", (Y, t.call("_check", X))),
        t.Not(t.call("_check", X)),
    )
    for test in effects:
        same = [t.if_(test, [t.Assign(C1, t.FALSE)]), t.if_(test, [t.Assign(C2, t.FALSE)])]
        assert fuse(same) is None, test


def test_copies_inside_ifs_and_loops_are_propagated() -> None:
    items, i, a = t.Name("items"), t.Name("i"), t.Name("a")
    loop = [t.For(i, items, (t.Assign(Y, X), t.Return(Y)))]
    assert _text(fuse(loop)) == ["for i in items:", "    return x"]
    in_else = [t.For(i, items, (t.Pass(),), (t.Assign(Y, X), t.Return(Y)))]
    assert _text(fuse(in_else)) == ["for i in items:", "    pass", "else:", "    return x"]
    branch = [t.if_(a, [t.Assign(Y, X), t.Return(Y)])]
    assert _text(fuse(branch)) == ["if a:", "    return x"]
    other = [t.if_(a, [t.Return(a)], [t.Assign(Y, X), t.Return(Y)])]
    assert _text(fuse(other)) == ["if a:", "    return a", "else:", "    return x"]


def test_a_condition_is_not_moved_over_what_reads_the_flag_it_sets() -> None:
    """Moved up, the condition (and its own `c2 = True`) would change the c2 that a statement it
    passes, or the partner `if` itself, reads."""
    condition_1 = t.if_(_is(X, "dict"), [t.Assign(C1, t.FALSE)])
    condition_2 = t.if_(_is(X, "dict"), [t.Assign(C2, t.FALSE)])
    assert fuse([condition_1, t.if_(C2, [t.RETURN_FALSE]), condition_2]) is None
    reads_c2 = t.if_(_is(X, "dict"), [t.if_(C2, [t.Assign(C1, t.FALSE)])])
    assert fuse([reads_c2, t.Assign(C2, t.TRUE), condition_2]) is None
