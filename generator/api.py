"""The public API: compile a schema to module source text, or to a live module."""

from __future__ import annotations

import json
import types
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from . import ir
from .codegen import Name
from .emit import Emitter
from .errors import OptionError, SchemaError
from .load import load_json
from .lower import Lowering, lower
from .optimise import optimise
from .preflight import check_json_value, preflight, source_size
from .profiles import (APPLICATOR_VOCABULARY, DRAFT_PROFILES, PROFILES, UNEVALUATED_VOCABULARY,
                       VALIDATION_VOCABULARY, Profile, get_profile, with_options)
from .render.module import module_name_for, render, root_of
from .render.types import TypedRoot, module_types
from .resolve import META_SCHEMAS, Registry, load_registry_directory, normalize_meta_uri


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
    types = module_types([TypedRoot("Instance", value, chosen, registry, base_uri, fragment)])
    return render("module.py.j2", [emitter], [root_of(emitter, fast, error, type=types.roots[0])],
                  profile=chosen.name, options=options, fragment=fragment, raw=raw, name=name, format=format,
                  types=types)


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
