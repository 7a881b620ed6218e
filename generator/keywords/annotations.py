"""Keywords that are never checks: the core keywords the resolver reads ($schema, $id, $anchor,
$defs...) and meta-data (title, description, default, examples). (`format` and content, which
options can make checks, have units of their own: format.py and content.py.)
Preflight still checks their values where a profile lists them (a bad `$id` is a schema error)."""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from ..primitives import short_repr
from ..uris import not_a_uri, uri_problem
from .base import ALL_DRAFTS, Keyword, Walk

# The plain-name fragment of an $id in drafts 6 and 7 ("MUST begin with a letter ([A-Za-z]),
# followed by any number of letters, digits, hyphens, underscores, colons, or periods"); the names
# $anchor takes are the dialect's (dialects.py).
PLAIN_NAME = r"[A-Za-z][-A-Za-z0-9_:.]*"


def check_string(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, str):
        raise w.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be a string")


def check_anchor(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """$anchor and $dynamicAnchor: a name of the form the draft allows."""
    check_string(w, value, pointer, depth)
    rule = w.profile.dialect.anchor_name
    if not re.fullmatch(rule, value):
        keyword = pointer.rsplit("/", 1)[-1]
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"{keyword} {short_repr(value)} is not a name the draft allows (^{rule}$)",
        )


def check_id(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """$id: from 2019-09 on (and in the profiles that are no draft) no non-empty fragment (a name
    is $anchor's business); in drafts 6 and 7 an empty fragment, a plain name or a JSON pointer
    (which names nothing)."""
    check_string(w, value, pointer, depth)
    if w.profile.dialect.id_keyword == "$id":  # (draft 4's $id identifies nothing)
        check_uri(w, value, pointer)
    fragment = value.partition("#")[2]
    allowed = w.profile.dialect.id_fragment
    if not fragment or allowed == "any":
        return
    if allowed == "none":
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"$id {short_repr(value)} has a fragment: an $id is a URI "
            "without one (name a subschema with $anchor)",
        )
    if fragment.startswith("/"):
        # a JSON pointer fragment (`"$id": "#/properties/name"`, as schema generators write it):
        # the drafts name subschemas with plain names only, so it names nothing; the rest of the
        # $id still applies. Peers accept it, and public schemas have it.
        return
    if not re.fullmatch(PLAIN_NAME, fragment):
        raise w.fail(
            "bad-keyword-value",
            pointer,
            f"$id {short_repr(value)}: a fragment in an $id must be a plain name (^{PLAIN_NAME}$)",
        )


def check_uri(w: Walk, value: str, pointer: str) -> None:
    """An identifier is a URI urllib can split (never `http://[::1/x`): resolving against it would fail."""
    problem = uri_problem(value)
    if problem is not None:
        raise not_a_uri(pointer.rsplit("/", 1)[-1], value, problem, pointer)


def check_draft4_id(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """Draft 4's `id`: any JSON value (it identifies only as a string), and a string is a URI."""
    w.json_value(value, pointer)
    if isinstance(value, str) and w.profile.dialect.id_keyword == "id":
        check_uri(w, value, pointer)


def check_json(w: Walk, value: Any, pointer: str, depth: int) -> None:
    w.json_value(value, pointer)


def check_examples(w: Walk, value: Any, pointer: str, depth: int) -> None:
    if not isinstance(value, list):
        raise w.fail("bad-keyword-value", pointer, "examples must be an array")
    w.json_value(value, pointer)


def check_definitions(w: Walk, value: Any, pointer: str, depth: int) -> None:
    """$defs and definitions: an object of schemas. A fail-open profile (every draft) passes over
    an entry that is no schema at all (public schemas hold `"$defs": {"description": "..."}`):
    nothing applies it unless a reference names it, and lowering preflights every reference
    target, so a reference to it is still refused (`not-a-schema`). Fail-closed profiles refuse it.
    """
    if w.profile.fail_closed or not isinstance(value, dict):
        w.schema_map(value, pointer, depth)
        return
    schemas = {name: sub for name, sub in value.items() if isinstance(sub, (dict, bool))}
    w.schema_map(schemas, pointer, depth)


def definitions(schema: Any) -> list[tuple[str, ...]]:
    """The static types' hook (render/types.py names each definition): the pointer paths, from
    `schema`, of its $defs/definitions entries and theirs, breadth first in document order. An
    entry that is only a reference is no type of its own (references reach its chain's end)."""
    found: list[tuple[str, ...]] = []
    pending: deque[tuple[tuple[str, ...], Any]] = deque([((), schema)])
    while pending:
        path, at = pending.popleft()
        if not isinstance(at, dict):
            continue
        for word in ("$defs", "definitions"):
            entries = at.get(word)
            if not isinstance(entries, dict):
                continue
            for entry, sub in entries.items():
                only_reference = (
                    isinstance(sub, dict) and set(sub) == {"$ref"} and isinstance(sub["$ref"], str)
                )
                if isinstance(sub, (dict, bool)) and isinstance(entry, str) and not only_reference:
                    inner = (*path, word, entry)
                    found.append(inner)
                    pending.append((inner, sub))
    return found


_SEED = frozenset({"octoscript", "strict"})
MESSAGES: dict[str, str] = {}  # (no errors of their own)
KEYWORDS = [
    Keyword("$schema", "core", frozenset(), check_string, annotation=ALL_DRAFTS | _SEED),
    Keyword("$id", "core", frozenset(), check_id, annotation=ALL_DRAFTS | _SEED),
    Keyword("id", "core", frozenset(), check_draft4_id, annotation=ALL_DRAFTS),
    Keyword("$anchor", "core", frozenset(), check_anchor, annotation=ALL_DRAFTS),
    Keyword("$dynamicAnchor", "core", frozenset(), check_anchor, annotation=ALL_DRAFTS),
    Keyword("$recursiveAnchor", "core", frozenset(), check_json, annotation=ALL_DRAFTS),
    Keyword("$defs", "core", frozenset(), check_definitions, annotation=ALL_DRAFTS, holds="map"),
    Keyword(
        "definitions", "core", frozenset(), check_definitions, annotation=ALL_DRAFTS, holds="map"
    ),
    Keyword("$vocabulary", "core", frozenset(), check_json, annotation=ALL_DRAFTS),
    Keyword("$comment", "core", frozenset(), check_string, annotation=ALL_DRAFTS),
    Keyword("title", "meta-data", frozenset(), check_string, annotation=_SEED),
    Keyword("description", "meta-data", frozenset(), check_string, annotation=_SEED),
    Keyword("default", "meta-data", frozenset(), check_json, annotation=_SEED),
    Keyword("examples", "meta-data", frozenset(), check_examples, annotation=_SEED),
]
CHECKS: list[Any] = []
