"""Compiling stays near-linear in the schema's size (a red-team finding: an enum of 4,000 strings
took 30 s, `required` with 8,000 names 72 s, one 1M-character property name 98 s, all in laying out
long lines). Long statements of the shapes the emitter writes are laid out from the code tree, so
black never sees them; a hang guard bounds each case."""

from __future__ import annotations

import time
from typing import Any

import pytest

import generator
from generator.render import module as render_module

CASES = {
    "enum of 4000 strings": lambda tag: {"enum": [f"{tag}-{i:05d}" for i in range(4000)]},
    "required with 8000 names": lambda tag: {
        "type": "object",
        "required": [f"{tag}{i}" for i in range(8000)],
    },
    "properties with 3000 names": lambda tag: {
        "type": "object",
        "additionalProperties": False,
        "properties": {f"{tag}{i}": {"type": "integer"} for i in range(3000)},
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_large_keyword_values_are_laid_out_without_black(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    original = render_module.black.format_str

    def counting(text: str, *, mode: Any) -> str:
        calls.append(len(text))
        return original(text, mode=mode)

    generator.compile_source(
        CASES[name]("warm"), profile="draft2020-12"
    )  # (the copied primitives, once)
    monkeypatch.setattr(render_module.black, "format_str", counting)
    started = time.perf_counter()
    source = generator.compile_source(CASES[name]("name"), profile="draft2020-12")
    assert time.perf_counter() - started < 60  # a hang guard (under a second on an idle machine)
    assert calls == [], f"black formatted sections of {calls} characters"
    assert original(source, mode=render_module._BLACK_MODE) == source  # and it is black's layout


def test_a_huge_property_name_compiles_in_linear_time() -> None:
    """A 1M-character name: every line holding it is one long string black cannot split; the
    sections are formatted once each (black is linear on them), never line by line."""
    schema = {"type": "object", "properties": {"a" * 1_000_000: {"type": "string"}}}
    started = time.perf_counter()
    module = generator.compile_module(schema, profile="draft2020-12")
    assert time.perf_counter() - started < 120  # a hang guard (98 s before, some 7 s now)
    assert module.is_valid({"a" * 1_000_000: "x"}) and not module.is_valid({"a" * 1_000_000: 1})
