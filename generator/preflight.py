"""Stage 2, preflight: walk the schema against the profile before any code exists.

Out-of-profile keywords (fail-closed profiles), wrong keyword values, exceeded limits and bad
regexes are all rejected here with one SchemaError carrying a code and the JSON pointer of the
offending place. Each keyword's checker is declared by its unit (generator/keywords/); this walk
calls it, and gives it the shared tests below (a JSON value, a number, a count, a schema).
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

from .errors import SchemaError, join_pointer
from .keywords.registry import KEYWORDS
from .profiles import Profile

# Nesting bound for plain JSON values inside a schema (enum, const, default, examples).
MAX_VALUE_DEPTH = 100


class Walk:
    """One walk over a schema under a profile; keyword checkers call back into it."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    # -- values -----------------------------------------------------------------------------------
    def fail(self, code: str, pointer: str, message: str) -> SchemaError:
        return SchemaError(message, code=code, pointer=pointer)

    @staticmethod
    def describe(value: Any) -> str:
        """What kind of JSON value this is, for a message."""
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "a boolean"
        if isinstance(value, (int, float, Decimal)):
            return "a number"
        if isinstance(value, str):
            return "a string"
        if isinstance(value, list):
            return "an array"
        if isinstance(value, dict):
            return "an object"
        return f"a {type(value).__name__}"

    def json_value(self, value: Any, pointer: str, max_depth: int | None = MAX_VALUE_DEPTH) -> None:
        """A plain JSON value: no NaN/Infinity, str keys, only JSON types, bounded depth."""
        stack = [(value, pointer, 0)]
        while stack:
            node, where, depth = stack.pop()
            if max_depth is not None and depth > max_depth:
                raise self.fail("limit-exceeded", where, f"value nested deeper than {MAX_VALUE_DEPTH} levels")
            if node is None or isinstance(node, (bool, str, int)):
                continue
            if isinstance(node, float):
                if not math.isfinite(node):
                    raise self.fail("bad-keyword-value", where, f"{node!r} is not a JSON number")
                continue
            if isinstance(node, Decimal):
                if not node.is_finite():
                    raise self.fail("bad-keyword-value", where, f"{node} is not a JSON number")
                continue
            if isinstance(node, list):
                stack.extend((v, join_pointer(where, i), depth + 1) for i, v in enumerate(node))
                continue
            if isinstance(node, dict):
                for k, v in node.items():
                    if not isinstance(k, str):
                        raise self.fail("bad-keyword-value", where, f"object key {k!r} is not a string")
                    stack.append((v, join_pointer(where, k), depth + 1))
                continue
            raise self.fail("bad-keyword-value", where, f"a {type(node).__name__} is not a JSON value")

    def number(self, value: Any, pointer: str, keyword: str) -> None:
        ok = not isinstance(value, bool) and (
            isinstance(value, int)
            or (isinstance(value, float) and math.isfinite(value))
            or (isinstance(value, Decimal) and value.is_finite())
        )
        if not ok:
            raise self.fail("bad-keyword-value", pointer, f"{keyword} must be a number, not {self.describe(value)}")

    def count(self, value: Any, pointer: str, keyword: str) -> None:
        """A non-negative integer (2.0 counts as 2, as JSON Schema allows)."""
        self.number(value, pointer, keyword)
        if value < 0 or value != int(value):
            raise self.fail("bad-keyword-value", pointer, f"{keyword} must be a non-negative integer, not {value}")

    # -- schemas ----------------------------------------------------------------------------------
    def schema_array(self, value: Any, pointer: str, keyword: str, depth: int) -> None:
        if not isinstance(value, list) or not value:
            raise self.fail("bad-keyword-value", pointer, f"{keyword} must be a non-empty array of schemas")
        for i, sub in enumerate(value):
            self.schema(sub, join_pointer(pointer, i), depth + 1)

    def schema_map(self, value: Any, pointer: str, depth: int) -> None:
        if not isinstance(value, dict):
            raise self.fail("bad-keyword-value", pointer, f"{pointer.rsplit('/', 1)[-1]} must be an object of schemas")
        for name, sub in value.items():
            self.schema(sub, join_pointer(pointer, name), depth + 1)

    def schema(self, schema: Any, pointer: str, depth: int) -> None:
        limits = self.profile.limits
        if depth > limits.max_depth:
            raise self.fail("limit-exceeded", pointer, f"schemas nested deeper than the limit of {limits.max_depth} levels")
        if isinstance(schema, bool):
            if not self.profile.boolean_subschemas:
                raise self.fail("not-a-schema", pointer,
                                f"the {self.profile.name} profile needs an object schema here, not {json.dumps(schema)}")
            return
        if not isinstance(schema, dict):
            raise self.fail("not-a-schema", pointer, f"a schema must be an object or a boolean, not {self.describe(schema)}")
        items = schema.items()
        if self.profile.dialect.ref_alone and "$ref" in schema:
            items = [("$ref", schema["$ref"])]  # before 2019-09 a $ref's siblings are ignored
        for keyword, value in items:
            if not isinstance(keyword, str):
                raise self.fail("bad-keyword-value", pointer, f"schema key {keyword!r} is not a string")
            status = self.profile.keyword_status(keyword)
            if status != "unknown":
                KEYWORDS[keyword].check(self, value, join_pointer(pointer, keyword), depth)
            elif self.profile.fail_closed:
                raise self.fail("keyword-not-in-profile", join_pointer(pointer, keyword),
                                f"keyword {keyword!r} is not in the {self.profile.name} profile")
            # fail-open: an unknown keyword is ignored, its value is not looked at


def source_size(schema: Any) -> int:
    """The UTF-8 size of a schema given as a value, in compact JSON (for the source limit)."""
    return len(json.dumps(schema, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8", "surrogatepass"))


def check_json_value(value: Any, profile: Profile) -> None:
    """A schema given as a Python value must be JSON all through (ignored keywords included)."""
    Walk(profile).json_value(value, "", max_depth=None)


def preflight(schema: Any, profile: Profile, *, pointer: str = "") -> None:
    """Raise SchemaError if `schema` is not a valid schema of `profile`."""
    Walk(profile).schema(schema, pointer, 1)
