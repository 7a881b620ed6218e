"""A small tree of Python statements and expressions: what the emitter builds and the renderer
turns into text, once, at the end.

Every node is a frozen dataclass, so two pieces of code are compared by their structure (the type
dispatch shares branches that are equal), never by their text. Leaves are compiler-made names
(`Name`) and schema values rendered by `codegen.literal`, the one escaping function (`Lit`); no
other text enters. `negate()` is a real negation: `==`/`!=`, `in`/`not in` and `is`/`is not`
turn into each other (each is exactly the other's opposite, NaN included), `not e` becomes `e`,
the constants True and False (alone or in parentheses) become each other, and everything else,
order comparisons included (`not (x < 10)` is not `x >= 10` for NaN), is wrapped in `not`.

Rendering follows Python's precedence: an operand is parenthesised only where the grammar needs it,
except where a node asks for parentheses that read better (`Paren`), and `not` and sums of counts
parenthesise every operand that is not atomic.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Iterable, Sequence

from ..codegen import Code, literal
from ..codegen import Name as _CodeName

INDENT = "    "

# Binding strength, lowest first: what decides where parentheses are needed.
_OR, _AND, _NOT, _COMPARE, _ARITH_ADD, _ARITH_MUL, _ATOM = 1, 2, 3, 4, 5, 6, 9
_FLIP = {"==": "!=", "!=": "==", "in": "not in", "not in": "in", "is": "is not", "is not": "is"}
_COMPARE_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"})


@functools.lru_cache(maxsize=65536)
def _check_identifier(text: str) -> None:
    """codegen.Name's check (an ASCII identifier, not a keyword), once per distinct name."""
    _CodeName(text)


class Expr:
    """An expression. Subclasses are frozen dataclasses."""

    precedence = _ATOM

    def render(self) -> str:
        raise NotImplementedError

    def negate(self) -> Expr:
        constant = truth(self)  # (True and False, in parentheses or not, become each other)
        return Not(self) if constant is None else lit(not constant)


def _operand(expr: Expr, parent: int) -> str:
    """`expr` as an operand of an operator binding with strength `parent`."""
    text = expr.render()
    return "(" + text + ")" if expr.precedence < parent else text


def operand_text(expr: Expr, parent: int) -> str:
    """`expr` as it is written as an operand of an operator binding with strength `parent` (the
    layout splits an and/or where its rendering puts each operand)."""
    return _operand(expr, parent)


def _term(expr: Expr) -> str:
    """`expr` as one term of `not` or of a sum: parenthesised unless atomic."""
    text = expr.render()
    return text if expr.precedence == _ATOM else "(" + text + ")"


@dataclass(frozen=True)
class Name(Expr):
    """An identifier the compiler made (checked by codegen.Name)."""

    id: str

    def __post_init__(self) -> None:
        _check_identifier(self.id)  # raises on anything but a safe identifier

    def render(self) -> str:
        return self.id


@dataclass(frozen=True)
class Lit(Expr):
    """A value rendered by codegen.literal (schema text enters only here), or a constant of the
    compiler's own (True, None, a small int). `value` is the value itself, for a backend that
    renders it in another language (the C backend reads it, never the text)."""

    code: Code
    value: Any = field(default=None, compare=False, hash=False, repr=False)

    def render(self) -> str:
        return self.code.text


def lit(value: Any) -> Lit:
    if type(value) is str:  # (exactly str: equal strings are the same literal)
        return _string_lit(value)
    return Lit(literal(value), value)


@functools.lru_cache(maxsize=1 << 16)
def _string_lit(value: str) -> Lit:
    """A string's Lit, made once: a compile writes the same names and messages many times."""
    return Lit(literal(value), value)


TRUE, FALSE, NONE = lit(True), lit(False), lit(None)


@dataclass(frozen=True)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...] = ()

    def render(self) -> str:
        return self.func.render() + "(" + ", ".join(_argument(a) for a in self.args) + ")"


def _argument(arg: Expr) -> str:
    if isinstance(arg, GenExp):
        return arg.render_bare()
    return arg.render()


def call(func: Expr | str, *args: Expr) -> Call:
    return Call(Name(func) if isinstance(func, str) else func, tuple(args))


@dataclass(frozen=True)
class Attr(Expr):
    value: Expr
    attr: str

    def __post_init__(self) -> None:
        _check_identifier(self.attr)

    def render(self) -> str:
        return _operand(self.value, _ATOM) + "." + self.attr


def method(value: Expr, attr: str, *args: Expr) -> Call:
    return Call(Attr(value, attr), tuple(args))


@dataclass(frozen=True)
class Subscript(Expr):
    value: Expr
    index: Expr

    def render(self) -> str:
        return _operand(self.value, _ATOM) + "[" + self.index.render() + "]"


@dataclass(frozen=True)
class Compare(Expr):
    left: Expr
    op: str
    right: Expr
    precedence = _COMPARE

    def __post_init__(self) -> None:
        if self.op not in _COMPARE_OPS:
            raise ValueError(f"not a comparison: {self.op!r}")

    def render(self) -> str:
        return (
            _operand(self.left, _COMPARE + 1)
            + " "
            + self.op
            + " "
            + _operand(self.right, _COMPARE + 1)
        )

    def negate(self) -> Expr:
        if self.op in _FLIP:
            return Compare(self.left, _FLIP[self.op], self.right)
        return Not(self)


@dataclass(frozen=True)
class BoolOp(Expr):
    op: str  # "and" or "or"
    values: tuple[Expr, ...]

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return _AND if self.op == "and" else _OR

    def render(self) -> str:
        return (" " + self.op + " ").join(_operand(v, self.precedence) for v in self.values)


def _joined(op: str, values: Iterable[Expr]) -> Expr:
    """The and/or of `values`, flat, without members that are its identity (True in an and) and
    reduced to its absorbing constant where a member is it (False in an and): a test decided at
    compile time, such as a pattern every string matches, is no code."""
    flat: list[Expr] = []
    values = list(values)
    if not values:
        raise ValueError("an empty " + op)
    identity = op == "and"
    for value in values:
        constant = truth(value)
        if constant is identity:
            continue
        if constant is not None:
            return lit(constant)  # (the members are tests without effects: none need run)
        flat.extend(value.values if isinstance(value, BoolOp) and value.op == op else (value,))
    if not flat:
        return lit(identity)
    return flat[0] if len(flat) == 1 else BoolOp(op, tuple(flat))


def truth(expr: Expr) -> bool | None:
    """True or False where `expr` is that constant (in parentheses or not), else None."""
    while type(expr) is Paren:
        expr = expr.inner
    if type(expr) is Lit and expr.code.text in ("True", "False"):
        return expr.code.text == "True"
    return None


def when(test: Expr, body: Block) -> list[Stmt]:
    """`if test: body`, or the body alone where the test is True, or nothing where it is False."""
    constant = truth(test)
    if constant is None:
        return [if_(test, body)]
    return list(body) if constant else []


def and_(*values: Expr) -> Expr:
    return _joined("and", values)


def or_(*values: Expr) -> Expr:
    return _joined("or", values)


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr
    precedence = _NOT

    def render(self) -> str:
        return "not " + _term(self.operand)

    def negate(self) -> Expr:
        return self.operand


@dataclass(frozen=True)
class BinOp(Expr):
    left: Expr
    op: str  # "+", "-", "%"
    right: Expr

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return _ARITH_MUL if self.op == "%" else _ARITH_ADD

    def render(self) -> str:
        return (
            _operand(self.left, self.precedence)
            + " "
            + self.op
            + " "
            + _operand(self.right, self.precedence + 1)
        )


@dataclass(frozen=True)
class Sum(Expr):
    """A count of tests that hold (`(not f(x)) + g(x)`): each term parenthesised unless atomic."""

    terms: tuple[Expr, ...]
    precedence = _ARITH_ADD

    def render(self) -> str:
        return " + ".join(_term(t) for t in self.terms)


@dataclass(frozen=True)
class Paren(Expr):
    """Parentheses the grammar does not need but that make a line read better."""

    inner: Expr

    def render(self) -> str:
        return "(" + self.inner.render() + ")"


@dataclass(frozen=True)
class Tuple(Expr):
    elements: tuple[Expr, ...]
    bare: bool = False  # `a, b` (an assignment or loop target) rather than `(a, b)`

    def render(self) -> str:
        inner = [e.render() for e in self.elements]
        if len(inner) == 1:
            return "(" + inner[0] + ",)"
        text = ", ".join(inner)
        return text if self.bare else "(" + text + ")"


@dataclass(frozen=True)
class Display(Expr):
    """A list, set or dict display: `[a, b]`, `{a, b}`, `{k: v}` (items are (key, value) pairs)."""

    kind: str  # "list", "set" or "dict"
    items: tuple[Any, ...]

    def element_texts(self) -> list[str]:
        if self.kind == "dict":
            return [k.render() + ": " + v.render() for k, v in self.items]
        return [e.render() for e in self.items]

    def render(self) -> str:
        opening, closing = ("[", "]") if self.kind == "list" else ("{", "}")
        return opening + ", ".join(self.element_texts()) + closing


@dataclass(frozen=True)
class GenExp(Expr):
    """`elt for target in source if condition` (parenthesised unless the only argument of a call)."""

    elt: Expr
    target: Expr
    source: Expr
    condition: Expr | None = None

    def render_bare(self) -> str:
        text = self.elt.render() + " for " + self.target.render() + " in " + self.source.render()
        return text + (" if " + self.condition.render() if self.condition is not None else "")

    def render(self) -> str:
        return "(" + self.render_bare() + ")"


@dataclass(frozen=True)
class ListComp(Expr):
    generator: GenExp

    def render(self) -> str:
        return "[" + self.generator.render_bare() + "]"


def literal_expr(value: Any) -> Expr:
    """A JSON value (or a tuple/frozenset of them) as a tree with literal() leaves: rendered flat
    it is exactly literal(value), and the layout can split its brackets as black does."""
    if type(value) is str:  # (most values: one test instead of five)
        return _string_lit(value)
    if isinstance(value, frozenset):
        if not value:
            return lit(value)
        members = sorted(
            (literal_expr(v) for v in value), key=lambda e: (len(e.render()), e.render())
        )
        return call("frozenset", Display("set", tuple(members)))
    if isinstance(value, list):
        return Display("list", tuple(literal_expr(v) for v in value))
    if isinstance(value, dict):
        return Display("dict", tuple((lit(k), literal_expr(v)) for k, v in value.items()))
    if isinstance(value, tuple):
        return Tuple(tuple(literal_expr(v) for v in value))
    if isinstance(value, (str, int, float, Decimal)) or value is None:
        return lit(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")


# -- statements --------------------------------------------------------------------------------
class Stmt:
    """A statement. Subclasses are frozen dataclasses."""


Block = Sequence[Stmt]


@dataclass(frozen=True)
class If(Stmt):
    """`if T1: ... elif T2: ... else: ...`: an explicit chain (an `else` holding one `if` stays an
    `else` with a nested `if`)."""

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] = ()


def if_(test: Expr, body: Block, orelse: Block = ()) -> If:
    return If(((test, tuple(body)),), tuple(orelse))


@dataclass(frozen=True)
class For(Stmt):
    target: Expr
    source: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Assign(Stmt):
    target: Expr
    value: Expr
    annotation: str = ""  # a compiler-written annotation (`dict[str, Any]`), never schema text


@dataclass(frozen=True)
class Return(Stmt):
    value: Expr | None = None


@dataclass(frozen=True)
class ExprStmt(Stmt):
    value: Expr


@dataclass(frozen=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True)
class Break(Stmt):
    pass


@dataclass(frozen=True)
class Header(Stmt):
    """The first line of an `if`/`elif` arm, as `render_block` hands it to its `wrap` to lay out
    when over-long; never itself in a block."""

    keyword: str  # "if" or "elif"
    test: Expr


# The comments emitted code may hold: fixed ASCII text of the compiler's, named by key (a schema
# never writes one).
COMMENTS = {
    "str-tests": "the pattern as str tests: exact, and faster than re (docs/regex.md)",
    "automaton": "a linear-time automaton: re could take super-linear time (docs/regex.md)",
    "guarded": "its scanning lookahead run only where the text it seeks is there (docs/regex.md)",
    "ascii-first": "ASCII tested as str tests, then any other string by re (docs/regex.md)",
}


@dataclass(frozen=True)
class Comment(Stmt):
    """A line of comment above the statement it explains (one of COMMENTS, by key)."""

    note: str

    def __post_init__(self) -> None:
        if self.note not in COMMENTS:
            raise ValueError(f"not a known comment: {self.note!r}")


RETURN_FALSE = Return(FALSE)


def fail_if(test: Expr) -> If:
    """`if test: return False`: the shape of every fast check."""
    return if_(test, [RETURN_FALSE])


def is_fail(block: Block) -> bool:
    """A block that is `return False` alone (a type the node rejects outright)."""
    return tuple(block) == (RETURN_FALSE,)


def without_comments(block: Block) -> list[Stmt]:
    """The statements of a block that are code."""
    return [stmt for stmt in block if not isinstance(stmt, Comment)]


# -- rendering ---------------------------------------------------------------------------------
# Lays out one simple statement or `if`/`elif` line (the statement, its indentation, its text on
# one line): its lines, or None to leave it on one line.
Wrap = Callable[[Stmt, str, str], "list[str] | None"]


def render_block(block: Block, depth: int, wrap: Wrap | None = None) -> list[str]:
    """The lines of a block at an indentation depth; `wrap` lays out over-long statements."""
    lines: list[str] = []
    _render_into(block, depth, wrap, lines)
    return lines


def _render_into(block: Block, depth: int, wrap: Wrap | None, lines: list[str]) -> None:
    """The lines of a block appended to `lines` (nested blocks write to the same list)."""
    for stmt in block:
        _render_stmt(stmt, depth, wrap, lines)


def _render_stmt(stmt: Stmt, depth: int, wrap: Wrap | None, lines: list[str]) -> None:
    indent = INDENT * depth
    if isinstance(stmt, If):
        for i, (test, body) in enumerate(stmt.branches):
            keyword = "if" if i == 0 else "elif"
            line = indent + keyword + " " + test.render() + ":"
            wrapped = wrap(Header(keyword, test), indent, line) if wrap is not None else None
            if wrapped is None:
                lines.append(line)
            else:
                lines.extend(wrapped)
            _render_into(_suite(body), depth + 1, wrap, lines)
        if stmt.orelse:
            lines.append(indent + "else:")
            _render_into(stmt.orelse, depth + 1, wrap, lines)
    elif isinstance(stmt, For):
        lines.append(indent + "for " + stmt.target.render() + " in " + stmt.source.render() + ":")
        _render_into(_suite(stmt.body), depth + 1, wrap, lines)
        if stmt.orelse:
            lines.append(indent + "else:")
            _render_into(stmt.orelse, depth + 1, wrap, lines)
    elif isinstance(stmt, Comment):
        lines.append(indent + "# " + COMMENTS[stmt.note])
    else:
        line = indent + statement_text(stmt)
        wrapped = wrap(stmt, indent, line) if wrap is not None else None
        if wrapped is None:
            lines.append(line)
        else:
            lines.extend(wrapped)


def _suite(body: Block) -> Block:
    """A block as the body of a compound statement: at least one statement that is code."""
    for stmt in body:
        if not isinstance(stmt, Comment):
            return body  # (one statement of code is enough: the first found ends the search)
    return (*body, Pass())


def statement_text(stmt: Stmt) -> str:
    """A simple (one-line) statement."""
    if isinstance(stmt, Assign):
        annotation = ": " + stmt.annotation if stmt.annotation else ""
        return stmt.target.render() + annotation + " = " + stmt.value.render()
    if isinstance(stmt, Return):
        return "return" if stmt.value is None else "return " + stmt.value.render()
    if isinstance(stmt, ExprStmt):
        return stmt.value.render()
    if isinstance(stmt, Pass):
        return "pass"
    if isinstance(stmt, Break):
        return "break"
    raise TypeError(f"not a simple statement: {stmt!r}")


def count_lines(block: Block) -> int:
    """How many lines a block renders to (unwrapped)."""
    return len(render_block(block, 0))


# -- a check's outcome as a flag ----------------------------------------------------------------
def as_flag(block: Block, flag: Name) -> tuple[list[Stmt], bool] | None:
    """`block` (fast checks that `return False` on failure and fall through on success) rewritten
    to set `flag = False` instead of returning, so that a condition (`if`) can be checked in place
    and its outcome tested after it: a failure in a loop leaves the loop by `break`, and the
    statements after one that may fail run under `if flag:`. Returns the statements and whether
    any of them may fail; None when the block returns anything else (it is then called)."""
    return _flagged(block, flag, False)


def _flagged(block: Block, flag: Name, in_loop: bool) -> tuple[list[Stmt], bool] | None:
    out: list[Stmt] = []
    fails = False
    for index, stmt in enumerate(block):
        if stmt == RETURN_FALSE:
            return out + [Assign(flag, FALSE)] + ([Break()] if in_loop else []), True
        rewritten = _flagged_stmt(stmt, flag, in_loop)
        if rewritten is None:
            return None
        new, may_fail = rewritten
        out.append(new)
        fails = fails or may_fail
        if not may_fail:
            continue
        if isinstance(stmt, For) and in_loop:
            out.append(if_(Not(flag), [Break()]))  # its break left only the inner loop
        elif not in_loop:  # (in a loop, a failure has left it: what follows runs without one)
            guarded = _flagged(block[index + 1 :], flag, in_loop)
            if guarded is None:
                return None
            return out + ([if_(flag, guarded[0])] if guarded[0] else []), True
    return out, fails


def _flagged_stmt(stmt: Stmt, flag: Name, in_loop: bool) -> tuple[Stmt, bool] | None:
    """One statement rewritten (an `if` chain or a loop holding failures), and whether it may fail."""
    if isinstance(stmt, Return):
        return None
    if isinstance(stmt, If):
        arms: list[tuple[Expr, tuple[Stmt, ...]]] = []
        may_fail = False
        for test, body in stmt.branches:
            flagged = _flagged(body, flag, in_loop)
            if flagged is None:
                return None
            arms.append((test, tuple(flagged[0]) or (Pass(),)))
            may_fail = may_fail or flagged[1]
        orelse = _flagged(stmt.orelse, flag, in_loop)
        if orelse is None:
            return None
        return If(tuple(arms), tuple(orelse[0])), may_fail or orelse[1]
    if isinstance(stmt, For):
        loop_body = _flagged(stmt.body, flag, True)
        orelse = _flagged(stmt.orelse, flag, in_loop)
        if loop_body is None or orelse is None:
            return None
        return (
            For(stmt.target, stmt.source, tuple(loop_body[0]) or (Pass(),), tuple(orelse[0])),
            loop_body[1] or orelse[1],
        )
    return stmt, False
