"""The structure of an error list as the generated modules and the reference interpreter both give
it: per error its locations, keyword, params (compared as JSON values), message, branch and,
recursively, its context; in a fixed order, so that two lists compare with ==."""

from __future__ import annotations

from typing import Any

from generator.values import canonical


def structure(errors: Any) -> list[tuple[Any, ...]]:
    return sorted(_one(e) for e in errors)


def _one(error: Any) -> tuple[Any, ...]:
    branch = error.branch if error.branch is not None else -1
    return (
        error.instance_location,
        error.keyword_location,
        error.keyword,
        canonical(error.params),
        error.message,
        branch,
        structure(error.context),
    )
