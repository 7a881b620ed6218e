"""Black's layout for the long statements the emitter writes, worked out from the code tree.

Black's speed is fine for a contract, but a large schema (FHIR: thousands of functions) makes tens
of thousands of long error-path lines, and formatting them one by one with black takes minutes. The
long statements are few shapes: a call statement (`_e3(x["a"], ip + "/a", ...)`) and an assignment
of a call (`_K0 = frozenset({...})`), tables of rows (`_B1 = ((_v1, _e1, ...), ...)`, error specs)
and `if` lines of and/or. This lays them out as black does (its "right hand split": the last
bracket's contents on their own line if they fit, else one element per line with a trailing
comma, recursively; a string, which black cannot split, left long on its own line), from the
tree, so no emitted text is parsed back. Any other shape is left to black (render/module.py: on
the statement alone). Tests compare the result with black's on random schemas and on each shape
(tests/emit/test_black_layout.py).
"""

from __future__ import annotations

from typing import Any

from ..emit.tree import (
    INDENT,
    Assign,
    Attr,
    BoolOp,
    Call,
    Display,
    Expr,
    ExprStmt,
    GenExp,
    Header,
    Lit,
    Name,
    Stmt,
    Tuple,
    operand_text,
)

LINE_LENGTH = 100


def wrap_statement(
    stmt: Stmt, indent: str, line: str, width: int = LINE_LENGTH
) -> list[str] | None:
    """The black layout of one statement at `indent` (`line`: its text on one line, over-long:
    module._wrap asks for no other); None for a shape not handled."""
    if isinstance(stmt, Header):
        return _header(indent, stmt, width)
    if (
        isinstance(stmt, ExprStmt)
        and isinstance(stmt.value, Call)
        and isinstance(stmt.value.func, (Name, Attr))
    ):
        return _call(indent, "", stmt.value, width)
    if isinstance(stmt, Assign) and isinstance(stmt.target, Name) and isinstance(stmt.value, Call):
        return _call(indent, _assigned(stmt), stmt.value, width)
    if (
        isinstance(stmt, Assign)
        and isinstance(stmt.target, Name)
        and isinstance(stmt.value, Display)
    ):
        body = _collection(indent, stmt.value, width)  # a display is exploded, one element a line
        return None if body is None else [indent + _assigned(stmt) + body[0].lstrip(), *body[1:]]
    if (
        isinstance(stmt, Assign)
        and isinstance(stmt.target, Name)
        and isinstance(stmt.value, Tuple)
        and not stmt.value.bare
    ):
        # a table of rows (`_B1 = ((_v1, _e1, ...), ...)`, an error spec): exploded, one row a
        # line, a row still too long exploded in turn
        body = _nested_collection(indent, stmt.value, width)
        return None if body is None else [indent + _assigned(stmt) + body[0].lstrip(), *body[1:]]
    return None


# A statement this long on one line that the shapes above do not lay out is not given to black
# either: black's time grows faster than the statement's length (docs/performance.md, "Compile
# speed"), so a schema's large enum or const would take minutes to compile.
# It is exploded instead, each bracket that does not fit one element a line with a trailing comma:
# black leaves that as it is (its "magic trailing comma"), so the module is still black-stable.
BLACK_LIMIT = 8_000


def exploded(stmt: Stmt, indent: str, width: int = LINE_LENGTH) -> list[str] | None:
    """An assignment whose value is displays, tuples and calls, each bracket that does not fit
    exploded one element a line with a trailing comma; None for any other statement."""
    if not (isinstance(stmt, Assign) and isinstance(stmt.target, Name)):
        return None
    return _exploded(indent + _assigned(stmt), stmt.value, indent, "", width)


def _exploded(head: str, node: Any, indent: str, tail: str, width: int) -> list[str]:
    """`head + node + tail` on one line if it fits or node has no brackets to split at; else
    exploded at node's brackets, recursively."""
    text = head + _argument(node) + tail
    parts = _bracketed(node)
    if len(text) <= width or parts is None:
        return [text]
    opening, elements, closing = parts
    inner = indent + INDENT
    lines = [head + opening]
    for key, element in elements:
        lines += _exploded(
            inner + (key.render() + ": " if key is not None else ""), element, inner, ",", width
        )
    return [*lines, indent + closing + tail]


def _bracketed(node: Any) -> tuple[str, list[tuple[Any, Any]], str] | None:
    """(opening, [(dict key or None, element)], closing) of a display, tuple or call with elements."""
    if isinstance(node, Display) and node.items:
        if node.kind == "dict":
            return "{", list(node.items), "}"
        opening, closing = ("[", "]") if node.kind == "list" else ("{", "}")
        return opening, [(None, e) for e in node.items], closing
    if isinstance(node, Tuple) and node.elements and not node.bare:
        return "(", [(None, e) for e in node.elements], ")"
    if isinstance(node, Call) and node.args and not any(isinstance(a, GenExp) for a in node.args):
        return node.func.render() + "(", [(None, a) for a in node.args], ")"
    return None


def _header(indent: str, header: Header, width: int) -> list[str] | None:
    """An over-long `if`/`elif` line whose test is an and/or of three operands or more: black
    keeps the test in parentheses, on one line of its own if it fits, else one operand a line,
    each after its `and`/`or` (an operand still too long: None, black lays it out)."""
    if not isinstance(header.test, BoolOp):
        return None
    operands = _flat_operands(header.test, "")
    if len(operands) < 3:  # one and/or: black may split elsewhere
        return None
    inner = indent + INDENT
    opening, closing = indent + header.keyword + " (", indent + "):"
    whole = inner + header.test.render()
    if len(whole) <= width:
        return [opening, whole, closing]
    lines = [inner + op + text for op, text in operands]
    return None if any(len(line) > width for line in lines) else [opening, *lines, closing]


def _flat_operands(test: BoolOp, op: str) -> list[tuple[str, str]]:
    """(the `and `/`or ` before it, its text) for each operand of an and/or written without
    parentheses around it: an operand binding tighter (an `and` in an `or`) is split too, as
    black splits at every and/or outside brackets."""
    out: list[tuple[str, str]] = []
    for i, value in enumerate(test.values):
        before = op if i == 0 else test.op + " "
        if isinstance(value, BoolOp) and value.precedence >= test.precedence:
            out.extend(_flat_operands(value, before))
        else:
            out.append((before, operand_text(value, test.precedence)))
    return out


def _assigned(stmt: Assign) -> str:
    """`name = ` or `name: annotation = ` (a module constant is `Final`): black splits the value's
    brackets, the last on the line, either way."""
    target = stmt.target.render()
    return f"{target}: {stmt.annotation} = " if stmt.annotation else target + " = "


def _call(indent: str, head: str, call: Call, width: int) -> list[str] | None:
    """`head + call` at `indent`, split at the call's brackets (`head + call` does not fit: it is
    the over-long statement, or a lone argument too long for its line)."""
    func = call.func.render()
    args = [_argument(a) for a in call.args]
    inner = indent + INDENT
    opening, closing = indent + head + func + "(", indent + ")"
    if len(opening) > width or len(closing) > width:
        return None
    if len(args) == 1:
        return _bracket_body(inner, call.args[0], opening, closing, width)
    joined = inner + ", ".join(args)
    if len(joined) <= width:
        return [opening, joined, closing]
    lines = [opening]
    for node, arg in zip(call.args, args):  # one argument a line; a long collection exploded too
        if len(inner + arg + ",") <= width:
            lines.append(inner + arg + ",")
            continue
        if _unsplittable(node):  # (a long URL): black leaves it on its line, too long
            lines.append(inner + arg + ",")
            continue
        exploded = _collection(inner, node, width) if isinstance(node, (Display, Tuple)) else None
        if exploded is None:
            return None
        lines.extend([*exploded[:-1], exploded[-1] + ","])
    return [*lines, closing]


def _unsplittable(arg: Expr) -> bool:
    """A name or a string literal: one token, that black never splits."""
    return isinstance(arg, Name) or (isinstance(arg, Lit) and arg.code.text[:1] in ("'", '"'))


def _argument(arg: Expr) -> str:
    render_bare = getattr(arg, "render_bare", None)
    return render_bare() if render_bare is not None else arg.render()


def _bracket_body(
    inner: str, arg: Expr, opening: str, closing: str, width: int
) -> list[str] | None:
    """A single bracketed element: on its own line, or split further if it is a call or display."""
    text = _argument(arg)
    if len(inner + text) <= width:
        return [opening, inner + text, closing]
    if isinstance(arg, Call):
        body = _call(inner, "", arg, width)
    elif isinstance(arg, (Display, Tuple)):
        body = _collection(inner, arg, width)
    else:
        return None
    return None if body is None else [opening, *body, closing]


def _collection(indent: str, display: Display | Tuple, width: int) -> list[str] | None:
    """A display or tuple exploded one element per line, with the trailing comma black adds."""
    if isinstance(display, Tuple):
        opening, closing, elements = "(", ")", [e.render() for e in display.elements]
    else:
        opening, closing = ("[", "]") if display.kind == "list" else ("{", "}")
        elements = display.element_texts()
    if not elements:
        return None
    inner = indent + INDENT
    nodes = display.elements if isinstance(display, Tuple) else display.items
    for node, text in zip(nodes, elements):
        # (an entry black cannot split, `"long name": _Q1`, stays long: among two or more)
        if len(inner + text + ",") > width and not (
            len(elements) > 1 and _unsplittable_entry(display, node)
        ):
            return None
    return [indent + opening, *(inner + text + "," for text in elements), indent + closing]


def _unsplittable_entry(display: Display | Tuple, node: Any) -> bool:
    """An element (a dict's key and value) that is names and strings only: one token each."""
    if isinstance(display, Display) and display.kind == "dict":
        return _unsplittable(node[0]) and _unsplittable(node[1])
    return _unsplittable(node)


def _nested_collection(indent: str, value: Tuple | Display, width: int) -> list[str] | None:
    """A tuple, or a list or set of two elements or more, exploded one element per line with
    black's trailing commas, an element too long for its line exploded the same way, or left long
    if black cannot split it (a string); None for anything else (black lays it out then)."""
    if isinstance(value, Display) and value.kind == "dict":  # (one entry: black adds no comma)
        return _collection(indent, value, width) if len(value.items) > 1 else None
    elements = value.elements if isinstance(value, Tuple) else value.items
    if len(elements) < (1 if isinstance(value, Tuple) else 2):  # (a one-tuple keeps its comma)
        return None
    opening, closing = (
        ("(", ")")
        if isinstance(value, Tuple)
        else ("[", "]") if value.kind == "list" else ("{", "}")
    )
    inner = indent + INDENT
    lines = [indent + opening]
    for element in elements:
        text = element.render()
        if len(inner + text + ",") <= width or _unsplittable(element):
            lines.append(inner + text + ",")
            continue
        if not isinstance(element, (Tuple, Display)) or (
            isinstance(element, Tuple) and element.bare
        ):
            return None
        exploded = _nested_collection(inner, element, width)
        if exploded is None:
            return None
        lines.extend([*exploded[:-1], exploded[-1] + ","])
    return [*lines, indent + closing]


def signature(
    name: str, params: tuple[str, ...], returns: str, width: int = LINE_LENGTH
) -> list[str]:
    """`def name(params) -> returns:` as black lays it out: one line if it fits, else the
    parameters on one indented line, else one a line with a trailing comma."""
    whole = f"def {name}({', '.join(params)}) -> {returns}:"
    if len(whole) <= width:
        return [whole]
    together = INDENT + ", ".join(params)
    if len(together) <= width:
        return [f"def {name}(", together, f") -> {returns}:"]
    return [f"def {name}(", *(INDENT + param + "," for param in params), f") -> {returns}:"]
