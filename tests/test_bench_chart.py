"""The benchmark chart (bench/chart.py): each case's valid instance, the peers' time relative to
straightline's pure module, drawn as an SVG whose text stays text; the committed chart
(docs/images/bench.svg, which the README shows) is the one bench/published.json draws."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bench import chart

ROOT = Path(__file__).resolve().parent.parent

RESULTS: dict[str, Any] = {
    "cases": [
        {
            "name": "math.add.input",
            "instances": [
                {"name": "invalid", "expected_valid": False, "ratios": {"jsonschema": 50.0}},
                {
                    "name": "valid",
                    "expected_valid": True,
                    "ratios": {"jsonschema": 85.9, "native": 0.4, "fastjsonschema": None},
                },
            ],
        },
        {
            "name": "fast",
            "label": "Fast",
            "instances": [
                {"name": "valid", "expected_valid": True, "ratios": {"jsonschema-rs": 0.34}}
            ],
        },
        {
            "name": "nothing valid",
            "instances": [{"name": "x", "expected_valid": False, "ratios": {}}],
        },
    ]
}


def _texts(svg: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", text).strip()
        for text in re.findall(r"<text[^>]*>.*?</text>", svg, re.S)
    ]


def test_figures_are_each_cases_valid_instance_and_its_timed_peers() -> None:
    assert chart.figures(RESULTS) == [
        ("math.add.input", {"jsonschema": 85.9, "native": 0.4}),
        ("Fast", {"jsonschema-rs": 0.34}),
    ]


def test_the_chart_is_an_svg_naming_every_case_and_the_same_each_time(tmp_path: Path) -> None:
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    assert chart.main([str(_written(tmp_path)), "-o", str(first)]) == 0
    assert chart.main([str(_written(tmp_path)), "-o", str(second)]) == 0
    svg = first.read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
    texts = _texts(svg)
    assert "math.add.input" in texts and "Fast" in texts and "python-jsonschema" in texts
    assert first.read_bytes() == second.read_bytes()


def test_results_without_a_valid_instance_or_unreadable_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"cases": RESULTS["cases"][2:]}))
    assert chart.main([str(empty), "-o", str(tmp_path / "x.svg")]) == 2
    assert chart.main([str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.svg")]) == 2
    assert not (tmp_path / "x.svg").exists()


def test_the_committed_chart_is_drawn_from_the_published_figures(tmp_path: Path) -> None:
    published = json.loads((ROOT / "bench" / "published.json").read_text(encoding="utf-8"))
    drawn = tmp_path / "bench.svg"
    assert chart.main([str(ROOT / "bench" / "published.json"), "-o", str(drawn)]) == 0
    committed = _texts((ROOT / "docs" / "images" / "bench.svg").read_text(encoding="utf-8"))
    assert committed == _texts(drawn.read_text(encoding="utf-8"))
    assert [case["label"] for case in published["cases"]] == [
        t for t in committed if t in {c["label"] for c in published["cases"]}
    ]


def _written(tmp_path: Path) -> Path:
    path = tmp_path / "results.json"
    path.write_text(json.dumps(RESULTS), encoding="utf-8")
    return path


def test_native_is_labelled_by_the_backend_the_document_timed(tmp_path: Path) -> None:
    """A document of today's bench (its settings name `mypyc`) timed the C backend as `native`,
    and mypyc's build as `native-mypyc` when asked; an older one (bench/published.json) timed
    mypyc's as `native`."""
    older = _written(tmp_path)
    current = tmp_path / "current.json"
    with_mypyc = tmp_path / "with-mypyc.json"
    cases = json.loads(json.dumps(RESULTS["cases"]))
    current.write_text(json.dumps({"settings": {"mypyc": False}, "cases": cases}))
    cases[0]["instances"][1]["ratios"]["native-mypyc"] = 0.6
    with_mypyc.write_text(json.dumps({"settings": {"mypyc": True}, "cases": cases}))
    labels = {}
    for name, path in (("older", older), ("current", current), ("with mypyc", with_mypyc)):
        svg = tmp_path / f"{name}.svg"
        assert chart.main([str(path), "-o", str(svg)]) == 0
        texts = _texts(svg.read_text(encoding="utf-8"))
        labels[name] = [t for t in texts if t.startswith("straightline, native")]
    assert labels == {
        "older": ["straightline, native (mypyc)"],
        "current": ["straightline, native (C)"],
        "with mypyc": ["straightline, native (C)", "straightline, native (mypyc)"],
    }
