"""Typed adapters: dataclass handlers behind a JSON tool contract.

The Python version of the seed's typed Rust adapters (``register_typed_json_tool``). The schema
stays the wire authority: the contract validates the input *before* :func:`from_json` turns it
into the handler's dataclass, and validates the output *after* :func:`to_json` turns the
handler's dataclass back into JSON. So drift between the dataclass and the schema is caught
rather than papered over:

- a dataclass default for a field the contract requires: input without the field is denied,
  never defaulted;
- unknown fields: :func:`from_json` ignores them, as a lenient deserializer does, but
  ``additionalProperties: false`` in the contract denies the input first;
- enum encodings: an ``Enum`` whose values are not the schema's ``enum`` produces output the
  contract rejects (and input the dataclass cannot hold fails as a handler error);
- numeric ranges, bool vs int: a handler value outside ``minimum``/``maximum``, or ``True``
  where the schema says integer (a Python bool is an int), is output the contract rejects.

Supported annotations: dataclasses (nested, recursive), ``int``, ``float``, ``str``, ``bool``,
``Decimal``, ``None``, ``Any``/``object`` (plain JSON, passed through), ``list[X]``,
``dict[str, X]``, ``Optional[X]``/``X | None`` and other unions (first member that fits),
``Literal[...]`` and ``Enum`` subclasses (by value). JSON names default to field names;
``field(metadata={"json_name": "class"})`` renames one, and ``field(metadata={"omit_none":
True})`` leaves the key out of :func:`to_json`'s output when the value is None (otherwise None
is written as null, as ``dataclasses.asdict`` would).

Conversion is strict about types (a bool is not an int, 5.0 is the int 5 because JSON Schema
says it is an integer, 5.5 is not), since after validation a mismatch means the dataclass and
the schema disagree: it raises :class:`AdapterError`, which the runtime records as a handler
error.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Awaitable, Callable
from decimal import Decimal
from enum import Enum
from typing import (
    Annotated,
    Any,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    overload,
)

from .tools import ContractModule, ToolRuntime, is_async_callable

__all__ = ["AdapterError", "check_type", "from_json", "register_typed", "to_json"]

T = TypeVar("T")
I = TypeVar("I")  # noqa: E741 - the handler's input type
O = TypeVar("O")  # noqa: E741 - the handler's output type

_NUMBER = (int, float, Decimal)


class AdapterError(ValueError):
    """A JSON value does not fit the Python type (or a Python value is not JSON-serializable);
    ``location`` is the JSON pointer of the offending value."""

    def __init__(self, message: str, location: str) -> None:
        super().__init__(f"{message} at {location or 'the root'}")
        self.message = message
        self.location = location


# --------------------------------------------------------------------------- dataclass plans


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str  # the attribute
    key: str  # the JSON key
    type: Any
    init: bool
    has_default: bool
    omit_none: bool


@functools.cache
def _plan(cls: type) -> tuple[_Field, ...]:
    hints = get_type_hints(cls)
    plan = []
    for f in dataclasses.fields(cls):
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        key = f.metadata.get("json_name", f.name)
        if not isinstance(key, str):
            raise TypeError(f"{cls.__qualname__}.{f.name}: json_name must be a string")
        plan.append(
            _Field(
                f.name, key, hints[f.name], f.init, has_default, bool(f.metadata.get("omit_none"))
            )
        )
    keys = [p.key for p in plan]
    if len(set(keys)) != len(keys):
        raise TypeError(f"{cls.__qualname__}: two fields have the same JSON name")
    return tuple(plan)


def _strip(tp: Any) -> Any:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def check_type(tp: Any) -> None:
    """Raise TypeError if ``tp`` (or anything inside it) is not a supported annotation.

    :func:`register_typed` calls it, so a bad dataclass fails at registration, not at the
    first call."""
    seen: set[int] = set()
    todo = [tp]
    while todo:
        t = _strip(todo.pop())
        if id(t) in seen:
            continue
        seen.add(id(t))
        origin = get_origin(t)
        args = get_args(t)
        if t is Any or t is object or t is None or t is type(None):
            continue
        if origin is Literal:
            for arg in args:
                if not (arg is None or isinstance(arg, (str, int, bool))):
                    raise TypeError(f"unsupported Literal value {arg!r} in {tp!r}")
            continue
        if origin is Union or origin is types.UnionType:
            todo.extend(args)
            continue
        if origin is list:
            todo.extend(args)
            continue
        if origin is dict:
            if args and _strip(args[0]) is not str:
                raise TypeError(f"dict keys must be str (JSON object keys) in {tp!r}")
            todo.extend(args[1:])
            continue
        if origin is None and isinstance(t, type):
            if dataclasses.is_dataclass(t):
                todo.extend(f.type for f in _plan(t))
                continue
            if issubclass(t, Enum):
                for member in t:
                    if not (member.value is None or isinstance(member.value, (str, *_NUMBER))):
                        raise TypeError(
                            f"{t.__qualname__}.{member.name}: value is not a JSON scalar"
                        )
                continue
            if t in (bool, int, float, str, Decimal, list, dict):
                continue
        raise TypeError(f"unsupported type {t!r} in {tp!r}")


# ------------------------------------------------------------------------------- from_json


@overload
def from_json(cls: type[T], data: Any) -> T: ...


@overload
def from_json(cls: Any, data: Any) -> Any: ...  # list[int], Optional[X], Literal[...]


def from_json(cls: Any, data: Any) -> Any:
    """Turn a JSON value (as ``json.loads`` makes it) into an instance of ``cls``.

    Lenient where a deserializer usually is (unknown object keys are ignored; a missing key
    takes the field's default), strict about types. Raises :class:`AdapterError` where the
    value does not fit, TypeError for an unsupported annotation. Meant to run *after* the
    contract accepted ``data``: it is not a validator."""
    return _from(cls, data, "")


def _esc(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _same(a: Any, b: Any) -> bool:
    """JSON equality of scalars: a bool equals only a bool, numbers compare by value."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, _NUMBER) and isinstance(b, _NUMBER):
        return bool(a == b)
    if a is None or b is None:
        return a is None and b is None
    return isinstance(a, str) and isinstance(b, str) and a == b


def _kind(value: Any) -> str:
    return "a bool" if isinstance(value, bool) else f"{type(value).__name__} {value!r}"[:80]


def _from(tp: Any, value: Any, loc: str) -> Any:
    tp = _strip(tp)
    origin = get_origin(tp)
    if tp is Any or tp is object:
        return value
    if tp is None or tp is type(None):
        if value is None:
            return None
        raise AdapterError(f"expected null, got {_kind(value)}", loc)
    if origin is Literal:
        for arg in get_args(tp):
            if _same(arg, value):
                return arg
        raise AdapterError(f"expected one of {list(get_args(tp))!r}, got {_kind(value)}", loc)
    if origin is Union or origin is types.UnionType:
        members = get_args(tp)
        if value is None and type(None) in members:
            return None
        for member in members:
            if member is type(None):
                continue
            try:
                return _from(member, value, loc)
            except AdapterError:
                pass
        raise AdapterError(f"{_kind(value)} fits no member of {tp!r}", loc)
    if origin is list or tp is list:
        if not isinstance(value, list):
            raise AdapterError(f"expected an array, got {_kind(value)}", loc)
        (item,) = get_args(tp) or (Any,)
        return [_from(item, v, f"{loc}/{i}") for i, v in enumerate(value)]
    if origin is dict or tp is dict:
        if not isinstance(value, dict):
            raise AdapterError(f"expected an object, got {_kind(value)}", loc)
        item = get_args(tp)[1] if get_args(tp) else Any
        return {k: _from(item, v, f"{loc}/{_esc(k)}") for k, v in value.items()}
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            return _from_dataclass(tp, value, loc)
        if issubclass(tp, Enum):
            for member in tp:
                if _same(member.value, value):
                    return member
            values = [m.value for m in tp]
            raise AdapterError(
                f"{_kind(value)} is not a value of {tp.__qualname__} {values!r}", loc
            )
        if tp is bool:
            if isinstance(value, bool):
                return value
            raise AdapterError(f"expected a boolean, got {_kind(value)}", loc)
        if tp is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return int(value)
            if isinstance(value, float) and value.is_integer():
                return int(value)
            if (
                isinstance(value, Decimal)
                and value.is_finite()
                and value == value.to_integral_value()
            ):
                return int(value)
            raise AdapterError(f"expected an integer, got {_kind(value)}", loc)
        if tp is float:
            if isinstance(value, bool) or not isinstance(value, _NUMBER):
                raise AdapterError(f"expected a number, got {_kind(value)}", loc)
            return float(value)
        if tp is Decimal:
            if isinstance(value, bool) or not isinstance(value, _NUMBER):
                raise AdapterError(f"expected a number, got {_kind(value)}", loc)
            # a float stands for the decimal number of its shortest repr
            return value if isinstance(value, Decimal) else Decimal(repr(value))
        if tp is str:
            if isinstance(value, str):
                return value
            raise AdapterError(f"expected a string, got {_kind(value)}", loc)
    raise TypeError(f"unsupported type {tp!r}")


def _from_dataclass(cls: type, value: Any, loc: str) -> Any:
    if not isinstance(value, dict):
        raise AdapterError(f"expected an object for {cls.__qualname__}, got {_kind(value)}", loc)
    kwargs: dict[str, Any] = {}
    for f in _plan(cls):
        if not f.init:
            continue
        where = f"{loc}/{_esc(f.key)}"
        if f.key in value:
            kwargs[f.name] = _from(f.type, value[f.key], where)
        elif not f.has_default:
            raise AdapterError(f"missing field {f.key!r} of {cls.__qualname__}", where)
    return cls(**kwargs)


# --------------------------------------------------------------------------------- to_json


def to_json(obj: Any) -> Any:
    """Turn a dataclass instance (or any supported value) into plain JSON values.

    Like ``dataclasses.asdict``, with enums written as their values, tuples as lists, JSON
    names from ``json_name`` and ``omit_none`` honoured. Raises :class:`AdapterError` for a
    value JSON cannot hold (a set, a non-string key, an arbitrary object). Numbers are written
    as they are (NaN included): the output contract, and the runtime's plain-JSON check, judge
    them."""
    return _to(obj, "")


def _to(obj: Any, loc: str) -> Any:
    if isinstance(obj, Enum):
        return _to(obj.value, loc)
    if obj is None or isinstance(obj, (str, bool, int, float, Decimal)):
        return obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {}
        for f in _plan(type(obj)):
            item = getattr(obj, f.name)
            if item is None and f.omit_none:
                continue
            out[f.key] = _to(item, f"{loc}/{_esc(f.key)}")
        return out
    if isinstance(obj, (list, tuple)):
        return [_to(v, f"{loc}/{i}") for i, v in enumerate(obj)]
    if isinstance(obj, dict):
        result: dict[str, Any] = {}
        for k, v in obj.items():
            key = k.value if isinstance(k, Enum) else k
            if not isinstance(key, str):
                raise AdapterError(f"object key {k!r} is not a string", loc)
            result[key] = _to(v, f"{loc}/{_esc(key)}")
        return result
    raise AdapterError(f"a {type(obj).__name__} is not JSON-serializable", loc)


# ---------------------------------------------------------------------------- registration


@overload
def register_typed(
    runtime: ToolRuntime,
    contract_module: ContractModule,
    handler: Callable[[I], Awaitable[O]],
    input_type: type[I],
    output_type: type[O],
    *,
    budget: int | None = None,
) -> None: ...


@overload
def register_typed(
    runtime: ToolRuntime,
    contract_module: ContractModule,
    handler: Callable[[I], O],
    input_type: type[I],
    output_type: type[O],
    *,
    budget: int | None = None,
) -> None: ...


def register_typed(
    runtime: ToolRuntime,
    contract_module: ContractModule,
    handler: Callable[[Any], Any],
    input_type: type[Any],
    output_type: type[Any],
    *,
    budget: int | None = None,
) -> None:
    """Register a handler taking ``input_type`` and returning ``output_type`` (dataclasses).

    The runtime validates the input against the contract, the adapter turns it into
    ``input_type`` (:func:`from_json`), calls the handler (awaited if it is ``async def``; use
    ``call_async`` then), checks the result is an ``output_type`` and turns it into JSON
    (:func:`to_json`), and the runtime validates that against the output contract. A value
    that fits the contract but not the dataclass (or the reverse on the way out) is an
    :class:`AdapterError`, recorded as a handler error. There is intentionally no typed
    registration without a contract."""
    for role, tp in (("input_type", input_type), ("output_type", output_type)):
        if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)):
            raise TypeError(f"{role} must be a dataclass, not {tp!r}")
        check_type(tp)

    def convert_output(result: Any) -> Any:
        if not isinstance(result, output_type):
            raise AdapterError(
                f"the handler returned {type(result).__name__}, not {output_type.__qualname__}",
                "",
            )
        return to_json(result)

    adapter: Callable[[Any], Any]
    if is_async_callable(handler):  # an async def, or an object with an async __call__

        async def typed_async(data: Any) -> Any:
            return convert_output(await handler(from_json(input_type, data)))

        adapter = typed_async
    else:

        def typed(data: Any) -> Any:
            return convert_output(handler(from_json(input_type, data)))

        adapter = typed
    runtime.register(contract_module, adapter, budget=budget)
