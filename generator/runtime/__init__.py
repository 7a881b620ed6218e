"""The tool runtime: handlers guarded by compiled tool contracts (tools), and typed adapters for
dataclass handlers (adapters). A product of its own: it imports nothing from the compiler, so a
service that validates with generated modules loads neither black, jinja2 nor any compiler stage."""

from .tools import (
    AsyncHandlerError,
    BudgetExhausted,
    ContractError,
    ContractModule,
    DuplicateTool,
    HandlerFailed,
    Outcome,
    OutputRejected,
    Record,
    RuntimeValidationError,
    Ticket,
    TicketError,
    ToolDenied,
    ToolError,
    ToolRuntime,
    UnknownTool,
    is_async_callable,
)

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
    "is_async_callable",
]
