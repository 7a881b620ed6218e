"""What the reference interpreter's keyword functions yield: an error, or an annotation (the
property names / item indices of this instance that a keyword evaluated, for unevaluated*)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Union

from .. import primitives as p
from .messages import MESSAGES


@dataclass(frozen=True)
class Error:
    """A failed assertion, with what the generated modules' ValidationError carries: the keyword
    ("false" for a false schema), its params (JSON values), and for a failed anyOf/oneOf (contains)
    the errors of each alternative (item) as context, each with its index as `branch`."""

    message: str
    instance_location: str
    keyword_location: str
    keyword: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    context: tuple[Error, ...] = ()
    branch: int | None = None


def error(
    keyword: str,
    message: str,
    instance: Any,
    ip: str,
    kp: str,
    params: dict[str, Any] | None = None,
    context: Iterable[Error] = (),
) -> Error:
    """An error of `keyword` at keyword location kp on `instance` (at ip): the template `message`
    (messages.py) filled with `params`, exactly as the generated modules fill it."""
    params = params if params is not None else {}
    return Error(
        p.fill(MESSAGES[message], params, instance), ip, kp, keyword, params, tuple(context)
    )


def branches(found: Iterable[tuple[int, list[Error]]]) -> list[Error]:
    """The context of a failed applicator: each alternative's (or item's) errors, with its index."""
    return [
        Error(
            e.message,
            e.instance_location,
            e.keyword_location,
            e.keyword,
            e.params,
            e.context,
            index,
        )
        for index, errors in found
        for e in errors
    ]


@dataclass(frozen=True)
class Evaluated:
    """An annotation: these property names / item indices of the current instance were evaluated."""

    properties: frozenset[str] = frozenset()
    items: frozenset[int] = frozenset()


Result = Union[Error, Evaluated]
Results = Iterator[Result]


def is_kind(instance: Any, kind: str) -> bool:
    """Whether the instance is of this JSON type ("number" for integers too)."""
    return p.kind(instance) == kind


def sibling(kp: str, keyword: str) -> str:
    """The keyword location of a sibling keyword (kp ends with this keyword's own token)."""
    return kp.rsplit("/", 1)[0] + "/" + keyword
