"""The benchmark harness (bench/): it runs, every implementation that can run gives the expected
answer on every benchmark instance, and its JSON document has the documented shape.

No assertion is about time: on a shared machine times are noise. The run is `--quick` on the
math.add cases and, when the shared bench data is present, its small `fast` case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import cli, runner
from bench.cases import DATA_ENV, Case, Instance, select_cases, shared_data_dir
from bench.handwritten import math_add_input_is_valid, math_add_output_is_valid
from bench.implementations import COMPARED, IMPLEMENTATIONS, Built

from .conftest import ROOT

MATH_ADD = ("math.add.input", "math.add.output")
# These must run and agree wherever the test extra is installed (python-jsonschema is in it).
MUST_RUN = ("straightline", "handwritten", "jsonschema")
STATUSES = {"ok", "n/a", "absent", "disagrees"}


def _shared_fast_case_present() -> bool:
    return (shared_data_dir() / "fast_schema.json").is_file()


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One quick run through the command line, read back from the JSON file it writes."""
    path = tmp_path_factory.mktemp("bench") / "latest.json"
    selection = ["--case", "math.add"]
    if _shared_fast_case_present():
        selection += ["--case", "fast"]
    assert cli.main(["--quick", "--quiet", *selection, "--json", str(path)]) == 0
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _case(document: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [c for c in document["cases"] if c["name"] == name]
    assert found, f"case {name} did not run"
    return found[0]


def test_no_implementation_disagrees_with_the_expected_answers(document: dict[str, Any]) -> None:
    assert document["disagreements"] == []
    for case in document["cases"]:
        for name, entry in case["implementations"].items():
            assert entry["status"] != "disagrees", (case["name"], name, entry["reason"])


@pytest.mark.parametrize("case_name", MATH_ADD)
@pytest.mark.parametrize("implementation", MUST_RUN)
def test_straightline_handwritten_and_jsonschema_run_and_agree_on_math_add(
    document: dict[str, Any], case_name: str, implementation: str
) -> None:
    case = _case(document, case_name)
    entry = case["implementations"][implementation]
    assert entry["status"] == "ok", entry["reason"]
    assert all(instance["timings"][implementation] for instance in case["instances"])


@pytest.mark.parametrize(
    ("implementation", "module"),
    [("fastjsonschema", "fastjsonschema"), ("jsonschema-rs", "jsonschema_rs")],
)
def test_installed_peers_run_and_agree_on_math_add(
    document: dict[str, Any], implementation: str, module: str
) -> None:
    pytest.importorskip(module)
    for case_name in MATH_ADD:
        entry = _case(document, case_name)["implementations"][implementation]
        assert entry["status"] == "ok", entry["reason"]


def test_shared_fast_case_runs_every_implementation_it_can(document: dict[str, Any]) -> None:
    # vendored at bench/data: a missing copy fails here rather than skipping
    assert _shared_fast_case_present(), f"bench data not found at {shared_data_dir()} ({DATA_ENV})"
    case = _case(document, "fast")
    statuses = {name: entry["status"] for name, entry in case["implementations"].items()}
    assert statuses["jsonschema"] == "ok"
    assert statuses["handwritten"] == "absent"
    # straightline may not compile the drafts yet; then it must say why, not crash the run.
    straightline = case["implementations"]["straightline"]
    assert straightline["status"] in ("ok", "n/a")
    assert straightline["status"] == "ok" or straightline["reason"]
    expected = {i["name"]: i["expected_valid"] for i in case["instances"]}
    shared = {"fast_valid.json": True, "fast_invalid.json": False}
    assert {name: valid for name, valid in expected.items() if name in shared} == shared
    # and the two made from the valid one (bench/cases.py, with_failing_instances), both invalid
    made = {name: valid for name, valid in expected.items() if name not in shared}
    assert sorted(name.split(" (")[0] for name in made) == ["fails early", "fails late"], made
    assert not any(made.values())


def test_json_document_has_the_documented_shape(document: dict[str, Any]) -> None:
    assert document["format"] == runner.FORMAT
    assert document["mode"] == "quick"
    assert {"platform", "cpu_model", "cores"} <= set(document["machine"])
    assert isinstance(document["python"]["version"], str)
    assert {"straightline", "jsonschema", "fastjsonschema", "jsonschema-rs"} <= set(
        document["packages"]
    )
    assert document["implementations"] == list(IMPLEMENTATIONS)
    assert {"repeats", "target_ns", "compile_runs", "import_runs"} <= set(document["settings"])
    assert isinstance(document["notes"], list)
    for case in document["cases"]:
        _check_case_shape(case)


def _check_case_shape(case: dict[str, Any]) -> None:
    assert {"name", "source", "profile", "note", "implementations", "instances"} <= set(case)
    assert set(case["implementations"]) == set(IMPLEMENTATIONS)
    for entry in case["implementations"].values():
        assert entry["status"] in STATUSES
        assert {"reason", "short_reason", "build_ms", "disagreements"} <= set(entry)
    for instance in case["instances"]:
        assert isinstance(instance["expected_valid"], bool) and instance["bytes"] > 0
        assert set(instance["timings"]) == set(IMPLEMENTATIONS)
        assert set(instance["ratios"]) == set(COMPARED)
        for name, measured in instance["timings"].items():
            ran = case["implementations"][name]["status"] == "ok"
            assert (measured is not None) == ran, (case["name"], instance["name"], name)
            if measured is not None:
                assert measured["median_ns"] > 0 and measured["loops"] >= 1
                assert len(measured["samples_ns"]) >= 1
    module = case["straightline_module"]
    assert module["status"] in ("ok", "n/a")
    if module["status"] == "ok":
        assert module["module_bytes"] > 0 and module["compile_ms"] > 0
        assert module["import"]["from_source_ms"] > 0 and module["import"]["from_bytecode_ms"] > 0
    memory = case["memory"]
    assert memory is None or set(memory["peak_bytes"]) == set(IMPLEMENTATIONS)


def test_ratios_are_peer_time_over_straightline_time(document: dict[str, Any]) -> None:
    """The median of the per-round ratios: sample i of each was taken in the same round."""
    instance = _case(document, "math.add.input")["instances"][0]
    straightline = instance["timings"]["straightline"]["samples_ns"]
    jsonschema = instance["timings"]["jsonschema"]["samples_ns"]
    assert len(straightline) == len(jsonschema) == document["settings"]["repeats"]
    paired = sorted(j / s for j, s in zip(jsonschema, straightline))
    assert instance["ratios"]["jsonschema"] == pytest.approx(paired[len(paired) // 2])
    assert paired[0] <= instance["ratios"]["jsonschema"] <= paired[-1]


def test_each_case_runs_in_a_process_of_its_own() -> None:
    """Run in a worker, a case gives the document run_one gives in this process (timings aside)."""
    isolated = runner.run(["math.add.output"], quick=True, log=runner.silent)
    here = runner.run(["math.add.output"], quick=True, log=runner.silent, isolate=False)
    assert (
        [c["name"] for c in isolated["cases"]]
        == [c["name"] for c in here["cases"]]
        == ["math.add.output"]
    )
    case, local = isolated["cases"][0], here["cases"][0]

    def answers(entries: dict[str, Any]) -> dict[str, Any]:  # build times aside
        return {
            name: {k: v for k, v in e.items() if k != "build_ms"} for name, e in entries.items()
        }

    assert answers(case["implementations"]) == answers(local["implementations"])
    assert [i["name"] for i in case["instances"]] == [i["name"] for i in local["instances"]]
    assert (
        case["straightline_module"]["module_bytes"] == local["straightline_module"]["module_bytes"]
    )


# --- the hand-written validators and the harness's guards, without timing ---------------------

INPUT_EDGE_VALUES = [
    {"left": 0, "right": -0.0},
    {"left": 1e300, "right": 2},
    {"left": 1, "right": 2.5},
    {"left": 1, "right": [2]},
    {"left": {"n": 1}, "right": 2},
    {"right": 2, "left": 1},
    {"left": 1, "right": 2, "total": 3},
    {"left": 1, "right": False},
    {},
    "left",
    None,
]
OUTPUT_EDGE_VALUES = [
    *({"total": v} for v in (0, -0.0, 1e300, 2.5, [2], None, "3", True, 2**100)),
    {"total": 1, "left": 1},
    {},
    [3],
]


def _python_jsonschema(contract: str) -> Any:
    from jsonschema.validators import validator_for  # type: ignore[import-untyped]

    schema = json.loads(
        (ROOT / "contracts" / "octoscript" / f"math.add.{contract}.json").read_text()
    )
    return validator_for(schema)(schema).is_valid


@pytest.mark.parametrize("value", INPUT_EDGE_VALUES, ids=repr)
def test_handwritten_input_validator_agrees_with_python_jsonschema(value: Any) -> None:
    assert math_add_input_is_valid(value) is _python_jsonschema("input")(value)


@pytest.mark.parametrize("value", OUTPUT_EDGE_VALUES, ids=repr)
def test_handwritten_output_validator_agrees_with_python_jsonschema(value: Any) -> None:
    assert math_add_output_is_valid(value) is _python_jsonschema("output")(value)


def _one_instance_case(expected_valid: bool) -> Case:
    return Case("probe", "test", "{}", "strict", [Instance("one", '{"a": 1}', expected_valid)])


def test_an_implementation_that_modifies_the_instance_is_a_disagreement() -> None:
    case = _one_instance_case(True)

    def writes_defaults(instance: Any) -> bool:
        instance["b"] = 2
        return True

    status, _, disagreements = runner._check_answers(Built("probe", writes_defaults), case)
    assert status == "disagrees" and disagreements[0]["instance"] == "one"
    assert case.instances[0].value == {"a": 1}  # restored for the next implementation


def test_a_wrong_answer_is_a_disagreement_and_an_exception_is_not_available() -> None:
    status, reason, _ = runner._check_answers(
        Built("probe", lambda x: False), _one_instance_case(True)
    )
    assert status == "disagrees" and "one" in reason

    def crashes(instance: Any) -> bool:
        raise RecursionError("too deep")

    status, reason, _ = runner._check_answers(Built("probe", crashes), _one_instance_case(True))
    assert status == "n/a" and "RecursionError" in reason


def test_missing_shared_data_is_a_note_not_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "absent"))
    loaders, notes = select_cases(["fast"])
    assert loaders == [] and "shared bench data not found" in notes[0]


def test_an_unknown_case_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--quick", "--case", "no-such-case"]) == 2
    assert "unknown case" in capsys.readouterr().err


def test_the_mcp_report_runs_and_straightline_agrees_with_every_expected_answer(
    tmp_path: Path,
) -> None:
    pytest.importorskip("mcp")
    path = tmp_path / "mcp.json"
    assert cli.main(["--quick", "--quiet", "--mcp", "--json", str(path)]) == 0
    section = json.loads(path.read_text(encoding="utf-8"))["mcp"]
    assert section["status"] == "ok" and section["tool"] == "math.add"
    names = {
        "straightline contract",
        "straightline runtime path",
        "SDK jsonschema",
        "SDK pydantic (MCPServer)",
    }
    for instance in section["validation"]:
        assert set(instance["median_ns"]) | set(instance["disagrees"]) == names
        assert not any(name.startswith("straightline") for name in instance["disagrees"])
        assert all(value > 0 for value in instance["median_ns"].values())
    # pydantic's lax mode takes "2" for an int: the one answer that differs, found before timing
    assert [(i["name"], i["disagrees"]) for i in section["validation"] if i["disagrees"]] == [
        ("denied: string for int", ["SDK pydantic (MCPServer)"])
    ]
    assert section["tools_call"]["problems"] == [
        "SDK pydantic (MCPServer): denied: string for int: answered a result"
    ]
    assert set(section["tools_call"]["seconds_per_call"]) == {
        "straightline",
        "SDK jsonschema",
        "SDK pydantic (MCPServer)",
    }
