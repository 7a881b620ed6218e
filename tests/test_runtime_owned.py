"""The runtime never trusts the caller's objects after checking them (GitHub-style issue 15,
item 8): each input and output is copied into plain JSON types first, the copy is validated, and
the copy is what the handler receives and what the caller gets back; catalog() returns deep
copies, so no caller can edit a module's INPUT_SCHEMA for everyone."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import generator
from generator.runtime import HandlerFailed, OutputRejected, ToolDenied, ToolRuntime, UnknownTool

MATH_ADD = {
    "name": "math.add",
    "description": "Adds two integer fields.",
    "profile": "octoscript",
    "input": {
        "type": "object",
        "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}},
        "required": ["left", "right"],
        "additionalProperties": False,
    },
    "output": {
        "type": "object",
        "properties": {"total": {"type": "integer"}},
        "required": ["total"],
        "additionalProperties": False,
    },
}


@pytest.fixture(scope="module")
def math_add() -> Any:
    return generator.compile_contract_module(MATH_ADD, format=False)


class ShiftyDict(dict):  # type: ignore[type-arg]
    """Answers with the stored value on the first lookup of a key, with a string afterwards."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.looked_up: set[Any] = set()

    def _shift(self, key: Any, value: Any) -> Any:
        if key in self.looked_up:
            return "not an integer"
        self.looked_up.add(key)
        return value

    def __getitem__(self, key: Any) -> Any:
        return self._shift(key, super().__getitem__(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return self._shift(key, super().get(key, default))


def test_a_caller_mutating_after_begin_cannot_change_what_the_handler_gets(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": 0})
    value = {"left": 1, "right": 2}
    ticket = runtime.begin("math.add", value)
    value["left"] = "mutated after validation"
    value["extra"] = True
    assert ticket.input == {"left": 1, "right": 2} and ticket.input is not value


def test_a_dict_that_answers_differently_each_time_is_copied_as_stored(math_add: Any) -> None:
    seen: list[Any] = []

    def add(request: Any) -> Any:
        seen.append(request)
        return {"total": request["left"] + request["right"]}

    runtime = ToolRuntime()
    runtime.register(math_add, add)
    shifty = ShiftyDict({"left": 1, "right": 2})
    assert runtime.call("math.add", shifty) == {"total": 3}
    (request,) = seen
    assert type(request) is dict and request == {"left": 1, "right": 2}
    # the copy was read through dict's own storage: the subclass was never asked
    assert shifty.looked_up == set()


def test_a_handler_mutating_its_input_touches_neither_the_caller_nor_other_calls(
    math_add: Any,
) -> None:
    seen: list[Any] = []

    def vandal(request: Any) -> Any:
        seen.append(dict(request))
        total = request["left"] + request["right"]
        request["left"] = "vandalised"  # its own copy
        return {"total": total}

    runtime = ToolRuntime()
    runtime.register(math_add, vandal)
    value = {"left": 1, "right": 2}
    assert runtime.call("math.add", value) == {"total": 3}
    assert runtime.call("math.add", value) == {"total": 3}
    assert value == {"left": 1, "right": 2}
    assert seen == [{"left": 1, "right": 2}, {"left": 1, "right": 2}]


def test_output_is_copied_before_it_is_checked_and_the_copy_is_returned(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": 0})
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    output = {"total": 3}
    returned = runtime.complete(ticket, output)
    output["total"] = "changed later"
    assert returned == {"total": 3} and type(returned) is dict
    # a shifty output is checked and returned as stored, never re-asked
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    returned = runtime.complete(ticket, ShiftyDict({"total": 4}))
    assert returned == {"total": 4} and type(returned) is dict


def test_subclassed_scalars_become_plain(math_add: Any) -> None:
    class Loud(str):
        def __str__(self) -> str:
            return "LOUD"

    class Big(int):
        pass

    runtime = ToolRuntime()
    captured: list[Any] = []
    runtime.register(math_add, lambda request: captured.append(request) or {"total": 1})
    runtime.call("math.add", {Loud("left"): Big(1), "right": 2})
    (request,) = captured
    assert [type(k) for k in request] == [str, str] and list(request) == ["left", "right"]
    assert type(request["left"]) is int and request["left"] == 1


def test_non_json_and_self_containing_values_are_still_denied(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": 1}, budget=3)
    cyclic: dict[str, Any] = {"left": 1, "right": 2}
    cyclic["self"] = cyclic
    with pytest.raises(ToolDenied) as denied:
        runtime.call("math.add", cyclic)
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [
        ("/self", "the value contains itself (a cycle)")
    ]
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": Decimal("NaN"), "right": 2})
    assert runtime.remaining_budget("math.add") == 3
    runtime.register(
        generator.compile_contract_module({**MATH_ADD, "name": "echo"}, format=False),
        lambda r: {"total": (1, 2)},
    )
    with pytest.raises(OutputRejected):
        runtime.call("echo", {"left": 1, "right": 2})


def test_catalog_entries_are_deep_copies(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": 0})
    (entry,) = runtime.catalog()
    entry["input_schema"]["properties"]["left"]["type"] = "string"
    entry["input_schema"]["required"].append("evil")
    assert math_add.INPUT_SCHEMA["properties"]["left"] == {"type": "integer"}
    assert math_add.INPUT_SCHEMA["required"] == ["left", "right"]
    assert runtime.catalog() == [math_add.CATALOG_ENTRY]
    assert runtime.catalog()[0]["input_schema"] is not math_add.INPUT_SCHEMA


# -- foreign objects: formatted defensively, and every call still leaves exactly one record ----------

OPEN = {
    "name": "open.tool",
    "description": "Takes and gives any object.",
    "profile": "octoscript",
    "input": {"type": "object"},
    "output": {"type": "object"},
}


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("str() of this exception raises")


class UnshownKey:
    """A (non-string) dict key whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("repr() raises")

    def __hash__(self) -> int:
        return 1


class UnshownDecimal(Decimal):
    def __repr__(self) -> str:
        raise RuntimeError("repr() raises")

    def __str__(self) -> str:
        raise RuntimeError("str() raises")


class Unreadable:
    """An object that raises when isinstance looks at it (through its __class__), or repr shows it."""

    def __repr__(self) -> str:
        raise RuntimeError("repr() raises")

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        raise RuntimeError("__class__ raises")


class UnusableName(str):
    def __str__(self) -> str:
        raise RuntimeError("str() raises")

    def __repr__(self) -> str:
        raise RuntimeError("repr() raises")

    def __format__(self, spec: str) -> str:
        raise RuntimeError("format() raises")

    def __hash__(self) -> int:
        raise RuntimeError("hash() raises")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("== raises")


@pytest.fixture(scope="module")
def open_tool() -> Any:
    return generator.compile_contract_module(OPEN, format=False)


FOREIGN_VALUES = {
    "a key whose repr raises": (
        {UnshownKey(): 1},
        "object key <UnshownKey object> is not a string",
    ),
    "a NaN Decimal whose repr raises": (
        {"a": UnshownDecimal("NaN")},
        "Decimal('NaN') is not a JSON number",
    ),
    "an object that raises when looked at": (
        Unreadable(),
        "the value cannot be read: RuntimeError: __class__ raises",
    ),
    "a member that raises when looked at": (
        {"a": Unreadable()},
        "the value cannot be read: RuntimeError: __class__ raises",
    ),
}


@pytest.mark.parametrize("name", FOREIGN_VALUES)
def test_foreign_input_is_denied_with_one_record(open_tool: Any, name: str) -> None:
    value, message = FOREIGN_VALUES[name]
    runtime = ToolRuntime()
    ran = []
    runtime.register(open_tool, lambda request: ran.append(request) or {}, budget=3)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open.tool", value)
    assert message in str(denied.value)
    (record,) = runtime.records()
    assert record.outcome == "denied" and [error[2] for error in record.errors] == [message]
    assert ran == [] and runtime.remaining_budget("open.tool") == 3  # denied input reserves nothing


@pytest.mark.parametrize("name", FOREIGN_VALUES)
def test_foreign_output_is_rejected_with_one_record_and_the_call_consumed(
    open_tool: Any, name: str
) -> None:
    """The raw exception escaped after the ticket was closed: the budget was spent and no record
    said why."""
    value, message = FOREIGN_VALUES[name]
    runtime = ToolRuntime()
    runtime.register(open_tool, lambda request: value, budget=3)
    for calls in (1, 2):
        with pytest.raises(OutputRejected) as rejected:
            runtime.call("open.tool", {})
        assert message in str(rejected.value)
        assert [record.outcome for record in runtime.records()] == ["output_rejected"] * calls
        assert runtime.remaining_budget("open.tool") == 3 - calls
        assert runtime.pending() == []
    assert [error[2] for error in runtime.records()[-1].errors] == [message]
    ticket = runtime.begin("open.tool", {})  # deferred: the same through complete()
    with pytest.raises(OutputRejected):
        runtime.complete(ticket, value)
    assert len(runtime.records()) == 3 and runtime.remaining_budget("open.tool") == 0


def test_a_handler_exception_whose_str_raises_is_recorded_once(open_tool: Any) -> None:
    def handler(request: Any) -> Any:
        raise Unprintable()

    runtime = ToolRuntime()
    runtime.register(open_tool, handler, budget=2)
    with pytest.raises(HandlerFailed) as failed:
        runtime.call("open.tool", {})
    assert isinstance(failed.value.__cause__, Unprintable)
    assert (
        str(failed.value)
        == "open.tool: the handler failed: Unprintable: <str() raised RuntimeError>"
    )
    (record,) = runtime.records()
    assert (record.outcome, record.detail) == (
        "handler_error",
        "Unprintable: <str() raised RuntimeError>",
    )
    assert runtime.remaining_budget("open.tool") == 1 and runtime.pending() == []
    ticket = runtime.begin(
        "open.tool", {}
    )  # failed externally, with the same exception or a str subclass
    assert (
        runtime.fail(ticket, UnusableName("gone")).message == "open.tool: the handler failed: gone"
    )
    assert [record.detail for record in runtime.records()] == [
        "Unprintable: <str() raised RuntimeError>",
        "gone",
    ]


def test_async_calls_record_foreign_failures_once(open_tool: Any) -> None:
    import asyncio

    async def handler(request: Any) -> Any:
        if request:
            raise Unprintable()
        return {UnshownKey(): 1}

    runtime = ToolRuntime()
    runtime.register(open_tool, handler, budget=2)
    with pytest.raises(HandlerFailed):
        asyncio.run(runtime.call_async("open.tool", {"raise": True}))
    with pytest.raises(OutputRejected):
        asyncio.run(runtime.call_async("open.tool", {}))
    assert [record.outcome for record in runtime.records()] == ["handler_error", "output_rejected"]
    assert runtime.remaining_budget("open.tool") == 0


def test_a_tool_name_is_read_as_plain_text_and_any_other_type_is_unknown(open_tool: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(open_tool, lambda request: {"ok": True}, budget=5)
    assert runtime.call(UnusableName("open.tool"), {}) == {"ok": True}  # the text it holds
    for name, shown in (
        (UnusableName("no.such"), "'no.such'"),
        (["open.tool"], "['open.tool'] (not a str)"),
        (Unreadable(), "<Unreadable object> (not a str)"),
    ):
        with pytest.raises(UnknownTool) as unknown:
            runtime.call(name, {})  # type: ignore[arg-type]
        assert str(unknown.value) == f"no tool named {shown}"
    assert [(record.tool, record.outcome) for record in runtime.records()] == [
        ("open.tool", "accepted"),
        ("no.such", "denied"),
        ("['open.tool']", "denied"),
        ("<Unreadable object>", "denied"),
    ]
    assert all(type(record.tool) is str for record in runtime.records())
    assert runtime.remaining_budget("open.tool") == 4
