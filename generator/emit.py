"""Stage 6, emit: IR to Python source through the Jinja templates, then black.

Each schema node becomes two functions: `_vN(x) -> bool`, the fast path (type dispatch once, checks
specialised to the exact built-in type, first failure returns), and `_eN(x, ip, kp, out)`, the
error path (generic, collects every error with its locations), used only after a failure and for
values of unusual types (Decimal, subclasses), which the fast path hands over to it.
Every piece of emitted text is a codegen.Code; schema values enter only through literal().
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable

from . import ir, primitives
from .codegen import Code, Name, code, join, literal, uses_decimal
from .errors import escape_pointer_token
from .lower import normalize_number

# The exact built-in types the fast path dispatches on, the JSON type each stands for, and the
# test that selects it.
_EXACT = {
    "dict": ("object", "t is dict"),
    "list": ("array", "t is list"),
    "str": ("string", "t is str"),
    "int": ("number", "t is int"),
    "float": ("number", "t is float"),
    "bool": ("boolean", "t is bool"),
    "None": ("null", "x is None"),
}
_JSON_TO_EXACT = {
    "object": ("dict",), "array": ("list",), "string": ("str",), "integer": ("int", "float"),
    "number": ("int", "float"), "boolean": ("bool",), "null": ("None",),
}
_SAFE_FLOAT_INT = 2**53  # ints up to this size compare with floats exactly as decimals do

_OPS = {">=": ("<", "{} >= {}", (0, 1)), ">": ("<=", "{} > {}", (1,)),
        "<=": (">", "{} <= {}", (-1, 0)), "<": (">=", "{} < {}", (-1,))}
_OP_WORDS = {">=": "less than", ">": "less than or equal to",
             "<=": "greater than", "<": "greater than or equal to"}


@dataclass
class Function:
    name: Name
    params: Code
    doc: Code
    body: list[Code]


class Lines:
    """An indented block under construction."""

    def __init__(self) -> None:
        self.lines: list[tuple[int, Code]] = []

    def add(self, indent: int, line: Code) -> None:
        self.lines.append((indent, line))

    def extend(self, indent: int, other: "Lines") -> None:
        self.lines.extend((indent + i, line) for i, line in other.lines)

    def __bool__(self) -> bool:
        return bool(self.lines)

    def key(self) -> tuple[tuple[int, str], ...]:
        return tuple((i, line.text) for i, line in self.lines)

    def render(self) -> list[Code]:
        return [Code("    " * (i + 1) + line.text) for i, line in self.lines]


def _always_true(node: ir.Node) -> bool:
    return node.boolean is True or (node.boolean is None and node.types is None and not node.checks)


def _ptr(*tokens: str | int) -> Code:
    """A literal JSON-pointer suffix, escaped at compile time."""
    return literal("".join("/" + escape_pointer_token(str(t)) for t in tokens))


class Emitter:
    def __init__(self) -> None:
        self.constants: list[Code] = []
        self._constant_names: dict[tuple[str, str], Name] = {}
        self.primitives: set[str] = set()
        self.uses_re = False
        self.uses_decimal = False
        self._fast: dict[ir.Node, Name] = {}
        self._error: dict[ir.Node, Name] = {}
        self._pending: list[tuple[str, ir.Node]] = []
        self.functions: list[Function] = []

    # -- names and constants ----------------------------------------------------------------
    def prim(self, name: str) -> Name:
        self.primitives.add(name)
        return Name(name)

    def constant(self, prefix: str, value: Code, key: str | None = None) -> Name:
        """A module-level constant, shared between identical definitions."""
        ident = (prefix, key if key is not None else value.text)
        if ident not in self._constant_names:
            name = Name(f"_{prefix}{len(self._constant_names)}")
            self._constant_names[ident] = name
            self.constants.append(code("{} = {}", name, value))
        return self._constant_names[ident]

    def value_literal(self, value: Any) -> Code:
        if uses_decimal(value):
            self.uses_decimal = True
        return literal(value)

    def fast_fn(self, node: ir.Node) -> Name:
        if node not in self._fast:
            self._fast[node] = Name(f"_v{len(self._fast)}")
            self._pending.append(("fast", node))
        return self._fast[node]

    def error_fn(self, node: ir.Node) -> Name:
        if node not in self._error:
            self._error[node] = Name(f"_e{len(self._error)}")
            self._pending.append(("error", node))
        return self._error[node]

    def run(self, root: ir.Node) -> tuple[Name, Name]:
        fast, error = self.fast_fn(root), self.error_fn(root)
        while self._pending:
            which, node = self._pending.pop(0)
            if which == "fast":
                self.functions.append(self.fast_function(node))
            else:
                self.functions.append(self.error_function(node))
        return fast, error

    # -- the fast path ------------------------------------------------------------------------
    def fast_function(self, node: ir.Node) -> Function:
        name = self._fast[node]
        body = Lines()
        doc = literal("Fast path of the subschema at " + (node.pointer or "the root") + ".")
        if node.boolean is not None:
            body.add(0, code("return {}", literal(node.boolean)))
            return Function(name, Code("x"), doc, body.render())
        kind_checks = [c for c in node.checks if c.applies_to is not None or isinstance(c, ir.Enum)]
        general = [c for c in node.checks if c.applies_to is None and not isinstance(c, ir.Enum)]
        if node.types is not None or kind_checks:
            self.dispatch(node, body)
        for check in general:
            self.fast_general(check, body)
        body.add(0, Code("return True"))
        return Function(name, Code("x"), doc, body.render())

    def dispatch(self, node: ir.Node, body: Lines) -> None:
        order = list(_EXACT)
        if node.types is not None:
            preferred = [e for t in node.types for e in _JSON_TO_EXACT[t]]
            order = list(dict.fromkeys(preferred + order))
        branches: list[tuple[list[str], Lines]] = []
        for exact in order:
            lines = self.fast_branch(node, exact)
            if branches and branches[-1][1].key() == lines.key():
                branches[-1][0].append(exact)
            else:
                branches.append(([exact], lines))
        body.add(0, Code("t = type(x)"))
        for i, (exacts, lines) in enumerate(branches):
            test = code(" or ".join(_EXACT[e][1] for e in exacts))
            body.add(0, code("if {}:" if i == 0 else "elif {}:", test))
            body.extend(1, lines if lines else _pass())
        body.add(0, Code("else:"))
        body.add(1, code("return {}({}, x)", self.prim("_ok"), self.error_fn(node)))

    def fast_branch(self, node: ir.Node, exact: str) -> Lines:
        kind = _EXACT[exact][0]
        lines = Lines()
        types = node.types
        if types is not None and kind not in types:
            if exact == "float" and "integer" in types:
                lines.add(0, Code("if not x.is_integer():"))
                lines.add(1, Code("return False"))
            elif not (exact == "int" and "integer" in types):
                lines.add(0, Code("return False"))
                return lines
        present: set[str] = set()
        for check in node.checks:
            if check.applies_to == kind:
                getattr(self, "fast_" + type(check).__name__)(check, exact, lines, present)
            elif isinstance(check, ir.Enum):
                self.fast_enum(check, exact, lines)
        return lines

    # one method per check type; each appends "if failed: return False" lines
    def fast_Required(self, check: ir.Required, exact: str, lines: Lines, present: set[str]) -> None:
        if len(check.names) <= 4:
            for n in check.names:
                lines.add(0, code("if {} not in x:", literal(n)))
                lines.add(1, Code("return False"))
        else:
            names = self.constant("R", literal(frozenset(check.names)))
            lines.add(0, code("if not x.keys() >= {}:", names))
            lines.add(1, Code("return False"))
        present.update(check.names)

    def fast_Properties(self, check: ir.Properties, exact: str, lines: Lines, present: set[str]) -> None:
        for prop, sub in check.entries:
            if _always_true(sub):
                continue
            fn = self.fast_fn(sub)
            if prop in present:
                lines.add(0, code("if not {}(x[{}]):", fn, literal(prop)))
            else:
                lines.add(0, code("if {} in x and not {}(x[{}]):", literal(prop), fn, literal(prop)))
            lines.add(1, Code("return False"))

    def fast_AdditionalProperties(self, check: ir.AdditionalProperties, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        known = self.constant("K", literal(frozenset(check.known))) if check.known else None
        if check.schema.boolean is False:
            lines.add(0, code("if not x.keys() <= {}:", known) if known else Code("if x:"))
            lines.add(1, Code("return False"))
            return
        fn = self.fast_fn(check.schema)
        if known:
            lines.add(0, Code("for k, v in x.items():"))
            lines.add(1, code("if k not in {} and not {}(v):", known, fn))
        else:
            lines.add(0, Code("for v in x.values():"))
            lines.add(1, code("if not {}(v):", fn))
        lines.add(2, Code("return False"))

    def fast_PrefixItems(self, check: ir.PrefixItems, exact: str, lines: Lines, present: set[str]) -> None:
        for i, sub in enumerate(check.schemas):
            if _always_true(sub):
                continue
            lines.add(0, code("if len(x) > {} and not {}(x[{}]):", literal(i), self.fast_fn(sub), literal(i)))
            lines.add(1, Code("return False"))

    def fast_Items(self, check: ir.Items, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        if check.schema.boolean is False:
            lines.add(0, code("if len(x) > {}:", literal(check.start)))
            lines.add(1, Code("return False"))
            return
        fn = self.fast_fn(check.schema)
        if check.start:
            lines.add(0, code("for i in range({}, len(x)):", literal(check.start)))
            lines.add(1, code("if not {}(x[i]):", fn))
        else:
            lines.add(0, Code("for v in x:"))
            lines.add(1, code("if not {}(v):", fn))
        lines.add(2, Code("return False"))

    def fast_ItemCount(self, check: ir.ItemCount, exact: str, lines: Lines, present: set[str]) -> None:
        lines.add(0, code("if len(x) < {}:" if check.at_least else "if len(x) > {}:", literal(check.bound)))
        lines.add(1, Code("return False"))

    fast_StringLength = fast_ItemCount

    def fast_UniqueItems(self, check: ir.UniqueItems, exact: str, lines: Lines, present: set[str]) -> None:
        lines.add(0, code("if not {}(x):", self.prim("_unique")))
        lines.add(1, Code("return False"))

    def fast_Pattern(self, check: ir.Pattern, exact: str, lines: Lines, present: set[str]) -> None:
        lines.add(0, code("if {}(x) is None:", self.pattern(check)))
        lines.add(1, Code("return False"))

    def pattern(self, check: ir.Pattern) -> Name:
        self.uses_re = True
        return self.constant("P", code("_re.compile({}).search", literal(check.python)))

    def bound(self, value: ir.Number) -> Code:
        return self.value_literal(value)

    def fast_NumberBound(self, check: ir.NumberBound, exact: str, lines: Lines, present: set[str]) -> None:
        b = check.bound
        fail_op, ok_expr, ok_signs = _OPS[check.op]
        exact_native = exact == "int" or isinstance(b, float) or (
            isinstance(b, int) and -_SAFE_FLOAT_INT <= b <= _SAFE_FLOAT_INT
        )
        if exact_native and exact == "int":
            lines.add(0, code("if x " + fail_op + " {}:", self.bound(b)))
        elif exact_native:  # a float: written so that NaN fails
            lines.add(0, code("if not (" + ok_expr.format("x", "{}") + "):", self.bound(b)))
        else:
            lines.add(0, code("if {}(x, {}) not in {}:", self.prim("_cmp"), self.bound(b), literal(ok_signs)))
        lines.add(1, Code("return False"))

    def fast_MultipleOf(self, check: ir.MultipleOf, exact: str, lines: Lines, present: set[str]) -> None:
        d = check.divisor
        if exact == "int" and isinstance(d, int):
            lines.add(0, code("if x % {}:", literal(d)))
        else:
            lines.add(0, code("if not {}(x, {}):", self.prim("_is_multiple"), self.bound(d)))
        lines.add(1, Code("return False"))

    def fast_enum(self, check: ir.Enum, exact: str, lines: Lines) -> None:
        kind = _EXACT[exact][0]
        values = [normalize_number(v) if kind == "number" else v
                  for v in check.values if _json_kind(v) == kind]
        if not values:
            lines.add(0, Code("return False"))
            return
        if exact == "None":
            return
        if exact == "bool":
            if len(set(values)) == 1:
                lines.add(0, code("if x is not {}:", literal(values[0])))
                lines.add(1, Code("return False"))
            return
        # Numbers are normalised (integral ones are ints), so an int instance compares exactly with
        # every table value; a float only with floats and with ints it can represent exactly.
        if exact == "float":
            values = [v for v in values if not isinstance(v, Decimal)]
        simple = exact in ("str", "int") or (
            exact == "float" and all(not isinstance(v, int) or abs(v) <= _SAFE_FLOAT_INT for v in values)
        )
        if simple and not values:
            lines.add(0, Code("return False"))
            return
        if simple:
            if len(values) == 1:
                lines.add(0, code("if x != {}:", self.value_literal(values[0])))
            else:
                table = self.constant("S", self.value_literal(frozenset(values)))
                lines.add(0, code("if x not in {}:", table))
        else:
            table = self.enum_table(check)
            lines.add(0, code("if not {}(x, {}):", self.prim("_in_table"), table))
        lines.add(1, Code("return False"))

    def enum_table(self, check: ir.Enum) -> Name:
        return self.constant("T", code("{}({})", self.prim("_table"), self.value_literal(list(check.values))),
                             key="T" + check.canonical)

    def fast_general(self, check: ir.Check, body: Lines) -> None:
        if isinstance(check, ir.AllOf):
            for sub in check.schemas:
                if not _always_true(sub):
                    body.add(0, code("if not {}(x):", self.fast_fn(sub)))
                    body.add(1, Code("return False"))
        elif isinstance(check, ir.AnyOf):
            if any(_always_true(s) for s in check.schemas):
                return
            calls = [code("{}(x)", self.fast_fn(s)) for s in check.schemas]
            body.add(0, code("if not ({}):", join(" or ", calls)))
            body.add(1, Code("return False"))
        elif isinstance(check, ir.OneOf):
            calls = [code("{}(x)", self.fast_fn(s)) for s in check.schemas]
            body.add(0, code("if ({}) != 1:", join(" + ", calls)))
            body.add(1, Code("return False"))
        elif isinstance(check, ir.Not):
            assert check.schema is not None
            body.add(0, code("if {}(x):", self.fast_fn(check.schema)))
            body.add(1, Code("return False"))
        else:  # pragma: no cover - the IR has no other general checks
            raise AssertionError(f"no fast emission for {check!r}")

    # -- the error path -------------------------------------------------------------------
    def error_function(self, node: ir.Node) -> Function:
        name = self._error[node]
        body = Lines()
        doc = literal("Every error of the subschema at " + (node.pointer or "the root") + ".")
        params = Code("x, ip, kp, out")
        if node.boolean is not None:
            if node.boolean is False:
                self.fail(body, 0, code("'False schema does not allow ' + {}(x)", self.prim("_short")), Code("kp"))
            else:
                body.add(0, Code("pass"))
            return Function(name, params, doc, body.render())
        if node.types is not None:
            tests = []
            for t in node.types:
                if t == "integer":
                    tests.append(code("(k == 'number' and {}(x))", self.prim("_is_integral")))
                else:
                    tests.append(code("k == {}", literal(t)))
            names = ", ".join(repr(t) for t in node.types)
            message = code("{}(x) + {}", self.prim("_short"), literal(f" is not of type {names}"))
            body.add(0, code("k = {}(x)", self.prim("_kind")))
            body.add(0, code("if not ({}):", join(" or ", tests)))
            self.fail(body, 1, message, code("kp + {}", _ptr("type")))
        elif any(c.applies_to is not None for c in node.checks):
            body.add(0, code("k = {}(x)", self.prim("_kind")))
        by_kind: dict[str, Lines] = {}
        for check in node.checks:
            lines = by_kind.setdefault(check.applies_to or "", Lines())
            getattr(self, "error_" + type(check).__name__)(check, lines)
        for kind, lines in by_kind.items():
            if not lines:
                continue
            if kind:
                body.add(0, code("if k == {}:", literal(kind)))
                body.extend(1, lines)
            else:
                body.extend(0, lines)
        if not body:
            body.add(0, Code("pass"))
        return Function(name, params, doc, body.render())

    def fail(self, lines: Lines, indent: int, message: Code, where: Code, at: Code = Code("ip")) -> None:
        lines.add(indent, code("out.append(ValidationError({}, {}, {}))", message, at, where))

    def error_Required(self, check: ir.Required, lines: Lines) -> None:
        lines.add(0, code("for name in {}:", literal(check.names)))
        lines.add(1, Code("if name not in x:"))
        self.fail(lines, 2, Code("repr(name) + ' is a required property'"), code("kp + {}", _ptr("required")))

    def error_Properties(self, check: ir.Properties, lines: Lines) -> None:
        for prop, sub in check.entries:
            if _always_true(sub):
                continue
            lines.add(0, code("if {} in x:", literal(prop)))
            lines.add(1, code("{}(x[{}], ip + {}, kp + {}, out)", self.error_fn(sub), literal(prop),
                              _ptr(prop), _ptr("properties", prop)))

    def error_AdditionalProperties(self, check: ir.AdditionalProperties, lines: Lines) -> None:
        assert check.schema is not None
        known = self.constant("K", literal(frozenset(check.known)))
        lines.add(0, Code("for key in x:"))
        lines.add(1, code("if key not in {}:", known))
        at = code("ip + '/' + {}(key)", self.prim("_esc"))
        if check.schema.boolean is False:
            self.fail(lines, 2, Code("'additional property ' + repr(key) + ' is not allowed'"),
                      code("kp + {}", _ptr("additionalProperties")), at)
        else:
            lines.add(2, code("{}(x[key], {}, kp + {}, out)", self.error_fn(check.schema), at,
                              _ptr("additionalProperties")))

    def error_PrefixItems(self, check: ir.PrefixItems, lines: Lines) -> None:
        for i, sub in enumerate(check.schemas):
            if _always_true(sub):
                continue
            lines.add(0, code("if len(x) > {}:", literal(i)))
            lines.add(1, code("{}(x[{}], ip + {}, kp + {}, out)", self.error_fn(sub), literal(i), _ptr(i),
                              _ptr("prefixItems", i)))

    def error_Items(self, check: ir.Items, lines: Lines) -> None:
        assert check.schema is not None
        lines.add(0, code("for i in range({}, len(x)):", literal(check.start)))
        lines.add(1, code("{}(x[i], ip + '/' + str(i), kp + {}, out)", self.error_fn(check.schema), _ptr("items")))

    def error_ItemCount(self, check: ir.ItemCount, lines: Lines) -> None:
        word = "short" if check.at_least else "long"
        lines.add(0, code("if len(x) < {}:" if check.at_least else "if len(x) > {}:", literal(check.bound)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(f" is too {word}")),
                  code("kp + {}", _ptr(check.keyword)))

    error_StringLength = error_ItemCount

    def error_UniqueItems(self, check: ir.UniqueItems, lines: Lines) -> None:
        lines.add(0, code("if not {}(x):", self.prim("_unique")))
        self.fail(lines, 1, code("{}(x) + ' has non-unique elements'", self.prim("_short")),
                  code("kp + {}", _ptr("uniqueItems")))

    def error_Pattern(self, check: ir.Pattern, lines: Lines) -> None:
        lines.add(0, code("if {}(str(x)) is None:", self.pattern(check)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(" does not match " + repr(check.source))),
                  code("kp + {}", _ptr("pattern")))

    def error_NumberBound(self, check: ir.NumberBound, lines: Lines) -> None:
        signs = _OPS[check.op][2]
        lines.add(0, code("if {}(x, {}) not in {}:", self.prim("_cmp"), self.bound(check.bound), literal(signs)))
        text = f" is {_OP_WORDS[check.op]} the {check.keyword} of {check.bound}"
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(text)),
                  code("kp + {}", _ptr(check.keyword)))

    def error_MultipleOf(self, check: ir.MultipleOf, lines: Lines) -> None:
        lines.add(0, code("if not {}(x, {}):", self.prim("_is_multiple"), self.bound(check.divisor)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(f" is not a multiple of {check.divisor}")),
                  code("kp + {}", _ptr("multipleOf")))

    def error_Enum(self, check: ir.Enum, lines: Lines) -> None:
        lines.add(0, code("if not {}(x, {}):", self.prim("_in_table"), self.enum_table(check)))
        text = " is not one of the enum values" if check.keyword == "enum" else " is not the const value"
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(text)), code("kp + {}", _ptr(check.keyword)))

    def error_AllOf(self, check: ir.AllOf, lines: Lines) -> None:
        for i, sub in enumerate(check.schemas):
            if not _always_true(sub):
                lines.add(0, code("{}(x, ip, kp + {}, out)", self.error_fn(sub), _ptr("allOf", i)))

    def error_AnyOf(self, check: ir.AnyOf, lines: Lines) -> None:
        calls = [code("{}(x)", self.fast_fn(s)) for s in check.schemas]
        lines.add(0, code("if not ({}):", join(" or ", calls)))
        self.fail(lines, 1, code("{}(x) + ' is not valid under any of the given schemas'", self.prim("_short")),
                  code("kp + {}", _ptr("anyOf")))

    def error_OneOf(self, check: ir.OneOf, lines: Lines) -> None:
        calls = [code("{}(x)", self.fast_fn(s)) for s in check.schemas]
        lines.add(0, code("if ({}) != 1:", join(" + ", calls)))
        self.fail(lines, 1, code("{}(x) + ' is not valid under exactly one of the given schemas'", self.prim("_short")),
                  code("kp + {}", _ptr("oneOf")))

    def error_Not(self, check: ir.Not, lines: Lines) -> None:
        assert check.schema is not None
        lines.add(0, code("if {}(x):", self.fast_fn(check.schema)))
        self.fail(lines, 1, code("{}(x) + ' should not be valid under the schema in not'", self.prim("_short")),
                  code("kp + {}", _ptr("not")))

    # -- the module's primitives --------------------------------------------------------
    def primitive_sources(self) -> tuple[list[Code], list[Code], list[Code]]:
        """Imports, constants and function sources of the primitives this module uses."""
        needed: set[str] = set()
        stack = sorted(self.primitives - {"_ok"})
        while stack:
            item = stack.pop()
            if item in needed:
                continue
            needed.add(item)
            stack.extend(primitives.DEPENDS.get(item, ()))
        if self.uses_decimal:
            needed.add("_Decimal")
        imports = [Code(primitives.PRELUDE_IMPORTS[n]) for n in sorted(needed) if n in primitives.PRELUDE_IMPORTS]
        if self.uses_re:
            imports.insert(0, Code("import re as _re"))
        constants = [Code(primitives.CONSTANTS[n]) for n in sorted(needed) if n in primitives.CONSTANTS]
        functions = [
            Code(inspect.getsource(getattr(primitives, n)))
            for n in _definition_order(needed)
        ]
        return imports, constants, functions


def _definition_order(names: Iterable[str]) -> list[str]:
    wanted = set(names)
    return [n for n in primitives.DEPENDS if n in wanted and callable(getattr(primitives, n))]


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float, Decimal)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _pass() -> Lines:
    lines = Lines()
    lines.add(0, Code("pass"))
    return lines
