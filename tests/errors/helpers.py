"""Compiling a schema for the error tests: the module (in memory, cached) and its errors, with the
reference interpreter's errors held to the same structure on every call."""

from __future__ import annotations

from typing import Any

import generator
from generator.reference import DraftReference

from .structure import structure

_COMPILED: dict[tuple[str, str], Any] = {}


def module(schema: Any, draft: str = "draft2020-12") -> Any:
    """The schema's module (compiled once per test session)."""
    key = (repr(schema), draft)
    if key not in _COMPILED:
        _COMPILED[key] = generator.compile_module(schema, profile=draft, format=False)
    return _COMPILED[key]


def errors(schema: Any, instance: Any, draft: str = "draft2020-12") -> list[Any]:
    """The module's errors of `instance`, after checking that the reference interpreter gives the
    same errors (locations, keyword, params, message, context)."""
    found = module(schema, draft).errors(instance)
    assert structure(found) == structure(DraftReference(schema, draft).errors(instance))
    return found


def summary(error: Any) -> tuple[str, str, str | None, dict[str, Any], str]:
    return (
        error.instance_location,
        error.keyword_location,
        error.keyword,
        error.params,
        error.message,
    )
