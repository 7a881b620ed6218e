"""The fast path's specialised shapes give the same answers as the draft reference interpreter.

Each shape is a bet on what data usually looks like (floats where a schema says "number", one
alternative of a oneOf told apart by a const property, a type test alone): these tests check that
the shape is really emitted (so they fail if the emitter stops producing it) and that every value,
including the ones the bet is not about (bool for int, Decimal, subclasses, non-string keys and
discriminants, missing properties), gets the reference's answer and error locations.
"""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import generator
from generator.plan import tuning
from generator.reference import DraftReference

from .strategies import JSON, SCALARS
from .test_differential import assert_agree


class MyDict(dict):  # type: ignore[type-arg]
    pass


class MyStr(str):
    pass


class MyFloat(float):
    pass


ODD = st.sampled_from(
    [
        True,
        False,
        None,
        0,
        1,
        -1,
        1.0,
        2.5,
        float("inf"),
        Decimal("1.0"),
        Decimal("0.5"),
        MyFloat(1.5),
        MyStr("Point"),
        "",
        "x",
        [],
        {},
        MyDict(),
        (1, 2),
        10**40,
    ]
)
VALUES = st.one_of(SCALARS, ODD, JSON)


def _pair(schema: Any, draft: str) -> tuple[Any, DraftReference, str]:
    source = generator.compile_source(schema, profile=draft, format=False)
    module = generator.compile_module(schema, profile=draft, format=False)
    return module, DraftReference(schema, draft), source


def _pair_once(schema: Any, draft: str = "draft2020-12") -> tuple[Any, DraftReference, str]:
    """_pair, made once per schema for the whole run (Hypothesis runs a test's body many times)."""
    return _pair_of_text(json.dumps(schema, sort_keys=True), draft)


@functools.cache
def _pair_of_text(schema_text: str, draft: str) -> tuple[Any, DraftReference, str]:
    return _pair(json.loads(schema_text), draft)


# -- oneOf / anyOf over alternatives told apart by a const property ------------------------------
def _shape(name: str, coordinates: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", "coordinates"],
        "properties": {"type": {"const": name}, "coordinates": coordinates},
    }


def _geometry(draft: str, keyword: str) -> dict[str, Any]:
    defs = "$defs" if draft in ("draft2020-12", "draft2019-09") else "definitions"
    return {
        defs: {
            "Point": _shape("Point", {"type": "array", "items": {"type": "number"}, "minItems": 2}),
            "Line": _shape("Line", {"type": "array", "items": {"type": "array"}, "minItems": 2}),
            # the const reached through a reference, and an extra required property
            "Name": {"const": "Ring"},
            "Ring": {
                **_shape("Ring", {"type": "array"}),
                "properties": {"type": {"$ref": f"#/{defs}/Name"}},
                "required": ["type", "closed"],
            },
        },
        keyword: [
            {"type": "null"},  # takes no part in the dispatch: no object passes it
            {"$ref": f"#/{defs}/Point"},
            {"$ref": f"#/{defs}/Line"},
            {"$ref": f"#/{defs}/Ring"},
        ],
    }


# the dispatch: the property's value looked up once (d), its alternative's function from a table
DISPATCH = r'd\d* = x\.get\("type", _MISSING\)\n(.*\n)*? +f\d* = _D\d+\.get\(d\d*\)\n'
OTHER_TYPE_FAILS = r"elif type\(d\d*\) in _Y\d+:\n +return False"
DISCRIMINANTS = st.one_of(
    st.sampled_from(["Point", "Line", "Ring", "Polygon", "", MyStr("Point")]), VALUES
)


@st.composite
def geometries(draw: st.DrawFn) -> Any:
    value: dict[Any, Any] = draw(
        st.dictionaries(
            st.sampled_from(["coordinates", "closed", "bbox", "z"]),
            st.one_of(st.lists(st.one_of(st.floats(allow_nan=False), VALUES), max_size=3), VALUES),
            max_size=3,
        )
    )
    if draw(st.booleans()):
        value["type"] = draw(DISCRIMINANTS)
    if draw(st.booleans()):
        value[1] = "a non-string key"
    if draw(st.integers(0, 4)) == 0:
        value = MyDict(value)
    return draw(st.one_of(st.just(value), VALUES)) if draw(st.integers(0, 5)) == 0 else value


@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
@pytest.mark.parametrize("draft", ["draft2020-12", "draft7"])
def test_discriminated_alternatives_are_dispatched_by_their_const(draft: str, keyword: str) -> None:
    module, reference, source = _pair(_geometry(draft, keyword), draft)
    assert re.search(DISPATCH, source)  # the dispatch is emitted
    for value, valid in [
        ({"type": "Point", "coordinates": [1.5, 2]}, True),
        ({"type": "Point", "coordinates": [1.5]}, False),  # the one candidate fails
        ({"type": "Ring", "coordinates": []}, False),  # Ring requires `closed` too
        ({"type": "Ring", "coordinates": [], "closed": True}, True),
        ({"type": "Polygon", "coordinates": []}, False),  # no alternative has that value
        ({"type": 1, "coordinates": []}, False),  # not a string: the general test answers
        ({"coordinates": []}, False),
        (MyDict({"type": "Point", "coordinates": [0, 0]}), True),  # a dict subclass is an object
        ({"type": MyStr("Line"), "coordinates": [[], []]}, True),
        (None, True),
        ([], False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
@pytest.mark.parametrize("draft", ["draft2020-12", "draft7"])
@given(value=geometries())
def test_discriminated_alternatives_agree_with_reference(
    draft: str, keyword: str, value: Any
) -> None:
    module, reference, _ = _compiled(draft, keyword)
    assert_agree(module, reference, value)


_CACHE: dict[tuple[str, str], tuple[Any, DraftReference, str]] = {}


def _compiled(draft: str, keyword: str) -> tuple[Any, DraftReference, str]:
    if (draft, keyword) not in _CACHE:
        _CACHE[draft, keyword] = _pair(_geometry(draft, keyword), draft)
    return _CACHE[draft, keyword]


def test_no_dispatch_when_values_repeat_or_a_candidate_lacks_the_const() -> None:
    repeated = {"oneOf": [_shape("A", {}), _shape("A", {"type": "array"}), _shape("B", {})]}
    module, reference, source = _pair(repeated, "draft2020-12")
    assert not re.search(DISPATCH, source)
    for value in (
        {"type": "A", "coordinates": 1},
        {"type": "A", "coordinates": []},
        {"type": "B", "coordinates": 1},
    ):
        assert_agree(module, reference, value)
    unnamed = {"oneOf": [_shape("A", {}), _shape("B", {}), {"required": ["type"]}]}
    module, reference, source = _pair(unnamed, "draft2020-12")
    assert not re.search(DISPATCH, source)  # the third names no value for `type`: any may match it
    for value in ({"type": "A", "coordinates": 1}, {"type": "C"}, {"coordinates": 1}):
        assert_agree(module, reference, value)


def test_dispatch_needs_the_property_present_not_required() -> None:
    """C does not require `type`: an object without it is answered by the general test, and
    one with it can only match the alternative naming its value."""
    optional = {
        "oneOf": [_shape("A", {}), _shape("B", {}), {"properties": {"type": {"const": "C"}}}]
    }
    module, reference, source = _pair(optional, "draft2020-12")
    assert re.search(DISPATCH, source)
    for value, valid in (
        ({"coordinates": 1}, True),
        ({"type": "C"}, True),
        ({"type": "A", "coordinates": 1}, True),
        ({"type": "A"}, False),
        ({"type": "D"}, False),
        ({"type": 1}, False),
    ):
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


def test_the_dispatch_reads_the_property_once() -> None:
    """In an object's branch, where the object's own checks looked the property up already, the
    dispatch copies that local: the name is looked up once, and the object's type not tested again.
    """
    schema = {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"type": "string"}},
        "oneOf": [_shape("A", {}), _shape("B", {"type": "array"}), _shape("C", {"type": "string"})],
    }
    module, reference, source = _pair(schema, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    # (the dispatch tests the object's local itself: a copy of it is read as the local, fuse.py)
    assert fast.count('"type"') == 1 and re.search(
        r"\n +if type\(x\d+\) is str:\n +f = _D\d+\.get\(x\d+\)", fast
    ), fast
    assert not re.search(r"\n +d = ", fast), fast
    assert fast.count("type(x) is dict") == 1
    for value, valid in (
        ({"type": "A", "coordinates": 1}, True),
        ({"type": "B", "coordinates": 1}, False),
        ({"type": "C", "coordinates": "c"}, True),
        ({"type": "D"}, False),
        ({"type": 1}, False),
        ({}, False),
        (MyDict(type="A", coordinates=1), True),
        ({"type": MyStr("B"), "coordinates": []}, True),
    ):
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


def test_a_discriminant_of_another_json_type_fails_every_alternative_at_once() -> None:
    """Every candidate's enum holds strings alone: `"type": 0` can match none of them, so no
    alternative is tried; with a number in one enum, the general test answers as before."""
    module, reference, source = _pair(_geometry("draft2020-12", "oneOf"), "draft2020-12")
    assert re.search(OTHER_TYPE_FAILS, source)
    for value in (
        {"type": 0, "coordinates": [1, 2]},
        {"type": None},
        {"type": ["Point"]},
        {"type": True},
        {"type": 1.5},
        {"type": {}},
        {"type": MyStr("Point"), "coordinates": [1, 2]},
        {"coordinates": []},
    ):
        assert_agree(module, reference, value)
    mixed = {
        "oneOf": [
            _shape("A", {}),
            _shape("B", {}),
            {**_shape("C", {}), "properties": {"type": {"enum": ["C", 0]}}},
        ]
    }
    module, reference, source = _pair(mixed, "draft2020-12")
    assert re.search(DISPATCH, source) and not re.search(OTHER_TYPE_FAILS, source)
    for value, valid in (
        ({"type": 0, "coordinates": 1}, True),
        ({"type": 1, "coordinates": 1}, False),
        ({"type": "C", "coordinates": 1}, True),
    ):
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


# -- type tests: a type alone, the first type of a node, float before int for "number" -----------
TYPE_SETS = st.one_of(
    st.sampled_from(["null", "boolean", "object", "array", "number", "integer", "string"]),
    st.lists(
        st.sampled_from(["null", "boolean", "object", "array", "number", "integer", "string"]),
        min_size=1,
        max_size=4,
        unique=True,
    ),
)


@st.composite
def typed_schemas(draw: st.DrawFn) -> Any:
    leaf: dict[str, Any] = {"type": draw(TYPE_SETS)}
    if draw(st.booleans()):
        leaf.update(
            draw(
                st.sampled_from(
                    [{"minimum": 1}, {"maxLength": 1}, {"minItems": 1}, {"enum": [1, "a", None]}]
                )
            )
        )
    wrap = draw(st.sampled_from(["items", "additionalProperties", "properties", "deep", "self"]))
    if wrap == "items":
        return {"type": "array", "items": leaf}
    if wrap == "additionalProperties":
        return {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": leaf,
        }
    if wrap == "properties":
        return {"properties": {"a": leaf, "b": leaf}}
    if wrap == "deep":  # past the inlining depth of non-leaf subschemas
        return {"items": {"items": {"items": {"items": {"items": {"items": leaf}}}}}}
    return leaf


@given(schema=typed_schemas(), data=st.data())
def test_type_tests_agree_with_reference(schema: Any, data: st.DataObject) -> None:
    module, reference, _ = _pair(schema, "draft2020-12")
    for _ in range(6):
        value = data.draw(
            st.one_of(
                VALUES,
                st.lists(VALUES, max_size=3),
                st.dictionaries(st.sampled_from(["a", "b", "c"]), VALUES, max_size=3),
                st.builds(lambda v: [[[[[[v]]]]]], VALUES),
            )
        )
        assert_agree(module, reference, value)


def test_type_alone_is_one_test_without_a_local() -> None:
    _, _, source = _pair({"type": "array", "items": {"type": "number"}}, "draft2020-12")
    assert "if type(item" in source and " is not float and type(item" in source
    _, _, source = _pair(
        {"type": "object", "additionalProperties": {"type": "string"}}, "draft2020-12"
    )
    assert "in x.values():" in source  # no property is known: the loop runs over the values


# -- oneOf over alternatives of disjoint types, and a tag enum naming several values per branch --
CONTENT = {
    "$defs": {
        "content": {
            "oneOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/content"}},
                {
                    "type": "object",
                    "oneOf": [
                        {
                            "required": ["tag"],
                            "properties": {"tag": {"const": "br"}},
                            "additionalProperties": False,
                        },
                        {
                            "required": ["tag"],
                            "properties": {
                                "tag": {"enum": ["div", "span", 7]},
                                "content": {"$ref": "#/$defs/content"},
                            },
                        },
                        {
                            "required": ["tag", "href"],
                            "properties": {"tag": {"enum": ["a"]}, "href": {"type": "string"}},
                        },
                    ],
                },
            ]
        }
    },
    "$ref": "#/$defs/content",
}

TAGS = st.sampled_from(["br", "div", "span", "a", "img", 7, None, MyStr("div")])


@st.composite
def contents(draw: st.DrawFn, depth: int = 3) -> Any:
    choice = draw(st.integers(0, 4 if depth else 1))
    if choice == 0:
        return draw(st.one_of(st.text(max_size=2), VALUES))
    if choice == 1:
        return draw(st.lists(st.one_of(st.text(max_size=1), VALUES), max_size=2))
    if choice == 2:
        return [draw(contents(depth - 1)) for _ in range(draw(st.integers(0, 2)))]
    node: dict[Any, Any] = {}
    if draw(st.booleans()):
        node["tag"] = draw(TAGS)
    if draw(st.booleans()):
        node["content"] = draw(contents(depth - 1))
    if draw(st.booleans()):
        node["href"] = draw(st.one_of(st.just("x"), VALUES))
    return MyDict(node) if draw(st.integers(0, 5)) == 0 else node


# -- oneOf / anyOf over closed objects told apart by a required name -----------------------------
def _keyed(keyword: str, closed_call: bool = True) -> dict[str, Any]:
    return {
        "$defs": {
            "call": {
                "type": "object",
                "properties": {"call": {"type": "object"}, "code": {"type": "integer"}},
                "required": ["code", "call"],
                "additionalProperties": not closed_call,
            }
        },
        keyword: [
            {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
                "additionalProperties": False,
            },
            # `code` is allowed by the next one too: `refusal` tells this one apart
            {
                "type": "object",
                "properties": {"refusal": {"type": "string"}, "code": {"type": "integer"}},
                "required": ["code", "refusal"],
                "additionalProperties": False,
            },
            {"type": "string"},  # takes no part: no object passes it
            {"$ref": "#/$defs/call"},
        ],
    }


KEYED_DISPATCH = (
    r'if type\(x\) is dict:\n +if "text" in x:\n(.*\n)+? +elif "refusal" in x:\n(.*\n)+? +'
    r'elif "call" in x:\n(.*\n)+? +else:\n +return False\n'
)
KEYED_NAMES = st.sampled_from(["text", "refusal", "code", "call", "other"])


@st.composite
def keyed_values(draw: st.DrawFn) -> Any:
    value: Any = draw(
        st.dictionaries(
            KEYED_NAMES, st.one_of(st.sampled_from(["t", 1, {}, None]), VALUES), max_size=3
        )
    )
    if draw(st.integers(0, 5)) == 0:
        value = MyDict(value)
    return draw(VALUES) if draw(st.integers(0, 5)) == 0 else value


@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
def test_closed_alternatives_are_dispatched_by_a_required_name(keyword: str) -> None:
    module, reference, source = _pair(_keyed(keyword), "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert re.search(KEYED_DISPATCH, fast), fast
    for value, valid in [
        ({"text": "a"}, True),
        ({"text": 1}, False),
        ({"refusal": "no", "code": 2}, True),
        ({"refusal": "no"}, False),
        ({"call": {}, "code": 1}, True),
        ({"call": {}, "code": 1, "text": "a"}, False),
        ({"text": "a", "refusal": "b"}, False),
        ({}, False),
        ({"code": 1}, False),
        ({"other": 1}, False),
        (MyDict({"text": "a"}), True),
        (MyDict({"code": 1}), False),
        ("words", True),
        ([], False),
        (None, False),
        ({"text": "a", 1: 2}, False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
@given(value=keyed_values())
def test_alternatives_dispatched_by_a_name_agree_with_reference(keyword: str, value: Any) -> None:
    module, reference, _ = _pair_once(_keyed(keyword))
    assert_agree(module, reference, value)


def test_no_dispatch_by_name_where_an_alternative_is_open_or_allows_the_others_name() -> None:
    module, reference, source = _pair(_keyed("oneOf", closed_call=False), "draft2020-12")
    assert 'elif "refusal" in x:' not in source  # an open alternative allows every name
    for value in (
        {"text": "a", "call": {}, "code": 1},
        {"call": {}, "code": 1, "refusal": "r"},
        {"text": "a"},
    ):
        assert_agree(module, reference, value)
    shared = _keyed("oneOf")
    shared["oneOf"][0]["properties"]["refusal"] = {
        "type": "string"
    }  # the first allows `refusal` too
    module, reference, source = _pair(shared, "draft2020-12")
    assert 'elif "refusal" in x:' not in source
    for value in ({"text": "a", "refusal": "r"}, {"refusal": "r", "code": 1}, {"text": "a"}):
        assert_agree(module, reference, value)


def test_disjoint_types_and_tag_enums_are_dispatched() -> None:
    module, reference, source = _pair(CONTENT, "draft2020-12")
    assert re.search(DISPATCH.replace('"type"', '"tag"'), source) and "t = type(x)" in source
    for value, valid in [
        ("text", True),
        (["a", {"tag": "br"}], True),
        ({"tag": "br", "content": "x"}, False),  # br allows no other property
        ({"tag": "span", "content": [{"tag": "a", "href": "h"}]}, True),
        ({"tag": 7}, True),  # a non-string tag: the general test answers
        ({"tag": "a"}, False),
        (1, False),
        ([[[["deep"]]], None], False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(value=contents())
def test_disjoint_types_and_tag_enums_agree_with_reference(value: Any) -> None:
    if not _CONTENT:
        _CONTENT.append(_pair(CONTENT, "draft2020-12"))
    module, reference, _ = _CONTENT[0]
    assert_agree(module, reference, value)


_CONTENT: list[tuple[Any, DraftReference, str]] = []


# -- large `properties`: a loop over the instance's names and a table -----------------------------
def _large(closed: Any) -> dict[str, Any]:
    names = [f"p{i}" for i in range(13)] + ["a/b", "m~n"]
    props: dict[str, Any] = {name: {"$ref": "#/$defs/code"} for name in names[:5]}
    props.update({name: {"type": "integer", "minimum": i} for i, name in enumerate(names[5:10])})
    props.update(
        {name: {"type": "array", "items": {"$ref": "#/$defs/code"}} for name in names[10:]}
    )
    schema: dict[str, Any] = {
        "$defs": {"code": {"type": "string", "pattern": "^[a-z]+$"}},
        "type": "object",
        "required": ["p0", "p7"],
        "properties": props,
    }
    if closed is not None:
        schema["additionalProperties"] = closed
    return schema


LARGE_NAMES = st.sampled_from([f"p{i}" for i in range(14)] + ["a/b", "m~n", "zz", "", "p1 "])


@st.composite
def large_objects(draw: st.DrawFn) -> Any:
    value: dict[Any, Any] = draw(
        st.dictionaries(
            LARGE_NAMES,
            st.one_of(
                st.sampled_from(["ab", "A", "", 3, 7.0, -1, ["x", "y"], ["x", 1], None]), VALUES
            ),
            max_size=6,
        )
    )
    if draw(st.booleans()):  # random objects are rarely valid: make every declared name valid
        valid = {
            **{f"p{i}": "ab" for i in range(5)},
            **{f"p{i}": 9 for i in range(5, 10)},
            **{name: ["x"] for name in ("p10", "p11", "p12", "a/b", "m~n")},
        }
        value = {"p0": "ab", "p7": 7, **{k: valid.get(k, v) for k, v in value.items()}}
    if draw(st.integers(0, 6)) == 0:
        value[draw(st.sampled_from([1, None, 2.5]))] = "a non-string key"
    return MyDict(value) if draw(st.integers(0, 5)) == 0 else value


@pytest.mark.parametrize("closed", [False, None, {"type": "string"}])
def test_large_properties_use_a_table(closed: Any) -> None:
    module, reference, source = _pair(_large(closed), "draft2020-12")
    assert ".get(k)" in source  # the fast path loops over the instance's names
    assert "_property_errors(x, _F" in source  # the error path shares the table
    if closed is False:
        assert "if f is None or not f[0](v)" in source and "_extra_errors(x, _F" in source
    for value in (
        {"p0": "ab", "p7": 7},
        {"p0": "ab", "p7": 6},
        {"p0": "AB", "p7": 7, "zz": 1},
        {"p0": "ab", "p7": 7, "a/b": ["x", 2], "m~n": [1]},
        {},
        MyDict({"p0": "ab", "p7": 9}),
        {"p0": "ab", "p7": 7, 1: 2},
    ):
        assert_agree(module, reference, value)
    # errors come in schema order, as without a table
    found = module.errors({"p12": 1, "p6": -5, "p0": 1, "p7": 1})
    locations = [e.keyword_location for e in found]
    assert locations == sorted(
        locations,
        key=lambda where: (
            [*_large(closed)["properties"]].index(where.split("/")[2])
            if where.startswith("/properties/")
            else -1
        ),
    )


@pytest.mark.parametrize("closed", [False, None, {"type": "string"}])
@given(value=large_objects())
def test_large_properties_agree_with_reference(closed: Any, value: Any) -> None:
    key = f"large-{closed!r}"
    if key not in _LARGE:
        _LARGE[key] = _pair(_large(closed), "draft2020-12")
    module, reference, _ = _LARGE[key]
    assert_agree(module, reference, value)


_LARGE: dict[str, tuple[Any, DraftReference, str]] = {}


def _exact() -> dict[str, Any]:
    """The large object closed, every property required: its keys are known exactly."""
    schema = _large(False)
    schema["required"] = list(schema["properties"])
    return schema


def test_large_properties_with_exact_keys_are_tested_by_name() -> None:
    module, reference, source = _pair(_exact(), "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    # the size and each name, in one test (no keys view, no loop over a table)
    assert re.search(r'if len\(x\) != 15 or "p0" not in x or "p1" not in x or', fast), fast
    assert ".keys()" not in fast and ".get(k)" not in fast
    keys_test, properties = fast.split("return False", 1)
    assert not re.search(r'"[^"]*" (not )?in x\b', properties)  # every name is there: no `in` test
    assert re.search(
        r'x(\d*) = x\["p7"\]\n +t\1 = type\(x\1\)\n +if t\1 is int:', fast
    )  # a small one in place
    valid = {
        **{f"p{i}": "ab" for i in range(5)},
        **{f"p{i}": 9 for i in range(5, 10)},
        **{name: ["x"] for name in ("p10", "p11", "p12", "a/b", "m~n")},
    }
    assert module.is_valid(valid)
    for value in (
        valid,
        {**valid, "p7": 6},
        {**valid, "zz": 1},
        {**valid, "p0": "AB"},
        {**valid, "a/b": ["x", 2]},
        {k: v for k, v in valid.items() if k != "p3"},
        MyDict(valid),
        {**valid, 1: 2},
        {},
    ):
        assert_agree(module, reference, value)


def test_more_names_than_name_tests_are_one_keys_view() -> None:
    """Over tuning.NAME_TESTS names, the exact keys are one comparison of a keys view with their
    set, and required names one `>=` (a test per name would make a long line of the module);
    within it, one `in` test per name."""
    names = [f"n{i}" for i in range(tuning.NAME_TESTS + 1)]
    exact = {
        "type": "object",
        "additionalProperties": False,
        "required": names,
        "properties": {n: {"type": "integer"} for n in names},
    }
    required = {"type": "object", "required": names}
    few = {"type": "object", "required": names[:6]}  # within NAME_TESTS: one test of each name
    for schema, shape in (
        (exact, "if x.keys() != _K"),
        (required, "if not (x.keys() >= _R"),
        (few, 'if "n0" not in x or "n1" not in x or "n2" not in x or'),
    ):
        module, reference, source = _pair(schema, "draft2020-12")
        assert shape in source[source.index("def _v0(") : source.index("def _e0(")]
        full = {n: i for i, n in enumerate(names)}
        for value in (
            full,
            {**full, "n1": "x"},
            {**full, "extra": 1},
            {k: v for k, v in full.items() if k != "n3"},
            MyDict(full),
            {},
        ):
            assert_agree(module, reference, value)


@given(value=large_objects())
def test_large_properties_with_exact_keys_agree_with_reference(value: Any) -> None:
    if "exact" not in _LARGE:
        _LARGE["exact"] = _pair(_exact(), "draft2020-12")
    module, reference, _ = _LARGE["exact"]
    assert_agree(module, reference, value)
    valid = {
        **{f"p{i}": "ab" for i in range(5)},
        **{f"p{i}": 9 for i in range(5, 10)},
        **{name: ["x"] for name in ("p10", "p11", "p12", "a/b", "m~n")},
    }
    if isinstance(value, dict) and type(value) is dict:
        assert_agree(module, reference, {**valid, **{k: v for k, v in value.items() if k in valid}})


# -- uniqueItems: plain strings, ints and nulls compared by a set ---------------------------------
@pytest.mark.parametrize(
    "items, unique",
    [
        (["a", "b", "a"], False),
        (["a", "b"], True),
        ([1, 2, 1], False),
        ([1, "1", None], True),
        ([None, None], False),
        ([1, True], True),
        ([0, False], True),
        ([1, 1.0], False),
        ([MyStr("a"), "a"], False),
        ([10**40, 10**40], False),
        ([[1], [True]], True),
        ([], True),
        (["a"], True),
        ([[1, 1]], True),
        (["a", "a"], False),
        ([0, None], True),
        (["a", MyStr("a")], False),
        ([2, 2], False),
    ],
)
def test_unique_items(items: list[Any], unique: bool) -> None:
    from generator import primitives

    assert primitives.unique(items) is unique


@given(
    items=st.lists(
        st.one_of(st.sampled_from(["a", "b", 1, 2, None, True, 1.0, 0, False]), VALUES), max_size=6
    )
)
def test_unique_items_agree_with_pairwise_json_equality(items: list[Any]) -> None:
    from generator import primitives

    pairwise = not any(
        primitives.json_equal(a, b) for i, a in enumerate(items) for b in items[i + 1 :]
    )
    assert primitives.unique(items) is pairwise


# -- counts at the bounds 1 and 0: the value's truth instead of len() --------------------------
EMPTINESS = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1},
        "none": {"type": "array", "maxItems": 0},
        "some": {"type": "array", "minItems": 1, "maxItems": 2},
        "filled": {"type": "object", "minProperties": 1},
        "bare": {"type": "object", "maxProperties": 0},
        "any": {"minLength": 1, "minItems": 1, "minProperties": 1},
    },
}
EMPTINESS_VALUES = st.one_of(
    VALUES,
    st.sampled_from(
        [
            "",
            MyStr(""),
            MyStr("a"),
            [],
            [[]],
            {},
            MyDict(),
            MyDict(a=1),
            "\x00",
            " ",
            [None],
            {"": None},
        ]
    ),
)


def test_counts_at_one_and_zero_are_the_values_truth() -> None:
    module, reference, source = _pair(EMPTINESS, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert fast.count("len(") == 1 and re.search(
        r"if len\(x\d+\) > 2:", fast
    )  # only maxItems 2 counts
    assert re.search(r"if not x\d+:\n +return False", fast)  # minLength/minItems/minProperties 1
    assert re.search(r"\n +if x\d+:\n +return False", fast)  # maxItems/maxProperties 0
    assert re.search(
        r"if t\d+ in _Y\d+:\n +if not x\d+:", fast
    )  # one test for str, list and dict alike
    for value, valid in [
        ({"text": ""}, False),
        ({"text": "a"}, True),
        ({"text": MyStr("")}, False),
        ({"text": MyStr("a")}, True),
        ({"none": []}, True),
        ({"none": [None]}, False),
        ({"some": []}, False),
        ({"some": [0, 0, 0]}, False),
        ({"filled": {}}, False),
        ({"filled": MyDict(a=1)}, True),
        ({"filled": MyDict()}, False),
        ({"bare": {}}, True),
        ({"bare": {"": 0}}, False),
        ({"any": ""}, False),
        ({"any": []}, False),
        ({"any": {}}, False),
        ({"any": 0}, True),
        ({"any": "\x00"}, True),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(
    value=st.dictionaries(
        st.sampled_from(sorted(EMPTINESS["properties"])), EMPTINESS_VALUES, max_size=4
    )
)
def test_counts_at_one_and_zero_agree_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(EMPTINESS)
    assert_agree(module, reference, value)


# oneOf counts its alternatives' pass expressions in place; minLength 1's negation is the value's
# truth (`x`, a str), which `+` would concatenate with the next term: it is counted as bool(x)
@pytest.mark.parametrize(
    "kind, bounds, values",
    [
        ("string", ("minLength", "maxLength"), ["", "a", "abcd", MyStr(""), 0]),
        ("array", ("minItems", "maxItems"), [[], [1], [1, 2, 3, 4], [None]]),
        (
            "object",
            ("minProperties", "maxProperties"),
            [{}, {"a": 1}, {"a": 1, "b": 2, "c": 3, "d": 4}, MyDict()],
        ),
    ],
)
def test_one_of_counts_a_values_truth_as_a_bool(
    kind: str, bounds: tuple[str, str], values: list[Any]
) -> None:
    at_least, at_most = bounds
    for schema in (
        {"oneOf": [{"type": kind, at_least: 1}, {"type": kind, at_most: 3}]},
        {
            "oneOf": [
                {"type": kind, at_least: 1, at_most: 3},
                {"type": kind, at_most: 0},
                {"type": kind, at_least: 2},
            ]
        },
    ):
        module, reference, source = _pair(schema, "draft2020-12")
        assert re.search(r"if .*bool\(x\).* \+ .* != 1:", source), source  # counted in place
        for value in values:
            assert_agree(module, reference, value)


# -- required properties checked by name: looked up once, with x.get(name, _MISSING) ---------------
LOOKED_UP = {
    "type": "object",
    "required": ["id", "name", "tags", "nullable"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string", "minLength": 2},
        "note": {"type": "string"},
        "tags": {
            "type": "array",
            "items": {"type": "object", "required": ["k"], "properties": {"k": {"const": 1}}},
        },
        "nullable": {"type": ["null", "string"]},
    },
    "oneOf": [
        {"required": ["a"], "properties": {"a": {"type": "integer"}}},
        {"required": ["b"], "properties": {"b": {"type": "string"}}},
    ],
}
LOOKED_UP_VALUES = st.one_of(
    VALUES, st.sampled_from([None, 1, "ab", [], [{"k": 1}], [{"k": 2}], [{}], MyDict(k=1)])
)


def test_required_properties_are_looked_up_once() -> None:
    module, reference, source = _pair(LOOKED_UP, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    for name in ("id", "name", "tags", "nullable"):
        assert re.search(rf'x\d+ = x\.get\("{name}", _MISSING\)', fast), name
        assert f'"{name}" not in x' not in fast and f'x["{name}"]' not in fast, name
    assert re.search(
        r"if x\d+ is _MISSING or x\d+ is _MISSING or x\d+ is _MISSING or x\d+ is _MISSING:", fast
    )
    assert 'if "note" in x:' in fast  # an optional one is tested, then read
    assert re.search(
        r'x\d+ = item\d+\.get\("k", _MISSING\)', source
    )  # the items' objects, in the loop
    # exactly known keys keep one test of all of them (math.add: a count and two names)
    exact = generator.compile_source(
        {
            "type": "object",
            "required": ["a", "b"],
            "additionalProperties": False,
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        },
        profile="draft2020-12",
        format=False,
    )
    assert 'if len(x) != 2 or "a" not in x or "b" not in x:' in exact and "_MISSING" not in exact
    valid = {"id": 1, "name": "ab", "tags": [{"k": 1}], "nullable": None, "a": 1}
    for value, ok in [
        (valid, True),
        ({**valid, "note": "x"}, True),
        ({**valid, "b": "x"}, False),
        (
            {k: v for k, v in valid.items() if k != "nullable"},
            False,
        ),  # a null value is there; a missing one is not
        ({k: v for k, v in valid.items() if k != "id"}, False),
        ({**valid, "id": None}, False),
        ({**valid, "tags": [{"k": 1}, {}]}, False),
        ({**valid, "tags": [MyDict(k=1)]}, True),
        (MyDict(valid), True),
        (MyDict({k: v for k, v in valid.items() if k != "name"}), False),
        ({**valid, 1: "x"}, True),
    ]:
        assert module.is_valid(value) is ok, value
        assert_agree(module, reference, value)


@given(
    value=st.dictionaries(
        st.sampled_from(["id", "name", "note", "tags", "nullable", "a", "b", "c"]),
        LOOKED_UP_VALUES,
        max_size=7,
    )
)
def test_required_properties_looked_up_once_agree_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(LOOKED_UP)
    assert_agree(module, reference, value)


# -- a closed object checked by name counts the names it finds -----------------------------------
COUNTED = {
    "type": "object",
    "required": ["id", "kind"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer"},
        "kind": {"enum": ["a", "b"]},
        "note": {"type": "string", "minLength": 1},
        "any": True,  # nothing to check, yet a name the object may hold
        "child": {
            "type": "object",
            "properties": {"x": {"type": "integer"}},
            "additionalProperties": False,
        },
        "shared": {"$ref": "#/$defs/point"},
    },
    "$defs": {
        "point": {
            "type": "object",
            "required": ["x", "y"],
            "properties": {
                "x": {"type": "number"},
                "y": {"type": "number"},
                "z": {"type": "number"},
            },
            "additionalProperties": False,
        }
    },
}
COUNTED_VALUES = st.one_of(
    VALUES,
    st.sampled_from(
        [
            1,
            "a",
            "b",
            "",
            "n",
            {},
            {"x": 1},
            {"x": 1, "y": 2.5},
            {"x": 1, "y": 2, "z": 3},
            {"x": 1, "y": 2, "w": 3},
            {"y": 1},
            MyDict(x=1),
            {1: 2},
            {"x": "1"},
        ]
    ),
)


def test_a_closed_object_by_name_counts_the_names_it_finds() -> None:
    module, reference, source = _pair(COUNTED, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert ".keys()" not in source[source.index("def _v0(") :]  # no keys view on any fast path
    assert (
        "found = 2\n" in fast and fast.count("found = found + 1") == 4
    )  # note, any, child, shared
    assert "if len(x) != found:" in fast
    assert re.search(r"found\d+ = 0\n", fast) and re.search(
        r"if len\(x\d+\) != found\d+:", fast
    )  # child
    point = source[source.index('"Fast path of the subschema at /$defs/point."') :]
    point = point[: point.index("\ndef ")]
    assert (
        "found = 2\n" in point and point.count("found = found + 1") == 1
    )  # x and y required, z optional
    valid = {"id": 1, "kind": "a"}
    for value, ok in [
        (valid, True),
        ({**valid, "any": [None]}, True),
        ({**valid, "extra": 1}, False),
        ({**valid, 1: 1}, False),
        ({**valid, "note": ""}, False),
        ({**valid, "child": {}}, True),
        ({**valid, "child": {"y": 1}}, False),
        ({**valid, "shared": {"x": 1, "y": 2}}, True),
        ({**valid, "shared": {"x": 1, "y": 2, "z": 3}}, True),
        ({**valid, "shared": {"x": 1, "y": 2, "w": 3}}, False),
        ({**valid, "shared": {"x": 1, "z": 2}}, False),
        ({"id": 1}, False),
        (MyDict(valid), True),
        (MyDict({**valid, "extra": 1}), False),
    ]:
        assert module.is_valid(value) is ok, value
        assert_agree(module, reference, value)


@given(
    value=st.dictionaries(
        st.one_of(
            st.sampled_from(["id", "kind", "note", "any", "child", "shared", "other"]),
            st.integers(0, 2),
        ),
        COUNTED_VALUES,
        max_size=7,
    )
)
def test_a_closed_object_counted_agrees_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(COUNTED)
    assert_agree(module, reference, value)


# -- if/then rules over required properties: each read once, shared with the walk -------------------
SHARED_READS = {
    "type": "object",
    "required": ["kind", "entry", "mode"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": ["a", "b"]},
        "entry": {
            "type": "object",
            "properties": {"artifact": {"type": "string"}, "n": {"type": "integer"}},
        },
        "mode": {"type": ["string", "null"]},
    },
    "allOf": [
        {
            "if": {"properties": {"kind": {"const": "a"}}},
            "then": {"properties": {"entry": {"required": ["n"]}}},
        },
        {
            "if": {"properties": {"entry": {"properties": {"artifact": {"const": "bin"}}}}},
            "then": {"properties": {"mode": {"type": "string"}}},
        },
        {
            "if": {"properties": {"kind": {"const": "b"}}},
            "then": {"properties": {"mode": {"type": "null"}}},
        },
    ],
}
SHARED_READ_VALUES = st.one_of(
    VALUES,
    st.sampled_from(
        [
            "a",
            "b",
            "bin",
            None,
            1,
            {},
            {"n": 1},
            {"artifact": "bin"},
            {"artifact": "bin", "n": 2.0},
            MyDict(n=1),
            MyStr("a"),
        ]
    ),
)


def test_properties_an_if_rule_reads_are_read_once() -> None:
    module, reference, source = _pair(SHARED_READS, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    for name in ("kind", "entry"):
        assert len(re.findall(rf'x\[\{name!r}\]|x\["{name}"\]', fast)) == 1, (name, fast)
    # a later read is the local itself (simplify made it a copy, fuse.py reads the copy as the local)
    assert not re.search(r"\n +x\d+ = x\d+\n", fast), fast
    assert_agree(module, reference, {"kind": "a", "entry": {"n": 1}, "mode": "m"})
    assert not module.is_valid({"kind": "a", "entry": {}, "mode": "m"})
    # a required property looked up with _MISSING, and again by an allOf member in place: once
    twice = {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"type": "string"}},
        "allOf": [
            {"required": ["kind"], "properties": {"kind": {"type": "string", "minLength": 1}}}
        ],
    }
    module, reference, source = _pair(twice, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert fast.count('.get("kind", _MISSING)') == 1 and fast.count("is _MISSING") == 1, fast
    for value in (
        {"kind": "a"},
        {"kind": ""},
        {},
        {"kind": 1},
        {"kind": MyStr("a")},
        {"kind": MyStr("")},
    ):
        assert_agree(module, reference, value)


@given(
    value=st.dictionaries(
        st.sampled_from(["kind", "entry", "mode", "x"]), SHARED_READ_VALUES, max_size=4
    )
)
def test_properties_read_once_agree_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(SHARED_READS)
    assert_agree(module, reference, value)


# -- short arrays of leaf items: unpacked at their minItems length ------------------------------
UNROLLED = {
    "type": "object",
    "properties": {
        "point": {"type": "array", "minItems": 2, "items": {"type": "number"}},
        "one": {"type": "array", "minItems": 1, "items": {"type": "string", "maxLength": 1}},
        "bbox": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number"}},
        # not unrolled: minItems past UNROLL_ITEMS, items that are not a leaf, items after prefixItems,
        # items whose check is long (four copies would be 14 lines each)
        "box": {"type": "array", "minItems": 4, "items": {"type": "integer", "minimum": 0}},
        "long": {"type": "array", "minItems": 5, "items": {"type": "number"}},
        "rings": {
            "type": "array",
            "minItems": 2,
            "items": {"type": "array", "items": {"type": "number"}},
        },
        "tail": {
            "type": "array",
            "minItems": 2,
            "prefixItems": [{"type": "string"}],
            "items": {"type": "number"},
        },
    },
}


def test_short_arrays_of_leaf_items_are_unpacked() -> None:
    module, reference, source = _pair(UNROLLED, "draft2020-12")
    assert re.search(r"if len\((x\d+)\) == 2:\n +item\d+_0, item\d+_1 = \1\n", source)
    assert re.search(
        r"\(item\d+_0,\) = x\d+", source
    )  # a one-element unpack, in the form black keeps
    assert re.search(r"item\d+_0, item\d+_1, item\d+_2, item\d+_3 = x\d+", source)
    assert len(re.findall(r"item\d+_0,.* = x\d+\n", source)) == 3  # point, one, bbox: no others
    for value, valid in [
        ({"point": [1.5, 2]}, True),
        ({"point": [1.5]}, False),
        ({"point": [1.5, 2, 3.0]}, True),
        ({"point": [1.5, "2"]}, False),
        ({"point": ["1", 2, 3]}, False),
        ({"point": [True, 1]}, False),
        ({"one": ["a"]}, True),
        ({"one": []}, False),
        ({"one": ["ab"]}, False),
        ({"one": ["a", "bc"]}, False),
        ({"bbox": [0, 1.5, 2, 3]}, True),
        ({"bbox": [0, 1.5, 2, None]}, False),
        ({"bbox": [0, 1.5, 2]}, False),
        ({"bbox": [0, 1.5, 2, 3, 4]}, False),
        ({"box": [0, 1, 2, 3]}, True),
        ({"box": [0, 1, 2, -3]}, False),
        ({"box": [0, 1, 2]}, False),
        ({"box": [0, 1, 2, 3, 4]}, True),
        ({"long": [1, 2, 3, 4]}, False),
        ({"tail": ["a", 1]}, True),
        ({"tail": [1, 1]}, False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(
    value=st.dictionaries(
        st.sampled_from(sorted(UNROLLED["properties"])),
        st.one_of(VALUES, st.lists(VALUES, max_size=6)),
        max_size=3,
    )
)
def test_unpacked_arrays_agree_with_reference(value: Any) -> None:
    if not _UNROLLED:
        _UNROLLED.append(_pair(UNROLLED, "draft2020-12"))
    module, reference, _ = _UNROLLED[0]
    assert_agree(module, reference, value)


_UNROLLED: list[tuple[Any, DraftReference, str]] = []


# -- a subschema used in many places is one shared function, not a copy in each -----------------
TAGS_SCHEMA = {"type": "array", "items": {"type": "object", "required": ["url"]}}


def _sharing(places: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            f"o{i}": {"type": "object", "properties": {"tags": TAGS_SCHEMA, "n": {"const": i}}}
            for i in range(places)
        },
    }


@pytest.mark.parametrize("places, copies", [(3, 3), (80, 1)])
def test_widely_shared_subschemas_are_called_not_copied(places: int, copies: int) -> None:
    module, reference, source = _pair(_sharing(places), "draft2020-12")
    assert (
        len(re.findall(r'"url" not in item\d+', source)) == copies
    )  # (the error path has no such test)
    for value, valid in [
        ({"o1": {"tags": [{"url": 1}], "n": 1}}, True),
        ({"o1": {"tags": [{"url": 1}, {}], "n": 1}}, False),
        ({"o2": {"tags": "x"}}, False),
        ({"o2": {"tags": [], "n": 1}}, False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


# -- `not` of a type alone is a type test in place; a tuple's length is taken once ---------------
NOT_TYPES = {
    "type": "array",
    "prefixItems": [
        {"not": {"type": "null"}},
        {"not": {"type": ["string", "array"]}},
        {"not": {"type": "integer"}},  # floats need a test beyond their type: called
        {"not": {"type": "number"}},
    ],
}


def test_not_of_a_type_alone_is_tested_in_place() -> None:
    module, reference, source = _pair(NOT_TYPES, "draft2020-12")
    assert "size = len(x)" in source and "if size > 3:" in source
    assert re.search(
        r"if x\d+ is None or \(type\(x\d+\) not in _Y\d+ and _ok\(_e\d+, x\d+\)\):", source
    )
    assert re.search(r"if type\(x\d+\) is list or type\(x\d+\) is str or \(type", source)
    for value, valid in [
        ([1, 1, 1.5, "a"], True),
        ([None], False),
        ([1, "a"], False),
        ([1, [1]], False),
        ([1, 1, 1.0], False),
        ([1, 1, 1], False),
        ([1, 1, 1.5, 2.5], False),
        ([1, 1, 1.5, True], True),
        ([MyStr("a"), MyStr("a"), MyFloat(1.0), Decimal("1")], False),
        ([MyDict(), Decimal("0.5"), Decimal("0.5"), MyStr("x")], True),
        ([], True),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(value=st.lists(VALUES, max_size=5))
def test_not_of_a_type_alone_agrees_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(NOT_TYPES)
    assert_agree(module, reference, value)


@pytest.mark.parametrize(
    "items, unique",
    [
        ([{"name": "a", "in": "query"}, {"name": "b", "in": "query"}], True),
        (
            [{"name": "a", "n": 1}, {"name": "a", "n": 1.0}],
            False,
        ),  # equal string members: the deep check
        ([{"name": "a", "n": 1}, {"name": "a", "n": True}], True),
        ([{"name": "a"}, {"name": MyStr("a")}], False),  # a str subclass is the same JSON string
        ([{"s": {"t": "x"}}, {"s": {"t": "x"}}], False),
        ([{}, {}], False),
    ],
)
def test_unique_objects(items: list[Any], unique: bool) -> None:
    from generator import primitives

    assert primitives.unique(items) is unique


OBJECT_ITEMS = st.lists(
    st.dictionaries(
        st.sampled_from(["a", "b"]),
        st.sampled_from(["x", MyStr("x"), "y", 1, 1.0, True, None, {"a": "x"}]),
        max_size=2,
    ),
    max_size=4,
)


@given(items=OBJECT_ITEMS)
def test_unique_objects_agree_with_pairwise_json_equality(items: list[Any]) -> None:
    from generator import primitives

    pairwise = not any(
        primitives.json_equal(a, b) for i, a in enumerate(items) for b in items[i + 1 :]
    )
    assert primitives.unique(items) is pairwise


# Objects of scalars with the values that make Python's equality differ from JSON's: 1, 1.0 and
# True; 0 and False; a big int and the float nearest it; Decimal, a str subclass, a key that is no
# str, and a nested value; and parameter-like objects told apart by their string members.
SCALAR_OBJECTS = st.lists(
    st.dictionaries(
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(
            [
                "x",
                "y",
                1,
                1.0,
                True,
                0,
                False,
                0.0,
                None,
                2**53 + 1,
                float(2**53),
                Decimal("1"),
                MyStr("x"),
                2.5,
                [1],
                {"a": 1},
            ]
        ),
        max_size=3,
    ),
    min_size=2,
    max_size=5,
)


@given(
    items=st.one_of(
        SCALAR_OBJECTS,
        st.lists(
            st.dictionaries(
                st.sampled_from(["a", 1, MyStr("a")]), st.sampled_from([1, True, "x"]), max_size=2
            ),
            min_size=2,
            max_size=4,
        ),
    )
)
def test_unique_objects_of_scalars_agree_with_pairwise_json_equality(items: list[Any]) -> None:
    from generator import primitives

    pairwise = not any(
        primitives.json_equal(a, b) for i, a in enumerate(items) for b in items[i + 1 :]
    )
    assert primitives.unique(items) is pairwise, items


@pytest.mark.parametrize(
    "items, unique",
    [
        ([{"a": 1}, {"a": 1.0}], False),
        ([{"a": 1}, {"a": True}], True),
        ([{"a": 0}, {"a": False}], True),
        ([{"a": 2**53 + 1}, {"a": float(2**53)}], True),
        ([{"a": "x", "b": None}, {"b": None, "a": "x"}], False),
        ([{"a": "x"}, {"a": MyStr("x")}], False),
        ([{"a": 1}, {"a": 1, "b": 2}, {"b": 2}], True),
        (
            [
                {"in": "query", "name": "a"},
                {"in": "query", "name": "b"},
                {"in": "path", "name": "a"},
            ],
            True,
        ),
        (
            [
                {"in": "query", "name": "a"},
                {"in": "path", "name": "b"},
                {"name": "a", "in": "query"},
            ],
            False,
        ),
    ],
)
def test_unique_objects_of_scalars(items: list[Any], unique: bool) -> None:
    from generator import primitives

    assert primitives.unique(items) is unique


# -- properties, `^x-` patternProperties and additionalProperties in one loop over the names -----
def _extensible(count: int, additional: Any, patterns: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {f"p{i}": {"type": "integer"} for i in range(count)}
    properties["any"] = {}  # always true: known, but not in the property table
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "patternProperties": patterns,
    }
    if additional is not None:
        schema["additionalProperties"] = additional
    return schema


EXTENSIONS = {"^x-": {"type": "string"}}
TWO_PATTERNS = {"^x-": {"type": "string"}, "^y_": {"minimum": 0}}
EXTENSIBLE = {
    "table, closed": _extensible(13, False, EXTENSIONS),
    "table, open": _extensible(13, None, EXTENSIONS),
    "table, two patterns, additional schema": _extensible(13, {"type": "boolean"}, TWO_PATTERNS),
    "small, closed": _extensible(3, False, EXTENSIONS),
    "small, two patterns, closed": _extensible(3, False, TWO_PATTERNS),
    # not merged: a pattern that is not a plain prefix, a known name the pattern matches
    "regex pattern": _extensible(13, False, {"^x-.": {"type": "string"}}),
    "known name matches": _extensible(13, False, {"^p1": {"type": "string"}}),
}
MERGED = {
    "table, closed",
    "table, open",
    "table, two patterns, additional schema",
    "small, closed",
    "small, two patterns, closed",
}
EXTENSIBLE_NAMES = st.sampled_from(
    ["p0", "p1", "p12", "any", "x-", "x-a", "y_1", "y", "x", "X-a", "p13", 1, MyStr("x-a")]
)


@pytest.mark.parametrize("case", sorted(EXTENSIBLE))
def test_pattern_and_additional_properties_share_one_loop(case: str) -> None:
    module, reference, source = _pair(EXTENSIBLE[case], "draft2020-12")
    fast_path = source.split("\ndef _e0(")[0]
    # one loop over the names, where the three keywords had one each
    assert (fast_path.count("for k, v in x.items():") == 1) is (case in MERGED)
    for value in [
        {"p0": 1, "x-a": "s", "any": [1]},
        {"p0": 1, "x-a": 1},
        {"z": 1},
        {"y_1": -1},
        {"y_1": 1},
        {"p1": "s"},
        {"p12": 1.5},
        {"x-": None},
        {1: 1},
        {"zz": True},
        {MyStr("x-a"): 2},
    ]:
        assert_agree(module, reference, value)


@pytest.mark.parametrize("case", sorted(EXTENSIBLE))
@given(value=st.dictionaries(EXTENSIBLE_NAMES, VALUES, max_size=4))
def test_pattern_and_additional_properties_agree_with_reference(case: str, value: Any) -> None:
    if case not in _EXTENSIBLE:
        _EXTENSIBLE[case] = _pair(EXTENSIBLE[case], "draft2020-12")
    module, reference, _ = _EXTENSIBLE[case]
    assert_agree(module, reference, value)


_EXTENSIBLE: dict[str, tuple[Any, DraftReference, str]] = {}


# -- oneOf/anyOf alternatives counted in place, per exact type, where each is a few tests --------
ALTERNATIVES = {
    "numbers": {
        "oneOf": [{"type": "number", "multipleOf": 3}, {"type": "number", "multipleOf": 5}]
    },
    "mixed anyOf": {
        "anyOf": [
            {"type": "integer", "minimum": 10},
            {"type": "string", "maxLength": 2},
            {"const": None},
        ]
    },
    "true alternative": {"oneOf": [True, {"type": "integer"}]},
    # strings: one alternative always passes, another only sometimes (then the oneOf fails)
    "one passes": {
        "oneOf": [
            {"type": "string"},
            {"type": "string", "maxLength": 1},
            {"type": "integer", "minimum": 3},
        ]
    },
    "false alternative": {"oneOf": [False, {"type": "string"}, {"enum": ["a", 1]}]},
    "objects": {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
    # arrays: items are a loop (called); the other types are counted in place
    "arrays": {
        "oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "array", "maxItems": 1}]
    },
    # an alternative with an in-place applicator: every type is called
    "applicator": {"anyOf": [{"not": {"type": "string"}}, {"type": "string", "minLength": 2}]},
}


def test_alternatives_of_a_few_tests_are_counted_in_place() -> None:
    _, _, source = _pair(ALTERNATIVES["numbers"], "draft2020-12")
    assert re.search(r"if \(not \(x % 3\)\) \+ \(not \(x % 5\)\) != 1:", source)
    module, _, _ = _pair(ALTERNATIVES["one passes"], "draft2020-12")
    assert [module.is_valid(v) for v in ("ab", "a", "", 3, 2, 3.0, None)] == [
        True,
        False,
        False,
        True,
        False,
        True,
        False,
    ]
    _, _, source = _pair(ALTERNATIVES["applicator"], "draft2020-12")
    assert "t = type(x)" not in source[source.index("def _v0(") : source.index("def _e0(")]


@pytest.mark.parametrize("case", sorted(ALTERNATIVES))
@given(
    value=st.one_of(
        VALUES,
        st.lists(VALUES, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), VALUES, max_size=2),
    )
)
def test_alternatives_counted_in_place_agree_with_reference(case: str, value: Any) -> None:
    if case not in _ALTERNATIVES:
        _ALTERNATIVES[case] = _pair(ALTERNATIVES[case], "draft2020-12")
    module, reference, _ = _ALTERNATIVES[case]
    assert_agree(module, reference, value)


_ALTERNATIVES: dict[str, tuple[Any, DraftReference, str]] = {}


def test_json_equality_of_objects_is_symmetric_about_key_types() -> None:
    from generator import primitives

    exact, subclass = {"a": [1]}, {MyStr("a"): [1]}
    assert primitives.json_equal(exact, subclass) is primitives.json_equal(subclass, exact) is False
    deep: Any = [1]
    for _ in range(60):  # past _freeze's depth: compared by json_equal
        deep = [deep]
    assert primitives.unique([{MyStr("a"): deep}, {"a": deep}]) is primitives.unique(
        [{"a": deep}, {MyStr("a"): deep}]
    )


# -- shapes a review found wrong: each must agree with the reference (and compile at all) --------
REGRESSIONS = {
    # minLength shares fast_ItemCount's code: unrolling items must not drop it
    "minLength beside unrolled items": {
        "items": {"type": "integer"},
        "minItems": 2,
        "minLength": 1,
    },
    # an always-passing additionalProperties: the pattern loop must still be emitted
    "patterns, additional {}": {
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": {},
    },
    "patterns, additional true": {
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": True,
    },
    "inside oneOf": {
        "oneOf": [
            {"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": {}},
            {"required": ["q"]},
        ]
    },
    # an alternative with nothing to check for the dispatched types: a `pass`, not an empty block
    "empty dispatched body": {"anyOf": [{"anyOf": [{}, {"type": "array"}]}, False]},
    "empty dispatched body, oneOf": {"oneOf": [False, {"anyOf": [{}, {"type": "string"}]}]},
    # equal values written apart (1 and 1.0, key orders): each error shows its own schema's text
    "1 and 1.0": {
        "allOf": [{"enum": [1]}, {"enum": [1.0]}],
        "properties": {"a": {"const": 1}, "b": {"const": 1.0}},
    },
    "key orders": {
        "properties": {"a": {"const": {"x": 1, "y": 2}}, "b": {"const": {"y": 2, "x": 1}}}
    },
}


@pytest.mark.parametrize("draft", ["draft2020-12", "draft7", "draft4"])
@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_reviewed_shapes_agree_with_reference(case: str, draft: str) -> None:
    schema = REGRESSIONS[case]
    generator.compile_source(schema, profile=draft)  # valid Python, formatted
    module, reference, _ = _pair(schema, draft)
    for value in [
        "",
        "a",
        [1],
        [1, 2],
        [1, "x"],
        {"x-a": 1},
        {"x-a": "s"},
        {"b": 1},
        {"a": "s"},
        {"q": 1},
        {"q": 1, "x-a": "s"},
        1,
        None,
        [],
        MyDict({"x-a": 1}),
        True,
        {"a": True, "b": True},
        {"a": 0, "b": {}},
    ]:
        assert_agree(module, reference, value)


# -- if/then/else: a small condition is checked in place, its outcome in a flag ---------------------
CONDITIONS = {
    # the tool-package shape: a nested property's const decides which rule applies
    "nested const": {
        "properties": {"kind": {"properties": {"name": {"const": "a"}}}},
        "then": {"required": ["a"]},
        "else": {"required": ["b"]},
    },
    # a failure in a loop in a loop: `break` leaves the inner loop, `if not c: break` the outer
    "nested loops": {
        "items": {"items": {"const": 1}, "minItems": 1},
        "then": {"maxItems": 2},
        "else": {"items": {"type": "string"}},
    },
    # then alone, else alone; a condition with several typed checks and a pattern
    "then alone": {"type": "string", "minLength": 2, "pattern": "^a", "then": {"maxLength": 3}},
    "else alone": {"minimum": 3, "multipleOf": 2, "else": {"type": "integer"}},
    # a condition every value passes: `then` applies always, nothing to test
    "always": {"if_schema": True},
    # a condition holding an alternative and a `not`
    "applicators": {
        "anyOf": [{"type": "null"}, {"items": {"not": {"type": "string"}}}],
        "then": {"minItems": 1},
        "else": {"const": 0},
    },
}


def _conditional(case: str) -> dict[str, Any]:
    condition = dict(CONDITIONS[case])
    then, otherwise = condition.pop("then", None), condition.pop("else", None)
    schema: dict[str, Any] = {"if": condition.pop("if_schema", condition)}
    if case == "always":
        then = {"type": "array"}
    if then is not None:
        schema["then"] = then
    if otherwise is not None:
        schema["else"] = otherwise
    return {
        "type": ["object", "array", "string", "number", "null"],
        "allOf": [schema],
        "properties": {"p": schema},
        "items": schema,
    }


def test_small_conditions_are_checked_in_place() -> None:
    for case in CONDITIONS:
        _, _, source = _pair(_conditional(case), "draft2020-12")
        fast = source[source.index("def _v0(") : source.index("def _e0(")]
        condition = re.search(r'"Fast path of the subschema at /allOf/0/if\."', source)
        assert condition is None, case  # no function for the condition: it is in place
        if case != "always":
            assert re.search(r"\n +c\d* = True\n", fast), case
            assert re.search(r"\n +c\d* = False\n", fast), case
    _, _, source = _pair(_conditional("nested loops"), "draft2020-12")
    assert re.search(r"\n( +)c\d* = False\n\1break\n", source)
    assert re.search(r"\n +if not c\d*:\n +break\n", source)
    # after a check that may fail, the condition's other checks run only while it holds
    _, _, source = _pair(_conditional("then alone"), "draft2020-12")
    assert re.search(
        r"\n +c\d* = False\n +if c\d*:\n.*\n +if not x\d*\.startswith\(\"a\"\):\n", source
    )


@pytest.mark.parametrize("case", sorted(CONDITIONS))
@given(
    value=st.one_of(
        VALUES,
        st.lists(
            st.one_of(VALUES, st.lists(st.sampled_from([1, 1.0, 2, "a", True]), max_size=3)),
            max_size=3,
        ),
        st.dictionaries(
            st.sampled_from(["a", "b", "p", "kind"]),
            st.one_of(VALUES, st.fixed_dictionaries({"name": st.sampled_from(["a", "b", 1])})),
            max_size=3,
        ),
    )
)
def test_conditions_in_place_agree_with_reference(case: str, value: Any) -> None:
    if case not in _CONDITIONS:
        _CONDITIONS[case] = _pair(_conditional(case), "draft2020-12")
    module, reference, _ = _CONDITIONS[case]
    assert_agree(module, reference, value)
    assert_agree(module, reference, [value, value])
    assert_agree(module, reference, {"p": value})


_CONDITIONS: dict[str, tuple[Any, DraftReference, str]] = {}


# -- multipleOf 1: an integral number -------------------------------------------------------------
MULTIPLE_OF_ONE = {
    "type": "object",
    "properties": {
        "i": {"type": "integer", "multipleOf": 1},
        "n": {"type": "number", "multipleOf": 1},
        "any": {"multipleOf": 1, "minimum": 0},
        "half": {"type": "number", "multipleOf": 0.5},
    },
}
NUMBERS = st.one_of(
    st.integers(),
    st.floats(),
    st.decimals(allow_nan=False),
    st.sampled_from(
        [
            True,
            1.0,
            1.5,
            -0.0,
            2**53 + 1,
            1e300,
            float("inf"),
            float("nan"),
            MyFloat(2.0),
            MyFloat(2.5),
            Decimal("3.00"),
            Decimal("3.01"),
            "1",
            None,
        ]
    ),
)


def test_multiple_of_one_is_an_integral_test() -> None:
    module, reference, source = _pair(MULTIPLE_OF_ONE, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    assert "% 1" not in fast and not re.search(r"_is_multiple\(x\d+, 1\)", fast), fast
    # a float tests is_integer() once each: for the integer's type, for the others' multipleOf
    assert fast.count(".is_integer()") == 3, fast
    for value, valid in [
        ({"i": 3, "n": 3.0}, True),
        ({"n": 3.5}, False),
        ({"i": 2.0}, True),
        ({"i": 2.5}, False),
        ({"half": 1.5}, True),
        ({"half": 1.25}, False),
        ({"any": 7}, True),
        ({"any": 7.5}, False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(
    value=st.fixed_dictionaries(
        {}, optional={"i": NUMBERS, "n": NUMBERS, "any": NUMBERS, "half": NUMBERS}
    )
)
def test_multiple_of_one_agrees_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(MULTIPLE_OF_ONE)
    assert_agree(module, reference, value)


# -- an object's or array's branch on type(x) itself: mypy (so mypyc) knows its type there ----------
SEVERAL_TYPES = {
    "type": ["object", "string", "integer"],
    "properties": {"a": {"type": "string"}},
    "minLength": 2,
    "minimum": 3,
}


def test_an_object_branch_tests_type_x_itself_and_scalars_share_t() -> None:
    module, reference, source = _pair(SEVERAL_TYPES, "draft2020-12")
    fast = source[source.index("def _v0(") : source.index("def _e0(")]
    dict_test, local = fast.index("if type(x) is dict:"), fast.index("t = type(x)")
    assert dict_test < local and "t is dict" not in fast, fast
    # a node whose common type is a scalar keeps one type() for every value
    scalars = generator.compile_source(
        {"type": ["number", "string"], "minimum": 3, "minLength": 2}, format=False
    )
    assert re.search(r"t = type\(x\)\n +if t is float:", scalars), scalars
    for value, valid in [
        ({"a": "b"}, True),
        ({"a": 1}, False),
        ("ab", True),
        ("a", False),
        (3, True),
        (2, False),
        (3.0, True),
        (None, False),
        ([], False),
        (MyDict(a="b"), True),
        (MyStr("ab"), True),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


# -- a scalar's checks read a local declared with its type, in a function's own dispatch -------------
TYPED_SCALARS = {
    "type": "object",
    "properties": {
        # a function each (referenced twice, so not inlined): its dispatch declares the local
        "n": {"$ref": "#/$defs/n"},
        "m": {"$ref": "#/$defs/n"},
        "s": {"$ref": "#/$defs/s"},
        "t": {"$ref": "#/$defs/s"},
        "inline": {"type": "integer", "minimum": 1},  # checked in place: x itself
    },
    "$defs": {
        "n": {"type": ["number", "string"], "minimum": 0, "maximum": 9.5, "minLength": 2},
        "s": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"},
    },
}


def test_a_functions_scalar_checks_read_a_typed_local() -> None:
    module, reference, source = _pair(TYPED_SCALARS, "draft2020-12")
    for declared in ("xf: float = x", "xi: int = x", "xs: str = x"):
        assert declared in source, (declared, source)
    root = source[source.index("def _v0(") : source.index("def _e0(")]
    assert ": int = " not in root and ": str = " not in root, root  # not in inlined copies
    for value, valid in [
        ({"n": 3, "s": "ab"}, True),
        ({"n": -1}, False),
        ({"n": 9.5, "m": "xy"}, True),
        ({"n": "x"}, False),
        ({"s": "abcd"}, False),
        ({"s": "A"}, False),
        ({"inline": 0}, False),
        ({"n": MyFloat(1.0), "s": MyStr("ab")}, True),
        ({"n": True}, False),
    ]:
        assert module.is_valid(value) is valid, value
        assert_agree(module, reference, value)


@given(
    value=st.fixed_dictionaries(
        {}, optional={"n": NUMBERS | VALUES, "m": VALUES, "s": VALUES, "inline": NUMBERS}
    )
)
def test_typed_locals_agree_with_reference(value: Any) -> None:
    module, reference, _ = _pair_once(TYPED_SCALARS)
    assert_agree(module, reference, value)
