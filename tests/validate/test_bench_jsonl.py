"""The JSON Lines throughput report of the benchmark harness (bench/jsonl.py) runs, checks the
command's answers before timing, and gives its documented shape. It asserts nothing about time."""

from __future__ import annotations

import json
from pathlib import Path

from bench import jsonl


def test_generated_data_has_one_percent_invalid_records(tmp_path: Path) -> None:
    paths = jsonl.write_data(tmp_path, 1000)
    module = __import__("generator").compile_module(jsonl.SCHEMA, format=False)
    for name, path in paths.items():
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(records) == 1000
        invalid = sum(1 for record in records if not module.is_valid(record))
        assert invalid == (0 if name == "valid" else 10)


def test_quick_report_shape_and_answers() -> None:
    section = jsonl.run(lines=300, log=lambda message: None)
    assert section["lines"] == 300 and section["target_ratio"] == 1.5
    assert [entry["name"] for entry in section["files"]] == ["valid", "1% invalid"]
    for entry in section["files"]:
        assert entry["problem"] is None
        labels = set(entry["seconds"])
        assert {"json.loads", "straightline (in process)", "json.loads (command)", "straightline (command)",
                "straightline --jobs 2 (command)"} <= labels
        assert all(value > 0 for value in entry["seconds"].values())
        assert set(entry["records_per_second"]) == labels
        assert entry["ratio_in_process"] > 0 and entry["ratio_command"] > 0
    assert "records/s" in jsonl.table(section)
