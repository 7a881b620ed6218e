"""The compile pipeline, the one every module runs through (a schema's, a tool contract's):

    load -> preflight (and hygiene) -> resolve -> lower -> plan -> emit -> render -> seal

load.py reads the schema exactly; preflight.py checks it against its profile (hygiene.py reports
unknown keywords, where asked); resolve.py indexes it and every document its references reach
(registries only, never the network); lower.py turns it into IR nodes, one graph keyed by
location; plan/ orders each node's checks and decides the code's shape; emit/ builds each
function as a code tree; render/ writes the module text, and render/header.py seals it with the
hashes of every input (what `straightline check` compares).

api.py (compile_source) and contracts/ (compile_contract_source) check their arguments and call
compile_text() here; neither runs a stage itself.

This module is the one that imports the keyword registry (keywords/registry.py): it hands the
registry's tables (TABLES, a KeywordTables) to each stage that reads keywords, so no stage
imports a unit or the registry (tests/test_layering.py), and it holds the profiles built from
them (PROFILES).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from . import doubling, ir
from .codegen import uses_decimal
from .emit.module import ModuleEmitter
from .emit.tree import Name
from .errors import SchemaError
from .format_options import DEFAULT as DEFAULT_FORMATS
from .format_options import FormatOptions
from .hygiene import review, review_documents
from .keywords import registry as keywords
from .keywords.base import KeywordTables
from .load import load_schema
from .lower import Lowered, Lowering, compiler_reading
from .plan import Plan
from .plan.order import Ordering
from .preflight import check_json_value, preflight, source_size, warnings_once
from .profiles import Profile, choose_profile, profiles_of, with_formats, with_options
from .profiles import get_profile as _get_profile
from .render.header import seal
from .render.module import render, root_of
from .render.sections import RenderedModule
from .render.types import TypedRoot, module_types
from .resolve import Document, ReadLog, Registry, registry_mapping

# The draft whose resolution rules a profile that is no draft follows (it has no references).
_SEED_DRAFT = "draft2020-12"

# The registry's tables, handed to every stage that reads keywords.
TABLES: KeywordTables = keywords.TABLES
# Every named profile (generator.PROFILES), its keyword sets read from the tables.
PROFILES: dict[str, Profile] = profiles_of(TABLES)


def get_profile(name: Any) -> Profile:
    """The profile of this name; an OptionError naming the known ones."""
    return _get_profile(name, TABLES)


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
    given = with_options(named or PROFILES["draft2020-12"], options)  # bad options first
    text_limit = (
        given.limits.max_source_bytes
        if named is not None
        else options.get("max_source_bytes", get_profile("strict").limits.max_source_bytes)
    )
    value, raw = load_schema(schema, text_limit, lambda v: check_json_value(v, given))
    chosen = with_formats(
        with_options(choose_profile(value, profile, registry_mapping(registry), TABLES), options),
        formats,
        TABLES,
    )
    limit = chosen.limits.max_source_bytes
    if limit is not None and not isinstance(schema, (str, bytes, bytearray, memoryview)):
        size = source_size(value)
        if size > limit:
            raise SchemaError(
                f"the schema is {size} bytes as JSON, over the limit of {limit} bytes",
                code="limit-exceeded",
            )
    preflight(value, chosen, tables=TABLES, walked=walked)
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
    # the lowering and the root's graph key (render/types.py reads the static types from it)
    lowered: Lowered | None = None


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
    known = Registry(
        draft=chosen.draft or _SEED_DRAFT,
        reading=compiler_reading(TABLES),
        supplied=registry_mapping(registry),
    )
    document = known.add(base_uri, value, chosen.draft or _SEED_DRAFT)
    indexed = known.copy(known.supplied)  # (before lowering adds the documents references reach)
    lowering = Lowering(
        chosen, known, preflighted=(document.uri, preflighted or set()), tables=TABLES
    )
    start = (
        _fragment_start(known, document.uri, fragment)
        if fragment
        else known.location(document.uri, "")
    )
    root_key = lowering.target(start, "")
    lowering.lower_pending()
    ordering = Ordering(TABLES.ranks)
    graph = {key: ordering.node(node) for key, node in lowering.graph.items()}
    tables = lowering.dynamic_tables()
    live, loops = doubling.loops_allowed(graph, tables, root_key, lowering.chain_cycles, chosen)
    memo = doubling.memoized(graph, tables, root_key, live, loops)
    root = graph[root_key]
    plan = Plan(
        graph,
        [root, *graph.values()],
        dynamic=bool(tables),
        checks=TABLES.checks,
        planners=TABLES.planners,
        memo=memo,
        memo_loops=bool(loops),
    )
    # the absolute location of each node a dynamic reference may reach (for its errors)
    absolutes = {key: lowering.absolute(key) for key in graph} if tables else {}
    emitter = ModuleEmitter(
        graph,
        plan,
        checks=TABLES.checks,
        messages=TABLES.messages,
        dynamic=bool(tables),
        dynamic_tables=tables,
        prefix=prefix,
        absolutes=absolutes,
    )
    fast, error = emitter.run(root)
    reached = tuple(d for d in known.from_supplied if d.value is not value)
    return Built(emitter, fast, error, root, indexed, reached, Lowered(lowering, root_key))


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


# -- a module ----------------------------------------------------------------------------------------


def _no_names(built: Built) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Part:
    """One schema a module validates (a schema's module has one; a tool contract's two)."""

    schema: Any
    type_name: str  # the static type of a valid value ("Instance", "Input")
    base_uri: str = ""
    fragment: str = ""
    prefix: str = ""  # before its functions' names ("i": a contract's input)
    # where the schema sits in the compiled file (a contract's "/input"): before every pointer
    # of its errors and warnings
    pointer: str = ""
    # the names of its public functions (render.module.Root's fields other than its type), from
    # what it compiled to
    root_names: Callable[[Built], dict[str, Any]] = _no_names


@dataclass
class Compiled:
    """One part, through emit: its value, effective profile, source bytes and Built."""

    value: Any
    chosen: Profile
    raw: bytes
    built: Built


@contextlib.contextmanager
def _located(pointer: str) -> Iterator[None]:
    """A SchemaError raised inside moved under `pointer` (a contract's /input), if any."""
    if not pointer:
        yield
        return
    try:
        yield
    except SchemaError as failure:
        raise failure.under(pointer) from None


def compile_part(
    part: Part,
    *,
    profile: str | None,
    requested_profile: str | None,
    registry: ReadLog,
    formats: FormatOptions,
    unknown_keywords: str,
    reviewed: set[int],
    options: dict[str, Any],
) -> Compiled:
    """Load, preflight, review, resolve, lower, plan and emit one part; preflight's warnings once
    each, and the registry documents in `reviewed` (id() of their values) not reviewed again."""
    walked: set[str] = set()
    with warnings_once(prefix=part.pointer):
        with _located(part.pointer):
            value, chosen, raw = prepare(
                part.schema,
                profile=profile,
                registry=registry,
                formats=formats,
                walked=walked,
                **options,
            )
        # (its own pointers: a SchemaError of review's is located already)
        review(
            value,
            chosen,
            tables=TABLES,
            policy=unknown_keywords,
            requested_profile=requested_profile,
            pointer=part.pointer,
        )
        with _located(part.pointer):
            built = build(
                value,
                chosen,
                registry=registry,
                base_uri=part.base_uri,
                fragment=part.fragment,
                prefix=part.prefix,
                preflighted=walked,
            )
        review_documents(
            built.reached, chosen, tables=TABLES, policy=unknown_keywords, reviewed=reviewed
        )
    return Compiled(value, chosen, raw, built)


def compile_text(
    parts: Sequence[Part],
    *,
    template: str,
    profile: str | None,
    registry: Any,
    formats: FormatOptions,
    unknown_keywords: str,
    name: str | None,
    format: bool,
    options: dict[str, Any],
    requested_profile: str | None = None,
    recorded_profile: str | None = None,
    raw: bytes | None = None,
    sealed_base_uri: str = "",
    data: Any = None,
    **fields: Any,
) -> tuple[RenderedModule, list[Compiled]]:
    """The sealed module validating each part (its text as tagged sections), and what each
    compiled to.

    `profile`: the profile each part is prepared with (None: chosen from its $schema);
    `requested_profile`: the one the caller asked for (hygiene warns when it overrides $schema;
    the header records it); `recorded_profile`: the profile the module's metadata names (None:
    the first part's effective one). `raw`: the bytes the header's hash is taken over (None: the one part's
    own source). `sealed_base_uri`: the base URI the header records. `data`: a JSON value the
    module also holds as data (a contract's schemas: a Decimal in it needs the import).
    `fields`: the template's own. `registry`: a mapping of URI to schema, or a directory of
    schema files."""
    # a directory is read once; what is read is recorded (a ReadLog given, remote_registry's, is
    # used as it is: it fills itself as the compile asks)
    registry = registry if isinstance(registry, ReadLog) else ReadLog(registry_mapping(registry))
    reviewed: set[int] = set()  # the registry documents reviewed, across the parts
    compiled = [
        compile_part(
            part,
            profile=profile,
            requested_profile=requested_profile,
            registry=registry,
            formats=formats,
            unknown_keywords=unknown_keywords,
            reviewed=reviewed,
            options=options,
        )
        for part in parts
    ]
    typed = module_types(
        [
            TypedRoot(
                part.type_name,
                one.value,
                one.chosen,
                registry,
                part.base_uri,
                part.fragment,
                one.built.indexed,
                one.built.lowered,
            )
            for part, one in zip(parts, compiled)
        ],
        tables=TABLES,
        format=format,
    )  # one set of names for every part
    roots = [
        root_of(
            one.built.emitter,
            one.built.fast,
            one.built.error,
            **part.root_names(one.built),
            type=type_name,
        )
        for part, one, type_name in zip(parts, compiled, typed.roots)
    ]
    emitters = [one.built.emitter for one in compiled]
    if data is not None:
        emitters[0].uses_decimal = emitters[0].uses_decimal or uses_decimal(data)
    rendered = render(
        template,
        emitters,
        roots,
        profile=compiled[0].chosen.name if recorded_profile is None else recorded_profile,
        options={**options, **formats.recorded()},
        raw=compiled[0].raw if raw is None else raw,
        name=name,
        format=format,
        types=typed,
        **fields,
    )
    sealed = seal(
        rendered.text,
        requested_profile=requested_profile,
        base_uri=sealed_base_uri,
        registry=registry,
        asked=registry.asked,
    )
    return rendered.resealed(sealed), compiled
