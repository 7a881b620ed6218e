"""Stage 2, preflight: walk the schema against the profile before any code exists.

Out-of-profile keywords (fail-closed profiles), wrong keyword values, exceeded limits and bad
regexes are all rejected here with one SchemaError carrying a code and the JSON pointer of the
offending place; a pattern no linear-time engine runs is refused or warned about, as the
profile's unsafe-pattern policy says. Each keyword's checker is declared by its unit (generator/keywords/); this walk
calls it, and gives it the shared tests below (a JSON value, a number, a count, a schema).
"""

from __future__ import annotations

import json
import math
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any, Iterable, Iterator

from .errors import SchemaError, SchemaWarning, join_pointer
from .keywords.base import KeywordTables
from .primitives import is_integral, short_repr
from .profiles import Profile, profile_below
from .resolve import embedded_draft
from .values import dumps_exact, number_text

# Nesting bound for plain JSON values inside a schema (enum, const, default, examples).
MAX_VALUE_DEPTH = 100


# The unsafe patterns warned about in the compile under way, and the pointer prefix of its
# warnings (a tool contract's `/input`): a compile preflights each reference target again (the
# root included), and a pattern is warned about once. Outside a compile every walk warns.
_WARNINGS: ContextVar[tuple[str, set[tuple[str, str]]] | None] = ContextVar(
    "_WARNINGS", default=None
)


@contextmanager
def warnings_once(prefix: str = "") -> Iterator[None]:
    """Within: each warning of preflight (by pointer and message) is issued once, its pointer
    prefixed with `prefix`."""
    token = _WARNINGS.set((prefix, set()))
    try:
        yield
    finally:
        _WARNINGS.reset(token)


class Walk:
    """One walk over a schema under a profile; keyword checkers call back into it."""

    def __init__(
        self, profile: Profile, tables: KeywordTables | None, walked: set[str] | None = None
    ) -> None:
        self.profile = profile
        # the registry's: each keyword's check (None: a walk over plain JSON values alone,
        # check_json_value, which reads no keyword)
        self.tables = tables
        self.root = (
            profile  # (an embedded resource of another draft is checked by that draft's rules)
        )
        self.walked = walked  # where given: the pointer of every schema walked is added to it

    # -- values -----------------------------------------------------------------------------------
    def fail(self, code: str, pointer: str, message: str) -> SchemaError:
        return SchemaError(message, code=code, pointer=pointer)

    def unsafe_pattern(self, pointer: str, message: str) -> None:
        """A pattern no linear-time engine runs: refused (a SchemaError `unsafe-regex`), warned
        about (a SchemaWarning of that code), or let through, as the profile's policy says."""
        policy = self.profile.unsafe_patterns
        if policy == "error":
            raise self.fail(
                "unsafe-regex",
                pointer,
                message
                + "; it is refused "
                + (
                    f"by the {self.profile.name} profile"
                    if self.profile.fail_closed
                    else "(unsafe_patterns='error')"
                ),
            )
        if policy == "warn":
            session = _WARNINGS.get()
            prefix = session[0] if session is not None else ""
            if session is not None:
                if (pointer, message) in session[1]:
                    return
                session[1].add((pointer, message))
            warnings.warn(
                SchemaWarning(
                    message + "; it runs in Python's re (unsafe_patterns='error' refuses it)",
                    code="unsafe-regex",
                    pointer=prefix + pointer,
                ),
                stacklevel=2,
            )

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
                raise self.fail(
                    "limit-exceeded", where, f"value nested deeper than {MAX_VALUE_DEPTH} levels"
                )
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
                        raise self.fail(
                            "bad-keyword-value", where, f"object key {k!r} is not a string"
                        )
                    stack.append((v, join_pointer(where, k), depth + 1))
                continue
            raise self.fail(
                "bad-keyword-value", where, f"a {type(node).__name__} is not a JSON value"
            )

    def number(self, value: Any, pointer: str, keyword: str) -> None:
        ok = not isinstance(value, bool) and (
            isinstance(value, int)
            or (isinstance(value, float) and math.isfinite(value))
            or (isinstance(value, Decimal) and value.is_finite())
        )
        if not ok:
            raise self.fail(
                "bad-keyword-value",
                pointer,
                f"{keyword} must be a number, not {self.describe(value)}",
            )

    def count(self, value: Any, pointer: str, keyword: str) -> None:
        """A non-negative integer (2.0 counts as 2, as JSON Schema allows; 1e999999999 is a count
        too, tested by its exponent, never materialised)."""
        self.number(value, pointer, keyword)
        if value < 0 or not is_integral(value):
            raise self.fail(
                "bad-keyword-value",
                pointer,
                f"{keyword} must be a non-negative integer, not {number_text(value)}",
            )

    # -- schemas ----------------------------------------------------------------------------------
    def schema_array(self, value: Any, pointer: str, keyword: str, depth: int) -> None:
        if not isinstance(value, list) or not value:
            raise self.fail(
                "bad-keyword-value", pointer, f"{keyword} must be a non-empty array of schemas"
            )
        for i, sub in enumerate(value):
            self.schema(sub, join_pointer(pointer, i), depth + 1)

    def schema_map(self, value: Any, pointer: str, depth: int) -> None:
        if not isinstance(value, dict):
            raise self.fail(
                "bad-keyword-value",
                pointer,
                f"{pointer.rsplit('/', 1)[-1]} must be an object of schemas",
            )
        for name, sub in value.items():
            self.schema(sub, join_pointer(pointer, name), depth + 1)

    def schema(self, schema: Any, pointer: str, depth: int) -> None:
        assert self.tables is not None, "a schema walk reads the keywords"
        limits = self.profile.limits
        if depth > limits.max_depth:
            raise self.fail(
                "limit-exceeded",
                pointer,
                f"schemas nested deeper than the limit of {limits.max_depth} "
                f"level{'s' if limits.max_depth != 1 else ''}",
            )
        if self.walked is not None:
            self.walked.add(pointer)
        if isinstance(schema, bool):
            if not self.profile.boolean_subschemas:
                raise self.fail(
                    "not-a-schema",
                    pointer,
                    f"the {self.profile.name} profile needs an object schema here, not {json.dumps(schema)}",
                )
            return
        if not isinstance(schema, dict):
            raise self.fail(
                "not-a-schema",
                pointer,
                f"a schema must be an object or a boolean, not {self.describe(schema)}",
            )
        below = profile_below(embedded_draft(schema, pointer), self.profile, self.root, self.tables)
        if below is not self.profile:  # checked by its own draft's rules, as lowering lowers it
            outer, self.profile = self.profile, below
            try:
                self.schema(schema, pointer, depth)
            finally:
                self.profile = outer
            return
        items: Iterable[tuple[Any, Any]] = schema.items()
        if self.profile.dialect.ref_alone and "$ref" in schema:
            items = [("$ref", schema["$ref"])]  # before 2019-09 a $ref's siblings are ignored
        for keyword, value in items:
            if not isinstance(keyword, str):
                raise self.fail(
                    "bad-keyword-value", pointer, f"schema key {keyword!r} is not a string"
                )
            status = self.profile.keyword_status(keyword)
            if status != "unknown":
                check = self.tables.keywords[keyword].check
                check(self, value, join_pointer(pointer, keyword), depth)
            elif self.profile.fail_closed:
                raise self.fail(
                    "keyword-not-in-profile",
                    join_pointer(pointer, keyword),
                    f"keyword {keyword!r} is not in the {self.profile.name} profile",
                )
            # fail-open: an unknown keyword is ignored, its value is not looked at


def source_size(schema: Any) -> int:
    """The UTF-8 size of a schema given as a value, in compact JSON (for the source limit)."""
    text = dumps_exact(schema, ensure_ascii=False, separators=(",", ":"))  # exact: no digit limit
    return len(text.encode("utf-8", "surrogatepass"))


# A value given as Python objects with no source limit is still refused past this many nodes
# written out: shared subobjects can make a small graph of objects stand for astronomically long
# JSON text (a list holding itself twice, a hundred times over).
MAX_EXPANDED_NODES = 1 << 30


def check_json_value(value: Any, profile: Profile, *, max_nodes: int | None = None) -> None:
    """A schema given as a Python value must be JSON all through (ignored keywords included).

    The first walk over such a value, so it must stop at once on what would make every later
    walk endless or explosive: a container that is its own ancestor (a cycle: no JSON text holds
    one) is a SchemaError at the place it comes back; a container shared by several places is
    fine and checked once, but counts each time it appears, as in the JSON text it stands for,
    so one that would be written out past the source limit (at least a byte a value) is refused
    before anything expands it (`max_nodes` instead of the profile's source limit when given)."""
    limit = profile.limits.max_source_bytes if max_nodes is None else max_nodes
    ceiling = MAX_EXPANDED_NODES if limit is None else min(limit, MAX_EXPANDED_NODES)
    walk = Walk(profile, None)
    expanded: dict[int, int] = {}  # id of a container walked -> values in it, written out
    on_path: set[int] = set()
    # (value, path, leaving it): a path is (parent's path, key), its pointer made only for a
    # message (a pointer string per level would cost the square of the depth)
    stack: list[tuple[Any, Any, bool]] = [(value, None, False)]
    while stack:
        node, path, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            children = dict.values(node) if isinstance(node, dict) else list.__iter__(node)
            size = 1 + sum(expanded.get(id(child), 1) for child in children)
            if size > ceiling:
                raise walk.fail(
                    "limit-exceeded",
                    _path_pointer(path),
                    f"the value would be {size} or more "
                    f"JSON values written out (a shared object counts each time), over the limit of {ceiling}",
                )
            expanded[id(node)] = size
            continue
        if not isinstance(node, (dict, list)):
            walk.json_value(node, _path_pointer(path), max_depth=None)  # a scalar: type, finiteness
            continue
        if id(node) in on_path:
            raise walk.fail(
                "bad-json",
                _path_pointer(path),
                "the value contains itself here (a cycle: no " "JSON text can hold one)",
            )
        if id(node) in expanded:
            continue  # shared, walked already
        on_path.add(id(node))
        stack.append((node, path, True))
        if isinstance(node, dict):
            pairs = list(dict.items(node))
            for key, _ in pairs:
                if not isinstance(key, str):
                    raise walk.fail(
                        "bad-keyword-value",
                        _path_pointer(path),
                        f"object key {_bounded_repr(key)} is not a string",
                    )
            stack.extend((child, (path, key), False) for key, child in reversed(pairs))
        else:
            stack.extend(
                (child, (path, i), False)
                for i, child in reversed(list(enumerate(list.__iter__(node))))
            )


def _path_pointer(path: Any) -> str:
    """The JSON pointer of a (parent's path, key) chain."""
    tokens: list[str | int] = []
    while path is not None:
        path, key = path
        tokens.append(key)
    return join_pointer("", *reversed(tokens))


def _bounded_repr(value: Any) -> str:
    """repr() for a message, at most 80 characters (an int past the digit limit included)."""
    return short_repr(value)


def preflight(
    schema: Any,
    profile: Profile,
    *,
    tables: KeywordTables,
    pointer: str = "",
    walked: set[str] | None = None,
) -> None:
    """Raise SchemaError if `schema` is not a valid schema of `profile`, each keyword checked as
    `tables` (the registry's) say. `walked`, where given, receives the pointer of every subschema
    checked (lowering need not check those again)."""
    Walk(profile, tables, walked).schema(schema, pointer, 1)
