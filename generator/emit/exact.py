"""The exact built-in types the fast path dispatches on (what json.loads makes), the JSON type each
stands for, and how a type test names them."""

from __future__ import annotations

from ..plan.tuning import TYPE_SET
from .tree import NONE, Expr, Name, call

# Exact type -> the JSON type of its values ("number" for int and float alike).
JSON_KIND = {
    "dict": "object",
    "list": "array",
    "str": "string",
    "int": "number",
    "float": "number",
    "bool": "boolean",
    "None": "null",
}
TYPE_NAMES = {
    "dict": "dict",
    "list": "list",
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "None": "type(None)",
}
# JSON type (as `type` names it) -> the exact types that hold it, the most common first: data a
# schema types as "number" (not "integer") is mostly floats.
EXACT_OF = {
    "object": ("dict",),
    "array": ("list",),
    "string": ("str",),
    "integer": ("int", "float"),
    "number": ("float", "int"),
    "boolean": ("bool",),
    "null": ("None",),
}

__all__ = ["EXACT_OF", "JSON_KIND", "TYPE_NAMES", "TYPE_SET", "type_value"]


def type_value(exact: str) -> Expr:
    """The type object itself, in a set of types (`type(None)` for None)."""
    return call("type", NONE) if exact == "None" else Name(TYPE_NAMES[exact])
