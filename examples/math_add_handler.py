"""The seed's math.add tool guarded by its generated contract: a plain handler and a typed one.

From the repository root: `.venv/bin/python -m examples.math_add_handler`.
"""

from __future__ import annotations

from dataclasses import dataclass

from generated.tools import math_add as contract  # `make generate` writes it
from generator.runtime import ToolDenied, ToolRuntime
from generator.runtime.adapters import register_typed


def add(request: contract.Input) -> contract.Output:
    """The plain handler: JSON in, JSON out; the input was checked before it got here. An integer
    may arrive as 2, 2.0 or Decimal("2") (all integers to JSON Schema, so contract.Input says so):
    int() makes each the int it stands for."""
    return {"total": int(request["left"]) + int(request["right"])}


@dataclass
class AddInput:
    left: int
    right: int


@dataclass
class AddOutput:
    total: int


def add_typed(request: AddInput) -> AddOutput:
    """The typed handler: the contract checks the JSON before and after the dataclasses."""
    return AddOutput(total=request.left + request.right)


def build(typed: bool = False, budget: int | None = 100) -> ToolRuntime:
    runtime = ToolRuntime()
    if typed:
        register_typed(runtime, contract, add_typed, AddInput, AddOutput, budget=budget)
    else:
        runtime.register(contract, add, budget=budget)
    return runtime


if __name__ == "__main__":
    runtime = build(typed=True)
    print(runtime.call("math.add", {"left": 1, "right": 2}))  # {'total': 3}
    try:
        runtime.call("math.add", {"left": 1})
    except ToolDenied as denied:
        print(denied)  # math.add: input rejected: "right" is a required property at the root
    print(runtime.remaining_budget("math.add"), runtime.records()[-1].outcome)  # 99 denied
