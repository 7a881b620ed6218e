"""Keyword semantics of the generated modules, profile by profile.

Every case states a schema, an instance and the exact set of (instance_location, keyword_location)
pairs that errors() must report (the JSON Schema "basic" output); an empty set means valid. For
every case the test also checks is_valid, validate and their agreement with errors().

Expectations come from docs/ARCHITECTURE.md ("Semantics") and the seeds, never from
running the generator: bool is never a number, 1.0 is an integer, numbers compare exactly (a float
stands for the decimal of its shortest repr), JSON equality for enum/const/uniqueItems, string
lengths in code points, keywords apply only to their own JSON type.
"""

from __future__ import annotations

import collections
import json
from decimal import Decimal
from typing import Any

import pytest

import generator
from generator.load import load_json

OCTO = ("octoscript", "strict")  # octoscript keywords mean the same in strict
STRICT = ("strict",)
LENIENT = ("lenient",)
ALL = ("octoscript", "strict", "lenient")

_MODULES: dict[tuple[str, str], Any] = {}


def _cache_key(schema: Any) -> str:
    if isinstance(schema, str):
        return "text:" + schema
    # repr keeps 1 / 1.0 / True / Decimal apart; json alone would not
    return "value:" + repr(schema)


def compiled(schema: Any, profile: str) -> Any:
    key = (profile, _cache_key(schema))
    if key not in _MODULES:
        # format=False: black only lays the text out; the program is the same and much faster
        _MODULES[key] = generator.compile_module(schema, profile=profile, format=False)
    return _MODULES[key]


def _norm(expected: Any) -> set[tuple[str, str]]:
    out = set()
    for item in expected:
        if isinstance(item, str):
            out.add(("", item))
        else:
            ip, kp = item
            out.add((ip, kp))
    return out


def check(module: Any, instance: Any, expected: Any) -> None:
    """errors() gives exactly `expected`; is_valid and validate agree with it."""
    expected = _norm(expected)
    found = module.errors(instance)
    assert isinstance(found, list)
    for err in found:
        assert isinstance(err.message, str) and err.message
        assert isinstance(err, module.ValidationError)
        assert isinstance(err, ValueError)
    got = {(e.instance_location, e.keyword_location) for e in found}
    valid = module.is_valid(instance)
    assert valid is (found == []), "is_valid disagrees with errors()"
    assert got == expected
    assert valid is (not expected)
    if expected:
        with pytest.raises(module.ValidationError) as info:
            module.validate(instance)
        raised: Any = info.value
        where = (raised.instance_location, raised.keyword_location)
        assert isinstance(raised, ValueError)
        assert where in expected
        # validate describes the first error
        assert where == (found[0].instance_location, found[0].keyword_location)
    else:
        assert module.validate(instance) is None


def consistent(module: Any, instance: Any) -> bool:
    """No crash, and is_valid / errors() / validate agree. Returns validity."""
    found = module.errors(instance)
    valid = module.is_valid(instance)
    assert valid is (found == [])
    if valid:
        assert module.validate(instance) is None
    else:
        with pytest.raises(module.ValidationError):
            module.validate(instance)
        for err in found:
            assert isinstance(err.instance_location, str) and isinstance(err.keyword_location, str)
    return valid


def _short(value: Any, limit: int = 40) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("ascii", "backslashreplace").decode()
    return text if len(text) <= limit else text[: limit - 3] + "..."


CASES: list[Any] = []


def add(profiles: tuple[str, ...], schema: Any, *pairs: tuple[Any, Any]) -> None:
    """One test per (profile, schema); it checks every (instance, expected) pair."""
    shown = schema if isinstance(schema, str) else json.dumps(schema, default=repr)
    for profile in profiles:
        CASES.append(
            pytest.param(profile, schema, pairs, id=f"{profile}|{_short(shown, 60)}|{len(CASES)}")
        )


V: tuple[Any, ...] = ()  # valid: no errors


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyDict(dict):  # type: ignore[type-arg]
    pass


# ---------------------------------------------------------------------------------------------
# type: the seven names, every profile
# ---------------------------------------------------------------------------------------------
TYPE_NAMES = ("null", "boolean", "object", "array", "number", "integer", "string")
NUM_INT = {"number", "integer"}
TYPED_INSTANCES: list[tuple[Any, set[str]]] = [
    (None, {"null"}),
    (True, {"boolean"}),
    (False, {"boolean"}),
    (0, NUM_INT),
    (-7, NUM_INT),
    (10**40, NUM_INT),
    (-(10**40), NUM_INT),
    (1.0, NUM_INT),
    (-0.0, NUM_INT),
    (1.5, {"number"}),
    (-2.25, {"number"}),
    (1e300, NUM_INT),
    (Decimal("2.0"), NUM_INT),
    (Decimal("2.5"), {"number"}),
    (Decimal("1E+2"), NUM_INT),
    (Decimal("0.30000000000000000001"), {"number"}),
    ("", {"string"}),
    ("1", {"string"}),
    ("null", {"string"}),
    ([], {"array"}),
    ([1, "a"], {"array"}),
    ({}, {"object"}),
    ({"a": 1}, {"object"}),
]

for _name in TYPE_NAMES:
    add(
        ALL,
        {"type": _name},
        *[(inst, V if _name in kinds else ["/type"]) for inst, kinds in TYPED_INSTANCES],
    )

# type arrays (strict only; octoscript refuses them, see test_preflight)
for _names in (
    ["string", "null"],
    ["integer", "string"],
    ["number", "integer"],
    ["array", "object"],
    ["boolean", "null"],
    ["integer"],
):
    add(
        STRICT,
        {"type": _names},
        *[(inst, V if kinds & set(_names) else ["/type"]) for inst, kinds in TYPED_INSTANCES],
    )

# ---------------------------------------------------------------------------------------------
# octoscript keywords (also enforced, identically, by strict)
# ---------------------------------------------------------------------------------------------
# properties
add(
    OCTO,
    {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}},
    ({}, V),
    ({"a": 1}, V),
    ({"a": 1.0, "b": "x", "c": [None]}, V),
    ({"a": "x"}, [("/a", "/properties/a/type")]),
    ({"a": "x", "b": 2}, [("/a", "/properties/a/type"), ("/b", "/properties/b/type")]),
    ({"a": True}, [("/a", "/properties/a/type")]),
    ({"a": 1.5, "z": "ignored"}, [("/a", "/properties/a/type")]),
    ("not an object", V),
    ([1, 2], V),
    (None, V),
    (3, V),
)
add(
    OCTO,
    {"properties": {"a": {"properties": {"b": {"type": "null"}}}}},
    ({"a": {"b": None}}, V),
    ({"a": {"b": 1}}, [("/a/b", "/properties/a/properties/b/type")]),
    ({"a": 5}, V),
)
# pointer tokens escape "~" and "/"; the empty name is a token too
add(
    OCTO,
    {
        "properties": {
            "a/b": {"type": "integer"},
            "m~n": {"type": "integer"},
            "": {"type": "integer"},
            "~1": {"type": "integer"},
        }
    },
    ({"a/b": 1, "m~n": 2, "": 3, "~1": 4}, V),
    (
        {"a/b": "x", "m~n": "x", "": "x", "~1": "x"},
        [
            ("/a~1b", "/properties/a~1b/type"),
            ("/m~0n", "/properties/m~0n/type"),
            ("/", "/properties//type"),
            ("/~01", "/properties/~01/type"),
        ],
    ),
)
# names that look like the emitted code's own variables must not collide or shadow anything
_ODD = [
    "x",
    "t",
    "k",
    "v",
    "i",
    "ip",
    "kp",
    "out",
    "keys",
    "self",
    "data",
    "__class__",
    "__init__",
    "None",
    "True",
    "return",
    'a"b\n',
    "\u2028",
    "é",
    "a b",
    "0",
    "_v0",
    "_e0",
]
_ODD_SCHEMA = {"properties": {n: {"type": "integer"} for n in _ODD}, "required": _ODD}
add(
    OCTO,
    _ODD_SCHEMA,
    ({n: i for i, n in enumerate(_ODD)}, V),
    (
        {**{n: i for i, n in enumerate(_ODD)}, "__class__": "s"},
        [("/__class__", "/properties/__class__/type")],
    ),
    ({**{n: i for i, n in enumerate(_ODD)}, 'a"b\n': "s"}, [('/a"b\n', '/properties/a"b\n/type')]),
    ({n: i for i, n in enumerate(_ODD) if n != "keys"}, ["/required"]),
)

# required
add(
    OCTO,
    {"required": ["a", "b"]},
    ({"a": 1, "b": 2}, V),
    ({"a": None, "b": None}, V),
    ({"a": 1, "b": 2, "c": 3}, V),
    ({"a": 1}, ["/required"]),
    ({}, ["/required"]),
    ({"A": 1, "B": 2}, ["/required"]),
    ([], V),
    (["a", "b"], V),
    ("ab", V),
    (0, V),
)
add(
    OCTO,
    {"required": ["a", "b", "c", "d", "e", "f"]},
    ({k: 0 for k in "abcdef"}, V),
    ({k: 0 for k in "abcde"}, ["/required"]),
    ({}, ["/required"]),
)
add(
    OCTO, {"required": ["a/b", "~"]}, ({"a/b": 1, "~": 2}, V), ({"a~1b": 1, "~0": 2}, ["/required"])
)

# additionalProperties (boolean)
add(
    OCTO,
    {"properties": {"a": {}}, "additionalProperties": False},
    ({}, V),
    ({"a": 1}, V),
    ({"a": 1, "x": 2}, [("/x", "/additionalProperties")]),
    ({"x": 1, "y": 2}, [("/x", "/additionalProperties"), ("/y", "/additionalProperties")]),
    ({"x/y~": 1}, [("/x~1y~0", "/additionalProperties")]),
    ({"": 1}, [("/", "/additionalProperties")]),
    ([1], V),
    ("a", V),
)
add(
    OCTO,
    {"additionalProperties": False},
    ({}, V),
    ({"a": 1}, [("/a", "/additionalProperties")]),
    ([], V),
)
add(OCTO, {"additionalProperties": True}, ({"a": 1, "b": [2]}, V))
add(
    OCTO,
    {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    },
    ({"a": 1}, V),
    ({"a": "s", "x": 1}, [("/a", "/properties/a/type"), ("/x", "/additionalProperties")]),
    ({"x": 1}, ["/required", ("/x", "/additionalProperties")]),
    ([], ["/type"]),
)

# items (one schema)
add(
    OCTO,
    {"items": {"type": "integer"}},
    ([], V),
    ([1, 2, 3], V),
    ([1, 2.0, -0.0], V),
    ([1, 2, 3, "x"], [("/3", "/items/type")]),
    (["x", 1, "y"], [("/0", "/items/type"), ("/2", "/items/type")]),
    ([True], [("/0", "/items/type")]),
    ("abc", V),
    ({"0": "x"}, V),
    (None, V),
)
add(
    OCTO,
    {"items": {"properties": {"a": {"type": "string"}}}},
    ([{"a": "x"}, {}, 5], V),
    ([{"a": "x"}, {"a": 1}], [("/1/a", "/items/properties/a/type")]),
)
add(
    OCTO,
    {"items": {"items": {"type": "null"}}},
    ([[None], [None, None]], V),
    ([[None], [None, 1]], [("/1/1", "/items/items/type")]),
)
add(
    OCTO,
    {"properties": {"a/b": {"items": {"maxLength": 1}}}},
    ({"a/b": ["x", "yy"]}, [("/a~1b/1", "/properties/a~1b/items/maxLength")]),
)

# minItems / maxItems
add(
    OCTO,
    {"minItems": 2},
    ([1, 2], V),
    ([1, 2, 3], V),
    ([1], ["/minItems"]),
    ([], ["/minItems"]),
    ("a", V),
    ({"a": 1}, V),
    (1, V),
)
add(
    OCTO,
    {"maxItems": 2},
    ([], V),
    ([1, 2], V),
    ([1, 2, 3], ["/maxItems"]),
    ("abc", V),
    ({"a": 1, "b": 2, "c": 3}, V),
)
add(OCTO, {"maxItems": 0}, ([], V), ([None], ["/maxItems"]))
add(OCTO, {"minItems": 0}, ([], V))
add(
    OCTO,
    {"minItems": 2, "maxItems": 1},
    ([1], ["/minItems"]),
    ([1, 2], ["/maxItems"]),
    ([], ["/minItems"]),
)

# minimum / maximum
add(
    OCTO,
    {"minimum": 5},
    (5, V),
    (6, V),
    (5.0, V),
    (10**40, V),
    (Decimal("5"), V),
    (Decimal("5.000000000000000000001"), V),
    (4, ["/minimum"]),
    (4.999, ["/minimum"]),
    (-(10**40), ["/minimum"]),
    (Decimal("4.999999999999999999999"), ["/minimum"]),
    ("1", V),
    (True, V),
    (False, V),
    (None, V),
    ([1], V),
    ({"a": 1}, V),
)
add(
    OCTO,
    {"maximum": 5},
    (5, V),
    (4, V),
    (-(10**40), V),
    (5.0, V),
    (6, ["/maximum"]),
    (5.0000001, ["/maximum"]),
    (10**40, ["/maximum"]),
    (1e300, ["/maximum"]),
    (Decimal("5.000000000000000000001"), ["/maximum"]),
    ("9", V),
    (True, V),
)
add(
    OCTO,
    {"minimum": -1.5},
    (-1.5, V),
    (Decimal("-1.5"), V),
    (0, V),
    (-2, ["/minimum"]),
    (-1.6, ["/minimum"]),
    (Decimal("-1.50000000000000000001"), ["/minimum"]),
)
add(
    OCTO,
    {"minimum": 1, "maximum": 3, "type": "integer"},
    (2, V),
    (1.0, V),
    (3, V),
    (0, ["/minimum"]),
    (4, ["/maximum"]),
    (2.5, ["/type"]),
    (0.5, ["/type", "/minimum"]),
    ("2", ["/type"]),
)

# minLength / maxLength count code points
add(
    OCTO,
    {"minLength": 2},
    ("ab", V),
    ("abc", V),
    ("e\u0301", V),
    ("😀😀", V),
    ("a", ["/minLength"]),
    ("", ["/minLength"]),
    ("😀", ["/minLength"]),
    ("é", ["/minLength"]),
    (12345, V),
    (["a"], V),
    (None, V),
    ({}, V),
)
add(
    OCTO,
    {"maxLength": 2},
    ("", V),
    ("ab", V),
    ("😀😀", V),
    ("éé", V),
    ("abc", ["/maxLength"]),
    ("😀😀😀", ["/maxLength"]),
    ("e\u0301e", ["/maxLength"]),
    (123, V),
    ([1, 2, 3], V),
    (1.5, V),
)
add(OCTO, {"maxLength": 0}, ("", V), ("\x00", ["/maxLength"]))

# enum: JSON equality
add(
    OCTO,
    {"enum": [1, "a", None, [1, 2], {"k": True}]},
    (1, V),
    (1.0, V),
    (Decimal("1.00"), V),
    ("a", V),
    (None, V),
    ([1, 2], V),
    ([1.0, 2.0], V),
    ({"k": True}, V),
    (True, ["/enum"]),
    (False, ["/enum"]),
    (0, ["/enum"]),
    ("A", ["/enum"]),
    ("1", ["/enum"]),
    ([2, 1], ["/enum"]),
    ([1], ["/enum"]),
    ([1, 2, 3], ["/enum"]),
    ({"k": 1}, ["/enum"]),
    ({"k": True, "x": 1}, ["/enum"]),
    ({}, ["/enum"]),
    ([True, 2], ["/enum"]),
)
add(OCTO, {"enum": [True]}, (True, V), (1, ["/enum"]), (1.0, ["/enum"]), (Decimal(1), ["/enum"]))
add(
    OCTO,
    {"enum": [False]},
    (False, V),
    (0, ["/enum"]),
    (0.0, ["/enum"]),
    (None, ["/enum"]),
    ("", ["/enum"]),
)
add(OCTO, {"enum": [1]}, (True, ["/enum"]), (1, V), (MyInt(1), V))
add(
    OCTO,
    {"enum": [0]},
    (False, ["/enum"]),
    (0, V),
    (0.0, V),
    (-0.0, V),
    (Decimal("-0"), V),
    (Decimal("0E+5"), V),
)
add(OCTO, {"enum": [None]}, (None, V), (False, ["/enum"]), (0, ["/enum"]), ("null", ["/enum"]))
add(
    OCTO,
    {"enum": [{"a": 1, "b": 2}]},
    ({"b": 2, "a": 1}, V),
    ({"a": 1.0, "b": 2.0}, V),
    (collections.OrderedDict([("b", 2), ("a", 1)]), V),
    ({"a": 1}, ["/enum"]),
    ({"a": 1, "b": 2, "c": 3}, ["/enum"]),
    ({"a": 1, "b": True}, ["/enum"]),
)
add(
    OCTO,
    {"enum": [[1, [2, {"x": [3, None]}]]]},
    ([1.0, [2, {"x": [3.0, None]}]], V),
    ([1, [2, {"x": [True, None]}]], ["/enum"]),
    ([1, [2, {"x": [3, False]}]], ["/enum"]),
    ([1, [{"x": [3, None]}, 2]], ["/enum"]),
    ([[2, {"x": [3, None]}], 1], ["/enum"]),
)
add(OCTO, {"enum": [[]]}, ([], V), ({}, ["/enum"]), ("", ["/enum"]), (None, ["/enum"]))
add(OCTO, {"enum": [{}]}, ({}, V), ([], ["/enum"]))
add(OCTO, {"enum": ["a", "é"]}, (MyStr("a"), V), ("é", V), ("e\u0301", ["/enum"]), ("A", ["/enum"]))
add(
    OCTO,
    {"enum": [10**30]},
    (10**30, V),
    (1e30, V),
    (float(10**30 + 1), V),
    (10**30 + 1, ["/enum"]),
    (int(1e30), ["/enum"]),
)  # int(1e30) is 10**30 + 19884624838656
add(
    OCTO,
    {"enum": [1e30]},  # a float stands for its shortest repr: 10**30 exactly
    (10**30, V),
    (1e30, V),
    (Decimal("1E+30"), V),
    (int(1e30), ["/enum"]),
    (10**30 + 1, ["/enum"]),
)
add(
    OCTO,
    {"enum": [0.1, 2.5]},
    (0.1, V),
    (Decimal("0.1"), V),
    (Decimal("0.100"), V),
    (2.5, V),
    (Decimal("2.50"), V),
    (Decimal("0.1000000000000000055511151231257827021181583404541015625"), ["/enum"]),
    (0.2, ["/enum"]),
    (Decimal("0.10000000000000000001"), ["/enum"]),
)
add(OCTO, {"enum": [1, True]}, (1, V), (1.0, V), (True, V), (False, ["/enum"]), (0, ["/enum"]))
add(
    OCTO,
    {"enum": [True, False]},
    (True, V),
    (False, V),
    (0, ["/enum"]),
    (1, ["/enum"]),
    (None, ["/enum"]),
)
# 2.0**60 is printed 1.152921504606847e+18: as a JSON number it is 1152921504606847000, not 2**60
add(OCTO, {"enum": [2**60]}, (2**60, V), (2.0**60, ["/enum"]), (1152921504606847000, ["/enum"]))
add(OCTO, {"enum": [1152921504606847000]}, (2.0**60, V), (2**60, ["/enum"]))
add(OCTO, {"enum": [2.0**60]}, (1152921504606847000, V), (2.0**60, V), (2**60, ["/enum"]))
add(OCTO, {"maximum": 2**60}, (2**60, V), (2.0**60, ["/maximum"]))
add(OCTO, {"minimum": 1152921504606847000}, (2.0**60, V), (2**60, ["/minimum"]))
add(STRICT, {"exclusiveMinimum": 2**60}, (2.0**60, V), (2**60, ["/exclusiveMinimum"]))
add(
    STRICT,
    {"uniqueItems": True},
    ([2**60, 2.0**60], V),
    ([1152921504606847000, 2.0**60], ["/uniqueItems"]),
)
add(STRICT, {"const": 2**60}, (2.0**60, ["/const"]), (Decimal(2**60), V))
add(
    OCTO,
    {"type": "object", "properties": {"tag": {"enum": ["on", "off"]}}},
    ({"tag": "on"}, V),
    ({"tag": "ON"}, [("/tag", "/properties/tag/enum")]),
)

# empty and annotation-only subschemas in every position still give working code
add(
    OCTO,
    {"properties": {"a": {}, "b": {"description": "only an annotation"}}},
    ({}, V),
    ({"a": 1, "b": [None]}, V),
    ("x", V),
)
add(
    OCTO,
    {"type": "object", "properties": {"a": {"title": "t"}}, "required": ["a"]},
    ({"a": None}, V),
    ({}, ["/required"]),
    ([], ["/type"]),
)
add(OCTO, {"items": {}}, ([1, "a"], V), ({}, V))
add(OCTO, {"items": {"examples": [1]}, "minItems": 1}, ([1], V), ([], ["/minItems"]))
add(OCTO, {"properties": {"a": {"properties": {"b": {}}}}}, ({"a": {"b": 1}}, V), ({"a": 1}, V))
add(STRICT, {"prefixItems": [{}, {"title": "t"}]}, ([1, 2, 3], V), ([], V))
add(STRICT, {"prefixItems": [{}], "items": {}}, ([1, 2], V))
add(STRICT, {"additionalProperties": {}}, ({"a": 1}, V))
add(
    STRICT,
    {"properties": {"a": {}}, "additionalProperties": {"description": "d"}},
    ({"a": 1, "b": 2}, V),
)
add(STRICT, {"allOf": [{}, {"title": "t"}]}, (1, V))
add(STRICT, {"anyOf": [{}, {"type": "string"}]}, (1, V))
add(STRICT, {"oneOf": [{}, {"type": "string"}]}, (1, V), ("s", ["/oneOf"]))
add(STRICT, {"not": {"description": "d"}}, (1, ["/not"]))
add(STRICT, {"items": {"not": {}}}, ([], V), ([1], [("/0", "/items/not")]))
add(LENIENT, {"properties": {"a": {}, "b": {"minimum": 3}}}, ({"a": 1, "b": 1}, V))

# keywords apply only to their JSON type; each failing keyword is reported on its own
add(
    OCTO,
    {"type": "integer", "minLength": 3},
    ("ab", ["/type", "/minLength"]),
    ("abcd", ["/type"]),
    (1, V),
)
add(OCTO, {"type": "string", "minimum": 5}, (3, ["/type", "/minimum"]), (7, ["/type"]), ("x", V))
add(
    OCTO,
    {"type": "array", "required": ["a"]},
    ({}, ["/type", "/required"]),
    ({"a": 1}, ["/type"]),
    ([], V),
)
add(OCTO, {"type": "object", "minItems": 1}, ([], ["/type", "/minItems"]), ({}, V))

# the annotations octoscript accepts change nothing
add(
    OCTO,
    {
        "title": "t",
        "description": "d",
        "default": 3,
        "examples": [1, "x"],
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/s",
        "type": "integer",
    },
    (1, V),
    ("x", ["/type"]),
)

# ---------------------------------------------------------------------------------------------
# strict-only keywords
# ---------------------------------------------------------------------------------------------
# const
add(
    STRICT,
    {"const": 1},
    (1, V),
    (1.0, V),
    (Decimal("1.0"), V),
    (MyInt(1), V),
    (True, ["/const"]),
    ("1", ["/const"]),
    ([1], ["/const"]),
    (2, ["/const"]),
    (1.5, ["/const"]),
)
add(
    STRICT,
    {"const": None},
    (None, V),
    (False, ["/const"]),
    (0, ["/const"]),
    ("", ["/const"]),
    ([], ["/const"]),
)
add(
    STRICT,
    {"const": False},
    (False, V),
    (0, ["/const"]),
    (0.0, ["/const"]),
    (None, ["/const"]),
    (True, ["/const"]),
)
add(STRICT, {"const": True}, (True, V), (1, ["/const"]), (1.0, ["/const"]))
add(STRICT, {"const": 0}, (0, V), (-0.0, V), (0.0, V), (False, ["/const"]))
add(STRICT, {"const": -0.0}, (0, V), (-0.0, V), (Decimal("0"), V))
add(
    STRICT,
    {"const": {"a": [1, {"b": None}]}},
    ({"a": [1.0, {"b": None}]}, V),
    ({"a": [1, {"b": False}]}, ["/const"]),
    ({"a": [1, {"b": None}], "c": 1}, ["/const"]),
    ({"a": [{"b": None}, 1]}, ["/const"]),
    ({"a": [1, {}]}, ["/const"]),
)
add(
    STRICT,
    {"const": [1, 2]},
    ([1, 2], V),
    ([2, 1], ["/const"]),
    ((1, 2), ["/const"]),
    ([1, 2, 2], ["/const"]),
)
add(
    STRICT,
    {"properties": {"a": {"not": {"const": 1}}}},
    ({"a": 2}, V),
    ({"a": True}, V),
    ({"a": 1.0}, [("/a", "/properties/a/not")]),
)

# const / enum with numbers past float precision (schema given as JSON text, so it stays exact)
add(
    STRICT,
    '{"const": 0.30000000000000000001}',
    (Decimal("0.30000000000000000001"), V),
    (Decimal("0.300000000000000000010"), V),
    (load_json("0.30000000000000000001"), V),
    (load_json("0.3"), ["/const"]),
    (0.30000000000000004, ["/const"]),
    (Decimal("0.3"), ["/const"]),
)
add(
    OCTO,
    '{"enum": [123456789012345678901234567890, 0.30000000000000000001]}',
    (123456789012345678901234567890, V),
    (Decimal("123456789012345678901234567890.0"), V),
    (load_json("0.30000000000000000001"), V),
    (1.2345678901234568e29, ["/enum"]),
    (123456789012345678901234567891, ["/enum"]),
    (0.3, ["/enum"]),
)
add(
    STRICT,
    {"uniqueItems": True},
    ([123456789012345678901234567890, 1.2345678901234568e29], V),
    ([123456789012345680000000000000, 1.2345678901234568e29], ["/uniqueItems"]),
    ([load_json("0.30000000000000000001"), load_json("0.3")], V),
    ([load_json("0.30000000000000000001"), Decimal("0.300000000000000000010")], ["/uniqueItems"]),
)

# pattern: ECMA-262 semantics, a search (not anchored), strings only
add(
    STRICT,
    {"pattern": "^[a-z]+$"},
    ("abc", V),
    ("abC", ["/pattern"]),
    ("", ["/pattern"]),
    (5, V),
    (None, V),
    (["ABC"], V),
)
add(
    STRICT,
    {"pattern": "b"},
    ("abc", V),
    ("b", V),
    ("ac", ["/pattern"]),
    (MyStr("xbx"), V),
    (MyStr("x"), ["/pattern"]),
)
add(STRICT, {"pattern": "^\\d+$"}, ("0123", V), ("١٢٣", ["/pattern"]), ("12a", ["/pattern"]))
add(STRICT, {"pattern": "^a$"}, ("a", V), ("a\n", ["/pattern"]))
add(
    STRICT,
    {"pattern": "^.$"},
    ("x", V),
    ("\n", ["/pattern"]),
    ("\r", ["/pattern"]),
    ("\u2028", ["/pattern"]),
)
add(STRICT, {"pattern": "^\\s$"}, (" ", V), ("\u00a0", V), ("\ufeff", V), ("x", ["/pattern"]))
add(STRICT, {"pattern": "^\\w$"}, ("_", V), ("a", V), ("é", ["/pattern"]))
add(
    STRICT,
    {"properties": {"a": {"pattern": "^x"}}},
    ({"a": "xy"}, V),
    ({"a": "yx"}, [("/a", "/properties/a/pattern")]),
)

# exclusiveMinimum / exclusiveMaximum (numeric forms)
add(
    STRICT,
    {"exclusiveMinimum": 5},
    (6, V),
    (5.000001, V),
    (Decimal("5.0000000000000000000001"), V),
    (10**40, V),
    (5, ["/exclusiveMinimum"]),
    (5.0, ["/exclusiveMinimum"]),
    (Decimal("5.000"), ["/exclusiveMinimum"]),
    (4, ["/exclusiveMinimum"]),
    ("x", V),
    (True, V),
    (None, V),
)
add(
    STRICT,
    {"exclusiveMaximum": 5},
    (4, V),
    (4.999, V),
    (Decimal("4.99999999999999999999"), V),
    (-(10**40), V),
    (5, ["/exclusiveMaximum"]),
    (5.0, ["/exclusiveMaximum"]),
    (10**40, ["/exclusiveMaximum"]),
    ("x", V),
    (False, V),
)
add(
    STRICT,
    {"exclusiveMinimum": 0, "exclusiveMaximum": 1},
    (0.5, V),
    (0, ["/exclusiveMinimum"]),
    (1, ["/exclusiveMaximum"]),
)

# multipleOf (integers), exact
add(
    STRICT,
    {"multipleOf": 3},
    (0, V),
    (9, V),
    (-9, V),
    (9.0, V),
    (Decimal("9"), V),
    (Decimal("9.000"), V),
    (10**40 - 1, V),
    (3e30, V),
    (MyInt(6), V),
    (10, ["/multipleOf"]),
    (7.5, ["/multipleOf"]),
    (Decimal("9.0000000000000000001"), ["/multipleOf"]),
    (10**40, ["/multipleOf"]),
    (1e30, ["/multipleOf"]),
    (1e300, ["/multipleOf"]),
    (True, V),
    ("9", V),
    (None, V),
)
add(STRICT, {"multipleOf": 2.0}, (4, V), (4.0, V), (3, ["/multipleOf"]), (0.5, ["/multipleOf"]))
add(
    STRICT,
    {"multipleOf": 10**20},
    (10**40, V),
    (1e40, V),
    (Decimal("1E+40"), V),
    (0, V),
    (10**40 + 10**19, ["/multipleOf"]),
    (10**19, ["/multipleOf"]),
)
add(
    STRICT,
    {"type": "integer", "multipleOf": 7},
    (14, V),
    (14.0, V),
    (15, ["/multipleOf"]),
    (14.5, ["/type", "/multipleOf"]),
)

# prefixItems with items
add(
    STRICT,
    {"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": {"type": "boolean"}},
    ([], V),
    ([1], V),
    ([1, "a"], V),
    ([1, "a", True, False], V),
    (["a"], [("/0", "/prefixItems/0/type")]),
    ([1, 2], [("/1", "/prefixItems/1/type")]),
    ([1, "a", 3], [("/2", "/items/type")]),
    (
        ["x", 1, 2],
        [("/0", "/prefixItems/0/type"), ("/1", "/prefixItems/1/type"), ("/2", "/items/type")],
    ),
    ({"0": "x"}, V),
    ("x", V),
)
add(
    STRICT,
    {"prefixItems": [{"type": "integer"}], "items": False},
    ([], V),
    ([1], V),
    ([1, 2], [("/1", "/items")]),
    (["a", 2, 3], [("/0", "/prefixItems/0/type"), ("/1", "/items"), ("/2", "/items")]),
)
add(
    STRICT,
    {"prefixItems": [{"const": "a"}]},
    (["a", 5, None], V),
    ([], V),
    (["b"], [("/0", "/prefixItems/0/const")]),
)
add(
    STRICT,
    {"prefixItems": [True, False]},
    ([1], V),
    ([1, 2], [("/1", "/prefixItems/1")]),
    ([1, 2, 3], [("/1", "/prefixItems/1")]),
)
add(STRICT, {"items": False}, ([], V), ([1], [("/0", "/items")]), ({"a": 1}, V))

# uniqueItems: JSON equality
add(
    STRICT,
    {"uniqueItems": True},
    ([], V),
    ([1, 2], V),
    ([1, True], V),
    ([0, False], V),
    ([None, False, 0, "", [], {}], V),
    ([[1, 2], [2, 1]], V),
    ([{"a": 1}, {"a": True}], V),
    ([10**30 + 1, 1e30], V),
    ([1e30, int(1e30)], V),
    ([Decimal("0.30000000000000000001"), 0.3], V),
    (["a", "A"], V),
    ([[1], [[1]]], V),
    ([1, 1], ["/uniqueItems"]),
    ([1, 1.0], ["/uniqueItems"]),
    (["a", "b", "a"], ["/uniqueItems"]),
    ([{"a": 1, "b": 2}, {"b": 2, "a": 1}], ["/uniqueItems"]),
    ([[1, [2]], [1.0, [2.0]]], ["/uniqueItems"]),
    ([10**30, 1e30], ["/uniqueItems"]),
    ([Decimal("0.1"), 0.1], ["/uniqueItems"]),
    ([0, -0.0], ["/uniqueItems"]),
    ([MyStr("a"), "a"], ["/uniqueItems"]),
    ([MyInt(2), 2.0], ["/uniqueItems"]),
    ([collections.OrderedDict([("b", 2), ("a", 1)]), {"a": 1, "b": 2}], ["/uniqueItems"]),
    ([None, None], ["/uniqueItems"]),
    ([False, False], ["/uniqueItems"]),
    ([{}, {}], ["/uniqueItems"]),
    ("aa", V),
    ({"a": 1, "b": 1}, V),
    (1, V),
)
add(STRICT, {"uniqueItems": False}, ([1, 1], V))
add(
    STRICT,
    {"items": {"uniqueItems": True}},
    ([[1, 2], [3]], V),
    ([[1, 2], [3, 3.0]], [("/1", "/items/uniqueItems")]),
)

# additionalProperties as a schema
add(
    STRICT,
    {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
    ({}, V),
    ({"a": "s", "b": 1}, V),
    ({"b": "s"}, [("/b", "/additionalProperties/type")]),
    ({"a": 1, "b": 1.5}, [("/a", "/properties/a/type"), ("/b", "/additionalProperties/type")]),
    (
        {"b": True, "c": None},
        [("/b", "/additionalProperties/type"), ("/c", "/additionalProperties/type")],
    ),
    ([1], V),
)
add(
    STRICT,
    {"additionalProperties": {"minimum": 0}},
    ({"x": 1, "y": "s"}, V),
    ({"x/y": -1}, [("/x~1y", "/additionalProperties/minimum")]),
)
add(
    STRICT,
    {"properties": {"a": True}, "additionalProperties": {"not": {}}},
    ({"a": 1}, V),
    ({"a": 1, "b": 1}, [("/b", "/additionalProperties/not")]),
)

# anyOf / oneOf / not: one error at the combinator
add(
    STRICT,
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    ("a", V),
    (1, V),
    (2.0, V),
    (1.5, ["/anyOf"]),
    (True, ["/anyOf"]),
    (None, ["/anyOf"]),
    ([], ["/anyOf"]),
)
add(STRICT, {"anyOf": [{"type": "string"}, True]}, (1, V), (None, V))
add(STRICT, {"anyOf": [False, {"minimum": 3}]}, (3, V), ("x", V), (2, ["/anyOf"]))
add(
    STRICT,
    {"oneOf": [{"type": "integer"}, {"minimum": 0}]},
    (1.5, V),
    (-1, V),
    ("x", V),  # "x" is valid under minimum only (minimum ignores strings)
    (1, ["/oneOf"]),
    (0.0, ["/oneOf"]),
    (-1.5, ["/oneOf"]),
)
add(STRICT, {"oneOf": [True, True]}, (1, ["/oneOf"]), (None, ["/oneOf"]))
add(STRICT, {"oneOf": [True, False]}, (1, V), ({}, V))
add(
    STRICT, {"oneOf": [{"const": 1}, {"const": True}]}, (1, V), (True, V), (1.0, V), (0, ["/oneOf"])
)
add(
    STRICT,
    {"not": {"type": "integer"}},
    (1.5, V),
    ("1", V),
    (True, V),
    (None, V),
    (1, ["/not"]),
    (1.0, ["/not"]),
    (10**40, ["/not"]),
    (Decimal("3.0"), ["/not"]),
)
add(STRICT, {"not": True}, (1, ["/not"]), (None, ["/not"]))
add(STRICT, {"not": False}, (1, V), ({}, V))
add(STRICT, {"not": {"not": {"type": "string"}}}, ("a", V), (1, ["/not"]))
add(
    STRICT,
    {
        "properties": {
            "a": {"anyOf": [{"type": "null"}, {"minLength": 2}]},
            "b": {"oneOf": [{"type": "null"}, {"type": "boolean"}]},
        }
    },
    ({"a": None, "b": True}, V),
    ({"a": "xy", "b": None}, V),
    ({"a": "x"}, [("/a", "/properties/a/anyOf")]),
    ({"b": 1}, [("/b", "/properties/b/oneOf")]),
    ({"a": "x", "b": 1}, [("/a", "/properties/a/anyOf"), ("/b", "/properties/b/oneOf")]),
)

# allOf: the branch's own errors
add(
    STRICT,
    {"allOf": [{"type": "integer"}, {"minimum": 5}]},
    (5, V),
    (7.0, V),
    (3, ["/allOf/1/minimum"]),
    ("x", ["/allOf/0/type"]),
    (2.5, ["/allOf/0/type", "/allOf/1/minimum"]),
    (5.5, ["/allOf/0/type"]),
)
add(STRICT, {"allOf": [True, {"type": "string"}]}, ("s", V), (1, ["/allOf/1/type"]))
add(STRICT, {"allOf": [{}, False]}, (1, ["/allOf/1"]), (None, ["/allOf/1"]))
add(
    STRICT,
    {"allOf": [{"properties": {"a": {"allOf": [{"maximum": 1}]}}}]},
    ({"a": 1}, V),
    ({"a": 2}, [("/a", "/allOf/0/properties/a/allOf/0/maximum")]),
)

# boolean schemas: a false subschema fails at its own location
add(STRICT, True, (1, V), (None, V), ({"a": [1]}, V))
add(STRICT, False, (1, [("", "")]), (None, [("", "")]), ({}, [("", "")]))
add(
    STRICT,
    {"properties": {"a": False, "b": True}},
    ({}, V),
    ({"b": 1}, V),
    ({"a": 1}, [("/a", "/properties/a")]),
    ({"a": None, "b": 2}, [("/a", "/properties/a")]),
)
add(
    STRICT,
    {"items": {"properties": {"x": False}}},
    ([{}, {"x": 0}], [("/1/x", "/items/properties/x")]),
)

# format is an annotation in strict
add(STRICT, {"format": "email"}, ("not an email", V), (5, V))

# ---------------------------------------------------------------------------------------------
# lenient: type, required, properties; everything else ignored
# ---------------------------------------------------------------------------------------------
add(
    LENIENT,
    {},
    (None, V),
    (True, V),
    (0, V),
    (1.5, V),
    ("s", V),
    ([], V),
    ({}, V),
    ({"a": [1, {"b": None}]}, V),
    (Decimal("NaN"), V),
    ((1, 2), V),
    ({1, 2}, V),
)
add(
    LENIENT,
    {"required": ["a"]},
    ({"a": 1}, V),
    ({"a": None}, V),
    ({}, ["/required"]),
    ([], V),
    ("a", V),
)
add(
    LENIENT,
    {"properties": {"a": {"type": "string", "minLength": 5}}},
    ({"a": "x"}, V),
    ({"b": 1}, V),
    ({"a": 1}, [("/a", "/properties/a/type")]),
    (3, V),
)
add(
    LENIENT,
    {
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"type": "integer", "enum": [1]}},
        "additionalProperties": False,
    },
    ({"a": 2, "extra": 1}, V),
    ({"a": 1.0}, V),
    ({"a": 1.5}, [("/a", "/properties/a/type")]),
    ({}, ["/required"]),
    ([], ["/type"]),
)
add(
    LENIENT,
    {
        "minimum": 5,
        "maximum": 1,
        "exclusiveMinimum": 9,
        "enum": [1],
        "const": 2,
        "pattern": "^x$",
        "minLength": 9,
        "maxLength": 0,
        "minItems": 9,
        "maxItems": 0,
        "additionalProperties": False,
        "items": {"type": "string"},
        "prefixItems": [False],
        "not": {},
        "allOf": [False],
        "anyOf": [False],
        "oneOf": [True, True],
        "uniqueItems": True,
        "multipleOf": 7,
        "format": "email",
    },
    (3, V),
    ("abc", V),
    ([1, 1], V),
    ({"z": 1}, V),
    (None, V),
)
add(LENIENT, {"type": "array", "items": {"type": "string"}}, ([1, 2], V), ({}, ["/type"]))
add(
    LENIENT,
    {"properties": {"a": {"properties": {"b": {"type": "null", "const": 3}}}}},
    ({"a": {"b": None}}, V),
    ({"a": {"b": 3}}, [("/a/b", "/properties/a/properties/b/type")]),
)


@pytest.mark.parametrize("profile, schema, pairs", CASES)
def test_keyword(profile: str, schema: Any, pairs: tuple[tuple[Any, Any], ...]) -> None:
    module = compiled(schema, profile)
    failures = []
    for instance, expected in pairs:
        try:
            check(module, instance, expected)
        except AssertionError as exc:
            first = str(exc).splitlines()[0] if str(exc) else "assertion failed"
            got = sorted((e.instance_location, e.keyword_location) for e in module.errors(instance))
            failures.append(
                f"instance {instance!r}: expected {sorted(_norm(expected))}, "
                f"got {got} (is_valid={module.is_valid(instance)}): {first}"
            )
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------------------------
# Exact numeric bounds given as JSON text (so the schema keeps every digit)
# ---------------------------------------------------------------------------------------------
T = "0.30000000000000000001"
EXACT = Decimal(T)


def _exact(x: Any) -> Decimal:
    """The decimal a number stands for (a float: its shortest repr)."""
    return Decimal(repr(x)) if isinstance(x, float) else Decimal(x)


BOUND_INSTANCES = {
    "float 0.3": load_json("0.3"),
    "text 0.30000000000000000002": load_json("0.30000000000000000002"),
    "text 0.30000000000000000001": load_json("0.30000000000000000001"),
    "text 0.300000000000000000010": load_json("0.300000000000000000010"),
    "text 0.300000000000000000009": load_json("0.300000000000000000009"),
    "text 0.30000000000000000000": load_json("0.30000000000000000000"),
    "float 0.30000000000000004": 0.30000000000000004,
    "int 0": 0,
    "int 1": 1,
}
# expected validity, worked out by hand (instance vs 0.30000000000000000001)
BOUND_EXPECTED = {
    "float 0.3": "lt",
    "text 0.30000000000000000002": "gt",
    "text 0.30000000000000000001": "eq",
    "text 0.300000000000000000010": "eq",
    "text 0.300000000000000000009": "lt",
    "text 0.30000000000000000000": "lt",
    "float 0.30000000000000004": "gt",
    "int 0": "lt",
    "int 1": "gt",
}
_OK = {
    "minimum": {"gt", "eq"},
    "maximum": {"lt", "eq"},
    "exclusiveMinimum": {"gt"},
    "exclusiveMaximum": {"lt"},
}


@pytest.mark.parametrize(
    "profile, keyword",
    [
        ("octoscript", "minimum"),
        ("octoscript", "maximum"),
        ("strict", "minimum"),
        ("strict", "maximum"),
        ("strict", "exclusiveMinimum"),
        ("strict", "exclusiveMaximum"),
    ],
)
def test_bound_past_float_precision(profile: str, keyword: str) -> None:
    module = compiled('{"%s": %s}' % (keyword, T), profile)
    for label, instance in BOUND_INSTANCES.items():
        relation = BOUND_EXPECTED[label]
        # the hand-worked relation agrees with exact decimal arithmetic
        e = _exact(instance)
        assert relation == ("lt" if e < EXACT else "gt" if e > EXACT else "eq"), label
        check(module, instance, V if relation in _OK[keyword] else ["/" + keyword])


B30 = 123456789012345678901234567890  # 30 digits, beyond u64 and f64
F_ABOVE = (
    1.2345678901234568e29  # repr 123456789012345680000000000000 > B30 (its binary value is < B30)
)
F_BELOW = 1.2345678901234566e29  # repr 123456789012345660000000000000 < B30
P30 = 10**30  # 31 digits; the float 1e30 stands for exactly this


@pytest.mark.parametrize(
    "profile, schema_text, instance, ok",
    [
        *[
            (p, '{"maximum": %d}' % B30, i, ok)
            for p in OCTO
            for i, ok in [
                (B30, True),
                (B30 - 1, True),
                (B30 + 1, False),
                (F_ABOVE, False),
                (F_BELOW, True),
                (1e30, False),
                (1e29, True),
                (Decimal(B30), True),
                (Decimal("123456789012345678901234567890.0000001"), False),
                (-(10**40), True),
                (10**40, False),
            ]
        ],
        *[
            (p, '{"minimum": %d}' % B30, i, ok)
            for p in OCTO
            for i, ok in [
                (B30, True),
                (B30 - 1, False),
                (B30 + 1, True),
                (F_ABOVE, True),
                (F_BELOW, False),
                (1e30, True),
                (Decimal("123456789012345678901234567889.9999999"), False),
            ]
        ],
        *[
            ("strict", '{"exclusiveMaximum": %d}' % B30, i, ok)
            for i, ok in [(B30, False), (B30 - 1, True), (F_ABOVE, False), (F_BELOW, True)]
        ],
        *[
            ("strict", '{"exclusiveMinimum": %d}' % B30, i, ok)
            for i, ok in [(B30, False), (B30 + 1, True), (F_ABOVE, True), (F_BELOW, False)]
        ],
        # 10**30 and the float 1e30 are the same number
        *[
            (p, '{"maximum": %d}' % P30, i, ok)
            for p in OCTO
            for i, ok in [
                (1e30, True),
                (P30, True),
                (P30 + 1, False),
                (1.0000000000000002e30, False),
                (Decimal("1E+30"), True),
            ]
        ],
        *[
            (p, '{"minimum": %d}' % (P30 + 1), i, ok)
            for p in OCTO
            for i, ok in [(1e30, False), (P30 + 1, True), (1.0000000000000002e30, True)]
        ],
        *[
            ("strict", '{"exclusiveMinimum": %d}' % P30, i, ok)
            for i, ok in [(1e30, False), (P30 + 1, True)]
        ],
        *[
            ("strict", '{"exclusiveMaximum": %d}' % P30, i, ok)
            for i, ok in [(1e30, False), (P30 - 1, True)]
        ],
        # and a float bound 1e30 stands for 10**30, not for its binary value 10**30 + 19884624838656
        *[
            (p, '{"maximum": 1e30}', i, ok)
            for p in OCTO
            for i, ok in [(P30, True), (P30 + 1, False), (int(1e30), False), (1e30, True)]
        ],
        *[
            (p, '{"minimum": 1e30}', i, ok)
            for p in OCTO
            for i, ok in [(P30, True), (P30 - 1, False), (1e30, True)]
        ],
        # a bound beyond the float range (1e400 parses as an exact Decimal)
        *[
            (p, '{"maximum": 1e400}', i, ok)
            for p in OCTO
            for i, ok in [
                (10**400, True),
                (10**400 + 1, False),
                (1e308, True),
                (Decimal("1E+400"), True),
            ]
        ],
    ],
)
def test_big_integer_bounds(profile: str, schema_text: str, instance: Any, ok: bool) -> None:
    keyword = next(iter(json.loads(schema_text)))
    check(compiled(schema_text, profile), instance, V if ok else ["/" + keyword])


@pytest.mark.parametrize(
    "schema, instance, ok",
    [
        ({"maximum": 100}, 10**40, False),
        ({"minimum": 100}, 10**40, True),
        ({"minimum": 100}, -(10**40), False),
        ({"maximum": 1e40}, 10**40, True),
        (
            {"maximum": 1e40},
            10**40 + 1,
            False,
        ),  # 1e40 means 10**40, though its binary value is larger
        ({"maximum": 1e40}, 1e40, True),
        ({"minimum": 1e40}, 10**40 - 1, False),
        ({"minimum": 10**40}, 1e40, True),
        ({"maximum": 10**40}, 1e40, True),
        ({"maximum": 10**40 - 1}, 1e40, False),
        # Decimal instances against a float bound that is not exactly representable in binary
        ({"minimum": 0.1}, Decimal("0.1"), True),
        ({"minimum": 0.1}, Decimal("0.10000000000000000000001"), True),
        ({"minimum": 0.1}, Decimal("0.09999999999999999999999"), False),
        ({"minimum": 0.1}, 0.1, True),
        ({"minimum": 0.1}, 0.09999999999999999, False),
        ({"maximum": 0.1}, Decimal("0.1"), True),
        ({"maximum": 0.1}, Decimal("0.10000000000000000001"), False),
        ({"maximum": 0.1}, 0.1, True),
        ({"maximum": 0.1}, 0.10000000000000002, False),
        # -0.0 is 0
        ({"minimum": 0}, -0.0, True),
        ({"maximum": 0}, -0.0, True),
        ({"maximum": -0.0}, 0, True),
        ({"minimum": -0.0}, 0, True),
        ({"minimum": -0.0}, -1e-300, False),
        ({"maximum": -0.0}, 1e-300, False),
        ({"minimum": 0}, Decimal("-0"), True),
        # Decimal integers are integers
        ({"type": "integer", "maximum": 10**30}, Decimal("1E+30"), True),
        ({"type": "integer", "maximum": 10**30}, Decimal("1.0000E+30"), True),
    ],
)
def test_exact_numbers(schema: dict[str, Any], instance: Any, ok: bool) -> None:
    for profile in OCTO:
        expected = V if ok else ["/" + k for k in schema if k != "type"]
        check(compiled(schema, profile), instance, expected)


@pytest.mark.parametrize(
    "schema, instance, ok",
    [
        ({"exclusiveMinimum": 0.1}, Decimal("0.1"), False),
        ({"exclusiveMinimum": 0.1}, Decimal("0.10000000000000000001"), True),
        ({"exclusiveMaximum": 0.1}, Decimal("0.1"), False),
        ({"exclusiveMaximum": 0.1}, Decimal("0.09999999999999999999"), True),
        ({"exclusiveMaximum": 0}, -0.0, False),
        ({"exclusiveMinimum": 0}, -0.0, False),
        ({"exclusiveMinimum": -0.0}, 0, False),
        ({"exclusiveMaximum": 10**40}, 1e40, False),
        ({"exclusiveMaximum": 10**40}, 10**40 - 1, True),
        ({"exclusiveMinimum": 1e40}, 10**40 + 1, True),
    ],
)
def test_exact_numbers_exclusive(schema: dict[str, Any], instance: Any, ok: bool) -> None:
    check(compiled(schema, "strict"), instance, V if ok else ["/" + next(iter(schema))])


NANS = [float("nan"), Decimal("NaN"), Decimal("-NaN"), Decimal("sNaN")]


@pytest.mark.parametrize(
    "profile, keyword",
    [
        ("octoscript", "minimum"),
        ("octoscript", "maximum"),
        ("strict", "minimum"),
        ("strict", "maximum"),
        ("strict", "exclusiveMinimum"),
        ("strict", "exclusiveMaximum"),
    ],
)
def test_nan_fails_every_bound(profile: str, keyword: str) -> None:
    nested = compiled({"properties": {"n": {keyword: 0}}}, profile)
    for bound in (0, -(10**40), 10**40, 0.5, "0.30000000000000000001"):
        schema = '{"%s": %s}' % (keyword, bound) if isinstance(bound, str) else {keyword: bound}
        module = compiled(schema, profile)
        for nan in NANS:
            check(module, nan, ["/" + keyword])
            check(module, [nan], V)  # an array: the bound does not apply
            check(nested, {"n": nan}, [("/n", f"/properties/n/{keyword}")])


@pytest.mark.parametrize("nan", NANS, ids=repr)
def test_nan_never_crashes(nan: Any) -> None:
    for schema in (
        {"type": "integer"},
        {"multipleOf": 3},
        {"enum": [0, 1.5]},
        {"const": 0},
        {"uniqueItems": True},
        {"items": {"minimum": 1}},
    ):
        module = compiled(schema, "strict")
        consistent(module, nan)
        consistent(module, [nan, nan])
    check(compiled({"type": "integer"}, "strict"), nan, ["/type"])
    check(compiled({"enum": [0, 1.5]}, "strict"), nan, ["/enum"])
    check(compiled({"const": 0}, "strict"), nan, ["/const"])


# ---------------------------------------------------------------------------------------------
# Unusual instance types: subclasses count as their JSON type; tuple/set are not arrays
# ---------------------------------------------------------------------------------------------
OBJECT_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}},
    "required": ["a"],
    "additionalProperties": False,
}


@pytest.mark.parametrize("profile", OCTO)
@pytest.mark.parametrize("cls", [collections.OrderedDict, MyDict])
def test_dict_subclasses_are_objects(profile: str, cls: type) -> None:
    module = compiled(OBJECT_SCHEMA, profile)
    check(module, cls(a=1), V)
    check(module, cls(a="x"), [("/a", "/properties/a/type")])
    check(module, cls(b=1), ["/required", ("/b", "/additionalProperties")])
    check(
        compiled({"properties": {"o": OBJECT_SCHEMA}}, profile),
        {"o": cls(a=1.5)},
        [("/o/a", "/properties/o/properties/a/type")],
    )


@pytest.mark.parametrize("profile", OCTO)
def test_str_and_int_subclasses(profile: str) -> None:
    check(compiled({"type": "string", "minLength": 2}, profile), MyStr("ab"), V)
    check(compiled({"type": "string", "minLength": 2}, profile), MyStr("a"), ["/minLength"])
    check(compiled({"type": "integer", "maximum": 5}, profile), MyInt(3), V)
    check(compiled({"type": "integer", "maximum": 5}, profile), MyInt(7), ["/maximum"])
    check(compiled({"type": "number"}, profile), MyInt(7), V)
    check(compiled({"type": "boolean"}, profile), MyInt(1), ["/type"])
    check(
        compiled({"items": {"type": "string"}}, profile),
        [MyStr("x"), MyInt(1)],
        [("/1", "/items/type")],
    )


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize(
    "instance",
    [(1, 2), {1, 2}, frozenset([1]), b"ab", bytearray(b"x"), object(), complex(1, 2), range(3)],
    ids=lambda v: type(v).__name__,
)
def test_non_json_values_are_not_arrays_or_strings(profile: str, instance: Any) -> None:
    for name in ("array", "string", "object", "number", "integer", "null", "boolean"):
        check(compiled({"type": name}, profile), instance, ["/type"])
    check(
        compiled({"type": "object", "properties": {"a": {"type": "array"}}}, profile),
        {"a": instance},
        [("/a", "/properties/a/type")],
    )


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("instance", [{1: "a"}, {("a",): 1}, {"a": 1, None: 2}], ids=repr)
def test_object_with_non_string_keys_is_an_object_whose_odd_keys_match_nothing(
    profile: str, instance: Any
) -> None:
    # README, deviation 8: a dict is an object whatever its keys (checking key types would cost
    # every valid object a scan); a non-string key equals no property name, so it is "additional".
    check(compiled({"type": "object"}, profile), instance, [])
    for name in ("array", "string", "number", "integer", "null", "boolean"):
        check(compiled({"type": name}, profile), instance, ["/type"])
    if profile != "lenient":
        odd = [k for k in instance if not isinstance(k, str)]
        closed = compiled(
            {"type": "object", "properties": {"a": {}}, "additionalProperties": False}, profile
        )
        assert not closed.is_valid(instance)
        assert {e.keyword_location for e in closed.errors(instance)} == {"/additionalProperties"}
        assert len(closed.errors(instance)) == len(odd)


@pytest.mark.parametrize(
    "instance",
    [
        (1, 2),
        {1, 2},
        frozenset([1]),
        b"ab",
        object(),
        complex(1, 2),
        {1: "a"},
        [{1, 2}, {1, 2}],
        [(1,), (1,)],
        float("inf"),
        Decimal("Infinity"),
    ],
    ids=lambda v: type(v).__name__,
)
def test_non_json_values_do_not_crash(instance: Any) -> None:
    schemas = [
        {"type": "integer", "minimum": 0, "maximum": 10, "multipleOf": 2},
        {"enum": [1, "a", [1, 2], {"a": 1}]},
        {"const": [1, 2]},
        {"uniqueItems": True},
        {"minItems": 1, "maxItems": 2, "items": {"type": "integer"}},
        {"prefixItems": [{"type": "integer"}], "items": False},
        {"minLength": 1, "maxLength": 3, "pattern": "a"},
        {"required": ["a"], "properties": {"a": {}}, "additionalProperties": False},
        {"additionalProperties": {"type": "string"}},
        {"not": {"type": "string"}},
        {"anyOf": [{"type": "array"}, {"type": "object"}]},
        {"oneOf": [{"minimum": 0}, {"maximum": 0}]},
        {"allOf": [{"minItems": 1}, {"maxLength": 1}]},
    ]
    for schema in schemas:
        module = compiled(schema, "strict")
        consistent(module, instance)
        consistent(module, [instance, instance])
        consistent(module, {"a": instance})
    octo = compiled(
        {
            "type": "object",
            "properties": {"a": {"enum": [1, [1, 2]]}, "b": {"items": {"minimum": 0}}},
            "required": ["a"],
        },
        "octoscript",
    )
    consistent(octo, instance)
    assert not consistent(octo, {"a": instance})


@pytest.mark.parametrize("profile", OCTO)
def test_tuple_and_set_never_equal_arrays(profile: str) -> None:
    module = compiled({"enum": [[1, 2], [1]]}, profile)
    check(module, (1, 2), ["/enum"])
    check(module, {1}, ["/enum"])
    check(module, [1, 2], V)
    check(compiled({"type": "array", "minItems": 1}, profile), (1,), ["/type"])


# ---------------------------------------------------------------------------------------------
# Deep instances: enum/const/uniqueItems must answer, never RecursionError
# ---------------------------------------------------------------------------------------------
DEEP = 100_000  # far past the recursion limit
MID = 5_000  # still five times the default recursion limit, and cheaper to build and compare


def deep_list(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def deep_dict(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.fixture(scope="module")
def deep() -> dict[str, Any]:
    """Built once: a list and an object nested DEEP levels (iteratively)."""
    return {"list": deep_list(DEEP), "dict": deep_dict(DEEP), "list2": deep_list(DEEP, 2)}


@pytest.mark.parametrize("profile", OCTO)
def test_deep_instance_enum(profile: str, deep: dict[str, Any]) -> None:
    module = compiled({"enum": [[[1]], {"a": {"a": 1}}, 1]}, profile)
    check(module, deep["list"], ["/enum"])
    check(module, deep["dict"], ["/enum"])
    check(module, [deep["list"]], ["/enum"])
    check(module, deep_list(2), V)
    # enum values deeper than any hashing shortcut: 60 levels
    module = compiled({"enum": [deep_list(60), deep_dict(60)]}, profile)
    check(module, deep_list(60), V)
    check(module, deep_list(60, 1.0), V)
    check(module, deep_dict(60), V)
    check(module, deep_list(60, 2), ["/enum"])
    check(module, deep_list(60, True), ["/enum"])
    check(module, deep_list(59), ["/enum"])
    check(module, deep_list(61), ["/enum"])
    check(module, deep["list"], ["/enum"])
    check(module, deep["dict"], ["/enum"])
    check(
        compiled({"properties": {"d": {"enum": [deep_list(60)]}}}, profile),
        {"d": deep["list"]},
        [("/d", "/properties/d/enum")],
    )


def test_deep_instance_const(deep: dict[str, Any]) -> None:
    module = compiled({"const": [[1]]}, "strict")
    check(module, deep["list"], ["/const"])
    check(module, [[1.0]], V)
    module = compiled({"const": deep_dict(70, [1, 2])}, "strict")
    check(module, deep_dict(70, [1.0, 2]), V)
    check(module, deep_dict(70, [2, 1]), ["/const"])
    check(module, deep_dict(MID, [1, 2]), ["/const"])
    check(module, deep["dict"], ["/const"])
    check(module, deep["list"], ["/const"])


def test_deep_instance_unique_items(deep: dict[str, Any]) -> None:
    module = compiled({"uniqueItems": True}, "strict")
    # 100000 levels: is_valid and errors() answer (validate is covered at MID depth below)
    assert (
        module.is_valid([deep["list"], deep["list"]]) is False
    )  # compared level by level all the same
    assert [
        (e.instance_location, e.keyword_location)
        for e in module.errors([deep["list"], deep["list"]])
    ] == [("", "/uniqueItems")]
    assert module.is_valid([deep["list"], deep["list2"]]) is True
    assert module.errors([deep["list"], deep["list2"]]) == []
    check(module, [deep_list(MID), deep_list(MID, 1.0)], ["/uniqueItems"])
    check(module, [deep_list(MID), deep_list(MID - 1)], V)
    check(module, [deep_dict(MID), deep_dict(MID)], ["/uniqueItems"])
    check(module, [deep_dict(MID), deep_list(MID)], V)
    check(module, [1, deep_list(MID), 2, 1], ["/uniqueItems"])
    check(
        module,
        [deep_list(100, {"b": 1, "c": 2}), deep_list(100, {"c": 2, "b": 1})],
        ["/uniqueItems"],
    )
    check(
        compiled({"items": {"uniqueItems": True}}, "strict"),
        [[deep_list(MID), deep_list(MID)]],
        [("/0", "/items/uniqueItems")],
    )


@pytest.mark.parametrize("profile", ALL)
def test_deep_instance_structural(profile: str, deep: dict[str, Any]) -> None:
    module = compiled({"type": "array", "items": {"type": "array"}}, profile)
    check(module, deep["list"], V)
    if profile != "lenient":  # lenient ignores items
        check(module, [deep["list"], 1], [("/1", "/items/type")])
    else:
        check(module, [deep["list"], 1], V)
    check(
        compiled({"type": "object", "properties": {"a": {"type": "object"}}}, profile),
        deep["dict"],
        V,
    )


# ---------------------------------------------------------------------------------------------
# pattern: ECMA-262 meaning, or a bad-regex SchemaError when the pattern cannot be translated
# exactly (docs/ARCHITECTURE.md, "Semantics": never a silent approximation); Python's own reading is wrong here
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "pattern, matching, failing",
    [
        (
            "(a)|\\1b",
            ["b", "a", "xb"],
            ["c", ""],
        ),  # a backreference to a group that did not take part is empty
        ("\\1(a)", ["a", "xa"], ["b", ""]),  # a forward reference is empty too
        ("^a{,3}$", ["a{,3}"], ["aa", "", "a"]),  # "{,3}" is not a quantifier in ECMA-262
        ("\\bx", ["éx", "x", " x"], ["ax", "_x", "1x"]),  # \b uses ASCII word characters
        ("^$", [""], ["\n"]),
        ("^a$", ["a"], ["a\n", "\na"]),
        ("\\k<a>", ["k<a>", "xk<a>"], ["k", "a"]),  # no named groups: \k is a literal k (Annex B)
        ("^[^]$", ["\n", "x", "\u2028"], ["", "xy"]),  # [^] is any character
        ("^[]$", [], ["", "x", "[]"]),  # [] is no character
        ("^a\\Z$", ["aZ"], ["a"]),  # \Z is a literal Z, not Python's end of string
        ("^\\cJ$", ["\n"], ["cJ", "J"]),
        ("^\\0$", ["\x00"], ["0", ""]),
        ("^[\\b]$", ["\x08"], ["b"]),
        ("^\\S$", ["x", "é"], ["\ufeff", "\u00a0", "\u2028", " "]),
        ("^\\D$", ["\u0663", "x"], ["3"]),
        ("^\\W$", ["é", "-"], ["a", "_", "0"]),
        ("^.$", ["x", "é"], ["\n", "\r", "\u2028", "\u2029"]),
        ("^\\u0041\\x42$", ["AB"], ["ab", "u0041x42"]),
    ],
)
def test_pattern_ecma_semantics(pattern: str, matching: list[str], failing: list[str]) -> None:
    try:
        module = compiled({"pattern": pattern}, "strict")
    except generator.SchemaError as exc:
        assert exc.code == "bad-regex" and exc.pointer == "/pattern", (
            exc.code,
            exc.pointer,
            exc.message,
        )
        return
    for text in matching:
        check(module, text, V)
    for text in failing:
        check(module, text, ["/pattern"])
