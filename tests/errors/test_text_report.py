"""The text output of `straightline validate`, through the installed command: each error of a
record as its deepest relevant cause (inside a failed anyOf/oneOf, the alternative the instance
fits, named), the alternatives listed where they fail alike, no line twice, and `-v`'s tree of
causes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..validate.conftest import run, write

# package.json's `funding` (SchemaStore), under an $id: a URL, a {url, type} object, or a list
FUNDING: dict[str, Any] = {
    "$id": "https://example.com/package.json",
    "type": "object",
    "properties": {
        "funding": {
            "oneOf": [
                {"$ref": "#/$defs/fundingUrl"},
                {"$ref": "#/$defs/fundingWay"},
                {
                    "type": "array",
                    "items": {
                        "oneOf": [{"$ref": "#/$defs/fundingUrl"}, {"$ref": "#/$defs/fundingWay"}]
                    },
                },
            ]
        }
    },
    "$defs": {
        "fundingUrl": {"type": "string"},
        "fundingWay": {
            "type": "object",
            "required": ["url"],
            "additionalProperties": False,
            "properties": {"url": {"$ref": "#/$defs/fundingUrl"}, "type": {"type": "string"}},
        },
    },
}


def _validate(
    tmp_path: Path, schema: Any, *documents: Any, flags: tuple[str, ...] = ()
) -> list[str]:
    write(tmp_path / "s.json", schema)
    names = []
    for number, document in enumerate(documents):
        names.append(f"d{number}.json")
        write(tmp_path / names[-1], document)
    result = run("--schema", "s.json", *flags, *names, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    return result.stdout.splitlines()[:-1]  # (the summary line left out)


def test_a_oneof_failure_is_shown_as_the_cause_in_the_alternative_it_fits_named(
    tmp_path: Path,
) -> None:
    lines = _validate(tmp_path, FUNDING, {"funding": {"invalid-prop": "x"}})
    assert lines == [
        'd0.json:/funding: "url" is a required property '
        "(in oneOf alternative 1 at /funding: package.json#/$defs/fundingWay)"
    ]


def test_an_alternative_that_is_no_reference_is_named_by_its_place_in_the_schema(
    tmp_path: Path,
) -> None:
    lines = _validate(tmp_path, FUNDING, {"funding": ["https://example.com", {"type": "x"}]})
    assert lines == [
        'd0.json:/funding/1: "url" is a required property '
        "(in oneOf alternative 2 at /funding: #/properties/funding/oneOf/2; "
        "in oneOf alternative 1 at /funding/1: package.json#/$defs/fundingWay)"
    ]


def test_alternatives_that_fail_alike_are_each_listed(tmp_path: Path) -> None:
    schema = {
        "properties": {
            "allow": {
                "anyOf": [{"required": ["dependency-name"]}, {"required": ["dependency-type"]}]
            }
        }
    }
    lines = _validate(tmp_path, schema, {"allow": {}})
    assert lines == [
        "d0.json:/allow: {} is not valid under any of the given schemas; alternatives: "
        '[0] "dependency-name" is a required property; [1] "dependency-type" is a required property'
    ]


def test_a_member_every_alternative_fails_at_names_no_one_alternative(tmp_path: Path) -> None:
    schema = {
        "oneOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
        ]
    }
    lines = _validate(tmp_path, schema, {"a": 1.5})
    assert lines == [
        'd0.json:/a: 1.5 is not of type "string" (every oneOf alternative at (root) fails here)'
    ]


def test_an_alternatives_cause_below_it_is_listed_with_its_location(tmp_path: Path) -> None:
    schema = {
        "anyOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["b"]},
            {"properties": {"a": {"type": "integer"}}},
            {"required": ["c"]},
        ]
    }
    lines = _validate(tmp_path, schema, {"a": 1.5})
    assert lines == [
        'd0.json:(root): {"a": 1.5} is not valid under any of the given schemas; alternatives: '
        '[0] "b" is a required property; [1] /a: 1.5 is not of type "integer"; '
        '[2] "c" is a required property'
    ]


def test_at_most_five_alternatives_are_listed(tmp_path: Path) -> None:
    schema = {"anyOf": [{"const": n} for n in range(7)]}
    (line,) = _validate(tmp_path, schema, 9)
    assert line == (
        "d0.json:(root): 9 is not valid under any of the given schemas; alternatives: "
        "[0] 9 is not the expected value 0; [1] 9 is not the expected value 1; "
        "[2] 9 is not the expected value 2; [3] 9 is not the expected value 3; "
        "[4] 9 is not the expected value 4; and 2 more (-v lists them)"
    )


def test_a_cause_also_listed_on_its_own_is_printed_once(tmp_path: Path) -> None:
    """dependabot's commit-message: `prefix` is limited beside the anyOf and again inside its
    first alternative, so the record's own maxLength error and the anyOf's cause are the same."""
    schema = {
        "properties": {
            "commit": {
                "properties": {"prefix": {"maxLength": 3}},
                "anyOf": [
                    {"properties": {"prefix": {"$ref": "#/$defs/prefix"}}, "required": ["prefix"]},
                    {"required": ["include"]},
                ],
            }
        },
        "$defs": {"prefix": {"maxLength": 3}},
    }
    lines = _validate(tmp_path, schema, {"commit": {"prefix": "abcd"}})
    assert lines == ['d0.json:/commit/prefix: "abcd" is too long (maxLength 3)']


def test_causes_come_best_first_then_in_the_records_order(tmp_path: Path) -> None:
    schema = {
        "required": ["z"],
        "properties": {
            "a": {
                "properties": {
                    "b": {"anyOf": [{"type": "string"}, {"type": "object", "required": ["c"]}]}
                }
            }
        },
    }
    lines = _validate(tmp_path, schema, {"a": {"b": {}}})
    assert lines == [
        'd0.json:(root): "z" is a required property',
        'd0.json:/a/b: "c" is a required property (in anyOf alternative 1 at /a/b: '
        "#/properties/a/properties/b/anyOf/1)",
    ]


def test_verbose_prints_the_tree_of_causes(tmp_path: Path) -> None:
    """Every alternative, with its errors and theirs; the one best_match descends into marked
    (inside the list, its first item: python-jsonschema's relevance prefers the earlier sibling)."""
    lines = _validate(tmp_path, FUNDING, {"funding": [5, {"type": "x"}]}, flags=("-v",))
    assert lines == [
        'd0.json:/funding: [5, {"type": "x"}] is not valid under any of the given schemas',
        "  oneOf alternative 0 (package.json#/$defs/fundingUrl):",
        '    /funding: [5, {"type": "x"}] is not of type "string"',
        "  oneOf alternative 1 (package.json#/$defs/fundingWay):",
        '    /funding: [5, {"type": "x"}] is not of type "object"',
        "  oneOf alternative 2 (#/properties/funding/oneOf/2), the closest:",
        "    /funding/0: 5 is not valid under any of the given schemas",
        "      oneOf alternative 0 (package.json#/$defs/fundingUrl):",
        '        /funding/0: 5 is not of type "string"',
        "      oneOf alternative 1 (package.json#/$defs/fundingWay):",
        '        /funding/0: 5 is not of type "object"',
        '    /funding/1: {"type": "x"} is not valid under any of the given schemas',
        "      oneOf alternative 0 (package.json#/$defs/fundingUrl):",
        '        /funding/1: {"type": "x"} is not of type "string"',
        "      oneOf alternative 1 (package.json#/$defs/fundingWay):",
        '        /funding/1: "url" is a required property',
    ]


def test_verbose_lists_contains_items(tmp_path: Path) -> None:
    schema = {"contains": {"type": "string", "minLength": 2}}
    lines = _validate(tmp_path, schema, [1, "a"], flags=("--verbose",))
    assert lines == [
        'd0.json:(root): [1, "a"] has no item that matches the contains schema',
        "  contains item 0:",
        '    /0: 1 is not of type "string"',
        "  contains item 1:",
        '    /1: "a" is too short (minLength 2)',
    ]


def test_worker_processes_report_the_same_causes(tmp_path: Path) -> None:
    records = [
        {"funding": {"x": 1}},
        {"funding": 5},
        {"funding": "ok"},
        {"funding": [{"url": 1}]},
    ] * 3
    write(tmp_path / "s.json", FUNDING)
    write(tmp_path / "d.jsonl", "".join(json.dumps(record) + "\n" for record in records))
    serial = run("--schema", "s.json", "d.jsonl", cwd=tmp_path)
    parallel = run(
        "--schema", "s.json", "--jobs", "2", "--chunk-size", "40", "d.jsonl", cwd=tmp_path
    )
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    assert (
        'd.jsonl:4:/funding/0/url: 1 is not of type "string" (in oneOf alternative 2 at /funding: '
        in serial.stdout
    )
