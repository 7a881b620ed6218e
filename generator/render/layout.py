"""Black's layout for the long lines the emitter writes, without running black.

Black's speed is fine for a contract, but a large schema (FHIR: thousands of functions) makes
tens of thousands of long error-path lines, and formatting them one by one with black takes
minutes. The long lines are few shapes: a call statement (`out.append(ValidationError(...))`,
`_e3(x["a"], ip + "/a", ...)`) and an assignment of a call (`_K0 = frozenset({...})`). This lays
them out as black does (its "right hand split": the last bracket's contents on their own line if
they fit, else one element per line with a trailing comma, recursively). Anything else is left
to black. Tests compare the result with black's on random schemas.
"""

from __future__ import annotations

import ast

LINE_LENGTH = 100
_INDENT = "    "


def wrap(line: str) -> list[str] | None:
    """The black layout of one over-long line, or None when it is not a shape handled here."""
    stripped = line.lstrip(" ")
    indent = line[: len(line) - len(stripped)]
    try:
        tree = ast.parse(stripped)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    statement = tree.body[0]
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        if isinstance(statement.value.func, ast.Attribute) or isinstance(statement.value.func, ast.Name):
            return _call(indent, "", statement.value, stripped, "")
    if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Call)):
        head = statement.targets[0].id + " = "
        return _call(indent, head, statement.value, stripped, "")
    return None


def _segment(source: str, node: ast.AST) -> str:
    text = ast.get_source_segment(source, node)
    if text is None:
        raise ValueError("no source")
    return text


def _fits(text: str) -> bool:
    return len(text) <= LINE_LENGTH


def _call(indent: str, head: str, call: ast.Call, source: str, tail: str) -> list[str] | None:
    """`head + call + tail` at `indent`, split at the call's brackets."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    try:
        func = _segment(source, call.func)
        args = [_segment(source, a) for a in call.args]
    except ValueError:
        return None
    whole = indent + head + func + "(" + ", ".join(args) + ")" + tail
    if _fits(whole):
        return [whole]
    inner = indent + _INDENT
    opening, closing = indent + head + func + "(", indent + ")" + tail
    if not _fits(opening) or not _fits(closing):
        return None
    if len(args) == 1:
        return _bracket_body(inner, call.args[0], source, opening, closing)
    joined = inner + ", ".join(args)
    if _fits(joined):
        return [opening, joined, closing]
    lines = [opening]
    for arg_node, arg in zip(call.args, args):
        if _fits(inner + arg + ","):
            lines.append(inner + arg + ",")
        else:
            return None
    lines.append(closing)
    return lines


def _bracket_body(inner: str, node: ast.expr, source: str, opening: str, closing: str) -> list[str] | None:
    """A single bracketed element: on its own line, or split further if it is a call or set."""
    text = _segment(source, node)
    if _fits(inner + text):
        return [opening, inner + text, closing]
    if isinstance(node, ast.Call):
        body = _call(inner, "", node, source, "")
    elif isinstance(node, (ast.Set, ast.List, ast.Tuple)) and node.elts:
        body = _collection(inner, node, source)
    else:
        return None
    return None if body is None else [opening, *body, closing]


def _collection(indent: str, node: ast.Set | ast.List | ast.Tuple, source: str) -> list[str] | None:
    """A set/list/tuple exploded one element per line, with the trailing comma black adds."""
    if isinstance(node, ast.Tuple):
        return None  # black's parenthesis rules for tuples are not mirrored here
    opening, closing = ("{", "}") if isinstance(node, ast.Set) else ("[", "]")
    inner = indent + _INDENT
    lines = [indent + opening]
    for element in node.elts:
        text = _segment(source, element)
        if not _fits(inner + text + ","):
            return None
        lines.append(inner + text + ",")
    lines.append(indent + closing)
    return lines
