"""The emitter of one module's validation code: the functions of every subschema reached from a
root, their names, the module constants they share, and what the module needs (primitives, `re`,
the linear-time pattern matchers, Decimal). Each subschema becomes up to four functions, made when first named:

- `_vN(x) -> bool`, the fast path (fast.py): type dispatch once, checks specialised to the exact
  built-in type, first failure returns; values of unusual types (Decimal, subclasses) are handed
  to the error path;
- `_eN(x, ip, kp, out, ak)`, the error path (errors.py): collects every error with its locations;
- `_aN(x)` and `_uN(x)`, annotations (annotations.py): the keys or indices evaluated, for
  unevaluatedProperties/unevaluatedItems.

In dynamic mode ($dynamicRef/$recursiveRef) every function also takes the dynamic scope `s`, a
tuple of the ids of the schema resources entered.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from .. import ir
from ..codegen import Code, uses_decimal
from ..plan import Plan
from . import memo
from .names import Constants, Scope
from .tree import (
    Assign,
    Attr,
    BinOp,
    Call,
    Display,
    Expr,
    Name,
    Stmt,
    Subscript,
    Tuple,
    call,
    lit,
    literal_expr,
)

if TYPE_CHECKING:
    from .context import CheckEmitters
    from .fast import Header

S = Name("s")


@dataclass
class Function:
    """One emitted function: its signature (compiler-written text), docstring and body."""

    name: Name
    params: tuple[str, ...]
    doc: Code
    body: list[Stmt]
    returns: str = "bool"


class ModuleEmitter:
    def __init__(
        self,
        graph: dict[str, ir.Node],
        plan: Plan,
        *,
        checks: Mapping[type, CheckEmitters],
        messages: Mapping[str, str],
        dynamic: bool = False,
        dynamic_tables: dict[tuple[str, str], list[tuple[int, str]]] | None = None,
        prefix: str = "",
        absolutes: dict[str, str] | None = None,
    ) -> None:
        # Names are _<prefix>v0, _<prefix>K1...: two emitters (a contract's input and output)
        # can share one module.
        self.prefix = Name("p" + prefix).id[1:] if prefix else ""
        self.graph = graph
        self.plan = plan
        # the keyword registry's tables, handed in by the pipeline: each check class's emitters,
        # and the message templates
        self.checks = checks
        self.messages = messages
        self.dynamic = dynamic
        self.dynamic_tables = dynamic_tables or {}
        self.absolutes = (
            absolutes or {}
        )  # graph key -> absolute URI, for what dynamic references reach
        self.consts = Constants(self.prefix)
        self.primitives: set[str] = set()
        self.format_functions: set[str] = set()  # formats/checkers.py functions it copies
        self.custom_formats: dict[str, tuple[str, str]] = {}  # alias -> (module, function) imported
        self.uses_re = False
        self.matchers: set[str] = set()  # the linear-time matchers (regex/matcher.py) it copies in
        # the ECMA-262 source of each pattern constant (a `search` or a matcher's table), by the
        # constant's name: the C backend builds its automaton from it (native/c_module.py)
        self.pattern_sources: dict[str, str] = {}
        self.uses_decimal = False
        self.has_refs = False  # whether validation can recurse (then RecursionError is caught)
        self.functions: list[Function] = []
        self._names: dict[str, dict[ir.Node, Name]] = {
            "fast": {},
            "error": {},
            "annot": {},
            "eval": {},
        }
        # how the functions of recursive nodes are called (plan/recursion.py), and their definitions
        self._aliases: dict[str, dict[ir.Node, Name]] = {
            "fast": {},
            "error": {},
            "annot": {},
            "eval": {},
        }
        self.aliases: list[Stmt] = []
        self._pending: deque[tuple[str, ir.Node]] = deque()
        self._memos: dict[str, dict[Any, Any]] = {}  # a unit's results that depend on the IR alone
        # module constants that are sets, by name -> what they hold, for simplify.py: the exact
        # type names of a type test's set, the keys (as literals) of a set of property names
        self.type_sets: dict[str, frozenset[str]] = {}
        self.key_sets: dict[str, frozenset[str]] = {}
        self.inline_depth = 0  # inlined copies around the code being emitted
        self.inline_count = 0  # inlined copies made so far in this module (each has its scope)

    # -- what the module needs ---------------------------------------------------------------
    def prim(self, name: str) -> Name:
        """A primitive function (primitives.py) that the module copies in."""
        self.primitives.add(name)
        return Name(name)

    def format_function(self, function: str, module: str = "", attribute: str = "") -> Name:
        """A format or content checker: a function of formats/checkers.py that the module copies
        in, or (with `module`) the user's function it imports as `function`."""
        if module:
            self.custom_formats[function] = (module, attribute)
        else:
            self.format_functions.add(function)
        return Name(function)

    def constant(
        self, kind: str, value: Expr, key: str | None = None, annotation: str = ""
    ) -> Name:
        return self.consts.constant(kind, value, key, annotation)

    def value(self, value: Any) -> Expr:
        """A schema value in the code (a bound, an enum member)."""
        if uses_decimal(value):
            self.uses_decimal = True
        return literal_expr(value)

    def regex(self, python: str, source: str) -> Name:
        """The `search` of a compiled pattern, a module constant (`python` the translation of
        the ECMA-262 pattern `source`)."""
        self.uses_re = True
        compiled = call(Attr(Name("_re"), "compile"), lit(python))
        # keyed by the pattern itself: rendering a long translated pattern for a key is costly
        name = self.constant("P", Attr(compiled, "search"), key=python)
        self.pattern_sources.setdefault(name.id, source)
        return name

    def pattern(self, source: str, value: Expr) -> Expr:
        """True when the ECMA-262 pattern `source` matches the string `value`: str tests, `re`
        or a linear-time matcher, as the pattern's plan says (patterns.py)."""
        from .patterns import pattern_test

        return pattern_test(self, source, value)

    def pattern_notes(self, sources: Iterable[str]) -> list[Stmt]:
        """Comments saying how the code runs these patterns, where that is not with `re`."""
        from .patterns import pattern_notes

        return pattern_notes(self, sources)

    # -- functions ------------------------------------------------------------------------------
    _LETTERS = {"fast": "v", "error": "e", "annot": "a", "eval": "u"}

    def _function(self, which: str, node: ir.Node) -> Name:
        """The name a function of `node` is called by: its own, or for a node that can recurse
        its alias `_v3r` (plan/recursion.py: a native module counts such calls)."""
        names, aliases = self._names[which], self._aliases[which]
        name = names.get(
            node
        )  # (one lookup: a node equal to a key but not the same object is compared deeply)
        if name is None:
            name = names[node] = Name(f"_{self.prefix}{self._LETTERS[which]}{len(names)}")
            self._pending.append((which, node))
            if node in self.plan.recursive:
                aliases[node] = Name(name.id + "r")
                self.aliases.append(memo.alias(self, which, node, aliases[node], name))
        return aliases.get(node, name) if aliases else name

    def fast_fn(self, node: ir.Node) -> Name:
        return self._function("fast", node)

    def error_fn(self, node: ir.Node) -> Name:
        return self._function("error", node)

    def annot_fn(self, node: ir.Node) -> Name:
        return self._function("annot", node)

    def eval_fn(self, node: ir.Node) -> Name:
        return self._function("eval", node)

    def function_name(self, which: str, node: ir.Node) -> Name:
        """The name a function is defined by."""
        return self._names[which][node]

    def late_statements(self) -> list[Stmt]:
        """What follows the functions: the aliases, then the tables that name functions."""
        return self.aliases + self.consts.late

    def run(self, root: ir.Node) -> tuple[Name, Name]:
        """Emit every function reached from `root`; its fast and error functions."""
        from .annotations import annot_function, eval_function
        from .error_path import error_function
        from .fast import fast_function

        makers: dict[str, Callable[[ModuleEmitter, ir.Node], Function]] = {
            "fast": fast_function,
            "error": error_function,
            "annot": annot_function,
            "eval": eval_function,
        }
        fast, error = self.fast_fn(root), self.error_fn(root)
        while self._pending:
            which, node = self._pending.popleft()
            self.functions.append(makers[which](self, node))
        return fast, error

    _PARAMS = {
        "fast": ("x: Any",),
        "error": ("x: Any", "ip: str", "kp: str", "out: list[ValidationError]", "ak: str | None"),
    }

    def params(self, which: str) -> tuple[str, ...]:
        """The parameters of a function (compiler-written text, one a string)."""
        return self._PARAMS[which] + (("s: tuple[int, ...]",) if self.dynamic else ())

    # -- calls ------------------------------------------------------------------------------------
    def scope_args(self) -> tuple[Expr, ...]:
        """The dynamic scope argument of a call, if any."""
        return (S,) if self.dynamic else ()

    def fcall(self, function: Expr, value: Expr) -> Call:
        """A call of a fast (or annotation) function on `value`."""
        return Call(function, (value, *self.scope_args()))

    def call(self, node: ir.Node, value: Expr) -> Call:
        """A call of `node`'s fast path (through plain references, straight to their target)."""
        return self.fcall(self.fast_fn(self.through_refs(node)), value)

    def through_refs(self, node: ir.Node) -> ir.Node:
        target, followed = self.plan.inlining.through_refs(node)
        if followed:
            self.has_refs = True  # a call through it can recurse like the reference would
        return target

    def target(self, check: ir.Check) -> ir.Node:
        return self.graph[check.target]  # type: ignore[attr-defined]

    def inlinable(self, node: ir.Node) -> bool:
        return self.plan.inlining.inlinable(node, self.inline_depth)

    def type_only(self, node: ir.Node) -> bool:
        return self.plan.inlining.type_only(node)

    # -- the dynamic scope -----------------------------------------------------------------------
    def prologue(self, node: ir.Node) -> list[Stmt]:
        """Entering a schema resource extends the dynamic scope."""
        if self.dynamic and node.resource is not None:
            return [Assign(S, BinOp(S, "+", lit((node.resource,))))]
        return []

    def ref_scope(self, check: ir.Check) -> tuple[Expr, ...]:
        """The scope argument of a call through a reference: it enters the target's resource."""
        if not self.dynamic:
            return ()
        enter = check.enter  # type: ignore[attr-defined]
        return (S,) if not enter else (BinOp(S, "+", lit(enter)),)

    def functions_tuple(self, key: str) -> Expr:
        """What a dynamic reference reaching the node at graph `key` calls: its fast, error and
        annotation functions, and its absolute location (for its errors' absolute locations)."""
        node = self.graph[key]
        return Tuple(
            (
                self.fast_fn(node),
                self.error_fn(node),
                self.annot_fn(node),
                lit(self.absolutes.get(key)),
            )
        )

    def dynamic_pick(self, check: ir.Check) -> Expr:
        """The (fast, error, annotations, absolute location) a dynamic reference reaches, chosen at
        run time from a table of the resources that have its anchor."""
        mode, anchor = check.mode or "", check.anchor  # type: ignore[attr-defined]
        table = self.constant(
            "D", Display("dict", ()), key="D" + repr((mode, anchor)), annotation="dict[int, Any]"
        )
        default = self.functions_tuple(check.target)  # type: ignore[attr-defined]
        picker = "_pick_dynamic" if mode == "dynamic" else "_pick_recursive"
        self.late_table(
            table,
            lambda: [
                Assign(Subscript(table, lit(rid)), self.functions_tuple(target_key))
                for rid, target_key in self.dynamic_tables.get((mode, anchor), [])
            ],
        )
        return call(self.prim(picker), S, table, default)

    # -- what a keyword unit asks of the emitter (the units import none of its drivers) ----------
    def memo(self, owner: str) -> dict[Any, Any]:
        """A table of `owner`'s results that depend on the IR alone, kept for the module."""
        return self._memos.setdefault(owner, {})

    def late_table(self, table: Name, fill: Callable[[], Iterable[Stmt]]) -> None:
        """The statements that fill the constant `table` after the functions (it names them),
        written once however often the table is asked for."""
        if table not in self.consts.filled:
            self.consts.filled.add(table)
            self.consts.late.extend(fill())

    def function_pair(self, node: ir.Node) -> Name:
        """A module constant `(fast function, error function)` of `node`, written once (the fast
        one through plain references): a property table's row."""
        return self.consts.pair(self.fast_fn(self.through_refs(node)), self.error_fn(node))

    def new_scope(self) -> Scope:
        """The scope of one more inlined copy (its locals get a suffix of their own)."""
        self.inline_count += 1
        return Scope(str(self.inline_count))

    def next_suffix(self) -> str:
        """The suffix the next inlined copy's scope will have (for a loop variable it is bound to)."""
        return str(self.inline_count + 1)

    def check_in_place(
        self, node: ir.Node, value: Expr | None, var: Name | None = None, scope: Scope | None = None
    ) -> list[Stmt]:
        """`node`'s fast checks on `value` (or the name `var`) without a call (fast.py)."""
        from .fast import check_in_place

        return check_in_place(self, node, value, var, scope)

    def check_under(
        self,
        headers: list[Header],
        node: ir.Node,
        value: Expr | None = None,
        var: Name | None = None,
        scope: Scope | None = None,
    ) -> list[Stmt]:
        """check_in_place nested in `headers` (`if`s and `for`s), when it checks anything."""
        from .fast import check_under

        return check_under(self, headers, node, value, var, scope)

    def passes_by_type(self, node: ir.Node, x: Name, scope: Scope) -> Expr | None:
        """For a subschema that is a type alone: a test that `x` passes it, without a call."""
        from .fast import passes_by_type

        return passes_by_type(self, node, x, scope)

    def alternatives(
        self, schemas: tuple[ir.Node, ...], one: bool, x: Name, scope: Scope
    ) -> list[Stmt]:
        """The fast checks of oneOf (`one`) or anyOf on `x` (alternatives.py)."""
        from .alternatives import alternatives

        return alternatives(self, schemas, one, x, scope)

    def annotations(self, node: ir.Node, value: Expr) -> Expr:
        """A call of `node`'s annotation function on `value`: what it evaluated, or None."""
        return self.fcall(self.annot_fn(node), value)
