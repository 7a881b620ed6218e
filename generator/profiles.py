"""Profiles: named schema subsets, as data (DESIGN.md, "Profiles")."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import OptionError

TYPE_NAMES = ("null", "boolean", "object", "array", "number", "integer", "string")


@dataclass(frozen=True)
class Limits:
    max_source_bytes: int | None
    max_depth: int
    max_properties: int | None
    max_enum_values: int | None


@dataclass(frozen=True)
class Profile:
    name: str
    enforced: frozenset[str]
    annotations: frozenset[str]
    fail_closed: bool  # unknown keywords reject the schema (True) or are ignored (False)
    limits: Limits
    type_arrays: bool = True  # "type": ["string", "null"]
    schema_additional_properties: bool = True  # additionalProperties may be a schema
    boolean_subschemas: bool = True  # true/false may stand for a subschema
    integer_multiple_of_only: bool = False
    draft: str | None = None  # the JSON Schema draft a full-draft profile implements
    float_integers: bool = True  # 1.0 is an integer (false only in draft 4)

    def keyword_status(self, keyword: str) -> str:
        """'enforced', 'annotation' or 'unknown'."""
        if keyword in self.enforced:
            return "enforced"
        if keyword in self.annotations:
            return "annotation"
        return "unknown"


# Recursion in the compiler and in the error path grows with schema depth; this bound keeps every
# stage well inside Python's default recursion limit.
HARD_MAX_DEPTH = 200

OCTOSCRIPT = Profile(
    name="octoscript",
    enforced=frozenset(
        {
            "type", "properties", "required", "additionalProperties", "items",
            "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "enum",
        }
    ),
    annotations=frozenset({"title", "description", "default", "examples", "$schema", "$id"}),
    fail_closed=True,
    limits=Limits(max_source_bytes=32 * 1024, max_depth=32, max_properties=128, max_enum_values=128),
    type_arrays=False,
    schema_additional_properties=False,
    boolean_subschemas=False,
)

STRICT = Profile(
    name="strict",
    enforced=frozenset(
        {
            "type", "enum", "const", "pattern", "minLength", "maxLength",
            "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
            "items", "prefixItems", "minItems", "maxItems", "uniqueItems",
            "properties", "required", "additionalProperties",
            "oneOf", "anyOf", "allOf", "not",
        }
    ),
    annotations=frozenset(
        {"title", "description", "default", "examples", "format", "$schema", "$id"}
    ),
    fail_closed=True,
    limits=Limits(max_source_bytes=16 * 1024 * 1024, max_depth=64, max_properties=None,
                  max_enum_values=None),
    integer_multiple_of_only=True,
)

LENIENT = Profile(
    name="lenient",
    enforced=frozenset({"type", "required", "properties"}),
    annotations=frozenset(),
    fail_closed=False,
    limits=Limits(max_source_bytes=16 * 1024 * 1024, max_depth=64, max_properties=None,
                  max_enum_values=None),
)

_DRAFT4 = frozenset(
    {
        "type", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "items", "additionalItems", "maxItems", "minItems",
        "uniqueItems", "maxProperties", "minProperties", "required", "properties",
        "patternProperties", "additionalProperties", "dependencies", "allOf", "anyOf", "oneOf",
        "not", "$ref",
    }
)
_DRAFT6 = _DRAFT4 | {"const", "contains", "propertyNames"}
_DRAFT7 = _DRAFT6 | {"if", "then", "else"}
_DRAFT2019 = (_DRAFT7 - {"dependencies"}) | {
    "dependentRequired", "dependentSchemas", "maxContains", "minContains", "unevaluatedItems",
    "unevaluatedProperties", "$recursiveRef",
}
_DRAFT2020 = (_DRAFT2019 - {"additionalItems", "$recursiveRef"}) | {"prefixItems", "$dynamicRef"}
# Keywords of the core vocabulary that the resolver reads; never checks of their own.
CORE = frozenset({"$schema", "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$defs",
                  "definitions", "$vocabulary", "$comment"})
# The keywords each vocabulary of a custom meta-schema ($vocabulary) can switch off.
VALIDATION_VOCABULARY = frozenset(
    {"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
     "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
     "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired"}
)
APPLICATOR_VOCABULARY = frozenset(
    {"prefixItems", "items", "additionalItems", "contains", "additionalProperties", "properties",
     "patternProperties", "dependentSchemas", "propertyNames", "if", "then", "else", "allOf",
     "anyOf", "oneOf", "not"}
)
UNEVALUATED_VOCABULARY = frozenset({"unevaluatedItems", "unevaluatedProperties"})


def _draft(name: str, enforced: frozenset[str], *, float_integers: bool = True) -> Profile:
    return Profile(
        name=name,
        enforced=frozenset(enforced),
        annotations=CORE,
        fail_closed=False,
        limits=Limits(max_source_bytes=16 * 1024 * 1024, max_depth=128, max_properties=None,
                      max_enum_values=None),
        draft=name,
        float_integers=float_integers,
    )


DRAFT_PROFILES = {
    "draft2020-12": _draft("draft2020-12", _DRAFT2020),
    "draft2019-09": _draft("draft2019-09", _DRAFT2019),
    "draft7": _draft("draft7", _DRAFT7),
    "draft6": _draft("draft6", _DRAFT6),
    "draft4": _draft("draft4", _DRAFT4, float_integers=False),
}

PROFILES = {p.name: p for p in (OCTOSCRIPT, STRICT, LENIENT, *DRAFT_PROFILES.values())}

# Options that set limits, with what each must be.
LIMIT_OPTIONS = ("max_source_bytes", "max_depth", "max_properties", "max_enum_values")


def get_profile(name: Any) -> Profile:
    if not isinstance(name, str) or name not in PROFILES:
        raise OptionError(
            f"unknown profile {name!r}; choose one of: {', '.join(sorted(PROFILES))}",
            code="unknown-profile",
        )
    return PROFILES[name]


def with_options(profile: Profile, options: dict[str, Any]) -> Profile:
    """The profile with limits overridden by options. Unknown options are an OptionError."""
    unknown = sorted(set(options) - set(LIMIT_OPTIONS))
    if unknown:
        raise OptionError(
            f"unknown option(s): {', '.join(unknown)}; known: {', '.join(LIMIT_OPTIONS)}"
        )
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if value is None and key != "max_depth":
            changes[key] = None
            continue
        if type(value) is not int or value < 1:
            raise OptionError(f"option {key} must be a positive integer, not {value!r}")
        if key == "max_depth" and value > HARD_MAX_DEPTH:
            raise OptionError(f"option max_depth may be at most {HARD_MAX_DEPTH}, not {value}")
        changes[key] = value
    if not changes:
        return profile
    return replace(profile, limits=replace(profile.limits, **changes))
