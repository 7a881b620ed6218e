"""References at their worst: long chains, cycles that consume no input, deep instances against
recursive schemas, unresolvable and remote references. Each gives a clear error or an answer."""

from __future__ import annotations

import json
import time
import warnings
from typing import Any

import pytest

import generator
from generator.reference import DraftReference
from generator.resolve import resolve_pointer


def chain(n: int, end: Any) -> dict[str, Any]:
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(n)}
    defs[f"d{n}"] = end
    return {"$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}


def test_a_million_level_ref_chain_is_refused_by_the_source_limit_quickly() -> None:
    text = json.dumps(chain(1_000_000, {"type": "integer"}))
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(text)
    assert raised.value.code == "limit-exceeded"


def test_a_long_ref_chain_is_followed_at_compile_time_and_answers() -> None:
    n = 20_000
    module = generator.compile_module(chain(n, {"type": "integer"}), format=False)
    assert module.is_valid({"x": 1})
    assert not module.is_valid({"x": "a"})
    (error,) = module.errors({"x": "a"})
    assert error.instance_location == "/x"
    assert error.keyword_location == "/properties/x" + "/$ref" * (n + 1) + "/type"
    # the chain costs nothing at run time: one function call reaches the end of it
    assert module.__source__.count("def _v") < 10


# (schema, where its loop starts, an instance that reaches the loop)
REFERENCE_LOOPS: list[tuple[Any, str | None, Any]] = [
    (
        {
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "$ref": "#/$defs/a",
        },
        "/$ref",
        1,
    ),
    ({"$ref": "#"}, "/$ref", 1),
    (
        {
            "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}},
            "properties": {"p": {"$ref": "#/$defs/a"}},
        },
        "/$defs/a/allOf/0/$ref",
        {"p": 1},
    ),
    ({"anyOf": [{"type": "string"}, {"not": {"$ref": "#"}}]}, "/anyOf/1/not/$ref", 1),
    (
        {
            "$defs": {
                "a": {"if": {"$ref": "#/$defs/b"}, "then": {"type": "string"}},
                "b": {"oneOf": [{"$ref": "#/$defs/a"}]},
            },
            "$ref": "#/$defs/a",
        },
        None,
        1,
    ),
]


@pytest.mark.parametrize("schema,pointer,instance", REFERENCE_LOOPS)
def test_a_ref_cycle_that_consumes_no_input_is_refused_by_the_strict_profile(
    schema: Any, pointer: str | None, instance: Any
) -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, profile="strict")
    assert raised.value.code in ("ref-cycle", "keyword-not-in-profile")
    if raised.value.code == "ref-cycle" and pointer is not None:
        assert raised.value.pointer == pointer


@pytest.mark.parametrize("schema,pointer,instance", REFERENCE_LOOPS)
@pytest.mark.parametrize("draft", ["draft2020-12", "draft7"])
def test_a_ref_cycle_that_consumes_no_input_warns_and_fails_where_an_instance_reaches_it(
    schema: Any, pointer: str | None, instance: Any, draft: str
) -> None:
    """A draft profile compiles the loop with a warning that names it; an instance that reaches
    it gets ReferenceLoopError (a ValidationError) there, from every entry point, never a hang or
    RecursionError."""
    with pytest.warns(generator.SchemaWarning, match="an instance that reaches it") as caught:
        module = generator.compile_module(schema, profile=draft, format=False)
    (warning,) = [w.message for w in caught if isinstance(w.message, generator.SchemaWarning)]
    assert warning.code == "ref-cycle"
    if pointer is not None:
        assert warning.pointer == pointer
    for run in (module.is_valid, module.errors, module.validate, module.output):
        with pytest.raises(module.ValidationError) as raised:
            run(instance)
        assert type(raised.value).__name__ == "ReferenceLoopError"
        assert raised.value.keyword == "$ref"
        assert "loop back to the same subschema" in raised.value.message
    with pytest.raises(module.ReferenceLoopError) as raised:
        module.errors(instance)
    # the place: the subschema the loop re-enters
    assert raised.value.params["subschema"] in ("", "/$defs/a", "/$defs/b")
    # an instance that never reaches the loop is answered as usual
    if pointer == "/$defs/a/allOf/0/$ref":
        assert module.is_valid({"q": 1}) and module.errors({"q": 1}) == []


def test_recursion_through_the_instance_is_fine() -> None:
    tree = {
        "type": "object",
        "properties": {
            "children": {"type": "array", "items": {"$ref": "#"}},
            "value": {"type": "integer"},
        },
    }
    module = generator.compile_module(tree)
    assert module.is_valid({"value": 1, "children": [{"value": 2, "children": []}]})
    assert not module.is_valid({"value": 1, "children": [{"value": "2"}]})
    assert [
        (e.instance_location, e.keyword_location)
        for e in module.errors({"children": [{"value": "2"}]})
    ] == [("/children/0/value", "/properties/children/items/$ref/properties/value/type")]


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def test_an_instance_10000_deep_against_a_recursive_schema_gets_a_clear_error() -> None:
    module = generator.compile_module({"type": "array", "items": {"$ref": "#"}})
    deep = nested(10_000)
    assert module.is_valid(nested(100))
    assert module.is_valid(deep) is False  # too deep for Python's stack: refused, never a crash
    (error,) = module.errors(deep)
    assert "nested too deeply" in error.message
    with pytest.raises(module.ValidationError, match="nested too deeply"):
        module.validate(deep)


@pytest.mark.parametrize(
    "ref",
    [
        "#/$defs/missing",
        "other.json",
        "http://example.com/schema.json",
        "#unknown-anchor",
        "#/properties/x/0",
    ],
)
def test_unresolvable_references_are_schema_errors_with_the_ref_pointer(ref: str) -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source({"properties": {"x": {"$ref": ref}}})
    assert (raised.value.code, raised.value.pointer) == ("unresolvable-ref", "/properties/x/$ref")


def test_remote_references_come_from_the_registry_mapping_or_directory(tmp_path: Any) -> None:
    remote = {
        "$id": "https://example.com/defs.json",
        "$defs": {"positive": {"type": "integer", "minimum": 1}},
    }
    schema = {"properties": {"n": {"$ref": "https://example.com/defs.json#/$defs/positive"}}}
    for registry in ({"https://example.com/defs.json": remote}, str(tmp_path)):
        (tmp_path / "defs.json").write_text(json.dumps(remote))
        module = generator.compile_module(schema, registry=registry)
        assert module.is_valid({"n": 2}) and not module.is_valid({"n": 0})
    with pytest.raises(generator.SchemaError):
        generator.compile_source(schema)  # no registry: never the network


@pytest.mark.parametrize(
    "item, code, pointer",
    [
        ({"properties": {"n": {"pattern": "(a"}}}, "bad-regex", "/properties/n/pattern"),
        ({"properties": {"n": {"maxLength": -1}}}, "bad-keyword-value", "/properties/n/maxLength"),
        ({"properties": {"n": {"$ref": "#/$defs/nope"}}}, "unresolvable-ref", "/properties/n/$ref"),
        (
            {
                "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
                "properties": {"n": {"$ref": "#/$defs/a"}},
            },
            "ref-cycle",
            "/properties/n/$ref",
        ),
    ],
)
def test_a_problem_in_a_registry_document_is_located_in_that_document(
    item: Any, code: str, pointer: str
) -> None:
    """Not at the same pointer in the compiled schema, where it is not (nor, in a tool contract,
    under its side)."""
    registry = {"https://example.com/item.json": item}
    schema = {"properties": {"item": {"$ref": "https://example.com/item.json"}}}

    def problem(compile: Any) -> Any:
        """The error, or for a reference loop (a draft profile compiles it) the warning."""
        if code == "ref-cycle":
            with pytest.warns(generator.SchemaWarning) as caught:
                compile()
            (found,) = [w.message for w in caught if isinstance(w.message, generator.SchemaWarning)]
            return found
        with pytest.raises(generator.SchemaError) as raised:
            compile()
        return raised.value

    found = problem(lambda: generator.compile_source(schema, registry=registry, format=False))
    assert found.code == code
    assert found.pointer == "https://example.com/item.json#" + pointer
    contract = {
        "name": "t",
        "profile": "draft2020-12",
        "input": schema,
        "output": {"type": "object"},
    }
    in_contract = problem(
        lambda: generator.compile_contract_source(contract, registry=registry, format=False)
    )
    assert in_contract.pointer == "https://example.com/item.json#" + pointer
    # the compiled document's own problems keep their pointers, under the contract's side
    with pytest.raises(generator.SchemaError) as own:
        generator.compile_contract_source(
            {**contract, "input": {**schema, "maxLength": -1}}, registry=registry
        )
    assert own.value.pointer == "/input/maxLength"


# URIs urllib cannot split (it raised ValueError through the compiler): an unclosed IPv6 host, a
# bracketed host that is no IP address, a host NFKC normalization changes
MALFORMED_URIS = ["http://[::1/x", "http://[foo]/x", "//[::1/x", "http://a\uff03b/x"]
META = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
    "draft6": "http://json-schema.org/draft-06/schema#",
    "draft4": "http://json-schema.org/draft-04/schema#",
}
REFERENCES = [(draft, "$ref") for draft in META] + [
    ("draft2020-12", "$dynamicRef"),
    ("draft2019-09", "$recursiveRef"),
]
IDENTIFIERS = [(draft, "id" if draft == "draft4" else "$id") for draft in META]


@pytest.mark.parametrize("uri", MALFORMED_URIS)
@pytest.mark.parametrize("draft, keyword", REFERENCES)
def test_a_reference_that_is_no_uri_does_not_resolve(draft: str, keyword: str, uri: str) -> None:
    schema = {"$schema": META[draft], "properties": {"x": {keyword: uri}}}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, format=False)
    assert (raised.value.code, raised.value.pointer) == (
        "unresolvable-ref",
        "/properties/x/" + keyword,
    )
    assert "not a URI reference" in raised.value.message
    # reported with every other unresolvable reference
    both = {**schema, "properties": {**schema["properties"], "y": {"$ref": "#/nope"}}}
    with pytest.raises(generator.SchemaError) as together:
        generator.compile_source(both, format=False)
    assert {e.pointer for e in together.value.errors} == {
        "/properties/x/" + keyword,
        "/properties/y/$ref",
    }
    # the reference interpreter, when evaluation reaches it
    with pytest.raises(generator.SchemaError) as interpreted:
        DraftReference(schema, draft).is_valid({"x": 1})
    assert (interpreted.value.code, interpreted.value.pointer) == (
        "unresolvable-ref",
        "/properties/x/" + keyword,
    )


@pytest.mark.parametrize("uri", MALFORMED_URIS)
@pytest.mark.parametrize("draft, keyword", IDENTIFIERS)
@pytest.mark.parametrize("where", ["", "/properties/x", "/$defs/d"])
def test_an_identifier_that_is_no_uri_is_a_bad_keyword_value(
    draft: str, keyword: str, uri: str, where: str
) -> None:
    schema: dict[str, Any] = {"$schema": META[draft], "$defs": {"d": {}}, "properties": {"x": {}}}
    resolve_pointer(schema, where)[keyword] = uri
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, format=False)
    assert (raised.value.code, raised.value.pointer) == ("bad-keyword-value", f"{where}/{keyword}")
    with pytest.raises(generator.SchemaError) as interpreted:
        DraftReference(schema, draft)
    assert (interpreted.value.code, interpreted.value.pointer) == (
        "bad-keyword-value",
        f"{where}/{keyword}",
    )


@pytest.mark.parametrize(
    "schema, pointer",
    [
        # where preflight does not walk: under a keyword the draft does not know, reached by a $ref or not
        (
            {"$schema": META["draft7"], "dependentSchemas": {"a": {"$id": "http://[::1/x"}}},
            "/dependentSchemas/a/$id",
        ),
        ({"$ref": "#/unknown", "unknown": {"$id": "http://[::1/x"}}, "/unknown/$id"),
        ({"$ref": "#/unknown", "unknown": {"$ref": "http://[::1/x"}}, "/unknown/$ref"),
    ],
)
def test_a_uri_that_is_no_uri_is_refused_where_preflight_does_not_walk(
    schema: Any, pointer: str
) -> None:
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, format=False)
    assert raised.value.pointer == pointer


def test_a_draft4_dollar_id_identifies_nothing_and_is_not_read_as_a_uri() -> None:
    module = generator.compile_module(
        {"$schema": META["draft4"], "$id": "http://[::1/x", "type": "integer"}
    )
    assert module.is_valid(1) and not module.is_valid("1")


@pytest.mark.parametrize(
    "item, code, pointer",
    [
        (
            {"properties": {"n": {"$ref": "http://[::1/x"}}},
            "unresolvable-ref",
            "/properties/n/$ref",
        ),
        (
            {"properties": {"n": {"$dynamicRef": "http://[foo]/x"}}},
            "unresolvable-ref",
            "/properties/n/$dynamicRef",
        ),
        ({"properties": {"n": {"$id": "http://[::1/x"}}}, "bad-keyword-value", "/properties/n/$id"),
        ({"$id": "http://[foo]/x"}, "bad-keyword-value", "/$id"),
    ],
)
def test_a_uri_that_is_no_uri_in_a_registry_document_is_located_in_it(
    tmp_path: Any, item: Any, code: str, pointer: str
) -> None:
    schema = {"properties": {"item": {"$ref": "https://example.com/item.json"}}}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(
            schema, registry={"https://example.com/item.json": item}, format=False
        )
    assert (raised.value.code, raised.value.pointer) == (
        code,
        "https://example.com/item.json#" + pointer,
    )
    contract = {
        "name": "t",
        "profile": "draft2020-12",
        "input": schema,
        "output": {"type": "object"},
    }
    with pytest.raises(generator.SchemaError) as in_contract:
        generator.compile_contract_source(
            contract, registry={"https://example.com/item.json": item}, format=False
        )
    assert (in_contract.value.code, in_contract.value.pointer) == (
        code,
        "https://example.com/item.json#" + pointer,
    )
    # a directory: the file is reached by its path (an $id that is no URI claims nothing), and
    # loading the directory goes on (its other files still serve)
    (tmp_path / "item.json").write_text(json.dumps(item))
    (tmp_path / "good.json").write_text(json.dumps({"type": "integer"}))
    by_path = {"properties": {"item": {"$ref": (tmp_path / "item.json").as_uri()}}}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(by_path, registry=str(tmp_path), format=False)
    assert (raised.value.code, raised.value.pointer) == (
        code,
        (tmp_path / "item.json").as_uri() + "#" + pointer,
    )
    module = generator.compile_module(
        {"$ref": (tmp_path / "good.json").as_uri()}, registry=str(tmp_path)
    )
    assert module.is_valid(1) and not module.is_valid("1")


def test_meta_schema_references_resolve_offline() -> None:
    module = generator.compile_module({"$ref": "https://json-schema.org/draft/2020-12/schema"})
    assert module.is_valid({"type": "string", "minLength": 1})
    assert not module.is_valid({"type": 12})
    reference = DraftReference(
        {"$ref": "https://json-schema.org/draft/2020-12/schema"}, "draft2020-12"
    )
    bad = {"properties": {"a": {"minLength": -1}}}
    assert not module.is_valid(bad) and not reference.is_valid(bad)
    assert sorted((e.instance_location, e.keyword_location) for e in module.errors(bad)) == sorted(
        (e.instance_location, e.keyword_location) for e in reference.errors(bad)
    )


def test_errors_give_the_absolute_keyword_location_where_a_reference_was_crossed() -> None:
    schema = {
        "$id": "https://example.com/root.json",
        "$defs": {
            "positive": {"$id": "positive.json", "type": "integer", "minimum": 1},
            "text": {"type": "string"},
        },
        "properties": {
            "n": {"$ref": "positive.json"},
            "m": {"$ref": "#/$defs/text"},
            "k": {"minimum": 3},
        },
    }
    module = generator.compile_module(schema)
    found = {
        (e.instance_location, e.keyword_location, e.absolute_keyword_location)
        for e in module.errors({"n": 0, "m": 1, "k": 1})
    }
    assert found == {
        ("/n", "/properties/n/$ref/minimum", "https://example.com/positive.json#/minimum"),
        ("/m", "/properties/m/$ref/type", "https://example.com/root.json#/$defs/text/type"),
        ("/k", "/properties/k/minimum", None),
    }


@pytest.mark.parametrize(
    "schema, wrap",
    [
        ({"properties": {"a": {"$ref": "#"}}}, lambda v: {"a": v}),
        ({"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#"}}]}, lambda v: [v]),
        (
            {"anyOf": [{"type": "null"}, {"properties": {"a": {"$ref": "#"}}, "required": ["a"]}]},
            lambda v: {"a": v},
        ),
        ({"type": "array", "prefixItems": [{"$ref": "#"}]}, lambda v: [v]),
    ],
)
def test_references_called_at_their_target_still_catch_deep_instances(
    schema: Any, wrap: Any
) -> None:
    # a reference alone is called at its target, skipping its own function: the recursion guard
    # must still be there
    module = generator.compile_module(schema)
    deep: Any = None
    for _ in range(10_000):
        deep = wrap(deep)
    assert module.is_valid(deep) is False
    assert "nested too deeply" in module.errors(deep)[0].message


# -- schemas whose validation would take exponential time (generator/doubling.py finds them and the module memoizes them) ---------------


def _doubling_chain(levels: int, applicator: str, end: Any) -> dict[str, Any]:
    """`d0` applies `d1` twice in place, `d1` applies `d2` twice, ...: 2**levels applications."""

    def twice(i: int) -> Any:
        if applicator == "if":
            return {"if": {"$ref": f"#/$defs/d{i + 1}"}, "then": {"$ref": f"#/$defs/d{i + 1}"}}
        return {applicator: [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]}

    defs = {f"d{i}": twice(i) for i in range(levels)}
    defs[f"d{levels}"] = end
    return {"$defs": defs, "$ref": "#/$defs/d0"}


@pytest.mark.parametrize("applicator", ["allOf", "anyOf", "oneOf", "if"])
def test_a_schema_applying_a_subschema_exponentially_often_in_place_compiles_and_answers(
    applicator: str,
) -> None:
    """A few bytes that would apply their last link 2**40 times to any value: each link is
    evaluated once per value (memoized: generator/doubling.py), so it answers at once, and
    as the reference does where the reference can still finish."""
    schema = _doubling_chain(40, applicator, {"type": "object"})
    assert len(json.dumps(schema)) < 4000
    module = generator.compile_module(schema, format=False)
    for instance in ({}, 1):
        assert module.is_valid(instance) is _chain_answer(applicator, instance)
        assert (module.errors(instance) == []) is _chain_answer(applicator, instance)
    small = _doubling_chain(10, applicator, {"type": "object"})
    module = generator.compile_module(small, format=False)
    reference = DraftReference(small, "draft2020-12")
    for instance in ({}, 1):
        assert module.is_valid(instance) is reference.is_valid(instance)


def _chain_answer(applicator: str, instance: Any) -> bool:
    """A doubling chain's answer: every link holds exactly where its end does, but a oneOf of
    two equal alternatives never holds (and an `if` without `else` always does)."""
    if applicator == "oneOf":
        return False
    return applicator == "if" or isinstance(instance, dict)


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}}]},
        {"items": {"$ref": "#"}, "contains": {"$ref": "#"}},
        {"properties": {"a": {"$ref": "#"}}, "patternProperties": {"^a": {"$ref": "#"}}},
        {"items": {"allOf": [{"$ref": "#"}, {"$ref": "#"}]}},
        {
            "$defs": {"t": {"allOf": [{"items": {"$ref": "#"}}, {"items": {"$ref": "#"}}]}},
            "items": {"$ref": "#/$defs/t"},
        },
    ],
)
def test_a_subschema_applying_itself_twice_to_a_member_compiles_and_answers(schema: Any) -> None:
    """Each level of an instance nested that way would double the work (an array 40 deep, 80
    bytes): compiled, memoized, answered at once, and as python-jsonschema answers at a depth it
    can finish."""
    import jsonschema

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        module = generator.compile_module(schema, format=False)
    assert "_memo_fast(" in module.__source__
    oracle = jsonschema.Draft202012Validator(schema)
    for end in (1, "s", [], {}):
        for depth in (1, 2, 6, 40):
            instance: Any = end
            for _ in range(depth):
                instance = {"a": instance} if "properties" in schema else [instance]
            if depth <= 6:
                expected = oracle.is_valid(instance)
            else:  # (every value is valid against these but contains' empty array)
                expected = module.is_valid(instance)
            assert module.is_valid(instance) is expected
            assert (module.errors(instance) == []) is expected


@pytest.mark.parametrize(
    "schema",
    [
        {
            "properties": {"left": {"$ref": "#"}, "right": {"$ref": "#"}},
            "additionalProperties": {"$ref": "#"},
        },
        {"prefixItems": [{"$ref": "#"}], "items": {"$ref": "#"}},
        {"anyOf": [{"items": {"$ref": "#"}}, {"type": "string"}]},
        {"properties": {"a": {"$ref": "#"}}, "patternProperties": {"^b": {"$ref": "#"}}},
    ],
)
def test_a_subschema_applying_itself_once_to_each_member_compiles(schema: Any) -> None:
    """Recursion that applies a subschema once to each member (a tree's left and right, a prefix
    item and the items after it, an anyOf alternative, a pattern that is another name's)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        module = generator.compile_module(schema, format=False)
    deep: Any = "leaf"
    for _ in range(40):  # (40 levels: a doubling would be 2**40 steps)
        deep = {"left": deep}
    assert module.is_valid(deep) is DraftReference(schema, "draft2020-12").is_valid(deep)


def test_the_doubling_check_never_runs_a_backtracking_pattern_on_the_schema_s_own_names() -> None:
    """Whether a pattern matches a property name is asked of its linear-time plan; a pattern only
    `re` can run (a look-ahead around a nested repetition) is not run at all, so a schema's own
    name cannot make its compile backtrack for ever."""
    name = "a" * 40 + "!"
    schema = {
        "properties": {name: {"$ref": "#"}},
        "patternProperties": {"(?=(a+)+$)": {"$ref": "#"}},
    }
    started = time.perf_counter()
    with pytest.warns(generator.SchemaWarning, match="unsafe"):
        generator.compile_source(schema, format=False)
    assert time.perf_counter() - started < 30  # (2**40 steps in re otherwise: a hang's bound)


# -- a subschema applied twice to one member behind anyOf, oneOf or if/then ------------------------
R = {"$ref": "#"}
# The issue's shapes (every value valid, every value valid, no value valid: two alternatives that
# are one schema), and the same shapes with leaves and lengths that tell their alternatives apart.
DOUBLING_BEHIND_ALTERNATIVES = [
    {"anyOf": [{"items": R}, {"items": R}]},
    {"if": {"items": R}, "then": {"items": R}},
    {"oneOf": [{"items": R}, {"items": R}]},
    {
        "type": ["array", "integer"],
        "anyOf": [{"items": R, "maxItems": 1}, {"items": R, "minItems": 2}],
    },
    {
        "type": ["array", "integer"],
        "if": {"items": R, "minItems": 2},
        "then": {"items": R, "maxItems": 2},
    },
    {
        "type": ["array", "integer"],
        "oneOf": [{"items": R, "maxItems": 1}, {"items": R, "minItems": 1}],
    },
    {
        "type": ["array", "integer"],
        "anyOf": [{"type": "integer"}, {"items": R, "minItems": 2}, {"items": R, "maxItems": 0}],
    },
]


def _nested_arrays() -> list[Any]:
    """Every array of up to two members nested up to two deep over 1 and "s", and chains of
    one-member arrays up to eight deep (small: python-jsonschema doubles its work per level here).
    """
    leaves: list[Any] = [1, "s"]
    level = list(leaves)
    for _ in range(2):
        level = leaves + [[]] + [[a] for a in level] + [[a, b] for a in level for b in level]
    chains = []
    for end in (1, "s", [], [1, "s"], [1, 2, 3]):
        value = end
        for _ in range(8):
            value = [value]
            chains.append(value)
    return level + chains


@pytest.mark.parametrize(
    "schema", DOUBLING_BEHIND_ALTERNATIVES, ids=range(len(DOUBLING_BEHIND_ALTERNATIVES))
)
def test_a_doubling_behind_anyof_oneof_or_if_compiles_and_answers_as_python_jsonschema(
    schema: Any,
) -> None:
    """Alternatives are not applied to every value the way allOf's members are: a schema applying
    itself twice to one member only through anyOf, oneOf or if/then is accepted, and its answers
    and errors agree with python-jsonschema's at a depth it can still answer."""
    import jsonschema

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        module = generator.compile_module(schema, format=False)
    oracle = jsonschema.Draft202012Validator(schema)
    instances = _nested_arrays()
    answers = [oracle.is_valid(instance) for instance in instances]
    if "type" in schema:  # (the issue's own shapes answer alike for every value)
        assert True in answers and False in answers
    for instance, expected in zip(instances, answers):
        assert module.is_valid(instance) is expected, instance
        assert (module.errors(instance) == []) is expected, instance


@pytest.mark.parametrize("index", ["01", "-1", "2", "99999999999999999999", "１"])
def test_a_pointer_into_an_array_takes_a_plain_index_in_range_only(index: str) -> None:
    """RFC 6901: an array index is 0 or digits without a leading zero, and must exist."""
    schema = {"allOf": [{"type": "integer"}, {"minimum": 0}], "$ref": f"#/allOf/{index}"}
    with pytest.raises(generator.SchemaError) as raised:
        generator.compile_source(schema, profile="draft2020-12")
    assert raised.value.code == "unresolvable-ref"
    ok = {
        "allOf": [{"type": "integer"}, {"minimum": 0}],
        "properties": {"a": {"$ref": "#/allOf/1"}},
    }
    assert not generator.compile_module(ok, profile="draft2020-12").is_valid({"a": -1})
    with pytest.raises(KeyError):
        resolve_pointer(
            {"a": 1}, "a"
        )  # (a fragment that is no pointer: an anchor is read elsewhere)


def test_a_relative_reference_against_a_urn_is_taken_as_written() -> None:
    """A URN has no path to resolve against: `other.json` from `urn:example:root` stays
    `other.json`, and a fragment alone stays in the URN."""
    from generator.resolve import join_uri

    assert join_uri("urn:example:root", "other.json") == "other.json"
    assert join_uri("urn:example:root#/a", "#/b") == "urn:example:root#/b"
    schema = {
        "$id": "urn:example:root",
        "properties": {"a": {"$ref": "other.json"}},
    }
    module = generator.compile_module(
        schema, profile="draft2020-12", registry={"other.json": {"type": "integer"}}
    )
    assert module.is_valid({"a": 1}) and not module.is_valid({"a": "x"})


def test_a_reference_to_an_id_two_registry_files_declare_is_ambiguous(tmp_path: Any) -> None:
    from generator.resolve import RegistryWarning

    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text('{"$id": "https://example.com/s", "type": "string"}')
    with pytest.warns(RegistryWarning, match="is declared by 2 registry files"):
        with pytest.raises(generator.SchemaError) as raised:
            generator.compile_source(
                {"$ref": "https://example.com/s"}, profile="draft2020-12", registry=tmp_path
            )
    assert raised.value.code == "unresolvable-ref"
    assert raised.value.message.startswith(
        "$ref 'https://example.com/s' is ambiguous: $id 'https://example.com/s' is declared by 2 "
        f"registry files: {tmp_path / 'a.json'}, {tmp_path / 'b.json'}"
    )


def test_registry_files_over_the_limit_or_in_an_unlistable_directory_are_warnings(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from generator.resolve import RegistryProblem, RegistryWarning, load_registry_directory

    (tmp_path / "big.json").write_text('{"type": "string", "description": "' + "x" * 40 + '"}')
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "inner.json").write_text("{}")
    scandir = os.scandir

    def refuse(path: Any) -> Any:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mapping = load_registry_directory(tmp_path, max_bytes=20)
    messages = [str(w.message) for w in caught if issubclass(w.category, RegistryWarning)]
    assert any("it is over the limit of 20 bytes; skipped" in m for m in messages), messages
    assert any("locked: cannot list the directory: Permission denied" in m for m in messages)
    problems = [v for v in mapping.values() if isinstance(v, RegistryProblem)]
    assert [p.files for p in problems] == [(str(tmp_path / "big.json"),)]


def test_a_registry_path_that_is_no_directory_is_an_option_error(tmp_path: Any) -> None:
    with pytest.raises(generator.OptionError, match="is not a directory of schema files"):
        generator.compile_source({"type": "string"}, registry=str(tmp_path / "absent"))


def test_registry_files_outside_the_uri_root_keep_their_absolute_uris(tmp_path: Any) -> None:
    from generator.resolve import ReadLog, file_uri, load_registry_directory

    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "a.json").write_text('{"type": "string"}')
    (tmp_path / "project").mkdir()
    inside = file_uri(tmp_path / "shared" / "a.json", root=tmp_path)
    assert inside == "file:///shared/a.json"
    outside = file_uri(tmp_path / "shared" / "a.json", root=tmp_path / "project")
    assert outside == (tmp_path / "shared" / "a.json").resolve().as_uri()
    assert outside in load_registry_directory(tmp_path / "shared", uri_root=tmp_path / "project")
    log = ReadLog({outside: {}})
    assert 5 not in log and outside in log and list(log.asked) == [outside]  # only URIs recorded


@pytest.mark.parametrize("draft", ["draft2020-12", "draft2019-09", "draft7", "draft6"])
def test_an_id_in_an_unknown_keyword_reached_by_a_pointer_sets_no_base(draft: str) -> None:
    """A schema inside an unknown keyword is no resource: reached by a JSON pointer, its relative
    references resolve against the base it is in, not its own `$id` (2020-12 leaves this
    undefined, 9.4.2; python-jsonschema and jsonschema-rs read it so), as the reference does."""
    word = "$id"
    holder: dict[str, Any] = {word: "http://example.com/inner/", "$ref": "item.json"}
    schema = {
        word: "http://example.com/root/",
        "x-holder": holder,
        "allOf": [{"$ref": "#/x-holder"}],
    }
    registry = {
        "http://example.com/root/item.json": {"type": "integer"},
        "http://example.com/inner/item.json": {"type": "string"},
    }
    module = generator.compile_module(schema, profile=draft, registry=registry, format=False)
    reference = DraftReference(schema, draft, registry=registry)
    for instance, valid in ((1, True), ("a", False)):
        assert module.is_valid(instance) is valid, instance
        assert reference.is_valid(instance) is valid, instance
    (error,) = module.errors("a")
    assert error.absolute_keyword_location == "http://example.com/root/item.json#/type"
