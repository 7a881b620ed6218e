"""The C backend's module: a generated module's fast path (its `_vN` functions, as code trees:
generator/emit/tree.py) rendered as C against CPython's C API, in one C file that builds into an
extension module beside the module file (c_build.py).

The extension is the module: its init runs the module's own code (its text compiled, embedded as
marshal data) in the new module's namespace, so every name, class, error path and output format
is the pure module's; then each fast function rendered in C replaces the pure one under every
module-level name that holds it (its alias, `is_valid` where that is the root function). Where
is_valid is the template's function that calls the root (directly or through `_memo_owned`), a C
form of that function replaces it too (PublicIsValid). errors(), best_match() and output() stay
Python and call the C fast path where they call `_vN`.

One semantics: each construct of the tree is rendered as the interpreter runs it (a comparison
through PyObject_RichCompare, a method call through PyObject_VectorcallMethod, iteration through
PyObject_GetIter), with shortcuts taken only where an exact built-in type is tested at run time
and the shortcut is what that type's own method does (a dict's `get`, an int's or a float's
comparison). A function that holds a construct this renderer has no C form for is not rendered:
it calls the pure module's function, so the answer is always the pure module's.

Depth: each C fast function called from C counts one level against Python's recursion limit
(Py_EnterRecursiveCall), as its pure function's frame does, and calls the pure module's
primitives at the same depth; so a deep instance raises RecursionError where the pure module's
does, and the module's is_valid answers it on a fresh stack as it answers the pure path. Before it
goes deeper the C also checks the thread's C stack (stack.h). On Python 3.12 and later,
Py_EnterRecursiveCall counts C calls against a limit of its own, not Python's recursion limit.
"""

from __future__ import annotations

import dataclasses
import marshal
import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Literal, Mapping, TypeGuard

from ..codegen import Code
from ..emit import tree as t
from ..emit.module import Function
from ..regex.automaton import compile_automaton
from ..regex.ecma import parse
from ..regex.matcher import _DfaTable
from ..regex.nfa import TooLarge
from ..regex.nfa import Unsupported as NfaUnsupported
from ..regex.plan import plan_pattern
from ..render.module import Root

# The exact built-in types the fast path tests (`type(x) is dict`), by name.
_TYPES = {
    "dict": "PyDict_Type",
    "list": "PyList_Type",
    "str": "PyUnicode_Type",
    "int": "PyLong_Type",
    "float": "PyFloat_Type",
    "bool": "PyBool_Type",
    "tuple": "PyTuple_Type",
    "type": "PyType_Type",
}
_RICH = {"==": "Py_EQ", "!=": "Py_NE", "<": "Py_LT", "<=": "Py_LE", ">": "Py_GT", ">=": "Py_GE"}
_C_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_NUMBER_OPS = {"+": "PyNumber_Add", "-": "PyNumber_Subtract", "%": "PyNumber_Remainder"}
# An int literal compared in C with a length (a Py_ssize_t) when it lies in this range.
_SMALL = 2**62
# An int literal in a count held in C (a sum of two cannot overflow).
_SIZE_LITERAL = 2**31
# Ints this small are exact as C doubles.
_EXACT_DOUBLE = 2**53
# The size of an exact container, read from the object.
_SIZE_MACROS = {
    "PyDict_Type": "PyDict_GET_SIZE",
    "PyList_Type": "PyList_GET_SIZE",
    "PyUnicode_Type": "PyUnicode_GET_LENGTH",
    "PyTuple_Type": "PyTuple_GET_SIZE",
}
# The built-in types a module-level set of types may hold, by their bits in c_runtime.h's
# sl_builtin_type_in.
_TYPE_BITS = {
    "bool": "SL_TYPE_BOOL",
    "dict": "SL_TYPE_DICT",
    "float": "SL_TYPE_FLOAT",
    "int": "SL_TYPE_INT",
    "list": "SL_TYPE_LIST",
    "str": "SL_TYPE_STR",
    "tuple": "SL_TYPE_TUPLE",
    "type": "SL_TYPE_TYPE",
    "type(None)": "SL_TYPE_NONE",
}
# The str methods of no argument, or one, that C tests on an exact str (c_runtime.h), by the
# C call that takes the receiver, the argument if any, and the method's name.
_STR_METHODS = {
    "isascii": "sl_isascii",
    "isprintable": "sl_isprintable",
    "isdigit": "sl_isdigit",
    "isalpha": "sl_isalpha",
    "isalnum": "sl_isalnum",
    "islower": "sl_islower",
    "isupper": "sl_isupper",
    "startswith": "sl_startswith",
    "endswith": "sl_endswith",
}
# a local or temporary set (each is set so, passes apart)
_SET = re.compile(r"Py_XSETREF\((\w+), ")
# Parts of a C string literal (compilers limit one literal's length).
_CHUNK = 2000


class Unsupported(Exception):
    """A construct with no C form here: its function calls the pure module's."""


def is_fast(function: Function) -> bool:
    """A fast-path function of one value (the C backend renders these)."""
    return (
        function.returns == "bool"
        and function.params == ("x: Any",)
        and function.name.id.startswith("_")
    )


@dataclass
class Symbols:
    """What the C module fetches at init: module-level objects by name (else builtins), literal
    values by their Python text, and interned attribute names; each a slot of a static array."""

    globals: dict[str, int] = field(default_factory=dict)
    constants: dict[str, int] = field(default_factory=dict)
    names: dict[str, int] = field(default_factory=dict)

    def global_(self, name: str) -> str:
        return f"sl_g[{self.globals.setdefault(name, len(self.globals))}]"

    def constant(self, text: str) -> str:
        return f"sl_k[{self.constants.setdefault(text, len(self.constants))}]"

    def name(self, text: str) -> str:
        return f"sl_n[{self.names.setdefault(text, len(self.names))}]"


@dataclass(frozen=True)
class _PropertyCall:
    """`if "k" in d: [n = n + 1;] if not f(d["k"]): return False` (CFunction.property_call): the
    dict's name, the key, the count's name (or None) and the callee's C symbol."""

    dict_name: str
    key: t.Lit
    counted: str | None
    callee: str


@dataclass
class _Value:
    """A rendered expression: `kind` "obj" (a borrowed PyObject*, valid until the function
    returns), "bool" (a C int, 0 or 1) or "size" (a Py_ssize_t)."""

    kind: str
    text: str


class CFunction:
    """One fast function as C: `static int sl_<name>(PyObject *x, const straightline_stack
    *sl_stack)` (sl_stack: the thread's, passed down), 1 (valid), 0, or -1 with an
    exception set. Every object it holds is in a local or temporary released at its one exit."""

    def __init__(self, module: CModule, function: Function) -> None:
        self.module = module
        self.function = function
        self.symbol = module.symbol(function.name.id)
        self.locals: dict[str, str] = {}
        self.temps = 0
        self.ints = 0
        self.lines: list[str] = []
        # the locals and temporaries in the order the lines written so far first set them: a
        # return outside loops releases only those (`rel_<count>`, the release of the first
        # <count>; none: `released`), as no line after it has run
        self.set_order: dict[str, None] = {}
        self.release_labels: set[int] = set()
        self.skips_releases = False
        # the returns inside the loop being written, each its line's index: they release what
        # the whole outermost loop sets (an earlier round may have run any of it)
        self.loop_returns: list[int] = []
        self.depth = 1
        self.loops: list[str] = []  # the `broken` flag of each enclosing for loop
        # the locals assigned on every path to the statement being rendered (no check when read)
        self.assigned: set[str] = set()
        # names whose exact type is known where the code being rendered runs (`type(n) is dict`
        # tested), by the C type; and the locals holding a name's type (`t4 = type(x4)`)
        self.exact: dict[str, str] = {}
        self.type_of: dict[str, str] = {}
        # locals only ever assigned counts (`found = found + 1`, `size = len(x)`): C sizes
        self.sizes = _size_locals(function.body)
        # (dict name, key text) -> the C variable holding the item a `key in d` test found
        self.found_items: dict[tuple[str, str], str] = {}
        self.used_sizes: set[str] = set()
        # the items one PyDict_Next pass read (prefetch): (dict name, key) -> (site, slot)
        self.prefetched: dict[tuple[str, str], tuple[int, int]] = {}
        self.sites: list[int] = []  # each pass's number of keys
        self.passes: list[CUnit] = []  # each pass's function (pass_function)
        # the locals a table look-up assigns somewhere (`f = _F3.get(k)`): each has a C index
        # W_<name> of the entry found in C (-1: none, or looked up as a dict)
        self.table_targets = _table_targets(function.body, module.tables)
        # where the code being rendered runs, the locals that hold what a table look-up found,
        # by the table's name
        self.table_locals: dict[str, str] = {}

    # -- output --------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)
        if "Py_XSETREF(" in line:
            self.set_order.update(dict.fromkeys(_SET.findall(line)))

    def release_to(self, count: int) -> str:
        """The label that releases the first `count` locals and temporaries set."""
        if not count:
            self.skips_releases = True
            return "released"
        self.release_labels.add(count)
        return f"rel_{count}"

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps - 1}"

    def int_var(self) -> str:
        self.ints += 1
        name = f"b{self.ints - 1}"
        self.emit(f"int {name};")
        return name

    def owned(self, expression: str) -> str:
        """A new reference (or NULL with an exception set) held in a fresh temporary."""
        temp = self.temp()
        self.emit(f"Py_XSETREF({temp}, {expression});")
        self.emit(f"if ({temp} == NULL) goto error;")
        return temp

    def render(self) -> list[str]:
        body = t.without_comments(self.function.body)
        if not body or not isinstance(body[-1], t.Return):
            raise Unsupported("a body that can end without a return")
        self.block(body)
        owned = [f"L_{name}" for name in self.locals.values()] + [
            f"t{i}" for i in range(self.temps)
        ]
        head = [f"static {_fast_declarator(self.symbol)} {{", "    int result = -1;"]
        head += [f"    PyObject *{name} = NULL;" for name in owned]
        head += [f"    Py_ssize_t S_{name} = PY_SSIZE_T_MIN;" for name in sorted(self.used_sizes)]
        head += [
            f"    Py_ssize_t W_{self.locals[name]} = -1;"
            for name in sorted(self.table_targets)
            if name in self.locals
        ]
        for site, count in enumerate(self.sites):
            head.append(f"    PyObject *P{site}[{count}];  /* (read only after a pass set it) */")
            head.append(f"    int ok{site} = 0;")
            head.append(f"    uint64_t V{site} = 0;")
        tail = ["    goto done;", "  error:", "    result = -1;", "  done:"]
        order = list(self.set_order)  # (each a local or temporary of `owned`)
        tail += [f"    Py_XDECREF({name});" for name in owned if name not in self.set_order]
        for count in range(len(order), 0, -1):  # (the last set first: a return's label enters)
            if count in self.release_labels:
                tail.append(f"  rel_{count}:")
            tail.append(f"    Py_XDECREF({order[count - 1]});")
        if self.skips_releases:
            tail.append("  released:")
        tail += [f"    (void)ok{site}; (void)V{site};" for site in range(len(self.sites))]
        tail += ["    return result;", "}"]
        return head + self.lines + tail

    # -- statements ----------------------------------------------------------------------------
    def block(self, block: Iterable[t.Stmt]) -> None:
        stmts = list(block)
        index = 0
        while index < len(stmts):
            run = self.property_run(stmts, index)
            if len(run) >= 2:
                self.property_calls(run)
                index += len(run)
                self.found_items.clear()
                continue
            stmt = stmts[index]
            self.statement(stmt)
            if not _runs_no_code(stmt):
                self.found_items.clear()  # (code that ran may have changed a dict)
            index += 1

    def property_call(self, stmt: t.Stmt) -> _PropertyCall | None:
        """`if "k" in d: [n = n + 1;] if not f(d["k"]): return False`, d a dict known exact, n a
        count, f a fast function called plainly (sl_call_...): what property_calls needs of it."""
        if not (isinstance(stmt, t.If) and len(stmt.branches) == 1 and not stmt.orelse):
            return None
        test, body = stmt.branches[0]
        tested = self.key_in_exact_dict(test)
        if tested is None:
            return None
        key, dict_name = tested
        counted = None
        if len(body) == 2 and isinstance(body[0], t.Assign):
            target, value = body[0].target, body[0].value
            if not (
                isinstance(target, t.Name)
                and target.id in self.sizes
                and isinstance(value, t.BinOp)
                and value.op == "+"
                and value.left == target
                and isinstance(value.right, t.Lit)
                and value.right.code.text == "1"
            ):
                return None
            counted, body = target.id, body[1:]
        if len(body) != 1 or not isinstance(body[0], t.If):
            return None
        inner = body[0]
        if len(inner.branches) != 1 or inner.orelse:
            return None
        call, returned = inner.branches[0]
        if not (
            isinstance(call, t.Not)
            and isinstance(call.operand, t.Call)
            and isinstance(call.operand.func, t.Name)
            and len(call.operand.args) == 1
            and returned == (t.Return(t.Lit(Code("False"))),)
        ):
            return None
        func, (item,) = call.operand.func, call.operand.args
        if not (
            isinstance(func, t.Name)
            and isinstance(item, t.Subscript)
            and item.value == t.Name(dict_name)
            and isinstance(item.index, t.Lit)
            and item.index.code.text == key.code.text
        ):
            return None
        if func.id in self.locals or func.id in self.table_locals:
            return None
        if self.module.memo(func.id) is not None:
            return None
        callee = self.module.target(func.id)
        if callee is None:
            return None
        return _PropertyCall(dict_name, key, counted, self.module.symbol(callee))

    def property_run(self, stmts: list[t.Stmt], start: int) -> list[_PropertyCall]:
        """The property calls from `start` on, of one dict and one count, whose keys one pass read
        (or none did)."""
        run: list[_PropertyCall] = []
        for stmt in stmts[start:]:
            found = self.property_call(stmt)
            if found is None or (
                run and (found.dict_name, found.counted) != (run[0].dict_name, run[0].counted)
            ):
                break
            run.append(found)
        sites = {
            self.prefetched.get((c.dict_name, str.__str__(c.key.value)), (None, 0))[0] for c in run
        }
        return run if len(sites) == 1 else []

    def property_calls(self, run: list[_PropertyCall]) -> None:
        """A run of property calls (property_call) as a table walked by one loop: each entry the
        key's slot in the pass, its constant and the callee; the answers, the order and the
        look-ups are the statements' (docs/native.md, "Property calls as a table")."""
        n = len(self.lines)
        dict_ = self.name(run[0].dict_name)
        rows = []
        site = None
        for call in run:
            constant = self.literal(call.key.code.text)
            number = self.module.symbols.constants[call.key.code.text]
            found = self.prefetched.get((call.dict_name, str.__str__(call.key.value)))
            site, slot = found if found is not None else (None, -1)
            rows.append(f"{{{slot}, {number}, {call.callee}, SL_COUNTS_{call.callee}}}")
            assert constant == f"sl_k[{number}]"
        table, item, index, answer = f"R{n}", f"q{n}", f"i{n}", f"c{n}"
        self.emit(f"static const sl_property_call {table}[{len(rows)}] = {{{', '.join(rows)}}};")
        self.emit(f"for (int {index} = 0; {index} < {len(rows)}; {index}++) {{")
        self.depth += 1
        self.emit(f"PyObject *{item};")
        lookup = (
            f"{{ {item} = sl_dict_find({dict_}, sl_k[{table}[{index}].key], "
            f"sl_kh[{table}[{index}].key]); "
            f"if ({item} == NULL && PyErr_Occurred()) goto error; }}"
        )
        if site is not None:
            self.emit(
                f"if (ok{site} < 0) ok{site} = sl_pass_{self.symbol}_{site}({dict_}, P{site}, "
                f"&V{site});"
            )
            self.emit(
                f"if (ok{site} > 0 && SL_DICT_VERSION({dict_}) == V{site}) "
                f"{item} = P{site}[{table}[{index}].slot];"
            )
            self.emit("else " + lookup)
        else:
            self.emit(lookup)
        self.emit(f"if ({item} != NULL) {{")
        self.depth += 1
        if run[0].counted is not None:
            counted = run[0].counted
            self.emit(f"S_{counted} = (S_{counted} + ((Py_ssize_t)1));")
            self.used_sizes.add(counted)
        # (as the callee's sl_call_ form calls it: counted, unless it is the pure module's)
        self.emit(f"if ({table}[{index}].counts && sl_enter(sl_stack)) goto error;")
        self.emit(f"int {answer} = {table}[{index}].call({item}, sl_stack);")
        self.emit(f"if ({table}[{index}].counts) Py_LeaveRecursiveCall();")
        self.emit(f"if ({answer} < 0) goto error;")
        self.emit(f"if (!{answer}) {{")
        self.nested([t.Return(t.Lit(Code("False"), False))])
        self.emit("}")
        self.depth -= 1
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    def nested(self, block: Iterable[t.Stmt]) -> None:
        self.depth += 1
        self.block(block)
        self.depth -= 1

    def statement(self, stmt: t.Stmt) -> None:
        if isinstance(stmt, t.If):
            self.if_chain(list(stmt.branches), stmt.orelse)
        elif isinstance(stmt, t.Return):
            if stmt.value is None:
                raise Unsupported("return without a value")
            test = self.test(stmt.value)
            self.emit(f"result = {test};")
            if self.loops:  # (its label is known when the outermost loop is written)
                self.loop_returns.append(len(self.lines))
                self.emit("goto done;")
            else:
                self.emit(f"goto {self.release_to(len(self.set_order))};")
        elif isinstance(stmt, t.Assign):
            self.assignment(stmt)
        elif isinstance(stmt, t.ExprStmt):
            self.value(stmt.value)
        elif isinstance(stmt, t.For):
            self.for_loop(stmt)
        elif isinstance(stmt, t.Break):
            if not self.loops:
                raise Unsupported("break outside a loop")
            self.emit(f"{self.loops[-1]} = 1;")
            self.emit("break;")
        elif isinstance(stmt, (t.Pass, t.Comment)):
            pass
        else:
            raise Unsupported(type(stmt).__name__)

    def assignment(self, stmt: t.Assign) -> None:
        target, value = stmt.target, stmt.value
        if isinstance(target, t.Name) and target.id in self.sizes:
            self.forget(target.id)
            self.emit(f"S_{target.id} = {self.size(value)};")
            self.used_sizes.add(target.id)
            self.assigned.add(target.id)
            return
        if isinstance(target, t.Tuple) and all(isinstance(e, t.Name) for e in target.elements):
            # `a, b = x`: an exact list or tuple of that length unpacked in place, as
            # UNPACK_SEQUENCE does; anything else as sl_unpack (the iteration Python makes)
            # (an exact list's items read in place: no tuple made, none for the collector)
            source = self.obj(value)
            count = len(target.elements)
            items, pair = f"u{len(self.lines)}", self.temp()
            self.emit(f"PyObject **{items};")
            self.emit(
                f"if (Py_IS_TYPE({source}, &PyList_Type) && PyList_GET_SIZE({source}) == {count}) "
                f"{items} = ((PyListObject *){source})->ob_item;"
            )
            self.emit(f"else {{ Py_XSETREF({pair}, sl_unpack({source}, {count}));")
            self.emit(f"    if ({pair} == NULL) goto error;")
            self.emit(f"    {items} = &PyTuple_GET_ITEM({pair}, 0); }}")
            for index, element in enumerate(target.elements):
                self.assign(element, f"{items}[{index}]")
            return
        if self.table_lookup(target, value):
            return
        self.assign(target, self.obj(value))
        if (
            isinstance(target, t.Name)
            and isinstance(value, t.Call)
            and isinstance(value.func, t.Name)
            and value.func.id == "type"
            and value.func.id not in self.locals
            and len(value.args) == 1
            and isinstance(value.args[0], t.Name)
        ):
            self.type_of[target.id] = value.args[0].id

    def table_lookup(self, target: t.Expr, value: t.Expr) -> bool:
        """`f = _F3.get(k)`, `_F3` a module table (CModule.tables): an exact str key's entry
        found in C by its text (CTable's find function) while the table is the one its init
        read (its dict's version); the entry's number kept in W_f for the call of what it holds
        (table_call). Any other key, or a table changed since, is looked up as the dict's `get`
        looks it up. Whether it was rendered so."""
        if not (
            isinstance(target, t.Name)
            and target.id in self.table_targets
            and isinstance(value, t.Call)
            and isinstance(value.func, t.Attr)
            and value.func.attr == "get"
            and isinstance(value.func.value, t.Name)
            and value.func.value.id not in self.locals
            and value.func.value.id in self.module.tables
            and len(value.args) == 1
        ):
            return False
        table_name = value.func.value.id
        number = self.module.use_table(table_name)
        table, key = self.name(table_name), self.obj(value.args[0])
        local = self.local(target)
        self.forget(target.id)
        index = "W_" + self.locals[target.id]
        self.emit(f"if (sl_table_key({table}, sl_tv[{number}], {key})) {{")
        self.emit(f"    {index} = sl_tfind{number}({key});")
        self.emit(
            f"    Py_XSETREF({local}, Py_NewRef({index} >= 0 ? sl_te{number}[{index}] : Py_None));"
        )
        self.emit("} else {")
        self.emit(f"    {index} = -1;")
        get = self.module.symbols.name("get")
        self.emit(f"    Py_XSETREF({local}, sl_dict_get1({table}, {key}, {get}));")
        self.emit(f"    if ({local} == NULL) goto error;")
        self.emit("}")
        self.assigned.add(target.id)
        self.table_locals[target.id] = table_name
        return True

    def table_call(self, expr: t.Call) -> _Value | None:
        """`f[0](v)` (a property table's pair) or `f(x)` (a dispatch table's function), `f`
        what a table look-up found here: the entry's C function called directly where the
        look-up was C's and the entry has a C form, counting the level its call would (as
        call() does); else the call as the interpreter makes it."""
        func = expr.func
        if isinstance(func, t.Subscript) and isinstance(func.value, t.Name):
            name, form = func.value.id, "pair"
            first = func.index
            if not (isinstance(first, t.Lit) and type(first.value) is int and first.value == 0):
                return None
        elif isinstance(func, t.Name):
            name, form = func.id, "function"
        else:
            return None
        table_name = self.table_locals.get(name)
        if table_name is None or len(expr.args) != 1:
            return None
        if self.module.tables[table_name].kind != form:
            return None
        number = self.module.use_table(table_name)
        self.name(name)  # (unbound: raised as the pure module raises it)
        index = "W_" + self.locals[name]
        found = self.int_var()
        self.emit(f"if ({index} >= 0) {{")
        self.depth += 1
        self.emit(f"{found} = sl_tcall{number}({index}, {self.obj(expr.args[0])}, sl_stack);")
        self.depth -= 1
        self.emit("} else {")
        self.emit(f"    {found} = -2;")
        self.emit("}")
        self.emit(f"if ({found} == -2) {{")  # (no C form: the call)
        self.depth += 1
        callee = self.obj(func)
        result = self.vectorcall(callee, [self.obj(a) for a in expr.args])
        self.emit(f"{found} = PyObject_IsTrue({result});")
        self.depth -= 1
        self.emit("}")
        self.emit(f"if ({found} < 0) goto error;")
        return _Value("bool", found)

    def forget(self, name: str) -> None:
        """What was known of a name before it is assigned again."""
        self.exact.pop(name, None)
        self.table_locals.pop(name, None)
        self.type_of.pop(name, None)
        for holder in [h for h, held in self.type_of.items() if held == name]:
            del self.type_of[holder]
        for key in [k for k in self.found_items if k[0] == name]:
            del self.found_items[key]

    def facts(self, test: t.Expr) -> dict[str, str]:
        """The exact types a test being true tells: `type(n) is dict`, `t4 is float` where
        `t4 = type(x4)`, and each operand of an `and`."""
        while isinstance(test, t.Paren):
            test = test.inner
        if isinstance(test, t.BoolOp) and test.op == "and":
            found: dict[str, str] = {}
            for value in test.values:
                found.update(self.facts(value))
            return found
        if not (
            isinstance(test, t.Compare)
            and test.op == "is"
            and isinstance(test.right, t.Name)
            and test.right.id in _TYPES
            and test.right.id not in self.locals
        ):
            return {}
        left = test.left
        if (
            isinstance(left, t.Call)
            and isinstance(left.func, t.Name)
            and left.func.id == "type"
            and left.func.id not in self.locals
            and len(left.args) == 1
            and isinstance(left.args[0], t.Name)
        ):
            return {left.args[0].id: _TYPES[test.right.id]}
        if isinstance(left, t.Name) and left.id in self.type_of:
            return {self.type_of[left.id]: _TYPES[test.right.id]}
        return {}

    def arm(self, facts: dict[str, str], body: tuple[t.Stmt, ...]) -> None:
        """A branch's body, with what its test tells; afterwards nothing known of a name it
        assigns."""
        exact, type_of, prefetched = dict(self.exact), dict(self.type_of), dict(self.prefetched)
        self.exact.update(facts)
        self.depth += 1
        assigned = _assigned_names(body)
        for name, known in facts.items():
            if known == "PyDict_Type" and name not in assigned:
                self.prefetch(name, body)
        self.block(body)
        self.depth -= 1
        self.exact, self.type_of, self.prefetched = exact, type_of, prefetched
        for name in _assigned_names(body):
            self.forget(name)

    def prefetch(self, name: str, body: tuple[t.Stmt, ...]) -> None:
        """One PyDict_Next pass over the exact dict `name` that reads every str-literal key the
        branch looks up in it (`d.get("k", ...)`, `"k" in d`, `d["k"]`): a switch on the key's
        length, then its characters, in a function of its own (pass_function) that the branch's
        first look-up calls, so a branch that decides before it looks a key up (`len(x) != 17`)
        never walks the dict. Each look-up then reads the item the pass found, while the dict's
        version is the one the pass saw (a dict changed since is looked up again). Where a key is
        not an exact str (its own __eq__ may answer), or the dict is much larger than the keys
        read, the pass fails: each look-up is the dict's."""
        keys = sorted(_literal_keys(name, body))
        if len(keys) < 2:
            return
        site = len(self.sites)
        self.sites.append(len(keys))
        for slot, key in enumerate(keys):
            self.prefetched[(name, key)] = (site, slot)
        self.passes.append(self.pass_function(site, keys))
        # (-1: not passed yet; the slots of an earlier entry are cleared by the next pass)
        self.emit(f"ok{site} = -1;")

    def pass_function(self, site: int, keys: list[str]) -> CUnit:
        """`sl_pass_<symbol>_<site>(d, P, V)`: the pass of `site` over the exact dict `d`, each
        key's item in its slot of P and the dict's version in V; 1, or 0 where the pass cannot
        stand for the look-ups. Raises nothing. An item is borrowed, as a look-up's is: it is
        read only while the dict's version is V, so while the dict holds it."""
        by_length: dict[int, list[tuple[int, str]]] = {}
        for slot, key in enumerate(keys):
            by_length.setdefault(len(key), []).append((slot, key))
        lines = [
            f"    for (int i = 0; i < {len(keys)}; i++) P[i] = NULL;",
            f"    if (!SL_PREFETCH || PyDict_GET_SIZE(d) > {2 * len(keys) + 8}) return 0;",
            "    Py_ssize_t position = 0;",
            "    PyObject *key, *item;",
            "    while (PyDict_Next(d, &position, &key, &item)) {",
            "        if (!PyUnicode_CheckExact(key)) goto fail;",
            # (a non-ASCII key equals no ASCII literal; a legacy string: looked up instead)
            "        if (!PyUnicode_IS_COMPACT_ASCII(key)) "
            "{ if (PyUnicode_IS_COMPACT(key)) continue; goto fail; }",
            "        const char *text = (const char *)PyUnicode_1BYTE_DATA(key);",
            "        switch (PyUnicode_GET_LENGTH(key)) {",
        ]
        for length, slots in sorted(by_length.items()):
            lines.append(f"        case {length}:")
            for slot, key in slots:
                literal = _c_bytes(key.encode("ascii"))
                lines.append(
                    f"            if (memcmp(text, {literal}, {length}) == 0) "
                    f"{{ P[{slot}] = item; break; }}"
                )
            lines.append("            break;")
        lines += [
            "        }",
            "    }",
            "    *V = SL_DICT_VERSION(d);",
            "    return 1;",
            "  fail:",
            "    return 0;",
            "}",
        ]
        declarator = f"int sl_pass_{self.symbol}_{site}(PyObject *d, PyObject **P, uint64_t *V)"
        return _static("function", declarator, " {", *lines)

    def prefetched_item(self, name: str, key: t.Lit) -> str | None:
        """A borrowed item-or-NULL of `name[key]` (key: a str literal) that a pass read, looked
        up again where the pass did not run or the dict changed since; else None."""
        key_value, text = str.__str__(key.value), key.code.text  # (not a str subclass's hash)
        found = self.prefetched.get((name, key_value))
        if found is None:
            return None
        site, slot = found
        dict_, constant = self.name(name), self.literal(text)
        item = f"q{len(self.lines)}"
        self.emit(f"PyObject *{item};")
        self.emit(
            f"if (ok{site} < 0) ok{site} = sl_pass_{self.symbol}_{site}({dict_}, P{site}, &V{site});"
        )
        self.emit(
            f"if (ok{site} > 0 && SL_DICT_VERSION({dict_}) == V{site}) {item} = P{site}[{slot}];"
        )
        self.emit(
            f"else {{ {item} = sl_dict_find({dict_}, {constant}, {_hash_of(constant)}); "
            f"if ({item} == NULL && PyErr_Occurred()) goto error; }}"
        )
        return item

    def if_chain(
        self, branches: list[tuple[t.Expr, tuple[t.Stmt, ...]]], orelse: tuple[t.Stmt, ...]
    ) -> None:
        test, body = branches[0]
        found_items = dict(self.found_items)
        self.emit(f"if ({self.found_item_test(test) or self.test(test)}) {{")
        facts = self.facts(test)
        before = set(self.assigned)
        self.arm(facts, body)
        self.found_items = found_items
        arm, self.assigned = self.assigned, set(before)
        if len(branches) > 1:
            self.emit("} else {")
            self.depth += 1
            self.if_chain(branches[1:], orelse)
            self.depth -= 1
            self.emit("}")
        elif orelse:
            self.emit("} else {")
            self.arm({}, orelse)
            self.emit("}")
        else:
            self.emit("}")
        self.assigned &= arm  # (assigned after the chain: on every arm's path)

    def local(self, name: t.Expr) -> str:
        if not isinstance(name, t.Name) or name.id == "x":
            raise Unsupported("an assignment to something other than a local name")
        return "L_" + self.locals.setdefault(name.id, name.id)

    def assign(self, target: t.Expr, value: str) -> None:
        local = self.local(target)
        self.forget(target.id)  # type: ignore[attr-defined]
        made = (f"{'    ' * self.depth}if ({value} == NULL) goto error;", f"Py_XSETREF({value}, ")
        if (
            value == f"t{self.temps - 1}"
            and len(self.lines) >= 2
            and self.lines[-1] == made[0]
            and self.lines[-2].lstrip().startswith(made[1])
        ):
            # the value was just made into its own temporary: made into the local instead
            self.temps -= 1
            if next(reversed(self.set_order), None) == value:  # (first set there: now nowhere)
                del self.set_order[value]
            self.lines[-2] = self.lines[-2].replace(made[1], f"Py_XSETREF({local}, ", 1)
            self.lines[-1] = f"{'    ' * self.depth}if ({local} == NULL) goto error;"
            self.set_order.setdefault(local)
        else:
            self.emit(f"Py_XSETREF({local}, Py_NewRef({value}));")
        if target.id in self.table_targets:  # type: ignore[attr-defined]
            # (no entry found in C: what it holds now is called as the interpreter calls it)
            self.emit(f"W_{self.locals[target.id]} = -1;")  # type: ignore[attr-defined]
        self.assigned.add(target.id)  # type: ignore[attr-defined]

    def for_loop(self, stmt: t.For) -> None:
        """A for loop. An exact dict is walked with PyDict_Next (its keys, or with `.items()` /
        `.values()` its pairs or values, a change of size an error as the dict's iterator says),
        an exact list by index (as the list's iterator does); anything else through
        PyObject_GetIter. Where the source is known exact (its type tested), only its way is
        written."""
        source, view = stmt.source, ""
        if (
            isinstance(source, t.Call)
            and isinstance(source.func, t.Attr)
            and not source.args
            and source.func.attr in ("items", "values")
        ):
            view, source = source.func.attr, source.func.value
        known = self.exact.get(source.id) if isinstance(source, t.Name) else None
        container = self.obj(source)
        # (the body runs again after it assigns: nothing known of what it or the loop assigns)
        for assigned in _assigned_names([stmt]):
            self.forget(assigned)
        self.found_items.clear()
        keep, iterator, item, pair = self.temp(), self.temp(), self.temp(), self.temp()
        n = len(self.lines)
        mode, position, size, first, second, broken = (
            f"{s}{n}" for s in ("mode", "pos", "size", "e", "f", "broken")
        )
        # the ways this loop may walk: 1 an exact dict, 2 an exact list (no view), 0 an iterator
        if known == "PyDict_Type":
            modes = {1}
        elif known == "PyList_Type" and not view:
            modes = {2}
        else:
            modes = {0, 1} if view else {0, 1, 2}
        if len(modes) > 1:
            list_mode = "" if view else f" : Py_IS_TYPE({container}, &PyList_Type) ? 2"
            kinds = f"Py_IS_TYPE({container}, &PyDict_Type) ? 1{list_mode} : 0"
            self.emit(f"int {broken} = 0, {mode} = {kinds};")
        else:
            self.emit(f"int {broken} = 0;")
        self.emit(f"Py_ssize_t {position} = 0, {size} = 0;")
        if modes != {0}:
            if len(modes) > 1:
                self.emit(f"if ({mode}) {{")
                self.depth += 1
            if view and 1 in modes:
                self.emit("if (sl_counted()) goto error;")  # (the pure module's items()/values())
            self.emit(f"Py_XSETREF({keep}, Py_NewRef({container}));")
            if modes == {1}:
                self.emit(f"{size} = PyDict_GET_SIZE({keep});")
            elif 1 in modes:
                self.emit(f"{size} = {mode} == 1 ? PyDict_GET_SIZE({keep}) : 0;")
            if len(modes) > 1:
                self.depth -= 1
                self.emit("} else {")
        if 0 in modes:
            self.depth += 1
            if view:
                name = self.module.symbols.name(view)
                self.emit(f"Py_XSETREF({keep}, sl_method({name}, &{container}, 1));")
                self.emit(f"if ({keep} == NULL) goto error;")
                self.emit(f"Py_XSETREF({iterator}, PyObject_GetIter({keep}));")
            else:
                self.emit(f"Py_XSETREF({iterator}, PyObject_GetIter({container}));")
            self.emit(f"if ({iterator} == NULL) goto error;")
            self.depth -= 1
            self.emit("}")
        self.emit("for (;;) {")
        self.depth += 1
        before = set(self.assigned)
        self.emit(f"PyObject *{first} = NULL, *{second} = NULL;")
        ways = []
        if 1 in modes:
            dict_way = [
                f"if (PyDict_GET_SIZE({keep}) != {size}) {{ sl_dict_changed(); goto error; }}",
                f"if (!PyDict_Next({keep}, &{position}, &{first}, &{second})) break;",
            ]
            if view == "values":
                dict_way.append(f"{first} = {second};")
            elif view == "items" and not isinstance(stmt.target, t.Tuple):
                dict_way.append(f"Py_XSETREF({pair}, PyTuple_Pack(2, {first}, {second}));")
                dict_way.append(f"if ({pair} == NULL) goto error;")
                dict_way.append(f"{first} = {pair};")
            ways.append((1, dict_way))
        if 2 in modes:
            list_way = [
                f"if ({position} >= PyList_GET_SIZE({keep})) break;",
                f"{first} = PyList_GET_ITEM({keep}, {position});",
                f"{position}++;",
            ]
            ways.append((2, list_way))
        if 0 in modes:
            iterator_way = [
                f"Py_XSETREF({item}, PyIter_Next({iterator}));",
                f"if ({item} == NULL) {{ if (PyErr_Occurred()) goto error; break; }}",
                f"{first} = {item};",
            ]
            ways.append((0, iterator_way))
        for index, (number, lines) in enumerate(ways):
            if len(ways) > 1:
                if index == 0:
                    self.emit(f"if ({mode} == {number}) {{")
                elif index < len(ways) - 1:
                    self.emit(f"}} else if ({mode} == {number}) {{")
                else:
                    self.emit("} else {")
            for line in lines:
                self.emit(("    " if len(ways) > 1 else "") + line)
        if len(ways) > 1:
            self.emit("}")
        self.emit(f"(void){second};")
        target = stmt.target
        if isinstance(target, t.Name):
            self.assign(target, first)
        elif isinstance(target, t.Tuple) and all(isinstance(e, t.Name) for e in target.elements):
            count = len(target.elements)
            if view == "items" and count == 2:
                if modes != {1}:  # (an exact dict's pass gave the pair)
                    self.emit(f"if ({mode} != 1) {{")
                    self.emit(f"    Py_XSETREF({pair}, sl_unpack({first}, 2));")
                    self.emit(f"    if ({pair} == NULL) goto error;")
                    self.emit(f"    {first} = PyTuple_GET_ITEM({pair}, 0);")
                    self.emit(f"    {second} = PyTuple_GET_ITEM({pair}, 1);")
                    self.emit("}")
                self.assign(target.elements[0], first)
                self.assign(target.elements[1], second)
            else:
                self.emit(f"Py_XSETREF({pair}, sl_unpack({first}, {count}));")
                self.emit(f"if ({pair} == NULL) goto error;")
                for index, element in enumerate(target.elements):
                    self.assign(element, f"PyTuple_GET_ITEM({pair}, {index})")
        else:
            raise Unsupported("a loop target other than names")
        self.loops.append(broken)
        self.block(stmt.body)
        self.loops.pop()
        if not self.loops:  # (the outermost loop: its returns release all it may have set)
            label = self.release_to(len(self.set_order))
            for index in self.loop_returns:
                self.lines[index] = self.lines[index].replace("goto done;", f"goto {label};")
            self.loop_returns.clear()
        self.depth -= 1
        self.emit("}")
        self.assigned = before  # (the body may not run)
        if stmt.orelse:
            self.emit(f"if (!{broken}) {{")
            self.nested(stmt.orelse)
            self.emit("}")
            self.assigned = set(before)
        self.emit(f"(void){broken};")

    # -- expressions -----------------------------------------------------------------------------
    def obj(self, expr: t.Expr) -> str:
        found = self.value(expr)
        if found.kind == "obj":
            return found.text
        if found.kind == "bool":
            return f"({found.text} ? Py_True : Py_False)"
        return self.owned(f"PyLong_FromSsize_t({found.text})")

    def test(self, expr: t.Expr) -> str:
        """A C int (0 or 1) that is the expression's truth."""
        if isinstance(expr, t.BoolOp):
            return self.bool_op(expr)
        if isinstance(expr, t.Name) and self.exact.get(expr.id) in _SIZE_MACROS:
            return f"({_SIZE_MACROS[self.exact[expr.id]]}({self.name(expr.id)}) != 0)"
        found = self.call(expr, truth=True) if isinstance(expr, t.Call) else self.value(expr)
        if found.kind == "bool":
            return found.text
        if found.kind == "size":
            return f"({found.text} != 0)"
        if found.text in ("Py_True", "Py_False", "Py_None"):
            return "1" if found.text == "Py_True" else "0"
        truth = self.int_var()
        self.emit(f"{truth} = PyObject_IsTrue({found.text});")
        self.emit(f"if ({truth} < 0) goto error;")
        return truth

    def bool_op(self, expr: t.BoolOp) -> str:
        """and/or as a C int, each operand evaluated only where Python evaluates it."""
        result = self.int_var()
        first, *rest = expr.values
        self.emit(f"{result} = {self.test(first)};")
        for operand in rest:
            self.emit(f"if ({'' if expr.op == 'and' else '!'}{result}) {{")
            self.depth += 1
            self.emit(f"{result} = {self.test(operand)};")
            self.depth -= 1
            self.emit("}")
        return result

    def value(self, expr: t.Expr) -> _Value:
        if isinstance(expr, t.Paren):
            return self.value(expr.inner)
        if self.is_size(expr) and not isinstance(expr, t.Lit):
            return _Value("size", self.size(expr))
        if isinstance(expr, t.Name):
            return _Value("obj", self.name(expr.id))
        if isinstance(expr, t.Lit):
            return _Value("obj", self.literal(expr.code.text))
        if isinstance(expr, t.Not):
            return _Value("bool", f"!{self.test(expr.operand)}")
        if isinstance(expr, t.BoolOp):
            return _Value("bool", self.bool_op(expr))
        if isinstance(expr, t.Compare):
            return self.compare(expr)
        if isinstance(expr, t.Call):
            return self.call(expr)
        if isinstance(expr, t.Subscript):
            return _Value("obj", self.subscript(expr))
        if isinstance(expr, t.Attr):
            attribute = self.module.symbols.name(expr.attr)
            return _Value(
                "obj", self.owned(f"PyObject_GetAttr({self.obj(expr.value)}, {attribute})")
            )
        if isinstance(expr, t.BinOp):
            if expr.op not in _NUMBER_OPS:
                raise Unsupported(f"the operator {expr.op}")
            left, right = self.obj(expr.left), self.obj(expr.right)
            return _Value("obj", self.owned(f"{_NUMBER_OPS[expr.op]}({left}, {right})"))
        if isinstance(expr, t.Sum):
            terms = [self.value(term) for term in expr.terms]
            if all(term.kind in ("bool", "size") for term in terms):
                # (a count of tests: True + True is 2)
                return _Value("size", "(" + " + ".join(f"({v.text})" for v in terms) + ")")
            total = self.obj_of(terms[0])
            for term in terms[1:]:
                total = self.owned(f"PyNumber_Add({total}, {self.obj_of(term)})")
            return _Value("obj", total)
        if isinstance(expr, t.Tuple):
            elements = [self.obj(e) for e in expr.elements]
            return _Value(
                "obj",
                self.owned(f"PyTuple_Pack({len(elements)}{''.join(', ' + e for e in elements)})"),
            )
        raise Unsupported(type(expr).__name__)

    # -- sizes: counts held as C Py_ssize_t ----------------------------------------------------
    def is_size(self, expr: t.Expr) -> bool:
        """Whether the expression is a count C can hold: a small int literal, a size local, a
        `len()`, or a sum or difference of those (the tests of a Sum count as 0 or 1)."""
        while isinstance(expr, t.Paren):
            expr = expr.inner
        if isinstance(expr, t.Lit):
            return _small_int(expr, _SIZE_LITERAL) is not None
        if isinstance(expr, t.Name):
            return expr.id in self.sizes
        if isinstance(expr, t.Call):
            return (
                isinstance(expr.func, t.Name)
                and expr.func.id == "len"
                and "len" not in self.locals
                and len(expr.args) == 1
            )
        if isinstance(expr, t.BinOp):
            return expr.op in ("+", "-") and self.is_size(expr.left) and self.is_size(expr.right)
        return False

    def size(self, expr: t.Expr) -> str:
        """A C Py_ssize_t expression of a size (is_size)."""
        while isinstance(expr, t.Paren):
            expr = expr.inner
        if isinstance(expr, t.Lit):
            return f"((Py_ssize_t){_small_int(expr, _SIZE_LITERAL)})"
        if isinstance(expr, t.Name):
            if expr.id not in self.assigned:
                self.emit(
                    f'if (S_{expr.id} == PY_SSIZE_T_MIN) {{ sl_unbound("{expr.id}"); goto error; }}'
                )
            self.used_sizes.add(expr.id)
            return f"S_{expr.id}"
        if isinstance(expr, t.Call):
            return self.length(expr.args[0])
        if isinstance(expr, t.BinOp):
            left = self.size(expr.left)
            return f"({left} {expr.op} {self.size(expr.right)})"
        raise Unsupported("not a size")

    def length(self, expr: t.Expr) -> str:
        """`len(expr)`: read from the object where its exact type is known."""
        value = self.obj(expr)
        known = self.exact.get(expr.id) if isinstance(expr, t.Name) else None
        if known in _SIZE_MACROS:
            return f"{_SIZE_MACROS[known]}({value})"
        size = f"n{self.ints}"
        self.ints += 1
        self.emit(f"Py_ssize_t {size} = PyObject_Length({value});")
        self.emit(f"if ({size} < 0) goto error;")
        return size

    def subscript(self, expr: t.Subscript) -> str:
        """`d[key]` / `a[i]`: a dict known exact and a str literal key read with the key's
        precomputed hash (or the item a `key in d` test just found), a list known exact and a
        small index read in place; a missing item as PyObject_GetItem raises it."""
        container, index = expr.value, expr.index
        known = self.exact.get(container.id) if isinstance(container, t.Name) else None
        if known == "PyDict_Type" and _is_str_literal(index):
            found = self.found_items.get((container.id, index.code.text))  # type: ignore[attr-defined]
            if found is not None:
                return found
            found = self.prefetched_item(container.id, index)  # type: ignore[attr-defined]
            if found is not None:
                key = self.literal(index.code.text)
                return self.owned(
                    f"{found} != NULL ? Py_NewRef({found}) "
                    f": PyObject_GetItem({self.obj(container)}, {key})"
                )
            key = self.literal(index.code.text)
            return self.owned(f"sl_dict_item({self.obj(container)}, {key}, {_hash_of(key)})")
        position = _small_int(index, _SIZE_LITERAL)
        if position is not None and position >= 0:
            helper = "sl_list_item" if known == "PyList_Type" else "sl_item_small"
            return self.owned(f"{helper}({self.obj(container)}, {position}, {self.obj(index)})")
        return self.owned(f"PyObject_GetItem({self.obj(container)}, {self.obj(index)})")

    def name(self, name: str) -> str:
        if name == "x":
            return "x"
        if name in self.locals:
            local = "L_" + self.locals[name]
            if name not in self.assigned:
                self.emit(f'if ({local} == NULL) {{ sl_unbound("{name}"); goto error; }}')
            return local
        if name in _TYPES:
            return f"((PyObject *)&{_TYPES[name]})"
        return self.module.symbols.global_(name)  # (a tree's Name: an ASCII identifier)

    def literal(self, text: str) -> str:
        if text in ("True", "False", "None"):
            return "Py_" + text
        return self.module.symbols.constant(text)

    def compare(self, expr: t.Compare) -> _Value:
        op = expr.op
        if op in ("is", "is not"):
            searched = self.pattern_search(expr)
            if searched is not None:
                return _Value("bool", searched if op == "is not" else f"!{searched}")
            left, right = self.obj(expr.left), self.obj(expr.right)
            return _Value("bool", f"({left} {'==' if op == 'is' else '!='} {right})")
        if op in ("in", "not in"):
            return self.contains(expr)
        small = _small_int(expr.right)
        if small is not None:
            left_value = self.value(expr.left)
            if left_value.kind == "size":
                return _Value("bool", f"({left_value.text} {_C_OPS[op]} {small})")
            left = self.obj_of(left_value)
        elif self.is_size(expr.left) and self.is_size(expr.right):
            left_size = self.size(expr.left)
            return _Value("bool", f"({left_size} {_C_OPS[op]} {self.size(expr.right)})")
        else:
            left = self.obj(expr.left)
        right = self.obj(expr.right)
        found = self.int_var()
        if small is not None and -_EXACT_DOUBLE < small < _EXACT_DOUBLE:
            # (an exact int or float against a small int: compared in C)
            self.emit(f"{found} = sl_compare_small({left}, {small}LL, {right}, {_RICH[op]});")
        elif _float_literal(expr.right) is not None:
            value = _float_literal(expr.right)
            self.emit(f"{found} = sl_compare_double({left}, {value}, {right}, {_RICH[op]});")
        else:
            self.emit(f"{found} = sl_compare({left}, {right}, {_RICH[op]});")
        self.emit(f"if ({found} < 0) goto error;")
        return _Value("bool", found)

    def pattern_search(self, expr: t.Compare) -> str | None:
        """`_P3(s) is None` / `is not None`, `_P3` a compiled pattern's `search` whose pattern
        has a DFA: a C int, whether it matched (the DFA run over a str, the call otherwise)."""
        call_, none = expr.left, expr.right
        if not (
            isinstance(none, t.Lit)
            and none.code.text == "None"
            and isinstance(call_, t.Call)
            and isinstance(call_.func, t.Name)
            and call_.func.id not in self.locals
            and len(call_.args) == 1
        ):
            return None
        dfa = self.module.dfa(call_.func.id, "search")
        if dfa is None:
            return None
        search = self.name(call_.func.id)
        argument = self.obj(call_.args[0])
        found = self.int_var()
        self.emit(f"{found} = sl_pattern_search({argument}, &{dfa}, {search});")
        self.emit(f"if ({found} < 0) goto error;")
        return found

    def matcher_search(self, value: t.Expr, table: t.Expr) -> str | None:
        """`_dfa_search(s, _M3)`, the pure module's matcher on a table constant: a C int, the
        DFA run over an exact str (the call otherwise)."""
        if not isinstance(table, t.Name) or "_dfa_search" in self.locals:
            return None
        dfa = self.module.dfa(table.id, "matcher")
        if dfa is None:
            return None
        function, table_ = self.name("_dfa_search"), self.name(table.id)
        argument = self.obj(value)
        found = self.int_var()
        self.emit(f"{found} = sl_matcher_search({argument}, &{dfa}, {function}, {table_});")
        self.emit(f"if ({found} < 0) goto error;")
        return found

    def contains(self, expr: t.Compare) -> _Value:
        """`a in b` / `a not in b`: a str literal in a dict known exact by its precomputed hash,
        a type in a module-level set of built-in types by pointer compares, anything in a
        module-level frozenset by PySet_Contains; else PySequence_Contains."""
        container = expr.right
        known = self.exact.get(container.id) if isinstance(container, t.Name) else None
        negated = "!" if expr.op == "not in" else ""
        found = self.int_var()
        item = (
            self.prefetched_item(container.id, expr.left)  # type: ignore[attr-defined]
            if known == "PyDict_Type" and _is_str_literal(expr.left)
            else None
        )
        if item is not None:
            self.emit(f"{found} = {item} != NULL;")
        elif known == "PyDict_Type" and _is_str_literal(expr.left):
            key = self.literal(expr.left.code.text)
            right = self.obj(container)
            self.emit(f"{found} = sl_dict_has({right}, {key}, {_hash_of(key)});")
        else:
            frozen = (
                isinstance(container, t.Name)
                and container.id not in self.locals
                and container.id in self.module.frozensets
            )
            left, right = self.obj(expr.left), self.obj(container)
            types = self.module.frozensets.get(container.id) if frozen else None  # type: ignore[attr-defined]
            if types and all(name in _TYPE_BITS for name in types):
                mask = " | ".join(_TYPE_BITS[name] for name in sorted(types))
                self.emit(f"{found} = sl_builtin_type_in({left}, {mask}, {right});")
            elif frozen and container.id in self.module.str_sets:  # type: ignore[attr-defined]
                # (an exact str is one of the set's strs where its text is: found in C)
                number = self.module.used_str_sets.setdefault(
                    container.id, len(self.module.used_str_sets)  # type: ignore[attr-defined]
                )
                self.emit(
                    f"{found} = sl_str_key({left}) ? sl_sfind{number}({left}) >= 0 "
                    f": sl_set_contains({right}, {left});"
                )
            elif frozen:
                self.emit(f"{found} = sl_set_contains({right}, {left});")
            elif _is_str_literal(expr.left) and len(str.__str__(expr.left.value)) == 1:
                code_point = ord(str.__str__(expr.left.value))
                self.emit(f"{found} = sl_str_has_char({right}, 0x{code_point:X}, {left});")
            else:
                self.emit(f"{found} = PySequence_Contains({right}, {left});")
        self.emit(f"if ({found} < 0) goto error;")
        return _Value("bool", negated + found)

    def key_in_exact_dict(self, test: t.Expr) -> tuple[t.Lit, str] | None:
        """`"key" in d`, d a dict known exact: the key and d's name."""
        if not (
            isinstance(test, t.Compare)
            and test.op == "in"
            and _is_str_literal(test.left)
            and isinstance(test.right, t.Name)
            and self.exact.get(test.right.id) == "PyDict_Type"
        ):
            return None
        return test.left, test.right.id

    def found_item_test(self, test: t.Expr) -> str | None:
        """The C test of an if's `"key" in d` (d a dict known exact), looking the item up once:
        the body's `d["key"]` reads it (found_items) until code runs that could change d."""
        tested = self.key_in_exact_dict(test)
        if tested is None:
            return None
        key, dict_name = tested
        text = key.code.text
        item = self.prefetched_item(dict_name, key)
        if item is None:
            constant, container = self.literal(text), self.name(dict_name)
            item = f"f{len(self.lines)}"
            self.emit(
                f"PyObject *{item} = sl_dict_find({container}, {constant}, {_hash_of(constant)});"
            )
            self.emit(f"if ({item} == NULL && PyErr_Occurred()) goto error;")
        self.found_items[(dict_name, text)] = item
        return f"({item} != NULL)"

    def obj_of(self, found: _Value) -> str:
        if found.kind == "obj":
            return found.text
        if found.kind == "bool":
            return f"({found.text} ? Py_True : Py_False)"
        return self.owned(f"PyLong_FromSsize_t({found.text})")

    def call(self, expr: t.Call, truth: bool = False) -> _Value:
        """A call's value; with `truth`, where only its truth is read, a call C has no form of its
        own as that truth (sl_call_truth)."""
        if any(isinstance(a, (t.GenExp, t.ListComp)) for a in expr.args):
            raise Unsupported("a generator expression")
        direct = self.table_call(expr)
        if direct is not None:
            return direct
        func = expr.func
        if isinstance(func, t.Attr):
            return self.method(func, expr.args)
        if isinstance(func, t.Name) and func.id not in self.locals:
            memo = self.module.memo(func.id)
            if memo is not None and len(expr.args) == 1:
                argument = self.obj(expr.args[0])
                found = self.int_var()
                self.emit(f"{found} = sl_memo_{self.module.symbol(memo)}({argument}, 0, sl_stack);")
                self.emit(f"if ({found} < 0) goto error;")
                return _Value("bool", found)
            target = self.module.target(func.id)
            if target is not None and len(expr.args) == 1:
                argument = self.obj(expr.args[0])
                found = self.int_var()
                self.emit(f"{found} = sl_call_{self.module.symbol(target)}({argument}, sl_stack);")
                self.emit(f"if ({found} < 0) goto error;")
                return _Value("bool", found)
            if func.id == "_unique" and len(expr.args) == 1:
                argument = self.obj(expr.args[0])
                found = self.int_var()
                self.emit(f"{found} = sl_unique({argument}, {self.name(func.id)});")
                self.emit(f"if ({found} < 0) goto error;")
                return _Value("bool", found)
            if func.id == "_dfa_search" and len(expr.args) == 2:
                found_ = self.matcher_search(expr.args[0], expr.args[1])
                if found_ is not None:
                    return _Value("bool", found_)
            if func.id == "type" and len(expr.args) == 1:
                return _Value("obj", f"((PyObject *)Py_TYPE({self.obj(expr.args[0])}))")
            if func.id == "isinstance" and len(expr.args) == 2:
                value, classes = self.obj(expr.args[0]), self.obj(expr.args[1])
                found = self.int_var()
                self.emit(f"{found} = PyObject_IsInstance({value}, {classes});")
                self.emit(f"if ({found} < 0) goto error;")
                return _Value("bool", found)
        callee = self.obj(func)
        arguments = [self.obj(a) for a in expr.args]
        if truth:
            found = self.int_var()
            array = f"a{len(self.lines)}"
            self.emit(f"{{ PyObject *{array}[] = {{{', '.join(arguments) or 'NULL'}}};")
            self.emit(f"  {found} = sl_call_truth({callee}, {array}, {len(arguments)}); }}")
            self.emit(f"if ({found} < 0) goto error;")
            return _Value("bool", found)
        return _Value("obj", self.vectorcall(callee, arguments))

    def vectorcall(self, callee: str, arguments: list[str], method: str = "") -> str:
        temp = self.temp()
        array = f"a{len(self.lines)}"
        self.emit(f"{{ PyObject *{array}[] = {{{', '.join(arguments) or 'NULL'}}};")
        if method:
            self.emit(
                f"  Py_XSETREF({temp}, PyObject_VectorcallMethod({method}, {array}, {len(arguments)}, NULL)); }}"
            )
        else:
            self.emit(
                f"  Py_XSETREF({temp}, PyObject_Vectorcall({callee}, {array}, {len(arguments)}, NULL)); }}"
            )
        self.emit(f"if ({temp} == NULL) goto error;")
        return temp

    def method(self, func: t.Attr, args: tuple[t.Expr, ...]) -> _Value:
        receiver = self.obj(func.value)
        arguments = [self.obj(a) for a in args]
        name = func.attr
        item = (
            self.prefetched_item(func.value.id, args[0])
            if name == "get"
            and len(arguments) == 2
            and _is_str_literal(args[0])
            and isinstance(func.value, t.Name)
            and self.exact.get(func.value.id) == "PyDict_Type"
            else None
        )
        if item is not None:
            return _Value("obj", self.owned(f"Py_NewRef({item} != NULL ? {item} : {arguments[1]})"))
        if name == "get" and len(arguments) == 2 and _is_str_literal(args[0]):
            return _Value(
                "obj",
                self.owned(
                    f"sl_dict_get_known({receiver}, {arguments[0]}, {_hash_of(arguments[0])}, "
                    f"{arguments[1]}, {self.module.symbols.name(name)})"
                ),
            )
        if name == "get" and len(arguments) == 2:
            return _Value(
                "obj",
                self.owned(
                    f"sl_dict_get({receiver}, {arguments[0]}, {arguments[1]}, "
                    f"{self.module.symbols.name(name)})"
                ),
            )
        if name == "get" and len(arguments) == 1:
            symbol = self.module.symbols.name(name)
            return _Value("obj", self.owned(f"sl_dict_get1({receiver}, {arguments[0]}, {symbol})"))
        if name == "is_integer" and not arguments:
            found = self.int_var()
            self.emit(f"{found} = sl_is_integer({receiver}, {self.module.symbols.name(name)});")
            self.emit(f"if ({found} < 0) goto error;")
            return _Value("bool", found)
        if name in _STR_METHODS and len(arguments) == name.endswith("with"):
            # (an exact str's test in C; anything else calls the method)
            found = self.int_var()
            helper = _STR_METHODS[name]
            extra = "".join(f", {a}" for a in arguments)
            self.emit(f"{found} = {helper}({receiver}{extra}, {self.module.symbols.name(name)});")
            self.emit(f"if ({found} < 0) goto error;")
            return _Value("bool", found)
        return _Value(
            "obj",
            self.vectorcall("", [receiver, *arguments], method=self.module.symbols.name(name)),
        )


def _small_int(expr: t.Expr, bound: int = _SMALL) -> int | None:
    """The value of an int literal small enough to compare in C (within `bound`), else None."""
    while isinstance(expr, t.Paren):
        expr = expr.inner
    if isinstance(expr, t.Lit) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        number = int.__int__(expr.value)
        return number if -bound < number < bound else None
    return None


def _float_literal(expr: t.Expr) -> str | None:
    """A float literal as a C double literal (exact: hexadecimal), else None."""
    while isinstance(expr, t.Paren):
        expr = expr.inner
    if not isinstance(expr, t.Lit) or not isinstance(expr.value, float):
        return None
    value = float.__float__(expr.value)
    return value.hex() if math.isfinite(value) else None


def _is_str_literal(expr: t.Expr) -> TypeGuard[t.Lit]:
    return isinstance(expr, t.Lit) and isinstance(expr.value, str)


def _hash_of(constant: str) -> str:
    """The slot of a constant's precomputed hash (a str constant's: sl_kh)."""
    return constant.replace("sl_k[", "sl_kh[", 1)


def _literal_keys(name: str, block: Iterable[t.Stmt]) -> set[str]:
    """The ASCII str-literal keys a block looks up in the dict `name`: `name.get("k", d)`,
    `"k" in name` / `not in`, `name["k"]`."""
    keys: set[str] = set()

    def key_of(expr: t.Expr) -> None:
        if _is_str_literal(expr):
            value = str.__str__(expr.value)
            if value.isascii():
                keys.add(value)

    def is_dict(expr: t.Expr) -> bool:
        return isinstance(expr, t.Name) and expr.id == name

    for node in _nodes(block):
        if isinstance(node, t.Call) and isinstance(node.func, t.Attr):
            if node.func.attr == "get" and is_dict(node.func.value) and len(node.args) == 2:
                key_of(node.args[0])
        elif isinstance(node, t.Compare) and node.op in ("in", "not in") and is_dict(node.right):
            key_of(node.left)
        elif isinstance(node, t.Subscript) and is_dict(node.value):
            key_of(node.index)
    return keys


def _nodes(value: object) -> Iterable[object]:
    """Every tree node (statement or expression) in a block, at any depth."""
    if isinstance(value, (tuple, list)):
        for element in value:
            yield from _nodes(element)
    elif isinstance(value, (t.Stmt, t.Expr)):
        yield value
        for field_ in dataclasses.fields(value):  # type: ignore[arg-type]
            yield from _nodes(getattr(value, field_.name))


def _assigned_names(block: Iterable[t.Stmt]) -> set[str]:
    """The names a block assigns (assignment and loop targets), at any depth."""
    names: set[str] = set()
    for stmt in block:
        targets: list[t.Expr] = []
        if isinstance(stmt, t.Assign):
            targets.append(stmt.target)
        elif isinstance(stmt, t.For):
            targets.append(stmt.target)
            names |= _assigned_names(stmt.body) | _assigned_names(stmt.orelse)
        elif isinstance(stmt, t.If):
            for _, body in stmt.branches:
                names |= _assigned_names(body)
            names |= _assigned_names(stmt.orelse)
        for target in targets:
            elements = target.elements if isinstance(target, t.Tuple) else (target,)
            names |= {e.id for e in elements if isinstance(e, t.Name)}
    return names


def _size_locals(block: Iterable[t.Stmt]) -> set[str]:
    """The locals assigned only counts (small int literals, len(), sums and differences of
    counts) and never as a loop or tuple target: held in C as Py_ssize_t."""
    values: dict[str, list[t.Expr]] = {}
    excluded: set[str] = {"x"}

    def walk(stmts: Iterable[t.Stmt]) -> None:
        for stmt in stmts:
            if isinstance(stmt, t.Assign):
                if isinstance(stmt.target, t.Name):
                    values.setdefault(stmt.target.id, []).append(stmt.value)
                else:
                    excluded.update(_assigned_names([stmt]))
            elif isinstance(stmt, t.For):
                excluded.update(_assigned_names([t.Assign(stmt.target, stmt.source)]))
                walk(stmt.body)
                walk(stmt.orelse)
            elif isinstance(stmt, t.If):
                for _, body in stmt.branches:
                    walk(body)
                walk(stmt.orelse)

    walk(block)
    sizes = {name for name in values if name not in excluded}

    def counts(expr: t.Expr) -> bool:
        while isinstance(expr, t.Paren):
            expr = expr.inner
        if isinstance(expr, t.Lit):
            return _small_int(expr, _SIZE_LITERAL) is not None
        if isinstance(expr, t.Name):
            return expr.id in sizes
        if isinstance(expr, t.Call):
            return (
                isinstance(expr.func, t.Name)
                and expr.func.id == "len"
                and "len" not in values
                and len(expr.args) == 1
            )
        if isinstance(expr, t.BinOp):
            return expr.op in ("+", "-") and counts(expr.left) and counts(expr.right)
        return False

    changed = True
    while changed:
        changed = False
        for name in sorted(sizes):
            if not all(counts(value) for value in values[name]):
                sizes.discard(name)
                changed = True
    return sizes


def _runs_no_code(stmt: t.Stmt) -> bool:
    """An assignment of a local from names, literals, sums or a subscript: no code of the
    instance's can run (what keeps the item a `key in d` test found)."""
    if not isinstance(stmt, t.Assign) or not isinstance(stmt.target, t.Name):
        return isinstance(stmt, (t.Pass, t.Comment))

    def simple(expr: t.Expr) -> bool:
        if isinstance(expr, (t.Name, t.Lit)):
            return True
        if isinstance(expr, t.Paren):
            return simple(expr.inner)
        if isinstance(expr, t.BinOp):
            return simple(expr.left) and simple(expr.right)
        if isinstance(expr, t.Subscript):
            return simple(expr.value) and simple(expr.index)
        return False

    return simple(stmt.value)


# What a top-level unit of the C file is (CUnit), which says where c_build.c_units puts it when it
# cuts the file into translation units: a preprocessor directive, a static function's prototype,
# a static inline function, a static function, static data, the module's init function.
UnitKind = Literal["directive", "prototype", "inline", "function", "data", "init"]


@dataclass(frozen=True)
class CUnit:
    """One top-level unit of the C file, recorded as it is written: `lead` the blank lines and
    comments before it, `code` the unit itself. A prototype, function or data unit is `static`:
    its code is `static ` + `declarator` (what it declares, `int sl_v0(PyObject *x, const straightline_stack *sl_stack)`,
    `PyObject *sl_g[3]`) + the rest."""

    kind: UnitKind
    code: str
    declarator: str = ""
    lead: str = ""

    @property
    def text(self) -> str:
        """The unit as it stands in the C file."""
        return self.lead + self.code

    @property
    def shared(self) -> str:
        """The unit without `static`: as one of several translation units has it, shared with
        the others."""
        return self.lead + self.code.removeprefix("static ")


def _unit(kind: UnitKind, *lines: str, declarator: str = "") -> CUnit:
    return CUnit(kind, "".join(line + "\n" for line in lines), declarator)


def _static(kind: UnitKind, declarator: str, rest: str, *lines: str) -> CUnit:
    """A static unit: `static DECLARATOR` + `rest` its first line, then `lines`."""
    return _unit(kind, f"static {declarator}{rest}", *lines, declarator=declarator)


def _fast_declarator(symbol: str) -> str:
    """A fast function's declaration (its prototype, less `static`): c_runtime.h's sl_fast."""
    return f"int {symbol}(PyObject *x, const straightline_stack *sl_stack)"


class CModule:
    """A module's fast functions as one C file (render()), recorded unit by unit (units())."""

    def __init__(
        self,
        name: str,
        text: str,
        functions: list[Function],
        aliases: list[t.Stmt],
        filename: str,
        constants: Iterable[t.Stmt] = (),
        pattern_sources: Mapping[str, str] | None = None,
        late: Iterable[t.Stmt] = (),
        public: PublicIsValid | None = None,
    ) -> None:
        self.name = name  # the module's dotted name
        self.text = text
        self.filename = filename
        self.fast = {f.name.id: f for f in functions if is_fast(f)}
        self.public = public  # (rendered in C where its root is: public_is_valid())
        constants = list(constants)
        self.aliases = {
            a.target.id: a.value.id
            for a in aliases
            if isinstance(a, t.Assign)
            and isinstance(a.target, t.Name)
            and isinstance(a.value, t.Name)
        }
        # the memoized fast functions the C calls without the pure wrapper: alias -> function,
        # where the alias is the lean unscoped wrapper (no reference loop, no dynamic scope)
        self.memos: dict[str, str] = {}
        for a in aliases:
            if isinstance(a, t.Assign) and isinstance(a.target, t.Name):
                wrapped = _lean_memo(a.value)
                if wrapped is not None and wrapped in self.fast:
                    self.memos[a.target.id] = wrapped
        # the module-level frozensets (`_Y0: Final = frozenset({dict, list})`) by name, with
        # their elements' texts
        self.frozensets = {
            c.target.id: tuple(e.render() for e in c.value.args[0].items) if c.value.args else ()  # type: ignore[attr-defined]
            for c in constants
            if isinstance(c, t.Assign)
            and isinstance(c.target, t.Name)
            and isinstance(c.value, t.Call)
            and isinstance(c.value.func, t.Name)
            and c.value.func.id == "frozenset"
            and (
                not c.value.args
                or (
                    len(c.value.args) == 1
                    and isinstance(c.value.args[0], t.Display)
                    and c.value.args[0].kind == "set"
                )
            )
        }
        # the frozensets of str literals only (property names: `k not in _K3`), with their strs
        self.str_sets = {
            c.target.id: tuple(str.__str__(e.value) for e in c.value.args[0].items)  # type: ignore[attr-defined]
            for c in constants
            if isinstance(c, t.Assign)
            and isinstance(c.target, t.Name)
            and c.target.id in self.frozensets
            and isinstance(c.value, t.Call)
            and c.value.args
            and c.value.args[0].items  # type: ignore[attr-defined]
            and all(_is_str_literal(e) for e in c.value.args[0].items)  # type: ignore[attr-defined]
        }
        # the sets a rendered function looks a key up in in C, by name: their number (sl_sfind<N>)
        self.used_str_sets: dict[str, int] = {}
        # the module-level tables the fast path looks up by a run-time key (`_F3.get(k)`), read
        # from the statements that fill them after the functions, by name
        self.tables = _tables(constants, late)
        # the tables a rendered function looks up in C, by name: their number (sl_te<N>...)
        self.used_tables: dict[str, int] = {}
        # each pattern constant's ECMA-262 source (a `search` or a matcher's table), by name
        self.pattern_sources = dict(pattern_sources or {})
        # the DFAs rendered as C tables: (constant name, how it is called) -> its C symbol
        self.dfas: dict[tuple[str, str], str | None] = {}
        self.dfa_tables: list[_DfaTable] = []
        self.symbols = Symbols()
        self.rendered: dict[str, list[str]] = {}
        self.fallbacks: dict[str, str] = {}  # function -> why it is not rendered
        self.passes: dict[str, list[CUnit]] = {}  # function -> its key passes' functions
        self.memo_callers: list[CUnit] = []  # (made with the units, after the functions)
        self._units: list[CUnit] | None = None
        self._c_text: str | None = None

    def public_is_valid(self) -> list[PublicIsValid]:
        """The public is_valid rendered in C (sl_public_is_valid): the module's, where its root
        is rendered and its `_memo_owned`, if it calls it, is C (its table is then the C
        call's)."""
        public = self.public
        if public is None:
            return []
        rendered = self.target(public.fast) in self.rendered or self.memo(public.fast) is not None
        return [public] if rendered and (not public.owned or self.memos) else []

    def memo(self, name: str) -> str | None:
        """The fast function a name's lean memo wrapper wraps, if it is one."""
        return self.memos.get(name)

    def target(self, name: str) -> str | None:
        """The fast function a name calls (through its alias), if it is one."""
        name = self.aliases.get(name, name)
        return name if name in self.fast else None

    def _memo_caller(self, number: int, alias: str, name: str) -> CUnit:
        """`sl_memo_<symbol>(x, from_python, sl_stack)`: a call of `alias`, the lean memo wrapper of the
        fast function `name` (sl_memo_lean, c_runtime.h), keyed in the call's C table by
        `number`, with the wrapper itself for a call without a table (fetched before any
        function is replaced)."""
        symbol = self.symbol(name)
        arguments = ", ".join((f"sl_call_{symbol}", str(number), self.symbols.global_(alias)))
        return _unit(
            "inline",
            f"static inline int sl_memo_{symbol}(PyObject *x, int from_python, "
            "const straightline_stack *sl_stack) { "
            f"return sl_memo_lean(x, {arguments}, from_python, sl_stack); }}",
        )

    @staticmethod
    def symbol(name: str) -> str:
        return "sl" + name

    def use_table(self, name: str) -> int:
        """The number of a table a rendered function looks up in C (its C: sl_tfind<N>...)."""
        return self.used_tables.setdefault(name, len(self.used_tables))

    def table_callee(self, name: str) -> str | None:
        """The C call, on `v`, of a table entry's function `name` as call() makes it (a lean
        memo wrapper's C form, a fast function through its alias), or None: no C form."""
        memo = self.memo(name)
        if memo is not None:
            return f"sl_memo_{self.symbol(memo)}(v, 0, sl_stack)"
        target = self.target(name)
        return f"sl_call_{self.symbol(target)}(v, sl_stack)" if target is not None else None

    def _table_c(self, name: str, number: int) -> Iterable[CUnit]:
        """A table's C: its entries (read at init, sl_table_ready), the function that finds a
        key's entry number from its text, and the one that calls an entry's function."""
        table = self.tables[name]
        yield _static("data", f"PyObject *sl_te{number}[{len(table.keys)}]", ";")
        yield _table_find(f"sl_tfind{number}", table.keys)
        calls: dict[str, list[int]] = {}
        for index, callee in enumerate(table.callees):
            call_ = self.table_callee(callee)
            if call_ is not None:
                calls.setdefault(call_, []).append(index)
        lines = ["    switch (i) {"]
        for call_, indexes in calls.items():
            lines += ["    " + " ".join(f"case {i}:" for i in indexes), f"        return {call_};"]
        lines += [
            "    default:",
            "        return -2;  /* (no C form: called as Python calls it) */",
        ]
        yield _static(
            "function",
            f"int sl_tcall{number}(Py_ssize_t i, PyObject *v, const straightline_stack *sl_stack)",
            " {",
            *lines,
            "    }",
            "}",
        )

    def dfa(self, name: str, called: str) -> str | None:
        """The C symbol of the DFA of the pattern constant `name`, if it has one: `called`
        "search" for a compiled pattern's `search` (the automaton built from its ECMA-262
        source, which the translation `re` runs means exactly), "matcher" for a table the pure
        module's `_dfa_search` runs (that table itself). None: no DFA (an NFA, a look-around
        other than a look-ahead right after `^`, a back-reference, too large), so the call
        stays."""
        key = (name, called)
        if key not in self.dfas:
            table = _dfa_table(self.pattern_sources.get(name), called)
            symbol = None
            if table is not None:
                symbol = f"sl_dfa{len(self.dfa_tables)}"
                self.dfa_tables.append(table)
            self.dfas[key] = symbol
        return self.dfas[key]

    def _tables_ready(self) -> list[str]:
        """The end of the init's test of the install: where it succeeded, each table is read
        (sl_table_ready) now that the C functions are in it."""
        if not self.used_tables:
            return ["    }"]
        lines = ["    } else {"]
        for name, number in self.used_tables.items():
            size, table = len(self.tables[name].keys), self.symbols.global_(name)
            lines.append(
                f"        sl_table_ready({table}, {size}, sl_tfind{number}, sl_te{number}, "
                f"&sl_tv[{number}]);"
            )
        return lines + ["    }"]

    def render(self) -> str:
        """The C file (rendered once)."""
        if self._c_text is None:
            self._c_text = "".join(unit.text for unit in self.units())
        return self._c_text

    def units(self) -> list[CUnit]:
        """The C file's top-level units, in order (rendered once): c_build.c_units cuts the file
        into translation units by them."""
        if self._units is None:
            for name, function in self.fast.items():
                try:
                    rendering = CFunction(self, function)
                    self.rendered[name] = rendering.render()
                    self.passes[name] = rendering.passes
                except Unsupported as why:
                    self.fallbacks[name] = str(why)
            for name in self.fallbacks:
                self.symbols.global_(name)  # (its pure function, fetched before any is replaced)
            for public in self.public_is_valid():  # (what its RecursionError calls)
                self.symbols.global_("_on_fresh_stack")
                self.symbols.global_(public.deep)
            self.memo_callers = [
                self._memo_caller(number, alias, name)
                for number, (alias, name) in enumerate(self.memos.items())
            ]
            units: list[CUnit] = []
            lead: list[str] = []
            for part in self._file():
                if isinstance(part, str):
                    lead.append(part + "\n")
                else:
                    units.append(dataclasses.replace(part, lead="".join(lead)))
                    lead = []
            if lead:  # (none today: the file ends with its init function)
                raise AssertionError("the C file ends with lines of no unit")
            self._units = units
        return self._units

    def _file(self) -> Iterable[CUnit | str]:
        """The C file's units in order; each blank line or comment (a str) goes with the unit
        after it."""
        # (dont_inherit: not this file's __future__ flags; optimize=0: as a plain import compiles it)
        code = marshal.dumps(
            compile(self.text, self.filename, "exec", dont_inherit=True, optimize=0)
        )
        yield "/* Generated by straightline's C backend (generator/native/c_module.py). Do not edit. */"
        yield _unit("directive", "#define PY_SSIZE_T_CLEAN", '#include "straightline_c.h"')
        yield ""
        yield _static("data", "const char sl_module_name[]", f" = {_c_string(self.name)};")
        yield "/* the module's code (marshal data of its text) */"
        yield _static(
            "data",
            "const char sl_code[]",
            " =",
            *(
                "    " + _c_bytes(code[start : start + _CHUNK])
                for start in range(0, len(code), _CHUNK)
            ),
            "    ;",
        )
        yield from _table("sl_g", self.symbols.globals)
        yield from _table("sl_k", self.symbols.constants)
        yield _static("data", f"Py_hash_t sl_kh[{len(self.symbols.constants) + 1}]", ";")
        yield from _table("sl_n", self.symbols.names)
        yield ""
        for number, table in enumerate(self.dfa_tables):
            yield from _dfa_c(f"sl_dfa{number}", table)
        for name in self.fast:
            yield _static("prototype", _fast_declarator(self.symbol(name)), ";")
        for name in self.fast:
            symbol = self.symbol(name)
            # (whether a call of it counts a level: the property tables' entries read it)
            counts = int(name in self.rendered)
            yield _unit("inline", f"enum {{ SL_COUNTS_{symbol} = {counts} }};")
            if name in self.rendered:
                yield _unit(
                    "inline",
                    f"static inline int sl_call_{symbol}(PyObject *x, "
                    "const straightline_stack *sl_stack) { if (sl_enter(sl_stack)) return -1; "
                    f"int r = {symbol}(x, sl_stack); Py_LeaveRecursiveCall(); return r; }}",
                )
            else:
                yield _unit(
                    "inline",
                    f"static inline int sl_call_{symbol}(PyObject *x, "
                    f"const straightline_stack *sl_stack) {{ return {symbol}(x, sl_stack); }}",
                )
        yield from self.memo_callers
        yield ""
        if self.used_str_sets:
            yield "/* the sets of strs a key is looked up in in C */"
            for name, number in self.used_str_sets.items():
                yield _table_find(f"sl_sfind{number}", self.str_sets[name])
            yield ""
        if self.used_tables:
            yield "/* the tables looked up in C: each one's entries, key finder and calls */"
            yield _static("data", f"uint64_t sl_tv[{len(self.used_tables)}]", ";")
            for name, number in self.used_tables.items():
                yield from self._table_c(name, number)
            yield ""
        for name in self.fast:
            if name in self.rendered:
                yield from self.passes[name]  # (beside their caller: one translation unit)
                lines = self.rendered[name]
                yield _unit("function", *lines, declarator=_fast_declarator(self.symbol(name)))
            else:
                yield f"/* {name}: the pure module's ({_c_comment(self.fallbacks[name])}) */"
                yield _static(
                    "function",
                    _fast_declarator(self.symbol(name)),
                    " {",
                    f"    return sl_call_pure({self.symbols.global_(name)}, x);",
                    "}",
                )
            yield ""
        rendered = [name for name in self.fast if name in self.rendered]
        for name in rendered:
            yield _static(
                "function",
                f"PyObject *sl_py{name}(PyObject *self, PyObject *x)",
                f" {{ return sl_from_int(sl_from_python({self.symbol(name)}, x)); }}",
            )
        # each memo wrapper's C form, installed in its place (the public functions and the
        # Python error path call it too: one table, one answer per value)
        for alias, name in self.memos.items():
            yield _static(
                "function",
                f"PyObject *sl_py{alias}(PyObject *self, PyObject *x)",
                " { const straightline_stack *sl_stack = straightline_thread_stack();"
                " return sl_from_int(straightline_check_stack_of(sl_stack) ? -1 :"
                f" sl_memo_{self.symbol(name)}(x, 1, sl_stack)); }}",
            )
        rendered += self.memos
        methods = [f"    {{{_c_string(name)}, sl_py{name}, METH_O, NULL}}," for name in rendered]
        for number, public in enumerate(self.public_is_valid()):
            # its root's call, as the pure one makes it (a call of a C function, which CPython
            # counts): the C function's own or its memo wrapper's
            memo = self.memo(public.fast)
            root = (
                f"sl_memo_{self.symbol(memo)}(x, 1, sl_stack)"
                if memo is not None
                else f"{self.symbol(self.target(public.fast) or public.fast)}(x, sl_stack)"
            )
            yield _static(
                "function",
                f"int sl_public_root{number}(PyObject *x, const straightline_stack *sl_stack)",
                " { if (sl_enter(sl_stack)) return -1;"
                f" int r = {root}; Py_LeaveRecursiveCall(); return r; }}",
            )
            yield _static(
                "function",
                f"PyObject *sl_public{number}(PyObject *self, PyObject *x)",
                f" {{ return sl_public_is_valid(x, sl_public_root{number}, {int(public.owned)},"
                f" {self.symbols.global_('_on_fresh_stack')},"
                f" {self.symbols.global_(public.deep)}); }}",
            )
            doc = _c_string(public.name + "(instance, /)\n--\n\n" + public.doc)
            methods.append(f"    {{{_c_string(public.name)}, sl_public{number}, METH_O, {doc}}},")
        if self.memos:
            # the call's owner in C (sl_memo_owned): it makes the C table the C form reads
            yield _static(
                "function",
                "PyObject *sl_py_memo_owned(PyObject *self, PyObject *arguments)",
                " { return sl_memo_owned(arguments); }",
            )
            methods.append('    {"_memo_owned", sl_py_memo_owned, METH_VARARGS, NULL},')
        yield _static(
            "data",
            "PyMethodDef sl_methods[]",
            " = {",
            *methods,
            "    {NULL, NULL, 0, NULL}};",
        )
        yield ""
        yield _static(
            "data",
            "struct PyModuleDef sl_definition",
            " = {PyModuleDef_HEAD_INIT, sl_module_name, NULL, -1, NULL};",
        )
        yield ""
        yield _unit(
            "init",
            f"PyMODINIT_FUNC PyInit_{self.name.rsplit('.', 1)[-1]}(void) {{",
            "    PyObject *module = PyModule_Create(&sl_definition);",
            "    if (module == NULL) {",
            "        return NULL;",
            "    }",
            "    PyObject *dict = PyModule_GetDict(module);",
            "    PyObject *code = NULL, *ran = NULL;",
            '    if (PyDict_SetItemString(dict, "__builtins__", PyEval_GetBuiltins()) < 0) {',
            "        goto fail;",
            "    }",
            "    code = PyMarshal_ReadObjectFromString(sl_code, sizeof(sl_code) - 1);",
            "    if (code == NULL) {",
            "        goto fail;",
            "    }",
            "    ran = PyEval_EvalCode(code, dict, dict);",
            "    Py_DECREF(code);",
            "    if (ran == NULL) {",
            "        goto fail;",
            "    }",
            "    Py_DECREF(ran);",
            "    if (sl_fetch(dict, sl_g, sl_g_texts, sl_k, sl_kh, sl_k_texts, sl_n, sl_n_texts) < 0"
            " || sl_install(module, dict, sl_methods) < 0"
            + (" || sl_install_memo_state(dict) < 0" if self.memos else "")
            + ") {",
            "        PyObject *type, *value, *traceback;",
            "        PyErr_Fetch(&type, &value, &traceback);",
            '        int warned = PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "%s: its C fast path could not be set '
            "up (%S); the pure module's is used\", sl_module_name, value ? value : Py_None);",
            "        Py_XDECREF(type);",
            "        Py_XDECREF(value);",
            "        Py_XDECREF(traceback);",
            "        if (warned < 0) {",
            "            goto fail;",
            "        }",
            *self._tables_ready(),
            "    return module;",
            "  fail:",
            "    Py_DECREF(module);",
            "    return NULL;",
            "}",
        )


@dataclass(frozen=True)
class CTable:
    """A module-level dict the fast path looks up by a run-time key and calls what it finds: a
    property table (`_F3`: property name -> (fast, error) pair, called as `f[0](v)`, kind
    "pair") or a dispatch table (`_D5`: a discriminator's value -> fast function, called as
    `f(x)`, kind "function"). `keys` in the dict's order; `callees[i]` the name of the function
    (or alias) key i's entry calls."""

    kind: Literal["pair", "function"]
    keys: tuple[str, ...]
    callees: tuple[str, ...]


def _tables(constants: Iterable[t.Stmt], late: Iterable[t.Stmt]) -> dict[str, CTable]:
    """The tables the module defines empty (`_F3: Final[...] = {}`) and fills after the
    functions with str-literal keys only (`_F3.update({"a": _Q0, ...})`, `_D5["a"] = _v2`), each
    entry a pair (`_Q0 = (_v1, _e1)`) or each a function; a table any other statement names is
    none of them."""
    empty = {
        c.target.id
        for c in constants
        if isinstance(c, t.Assign)
        and isinstance(c.target, t.Name)
        and isinstance(c.value, t.Display)
        and c.value.kind == "dict"
        and not c.value.items
    }
    late = list(late)
    pairs: dict[str, str] = {}
    for stmt in late:
        if (
            isinstance(stmt, t.Assign)
            and isinstance(stmt.target, t.Name)
            and isinstance(stmt.value, t.Tuple)
            and len(stmt.value.elements) == 2
            and all(isinstance(e, t.Name) for e in stmt.value.elements)
        ):
            pairs[stmt.target.id] = stmt.value.elements[0].id  # type: ignore[attr-defined]
    filled: dict[str, dict[str, str]] = {}
    spoiled: set[str] = set()
    for stmt in late:
        rows = _table_rows(stmt)
        if rows is not None and rows[0] in empty:
            filled.setdefault(rows[0], {}).update(rows[1])  # (as the dict takes them)
        else:
            spoiled |= {n.id for n in _nodes(stmt) if isinstance(n, t.Name) and n.id in empty}
    tables: dict[str, CTable] = {}
    for name, entries in filled.items():
        kinds = {"pair" if value in pairs else "function" for value in entries.values()}
        if name in spoiled or len(kinds) != 1:
            continue
        kind: Literal["pair", "function"] = "pair" if kinds == {"pair"} else "function"
        callees = tuple(pairs[v] if kind == "pair" else v for v in entries.values())
        tables[name] = CTable(kind, tuple(entries), callees)
    return tables


def _table_rows(stmt: t.Stmt) -> tuple[str, dict[str, str]] | None:
    """A table and the rows a statement fills it with, each a str literal key and a name:
    `T.update({"a": N, ...})` or `T["a"] = N`; None for any other statement."""
    if (
        isinstance(stmt, t.ExprStmt)
        and isinstance(stmt.value, t.Call)
        and isinstance(stmt.value.func, t.Attr)
        and stmt.value.func.attr == "update"
        and isinstance(stmt.value.func.value, t.Name)
        and len(stmt.value.args) == 1
        and isinstance(stmt.value.args[0], t.Display)
        and stmt.value.args[0].kind == "dict"
    ):
        rows: dict[str, str] = {}
        for key, value in stmt.value.args[0].items:
            if not (_is_str_literal(key) and isinstance(value, t.Name)):
                return None
            rows[str.__str__(key.value)] = value.id
        return stmt.value.func.value.id, rows
    if (
        isinstance(stmt, t.Assign)
        and isinstance(stmt.target, t.Subscript)
        and isinstance(stmt.target.value, t.Name)
        and _is_str_literal(stmt.target.index)
        and isinstance(stmt.value, t.Name)
    ):
        return stmt.target.value.id, {str.__str__(stmt.target.index.value): stmt.value.id}
    return None


def _table_targets(block: Iterable[t.Stmt], tables: Mapping[str, CTable]) -> set[str]:
    """The locals a block assigns a table's look-up to (`f = _F3.get(k)`), anywhere in it."""
    return {
        node.target.id
        for node in _nodes(block)
        if isinstance(node, t.Assign)
        and isinstance(node.target, t.Name)
        and isinstance(node.value, t.Call)
        and isinstance(node.value.func, t.Attr)
        and node.value.func.attr == "get"
        and isinstance(node.value.func.value, t.Name)
        and node.value.func.value.id in tables
    }


_KINDS = {1: "Py_UCS1", 2: "Py_UCS2", 4: "Py_UCS4"}


def _table_find(symbol: str, keys: tuple[str, ...]) -> CUnit:
    """`Py_ssize_t symbol(PyObject *k)`: the number of the key equal to the exact str `k`, else
    -1. A str equals a key where their kinds (the width of their code units, which CPython keeps
    the narrowest that holds the str), lengths and code units are equal, as CPython's own
    comparison decides it: a switch on the kind, the length and the first code unit, then the
    other units compared."""
    found: dict[int, dict[int, dict[int, list[tuple[int, list[int]]]]]] = {}
    for index, key in enumerate(keys):
        units = [ord(c) for c in key]
        width = 1 if max(units, default=0) < 0x100 else 2 if max(units) < 0x10000 else 4
        by_first = found.setdefault(width, {}).setdefault(len(units), {})
        by_first.setdefault(units[0] if units else -1, []).append((index, units))
    lines = [
        "    Py_ssize_t n = PyUnicode_GET_LENGTH(k);",
        "    const void *data = PyUnicode_DATA(k);",
        "    switch (PyUnicode_KIND(k)) {",
    ]
    for width, by_length in sorted(found.items()):
        c_type = _KINDS[width]
        lines.append(f"    case PyUnicode_{width}BYTE_KIND: {{")
        lines.append(f"        const {c_type} *s = (const {c_type} *)data;")
        lines.append("        switch (n) {")
        for length, by_first in sorted(by_length.items()):
            lines.append(f"        case {length}:")
            if length == 0:  # (the empty str: one key at most)
                ((index, _),) = by_first[-1]
                lines.append(f"            return {index};")
                continue
            lines.append("            switch (s[0]) {")
            for first, entries in sorted(by_first.items()):
                lines.append(f"            case 0x{first:X}:")
                for index, units in entries:
                    rest = units[1:]
                    if not rest:
                        lines.append(f"                return {index};")
                        continue
                    if width == 1:
                        text = _c_bytes(bytes(rest))
                    else:
                        text = f"(const {c_type}[]){{{', '.join(f'0x{u:X}' for u in rest)}}}"
                    lines.append(
                        f"                if (memcmp(s + 1, {text}, {len(rest) * width}) == 0) "
                        f"return {index};"
                    )
                lines.append("                break;")
            lines.append("            }")
            lines.append("            break;")
        lines += ["        }", "        break;", "    }"]
    lines += ["    }", "    (void)data;", "    return -1;"]
    return _static("function", f"Py_ssize_t {symbol}(PyObject *k)", " {", *lines, "}")


@dataclass(frozen=True)
class PublicIsValid:
    """A public is_valid as templates/api.py.j2 writes it, where it calls its root (`fast`):
    through `_memo_owned` (owned) or directly, and `deep` on a fresh stack when the call raises
    RecursionError."""

    name: str
    fast: str
    owned: bool
    deep: str
    doc: str


def public_is_valid(text: str, root: Root) -> PublicIsValid | None:
    """The module's public is_valid for `root` (render/module.py's root_of), where it is
    api.py.j2's function that calls the root with no dynamic scope and no envelope test (a tool
    contract's, which the C backend does not build), and the module text holds that function
    exactly; else None: the pure one stays."""
    if root.direct or root.scope.text or root.tests_envelope:
        return None
    call = (
        f"valid: bool = _memo_owned({root.fast.text}, (instance,))\n        return valid"
        if root.memo
        else f"return {root.fast.text}(instance)"
    )
    body = (
        "    try:\n"
        f"        {call}\n"
        "    except RecursionError:  # deep: answered on a fresh stack, whatever the caller's depth\n"
        f"        return bool(_on_fresh_stack({root.deep_valid.text}, instance))\n"
    )
    head = f"\ndef {root.is_valid.text}(instance: Any) -> TypeGuard["
    start = text.find(head)
    if start < 0 or text.find(head, start + 1) >= 0:
        return None
    doc_at = text.find("\n", start + len(head)) + 1
    doc_end = text.find("\n", doc_at)
    doc = text[doc_at:doc_end]
    end = doc_end + 1 + len(body)
    if not (
        doc_at > 0
        and doc_end > 0
        and doc.startswith('    """')
        and doc.endswith('"""')
        and len(doc) >= 10
        and '"""' not in doc[7:-3]
        and text[doc_end + 1 : end] == body
        and _ends_there(text, end)
    ):
        return None
    return PublicIsValid(
        root.is_valid.text, root.fast.text, root.memo, root.deep_valid.text, doc[7:-3]
    )


def _ends_there(text: str, at: int) -> bool:
    """Whether the function whose body runs to `at` ends there: its next line that is neither
    blank nor a comment is not indented."""
    for line in text[at:].splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return not line[0].isspace()
    return True


def _lean_memo(value: t.Expr) -> str | None:
    """The function `_memo_fast(_vN, "<pointer>", False, False)` wraps, if `value` is that:
    memo_runtime's lean unscoped wrapper (emit/memo.py writes it where no reference loop can be
    met and nothing is scoped)."""
    if not (
        isinstance(value, t.Call)
        and isinstance(value.func, t.Name)
        and value.func.id == "_memo_fast"
        and len(value.args) == 4
    ):
        return None
    function, where, *flags = value.args
    if (
        isinstance(function, t.Name)
        and isinstance(where, t.Lit)
        and type(where.value) is str
        and all(isinstance(flag, t.Lit) and flag.value is False for flag in flags)
    ):
        return function.id
    return None


def _dfa_table(source: str | None, called: str) -> _DfaTable | None:
    """The DFA table of a pattern (see CModule.dfa), or None."""
    if source is None:
        return None
    if called == "matcher":
        plan = plan_pattern(source)
        found = plan.table if plan.function == "_dfa_search" else None
    else:
        try:
            compiled = compile_automaton(parse(source))
        except (NfaUnsupported, TooLarge):
            return None
        found = compiled.table if compiled.function == "_dfa_search" else None
    if found is None:
        return None
    dfa: _DfaTable = found  # type: ignore[assignment]
    return dfa if dfa[5] - 48 + 1 < 2**16 else None  # (cells are C unsigned shorts)


def _dfa_c(symbol: str, table: _DfaTable) -> Iterable[CUnit]:
    """A DFA as static C tables and its sl_dfa (c_runtime.h). The pure table's states are
    48 + state * width and its classes 48 + class (regex/matcher.py): the C's are the same less
    48, so a cell is `state + class` in both, and `stop` (a match) and `stop + 1` (none) keep
    their meaning."""
    ascii_classes, bounds, classes, cells, start, stop, at_end, width = table
    padding = 2 * 48  # (the pure table opens with it: state 48 + class 48)

    def array(c_type: str, name: str, values: list[int]) -> CUnit:
        values = values or [0]  # (C has no empty arrays; an empty one is never read)
        return _static(
            "data",
            f"const {c_type} {symbol}_{name}[{len(values)}]",
            " = {",
            *(
                "    " + ", ".join(str(v) for v in values[first : first + 16]) + ","
                for first in range(0, len(values), 16)
            ),
            "};",
        )

    yield array("unsigned short", "ascii", [ord(c) - 48 for c in ascii_classes])
    yield array("Py_UCS4", "bounds", [ord(c) for c in bounds])
    yield array("unsigned short", "classes", [ord(c) - 48 for c in classes])
    yield array("unsigned short", "cells", [ord(c) - 48 for c in cells[padding:]])
    yield array("unsigned char", "at_end", [1 if c == "1" else 0 for c in at_end])
    yield _static(
        "data",
        f"const sl_dfa {symbol}",
        f" = {{{start - 48}, {stop - 48}, {width}, {len(bounds)}, "
        f"{symbol}_ascii, {symbol}_bounds, {symbol}_classes, {symbol}_cells, {symbol}_at_end}};",
    )


def _table(array: str, slots: dict[str, int]) -> Iterable[CUnit]:
    """A static array of objects and the texts that make them (slot order), NULL-terminated."""
    yield _static("data", f"PyObject *{array}[{len(slots) + 1}]", ";")
    texts = [
        line
        for text in sorted(slots, key=slots.__getitem__)
        for line in [*("    " + part for part in _c_lines(text)), "    ,"]
    ]
    yield _static("data", f"const char *const {array}_texts[]", " = {", *texts, "    NULL};")


def _c_lines(text: str) -> list[str]:
    """A C string literal of `text` (UTF-8), in parts of at most _CHUNK bytes."""
    data = text.encode("utf-8")
    return [_c_bytes(data[i : i + _CHUNK]) for i in range(0, len(data), _CHUNK)] or ['""']


def _c_string(text: str) -> str:
    return " ".join(_c_lines(text))


def _c_bytes(data: bytes) -> str:
    """A C string literal of bytes: printable ASCII as itself, anything else as an octal escape
    (three digits, so a following digit cannot join it)."""
    return '"' + data.decode("latin-1").translate(_ESCAPES) + '"'


# (`?` escaped: no trigraph can form)
_ESCAPES = {
    byte: (
        "\\" + chr(byte)
        if byte in (0x22, 0x5C)
        else chr(byte) if 0x20 <= byte < 0x7F and byte != 0x3F else f"\\{byte:03o}"
    )
    for byte in range(256)
}


def _c_comment(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9 ,.;:()'_-]", " ", text)[:200]


__all__ = ["CModule", "CTable", "CUnit", "UnitKind", "Unsupported", "is_fast"]
