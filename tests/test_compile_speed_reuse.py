"""What the compile-speed work reuses instead of redoing gives what redoing gives: checkers.py's
statements cut from lines split once, the TypedDict reader's registry copied from the compile's
(instead of indexing the document again), a check's cost estimate kept after it is first made,
and simplify's walk over the names read that stops early."""

from __future__ import annotations

import ast
import inspect

import generator
from generator.api import build, prepare
from generator.emit.simplify import names_read
from generator.emit.tree import FALSE, TRUE, Assign, Call, Compare, If, Name, Return, call
from generator.formats import _segment, _source_lines, checkers
from generator.keywords.registry import CHECKS, TABLES
from generator.plan.cost import Costs
from generator.render.types import TypedRoot, module_types
from generator.resolve import ReadLog

# A document that references another (with an $id and an anchor of its own) and a definition
# of its own: lowering adds the second document to the compile's registry, the types reader
# reaches it too.
OTHER = {
    "$id": "https://example.com/other.json",
    "$defs": {"name": {"$anchor": "nm", "type": "string"}},
    "type": "object",
    "properties": {"label": {"$ref": "#nm"}},
}
ROOT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.com/root.json",
    "type": "object",
    "properties": {"other": {"$ref": "other.json"}, "self": {"$ref": "#/$defs/node"}},
    "$defs": {
        "node": {
            "type": "object",
            "properties": {"next": {"$ref": "#/$defs/node"}, "tag": {"enum": ["a", "b"]}},
        }
    },
}
REGISTRY = {"https://example.com/other.json": OTHER}


def test_checkers_statements_are_the_segments_ast_gives() -> None:
    source = inspect.getsource(checkers)
    lines = _source_lines(source)
    statements = ast.parse(source).body
    assert len(statements) > 20
    for node in statements:
        assert _segment(lines, node) == ast.get_source_segment(source, node)


def test_source_lines_split_where_ast_splits() -> None:
    text = "a = 1\r\nb = '\x0c'\rc = 2\n\nd = 3"
    assert _source_lines(text) == ["a = 1\r\n", "b = '\x0c'\r", "c = 2\n", "\n", "d = 3"]
    node = ast.parse(text).body[3]
    assert _segment(_source_lines(text), node) == ast.get_source_segment(text, node) == "d = 3"


def _built() -> tuple[object, object, object]:
    registry = ReadLog(REGISTRY)
    value, chosen, _ = prepare(ROOT_SCHEMA, registry=registry)
    return (
        build(value, chosen, registry=registry, base_uri="https://example.com/root.json"),
        value,
        chosen,
    )


def test_types_read_from_the_compiles_index_are_those_of_a_fresh_index() -> None:
    built, value, chosen = _built()
    assert built.indexed is not None
    held = dict(built.indexed.documents)
    assert list(held) == ["https://example.com/root.json"]  # taken before lowering added other.json
    fresh = module_types(
        [TypedRoot("Instance", value, chosen, REGISTRY, "https://example.com/root.json")],
        tables=TABLES,
    )
    reused = module_types(
        [
            TypedRoot(
                "Instance",
                value,
                chosen,
                REGISTRY,
                "https://example.com/root.json",
                "",
                built.indexed,
            )
        ],
        tables=TABLES,
    )
    assert [d.text for d in reused.definitions] == [d.text for d in fresh.definitions]
    assert any(
        "Other" in d.text or "Label" in d.text for d in fresh.definitions
    )  # the other document was read
    assert built.indexed.documents == held  # the reader read into a copy


def test_a_compile_with_references_to_another_document_is_what_it_was() -> None:
    text = generator.compile_source(
        ROOT_SCHEMA, registry=REGISTRY, base_uri="https://example.com/root.json"
    )
    module: dict[str, object] = {}
    exec(compile(text, "<test>", "exec"), module)
    is_valid = module["is_valid"]
    assert is_valid({"other": {"label": "x"}, "self": {"next": {"tag": "a"}}})  # type: ignore[operator]
    assert not is_valid({"other": {"label": 3}})  # type: ignore[operator]
    assert not is_valid({"self": {"next": {"tag": "c"}}})  # type: ignore[operator]


def test_a_kept_cost_estimate_is_the_estimate_made_again() -> None:
    built, _, _ = _built()
    graph = built.emitter.graph  # type: ignore[attr-defined]
    costs = Costs(graph, CHECKS)
    checks = [check for node in graph.values() for check in node.checks]
    assert checks
    first = [costs.check(check) for check in checks]
    assert [costs.check(check) for check in checks] == first  # kept
    assert [costs._estimate(check) for check in checks] == first  # and what estimating again gives


def test_the_walk_over_names_read_stops_only_when_every_wanted_name_is_read() -> None:
    t, x, u = Name("t"), Name("x"), Name("u")
    body = [
        Assign(t, call("type", x)),
        If(((Compare(t, "is", Name("dict")), (Return(TRUE),)),)),
        Assign(u, call("type", x)),
        Return(Call(Name("f"), (Name("late"),))),
    ]
    everything = names_read(body)
    assert {"t", "x", "late", "f", "dict", "type"} <= everything and "u" not in everything
    assert names_read(body, until={"t"}) >= {"t"}
    assert names_read(body, until={"t", "u"}) == everything  # u is never read: the whole walk
    assert names_read([Return(FALSE)], until={"t"}) == set()
