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
    body = [t.Assign(T, t.call("type", X)),
            t.If(((t.Compare(T, "is", t.Name("dict")), (inner,)),
                  (t.Compare(X, "is", t.NONE), (t.if_(t.Compare(X, "is not", t.NONE), [t.RETURN_FALSE]),))),
                 (t.RETURN_FALSE,))]
    simplified = simplify(body, {})
    rendered = "\n".join(t.render_block(simplified, 0))
    assert "is not dict" not in rendered and "is not None" not in rendered
    assert rendered.count("return False") == 1  # the else: any other type


def test_a_decided_arm_replaces_its_if() -> None:
    body = [t.If(((_is("list"), (t.Return(t.TRUE),)),), ()),
            t.If(((_is("list"), (t.if_(_is("list"), [t.Return(t.lit(1))]),)),), ())]
    rendered = t.render_block(simplify(body, {}), 0)
    assert rendered == ["if type(x) is list:", "    return True", "if type(x) is list:", "    return 1"]


def test_elif_arms_know_the_earlier_tests_failed() -> None:
    body = [t.If(((_is("dict"), (t.Pass(),)), (_is("list"), (t.if_(_is("dict"), [t.RETURN_FALSE]),))), ())]
    rendered = t.render_block(simplify(body, {}), 0)
    assert rendered == ["if type(x) is dict:", "    pass", "elif type(x) is list:", "    pass"]


def test_type_sets_and_rebinding() -> None:
    y = t.Name("_Y1")
    retest = t.if_(t.Compare(t.call("type", X), "in", y), [t.RETURN_FALSE])
    body = [t.If(((_is("dict"), (retest, t.Assign(X, t.lit(1)), retest)),), ())]
    rendered = t.render_block(simplify(body, {"_Y1": frozenset({"list", "str"})}), 0)
    # dict is not in {list, str}: the first retest goes; after x is bound anew nothing is known
    assert rendered == ["if type(x) is dict:", "    x = 1", "    if type(x) in _Y1:", "        return False"]


def test_the_geojson_shape_loses_its_dead_branches() -> None:
    """oneOf of object-or-null properties (GeoJSON's `properties`): no branch re-tests the type
    the dispatch decided (mypy read `x5` as None in such a branch)."""
    schema = {"type": "object", "properties": {"p": {"oneOf": [{"type": "null"}, {"type": "object"}]}},
              "required": ["p"]}
    source = generator.compile_source(schema, format=False)
    root = source[source.index("def _v0("):source.index("def _e0(")]
    assert "t1 = type(x1)" in root  # the dispatch on the property's type...
    assert "is not dict" not in root and "is not None" not in root  # ...and no re-test under it
    module: Any = generator.compile_module(schema)
    assert [module.is_valid({"p": v}) for v in (None, {}, 1, [])] == [True, True, False, False]
