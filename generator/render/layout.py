"""Black's layout for the long statements the emitter writes, worked out from the code tree.

Black's speed is fine for a contract, but a large schema (FHIR: thousands of functions) makes tens
of thousands of long error-path lines, and formatting them one by one with black takes minutes. The
long statements are few shapes: a call statement (`_e3(x["a"], ip + "/a", ...)`) and an assignment
of a call (`_K0 = frozenset({...})`). This lays them out as black does (its "right hand split": the
last bracket's contents on their own line if they fit, else one element per line with a trailing
comma, recursively), from the tree, so no emitted text is parsed back. Any other shape is left to
black. Tests compare the result with black's on random schemas.
"""

from __future__ import annotations

from ..emit.tree import INDENT, Assign, Attr, Call, Display, Expr, ExprStmt, Name, Stmt, Tuple, statement_text

LINE_LENGTH = 100


def wrap_statement(stmt: Stmt, indent: str, width: int = LINE_LENGTH) -> list[str] | None:
    """The black layout of one statement at `indent` if it is over-long; None when it fits, or for
    a shape not handled."""
    if isinstance(stmt, (ExprStmt, Assign)) and len(indent) + len(statement_text(stmt)) <= width:
        return None
    if isinstance(stmt, ExprStmt) and isinstance(stmt.value, Call) and isinstance(stmt.value.func, (Name, Attr)):
        return _call(indent, "", stmt.value, width)
    if isinstance(stmt, Assign) and isinstance(stmt.target, Name) and isinstance(stmt.value, Call):
        return _call(indent, _assigned(stmt), stmt.value, width)
    if isinstance(stmt, Assign) and isinstance(stmt.target, Name) and isinstance(stmt.value, Display):
        body = _collection(indent, stmt.value, width)  # a display is exploded, one element a line
        return None if body is None else [indent + _assigned(stmt) + body[0].lstrip(), *body[1:]]
    return None


def _assigned(stmt: Assign) -> str:
    """`name = ` or `name: annotation = ` (a module constant is `Final`): black splits the value's
    brackets, the last on the line, either way."""
    target = stmt.target.render()
    return f"{target}: {stmt.annotation} = " if stmt.annotation else target + " = "


def _call(indent: str, head: str, call: Call, width: int) -> list[str] | None:
    """`head + call` at `indent`, split at the call's brackets."""
    func = call.func.render()
    args = [_argument(a) for a in call.args]
    whole = indent + head + func + "(" + ", ".join(args) + ")"
    if len(whole) <= width:
        return [whole]
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
        exploded = _collection(inner, node, width) if isinstance(node, (Display, Tuple)) else None
        if exploded is None:
            return None
        lines.extend([*exploded[:-1], exploded[-1] + ","])
    return [*lines, closing]


def _argument(arg: Expr) -> str:
    render_bare = getattr(arg, "render_bare", None)
    return render_bare() if render_bare is not None else arg.render()


def _bracket_body(inner: str, arg: Expr, opening: str, closing: str, width: int) -> list[str] | None:
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
    if any(len(inner + text + ",") > width for text in elements):
        return None
    return [indent + opening, *(inner + text + "," for text in elements), indent + closing]


def signature(name: str, params: tuple[str, ...], returns: str, width: int = LINE_LENGTH) -> list[str]:
    """`def name(params) -> returns:` as black lays it out: one line if it fits, else the
    parameters on one indented line, else one a line with a trailing comma."""
    whole = f"def {name}({', '.join(params)}) -> {returns}:"
    if len(whole) <= width:
        return [whole]
    together = INDENT + ", ".join(params)
    if len(together) <= width:
        return [f"def {name}(", together, f") -> {returns}:"]
    return [f"def {name}(", *(INDENT + param + "," for param in params), f") -> {returns}:"]
