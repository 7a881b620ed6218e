"""The rules that differ between drafts (a dialect, each rule a named flag) and a profile's
limits: plain data, in a leaf module the keyword units, the profiles and the stages all read."""

from __future__ import annotations

from dataclasses import dataclass, replace

# Names the drafts allow: $anchor and $dynamicAnchor in 2020-12 (the meta-schema's anchorString),
# $anchor in 2019-09 (each profile's dialect names its rule).
ANCHOR_2020 = r"[A-Za-z_][-A-Za-z0-9._]*"
ANCHOR_2019 = r"[A-Za-z][-A-Za-z0-9.:_]*"


@dataclass(frozen=True)
class Dialect:
    """What differs between the drafts, by name (every `draft <= 7`-style rule is one of these)."""

    name: str
    ref_alone: bool  # drafts 4-7: a `$ref` beside other keywords is the whole schema
    tuple_items: bool  # before 2020-12: `items` may be an array of schemas (a tuple)
    exclusive_flags: bool  # draft 4: exclusiveMinimum/Maximum are booleans read by minimum/maximum
    float_integers: bool  # 1.0 is an integer (not in draft 4, where it is written without fraction)
    annotations: bool  # 2019-09 on: unevaluated* see what their siblings evaluated
    contains_evaluates: bool  # 2020-12: the items contains matched are evaluated items
    vocabularies: bool  # 2019-09 on: a meta-schema's $vocabulary can leave keywords out
    id_keyword: str  # "id" (draft 4) or "$id"
    id_fragment: str  # what an $id's fragment may be: "any" (draft 4 states no form), "plain-name"
    # (drafts 6 and 7: `#name` names an anchor), "none" (2019-09 on: that is $anchor's business)
    anchor_name: str  # the names $anchor/$dynamicAnchor take (a regex; 2019-09 and 2020-12 differ)


def _dialect(name: str, since: int) -> Dialect:
    return Dialect(
        name,
        ref_alone=since <= 7,
        tuple_items=since < 2020,
        exclusive_flags=since == 4,
        float_integers=since != 4,
        annotations=since >= 2019,
        contains_evaluates=since >= 2020,
        vocabularies=since >= 2019,
        id_keyword="id" if since == 4 else "$id",
        id_fragment="any" if since == 4 else "plain-name" if since <= 7 else "none",
        anchor_name=ANCHOR_2019 if since == 2019 else ANCHOR_2020,
    )


DIALECTS = {
    "draft4": _dialect("draft4", 4),
    "draft6": _dialect("draft6", 6),
    "draft7": _dialect("draft7", 7),
    "draft2019-09": _dialect("draft2019-09", 2019),
    "draft2020-12": _dialect("draft2020-12", 2020),
    # The seed profiles read their keywords as 2020-12 does, with no annotations to collect (they
    # have no unevaluated*) and no references.
    "seed": replace(
        _dialect("seed", 2020), annotations=False, contains_evaluates=False, vocabularies=False
    ),
}


@dataclass(frozen=True)
class Limits:
    max_source_bytes: int | None
    max_depth: int
    max_properties: int | None
    max_enum_values: int | None
