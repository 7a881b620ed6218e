"""Names in emitted code: module constants shared between identical definitions, and the local
names of one function body or of one inlined copy of a subschema (a scope), so that copies placed
side by side never collide and nothing has to be renamed afterwards."""

from __future__ import annotations

from dataclasses import dataclass

from .tree import Assign, Call, Display, Expr, Name, Stmt, Tuple


@dataclass(frozen=True)
class Scope:
    """The local names of one body: `t`, `k`, `v`... with this scope's suffix (`t3` in the third
    inlined copy of a function); the suffix is unique in the function, so scopes never collide."""

    suffix: str = ""

    def __call__(self, base: str) -> Name:
        return Name(base + self.suffix)


class Constants:
    """Module-level constants (`_K0 = frozenset({...})`), one per distinct definition, and the
    statements that fill tables after the functions they name are defined."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix  # two emitters (a contract's input and output) share one module
        self.definitions: list[Stmt] = []
        self.late: list[Stmt] = []  # after the functions: tables that name them
        self._names: dict[tuple[str, str], Name] = {}
        self.filled: set[Name] = set()  # tables whose late statements are written
        self._pairs: dict[tuple[str, str], Name] = {}

    def constant(
        self, kind: str, value: Expr, key: str | None = None, annotation: str = ""
    ) -> Name:
        """The constant `_<prefix><kind>N: Final = value`, shared by every definition with the same
        key (the value's text unless a key is given). Final: a module compiled with mypyc reads it
        from a C variable instead of looking it up in the module's dict at each use (a table
        filled later is still Final: the name is never bound again)."""
        ident = (kind, key if key is not None else value.render())
        if ident not in self._names:
            name = Name(f"_{self.prefix}{kind}{len(self._names)}")
            self._names[ident] = name
            if not annotation and _holds_empty(value):
                # mypy infers no type for `[[]]` or `("...", {}, None)` (--strict asks for one)
                annotation = _container_type(value)
            self.definitions.append(
                Assign(name, value, f"Final[{annotation}]" if annotation else "Final")
            )
        return self._names[ident]

    def late_constant(self, kind: str, value: Expr) -> Name:
        """The constant `_<prefix><kind>N = value` defined after the functions (its value names
        them), one per distinct value."""
        ident = (kind, value.render())
        if ident not in self._names:
            name = Name(f"_{self.prefix}{kind}{len(self._names)}")
            self._names[ident] = name
            self.late.append(Assign(name, value))
        return self._names[ident]

    def pair(self, fast: Name, error: Name) -> Name:
        """A module-level (fast, error) tuple for property tables: each pair is written once,
        where FHIR's tables repeat the same few hundred pairs thousands of times."""
        key = (fast.id, error.id)
        if key not in self._pairs:
            self._pairs[key] = Name(f"_{self.prefix}Q{len(self._pairs)}")
            # after the functions it names, before the tables that use it
            self.late.append(Assign(self._pairs[key], Tuple((fast, error))))
        return self._pairs[key]


def _holds_empty(value: Expr) -> bool:
    """Whether an empty list or dict display is in the value."""
    if isinstance(value, Display):
        elements = [v for _, v in value.items] if value.kind == "dict" else list(value.items)
        return (not elements and value.kind != "set") or any(map(_holds_empty, elements))
    if isinstance(value, Tuple):
        return any(map(_holds_empty, value.elements))
    if isinstance(value, Call):
        return any(map(_holds_empty, value.args))
    return False


def _container_type(value: Expr) -> str:
    """The annotation of a constant whose value mypy cannot type by itself."""
    if isinstance(value, Tuple):
        return "tuple[" + ", ".join("Any" for _ in value.elements) + "]"
    if isinstance(value, Display):  # (a set display holds neither: _holds_empty passes it by)
        return "list[Any]" if value.kind == "list" else "dict[Any, Any]"
    return "Any"
