"""The static types of JSON values (the algebra render/types.py writes as TypedDicts and aliases):
a `Ty` is a union of Python value kinds, an `Obj` one object shape. The keyword units build them
from their IR checks through their `types` hook (the registry collects them into
KeywordTables.type_hooks); render/types.py names and writes them. A leaf: it imports only the IR.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from .ir import Node


class Obj:
    """An object shape: declared properties, required names, and the type of every other value.
    Compared by identity, so that one shape is one TypedDict however often it is reached."""

    __slots__ = ("properties", "required", "rest", "hint")

    def __init__(
        self,
        properties: tuple[tuple[str, Ty], ...],
        required: tuple[str, ...],
        rest: Ty | None,
        hint: str,
    ) -> None:
        self.properties = properties
        self.required = required
        self.rest = rest  # None: any value
        self.hint = hint

    @property
    def keyed(self) -> bool:
        """Whether the shape is a TypedDict (it declares properties) rather than a dict: `required`
        names alone make no TypedDict, which would refuse a literal with any other key."""
        return bool(self.properties)


@dataclass(frozen=True)
class Ty:
    """A union of Python value kinds: what a schema admits, as json.loads (or the exact loader,
    with Decimal) makes values. `top` is Any; all fields empty is NoReturn."""

    top: bool = False
    null: bool = False
    bools: tuple[bool, ...] = ()  # (False, True): every boolean
    all_ints: bool = False
    ints: tuple[int, ...] = ()  # literal integers, when not all_ints
    floats: bool = False
    decimals: bool = False
    all_strs: bool = False
    strs: tuple[str, ...] = ()  # literal strings, when not all_strs
    array: bool = False
    items: Ty | None = None  # the type of every item (None: Any)
    objs: tuple[Obj, ...] = ()
    refs: tuple[str, ...] = ()  # keys of named definitions


TOP = Ty(top=True)
NEVER = Ty()
ANY_OBJECT = Obj((), (), None, "")
_SCALARS = Ty(
    null=True, bools=(False, True), all_ints=True, floats=True, decimals=True, all_strs=True
)


def ordered_meet(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    members = set(b)
    return tuple(v for v in a if v in members)


def join_ty(a: Ty, b: Ty) -> Ty:
    """The union of two types."""
    return join_all([a, b])


def join_all(types: list[Ty]) -> Ty:
    """The union of any number of types, in time linear in their sizes (an enum or an anyOf of
    100,000 members is one pass, not one union per member)."""
    parts = [t for t in types if t != NEVER]
    if any(t.top for t in parts):
        return TOP
    if len(parts) <= 1:
        return parts[0] if parts else NEVER
    arrays = [t for t in parts if t.array]
    items = (
        None
        if any(t.items is None for t in arrays)
        else join_all([t.items for t in arrays if t.items is not None])
    )
    objs = tuple({id(o): o for t in parts for o in t.objs}.values())
    if any(o is ANY_OBJECT for o in objs):
        objs = (ANY_OBJECT,)
    all_ints = any(t.all_ints for t in parts)
    all_strs = any(t.all_strs for t in parts)
    joined = Ty(
        null=any(t.null for t in parts),
        bools=tuple(v for v in (False, True) if any(v in t.bools for t in parts)),
        all_ints=all_ints,
        ints=() if all_ints else tuple(dict.fromkeys(v for t in parts for v in t.ints)),
        floats=any(t.floats for t in parts),
        decimals=any(t.decimals for t in parts),
        all_strs=all_strs,
        strs=() if all_strs else tuple(dict.fromkeys(v for t in parts for v in t.strs)),
        array=bool(arrays),
        items=items if arrays else None,
        objs=objs,
        refs=tuple(dict.fromkeys(k for t in parts for k in t.refs)),
    )
    return TOP if _everything(joined) else joined


def _everything(ty: Ty) -> bool:
    return (
        ty.null
        and len(ty.bools) == 2
        and ty.all_ints
        and ty.floats
        and ty.decimals
        and ty.all_strs
        and ty.array
        and ty.items is None
        and ty.objs == (ANY_OBJECT,)
    )


def all_but_objects(objs: tuple[Obj, ...]) -> Ty:
    return replace(_SCALARS, array=True, objs=objs)


def all_but_arrays(items: Ty) -> Ty:
    return replace(_SCALARS, array=True, items=items, objs=(ANY_OBJECT,))


# -- names ----------------------------------------------------------------------------------------

_MAX_NAME = 60


@functools.lru_cache(maxsize=1 << 14)
def camel(text: str, fallback: str) -> str:
    """CamelCase of the ASCII letters and digits of `text` (at most 60 characters), or `fallback`.
    Cached: every property's name is camel-cased into its type's hint, the same names many times."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    name = "".join(w[:1].upper() + w[1:] for w in words)[:_MAX_NAME]
    if not name:
        return fallback
    return fallback + name if name[0].isdigit() else name


class TypeReader(Protocol):
    """What a unit's `types` hook is given: the reader of subschemas and references."""

    def ty(self, node: Node, hint: str, depth: int) -> Ty:
        """The type of a subschema (`hint`: the name its object shapes take; `depth`: its own)."""

    def reference(self, target: str) -> Ty:
        """The named type a static reference to a graph key reaches."""

    def runtime(self, note: str) -> Ty:
        """Any, with `note` (a refs.TYPE_NOTES text) as the comment above its definition."""


# A unit's hook: (reader, node, hint, depth) -> the types its checks of the node say, in the order
# the unit reads them (each narrows the node's type; none: the unit says nothing of it).
TypesHook = Callable[[TypeReader, "Node", str, int], "list[Ty]"]
