"""Typed adapters (generator.runtime.adapters): dataclass handlers, with the schema as wire authority.

The drift cases the seed names are caught by the contract, not papered over by the conversion:
a default for an omitted required field, unknown fields, enum encodings, numeric ranges, and
Python's bool being an int.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, Optional

import pytest

import generator
from generator.runtime import HandlerFailed, OutputRejected, ToolDenied, ToolRuntime
from generator.runtime.adapters import AdapterError, check_type, from_json, register_typed, to_json


def contract(name: str, input: dict[str, Any], output: dict[str, Any]) -> Any:
    return generator.compile_contract_module(
        {"name": name, "input": input, "output": output}, format=False
    )


def obj(
    properties: dict[str, Any], required: list[str] | None = None, closed: bool = True
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    schema["required"] = list(properties) if required is None else required
    if closed:
        schema["additionalProperties"] = False
    return schema


INT = {"type": "integer"}
STR = {"type": "string"}

MATH_ADD = contract(
    "math.add",
    obj({"left": INT, "right": INT}),
    obj({"total": INT}),
)


@dataclass
class AddInput:
    left: int
    right: int


@dataclass
class AddOutput:
    total: int


def typed_runtime(
    module: Any, handler: Any, input_type: Any, output_type: Any, **kw: Any
) -> ToolRuntime:
    runtime = ToolRuntime()
    register_typed(runtime, module, handler, input_type, output_type, **kw)
    return runtime


# ------------------------------------------------------------------------------ the path


def test_the_seed_typed_math_add() -> None:
    seen: list[AddInput] = []

    def add(request: AddInput) -> AddOutput:
        seen.append(request)
        return AddOutput(request.left + request.right)

    runtime = typed_runtime(MATH_ADD, add, AddInput, AddOutput, budget=2)
    assert runtime.call("math.add", {"left": 2, "right": 3}) == {"total": 5}
    assert seen == [AddInput(2, 3)] and type(seen[0]) is AddInput
    # 5.0 is an integer for JSON Schema; the handler gets the int 5.
    assert runtime.call("math.add", {"left": 5.0, "right": 1}) == {"total": 6}
    assert type(seen[1].left) is int
    assert runtime.remaining_budget("math.add") == 0


def test_input_is_validated_before_it_becomes_a_dataclass() -> None:
    calls: list[Any] = []

    def add(request: AddInput) -> AddOutput:
        calls.append(request)
        return AddOutput(0)

    runtime = typed_runtime(MATH_ADD, add, AddInput, AddOutput, budget=1)
    for bad in ({"left": "1", "right": 2}, {"left": 1}, "1+2", None):
        with pytest.raises(ToolDenied):
            runtime.call("math.add", bad)
    assert calls == [] and runtime.remaining_budget("math.add") == 1


def test_async_typed_handlers() -> None:
    async def add(request: AddInput) -> AddOutput:
        await asyncio.sleep(0)
        return AddOutput(request.left + request.right)

    runtime = typed_runtime(MATH_ADD, add, AddInput, AddOutput)
    assert asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 1})) == {"total": 2}
    with pytest.raises(ToolDenied):
        asyncio.run(runtime.call_async("math.add", {"left": 1, "right": True}))


def test_async_callable_object_as_typed_handler() -> None:
    """An object with an async __call__ is an async handler, as it is for the plain runtime."""

    class Adder:
        async def __call__(self, request: AddInput) -> AddOutput:
            await asyncio.sleep(0)
            return AddOutput(request.left + request.right)

    runtime = typed_runtime(MATH_ADD, Adder(), AddInput, AddOutput)
    assert asyncio.run(runtime.call_async("math.add", {"left": 2, "right": 3})) == {"total": 5}


def test_a_handler_returning_the_wrong_type_is_a_handler_error() -> None:
    runtime = typed_runtime(MATH_ADD, lambda request: {"total": 3}, AddInput, AddOutput)
    with pytest.raises(HandlerFailed) as caught:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert isinstance(caught.value.__cause__, AdapterError)
    assert "not AddOutput" in str(caught.value.__cause__)
    assert [r.outcome for r in runtime.records()] == ["handler_error"]


# ----------------------------------------------------------------------------- drift cases


@dataclass
class Resize:
    width: int
    height: int
    unit: str = "px"  # the Python default


RESIZE = contract(
    "media.resize",
    obj({"width": INT, "height": INT, "unit": {"type": "string", "enum": ["px", "cm"]}}),
    obj({"area": INT}),
)


@dataclass
class Area:
    area: int


def test_drift_a_python_default_for_an_omitted_required_field() -> None:
    # The conversion alone would default the field...
    assert from_json(Resize, {"width": 2, "height": 3}) == Resize(2, 3, "px")
    # ...the contract requires it, so such input is denied and never defaulted.
    calls: list[Resize] = []

    def area(request: Resize) -> Area:
        calls.append(request)
        return Area(request.width * request.height)

    runtime = typed_runtime(RESIZE, area, Resize, Area, budget=5)
    with pytest.raises(ToolDenied) as caught:
        runtime.call("media.resize", {"width": 2, "height": 3})
    assert runtime.records()[-1].errors == (("", "/required", '"unit" is a required property'),)
    assert caught.value.errors[0].keyword_location == "/required"
    assert calls == [] and runtime.remaining_budget("media.resize") == 5
    assert runtime.call("media.resize", {"width": 2, "height": 3, "unit": "cm"}) == {"area": 6}
    assert calls == [Resize(2, 3, "cm")]


def test_drift_unknown_fields() -> None:
    data = {"left": 1, "right": 2, "admin": True}
    # A lenient conversion drops the unknown field silently...
    assert from_json(AddInput, data) == AddInput(1, 2)
    # ...additionalProperties: false denies the input before the conversion runs.
    calls: list[AddInput] = []

    def add(request: AddInput) -> AddOutput:
        calls.append(request)
        return AddOutput(request.left + request.right)

    runtime = typed_runtime(MATH_ADD, add, AddInput, AddOutput)
    with pytest.raises(ToolDenied):
        runtime.call("math.add", data)
    assert runtime.records()[-1].errors == (
        ("/admin", "/additionalProperties", 'additional property "admin" is not allowed'),
    )
    assert calls == []
    # Without additionalProperties: false the field gets through and is dropped: the contract,
    # not the dataclass, decides what the capability accepts.
    lenient = contract(
        "math.add", obj({"left": INT, "right": INT}, closed=False), obj({"total": INT})
    )
    open_runtime = typed_runtime(lenient, add, AddInput, AddOutput)
    assert open_runtime.call("math.add", data) == {"total": 3}
    assert calls == [AddInput(1, 2)]


class Color(enum.Enum):
    RED = "RED"  # the schema says "red": the encodings disagree
    GREEN = "GREEN"


class Shade(enum.IntEnum):
    LIGHT = 1
    DARK = 2


@dataclass
class Paint:
    color: Color


@dataclass
class Painted:
    color: Color


COLOR = {"type": "string", "enum": ["red", "green"]}
PAINT = contract("paint", obj({"color": {"type": "string"}}), obj({"color": COLOR}))


def test_drift_enum_encodings_on_output() -> None:
    runtime = typed_runtime(PAINT, lambda request: Painted(request.color), Paint, Painted, budget=3)
    with pytest.raises(OutputRejected) as caught:
        runtime.call("paint", {"color": "RED"})
    assert [(e.instance_location, e.keyword_location) for e in caught.value.errors] == [
        ("/color", "/properties/color/enum")
    ]
    assert runtime.records()[-1].outcome == "output_rejected"

    @dataclass
    class Shaded:
        color: Shade

    shaded = typed_runtime(PAINT, lambda request: Shaded(Shade.DARK), Paint, Shaded)
    with pytest.raises(OutputRejected) as by_number:
        shaded.call("paint", {"color": "RED"})
    assert [e.keyword_location for e in by_number.value.errors] == [
        "/properties/color/type",
        "/properties/color/enum",
    ]
    assert to_json(Shaded(Shade.DARK)) == {"color": 2}


def test_drift_enum_encodings_on_input() -> None:
    # The schema accepts "red"; the Python enum has no such value: a handler error, never a guess.
    strict_in = contract("paint", obj({"color": COLOR}), obj({"color": COLOR}))
    calls: list[Paint] = []

    def paint(request: Paint) -> Painted:
        calls.append(request)
        return Painted(request.color)

    runtime = typed_runtime(strict_in, paint, Paint, Painted)
    with pytest.raises(HandlerFailed) as caught:
        runtime.call("paint", {"color": "red"})
    cause = caught.value.__cause__
    assert isinstance(cause, AdapterError) and cause.location == "/color"
    assert calls == []
    assert runtime.records()[-1].outcome == "handler_error"


PERCENT = {"type": "integer", "minimum": 0, "maximum": 100}


@dataclass
class Progress:
    done: int
    total: int


@dataclass
class Percent:
    percent: int


PROGRESS = contract(
    "progress",
    obj({"done": {"type": "integer", "minimum": 0}, "total": {"type": "integer", "minimum": 1}}),
    obj({"percent": PERCENT}),
)


def test_drift_numeric_ranges() -> None:
    def percent(request: Progress) -> Percent:  # forgets to clamp done > total
        return Percent(100 * request.done // request.total)

    runtime = typed_runtime(PROGRESS, percent, Progress, Percent)
    assert runtime.call("progress", {"done": 1, "total": 4}) == {"percent": 25}
    with pytest.raises(OutputRejected) as over:
        runtime.call("progress", {"done": 5, "total": 4})
    assert runtime.records()[-1].errors == (
        ("/percent", "/properties/percent/maximum", "125 is greater than the maximum of 100"),
    )
    assert over.value.errors[0].instance_location == "/percent"
    # The input range is checked before the dataclass exists (a Python int has no range).
    with pytest.raises(ToolDenied):
        runtime.call("progress", {"done": -1, "total": 4})
    with pytest.raises(ToolDenied):
        runtime.call("progress", {"done": 1, "total": 0})  # would divide by zero
    assert [r.outcome for r in runtime.records()] == [
        "accepted",
        "output_rejected",
        "denied",
        "denied",
    ]


def test_drift_bool_versus_int() -> None:
    # A Python bool is an int: the dataclass would hold True in an int field, the contract says no.
    def compare(request: AddInput) -> AddOutput:
        return AddOutput(request.left > request.right)

    runtime = typed_runtime(MATH_ADD, compare, AddInput, AddOutput)
    with pytest.raises(OutputRejected) as caught:
        runtime.call("math.add", {"left": 2, "right": 1})
    assert runtime.records()[-1].errors == (
        ("/total", "/properties/total/type", 'true is not of type "integer"'),
    )
    assert caught.value.errors[0].keyword_location == "/properties/total/type"
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": True, "right": 1})
    # from_json itself is strict both ways (defense in depth).
    with pytest.raises(AdapterError):
        from_json(AddInput, {"left": True, "right": 1})

    @dataclass
    class Flag:
        on: bool

    with pytest.raises(AdapterError):
        from_json(Flag, {"on": 1})
    assert from_json(Flag, {"on": False}) == Flag(False)


def test_drift_a_non_json_number_is_rejected_on_the_way_out() -> None:
    @dataclass
    class Ratio:
        ratio: float

    module = contract("ratio", obj({"left": INT, "right": INT}), obj({"ratio": {"type": "number"}}))
    runtime = typed_runtime(
        module, lambda r: Ratio(r.left / r.right if r.right else float("nan")), AddInput, Ratio
    )
    assert runtime.call("ratio", {"left": 1, "right": 4}) == {"ratio": 0.25}
    with pytest.raises(OutputRejected):
        runtime.call("ratio", {"left": 1, "right": 0})
    assert runtime.records()[-1].errors == (("/ratio", "", "nan is not a JSON number"),)


# ---------------------------------------------------------------------- nested structures


class Kind(enum.Enum):
    FILE = "file"
    DIR = "dir"


@dataclass
class Entry:
    name: str
    kind: Kind
    size: Optional[int] = field(default=None, metadata={"omit_none": True})
    children: list[Entry] = field(default_factory=list)


@dataclass
class Listing:
    root: Entry
    mode: Literal["flat", "tree"]
    tags: dict[str, str] = field(default_factory=dict)
    klass: str | None = field(default=None, metadata={"json_name": "class", "omit_none": True})


ENTRY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": STR,
        "kind": {"type": "string", "enum": ["file", "dir"]},
        "size": {"type": "integer", "minimum": 0},
        "children": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["name", "kind"],
    "additionalProperties": False,
}
LISTING = obj(
    {
        "root": ENTRY,
        "mode": {"type": "string", "enum": ["flat", "tree"]},
        "tags": {"type": "object"},
        "class": STR,
    },
    required=["root", "mode"],
)


def test_nested_dataclasses_round_trip_through_the_contract() -> None:
    module = contract("listing", LISTING, LISTING)
    data = {
        "root": {
            "name": "/",
            "kind": "dir",
            "children": [{"name": "a.txt", "kind": "file", "size": 3, "children": []}],
        },
        "mode": "tree",
        "tags": {"owner": "me"},
        "class": "x",
    }
    listing = from_json(Listing, data)
    assert listing.root.children[0] == Entry("a.txt", Kind.FILE, 3)
    assert listing.root.kind is Kind.DIR and listing.klass == "x"
    seen: list[Listing] = []

    def echo(request: Listing) -> Listing:
        seen.append(request)
        return request

    runtime = typed_runtime(module, echo, Listing, Listing)
    out = runtime.call("listing", data)
    assert seen == [listing]
    # size None and class None are omitted (omit_none); an empty children list is kept.
    assert out == {
        "root": {
            "name": "/",
            "kind": "dir",
            "children": [{"name": "a.txt", "kind": "file", "size": 3, "children": []}],
        },
        "mode": "tree",
        "tags": {"owner": "me"},
        "class": "x",
    }
    # Without omit_none a None is written as null, and the contract decides.
    with pytest.raises(OutputRejected) as caught:
        runtime_null = typed_runtime(
            module, lambda r: NullClass(r.root, r.mode), Listing, NullClass
        )
        runtime_null.call("listing", data)
    assert caught.value.errors[0].keyword_location == "/properties/class/type"


@dataclass
class NullClass:
    root: Entry
    mode: str
    klass: str | None = field(default=None, metadata={"json_name": "class"})


def test_from_json_conversions() -> None:
    assert from_json(list[int], [1, 2.0, Decimal("3")]) == [1, 2, 3]
    assert from_json(Optional[int], None) is None
    assert from_json(int | str, "x") == "x"
    assert from_json(float, 2) == 2.0 and type(from_json(float, 2)) is float
    assert from_json(Decimal, 0.1) == Decimal("0.1")
    assert from_json(Literal[1, "one"], 1.0) == 1
    assert from_json(Shade, 2) is Shade.DARK
    assert from_json(dict[str, Any], {"a": (1,)}) == {"a": (1,)}
    for tp, value, where in [
        (list[int], [1, 2.5], "/1"),
        (Literal[1], True, ""),
        (Shade, True, ""),
        (AddInput, {"left": 1}, "/right"),
        (AddInput, [1, 2], ""),
        (dict[str, int], {"a~b": "x"}, "/a~0b"),
        (Optional[str], 3, ""),
        (str, None, ""),
    ]:
        with pytest.raises(AdapterError) as caught:
            from_json(tp, value)
        assert caught.value.location == where, (tp, value)


def test_to_json_conversions() -> None:
    assert to_json(AddOutput(3)) == {"total": 3}
    assert to_json({"a": (1, Kind.FILE), Kind.DIR: None}) == {"a": [1, "file"], "dir": None}
    for bad, where in [({1, 2}, ""), ({"a": [object()]}, "/a/0"), ({1: "x"}, "")]:
        with pytest.raises(AdapterError) as caught:
            to_json(bad)
        assert caught.value.location == where


def test_unsupported_types_fail_at_registration() -> None:
    @dataclass
    class Bad:
        items: set[int]

    @dataclass
    class BadKey:
        m: dict[int, str]

    class NotADataclass:
        pass

    for tp in (Bad, BadKey, NotADataclass):
        with pytest.raises(TypeError):
            register_typed(ToolRuntime(), MATH_ADD, lambda r: r, tp, AddOutput)
    with pytest.raises(TypeError):
        check_type(tuple[int, int])
    check_type(Listing)  # recursive and nested: fine


# ---------------------------------------------------------------------------- the messages


@pytest.mark.parametrize(
    "tp, value, message",
    [
        (int, "x", "expected an integer, got str 'x'"),
        (int, True, "expected an integer, got a bool"),
        (int, 1.5, "expected an integer, got float 1.5"),
        (int, Decimal("1.5"), "expected an integer, got Decimal Decimal('1.5')"),
        (int, Decimal("Infinity"), "expected an integer, got Decimal Decimal('Infinity')"),
        (float, True, "expected a number, got a bool"),
        (float, "1", "expected a number, got str '1'"),
        (Decimal, False, "expected a number, got a bool"),
        (Decimal, "1", "expected a number, got str '1'"),
        (str, 1, "expected a string, got int 1"),
        (bool, 1, "expected a boolean, got int 1"),
        (None, 0, "expected null, got int 0"),
        (type(None), "", "expected null, got str ''"),
        (Literal[1, "a"], 2, "expected one of [1, 'a'], got int 2"),
        (Literal[True], 1, "expected one of [True], got int 1"),
        (Literal[None], 0, "expected one of [None], got int 0"),
        (Optional[int], "x", "str 'x' fits no member of typing.Optional[int]"),
        (int | str, None, "NoneType None fits no member of int | str"),
        (list[int], {}, "expected an array, got dict {}"),
        (list, 3, "expected an array, got int 3"),
        (dict[str, int], [], "expected an object, got list []"),
        (dict, 3, "expected an object, got int 3"),
        (AddInput, 3, "expected an object for AddInput, got int 3"),
        (Shade, 9, "int 9 is not a value of Shade [1, 2]"),
        (Shade, "1", "str '1' is not a value of Shade [1, 2]"),
        (int, "x" * 100, "expected an integer, got " + ("str '" + "x" * 100)[:80]),
    ],
)
def test_a_value_that_does_not_fit_says_what_was_expected_and_what_came(
    tp: Any, value: Any, message: str
) -> None:
    with pytest.raises(AdapterError) as caught:
        from_json(tp, value)
    assert (caught.value.message, caught.value.location) == (message, "")
    assert str(caught.value) == f"{message} at the root"


def test_a_missing_field_is_named_at_its_place() -> None:
    with pytest.raises(AdapterError) as caught:
        from_json(list[AddInput], [{"left": 1, "right": 2}, {"left": 1}])
    assert str(caught.value) == "missing field 'right' of AddInput at /1/right"


def test_values_that_fit_come_back_as_the_type_says() -> None:
    from typing import Annotated

    assert from_json(Annotated[int, "meta"], 3) == 3
    assert from_json(list, [1, "a"]) == [1, "a"] and from_json(dict, {"a": 1}) == {"a": 1}
    value = (1,)
    assert from_json(Any, value) is value and from_json(object, value) is value
    assert from_json(type(None), None) is None and from_json(None, None) is None
    for tp, given, expected in [
        (Decimal, 5, Decimal("5")),
        (Decimal, Decimal("1.50"), Decimal("1.50")),
        (int, 5.0, 5),
        (int, Decimal("5.0"), 5),
        (float, Decimal("0.5"), 0.5),
        (bool, False, False),
        (Literal["a", None], None, None),
        (Literal[False, 0], 0, 0),
        (Literal[0, False], False, False),
        (Optional[Shade], 1, Shade.LIGHT),
        (int | None, None, None),
        (str | int, 3, 3),
    ]:
        got = from_json(tp, given)
        assert got == expected and type(got) is type(expected), (tp, given, got)
    assert from_json(dict[str, Decimal], {"a": 1}) == {"a": Decimal(1)}


@dataclass
class Inner:
    shade: Shade
    note: Optional[str] = field(default=None, metadata={"omit_none": True})


@dataclass
class Outer:
    klass: str = field(metadata={"json_name": "class"})
    inner: list[Inner] = field(default_factory=list)
    extra: Optional[int] = None


def test_to_json_writes_names_enums_and_omissions() -> None:
    out = to_json(Outer("a", [Inner(Shade.DARK), Inner(Shade.LIGHT, "n")]))
    assert out == {
        "class": "a",
        "inner": [{"shade": 2}, {"shade": 1, "note": "n"}],
        "extra": None,
    }
    assert to_json(Decimal("1.5")) == Decimal("1.5") and to_json(True) is True
    with pytest.raises(AdapterError) as caught:
        to_json({"a~/b": {"c": Outer}})
    assert str(caught.value) == "a type is not JSON-serializable at /a~0~1b/c"
    with pytest.raises(AdapterError) as key:
        to_json({"a": {Kind.DIR: 1, 2: 3}})
    assert str(key.value) == "object key 2 is not a string at /a"


def test_unsupported_annotations_are_named() -> None:
    class Weird(enum.Enum):
        LIST = (1, 2)

    @dataclass
    class Renamed:
        a: int = field(metadata={"json_name": 1})

    @dataclass
    class Twice:
        a: int = field(metadata={"json_name": "x"})
        b: int = field(metadata={"json_name": "x"})

    for tp, message in [
        (Literal[1.5], "unsupported Literal value 1.5 in typing.Literal[1.5]"),
        (dict[int, str], "dict keys must be str (JSON object keys) in dict[int, str]"),
        (
            Weird,
            "test_unsupported_annotations_are_named.<locals>.Weird.LIST: value is not a "
            "JSON scalar",
        ),
        (list[set[int]], "unsupported type set[int] in list[set[int]]"),
        (
            Renamed,
            "test_unsupported_annotations_are_named.<locals>.Renamed.a: json_name must "
            "be a string",
        ),
        (
            Twice,
            "test_unsupported_annotations_are_named.<locals>.Twice: two fields have the "
            "same JSON name",
        ),
    ]:
        with pytest.raises(TypeError) as caught:
            check_type(tp)
        assert str(caught.value) == message
    for fine in (Optional[list[dict[str, Literal["a", 1, True, None]]]], Shade, Any, object, None):
        check_type(fine)
    with pytest.raises(TypeError) as unsupported:
        from_json(set[int], [1])
    assert str(unsupported.value) == "unsupported type set[int]"


def test_register_typed_takes_dataclasses_only() -> None:
    for role, args in (
        ("input_type", (int, AddOutput)),
        ("output_type", (AddInput, list[int])),
    ):
        with pytest.raises(TypeError) as caught:
            register_typed(ToolRuntime(), MATH_ADD, lambda r: r, *args)
        assert (
            str(caught.value)
            == f"{role} must be a dataclass, not {args[0 if role == 'input_type' else 1]!r}"
        )
    runtime = typed_runtime(MATH_ADD, lambda request: [request.left], AddInput, AddOutput)
    with pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    cause = failed.value.__cause__
    assert isinstance(cause, AdapterError) and cause.location == ""
    assert str(cause) == "the handler returned list, not AddOutput at the root"


@dataclass
class Stamped:
    name: str
    tags: list[str] = field(default_factory=list)
    kind: str = field(default="plain", init=False)


class Maybe(enum.Enum):
    NOTHING = None
    ONE = 1
    TEXT = "text"


def test_defaults_from_a_factory_and_fields_outside_init() -> None:
    # a missing key takes the factory's value; a field outside __init__ is never read...
    assert from_json(Stamped, {"name": "a", "kind": "special"}) == Stamped("a", [])
    assert from_json(Stamped, {"name": "a", "tags": ["t"]}).tags == ["t"]
    # ...but it is written
    assert to_json(Stamped("a", ["t"])) == {"name": "a", "tags": ["t"], "kind": "plain"}


def test_unions_and_literals_try_each_member_in_order() -> None:
    assert from_json(None | int, 3) == 3 and from_json(None | int, None) is None
    assert from_json(Literal[None, "a"], "a") == "a"
    assert from_json(Literal[None, "a"], None) is None
    assert from_json(Maybe, None) is Maybe.NOTHING and from_json(Maybe, "text") is Maybe.TEXT
    with pytest.raises(AdapterError):
        from_json(Literal["a"], None)


def test_every_supported_annotation_passes_the_check() -> None:
    for fine in (bool, int, float, str, Decimal, list, dict, Maybe, Stamped, dict[str, list[int]]):
        check_type(fine)
    with pytest.raises(TypeError) as nested:
        check_type(dict[str, set[int]])
    assert str(nested.value) == "unsupported type set[int] in dict[str, set[int]]"
    with pytest.raises(TypeError) as in_union:
        check_type(int | set[str])
    assert str(in_union.value) == "unsupported type set[str] in int | set[str]"


class Unwritable(enum.Enum):
    SET = frozenset({1})


def test_an_enum_value_json_cannot_hold_is_named_at_its_place() -> None:
    with pytest.raises(AdapterError) as caught:
        to_json({"a": [Unwritable.SET]})
    assert str(caught.value) == "a frozenset is not JSON-serializable at /a/0"


@dataclass
class Carrier:
    payload: Any = field(metadata={"json_name": "pay/load"})


def test_a_dataclass_field_json_cannot_hold_is_named_by_its_json_name() -> None:
    with pytest.raises(AdapterError) as caught:
        to_json([Carrier({"inner": Carrier(object())})])
    assert str(caught.value) == "a object is not JSON-serializable at /0/pay~1load/inner/pay~1load"


@dataclass
class LateName:
    kind: str = field(default="fixed", init=False)
    name: str = field(default="unnamed")


@dataclass
class Repeats:
    bad: set[int]
    first: int
    second: int


def test_a_field_outside_init_does_not_end_the_reading() -> None:
    assert from_json(LateName, {"name": "given", "kind": "other"}).name == "given"


def test_a_type_met_again_does_not_end_the_check() -> None:
    with pytest.raises(TypeError) as caught:
        check_type(Repeats)
    assert str(caught.value).startswith("unsupported type set[int] in ")


@dataclass
class AfterAny:
    bad: set[int]
    anything: Any


@dataclass
class AfterLiteral:
    bad: set[int]
    mode: Literal["a"]


@dataclass
class AfterEnum:
    bad: set[int]
    shade: Shade


def test_any_literals_and_enums_do_not_end_the_check() -> None:
    for tp in (AfterAny, AfterLiteral, AfterEnum):
        with pytest.raises(TypeError) as caught:
            check_type(tp)
        assert str(caught.value).startswith("unsupported type set[int] in "), tp


def test_a_type_variable_is_no_supported_annotation() -> None:
    from typing import TypeVar

    free = TypeVar("free")
    with pytest.raises(TypeError) as caught:
        check_type(free)
    assert str(caught.value) == "unsupported type ~free in ~free"
