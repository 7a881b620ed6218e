"""The pass that removes branches a type test made before decides (generator/emit/simplify.py):
it drops what can never run and keeps every answer (the differential tests check the answers of
whole modules; these check the pass itself)."""

from __future__ import annotations

from typing import Any

import generator
from generator.emit import tree as t
from generator.emit.simplify import simplify

X, T = t.Name("x"), t.Name("t")


def _is(name: str) -> t.Expr:
    return t.Compare(t.call("type", X), "is", t.Name(name))


def test_a_retest_of_a_decided_type_is_dropped() -> None:
    inner = t.if_(t.Compare(t.call("type", X), "is not", t.Name("dict")), [t.RETURN_FALSE])
    body = [
        t.Assign(T, t.call("type", X)),
        t.If(
            (
                (t.Compare(T, "is", t.Name("dict")), (inner,)),
                (
                    t.Compare(X, "is", t.NONE),
                    (t.if_(t.Compare(X, "is not", t.NONE), [t.RETURN_FALSE]),),
                ),
            ),
            (t.RETURN_FALSE,),
        ),
    ]
    simplified = simplify(body, {})
    rendered = "\n".join(t.render_block(simplified, 0))
    assert "is not dict" not in rendered and "is not None" not in rendered
    assert rendered.count("return False") == 1  # the else: any other type


def test_a_decided_arm_replaces_its_if() -> None:
    body = [
        t.If(((_is("list"), (t.Pass(),)),), ()),
        t.If(((_is("list"), (t.if_(_is("list"), [t.Return(t.lit(1))]),)),), ()),
    ]
    rendered = t.render_block(simplify(body, {}), 0)
    assert rendered == ["if type(x) is list:", "    pass", "if type(x) is list:", "    return 1"]


def test_past_an_if_whose_arms_all_leave_their_tests_are_known_false() -> None:
    body = [
        t.If(((_is("list"), (t.Return(t.TRUE),)),), ()),
        t.If(((_is("list"), (t.Return(t.lit(1)),)),), (t.Return(t.lit(2)),)),
    ]
    rendered = t.render_block(simplify(body, {}), 0)
    assert rendered == ["if type(x) is list:", "    return True", "return 2"]
    # an arm that may fall through tells nothing past the if
    body[0] = t.If(((_is("list"), (t.fail_if(X),)),), ())
    assert "return 1" in "\n".join(t.render_block(simplify(body, {}), 0))


def test_a_name_bound_in_a_loop_or_an_arm_is_forgotten() -> None:
    rebind = t.Assign(X, t.lit(1))
    retest = t.if_(_is("dict"), [t.Return(t.lit(1))])
    loop = [
        t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),
        t.For(t.Name("i"), t.Name("items"), (retest, rebind)),
    ]
    assert "    if type(x) is dict:" in t.render_block(
        simplify(loop, {}), 0
    )  # x is a dict only once
    arm = [
        t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),
        t.if_(t.Name("c"), [rebind]),
        retest,
    ]
    assert "if type(x) is dict:" in t.render_block(simplify(arm, {}), 0)


def test_elif_arms_know_the_earlier_tests_failed() -> None:
    body = [
        t.If(
            ((_is("dict"), (t.Pass(),)), (_is("list"), (t.if_(_is("dict"), [t.RETURN_FALSE]),))), ()
        )
    ]
    rendered = t.render_block(simplify(body, {}), 0)
    assert rendered == ["if type(x) is dict:", "    pass", "elif type(x) is list:", "    pass"]


def test_type_sets_and_rebinding() -> None:
    y = t.Name("_Y1")
    retest = t.if_(t.Compare(t.call("type", X), "in", y), [t.RETURN_FALSE])
    body = [t.If(((_is("dict"), (retest, t.Assign(X, t.lit(1)), retest)),), ())]
    rendered = t.render_block(simplify(body, {"_Y1": frozenset({"list", "str"})}), 0)
    # dict is not in {list, str}: the first retest goes; after x is bound anew nothing is known
    assert rendered == [
        "if type(x) is dict:",
        "    x = 1",
        "    if type(x) in _Y1:",
        "        return False",
    ]


def test_the_geojson_shape_loses_its_dead_branches() -> None:
    """oneOf of object-or-null properties (GeoJSON's `properties`): no branch re-tests the type
    the dispatch decided (mypy read `x5` as None in such a branch)."""
    schema = {
        "type": "object",
        "properties": {"p": {"oneOf": [{"type": "null"}, {"type": "object"}]}},
        "required": ["p"],
    }
    source = generator.compile_source(schema, format=False)
    root = source[source.index("def _v0(") : source.index("def _e0(")]
    assert "t1 = type(x1)" in root  # the dispatch on the property's type...
    assert "is not dict" not in root and "is not None" not in root  # ...and no re-test under it
    module: Any = generator.compile_module(schema)
    assert [module.is_valid({"p": v}) for v in (None, {}, 1, [])] == [True, True, False, False]


def test_what_follows_a_leaving_statement_is_dropped() -> None:
    y = t.Name("_Y1")
    always = t.If(
        ((t.Compare(t.call("type", X), "in", y), (t.RETURN_FALSE,)),), (t.Return(t.TRUE),)
    )
    body = [
        t.Assign(T, t.call("type", X)),
        t.If(
            (
                (
                    t.Compare(T, "in", y),
                    (
                        t.if_(
                            t.BoolOp("or", (t.Compare(t.call("type", X), "in", y), X)),
                            [t.RETURN_FALSE],
                        ),
                        t.fail_if(X),
                    ),
                ),
            ),
            (),
        ),
        always,
        t.fail_if(X),
    ]
    rendered = t.render_block(simplify(body, {"_Y1": frozenset({"list"})}), 0)
    # the retest is decided true (an `or` with a true member): its return ends the arm; the if
    # whose every arm returns ends the function
    # past it x is no list, so the next if's else is all that runs
    assert rendered == ["t = type(x)", "if t in _Y1:", "    return False", "return True"]


def test_an_else_left_holding_pass_goes() -> None:
    # the last arm is decided (x is a list or a str there) and only passes: it was `else: pass`
    y = t.Name("_Y1")
    body = [t.If(((_is("dict"), (t.Pass(),)),), (t.if_(_is("dict"), [t.RETURN_FALSE]),))]
    assert t.render_block(simplify(body, {}), 0) == ["if type(x) is dict:", "    pass"]
    body = [
        t.fail_if(t.Compare(t.call("type", X), "not in", y)),
        t.If(((_is("list"), (t.fail_if(X),)), (_is("str"), (t.Pass(),))), (t.RETURN_FALSE,)),
    ]
    rendered = t.render_block(simplify(body, {"_Y1": frozenset({"list", "str"})}), 0)
    assert rendered == [
        "if type(x) not in _Y1:",
        "    return False",
        "if type(x) is list:",
        "    if x:",
        "        return False",
    ]


def test_a_loop_body_ends_at_a_break() -> None:
    body = [t.For(t.Name("i"), X, (t.Break(), t.RETURN_FALSE))]
    assert t.render_block(simplify(body, {}), 0) == ["for i in x:", "    break"]


def test_keys_known_present_decide_later_in_tests() -> None:
    keys, required = t.Name("_K0"), t.Name("_R1")
    sets = {
        "_K0": frozenset({t.lit("a").render(), t.lit("b").render()}),
        "_R1": frozenset({t.lit("c").render()}),
    }
    has = t.Compare(t.lit("a"), "in", X)
    body = [
        t.fail_if(t.Compare(t.method(X, "keys"), "!=", keys)),
        t.if_(has, [t.Return(t.lit(1))]),
        t.if_(t.Compare(t.lit("b"), "not in", X), [t.Return(t.lit(2))]),
        t.if_(t.Compare(t.lit("z"), "in", X), [t.Return(t.lit(3))]),
    ]
    rendered = t.render_block(simplify(body, {}, sets), 0)
    assert rendered == ["if x.keys() != _K0:", "    return False", "return 1"]
    # `"c" not in x: return False` and `not x.keys() >= _R1` tell the same; `"z" in x` stays open
    for known in (
        t.fail_if(t.Compare(t.lit("c"), "not in", X)),
        t.fail_if(t.Not(t.Compare(t.method(X, "keys"), ">=", required))),
    ):
        rendered = t.render_block(
            simplify(
                [
                    known,
                    t.if_(t.Compare(t.lit("c"), "in", X), [t.Return(t.lit(1))]),
                    t.if_(t.Compare(t.lit("z"), "in", X), [t.Return(t.lit(3))]),
                ],
                {},
                sets,
            ),
            0,
        )
        assert (
            len(rendered) == 3 and rendered[-1] == "return 1"
        ), rendered  # (`"z" in x` is past it)
    # without the test that leaves, nothing is known; a name bound again is forgotten
    open_body = [
        t.if_(t.Compare(t.method(X, "keys"), "!=", keys), [t.Pass()]),
        t.if_(has, [t.Return(t.lit(1))]),
    ]
    assert 'if "a" in x:' in t.render_block(simplify(open_body, {}, sets), 0)
    rebound = [body[0], t.Assign(X, t.Name("y")), t.if_(has, [t.Return(t.lit(1))])]
    assert 'if "a" in x:' in t.render_block(simplify(rebound, {}, sets), 0)


def test_a_key_looked_up_with_missing_is_known_present_past_its_test() -> None:
    """`x1 = x.get("a", _MISSING)` then `if x1 is _MISSING: return False`: "a" is in x after it
    (objects.py looks up each required property once that way)."""
    missing, x1, x2 = t.Name("_MISSING"), t.Name("x1"), t.Name("x2")
    fetch = [
        t.Assign(x1, t.method(X, "get", t.lit("a"), missing)),
        t.Assign(x2, t.method(X, "get", t.lit("b"), missing)),
    ]
    later = [t.if_(t.Compare(t.lit("a"), "in", X), [t.Return(t.lit(1))]), t.Return(t.lit(2))]
    either = t.fail_if(t.or_(t.Compare(x1, "is", missing), t.Compare(x2, "is", missing)))
    rendered = t.render_block(simplify([*fetch, either, *later], {}), 0)
    assert rendered[-1] == "return 1" and 'if "a" in x:' not in rendered, rendered
    # a repeated test of the same look-up is decided too
    again = t.fail_if(t.Compare(x1, "is", missing))
    assert (
        t.render_block(simplify([*fetch, either, again, t.Return(t.lit(3))], {}), 0)[-1]
        == "return 3"
    )
    assert "if x1 is _MISSING:" not in t.render_block(simplify([*fetch, either, again], {}), 0)[4:]
    # not past a test that does not leave, nor once x or x1 is bound again, nor for another dict
    open_test = t.if_(t.Compare(x1, "is", missing), [t.Pass()])
    for body in (
        [*fetch, open_test, *later],
        [*fetch, either, t.Assign(X, t.Name("y")), *later],
        [*fetch, t.Assign(x1, t.Name("y")), t.fail_if(t.Compare(x1, "is", missing)), *later],
        [*fetch, either, t.if_(t.Compare(t.lit("a"), "in", t.Name("y")), [t.Return(t.lit(1))])],
    ):
        assert any(
            line.startswith('if "a" in') for line in t.render_block(simplify(body, {}), 0)
        ), body


def test_a_value_read_again_by_key_is_copied_from_the_local_that_holds_it() -> None:
    """`x3 = x["a"]` and later `x9 = x["a"]`: the second is `x9 = x3` (an `if` rule reads the
    properties the walk over them reads again)."""
    x1, x3, x9, y = t.Name("x1"), t.Name("x3"), t.Name("x9"), t.Name("y")
    read = t.Subscript(X, t.lit("a"))
    use = t.fail_if(t.Compare(x9, "==", t.lit(0)))
    rendered = t.render_block(
        simplify([t.Assign(x3, read), t.if_(t.Name("c"), [t.Pass()]), t.Assign(x9, read), use], {}),
        0,
    )
    assert rendered[-3] == "x9 = x3", rendered
    # inside a later arm and a loop too; a decided arm's reads are known past it
    nested = [
        t.Assign(x3, read),
        t.For(t.Name("i"), t.Name("items"), (t.if_(t.Name("c"), [t.Assign(x9, read), use]),)),
    ]
    assert "        x9 = x3" in t.render_block(simplify(nested, {}), 0)
    decided = [
        t.Assign(t.Name("t"), t.call("type", X)),
        t.fail_if(t.Compare(t.Name("t"), "is not", t.Name("dict"))),
        t.if_(t.Compare(t.Name("t"), "is", t.Name("dict")), [t.Assign(x3, read)]),
        t.Assign(x9, read),
        use,
    ]
    assert "x9 = x3" in t.render_block(simplify(decided, {}), 0)
    # a look-up with _MISSING holds the value once the key is known to be there
    missing = t.Name("_MISSING")
    fetch = t.Assign(x1, t.method(X, "get", t.lit("a"), missing))
    there = t.fail_if(t.Compare(x1, "is", missing))
    assert "x9 = x1" in t.render_block(simplify([fetch, there, t.Assign(x9, read), use], {}), 0)
    assert "x9 = x1" not in t.render_block(simplify([fetch, t.Assign(x9, read), use], {}), 0)
    # not from an arm that may not run, nor once x or the holder is bound again, nor another key
    for body in (
        [t.if_(t.Name("c"), [t.Assign(x3, read)]), t.Assign(x9, read), use],
        [t.Assign(x3, read), t.Assign(X, y), t.Assign(x9, read), use],
        [t.Assign(x3, read), t.Assign(x3, y), t.Assign(x9, read), use],
        [
            t.Assign(x3, read),
            t.For(t.Name("i"), t.Name("items"), (t.Assign(x9, read), t.Assign(x3, y))),
            use,
        ],
        [t.Assign(x3, read), t.Assign(x9, t.Subscript(X, t.lit("b"))), use],
        [t.Assign(x3, read), t.Assign(x9, t.Subscript(y, t.lit("a"))), use],
    ):
        assert not any(
            line.strip() == "x9 = x3" for line in t.render_block(simplify(body, {}), 0)
        ), body


def test_a_name_bound_to_a_look_up_in_itself_holds_nothing_of_it() -> None:
    """`x3 = x3["b"]` (or `x = x["a"]`, `t = type(t)`, `y = y.get("a", _MISSING)`): the name then
    holds another value, so what the look-up read is not known of it."""
    x3, x9, y = t.Name("x3"), t.Name("x9"), t.Name("y")
    use = t.fail_if(t.Compare(x9, "==", t.lit(0)))
    for body in (
        [t.Assign(X, t.Subscript(X, t.lit("a"))), t.Assign(x9, t.Subscript(X, t.lit("a"))), use],
        [
            t.Assign(x3, t.Subscript(X, t.lit("a"))),
            t.Assign(x3, t.Subscript(x3, t.lit("b"))),
            t.Assign(x9, t.Subscript(x3, t.lit("b"))),
            use,
        ],
    ):
        rendered = t.render_block(simplify(body, {}), 0)
        assert rendered[-3].endswith('["b"]') or rendered[-3].endswith('["a"]'), rendered
    # a type taken of the name it is bound to, and a look-up with _MISSING into it
    retyped = [
        t.Assign(T, t.call("type", T)),
        t.if_(t.Compare(T, "is", t.Name("dict")), [t.Return(t.lit(1))]),
        t.if_(t.Compare(t.call("type", T), "is", t.Name("dict")), [t.Return(t.lit(2))]),
    ]
    assert "return 2" in "\n".join(t.render_block(simplify(retyped, {}), 0))
    missing = t.Name("_MISSING")
    fetched = [
        t.Assign(y, t.method(y, "get", t.lit("a"), missing)),
        t.fail_if(t.Compare(y, "is", missing)),
        t.if_(t.Compare(t.lit("a"), "in", y), [t.Return(t.lit(1))]),
    ]
    assert 'if "a" in y:' in t.render_block(simplify(fetched, {}), 0)


def test_a_look_up_with_missing_repeated_is_copied_too() -> None:
    """`x8 = x.get("a", _MISSING)` after `x2 = x.get("a", _MISSING)` (the same answer, present or
    not) or after `x3 = x["a"]` (which found it) is `x8 = x2` / `x8 = x3`, and still a look-up
    whose `is _MISSING` test the key's presence decides."""
    missing, x2, x3, x8 = t.Name("_MISSING"), t.Name("x2"), t.Name("x3"), t.Name("x8")
    get = t.method(X, "get", t.lit("a"), missing)
    use = t.fail_if(t.Compare(x8, "is", missing))
    rendered = t.render_block(
        simplify([t.Assign(x2, get), t.if_(t.Name("c"), [t.Pass()]), t.Assign(x8, get), use], {}), 0
    )
    assert "x8 = x2" in rendered, rendered
    rendered = t.render_block(
        simplify(
            [t.Assign(x3, t.Subscript(X, t.lit("a"))), t.Assign(x8, get), use, t.Return(t.lit(1))],
            {},
        ),
        0,
    )
    assert "x8 = x3" in rendered, rendered
    # past `if x2 is _MISSING: return False` the copy's test is decided too
    there = t.fail_if(t.Compare(x2, "is", missing))
    rendered = t.render_block(
        simplify([t.Assign(x2, get), there, t.Assign(x8, get), use, t.Return(t.lit(1))], {}), 0
    )
    assert rendered[-2:] == ["x8 = x2", "return 1"], rendered
    # not once x or the holder is bound again, nor for another key
    for body in (
        [t.Assign(x2, get), t.Assign(X, t.Name("y")), t.Assign(x8, get), use],
        [t.Assign(x2, get), t.Assign(x2, t.Name("y")), t.Assign(x8, get), use],
        [t.Assign(x2, t.method(X, "get", t.lit("b"), missing)), t.Assign(x8, get), use],
    ):
        assert "x8 = x2" not in t.render_block(simplify(body, {}), 0), body


def test_members_of_a_test_that_the_facts_decide_are_left_out() -> None:
    """`len(x) != 1 or "a" not in x` where "a" is known in x is `len(x) != 1`; an `and` drops its
    members known true, through parentheses; an undecided test is kept whole, and a decided one is
    decided as before (its arm dropped or taken)."""
    has, size = t.Compare(t.lit("a"), "in", X), t.Compare(t.call("len", X), "!=", t.lit(1))
    body = [t.If(((has, (t.fail_if(t.or_(size, t.Compare(t.lit("a"), "not in", X))),)),), ())]
    assert t.render_block(simplify(body, {}), 0) == [
        'if "a" in x:',
        "    if len(x) != 1:",
        "        return False",
    ]
    call = t.call("f", X)
    inner = t.Paren(t.and_(t.Compare(t.call("type", X), "is", t.Name("dict")), call))
    body = [
        t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),
        t.fail_if(t.or_(t.Compare(t.call("type", X), "is", t.Name("list")), inner)),
    ]
    assert t.render_block(simplify(body, {}), 0)[-2:] == ["if f(x):", "    return False"]
    # nothing known: the test is left as it was, the same object (in parentheses too)
    open_test = t.or_(size, t.Compare(t.lit("a"), "not in", X))
    for test in (open_test, t.Paren(open_test)):
        (kept,) = simplify([t.fail_if(test)], {})
        assert isinstance(kept, t.If) and kept.branches[0][0] is test


def test_a_reduced_test_keeps_its_other_members_and_parentheses() -> None:
    """Of three members one decided: the other two stay, joined as before; a group in
    parentheses that lost a member is still a group (the tree says so, not only the text)."""
    known = t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict")))
    c, d, e = t.Name("c"), t.Name("d"), t.Name("e")
    three = t.BoolOp("or", (_is("list"), c, d))
    grouped = t.BoolOp("and", (t.Paren(three), e))
    for test, text in ((three, "if c or d:"), (grouped, "if (c or d) and e:")):
        simplified = simplify([known, t.if_(test, [t.Return(t.lit(1))])], {})
        assert t.render_block(simplified, 0)[-2:] == [text, "    return 1"]
    last = simplify([known, t.if_(grouped, [t.Return(t.lit(1))])], {})[-1]
    assert isinstance(last, t.If)
    assert last.branches[0][0] == t.BoolOp("and", (t.Paren(t.BoolOp("or", (c, d))), e))


def test_a_type_alias_is_forgotten_when_the_name_it_was_taken_of_is_bound_again() -> None:
    """`t = type(x)` says nothing of x once x is bound again: `t is not str` then tests the old
    value, and a later `type(x) is str` must stay (answering it from t would return 1 for any x)."""
    body = [
        t.Assign(T, t.call("type", X)),
        t.Assign(X, t.Name("y")),
        t.if_(t.Compare(T, "is not", t.Name("str")), [t.RETURN_FALSE]),
        t.if_(_is("str"), [t.Return(t.lit(1))]),
        t.RETURN_FALSE,
    ]
    assert t.render_block(simplify(body, {}), 0)[-4:] == [
        "    return False",
        "if type(x) is str:",
        "    return 1",
        "return False",
    ]
    # (without the rebinding, the second test is decided by the first)
    assert t.render_block(simplify([body[0], *body[2:]], {}), 0)[-1] == "return 1"


def _type_of(name: str, value: t.Expr) -> t.Stmt:
    return t.Assign(t.Name(name), t.call("type", value))


def test_a_type_taken_and_never_read_is_dropped_at_every_depth() -> None:
    """`t = type(x)` whose name nothing reads goes, in every arm and loop block, an emptied arm or
    loop body keeping `pass` and an emptied loop `else` going; one that is read stays."""
    body = [
        _type_of("t", X),
        _type_of("u", t.Name("y")),
        t.If(
            (
                (t.Name("c"), (_type_of("v", X),)),
                (t.Name("d"), (_type_of("w", X), t.Return(t.lit(1)))),
            ),
            (_type_of("z", X), t.Return(t.lit(2))),
        ),
        t.For(
            t.Name("i"),
            t.Name("items"),
            (_type_of("s", t.Name("i")),),
            (_type_of("r", X), t.Assign(t.Name("k"), t.lit(4))),
        ),
        t.For(
            t.Name("j"),
            t.Name("items"),
            (_type_of("q", t.Name("j")), t.Assign(t.Name("k"), t.lit(5))),
            (_type_of("p", X),),
        ),
        t.if_(t.Compare(t.Name("u"), "is", t.Name("dict")), [t.Return(t.lit(3))]),
    ]
    assert t.render_block(simplify(body, {}), 0) == [
        "u = type(y)",
        "if c:",
        "    pass",
        "elif d:",
        "    return 1",
        "else:",
        "    return 2",
        "for i in items:",
        "    pass",
        "else:",
        "    k = 4",
        "for j in items:",
        "    k = 5",
        "if u is dict:",
        "    return 3",
    ]
    # a body that held only unread types is `pass`
    assert t.render_block(simplify([_type_of("t", X)], {}), 0) == ["pass"]


def test_a_type_read_anywhere_after_it_is_kept() -> None:
    """A name bound by `t = type(x)` and read only as the value of another binding, or after a
    bare `return` (a statement with an empty field), is read: its binding stays."""
    u, k = t.Name("u"), t.Name("k")
    copied = [_type_of("u", t.Name("y")), t.Assign(k, u), t.Return(k)]
    assert t.render_block(simplify(copied, {}), 0) == ["u = type(y)", "k = u", "return k"]
    past_a_bare_return = [
        _type_of("u", t.Name("y")),
        t.if_(t.Name("c"), [t.Return()]),
        t.Return(u),
    ]
    assert t.render_block(simplify(past_a_bare_return, {}), 0) == [
        "u = type(y)",
        "if c:",
        "    return",
        "return u",
    ]


def test_a_type_alias_bound_again_is_forgotten() -> None:
    """`t = type(x)` then `t = y`: t no longer holds x's type, so `t is str` is not decided by
    what is known of x."""
    body = [
        _type_of("t", X),
        t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("str"))),
        t.Assign(T, t.Name("y")),
        t.if_(t.Compare(T, "is", t.Name("str")), [t.Return(t.lit(1))]),
        t.Return(t.lit(2)),
    ]
    assert t.render_block(simplify(body, {}), 0)[-3:] == [
        "if t is str:",
        "    return 1",
        "return 2",
    ]


def test_a_test_of_none_tells_none_or_any_other_type() -> None:
    """`x is None` holds for None alone, `x is not None` for every other type: neither is decided
    while nothing is known, and past each the other way is known."""
    undecided = [t.if_(t.Compare(X, "is not", t.NONE), [t.Return(t.lit(1))]), t.Return(t.lit(2))]
    assert t.render_block(simplify(undecided, {}), 0) == [
        "if x is not None:",
        "    return 1",
        "return 2",
    ]
    none_twice = [
        t.if_(t.Compare(X, "is", t.NONE), [t.Return(t.lit(1))]),
        t.if_(t.Compare(X, "is", t.NONE), [t.Return(t.lit(2))]),
        t.Return(t.lit(3)),
    ]
    assert t.render_block(simplify(none_twice, {}), 0) == [
        "if x is None:",
        "    return 1",
        "return 3",
    ]
    # past `x is None: return`, x may still be a dict
    then_dict = [none_twice[0], t.if_(_is("dict"), [t.Return(t.lit(2))]), t.Return(t.lit(3))]
    assert t.render_block(simplify(then_dict, {}), 0) == [
        "if x is None:",
        "    return 1",
        "if type(x) is dict:",
        "    return 2",
        "return 3",
    ]


def test_only_is_and_in_are_type_tests() -> None:
    """`type(x) == dict` (or any other comparison of a type) is no test the pass knows: past it
    nothing is known of x, and a comparison with a literal does not fail."""
    for test in (
        t.Compare(t.call("type", X), "==", t.Name("dict")),
        t.Compare(t.call("type", X), "==", t.lit(1)),
        t.Compare(t.call("type", X), "is", t.Name("_Y1")),
        t.Compare(t.call("type", X), "==", t.Name("_Y1")),
    ):
        body = [t.fail_if(test), t.if_(_is("list"), [t.Return(t.lit(1))]), t.Return(t.lit(2))]
        assert t.render_block(simplify(body, {"_Y1": frozenset({"dict"})}), 0)[-3:] == [
            "if type(x) is list:",
            "    return 1",
            "return 2",
        ], test


def test_a_comparison_with_a_key_set_is_a_key_test_only_of_keys() -> None:
    """`x.keys() == _K0` tells the keys of x where it holds; `y != _K0` or `len(x) != _K0` is no
    test of keys."""
    sets = {"_K0": frozenset({t.lit("a").render()})}
    keys = t.Name("_K0")
    inner = t.if_(t.Compare(t.lit("a"), "in", X), [t.Return(t.lit(1))])
    body = [t.if_(t.Compare(t.method(X, "keys"), "==", keys), [inner]), t.Return(t.lit(2))]
    assert t.render_block(simplify(body, {}, sets), 0) == [
        "if x.keys() == _K0:",
        "    return 1",
        "return 2",
    ]
    for left in (t.Name("y"), t.call("len", X), t.method(t.Subscript(X, t.lit("b")), "keys")):
        other = [t.fail_if(t.Compare(left, "!=", keys)), inner]
        assert t.render_block(simplify(other, {}, sets), 0)[-2:] == ['if "a" in x:', "    return 1"]


def test_a_tuple_target_forgets_each_name_it_binds() -> None:
    pair = t.Tuple((t.Name("y"), X), bare=True)
    for rebind in (
        t.Assign(pair, t.Name("z")),
        t.For(pair, t.Name("items"), (t.Pass(),)),
    ):
        body = [
            t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),
            rebind,
            t.if_(_is("dict"), [t.Return(t.lit(1))]),
        ]
        assert t.render_block(simplify(body, {}), 0)[-2:] == ["if type(x) is dict:", "    return 1"]


def test_a_look_up_found_with_missing_decides_its_is_not_test() -> None:
    """Past `x1 = x.get("a", _MISSING)` with "a" known in x, `x1 is not _MISSING` holds (and
    `x1 is _MISSING` does not); where it holds, "a" is known in x."""
    missing, x1 = t.Name("_MISSING"), t.Name("x1")
    fetch = t.Assign(x1, t.method(X, "get", t.lit("a"), missing))
    known = t.fail_if(t.Compare(t.lit("a"), "not in", X))
    found = t.if_(t.Compare(x1, "is not", missing), [t.Return(t.lit(1))])
    assert t.render_block(simplify([known, fetch, found, t.Return(t.lit(2))], {}), 0)[-1:] == [
        "return 1"
    ]
    inner = t.if_(t.Compare(t.lit("a"), "in", X), [t.Return(t.lit(1))])
    narrowed = [fetch, t.if_(t.Compare(x1, "is not", missing), [inner]), t.Return(t.lit(2))]
    assert t.render_block(simplify(narrowed, {}), 0) == [
        'x1 = x.get("a", _MISSING)',
        "if x1 is not _MISSING:",
        "    return 1",
        "return 2",
    ]


def test_not_and_or_and_constants_are_decided_from_their_parts() -> None:
    """Where x is known to be a dict: a constant decides itself, `not` the opposite of its
    operand, `or` true when one member is and false when all are false, `and` the reverse; an
    undecided member left alone is the test kept."""
    known = t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict")))
    is_dict, is_list, c = _is("dict"), _is("list"), t.Name("c")
    taken = ["if type(x) is not dict:", "    return False", "return 1"]
    dropped = ["if type(x) is not dict:", "    return False", "return 2"]
    open_c = ["if type(x) is not dict:", "    return False", "if c:", "    return 1", "return 2"]
    for test, expected in (
        (t.TRUE, taken),
        (t.FALSE, dropped),
        (t.Not(is_dict), dropped),
        (t.Not(is_list), taken),
        (
            t.Not(c),
            [
                "if type(x) is not dict:",
                "    return False",
                "if not c:",
                "    return 1",
                "return 2",
            ],
        ),
        (t.BoolOp("or", (is_list, is_dict)), taken),
        (t.BoolOp("or", (is_list, is_list)), dropped),
        (t.BoolOp("or", (is_list, c)), open_c),
        (t.BoolOp("and", (is_dict, is_dict)), taken),
        (t.BoolOp("and", (is_dict, is_list)), dropped),
        (t.BoolOp("and", (c, is_dict)), open_c),
    ):
        body = [known, t.if_(test, [t.Return(t.lit(1))]), t.Return(t.lit(2))]
        assert t.render_block(simplify(body, {}), 0) == expected, test


def test_an_and_that_holds_tells_each_member_and_one_that_fails_none() -> None:
    """Inside `if type(x) is dict and c:` x is a dict; past it (it returned) x may still be one.
    An `or` the reverse: past `if type(x) is dict or c: return` x is no dict."""
    is_dict, c = _is("dict"), t.Name("c")
    retest = t.if_(is_dict, [t.Return(t.lit(1))])
    inside = [t.if_(t.and_(is_dict, c), [retest]), t.Return(t.lit(2))]
    assert t.render_block(simplify(inside, {}), 0) == [
        "if type(x) is dict and c:",
        "    return 1",
        "return 2",
    ]
    for test, past in (
        (t.and_(is_dict, c), ["if type(x) is dict:", "    return 1", "return 3"]),
        (t.or_(is_dict, c), ["return 3"]),
    ):
        body = [t.if_(test, [t.Return(t.lit(0))]), retest, t.Return(t.lit(3))]
        assert t.render_block(simplify(body, {}), 0)[2:] == past, test


def test_an_arm_decided_false_goes_and_the_arms_after_it_stay() -> None:
    known = t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict")))
    chain = t.If(
        ((_is("list"), (t.Return(t.lit(1)),)), (t.Name("c"), (t.Return(t.lit(2)),))),
        (t.Return(t.lit(3)),),
    )
    assert t.render_block(simplify([known, chain], {}), 0)[2:] == [
        "if c:",
        "    return 2",
        "else:",
        "    return 3",
    ]


def test_what_an_arm_learns_stays_in_that_arm() -> None:
    """An arm whose test tells nothing (`if c:`) may learn x is a dict in its body; the next arm
    runs where that body did not, so its test of x stays."""
    chain = t.If(
        (
            (t.Name("c"), (t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),)),
            (_is("dict"), (t.Return(t.lit(2)),)),
        ),
        (t.Return(t.lit(3)),),
    )
    assert t.render_block(simplify([chain], {}), 0) == [
        "if c:",
        "    if type(x) is not dict:",
        "        return False",
        "elif type(x) is dict:",
        "    return 2",
        "else:",
        "    return 3",
    ]


def test_an_arm_decided_true_after_others_ends_the_chain() -> None:
    """`if c: ... elif <known true>: B`: B is the chain's else; what B binds is forgotten past
    it, and what was known before it still holds past it."""
    known = t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict")))
    y_list = t.fail_if(t.Compare(t.call("type", t.Name("y")), "is not", t.Name("list")))
    binds = t.If(
        ((t.Name("c"), (t.Return(t.lit(1)),)), (_is("dict"), (t.Assign(t.Name("y"), X),))), ()
    )
    y_retest = t.if_(t.Compare(t.call("type", t.Name("y")), "is", t.Name("list")), [t.Pass()])
    assert t.render_block(simplify([known, y_list, binds, y_retest], {}), 0)[4:] == [
        "if c:",
        "    return 1",
        "else:",
        "    y = x",
        "if type(y) is list:",
        "    pass",
    ]
    passes = t.If(((t.Name("c"), (t.Return(t.lit(1)),)), (_is("dict"), (t.Pass(),))), ())
    after = [known, passes, t.if_(_is("dict"), [t.Return(t.lit(2))]), t.Return(t.lit(3))]
    assert t.render_block(simplify(after, {}), 0)[2:] == ["if c:", "    return 1", "return 2"]


def test_what_a_loop_body_learns_is_not_known_past_the_loop() -> None:
    """The body may run no time: past `for i in items: if type(x) is not dict: return False`
    x may be anything. The loop's else stays."""
    loop = t.For(
        t.Name("i"),
        t.Name("items"),
        (t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict"))),),
        (t.Assign(t.Name("k"), t.lit(1)),),
    )
    body = [loop, t.if_(_is("dict"), [t.Return(t.lit(1))]), t.Return(t.lit(2))]
    assert t.render_block(simplify(body, {}), 0) == [
        "for i in items:",
        "    if type(x) is not dict:",
        "        return False",
        "else:",
        "    k = 1",
        "if type(x) is dict:",
        "    return 1",
        "return 2",
    ]


def test_an_if_whose_every_arm_and_else_leave_ends_the_block() -> None:
    leaving = t.If(((t.Name("c"), (t.Return(t.lit(1)),)),), (t.Return(t.lit(2)),))
    assert t.render_block(simplify([leaving, t.Return(t.lit(3))], {}), 0) == [
        "if c:",
        "    return 1",
        "else:",
        "    return 2",
    ]


def test_a_copy_from_the_local_that_holds_a_value_keeps_its_annotation() -> None:
    x3, x9 = t.Name("x3"), t.Name("x9")
    read = t.Subscript(X, t.lit("a"))
    body = [t.Assign(x3, read), t.Assign(x9, read, "object"), t.Return(x9)]
    assert t.render_block(simplify(body, {}), 0)[1] == "x9: object = x3"


def test_a_loop_target_is_forgotten_in_its_body() -> None:
    known = t.fail_if(t.Compare(t.call("type", X), "is not", t.Name("dict")))
    loop = t.For(X, t.Name("items"), (t.if_(_is("dict"), [t.Return(t.lit(1))]),))
    assert t.render_block(simplify([known, loop], {}), 0)[2:] == [
        "for x in items:",
        "    if type(x) is dict:",
        "        return 1",
    ]
    # a loop inside an arm: past the chain x is the loop's last item
    in_arm = t.if_(t.Name("c"), [t.For(X, t.Name("items"), (t.Pass(),))])
    after = [known, in_arm, t.if_(_is("dict"), [t.Return(t.lit(1))])]
    assert t.render_block(simplify(after, {}), 0)[-2:] == ["if type(x) is dict:", "    return 1"]


def test_an_unread_type_is_dropped_where_it_is_the_only_one() -> None:
    """The types taken are looked for in every arm, else, loop body and loop else: one unread
    type there alone is found and dropped. Another call's result (`k = len(x)`) is no type
    taken, read or not."""
    lone = _type_of("t", X)
    c, items = t.Name("c"), t.Name("items")
    for body, expected in (
        ([t.if_(c, [lone])], ["if c:", "    pass"]),
        (
            [t.if_(c, [t.Pass()], [lone, t.Return(t.lit(1))])],
            ["if c:", "    pass", "else:", "    return 1"],
        ),
        ([t.For(t.Name("i"), items, (lone,))], ["for i in items:", "    pass"]),
        (
            [t.For(t.Name("i"), items, (t.Pass(),), (lone, t.Return(t.lit(1))))],
            ["for i in items:", "    pass", "else:", "    return 1"],
        ),
        ([t.Assign(t.Name("k"), t.call("len", X))], ["k = len(x)"]),
    ):
        assert t.render_block(simplify(body, {}), 0) == expected, expected
