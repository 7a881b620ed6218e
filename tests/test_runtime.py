"""The tool runtime (generator.runtime): every rule of the seed's validated JSON tools.

Input is checked (envelope, contract, plain JSON) before a call is reserved; denied input keeps
the budget and never reaches the handler; output is checked before it is returned; deferred,
synchronous and asynchronous calls take one path; every outcome is recorded, in order.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import generator
from generator.runtime import (
    AsyncHandlerError,
    BudgetExhausted,
    DuplicateTool,
    HandlerFailed,
    OutputRejected,
    Record,
    RuntimeValidationError,
    Ticket,
    TicketError,
    ToolDenied,
    ToolError,
    ToolRuntime,
    UnknownTool,
)

from .conftest import ROOT

# The seed's math.add contract, verbatim.
MATH_ADD = {
    "name": "math.add",
    "description": "Adds two integer fields.",
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

# Input and output both constrained only to be objects: everything inside is left to the runtime.
OPEN = {"name": "open", "input": {"type": "object"}, "output": {"type": "object"}}

NOT_ENVELOPES = ["3", 3, 2.5, None, True, Decimal("1"), (1, 2), {1, 2}]


@pytest.fixture(scope="module")
def math_add() -> Any:
    return generator.compile_contract_module(MATH_ADD, format=False)


@pytest.fixture(scope="module")
def open_contract() -> Any:
    return generator.compile_contract_module(OPEN, format=False)


class Handler:
    """A handler that records what it was called with and returns what it is told to."""

    def __init__(self, result: Any = None, *, fail: BaseException | None = None) -> None:
        self.calls: list[Any] = []
        self.result = result
        self.fail = fail

    def __call__(self, request: Any) -> Any:
        self.calls.append(request)
        if self.fail is not None:
            raise self.fail
        if self.result is not None:
            return self.result
        return {"total": request["left"] + request["right"]}


def outcomes(runtime: ToolRuntime) -> list[str]:
    return [r.outcome for r in runtime.records()]


# ------------------------------------------------------------------------ the accepted path


def test_seed_math_add_call_returns_the_output_and_records_it(math_add: Any) -> None:
    runtime = ToolRuntime()
    handler = Handler()
    runtime.register(math_add, handler, budget=3)
    assert runtime.call("math.add", {"left": 1, "right": 2}) == {"total": 3}
    assert handler.calls == [{"left": 1, "right": 2}]
    assert runtime.remaining_budget("math.add") == 2
    assert runtime.records() == [Record(1, "math.add", "accepted", (), "", 1)]
    assert runtime.tools() == ["math.add"]
    assert runtime.catalog() == [math_add.CATALOG_ENTRY]
    assert runtime.pending() == []


def test_an_unlimited_budget_is_none_and_never_runs_out(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler())
    for i in range(50):
        assert runtime.call("math.add", {"left": i, "right": 1}) == {"total": i + 1}
    assert runtime.remaining_budget("math.add") is None


# ---------------------------------------------------------------------------- denied input


@pytest.mark.parametrize(
    "bad, errors",
    [
        ({"left": 1}, [("", "/required", '"right" is a required property')]),
        (
            {"left": 1, "right": "2"},
            [("/right", "/properties/right/type", '"2" is not of type "integer"')],
        ),
        (
            {"left": 1, "right": 2, "carry": 0},
            [("/carry", "/additionalProperties", 'additional property "carry" is not allowed')],
        ),
        (
            {"left": True, "right": 2},
            [("/left", "/properties/left/type", 'true is not of type "integer"')],
        ),
        (
            {"left": 1.5, "right": 2},
            [("/left", "/properties/left/type", '1.5 is not of type "integer"')],
        ),
    ],
)
def test_denied_input_keeps_the_budget_and_never_reaches_the_handler(
    math_add: Any, bad: Any, errors: list[tuple[str, str, str]]
) -> None:
    runtime = ToolRuntime()
    handler = Handler()
    runtime.register(math_add, handler, budget=1)
    for _ in range(3):
        with pytest.raises(ToolDenied) as caught:
            runtime.call("math.add", bad)
        denied = caught.value
        assert denied.tool == "math.add" and not denied.envelope
        assert [
            (e.instance_location, e.keyword_location, e.message) for e in denied.errors
        ] == errors
        assert all(isinstance(e, math_add.ValidationError) for e in denied.errors)
        assert denied.__cause__ is denied.errors[0]
    assert handler.calls == []
    assert runtime.remaining_budget("math.add") == 1
    assert runtime.records() == [
        Record(seq, "math.add", "denied", tuple(errors), "", None) for seq in (1, 2, 3)
    ]
    # The budget left is still there for a valid call, and then it is gone.
    assert runtime.call("math.add", {"left": 2, "right": 2}) == {"total": 4}
    with pytest.raises(BudgetExhausted):
        runtime.call("math.add", {"left": 2, "right": 2})
    assert len(handler.calls) == 1


def test_denied_input_is_checked_even_when_the_budget_is_exhausted(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(), budget=0)
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": 1})
    with pytest.raises(BudgetExhausted):
        runtime.call("math.add", {"left": 1, "right": 1})
    assert outcomes(runtime) == ["denied", "budget_exhausted"]


# -------------------------------------------------------------------------------- budget


def test_the_budget_is_consumed_by_reserved_calls_only_and_exhausts(math_add: Any) -> None:
    runtime = ToolRuntime()
    handler = Handler()
    runtime.register(math_add, handler, budget=2)
    runtime.call("math.add", {"left": 1, "right": 1})
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": 1})
    assert runtime.remaining_budget("math.add") == 1
    runtime.call("math.add", {"left": 2, "right": 2})
    assert runtime.remaining_budget("math.add") == 0
    for _ in range(2):
        with pytest.raises(BudgetExhausted) as caught:
            runtime.call("math.add", {"left": 3, "right": 3})
        assert caught.value.tool == "math.add"
    assert [c["left"] for c in handler.calls] == [1, 2]
    assert outcomes(runtime) == [
        "accepted",
        "denied",
        "accepted",
        "budget_exhausted",
        "budget_exhausted",
    ]
    assert runtime.records()[-1].ticket is None
    assert runtime.remaining_budget("math.add") == 0


def test_a_reserved_call_stays_consumed_when_the_output_or_the_handler_fails(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler({"total": "x"}), budget=3)
    with pytest.raises(OutputRejected):
        runtime.call("math.add", {"left": 1, "right": 1})
    assert runtime.remaining_budget("math.add") == 2
    other = ToolRuntime()
    other.register(math_add, Handler(fail=RuntimeError("down")), budget=3)
    with pytest.raises(HandlerFailed):
        other.call("math.add", {"left": 1, "right": 1})
    assert other.remaining_budget("math.add") == 2


@pytest.mark.parametrize("budget", [-1, 1.5, True, "3"])
def test_a_bad_budget_is_refused(math_add: Any, budget: Any) -> None:
    with pytest.raises(ValueError):
        ToolRuntime().register(math_add, Handler(), budget=budget)


# ------------------------------------------------------------------------------- output


@pytest.mark.parametrize(
    "output, errors",
    [
        ({"total": "3"}, [("/total", "/properties/total/type", '"3" is not of type "integer"')]),
        ({"total": True}, [("/total", "/properties/total/type", 'true is not of type "integer"')]),
        ({}, [("", "/required", '"total" is a required property')]),
        (
            {"total": 3, "debug": 1},
            [("/debug", "/additionalProperties", 'additional property "debug" is not allowed')],
        ),
        ([3], [("", "/type", '[3] is not of type "object"')]),
    ],
)
def test_output_violations_are_caught_and_recorded(
    math_add: Any, output: Any, errors: list[tuple[str, str, str]]
) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(output))
    with pytest.raises(OutputRejected) as caught:
        runtime.call("math.add", {"left": 1, "right": 2})
    rejected = caught.value
    assert not rejected.envelope and rejected.tool == "math.add"
    assert [(e.instance_location, e.keyword_location, e.message) for e in rejected.errors] == errors
    assert rejected.__cause__ is rejected.errors[0]
    assert rejected.ticket.input == {"left": 1, "right": 2}
    assert runtime.records() == [
        Record(1, "math.add", "output_rejected", tuple(errors), "", rejected.ticket.id)
    ]
    assert runtime.pending() == []


# ----------------------------------------------------------------------------- envelope


@pytest.mark.parametrize("value", NOT_ENVELOPES, ids=repr)
def test_input_that_is_not_an_object_or_array_is_an_envelope_error(
    math_add: Any, value: Any
) -> None:
    runtime = ToolRuntime()
    handler = Handler()
    runtime.register(math_add, handler, budget=1)
    with pytest.raises(ToolDenied) as caught:
        runtime.call("math.add", value)
    denied = caught.value
    assert denied.envelope
    assert len(denied.errors) == 1 and isinstance(denied.errors[0], math_add.EnvelopeError)
    assert isinstance(denied.__cause__, math_add.EnvelopeError)
    assert handler.calls == [] and runtime.remaining_budget("math.add") == 1
    (record,) = runtime.records()
    assert record.outcome == "denied" and record.errors[0][:2] == ("", "")
    assert "must be a JSON object or array" in record.errors[0][2]


@pytest.mark.parametrize("value", NOT_ENVELOPES, ids=repr)
def test_output_that_is_not_an_object_or_array_is_an_envelope_error(
    math_add: Any, value: Any
) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: value)
    with pytest.raises(OutputRejected) as caught:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert caught.value.envelope
    assert isinstance(caught.value.errors[0], math_add.EnvelopeError)
    assert outcomes(runtime) == ["output_rejected"]


def test_an_array_envelope_is_accepted_when_the_contract_says_array() -> None:
    contract = generator.compile_contract_module(
        {
            "name": "sum",
            "input": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
            "output": {"type": "array", "items": {"type": "integer"}},
        },
        format=False,
    )
    runtime = ToolRuntime()
    runtime.register(contract, lambda xs: [sum(xs)])
    assert runtime.call("sum", [1, 2, 3]) == [6]
    with pytest.raises(ToolDenied) as caught:
        runtime.call("sum", [1, 2, 3, 4])
    assert not caught.value.envelope
    assert [e[:2] for e in runtime.records()[-1].errors] == [("", "/maxItems")]


# --------------------------------------------------------------------------- plain JSON


def _cyclic() -> dict[str, Any]:
    value: dict[str, Any] = {"a": []}
    value["a"].append(value)
    return value


NOT_JSON = [
    ({"x": (1, 2)}, "/x", "a tuple is not a JSON value"),
    ({"x": {"y": {1, 2}}}, "/x/y", "a set is not a JSON value"),
    ({"x": [0, object()]}, "/x/1", "a object is not a JSON value"),
    ({"x": float("nan")}, "/x", "nan is not a JSON number"),
    ({"x": float("inf")}, "/x", "inf is not a JSON number"),
    ({"x": Decimal("NaN")}, "/x", "Decimal('NaN') is not a JSON number"),
    ({"x": {1: "one"}}, "/x", "object key 1 is not a string"),
    (_cyclic(), "/a/0", "the value contains itself (a cycle)"),
]


@pytest.mark.parametrize("value, where, message", NOT_JSON, ids=lambda v: str(v)[:20])
def test_values_the_contract_leaves_open_must_still_be_plain_json(
    open_contract: Any, value: Any, where: str, message: str
) -> None:
    runtime = ToolRuntime()
    handler = Handler({"ok": True})
    runtime.register(open_contract, handler, budget=5)
    # The contract alone lets them through...
    assert open_contract.is_valid_input(value) and open_contract.is_valid_output(value)
    # ...the runtime does not, on either side.
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", value)
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [(where, message)]
    assert isinstance(denied.value.errors[0], RuntimeValidationError)
    assert (
        str(denied.value.errors[0]) == f"{where}: {message}"
    )  # as a contract module's error reads
    assert handler.calls == [] and runtime.remaining_budget("open") == 5
    handler.result = value
    with pytest.raises(OutputRejected) as rejected:
        runtime.call("open", {})
    assert runtime.records()[-1].errors == ((where, "", message),)
    assert not rejected.value.envelope


def test_plain_json_values_pass(open_contract: Any) -> None:
    shared = [1, 2]
    value = {"a": shared, "b": shared, "c": [None, True, 1.5, Decimal("2.5"), "s", {"d": {}}]}
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    returned = runtime.call("open", value)
    # an owned copy, equal to the input: the caller's objects are never handed on
    assert returned == value and returned is not value and returned["a"] is not shared


class LyingContract:
    """A contract module that says valid to anything, or invalid without a reason."""

    NAME = "liar"
    DESCRIPTION = ""
    CATALOG_ENTRY: dict[str, Any] = {}
    EnvelopeError = ValueError

    def __init__(self, valid: bool, raises: bool = False) -> None:
        self.valid = valid
        self.raises = raises

    def is_valid_input(self, instance: Any) -> bool:
        if self.raises:
            raise RuntimeError("validator bug")
        return self.valid

    def input_errors(self, instance: Any) -> list[Any]:
        return []

    is_valid_output = is_valid_input
    output_errors = input_errors


@pytest.mark.parametrize(
    "contract, value, message",
    [
        (LyingContract(valid=True), "text", "a str is not a JSON object or array"),
        (LyingContract(valid=False), {}, "rejected by the contract (no error reported)"),
        (
            LyingContract(valid=True, raises=True),
            {},
            "the contract check raised RuntimeError: validator bug",
        ),
    ],
)
def test_a_contract_that_contradicts_itself_fails_closed(
    contract: Any, value: Any, message: str
) -> None:
    runtime = ToolRuntime()
    handler = Handler({})
    runtime.register(contract, handler)
    with pytest.raises(ToolDenied) as caught:
        runtime.call("liar", value)
    assert [e.message for e in caught.value.errors] == [message]
    assert handler.calls == []


# ----------------------------------------------------------------------- deferred calls


def test_deferred_call_begin_then_complete(math_add: Any) -> None:
    runtime = ToolRuntime()
    handler = Handler(fail=AssertionError("a deferred call never runs the handler"))
    runtime.register(math_add, handler, budget=2)
    ticket = runtime.begin("math.add", {"left": 4, "right": 5})
    assert isinstance(ticket, Ticket) and ticket.tool == "math.add"
    assert ticket.input == {"left": 4, "right": 5}
    assert runtime.remaining_budget("math.add") == 1  # reserved at begin
    assert runtime.pending() == [ticket]
    assert runtime.records() == []  # the outcome is recorded when the call completes
    assert runtime.complete(ticket, {"total": 9}) == {"total": 9}
    assert runtime.records() == [Record(1, "math.add", "accepted", (), "", ticket.id)]
    assert runtime.pending() == [] and handler.calls == []
    with pytest.raises(TicketError):
        runtime.complete(ticket, {"total": 9})
    assert len(runtime.records()) == 1


def test_deferred_calls_complete_in_any_order(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler())
    first = runtime.begin("math.add", {"left": 1, "right": 1})
    second = runtime.begin("math.add", {"left": 2, "right": 2})
    assert first.id != second.id and runtime.pending() == [first, second]
    runtime.complete(second, {"total": 4})
    runtime.complete(first, {"total": 2})
    assert [r.ticket for r in runtime.records()] == [second.id, first.id]


def test_deferred_call_with_bad_output_is_rejected_and_closed(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(), budget=2)
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    with pytest.raises(OutputRejected) as caught:
        runtime.complete(ticket, {"total": "3"})
    assert caught.value.ticket is ticket
    # A ticket completes once: a corrected output cannot be slipped in afterwards.
    with pytest.raises(TicketError):
        runtime.complete(ticket, {"total": 3})
    with pytest.raises(OutputRejected) as envelope:
        runtime.complete(runtime.begin("math.add", {"left": 1, "right": 2}), "3")
    assert envelope.value.envelope
    assert outcomes(runtime) == ["output_rejected", "output_rejected"]
    assert runtime.remaining_budget("math.add") == 0


def test_deferred_begin_applies_the_same_input_rules(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(), budget=1)
    with pytest.raises(ToolDenied):
        runtime.begin("math.add", {"left": 1, "right": 2, "x": 3})
    with pytest.raises(ToolDenied) as envelope:
        runtime.begin("math.add", None)
    assert envelope.value.envelope
    assert runtime.remaining_budget("math.add") == 1 and runtime.pending() == []
    runtime.begin("math.add", {"left": 1, "right": 2})
    with pytest.raises(BudgetExhausted):
        runtime.begin("math.add", {"left": 1, "right": 2})
    with pytest.raises(UnknownTool):
        runtime.begin("math.sub", {"left": 1, "right": 2})
    assert outcomes(runtime) == ["denied", "denied", "budget_exhausted", "denied"]


def test_tickets_belong_to_the_runtime_that_issued_them(math_add: Any) -> None:
    one, two = ToolRuntime(), ToolRuntime()
    one.register(math_add, Handler())
    two.register(math_add, Handler())
    ticket = one.begin("math.add", {"left": 1, "right": 2})
    two.begin("math.add", {"left": 1, "right": 2})  # same id in the other runtime
    with pytest.raises(TicketError):
        two.complete(ticket, {"total": 3})
    forged = Ticket(ticket.id, ticket.tool, ticket.input)
    with pytest.raises(TicketError):
        one.complete(forged, {"total": 3})
    with pytest.raises(TicketError):
        one.complete("1", {"total": 3})  # type: ignore[arg-type]
    assert one.complete(ticket, {"total": 3}) == {"total": 3}


def test_a_deferred_call_can_be_failed_externally(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(), budget=5)
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    cause = TimeoutError("worker lost")
    failed = runtime.fail(ticket, cause)
    assert isinstance(failed, HandlerFailed) and failed.__cause__ is cause
    assert failed.ticket is ticket
    other = runtime.begin("math.add", {"left": 1, "right": 2})
    runtime.fail(other, "cancelled by the host")
    assert [(r.outcome, r.detail) for r in runtime.records()] == [
        ("handler_error", "TimeoutError: worker lost"),
        ("handler_error", "cancelled by the host"),
    ]
    with pytest.raises(TicketError):
        runtime.complete(ticket, {"total": 3})
    assert runtime.remaining_budget("math.add") == 3


def test_one_ticket_completed_from_many_threads_completes_once(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler())
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    barrier = threading.Barrier(8)
    results: list[str] = []

    def worker() -> None:
        barrier.wait()
        try:
            runtime.complete(ticket, {"total": 3})
            results.append("ok")
        except TicketError:
            results.append("ticket")

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok"] + ["ticket"] * 7
    assert outcomes(runtime) == ["accepted"]


class Spy(ToolRuntime):
    """Logs the halves of the call path."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def begin(self, name: str, input: Any) -> Ticket:
        self.log.append("begin")
        return super().begin(name, input)

    def complete(self, ticket: Ticket, output: Any) -> Any:
        self.log.append("complete")
        return super().complete(ticket, output)

    def fail(self, ticket: Ticket, error: BaseException | str) -> HandlerFailed:
        self.log.append("fail")
        return super().fail(ticket, error)


def test_call_and_call_async_take_the_deferred_path(math_add: Any) -> None:
    runtime = Spy()
    runtime.register(math_add, Handler())
    runtime.call("math.add", {"left": 1, "right": 2})
    asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 2}))
    with pytest.raises(OutputRejected):
        runtime.complete(runtime.begin("math.add", {"left": 1, "right": 2}), {})
    assert runtime.log == ["begin", "complete"] * 3
    failing = Spy()
    failing.register(math_add, Handler(fail=KeyError("k")))
    with pytest.raises(HandlerFailed):
        failing.call("math.add", {"left": 1, "right": 2})
    with pytest.raises(HandlerFailed):
        asyncio.run(failing.call_async("math.add", {"left": 1, "right": 2}))
    assert failing.log == ["begin", "fail"] * 2


# ---------------------------------------------------------------------------------- async


def test_async_handlers_are_awaited_through_call_async(math_add: Any) -> None:
    seen: list[Any] = []

    async def add(request: Any) -> Any:
        await asyncio.sleep(0)
        seen.append(request)
        return {"total": request["left"] + request["right"]}

    runtime = ToolRuntime()
    runtime.register(math_add, add, budget=3)

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                *(runtime.call_async("math.add", {"left": i, "right": i}) for i in range(3))
            )
        )

    assert asyncio.run(main()) == [{"total": 0}, {"total": 2}, {"total": 4}]
    assert len(seen) == 3 and outcomes(runtime) == ["accepted"] * 3
    with pytest.raises(BudgetExhausted):
        asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 1}))
    assert len(seen) == 3


def test_async_calls_deny_input_and_reject_output_like_sync_ones(math_add: Any) -> None:
    calls: list[Any] = []

    async def wrong(request: Any) -> Any:
        calls.append(request)
        return {"total": 1.5}

    runtime = ToolRuntime()
    runtime.register(math_add, wrong, budget=2)
    with pytest.raises(ToolDenied):
        asyncio.run(runtime.call_async("math.add", {"left": "1", "right": 2}))
    with pytest.raises(ToolDenied) as envelope:
        asyncio.run(runtime.call_async("math.add", 7))
    assert envelope.value.envelope and calls == []
    assert runtime.remaining_budget("math.add") == 2
    with pytest.raises(OutputRejected) as caught:
        asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 2}))
    assert caught.value.errors[0].keyword_location == "/properties/total/type"
    assert outcomes(runtime) == ["denied", "denied", "output_rejected"]


def test_sync_call_of_an_async_handler_is_refused_before_anything_happens(math_add: Any) -> None:
    async def add(request: Any) -> Any:
        raise AssertionError("never run")

    runtime = ToolRuntime()
    runtime.register(math_add, add, budget=1)
    with pytest.raises(AsyncHandlerError, match="call_async") as caught:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert isinstance(caught.value, ToolError)
    assert runtime.remaining_budget("math.add") == 1 and runtime.records() == []


def test_call_async_runs_sync_handlers(math_add: Any) -> None:
    runtime = ToolRuntime()
    handler = Handler()
    runtime.register(math_add, handler)
    assert asyncio.run(runtime.call_async("math.add", {"left": 2, "right": 3})) == {"total": 5}
    assert handler.calls == [{"left": 2, "right": 3}]


def test_a_sync_handler_returning_an_awaitable_fails_under_call(math_add: Any) -> None:
    async def later() -> Any:
        return {"total": 3}

    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: later())
    with pytest.raises(HandlerFailed, match="call_async"):
        runtime.call("math.add", {"left": 1, "right": 2})
    assert outcomes(runtime) == ["handler_error"]
    # ...and is awaited under call_async.
    assert asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 2})) == {"total": 3}


def test_async_handler_exceptions_and_cancellation_are_recorded(math_add: Any) -> None:
    async def boom(request: Any) -> Any:
        raise ValueError("bad")

    async def slow(request: Any) -> Any:
        await asyncio.sleep(60)

    runtime = ToolRuntime()
    runtime.register(math_add, boom)
    with pytest.raises(HandlerFailed) as caught:
        asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 2}))
    assert isinstance(caught.value.__cause__, ValueError)

    other = ToolRuntime()
    other.register(math_add, slow, budget=2)

    async def cancel() -> None:
        task = asyncio.ensure_future(other.call_async("math.add", {"left": 1, "right": 2}))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel())
    (record,) = other.records()
    assert record.outcome == "handler_error" and record.detail.startswith("CancelledError")
    assert other.pending() == [] and other.remaining_budget("math.add") == 1


# ----------------------------------------------------------------------- handler errors


def test_handler_exceptions_are_recorded_and_raised_chained(math_add: Any) -> None:
    runtime = ToolRuntime()
    cause = ZeroDivisionError("division by zero")
    runtime.register(math_add, Handler(fail=cause), budget=2)
    with pytest.raises(HandlerFailed) as caught:
        runtime.call("math.add", {"left": 1, "right": 0})
    failed = caught.value
    assert failed.__cause__ is cause and isinstance(failed, ToolError)
    assert failed.ticket.input == {"left": 1, "right": 0}
    assert runtime.records() == [
        Record(1, "math.add", "handler_error", (), "ZeroDivisionError: division by zero", 1)
    ]
    assert runtime.pending() == []


def test_base_exceptions_close_the_call_and_propagate_unwrapped(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(fail=KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        runtime.call("math.add", {"left": 1, "right": 2})
    assert outcomes(runtime) == ["handler_error"] and runtime.pending() == []


# --------------------------------------------------------------------------------- records


def test_records_read_back_in_order(math_add: Any, open_contract: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler(), budget=2)
    runtime.register(open_contract, Handler(fail=OSError("disk")))
    runtime.call("math.add", {"left": 1, "right": 1})
    with pytest.raises(ToolDenied):
        runtime.call("math.add", {"left": 1})
    with pytest.raises(HandlerFailed):
        runtime.call("open", {})
    with pytest.raises(UnknownTool):
        runtime.call("math.mul", {"left": 1, "right": 1})
    ticket = runtime.begin("math.add", {"left": 2, "right": 2})
    with pytest.raises(BudgetExhausted):
        runtime.call("math.add", {"left": 1, "right": 1})
    with pytest.raises(OutputRejected):
        runtime.complete(ticket, {"total": 4, "extra": 0})
    records = runtime.records()
    assert [(r.seq, r.tool, r.outcome) for r in records] == [
        (1, "math.add", "accepted"),
        (2, "math.add", "denied"),
        (3, "open", "handler_error"),
        (4, "math.mul", "denied"),
        (5, "math.add", "budget_exhausted"),
        (6, "math.add", "output_rejected"),
    ]
    assert records[1].errors == (("", "/required", '"right" is a required property'),)
    assert records[2].detail == "OSError: disk"
    assert records[3].detail == "unknown tool"
    assert records[5].ticket == ticket.id
    with pytest.raises(dataclasses.FrozenInstanceError):
        records[0].outcome = "denied"  # type: ignore[misc]
    records.clear()
    assert len(runtime.records()) == 6  # a copy


def test_max_records_keeps_the_newest(math_add: Any) -> None:
    runtime = ToolRuntime(max_records=2)
    runtime.register(math_add, Handler())
    for i in range(5):
        runtime.call("math.add", {"left": i, "right": 0})
    assert [r.seq for r in runtime.records()] == [4, 5]


# ------------------------------------------------------------------------------ registry


def test_registration_rules(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, Handler())
    with pytest.raises(DuplicateTool):
        runtime.register(generator.compile_contract_module(MATH_ADD, format=False), Handler())
    with pytest.raises(TypeError, match="not a compiled contract module"):
        runtime.register(generator.compile_module({"type": "object"}), Handler())
    with pytest.raises(TypeError, match="not callable"):
        runtime.register(generator.compile_contract_module(OPEN, format=False), "handler")  # type: ignore[arg-type]
    with pytest.raises(UnknownTool):
        runtime.remaining_budget("open")
    with pytest.raises(UnknownTool) as caught:
        runtime.call("open", {})
    assert caught.value.tool == "open"
    assert runtime.tools() == ["math.add"]


def test_every_runtime_error_is_a_tool_error() -> None:
    for cls in (
        UnknownTool,
        DuplicateTool,
        ToolDenied,
        BudgetExhausted,
        OutputRejected,
        HandlerFailed,
        TicketError,
        AsyncHandlerError,
    ):
        assert issubclass(cls, ToolError)


# --------------------------------------------------------------------------- thread safety


@pytest.mark.parametrize("round_", range(5))  # a race shows in some rounds, not all
def test_the_budget_holds_under_many_threads(math_add: Any, round_: int) -> None:
    budget, threads_n, per_thread = 200, 24, 50
    runtime = ToolRuntime()
    handler_calls: list[int] = []
    lock = threading.Lock()

    def handler(request: Any) -> Any:
        with lock:
            handler_calls.append(request["left"])
        return {"total": request["left"] + request["right"]}

    runtime.register(math_add, handler, budget=budget)
    barrier = threading.Barrier(threads_n)
    counts = {"accepted": 0, "exhausted": 0, "denied": 0}

    def worker(n: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            try:
                if i % 5 == 0:
                    runtime.call("math.add", {"left": n})  # denied: never takes budget
                elif i % 2:
                    runtime.call("math.add", {"left": n, "right": i})
                else:
                    runtime.complete(
                        runtime.begin("math.add", {"left": n, "right": i}), {"total": 0}
                    )
                key = "accepted"
            except BudgetExhausted:
                key = "exhausted"
            except ToolDenied:
                key = "denied"
            with lock:
                counts[key] += 1

    sys_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=worker, args=(n,)) for n in range(threads_n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(sys_interval)
    total = threads_n * per_thread
    denied = threads_n * (per_thread // 5)
    assert counts == {"accepted": budget, "exhausted": total - denied - budget, "denied": denied}
    assert runtime.remaining_budget("math.add") == 0
    assert len(handler_calls) <= budget
    records = runtime.records()
    assert [r.seq for r in records] == list(range(1, total + 1))
    assert sum(r.outcome == "accepted" for r in records) == budget
    assert len({r.ticket for r in records if r.ticket is not None}) == budget


# --------------------------------------------------------------------------------- example


def test_the_example_handler_runs_both_ways() -> None:
    example = importlib.import_module("examples.math_add_handler")
    for typed in (False, True):
        runtime = example.build(typed=typed, budget=1)
        assert runtime.call("math.add", {"left": 40, "right": 2}) == {"total": 42}
        with pytest.raises(ToolDenied):
            runtime.call("math.add", {"left": 1, "right": 2, "carry": 1})
        with pytest.raises(BudgetExhausted):
            runtime.call("math.add", {"left": 1, "right": 2})
        assert [r.outcome for r in runtime.records()] == ["accepted", "denied", "budget_exhausted"]


def test_the_example_and_the_runtime_pass_mypy_strict() -> None:
    paths = ["examples/math_add_handler.py", "generator/runtime"]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(autouse=True)
def _no_leaked_threads() -> Iterator[None]:
    before = threading.active_count()
    yield
    assert threading.active_count() == before


def test_the_runtime_imports_nothing_of_the_compiler() -> None:
    """A service that imports generator.runtime loads neither black, jinja2 nor a compiler stage:
    run in a fresh interpreter in which importing any of them raises."""
    program = r"""
import sys
BLOCKED = ("black", "jinja2", "generator.api", "generator.emit", "generator.lower", "generator.render",
           "generator.preflight", "generator.resolve", "generator.contracts", "generator.regex",
           "generator.plan", "generator.keywords", "generator.codegen", "generator.profiles")

class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ImportError("blocked: " + name)
        return None

sys.meta_path.insert(0, Block())
import generator.runtime
import generator.runtime.adapters
from generated.tools import math_add
runtime = generator.runtime.ToolRuntime()
runtime.register(math_add, lambda request: {"total": request["left"] + request["right"]})
assert runtime.call("math.add", {"left": 1, "right": 2}) == {"total": 3}
loaded = sorted(m for m in sys.modules if m == "generator" or m.startswith("generator."))
print(" ".join(loaded))
"""
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "generator",
        "generator.errors",
        "generator.runtime",
        "generator.runtime.adapters",
        "generator.runtime.tools",
    ]


def test_import_generator_is_cheap_and_compiles_on_first_use() -> None:
    program = r"""
import sys
import generator
assert "black" not in sys.modules and "jinja2" not in sys.modules and "generator.api" not in sys.modules
assert generator.compile_module({"type": "integer"}).is_valid(3)
assert "generator.api" in sys.modules
"""
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
