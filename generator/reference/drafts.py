"""The reference interpreter's tables: for each draft and each seed profile, the keywords it
enforces and the function (keywords.py) that reads each, like python-jsonschema's per-draft
`VALIDATORS`. A keyword mapped to None is enforced but read by a sibling's function (then/else by
`if`, minContains/maxContains by `contains`). The optional assertions (`format`; draft 7's content
keywords) are checks only where the format options (or a meta-schema's $vocabulary) make them so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from . import keywords as k
from .dialects import DRAFT4, DRAFT6, DRAFT7, DRAFT2019_09, DRAFT2020_12, SEED, Dialect

Keyword = Callable[..., Any]


@dataclass(frozen=True)
class Table:
    name: str
    dialect: Dialect
    keywords: Mapping[str, Keyword | None]
    formats: Mapping[str, Keyword] = field(default_factory=dict)  # optional: format options
    content: Mapping[str, Keyword] = field(default_factory=dict)  # optional: content options
    format_draft: str = "draft2020-12"  # the draft whose formats apply


# The keywords of the validation vocabulary: a custom meta-schema's $vocabulary can leave it out.
VALIDATION = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minContains",
        "maxContains",
        "required",
        "minProperties",
        "maxProperties",
        "dependentRequired",
    }
)
# Applied after their siblings, with what those evaluated, in this order.
LAST = ("unevaluatedItems", "unevaluatedProperties")

DRAFT2020_12_KEYWORDS: dict[str, Keyword | None] = {
    "$ref": k.ref,
    "$dynamicRef": k.dynamic_ref,
    "type": k.type_,
    "enum": k.enum,
    "const": k.const,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "prefixItems": k.prefix_items,
    "items": k.items,
    "contains": k.contains,
    "minContains": None,
    "maxContains": None,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "patternProperties": k.pattern_properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "minProperties": k.min_properties,
    "maxProperties": k.max_properties,
    "dependentRequired": k.dependent_required,
    "dependentSchemas": k.dependent_schemas,
    "dependencies": k.dependencies,  # still read, as 2019-09 reads it
    "propertyNames": k.property_names,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
    "if": k.if_,
    "then": None,
    "else": None,
    "unevaluatedItems": k.unevaluated_items,
    "unevaluatedProperties": k.unevaluated_properties,
}

DRAFT2019_09_KEYWORDS: dict[str, Keyword | None] = {
    "$ref": k.ref,
    "$recursiveRef": k.recursive_ref,
    "type": k.type_,
    "enum": k.enum,
    "const": k.const,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "items": k.items,
    "additionalItems": k.additional_items,
    "contains": k.contains,
    "minContains": None,
    "maxContains": None,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "patternProperties": k.pattern_properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "minProperties": k.min_properties,
    "maxProperties": k.max_properties,
    "dependentRequired": k.dependent_required,
    "dependentSchemas": k.dependent_schemas,
    "dependencies": k.dependencies,
    "propertyNames": k.property_names,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
    "if": k.if_,
    "then": None,
    "else": None,
    "unevaluatedItems": k.unevaluated_items,
    "unevaluatedProperties": k.unevaluated_properties,
}

DRAFT7_KEYWORDS: dict[str, Keyword | None] = {
    "$ref": k.ref,
    "type": k.type_,
    "enum": k.enum,
    "const": k.const,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "items": k.items,
    "additionalItems": k.additional_items,
    "contains": k.contains,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "patternProperties": k.pattern_properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "minProperties": k.min_properties,
    "maxProperties": k.max_properties,
    "dependencies": k.dependencies,
    "propertyNames": k.property_names,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
    "if": k.if_,
    "then": None,
    "else": None,
}

DRAFT6_KEYWORDS: dict[str, Keyword | None] = {
    "$ref": k.ref,
    "type": k.type_,
    "enum": k.enum,
    "const": k.const,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "items": k.items,
    "additionalItems": k.additional_items,
    "contains": k.contains,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "patternProperties": k.pattern_properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "minProperties": k.min_properties,
    "maxProperties": k.max_properties,
    "dependencies": k.dependencies,
    "propertyNames": k.property_names,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
}

DRAFT4_KEYWORDS: dict[str, Keyword | None] = {
    "$ref": k.ref,
    "type": k.type_,
    "enum": k.enum,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,  # a boolean flag, read by minimum
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "items": k.items,
    "additionalItems": k.additional_items,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "patternProperties": k.pattern_properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "minProperties": k.min_properties,
    "maxProperties": k.max_properties,
    "dependencies": k.dependencies,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
}

# The seed profiles: no references, no annotations; their keywords read as 2020-12's.
STRICT_KEYWORDS: dict[str, Keyword | None] = {
    "type": k.type_,
    "enum": k.enum,
    "const": k.const,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "exclusiveMinimum": k.exclusive_minimum,
    "exclusiveMaximum": k.exclusive_maximum,
    "multipleOf": k.multiple_of,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "pattern": k.pattern,
    "prefixItems": k.prefix_items,
    "items": k.items,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "uniqueItems": k.unique_items,
    "properties": k.properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
    "allOf": k.all_of,
    "anyOf": k.any_of,
    "oneOf": k.one_of,
    "not": k.not_,
}

OCTOSCRIPT_KEYWORDS: dict[str, Keyword | None] = {
    "type": k.type_,
    "enum": k.enum,
    "minimum": k.minimum,
    "maximum": k.maximum,
    "minLength": k.min_length,
    "maxLength": k.max_length,
    "items": k.items,
    "minItems": k.min_items,
    "maxItems": k.max_items,
    "properties": k.properties,
    "additionalProperties": k.additional_properties,
    "required": k.required,
}

LENIENT_KEYWORDS: dict[str, Keyword | None] = {
    "type": k.type_,
    "properties": k.properties,
    "required": k.required,
}

FORMAT = {"format": k.format_}
CONTENT = {"contentEncoding": k.content_encoding, "contentMediaType": k.content_media_type}

TABLES = {
    "draft2020-12": Table(
        "draft2020-12", DRAFT2020_12, DRAFT2020_12_KEYWORDS, FORMAT, {}, "draft2020-12"
    ),
    "draft2019-09": Table(
        "draft2019-09", DRAFT2019_09, DRAFT2019_09_KEYWORDS, FORMAT, {}, "draft2019-09"
    ),
    "draft7": Table("draft7", DRAFT7, DRAFT7_KEYWORDS, FORMAT, CONTENT, "draft7"),
    "draft6": Table("draft6", DRAFT6, DRAFT6_KEYWORDS, FORMAT, {}, "draft6"),
    "draft4": Table("draft4", DRAFT4, DRAFT4_KEYWORDS, FORMAT, {}, "draft4"),
    "strict": Table("strict", SEED, STRICT_KEYWORDS, FORMAT),
    "octoscript": Table("octoscript", SEED, OCTOSCRIPT_KEYWORDS),
    "lenient": Table("lenient", SEED, LENIENT_KEYWORDS),
}
DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
