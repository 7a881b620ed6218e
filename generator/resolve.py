"""Stage 3, resolve: give each schema resource a canonical URI and resolve references.

The three current profiles have no references ($ref is out of every one of them, and preflight
refuses it), so here the stage only indexes resources by `$id` and checks that nothing is left
to resolve. The drafts will resolve `$ref` against this registry (a mapping of URI to schema,
never the network).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping
from urllib.parse import unquote, urldefrag, urljoin

from .errors import SchemaError, join_pointer

# Keywords whose value is a schema, an array of schemas, or an object of schemas.
_ONE = ("additionalProperties", "items", "not", "contains", "if", "then", "else", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def subschemas(schema: Any, pointer: str) -> Iterator[tuple[str, Any]]:
    """(pointer, subschema) for the schemas directly under `schema`."""
    if not isinstance(schema, dict):
        return
    for key in _ONE:
        if key in schema and isinstance(schema[key], (dict, bool)):
            yield join_pointer(pointer, key), schema[key]
    for key in _MANY:
        if isinstance(schema.get(key), list):
            for i, sub in enumerate(schema[key]):
                yield join_pointer(pointer, key, i), sub
    for key in _MAP:
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                yield join_pointer(pointer, key, name), sub


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The value at a JSON pointer (RFC 6901) inside a document; KeyError if absent."""
    node = document
    if not fragment:
        return node
    if not fragment.startswith("/"):
        raise KeyError(fragment)
    for token in fragment[1:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise KeyError(token)
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            raise KeyError(token)
    return node


class Resolver:
    def __init__(self, root: Any, *, base_uri: str = "", registry: Mapping[str, Any] | None = None) -> None:
        self.root = root
        self.base_uri = base_uri
        self.resources: dict[str, Any] = dict(registry or {})
        root_id = root.get("$id") if isinstance(root, dict) else None
        if isinstance(root_id, str):
            self.base_uri = urljoin(base_uri, root_id)
        self.resources[urldefrag(self.base_uri)[0]] = root

    def lookup(self, ref: str, base: str, pointer: str) -> Any:
        """The schema `ref` names, relative to `base`; SchemaError with `pointer` if none."""
        uri, fragment = urldefrag(urljoin(base, ref))
        document = self.resources.get(uri)
        try:
            if document is None:
                raise KeyError(uri)
            return resolve_pointer(document, fragment)
        except KeyError:
            raise SchemaError(f"$ref {ref!r} does not resolve", code="unresolvable-ref", pointer=pointer) from None

    def check(self) -> None:
        """Every $ref in the schema resolves."""
        stack: list[tuple[str, Any, str]] = [("", self.root, self.base_uri)]
        while stack:
            pointer, schema, base = stack.pop()
            if not isinstance(schema, dict):
                continue
            if isinstance(schema.get("$id"), str) and pointer:
                base = urljoin(base, schema["$id"])
            if isinstance(schema.get("$ref"), str):
                self.lookup(schema["$ref"], base, join_pointer(pointer, "$ref"))
            stack.extend((p, s, base) for p, s in subschemas(schema, pointer))
