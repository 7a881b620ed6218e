"""Emission safety (docs/ARCHITECTURE.md, "Emission safety"): schema content is data, never code.

Hostile property names, enum strings, const values and patterns must compile to modules that
behave exactly as the schema says; the emitted source is checked with `ast` against an
allow-list, and every string constant in it must come from the schema or from the compiler.
Compiling runs black, which is slow, so the hostile strings share a few module-scoped compiles.
"""

from __future__ import annotations

import ast
import io
import json
import math
import re
import tokenize
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import SchemaError, compile_module, compile_source
from generator.pipeline import PROFILES

# -- the hostile strings ----------------------------------------------------------------------

HOSTILE = [
    "",
    " ",
    "'",
    '"',
    "'\"",
    "\"'",
    '"""',
    "'''",
    "\\",
    "\\'",
    '\\"',
    "\\n",
    "\\x00",
    "\\u2028",
    "{}",
    "{",
    "}",
    "{0}",
    "{x}",
    "{{ x }}",
    "{% raw %}",
    "%s",
    "%(x)s",
    "${x}",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\u2028",
    "\u2029",
    "\x00",
    "a\x00b",
    "\x7f",
    "#",
    "# comment",
    "\n# comment\nimport os\n",
    "__import__('os').system('echo pwned')",
    '"); import os; #',
    "'); import os; #",
    '"""); import os; #',
    "\\\"); __import__('os').system('echo pwned'); #",
    "class",
    "def",
    "lambda",
    "None",
    "True",
    "False",
    "import",
    "return",
    "if",
    "not",
    "in",
    "is",
    "and",
    "or",
    "print",
    "type",
    "len",
    "str",
    "repr",
    "isinstance",
    "object",
    "super",
    "range",
    "x",
    "t",
    "k",
    "v",
    "i",
    "ip",
    "kp",
    "out",
    "key",
    "keys",
    "name",
    "data",
    "self",
    "instance",
    "found",
    "check",
    "ValidationError",
    "is_valid",
    "validate",
    "errors",
    "STRAIGHTLINE",
    "__all__",
    "_v0",
    "_v1",
    "_e0",
    "_e1",
    "_K0",
    "_K1",
    "_S0",
    "_T0",
    "_P0",
    "_R0",
    "_ok",
    "_re",
    "_kind",
    "_short",
    "_esc",
    "_table",
    "_in_table",
    "_Decimal",
    "__class__",
    "__builtins__",
    "__dict__",
    "__init__",
    "__proto__",
    "constructor",
    "a-b",
    "a_b",
    "ab",
    "a.b",
    "a b",
    "a/b",
    "a~b",
    "m~n",
    "~",
    "/",
    "~0",
    "~1",
    "~01",
    "/~",
    "a/b~c",
    "fi",
    "\ufb01",
    "\u00c5",
    "\u212b",
    "\u00e9",
    "e\u0301",
    "\u00e4",
    "\u03a9",
    "\U0001f600",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0010ffff",
    "\ud800",
    "\udfff",
    "\udfff\ud800",
    "\ufeff",
    "\u200b",
]
assert len(set(HOSTILE)) == len(HOSTILE)

MARKERS = [
    "pwned",
    "__import__",
    "echo",
    "import os",
    "lambda",
    "__builtins__",
    "__class__",
    "__proto__",
    "constructor",
    "{%",
    "{{",
]


def esc(token: str) -> str:
    """RFC 6901 reference token."""
    return token.replace("~", "~0").replace("/", "~1")


def ecma_literal(text: str) -> str:
    """An ECMA-262 (u-mode) pattern matching `text` literally: only syntax characters escaped."""
    return "".join("\\" + c if c in "^$\\.*+?()[]{}|/" else c for c in text)


def anchored(text: str) -> str:
    return "^" + ecma_literal(text) + "$"


def ident(s: str) -> str:
    return ascii(s)[:40]


def near_key(s: str) -> str:
    for candidate in (s + "_", "_" + s, s + " ", s + "\x00", s + "x"):
        if candidate not in HOSTILE:
            return candidate
    raise AssertionError(s)  # pragma: no cover


def near_values(s: str) -> list[str]:
    """Strings that differ from s in a small way (none equal to s)."""
    found = [s + "x", "x" + s, s + "\n", "\n" + s, s + s + "!", s.upper() + "\u00e9"]
    if s:
        found.append(s[:-1])
    if s.swapcase() != s:
        found.append(s.swapcase())
    return [f for f in found if f != s]


def as_json_text(schema) -> str:
    """JSON text with \\uXXXX escapes, so lone surrogates travel as JSON allows."""
    return json.dumps(schema, ensure_ascii=True)


def test_hostile_strings_survive_json_text():
    for s in HOSTILE:
        assert json.loads(json.dumps(s, ensure_ascii=True)) == s


def for_each(values, check) -> None:
    """Run check(value) for every value; report every failing one (by ascii()) at the end."""
    failures = []
    for value in values:
        try:
            check(value)
        except (Exception, pytest.fail.Exception) as exc:  # noqa: BLE001 - reported below
            first = str(exc).splitlines()[0] if str(exc) else ""
            failures.append(f"{ascii(value)[:50]}: {type(exc).__name__}: {first[:200]}")
    assert not failures, f"{len(failures)} of {len(values)} failed:\n" + "\n".join(failures)


# -- module-scoped compiles -------------------------------------------------------------------

# Every hostile string is a property name; neighbours in HOSTILE (a-b, a_b, ab, ...) get different
# value types, so keys that collided in the emitted code would show. (Black formats each emitted
# function separately and slowly, so the number of distinct subschemas is kept small.)
VALUE_TYPES = [
    ("string", "s", 5),
    ("integer", 5, "5"),
    ("null", None, False),
    ("boolean", True, 0),
    ("array", [], {}),
    ("object", {}, []),
]  # (type, a valid value, a wrong value)


def value_type(i: int):
    return VALUE_TYPES[i % len(VALUE_TYPES)]


OBJ_SCHEMA = {
    "type": "object",
    "properties": {s: {"type": value_type(i)[0]} for i, s in enumerate(HOSTILE)},
    "required": list(HOSTILE),
    "additionalProperties": False,
}

RAW_PATTERNS = [
    # (ECMA pattern, strings it must match, strings it must not match)
    (
        "__import__('os').system('echo pwned')",
        ["__import__'os'Xsystem'echo pwned'", "x__import__'os'.system'echo pwned'y"],
        ["__import__('os').system('echo pwned')", "pwned"],
    ),
    ("'\"", ["x'\"y", "'\""], ["\"'", "'", '"']),
    ('"""', ['a"""', '""""'], ['""', "'''"]),
    ('"\\); import os; #', ['"); import os; #'], ['" import os; #', '"); import os;']),
    ("a\nb", ["xa\nbx"], ["ab", "a\\nb"]),
    ("^\u2028$", ["\u2028"], ["\u2029", "\n", "\u2028\n"]),
    ("^.$", ["x", "\U0001f600", "\x00", "\ud800"], ["\n", "\r", "\u2028", "\u2029", "xx"]),
    ("a\x00b", ["a\x00b"], ["ab", "a0b", "a\\x00b"]),
    ("^\\\\$", ["\\"], ["\\\\", ""]),
    ("^\\{\\}$", ["{}"], ["{", "}", "{ }"]),
    ("^\ud800$", ["\ud800"], ["\udfff", "\ud800\udfff", ""]),
    ("^\\u{1F600}$", ["\U0001f600"], ["\ud83d\ude00", "x"]),
    ("^(class|def|lambda|None)$", ["class", "None"], ["klass", "none", "class "]),
]

# One subschema per string only for a representative subset; all of HOSTILE goes through a list
# const, an object const, one enum and one alternation pattern.
SUBSET = [
    "",
    "'\"",
    '"""',
    "\\",
    "{}",
    "\n",
    "\r",
    "\u2028",
    "\u2029",
    "\x00",
    "__import__('os').system('echo pwned')",
    '"); import os; #',
    "class",
    "x",
    "_v0",
    "__builtins__",
    "a/b",
    "m~n",
    "\U0001f600",
    "\ud800",
    "\udfff\ud800",
    "'''",
    "\\'",
    '\\"',
    "\n# comment\nimport os\n",
    "{{ x }}",
    "__class__",
    " ",
    "\t",
]
assert set(SUBSET) <= set(HOSTILE)

VALUES_SCHEMA = {
    "type": "object",
    "properties": {
        "c": {"type": "array", "prefixItems": [{"const": s} for s in SUBSET]},
        "p": {
            "type": "array",
            "prefixItems": [{"type": "string", "pattern": anchored(s)} for s in SUBSET],
        },
        # distinct subschemas under hostile names, so hostile pointers reach the docstrings
        "d": {
            "type": "object",
            "properties": {s: {"enum": [s]} for s in SUBSET},
            "additionalProperties": False,
        },
        "cl": {"const": list(HOSTILE)},
        "co": {"const": {s: s for s in HOSTILE}},
        "pa": {
            "type": "string",
            "pattern": "^(?:" + "|".join(ecma_literal(s) for s in HOSTILE) + ")$",
        },
        "e": {"enum": list(HOSTILE)},
        "a": {
            "type": "object",
            "properties": {"known": {}},
            "additionalProperties": {"type": "integer"},
        },
        "r": {"type": "array", "prefixItems": [{"pattern": p} for p, _, _ in RAW_PATTERNS]},
    },
}

COLLIDE_SCHEMA = {
    "type": "object",
    "properties": {
        "a-b": {"type": "integer"},
        "a_b": {"type": "string"},
        "ab": {"type": "boolean"},
        "a.b": {"type": "null"},
        "a b": {"type": "array"},
        "a/b": {"type": "object"},
        "a~1b": {"const": 1},
        "fi": {"const": "plain"},
        "\ufb01": {"const": "ligature"},
        "\u00c5": {"const": "nfc"},
        "\u212b": {"const": "angstrom"},
        "\U0001f600": {"const": "astral"},
        "\ud83d\ude00": {"const": "pair"},  # two code units (only possible in a dict schema)
    },
    "required": [
        "a-b",
        "a_b",
        "ab",
        "a.b",
        "a b",
        "a/b",
        "a~1b",
        "fi",
        "\ufb01",
        "\u00c5",
        "\u212b",
        "\U0001f600",
        "\ud83d\ude00",
    ],
    "additionalProperties": False,
}
COLLIDE_VALID = {
    "a-b": 1,
    "a_b": "s",
    "ab": True,
    "a.b": None,
    "a b": [],
    "a/b": {},
    "a~1b": 1,
    "fi": "plain",
    "\ufb01": "ligature",
    "\u00c5": "nfc",
    "\u212b": "angstrom",
    "\U0001f600": "astral",
    "\ud83d\ude00": "pair",
}


@pytest.fixture(scope="module")
def objmod():
    return compiled("hostile-object")


@pytest.fixture(scope="module")
def valmod():
    return compiled("hostile-values")


@pytest.fixture(scope="module")
def collidemod():
    return compiled("colliding-names")


def locations(errs) -> list[tuple[str, str]]:
    return [(e.instance_location, e.keyword_location) for e in errs]


def assert_valid(mod, instance):
    assert mod.is_valid(instance) is True
    assert mod.errors(instance) == []
    assert mod.validate(instance) is None


def assert_invalid(mod, instance, expected: list[tuple[str, str]] | None = None):
    assert mod.is_valid(instance) is False
    errs = mod.errors(instance)
    assert errs, "is_valid said no but errors() found nothing"
    for e in errs:
        assert isinstance(e, mod.ValidationError) and isinstance(e, ValueError)
    if expected is not None:
        assert sorted(locations(errs)) == sorted(expected)
    with pytest.raises(mod.ValidationError) as info:
        mod.validate(instance)
    assert (info.value.instance_location, info.value.keyword_location) == locations(errs)[0]
    return errs


# -- property names ---------------------------------------------------------------------------

OBJ_BASE = {s: value_type(i)[1] for i, s in enumerate(HOSTILE)}


def test_hostile_object_accepts_exact_keys(objmod):
    assert_valid(objmod, dict(OBJ_BASE))
    assert_invalid(objmod, {})
    assert_invalid(objmod, [])


def _check_hostile_property_value(objmod, s):
    i = HOSTILE.index(s)
    instance = dict(OBJ_BASE)
    instance[s] = value_type(i)[2]
    assert_invalid(objmod, instance, [("/" + esc(s), "/properties/" + esc(s) + "/type")])


def test_hostile_property_value(objmod):
    for_each(HOSTILE, lambda s: _check_hostile_property_value(objmod, s))


def _check_hostile_property_required(objmod, s):
    instance = dict(OBJ_BASE)
    del instance[s]
    errs = assert_invalid(objmod, instance, [("", "/required")])
    assert errs[0].message == json.dumps(s, ensure_ascii=False) + " is a required property"
    assert errs[0].params == {"missingProperty": s}


def test_hostile_property_required(objmod):
    for_each(HOSTILE, lambda s: _check_hostile_property_required(objmod, s))


def _check_hostile_property_additional(objmod, s):
    near = near_key(s)
    instance = dict(OBJ_BASE)
    instance[near] = s
    assert_invalid(objmod, instance, [("/" + esc(near), "/additionalProperties")])
    # a near-miss key in place of the real one: required and additionalProperties both fail
    instance = dict(OBJ_BASE)
    del instance[s]
    instance[near] = s
    assert_invalid(
        objmod, instance, [("", "/required"), ("/" + esc(near), "/additionalProperties")]
    )


def test_hostile_property_additional(objmod):
    for_each(HOSTILE, lambda s: _check_hostile_property_additional(objmod, s))


# -- const, enum and pattern values -----------------------------------------------------------

VAL_BASE = {
    "c": list(SUBSET),
    "p": list(SUBSET),
    "cl": list(HOSTILE),
    "co": {s: s for s in HOSTILE},
    "pa": "",
    "e": "",
    "a": {},
    "r": [],
}


def test_values_base_is_valid(valmod):
    assert_valid(valmod, VAL_BASE)


@pytest.mark.parametrize("i", range(len(SUBSET)), ids=[ident(s) for s in SUBSET])
def test_hostile_const(valmod, i):
    s = SUBSET[i]
    for bad in near_values(s) + [None, 0, [s], {s: s}]:
        instance = dict(VAL_BASE, c=list(SUBSET))
        instance["c"][i] = bad
        assert_invalid(valmod, instance, [(f"/c/{i}", f"/properties/c/prefixItems/{i}/const")])


@pytest.mark.parametrize("s", SUBSET, ids=ident)
def test_hostile_property_with_own_subschema(valmod, s):
    assert_valid(valmod, dict(VAL_BASE, d={s: s}))
    for bad in near_values(s):
        assert_invalid(
            valmod,
            dict(VAL_BASE, d={s: bad}),
            [("/d/" + esc(s), "/properties/d/properties/" + esc(s) + "/enum")],
        )
    assert_invalid(
        valmod,
        dict(VAL_BASE, d={near_key(s): s}),
        [("/d/" + esc(near_key(s)), "/properties/d/additionalProperties")],
    )


def test_hostile_pointers_reach_docstrings(valmod):
    docs = {
        ast.get_docstring(n, clean=False)
        for n in ast.walk(ast.parse(valmod.__source__))
        if isinstance(n, ast.FunctionDef)
    }
    for s in SUBSET:
        # (the fast path of these small subschemas is inlined into their parent: no docstring)
        assert f"Every error of the subschema at /properties/d/properties/{esc(s)}." in docs, ascii(
            s
        )


@pytest.mark.parametrize("i", range(len(SUBSET)), ids=[ident(s) for s in SUBSET])
def test_hostile_pattern(valmod, i):
    s = SUBSET[i]
    for bad in near_values(s):
        instance = dict(VAL_BASE, p=list(SUBSET))
        instance["p"][i] = bad
        assert_invalid(valmod, instance, [(f"/p/{i}", f"/properties/p/prefixItems/{i}/pattern")])


def _check_hostile_const_list_and_object(valmod, s):
    i = HOSTILE.index(s)
    for bad in near_values(s):
        items = list(HOSTILE)
        items[i] = bad
        assert_invalid(valmod, dict(VAL_BASE, cl=items), [("/cl", "/properties/cl/const")])
        obj = {k: k for k in HOSTILE}
        obj[s] = bad
        assert_invalid(valmod, dict(VAL_BASE, co=obj), [("/co", "/properties/co/const")])
    obj = {k: k for k in HOSTILE}
    del obj[s]
    obj[near_key(s)] = s
    assert_invalid(valmod, dict(VAL_BASE, co=obj), [("/co", "/properties/co/const")])


def test_hostile_const_list_and_object(valmod):
    for_each(HOSTILE, lambda s: _check_hostile_const_list_and_object(valmod, s))


def _check_hostile_alternation_pattern(valmod, s):
    assert_valid(valmod, dict(VAL_BASE, pa=s))
    for bad in near_values(s):
        if bad in HOSTILE:
            continue
        assert_invalid(valmod, dict(VAL_BASE, pa=bad), [("/pa", "/properties/pa/pattern")])


def test_hostile_alternation_pattern(valmod):
    for_each(HOSTILE, lambda s: _check_hostile_alternation_pattern(valmod, s))


def _check_hostile_enum(valmod, s):
    assert_valid(valmod, dict(VAL_BASE, e=s))
    for bad in near_values(s):
        if bad in HOSTILE:
            continue
        assert_invalid(valmod, dict(VAL_BASE, e=bad), [("/e", "/properties/e/enum")])


def test_hostile_enum(valmod):
    for_each(HOSTILE, lambda s: _check_hostile_enum(valmod, s))


def _check_hostile_additional_property_locations(valmod, s):
    # additional property names are escaped at run time (not known to the compiler)
    assert_valid(valmod, dict(VAL_BASE, a={s: 1, "known": "anything"}))
    assert_invalid(
        valmod,
        dict(VAL_BASE, a={s: "1", "known": 1}),
        [("/a/" + esc(s), "/properties/a/additionalProperties/type")],
    )


def test_hostile_additional_property_locations(valmod):
    for_each(HOSTILE, lambda s: _check_hostile_additional_property_locations(valmod, s))


@pytest.mark.parametrize("k", range(len(RAW_PATTERNS)), ids=[ident(p) for p, _, _ in RAW_PATTERNS])
def test_raw_hostile_patterns_are_regexes(valmod, k):
    _, good, bad = RAW_PATTERNS[k]
    for text in good:
        items = [None] * k + [text]
        assert_valid(valmod, dict(VAL_BASE, r=items))
    for text in bad:
        items = [None] * k + [text]
        assert_invalid(
            valmod, dict(VAL_BASE, r=items), [(f"/r/{k}", f"/properties/r/prefixItems/{k}/pattern")]
        )


# -- names that collide after naive sanitising ------------------------------------------------


def test_colliding_names_stay_distinct(collidemod):
    assert_valid(collidemod, COLLIDE_VALID)
    wrong = {
        "a-b": "s",
        "a_b": 1,
        "ab": None,
        "a.b": True,
        "a b": {},
        "a/b": [],
        "a~1b": 2,
        "fi": "ligature",
        "\ufb01": "plain",
        "\u00c5": "angstrom",
        "\u212b": "nfc",
        "\U0001f600": "pair",
        "\ud83d\ude00": "astral",
    }
    for key, value in wrong.items():
        instance = dict(COLLIDE_VALID)
        instance[key] = value
        keyword = "const" if "const" in COLLIDE_SCHEMA["properties"][key] else "type"
        assert_invalid(
            collidemod, instance, [("/" + esc(key), "/properties/" + esc(key) + "/" + keyword)]
        )
    # each name is required on its own
    for key in COLLIDE_VALID:
        instance = dict(COLLIDE_VALID)
        del instance[key]
        assert_invalid(collidemod, instance, [("", "/required")])


def test_pointer_escaping_rfc6901():
    mod = compile_module(
        {
            "type": "object",
            "properties": {
                "a/b": {"type": "integer"},
                "m~n": {"type": "integer"},
                "arr": {"items": {"properties": {"~/": {"type": "null"}}}},
            },
            "additionalProperties": {"type": "integer"},
        },
        profile="strict",
    )
    errs = mod.errors({"a/b": "x", "m~n": "x", "~1/": "x", "arr": [{}, {"~/": 0}]})
    assert sorted(locations(errs)) == sorted(
        [
            ("/a~1b", "/properties/a~1b/type"),
            ("/m~0n", "/properties/m~0n/type"),
            ("/~01~1", "/additionalProperties/type"),
            ("/arr/1/~0~1", "/properties/arr/items/properties/~0~1/type"),
        ]
    )
    assert mod.is_valid({"a/b": 1, "m~n": 2, "~1/": 3, "arr": [{"~/": None}]})


# -- the emitted source: ast allow-list and string provenance -----------------------------------

ALL_KEYWORDS_STRICT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:x",
    "title": "t",
    "description": "d",
    "default": {},
    "examples": [{}],
    "type": ["object", "null"],
    "properties": {
        "s": {
            "type": "string",
            "minLength": 1,
            "maxLength": 5,
            "pattern": "^a\\d+$",
            "format": "email",
        },
        "n": {
            "type": "integer",
            "minimum": -3,
            "maximum": 10**30,
            "exclusiveMinimum": 0.5,
            "exclusiveMaximum": Decimal("100000000000000000000.000001"),
            "multipleOf": 3,
        },
        "f": {"type": "number", "minimum": 0.1, "maximum": Decimal("0.30000000000000000001")},
        "arr": {
            "type": "array",
            "prefixItems": [{"type": "string"}, {"const": {"k": [1, 2.5, None]}}],
            "items": {"enum": [1, "x", None, True, [1], {"a": 1}, 2**70, 1.5]},
            "minItems": 1,
            "maxItems": 4,
            "uniqueItems": True,
        },
        "tuple": {"type": "array", "prefixItems": [{"type": "boolean"}], "items": False},
        "comb": {
            "oneOf": [{"type": "string"}, {"type": "number"}],
            "anyOf": [{"minimum": 1}, {"maxLength": 2}],
            "allOf": [{"not": {"const": 5}}, {"type": ["string", "integer"]}],
        },
        "no": False,
        "yes": True,
        "many": {
            "type": "object",
            "required": ["r1", "r2", "r3", "r4", "r5", "r6"],
            "properties": {f"r{i}": {} for i in range(1, 8)},
            "additionalProperties": False,
        },
    },
    "required": ["s", "n", "arr", "comb", "f1", "g1"],
    "additionalProperties": {"type": ["boolean", "string"], "enum": [True, "on"]},
}

OCTOSCRIPT_SCHEMA = {
    "title": "tool input",
    "type": "object",
    "properties": {
        "q": {"type": "string", "minLength": 1, "maxLength": 100, "enum": ["a", "b'\"", "c\n"]},
        "n": {"type": "integer", "minimum": 0, "maximum": 10},
        "x": {"type": "number", "minimum": -1.5, "maximum": 1e300},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 0, "maxItems": 3},
        "flag": {"type": "boolean"},
        "nothing": {"type": "null"},
        "__import__('os').system('echo pwned')": {"description": "hostile"},
    },
    "required": ["q", "__import__('os').system('echo pwned')"],
    "additionalProperties": False,
}

LENIENT_SCHEMA = {
    "type": "object",
    "properties": {
        "a": {"type": "string", "pattern": "(", "whatever": [1, {"__import__": "pwned"}]},
        '"); import os; #': {"type": ["integer", "null"], "required": ["x"]},
    },
    "required": ["a", "lambda"],
    "unknownKeyword": "__import__('os').system('echo pwned')",
}

# A pattern of each engine (generator/emit/patterns.py): a DFA and an NFA where re could take
# super-linear time, str tests (hostile literal text among them), and re.
PATTERN_ENGINES_SCHEMA = {
    "type": "object",
    "properties": {
        "dfa": {"type": "string", "pattern": r"^(a+)+$"},
        "nfa": {"type": "string", "pattern": r"(a|b)*a(a|b){14}c"},
        "prefix": {"type": "string", "pattern": r"^__import__\('os'\)"},
        "set": {
            "pattern": "^("
            + "|".join(['"""', "'''", r"\n", r"\\", r"\u{1F600}", r"\ud800", r"\{\{ x \}\}"])
            + ")$"
        },
        "run": {"type": "string", "pattern": r"^[A-Z]{2,3}$"},
        "re": {"type": "string", "pattern": r"^[a-f0-9]{64}$"},
    },
}
PATTERN_ENGINES_CASES = [  # (property, valid values, invalid values)
    ("dfa", ["a", "aaaa"], ["", "ab", "a" * 5000 + "!"]),
    ("nfa", ["a" + "b" * 14 + "c", "xa" + "ab" * 7 + "c"], ["a" * 14 + "c", "b" * 5000]),
    (
        "prefix",
        ["__import__('os')", "__import__('os').system"],
        ["__import__(os)", " __import__('os')"],
    ),
    (
        "set",
        ['"""', "'''", "\n", "\\", "\U0001f600", "\ud800", "{{ x }}"],
        ["", '""', "\\\\", "\ud83d\ude00", "\n\n"],
    ),
    ("run", ["AB", "XYZ"], ["A", "ABCD", "Ab", "\u00c4B", "A1"]),
    ("re", ["0" * 64, "af" * 32], ["A" * 64, "0" * 63, "0" * 65]),
]

# Every format, under hostile property names, beside a pattern (the checkers share `import re`).
FORMATS_SCHEMA = {
    "type": "object",
    "properties": {
        **{name: {"format": name} for name in __import__("generator.formats").formats.FORMATS},
        "__import__('os').system('echo pwned')": {
            "format": "__import__('os').system('echo pwned')"
        },
        '"""': {"format": "email", "pattern": "^a"},
    },
}
CONTENT_SCHEMA = {
    "type": "object",
    "properties": {
        "j": {"contentMediaType": "application/json"},
        "b": {"contentEncoding": "base64"},
        "'\"": {
            "contentMediaType": "application/json",
            "contentEncoding": "base64",
            "format": "ipv4",
        },
    },
}

SOURCE_CASES = {
    "hostile-object": (OBJ_SCHEMA, "strict"),
    "hostile-values": (VALUES_SCHEMA, "strict"),
    "colliding-names": (COLLIDE_SCHEMA, "strict"),
    "all-strict-keywords": (ALL_KEYWORDS_STRICT, "strict"),
    "octoscript": (OCTOSCRIPT_SCHEMA, "octoscript"),
    "lenient": (LENIENT_SCHEMA, "lenient"),
    "pattern-engines": (PATTERN_ENGINES_SCHEMA, "strict"),
    "true": (True, "strict"),
    "false": (False, "strict"),
    "annotation-root": (
        {
            "title": "__import__('os').system('echo pwned')",
            "description": '"""',
            "default": {"lambda": "pwned"},
        },
        "strict",
    ),
    # format and content assertion: the checkers' source is copied in (see _copied_checkers)
    "formats": (FORMATS_SCHEMA, "draft2020-12"),
    "content": (CONTENT_SCHEMA, "draft7"),
}
# The compile options of a case (format and content assertion).
CASE_OPTIONS = {
    "formats": {"format_assertion": True},
    "content": {"format_assertion": True, "content_assertion": True},
}


@lru_cache(maxsize=None)
def compiled(case: str):
    """The module for a case (hostile ones from JSON text, so lone surrogates come from JSON)."""
    schema, profile = SOURCE_CASES[case]
    if case.startswith("hostile"):
        return compile_module(as_json_text(schema), profile=profile)
    return compile_module(schema, profile=profile, **CASE_OPTIONS.get(case, {}))


def emitted(case: str) -> str:
    return compiled(case).__source__


def test_pattern_engines_module_works():
    mod = compiled("pattern-engines")
    source = emitted("pattern-engines")
    for engine in (
        "_dfa_search(x",
        "_nfa_search(x",
        '.startswith("__import__(',
        ".isupper()",
        "_re.compile(",
    ):
        assert engine in source, engine
    for name, good, bad in PATTERN_ENGINES_CASES:
        for value in good:
            assert_valid(mod, {name: value})
        for value in bad:
            assert_invalid(mod, {name: value}, [("/" + name, f"/properties/{name}/pattern")])


def test_all_strict_keywords_module_works():
    mod = compiled("all-strict-keywords")
    good = {
        "s": "a12",
        "n": 9,
        "arr": ["x", {"k": [1, 2.5, None]}, 2**70],
        "comb": "ab",
        "f1": True,
        "g1": "on",
        "tuple": [False],
        "many": {"r1": 1, "r2": 1, "r3": 1, "r4": 1, "r5": 1, "r6": 1},
        "f": 0.2,
    }
    assert_valid(mod, good)
    assert_valid(mod, None)
    assert_invalid(mod, dict(good, s="a1x"), [("/s", "/properties/s/pattern")])
    assert_invalid(mod, dict(good, n=10), [("/n", "/properties/n/multipleOf")])
    assert_valid(mod, dict(good, f=0.3))
    assert_invalid(mod, dict(good, f=0.31), [("/f", "/properties/f/maximum")])
    assert_invalid(mod, dict(good, many={"r1": 1}), [("/many", "/properties/many/required")] * 5)
    assert_invalid(
        mod,
        dict(good, many=dict(good["many"], r0=1)),
        [("/many/r0", "/properties/many/additionalProperties")],
    )
    assert_invalid(mod, dict(good, tuple=[True, 1]), [("/tuple/1", "/properties/tuple/items")])
    assert_invalid(mod, dict(good, g1="off"), [("/g1", "/additionalProperties/enum")])


@lru_cache(maxsize=None)
def _fixed_strings() -> frozenset[str]:
    """Strings the compiler itself writes: those of a module for `{}` (the template), those of the
    primitives and report functions it copies, those of the keyword units (the errors' message
    templates and parameter names), plus metadata."""
    found: set[str] = set()
    package = Path(generator.__file__).parent
    sources = [
        package / "primitives.py",
        package / "outputs.py",
        *sorted((package / "keywords").glob("*.py")),
    ]
    trees = [
        ast.parse(compile_source({}, profile="strict")),
        *(ast.parse(source.read_text(encoding="utf-8")) for source in sources),
        ast.parse(MATCHER_SOURCE.read_text(encoding="utf-8")),
        ast.parse(CHECKERS_PATH.read_text(encoding="utf-8")),
    ]
    for tree in trees:
        found |= {
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
    found |= set(generator.PROFILES) | {generator.__version__}
    found |= {"max_source_bytes", "max_depth", "max_properties", "max_enum_values"}
    found |= {"format_assertion", "formats", "unknown_formats", "content_assertion"}
    return frozenset(found)


# Error messages are made at run time from the keyword units' templates (compiler strings, see
# _fixed_strings) and the schema's values as parameters: no message text is composed at compile time.
FIXED_MESSAGES = {"/", ""}
_NUM = r"-?\d+(\.\d+)?([eE][-+]?\d+)?"
_DOC_PREFIXES = ("Fast path of the subschema at ", "Every error of the subschema at ")


def _schema_strings(value, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for v in value:
            _schema_strings(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            _schema_strings(v, out)
    return out


def _numbers(value, out: set) -> set:
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        out.add(Decimal(repr(value)) if isinstance(value, float) else Decimal(value))
    elif isinstance(value, list):
        for v in value:
            _numbers(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _numbers(v, out)
    return out


# The linear-time pattern matchers a module may copy in (generator/regex/matcher.py).
MATCHER_SOURCE = Path(generator.__file__).parent / "regex" / "matcher.py"


def _derived_strings(pattern: str) -> set[str]:
    """The strings the compiler makes of a pattern: the texts of its str tests, and its linear
    automaton's table (data derived from the pattern, never code)."""
    from generator.regex import plan_pattern
    from generator.regex.simple import LiteralTest, simple_tests

    found = {t.text for t in simple_tests(pattern) or () if isinstance(t, LiteralTest)}
    stack = [plan_pattern(pattern).table]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


def _patterns(value, out: list[str]) -> list[str]:
    if isinstance(value, list):
        for v in value:
            _patterns(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k == "pattern" and isinstance(v, str):
                out.append(v)
            _patterns(v, out)
    return out


class Provenance:
    def __init__(self, schema, profile: str) -> None:
        from generator.regex import translate

        self.schema_strings = _schema_strings(schema, set())
        self.tokens = {esc(s) for s in self.schema_strings}
        self.patterns = (
            set(_patterns(schema, []))
            if profile == "strict" or profile.startswith("draft")
            else set()
        )
        self.translations = {translate(p) for p in self.patterns}
        self.translations |= {text for p in self.patterns for text in _derived_strings(p)}
        self.fixed = _fixed_strings() | FIXED_MESSAGES
        self.numbers = _numbers(schema, set())
        self.defined: set[str] = (
            set()
        )  # the module's names: a type expression in a string names them

    def type_expression(self, text: str) -> bool:
        """A type written as a string (a forward reference, render/types.py) or a TypedDict's own
        name: names the module defines and typing's, strings that are themselves allowed."""
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            return False
        allowed_nodes = (
            ast.Expression,
            ast.Name,
            ast.Load,
            ast.Subscript,
            ast.BinOp,
            ast.BitOr,
            ast.Constant,
            ast.Tuple,
            ast.UnaryOp,
            ast.USub,
        )
        for node in ast.walk(tree):
            if not isinstance(node, allowed_nodes):
                return False
            if isinstance(node, ast.Name) and node.id not in self.defined | {
                "str",
                "int",
                "float",
                "bool",
                "list",
                "dict",
            }:
                return False
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and not self.allowed(node.value)
            ):
                return False
        return True

    def pointer(self, text: str) -> bool:
        if text == "":
            return True
        if not text.startswith("/"):
            return False
        return all(
            t.isdigit() or t in self.tokens or t in PROFILES["strict"].enforced
            for t in text[1:].split("/")
        )

    def allowed(self, text: str) -> bool:
        if text in self.fixed or text in self.schema_strings or text in self.translations:
            return True
        if self.pointer(text):
            return True
        for prefix in _DOC_PREFIXES:
            if text.startswith(prefix) and text.endswith("."):
                middle = text[len(prefix) : -1]
                if middle == "the root" or self.pointer(middle):
                    return True
        if re.fullmatch(r"[0-9a-f]{64}", text):  # the source-sha256 in STRAIGHTLINE
            return True
        if (
            re.fullmatch(_NUM, text) and Decimal(text) in self.numbers
        ):  # _Decimal('0.1...') of a bound
            return True
        return bool(self.defined) and self.type_expression(text)

    @staticmethod
    def _quoted(text: str, allowed: set[str]) -> bool:
        """`text` is the repr of one of the `allowed` strings."""
        try:
            return ast.literal_eval(text) in allowed
        except (ValueError, SyntaxError):
            return False


def _strings(tree: ast.AST) -> list[str]:
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


ALLOWED_NODES = {
    ast.Module,
    ast.Expr,
    ast.Constant,
    ast.Import,
    ast.ImportFrom,
    ast.alias,
    ast.Assign,
    ast.AugAssign,
    ast.Name,
    ast.Load,
    ast.Store,
    ast.Call,
    ast.keyword,
    ast.Attribute,
    ast.ClassDef,
    ast.FunctionDef,
    ast.arguments,
    ast.arg,
    ast.Return,
    ast.If,
    ast.IfExp,
    ast.For,
    ast.While,
    ast.Break,
    ast.Continue,
    ast.Pass,
    ast.Compare,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.Is,
    ast.IsNot,
    ast.In,
    ast.NotIn,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.UAdd,
    ast.BinOp,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.Mod,
    ast.FloorDiv,
    ast.Subscript,
    ast.Slice,
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.Try,
    ast.ExceptHandler,
    ast.Raise,
    ast.Starred,
    # type annotations (the generated modules pass mypy --strict): `x: Any`, `str | None`
    ast.AnnAssign,
    ast.BitOr,
}
ALLOWED_BUILTINS = {
    "type",
    "len",
    "str",
    "repr",
    "range",
    "isinstance",
    "int",
    "float",
    "bool",
    "dict",
    "list",
    "tuple",
    "set",
    "frozenset",
    "object",
    "super",
    "ValueError",
    "Exception",
    "zip",
    "abs",
    "min",
    "max",
    "any",
    "all",
    "sorted",
    "enumerate",
    "map",
    "RecursionError",
    "id",  # _json_equal: a pair of containers is compared once
    "ord",  # the pattern matchers: a character's class
}
BANNED_CALLS = {
    "eval",
    "exec",
    "compile",
    "__import__",
    "getattr",
    "setattr",
    "delattr",
    "open",
    "globals",
    "locals",
    "vars",
    "input",
    "breakpoint",
    "print",
    "help",
    "exit",
    "quit",
}
ALLOWED_IMPORTS = {"re"}
ALLOWED_FROM_IMPORTS = {
    "decimal": {"Decimal", "Context", "MAX_PREC"},
    "bisect": {"bisect_right"},  # the matchers: a class of a non-ASCII character
    # the static types (render/types.py) and is_valid's TypeGuard
    "typing": {
        "Any",
        "Literal",
        "NoReturn",
        "TYPE_CHECKING",
        "TypeAlias",
        "TypeGuard",
        "TypedDict",
        # is_valid bound to the root function (cast), Final constants
        "Callable",
        "cast",
        "Final",
    },
}
# Operators only the fixed preamble uses, and only where: `_BIG = 10**4000` at module level, and
# _big_decimal's halving of an int's bits.
# The NFA matcher runs sets of states as int bit masks.
SCOPED_NODES = {
    ast.Pow: {()},
    ast.RShift: {("_big_decimal",), ("_nfa_search",)},
    ast.LShift: {("_big_decimal",), ("_nfa_search",)},
    ast.BitAnd: {("_nfa_search",)},
}
# The fixed preamble: the only places that may touch dunder attributes / use try / raise.
DUNDER_OK_IN = {
    ("ValidationError", "__init__"),
    ("ValidationError", "__repr__"),
    ("_short",),
    ("_show",),
    ("_show_into",),
    ("_number_text",),
    ("_plain",),
}
# try is allowed only in fixed functions of the preamble and the API, catching only these:
TRY_OK_IN = {
    ("_short",): {"Exception"},
    ("_show",): {"Exception"},
    ("is_valid",): {"RecursionError"},
    ("errors",): {"RecursionError"},
    ("validate",): {"RecursionError"},
}
RAISE_OK_IN = {("validate",), ("_output",)}  # (_output: an unknown output format is a ValueError)


def _walk_with_scope(node: ast.AST, scope: tuple[str, ...] = ()):
    yield node, scope
    inner = scope + (node.name,) if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else scope
    for child in ast.iter_child_nodes(node):
        yield from _walk_with_scope(child, inner)


def _typed_dict_class(node: ast.ClassDef, scope: tuple[str, ...]) -> bool:
    """The one other class a module may define: a TypedDict with required and optional keys,
    `class Name(_NameRequired, _NameOptional): pass` at module level (render/types.py)."""
    bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
    return (
        not scope
        and not node.keywords
        and bases == [f"_{node.name}Required", f"_{node.name}Optional"]
        and len(node.body) == 1
        and isinstance(node.body[0], ast.Pass)
    )


def ast_violations(source: str, also_defined: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every construct of `source` outside the allow-list. `also_defined`: names defined by the
    verbatim checker copies taken out of it (see _copied_checkers); their imports are allowed."""
    tree = ast.parse(source)
    problems: list[str] = []
    defined = set(also_defined)
    imports = ALLOWED_IMPORTS | (CHECKER_IMPORTS if also_defined else set())
    from_imports = {**ALLOWED_FROM_IMPORTS, **(CHECKER_FROM_IMPORTS if also_defined else {})}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.alias):
            defined.add(node.asname or node.name)
    for node, scope in _walk_with_scope(tree):
        where = ".".join(scope) or "<module>"
        line = getattr(node, "lineno", "?")
        if type(node) in SCOPED_NODES and scope in SCOPED_NODES[type(node)]:
            pass
        elif type(node) not in ALLOWED_NODES:
            problems.append(f"{where}:{line}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Import):
            if scope or any(a.name not in imports for a in node.names):
                problems.append(f"{where}:{line}: import {[a.name for a in node.names]}")
        if isinstance(node, ast.ImportFrom):
            allowed = from_imports.get(node.module or "", set())
            if scope or node.level or any(a.name not in allowed for a in node.names):
                problems.append(
                    f"{where}:{line}: from {node.module} import {[a.name for a in node.names]}"
                )
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in BANNED_CALLS
        ):
            problems.append(f"{where}:{line}: call to {node.func.id}")
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("__")
            and scope not in DUNDER_OK_IN
        ):
            problems.append(f"{where}:{line}: dunder attribute {node.attr}")
        if isinstance(node, ast.Name):
            if node.id.startswith("__") and node.id != "__all__":
                problems.append(f"{where}:{line}: dunder name {node.id}")
            if (
                isinstance(node.ctx, ast.Load)
                and node.id not in defined
                and node.id not in ALLOWED_BUILTINS
            ):
                problems.append(
                    f"{where}:{line}: name {node.id} is neither defined nor an allowed builtin"
                )
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", node.id):
                problems.append(f"{where}:{line}: odd identifier {node.id!r}")
        if isinstance(node, (ast.Try, ast.ExceptHandler)) and scope not in TRY_OK_IN:
            problems.append(f"{where}:{line}: try outside _short and the fixed API functions")
        if isinstance(node, ast.ExceptHandler) and scope in TRY_OK_IN:
            caught = (
                node.type.id
                if isinstance(node.type, ast.Name)
                else ast.dump(node.type) if node.type else None
            )
            if caught not in TRY_OK_IN[scope]:
                problems.append(f"{where}:{line}: except {caught} in {where}")
        if isinstance(node, ast.Raise) and scope not in RAISE_OK_IN:
            problems.append(f"{where}:{line}: raise outside validate")
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            if node.decorator_list:
                problems.append(f"{where}:{line}: decorator")
            if (
                isinstance(node, ast.ClassDef)
                and (node.name != "ValidationError" or scope)
                and not _typed_dict_class(node, scope)
            ):
                problems.append(f"{where}:{line}: class {node.name}")
            if isinstance(node, ast.FunctionDef) and node.args.defaults:
                for default in node.args.defaults:
                    if not isinstance(default, ast.Constant):
                        problems.append(f"{where}:{line}: non-constant default")
    return problems


def test_ast_checker_catches_forbidden_constructs():
    """The checker itself must fail on the constructs it is meant to refuse."""
    bad = {
        "import os": "import",
        "from os import system": "from os",
        "f = lambda: 1": "Lambda",
        "def f():\n    global g\n": "Global",
        "def f():\n    with x: pass\n": "With",
        "def f():\n    try:\n        pass\n    except Exception:\n        pass\n": "try outside",
        "eval('1')": "call to eval",
        "__import__('os')": "call to __import__",
        "getattr(int, 'x')": "call to getattr",
        "x = ().__class__": "dunder attribute",
        "x = __builtins__": "dunder name",
        "x = f'{1}'": "JoinedStr",
        "x = [y for y in ()]": "ListComp",
        "x = undefined_name": "neither defined",
        "x = (y := 1)": "NamedExpr",
    }
    for source, expected in bad.items():
        found = ast_violations(source)
        assert any(expected in p for p in found), (source, found)


@pytest.mark.parametrize("case", list(SOURCE_CASES))
def test_emitted_ast_allow_list(case):
    source, copied = _copied_checkers(emitted(case))
    assert bool(copied) == (case in CASE_OPTIONS), copied
    problems = ast_violations(source, also_defined=set(copied))
    assert not problems, "\n".join(problems[:30])


CHECKERS_PATH = Path(generator.__file__).parent / "formats" / "checkers.py"
# The standard-library imports the copied checkers use (the module's imports are held to these).
CHECKER_IMPORTS = {"re", "unicodedata", "binascii", "json"}
CHECKER_FROM_IMPORTS = {"bisect": {"bisect_right"}}
_CHECKER_PREFIXES = ("_format_", "_content_", "_fmt_", "_FMT_")


@lru_cache(maxsize=None)
def _checker_definitions() -> frozenset[str]:
    """ast.dump of every top-level definition of generator/formats/checkers.py (a copy laid out
    by black has the same tree)."""
    tree = ast.parse(CHECKERS_PATH.read_text(encoding="utf-8"))
    return frozenset(
        ast.dump(node)
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.Assign, ast.AnnAssign))
    )


def _defined_names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef):
        return [node.name]
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target] if isinstance(node, ast.AnnAssign) else []
    )
    return [t.id for t in targets if isinstance(t, ast.Name)]


def _copied_checkers(source: str) -> tuple[str, list[str]]:
    """The module without the format and content checkers copied from checkers.py, and their
    names. Every top-level definition whose name is a checker's must be such a verbatim copy."""
    tree = ast.parse(source)
    kept, copied = [], []
    for node in tree.body:
        names = _defined_names(node)
        if ast.dump(node) in _checker_definitions():
            copied += names
            continue
        assert not any(
            n.startswith(_CHECKER_PREFIXES) for n in names
        ), f"not a verbatim checker: {names}"
        kept.append(node)
    tree.body = kept
    return ast.unparse(tree), copied


def test_copied_checkers_are_recognised_only_verbatim():
    """The check above is not vacuous: an altered checker is refused, an unaltered one recognised."""
    source = emitted("formats")
    assert "def _format_ipv4(s: str) -> bool:" in source
    _, copied = _copied_checkers(source)
    assert "_format_ipv4" in copied and "_format_email" in copied
    altered = source.replace(
        "def _format_ipv4(s: str) -> bool:",
        "def _format_ipv4(s: str) -> bool:\n    __import__('os')",
    )
    with pytest.raises(AssertionError, match="not a verbatim checker"):
        _copied_checkers(altered)


def test_provenance_checker_rejects_foreign_strings():
    provenance = Provenance({"properties": {"a/b": {"pattern": "^x"}}}, "strict")
    assert provenance.allowed("a/b") and provenance.allowed("/properties/a~1b")
    assert provenance.allowed("Fast path of the subschema at /properties/a~1b.")
    assert provenance.allowed("^x") and provenance.allowed(
        "{instance} does not match the pattern {pattern}"
    )
    for foreign in [
        "import os",
        "pwned",
        "/properties/c",
        "Fast path of the subschema at /zz.",
        " does not match '^y'",
        "a/b; import os",
        "{instance} is not of type 'os'",
        "^y",
    ]:
        assert not provenance.allowed(foreign), foreign
    provenance.defined = {"Node", "Literal"}  # a type in a string may name the module's names only
    assert provenance.allowed("Node") and provenance.allowed("list[Node] | Literal['a/b'] | None")
    for foreign in [
        "Other",
        "Node.__class__",
        "Literal['pwned']",
        "__import__('os')",
        "[x for x in Node]",
    ]:
        assert not provenance.allowed(foreign), foreign


@pytest.mark.parametrize("case", list(SOURCE_CASES))
def test_emitted_strings_come_from_schema_or_compiler(case):
    schema, profile = SOURCE_CASES[case]
    source = emitted(case)
    provenance = Provenance(schema, profile)
    tree = ast.parse(source)
    provenance.defined = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    provenance.defined |= {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
    }
    unknown = sorted({s for s in _strings(ast.parse(source)) if not provenance.allowed(s)})
    assert not unknown, "string constants of unknown origin:\n" + "\n".join(
        ascii(s)[:160] for s in unknown[:30]
    )


def _code_without_literals(source: str) -> tuple[str, list[str]]:
    code, comments = [], []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING:
            code.append('""')
        elif token.type == tokenize.COMMENT:
            comments.append(token.string)
        else:
            code.append(token.string)
    return " ".join(code), comments


@pytest.mark.parametrize("case", list(SOURCE_CASES))
def test_no_schema_text_outside_string_literals(case):
    source = emitted(case)
    assert source.isascii(), "emitted source must be ASCII (literals escaped with ascii())"
    assert "\r" not in source and "\x00" not in source and "\x0c" not in source
    code, comments = _code_without_literals(source)
    for marker in MARKERS:
        assert marker not in code, f"{marker!r} outside a string literal"
    # (the copied primitives and report functions keep their comments)
    primitives_text = "".join(
        Path(generator.__file__).with_name(name).read_text(encoding="utf-8")
        for name in ("primitives.py", "outputs.py")
    )
    primitives_text += MATCHER_SOURCE.read_text(encoding="utf-8")
    if case in CASE_OPTIONS:  # the copied checkers' own comments
        primitives_text += CHECKERS_PATH.read_text(encoding="utf-8")
    header = (
        "# Generated by straightline ",
        "# straightline-version: ",
        "# profile: ",
        "# options: ",
        "# source-sha256: ",
        "# requested-profile: ",
        "# base-uri: ",
        "# registry-document: ",
        "# module-sha256: ",
    )
    from generator.emit.tree import COMMENTS
    from generator.pipeline import TABLES

    notes = {"# " + note for note in TABLES.type_notes.values()}  # why a type is Any
    notes |= {"# " + note for note in COMMENTS.values()}  # how a pattern is run
    for comment in comments:
        assert (
            comment.startswith(header) or comment in primitives_text or comment in notes
        ), f"unexpected comment {comment!r}"
        for marker in MARKERS:
            assert marker not in comment
    # the source still parses to the same module once literals are gone (no code hides in them)
    ast.parse(source)


def test_markers_do_reach_the_emitted_literals():
    """The literal-stripping test above is meaningful: the hostile text is in the source, as data."""
    source = emitted("hostile-object")
    strings = set(_strings(ast.parse(source)))
    assert "__import__('os').system('echo pwned')" in strings
    assert "\ud800" in strings and "\n# comment\nimport os\n" in strings
    assert "pwned" in source


# -- Infinity and NaN never enter a schema ------------------------------------------------------

INF = float("inf")
NAN = float("nan")
NON_FINITE_STRICT = [
    {"minimum": INF},
    {"maximum": -INF},
    {"exclusiveMinimum": NAN},
    {"multipleOf": INF},
    {"enum": [1, INF]},
    {"enum": [NAN]},
    {"enum": [[1, {"a": -INF}]]},
    {"const": INF},
    {"const": {"a": [NAN]}},
    {"properties": {"a": {"maximum": Decimal("Infinity")}}},
    {"items": {"minimum": Decimal("NaN")}},
    {"default": INF},
    {"examples": [NAN]},
]


@pytest.mark.parametrize("schema", NON_FINITE_STRICT, ids=repr)
def test_non_finite_numbers_rejected_strict(schema):
    with pytest.raises(SchemaError):
        compile_source(schema, profile="strict")


@pytest.mark.parametrize("profile", ["octoscript", "lenient"])
@pytest.mark.parametrize(
    "schema",
    [
        {"minimum": INF},
        {"enum": [INF]},
        {"enum": ["a", NAN]},
        {"properties": {"a": {"type": "number", "maximum": -INF}}},
    ],
    ids=repr,
)
def test_non_finite_numbers_rejected_other_profiles(schema, profile):
    with pytest.raises(SchemaError):
        compile_source(schema, profile=profile)


def test_non_finite_pointer():
    with pytest.raises(SchemaError) as info:
        compile_source({"properties": {"a/b": {"minimum": INF}}}, profile="strict")
    assert info.value.pointer == "/properties/a~1b/minimum"


@pytest.mark.parametrize(
    "text", ['{"minimum": Infinity}', '{"enum": [NaN]}', '{"const": -Infinity}']
)
@pytest.mark.parametrize("profile", ["strict", "octoscript", "lenient"])
def test_non_finite_json_text_rejected(text, profile):
    with pytest.raises(SchemaError) as info:
        compile_source(text, profile=profile)
    assert info.value.code == "bad-json"


# -- annotation-only subschemas in every position ---------------------------------------------

ANNOTATIONS = {
    "empty": {},
    "title": {"title": "t"},
    "default": {"default": {"a": [1, None]}},
    "all": {
        "title": "t",
        "description": '""" __import__(\'os\') """',
        "default": 5,
        "examples": [1, "x", None],
        "format": "email",
        "$id": "urn:a",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
    },
}


def positions(a):
    return {
        "properties": {"type": "object", "properties": {"a": a}, "required": ["a"]},
        "items": {"type": "array", "items": a, "minItems": 1},
        "prefixItems": {"type": "array", "prefixItems": [a, {"type": "integer"}]},
        "allOf-mixed": {"allOf": [a, {"type": "string"}]},
        "allOf-only": {"allOf": [a, a]},
        "not": {"not": a},
        "anyOf-first": {"anyOf": [a, {"type": "string"}]},
        "anyOf-last": {"anyOf": [{"type": "string"}, a]},
        "oneOf": {"oneOf": [a, {"type": "string"}]},
        "additionalProperties": {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "additionalProperties": a,
        },
    }


POSITION_CASES = {
    # position: (valid instances, [(invalid instance, instance_location suffix, keyword_location suffix)])
    "properties": (
        [{"a": 1}, {"a": None}, {"a": {"x": [1]}}, {"a": "s", "b": 2}],
        [({}, "", "/required"), (5, "", "/type")],
    ),
    "items": ([[1], ["x", None, {}], [[]]], [([], "", "/minItems"), ("s", "", "/type")]),
    "prefixItems": (
        [["x", 1], [None], [{}, 2, "more"]],
        [(["x", "y"], "/1", "/prefixItems/1/type")],
    ),
    "allOf-mixed": (["s", ""], [(1, "", "/allOf/1/type"), (None, "", "/allOf/1/type")]),
    "allOf-only": ([1, "s", None, {}, []], []),
    "not": ([], [(1, "", "/not"), ("s", "", "/not"), (None, "", "/not"), ({}, "", "/not")]),
    "anyOf-first": ([1, "s", None, []], []),
    "anyOf-last": ([1, "s", None, []], []),
    "oneOf": ([1, None, {}], [("s", "", "/oneOf")]),
    "additionalProperties": (
        [{"a": 1, "b": "x", "c": None}, {}],
        [({"a": "x", "b": 1}, "/a", "/properties/a/type")],
    ),
}


@lru_cache(maxsize=None)
def annotation_module(variant: str):
    wrapper = {"type": "object", "properties": positions(ANNOTATIONS[variant])}
    return compile_module(wrapper, profile="strict")


@pytest.mark.parametrize("position", list(POSITION_CASES))
@pytest.mark.parametrize("variant", list(ANNOTATIONS))
def test_annotation_only_subschema(variant, position):
    mod = annotation_module(variant)
    good, bad = POSITION_CASES[position]
    for instance in good:
        assert_valid(mod, {position: instance})
    for instance, at, keyword in bad:
        errs = assert_invalid(mod, {position: instance})
        assert ("/" + position + at, "/properties/" + position + keyword) in locations(errs)


def test_annotation_only_subschema_octoscript():
    a = {"title": "t", "description": "d", "default": 1, "examples": [2]}
    mod = compile_module(
        {
            "type": "object",
            "properties": {
                "p": {"type": "object", "properties": {"a": a}, "required": ["a"]},
                "i": {"type": "array", "items": a, "minItems": 1},
            },
        },
        profile="octoscript",
    )
    assert_valid(mod, {"p": {"a": [1]}, "i": [None, "x"]})
    assert_invalid(mod, {"p": {}}, [("/p", "/properties/p/required")])
    assert_invalid(mod, {"i": []}, [("/i", "/properties/i/minItems")])


def test_comment_is_refused_by_the_fail_closed_subsets_and_accepted_elsewhere():
    """The issue and seeds 000/003 list the annotations octoscript and strict accept, without
    $comment (README deviation 6); the lenient matcher and the drafts accept it."""
    import generator

    for profile in ("octoscript", "strict"):
        with pytest.raises(generator.SchemaError) as raised:
            compile_module(
                {"type": "object", "properties": {"a": {"$comment": "c"}}}, profile=profile
            )
        assert (raised.value.code, raised.value.pointer) == (
            "keyword-not-in-profile",
            "/properties/a/$comment",
        )
    a = {"$comment": "a comment"}
    for profile in ("lenient", "draft2020-12"):
        mod = compile_module(
            {
                "$comment": "root",
                "type": "object",
                "properties": {"a": a, "n": {"not": a}, "i": {"items": a}},
            },
            profile=profile,
        )
        assert_valid(mod, {"a": 1, "i": [1, "x"]})
    mod = compile_module(
        {"$comment": "root", "properties": {"n": {"not": a}}}, profile="draft2020-12"
    )
    assert_invalid(mod, {"n": 1}, [("/n", "/properties/n/not")])


def test_annotation_only_root_accepts_everything():
    mod = compile_module({"title": "t", "description": "d"}, profile="strict")
    for instance in [None, 1, "x", [], {}, {"a": [1]}]:
        assert_valid(mod, instance)


# -- bad regexes --------------------------------------------------------------------------------

BAD_PATTERNS = [
    "(",
    ")",
    "[",
    "*",
    "a**",
    "+a",
    "\\",
    "(?P<n>a)",
    "a{2,1}",
    "[z-a]",
    "(?<=a+)b",
    "\\p{Script=Greek}",
    "(?i:a)",
    "\\k<nope>",
    "(?<n>a)(?<n>b)",
    "x{",
    "\\u{110000}",
    "(?<=(a)\\1)b",
    "\\c",
    "[\\d-z]",
]


@pytest.mark.parametrize("pattern", BAD_PATTERNS, ids=ascii)
def test_bad_regex_is_schema_error(pattern):
    with pytest.raises(SchemaError) as info:
        compile_source({"pattern": pattern}, profile="strict")
    assert not isinstance(info.value, re.error)
    assert info.value.code == "bad-regex"
    assert info.value.pointer == "/pattern"


def test_bad_regex_pointer_nested():
    with pytest.raises(SchemaError) as info:
        compile_module(
            {"properties": {"a/b": {"items": {"anyOf": [{}, {"pattern": "("}]}}}}, profile="strict"
        )
    assert info.value.code == "bad-regex"
    assert info.value.pointer == "/properties/a~1b/items/anyOf/1/pattern"


def test_bad_regex_as_json_text():
    with pytest.raises(SchemaError) as info:
        compile_source('{"type": "string", "pattern": "("}', profile="strict")
    assert (info.value.code, info.value.pointer) == ("bad-regex", "/pattern")


def test_bad_regex_ignored_by_lenient_and_refused_by_octoscript():
    mod = compile_module({"pattern": "(", "type": "string"}, profile="lenient")
    assert mod.is_valid("((") and not mod.is_valid(1)
    with pytest.raises(SchemaError) as info:
        compile_source({"pattern": "("}, profile="octoscript")
    assert (info.value.code, info.value.pointer) == ("keyword-not-in-profile", "/pattern")


def test_infinite_numbers_do_not_leak_into_source_as_names():
    # huge but finite numbers stay exact literals, never `inf`
    source = compile_source(
        {"maximum": Decimal("1e400"), "minimum": -(10**400), "enum": [1e308, 2**80]},
        profile="strict",
    )
    code, _ = _code_without_literals(source)
    assert not re.search(r"\b(inf|nan|Infinity|NaN)\b", code)
    mod = compile_module({"maximum": Decimal("1e400"), "minimum": -(10**400)}, profile="strict")
    assert mod.is_valid(10**399) and not mod.is_valid(10**401) and not mod.is_valid(-(10**401))
    assert not mod.is_valid(INF) and not mod.is_valid(-INF) and not mod.is_valid(NAN)
    assert math.isfinite(1e308)


def test_subclass_values_cannot_write_code() -> None:
    """A schema given as Python objects may hold str/int/float/Decimal subclasses whose __repr__
    or __str__ return code: literal() reads them through the base type, so the module is the
    one the plain values give."""
    from decimal import Decimal

    class S(str):
        def __repr__(self) -> str:
            return '__import__("os").system("x")'

        def __str__(self) -> str:
            return "pwned"

    class Int(int):
        def __repr__(self) -> str:
            return "pwned()"

    class F(float):
        def __repr__(self) -> str:
            return "pwned()"

    class D(Decimal):
        def __str__(self) -> str:
            return "pwned"

    def schema(s: type, i: type, f: type, d: type) -> dict[str, Any]:
        return {
            "properties": {
                s("a"): {"const": s("zz"), "enum": [s("zz"), i(3), f(1.5), d("0.25")]},
                s("b"): {"maximum": i(7), "minimum": d("0.5"), "multipleOf": f(0.5)},
            },
            "required": [s("a")],
        }

    plain = generator.compile_source(
        schema(str, int, float, Decimal), profile="draft2020-12", format=False
    )
    hostile = generator.compile_source(schema(S, Int, F, D), profile="draft2020-12", format=False)
    assert hostile == plain
    assert "pwned" not in hostile and "system" not in hostile


def test_join_separator_is_text_not_a_format() -> None:
    from generator.codegen import Code, join

    assert join(" {} ", [Code("a"), Code("b")]).text == "a {} b"
    assert join(" or ", [Code("x is None"), Code("{0}")]).text == "x is None or {0}"


def test_the_escaping_function_refuses_what_is_not_json() -> None:
    """literal() writes JSON values only: what a schema could hold beside them (the loaders refuse
    these first) is an error there, never text of its own in the module."""
    from generator.codegen import literal

    for bad in (math.inf, -math.inf, math.nan, Decimal("Infinity"), Decimal("NaN")):
        with pytest.raises(ValueError, match="non-finite numbers are not JSON"):
            literal(bad)
    with pytest.raises(ValueError, match="object keys must be strings"):
        literal({1: "one"})
    for bad in (object(), b"bytes", {"a"}):
        with pytest.raises(TypeError, match="not a JSON value"):
            literal(bad)


def test_code_holds_text_only_and_code_takes_code_parts_only() -> None:
    from generator.codegen import Code, code, comment

    assert str(Code("x < 3")) == "x < 3"
    with pytest.raises(TypeError, match="Code wraps text"):
        Code(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="code\\(\\) takes Code parts only, not str"):
        code("if {}:", "__import__('os')")  # type: ignore[arg-type]
    assert comment("made by straightline").text == "# made by straightline"
    for bad in ("two\nlines", "a\u2028b", "caf\u00e9"):
        with pytest.raises(ValueError, match="comment text must be one ASCII line"):
            comment(bad)


def test_integers_too_long_for_decimal_text_are_written_in_hex() -> None:
    """Python refuses int literals of over 4,300 digits: a const or enum member of 4,001 digits
    and more is written in hexadecimal, and still matches exactly."""
    huge = 10**4100 + 7
    module = compile_module({"enum": [huge, -huge]}, profile="draft2020-12")
    assert module.is_valid(huge) and module.is_valid(-huge)
    assert not module.is_valid(huge - 1) and not module.is_valid(-huge + 1)
    assert "0x" + format(huge, "X") in module.__source__
