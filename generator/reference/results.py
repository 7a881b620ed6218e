"""What the reference interpreter's keyword functions yield: an error, or an annotation (the
property names / item indices of this instance that a keyword evaluated, for unevaluated*)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Union

from .. import primitives as p


@dataclass(frozen=True)
class Error:
    message: str
    instance_location: str
    keyword_location: str


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
