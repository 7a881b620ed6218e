"""Stage 6, emit: IR to Python source through the Jinja templates, then black.

Each schema node becomes two functions: `_vN(x) -> bool`, the fast path (type dispatch once, checks
specialised to the exact built-in type, first failure returns), and `_eN(x, ip, kp, out)`, the
error path (generic, collects every error with its locations), used only after a failure and for
values of unusual types (Decimal, subclasses), which the fast path hands over to it.
Every piece of emitted text is a codegen.Code; schema values enter only through literal().
"""

from __future__ import annotations

import ast
import inspect
import re
from collections import deque
import io
import tokenize
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable

from . import ir, primitives
from .codegen import Code, Name, code, join, literal, uses_decimal
from .errors import escape_pointer_token
from .values import normalize_number

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
_TYPE_NAMES = {"dict": "dict", "list": "list", "str": "str", "int": "int", "float": "float",
               "bool": "bool", "None": "type(None)"}
_JSON_TO_EXACT = {
    "object": ("dict",), "array": ("list",), "string": ("str",), "integer": ("int", "float"),
    # float first: data a schema types as "number" (not "integer") is mostly floats
    "number": ("float", "int"), "boolean": ("bool",), "null": ("None",),
}
# Checks that hold no subschema: a node made of these alone is a leaf, cheap to check in place.
_LEAF_CHECKS = (ir.Required, ir.PropertyCount, ir.DependentRequired, ir.ItemCount, ir.UniqueItems,
                ir.StringLength, ir.Pattern, ir.NumberBound, ir.MultipleOf, ir.Enum)
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
    returns: Code = Code("bool")


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


def _ptr(*tokens: str | int) -> Code:
    """A literal JSON-pointer suffix, escaped at compile time."""
    return literal("".join("/" + escape_pointer_token(str(t)) for t in tokens))


class Emitter:
    def __init__(self, graph: dict[str, ir.Node] | None = None, dynamic: bool = False,
                 dynamic_tables: dict[tuple[str, str], list[tuple[int, str]]] | None = None,
                 prefix: str = "") -> None:
        # Names are _<prefix>v0, _<prefix>K1...: two emitters (a contract's input and output)
        # can share one module.
        self.prefix = Name("p" + prefix).text[1:] if prefix else ""
        self.graph = graph or {}
        # In dynamic mode ($dynamicRef/$recursiveRef) every function takes the dynamic scope `s`,
        # a tuple of the ids of the schema resources entered; otherwise none does.
        self.dynamic = dynamic
        self.dynamic_tables = dynamic_tables or {}
        self.S = Code(", s") if dynamic else Code("")
        self.late_constants: list[Code] = []
        self._annot: dict[ir.Node, Name] = {}
        self._eval: dict[ir.Node, Name] = {}
        self.constants: list[Code] = []
        self._constant_names: dict[tuple[str, str], Name] = {}
        self.primitives: set[str] = set()
        self.uses_re = False
        self.uses_decimal = False
        self._fast: dict[ir.Node, Name] = {}
        self._error: dict[ir.Node, Name] = {}
        self._pending: deque[tuple[str, ir.Node]] = deque()
        self.functions: list[Function] = []
        self._filled_tables: set[Name] = set()
        self._inline = False
        self._current: ir.Node | None = None  # the node whose checks are being emitted
        self.has_refs = False  # whether validation can recurse (then RecursionError is caught)
        self._inline_depth = 0
        self._inline_count = 0
        self._uses: dict[ir.Node, int] = {}  # see count_uses
        self._weights: dict[ir.Node, int] = {}
        self._pairs: dict[tuple[str, str], Name] = {}  # see pair

    # -- names and constants ----------------------------------------------------------------
    def prim(self, name: str) -> Name:
        self.primitives.add(name)
        return Name(name)

    def constant(self, prefix: str, value: Code, key: str | None = None, annotation: Code | None = None) -> Name:
        """A module-level constant, shared between identical definitions."""
        ident = (prefix, key if key is not None else value.text)
        if ident not in self._constant_names:
            name = Name(f"_{self.prefix}{prefix}{len(self._constant_names)}")
            self._constant_names[ident] = name
            if annotation is None:
                self.constants.append(code("{} = {}", name, value))
            else:
                self.constants.append(code("{}: {} = {}", name, annotation, value))
        return self._constant_names[ident]

    def value_literal(self, value: Any) -> Code:
        if uses_decimal(value):
            self.uses_decimal = True
        return literal(value)

    def fast_fn(self, node: ir.Node) -> Name:
        if node not in self._fast:
            self._fast[node] = Name(f"_{self.prefix}v{len(self._fast)}")
            self._pending.append(("fast", node))
        return self._fast[node]

    def error_fn(self, node: ir.Node) -> Name:
        if node not in self._error:
            self._error[node] = Name(f"_{self.prefix}e{len(self._error)}")
            self._pending.append(("error", node))
        return self._error[node]

    def annot_fn(self, node: ir.Node) -> Name:
        if node not in self._annot:
            self._annot[node] = Name(f"_{self.prefix}a{len(self._annot)}")
            self._pending.append(("annot", node))
        return self._annot[node]

    def eval_fn(self, node: ir.Node) -> Name:
        if node not in self._eval:
            self._eval[node] = Name(f"_{self.prefix}u{len(self._eval)}")
            self._pending.append(("eval", node))
        return self._eval[node]

    def target(self, check: ir.Ref) -> ir.Node:
        return self.graph[check.target]

    def run(self, root: ir.Node) -> tuple[Name, Name]:
        self.count_uses([root, *self.graph.values()])
        fast, error = self.fast_fn(root), self.error_fn(root)
        makers = {"fast": self.fast_function, "error": self.error_function,
                  "annot": self.annot_function, "eval": self.eval_function}
        while self._pending:
            which, node = self._pending.popleft()
            self.functions.append(makers[which](node))
        return fast, error

    _PARAMS = {"x": "x: Any", "x, ip, kp, out, ak": "x: Any, ip: str, kp: str, out: list[ValidationError], ak: str | None"}

    def params(self, base: str) -> Code:
        return Code(self._PARAMS[base] + (", s: tuple[int, ...]" if self.dynamic else ""))

    def prologue(self, node: ir.Node, body: Lines) -> None:
        """Entering a schema resource extends the dynamic scope."""
        if self.dynamic and node.resource is not None:
            body.add(0, code("s = s + ({},)", literal(node.resource)))

    def dynamic_pick(self, check: ir.Ref) -> Code:
        """An expression for the (fast, error, annotations) functions a dynamic reference reaches."""
        key = (check.mode or "", check.anchor)
        table_name = self.constant("D", Code("{}"), key="D" + repr(key), annotation=Code("dict[int, Any]"))
        default = self.functions_tuple(self.target(check))
        picker = "_pick_dynamic" if check.mode == "dynamic" else "_pick_recursive"
        if table_name not in self._filled_tables:
            self._filled_tables.add(table_name)
            for rid, target_key in self.dynamic_tables.get(key, []):
                entry = self.functions_tuple(self.graph[target_key])
                self.late_constants.append(code("{}[{}] = {}", table_name, literal(rid), entry))
        return code("{}(s, {}, {})", self.prim(picker), table_name, default)

    def ref_scope(self, check: ir.Ref) -> Code:
        """The scope argument of a call through a reference: it enters the target's resource."""
        if not self.dynamic:
            return Code("")
        if not check.enter:
            return Code(", s")
        return code(", s + {}", literal(check.enter))

    def functions_tuple(self, node: ir.Node) -> Code:
        return code("({}, {}, {})", self.fast_fn(node), self.error_fn(node), self.annot_fn(node))

    # -- the fast path ------------------------------------------------------------------------
    def fast_function(self, node: ir.Node) -> Function:
        name = self._fast[node]
        doc = literal("Fast path of the subschema at " + (node.pointer or "the root") + ".")
        return Function(name, self.params("x"), doc, self.fast_body(node, inline=False).render())

    def fast_body(self, node: ir.Node, inline: bool) -> Lines:
        """The fast checks of a node on `x`: a function body, or (inline) statements that
        `return False` from the enclosing function on failure and fall through on success."""
        body = Lines()
        outer, self._inline = self._inline, inline
        try:
            if node.boolean is not None:
                if not (inline and node.boolean):
                    body.add(0, code("return {}", literal(node.boolean)))
                return body
            self.prologue(node, body)
            kind_checks = [c for c in node.checks if c.applies_to is not None or isinstance(c, ir.Enum)]
            general = [c for c in node.checks if c.applies_to is None and not isinstance(c, ir.Enum)]
            if node.types is not None or kind_checks:
                self.dispatch(node, body)
            for check in general:
                self.fast_general(check, body)
            if not inline:
                body.add(0, Code("return True"))
            return body
        finally:
            self._inline = outer

    # Small subschemas of properties and items are checked in place, without a call.
    INLINE_DEPTH = 4
    INLINE_CHECKS = 6

    def type_only(self, node: ir.Node) -> bool:
        """A subschema that is a type test alone: cheaper in place than a call, at any size."""
        return node.boolean is None and not node.checks and node.resource is None

    @staticmethod
    def is_leaf(node: ir.Node) -> bool:
        return node.boolean is None and all(isinstance(c, _LEAF_CHECKS) for c in node.checks)

    def inlinable(self, node: ir.Node) -> bool:
        # a leaf adds one level at most, so it is inlined at any depth
        return ((self._inline_depth < self.INLINE_DEPTH or self.is_leaf(node)) and node.resource is None
                and node.boolean is None and len(node.checks) <= self.INLINE_CHECKS
                and (self.type_only(node) or self.copies_allowed(node)))

    # A subschema used in many places (FHIR's `extension` array is in 656 definitions) is one
    # shared function: a copy in each place would make the module, and its import, much larger.
    COPY_BUDGET = 256

    def copies_allowed(self, node: ir.Node) -> bool:
        """Whether copies of `node` in each place that uses it stay within COPY_BUDGET (in IR
        checks and subschemas, a rough measure of emitted lines)."""
        return self._uses.get(node, 1) <= 2 or self._uses[node] * self.weight(node) <= self.COPY_BUDGET

    def weight(self, node: ir.Node) -> int:
        if node not in self._weights:
            self._weights[node] = 1 + sum(1 + sum(self.weight(sub) for sub in ir.subschemas(check))
                                          for check in node.checks)
        return self._weights[node]

    def count_uses(self, roots: Iterable[ir.Node]) -> None:
        """How many distinct subschemas (or roots) hold each subschema: the copies inlining makes."""
        seen: set[ir.Node] = set()
        stack = list(dict.fromkeys(roots))
        seen.update(stack)
        while stack:
            for check in stack.pop().checks:
                for sub in ir.subschemas(check):
                    self._uses[sub] = self._uses.get(sub, 0) + 1
                    if sub not in seen:
                        seen.add(sub)
                        stack.append(sub)

    def check_in_place(self, node: ir.Node, value: Code | None, lines: Lines, indent: int, var: Name | None = None) -> None:
        """Lines that check `node` on `value` (or on the loop variable `var`) without a call:
        the node's fast body with its local names (x, t, k, v, i, n, ev) renamed apart."""
        self._inline_count += 1
        suffix = str(self._inline_count)
        target = var or Name("x" + suffix)
        self._inline_depth += 1
        try:
            body = self.fast_body(node, inline=True)
        finally:
            self._inline_depth -= 1
        if not body:
            return
        if value is not None:
            lines.add(indent, code("{} = {}", target, value))
        renames = {name: name + suffix for name in _LOCALS}
        renames["x"] = target.text
        lines.extend(indent, _rename(body, renames))

    def check_under(self, headers: list[Code], node: ir.Node, lines: Lines, value: Code | None = None,
                    var: Name | None = None) -> None:
        """check_in_place under `headers` (an `if` or a loop, each nested in the one before),
        emitted only when the node has something to check."""
        inner = Lines()
        self.check_in_place(node, value, inner, len(headers), var=var)
        if inner:
            for depth, header in enumerate(headers):
                lines.add(depth, header)
            lines.extend(0, inner)

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
        if self.dispatch_type_only(node, branches, body) or self.dispatch_one_type(node, branches, body):
            return
        chain, nested = Lines(), 0
        if not branches[0][1]:
            # the first type passes with nothing to check: test only it on the common path,
            # `if type(x) is not int:`, and dispatch the others below that
            body.add(0, code("if {}:", self.type_test(branches[0][0], "type(x)", negate=True)))
            branches, nested = branches[1:], 1
        chain.add(0, Code("t = type(x)"))
        for i, (exacts, lines) in enumerate(branches):
            chain.add(0, code("if {}:" if i == 0 else "elif {}:", self.type_test(exacts, "t")))
            chain.extend(1, lines if lines else _pass())
        chain.add(0, Code("else:"))
        if self._inline:
            chain.add(1, code("if not {}({}, x{}):", self.prim("_ok"), self.error_fn(node), self.S))
            chain.add(2, Code("return False"))
        else:
            chain.add(1, code("return {}({}, x{})", self.prim("_ok"), self.error_fn(node), self.S))
        body.extend(nested, chain)

    def dispatch_one_type(self, node: ir.Node, branches: list[tuple[list[str], Lines]], body: Lines) -> bool:
        """A node with checks for one type and every other type failing outright (an object with
        properties, an array with items) is two tests, with no local: `if type(x) is list: ...`
        then `elif type(x) in _Y or not _ok(_eN, x): return False`."""
        checked = [i for i, (_, lines) in enumerate(branches) if lines.key() != _FAILS]
        if len(checked) != 1 or not branches[checked[0]][1]:
            return False
        (first, lines), rest = branches[checked[0]], branches[:checked[0]] + branches[checked[0] + 1:]
        body.add(0, code("if {}:", self.type_test(first, "type(x)")))
        body.extend(1, lines)
        other = code("not {}({}, x{})", self.prim("_ok"), self.error_fn(node), self.S)
        rejected = [e for exacts, _ in rest for e in exacts]
        body.add(0, code("elif {}:", join(" or ", [self.type_test(rejected, "type(x)"), other]) if rejected else other))
        body.add(1, Code("return False"))
        return True

    def type_test(self, exacts: list[str], t: str, negate: bool = False) -> Code:
        """`t` (the value's type, a name or `type(x)`) is one of `exacts` (or, negated, none)."""
        if len(exacts) >= 3:  # one set lookup instead of a long chain of `is` tests
            types = ", ".join(_TYPE_NAMES[e] for e in exacts)
            table = self.constant("Y", Code("frozenset({" + types + "})"))
            return code("{} not in {}" if negate else "{} in {}", Code(t), table)
        tests = [("x is not None" if negate else "x is None") if e == "None"
                 else t + (" is not " if negate else " is ") + _TYPE_NAMES[e] for e in exacts]
        return Code((" and " if negate else " or ").join(tests))

    def dispatch_type_only(self, node: ir.Node, branches: list[tuple[list[str], Lines]], body: Lines) -> bool:
        """A node whose only fast check is its type (every exact type passes or fails outright)
        is one test, with no local: `if type(x) is not float and type(x) is not int: ...`."""
        accepted = [e for exacts, lines in branches if not lines for e in exacts]
        rejected = [e for exacts, lines in branches if lines.key() == _FAILS for e in exacts]
        if not accepted or len(accepted) + len(rejected) != len(_EXACT):
            return False
        body.add(0, code("if {}:", self.type_test(accepted, "type(x)", negate=True)))
        other = code("{}({}, x{})", self.prim("_ok"), self.error_fn(node), self.S)
        if self._inline:
            test = join(" or ", [self.type_test(rejected, "type(x)"), code("not {}", other)]) if rejected else code("not {}", other)
            body.add(1, code("if {}:", test))
            body.add(2, Code("return False"))
        else:
            result = join(" and ", [self.type_test(rejected, "type(x)", negate=True), other]) if rejected else other
            body.add(1, code("return {}", result))
        return True

    def passes_by_type(self, node: ir.Node) -> Code | None:
        """For a type alone (`not: {type: null}`): an expression that is true when `x` passes it,
        without a call; values of no plain JSON type (subclasses, Decimal) ask its error path."""
        if not self.type_only(node) or self.dynamic:
            return None
        outcomes = {exact: self.passes_as_expression(node, exact) for exact in _EXACT}
        accepted = [exact for exact, passes in outcomes.items() if passes == Code("True")]
        if not accepted or any(passes not in (Code("True"), Code("False")) for passes in outcomes.values()):
            return None
        other = code("({} and {}({}, x))", self.type_test(list(_EXACT), "type(x)", negate=True),
                     self.prim("_ok"), self.error_fn(node))
        return join(" or ", [self.type_test(accepted, "type(x)"), other])

    def fast_branch(self, node: ir.Node, exact: str) -> Lines:
        """The fast checks of `node` for a value of one exact type (`_current` is `node` meanwhile)."""
        outer, self._current = self._current, node
        try:
            return self._fast_branch(node, exact)
        finally:
            self._current = outer

    def _fast_branch(self, node: ir.Node, exact: str) -> Lines:
        kind = _EXACT[exact][0]
        lines = Lines()
        types = node.types
        if types is not None and kind not in types:
            if exact == "float" and "integer" in types and node.float_integers:
                lines.add(0, Code("if not x.is_integer():"))
                lines.add(1, Code("return False"))
            elif exact == "float" and "integer" in types:
                lines.add(0, Code("return False"))
                return lines
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
        closed_keys = self._closed_keys(check.names)
        if closed_keys is not None and len(check.names) <= 4:
            # every allowed property is required: exactly these keys, by count and names (no
            # keys view is made, unlike the comparison below)
            tests = [code("len(x) != {}", literal(len(check.names)))]
            tests += [code("{} not in x", literal(n)) for n in check.names]
            lines.add(0, code("if {}:", join(" or ", tests)))
            lines.add(1, Code("return False"))
        elif closed_keys is not None:
            # every allowed property is required: the key set must be exactly that, one comparison
            lines.add(0, code("if x.keys() != {}:", closed_keys))
            lines.add(1, Code("return False"))
        elif len(check.names) <= 4:
            for n in check.names:
                lines.add(0, code("if {} not in x:", literal(n)))
                lines.add(1, Code("return False"))
        else:
            names = self.constant("R", literal(frozenset(check.names)))
            lines.add(0, code("if not x.keys() >= {}:", names))
            lines.add(1, Code("return False"))
        present.update(check.names)

    def closed(self) -> ir.AdditionalProperties | None:
        """The current node's `additionalProperties: false` without patternProperties, if any:
        then its property names are the only ones allowed."""
        assert self._current is not None
        for other in self._current.checks:
            if (isinstance(other, ir.AdditionalProperties) and other.schema is not None
                    and other.schema.boolean is False and not other.patterns):
                return other
        return None

    def _closed_keys(self, names: tuple[str, ...]) -> Name | None:
        """The key-set constant when the current node requires exactly the names that its
        `additionalProperties: false` allows (then `x.keys() != K` checks both at once)."""
        closed = self.closed()
        if closed is not None and set(closed.known) == set(names) and len(set(names)) == len(names):
            return self.constant("K", literal(frozenset(closed.known)))
        return None

    # An object schema with this many properties is checked by a loop over the properties the
    # instance has, each looked up in a table: large schemas (FHIR's resources) declare dozens of
    # properties of which an instance has a few, and a test per declared property costs more.
    PROPERTY_TABLE = 12

    def property_table(self, check: ir.Properties, error_only: bool = False) -> Name | None:
        """The table of a large `properties`: name -> (fast function, error function), used by
        both paths; or (error_only, for the error path of a smaller one) name -> error function.
        None when there are too few properties (each is then tested by name), and in dynamic mode
        (where calls carry the scope)."""
        entries = _checked_properties(check)
        large = len(entries) >= self.PROPERTY_TABLE
        if self.dynamic or len(entries) < 3 or not (large or error_only):
            return None
        if large:
            rows = [(prop, self.pair(self.fast_fn(self.through_refs(sub)), self.error_fn(sub))) for prop, sub in entries]
        else:
            rows = [(prop, self.error_fn(sub)) for prop, sub in entries]
        prefix = "F" if large else "G"
        table = self.constant(prefix, Code("{}"), key=prefix + repr([(p, r.text) for p, r in rows]),
                              annotation=Code("dict[str, tuple[Any, Any]]" if large else "dict[str, Any]"))
        if table not in self._filled_tables:
            self._filled_tables.add(table)
            items = join(", ", [code("{}: {}", literal(prop), row) for prop, row in rows])
            self.late_constants.append(code("{}.update({{{}}})", table, items))
        return table

    def pair(self, fast: Name, error: Name) -> Name:
        """A module-level (fast, error) tuple for property tables: a pair is written once, where
        FHIR's tables repeat the same few hundred pairs thousands of times."""
        key = (fast.text, error.text)
        if key not in self._pairs:
            self._pairs[key] = Name(f"_{self.prefix}Q{len(self._pairs)}")
            # after the functions it names, before the tables that use it
            self.late_constants.append(code("{} = ({}, {})", self._pairs[key], fast, error))
        return self._pairs[key]

    def closed_table(self) -> Name | None:
        """The property table of the current node when it also lists exactly the names that its
        `additionalProperties: false` allows: then a name missing from it fails, and the table
        loop checks both keywords at once."""
        closed = self.closed()
        assert self._current is not None
        properties = [c for c in self._current.checks if isinstance(c, ir.Properties)]
        if closed is None or len(properties) != 1:
            return None
        names = {p for p, _ in _checked_properties(properties[0])}
        if names == set(closed.known) and len(names) >= self.PROPERTY_TABLE:
            return self.property_table(properties[0])
        return None

    def patterned(self) -> tuple[Name | None, ir.PatternProperties, ir.AdditionalProperties | None, Name | None] | None:
        """When one loop over the instance's names can check the current node's patternProperties
        together with its additionalProperties and/or its property table (Swagger's objects:
        properties, `^x-` extensions, nothing else): the table (None if the node has none), the
        two checks, and the known names the loop must pass over (those not in the table)."""
        assert self._current is not None
        checks = self._current.checks
        properties = [c for c in checks if isinstance(c, ir.Properties)]
        patterns = [c for c in checks if isinstance(c, ir.PatternProperties)]
        additional = [c for c in checks if isinstance(c, ir.AdditionalProperties)]
        if len(properties) > 1 or len(patterns) != 1 or len(additional) > 1:
            return None
        if additional and (additional[0].schema is None or ir.always_true(additional[0].schema)):
            additional = []  # nothing to check on a name no property or pattern covers
        table = self.property_table(properties[0]) if properties else None
        if table is None and not additional:
            return None
        pythons = tuple(python for _, python, _ in patterns[0].entries)
        if additional and additional[0].patterns != pythons:
            return None
        in_table = {p for p, _ in _checked_properties(properties[0])} if table else set()
        known = set(additional[0].known) if additional else in_table
        # which known names a pattern matches is decided here, for the patterns that say it
        # plainly (`^x-`): a regex is not run at compile time (a hostile one could hang it)
        prefixes = [_literal_prefix(source) for source, _, _ in patterns[0].entries]
        if not in_table <= known or any(prefix is None or name.startswith(prefix) for prefix in prefixes for name in known):
            return None
        others = self.constant("K", literal(frozenset(known - in_table))) if known - in_table else None
        return table, patterns[0], additional[0] if additional else None, others

    def patterned_loop(self, table: Name | None, patterns: ir.PatternProperties,
                       additional: ir.AdditionalProperties | None, others: Name | None, lines: Lines) -> None:
        lines.add(0, Code("for k, v in x.items():"))
        if table is not None:
            lines.add(1, code("f = {}.get(k)", table))
            lines.add(1, Code("if f is not None:"))
            lines.add(2, Code("if not f[0](v):"))
            lines.add(3, Code("return False"))
            lines.add(1, code("elif k not in {}:", others) if others else Code("else:"))
        else:
            if others:
                lines.add(1, code("if k not in {}:", others))
        d = 2 if table is not None or others else 1  # the indent of the checks of an unknown name
        # a name the properties do not know (a name that is not a string matches no pattern):
        # its patterns' schemas, or additionalProperties
        matches = [(self.regex(python), sub) for _, python, sub in patterns.entries]
        other = additional.schema if additional is not None else None
        checked = [(regex, sub) for regex, sub in matches if not ir.always_true(sub)]
        if other is not None and other.boolean is False and len(matches) == 1:
            # the one pattern must match, and its schema hold
            (regex, sub), = matches
            tests = [Code("not isinstance(k, str)"), code("{}(k) is None", regex)]
            if checked:
                tests.append(code("not {}(v{})", self.fast_fn(sub), self.S))
            lines.add(d, code("if {}:", join(" or ", tests)))
            lines.add(d + 1, Code("return False"))
            return
        if other is not None and not ir.always_true(other):
            unmatched = join(" and ", [code("{}(k) is None", regex) for regex, _ in matches])
            lines.add(d, code("if not isinstance(k, str) or ({}):", unmatched))
            if other.boolean is False:
                lines.add(d + 1, Code("return False"))
            else:
                lines.add(d + 1, code("if not {}(v{}):", self.fast_fn(other), self.S))
                lines.add(d + 2, Code("return False"))
        if checked:
            lines.add(d, Code("if isinstance(k, str):"))
            for regex, sub in checked:
                lines.add(d + 1, code("if {}(k) is not None and not {}(v{}):", regex, self.fast_fn(sub), self.S))
                lines.add(d + 2, Code("return False"))
        elif other is None or ir.always_true(other):
            lines.add(d, Code("pass"))

    def fast_Properties(self, check: ir.Properties, exact: str, lines: Lines, present: set[str]) -> None:
        patterned = self.patterned()
        if patterned is not None and patterned[0] is not None:
            self.patterned_loop(*patterned, lines)
            return
        table = self.property_table(check)
        if table is not None:
            lines.add(0, Code("for k, v in x.items():"))
            lines.add(1, code("f = {}.get(k)", table))
            closed = self.closed_table() is not None
            lines.add(1, Code("if f is None or not f[0](v):" if closed else "if f is not None and not f[0](v):"))
            lines.add(2, Code("return False"))
            return
        for prop, sub in check.entries:
            if ir.always_true(sub):
                continue
            target = self.through_refs(sub)
            if target is not sub and not self.type_only(target):
                sub = target  # a reference to a shared subschema: its function, called directly
            elif self.inlinable(sub):
                headers = [] if prop in present else [code("if {} in x:", literal(prop))]
                self.check_under(headers, sub, lines, code("x[{}]", literal(prop)))
                continue
            fn = self.fast_fn(sub)
            if prop in present:
                lines.add(0, code("if not {}(x[{}]{}):", fn, literal(prop), self.S))
            else:
                lines.add(0, code("if {} in x and not {}(x[{}]{}):", literal(prop), fn, literal(prop), self.S))
            lines.add(1, Code("return False"))

    def fast_AdditionalProperties(self, check: ir.AdditionalProperties, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return  # kept only for what it evaluates (unevaluatedProperties)
        if check.schema.boolean is False and self.closed_table() is not None:
            return  # checked by the loop over the property table
        patterned = self.patterned()
        if patterned is not None:
            if patterned[0] is None:  # (else the loop over the property table checks it)
                self.patterned_loop(*patterned, lines)
            return
        known = self.constant("K", literal(frozenset(check.known))) if check.known else None
        if check.schema.boolean is False and not check.patterns:
            if present and set(present) == set(check.known) and self._closed_keys(tuple(present)) is not None:
                return  # already compared with the whole key set by fast_Required
            lines.add(0, code("if not x.keys() <= {}:", known) if known else Code("if x:"))
            lines.add(1, Code("return False"))
            return
        if not check.patterns and self.inlinable(check.schema):
            # the subschema checked in place, in the loop; over the values alone when no
            # property is known
            value = Name("value" + str(self._inline_count + 1))
            if known:
                headers = [code("for k, {} in x.items():", value), code("if k not in {}:", known)]
            else:
                headers = [code("for {} in x.values():", value)]
            self.check_under(headers, check.schema, lines, var=value)
            return
        tests = [code("k not in {}", known)] if known else []
        if check.patterns:  # a name that is not a string matches no pattern
            unmatched = join(" and ", [code("{}(k) is None", self.regex(p)) for p in check.patterns])
            tests.append(code("(not isinstance(k, str) or {})", unmatched))
        if check.schema.boolean is not False:  # a false schema fails every name that gets here
            tests.append(code("not {}(v{})", self.fast_fn(check.schema), self.S))
        lines.add(0, Code("for k, v in x.items():"))
        lines.add(1, code("if {}:", join(" and ", tests)))
        lines.add(2, Code("return False"))

    def fast_PatternProperties(self, check: ir.PatternProperties, exact: str, lines: Lines, present: set[str]) -> None:
        if self.patterned():
            return  # checked by the loop of patterned_loop
        lines.add(0, Code("for k, v in x.items():"))
        lines.add(1, Code("if isinstance(k, str):"))
        for _, python, sub in check.entries:
            lines.add(2, code("if {}(k) is not None and not {}(v{}):", self.regex(python), self.fast_fn(sub), self.S))
            lines.add(3, Code("return False"))

    def fast_PropertyNames(self, check: ir.PropertyNames, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        lines.add(0, Code("for k in x:"))
        lines.add(1, code("if not {}(k{}):", self.fast_fn(check.schema), self.S))
        lines.add(2, Code("return False"))

    def fast_PropertyCount(self, check: ir.PropertyCount, exact: str, lines: Lines, present: set[str]) -> None:
        lines.add(0, code("if len(x) < {}:" if check.at_least else "if len(x) > {}:", literal(check.bound)))
        lines.add(1, Code("return False"))

    def fast_DependentRequired(self, check: ir.DependentRequired, exact: str, lines: Lines, present: set[str]) -> None:
        for name, names in check.entries:
            needed = join(" and ", [code("{} in x", literal(n)) for n in names])
            lines.add(0, code("if {} in x and not ({}):", literal(name), needed))
            lines.add(1, Code("return False"))

    def fast_DependentSchemas(self, check: ir.DependentSchemas, exact: str, lines: Lines, present: set[str]) -> None:
        for name, sub in check.entries:
            if ir.always_true(sub):
                continue
            lines.add(0, code("if {} in x and not {}(x{}):", literal(name), self.fast_fn(sub), self.S))
            lines.add(1, Code("return False"))

    def fast_Contains(self, check: ir.Contains, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        fn = self.fast_fn(check.schema)
        if check.maximum is None and check.minimum <= 1:
            if check.minimum == 1:  # a plain loop: no generator object on the valid path
                lines.add(0, Code("for v in x:"))
                lines.add(1, code("if {}(v{}):", fn, self.S))
                lines.add(2, Code("break"))
                lines.add(0, Code("else:"))
                lines.add(1, Code("return False"))
            return
        lines.add(0, code("n = sum(1 for v in x if {}(v{}))", fn, self.S))
        tests = [code("n < {}", literal(check.minimum))] if check.minimum else []
        if check.maximum is not None:
            tests.append(code("n > {}", literal(check.maximum)))
        lines.add(0, code("if {}:", join(" or ", tests)))
        lines.add(1, Code("return False"))

    def fast_Unevaluated(self, check: ir.Unevaluated, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return
        node = self._current
        lines.add(0, code("ev = {}(x{})", self.eval_fn(node), self.S))
        if isinstance(check, ir.UnevaluatedItems):
            lines.add(0, Code("for i in range(len(x)):"))
            tests = [Code("i not in ev")]
            if check.schema.boolean is not False:
                tests.append(code("not {}(x[i]{})", self.fast_fn(check.schema), self.S))
        else:
            lines.add(0, Code("for k, v in x.items():"))
            tests = [Code("k not in ev")]
            if check.schema.boolean is not False:
                tests.append(code("not {}(v{})", self.fast_fn(check.schema), self.S))
        lines.add(1, code("if {}:", join(" and ", tests)))
        lines.add(2, Code("return False"))

    fast_UnevaluatedItems = fast_Unevaluated

    def fast_PrefixItems(self, check: ir.PrefixItems, exact: str, lines: Lines, present: set[str]) -> None:
        checked = [(i, sub) for i, sub in enumerate(check.schemas) if not ir.always_true(sub)]
        size = Code("len(x)")
        if len(checked) > 1:  # the length, once
            size = Code("size")
            lines.add(0, Code("size = len(x)"))
        for i, sub in checked:
            if self.inlinable(sub):
                self.check_under([code("if {} > {}:", size, literal(i))], sub, lines, code("x[{}]", literal(i)))
                continue
            lines.add(0, code("if {} > {} and not {}(x[{}]{}):", size, literal(i), self.fast_fn(sub), literal(i), self.S))
            lines.add(1, Code("return False"))

    def fast_Items(self, check: ir.Items, exact: str, lines: Lines, present: set[str]) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return  # kept only for what it evaluates (unevaluatedItems)
        if check.schema.boolean is False:
            lines.add(0, code("if len(x) > {}:", literal(check.start)))
            lines.add(1, Code("return False"))
            return
        target = self.through_refs(check.schema)
        if target is not check.schema and not self.type_only(target) and not check.start:
            # items by reference to a shared subschema: the loop in C, stopping at the first failure
            lines.add(0, code("if not all(map({}, x)):", self.fast_fn(target)))
            lines.add(1, Code("return False"))
            return
        if self.inlinable(check.schema):
            length = self.unrolled_length()
            if length is not None and not check.start:
                self.unrolled_items(check.schema, length, lines)
            elif check.start:  # by index: a slice would copy the list on the valid path
                index = Name("index" + str(self._inline_count + 1))
                head = code("for {} in range({}, len(x)):", index, literal(check.start))
                self.check_under([head], check.schema, lines, code("x[{}]", index))
            else:
                item = Name("item" + str(self._inline_count + 1))
                self.check_under([code("for {} in x:", item)], check.schema, lines, var=item)
            return
        fn = self.fast_fn(check.schema)
        if check.start:
            lines.add(0, code("for i in range({}, len(x)):", literal(check.start)))
            lines.add(1, code("if not {}(x[i]{}):", fn, self.S))
        elif not self.dynamic:  # the loop in C, stopping at the first failure
            lines.add(0, code("if not all(map({}, x)):", fn))
            lines.add(1, Code("return False"))
            return
        else:
            lines.add(0, Code("for v in x:"))
            lines.add(1, code("if not {}(v{}):", fn, self.S))
        lines.add(2, Code("return False"))

    # An array of leaf items with a small minItems (a point's coordinates, a pair) is most often
    # exactly that long: unpacking it into names checks each item without an iterator.
    UNROLL_ITEMS = 4
    UNROLL_LINES = 16

    def unrolled_length(self) -> int | None:
        """The current node's minItems when its items are checked unrolled at that length: the
        node has one minItems of 1 to UNROLL_ITEMS and an `items` leaf applying from index 0."""
        assert self._current is not None
        bounds = [c.bound for c in self._current.checks if isinstance(c, ir.ItemCount) and c.at_least]
        items = [c for c in self._current.checks if isinstance(c, ir.Items)]
        if len(bounds) != 1 or not 1 <= bounds[0] <= self.UNROLL_ITEMS or len(items) != 1:
            return None
        schema = items[0].schema
        if (items[0].start or schema is None or ir.always_true(schema) or schema.boolean is not None
                or not self.is_leaf(schema) or not self.inlinable(schema)):
            return None
        return bounds[0]

    def unrolled_items(self, schema: ir.Node, length: int, lines: Lines) -> None:
        """`if len(x) == n:` unpack and check each item in place; `elif len(x) < n:` fail (the
        minItems check, which emits nothing itself here); `else:` the usual loop."""
        item = Name("item" + str(self._inline_count + 1))
        loop = Lines()
        self.check_under([code("for {} in x:", item)], schema, loop, var=item)
        if not loop or length * (len(loop.lines) - 1) > self.UNROLL_LINES:
            # nothing to check on an item, or too much to repeat
            lines.add(0, code("if len(x) < {}:", literal(length)))
            lines.add(1, Code("return False"))
            lines.extend(0, loop)
            return
        names = [Name(item.text + "_" + str(j)) for j in range(length)]
        lines.add(0, code("if len(x) == {}:", literal(length)))
        lines.add(1, code("({},) = x", names[0]) if length == 1 else code("{} = x", join(", ", names)))
        for name in names:
            self.check_in_place(schema, None, lines, 1, var=name)
        lines.add(0, code("elif len(x) < {}:", literal(length)))
        lines.add(1, Code("return False"))
        lines.add(0, Code("else:"))
        lines.extend(1, loop)

    def fast_ItemCount(self, check: ir.ItemCount, exact: str, lines: Lines, present: set[str]) -> None:
        if isinstance(check, ir.ItemCount) and check.at_least and self.unrolled_length() is not None:
            return  # checked by unrolled_items (not minLength, which shares this method)
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
        return self.regex(check.python)

    def regex(self, python: str) -> Name:
        self.uses_re = True
        return self.constant("P", code("_re.compile({}).search", literal(python)))

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

    def call(self, node: ir.Node, arg: str = "x") -> Code:
        return code("{}(" + arg + "{})", self.fast_fn(self.through_refs(node)), self.S)

    def fast_general(self, check: ir.Check, body: Lines) -> None:
        if isinstance(check, ir.AllOf):
            for sub in check.schemas:
                if ir.always_true(sub):
                    continue
                if self.inlinable(sub):
                    self.check_in_place(sub, None, body, 0, var=Name("x"))
                else:
                    body.add(0, code("if not {}:", self.call(sub)))
                    body.add(1, Code("return False"))
        elif isinstance(check, ir.AnyOf):
            if any(ir.always_true(s) for s in check.schemas):
                return
            calls = [self.call(s) for s in check.schemas]
            dispatched = self.discriminated(check.schemas, body) or self.by_expressions(check.schemas, body, one=False)
            opener = "elif" if dispatched else "if"
            body.add(0, code(opener + " not ({}):", join(" or ", calls)))
            body.add(1, Code("return False"))
        elif isinstance(check, ir.OneOf):
            calls = [self.call(s) for s in check.schemas]
            dispatched = self.discriminated(check.schemas, body) or self.by_expressions(check.schemas, body, one=True)
            opener = "elif" if dispatched else "if"
            body.add(0, code(opener + " ({}) != 1:", join(" + ", calls)))
            body.add(1, Code("return False"))
        elif isinstance(check, ir.Not):
            assert check.schema is not None
            body.add(0, code("if {}:", self.passes_by_type(check.schema) or self.call(check.schema)))
            body.add(1, Code("return False"))
        elif isinstance(check, ir.IfThenElse):
            assert check.condition is not None
            branches = [(check.then, "if {}:"), (check.otherwise, "if not {}:")]
            if check.then is not None and check.otherwise is not None:
                body.add(0, code("if {}:", self.call(check.condition)))
                body.add(1, code("if not {}:", self.call(check.then)))
                body.add(2, Code("return False"))
                body.add(0, code("elif not {}:", self.call(check.otherwise)))
                body.add(1, Code("return False"))
            else:
                for sub, test in branches:
                    if sub is not None:
                        body.add(0, code(test, self.call(check.condition)))
                        body.add(1, code("if not {}:", self.call(sub)))
                        body.add(2, Code("return False"))
        elif isinstance(check, ir.Ref):
            self.has_refs = True
            target = self.target(check)
            if check.mode is None and (not self.dynamic or not check.enter) and self.type_only(target):
                # a reference to a type alone (FHIR's `boolean`) is checked in place
                self.check_in_place(target, None, body, 0, var=Name("x"))
                return
            if check.mode is None:
                body.add(0, code("if not {}(x{}):", self.fast_fn(target), self.ref_scope(check)))
            else:
                body.add(0, code("if not {}[0](x{}):", self.dynamic_pick(check), self.ref_scope(check)))
            body.add(1, Code("return False"))
        else:  # pragma: no cover - the IR has no other general checks
            raise AssertionError(f"no fast emission for {check!r}")

    # A oneOf/anyOf checks every alternative; where the data tells which alternative alone can pass,
    # only that one is checked. The `if` chain these open is continued by the caller's general
    # test (`elif`), which still answers for the values the dispatch is not about.
    def by_expressions(self, schemas: tuple[ir.Node, ...], body: Lines, one: bool) -> bool:
        """oneOf (`one`) or anyOf over alternatives whose checks for a value's exact type are each
        a few tests (`{"type": "number", "multipleOf": 3}`): for those types the alternatives are
        counted in place, without calls, as `t = type(x)` / `if t is int: if (not (x % 3)) + (not
        (x % 5)) != 1: return False`; other types go on to the `elif` of calls that follows."""
        if self.dynamic or len(schemas) < 2:
            return False
        nodes = [self.through_refs(n) for n in schemas]
        if any(n.resource is not None or any(c.applies_to is None and not isinstance(c, ir.Enum) for c in n.checks)
               for n in nodes if n.boolean is None):
            return False  # an alternative with in-place applicators (allOf, $ref...) is called
        groups: dict[tuple[str, str], list[str]] = {}
        for exact in _EXACT:
            tests = [self.passes_as_expression(n, exact) for n in nodes]
            if any(t is None for t in tests):
                continue  # the calls decide for this type
            outcome = _count_outcome([t for t in tests if t is not None], one)
            groups.setdefault(outcome, []).append(exact)
        if not any(kind == "test" for kind, _ in groups):
            return False
        body.add(0, Code("t = type(x)"))
        opener = "if {}:"
        # the types with something to test first, the ones that fail outright last
        for (kind, condition), exacts in sorted(groups.items(), key=lambda group: group[0][0] == "fail"):
            body.add(0, code(opener, self.type_test(exacts, "t")))
            if kind == "pass":
                body.add(1, Code("pass"))
            elif kind == "fail":
                body.add(1, Code("return False"))
            else:
                body.add(1, code("if {}:", Code(condition)))
                body.add(2, Code("return False"))
            opener = "elif {}:"
        return True

    def passes_as_expression(self, node: ir.Node, exact: str) -> Code | None:
        """An expression on `x` that is true when a value of this exact type passes `node`, when
        its fast checks for that type are only `if ...: return False` tests; else None."""
        if node.boolean is not None:
            return literal(node.boolean)
        lines = self.fast_branch(node, exact)
        if not lines:
            return Code("True")
        if lines.key() == _FAILS:
            return Code("False")
        rendered = lines.lines
        if len(rendered) % 2 or len(rendered) > 2 * self.INLINE_CHECKS:
            return None
        tests = []
        for (indent, test), (inner, then) in zip(rendered[::2], rendered[1::2]):
            text = test.text
            if indent != 0 or inner != 1 or then.text != "return False" or not text.startswith("if ") or not text.endswith(":"):
                return None
            tests.append(Code(_not(text[len("if "):-1])))
        return join(" and ", tests)

    def discriminated(self, schemas: tuple[ir.Node, ...], body: Lines) -> bool:
        if self.dynamic or len(schemas) < 2:  # in dynamic mode a call also needs its scope
            return False
        return self.dispatch_by_type(schemas, body) or self.dispatch_by_const(schemas, body)

    def dispatch_by_type(self, schemas: tuple[ir.Node, ...], body: Lines) -> bool:
        """Alternatives with disjoint types (`string`, `array`, `object`): a value's exact type
        picks the one alternative that can pass, or none."""
        nodes = [self.through_refs(n) for n in schemas]
        pick: dict[str, int | None] = {}
        for exact, (kind, _) in _EXACT.items():
            kinds = ("integer", "number") if kind == "number" else (kind,)
            candidates = [i for i, n in enumerate(nodes) if not self.rejects_kinds(n, kinds)]
            if len(candidates) > 1:
                return False
            pick[exact] = candidates[0] if candidates else None
        groups: dict[int | None, list[str]] = {}
        for exact, i in pick.items():
            groups.setdefault(i, []).append(exact)
        body.add(0, Code("t = type(x)"))
        opener = "if {}:"
        for i, exacts in groups.items():
            if i is None:
                continue
            body.add(0, code(opener, self.type_test(exacts, "t")))
            if ir.always_true(nodes[i]):
                body.add(1, Code("pass"))
            elif self.inlinable(nodes[i]):
                before = len(body.lines)
                self.check_in_place(nodes[i], None, body, 1, var=Name("x"))
                if len(body.lines) == before:  # nothing to check for these types
                    body.add(1, Code("pass"))
            else:
                body.add(1, code("if not {}:", self.call(nodes[i])))
                body.add(2, Code("return False"))
            opener = "elif {}:"
        if None in groups:
            body.add(0, code(opener, self.type_test(groups[None], "t")))
            body.add(1, Code("return False"))
        return True

    @staticmethod
    def rejects_kinds(node: ir.Node, kinds: tuple[str, ...]) -> bool:
        """No value of these JSON types passes `node` (its `type` excludes them all)."""
        return node.boolean is False or (node.types is not None and not any(k in node.types for k in kinds))

    def dispatch_by_const(self, schemas: tuple[ir.Node, ...], body: Lines) -> bool:
        """Object alternatives told apart by one property whose schema names its string values
        (FHIR's resourceType, GeoJSON's type const, a tag enum, Swagger's parameter `in`): a dict
        whose property is a string can only pass the alternative that lists that string."""
        if len(schemas) < 3:
            return False
        # alternatives that no object passes (`{"type": "null"}`) take no part
        candidates = [self.through_refs(n) for n in schemas]
        candidates = [n for n in candidates if not self.rejects_kinds(n, ("object",))]
        if len(candidates) < 2:
            return False
        values = [self.property_strings(node) for node in candidates]
        for prop in sorted(set.intersection(*(set(v) for v in values))):
            entries = [(s, self.fast_fn(node)) for node, v in zip(candidates, values) for s in sorted(v[prop])]
            if len({s for s, _ in entries}) == len(entries):  # each string names one alternative
                break
        else:
            return False
        table = self.constant("D", Code("{}"), key="D" + repr((prop, entries)), annotation=Code("dict[str, Any]"))
        if table not in self._filled_tables:
            self._filled_tables.add(table)
            for value, fn in entries:
                self.late_constants.append(code("{}[{}] = {}", table, literal(value), fn))
        body.add(0, code("if type(x) is dict and type(x.get({})) is str:", literal(prop)))
        body.add(1, code("f = {}.get(x[{}])", table, literal(prop)))
        body.add(1, Code("if f is None or not f(x):"))
        body.add(2, Code("return False"))
        return True

    def through_refs(self, node: ir.Node) -> ir.Node:
        """The node a plain static reference (alone in its schema) leads to: it checks the same,
        so it is called (or inlined) instead. Not in dynamic mode, where a call carries the scope."""
        for _ in range(64):
            ref = self.plain_ref(node)
            if ref is None:
                break
            node = self.target(ref)
            self.has_refs = True  # a call through it can recurse like the reference would
        return node

    def property_strings(self, node: ir.Node) -> dict[str, frozenset[str]]:
        """The properties of `node` whose schema has a const or enum: the strings each may be.
        An object that has the property, as another string, fails the node (the dispatch only
        happens when the property is there, so it need not be required)."""
        if node.boolean is not None:
            return {}
        found: dict[str, frozenset[str]] = {}
        for check in node.checks:
            if isinstance(check, ir.Properties):
                for name, sub in check.entries:
                    sub = self.through_refs(sub)
                    for e in sub.checks if sub.boolean is None else ():
                        if isinstance(e, ir.Enum):
                            found[name] = frozenset(v for v in e.values if type(v) is str)
        return found

    # -- annotations, for unevaluatedProperties/unevaluatedItems ----------------------------
    def annot_function(self, node: ir.Node) -> Function:
        """`_aN(x)`: None if x fails the subschema, else the keys/indices it evaluated."""
        name = self._annot[node]
        body = Lines()
        doc = literal("Evaluated keys or indices of the subschema at " + (node.pointer or "the root") + ", or None.")
        if node.boolean is not None:
            body.add(0, Code("return set()" if node.boolean else "return None"))
            return Function(name, self.params("x"), doc, body.render(), Code("set[Any] | None"))
        body.add(0, code("if not {}:", self.call(node)))
        body.add(1, Code("return None"))
        kinds = {type(c) for c in node.checks}
        if ir.Unevaluated in kinds or ir.UnevaluatedItems in kinds:
            body.add(0, code("k = {}(x)", self.prim("_kind")))
            if ir.Unevaluated in kinds:
                body.add(0, Code('if k == "object":'))
                body.add(1, Code("return set(x)"))
            if ir.UnevaluatedItems in kinds:
                body.add(0, Code('if k == "array":'))
                body.add(1, Code("return set(range(len(x)))"))
        body.add(0, code("return {}(x{})", self.eval_fn(node), self.S))
        return Function(name, self.params("x"), doc, body.render(), Code("set[Any] | None"))

    def eval_function(self, node: ir.Node) -> Function:
        """`_uN(x)`: the keys/indices evaluated by the subschema's keywords other than its own
        unevaluated* ones: its own property/item keywords, and every valid in-place subschema."""
        name = self._eval[node]
        body = Lines()
        doc = literal("Keys or indices evaluated at " + (node.pointer or "the root") + " (before unevaluated*).")
        self.prologue(node, body)
        body.add(0, Code("ev: set[Any] = set()"))
        body.add(0, code("k = {}(x)", self.prim("_kind")))
        objects, arrays, in_place = Lines(), Lines(), Lines()
        for check in node.checks:
            if isinstance(check, ir.Properties):
                names = self.constant("K", literal(frozenset(n for n, _ in check.entries)))
                objects.add(0, code("ev.update(x.keys() & {})", names))
            elif isinstance(check, ir.PatternProperties):
                tests = [code("{}(key) is not None", self.regex(python)) for _, python, _ in check.entries]
                objects.add(0, Code("for key in x:"))
                objects.add(1, code("if isinstance(key, str) and ({}):", join(" or ", tests)))
                objects.add(2, Code("ev.add(key)"))
            elif isinstance(check, ir.AdditionalProperties):
                objects.add(0, Code("ev.update(x)"))
            elif isinstance(check, ir.DependentSchemas):
                for prop, sub in check.entries:
                    objects.add(0, code("if {} in x:", literal(prop)))
                    self.merge(objects, 1, self.acall(sub))
            elif isinstance(check, ir.PrefixItems):
                arrays.add(0, code("ev.update(range(min(len(x), {})))", literal(len(check.schemas))))
            elif isinstance(check, ir.Items):
                arrays.add(0, code("ev.update(range({}, len(x)))", literal(check.start)))
            elif isinstance(check, ir.Contains) and check.annotates:
                assert check.schema is not None
                arrays.add(0, code("ev.update(i for i, v in enumerate(x) if {}(v{}))", self.fast_fn(check.schema), self.S))
            elif isinstance(check, (ir.AllOf, ir.AnyOf)):
                for sub in check.schemas:
                    self.merge(in_place, 0, self.acall(sub))
            elif isinstance(check, ir.OneOf):  # annotates only when it holds: exactly one is valid
                calls = [self.acall(sub) for sub in check.schemas]
                tuple_text = "rs = [r for r in ({},) if r is not None]" if len(calls) == 1 else "rs = [r for r in ({}) if r is not None]"
                in_place.add(0, code(tuple_text, join(", ", calls)))
                in_place.add(0, Code("if len(rs) == 1:"))
                in_place.add(1, Code("ev.update(rs[0])"))
            elif isinstance(check, ir.IfThenElse):
                assert check.condition is not None
                in_place.add(0, code("r = {}", self.acall(check.condition)))
                in_place.add(0, Code("if r is not None:"))
                in_place.add(1, Code("ev.update(r)"))
                if check.then is not None:
                    self.merge(in_place, 1, self.acall(check.then))
                if check.otherwise is not None:
                    in_place.add(0, Code("else:"))
                    self.merge(in_place, 1, self.acall(check.otherwise))
            elif isinstance(check, ir.Ref):
                function = self.annot_fn(self.target(check)) if check.mode is None else code("{}[2]", self.dynamic_pick(check))
                self.merge(in_place, 0, code("{}(x{})", function, self.ref_scope(check)))
        if objects:
            body.add(0, Code('if k == "object":'))
            body.extend(1, objects)
        if arrays:
            body.add(0, Code('if k == "array":'))
            body.extend(1, arrays)
        body.extend(0, in_place)
        body.add(0, Code("return ev"))
        return Function(name, self.params("x"), doc, body.render(), Code("set[Any]"))

    def acall(self, node: ir.Node) -> Code:
        return code("{}(x{})", self.annot_fn(node), self.S)

    def merge(self, lines: Lines, indent: int, call: Code) -> None:
        lines.add(indent, code("r = {}", call))
        lines.add(indent, Code("if r is not None:"))
        lines.add(indent + 1, Code("ev.update(r)"))

    # -- the error path -------------------------------------------------------------------
    def error_function(self, node: ir.Node) -> Function:
        name = self._error[node]
        body = Lines()
        doc = literal("Every error of the subschema at " + (node.pointer or "the root") + ".")
        params = self.params("x, ip, kp, out, ak")
        self._current = node
        if node.boolean is not None:
            if node.boolean is False:
                self.fail(body, 0, code('"False schema does not allow " + {}(x)', self.prim("_short")), _ptr())
            else:
                body.add(0, Code("pass"))
            return Function(name, params, doc, body.render(), Code("None"))
        self.prologue(node, body)
        if node.types is not None:
            tests = []
            for t in node.types:
                if t == "integer" and not node.float_integers:
                    tests.append(Code('(k == "number" and isinstance(x, int))'))
                elif t == "integer":
                    tests.append(code('(k == "number" and {}(x))', self.prim("_is_integral")))
                else:
                    tests.append(code("k == {}", literal(t)))
            names = ", ".join(repr(t) for t in node.types)
            message = code("{}(x) + {}", self.prim("_short"), literal(f" is not of type {names}"))
            body.add(0, code("k = {}(x)", self.prim("_kind")))
            body.add(0, code("if not ({}):", join(" or ", tests)))
            self.fail(body, 1, message, _ptr("type"))
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
        return Function(name, params, doc, body.render(), Code("None"))

    def ecall(self, node: ir.Node, arg: Code, at: Code, *tokens: str | int) -> Code:
        """A call of `node`'s error function on `arg` (at instance location `at`) whose keyword
        location is kp + the pointer `tokens`. A plain reference calls its target directly, with
        the location its error function would pass."""
        function, where, absolute = self.ecall_parts(node, *tokens)
        return code("{}({}, {}, {}, out, {}{})", function, arg, at, where, absolute, self.S)

    def ecall_parts(self, node: ir.Node, *tokens: str | int) -> tuple[Name, Code, Code]:
        """The error function, keyword location and absolute location of ecall."""
        ref = self.plain_ref(node)
        if ref is not None:
            return self.error_fn(self.target(ref)), _through_ref(ref, *tokens), literal(ref.absolute)
        suffix = _ptr(*tokens)
        return self.error_fn(node), code("kp + {}", suffix), code("ak and ak + {}", suffix)

    def plain_ref(self, node: ir.Node) -> ir.Ref | None:
        """The reference `node` is made of, if it is a static reference alone (not in dynamic mode,
        where a call carries the scope)."""
        if (not self.dynamic and node.boolean is None and node.types is None and len(node.checks) == 1
                and isinstance(node.checks[0], ir.Ref) and node.checks[0].mode is None):
            return node.checks[0]
        return None

    def fail(self, lines: Lines, indent: int, message: Code, suffix: Code, at: Code = Code("ip")) -> None:
        """An error at keyword location kp + suffix (a literal pointer suffix, see _ptr)."""
        lines.add(indent, code("{}(out, {}, {}, kp, ak, {})", self.prim("_fail"), message, at, suffix))

    def error_Required(self, check: ir.Required, lines: Lines) -> None:
        lines.add(0, code("{}(x, {}, ip, kp, ak, out)", self.prim("_required_errors"), literal(check.names)))

    def error_Properties(self, check: ir.Properties, lines: Lines) -> None:
        table = self.property_table(check, error_only=True)
        if table is not None:  # a large one's table also holds the fast functions
            pairs = self.property_table(check) is not None
            lines.add(0, code("{}(x, {}, {}, ip, kp, ak, out)", self.prim("_property_errors"), table, literal(pairs)))
            return
        for prop, sub in check.entries:
            if ir.always_true(sub):
                continue
            lines.add(0, code("if {} in x:", literal(prop)))
            lines.add(1, self.ecall(sub, code("x[{}]", literal(prop)), code("ip + {}", _ptr(prop)),
                                    "properties", prop))

    def error_AdditionalProperties(self, check: ir.AdditionalProperties, lines: Lines) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return
        known = self.closed_table() if check.schema.boolean is False else None
        known = known or self.constant("K", literal(frozenset(check.known)))
        if check.schema.boolean is False and not check.patterns:
            lines.add(0, code("{}(x, {}, ip, kp, ak, out)", self.prim("_extra_errors"), known))
            return
        tests = [code("key not in {}", known)]
        tests += [code("not (isinstance(key, str) and {}(key) is not None)", self.regex(p)) for p in check.patterns]
        lines.add(0, Code("for key in x:"))
        lines.add(1, code("if {}:", join(" and ", tests)))
        at = code('ip + "/" + {}(key)', self.prim("_esc"))
        if check.schema.boolean is False:
            self.fail(lines, 2, Code('"additional property " + repr(key) + " is not allowed"'),
                      _ptr("additionalProperties"), at)
        else:
            lines.add(2, self.ecall(check.schema, Code("x[key]"), at, "additionalProperties"))

    def error_PatternProperties(self, check: ir.PatternProperties, lines: Lines) -> None:
        lines.add(0, Code("for key in x:"))
        lines.add(1, Code("if isinstance(key, str):"))
        at = code('ip + "/" + {}(key)', self.prim("_esc"))
        for source, python, sub in check.entries:
            lines.add(2, code("if {}(key) is not None:", self.regex(python)))
            lines.add(3, self.ecall(sub, Code("x[key]"), at, "patternProperties", source))

    def error_PropertyNames(self, check: ir.PropertyNames, lines: Lines) -> None:
        assert check.schema is not None
        lines.add(0, Code("for key in x:"))
        lines.add(1, self.ecall(check.schema, Code("key"), Code("ip"), "propertyNames"))

    def error_PropertyCount(self, check: ir.PropertyCount, lines: Lines) -> None:
        word = "few" if check.at_least else "many"
        lines.add(0, code("if len(x) < {}:" if check.at_least else "if len(x) > {}:", literal(check.bound)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(f" has too {word} properties")),
                  _ptr(check.keyword))

    def error_DependentRequired(self, check: ir.DependentRequired, lines: Lines) -> None:
        for name, names in check.entries:
            lines.add(0, code("if {} in x:", literal(name)))
            lines.add(1, code("for name in {}:", literal(names)))
            lines.add(2, Code("if name not in x:"))
            self.fail(lines, 3, code("repr(name) + {}", literal(f" is required by {name!r}")),
                      _ptr(check.keyword))

    def error_DependentSchemas(self, check: ir.DependentSchemas, lines: Lines) -> None:
        for name, sub in check.entries:
            if not ir.always_true(sub):
                lines.add(0, code("if {} in x:", literal(name)))
                lines.add(1, self.ecall(sub, Code("x"), Code("ip"), check.keyword, name))

    def error_Contains(self, check: ir.Contains, lines: Lines) -> None:
        assert check.schema is not None
        lines.add(0, code("n = sum(1 for v in x if {}(v{}))", self.fast_fn(check.schema), self.S))
        lines.add(0, code("if n < {}:", literal(check.minimum)))
        self.fail(lines, 1, code('{}(x) + " does not contain enough matching items"', self.prim("_short")),
                  _ptr(check.min_keyword))
        if check.maximum is not None:
            lines.add(0, code("if n > {}:", literal(check.maximum)))
            self.fail(lines, 1, code('{}(x) + " contains too many matching items"', self.prim("_short")),
                      _ptr("maxContains"))

    def error_Unevaluated(self, check: ir.Unevaluated, lines: Lines) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return
        items = isinstance(check, ir.UnevaluatedItems)
        lines.add(0, code("ev = {}(x{})", self.eval_fn(self._current), self.S))
        lines.add(0, Code("for key in range(len(x)):" if items else "for key in x:"))
        lines.add(1, Code("if key not in ev:"))
        at = code('ip + "/" + {}(key)', self.prim("_esc"))
        if check.schema.boolean is False:
            self.fail(lines, 2, Code('"unevaluated " + repr(key) + " is not allowed"'), _ptr(check.keyword), at)
        else:
            lines.add(2, self.ecall(check.schema, Code("x[key]"), at, check.keyword))

    error_UnevaluatedItems = error_Unevaluated

    def error_IfThenElse(self, check: ir.IfThenElse, lines: Lines) -> None:
        assert check.condition is not None
        if check.then is None and check.otherwise is None:
            return
        lines.add(0, code("if {}:", self.call(check.condition)))
        if check.then is not None:
            lines.add(1, self.ecall(check.then, Code("x"), Code("ip"), "then"))
        else:
            lines.add(1, Code("pass"))
        if check.otherwise is not None:
            lines.add(0, Code("else:"))
            lines.add(1, self.ecall(check.otherwise, Code("x"), Code("ip"), "else"))

    def error_Ref(self, check: ir.Ref, lines: Lines) -> None:
        where = _through_ref(check)
        function = self.error_fn(self.target(check)) if check.mode is None else code("{}[1]", self.dynamic_pick(check))
        # crossing a reference: locations below it are also given absolutely, from its target
        absolute = literal(check.absolute) if check.mode is None else Code("None")
        lines.add(0, code("{}(x, ip, {}, out, {}{})", function, where, absolute, self.ref_scope(check)))

    def error_PrefixItems(self, check: ir.PrefixItems, lines: Lines) -> None:
        for i, sub in enumerate(check.schemas):
            if ir.always_true(sub):
                continue
            lines.add(0, code("if len(x) > {}:", literal(i)))
            lines.add(1, self.ecall(sub, code("x[{}]", literal(i)), code("ip + {}", _ptr(i)),
                                    check.keyword, i))

    def error_Items(self, check: ir.Items, lines: Lines) -> None:
        assert check.schema is not None
        if ir.always_true(check.schema):
            return
        if not self.dynamic:  # (in dynamic mode each call also takes the scope)
            function, where, absolute = self.ecall_parts(check.schema, check.keyword)
            lines.add(0, code("{}(x, {}, {}, ip, {}, {}, out)", self.prim("_items_errors"), literal(check.start),
                              function, where, absolute))
            return
        lines.add(0, code("for i in range({}, len(x)):", literal(check.start)))
        lines.add(1, self.ecall(check.schema, Code("x[i]"), Code('ip + "/" + str(i)'), check.keyword))

    def error_ItemCount(self, check: ir.ItemCount, lines: Lines) -> None:
        word = "short" if check.at_least else "long"
        lines.add(0, code("if len(x) < {}:" if check.at_least else "if len(x) > {}:", literal(check.bound)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(f" is too {word}")),
                  _ptr(check.keyword))

    error_StringLength = error_ItemCount

    def error_UniqueItems(self, check: ir.UniqueItems, lines: Lines) -> None:
        lines.add(0, code("if not {}(x):", self.prim("_unique")))
        self.fail(lines, 1, code('{}(x) + " has non-unique elements"', self.prim("_short")),
                  _ptr("uniqueItems"))

    def error_Pattern(self, check: ir.Pattern, lines: Lines) -> None:
        lines.add(0, code("if {}(str(x)) is None:", self.pattern(check)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(" does not match " + repr(check.source))),
                  _ptr("pattern"))

    def error_NumberBound(self, check: ir.NumberBound, lines: Lines) -> None:
        signs = _OPS[check.op][2]
        lines.add(0, code("if {}(x, {}) not in {}:", self.prim("_cmp"), self.bound(check.bound), literal(signs)))
        text = f" is {_OP_WORDS[check.op]} the {check.keyword} of {_number_text(check.bound)}"
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(text)),
                  _ptr(check.keyword))

    def error_MultipleOf(self, check: ir.MultipleOf, lines: Lines) -> None:
        lines.add(0, code("if not {}(x, {}):", self.prim("_is_multiple"), self.bound(check.divisor)))
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(f" is not a multiple of {_number_text(check.divisor)}")),
                  _ptr("multipleOf"))

    def error_Enum(self, check: ir.Enum, lines: Lines) -> None:
        lines.add(0, code("if not {}(x, {}):", self.prim("_in_table"), self.enum_table(check)))
        text = " is not one of the enum values" if check.keyword == "enum" else " is not the const value"
        self.fail(lines, 1, code("{}(x) + {}", self.prim("_short"), literal(text)), _ptr(check.keyword))

    def error_AllOf(self, check: ir.AllOf, lines: Lines) -> None:
        for i, sub in enumerate(check.schemas):
            if not ir.always_true(sub):
                lines.add(0, self.ecall(sub, Code("x"), Code("ip"), "allOf", i))

    def error_AnyOf(self, check: ir.AnyOf, lines: Lines) -> None:
        calls = [self.call(s) for s in check.schemas]
        lines.add(0, code("if not ({}):", join(" or ", calls)))
        self.fail(lines, 1, code('{}(x) + " is not valid under any of the given schemas"', self.prim("_short")),
                  _ptr("anyOf"))

    def error_OneOf(self, check: ir.OneOf, lines: Lines) -> None:
        calls = [self.call(s) for s in check.schemas]
        lines.add(0, code("if ({}) != 1:", join(" + ", calls)))
        self.fail(lines, 1, code('{}(x) + " is not valid under exactly one of the given schemas"', self.prim("_short")),
                  _ptr("oneOf"))

    def error_Not(self, check: ir.Not, lines: Lines) -> None:
        assert check.schema is not None
        lines.add(0, code("if {}:", self.call(check.schema)))
        self.fail(lines, 1, code('{}(x) + " should not be valid under the schema in not"', self.prim("_short")),
                  _ptr("not"))

    # -- the module's primitives --------------------------------------------------------
def primitive_sources(emitters: list["Emitter"]) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and function sources of the primitives some emitters' code uses."""
    needed: set[str] = set()
    stack = sorted(set().union(*(e.primitives for e in emitters)) - {"_ok"})
    while stack:
        item = stack.pop()
        if item not in needed:
            needed.add(item)
            stack.extend(primitives.DEPENDS.get(item, ()))
    if any(e.uses_decimal for e in emitters):
        needed.add("_Decimal")
    imports = [Code(primitives.PRELUDE_IMPORTS[n]) for n in sorted(needed) if n in primitives.PRELUDE_IMPORTS]
    imports.append(Code("from typing import Any"))
    if any(e.uses_re for e in emitters):
        imports.insert(0, Code("import re as _re"))
    constants = [Code(primitives.CONSTANTS[n]) for n in sorted(needed) if n in primitives.CONSTANTS]
    functions = [Code(inspect.getsource(getattr(primitives, n))) for n in _definition_order(needed)]
    return imports, constants, functions


def _definition_order(names: Iterable[str]) -> list[str]:
    wanted = set(names)
    return [n for n in primitives.DEPENDS if n in wanted and callable(getattr(primitives, n))]


# The lines of a type branch that fails outright (Lines.key() form).
_FAILS = ((0, "return False"),)

# Local names of a fast body, renamed apart when it is inlined.
_LOCALS = ("x", "t", "k", "v", "i", "n", "ev", "r", "rs", "f", "size")


def _rename(body: Lines, renames: dict[str, str]) -> Lines:
    """`body` with the NAME tokens in `renames` replaced. Only names are touched: string literals
    (where schema text lives) are separate tokens and stay as they are."""
    renamed = Lines()
    for indent, line in body.lines:
        text = line.text
        pieces: list[str] = []
        last = 0
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and token.string in renames:
                start, end = token.start[1], token.end[1]
                pieces.append(text[last:start])
                pieces.append(renames[token.string])
                last = end
        pieces.append(text[last:])
        renamed.add(indent, Code("".join(pieces)))
    return renamed


# Pass expressions (by_expressions) are built from the emitted `if ...:` conditions; these keep
# them readable: no parentheses around a single term, `not` folded where it means the same.
_FLIPPED = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_OPPOSITE = {"==": "!=", "!=": "==", "in": "not in", "not in": "in", "is": "is not", "is not": "is"}


def _parse(text: str) -> ast.expr | None:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None


def _paren(text: str) -> str:
    """`text` as one term of a larger expression."""
    tree = _parse(text)
    if isinstance(tree, (ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.Constant)):
        return text
    return "(" + text + ")"


def _not(text: str) -> str:
    """The negation of the expression `text`: `not` dropped from `not call(...)`, `!=`/`not in`/
    `is not` turned around (each is exactly the opposite of the other, NaN included), else
    `not (...)`. An order comparison keeps its `not`: with NaN, `not (x < 10)` is not `x >= 10`."""
    tree = _parse(text)
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not):
        operand = text[len("not "):]
        if _paren(operand) == operand:
            return operand
        inner = _parse(operand[1:-1]) if operand.startswith("(") and operand.endswith(")") else None
        if isinstance(inner, (ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.Compare)) \
                and ast.dump(inner) == ast.dump(tree.operand):
            return operand[1:-1]  # a comparison binds tighter than the and/or it is joined with
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _FLIPPED:
        op = _FLIPPED[type(tree.ops[0])]
        left, right = text.split(" " + op + " ", 1) if text.count(" " + op + " ") == 1 else (None, None)
        if left is not None and right is not None and _parse(left) is not None and _parse(right) is not None:
            return left + " " + _OPPOSITE[op] + " " + right
    return "not " + _paren(text)


def _count_outcome(tests: list[Code], one: bool) -> tuple[str, str]:
    """What oneOf (`one`) or anyOf makes of its alternatives' pass expressions for one type:
    ("pass", ""), ("fail", "") or ("test", the condition on which it fails)."""
    passing = sum(t.text == "True" for t in tests)
    open_tests = [t.text for t in tests if t.text not in ("True", "False")]
    if not one:
        if passing:
            return ("pass", "")
        return ("test", _not(" or ".join(open_tests))) if open_tests else ("fail", "")
    if passing > 1:
        return ("fail", "")
    if passing == 1:
        return ("test", " or ".join(open_tests)) if open_tests else ("pass", "")
    if not open_tests:
        return ("fail", "")
    if len(open_tests) == 1:
        return ("test", _not(open_tests[0]))
    return ("test", " + ".join(_paren(t) for t in open_tests) + " != 1")


def _through_ref(ref: ir.Ref, *tokens: str | int) -> Code:
    """The keyword location past a reference at kp + `tokens`: its keyword, and one `$ref` per
    plain reference hop lowering followed."""
    return code("kp + {}", _ptr(*tokens, ref.keyword, *["$ref"] * ref.hops))


def _checked_properties(check: ir.Properties) -> list[tuple[str, ir.Node]]:
    """The properties with something to check: the names a property table lists."""
    return [(prop, sub) for prop, sub in check.entries if not ir.always_true(sub)]


def _literal_prefix(source: str) -> str | None:
    """The text an ECMA-262 pattern like `^x-` requires a string to start with; None for any
    other pattern (one with a metacharacter or escape past its `^`)."""
    match = re.fullmatch(r"\^([A-Za-z0-9_-]+)", source)
    return match.group(1) if match else None


def _number_text(value: ir.Number) -> str:
    """A number for a message (huge integers abbreviated: their digits would hit Python's limit)."""
    if isinstance(value, int) and abs(value) >= 10**100:
        return f"{Decimal(value):.15E}"  # str() of an int this long may pass Python's digit limit
    if isinstance(value, Decimal) and len(str(value)) > 40:  # (integral ones of 4000+ digits)
        return f"{value:.15E}"
    return str(value)


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
