"""The public API: compile a schema to module source text, or to a live module."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import types
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import black
import jinja2

from . import __version__, ir, layout
from .codegen import Code, Name, comment, literal
from .emit import Emitter, primitive_sources
from .errors import OptionError, SchemaError
from .loader import load_json
from .lower import Lowering, lower
from .optimise import optimise
from .preflight import check_json_value, preflight, source_size
from .profiles import (APPLICATOR_VOCABULARY, DRAFT_PROFILES, PROFILES, UNEVALUATED_VOCABULARY,
                       VALIDATION_VOCABULARY, Profile, get_profile, with_options)
from .resolve import META_SCHEMAS, Registry, load_registry_directory, normalize_meta_uri

_LINE_LENGTH = 100
_BLACK_MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=_LINE_LENGTH)


def _templates_dir() -> Path:
    """Templates ship inside the package (wheel); a source checkout keeps them beside it."""
    inside = Path(__file__).resolve().parent / "templates"
    if inside.is_dir():
        return inside
    return Path(__file__).resolve().parent.parent / "templates"


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
    import keyword

    name = re.sub(r"[^0-9A-Za-z_]", "_", text)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = "contract_" + name
    return name


def _parse(schema: Any, profile: Profile | None, options: dict[str, Any]) -> tuple[Any, bytes]:
    """The schema value and the bytes its hash is taken over."""
    if isinstance(schema, (str, bytes, bytearray, memoryview)):
        limit = options.get("max_source_bytes", (profile or PROFILES["strict"]).limits.max_source_bytes)
        raw = schema.encode("utf-8", "surrogatepass") if isinstance(schema, str) else bytes(schema)
        return load_json(raw, max_bytes=limit), raw
    if isinstance(schema, (dict, bool)):
        check_json_value(schema, profile or DRAFT_PROFILES["draft2020-12"])
        try:
            schema = _plain(schema)
            raw = json.dumps(schema, ensure_ascii=True, separators=(",", ":"), default=_no_default).encode()
        except (TypeError, ValueError) as exc:
            raise SchemaError(f"the schema is not a JSON value: {exc}", code="bad-json") from None
        except RecursionError:
            raise SchemaError("the schema is nested too deeply", code="limit-exceeded") from None
        return schema, raw
    raise SchemaError(
        f"a schema must be JSON text, bytes, an object or a boolean, not {type(schema).__name__}",
        code="not-a-schema",
    )


def _plain(value: Any) -> Any:
    """A copy of a JSON value in the exact built-in types, read through the base types' own
    methods: subclasses in a schema given as Python objects (a str whose __repr__ returns code,
    a dict whose items() lies) never reach the compiler."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Decimal):
        return Decimal(Decimal.__str__(value))
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in dict.items(value)}
    if isinstance(value, list):
        return [_plain(v) for v in list.__iter__(value)]
    raise TypeError(f"{type(value).__name__} is not JSON")


def _no_default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value)  # only for the hash; the schema itself keeps the Decimal
    raise TypeError(f"{type(value).__name__} is not JSON")


_VOCABULARIES = {
    "validation": VALIDATION_VOCABULARY,
    "applicator": APPLICATOR_VOCABULARY,
    "unevaluated": UNEVALUATED_VOCABULARY,
}


def _registry_mapping(registry: Any) -> dict[str, Any]:
    if registry is None:
        return {}
    if isinstance(registry, (str, Path)):
        if not Path(registry).is_dir():
            raise OptionError(f"registry {str(registry)!r} is not a directory of schema files")
        return load_registry_directory(registry)
    if isinstance(registry, dict):
        return dict(registry)
    raise OptionError("registry must be a mapping of URI to schema, or a directory")


def _choose_profile(value: Any, profile: str | None, registry: dict[str, Any]) -> Profile:
    """The named profile; else the draft `$schema` names; else draft 2020-12. A custom
    meta-schema (found in the registry) gives its own draft, less the vocabularies it leaves out."""
    named = get_profile(profile) if profile is not None else None
    if named is not None and named.draft is None:
        return named
    meta = value.get("$schema") if isinstance(value, dict) else None
    if not isinstance(meta, str):
        return named or DRAFT_PROFILES["draft2020-12"]
    uri = normalize_meta_uri(meta)
    if uri in META_SCHEMAS:
        return named or DRAFT_PROFILES[META_SCHEMAS[uri]]
    custom = registry.get(uri, registry.get(meta))
    if not isinstance(custom, dict):
        if named is not None:
            return named
        raise SchemaError(f"$schema {meta!r} names no known draft and no meta-schema in the registry",
                          code="unknown-profile", pointer="/$schema")
    parent = custom.get("$schema")
    base = named or (DRAFT_PROFILES[META_SCHEMAS.get(normalize_meta_uri(parent), "draft2020-12")]
                     if isinstance(parent, str) else DRAFT_PROFILES["draft2020-12"])
    vocabulary = custom.get("$vocabulary")
    if not isinstance(vocabulary, dict):
        return base
    dropped: set[str] = set()
    for name, keywords in _VOCABULARIES.items():
        if not any(isinstance(v, str) and v.rstrip("/").endswith("/vocab/" + name) for v in vocabulary):
            dropped |= keywords
    return replace(base, enforced=base.enforced - dropped)


def prepare(schema: Any, *, profile: str | None = None, registry: Any = None,
            **options: Any) -> tuple[Any, Profile, bytes]:
    """Load and preflight: the schema value, the effective profile and the source bytes."""
    base = get_profile(profile) if profile is not None else None
    with_options(base or DRAFT_PROFILES["draft2020-12"], options)  # reject bad options first
    value, raw = _parse(schema, base, options)
    chosen = with_options(_choose_profile(value, profile, _registry_mapping(registry)), options)
    limit = chosen.limits.max_source_bytes
    if limit is not None and not isinstance(schema, (str, bytes, bytearray, memoryview)):
        size = source_size(value)
        if size > limit:
            raise SchemaError(f"the schema is {size} bytes as JSON, over the limit of {limit} bytes",
                              code="limit-exceeded")
    preflight(value, chosen)
    return value, chosen, raw


def _in_place_targets(node: ir.Node, tables: dict[tuple[str, str], list[tuple[int, str]]]) -> list[tuple[str, str]]:
    """(target key, $ref pointer) of every reference a node reaches without descending into the
    instance: following those in a cycle would never end."""
    found: list[tuple[str, str]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        for check in current.checks:
            if isinstance(check, ir.Ref):
                found.append((check.target, check.where))
                for _, key in tables.get((check.mode or "", check.anchor), []) if check.mode else []:
                    found.append((key, check.where))
            stack.extend(ir.in_place(check))
    return found


def _reject_ref_cycles(graph: dict[str, ir.Node], tables: dict[tuple[str, str], list[tuple[int, str]]]) -> None:
    edges = {key: _in_place_targets(node, tables) for key, node in graph.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        stack: list[tuple[str, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            key, index = stack.pop()
            if index < len(edges[key]):
                stack.append((key, index + 1))
                target, where = edges[key][index]
                if state.get(target) == 1:
                    raise SchemaError("this reference loops back to itself without consuming any of the "
                                      "instance, so validation could never finish", code="ref-cycle",
                                      pointer=where)
                if target not in state and target in edges:
                    state[target] = 1
                    stack.append((target, 0))
            else:
                state[key] = 2


def build(value: Any, chosen: Profile, *, registry: Any = None, base_uri: str = "",
          fragment: str = "", prefix: str = "") -> tuple[Emitter, Name, Name]:
    """Lower, optimise and emit a preflighted schema: the emitter and the root functions."""
    if chosen.draft is None:
        if fragment:
            raise OptionError("compiling a fragment needs a JSON Schema draft profile")
        emitter = Emitter(prefix=prefix)
        fast, error = emitter.run(optimise(lower(value, chosen)))
        return emitter, fast, error
    known = Registry(draft=chosen.draft, supplied=_registry_mapping(registry))
    document = known.add(base_uri, value, chosen.draft)
    lowering = Lowering(chosen, known)
    if fragment:
        start = known.lookup("#" + fragment.lstrip("#"), document.uri, "")
    else:
        start = known.location(document.uri, "")
    root_key = lowering.target(start, "")
    lowering.lower_pending()
    graph = {key: optimise(node) for key, node in lowering.graph.items()}
    tables: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for mode, anchor in sorted(lowering.dynamic_names):
        entries = []
        if mode == "dynamic":
            for resource, names in sorted(known.dynamic_anchors.items()):
                if anchor in names:
                    entries.append((lowering.resource_id(resource), names[anchor]))
        else:
            for resource in sorted(known.recursive_anchors):
                document_uri, pointer = known.resources[resource]
                entries.append((lowering.resource_id(resource), document_uri + "#" + pointer))
        tables[(mode, anchor)] = entries
    _reject_ref_cycles(graph, tables)
    emitter = Emitter(graph, dynamic=bool(tables), dynamic_tables=tables, prefix=prefix)
    fast, error = emitter.run(graph[root_key])
    return emitter, fast, error


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


def root_of(emitter: Emitter, fast: Name, error: Name, **names: Any) -> Root:
    direct = not emitter.dynamic and not emitter.has_refs and not names.get("envelope", False)
    return Root(fast, error, Code(", ()") if emitter.dynamic else Code(""), direct=direct, **names)


def render(template: str, emitters: list[Emitter], roots: list[Root], *, profile: str, options: dict[str, Any],
           raw: bytes, name: str | None, format: bool, extra_imports: list[Code] = [], fragment: str = "",
           **context: Any) -> str:
    """The module text: header, primitives, every emitter's constants and functions, the API."""
    imports, primitive_constants, primitive_functions = primitive_sources(emitters)
    imports = imports + list(extra_imports)
    sha = hashlib.sha256(raw).hexdigest()
    recorded = recorded_options(options, fragment)
    header = [
        comment(f"Generated by straightline {__version__}. Do not edit: regenerate with `straightline compile`."),
        comment(f"straightline-version: {__version__}"),
        comment(f"profile: {profile}"),
        comment(f"options: {recorded}"),
        comment(f"source-sha256: {sha}"),
    ]
    metadata = literal({"version": __version__, "profile": profile, "options": json.loads(recorded),
                        "source_sha256": sha})
    contract_name = Name(module_name_for(name)) if name else Code("given to compile_source")
    text = _ENV.get_template(template).render(
        header=Code("\n".join(h.text for h in header)),
        contract_name=contract_name,
        imports=imports,
        primitive_constants=primitive_constants,
        constants=[c for e in emitters for c in e.constants],
        primitives=primitive_functions,
        functions=[f for e in emitters for f in e.functions],
        late_constants=[c for e in emitters for c in e.late_constants],
        metadata=metadata,
        roots=roots,
        split=Code(_SPLIT),
        **context,
    )
    return _format(text) if format else text.replace(_SPLIT + "\n", "")


def compile_source(schema: Any, *, profile: str | None = None, name: str | None = None,
                   format: bool = True, registry: Any = None, base_uri: str = "", fragment: str = "",
                   **options: Any) -> str:
    """The source text of a standalone validator module for `schema`.

    `format=False` skips black (the code is the same, only laid out less neatly): for dynamic
    use where nobody reads the text. Files written by the CLI are always formatted.
    `registry` (drafts): a mapping of URI to schema, or a directory of schema files, for remote
    references; nothing is ever fetched. `base_uri`: the URI of the schema document itself.
    `fragment`: a JSON pointer (`/$defs/invocation`) or anchor naming the subschema to compile.
    """
    registry = _registry_mapping(registry)  # a directory is read once
    value, chosen, raw = prepare(schema, profile=profile, registry=registry, **options)
    emitter, fast, error = build(value, chosen, registry=registry, base_uri=base_uri, fragment=fragment)
    return render("module.py.j2", [emitter], [root_of(emitter, fast, error)], profile=chosen.name,
                  options=options, fragment=fragment, raw=raw, name=name, format=format)


def recorded_options(options: dict[str, Any], fragment: str = "") -> str:
    """The options as the module header records them (and `straightline check` compares them)."""
    recorded = {**options, **({"fragment": fragment} if fragment else {})}
    return json.dumps(recorded, sort_keys=True, separators=(",", ":"))


_SPLIT = "#<straightline:chunk>"


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
    if max(map(len, lines), default=0) <= _LINE_LENGTH:
        return chunk
    laid_out: list[str] = []
    for line in lines:
        wrapped = [line] if len(line) <= _LINE_LENGTH else layout.wrap(line)
        if wrapped is None:
            break  # a shape layout does not know: black does the whole section
        laid_out.extend(wrapped)
    else:
        return "\n".join(laid_out) + "\n"
    try:
        return black.format_str(chunk, mode=_BLACK_MODE)
    except Exception as exc:  # black refusing our output is a compiler bug: say so
        raise RuntimeError(f"straightline emitted code black cannot format (a compiler bug): {exc}") from exc


def compile_module(schema: Any, *, profile: str | None = None, name: str | None = None,
                   format: bool = True, registry: Any = None, base_uri: str = "", fragment: str = "",
                   **options: Any) -> types.ModuleType:
    """compile_source(), executed as a fresh module."""
    source = compile_source(schema, profile=profile, name=name, format=format, registry=registry,
                            base_uri=base_uri, fragment=fragment, **options)
    module = types.ModuleType(module_name_for(name) if name else "straightline_compiled")
    module.__dict__["__source__"] = source
    exec(compile(source, f"<straightline {module.__name__}>", "exec"), module.__dict__)
    return module
