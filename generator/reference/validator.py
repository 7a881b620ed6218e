"""The reference interpreter's walk, for the five drafts and the seed profiles alike.

Like python-jsonschema's validators, it walks the raw schema and calls, for each keyword, the
function the table of the draft in force names (drafts.py, keywords.py), which yields what it
finds. It shares only leaf primitives (JSON equality, exact number tests, the ECMA-262 regex
matcher, the format checkers) and the resolver (`resolve.Registry`, told the keywords' shapes by
dialects.py) with the compiler, never the keyword units or a compiler stage. It defines the
meaning of the profiles, so it is plain, not fast.

What a keyword function yields:
- `Error`: a failed assertion, at (instance location, keyword location);
- `Evaluated`: an annotation, the property names / item indices of *this* instance that the
  keyword evaluated (for unevaluatedProperties / unevaluatedItems).
A function that descends into a child instance (properties, items, ...) passes on the child's
errors only; an in-place applicator (allOf, $ref, ...) passes on a subschema's annotations only
when that subschema is valid. `descend` runs unevaluated* (drafts.LAST) after the others, with
the annotations their siblings produced.

Where the evaluation stands in the schema is a `Here`: the document and JSON pointer of the
current schema, the rules in force there (a draft's table, changed by an embedded `$schema`),
whether the validation vocabulary is on, and the dynamic scope: the schema resources entered so
far, outermost first. A resource is entered when evaluation reaches a location that is a resource
root, and when a $ref / $dynamicRef / $recursiveRef leads to a location inside it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Mapping
from urllib.parse import urldefrag

from .. import primitives as p
from ..errors import SchemaError, join_pointer
from ..format_options import DEFAULT as DEFAULT_FORMATS
from ..format_options import FormatOptions
from ..resolve import META_SCHEMAS, Location, Registry, check_base_uri, normalize_meta_uri
from .dialects import READING, Dialect
from .drafts import LAST, TABLES, VALIDATION, Keyword, Table
from .results import Error, Evaluated, Results, error

__all__ = ["DraftReference", "Error", "Evaluated", "Here", "Rules", "rules"]

# The validation vocabularies (2019-09 and 2020-12): its keywords are no-ops under a meta-schema
# whose $vocabulary does not name it.
VALIDATION_VOCABULARIES = {
    "https://json-schema.org/draft/2020-12/vocab/validation",
    "https://json-schema.org/draft/2019-09/vocab/validation",
}
# The vocabularies that make `format` an assertion when a custom meta-schema's $vocabulary names
# them: 2020-12's format-assertion (whatever its boolean), 2019-09's format vocabulary if `true`.
FORMAT_ASSERTION_2020 = "https://json-schema.org/draft/2020-12/vocab/format-assertion"
FORMAT_2019 = "https://json-schema.org/draft/2019-09/vocab/format"


@dataclass(frozen=True)
class Rules:
    """The keywords that are checks where evaluation stands, each with its function (None: read
    by a sibling's), and the dialect, formats and format options in force."""

    name: str
    dialect: Dialect
    checks: Mapping[str, Keyword | None]
    draft: str  # the draft whose formats apply
    format_options: FormatOptions


def rules(table: Table, options: FormatOptions, format_vocabulary: bool = False) -> Rules:
    """A table's rules: its keywords, with `format` a check where the options (else a
    meta-schema's $vocabulary) ask for it, and draft 7's content keywords where the options do."""
    checks = dict(table.keywords)
    if options.asserts_format(format_vocabulary):
        checks.update(table.formats)
    if options.asserts_content(False):
        checks.update(table.content)
    return Rules(table.name, table.dialect, checks, table.format_draft, options)


@dataclass(frozen=True)
class Here:
    """The location of the schema being evaluated, the dynamic scope, and the rules in force."""

    document: str
    pointer: str
    scope: tuple[str, ...] = ()
    rules: Rules | None = None  # set by `descend` from the location
    validation: bool = True  # False when a custom meta-schema's $vocabulary leaves validation out

    @property
    def dialect(self) -> Dialect:
        assert self.rules is not None
        return self.rules.dialect

    def down(self, *tokens: str | int) -> Here:
        return replace(self, pointer=join_pointer(self.pointer, *tokens))


class DraftReference:
    """A validator that interprets `schema` under `draft` ("draft2020-12", ..., "draft4"), or
    under a seed profile (`profile`: "strict", "octoscript" or "lenient"; no references, its
    keywords read as 2020-12's).

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
        profile: str | None = None,
        format_options: FormatOptions = DEFAULT_FORMATS,
    ) -> None:
        if draft not in TABLES or TABLES[draft].dialect.name != draft:
            raise KeyError(draft)
        # a seed profile's rules are in force everywhere (no $schema applies)
        self.seed = rules(TABLES[profile], format_options) if profile is not None else None
        self.format_options = format_options
        check_base_uri(base_uri)
        self.registry = Registry(draft=draft, supplied=registry or {}, reading=READING)
        self.document = self.registry.add(base_uri, schema)
        self.schema = schema
        self._rules: dict[str, tuple[Rules, bool]] = {}

    # -- entry points ---------------------------------------------------------------------------
    def errors(self, instance: Any) -> list[Error]:
        found = self.descend(self.schema, instance, "", "", self._root())
        return [r for r in found if isinstance(r, Error)]

    def is_valid(self, instance: Any) -> bool:
        return self.valid(self.schema, instance, "", "", self._root())

    def _root(self) -> Here:
        return Here(self.document.uri, "")

    # -- the walk -------------------------------------------------------------------------------
    def enforces(self, at: Here, keyword: str) -> bool:
        """Whether `keyword` is a check where evaluation stands."""
        assert at.rules is not None
        return keyword in at.rules.checks and (at.validation or keyword not in VALIDATION)

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
        assert at.rules is not None
        words: Iterable[tuple[str, Any]] = schema.items()
        if at.dialect.ref_alone and "$ref" in schema:
            words = [("$ref", schema["$ref"])]  # before 2019-09, $ref's siblings are ignored
        properties: set[str] = set()
        items: set[int] = set()
        for keyword, value in words:
            function = at.rules.checks.get(keyword)
            if function is None or keyword in LAST or not self.enforces(at, keyword):
                continue
            for result in function(
                self, value, instance, schema, ip, join_pointer(kp, keyword), at
            ):
                if isinstance(result, Evaluated):
                    properties |= result.properties
                    items |= result.items
                yield result
        if at.dialect.annotations:
            seen = Evaluated(frozenset(properties), frozenset(items))
            for keyword in LAST:
                function = at.rules.checks.get(keyword)
                if keyword in schema and function is not None and self.enforces(at, keyword):
                    where = join_pointer(kp, keyword)
                    yield from function(
                        self, schema[keyword], instance, schema, ip, where, at, seen
                    )

    def arrive(self, at: Here) -> Here:
        """`at` with the resource at this location (if any) entered, and its rules."""
        key = at.document + "#" + at.pointer
        found, validation = self.rules_at(at.document, at.pointer)
        scope = at.scope
        resource = self.registry.resource_of.get(key)
        if resource is not None:
            scope = scope + (resource,)
        return replace(at, scope=scope, rules=found, validation=validation)

    def rules_at(self, document: str, pointer: str) -> tuple[Rules, bool]:
        """(rules, validation vocabulary on?) at a location: the document's draft, changed by
        every `$schema` on the way down to the location."""
        if self.seed is not None:
            return self.seed, True
        key = document + "#" + pointer
        if key not in self._rules:
            doc = self.registry.documents[document]
            found, validation = rules(TABLES[doc.draft], self.format_options), True
            node = doc.value
            walked = ""
            for token in [None, *(pointer.split("/")[1:] if pointer else [])]:
                if token is not None:
                    token = token.replace("~1", "/").replace("~0", "~")
                    walked = join_pointer(walked, token)
                    node = node[int(token)] if isinstance(node, list) else node[token]
                if isinstance(node, dict) and isinstance(node.get("$schema"), str):
                    found, validation = self._meta_rules(node["$schema"], found, walked)
            self._rules[key] = (found, validation)
        return self._rules[key]

    def _meta_rules(self, meta: str, outer: Rules, pointer: str) -> tuple[Rules, bool]:
        """The rules below a `$schema`: a draft's; a custom meta-schema's (2019-09 on), which may
        leave the validation vocabulary out or ask for format assertion; else those above."""
        known = META_SCHEMAS.get(normalize_meta_uri(meta))
        if known is not None:
            return rules(TABLES[known], self.format_options), True
        if not outer.dialect.vocabularies:
            return outer, True
        try:
            found = self.registry.lookup(meta, "", join_pointer(pointer, "$schema"))
        except SchemaError:
            return outer, True  # an unknown meta-schema: no vocabulary information
        vocabulary = found.schema.get("$vocabulary") if isinstance(found.schema, dict) else None
        if not isinstance(vocabulary, dict):
            return outer, True
        formats = FORMAT_ASSERTION_2020 in vocabulary or vocabulary.get(FORMAT_2019) is True
        validation = any(uri in vocabulary for uri in VALIDATION_VOCABULARIES)
        return rules(TABLES[outer.name], self.format_options, formats), validation

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
