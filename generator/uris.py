"""Whether urllib can split a URI, and the schema error of an identifier it cannot: a leaf module
the resolver and the keyword units ($id's preflight) both use."""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import SchemaError
from .primitives import short_repr


def uri_problem(uri: str) -> str | None:
    """Why urllib cannot split `uri` (its own words), or None when it can."""
    try:
        urlsplit(uri)
    except ValueError as exc:
        return str(exc)
    return None


def not_a_uri(word: str, ident: str, problem: str, pointer: str) -> SchemaError:
    """The error of an identifier (`$id`, draft 4's `id`) urllib cannot split, at `pointer`."""
    return SchemaError(
        f"{word} {short_repr(ident)} is not a URI: {problem}",
        code="bad-keyword-value",
        pointer=pointer,
    )
