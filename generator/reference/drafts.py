"""The reference interpreter's walk, for the five drafts and the seed profiles alike.

Like python-jsonschema's `_keywords.py`, it walks the raw schema and calls one small function per
keyword (each keyword unit in generator/keywords/ holds its reading), which yields what it finds.
It shares only the leaf primitives (JSON equality, exact number tests, regex translation) and the
resolver (`resolve.Registry`) with the compiler, never the lowering. It defines the meaning of the
profiles, so it is plain, not fast.

What a keyword function yields:
- `Error`: a failed assertion, at (instance location, keyword location);
- `Evaluated`: an annotation, the property names / item indices of *this* instance that the
  keyword evaluated (for unevaluatedProperties / unevaluatedItems).
A function that descends into a child instance (properties, items, ...) passes on the child's
errors only; an in-place applicator (allOf, $ref, ...) passes on a subschema's annotations only
when that subschema is valid. `descend` runs the keywords marked `last` (unevaluated*) after the
others, with the annotations their siblings produced.

Where the evaluation stands in the schema is a `Here`: the document and JSON pointer of the
current schema, the profile in force there (a draft, changed by an embedded `$schema`), whether the
validation vocabulary is on, and the dynamic scope: the schema resources entered so far, outermost
first. A resource is entered when evaluation reaches a location that is a resource root, and when a
$ref / $dynamicRef / $recursiveRef leads to a location inside it (not only to its root).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Mapping
from urllib.parse import urldefrag

from .. import primitives as p
from ..errors import SchemaError, join_pointer
from ..format_options import DEFAULT as DEFAULT_FORMATS
from ..format_options import FormatOptions
from ..keywords.registry import KEYWORDS
from ..profiles import (
    DRAFT_PROFILES,
    VALIDATION_VOCABULARY,
    Dialect,
    Profile,
    asserts_formats_by_vocabulary,
    with_formats,
)
from ..resolve import META_SCHEMAS, Location, Registry, check_base_uri, normalize_meta_uri
from .results import Error, Evaluated, Results, error

__all__ = ["DraftReference", "Error", "Evaluated", "Here"]

# The validation vocabularies (2019-09 and 2020-12): its keywords are no-ops under a meta-schema
# whose $vocabulary does not name it.
VALIDATION_VOCABULARIES = {
    "https://json-schema.org/draft/2020-12/vocab/validation",
    "https://json-schema.org/draft/2019-09/vocab/validation",
}
# The keywords the walk applies last, with what the others evaluated, in this order.
LAST = tuple(k.name for k in sorted((k for k in KEYWORDS.values() if k.last), key=lambda k: k.name))


@dataclass(frozen=True)
class Here:
    """The location of the schema being evaluated, the dynamic scope, and the profile in force."""

    document: str
    pointer: str
    scope: tuple[str, ...] = ()
    profile: Profile = DRAFT_PROFILES["draft2020-12"]  # set by `descend` from the location
    validation: bool = True  # False when a custom meta-schema's $vocabulary leaves validation out

    @property
    def dialect(self) -> Dialect:
        return self.profile.dialect

    def down(self, *tokens: str | int) -> Here:
        return replace(self, pointer=join_pointer(self.pointer, *tokens))


class DraftReference:
    """A validator that interprets `schema` under `draft` ("draft2020-12", ..., "draft4"), or
    under a seed profile (`profile`, which has no references; its keywords read as 2020-12's).

    `registry` maps URIs to further schema documents that `$ref` may name; `base_uri` is the URI of
    the schema itself. An unresolvable `$ref` raises SchemaError when evaluation reaches it.
    `format_options` makes `format` (and draft 7's content keywords) checks, as the compiler's
    options do, with the same checkers.
    """

    def __init__(
        self,
        schema: Any,
        draft: str,
        *,
        registry: Mapping[str, Any] | None = None,
        base_uri: str = "",
        profile: Profile | None = None,
        format_options: FormatOptions = DEFAULT_FORMATS,
    ) -> None:
        DRAFT_PROFILES[draft]  # KeyError for an unknown draft name
        self.seed = profile  # a seed profile in force everywhere (no $schema applies)
        self.format_options = format_options
        check_base_uri(base_uri)
        self.registry = Registry(draft=draft, supplied=registry or {})
        self.document = self.registry.add(base_uri, schema)
        self.schema = schema
        self._dialects: dict[str, tuple[Profile, bool]] = {}

    # -- entry points ---------------------------------------------------------------------------
    def errors(self, instance: Any) -> list[Error]:
        return [
            r
            for r in self.descend(self.schema, instance, "", "", self._root())
            if isinstance(r, Error)
        ]

    def is_valid(self, instance: Any) -> bool:
        return not any(
            isinstance(r, Error) for r in self.descend(self.schema, instance, "", "", self._root())
        )

    def _root(self) -> Here:
        return Here(self.document.uri, "")

    # -- the walk -------------------------------------------------------------------------------
    def enforces(self, at: Here, keyword: str) -> bool:
        """Whether `keyword` is a check where evaluation stands."""
        return at.profile.keyword_status(keyword) == "enforced" and (
            at.validation or keyword not in VALIDATION_VOCABULARY
        )

    def descend(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Results:
        """Errors and annotations of `instance` (at `ip`) against `schema` (reached by `kp`, at `at`).
        A subclass (of str, list, dict, int, float, Decimal) is read as the JSON value it holds."""
        instance = p.plain(instance)
        if schema is True:
            return
        if schema is False:
            yield error("false", "false", instance, ip, kp)
            return
        if not isinstance(schema, dict):
            return  # not a schema: nothing to apply
        at = self.arrive(at)
        words: Iterable[tuple[str, Any]] = schema.items()
        if at.dialect.ref_alone and "$ref" in schema:
            words = [("$ref", schema["$ref"])]  # before 2019-09, $ref's siblings are ignored
        properties: set[str] = set()
        items: set[int] = set()
        for keyword, value in words:
            unit = KEYWORDS.get(keyword)
            if (
                unit is None
                or unit.reference is None
                or unit.last
                or not self.enforces(at, keyword)
            ):
                continue
            for result in unit.reference(
                self, value, instance, schema, ip, join_pointer(kp, keyword), at
            ):
                if isinstance(result, Evaluated):
                    properties |= result.properties
                    items |= result.items
                yield result
        if at.dialect.annotations:
            seen = Evaluated(frozenset(properties), frozenset(items))
            for keyword in LAST:
                if keyword in schema and self.enforces(at, keyword):
                    reference = KEYWORDS[keyword].reference
                    assert reference is not None
                    yield from reference(
                        self,
                        schema[keyword],
                        instance,
                        schema,
                        ip,
                        join_pointer(kp, keyword),
                        at,
                        seen,
                    )  # type: ignore[call-arg]

    def arrive(self, at: Here) -> Here:
        """`at` with the resource at this location (if any) entered, and its profile."""
        key = at.document + "#" + at.pointer
        profile, validation = self.dialect(at.document, at.pointer)
        scope = at.scope
        resource = self.registry.resource_of.get(key)
        if resource is not None:
            scope = scope + (resource,)
        return replace(at, scope=scope, profile=profile, validation=validation)

    def dialect(self, document: str, pointer: str) -> tuple[Profile, bool]:
        """(profile, validation vocabulary on?) at a location: the document's draft, changed by
        every `$schema` on the way down to the location."""
        if self.seed is not None:
            return self.seed, True
        key = document + "#" + pointer
        if key not in self._dialects:
            doc = self.registry.documents[document]
            profile, validation = with_formats(DRAFT_PROFILES[doc.draft], self.format_options), True
            node = doc.value
            walked = ""
            for token in [None, *(pointer.split("/")[1:] if pointer else [])]:
                if token is not None:
                    token = token.replace("~1", "/").replace("~0", "~")
                    walked = join_pointer(walked, token)
                    node = node[int(token)] if isinstance(node, list) else node[token]
                if isinstance(node, dict) and isinstance(node.get("$schema"), str):
                    profile, validation = self._meta_dialect(node["$schema"], profile, walked)
            self._dialects[key] = (profile, validation)
        return self._dialects[key]

    def _meta_dialect(self, meta: str, profile: Profile, pointer: str) -> tuple[Profile, bool]:
        known = META_SCHEMAS.get(normalize_meta_uri(meta))
        if known is not None:
            return with_formats(DRAFT_PROFILES[known], self.format_options), True
        if not profile.dialect.vocabularies:
            return profile, True
        try:
            found = self.registry.lookup(meta, "", join_pointer(pointer, "$schema"))
        except SchemaError:
            return profile, True  # an unknown meta-schema: no vocabulary information
        vocabulary = found.schema.get("$vocabulary") if isinstance(found.schema, dict) else None
        if not isinstance(vocabulary, dict):
            return profile, True
        formats = replace(profile, format_vocabulary=asserts_formats_by_vocabulary(vocabulary))
        return with_formats(formats, self.format_options), any(
            uri in vocabulary for uri in VALIDATION_VOCABULARIES
        )

    # -- helpers for keyword functions ------------------------------------------------------------
    def child(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Iterator[Error]:
        """The errors of a child instance (an item, a property value, a name): its annotations are
        about the child, not about the current instance, so they are dropped."""
        for result in self.descend(schema, instance, ip, kp, at):
            if isinstance(result, Error):
                yield result

    def outcome(
        self, schema: Any, instance: Any, ip: str, kp: str, at: Here
    ) -> tuple[list[Error], list[Evaluated]]:
        errors: list[Error] = []
        annotations: list[Evaluated] = []
        for result in self.descend(schema, instance, ip, kp, at):
            if isinstance(result, Error):
                errors.append(result)
            else:
                annotations.append(result)
        return errors, annotations

    def in_place(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> Results:
        """A subschema applied to the same instance: its errors, or its annotations if it is valid."""
        errors, annotations = self.outcome(schema, instance, ip, kp, at)
        yield from errors or annotations

    def valid(self, schema: Any, instance: Any, ip: str, kp: str, at: Here) -> bool:
        return not any(isinstance(r, Error) for r in self.descend(schema, instance, ip, kp, at))

    def base(self, at: Here) -> str:
        return self.registry.location(at.document, at.pointer).base

    def follow(self, keyword: str, reference: str, at: Here) -> tuple[Any, Here]:
        """Where a reference (`keyword` is $ref, $dynamicRef or $recursiveRef) leads, statically.
        Following it enters the resource the target lies in, even when the target is not that
        resource's root (the suite's "$dynamicRef avoids the root of each schema, but scopes are
        still registered"); `descend` enters a resource root by itself."""
        base = self.base(at)
        where = join_pointer(at.pointer, keyword)
        target = self.registry.lookup(reference, base, where)
        return self.enter(target, at.scope)

    def enter(self, location: Location, scope: tuple[str, ...]) -> tuple[Any, Here]:
        """The schema at `location` and where evaluation stands there, coming from `scope`."""
        if location.key not in self.registry.resource_of:
            scope = scope + (urldefrag(location.base)[0],)
        return location.schema, Here(location.document.uri, location.pointer, scope)
