"""What the tool runtime says when it refuses: each error's message, its ``tool``, the records'
details, the plain-JSON copy's locations and order, registration's refusals. A caller (or a
model reading an MCP error) sees these texts; they name the tool, the first error and where.
"""

from __future__ import annotations

import asyncio
import inspect
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
    RuntimeValidationError,
    Ticket,
    TicketError,
    ToolDenied,
    ToolRuntime,
    UnknownTool,
    is_async_callable,
)

from .test_runtime import MATH_ADD, OPEN


@pytest.fixture(scope="module")
def math_add() -> Any:
    return generator.compile_contract_module(MATH_ADD, format=False)


@pytest.fixture(scope="module")
def open_contract() -> Any:
    return generator.compile_contract_module(OPEN, format=False)


def _add(request: Any) -> Any:
    return {"total": request["left"] + request["right"]}


# ------------------------------------------------------------------------------ messages


def test_a_denial_names_the_tool_the_first_error_where_it_is_and_how_many_more(
    math_add: Any,
) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, _add)
    for value, message in [
        (
            {"left": "1", "right": "2"},
            'math.add: input rejected: "1" is not of type "integer" at /left (and 1 more)',
        ),
        ({"left": 1}, 'math.add: input rejected: "right" is a required property at the root'),
        (
            3,
            "math.add: input is not a JSON object or array: the input must be a JSON object or "
            "array, not 3 at the root",
        ),
    ]:
        with pytest.raises(ToolDenied) as denied:
            runtime.call("math.add", value)
        assert (denied.value.message, str(denied.value)) == (message, message)
        assert denied.value.tool == "math.add"


def test_an_output_rejection_names_the_tool_the_first_error_and_how_many_more(
    math_add: Any,
) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": "x", "more": 1})
    with pytest.raises(OutputRejected) as rejected:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert rejected.value.message == (
        'math.add: output rejected: additional property "more" is not allowed at /more '
        "(and 1 more)"
    )
    assert [e.instance_location for e in rejected.value.errors] == ["/more", "/total"]
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    with pytest.raises(OutputRejected) as envelope:
        runtime.complete(ticket, None)
    assert envelope.value.message == (
        "math.add: output is not a JSON object or array: the output must be a JSON object or "
        "array, not null at the root"
    )
    assert envelope.value.tool == "math.add" and envelope.value.ticket is ticket


def test_an_exhausted_budget_says_so_and_records_why(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, _add, budget=0)
    with pytest.raises(BudgetExhausted) as exhausted:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert exhausted.value.message == "math.add: the call budget is exhausted"
    assert exhausted.value.tool == "math.add"
    (record,) = runtime.records()
    assert (record.outcome, record.detail, record.errors, record.ticket) == (
        "budget_exhausted",
        "no calls left",
        (),
        None,
    )
    assert runtime.pending() == []


def test_a_failed_handler_names_the_tool_and_the_exception(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: 1 // 0)
    with pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert failed.value.message == (
        "math.add: the handler failed: ZeroDivisionError: integer division or modulo by zero"
    )
    assert failed.value.tool == "math.add"
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    given = runtime.fail(ticket, "the host gave up")
    assert given.message == "math.add: the handler failed: the host gave up"
    assert given.__cause__ is None and given.ticket is ticket


def test_unknown_names_are_refused_by_contract_and_remaining_budget_too(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, _add)
    assert runtime.contract("math.add") is math_add
    for ask in (runtime.contract, runtime.remaining_budget):
        with pytest.raises(UnknownTool) as unknown:
            ask("math.mul")
        assert (unknown.value.message, unknown.value.tool) == (
            "no tool named 'math.mul'",
            "math.mul",
        )
    with pytest.raises(UnknownTool) as called:
        runtime.call("math.mul", {})
    assert (called.value.message, called.value.tool) == ("no tool named 'math.mul'", "math.mul")
    assert [(r.tool, r.outcome, r.detail) for r in runtime.records()] == [
        ("math.mul", "denied", "unknown tool")
    ]


def test_a_ticket_not_open_is_refused_naming_its_tool(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, _add)
    ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    runtime.complete(ticket, {"total": 3})
    for closed, tool in ((ticket, "math.add"), ("not a ticket", None)):
        for close in (runtime.complete, runtime.fail):
            with pytest.raises(TicketError) as refused:
                close(closed, {"total": 3})  # type: ignore[arg-type]
            assert refused.value.message == (
                "the ticket is not open in this runtime (completed already, or not issued by it)"
            )
            assert refused.value.tool == tool
    assert len(runtime.records()) == 1


def test_calling_an_async_handler_synchronously_says_what_to_use(math_add: Any) -> None:
    async def add(request: Any) -> Any:
        return _add(request)

    runtime = ToolRuntime()
    runtime.register(math_add, add)
    with pytest.raises(AsyncHandlerError) as refused:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert refused.value.message == (
        "math.add: the handler is async; use 'await runtime.call_async(...)'"
    )
    assert refused.value.tool == "math.add"
    # an unknown name is still UnknownTool, recorded
    with pytest.raises(UnknownTool):
        runtime.call("math.mul", {})
    assert asyncio.run(runtime.call_async("math.add", {"left": 1, "right": 2})) == {"total": 3}


def test_a_sync_handler_returning_a_coroutine_has_it_closed_unrun(math_add: Any) -> None:
    ran: list[Any] = []

    async def later(request: Any) -> Any:
        ran.append(request)
        return _add(request)

    returned: list[Any] = []

    def handler(request: Any) -> Any:
        coroutine = later(request)
        returned.append(coroutine)
        return coroutine

    runtime = ToolRuntime()
    runtime.register(math_add, handler, budget=2)
    with pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert failed.value.message == (
        "math.add: the handler failed: the handler returned an awaitable; use "
        "'await runtime.call_async(...)'"
    )
    assert inspect.getcoroutinestate(returned[0]) == inspect.CORO_CLOSED and ran == []
    assert runtime.records()[-1].detail == (
        "the handler returned an awaitable; use 'await runtime.call_async(...)'"
    )
    assert runtime.remaining_budget("math.add") == 1


class _AwaitableOnly:
    """Awaitable, with nothing to close (not a coroutine)."""

    def __await__(self) -> Any:
        return iter(())


def test_a_sync_handler_returning_an_awaitable_without_close_fails_the_same(
    math_add: Any,
) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: _AwaitableOnly())
    with pytest.raises(HandlerFailed) as failed:
        runtime.call("math.add", {"left": 1, "right": 2})
    assert failed.value.message == (
        "math.add: the handler failed: the handler returned an awaitable; use "
        "'await runtime.call_async(...)'"
    )
    assert [record.outcome for record in runtime.records()] == ["handler_error"]


# -------------------------------------------------------------------------- registration


class _Partial:
    NAME = "partial"
    DESCRIPTION = ""
    CATALOG_ENTRY: dict[str, Any] = {}

    def is_valid_input(self, instance: Any) -> bool:
        return True


def test_registration_says_what_is_missing_or_wrong(math_add: Any) -> None:
    runtime = ToolRuntime()
    with pytest.raises(TypeError) as missing:
        runtime.register(_Partial(), _add)  # type: ignore[arg-type]
    assert str(missing.value) == (
        "not a compiled contract module: it has no EnvelopeError, input_errors, "
        "is_valid_output, output_errors"
    )
    for name in ("", 3):
        nameless = generator.compile_contract_module(MATH_ADD, format=False)
        nameless.NAME = name
        with pytest.raises(TypeError) as bad_name:
            runtime.register(nameless, _add)
        assert str(bad_name.value) == "the contract module's NAME must be a non-empty string"
    with pytest.raises(TypeError) as not_callable:
        runtime.register(math_add, "add")  # type: ignore[arg-type]
    assert str(not_callable.value) == "the handler of 'math.add' is not callable"
    for budget in (-1, True, 2.0):
        with pytest.raises(ValueError) as bad_budget:
            runtime.register(math_add, _add, budget=budget)  # type: ignore[arg-type]
        assert str(bad_budget.value) == (
            f"budget must be a non-negative int or None, not {budget!r}"
        )
    assert runtime.tools() == []
    runtime.register(math_add, _add, budget=0)  # zero is a budget: no call at all
    with pytest.raises(DuplicateTool) as duplicate:
        runtime.register(math_add, _add)
    assert (duplicate.value.message, duplicate.value.tool) == (
        "a tool named 'math.add' is already registered",
        "math.add",
    )
    assert runtime.tools() == ["math.add"] and runtime.remaining_budget("math.add") == 0


def test_is_async_callable_looks_at_the_function_or_its_call_method() -> None:
    async def coroutine_function(request: Any) -> Any:
        return request

    class AsyncCall:
        async def __call__(self, request: Any) -> Any:
            return request

    class SyncCall:
        def __call__(self, request: Any) -> Any:
            return request

    assert is_async_callable(coroutine_function) and is_async_callable(AsyncCall())
    assert not is_async_callable(_add) and not is_async_callable(SyncCall())
    assert not is_async_callable(lambda request: coroutine_function(request))


# ------------------------------------------------------------------------ the plain copy


def test_a_runtime_error_reads_like_a_contract_modules_error() -> None:
    at_root = RuntimeValidationError("not plain", "")
    inside = RuntimeValidationError("not plain", "/a/0")
    assert (str(at_root), str(inside)) == ("(root): not plain", "/a/0: not plain")
    assert repr(inside) == "RuntimeValidationError('not plain', instance_location='/a/0')"
    assert (inside.message, inside.instance_location, inside.keyword_location) == (
        "not plain",
        "/a/0",
        "",
    )
    assert inside.absolute_keyword_location is None and inside.args == ("not plain",)


def test_locations_escape_tilde_and_slash_and_errors_come_in_document_order(
    open_contract: Any,
) -> None:
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    value = {"a/b~c": [1, float("inf")], "z": (1,), "m": [float("nan"), {2: 0}]}
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", value)
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [
        ("/a~1b~0c/1", "inf is not a JSON number"),
        ("/z", "a tuple is not a JSON value"),
        ("/m/0", "nan is not a JSON number"),
        ("/m/1", "object key 2 is not a string"),
    ]
    assert denied.value.message == (
        "open: input rejected: inf is not a JSON number at /a~1b~0c/1 (and 3 more)"
    )


def test_the_copy_keeps_the_order_of_keys_and_items(open_contract: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    returned = runtime.call("open", {"z": [3, 1, 2], "a": {"y": 1, "b": 2}, "m": None})
    assert list(returned) == ["z", "a", "m"] and list(returned["a"]) == ["y", "b"]
    assert returned["z"] == [3, 1, 2]


def test_two_keys_of_one_text_are_refused(open_contract: Any) -> None:
    class Key(str):
        def __hash__(self) -> int:
            return id(self)

        def __eq__(self, other: object) -> bool:
            return self is other

    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", {"x": {Key("k"): 1, Key("k"): 2}})
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [
        ("/x", "object key 'k' appears twice")
    ]


def test_numbers_are_copied_plain_and_infinite_decimals_refused(open_contract: Any) -> None:
    class Money(Decimal):
        pass

    class Ratio(float):
        pass

    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    returned = runtime.call("open", {"m": Money("1.5"), "r": Ratio(0.5), "d": Decimal("2")})
    assert [type(v) for v in returned.values()] == [Decimal, float, Decimal]
    assert returned == {"m": Decimal("1.5"), "r": 0.5, "d": Decimal("2")}
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", {"d": Decimal("-Infinity")})
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [
        ("/d", "Decimal('-Infinity') is not a JSON number")
    ]


def test_an_unknown_ticket_id_is_no_open_ticket(math_add: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(math_add, _add)
    open_ticket = runtime.begin("math.add", {"left": 1, "right": 2})
    with pytest.raises(TicketError):
        runtime.complete(Ticket(open_ticket.id + 1, "math.add", {}), {"total": 3})
    assert runtime.pending() == [open_ticket]


class _PlainError:
    """A contract error that is no exception (the runtime reads only its three fields)."""

    def __init__(self, location: str, message: str) -> None:
        self.instance_location = location
        self.keyword_location = "/type"
        self.message = message


class _Envelope(ValueError):
    instance_location = ""
    keyword_location = ""
    message = "not an object"


class _Listing:
    """A contract module whose errors are given: plain objects, or an envelope error among
    others."""

    NAME = "listing"
    DESCRIPTION = ""
    CATALOG_ENTRY: dict[str, Any] = {}
    EnvelopeError = _Envelope

    def __init__(self, errors: list[Any]) -> None:
        self.errors = errors

    def is_valid_input(self, instance: Any) -> bool:
        return False

    def input_errors(self, instance: Any) -> list[Any]:
        return self.errors

    is_valid_output = is_valid_input
    output_errors = input_errors


def test_errors_that_are_no_exceptions_are_reported_without_a_cause() -> None:
    runtime = ToolRuntime()
    runtime.register(_Listing([_PlainError("/a", "a is wrong")]), lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("listing", {"a": 1})
    assert denied.value.__cause__ is None and not denied.value.envelope
    assert denied.value.message == "listing: input rejected: a is wrong at /a"
    assert runtime.records()[0].errors == (("/a", "/type", "a is wrong"),)


def test_an_envelope_error_among_others_marks_the_refusal_as_an_envelope_one() -> None:
    runtime = ToolRuntime()
    runtime.register(_Listing([_PlainError("/a", "a"), _Envelope()]), lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("listing", {"a": 1})
    assert denied.value.envelope
    assert (
        denied.value.message == "listing: input is not a JSON object or array: a at /a (and 1 more)"
    )


class _Raising(_Listing):
    """A contract module whose check raises."""

    NAME = "raising"

    def __init__(self) -> None:
        super().__init__([])

    def is_valid_input(self, instance: Any) -> bool:
        raise RuntimeError("validator bug")


def test_a_check_that_raises_is_one_error_at_the_root_and_no_envelope_error() -> None:
    runtime = ToolRuntime()
    runtime.register(_Raising(), lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("raising", {"a": 1})
    [error] = denied.value.errors
    assert (error.instance_location, str(error)) == (
        "",
        "(root): the contract check raised RuntimeError: validator bug",
    )
    assert not denied.value.envelope
    assert denied.value.message == (
        "raising: input rejected: the contract check raised RuntimeError: validator bug "
        "at the root"
    )
    assert runtime.records()[0].errors == (
        ("", "", "the contract check raised RuntimeError: validator bug"),
    )


def test_the_copy_goes_on_after_a_bad_key_a_repeated_key_or_a_cycle(open_contract: Any) -> None:
    class Key(str):
        def __hash__(self) -> int:
            return id(self)

        def __eq__(self, other: object) -> bool:
            return self is other

    looped: list[Any] = []
    looped.append(looped)
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    value = {
        "a": {1: "one", "b": float("nan")},
        "k": {Key("k"): 1, Key("k"): 2, "c": float("inf")},
        "l": looped,
        "z": (1,),
    }
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", value)
    assert [(e.instance_location, e.message) for e in denied.value.errors] == [
        ("/a", "object key 1 is not a string"),
        ("/a/b", "nan is not a JSON number"),
        ("/k", "object key 'k' appears twice"),
        ("/k/c", "inf is not a JSON number"),
        ("/l/0", "the value contains itself (a cycle)"),
        ("/z", "a tuple is not a JSON value"),
    ]


def test_false_is_copied_as_false(open_contract: Any) -> None:
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    returned = runtime.call("open", {"f": False, "l": [False, True, None]})
    assert returned == {"f": False, "l": [False, True, None]}
    assert returned["f"] is False and returned["l"][0] is False


def test_an_interrupted_handler_is_recorded_with_its_exception(math_add: Any) -> None:
    def interrupted(request: Any) -> Any:
        raise KeyboardInterrupt("stop now")

    runtime = ToolRuntime()
    runtime.register(math_add, interrupted)
    with pytest.raises(KeyboardInterrupt):
        runtime.call("math.add", {"left": 1, "right": 2})
    [record] = runtime.records()
    assert (record.outcome, record.detail) == ("handler_error", "KeyboardInterrupt: stop now")


class _Unreadable:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("__class__ raises")


def test_a_value_that_cannot_be_read_is_one_error_at_the_root_and_no_envelope_error(
    open_contract: Any,
) -> None:
    runtime = ToolRuntime()
    runtime.register(open_contract, lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("open", _Unreadable())
    [error] = denied.value.errors
    assert (error.instance_location, error.message) == (
        "",
        "the value cannot be read: RuntimeError: __class__ raises",
    )
    assert not denied.value.envelope
    assert denied.value.message == (
        "open: input rejected: the value cannot be read: RuntimeError: __class__ raises "
        "at the root"
    )


class _Lying(_Listing):
    """A contract module that says valid (or not) and reports no error either way."""

    NAME = "lying"

    def __init__(self, valid: bool) -> None:
        super().__init__([])
        self.valid = valid

    def is_valid_input(self, instance: Any) -> bool:
        return self.valid


def test_a_contract_that_contradicts_itself_is_refused_at_the_root() -> None:
    runtime = ToolRuntime()
    runtime.register(_Lying(valid=False), lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("lying", {"a": 1})
    [error] = denied.value.errors
    assert (error.instance_location, str(error)) == (
        "",
        "(root): rejected by the contract (no error reported)",
    )
    assert not denied.value.envelope
    assert denied.value.message == (
        "lying: input rejected: rejected by the contract (no error reported) at the root"
    )

    runtime = ToolRuntime()
    runtime.register(_Lying(valid=True), lambda request: request)
    with pytest.raises(ToolDenied) as denied:
        runtime.call("lying", "text")  # accepted by the module, but no JSON object or array
    [error] = denied.value.errors
    assert (error.instance_location, str(error)) == (
        "",
        "(root): a str is not a JSON object or array",
    )
    assert denied.value.envelope
    assert denied.value.message == (
        "lying: input is not a JSON object or array: a str is not a JSON object or array "
        "at the root"
    )


class _Veiled:
    """A callable whose attributes cannot be looked up (a proxy, say): calling it still works,
    the interpreter finds __call__ on its type."""

    def __getattribute__(self, name: str) -> Any:
        raise AttributeError(name)

    def __call__(self, request: Any) -> Any:
        return request


def test_a_handler_whose_attributes_cannot_be_looked_up_is_a_sync_handler(
    open_contract: Any,
) -> None:
    handler = _Veiled()
    assert not is_async_callable(handler)
    runtime = ToolRuntime()
    runtime.register(open_contract, handler)
    assert runtime.call("open", {"a": 1}) == {"a": 1}
