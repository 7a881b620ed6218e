"""Hand-written straight-line validators for the math.add contract: the pure-Python limit.

Written the way a careful engineer would write them by hand for values made by `json.loads`:
exact `type(...) is ...` tests, a key count and `in` tests for `required` plus
`additionalProperties: false` (cheaper than comparing a keys view with a set: no view is made),
and JSON Schema's integer rule (`bool` is not an integer, a float
with no fractional part such as `1.0` is). Subclasses of dict and Decimal numbers are not
handled: `json.loads` makes neither, and the benchmark instances contain neither.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any



def math_add_input_is_valid(instance: Any) -> bool:
    """{"left": integer, "right": integer}, nothing else."""
    # Both properties are required and no others are allowed: exactly these two keys.
    if type(instance) is not dict or len(instance) != 2:
        return False
    if "left" not in instance or "right" not in instance:
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
    if type(instance) is not dict or len(instance) != 1 or "total" not in instance:
        return False
    total = instance["total"]
    total_type = type(total)
    return total_type is int or (total_type is float and total.is_integer())


# Case name -> validator. Cases not listed here have no hand-written column.
HANDWRITTEN: dict[str, Callable[[Any], bool]] = {
    "math.add.input": math_add_input_is_valid,
    "math.add.output": math_add_output_is_valid,
}
