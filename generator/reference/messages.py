"""The reference interpreter's error messages, by name: the templates its errors are filled from
(primitives.fill, as the generated modules fill theirs). They are the oracle's own copy of the
messages the keyword units declare, so that a changed message shows as a disagreement in the
differential tests (tests/reference/test_tables.py holds the two tables equal)."""

from __future__ import annotations

MESSAGES = {
    "false": "{instance} is not allowed: the schema is false",
    "type": "{instance} is not of type {type}",
    "enum": "{instance} is not one of {allowedValues}",
    "const": "{instance} is not the expected value {allowedValue}",
    "minimum": "{instance} is less than the minimum of {limit}",
    "minimum.exclusive": "{instance} is less than or equal to the minimum of {limit}",
    "maximum": "{instance} is greater than the maximum of {limit}",
    "maximum.exclusive": "{instance} is greater than or equal to the maximum of {limit}",
    "exclusiveMinimum": "{instance} is less than or equal to the exclusiveMinimum of {limit}",
    "exclusiveMaximum": "{instance} is greater than or equal to the exclusiveMaximum of {limit}",
    "multipleOf": "{instance} is not a multiple of {multipleOf}",
    "minLength": "{instance} is too short (minLength {limit})",
    "maxLength": "{instance} is too long (maxLength {limit})",
    "pattern": "{instance} does not match the pattern {pattern}",
    "format": "{instance} is not a valid {format}",
    "contentEncoding": "{instance} is not valid {contentEncoding}",
    "contentMediaType": "{instance} is not valid {contentMediaType}",
    "contentMediaType.decoded": "{instance} is not valid {contentMediaType} content once decoded",
    "minItems": "{instance} has too few items (minItems {limit})",
    "maxItems": "{instance} has too many items (maxItems {limit})",
    "uniqueItems": "{instance} has non-unique elements: items {duplicates} are equal",
    "contains.none": "{instance} has no item that matches the contains schema",
    "contains.few": (
        "{instance} has too few items that match the contains schema"
        " ({matches}, minContains {minContains})"
    ),
    "maxContains": (
        "{instance} has too many items that match the contains schema"
        " ({matches}, maxContains {maxContains})"
    ),
    "required": "{missingProperty} is a required property",
    "additionalProperties": "additional property {additionalProperty} is not allowed",
    "additionalProperties.patterns": (
        "additional property {additionalProperty} is not allowed:"
        " it matches none of the patterns {patterns}"
    ),
    "minProperties": "{instance} has too few properties (minProperties {limit})",
    "maxProperties": "{instance} has too many properties (maxProperties {limit})",
    "dependentRequired": "{missingProperty} is a required property when {property} is present",
    "anyOf": "{instance} is not valid under any of the given schemas",
    "oneOf": "{instance} is not valid under any of the given schemas",
    "oneOf.several": (
        "{instance} is valid under more than one of the given schemas: {passingSchemas}"
    ),
    "not": "{instance} should not be valid under the schema of not",
    "unevaluatedProperties": "unevaluated property {unevaluatedProperty} is not allowed",
    "unevaluatedItems": "unevaluated item {unevaluatedItem} is not allowed",
}
