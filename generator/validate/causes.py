"""What the text report shows of a record's errors, chosen where the module's objects are (in the
worker): for each error the module lists, the error best_match descends to from it alone (its
deepest relevant cause: inside a failed anyOf/oneOf, the error of the alternative the instance
fits), and, where best_match stops at an anyOf/oneOf because its alternatives fail equally, the
most relevant error of each alternative. Errors are named by their path: the index of the
record's error, then an index into a context at each level down, so the plain error dicts the
report receives (runner.error_fields) are enough to print them.
"""

from __future__ import annotations

from typing import Any, Callable

from ..outputs import _WEAK

Path = list[int]
# (the path of a listed error's cause, the paths of the best error of each of the cause's
# alternatives when the cause is an anyOf/oneOf best_match did not descend into)
Cause = tuple[Path, list[Path]]


def causes(errors: list[Any], best_match: Callable[[list[Any]], Any]) -> list[Cause]:
    """The cause of each of `errors`, the one holding the record's best match first."""
    found: list[Cause] = []
    best = best_match(errors)
    for index, error in enumerate(errors):
        cause = best_match([error])
        inner = _path_to(error.context, cause) if cause is not error else []
        path = [index] + (inner or [])
        alternatives: list[Path] = []
        if cause is not None and cause.keyword in _WEAK and cause.context:
            alternatives = [path + inner_path for inner_path in _alternatives(cause, best_match)]
        if best is not None and (
            cause is best or _path_to(error.context, best) is not None or error is best
        ):
            found.insert(0, (path, alternatives))
        else:
            found.append((path, alternatives))
    return found


def _alternatives(weak: Any, best_match: Callable[[list[Any]], Any]) -> list[Path]:
    """The path (within weak's context) of the best error of each alternative, in their order."""
    by_branch: dict[Any, list[Any]] = {}
    for inner in weak.context:
        by_branch.setdefault(inner.branch, []).append(inner)
    paths = []
    for group in by_branch.values():
        chosen = best_match(group)
        path = _path_to(weak.context, chosen) if chosen is not None else None
        if path is not None:
            paths.append(path)
    return paths


def _path_to(errors: list[Any], target: Any) -> Path | None:
    """The indices from `errors` down through contexts to the error object `target`, or None
    (iterative: an error tree is as deep as the instance)."""
    stack: list[tuple[list[Any], Path]] = [(list(errors), [])]
    while stack:
        level, prefix = stack.pop()
        for index, error in enumerate(level):
            if error is target:
                return prefix + [index]
            if error.context:
                stack.append((list(error.context), prefix + [index]))
    return None
