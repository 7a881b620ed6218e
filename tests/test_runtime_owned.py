"""The runtime never trusts the caller's objects after checking them (GitHub-style issue 15,
item 8): each input and output is copied into plain JSON types first, the copy is validated, and
the copy is what the handler receives and what the caller gets back; catalog() returns deep
copies, so no caller can edit a module's INPUT_SCHEMA for everyone."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import generator
from generator.runtime import OutputRejected, ToolDenied, ToolRuntime

MATH_ADD = {
    "name": "math.add", "description": "Adds two integer fields.", "profile": "octoscript",
    "input": {"type": "object", "properties": {"left": {"type": "integer"}, "right": {"type": "integer"}},
              "required": ["left", "right"], "additionalProperties": False},
    "output": {"type": "object", "properties": {"total": {"type": "integer"}},
               "required": ["total"], "additionalProperties": False},
}


@pytest.fixture(scope="module")
def math_add() -> Any:
    return generator.compile_contract_module(MATH_ADD)


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


def test_a_handler_mutating_its_input_touches_neither_the_caller_nor_other_calls(math_add: Any) -> None:
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
        ("/self", "the value contains itself (a cycle)")]
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": Decimal("NaN"), "right": 2})
    assert runtime.remaining_budget("math.add") == 3
    runtime.register(generator.compile_contract_module({**MATH_ADD, "name": "echo"}), lambda r: {"total": (1, 2)})
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
