"""Schema hygiene for the draft profiles: a walk over the schema, apart from compiling, that finds
keywords the draft in force does not know (most often a typo: `minLenght`, `requird`, which the
drafts silently ignore) and a `--profile` that overrides a different `$schema`.

A keyword is unknown when it is neither a keyword of the draft in force (its validation,
applicator and core keywords), nor one of its annotations (title, format, readOnly, ...), nor
`$defs`/`definitions`/`$comment` (read in every draft), nor an extension named `x-...`. Names
inside `properties`, `$defs` and the other maps of schemas are names, not keywords. An embedded
`$schema` naming a known draft switches the draft for its subschema, as the compiler does.
The close keyword to suggest is found with difflib among the keywords of the draft in force.
"""

from __future__ import annotations

import difflib
import functools
import warnings
from dataclasses import dataclass
from typing import Any

from .errors import OptionError, SchemaError, SchemaWarning, join_pointer
from .keywords.base import KeywordTables
from .profiles import DRAFT_NAMES, Profile
from .resolve import META_SCHEMAS, Document, embedded_draft, normalize_meta_uri, subschema_positions

POLICIES = ("ignore", "warn", "error")

# Core keywords of each draft (the rest of the core vocabulary is in every draft's known set).
_CORE = {
    "draft4": {"id", "$schema", "$ref"},
    "draft6": {"$id", "$schema", "$ref"},
    "draft7": {"$id", "$schema", "$ref"},
    "draft2019-09": {
        "$id",
        "$schema",
        "$ref",
        "$anchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
    },
    "draft2020-12": {
        "$id",
        "$schema",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
    },
}
# Annotations (meta-data, format and content vocabularies) of each draft.
_ANNOTATIONS4 = {"title", "description", "default", "format"}
_ANNOTATIONS6 = _ANNOTATIONS4 | {"examples"}
_ANNOTATIONS7 = _ANNOTATIONS6 | {"readOnly", "writeOnly", "contentMediaType", "contentEncoding"}
_ANNOTATIONS2019 = _ANNOTATIONS7 | {"deprecated", "contentSchema"}
_ANNOTATIONS = {
    "draft4": _ANNOTATIONS4,
    "draft6": _ANNOTATIONS6,
    "draft7": _ANNOTATIONS7,
    "draft2019-09": _ANNOTATIONS2019,
    "draft2020-12": _ANNOTATIONS2019,
}
_EVERY_DRAFT = {"$defs", "definitions", "$comment"}


@functools.cache
def known_keywords(draft: str, tables: KeywordTables) -> frozenset[str]:
    """Every keyword that means something in `draft` (assertions, applicators, core, annotations),
    its enforced ones as the registry's tables say."""
    return frozenset(tables.enforced_by(draft) | _CORE[draft] | _ANNOTATIONS[draft] | _EVERY_DRAFT)


@dataclass(frozen=True)
class UnknownKeyword:
    """One keyword the draft in force does not know, where it is, and what it may have meant."""

    pointer: str  # of the keyword itself: /properties/name/minLenght
    keyword: str
    draft: str
    suggestion: str | None  # a close keyword of the draft, if any
    known_in: str | None  # another draft that has this keyword, if any

    @property
    def message(self) -> str:
        return f"unknown keyword {self.keyword!r}{self._why()}: {self.draft} ignores it"

    @property
    def several(self) -> str:
        """The message of a number of them, after the number."""
        return f"unknown keywords {self.keyword!r}{self._why()}: {self.draft} ignores them"

    def _why(self) -> str:
        if self.suggestion:
            return f" (did you mean {self.suggestion!r}?)"
        if self.known_in:
            return f" (a keyword of {self.known_in}, not of {self.draft})"
        return ""


def _suggestion(keyword: str, known: frozenset[str]) -> str | None:
    folded = {k.lower(): k for k in known}
    if keyword.lower() in folded:
        return folded[keyword.lower()]
    close = difflib.get_close_matches(keyword, sorted(known), n=1, cutoff=0.75)
    return close[0] if close else None


def _other_draft(keyword: str, draft: str, tables: KeywordTables) -> str | None:
    for other in DRAFT_NAMES:
        if other != draft and keyword in known_keywords(other, tables):
            return other
    return None


def _subschemas(
    schema: dict[str, Any], known: frozenset[str], tables: KeywordTables
) -> list[tuple[tuple[str | int, ...], Any]]:
    """(path, subschema) for the subschemas under the keywords `known` holds (where a keyword holds
    schemas is its unit's declaration: resolve.subschema_positions)."""
    return [
        (path, sub)
        for path, sub in subschema_positions(schema, tables.holding)
        if path[0] in known and isinstance(sub, dict)
    ]


def unknown_keywords(schema: Any, draft: str, tables: KeywordTables) -> list[UnknownKeyword]:
    """Every unknown keyword in `schema` read as `draft`, in document order (an iterative walk)."""
    found: list[UnknownKeyword] = []
    stack: list[tuple[str, Any, str]] = [("", schema, draft)]
    while stack:
        pointer, node, in_force = stack.pop()
        if not isinstance(node, dict):
            continue
        in_force = embedded_draft(node, pointer) or in_force
        known = known_keywords(in_force, tables)
        for keyword in node:
            if keyword not in known and not keyword.startswith("x-"):
                found.append(
                    UnknownKeyword(
                        join_pointer(pointer, keyword),
                        keyword,
                        in_force,
                        _suggestion(keyword, known),
                        _other_draft(keyword, in_force, tables),
                    )
                )
        children = _subschemas(node, known, tables)
        stack.extend(
            (join_pointer(pointer, *path), sub, in_force) for path, sub in reversed(children)
        )
    return found


def check_policy(policy: Any) -> str:
    if policy not in POLICIES:
        raise OptionError(f"unknown_keywords must be one of {', '.join(POLICIES)}, not {policy!r}")
    return str(policy)


def review(
    schema: Any,
    chosen: Profile,
    *,
    tables: KeywordTables,
    policy: str = "ignore",
    requested_profile: str | None = None,
    pointer: str = "",
) -> None:
    """Apply the unknown-keyword policy to a preflighted schema of a draft profile: ignore, warn
    (one SchemaWarning per keyword) or error (one SchemaError listing them all); under warn and
    error, a `requested_profile` that overrides a different `$schema` is warned about.
    `pointer` prefixes every location (a tool contract's /input)."""
    check_policy(policy)
    if policy == "ignore" or chosen.draft is None:
        return
    _warn_profile_override(schema, chosen.draft, requested_profile, pointer)
    _report(
        [(pointer + item.pointer, item) for item in unknown_keywords(schema, chosen.draft, tables)],
        policy,
    )


def review_documents(
    documents: tuple[Document, ...],
    chosen: Profile,
    *,
    tables: KeywordTables,
    policy: str = "ignore",
    reviewed: set[int] | None = None,
) -> None:
    """review() for the registry's documents a schema's references reached, each read as its own
    draft and located by its URI (`https://example.com/item.json#/properties/n/minimun`): a typo in
    a file a $ref names is as easy to miss as one in the contract. A document is reviewed once,
    whatever URIs reached it (its file's, its $id): `reviewed` holds the id() of each value
    reviewed, across calls where given (a tool contract's two sides)."""
    if policy == "ignore" or chosen.draft is None:
        return
    reviewed = set() if reviewed is None else reviewed
    found = []
    for document in documents:
        if id(document.value) not in reviewed:
            reviewed.add(id(document.value))
            found += [
                (f"{document.uri}#{item.pointer}", item)
                for item in unknown_keywords(document.value, document.draft, tables)
            ]
    _report(found, policy)


def _report(found: list[tuple[str, UnknownKeyword]], policy: str) -> None:
    """The policy applied to unknown keywords at their locations: one SchemaError listing them all
    ("error"), or a SchemaWarning each ("warn")."""
    if not found:
        return
    if policy == "error":
        listed = "; ".join(f"{where}: {item.message}" for where, item in found)
        raise SchemaError(
            f"{len(found)} unknown keyword(s): {listed}",
            code="unknown-keyword",
            pointer=found[0][0],
        )
    for where, item in found:
        warnings.warn(
            SchemaWarning(
                item.message, code="unknown-keyword", pointer=where, several=item.several
            ),
            stacklevel=4,
        )


def _warn_profile_override(schema: Any, draft: str, requested: str | None, pointer: str) -> None:
    meta = schema.get("$schema") if isinstance(schema, dict) else None
    if requested is None or not isinstance(meta, str):
        return
    named = META_SCHEMAS.get(normalize_meta_uri(meta))
    if named is not None and named != draft:
        warnings.warn(
            SchemaWarning(
                f"profile {requested} overrides $schema, which names {named}",
                code="profile-overrides-schema",
                pointer=pointer + "/$schema",
            ),
            stacklevel=4,
        )
