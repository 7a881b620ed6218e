"""The JSON Lines throughput report of the benchmark harness (bench/jsonl.py) runs, checks the
command's answers before timing, and gives its documented shape. It asserts nothing about time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import jsonl


def test_generated_data_has_one_percent_invalid_records(tmp_path: Path) -> None:
    paths = jsonl.write_data(tmp_path, 1000)
    module = __import__("generator").compile_module(jsonl.SCHEMA, format=False)
    for name, path in paths.items():
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(records) == 1000
        invalid = sum(1 for record in records if not module.is_valid(record))
        assert invalid == (0 if name == "valid" else 10)


@pytest.fixture(scope="module")
def section() -> dict[str, Any]:
    """One quick run of the report (generated events and the real schemas, 200 lines each)."""
    return jsonl.run(lines=200, log=lambda message: None)


def test_quick_report_shape_and_answers(section: dict[str, Any]) -> None:
    assert section["lines"] == 200 and section["target_ratio"] == 1.5
    assert [entry["name"] for entry in section["files"]] == ["valid", "1% invalid"]
    for entry in section["files"]:
        assert entry["problem"] is None
        labels = set(entry["seconds"])
        assert {
            "json.loads",
            "straightline (in process)",
            "json.loads (command)",
            "straightline (command)",
            "straightline --jobs 2 (command)",
        } <= labels
        assert all(value > 0 for value in entry["seconds"].values())
        assert set(entry["records_per_second"]) == labels
        assert entry["ratio_in_process"] > 0 and entry["ratio_command"] > 0
    assert "records/s" in jsonl.table(section)


def test_real_schemas_report_shape_and_answers(section: dict[str, Any]) -> None:
    """SchemaStore's Dependabot, GitHub workflow and package.json schemas, each over its valid
    samples: the command's answer is checked (every record valid) before the figures are taken."""
    assert section["schemas_target_ratio"] == 1.2
    assert [entry["name"] for entry in section["schemas"]] == [
        "dependabot",
        "github-workflows",
        "package.json",
    ]
    for entry in section["schemas"]:
        assert entry["problem"] is None
        assert entry["lines"] == 200 and entry["samples"] > 30
        assert {
            "json.loads",
            "straightline (in process)",
            "json.loads (command)",
            "straightline --jobs 2 (command)",
        } <= set(entry["seconds"])
        assert entry["ratio_jobs_2"] > 0 and entry["ratio_in_process"] > 0
        assert len(entry["load_average"]) == 2
        assert entry["module"]["bytes"] > 100_000 and entry["module"]["compile_seconds"] > 0
    table = jsonl.table(section)
    assert "ratio --jobs 2" in table and "load average" in table and "compiled in" in table
