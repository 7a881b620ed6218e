"""Hand-written straight-line validators for the math.add contract: the pure-Python limit.

Written the way a careful engineer would write them by hand for values made by `json.loads`:
exact `type(...) is ...` tests, one key-set comparison for `required` plus
`additionalProperties: false`, and JSON Schema's integer rule (`bool` is not an integer, a float
with no fractional part such as `1.0` is). Subclasses of dict and Decimal numbers are not
handled: `json.loads` makes neither, and the benchmark instances contain neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Both properties are required and no others are allowed, so the key set must be exactly this.
_INPUT_KEYS = frozenset(("left", "right"))
_OUTPUT_KEYS = frozenset(("total",))


def math_add_input_is_valid(instance: Any) -> bool:
    """{"left": integer, "right": integer}, nothing else."""
    if type(instance) is not dict or instance.keys() != _INPUT_KEYS:
        return False
    left = instance["left"]
    left_type = type(left)
    # type(...) is int excludes bool (a subclass of int); 1.0 is an integer in JSON Schema.
    if left_type is not int and not (left_type is float and left.is_integer()):
        return False
    right = instance["right"]
    right_type = type(right)
    return right_type is int or (right_type is float and right.is_integer())


def math_add_output_is_valid(instance: Any) -> bool:
    """{"total": integer}, nothing else."""
    if type(instance) is not dict or instance.keys() != _OUTPUT_KEYS:
        return False
    total = instance["total"]
    total_type = type(total)
    return total_type is int or (total_type is float and total.is_integer())


# Case name -> validator. Cases not listed here have no hand-written column.
HANDWRITTEN: dict[str, Callable[[Any], bool]] = {
    "math.add.input": math_add_input_is_valid,
    "math.add.output": math_add_output_is_valid,
}
