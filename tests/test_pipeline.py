"""One pipeline (generator/pipeline.py): a tool contract's side is compiled as a schema is, with the
same preflight, the same warnings in the same order, and the types read from the same index.
Before the two shared it, a contract's side was preflighted again while it was lowered, reviewed
after its references were lowered, and its types indexed its document a second time."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import generator
from generator import SchemaWarning, lower, pipeline
from generator.contracts import compile_contract_source

BACKREF = r"^(\w+)\s\1$"  # an unsafe pattern: the drafts run it in `re`, with a warning

# A reference target inside an unknown keyword: preflight reaches it only through the $ref, so
# its pattern is warned about while references are lowered, after the unknown keyword's warning.
HIDDEN = {
    "$defs": {"word": {"type": "string"}},
    "properties": {
        "w": {"$ref": "#/$defs/word"},
        "h": {"$ref": "#/hidden/p"},
    },
    "hidden": {"p": {"pattern": BACKREF}},
}


def _contract(schema: Any) -> dict[str, Any]:
    return {"name": "t.tool", "profile": "draft2020-12", "input": schema, "output": {}}


def _warnings_of(call: Any) -> list[tuple[str, str, str]]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        call()
    return [
        (w.message.code, w.message.pointer, w.message.message)
        for w in found
        if isinstance(w.message, SchemaWarning)
    ]


def test_a_contract_side_warns_as_its_schema_does() -> None:
    as_schema = _warnings_of(
        lambda: generator.compile_source(
            HIDDEN, profile="draft2020-12", unknown_keywords="warn", format=False
        )
    )
    as_contract = _warnings_of(
        lambda: compile_contract_source(_contract(HIDDEN), unknown_keywords="warn", format=False)
    )
    assert [code for code, _, _ in as_schema] == ["unknown-keyword", "unsafe-regex"]
    assert as_contract == [(code, "/input" + at, text) for code, at, text in as_schema]


def test_a_contract_side_is_preflighted_once_as_a_schema_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lowering preflights only the reference targets that preflight did not walk already."""
    walked: list[str] = []
    original = lower.preflight

    def counted(schema: Any, profile: Any, **kwargs: Any) -> Any:
        walked.append(kwargs.get("pointer", ""))
        return original(schema, profile, **kwargs)

    monkeypatch.setattr(lower, "preflight", counted)
    generator.compile_source(HIDDEN, profile="draft2020-12", format=False)
    as_schema = list(walked)
    walked.clear()
    compile_contract_source(_contract(HIDDEN), format=False)
    assert as_schema == ["/hidden/p"]  # the one target preflight's own walk did not reach
    assert walked == as_schema


def test_a_contract_side_types_start_from_its_compiled_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[Any] = []
    original = pipeline.module_types

    def recording(roots: list[Any], **kwargs: Any) -> Any:
        seen.extend(roots)
        return original(roots, **kwargs)

    monkeypatch.setattr(pipeline, "module_types", recording)
    compile_contract_source(_contract(HIDDEN), format=False)
    assert [root.name for root in seen] == ["Input", "Output"]
    assert all(root.indexed is not None for root in seen)


def test_a_contract_review_error_names_its_side_once() -> None:
    """An unknown keyword refused (policy error) is located under the side, not twice under it."""
    with pytest.raises(generator.SchemaError) as refused:
        compile_contract_source(_contract(HIDDEN), unknown_keywords="error", format=False)
    assert refused.value.code == "unknown-keyword"
    assert refused.value.pointer == "/input/hidden"
