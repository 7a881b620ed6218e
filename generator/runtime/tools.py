"""A small tool runtime: handlers guarded by compiled tool contracts.

The Python version of the seed's ``CapabilityRuntime`` for validated JSON tools. A tool is a
handler registered with its compiled contract module (``generator.compile_contract_module``, or a
module ``straightline compile`` wrote from a contract file) and an optional call budget::

    runtime = ToolRuntime()
    runtime.register(math_add, lambda request: {"total": request["left"] + request["right"]},
                     budget=10)
    runtime.call("math.add", {"left": 1, "right": 2})         # {'total': 3}

Every call takes one path, whether synchronous, asynchronous or deferred:

1. **Input.** The runtime makes its own copy of the input, of plain JSON types (see below); the
   contract module checks the copy's JSON object/array envelope, then the input contract. Rejected
   input is recorded as ``denied`` with its errors, does not consume budget, never reaches the
   handler, and raises :class:`ToolDenied`. A name no tool has raises :class:`UnknownTool`,
   recorded as ``denied`` (detail ``"unknown tool"``).
2. **Reservation.** One call is reserved against the tool's budget, under a lock (so with many
   threads exactly ``budget`` calls get through). None left: recorded as ``budget_exhausted``,
   :class:`BudgetExhausted`. A reserved call stays consumed whatever happens next.
3. **Handler.** :meth:`ToolRuntime.call` and :meth:`ToolRuntime.call_async` run the handler; with
   :meth:`ToolRuntime.begin` the host runs it (host-pumped) or the result arrives from elsewhere
   (completed externally) and is handed to :meth:`ToolRuntime.complete`. A handler exception is
   recorded as ``handler_error`` and raised as :class:`HandlerFailed`, chained to it.
4. **Output.** The same: a plain copy, its envelope, the output contract. Rejected output is
   recorded as ``output_rejected`` and raises :class:`OutputRejected`; accepted output is
   recorded as ``accepted`` and the copy that was checked is returned.

``call`` is ``begin`` + handler + ``complete`` (or ``fail``); ``call_async`` the same with the
handler awaited. Each call leaves exactly one :class:`Record` (a deferred call when it is
completed or failed), read back in order with :meth:`ToolRuntime.records`, whatever the caller's
objects do: an exception whose ``str()`` raises, a key or Decimal whose ``repr()`` raises, an
object that raises when looked at are shown by their type's name or rejected, never let through.

Owned copies: the runtime never trusts the caller's objects after checking them. Each input and
each output is first copied into plain ``dict``, ``list``, ``str``, ``int``, ``float``,
``Decimal``, ``bool`` and ``None`` values (subclasses read once through the base types' own
methods), then the copy is validated, and the copy is what the handler receives (``ticket.input``)
and what ``call``/``complete`` return. So a caller that mutates its object after ``begin``, a
handler that mutates its input, or a dict subclass that answers differently on each lookup can
never make the handler (or the caller) see a value that was not validated. The cost is one copy
of each input and each output: time and memory linear in the value's size (a value that shares a
container in several places is copied at each: as the JSON text it stands for). ``catalog()``
returns deep copies too.

Plain JSON: the contract only looks where the schema looks, so a property the schema leaves
unconstrained may hold a tuple, a set, an arbitrary object, NaN or a non-string key. The copy
refuses such values on both sides, with :class:`RuntimeValidationError` errors
(``keyword_location`` ``""``): what it accepts and returns is what ``json.loads`` could have
produced (dicts and lists, subclasses made plain, str, int, finite float and Decimal, bool, None).

Async handlers (``async def``, or a callable whose result is awaitable) run through
``call_async``. ``call`` on a tool registered with an ``async def`` handler raises
:class:`AsyncHandlerError` before anything is validated, reserved or recorded: the runtime never
starts an event loop of its own behind the caller's back. A sync-declared handler that returns an
awaitable under ``call`` is a handler error (the awaitable is closed, not run). ``call_async``
runs sync handlers directly on the event loop's thread.
"""

from __future__ import annotations

import copy
import inspect
import math
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, Protocol, TypeAlias

__all__ = [
    "AsyncHandlerError",
    "BudgetExhausted",
    "ContractError",
    "ContractModule",
    "DuplicateTool",
    "HandlerFailed",
    "Outcome",
    "OutputRejected",
    "Record",
    "RuntimeValidationError",
    "Ticket",
    "TicketError",
    "ToolDenied",
    "ToolError",
    "ToolRuntime",
    "UnknownTool",
]

Outcome: TypeAlias = Literal[
    "accepted", "denied", "output_rejected", "handler_error", "budget_exhausted"
]
Handler: TypeAlias = Callable[[Any], Any]
ErrorTuple: TypeAlias = tuple[str, str, str]


class ContractError(Protocol):
    """What the runtime reads from a contract module's ``ValidationError``."""

    @property
    def message(self) -> str: ...

    @property
    def instance_location(self) -> str: ...

    @property
    def keyword_location(self) -> str: ...


class ContractModule(Protocol):
    """The part of a compiled contract module the runtime uses (a module satisfies it)."""

    @property
    def NAME(self) -> str: ...

    @property
    def DESCRIPTION(self) -> str: ...

    @property
    def CATALOG_ENTRY(self) -> dict[str, Any]: ...

    @property
    def EnvelopeError(self) -> type[Exception]: ...

    def is_valid_input(self, instance: Any, /) -> bool: ...

    def input_errors(self, instance: Any, /) -> Sequence[ContractError]: ...

    def is_valid_output(self, instance: Any, /) -> bool: ...

    def output_errors(self, instance: Any, /) -> Sequence[ContractError]: ...


_REQUIRED_MEMBERS = (
    "NAME",
    "DESCRIPTION",
    "CATALOG_ENTRY",
    "EnvelopeError",
    "is_valid_input",
    "input_errors",
    "is_valid_output",
    "output_errors",
)


# ----------------------------------------------------------------------------------- errors


class ToolError(Exception):
    """Base of every error the runtime raises; ``tool`` is the tool's name (or None)."""

    def __init__(self, message: str, tool: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.tool = tool


class UnknownTool(ToolError):
    """No tool of that name is registered (recorded as ``denied``)."""


class DuplicateTool(ToolError):
    """A tool of that name is already registered."""


class _Rejected(ToolError):
    """Shared shape of ToolDenied and OutputRejected."""

    def __init__(
        self, message: str, tool: str, errors: Sequence[ContractError], envelope: bool
    ) -> None:
        super().__init__(message, tool)
        self.errors: tuple[ContractError, ...] = tuple(errors)
        self.envelope = envelope  # the value was not a JSON object or array at all


class ToolDenied(_Rejected):
    """The input was rejected (envelope, contract or plain JSON); nothing was reserved.

    ``errors`` are the contract module's ValidationError objects (an ``EnvelopeError`` when the
    input is not an object or array; :class:`RuntimeValidationError` for non-JSON values); the
    exception is chained to the first one."""


class OutputRejected(_Rejected):
    """The handler's (or the external completer's) output was rejected; the call was consumed.

    ``errors`` as for :class:`ToolDenied`; ``ticket`` is the call's ticket."""

    def __init__(
        self,
        message: str,
        tool: str,
        errors: Sequence[ContractError],
        envelope: bool,
        ticket: Ticket,
    ) -> None:
        super().__init__(message, tool, errors, envelope)
        self.ticket = ticket


class BudgetExhausted(ToolError):
    """The input was valid but the tool has no call left."""


class HandlerFailed(ToolError):
    """The handler raised (``__cause__`` is its exception) or the call was failed externally."""

    def __init__(self, message: str, tool: str, ticket: Ticket) -> None:
        super().__init__(message, tool)
        self.ticket = ticket


class TicketError(ToolError):
    """The ticket is not open in this runtime: completed already, or never issued by it."""


class AsyncHandlerError(ToolError):
    """``call`` was used on a tool whose handler is ``async def``: use ``await call_async``."""


class RuntimeValidationError(ValueError):
    """An error the runtime found rather than the contract module: a value that is not plain
    JSON, or (failing closed) a module that contradicts itself.

    Same attributes as a contract module's ValidationError (and the same str(): the instance
    location, then the message); ``keyword_location`` is ``""``."""

    def __init__(self, message: str, instance_location: str) -> None:
        super().__init__(message)
        self.message = message
        self.instance_location = instance_location
        self.keyword_location = ""
        self.absolute_keyword_location: str | None = None

    def __str__(self) -> str:
        return f"{self.instance_location or '(root)'}: {self.message}"

    def __repr__(self) -> str:
        return f"RuntimeValidationError({self.message!r}, instance_location={self.instance_location!r})"


# ---------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Record:
    """One outcome. ``errors`` are ``(instance_location, keyword_location, message)``;
    ``detail`` says more for outcomes without contract errors (the handler's exception, ...);
    ``ticket`` is the call's ticket id once a call was reserved."""

    seq: int
    tool: str
    outcome: Outcome
    errors: tuple[ErrorTuple, ...] = ()
    detail: str = ""
    ticket: int | None = None


@dataclass(frozen=True, eq=False)
class Ticket:
    """A reserved call whose output is still to come. Only the runtime creates tickets; each is
    completed (or failed) once, in the runtime that issued it. ``input`` is the validated input."""

    id: int
    tool: str
    input: Any


@dataclass
class _Tool:
    module: ContractModule
    handler: Handler
    is_async: bool
    budget: int | None  # calls left; None is unlimited


# ------------------------------------------------------------------------------- plain JSON


def _esc(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _shown(value: object) -> str:
    """repr(value) for a message, as a plain str; the type's name where repr raises (a caller's
    object may): formatting a message never loses the record it belongs to."""
    try:
        return str.__str__(repr(value))
    except Exception:
        return f"<{type(value).__name__} object>"


def _tool_name(name: object) -> str | None:
    """A tool name as plain text (a str subclass read by str's own method); None for a value of
    another type, which names no tool."""
    try:
        return str.__str__(name) if isinstance(name, str) else None
    except Exception:  # (isinstance reads __class__, which an object may make raise)
        return None


def _detail(error: object) -> str:
    """`Type: message` of an exception (where str() raises too, what it raised instead), or a
    failure's text given as a str; always a plain str."""
    try:
        if isinstance(error, str):
            return str.__str__(error)
        text = str.__str__(str(error))
    except Exception as failure:
        text = f"<str() raised {type(failure).__name__}>"
    return f"{type(error).__name__}: {text}"


class _Leave:
    """Marks, on the copy's stack, the end of a container's children."""


_LEAVE = _Leave()


def _location(path: Any) -> str:
    """The JSON pointer of a (parent's path, key) chain (made only for an error message, so a
    deep value does not cost a pointer string per level)."""
    tokens: list[str] = []
    while path is not None:
        path, key = path
        tokens.append(_esc(key))
    return "".join("/" + token for token in reversed(tokens))


def _owned_copy(value: Any) -> tuple[Any, list[RuntimeValidationError]]:
    """A copy of ``value`` made only of the plain JSON types (dict, list, str, int, float,
    Decimal, bool, None), and where ``value`` is not plain JSON (empty when it is).

    Subclasses are read through the base types' own methods (``dict.items``, ``list.__iter__``,
    ``str.__str__``...), once: a dict subclass that answers differently on each lookup is copied
    as its storage holds it, and the copy is what gets validated and handed over, so nothing the
    caller (or a handler) does to the original later can change what was checked. Iterative; a
    container met again inside itself is a cycle; a container shared by several places is copied
    at each (a value from JSON text never shares)."""
    errors: list[RuntimeValidationError] = []
    root: list[Any] = [None]
    on_path: set[int] = set()
    # (value, container of its copy, key or index there, path)
    stack: list[tuple[Any, Any, Any, Any]] = [(value, root, 0, None)]
    while stack:
        item, parent, slot, path = stack.pop()
        if item is _LEAVE:
            on_path.discard(slot)
            continue
        if item is None or item is True or item is False:
            parent[slot] = item
        elif isinstance(item, str):
            parent[slot] = str.__str__(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            parent[slot] = int.__int__(item)
        elif isinstance(item, float):
            number = float.__float__(item)
            if not math.isfinite(number):
                errors.append(
                    RuntimeValidationError(f"{number!r} is not a JSON number", _location(path))
                )
            parent[slot] = number
        elif isinstance(item, Decimal):
            decimal = (
                item if type(item) is Decimal else Decimal(item)
            )  # (a subclass's repr may raise)
            if not decimal.is_finite():
                errors.append(
                    RuntimeValidationError(f"{decimal!r} is not a JSON number", _location(path))
                )
            parent[slot] = decimal
        elif isinstance(item, (dict, list)):
            if id(item) in on_path:
                errors.append(
                    RuntimeValidationError("the value contains itself (a cycle)", _location(path))
                )
                continue
            on_path.add(id(item))
            stack.append((_LEAVE, None, id(item), None))
            if isinstance(item, dict):
                parent[slot] = _copy_dict(item, path, stack, errors)
            else:
                members = list(list.__iter__(item))
                parent[slot] = copied_list = [None] * len(members)
                for index in range(len(members) - 1, -1, -1):
                    stack.append((members[index], copied_list, index, (path, index)))
        else:
            errors.append(
                RuntimeValidationError(
                    f"a {type(item).__name__} is not a JSON value", _location(path)
                )
            )
    return root[0], errors


def _copy_dict(
    item: dict[Any, Any],
    path: Any,
    stack: list[tuple[Any, Any, Any, Any]],
    errors: list[RuntimeValidationError],
) -> dict[str, Any]:
    """An empty plain dict with ``item``'s keys in order (as plain str), its values pushed on
    ``stack`` to be copied into it."""
    copied: dict[str, Any] = {}
    pending = []
    for key, member in list(dict.items(item)):
        if not isinstance(key, str):
            errors.append(
                RuntimeValidationError(f"object key {_shown(key)} is not a string", _location(path))
            )
            continue
        name = str.__str__(key)
        if name in copied:  # two str subclass keys with one text
            errors.append(
                RuntimeValidationError(f"object key {name!r} appears twice", _location(path))
            )
            continue
        copied[name] = None
        pending.append((member, copied, name, (path, name)))
    stack.extend(reversed(pending))
    return copied


# ---------------------------------------------------------------------------------- runtime


class ToolRuntime:
    """Tools guarded by their contracts, with call budgets and a record of every outcome.

    ``max_records`` bounds the record kept (oldest dropped first; sequence numbers go on).
    Thread-safe: registration, reservation, tickets and records share one lock; handlers and
    validation run outside it."""

    def __init__(self, *, max_records: int | None = None) -> None:
        self._lock = threading.Lock()
        self._tools: dict[str, _Tool] = {}
        self._open: dict[int, Ticket] = {}
        self._records: deque[Record] = deque(maxlen=max_records)
        self._seq = 0
        self._next_ticket = 0
        self._servers: list[Any] = []  # the protocol tools' servers, closed by close()

    # -- registration -------------------------------------------------------------------

    def register(
        self, contract_module: ContractModule, handler: Handler, *, budget: int | None = None
    ) -> None:
        """Register ``handler`` (sync or ``async def``) as the tool ``contract_module.NAME``.

        ``budget`` is how many calls may be reserved (None: unlimited). A name already
        registered raises :class:`DuplicateTool`; a module without the contract interface, a
        handler that is not callable or a negative budget raise TypeError/ValueError."""
        missing = [m for m in _REQUIRED_MEMBERS if not hasattr(contract_module, m)]
        if missing:
            raise TypeError(f"not a compiled contract module: it has no {', '.join(missing)}")
        name = contract_module.NAME
        if not isinstance(name, str) or not name:
            raise TypeError("the contract module's NAME must be a non-empty string")
        if not callable(handler):
            raise TypeError(f"the handler of {name!r} is not callable")
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, int) or budget < 0
        ):
            raise ValueError(f"budget must be a non-negative int or None, not {budget!r}")
        tool = _Tool(contract_module, handler, is_async_callable(handler), budget)
        with self._lock:
            if name in self._tools:
                raise DuplicateTool(f"a tool named {name!r} is already registered", name)
            self._tools[name] = tool

    def register_protocol(
        self,
        contract_module: ContractModule,
        server: Any,
        *,
        tool: str | None = None,
        budget: int | None = None,
        timeout: float = 30.0,
    ) -> None:
        """Register the tool ``contract_module.NAME`` as implemented by the remote MCP tool
        ``tool`` (default: that name) of ``server``, a ``generator.runtime.mcp.StdioServer`` or
        ``HttpServer``: the seed's ``register_validated_protocol_json_tool``. Calls take the one
        path; the request is sent only once the input is accepted and a call reserved, and the
        response waited for at most ``timeout`` seconds (generator/runtime/mcp.py). The
        connection starts on first use; :meth:`close` ends it."""
        from .mcp import protocol_handler  # the SDK is an optional extra: loaded when used

        handler = protocol_handler(
            server,
            tool if tool is not None else getattr(contract_module, "NAME", None),
            timeout=timeout,
        )
        self.register(contract_module, handler, budget=budget)
        with self._lock:
            if server not in self._servers:
                self._servers.append(server)

    def close(self) -> None:
        """End the connections of the protocol tools (each starts again if used again)."""
        with self._lock:
            servers = list(self._servers)
        for server in servers:
            server.close()

    def __enter__(self) -> ToolRuntime:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def contract(self, name: str) -> ContractModule:
        """The contract module of a tool. :class:`UnknownTool` if not registered."""
        with self._lock:
            tool = self._tools.get(name)
        if tool is None:
            raise UnknownTool(f"no tool named {name!r}", name)
        return tool.module

    def tools(self) -> list[str]:
        """The registered tool names, in registration order."""
        with self._lock:
            return list(self._tools)

    def catalog(self) -> list[dict[str, Any]]:
        """The catalog entries (name, description, input and output schema) of every tool."""
        with self._lock:
            modules = [tool.module for tool in self._tools.values()]
        # deep copies: a caller editing a returned schema edits no module's INPUT_SCHEMA
        return [copy.deepcopy(dict(module.CATALOG_ENTRY)) for module in modules]

    def remaining_budget(self, name: str) -> int | None:
        """Calls left for the tool (None: unlimited). :class:`UnknownTool` if not registered."""
        with self._lock:
            tool = self._tools.get(name)
            if tool is None:
                raise UnknownTool(f"no tool named {name!r}", name)
            return tool.budget

    # -- the one path ---------------------------------------------------------------------

    def begin(self, name: str, input: Any) -> Ticket:
        """Validate ``input`` and reserve a call: the first half of every call.

        Raises :class:`UnknownTool`, :class:`ToolDenied` or :class:`BudgetExhausted` (each
        recorded). The returned ticket's ``input`` goes to whoever produces the output, which
        is then passed to :meth:`complete` (or the failure to :meth:`fail`)."""
        plain = _tool_name(name)
        name = plain if plain is not None else _shown(name)  # (no tool has a name of another type)
        with self._lock:
            tool = self._tools.get(plain) if plain is not None else None
        if tool is None:
            self._record(name, "denied", detail="unknown tool")
            shown = f"{name!r}" if plain is not None else f"{name} (not a str)"
            raise UnknownTool(f"no tool named {shown}", name)
        module = tool.module
        owned, errors, envelope = _accept(module, module.is_valid_input, module.input_errors, input)
        if errors:
            self._record(name, "denied", errors=_tuples(errors))
            what = "input is not a JSON object or array" if envelope else "input rejected"
            raise ToolDenied(
                f"{name}: {what}: {_summary(errors)}", name, errors, envelope
            ) from _exception(errors[0])
        with self._lock:
            if tool.budget is not None:
                if tool.budget <= 0:
                    exhausted = True
                else:
                    tool.budget -= 1
                    exhausted = False
            else:
                exhausted = False
            if not exhausted:
                self._next_ticket += 1
                ticket = Ticket(self._next_ticket, name, owned)
                self._open[ticket.id] = ticket
        if exhausted:
            self._record(name, "budget_exhausted", detail="no calls left")
            raise BudgetExhausted(f"{name}: the call budget is exhausted", name)
        return ticket

    def complete(self, ticket: Ticket, output: Any) -> Any:
        """Validate the ``output`` of a reserved call and return it: the second half.

        The ticket is closed first, whatever the outcome (:class:`TicketError` if it is not
        open); rejected output raises :class:`OutputRejected`. Both are recorded."""
        tool = self._close(ticket)
        module = tool.module
        owned, errors, envelope = _accept(
            module, module.is_valid_output, module.output_errors, output
        )
        if errors:
            self._record(ticket.tool, "output_rejected", errors=_tuples(errors), ticket=ticket.id)
            what = "output is not a JSON object or array" if envelope else "output rejected"
            raise OutputRejected(
                f"{ticket.tool}: {what}: {_summary(errors)}",
                ticket.tool,
                errors,
                envelope,
                ticket,
            ) from _exception(errors[0])
        self._record(ticket.tool, "accepted", ticket=ticket.id)
        return owned

    def fail(self, ticket: Ticket, error: BaseException | str) -> HandlerFailed:
        """Close a reserved call that produced no output: recorded as ``handler_error``.

        Returns the :class:`HandlerFailed` to raise (chained to ``error`` when it is an
        exception); :class:`TicketError` if the ticket is not open."""
        self._close(ticket)
        detail = _detail(error)
        self._record(ticket.tool, "handler_error", detail=detail, ticket=ticket.id)
        failed = HandlerFailed(f"{ticket.tool}: the handler failed: {detail}", ticket.tool, ticket)
        if isinstance(error, BaseException):
            failed.__cause__ = error
        return failed

    def pending(self) -> list[Ticket]:
        """The open tickets, oldest first."""
        with self._lock:
            return list(self._open.values())

    # -- calls ------------------------------------------------------------------------------

    def call(self, name: str, input: Any) -> Any:
        """``begin``, run the (synchronous) handler, ``complete``; returns the checked output.

        :class:`AsyncHandlerError` (nothing validated, reserved or recorded) if the handler is
        ``async def``: use :meth:`call_async`."""
        plain = _tool_name(name)
        with self._lock:
            tool = self._tools.get(plain) if plain is not None else None
        if tool is not None and tool.is_async and plain is not None:
            raise AsyncHandlerError(
                f"{plain}: the handler is async; use 'await runtime.call_async(...)'", plain
            )
        ticket = self.begin(name, input)  # raises UnknownTool when tool is None
        assert tool is not None
        try:
            output = tool.handler(ticket.input)
        except Exception as exc:
            raise self.fail(ticket, exc) from exc
        except BaseException as exc:  # KeyboardInterrupt, SystemExit: close, record, re-raise
            self.fail(ticket, exc)
            raise
        if _is_awaitable(output):
            _discard(output)
            raise self.fail(
                ticket,
                "the handler returned an awaitable; use 'await runtime.call_async(...)'",
            )
        return self.complete(ticket, output)

    async def call_async(self, name: str, input: Any) -> Any:
        """``begin``, run the handler (awaiting it if it is async), ``complete``.

        Cancellation while the handler runs closes the call as ``handler_error`` and
        propagates."""
        ticket = self.begin(name, input)
        with self._lock:
            handler = self._tools[ticket.tool].handler
        try:
            output = handler(ticket.input)
            if inspect.isawaitable(output):
                output = await output
        except Exception as exc:
            raise self.fail(ticket, exc) from exc
        except BaseException as exc:  # CancelledError and friends: close, record, re-raise
            self.fail(ticket, exc)
            raise
        return self.complete(ticket, output)

    # -- records ----------------------------------------------------------------------------

    def records(self) -> list[Record]:
        """Every outcome recorded (up to ``max_records``), in sequence order."""
        with self._lock:
            return list(self._records)

    # -- internals --------------------------------------------------------------------------

    def _record(
        self,
        tool: str,
        outcome: Outcome,
        *,
        errors: tuple[ErrorTuple, ...] = (),
        detail: str = "",
        ticket: int | None = None,
    ) -> None:
        with self._lock:
            self._seq += 1
            self._records.append(Record(self._seq, tool, outcome, errors, detail, ticket))

    def _close(self, ticket: Ticket) -> _Tool:
        with self._lock:
            if not isinstance(ticket, Ticket) or self._open.get(ticket.id) is not ticket:
                raise TicketError(
                    "the ticket is not open in this runtime (completed already, or not issued "
                    "by it)",
                    getattr(ticket, "tool", None),
                )
            del self._open[ticket.id]
            return self._tools[ticket.tool]


def is_async_callable(handler: Handler) -> bool:
    """An async def, or an object whose __call__ is one."""
    if inspect.iscoroutinefunction(handler):
        return True
    call = getattr(handler, "__call__", None)  # noqa: B004 (the method itself, not callable())
    return call is not None and inspect.iscoroutinefunction(call)


def _accept(
    module: ContractModule,
    is_valid: Callable[[Any], bool],
    errors_of: Callable[[Any], Sequence[ContractError]],
    value: Any,
) -> tuple[Any, list[ContractError], bool]:
    """(the owned copy, its errors, whether the value failed the envelope rule): copy first
    (plain JSON or errors), then validate the copy, so what is checked is what is handed over.
    A value that is no object or array at all goes to the module as it is, for its envelope
    error. No errors: the copy is accepted. Never raises: a value that raises when looked at is
    rejected, so the call is still recorded (once)."""
    try:
        if not isinstance(value, (dict, list)):
            errors, envelope = _check(module, is_valid, errors_of, value)
            return None, errors, envelope
        owned, problems = _owned_copy(value)
    except Exception as exc:  # (isinstance reads __class__, which an object may make raise)
        return (
            None,
            [RuntimeValidationError(f"the value cannot be read: {_detail(exc)}", "")],
            False,
        )
    if problems:
        return None, list(problems), False
    errors, envelope = _check(module, is_valid, errors_of, owned)
    return owned, errors, envelope


def _check(
    module: ContractModule,
    is_valid: Callable[[Any], bool],
    errors_of: Callable[[Any], Sequence[ContractError]],
    value: Any,
) -> tuple[list[ContractError], bool]:
    """The module's errors (envelope, then contract), and whether the value failed the
    envelope rule; no errors if the value is accepted. Fails closed if the module contradicts
    itself or raises."""
    try:
        return _check_unguarded(module, is_valid, errors_of, value)
    except Exception as exc:  # a validator that raises rejects the value, never lets it through
        message = f"the contract check raised {_detail(exc)}"
        return [RuntimeValidationError(message, "")], False


def _check_unguarded(
    module: ContractModule,
    is_valid: Callable[[Any], bool],
    errors_of: Callable[[Any], Sequence[ContractError]],
    value: Any,
) -> tuple[list[ContractError], bool]:
    if not is_valid(value):
        errors = list(errors_of(value))
        if not errors:  # is_valid said no but gave no reason: never let it through
            errors = [RuntimeValidationError("rejected by the contract (no error reported)", "")]
        envelope_error = module.EnvelopeError
        return errors, any(isinstance(e, envelope_error) for e in errors)
    if not isinstance(value, (dict, list)):  # the module accepted a non-envelope: fail closed
        message = f"a {type(value).__name__} is not a JSON object or array"
        return [RuntimeValidationError(message, "")], True
    return [], False


def _tuples(errors: Sequence[ContractError]) -> tuple[ErrorTuple, ...]:
    return tuple((e.instance_location, e.keyword_location, e.message) for e in errors)


def _summary(errors: Sequence[ContractError]) -> str:
    first = errors[0]
    where = first.instance_location or "the root"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{first.message} at {where}{more}"


def _exception(error: ContractError) -> BaseException | None:
    return error if isinstance(error, BaseException) else None


def _is_awaitable(value: Any) -> bool:
    """inspect.isawaitable, False where looking raises (complete() then rejects the value)."""
    try:
        return inspect.isawaitable(value)
    except Exception:  # (isinstance reads __class__, which an object may make raise)
        return False


def _discard(awaitable: Awaitable[Any]) -> None:
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()
