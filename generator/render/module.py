"""Stage 7, render: the emitted functions and constants into the module text, through the Jinja
templates in templates/ (logic-free), laid out in black's style."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import black
import jinja2
import keyword

from .. import __version__
from ..codegen import Code, Name, literal
from ..emit import Emitter, primitive_sources
from ..primitives import PRELUDE_IMPORTS
from . import layout
from .header import header_fields, header_text, recorded_options
from .types import ModuleTypes

_BLACK_MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=layout.LINE_LENGTH)


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


def module_name_for(text: str) -> str:
    """A safe module name from a file name: letters, digits and underscores, not a keyword."""
    name = re.sub(r"[^0-9A-Za-z_]", "_", text)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "contract_" + name
    return name


@dataclass(frozen=True)
class Root:
    """The public functions of one validated value, for templates/api.py.j2."""

    fast: Name
    error: Name
    scope: Code
    is_valid: Name = Name("is_valid")
    errors: Name = Name("errors")
    validate: Name = Name("validate")
    what: Code = Code("instance")
    envelope: bool = False
    direct: bool = False  # is_valid is the root's fast function itself (no recursion possible)
    type: Name = Name("Instance")  # the static type of a valid value (render/types.py): is_valid's TypeGuard


def root_of(emitter: Emitter, fast: Name, error: Name, **names: Any) -> Root:
    direct = not emitter.dynamic and not emitter.has_refs and not names.get("envelope", False)
    return Root(fast, error, Code(", ()") if emitter.dynamic else Code(""), direct=direct, **names)


def render(template: str, emitters: list[Emitter], roots: list[Root], *, profile: str, options: dict[str, Any],
           raw: bytes, name: str | None, format: bool, types: ModuleTypes, extra_imports: list[Code] = [],
           fragment: str = "", **context: Any) -> str:
    """The module text: header, primitives, every emitter's constants and functions, the types,
    the API."""
    imports, primitive_constants, primitive_functions = primitive_sources(emitters)
    imports = _with_types(imports, types, any(r.direct for r in roots)) + list(extra_imports)
    sha = hashlib.sha256(raw).hexdigest()
    recorded = recorded_options(options, fragment)
    metadata = literal({"version": __version__, "profile": profile, "options": json.loads(recorded),
                        "source_sha256": sha})
    contract_name = Name(module_name_for(name)) if name else Code("given to compile_source")
    text = _ENV.get_template(template).render(
        header=Code(header_text(header_fields(profile, recorded, sha))),
        contract_name=contract_name,
        imports=imports,
        primitive_constants=primitive_constants,
        constants=[c for e in emitters for c in e.constants],
        primitives=primitive_functions,
        functions=[f for e in emitters for f in e.functions],
        late_constants=[c for e in emitters for c in e.late_constants],
        metadata=metadata,
        roots=roots,
        types=types.definitions,
        split=Code(_SPLIT),
        **context,
    )
    return _format(text) if format else text.replace(_SPLIT + "\n", "")


_SPLIT = "#<straightline:chunk>"


def _with_types(imports: list[Code], types: ModuleTypes, direct: bool) -> list[Code]:
    """The emitter's imports with the one `from typing import` line widened to what the types and
    the API use (TypeGuard; TYPE_CHECKING where is_valid is bound to the root function), and the
    Decimal import the types may need."""
    typing = types.typing_import("Any", "TypeGuard", *(["TYPE_CHECKING"] if direct else []))
    out = [typing if line == Code("from typing import Any") else line for line in imports]
    decimal = Code(PRELUDE_IMPORTS["_Decimal"])
    if types.uses_decimal and decimal not in out:
        out.insert(1 if out and out[0] == Code("import re as _re") else 0, decimal)  # the emitter's order
    return out


def _format(text: str) -> str:
    """black, one top-level section at a time (the template marks them): the fixed parts repeat
    in every module, so their formatting is cached; joined as black joins top-level blocks."""
    chunks = [_format_chunk(c.strip("\n")).rstrip("\n") for c in text.split(_SPLIT + "\n")]
    out: list[str] = []
    for chunk in chunks:
        if not chunk:
            continue
        if out:  # black: two blank lines around a def or class, none between plain assignments
            plain = not chunk.startswith(("def ", "class ", "@")) and not out[-1].startswith(("def ", "class ", "@"))
            out.append("\n" if plain and _is_assignment(chunk) and _is_assignment(out[-1]) else "\n\n\n")
        out.append(chunk)
    return "".join(out) + "\n"


def _is_assignment(chunk: str) -> bool:
    return bool(re.match(r"_[A-Za-z]*[0-9]+(: [^=]+)? = ", chunk))


@functools.lru_cache(maxsize=4096)
def _format_chunk(chunk: str) -> str:
    """One top-level section in black's style. The emitter writes black's style already (double
    quotes where black prefers them, black's spacing and blank lines), so only a section with a
    line over the limit, which black would wrap, goes through black: this keeps compiling a large
    schema (FHIR: thousands of functions) a matter of seconds. Tests check the whole output is
    black-stable."""
    lines = chunk.splitlines()
    if max(map(len, lines), default=0) <= layout.LINE_LENGTH:
        return chunk
    laid_out: list[str] = []
    for line in lines:
        wrapped = [line] if len(line) <= layout.LINE_LENGTH else layout.wrap(line)
        if wrapped is None:
            break  # a shape layout does not know: black does the whole section
        laid_out.extend(wrapped)
    else:
        return "\n".join(laid_out) + "\n"
    try:
        return black.format_str(chunk, mode=_BLACK_MODE)
    except Exception as exc:  # black refusing our output is a compiler bug: say so
        raise RuntimeError(f"straightline emitted code black cannot format (a compiler bug): {exc}") from exc


