"""Hypothesis strategies: schemas within each profile, and instances aimed at them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

import generator

NAMES = st.sampled_from(["a", "b", "c", "a/b", "m~n", "", "ключ", "x y"])
TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"]
# Valid ECMA-262 patterns with behaviour that differs from a naive Python reading.
PATTERNS = [
    "^a",
    "b$",
    "^[a-c]*$",
    "\\d",
    "^\\w+$",
    "^(?!x)",
    "a|b",
    "^.{2,3}$",
    "\\s",
    "^$",
    "[^a]",
    # run by a linear automaton (re could take super-linear time), as str tests, and
    # printable ASCII first (FHIR's uri and code)
    "^(a|aa)+$",
    "(a|a)*b",
    "^\\d+$",
    "^(a|abc|x)$",
    "^[a-z]{1,2}$",
    "^\\S*$",
    "^[^\\s]+(\\s[^\\s]+)*$",
]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 2**53 + 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, 0.1, 0.3, 1e30, 5.0]),
    st.sampled_from(
        [Decimal("0.1"), Decimal("0.30000000000000000001"), Decimal("2.0"), Decimal("1E+30")]
    ),
    st.text(alphabet="abcx1 \n\u0661é", max_size=4),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(NAMES, inner, max_size=4),
    ),
    max_leaves=8,
)
NUMBERS = st.one_of(
    st.integers(min_value=-10, max_value=10),
    st.sampled_from([0.5, -2.5, 10**30, 0.1, 0.3]),
    st.sampled_from([Decimal("0.30000000000000000001"), Decimal("-1.5")]),
)
COUNTS = st.integers(min_value=0, max_value=4)
ANNOTATIONS = {
    "title": st.text(max_size=5),
    "description": st.text(max_size=5),
    "default": JSON,
    "examples": st.lists(JSON, max_size=2),
}


def _subschemas(profile: str, depth: int) -> st.SearchStrategy[Any]:
    return st.deferred(lambda: schemas(profile, depth - 1))


def schemas(profile: str, depth: int = 3) -> st.SearchStrategy[Any]:
    """Schemas valid in `profile` (octoscript, strict or lenient), nested at most `depth` deep."""
    sub = _subschemas(profile, depth) if depth > 0 else st.just({})
    optional: dict[str, st.SearchStrategy[Any]] = {
        "type": st.sampled_from(TYPES),
        "properties": st.dictionaries(NAMES, sub, max_size=3),
        "required": st.lists(NAMES, unique=True, max_size=3),
    }
    if profile == "lenient":
        optional["type"] = st.one_of(
            st.sampled_from(TYPES),
            st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True),
        )
        # unknown keywords, with any value, are ignored by the lenient matcher
        optional.update({"minimum": JSON, "enum": JSON, "x-anything": JSON, "pattern": JSON})
        base = st.fixed_dictionaries({}, optional=optional)
        return st.one_of(base, st.booleans()) if depth < 3 else base
    optional.update(
        {
            "additionalProperties": st.booleans(),
            "items": sub,
            "minItems": COUNTS,
            "maxItems": COUNTS,
            "minimum": NUMBERS,
            "maximum": NUMBERS,
            "minLength": COUNTS,
            "maxLength": COUNTS,
            "enum": st.lists(JSON, max_size=4),
            **ANNOTATIONS,
        }
    )
    if profile == "strict":
        optional.update(
            {
                "type": st.one_of(
                    st.sampled_from(TYPES),
                    st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True),
                ),
                "additionalProperties": st.one_of(st.booleans(), sub),
                "const": JSON,
                "pattern": st.sampled_from(PATTERNS),
                "exclusiveMinimum": NUMBERS,
                "exclusiveMaximum": NUMBERS,
                "multipleOf": st.integers(min_value=1, max_value=4),
                "prefixItems": st.lists(sub, min_size=1, max_size=2),
                "uniqueItems": st.booleans(),
                "allOf": st.lists(sub, min_size=1, max_size=2),
                "anyOf": st.lists(sub, min_size=1, max_size=2),
                "oneOf": st.lists(sub, min_size=1, max_size=2),
                "not": sub,
                "format": st.sampled_from(["email", "date"]),
            }
        )
    base = st.fixed_dictionaries({}, optional=optional)
    if profile == "strict" and depth < 3:
        return st.one_of(base, st.booleans())
    return base


@st.composite
def instances(draw: st.DrawFn, schema: Any, depth: int = 4) -> Any:
    """An instance aimed at `schema`: often valid or nearly so, sometimes anything."""
    if depth <= 0 or not isinstance(schema, dict) or draw(st.integers(0, 5)) == 0:
        return draw(JSON)
    choices: list[Any] = []
    for key in ("enum",):
        if isinstance(schema.get(key), list) and schema[key]:
            choices.append(draw(st.sampled_from(schema[key])))
    if "const" in schema:
        choices.append(schema["const"])
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        bound = schema.get(key)
        if isinstance(bound, (int, float, Decimal)) and not isinstance(bound, bool):
            delta = draw(st.sampled_from([0, 1, -1, 0.5, Decimal("1E-20")]))
            try:
                choices.append(bound + delta)
            except TypeError:
                choices.append(Decimal(str(bound)) + Decimal(str(delta)))
            choices.append(bound)
    for key in ("minLength", "maxLength"):
        if isinstance(schema.get(key), int):
            n = max(0, schema[key] + draw(st.integers(-1, 1)))
            choices.append(draw(st.sampled_from(["a" * n, "1" * n, "x" * n])))
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    if props or "required" in schema or schema.get("type") == "object":
        obj: dict[str, Any] = {}
        names = list(props) + [n for n in schema.get("required", []) if isinstance(n, str)]
        for name in names:
            if draw(st.integers(0, 4)):
                obj[name] = draw(instances(props.get(name, {}), depth - 1))
        if draw(st.integers(0, 3)) == 0:
            obj[draw(NAMES)] = draw(JSON)
        choices.append(obj)
    item_schemas = []
    if "items" in schema or "prefixItems" in schema or schema.get("type") == "array":
        prefix = (
            schema.get("prefixItems", []) if isinstance(schema.get("prefixItems"), list) else []
        )
        size = draw(st.integers(0, 4))
        for i in range(size):
            sub = prefix[i] if i < len(prefix) else schema.get("items", {})
            item_schemas.append(draw(instances(sub, depth - 1)))
        if schema.get("uniqueItems") and item_schemas and draw(st.booleans()):
            item_schemas.append(item_schemas[0])
        choices.append(item_schemas)
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            choices.append(draw(instances(draw(st.sampled_from(schema[key])), depth - 1)))
    if "pattern" in schema:
        choices.append(
            draw(
                st.sampled_from(
                    ["a", "b", "abc", "x", "1", "\u0661", "ab\n", "", "a b", "aa", "12", "AB"]
                )
            )
        )
    if not choices:
        return draw(JSON)
    return draw(st.sampled_from(choices))


# -- the drafts: every keyword, and $ref graphs (recursive ones included) ----------------------

# What a property test has nothing to compare for in a generated $ref graph: a cycle that consumes
# no input (ref-cycle: the strict profiles refuse it, and compile_drawn refuses the draft
# profiles' warning too, as the reference interpreter would recurse for ever on it), and a profile
# limit (limit-exceeded).
REFUSED_GRAPHS = ("ref-cycle", "limit-exceeded")


def compile_drawn(schema: Any, **options: Any) -> Any:
    """generator.compile_module(schema, **options), with a reference loop that a draft profile
    compiles with a warning raised as the strict profiles' ref-cycle SchemaError."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = generator.compile_module(schema, **options)
    for warning in caught:
        found = warning.message
        if isinstance(found, generator.SchemaWarning) and found.code == "ref-cycle":
            raise generator.SchemaError(found.message, code="ref-cycle", pointer=found.pointer)
    return module


DEF_NAMES = ["d0", "d1", "d2"]


def draft_schemas(draft: str, depth: int = 3) -> st.SearchStrategy[Any]:
    """Schemas of a draft, whose subschemas may refer to `#` or to `#/$defs/dN`."""
    new = draft in ("draft2020-12", "draft2019-09")
    sub: st.SearchStrategy[Any] = (
        st.deferred(lambda: draft_schemas(draft, depth - 1)) if depth > 0 else st.just({})
    )
    ref_targets = ["#"] + [f"#/{'$defs' if new else 'definitions'}/{n}" for n in DEF_NAMES]
    refs = st.builds(lambda target: {"$ref": target}, st.sampled_from(ref_targets))
    if depth > 0:
        sub = st.one_of(sub, refs, st.booleans())
    optional: dict[str, st.SearchStrategy[Any]] = {
        "type": st.one_of(
            st.sampled_from(TYPES),
            st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True),
        ),
        "properties": st.dictionaries(NAMES, sub, max_size=3),
        "patternProperties": st.dictionaries(
            st.sampled_from(["^a", "b", "^$", "x", "^(a|aa)+$", "^\\d+$"]), sub, max_size=2
        ),
        "additionalProperties": sub,
        "propertyNames": sub,
        "required": st.lists(NAMES, unique=True, max_size=3),
        "minProperties": COUNTS,
        "maxProperties": COUNTS,
        "items": sub,
        "minItems": COUNTS,
        "maxItems": COUNTS,
        "uniqueItems": st.booleans(),
        "contains": sub,
        "minimum": NUMBERS,
        "maximum": NUMBERS,
        "exclusiveMinimum": NUMBERS,
        "exclusiveMaximum": NUMBERS,
        "multipleOf": st.sampled_from([1, 2, 0.5, Decimal("0.1")]),
        "minLength": COUNTS,
        "maxLength": COUNTS,
        "pattern": st.sampled_from(PATTERNS),
        "enum": st.lists(JSON, max_size=3),
        "const": JSON,
        "allOf": st.lists(sub, min_size=1, max_size=2),
        "anyOf": st.lists(sub, min_size=1, max_size=2),
        "oneOf": st.lists(sub, min_size=1, max_size=2),
        "not": sub,
        "$ref": st.sampled_from(ref_targets),
    }
    if draft != "draft4":
        optional.update({"if": sub, "then": sub, "else": sub} if draft != "draft6" else {})
    if new:
        optional.update(
            {
                "dependentRequired": st.dictionaries(
                    NAMES, st.lists(NAMES, unique=True, max_size=2), max_size=2
                ),
                "dependentSchemas": st.dictionaries(NAMES, sub, max_size=2),
                "minContains": COUNTS,
                "maxContains": COUNTS,
                "unevaluatedProperties": sub,
                "unevaluatedItems": sub,
            }
        )
    else:
        optional["dependencies"] = st.dictionaries(
            NAMES, st.one_of(sub, st.lists(NAMES, unique=True, max_size=2)), max_size=2
        )
    if draft == "draft2020-12":
        optional["prefixItems"] = st.lists(sub, min_size=1, max_size=2)
    else:
        optional["items"] = st.one_of(sub, st.lists(sub, min_size=1, max_size=2))
        optional["additionalItems"] = sub
    if draft == "draft4":
        optional.update({"exclusiveMinimum": st.booleans(), "exclusiveMaximum": st.booleans()})
        optional.pop("contains")
        optional.pop("propertyNames")
        optional.pop("const")
    return _few_keywords(optional, 4 if depth >= 2 else 3)


@st.composite
def _few_keywords(
    draw: st.DrawFn, optional: dict[str, st.SearchStrategy[Any]], most: int
) -> dict[str, Any]:
    """A schema with a handful of the keywords (all of them at once makes huge, slow examples)."""
    chosen = draw(st.lists(st.sampled_from(sorted(optional)), max_size=most, unique=True))
    return {keyword: draw(optional[keyword]) for keyword in chosen}


def draft_document(draft: str) -> st.SearchStrategy[Any]:
    new = draft in ("draft2020-12", "draft2019-09")
    defs = st.fixed_dictionaries({n: draft_schemas(draft, 1) for n in DEF_NAMES})
    return st.builds(
        lambda root, d: {**root, ("$defs" if new else "definitions"): d},
        draft_schemas(draft, 2),
        defs,
    )


# -- hostile schemas and instances (GitHub-style issue 15): wrong types for every keyword, huge and
# tiny numbers, cycles, deep nesting, long strings, odd Unicode ---------------------------------
EVERY_KEYWORD = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "enum",
    "const",
    "pattern",
    "uniqueItems",
    "not",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "$defs",
    "definitions",
    "contains",
    "minContains",
    "maxContains",
    "propertyNames",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$id",
    "id",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "$schema",
    "$vocabulary",
    "title",
    "description",
    "format",
    "$comment",
    "examples",
    "default",
]
HOSTILE_NUMBERS = st.sampled_from(
    [
        Decimal("1e999999999"),
        Decimal("-1e999999999"),
        Decimal("1e-999999999"),
        Decimal("-1e-999999999"),
        Decimal("1.5e999999999"),
        Decimal("3e999999"),
        10**5000,
        -(10**5000),
        10**4000 - 1,
        Decimal("1e4000"),
        2**63,
        2**64 + 1,
        1e308,
        5e-324,
        -0.0,
        Decimal("0.1234567890123456789012345678901"),
    ]
)
ODD_TEXT = st.sampled_from(
    [
        "",
        "\x00",
        "a\nb",
        "\u202eevil",
        "\ud800",
        "\U0001f600",
        "ß",
        "\ufb03",
        "e\u0301",
        "\u2028",
        "\u0663",
        "x" * 10_000,
        "#",
        "#/",
        "%",
        "\\",
        "[",
        "(?",
        "\x1b[2J",
    ]
)
WRONG_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    HOSTILE_NUMBERS,
    ODD_TEXT,
    st.sampled_from([float("nan"), float("inf")]),
    st.lists(st.one_of(st.none(), ODD_TEXT, HOSTILE_NUMBERS), max_size=2),
    st.dictionaries(ODD_TEXT, st.one_of(st.none(), st.booleans(), HOSTILE_NUMBERS), max_size=2),
)


def _nested(schema: Any, depth: int, keyword: str) -> Any:
    for _ in range(depth):
        schema = {keyword: schema} if keyword != "allOf" else {"allOf": [schema]}
    return schema


@st.composite
def hostile_schemas(draw: st.DrawFn, profile: str) -> tuple[Any, Any]:
    """(hostile schema, the well-formed schema it was made from): a schema of the profile with
    wrong or hostile keyword values, and sometimes nested hundreds deep, containing itself,
    sharing a subschema, or naming properties with long or odd text."""
    drafts = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
    base = draw(draft_schemas(profile, 2) if profile in drafts else schemas(profile, 2))
    if not isinstance(base, dict):
        return base, base
    schema = dict(base)
    for _ in range(draw(st.integers(0, 3))):
        schema[draw(st.sampled_from(EVERY_KEYWORD))] = draw(WRONG_VALUES)
    shape = draw(st.integers(0, 9))
    if shape == 0:
        schema = _nested(
            schema, draw(st.integers(30, 300)), draw(st.sampled_from(["not", "items", "allOf"]))
        )
    elif shape == 1:
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            schema["properties"] = properties = {}
        properties["self"] = schema  # a cycle: only Python objects can hold one
    elif shape == 2:
        shared = {"type": "string", "maxLength": draw(st.one_of(COUNTS, HOSTILE_NUMBERS))}
        schema["anyOf"] = [shared, {"not": shared}, shared]
    elif shape == 3:
        schema["properties"] = {
            draw(ODD_TEXT): draw(st.one_of(st.just({}), WRONG_VALUES)) for _ in range(2)
        }
    return schema, base


HOSTILE_INSTANCES = st.one_of(
    HOSTILE_NUMBERS,
    ODD_TEXT,
    st.sampled_from([float("nan"), Decimal("NaN"), float("inf"), Decimal("-Infinity")]),
    st.lists(HOSTILE_NUMBERS, max_size=3),
    st.dictionaries(ODD_TEXT, HOSTILE_NUMBERS, max_size=3),
    st.integers(1, 40).map(lambda depth: _nested([], depth, "items")),
)
