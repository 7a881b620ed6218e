"""How a memoized subschema's functions are called (doubling.py says which): its alias, the
name every call uses (plan/recursion.py), is bound to a wrapper (memo_runtime.py) rather than to
the function itself. A schema where no subschema applies twice to one value has no such node,
and its code is unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from .tree import Assign, Name, Stmt, call, lit

if TYPE_CHECKING:
    from .module import ModuleEmitter

# The wrapper of each kind of function (the eval functions are only called by their own node's
# annotation function, which is wrapped).
_WRAPPERS = {"fast": "_memo_fast", "annot": "_memo_once", "error": "_memo_errors"}


def alias(m: ModuleEmitter, which: str, node: ir.Node, name: Name, function: Name) -> Stmt:
    """The definition of the alias `name` that calls `function`, the `which` function of `node`."""
    wrapper = _WRAPPERS.get(which)
    if wrapper is None or node not in m.plan.memo:
        return Assign(name, function)
    if which != "error" and not m.plan.memo_loops:  # (no re-entry to watch for: the lean one)
        lean = (lit(False),) if m.dynamic else (lit(False), lit(False))  # (False: no scope)
        return Assign(name, call(m.prim(wrapper), function, lit(node.pointer), *lean))
    return Assign(name, call(m.prim(wrapper), function, lit(node.pointer)))
