"""A node's plan as the stages after planning read it: the part each planning unit made, found
by the part's class. A leaf module: the keyword units and the emitter import it, and it imports
nothing of theirs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

Part = TypeVar("Part")


@dataclass(frozen=True)
class NodePlan:
    """The plan of one subschema: the part each unit with a planner made."""

    parts: tuple[object, ...]

    def part(self, kind: type[Part]) -> Part:
        """The part of class `kind` (a unit's own plan class, or a base it shares with others)."""
        for found in self.parts:
            if isinstance(found, kind):
                return found
        raise LookupError(f"no {kind.__name__} in this plan")


class ObjectNames:
    """What an object's plan tells the oneOf/anyOf dispatch (emit/alternatives.py): the only
    names an object passing the node may have (None: any), and the names it requires."""

    def closed_names(self) -> frozenset[str] | None:
        raise NotImplementedError

    def required_names(self) -> frozenset[str]:
        raise NotImplementedError
