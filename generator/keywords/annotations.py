"""Keywords that are never checks: the core keywords the resolver reads ($schema, $id, $anchor,
$defs...), meta-data (title, description, default, examples) and, in the seed profiles, format.
Preflight still checks their values where a profile lists them (a bad `$id` is a schema error)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import ALL_DRAFTS, Keyword

if TYPE_CHECKING:
    from ..preflight import Walk


def check_string(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be a string")


def check_json(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.json_value(value, pointer)


def check_examples(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list):
        raise w.fail("bad-keyword-value", pointer, "examples must be an array")
    w.json_value(value, pointer)


def check_schema_map(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.schema_map(value, pointer, depth)


_SEED = frozenset({"octoscript", "strict"})
KEYWORDS = [
    Keyword("$schema", "core", frozenset(), check_string, annotation=ALL_DRAFTS | _SEED),
    Keyword("$id", "core", frozenset(), check_string, annotation=ALL_DRAFTS | _SEED),
    Keyword("id", "core", frozenset(), check_json, annotation=ALL_DRAFTS),
    Keyword("$anchor", "core", frozenset(), check_string, annotation=ALL_DRAFTS),
    Keyword("$dynamicAnchor", "core", frozenset(), check_string, annotation=ALL_DRAFTS),
    Keyword("$recursiveAnchor", "core", frozenset(), check_json, annotation=ALL_DRAFTS),
    Keyword("$defs", "core", frozenset(), check_schema_map, annotation=ALL_DRAFTS, holds="map"),
    Keyword("definitions", "core", frozenset(), check_schema_map, annotation=ALL_DRAFTS, holds="map"),
    Keyword("$vocabulary", "core", frozenset(), check_json, annotation=ALL_DRAFTS),
    Keyword("$comment", "core", frozenset(), check_string, annotation=ALL_DRAFTS),
    Keyword("title", "meta-data", frozenset(), check_string, annotation=_SEED),
    Keyword("description", "meta-data", frozenset(), check_string, annotation=_SEED),
    Keyword("default", "meta-data", frozenset(), check_json, annotation=_SEED),
    Keyword("examples", "meta-data", frozenset(), check_examples, annotation=_SEED),
    Keyword("format", "format", frozenset(), check_string, annotation=frozenset({"strict"})),
]
CHECKS: list[Any] = []
