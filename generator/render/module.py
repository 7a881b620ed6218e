"""Stage 7, render: the emitted functions and constants into the module text, through the Jinja
templates in templates/ (logic-free), laid out in black's style."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import black
import jinja2

from .. import __version__
from ..codegen import Code, Name, lone_surrogate_literals
from ..emit.module import Function, ModuleEmitter
from ..emit.sources import (
    API_PRIMITIVES,
    checker_sources,
    custom_format_imports,
    merged_imports,
    primitive_returns,
    primitive_sources,
)
from ..emit.tree import (
    INDENT,
    Assign,
    Call,
    Display,
    ExprStmt,
    Header,
    Stmt,
    Tuple,
    literal_expr,
    render_block,
)
from ..emit.tree import Name as TreeName
from ..names import module_name_for
from ..primitives import PRELUDE_IMPORTS
from . import layout
from .header import header_fields, header_text, recorded_options
from .sections import CODE, CONSTANT, DATA, TYPES, RenderedModule, Section
from .types import ModuleTypes

_BLACK_MODE = black.Mode(
    target_versions={black.mode.TargetVersion.PY311}, line_length=layout.LINE_LENGTH
)


def _templates_dir() -> Path:
    """Templates ship inside the package (wheel); a source checkout keeps them beside it."""
    package = Path(__file__).resolve().parent.parent
    inside = package / "templates"
    if inside.is_dir():
        return inside
    return package.parent / "templates"


def _finalize(value: Any) -> str:
    if isinstance(value, Code):
        return value.text
    raise TypeError(f"templates take Code values only, not {type(value).__name__}")


_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(_templates_dir())),
    undefined=jinja2.StrictUndefined,
    finalize=_finalize,
    autoescape=False,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass(frozen=True)
class Root:
    """The public functions of one validated value, for templates/api.py.j2."""

    fast: Name
    error: Name
    scope: Code
    is_valid: Name = Name("is_valid")
    errors: Name = Name("errors")
    validate: Name = Name("validate")
    output: Name = Name("output")
    what: Code = Code("instance")
    envelope: bool = False
    # the root's own type refuses every value the envelope refuses (a contract side of "type":
    # "object"), so is_valid needs no envelope test of its own
    envelope_in_fast: bool = False
    direct: bool = False  # is_valid is the root's fast function itself (no recursion possible)
    # the module memoizes subschemas (doubling.py): each public call owns the table of its call
    # (memo_runtime._memo_owned), so the root's own function need not be wrapped
    memo: bool = False
    type: Name = Name(
        "Instance"
    )  # the static type of a valid value (render/types.py): is_valid's TypeGuard

    @property
    def tests_envelope(self) -> bool:
        """is_valid tests the envelope itself (the root's fast path does not refuse what it refuses)."""
        return self.envelope and not self.envelope_in_fast

    @property
    def scope_args(self) -> Code:
        """The root's scope arguments as a tuple's items (the error-path owner's `scope`)."""
        return Code("()," if self.scope.text else "")

    @property
    def deep_valid(self) -> Name:
        """The function is_valid runs on a fresh stack when the caller's ran out (see api.py.j2)."""
        return Name("_deep_" + self.is_valid.text)

    @property
    def deep_errors(self) -> Name:
        return Name("_deep_" + self.errors.text)


def root_of(emitter: ModuleEmitter, fast: TreeName, error: TreeName, **names: Any) -> Root:
    root = Root(
        Name(fast.id), Name(error.id), Code(", ()") if emitter.dynamic else Code(""), **names
    )
    if emitter.plan.memo:
        emitter.prim("_memo_owned")
        emitter.prim("_memo_errors_owner")
        root = replace(root, memo=True)
    if root.memo or emitter.dynamic or emitter.has_refs or root.tests_envelope:
        emitter.prim("_on_fresh_stack")  # (used by the public functions when recursion runs deep)
        return root
    return replace(root, direct=True)


@dataclass(frozen=True)
class RenderedFunction:
    """A function as the template writes it: its section marker, its signature and docstring
    lines, and its body lines."""

    marker: Code
    signature: Code
    doc: Code
    body: list[Code]


def _lines(block: list[Stmt], depth: int, format: bool) -> list[Code]:
    """A block as lines of text: laid out as black does (format): from the tree where layout.py
    knows the shape, else by black on the statement alone."""
    return [Code(line) for line in render_block(block, depth, _wrap if format else None)]


def _wrap(stmt: Stmt, indent: str, line: str) -> list[str] | None:
    if len(line) <= layout.LINE_LENGTH:
        return None
    laid_out = layout.wrap_statement(stmt, indent, line)
    if laid_out is None and len(line) > layout.BLACK_LIMIT:
        laid_out = layout.exploded(stmt, indent)
    return laid_out or _black_statement(line, stmt.keyword if isinstance(stmt, Header) else "")


# An over-long line that is strings and names alone (`"a long URL",`, `"a long name": _Q1,`: no
# bracket, no operator) is one black leaves as it is in any statement: a section whose long lines
# are all such lines needs no black (see _format_chunk).
_TOKEN = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_][A-Za-z0-9_]*)"""
_UNSPLITTABLE = re.compile(rf"\s*{_TOKEN}(?:: {_TOKEN})?,?")


def _settled(line: str) -> bool:
    """Whether black leaves `line` as it is: short enough, or a line it cannot split."""
    return len(line) <= layout.LINE_LENGTH or _UNSPLITTABLE.fullmatch(line) is not None


_DUMMY_TEST = "if _:"


@functools.lru_cache(maxsize=4096)
def _black_statement(line: str, keyword: str) -> list[str] | None:
    """black's layout of one over-long statement or `if`/`elif` line, formatted alone: black
    splits a line from its own text and depth only, so it is nested in `if _:` lines to its depth
    (an `elif` after an `if _: pass`, a header given a `pass` body) and those are taken off
    again. None (black on the whole section then) if black's output does not start and end as
    expected."""
    depth = (len(line) - len(line.lstrip(" "))) // len(INDENT)
    before = [INDENT * level + _DUMMY_TEST for level in range(depth)]
    if keyword == "elif":
        before += [INDENT * depth + _DUMMY_TEST, INDENT * (depth + 1) + "pass"]
    after = [INDENT * (depth + 1) + "pass"] if keyword else []
    try:
        out = black.format_str(
            "\n".join([*before, line, *after]) + "\n", mode=_BLACK_MODE
        ).splitlines()
    except Exception as exc:  # black refusing our output is a compiler bug: say so
        raise RuntimeError(
            f"straightline emitted code black cannot format (a compiler bug): {exc}"
        ) from exc
    laid_out = out[len(before) : len(out) - len(after)]
    if out[: len(before)] != before or out[len(out) - len(after) :] != after or not laid_out:
        return None
    return laid_out


def _function(fn: Function, format: bool) -> RenderedFunction:
    signature = (
        layout.signature(fn.name.id, fn.params, fn.returns)
        if format
        else [f"def {fn.name.id}({', '.join(fn.params)}) -> {fn.returns}:"]
    )
    body = render_block(fn.body, 1, _wrap if format else None)
    # black is needed only where a line is still long (its docstring black leaves as it is); no
    # need to ask without black: its section markers are taken out unread
    laid_out = not format or (
        all(len(line) <= layout.LINE_LENGTH for line in signature)
        and all(_settled(line) for line in body)
    )
    # (the body as one piece of text: the template writes it as it writes each line, with less work)
    return RenderedFunction(
        _marker("def" if laid_out else "def-black"),
        Code("\n".join(signature)),
        fn.doc,
        [Code("\n".join(body))],
    )


# What the module docstring says it imports.
_STANDALONE = "Standalone: imports only the standard library."
_WITH_CUSTOM = "Imports only the standard library and its custom format functions."

# Section markers: the template puts one before each top-level section, naming its kind, so that
# sections are formatted (and cached) one at a time and joined as black joins them; a marker may
# also name its section's tag (what it is for the mypyc build: render/sections.py), by number.
_SPLIT = "#<straightline:chunk:"
_MARKER = re.compile(re.escape(_SPLIT) + r"([a-z-]+)(?::([0-9]+))?>\n")
_UNTAGGED = Section(CODE, "")


def _marker(kind: str) -> Code:
    return Code(_SPLIT + kind + ">")


class _Tags:
    """The tags of a module's tagged markers, by number (a section's text is filled in later)."""

    def __init__(self) -> None:
        self.tags: list[Section] = []

    def marker(self, kind: str, tag: Section) -> Code:
        self.tags.append(tag)
        return Code(f"{_SPLIT}{kind}:{len(self.tags) - 1}>")

    def pieces(self, text: str) -> list[tuple[str, Section, str]]:
        """The text cut at its markers: (marker kind, tag, text after the marker) each, the text
        before the first marker first (an untagged "other")."""
        cut = _MARKER.split(text)
        out = [("other", _UNTAGGED, cut[0])]
        for at in range(1, len(cut), 3):
            kind, number, chunk = cut[at : at + 3]
            out.append((kind, _UNTAGGED if number is None else self.tags[int(number)], chunk))
        return out


@dataclass(frozen=True)
class Tagged:
    """A top-level statement as the template writes it: its section marker, then its text."""

    marker: Code
    text: Code


def _constant(tags: _Tags, stmt: Stmt, format: bool, returns: dict[str, str]) -> Tagged:
    return Tagged(
        tags.marker("const", _tag(CONSTANT, [stmt], returns)),
        Code("\n".join(line.text for line in _lines([stmt], 0, format))),
    )


def _tag(kind: str, statements: list[Stmt], returns: dict[str, str]) -> Section:
    """The tag of a section of `statements`: the names they bind and each one's static type."""
    bound = [
        (s.target.id, _declared_type(s, returns))
        for s in statements
        if isinstance(s, Assign) and isinstance(s.target, TreeName)
    ]
    counted = sum(isinstance(s, (Assign, ExprStmt)) for s in statements)
    return Section(
        kind, "", tuple(n for n, _ in bound), tuple(t for _, t in bound), statements=counted
    )


_DISPLAY_TYPES = {"list": "list[Any]", "dict": "dict[Any, Any]", "set": "set[Any]"}


def _declared_type(statement: Assign, returns: dict[str, str]) -> str:
    """The static type a reader of the name `statement` binds declares it by, where the value is
    run at import (the mypyc build: a dict's `.get` is a C call only on a `dict`): what its
    `Final[T]` says, else what its value is (a display, frozenset(...), a call of a function with
    a return type); Any where that is not plain. (The statements are the emitter's constants,
    `Final` or `Final[T]`, and the late ones, unannotated: aliases, tuples of functions. No value
    is a literal but `frozenset()`, which is Any here.)"""
    annotation = statement.annotation
    if annotation.startswith("Final[") and annotation.endswith("]"):
        return annotation[len("Final[") : -1]
    value = statement.value
    if isinstance(value, Tuple):
        return "tuple[Any, ...]"
    if isinstance(value, Display):
        return _DISPLAY_TYPES.get(value.kind, "Any")
    if isinstance(value, Call) and isinstance(value.func, TreeName):
        return (
            "frozenset[Any]" if value.func.id == "frozenset" else returns.get(value.func.id, "Any")
        )
    return "Any"


def render(
    template: str,
    emitters: list[ModuleEmitter],
    roots: list[Root],
    *,
    profile: str,
    options: dict[str, Any],
    raw: bytes,
    name: str | None,
    format: bool,
    types: ModuleTypes,
    fragment: str = "",
    **context: Any,
) -> RenderedModule:
    """The module: header, primitives, every emitter's constants and functions, the types, the
    API; its text as tagged sections (render/sections.py)."""
    imports, primitive_constants, primitive_functions = _copied_sources(emitters, format)
    imports = _with_types(
        imports, types, any(r.direct for r in roots), any(e.consts.definitions for e in emitters)
    )
    sha = hashlib.sha256(raw).hexdigest()
    recorded = recorded_options(options, fragment)
    metadata = _metadata(profile, recorded, sha)
    contract_name = Name(module_name_for(name)) if name else Code("given to compile_source")
    late = [s for e in emitters for s in e.late_statements()]
    late_kind = _late_kind(late)
    tags = _Tags()
    returns = {
        **primitive_returns(),
        **{f.name.id: f.returns for e in emitters for f in e.functions},
    }
    text = _ENV.get_template(template).render(
        header=Code(header_text(header_fields(profile, recorded, sha))),
        contract_name=contract_name,
        imports=imports,
        primitive_constants=primitive_constants,
        constants=[
            _constant(tags, s, format, returns) for e in emitters for s in e.consts.definitions
        ],
        # (a copied function is laid out on its own, once per process: never with a module's text)
        primitives=(
            [Code(_black_source(f.text)) for f in primitive_functions]
            if format
            else primitive_functions
        ),
        functions=[_function(f, format) for e in emitters for f in e.functions],
        late_constants=[line for e in emitters for line in _lines(e.late_statements(), 0, format)],
        metadata=Code("\n".join(line.text for line in _lines([metadata], 0, format))),
        roots=roots,
        types=_type_sections(tags, types, roots),
        split_late=tags.marker(late_kind, _tag(DATA, late, returns)),
        split_other=_marker("other"),
        standalone=Code(
            _STANDALONE if not any(e.custom_formats for e in emitters) else _WITH_CUSTOM
        ),
        **context,
    )
    return _rendered(tags, text, format)


def _type_sections(tags: _Tags, types: ModuleTypes, roots: list[Root]) -> list[Tagged]:
    """The static types, each its own tagged section; the first declares the roots' types, the
    only ones other sections name (the API's TypeGuards)."""
    return [
        Tagged(
            tags.marker(
                "other",
                Section(TYPES, "", tuple(r.type.text for r in roots) if not index else ()),
            ),
            definition,
        )
        for index, definition in enumerate(types.definitions)
    ]


def _rendered(tags: _Tags, text: str, format: bool) -> RenderedModule:
    """The rendered text cut at its markers into sections, with its lone-surrogate literals."""
    pieces = tags.pieces(text)
    sections = (
        [_with_text(tag, chunk) for _, tag, chunk in pieces if chunk]
        if not format
        else _format(pieces)
    )
    found = lone_surrogate_literals(text)
    return RenderedModule(
        tuple(sections), tuple(sorted(found.items(), key=lambda item: -len(item[0])))
    )


def _metadata(profile: str, recorded: str, sha: str) -> Assign:
    """`STRAIGHTLINE = {...}`: the module's version, profile, options and source hash."""
    return Assign(
        TreeName("STRAIGHTLINE"),
        literal_expr(
            {
                "version": __version__,
                "profile": profile,
                "options": json.loads(recorded),
                "source_sha256": sha,
            }
        ),
    )


def _late_kind(late: list[Any]) -> str:
    """The late statements join the constants before them as one more assignment when they open
    with one (`_Q0 = (...)`), as black keeps consecutive assignments together."""
    if late and isinstance(late[0], Assign) and isinstance(late[0].target, TreeName):
        return "const"
    return "other"


def _copied_sources(
    emitters: list[ModuleEmitter], format: bool
) -> tuple[list[Code], list[Code], list[Code]]:
    """Imports, constants and functions the module copies in: the primitives and the format and
    content checkers its code calls (the checkers laid out by black when formatting: their source
    in generator/formats/checkers.py is not in black's style), and custom format imports."""
    imports, constants, functions = primitive_sources(
        set(API_PRIMITIVES).union(*(e.primitives for e in emitters)),
        any(e.uses_decimal for e in emitters),
        any(e.uses_re for e in emitters),
        set().union(*(e.matchers for e in emitters)),
    )
    custom = custom_format_imports(
        {alias: target for e in emitters for alias, target in e.custom_formats.items()}
    )
    checker_imports, checker_constants, checker_functions = checker_sources(
        set().union(*(e.format_functions for e in emitters))
    )
    if format:
        # (a copied constant too long for one line, _ESCAPES, is laid out once per process, so
        # that the module's constants section never needs black)
        constants = [
            Code(_black_source(c.text).rstrip("\n")) if len(c.text) > layout.LINE_LENGTH else c
            for c in constants
        ]
        checker_constants = [Code(_black_source(c.text).rstrip("\n")) for c in checker_constants]
        checker_functions = [Code(_black_source(f.text)) for f in checker_functions]
    return (
        merged_imports(imports, checker_imports, custom),
        constants + checker_constants,
        functions + checker_functions,
    )


@functools.lru_cache(maxsize=512)
def _black_source(text: str) -> str:
    """A top-level definition copied from the compiler's own source, in black's style (its file
    follows the project's own style)."""
    return black.format_str(text, mode=_BLACK_MODE)


def _with_types(
    imports: list[Code], types: ModuleTypes, direct: bool, constants: bool
) -> list[Code]:
    """The emitter's imports with the one `from typing import` line widened to what the types, the
    constants (Final) and the API use (TypeGuard; Callable and cast where is_valid is bound to the
    root function), and the Decimal import the types may need."""
    typing = types.typing_import(
        "Any",
        "TypeGuard",
        *(["Callable", "cast"] if direct else []),
        *(["Final"] if constants else []),
    )
    out = [typing if line == Code("from typing import Any") else line for line in imports]
    decimal = Code(PRELUDE_IMPORTS["_Decimal"])
    if types.uses_decimal and decimal not in out:
        out.insert(
            1 if out and out[0] == Code("import re as _re") else 0, decimal
        )  # the emitter's order
    return out


def _format(pieces: list[tuple[str, Section, str]]) -> list[Section]:
    """black, one top-level section at a time (the template marks them): the fixed parts repeat
    in every module, so their formatting is cached; joined as black joins top-level blocks (two
    blank lines around a def or class, none between consecutive constant assignments). Each
    section's text ends with the blank lines after it."""
    tags: list[Section] = []
    texts: list[str] = []
    previous = ""
    for kind, tag, chunk in pieces:
        chunk = (
            chunk.strip("\n") if kind == "def" else _format_chunk(chunk.strip("\n")).rstrip("\n")
        )
        if not chunk:
            continue
        if texts:  # black: two blank lines around a def or class, none between constant assignments
            texts[-1] += "\n" if kind == previous == "const" else "\n\n\n"
        tags.append(tag)
        texts.append(chunk)
        previous = kind
    texts[-1] += "\n"
    return [_with_text(tag, text) for tag, text in zip(tags, texts)]


def _with_text(tag: Section, text: str) -> Section:
    return Section(tag.kind, text, tag.defines, tag.types, tag.statements)


_EXTRA_BLANK_LINES = re.compile(r"\n{4,}")


@functools.lru_cache(maxsize=4096)
def _format_chunk(chunk: str) -> str:
    """One top-level section in black's style. The emitter writes black's style already (double
    quotes where black prefers them, black's spacing and blank lines) and lays out the long
    statements it knows from the tree (layout.py), the others on their own (_black_statement), so
    only a section with a line still over the limit that black could split goes through black:
    this keeps compiling a large schema (FHIR: thousands of functions) a matter of seconds. Tests
    check the whole output is black-stable."""
    if all(map(_settled, chunk.splitlines())):
        # the templates' blank lines around a section that is empty in this module (no constants,
        # say) add up: two blank lines between top-level statements, as black leaves them
        return _EXTRA_BLANK_LINES.sub("\n\n\n", chunk)
    try:
        return black.format_str(chunk, mode=_BLACK_MODE)
    except Exception as exc:  # black refusing our output is a compiler bug: say so
        raise RuntimeError(
            f"straightline emitted code black cannot format (a compiler bug): {exc}"
        ) from exc
