"""The code tree (generator/emit/tree.py): what it renders is the program it describes, with no
more parentheses than the grammar needs (except where a node asks for them), its negations are
exact, and literal_expr renders exactly as the one escaping function does."""

from __future__ import annotations

import ast
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.codegen import literal
from generator.emit import tree as t

NAMES = st.sampled_from([t.Name("x"), t.Name("y"), t.Name("f")])
LEAVES = st.one_of(NAMES, st.integers(-5, 5).map(t.lit), st.sampled_from([t.TRUE, t.NONE]))


def _expressions() -> st.SearchStrategy[t.Expr]:
    def extend(inner: st.SearchStrategy[t.Expr]) -> st.SearchStrategy[t.Expr]:
        return st.one_of(
            st.builds(
                t.Compare,
                inner,
                st.sampled_from(["==", "!=", "<", ">=", "in", "not in", "is", "is not"]),
                inner,
            ),
            st.builds(
                lambda a, b, op: t.BoolOp(op, (a, b)), inner, inner, st.sampled_from(["and", "or"])
            ),
            st.builds(t.Not, inner),
            st.builds(t.BinOp, inner, st.sampled_from(["+", "%", "-"]), inner),
            st.builds(lambda f, a: t.Call(f, (a,)), NAMES, inner),
            st.builds(t.Subscript, NAMES, inner),
        )

    return st.recursive(LEAVES, extend, max_leaves=8)


def _shape(node: ast.AST) -> Any:
    """The tree's own structure, read back from Python's parse of the text (only in this test)."""
    if isinstance(node, ast.Expression):
        return _shape(node.body)
    if isinstance(node, ast.Compare):
        op = {
            ast.Eq: "==",
            ast.NotEq: "!=",
            ast.Lt: "<",
            ast.GtE: ">=",
            ast.In: "in",
            ast.NotIn: "not in",
            ast.Is: "is",
            ast.IsNot: "is not",
        }[type(node.ops[0])]
        return ("cmp", _shape(node.left), op, _shape(node.comparators[0]))
    if isinstance(node, ast.BoolOp):
        return (
            "bool",
            "and" if isinstance(node.op, ast.And) else "or",
            [_shape(v) for v in node.values],
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ("not", _shape(node.operand))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return ("const", -node.operand.value)  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp):
        op = {ast.Add: "+", ast.Mod: "%", ast.Sub: "-"}[type(node.op)]
        return ("bin", _shape(node.left), op, _shape(node.right))
    if isinstance(node, ast.Call):
        return ("call", _shape(node.func), [_shape(a) for a in node.args])
    if isinstance(node, ast.Subscript):
        return ("sub", _shape(node.value), _shape(node.slice))
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, ast.Constant):
        return ("const", node.value)
    raise AssertionError(ast.dump(node))


def _expected(expr: t.Expr) -> Any:
    if isinstance(expr, t.Compare):
        return ("cmp", _expected(expr.left), expr.op, _expected(expr.right))
    if isinstance(expr, t.BoolOp):
        flat: list[Any] = []
        for value in expr.values:  # Python reads a chain of one operator as one node
            inner = _expected(value)
            flat.extend(
                inner[2] if isinstance(value, t.BoolOp) and value.op == expr.op else [inner]
            )
        return ("bool", expr.op, flat)
    if isinstance(expr, t.Not):
        return ("not", _expected(expr.operand))
    if isinstance(expr, t.BinOp):
        return ("bin", _expected(expr.left), expr.op, _expected(expr.right))
    if isinstance(expr, t.Call):
        return ("call", _expected(expr.func), [_expected(a) for a in expr.args])
    if isinstance(expr, t.Subscript):
        return ("sub", _expected(expr.value), _expected(expr.index))
    if isinstance(expr, t.Name):
        return ("name", expr.id)
    return ("const", ast.literal_eval(expr.render()))


@given(_expressions())
def test_rendered_text_is_the_tree(expr: t.Expr) -> None:
    """Parentheses are placed where precedence needs them: the text parses back to the tree."""
    assert _shape(ast.parse(expr.render(), mode="eval")) == _expected(expr)


def test_no_needless_parentheses() -> None:
    x, y = t.Name("x"), t.Name("y")
    assert t.or_(t.and_(x, y), t.Not(x)).render() == "x and y or not x"
    assert t.and_(t.or_(x, y), x).render() == "(x or y) and x"
    assert t.Not(t.Compare(x, "<", t.lit(3))).render() == "not (x < 3)"
    assert t.Not(t.call("f", x)).render() == "not f(x)"
    assert t.Compare(t.BinOp(x, "%", t.lit(3)), "==", t.lit(0)).render() == "x % 3 == 0"
    assert t.Sum((t.Not(x), t.call("f", x))).render() == "(not x) + f(x)"
    assert t.Tuple((x,)).render() == "(x,)" and t.Tuple((x, y), bare=True).render() == "x, y"


def _conditions() -> list[t.Expr]:
    x, f = t.Name("x"), t.Name("f")
    return [
        t.Compare(x, "<", t.lit(10)),
        t.Compare(x, ">=", t.lit(10)),
        t.Compare(x, "!=", t.lit(1)),
        t.Compare(x, "==", t.lit(1)),
        t.Compare(t.lit("a"), "not in", x),
        t.Compare(t.lit("a"), "in", x),
        t.Compare(x, "is not", t.NONE),
        t.Compare(x, "is", t.NONE),
        t.Not(t.call(f, x)),
        t.Not(t.Compare(x, "<", t.lit(10))),
        t.Not(t.Compare(x, "!=", t.lit(1))),
        t.or_(t.Compare(t.call("len", x), "!=", t.lit(2)), t.Compare(t.lit("a"), "not in", x)),
        t.Not(t.BoolOp("or", (x, t.call(f, x)))),
        t.call(f, x),
    ]


@pytest.mark.parametrize("index", range(14))
def test_negation_means_the_opposite(index: int) -> None:
    """negate() folds `not` only where that is exact: ==/!=, in/not in, is/is not, not not; an order
    comparison keeps its `not` (NaN compares false both ways)."""
    condition = _conditions()[index]
    folded = condition.negate().render()

    def f(v: Any) -> bool:
        return v == 1

    for x in [float("nan"), 1, 1.0, 2, 10, 11.5, "a", None, {"a": 1}, {}, ["a"], [], True]:
        scope = {"x": x, "f": f}
        try:
            expected = eval(
                "not (" + condition.render() + ")", scope
            )  # noqa: S307 - the trees above
        except TypeError:
            continue  # (an order comparison of a str and an int)
        assert bool(eval(folded, scope)) == expected, (condition.render(), folded, x)  # noqa: S307
        assert bool(eval(condition.negate().negate().render(), scope)) == (
            not expected
        )  # noqa: S307
    for order in (" < ", " > ", " <= ", " >= "):
        assert order not in folded or order in condition.render()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=5)
    | st.decimals(allow_nan=False, allow_infinity=False, places=3),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


@given(JSON)
def test_literal_expr_renders_as_literal(value: Any) -> None:
    assert t.literal_expr(value).render() == literal(value).text
    frozen = frozenset(
        v
        for v in (value if isinstance(value, list) else [value])
        if isinstance(v, (str, int, Decimal)) and not isinstance(v, bool)
    )
    assert t.literal_expr(frozen).render() == literal(frozen).text


def test_names_are_checked_identifiers() -> None:
    with pytest.raises(ValueError):
        t.Name("x; import os")
    with pytest.raises(ValueError):
        t.Attr(t.Name("x"), "keys()")


def test_a_constant_holding_an_empty_list_or_dict_is_annotated() -> None:
    """mypy infers no type for `[[]]` or `("...", {}, None)` (--strict asks for an annotation):
    the constant registry sees the empty display in the tree and annotates the constant."""
    from generator.emit.names import Constants

    consts = Constants("")
    cases = [
        ([[]], "Final[list[Any]]"),
        ([1, {"a": []}], "Final[list[Any]]"),
        (("m", {}, None), "Final[tuple[Any, Any, Any]]"),
        ({}, "Final[dict[Any, Any]]"),
        (["[]", "{}"], "Final"),
        (("m", {"a": 1}, None), "Final"),
        (frozenset({"a"}), "Final"),
    ]
    for index, (value, annotation) in enumerate(cases):
        consts.constant("X", t.literal_expr(value), key=str(index))
        assert consts.definitions[-1].annotation == annotation, value
    consts.constant("X", t.literal_expr([]), key="given", annotation="list[int]")
    assert consts.definitions[-1].annotation == "Final[list[int]]"


@given(
    st.lists(st.sampled_from(range(16)), min_size=1, max_size=5),
    st.sampled_from(["and", "or"]),
    st.sampled_from([None, 1.5, 10, "a", {"a": 1}, [], float("nan")]),
)
def test_and_or_fold_constants_to_the_same_answer(picks: list[int], op: str, x: Any) -> None:
    """and/or drop the identity (True in an and, False in an or, in parentheses too) and become
    the absorbing constant where one is among the members; the folded test answers as the
    unfolded one, and a constant left alone is one (tree.truth)."""
    members = [*_conditions(), t.TRUE, t.Paren(t.FALSE)]
    chosen = [members[i] for i in picks]
    folded = (t.and_ if op == "and" else t.or_)(*chosen)
    unfolded = "(" + (") " + op + " (").join(m.render() for m in chosen) + ")"

    def f(v: Any) -> bool:
        return v == 1

    scope = {"x": x, "f": f}
    try:
        expected = bool(eval(unfolded, scope))  # noqa: S307 - the trees above
    except TypeError:
        return  # (an order comparison of a str and an int)
    assert bool(eval(folded.render(), scope)) == expected, (unfolded, folded.render())  # noqa: S307
    constants = [t.truth(m) for m in chosen]
    if (op == "and" and False in constants) or (op == "or" and True in constants):
        assert t.truth(folded) is (op == "or")
    elif all(c is not None for c in constants):
        assert t.truth(folded) is (op == "and")
    else:
        assert (
            t.truth(folded) is None
            and "True" not in folded.render()
            and "False" not in folded.render()
        )


def test_a_constant_test_is_no_if() -> None:
    body = [t.RETURN_FALSE]
    assert t.when(t.TRUE, body) == body and t.when(t.Paren(t.FALSE), body) == []
    assert t.when(t.Name("x"), body) == [t.if_(t.Name("x"), body)]
    assert (
        t.TRUE.negate() == t.FALSE
        and t.FALSE.negate() == t.TRUE
        and t.lit(1).negate() == t.Not(t.lit(1))
    )
    # a constant in parentheses (which truth() reads as the constant) negates to the other constant,
    # not to `not (True)`, so an and/or built of negations still folds it
    assert t.Paren(t.TRUE).negate() == t.FALSE and t.Paren(t.Paren(t.FALSE)).negate() == t.TRUE
    assert t.and_(t.Name("x"), t.Paren(t.TRUE).negate()) == t.FALSE
    assert t.Paren(t.Name("x")).negate() == t.Not(t.Paren(t.Name("x")))


def test_nodes_refuse_what_they_cannot_render() -> None:
    with pytest.raises(ValueError, match="not a comparison: '='"):
        t.Compare(t.Name("x"), "=", t.lit(1))
    with pytest.raises(ValueError, match="an empty and"):
        t.and_()
    with pytest.raises(ValueError, match="an empty or"):
        t.or_()
    with pytest.raises(ValueError, match="not a known comment: 'why'"):
        t.Comment("why")
    with pytest.raises(TypeError, match="not a JSON value: set"):
        t.literal_expr({1})
    with pytest.raises(TypeError, match="not a simple statement"):
        t.statement_text(t.if_(t.Name("x"), [t.Pass()]))


def test_a_generator_expression_is_parenthesised_unless_a_calls_only_argument() -> None:
    items = t.GenExp(t.Name("v"), t.Name("v"), t.Name("x"), t.Compare(t.Name("v"), ">", t.lit(0)))
    assert items.render() == "(v for v in x if v > 0)"
    assert t.call("sum", items).render() == "sum(v for v in x if v > 0)"
    assert t.BinOp(items, "+", t.lit(1)).render() == "(v for v in x if v > 0) + 1"


def test_a_body_of_comments_alone_gets_a_pass() -> None:
    only_comment = t.if_(t.Name("x"), [t.Comment("str-tests")])
    lines = t.render_block([only_comment], 0)
    assert lines[-1].strip() == "pass"
    compile("\n".join(lines), "<test>", "exec")  # a body of a comment alone is no suite
    with_code = t.if_(t.Name("x"), [t.Comment("str-tests"), t.RETURN_FALSE])
    assert "pass" not in "\n".join(t.render_block([with_code], 0))


def _run_block(block: list[t.Stmt], value: Any, flag: t.Name | None = None) -> bool:
    """The block as a function's body on `value`: it ends True, or set `flag` and returns it."""
    body = [t.Assign(flag, t.TRUE), *block, t.Return(flag)] if flag else [*block, t.Return(t.TRUE)]
    text = "def check(x):\n" + "\n".join(t.render_block(body, 1))
    scope: dict[str, Any] = {}
    exec(text, scope)  # noqa: S102
    return bool(scope["check"](value))


def test_as_flag_sets_the_flag_where_the_block_returns_false() -> None:
    v, x, flag = t.Name("v"), t.Name("x"), t.Name("c")
    block = [
        t.For(v, x, (t.fail_if(t.Compare(v, "<", t.lit(0))),)),
        t.if_(
            t.Compare(t.call("len", x), ">", t.lit(3)),
            [t.RETURN_FALSE],
            [t.fail_if(t.Compare(t.call("len", x), "==", t.lit(0)))],
        ),
        t.fail_if(t.Compare(t.lit(7), "in", x)),
    ]
    flagged = t.as_flag(block, flag)
    assert flagged is not None and flagged[1]
    for value in ([], [1], [-1, 2], [1, 2, 3, 4], [7], [1, 7], [3, 2, 1]):
        assert _run_block(flagged[0], value, flag) == _run_block(block, value), value
    assert t.as_flag([t.Assign(v, x)], flag) == ([t.Assign(v, x)], False)


@pytest.mark.parametrize(
    "where",
    ["alone", "in an if", "in an else", "in a loop", "in a loop's else", "after a failure"],
)
def test_as_flag_refuses_a_block_that_returns_anything_but_false(where: str) -> None:
    """Such a block is called, not checked in place (keywords/applicators.py)."""
    x, flag = t.Name("x"), t.Name("c")
    other = t.Return(t.TRUE)
    block: list[t.Stmt] = {
        "alone": [other],
        "in an if": [t.if_(x, [other])],
        "in an else": [t.if_(x, [t.RETURN_FALSE], [other])],
        "in a loop": [t.For(t.Name("v"), x, (other,))],
        "in a loop's else": [t.For(t.Name("v"), x, (), (other,))],
        "after a failure": [t.fail_if(x), other],
    }[where]
    assert t.as_flag(block, flag) is None
