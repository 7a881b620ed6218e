"""The layering of generator/, on the import graph read from the source (tests/layering.py), every
import counted: at module level, in a function, or under TYPE_CHECKING.

- No circle between rooms (a subpackage or a top-level module), except through an edge named in
  ALLOWED_ROOM_EDGES with its reason; each such edge must still close a circle, so the list
  cannot go stale.
- A keyword unit (keywords/*.py but the registry and base) imports only its door: the IR, the
  code tree, the emission contexts, keywords/base.py's Protocols and the leaf modules named in
  UNIT_DOOR; a sibling unit only where UNIT_SIBLINGS says why.
- The leaf modules import only leaf modules.
- No stage imports a unit: the registry collects the units, and the pipeline hands its tables on.
- Only the modules REGISTRY_IMPORTERS names import the registry (keywords/registry.py): every
  stage gets its tables as an argument. (A stage the pipeline calls that took them from the
  pipeline instead would close a circle, which the first rule refuses.)
"""

from __future__ import annotations

from typing import Mapping

from tests.layering import Graph, circles, module_graph, room, room_graph

KEYWORDS = "generator.keywords"
REGISTRY = f"{KEYWORDS}.registry"
NOT_UNITS = {KEYWORDS, REGISTRY, f"{KEYWORDS}.base"}

# Room edges left out of the circle check, each with why it is there today.
ALLOWED_ROOM_EDGES: dict[tuple[str, str], str] = {}  # (none left: the oracle has its own package)

# Leaf modules: shared facts and primitives that import nothing of the stages (a name ending in
# ".*" is a whole subpackage).
LEAVES = frozenset(
    {
        "generator.ir",
        "generator.primitives",
        "generator.values",
        "generator.codegen",
        "generator.errors",
        "generator.dialects",
        "generator.uris",
        "generator.static_types",  # the type algebra the units' `types` hooks build with
        "generator.format_options",
        "generator.plan.parts",
        "generator.plan.tuning",
        "generator.formats.*",
        "generator.regex.*",
    }
)

# What a unit may import beside the leaves: its door.
UNIT_DOOR = frozenset(
    {
        f"{KEYWORDS}.base",  # Keyword, CheckKind and the Protocols of what the stages hand it
        "generator.emit.tree",  # the code tree it writes
        "generator.emit.context",  # Branch, General, ErrorContext, Evaluation, error helpers
        "generator.emit.module",  # ModuleEmitter: the module-wide context (`ctx.m`)
    }
)

# A unit importing another unit, and why.
UNIT_SIBLINGS: dict[tuple[str, str], str] = {
    (f"{KEYWORDS}.arrays", f"{KEYWORDS}.strings"): "minItems/maxItems share the length checks",
    (f"{KEYWORDS}.objects", f"{KEYWORDS}.strings"): "the property count and pattern helpers",
}

# A stage importing a unit, and why. (None left: doubling.py reads member steps from the IR,
# ir.Check.member_steps.)
STAGE_UNITS: dict[tuple[str, str], str] = {}


# The modules that may import the registry, and why: the pipeline alone. It hands the registry's
# tables (a KeywordTables) to preflight, hygiene, lower (and through it resolve's index), plan,
# emit and render/types, and holds the profiles built from them; contracts, jobs, the CLI and
# the reference's profile front (reference/profiles.py) take those from the pipeline.
REGISTRY_IMPORTERS: dict[str, str] = {
    "generator.pipeline": "the orchestrator: builds TABLES and PROFILES once and hands them on",
}


def _is_unit(module: str) -> bool:
    return module.startswith(KEYWORDS + ".") and module not in NOT_UNITS


def _is_leaf(module: str) -> bool:
    return module in LEAVES or any(
        leaf.endswith(".*") and (module == leaf[:-2] or module.startswith(leaf[:-1]))
        for leaf in LEAVES
    )


def room_circles(modules: Graph, allowed: Mapping[tuple[str, str], str]) -> list[frozenset[str]]:
    """The circles between rooms, the allowed edges left out."""
    rooms = room_graph(modules)
    kept = {
        source: frozenset(t for t in targets if (source, t) not in allowed)
        for source, targets in rooms.items()
    }
    return circles(kept)


def stale_room_edges(
    modules: Graph, allowed: Mapping[tuple[str, str], str]
) -> list[tuple[str, str]]:
    """The allowed edges that no longer close a circle (or are gone): to be struck off."""
    rooms = room_graph(modules)
    stale = []
    for source, target in allowed:
        in_circle = any(source in c and target in c for c in circles(rooms))
        if target not in rooms.get(source, frozenset()) or not in_circle:
            stale.append((source, target))
    return stale


def unit_imports_outside_door(modules: Graph) -> list[tuple[str, str]]:
    """(unit, module) for each import a unit makes past its door."""
    return [
        (unit, target)
        for unit, targets in sorted(modules.items())
        if _is_unit(unit)
        for target in sorted(targets)
        if target not in UNIT_DOOR
        and not _is_leaf(target)
        and (unit, target) not in UNIT_SIBLINGS
        and (KEYWORDS, room(target)) not in ALLOWED_ROOM_EDGES
    ]


def leaves_importing_more(modules: Graph) -> list[tuple[str, str]]:
    return [
        (leaf, target)
        for leaf, targets in sorted(modules.items())
        if _is_leaf(leaf)
        for target in sorted(targets)
        if not _is_leaf(target)
    ]


def stages_importing_units(modules: Graph) -> list[tuple[str, str]]:
    return [
        (stage, target)
        for stage, targets in sorted(modules.items())
        if not stage.startswith(KEYWORDS)
        for target in sorted(targets)
        if _is_unit(target) and (stage, target) not in STAGE_UNITS
    ]


def registry_importers(modules: Graph) -> list[str]:
    """The modules importing the registry that REGISTRY_IMPORTERS does not name."""
    return sorted(
        source
        for source, targets in modules.items()
        if REGISTRY in targets and source not in REGISTRY_IMPORTERS
    )


def _edges(modules: Graph) -> set[tuple[str, str]]:
    return {(source, target) for source, targets in modules.items() for target in targets}


GRAPH = module_graph()


def test_no_circle_between_rooms() -> None:
    assert room_circles(GRAPH, ALLOWED_ROOM_EDGES) == []


def test_each_allowed_room_edge_still_closes_a_circle() -> None:
    assert stale_room_edges(GRAPH, ALLOWED_ROOM_EDGES) == []


def test_a_keyword_unit_imports_only_its_door() -> None:
    assert unit_imports_outside_door(GRAPH) == []


def test_each_allowed_sibling_and_stage_import_is_still_there() -> None:
    edges = _edges(GRAPH)
    assert [e for e in UNIT_SIBLINGS if e not in edges] == []
    assert [e for e in STAGE_UNITS if e not in edges] == []


def test_the_leaves_import_only_leaves() -> None:
    assert leaves_importing_more(GRAPH) == []


def test_no_stage_imports_a_unit() -> None:
    assert stages_importing_units(GRAPH) == []


def test_only_the_pipeline_imports_the_registry() -> None:
    assert registry_importers(GRAPH) == []


def test_each_allowed_registry_importer_still_imports_it() -> None:
    assert [m for m in REGISTRY_IMPORTERS if REGISTRY not in GRAPH.get(m, frozenset())] == []


def test_the_graph_sees_deferred_and_type_checking_imports() -> None:
    """A function-local and a TYPE_CHECKING import both count (emit/module.py imports fast.py in
    a method; keywords/base.py imports emit/context.py under TYPE_CHECKING)."""
    assert "generator.emit.fast" in GRAPH["generator.emit.module"]
    assert "generator.emit.context" in GRAPH[f"{KEYWORDS}.base"]


def test_each_rule_fails_on_a_violation() -> None:
    """A made-up graph breaking every rule: each check reports it."""
    unit, stage = f"{KEYWORDS}.numbers", "generator.lower"
    fake: dict[str, frozenset[str]] = {
        unit: frozenset({stage, "generator.ir"}),
        stage: frozenset({f"{KEYWORDS}.registry"}),
        f"{KEYWORDS}.registry": frozenset({unit}),
        "generator.values": frozenset({"generator.emit.fast"}),
        "generator.emit.fast": frozenset(),
        "generator.ir": frozenset(),
        "generator.api": frozenset({f"{KEYWORDS}.objects"}),
        f"{KEYWORDS}.objects": frozenset(),
    }
    assert room_circles(fake, {}) == [frozenset({KEYWORDS, "generator.lower"})]
    assert stale_room_edges(fake, {("generator.lower", "generator.api"): "gone"}) == [
        ("generator.lower", "generator.api")
    ]
    assert unit_imports_outside_door(fake) == [(unit, stage)]
    assert leaves_importing_more(fake) == [("generator.values", "generator.emit.fast")]
    assert stages_importing_units(fake) == [("generator.api", f"{KEYWORDS}.objects")]
    # the stage importing the registry: past the pipeline (which may)
    fake["generator.pipeline"] = frozenset({REGISTRY})
    assert registry_importers(fake) == [stage]


def test_the_registry_rule_sees_a_deferred_import() -> None:
    """A stage importing the registry in a function (as resolve.py once did) breaks the rule: the
    graph is read from this made-up source as from the package's."""
    import ast

    from tests.layering import _imported

    source = "def holding():\n    from .keywords.registry import TABLES\n    return TABLES\n"
    known = {"generator.resolve", REGISTRY, KEYWORDS, "generator"}
    found = _imported("generator.resolve", False, ast.parse(source), known)
    assert registry_importers({"generator.resolve": frozenset(found)}) == ["generator.resolve"]
