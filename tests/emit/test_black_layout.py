"""Over-long statements are laid out as black lays them out, without running black on the module:
from the tree (render/layout.py: tables of rows, and/or `if` lines, calls with long strings,
TypedDict entries) or by black on the one statement (render/module.py). Each case here is a
function body whose formatted rendering must be exactly what black makes of the same body
written one statement a line."""

from __future__ import annotations

import ast

import black
import pytest

import generator
from generator.codegen import Code
from generator.emit import tree as t
from generator.primitives import PRELUDE_IMPORTS
from generator.render import layout, module
from generator.render.module import _BLACK_MODE, _lines
from generator.render.sections import CONSTANT, Section
from generator.render.types import ModuleTypes

LONG = "https://json.schemastore.org/a-schema-with-a-long-name.json#/definitions/" + "x" * 40
NAMES = [t.Name(f"_v{i}") for i in range(12)]
x = t.Name("x")


def _test(i: int) -> t.Expr:
    return t.Compare(t.lit(f"property_number_{i}_of_a_long_list"), "not in", x)


def _row(i: int, long: bool) -> t.Tuple:
    return t.Tuple(
        (NAMES[i], t.Name(f"_e{i}"), t.lit(f"/oneOf/{i}/$ref"), t.lit(LONG if long else None))
    )


LAYOUT = {
    # and/or if-lines: in parentheses on one line, or one operand a line (`and` inside `or` too)
    "or of three, fits in parentheses": t.if_(
        t.or_(*(_test(i) for i in range(3))), [t.RETURN_FALSE]
    ),
    "or of many, one a line": t.if_(t.or_(*(_test(i) for i in range(6))), [t.RETURN_FALSE]),
    "and inside or": t.if_(t.or_(_test(0), t.and_(_test(1), _test(2)), _test(3)), [t.RETURN_FALSE]),
    "elif": t.If(
        (
            (t.Compare(x, "is", t.NONE), (t.RETURN_FALSE,)),
            (t.or_(*(_test(i) for i in range(5))), (t.RETURN_FALSE,)),
        )
    ),
    # tables of rows (late constants, error specs), calls with a long string
    "table of rows": t.Assign(t.Name("_B1"), t.Tuple(tuple(_row(i, i % 2 == 0) for i in range(4)))),
    "one row": t.Assign(t.Name("_B2"), t.Tuple((_row(1, True),))),
    "short rows": t.Assign(t.Name("_B3"), t.Tuple(tuple(_row(i, False) for i in range(8)))),
    "call with a long string": t.ExprStmt(
        t.call("_items_errors", x, t.lit(0), NAMES[2], t.Name("ip"), t.lit(LONG), t.Name("out"))
    ),
    "property table": t.Assign(
        t.Name("_T1"),
        t.Display(
            "dict",
            tuple(
                (t.lit(f"A{i}" + "VeryLongPropertyName" * 5), t.Name(f"_Q{i}")) for i in range(3)
            ),
        ),
    ),
    # an elif line over the limit by two (`elif` is longer than the `(` it loses): its test fits
    # in parentheses on a line of its own
    "elif whose test fits in parentheses": t.If(
        (
            (t.Compare(x, "is", t.NONE), (t.RETURN_FALSE,)),
            (t.or_(t.Name("a" * 29), t.Name("b" * 29), t.Name("c" * 25)), (t.RETURN_FALSE,)),
        )
    ),
    # a call of one argument: the argument on a line of its own, or a display exploded
    "call of one argument": t.ExprStmt(t.call("_items_errors", t.lit("a" * 88))),
    "call of one long list": t.ExprStmt(
        t.call("_items_errors", t.Display("list", tuple(t.Name(f"_name{i}") for i in range(20))))
    ),
}
# shapes left to black, on the statement alone
ALONE = {
    # an annotation too long for the call's opening line, or for an empty display's
    "call after a long annotation": t.Assign(
        t.Name("_K1"),
        t.call("frozenset", t.Display("set", (t.lit("a"), t.lit("b")))),
        "Final[tuple[" + ", ".join(["int"] * 24) + "]]",
    ),
    "empty display after a long annotation": t.Assign(
        t.Name("_D1"), t.Display("dict", ()), "Final[tuple[" + ", ".join(["int"] * 24) + "]]"
    ),
    # a row holding a one-element list, or a call, too long for its line
    "row of a long one-element list": t.Assign(
        t.Name("_B4"), t.Tuple((t.lit("x"), t.Display("list", (t.call("_f", t.lit(LONG)),))))
    ),
    "row of a long call": t.Assign(
        t.Name("_B5"), t.Tuple((t.lit("x"), t.call("_f", t.lit(LONG), t.Name("_v1"))))
    ),
    "and of two": t.if_(
        t.and_(_test(0), t.Not(t.call(NAMES[1], t.Subscript(x, t.lit(LONG))))), [t.RETURN_FALSE]
    ),
    "elif of a sum": t.If(
        (
            (t.Compare(x, "is", t.NONE), (t.RETURN_FALSE,)),
            (
                t.Compare(t.Sum(tuple(t.call(n, x) for n in NAMES)), "!=", t.lit(1)),
                (t.RETURN_FALSE,),
            ),
        )
    ),
    "return of a long string": t.Return(t.lit(LONG + LONG)),
    "nested deep": t.if_(
        t.Compare(x, "is", t.NONE),
        [
            t.For(
                t.Name("item"),
                x,
                (
                    t.if_(
                        t.or_(*(_test(i) for i in range(2))),
                        [t.Assign(t.Name("y"), t.call("_f", t.lit(LONG), x))],
                    ),
                ),
            )
        ],
    ),
    "error spec": t.Assign(
        t.Name("_A1"),
        t.Tuple(
            (
                t.lit("{instance} does not match the pattern {pattern}"),
                t.Display("dict", ((t.lit("pattern"), t.lit("^" + "a" * 120)),)),
                t.Tuple((t.lit("string"),)),
            )
        ),
        "Final",
    ),
}


def _function(lines: list[str]) -> str:
    return "\n".join(["def f(x: Any) -> bool:", *lines]) + "\n"


@pytest.mark.parametrize("name", [*LAYOUT, *ALONE])
def test_laid_out_statements_are_what_black_makes_of_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = [LAYOUT.get(name) or ALONE[name]]
    if name in LAYOUT:  # laid out from the tree: black is never asked
        monkeypatch.setattr(module, "_black_statement", None)
    laid_out = _function([line.text for line in _lines(block, 1, True)])
    one_line_each = _function([line.text for line in _lines(block, 1, False)])
    assert max(map(len, one_line_each.splitlines())) > 100  # (each case is over-long somewhere)
    assert black.format_str(one_line_each, mode=_BLACK_MODE) == laid_out


def test_typed_dict_entries_of_subscript_types_are_laid_out_as_black_would() -> None:
    """Literal members too many for a line, in a list, and a dict of them, as TypedDict entries;
    and a type too long that black cannot split at all."""
    members = [f"member-number-{i}-of-an-enum" for i in range(12)]
    schema = {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"enum": members},
            "kinds": {"type": "array", "items": {"enum": members}},
            "table": {"type": "object", "additionalProperties": {"enum": members}},
            "short": {"enum": ["a", "b"]},
            "z" * 95: {"type": "string"},
        },
    }
    text = generator.compile_source(schema, profile="draft2020-12")
    assert (
        '        "kind": Literal[\n' in text
        and '        "kinds": list[\n            Literal[\n' in text
    )
    assert black.format_str(text, mode=_BLACK_MODE) == text


# a const of many values, and enums of strings and numbers (a Literal among other types) as the
# root's alias, a TypedDict entry and an error spec: statements far over layout.BLACK_LIMIT
# (schema, a valid instance, an invalid one)
HUGE = {
    "const list": ({"const": list(range(6000))}, list(range(6000)), list(range(5999))),
    "root enum of mixed types": (
        {"enum": [f"v{i}" if i % 2 else i for i in range(4000)] + [None, True, 1.5]},
        "v3999",
        "v4000",
    ),
    "property enum of mixed types": (
        {
            "type": "object",
            "required": ["a"],
            "properties": {
                "a": {"enum": [f"v{i}" if i % 2 else i for i in range(4000)]},
                "b": {"const": {"k": list(range(3000)), "s": ["x"] * 50}},
            },
        },
        {"a": 3998, "b": {"k": list(range(3000)), "s": ["x"] * 50}},
        {"a": 3998, "b": {"k": [], "s": []}},
    ),
}


@pytest.mark.parametrize("name", sorted(HUGE))
def test_huge_statements_are_exploded_not_given_to_black(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statement over layout.BLACK_LIMIT on one line that black would lay out is exploded at its
    brackets here (black's time grows faster than the statement: minutes for a large enum): the
    module is still black-stable, and black is asked about nothing that long."""
    asked: list[int] = []
    format_str = black.format_str

    def spy(text: str, mode: black.Mode) -> str:
        asked.append(max(map(len, text.splitlines()), default=0))
        return format_str(text, mode=mode)

    monkeypatch.setattr(black, "format_str", spy)
    schema, valid, invalid = HUGE[name]
    text = generator.compile_source(schema, profile="draft2020-12")
    assert max(asked, default=0) < 8_000, "black was given a statement over the limit"
    monkeypatch.setattr(black, "format_str", format_str)
    assert black.format_str(text, mode=_BLACK_MODE) == text  # black leaves it as it is
    assert max(map(len, text.splitlines())) <= 100  # and every line fits
    namespace: dict[str, object] = {}
    exec(compile(text, name, "exec"), namespace)
    assert namespace["is_valid"](valid) is True and namespace["is_valid"](invalid) is False  # type: ignore[operator]


def test_templates_interpolate_code_only() -> None:
    """A template's `{{ value }}` takes a Code (compiler-made text): schema text as a plain str
    never reaches a module unescaped."""
    template = module._ENV.from_string("x = {{ value }}")
    assert template.render(value=Code("1")) == "x = 1"
    with pytest.raises(TypeError, match="templates take Code values only, not str"):
        template.render(value="__import__('os')")


def test_code_black_cannot_format_is_reported_as_a_compiler_bug() -> None:
    broken = "x = f(" + ", ".join(["a_long_argument_name"] * 6)  # (no closing bracket)
    with pytest.raises(RuntimeError, match=r"black cannot format \(a compiler bug\)"):
        module._black_statement(broken, "")
    with pytest.raises(RuntimeError, match=r"black cannot format \(a compiler bug\)"):
        module._format_chunk(broken)


def test_the_decimal_import_is_added_where_only_the_types_name_decimal() -> None:
    decimal = Code(PRELUDE_IMPORTS["_Decimal"])
    any_import, re_import = Code("from typing import Any"), Code("import re as _re")
    types = ModuleTypes([], [], frozenset(), uses_decimal=True)
    added = module._with_types([re_import, any_import], types, False, False)
    assert added[:2] == [re_import, decimal] and len(added) == 3
    assert module._with_types([any_import], types, False, False)[0] == decimal
    assert module._with_types([decimal, any_import], types, False, False).count(decimal) == 1
    no_decimal = ModuleTypes([], [], frozenset(), uses_decimal=False)
    assert decimal not in module._with_types([any_import], no_decimal, False, False)


def test_an_empty_section_is_left_out_of_the_formatted_module() -> None:
    tag = Section(CONSTANT, "", ("X",), ("int",))
    sections = module._format([("other", tag, "\n\n"), ("const", tag, "X = 1\n")])
    assert [section.text for section in sections] == ["X = 1\n"]


def test_a_huge_row_holding_a_call_is_exploded_at_the_calls_brackets() -> None:
    """A table row too long for black to be asked (over layout.BLACK_LIMIT) whose element is a
    call: exploded at the call's parentheses too, and black leaves the result as it is."""
    members = t.Display("set", tuple(t.lit(f"member-{i}") for i in range(800)))
    statement = t.Assign(t.Name("_B6"), t.Tuple((t.lit("x"), t.call("frozenset", members))))
    one_line = t.render_block([statement], 0)[0]
    assert len(one_line) > layout.BLACK_LIMIT
    lines = [line.text for line in _lines([statement], 0, True)]
    assert "    frozenset(" in lines and max(map(len, lines)) <= layout.LINE_LENGTH
    text = "\n".join(lines) + "\n"
    assert black.format_str(text, mode=_BLACK_MODE) == text
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(one_line))


@pytest.mark.parametrize("count", [2, 12, 30])
def test_a_signature_is_laid_out_as_black_would(count: int) -> None:
    params = tuple(f"parameter_{i}: Any" for i in range(count))
    lines = layout.signature("_check_something", params, "bool")
    text = "\n".join([*lines, "    pass"]) + "\n"
    assert black.format_str(text, mode=_BLACK_MODE) == text
