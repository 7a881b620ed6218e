"""Static types for the values a compiled schema accepts: the TypedDicts and type aliases every
generated module defines, and the root type that `is_valid` is a TypeGuard of.

The types are read from the lowered IR (lower.py): the compile's own graph (api.Built.lowered),
with the definitions no reference reached lowered too, so references, remote documents, `$id`
base changes, an embedded `$schema` and what each profile enforces are as the validator has them.
Each keyword unit says what its checks mean as a type (its `types` hook, over the algebra of
static_types.py; the pipeline hands them in, KeywordTables.type_hooks); this module names and
intersects the parts and writes the definitions. It reads no schema and names no keyword.

The rule (the units' hooks keep it): a type is never narrower than the schema. Wherever the
schema says more than a static type can, the type says less:

- `integer` is `int | float | Decimal` (1.0 and Decimal("1") are integers; draft 4: `int` only),
  `number` is `int | float | Decimal`; an `enum`/`const` of strings, integers, booleans and null is
  a `Literal` (an integer also as `float | Decimal`: 1.0 equals 1 in JSON), other values are their
  kind (`float`, `list[Any]`, `dict[str, Any]`).
- An object with `properties` is a TypedDict, in the functional syntax so any property name
  works; `required` names are required keys (typed as other values where no property declares
  them), the others not required. Keys a
  TypedDict does not declare (anything `additionalProperties` or `patternProperties` allows) cannot
  be said by a TypedDict: the TypedDict is kept, so a dict literal with an undeclared key is
  flagged by mypy although the schema may accept it; values narrowed by `is_valid` are not
  affected. An object without properties is `dict[str, X]`, X the union of what
  additionalProperties and patternProperties allow (Any when either is absent).
- Arrays are `list[X]`, X the union of every `prefixItems`/`items`/`additionalItems` schema.
- oneOf/anyOf are unions; `if`/`then`/`else` is the union of `then` and `else`; allOf and a
  2019-09+ `$ref` beside other keywords are intersected: objects are merged (properties of both
  sides, each the intersection of its two types, required names of both), literals and kinds
  intersected; where an intersection cannot be worked out (a reference to a definition still
  being read, or too deep) the first side is kept, which is wider. `not`, `contains`,
  `dependentSchemas`, `unevaluated*`, bounds, patterns and formats narrow nothing.
- A schema without `type` admits every kind, so `{"properties": {...}}` is the TypedDict in a
  union with every other JSON kind.
- `true` is `Any`, `false` is `NoReturn`; `$dynamicRef`/`$recursiveRef` whose target is chosen at
  run time are `Any`, with a comment saying so.

Names: the root is given (`Instance`, `Input`, `Output`); `$defs`/`definitions` of a root and every
reference target are named types, nested objects get their parent's name plus the property's;
every name is made here from sanitised text (ASCII letters and digits of a key, camel-cased) and
deduplicated, never taken from the schema as is. Every value in the emitted text goes through
codegen.literal(). The output runs on Python 3.10 (no typing.NotRequired: a TypedDict with both
required and optional keys is a class over two functional TypedDicts, `_NameRequired` and
`_NameOptional` with total=False). Recursive definitions are forward references in strings.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping, Union
from urllib.parse import urldefrag, urlsplit

from ..codegen import Code, Name, code, comment, join, literal
from ..ir import Node
from ..keywords.base import KeywordTables
from ..lower import Lowered, Lowering, lower_definitions, lower_root
from ..profiles import Profile
from ..static_types import ANY_OBJECT, NEVER, TOP, Obj, Ty, camel, join_all, ordered_meet

if TYPE_CHECKING:
    from ..resolve import Registry

# -- names -----------------------------------------------------------------------------------------

# The capitalised builtins of Python 3.10 to 3.13, fixed here (not read from the running Python) so
# that names do not depend on the Python that compiles.
_BUILTINS = frozenset("""
    ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
    BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
    ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
    EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError
    FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
    InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
    ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError
    OverflowError PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError
    RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration
    StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError
    UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
    UnicodeWarning UserWarning ValueError Warning ZeroDivisionError
""".split())
# Names the module defines or uses besides the types: every name made here starts with a capital,
# so only these and the capitalised builtins can collide.
_RESERVED = _BUILTINS | {
    "Any",
    "Callable",
    "Final",
    "Literal",
    "NoReturn",
    "TypeAlias",
    "TypeGuard",
    "TypedDict",
    "TYPE_CHECKING",
    "Decimal",
    "ValidationError",
    "EnvelopeError",
    "STRAIGHTLINE",
    "NAME",
    "DESCRIPTION",
    "PROFILE",
    "INPUT_SCHEMA",
    "OUTPUT_SCHEMA",
    "CATALOG_ENTRY",
}


class Namer:
    """Collision-free public type names."""

    def __init__(self) -> None:
        self.taken: set[str] = set(_RESERVED)

    def name(self, hint: str) -> Name:
        candidate, number = hint, 2
        while candidate in self.taken:
            candidate = f"{hint}{number}"
            number += 1
        self.taken.add(candidate)
        return Name(candidate)


def _hint_for(key: str, structural: frozenset[str]) -> str:
    """A name for a reference target (a graph key: document URI, `#`, pointer): its last telling
    pointer token (not one of the `structural` keywords, which hold subschemas and so say nothing
    of what a definition is), else its document's name."""
    document, _, pointer = key.partition("#")
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for token in reversed(tokens):
        if token not in structural and not token.isdigit():
            name = camel(token, "")
            if name:
                return name if not name[0].isdigit() else "Def" + name
    path = urlsplit(urldefrag(document)[0]).path.rstrip("/")
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return camel(stem, "Definition")


# -- reading the IR --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypedRoot:
    """One value a module validates: the name of its type and the schema as the compile reads it
    (the registry mapping, base URI and fragment given to build())."""

    name: str
    schema: Any
    profile: Profile
    registry: Mapping[str, Any] = field(default_factory=dict)
    base_uri: str = ""
    fragment: str = ""
    # the compile's registry as it was with this schema's document alone added and indexed (under
    # base_uri, by the profile's draft), or None: it is then indexed again here
    indexed: Registry | None = None
    # the compile's lowering and its root (api.Built.lowered), or None: the schema is lowered here
    lowered: Lowered | None = None


@dataclass
class _Named:
    name: Name
    scope: int  # the root whose lowering holds it
    target: str  # its graph key
    ty: Ty | None = None
    state: int = 0  # 0: waiting, 1: being read, 2: read
    notes: list[str] = field(default_factory=list)


_LINE_LENGTH = 100  # black's, as render/layout.py has it
_MAX_DEPTH = 150  # deeper subschemas are Any: the reading recurses, and must stay within the stack
_MEET_BUDGET = 8  # definitions expanded to intersect one pair of types
_MAX_PAIRS = 32  # object shapes merged for one intersection


class _Reader:
    """Reads lowered nodes into types through each unit's `types` hook; names every definition it
    reaches."""

    def __init__(self, namer: Namer, tables: KeywordTables) -> None:
        self.namer = namer
        self.tables = tables  # the registry's: the units' hooks, and why a type is Any
        # the comments a definition may carry: why it is Any (fixed text, never schema text)
        self.notes = tables.type_notes
        self.named: dict[str, _Named] = {}
        self.queue: deque[str] = deque()
        self.lowerings: list[Lowering] = []
        self.seeds: list[bool] = []  # a seed profile's root: no references, no definitions
        self.current: list[_Named] = []

    # -- roots and definitions ------------------------------------------------------------------
    def add_root(self, root: TypedRoot, name: Name) -> None:
        scope = len(self.lowerings)
        lowered = root.lowered or lower_root(
            root.schema,
            root.profile,
            self.tables,
            root.registry,
            root.base_uri,
            root.fragment,
            root.indexed,
        )
        self.lowerings.append(lowered.lowering)
        self.seeds.append(root.profile.draft is None)
        key = self.key(scope, lowered.root)
        self.named[key] = _Named(name, scope, lowered.root)
        self.queue.append(key)
        if root.profile.draft is not None:
            self._definitions(scope, lowered)

    def _definitions(self, scope: int, lowered: Lowered) -> None:
        """Name the definitions of a root (and theirs), in document order, and lower those no
        reference reached."""
        for target, entry in lower_definitions(lowered):
            self.schedule(scope, target, camel(entry, "Def"))

    def key(self, scope: int, target: str) -> str:
        return f"{scope} {target}"

    def schedule(self, scope: int, target: str, hint: str) -> str:
        key = self.key(scope, target)
        if key not in self.named:
            self.named[key] = _Named(self.namer.name(hint), scope, target)
            self.queue.append(key)
        return key

    def read_all(self) -> None:
        while self.queue:
            self.resolved(self.queue.popleft())

    def resolved(self, key: str) -> Ty | None:
        """The type of a named definition, read now if need be; None while it is being read."""
        named = self.named[key]
        if named.state == 2:
            return named.ty
        if named.state == 1:
            return None
        named.state = 1
        self.current.append(named)
        try:
            node = self.lowerings[named.scope].graph.get(named.target)
            named.ty = (
                self.runtime(
                    self.notes["unresolved"]
                )  # its lowering failed: never read by the compile
                if node is None
                else self.ty(node, named.name.text, 0)
            )
        finally:
            self.current.pop()
        named.state = 2
        return named.ty

    def note(self, text: str) -> None:
        if self.current and text not in self.current[-1].notes:
            self.current[-1].notes.append(text)

    # -- one node (the TypeReader the hooks are given) ------------------------------------------
    def ty(self, node: Node, hint: str, depth: int) -> Ty:
        if node.boolean is True:
            return TOP
        if node.boolean is False:
            return NEVER
        if depth > _MAX_DEPTH:
            return TOP
        parts = [part for hook in self.tables.type_hooks for part in hook(self, node, hint, depth)]
        result = TOP
        for part in parts:
            result = self.meet(result, part, _MEET_BUDGET)
        return result

    def runtime(self, note: str) -> Ty:
        self.note(note)
        return TOP

    def reference(self, target: str) -> Ty:
        """The named type a static reference reaches (lowering followed its chain of plain
        references); Any for a chain that never ends or a target that was not lowered."""
        scope = self.current[-1].scope
        if self.seeds[scope]:
            return TOP
        lowering = self.lowerings[scope]
        if target in lowering.chain_cycles:
            return self.runtime(self.notes["cycle"])
        if target not in lowering.graph:
            return self.runtime(self.notes["unresolved"])
        key = self.key(scope, target)
        if key in self.named:  # named already: no hint to work out (it is read once per reference)
            return Ty(refs=(key,))
        return Ty(refs=(self.schedule(scope, target, _hint_for(target, self.tables.holders)),))

    # -- intersection ---------------------------------------------------------------------------
    def meet(self, a: Ty, b: Ty, budget: int) -> Ty:
        """The intersection of two types, or a wider one (the first) where it cannot be worked out."""
        if a.top:
            return b
        if b.top or a == b:
            return a
        if a.refs or b.refs:
            if budget <= 0:
                return a
            expanded_a, expanded_b = self.expand(a), self.expand(b)
            if expanded_a is None or expanded_b is None:
                return a
            return self.meet(expanded_a, expanded_b, budget - 1)
        objs: list[Obj] = []
        if len(a.objs) * len(b.objs) > _MAX_PAIRS:
            return a
        for left in a.objs:
            for right in b.objs:
                merged = self.meet_objects(left, right, budget)
                if all(merged is not o for o in objs):
                    objs.append(merged)
        items: Ty | None = None
        if a.array and b.array:
            items = (
                b.items
                if a.items is None
                else a.items if b.items is None else self.meet(a.items, b.items, budget)
            )
        return Ty(
            null=a.null and b.null,
            bools=ordered_meet(a.bools, b.bools),
            all_ints=a.all_ints and b.all_ints,
            ints=_meet_literals(a.all_ints, a.ints, b.all_ints, b.ints),
            floats=a.floats and b.floats,
            decimals=a.decimals and b.decimals,
            all_strs=a.all_strs and b.all_strs,
            strs=_meet_literals(a.all_strs, a.strs, b.all_strs, b.strs),
            array=a.array and b.array,
            items=items,
            objs=tuple(objs),
        )

    def expand(self, ty: Ty) -> Ty | None:
        """`ty` with its references replaced by what they name (None: one is still being read)."""
        targets = [replace(ty, refs=())]
        for key in ty.refs:
            target = self.resolved(key)
            if target is None:
                return None
            targets.append(target)
        return join_all(targets)

    def meet_objects(self, a: Obj, b: Obj, budget: int) -> Obj:
        """Both shapes at once: every property of either (typed by both sides: a name one side
        does not declare takes that side's type for other names), the required names of both."""
        if b is ANY_OBJECT:
            return a
        if a is ANY_OBJECT:
            return b
        declared_a, declared_b = dict(a.properties), dict(b.properties)
        properties = []
        for name in dict.fromkeys([*declared_a, *declared_b]):
            left = declared_a.get(name, a.rest if a.rest is not None else TOP)
            right = declared_b.get(name, b.rest if b.rest is not None else TOP)
            properties.append((name, self.meet(left, right, budget - 1)))
        if a.rest is None:
            rest = b.rest
        elif b.rest is None:
            rest = a.rest
        else:
            rest = self.meet(a.rest, b.rest, budget - 1)
        return Obj(
            tuple(properties), tuple(dict.fromkeys(a.required + b.required)), rest, a.hint or b.hint
        )


def _meet_literals(
    all_a: bool, a: tuple[Any, ...], all_b: bool, b: tuple[Any, ...]
) -> tuple[Any, ...]:
    if all_a and all_b:
        return ()
    if all_a:
        return b
    if all_b:
        return a
    return ordered_meet(a, b)


# -- writing types ---------------------------------------------------------------------------------

# A type expression: its text pieces and the names it refers to, so that it can be written with
# forward references quoted.
Expr = Union[str, Name, tuple[str, list["Expr"], str]]  # text; a name; (opening, parts, closing)


def _union(parts: list[Expr]) -> Expr:
    return parts[0] if len(parts) == 1 else ("", parts, "")


def _text(expr: Expr) -> str:
    if isinstance(expr, Name):
        return expr.text
    if isinstance(expr, str):
        return expr
    opening, parts, closing = expr
    separator = ", " if opening else " | "
    return opening + separator.join(_text(p) for p in parts) + closing


def _union_lines(head: str, members: list[Expr], tail: str, depth: int) -> list[str]:
    """A union over lines as black lays out a long one: the first member after `head`, each other
    on its own line after `| ` at `depth`, `tail` after the last; a member too long for its line
    that is a subscript (`Literal[...]`) split at its brackets (_subscript_lines), any other left
    long. (Equal to black's layout over the golden modules and random enums of mixed types; so a
    large enum's type never goes to black, which took minutes on it.)"""
    indent = "    " * depth
    lines: list[str] = []
    for i, member in enumerate(members):
        start, end = (head if i == 0 else indent + "| "), (tail if i == len(members) - 1 else "")
        line = start + _text(member) + end
        lines += (
            _subscript_lines(start, member, end, depth) if len(line) > _LINE_LENGTH else None
        ) or [line]
    return lines


def _names(expr: Expr) -> list[Name]:
    if isinstance(expr, Name):
        return [expr]
    if isinstance(expr, str):
        return []
    return [n for part in expr[1] for n in _names(part)]


@dataclass
class _Definition:
    name: Name
    alias: Expr | None = None  # a type alias, or
    fields: list[tuple[str, Expr, bool]] = field(
        default_factory=list
    )  # a TypedDict: (key, type, required)
    notes: list[str] = field(default_factory=list)

    def depends_on(self) -> list[Name]:
        if self.alias is not None:
            return _names(self.alias)
        return [n for _, expr, _ in self.fields for n in _names(expr)]


class _Writer:
    """Types to definitions, and definitions to module text."""

    def __init__(self, reader: _Reader, format: bool = True) -> None:
        self.reader = reader
        self.format = format  # whether black lays the module out (entry_lines splits for it)
        self.namer = reader.namer
        self.definitions: dict[Name, _Definition] = {}
        self.typed_dicts: dict[int, Name] = {}  # id(Obj) -> its TypedDict
        self.used: set[str] = set()  # names from typing (and _Decimal) the text uses

    def define_all(self) -> None:
        named = list(self.reader.named.values())
        for entry in named:  # a definition that is one object shape is that TypedDict itself
            ty = entry.ty or TOP
            if len(ty.objs) == 1 and ty.objs[0].keyed and ty == Ty(objs=ty.objs):
                self.typed_dicts.setdefault(id(ty.objs[0]), entry.name)
        for entry in named:
            ty = entry.ty or TOP
            own = (
                self.typed_dicts.get(id(ty.objs[0]))
                if len(ty.objs) == 1 and ty == Ty(objs=ty.objs)
                else None
            )
            if own == entry.name:
                self.typed_dict(ty.objs[0], entry.name)
            else:
                self.definitions[entry.name] = _Definition(
                    entry.name, alias=self.expr(ty, entry.name.text)
                )
            self.definitions[entry.name].notes = list(entry.notes)

    def expr(self, ty: Ty, hint: str) -> Expr:
        if ty.top:
            self.used.add("Any")
            return "Any"
        parts: list[Expr] = []
        for obj in ty.objs:
            parts.append(self.object_expr(obj))
        for key in ty.refs:
            parts.append(self.reader.named[key].name)
        if ty.array:
            parts.append(("list[", [self.expr(ty.items or TOP, hint + "Item")], "]"))
        literals: list[Expr] = []
        literals.extend(literal(v).text for v in (*ty.strs, *ty.ints))
        if len(ty.bools) == 1:
            literals.append(literal(ty.bools[0]).text)
        if literals:
            self.used.add("Literal")
            parts.append(("Literal[", [*literals], "]"))
        for present, text in (
            (ty.all_strs, "str"),
            (ty.all_ints, "int"),
            (ty.floats, "float"),
            (ty.decimals, "_Decimal"),
            (len(ty.bools) == 2, "bool"),
            (ty.null, "None"),
        ):
            if present:
                parts.append(text)
        if ty.decimals:
            self.used.add("_Decimal")
        if not parts:
            self.used.add("NoReturn")
            return "NoReturn"
        return _union(parts)

    def object_expr(self, obj: Obj) -> Expr:
        if not obj.keyed:
            return ("dict[", ["str", self.expr(obj.rest or TOP, obj.hint + "Value")], "]")
        name = self.typed_dicts.get(id(obj))
        if name is None:
            hint = obj.hint or "Object"
            name = self.namer.name(hint + "Object" if hint in self.namer.taken else hint)
            self.typed_dicts[id(obj)] = name
            self.typed_dict(obj, name)
        return name

    def typed_dict(self, obj: Obj, name: Name) -> None:
        definition = _Definition(name)
        self.definitions[name] = definition  # before the fields: they may refer back to it
        declared = dict(obj.properties)
        keys = list(dict.fromkeys([*declared, *obj.required]))
        for key in keys:
            ty = declared.get(key, obj.rest or TOP)
            definition.fields.append(
                (key, self.expr(ty, name.text + camel(key, "Field")), key in obj.required)
            )
        self.used.add("TypedDict")

    # -- text -----------------------------------------------------------------------------------
    def order(self, roots: list[Name]) -> list[_Definition]:
        """Every definition after the ones it refers to, where no cycle forbids it (depth first,
        roots first, then in the order they were made)."""
        done: set[Name] = set()
        out: list[_Definition] = []
        depends = {name: definition.depends_on() for name, definition in self.definitions.items()}
        for start in [*roots, *self.definitions]:
            if start in done:
                continue
            done.add(start)
            stack: list[tuple[Name, int]] = [(start, 0)]
            while stack:
                current, index = stack.pop()
                deps = depends[current]
                while index < len(deps) and deps[index] in done:
                    index += 1
                if index < len(deps):
                    stack.append((current, index + 1))
                    done.add(deps[index])
                    stack.append((deps[index], 0))
                else:
                    out.append(self.definitions[current])
        return out

    def statements(self, roots: list[Name]) -> list[Code]:
        """The module text of every definition, one top-level statement each."""
        real: set[Name] = set()  # names bound to a type (not a string) by the time they are used
        out: list[Code] = []
        for definition in self.order(roots):
            notes = [comment(n) for n in definition.notes]
            if definition.alias is not None:
                self.used.add("TypeAlias")
                out.append(
                    join(
                        "\n",
                        [*notes, self.alias_statement(definition.name, definition.alias, real)],
                    )
                )
                if set(_names(definition.alias)) <= real:
                    real.add(definition.name)
                continue
            out.extend(self.typed_dict_statements(definition, real, notes))
            real.add(definition.name)
        return out

    def alias_statement(self, name: Name, expr: Expr, real: set[Name]) -> Code:
        """`Name: TypeAlias = ...` in black's layout: one line if it fits, else the value in
        parentheses, on one line or (a union) one member per line, a subscript member too long
        split at its brackets (_union_lines). A line still too long makes render/module.py hand
        the statement to black."""
        value = self.maybe_quoted(expr, real)
        line = code("{}: TypeAlias = {}", name, value)
        if len(line.text) <= _LINE_LENGTH:
            return line
        inner = code("    {}", value)
        quoted = not set(_names(expr)) <= real
        if len(inner.text) <= _LINE_LENGTH or quoted or isinstance(expr, (str, Name)):
            return code(
                "{}: TypeAlias = (\n{}\n)", name, inner
            )  # black wraps a long string in parentheses
        opening, parts, closing = expr
        if opening:
            return (
                self.subscript_statement(name, opening, [_text(p) for p in parts], closing) or line
            )
        members = [Code(text) for text in _union_lines("    ", parts, "", 1)]
        return join("\n", [code("{}: TypeAlias = (", name), *members, Code(")")])

    @staticmethod
    def subscript_statement(
        name: Name, opening: str, parts: list[str], closing: str
    ) -> Code | None:
        """`Name: TypeAlias = Literal[...]` split at its bracket as black splits it: the members on
        one line if they fit, else one a line with a trailing comma; None when a member is itself
        too long (black lays the statement out then)."""
        head = code("{}: TypeAlias = {}", name, Code(opening))
        if len(head.text) > _LINE_LENGTH:
            return None
        together = "    " + ", ".join(parts)
        if len(together) <= _LINE_LENGTH:
            return join("\n", [head, Code(together), Code(closing)])
        if any(len("    " + part + ",") > _LINE_LENGTH for part in parts):
            return None
        return join("\n", [head, *(Code("    " + part + ",") for part in parts), Code(closing)])

    def maybe_quoted(self, expr: Expr, real: set[Name]) -> Code:
        text = _text(expr)
        return Code(text) if set(_names(expr)) <= real else literal(text)

    def typed_dict_statements(
        self, definition: _Definition, real: set[Name], notes: list[Code]
    ) -> list[Code]:
        name = definition.name
        required = [(k, e) for k, e, r in definition.fields if r]
        optional = [(k, e) for k, e, r in definition.fields if not r]

        def functional(target: Name, fields: list[tuple[str, Expr]], total: bool) -> Code:
            entries = [code("{}: {}", literal(k), self.maybe_quoted(e, real)) for k, e in fields]
            tail = Code("" if total else ", total=False")
            line = code(
                "{} = TypedDict({}, {{{}}}{})",
                target,
                literal(target.text),
                join(", ", entries),
                tail,
            )
            if len(line.text) <= _LINE_LENGTH:
                return line
            # black's layout of the call with magic trailing commas: one entry per line (a line
            # still too long makes render/module.py hand the statement to black)
            lines = [
                code("{} = TypedDict(", target),
                code("    {},", literal(target.text)),
                Code("    {"),
            ]
            lines += [self.entry_lines(k, e, entry, real) for (k, e), entry in zip(fields, entries)]
            lines += [Code("    },"), *([] if total else [Code("    total=False,")]), Code(")")]
            return join("\n", lines)

        if not optional or not required:
            return [
                join("\n", [*notes, functional(name, required or optional, total=bool(required))])
            ]
        must, may = Name(f"_{name.text}Required"), Name(f"_{name.text}Optional")
        return [
            join("\n", [*notes, functional(must, required, total=True)]),
            functional(may, optional, total=False),
            self.class_statement(name, must, may),
        ]

    def entry_lines(self, key: str, expr: Expr, entry: Code, real: set[Name]) -> Code:
        """One entry of an exploded TypedDict (`"key": type,`), laid out as black lays it out
        where it is over-long and its type a subscript (`Literal[...]`, `list[...]`): split at
        its brackets, the members on one line if they fit, else one a line with a trailing comma;
        or a union: one member a line (_union_lines). Any other over-long entry is left on its
        line (black lays the statement out then)."""
        line = code("        {},", entry)
        if (
            not self.format
            or len(line.text) <= _LINE_LENGTH
            or self.maybe_quoted(expr, real) != Code(_text(expr))
        ):
            return line
        head = "        " + literal(key).text + ": "
        if not isinstance(expr, (str, Name)) and not expr[0]:
            return Code("\n".join(_union_lines(head, expr[1], ",", 2)))
        laid_out = _subscript_lines(head, expr, ",", 2)
        return line if laid_out is None else Code("\n".join(laid_out))

    def class_statement(self, name: Name, must: Name, may: Name) -> Code:
        """`class Name(_NameRequired, _NameOptional): pass` in black's layout."""
        line = code("class {}({}, {}):", name, must, may)
        if len(line.text) > _LINE_LENGTH:
            bases = code("    {}, {}", must, may)
            if len(bases.text) <= _LINE_LENGTH:
                line = code("class {}(\n{}\n):", name, bases)
            else:
                line = code("class {}(\n    {},\n    {},\n):", name, must, may)
        return code("{}\n    pass", line)


def _subscript_lines(head: str, expr: Expr, tail: str, depth: int) -> list[str] | None:
    """`head + expr + tail` at `depth` (its indentation is in `head`) split at the brackets of
    `expr`, a subscript, as black's right-hand split does: its members on one line if they fit,
    else one a line with a trailing comma (two or more), a member too long for its line split the
    same way; None for anything else (a union, a name, a member black would split elsewhere)."""
    if isinstance(expr, (str, Name)) or not expr[0]:
        return None
    opening, parts, closing = expr
    inner = "    " * (depth + 1)
    texts = [_text(p) for p in parts]
    together = inner + ", ".join(texts)
    if len(together) <= _LINE_LENGTH:
        body = [together]
    elif len(parts) == 1:
        body = _subscript_lines(inner, parts[0], "", depth + 1)  # type: ignore[assignment]
    else:
        body = []
        for part, text in zip(parts, texts):
            line = inner + text + ","
            split = (
                None if len(line) <= _LINE_LENGTH else _subscript_lines(inner, part, ",", depth + 1)
            )
            if split is None and len(line) > _LINE_LENGTH:
                return None
            body.extend(split or [line])
    if body is None or len(head + opening) > _LINE_LENGTH:
        return None
    return [head + opening, *body, "    " * depth + closing + tail]


# -- the module's types ----------------------------------------------------------------------------

# The typing names a module may need, in the order of its import line.
_TYPING = (
    "TYPE_CHECKING",
    "Any",
    "Callable",
    "Final",
    "Literal",
    "NoReturn",
    "TypeAlias",
    "TypeGuard",
    "TypedDict",
    "cast",
)


@dataclass(frozen=True)
class ModuleTypes:
    """What a generated module needs for its types."""

    definitions: list[Code]  # top-level statements, in order
    roots: list[Name]  # the type of each root, in the order given
    typing: frozenset[str]  # names the definitions use from typing
    uses_decimal: bool  # the definitions name _Decimal

    def typing_import(self, *also: str) -> Code:
        """`from typing import ...` of what the definitions and the module's own code use."""
        wanted = self.typing | set(also)
        return Code("from typing import " + ", ".join(n for n in _TYPING if n in wanted))


def module_types(
    roots: list[TypedRoot], *, tables: KeywordTables, format: bool = True
) -> ModuleTypes:
    """The types of one module's roots (one for a schema; input and output for a tool contract),
    sharing one set of names. Never raises for a schema that compiled. `format`: the module is
    laid out by black (over-long TypedDict entries are split here then, see _Writer.entry_lines).
    `tables`: the registry's (each unit's `types` hook)."""
    reader = _Reader(Namer(), tables)
    names = [
        reader.namer.name(root.name) for root in roots
    ]  # the roots' names are the module's API
    for root, name in zip(roots, names):
        reader.add_root(root, name)
    reader.read_all()
    _break_alias_cycles(reader)
    writer = _Writer(reader, format)
    writer.define_all()
    definitions = writer.statements(names)
    typing = frozenset(writer.used & set(_TYPING))
    return ModuleTypes(definitions, names, typing, "_Decimal" in writer.used)


def _break_alias_cycles(reader: _Reader) -> None:
    """A definition that is its own union member through references alone (possible only in
    definitions the validator never reads: the compiler refuses such cycles) becomes Any."""
    edges = {key: list((n.ty or TOP).refs) for key, n in reader.named.items()}
    state: dict[str, int] = {}
    on_cycle: set[str] = set()
    for start in edges:
        if start in state:
            continue
        path: list[str] = [start]
        state[start] = 1
        stack: list[tuple[str, int]] = [(start, 0)]
        while stack:
            key, index = stack.pop()
            if index < len(edges[key]):
                stack.append((key, index + 1))
                target = edges[key][index]
                if state.get(target) == 1:
                    on_cycle.update(path[path.index(target) :])
                elif target not in state:
                    state[target] = 1
                    path.append(target)
                    stack.append((target, 0))
            else:
                state[key] = 2
                path.pop()
    for key in on_cycle:
        reader.named[key].ty = TOP
        reader.named[key].notes.append(reader.notes["cycle"])
