"""best_match: python-jsonschema's relevance rules (its own best_match cases, and python-jsonschema
itself as the oracle), on a GitHub-workflow-like schema with the mistakes people make, and our two
documented refinements (a discriminator rules alternatives out; a cause every alternative shares).
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from .helpers import errors, module
from .workflow import DEEPER_THAN_PYTHON_JSONSCHEMA, GOOD, MISTAKES, WORKFLOW


def python_jsonschema_best(schema: Any, instance: Any) -> tuple[str, str | None]:
    best = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(instance)
    )
    assert best is not None
    return "".join("/" + str(token) for token in best.absolute_path), best.validator


def ours(schema: Any, instance: Any) -> Any:
    found = errors(schema, instance)
    best = module(schema).best_match(found)
    assert best is module(schema).best_match(list(reversed(found))), "a consistent best match"
    return best


# python-jsonschema's own best_match cases (jsonschema/tests/test_exceptions.py, TestBestMatch): the
# schema, the instance, and the keyword and params of the best match its tests expect.
PYTHON_JSONSCHEMA_CASES: list[tuple[str, Any, Any, str, dict[str, Any]]] = [
    (
        "shallower errors are better matches",
        {"properties": {"foo": {"minProperties": 2, "properties": {"bar": {"type": "object"}}}}},
        {"foo": {"bar": []}},
        "minProperties",
        {"limit": 2},
    ),
    (
        "oneOf and anyOf are weak matches",
        {
            "minProperties": 2,
            "anyOf": [{"type": "string"}, {"type": "number"}],
            "oneOf": [{"type": "string"}, {"type": "number"}],
        },
        {},
        "minProperties",
        {"limit": 2},
    ),
    (
        "the most relevant anyOf is traversed",
        {
            "properties": {
                "foo": {"anyOf": [{"type": "string"}, {"properties": {"bar": {"type": "array"}}}]}
            }
        },
        {"foo": {"bar": 12}},
        "type",
        {"type": "array"},
    ),
    (
        "no anyOf traversal for equally relevant errors",
        {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "object"}]},
        [],
        "anyOf",
        {},
    ),
    (
        "anyOf traversal for a single equally relevant error",
        {"anyOf": [{"type": "string"}]},
        [],
        "type",
        {"type": "string"},
    ),
    (
        "anyOf traversal for single sibling errors",
        {"anyOf": [{"items": {"const": 37}}]},
        [12, 12],
        "const",
        {"allowedValue": 37},
    ),
    (
        "anyOf traversal for non-type-matching sibling errors",
        {"anyOf": [{"type": "object"}, {"items": {"const": 37}}]},
        [12, 12],
        "const",
        {"allowedValue": 37},
    ),
    (
        "the most relevant oneOf is traversed",
        {
            "properties": {
                "foo": {"oneOf": [{"type": "string"}, {"properties": {"bar": {"type": "array"}}}]}
            }
        },
        {"foo": {"bar": 12}},
        "type",
        {"type": "array"},
    ),
    (
        "no oneOf traversal for equally relevant errors",
        {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "object"}]},
        [],
        "oneOf",
        {"passingSchemas": []},
    ),
    (
        "oneOf traversal for a single equally relevant error",
        {"oneOf": [{"type": "string"}]},
        [],
        "type",
        {"type": "string"},
    ),
    (
        "oneOf traversal for single sibling errors",
        {"oneOf": [{"items": {"const": 37}}]},
        [12, 12],
        "const",
        {"allowedValue": 37},
    ),
    (
        "oneOf traversal for non-type-matching sibling errors",
        {"oneOf": [{"type": "object"}, {"items": {"const": 37}}]},
        [12, 12],
        "const",
        {"allowedValue": 37},
    ),
    (
        "allOf: the most relevant of its errors",
        {
            "properties": {
                "foo": {"allOf": [{"type": "string"}, {"properties": {"bar": {"type": "array"}}}]}
            }
        },
        {"foo": {"bar": 12}},
        "type",
        {"type": "string"},
    ),
    (
        "a nested oneOf is traversed",
        {
            "properties": {
                "foo": {
                    "oneOf": [
                        {"type": "string"},
                        {"oneOf": [{"type": "string"}, {"properties": {"bar": {"type": "array"}}}]},
                    ]
                }
            }
        },
        {"foo": {"bar": 12}},
        "type",
        {"type": "array"},
    ),
    (
        "matching types are preferred",
        {
            "properties": {
                "foo": {
                    "anyOf": [{"type": "array", "minItems": 2}, {"type": "string", "minLength": 10}]
                }
            }
        },
        {"foo": "bar"},
        "minLength",
        {"limit": 10},
    ),
    (
        "matching types are preferred, reordered",
        {
            "properties": {
                "foo": {
                    "anyOf": [{"type": "string", "minLength": 10}, {"type": "array", "minItems": 2}]
                }
            }
        },
        {"foo": "bar"},
        "minLength",
        {"limit": 10},
    ),
    (
        "matching union types are preferred",
        {
            "properties": {
                "foo": {
                    "anyOf": [
                        {"type": ["array", "object"], "minItems": 2},
                        {"type": ["integer", "string"], "minLength": 10},
                    ]
                }
            }
        },
        {"foo": "bar"},
        "minLength",
        {"limit": 10},
    ),
    ("a false schema", {"properties": {"foo": False}}, {"foo": "bar"}, "false", {}),
    ("one error", {"minProperties": 2}, {}, "minProperties", {"limit": 2}),
]


@pytest.mark.parametrize(
    ("schema", "instance", "keyword", "params"),
    [c[1:] for c in PYTHON_JSONSCHEMA_CASES],
    ids=[c[0] for c in PYTHON_JSONSCHEMA_CASES],
)
def test_python_jsonschemas_own_cases(
    schema: Any, instance: Any, keyword: str, params: dict[str, Any]
) -> None:
    best = ours(schema, instance)
    assert (best.keyword, best.params) == (keyword, params)
    where, validator = python_jsonschema_best(schema, instance)
    if validator is None:  # a false schema: python-jsonschema leaves its error's path out
        assert (best.instance_location, best.keyword, where) == ("/foo", "false", "")
    else:
        assert (best.instance_location, best.keyword) == (where, validator)


def test_no_errors_no_best_match() -> None:
    assert module({"type": "string"}).best_match([]) is None
    assert (
        module({"type": "string"}).best_match(iter(module({"type": "string"}).errors(3))).keyword
        == "type"
    )


def test_a_tie_at_one_place_goes_to_the_same_error_in_any_order() -> None:
    """A tie (one location, neither weak, both of the instance's type) is broken by keyword
    location, never by the order of the list (issue 30), so `>=` for `>` in the comparison or a
    tie-break left out changes the answer for one of the two orders. On minLength and pattern the
    answer is python-jsonschema's too (its max() takes the first in schema order)."""
    schema, instance = {"minLength": 5, "pattern": "^a"}, "b"
    found = errors(schema, instance)
    assert len(found) == 2 and len({e.instance_location for e in found}) == 1
    best = module(schema).best_match(found)
    assert best.keyword == "minLength" and module(schema).best_match(list(reversed(found))) is best
    assert python_jsonschema_best(schema, instance) == ("", "minLength")


def test_required_and_min_properties_tie_is_broken_by_keyword_location() -> None:
    """python-jsonschema picks `required` here (schema order); ours picks by keyword location,
    whatever the order of the list. Known difference: docs/errors.md."""
    schema = {"properties": {"a": {"type": "string"}}, "required": ["b"], "minProperties": 3}
    found = errors(schema, {"a": "x"})
    assert {e.keyword for e in found} == {"required", "minProperties"}
    picks = {module(schema).best_match(order).keyword for order in (found, list(reversed(found)))}
    assert picks == {"minProperties"}


# -- a GitHub-workflow-like schema ----------------------------------------------------------------
def test_the_workflow_schema_accepts_a_good_workflow() -> None:
    assert module(WORKFLOW).is_valid(GOOD) and jsonschema.Draft202012Validator(WORKFLOW).is_valid(
        GOOD
    )


@pytest.mark.parametrize(
    ("document", "where", "keyword"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES]
)
def test_workflow_mistakes(document: Any, where: str, keyword: str) -> None:
    best = ours(WORKFLOW, document)
    assert (best.instance_location, best.keyword) == (where, keyword)


def test_workflow_mistakes_agree_with_python_jsonschema() -> None:
    """Every mistake's best match is python-jsonschema's (instance location and keyword), except
    where our refinement goes deeper, and then below python-jsonschema's."""
    for what, document, where, keyword in MISTAKES:
        theirs = python_jsonschema_best(WORKFLOW, document)
        if what in DEEPER_THAN_PYTHON_JSONSCHEMA:
            assert where.startswith(theirs[0] + "/") and theirs[1] in ("oneOf", "anyOf"), what
        else:
            assert (where, keyword) == theirs, what


def test_most_workflow_mistakes_are_named_below_the_top_level_alternatives() -> None:
    """The issue: the bare message of a job's or a step's oneOf was all a user saw. Here the best
    match is a keyword other than anyOf/oneOf, or a oneOf of the very member at fault."""
    top = {"/jobs/build", "/jobs/call"}
    named = [
        what
        for what, document, _, _ in MISTAKES
        if (best := ours(WORKFLOW, document)).keyword not in ("oneOf", "anyOf")
        or best.instance_location not in top
    ]
    assert (
        len(named) == len(MISTAKES) - 1
    )  # all but a job with neither runs-on nor uses: no one cause


def test_the_best_match_of_a_step_that_both_uses_and_runs_names_the_alternatives() -> None:
    best = ours(WORKFLOW, MISTAKES[1][1])
    assert best.message == (
        '{"uses": "actions/checkout@v4", "run": "echo"} is valid under more than one of the '
        "given schemas: [0, 1]"
    )
    assert best.params == {"passingSchemas": [0, 1]}


# -- the refinements --------------------------------------------------------------------------------
NAME = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"given": {"type": "array", "items": {"type": "string"}}},
    },
}
GENDER = {"enum": ["male", "female", "other", "unknown"]}


def _resource(kind: str, **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["resourceType"],
        "additionalProperties": False,
        "properties": {"resourceType": {"const": kind}, "id": {"type": "string"}, **properties},
    }


# FHIR's shape: resources told apart by the const of their resourceType
RESOURCES = {
    "oneOf": [
        _resource("Patient", name=NAME, gender=GENDER, birthDate={"type": "string"}),
        _resource("Practitioner", name=NAME, gender=GENDER),
        _resource("Organization", alias={"type": "array"}),
    ]
}


def test_a_discriminator_picks_the_alternative_to_look_into() -> None:
    patient = {
        "resourceType": "Patient",
        "id": "p1",
        "gender": "female",
        "name": [{"given": ["Ann", 5]}],
    }
    best = ours(RESOURCES, patient)
    assert (best.instance_location, best.keyword_location) == (
        "/name/0/given/1",
        "/oneOf/0/properties/name/items/properties/given/items/type",
    )
    # python-jsonschema sees the Practitioner's equally deep error and stops at the oneOf
    assert python_jsonschema_best(RESOURCES, patient) == ("", "oneOf")
    practitioner = dict(patient, resourceType="Practitioner", birthDate="1970")
    best = ours(RESOURCES, practitioner)
    assert best.keyword_location == "/oneOf/1/properties/name/items/properties/given/items/type"


def test_without_a_discriminating_member_every_alternative_counts() -> None:
    """A const every alternative fails rules none out, and a member where two alternatives fail
    but not the third (which has no `name`: its error is the object's) is no shared cause: the
    ranking is python-jsonschema's."""
    unknown = {"resourceType": "Device", "name": [{"given": [5]}]}
    best = ours(RESOURCES, unknown)
    assert (
        (best.instance_location, best.keyword)
        == python_jsonschema_best(RESOURCES, unknown)
        == ("", "oneOf")
    )


def test_a_cause_every_alternative_shares_is_the_best_match() -> None:
    schema = {
        "oneOf": [
            {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["b"]},
        ]
    }
    best = ours(schema, {"n": "1"})
    assert (best.instance_location, best.keyword) == ("/n", "type")
    assert python_jsonschema_best(schema, {"n": "1"}) == ("", "oneOf")


def test_the_relevance_of_a_member_error_is_its_objects() -> None:
    schema = {
        "anyOf": [
            {
                "type": "object",
                "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
            },
            {"type": "object", "additionalProperties": False},
        ]
    }
    best = ours(schema, {"a": {"b": 1}})
    assert (
        (best.instance_location, best.keyword)
        == ("/a/b", "type")
        == python_jsonschema_best(schema, {"a": {"b": 1}})
    )


def test_errors_are_not_changed_by_best_match() -> None:
    found = module(WORKFLOW).errors(copy.deepcopy(MISTAKES[0][1]))
    before = [(e.keyword_location, len(e.context)) for e in found]
    module(WORKFLOW).best_match(found)
    assert [(e.keyword_location, len(e.context)) for e in found] == before


# -- ties are broken by location ------------------------------------------------------------------
def _contexts_reversed(found: list[Any]) -> list[Any]:
    """The same errors with every context's order reversed, at every depth (copies)."""
    flipped = []
    for error in reversed(found):
        twin = type(error).__new__(type(error))
        twin.__dict__.update(vars(error))
        twin.context = _contexts_reversed(error.context)
        flipped.append(twin)
    return flipped


def _where(error: Any) -> tuple[str, str, str]:
    return (error.instance_location, error.keyword_location, error.message)


def test_two_names_additional_properties_refuses_tie_and_the_first_place_wins() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
    }
    found = errors(schema, {"zeta": 1, "beta": 2, "a": "x"})
    assert [e.instance_location for e in found] == ["/zeta", "/beta"]
    for order in (found, list(reversed(found))):
        assert _where(module(schema).best_match(order)) == (
            "/beta",
            "/additionalProperties",
            'additional property "beta" is not allowed',
        )


def test_array_indices_are_places_compared_as_numbers() -> None:
    """Items unevaluatedItems refuses are equally relevant (ranked at their array): /2 comes
    before /10 (as text, "/10" would)."""
    schema = {"type": "array", "prefixItems": [{"type": "string"}, {}], "unevaluatedItems": False}
    found = errors(schema, ["x", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert len(found) == 9
    for order in (found, list(reversed(found))):
        assert module(schema).best_match(order).instance_location == "/2"


def test_two_missing_properties_tie_on_location_and_the_message_decides() -> None:
    schema = {"required": ["b", "a"]}
    found = errors(schema, {})
    for order in (found, list(reversed(found))):
        assert module(schema).best_match(order).params == {"missingProperty": "a"}


def test_the_descent_into_a_context_does_not_depend_on_its_order() -> None:
    """Inside a oneOf, the cause every alternative shares is at one object, where two names are
    refused by each alternative: the same one is chosen whatever the order of the context."""
    closed = {
        "type": "object",
        "properties": {"keep": {"type": "object", "additionalProperties": False}},
    }
    schema = {"oneOf": [{**closed, "required": ["a"]}, {**closed, "required": ["b"]}]}
    instance = {"keep": {"y": 1, "x": 2}}
    found = errors(schema, instance)
    best = module(schema).best_match(found)
    flipped = module(schema).best_match(_contexts_reversed(found))
    assert _where(best) == _where(flipped)
    assert (best.instance_location, best.keyword) == ("/keep/x", "additionalProperties")


@pytest.mark.parametrize(
    ("what", "document", "where", "keyword"), MISTAKES, ids=[m[0] for m in MISTAKES]
)
def test_workflow_best_matches_do_not_depend_on_any_order(
    what: str, document: Any, where: str, keyword: str
) -> None:
    found = errors(WORKFLOW, document)
    assert _where(module(WORKFLOW).best_match(found)) == _where(
        module(WORKFLOW).best_match(_contexts_reversed(found))
    )


def test_the_one_alternative_whose_errors_are_the_most_relevant_is_descended_into() -> None:
    """package.json's `funding` (SchemaStore): a URL string, a {url, type} object or an array of
    them. An object with a wrong member fails the object alternative twice, equally (a missing
    `url`, a name it does not allow), and the others on their type: python-jsonschema stops at the
    oneOf; the object alternative is the one the instance fits, and its first error is the cause."""
    schema = {
        "properties": {
            "funding": {
                "oneOf": [
                    {"type": "string"},
                    {
                        "type": "object",
                        "required": ["url"],
                        "additionalProperties": False,
                        "properties": {"url": {"type": "string"}, "type": {"type": "string"}},
                    },
                    {"type": "array"},
                ]
            }
        }
    }
    instance = {"funding": {"invalid-prop": "foo bar"}}
    best = ours(schema, instance)
    assert (best.instance_location, best.keyword, best.branch) == ("/funding", "required", 1)
    assert python_jsonschema_best(schema, instance) == ("/funding", "oneOf")


def test_equally_relevant_errors_of_two_alternatives_still_stop_the_descent() -> None:
    schema = {"anyOf": [{"required": ["a", "b"]}, {"required": ["c"]}]}
    assert ours(schema, {}).keyword == "anyOf" and python_jsonschema_best(schema, {}) == (
        "",
        "anyOf",
    )


def test_of_siblings_as_deep_the_later_location_wins_before_weakness() -> None:
    """python-jsonschema's relevance compares the instance location right after its depth: of two
    sibling errors the later member wins even when it is a weak anyOf (then its context is looked
    into), and array indices compare as numbers (index 10 after index 9)."""
    alternatives = {"anyOf": [{"type": "string", "minLength": 5}, {"type": "integer"}]}
    members = {"properties": {"a": {"type": "string"}, "b": alternatives}}
    best = ours(members, {"a": 1, "b": "x"})
    assert python_jsonschema_best(members, {"a": 1, "b": "x"}) == ("/b", "minLength")
    assert (best.instance_location, best.keyword_location) == (
        "/b",
        "/properties/b/anyOf/0/minLength",
    )
    items = {"prefixItems": [{}] * 9 + [{"type": "string"}], "items": alternatives}
    best = ours(items, [0] * 9 + [1, "x"])
    assert python_jsonschema_best(items, [0] * 9 + [1, "x"]) == ("/10", "minLength")
    assert (best.instance_location, best.keyword_location) == ("/10", "/items/anyOf/0/minLength")


def test_a_digit_name_comes_before_a_word_among_siblings_as_deep() -> None:
    """An object's digit name ("5") is placed as an index: before any other name, so of two sibling
    errors as deep the word's is the later and wins, as in python-jsonschema (which compares the
    names as text)."""
    schema = {"properties": {"5": {"type": "string"}, "a": {"type": "string"}}}
    instance = {"5": 1, "a": 1}
    assert python_jsonschema_best(schema, instance) == ("/a", "type")
    assert ours(schema, instance).instance_location == "/a"


def test_of_member_errors_tied_at_their_object_a_digit_name_is_the_first_place() -> None:
    """Names additionalProperties refuses are ranked at their object, so they tie; the first place
    wins, and a digit name, placed as an index, comes before a word."""
    schema = {"type": "object", "additionalProperties": False}
    found = errors(schema, {"a": 1, "5": 2})
    assert sorted(e.instance_location for e in found) == ["/5", "/a"]
    for order in (found, list(reversed(found))):
        assert module(schema).best_match(order).instance_location == "/5"


def test_a_member_one_alternative_fails_alone_is_no_shared_cause() -> None:
    """The two most relevant context errors are tied at their object (/x), at different members:
    the first (/x/a) is failed by one alternative only, so no cause is shared by all and the
    descent stops at the anyOf, though every alternative fails at the second (/x/b)."""
    schema = {
        "anyOf": [
            {"properties": {"x": {"additionalProperties": False}}},
            {"properties": {"x": {"properties": {"a": {}}, "additionalProperties": False}}},
        ]
    }
    found = errors(schema, {"x": {"a": 1, "b": 1}})
    assert [(e.instance_location, e.branch) for e in found[0].context] == [
        ("/x/a", 0),
        ("/x/b", 0),
        ("/x/b", 1),
    ]
    assert ours(schema, {"x": {"a": 1, "b": 1}}).keyword == "anyOf"


def _discriminated(alternatives: list[Any], instance: Any) -> tuple[str, str]:
    best = ours({"anyOf": alternatives}, instance)
    return best.instance_location, best.keyword_location


def test_an_alternative_of_another_type_does_not_discriminate() -> None:
    """A const the instance fails rules its alternative out only where another alternative *of the
    instance's type* accepts that member: here the other two are not objects, so the const's
    alternative stays, and its error is the deepest."""
    alternatives = [
        {"type": "object", "properties": {"kind": {"const": "A"}}},
        {"type": "array"},
        {"type": "string"},
    ]
    assert _discriminated(alternatives, {"kind": "B"}) == (
        "/kind",
        "/anyOf/0/properties/kind/const",
    )


def test_a_member_every_alternative_of_the_type_fails_does_not_discriminate() -> None:
    """Two alternatives fail the same member's const and the third is not an object: no
    alternative of the object's type accepts that member, so none is ruled out, and the two const
    errors tie: the anyOf stands."""
    alternatives = [
        {"properties": {"kind": {"const": "A"}}},
        {"properties": {"kind": {"const": "C"}}},
        {"type": "array"},
    ]
    assert _discriminated(alternatives, {"kind": "B"}) == ("", "/anyOf")


def test_an_enum_discriminates_like_a_const() -> None:
    alternatives = [
        {"properties": {"kind": {"enum": ["A"]}}, "required": ["a"]},
        {"properties": {"kind": {"enum": ["B"]}}, "required": ["b"]},
    ]
    assert _discriminated(alternatives, {"kind": "B"}) == ("", "/anyOf/1/required")


def test_a_const_of_the_whole_object_or_a_deeper_member_does_not_discriminate() -> None:
    """Only a const or enum of one of the object's own members discriminates: one of the whole
    object, or of a member's member, rules no alternative out."""
    whole = [
        {"const": {"kind": "A"}},
        {"properties": {"kind": {"type": "integer"}}},
        {"properties": {"kind": {"type": "boolean"}}},
    ]
    assert _discriminated(whole, {"kind": "B"}) == ("", "/anyOf")
    deeper = [
        {"properties": {"x": {"properties": {"k": {"const": "A"}}}}},
        {"properties": {"z": {"type": "integer"}}},
        {"properties": {"z": {"type": "boolean"}}},
    ]
    assert _discriminated(deeper, {"x": {"k": "B"}, "z": "s"}) == (
        "/x/k",
        "/anyOf/0/properties/x/properties/k/const",
    )


def test_when_every_alternative_is_ruled_out_all_are_looked_into() -> None:
    """Each alternative fails a member's const that the other accepts: ruling both out would leave
    nothing, so both count, and the context's descent goes on to /kind's error."""
    alternatives = [
        {"properties": {"kind": {"const": "A"}}},
        {"properties": {"name": {"const": "B"}}},
    ]
    assert _discriminated(alternatives, {"kind": "X", "name": "Y"}) == (
        "/kind",
        "/anyOf/0/properties/kind/const",
    )
