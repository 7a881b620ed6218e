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

from ..emit.tree import INDENT, Assign, Attr, Call, Display, Expr, ExprStmt, Name, Stmt, statement_text

LINE_LENGTH = 100


def wrap_statement(stmt: Stmt, indent: str, width: int = LINE_LENGTH) -> list[str] | None:
    """The black layout of one statement at `indent` if it is over-long; None when it fits, or for
    a shape not handled."""
    if isinstance(stmt, (ExprStmt, Assign)) and len(indent) + len(statement_text(stmt)) <= width:
        return None
    if isinstance(stmt, ExprStmt) and isinstance(stmt.value, Call) and isinstance(stmt.value.func, (Name, Attr)):
        return _call(indent, "", stmt.value, width)
    if isinstance(stmt, Assign) and not stmt.annotation and isinstance(stmt.target, Name) and isinstance(stmt.value, Call):
        return _call(indent, stmt.target.render() + " = ", stmt.value, width)
    return None


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
    if any(len(inner + arg + ",") > width for arg in args):
        return None
    return [opening, *(inner + arg + "," for arg in args), closing]


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
    elif isinstance(arg, Display) and arg.kind in ("set", "list") and arg.items:
        body = _collection(inner, arg, width)
    else:
        return None
    return None if body is None else [opening, *body, closing]


def _collection(indent: str, display: Display, width: int) -> list[str] | None:
    """A set or list display exploded one element per line, with the trailing comma black adds."""
    opening, closing = ("{", "}") if display.kind == "set" else ("[", "]")
    inner = indent + INDENT
    elements = display.element_texts()
    if any(len(inner + text + ",") > width for text in elements):
        return None
    return [indent + opening, *(inner + text + "," for text in elements), indent + closing]
