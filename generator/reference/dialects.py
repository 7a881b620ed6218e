"""The rules that differ between the drafts, as the reference interpreter reads them, and what it
tells the resolver about the keywords (resolve.KeywordReading): its own tables, written out, so
that nothing here comes from the compiler's keyword units."""

from __future__ import annotations

from dataclasses import dataclass

from ..resolve import KeywordReading


@dataclass(frozen=True)
class Dialect:
    """What differs between the drafts, each a named flag."""

    name: str
    ref_alone: bool  # drafts 4-7: a `$ref` beside other keywords is the whole schema
    tuple_items: bool  # before 2020-12: `items` may be an array of schemas (a tuple)
    exclusive_flags: bool  # draft 4: exclusiveMinimum/Maximum are booleans read by minimum/maximum
    float_integers: bool  # 1.0 is an integer (not in draft 4)
    annotations: bool  # 2019-09 on: unevaluated* see what their siblings evaluated
    contains_evaluates: bool  # 2020-12: the items contains matched are evaluated items
    vocabularies: bool  # 2019-09 on: a meta-schema's $vocabulary can leave keywords out
    id_keyword: str  # "id" (draft 4) or "$id"
    id_fragment: (
        str  # "any" (draft 4), "plain-name" (6, 7: `#name` is an anchor), "none" (2019-09 on)
    )


DRAFT4 = Dialect("draft4", True, True, True, False, False, False, False, "id", "any")
DRAFT6 = Dialect("draft6", True, True, False, True, False, False, False, "$id", "plain-name")
DRAFT7 = Dialect("draft7", True, True, False, True, False, False, False, "$id", "plain-name")
DRAFT2019_09 = Dialect("draft2019-09", False, True, False, True, True, False, True, "$id", "none")
DRAFT2020_12 = Dialect("draft2020-12", False, False, False, True, True, True, True, "$id", "none")
# The seed profiles read their keywords as 2020-12 does, with no annotations to collect (they have
# no unevaluated*) and no references.
SEED = Dialect("seed", False, False, False, True, False, False, False, "$id", "none")

DIALECTS = {d.name: d for d in (DRAFT4, DRAFT6, DRAFT7, DRAFT2019_09, DRAFT2020_12)}

# Where a keyword's value holds subschemas, in any draft: (a schema, an array of schemas, a map of
# schemas). The resolver walks these to index $id and anchors.
SCHEMA, SCHEMAS, MAP = (True, False, False), (False, True, False), (False, False, True)
HOLDING = {
    "additionalItems": SCHEMA,
    "additionalProperties": SCHEMA,
    "allOf": SCHEMAS,
    "anyOf": SCHEMAS,
    "contains": SCHEMA,
    "definitions": MAP,
    "dependencies": MAP,
    "dependentSchemas": MAP,
    "else": SCHEMA,
    "if": SCHEMA,
    "items": (True, True, False),  # a schema, or (before 2020-12) an array of them
    "not": SCHEMA,
    "oneOf": SCHEMAS,
    "patternProperties": MAP,
    "prefixItems": SCHEMAS,
    "properties": MAP,
    "propertyNames": SCHEMA,
    "then": SCHEMA,
    "unevaluatedItems": SCHEMA,
    "unevaluatedProperties": SCHEMA,
    "$defs": MAP,
}

READING = KeywordReading(dialects=DIALECTS, holding=HOLDING)
