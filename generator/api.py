"""The public API, and the one pipeline every compile runs, whatever the profile:

    load -> preflight (and hygiene) -> resolve -> lower -> plan -> emit -> render

load.py reads the schema exactly; preflight.py checks it against its profile (hygiene.py reports
unknown keywords, where asked); resolve.py indexes
it and every document its references reach (registries only, never the network); lower.py turns
it into IR nodes, one graph keyed by location; plan/ orders each node's checks and decides the
code's shape; emit/ builds each function as a code tree; render/ writes the module text, and
render/header.py seals it with the hashes of every input (what `straightline check` compares).
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any

from . import ir
from .collector import paused
from .emit.module import ModuleEmitter
from .emit.tree import Name
from .errors import OptionError, SchemaError
from .format_options import DEFAULT as DEFAULT_FORMATS
from .format_options import FormatOptions, format_options
from .hygiene import review, review_documents
from .load import load_schema
from .lower import Lowering
from .names import module_name_for
from .plan import Plan, doubling
from .plan.order import Ordering
from .preflight import check_json_value, preflight, source_size, warnings_once
from .profiles import (
    DRAFT_PROFILES,
    Profile,
    choose_profile,
    get_profile,
    with_formats,
    with_options,
)
from .render.header import seal
from .render.module import render, root_of
from .render.types import TypedRoot, module_types
from .resolve import Document, ReadLog, Registry, check_base_uri, registry_mapping

# The draft whose resolution rules a profile that is no draft follows (it has no references).
_SEED_DRAFT = "draft2020-12"


def prepare(
    schema: Any,
    *,
    profile: str | None = None,
    registry: Any = None,
    formats: FormatOptions = DEFAULT_FORMATS,
    walked: set[str] | None = None,
    **options: Any,
) -> tuple[Any, Profile, bytes]:
    """Load and preflight: the schema value, the effective profile (limits from `options`, format
    and content assertion from `formats`) and the source bytes. `walked`, where given, receives
    the pointer of every subschema preflight checked."""
    named = get_profile(profile) if profile is not None else None
    given = with_options(named or DRAFT_PROFILES["draft2020-12"], options)  # bad options first
    text_limit = (
        given.limits.max_source_bytes
        if named is not None
        else options.get("max_source_bytes", get_profile("strict").limits.max_source_bytes)
    )
    value, raw = load_schema(schema, text_limit, lambda v: check_json_value(v, given))
    chosen = with_formats(
        with_options(choose_profile(value, profile, registry_mapping(registry)), options), formats
    )
    limit = chosen.limits.max_source_bytes
    if limit is not None and not isinstance(schema, (str, bytes, bytearray, memoryview)):
        size = source_size(value)
        if size > limit:
            raise SchemaError(
                f"the schema is {size} bytes as JSON, over the limit of {limit} bytes",
                code="limit-exceeded",
            )
    preflight(value, chosen, walked=walked)
    return value, chosen, raw


@dataclass
class Built:
    """A compiled schema: its emitter (functions, constants) and its root's two functions."""

    emitter: ModuleEmitter
    fast: Name
    error: Name
    root: ir.Node  # the root's node, as lowered
    # the registry as it was with the schema's document alone indexed (render/types.py starts
    # from it: TypedRoot.indexed)
    indexed: Registry | None = None
    # the registry's documents that references reached (hygiene.review_documents reads them)
    reached: tuple[Document, ...] = ()


def build(
    value: Any,
    chosen: Profile,
    *,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    prefix: str = "",
    preflighted: set[str] | None = None,
) -> Built:
    """Resolve, lower, plan and emit a preflighted schema. `preflighted`: the pointers prepare()
    walked in it (reference targets among them are not checked again)."""
    known = Registry(draft=chosen.draft or _SEED_DRAFT, supplied=registry_mapping(registry))
    document = known.add(base_uri, value, chosen.draft or _SEED_DRAFT)
    indexed = known.copy(known.supplied)  # (before lowering adds the documents references reach)
    lowering = Lowering(chosen, known, preflighted=(document.uri, preflighted or set()))
    start = (
        _fragment_start(known, document.uri, fragment)
        if fragment
        else known.location(document.uri, "")
    )
    root_key = lowering.target(start, "")
    lowering.lower_pending()
    ordering = Ordering()
    graph = {key: ordering.node(node) for key, node in lowering.graph.items()}
    tables = lowering.dynamic_tables()
    live, loops = doubling.loops_allowed(graph, tables, root_key, lowering.chain_cycles, chosen)
    memo = doubling.memoized(graph, tables, root_key, live, loops)
    root = graph[root_key]
    plan = Plan(graph, [root, *graph.values()], dynamic=bool(tables), memo=memo)
    # the absolute location of each node a dynamic reference may reach (for its errors)
    absolutes = {key: lowering.absolute(key) for key in graph} if tables else {}
    emitter = ModuleEmitter(
        graph, plan, dynamic=bool(tables), dynamic_tables=tables, prefix=prefix, absolutes=absolutes
    )
    fast, error = emitter.run(root)
    reached = tuple(d for d in known.from_supplied if d.value is not value)
    return Built(emitter, fast, error, root, indexed, reached)


def check_name(name: Any) -> None:
    """The API's `name=` (the module's name, made an identifier): a string or None."""
    if name is not None and not isinstance(name, str):
        raise OptionError(f"name must be a string or None, not {type(name).__name__}")


def _fragment_start(known: Registry, uri: str, fragment: str) -> Any:
    """Where the subschema the caller's `fragment` names is; a SchemaError saying that the fragment,
    which no $ref wrote, names nothing."""
    ref = "#" + fragment.lstrip("#")
    try:
        return known.lookup(ref, uri, "")
    except SchemaError as error:
        found = "no anchor of that name" if not ref.startswith("#/") else f"nothing at {ref[1:]!r}"
        raise SchemaError(
            f"the fragment {ref!r} names no subschema: {found} in this document", code=error.code
        ) from None


@paused()  # (the collector would walk the compile's live objects for nothing: collector.py)
def compile_source(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    unknown_keywords: str = "ignore",
    format_assertion: bool | None = None,
    formats: dict[str, str] | None = None,
    unknown_formats: str = "ignore",
    content_assertion: bool | None = None,
    **options: Any,
) -> str:
    """The source text of a standalone validator module for `schema`.

    `format=False` skips black (the code is the same, only laid out less neatly): for dynamic
    use where nobody reads the text. Files written by the CLI are always formatted.
    `registry`: a mapping of URI to schema, or a directory of schema files, for remote
    references; nothing is ever fetched. `base_uri`: the URI of the schema document itself.
    `fragment`: a JSON pointer (`/$defs/invocation`) or anchor naming the subschema to compile.
    `unknown_keywords` (draft profiles): "ignore", "warn" (a generator.SchemaWarning each) or
    "error" (a SchemaError listing them); see generator/hygiene.py.
    `unsafe_patterns` (profiles that are not fail-closed): a pattern no linear-time engine runs
    (docs/regex.md) is run in `re` with a SchemaWarning ("warn", the default), silently
    ("allow"), or refused ("error", a SchemaError `unsafe-regex`); strict always refuses it.
    `format_assertion`: `format` a check (True) or an annotation (False); None: the profile's
    default (an annotation, unless a custom meta-schema's $vocabulary asks for format assertion,
    or custom formats are given). `formats`: custom formats, {"sku": "mypkg.formats:is_sku"}.
    `unknown_formats`: "ignore" (an unknown format is an annotation) or "error" (a SchemaError
    where `format` asserts). `content_assertion`: contentEncoding/contentMediaType checks in
    draft 7 (None: annotations). See generator/format_options.py.
    """
    return compile_built(
        schema,
        profile=profile,
        name=name,
        format=format,
        registry=registry,
        base_uri=base_uri,
        fragment=fragment,
        unknown_keywords=unknown_keywords,
        format_assertion=format_assertion,
        formats=formats,
        unknown_formats=unknown_formats,
        content_assertion=content_assertion,
        **options,
    )[0]


@paused()
def compile_built(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    unknown_keywords: str = "ignore",
    format_assertion: bool | None = None,
    formats: dict[str, str] | None = None,
    unknown_formats: str = "ignore",
    content_assertion: bool | None = None,
    **options: Any,
) -> tuple[str, Built]:
    """compile_source()'s text and the Built it was rendered from: its functions as code trees,
    which the C backend (generator/native/c_module.py) renders again."""
    check_name(name)
    check_base_uri(base_uri)
    if not isinstance(fragment, str):
        raise OptionError(
            f"fragment must be a string (a JSON pointer or an anchor), not {type(fragment).__name__}"
        )
    fmt = format_options(format_assertion, formats, unknown_formats, content_assertion)
    # a directory is read once; what is read is recorded (a ReadLog given, remote_registry's, is
    # used as it is: it fills itself as the compile asks)
    registry = registry if isinstance(registry, ReadLog) else ReadLog(registry_mapping(registry))
    walked: set[str] = set()
    with warnings_once():
        value, chosen, raw = prepare(
            schema, profile=profile, registry=registry, formats=fmt, walked=walked, **options
        )
        review(value, chosen, policy=unknown_keywords, requested_profile=profile)
        built = build(
            value,
            chosen,
            registry=registry,
            base_uri=base_uri,
            fragment=fragment,
            preflighted=walked,
        )
        review_documents(built.reached, chosen, policy=unknown_keywords)
    typed = module_types(
        [TypedRoot("Instance", value, chosen, registry, base_uri, fragment, built.indexed)],
        format=format,
    )
    root = root_of(built.emitter, built.fast, built.error, type=typed.roots[0])
    text = render(
        "module.py.j2",
        [built.emitter],
        [root],
        profile=chosen.name,
        options={**options, **fmt.recorded()},
        fragment=fragment,
        raw=raw,
        name=name,
        format=format,
        types=typed,
    )
    return (
        seal(
            text,
            requested_profile=profile,
            base_uri=base_uri,
            registry=registry,
            asked=registry.asked,
        ),
        built,
    )


def compile_module(
    schema: Any,
    *,
    profile: str | None = None,
    name: str | None = None,
    format: bool = True,
    registry: Any = None,
    base_uri: str = "",
    fragment: str = "",
    **options: Any,
) -> types.ModuleType:
    """compile_source(), executed as a fresh module (options as compile_source takes them, the
    format options included)."""
    source = compile_source(
        schema,
        profile=profile,
        name=name,
        format=format,
        registry=registry,
        base_uri=base_uri,
        fragment=fragment,
        **options,
    )
    module = types.ModuleType(module_name_for(name) if name else "straightline_compiled")
    module.__dict__["__source__"] = source
    exec(compile(source, f"<straightline {module.__name__}>", "exec"), module.__dict__)
    return module


__all__ = [
    "Built",
    "OptionError",
    "SchemaError",
    "build",
    "compile_module",
    "compile_source",
    "prepare",
]
