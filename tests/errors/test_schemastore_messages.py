"""SchemaStore's own rejected samples of the GitHub workflow and dependabot schemas (vendored in
schemastore/, with their licence and origin) through `straightline validate`'s text output:
every sample rejected, each record's first line a cause (never a bare "... is not valid under any
of the given schemas"), no line printed twice, and the causes a user needs on the samples where
they were missing or doubled."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from generator.yaml_loader import yaml_as_json

from ..validate.conftest import run

SAMPLES = Path(__file__).parent / "schemastore"
SCHEMAS = {"github-workflow": 20, "dependabot-2.0": 99}  # schema -> its rejected samples
BARE = "is not valid under any of the given schemas"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str]]]:
    """Per schema, the text output's lines per sample (the workflows read from YAML as JSON)."""
    found: dict[str, dict[str, list[str]]] = {}
    for name, count in SCHEMAS.items():
        data = tmp_path_factory.mktemp(name)
        for sample in sorted((SAMPLES / "negative_test" / name).iterdir()):
            raw = sample.read_bytes()
            text = yaml_as_json(raw) if sample.suffix in (".yaml", ".yml") else raw
            (data / (sample.stem + ".json")).write_bytes(
                text if isinstance(text, bytes) else text.encode()
            )
        result = run("--schema", SAMPLES / "schemas" / f"{name}.json", data, cwd=data)
        assert result.returncode == 1, result.stderr
        *lines, summary = result.stdout.splitlines()
        assert (
            summary == f"{count} records in {count} files: 0 valid, {count} invalid, 0 unreadable"
        )
        by_sample: dict[str, list[str]] = defaultdict(list)
        for line in lines:
            sample_name, _, rest = line.partition(":")
            by_sample[Path(sample_name).stem].append(rest)
        assert len(by_sample) == count
        found[name] = dict(by_sample)
    return found


@pytest.mark.parametrize("name", SCHEMAS)
def test_no_record_starts_with_a_bare_anyof_or_oneof_message(
    reports: dict[str, dict[str, list[str]]], name: str
) -> None:
    bare = [sample for sample, lines in reports[name].items() if lines[0].endswith(BARE)]
    assert bare == []


@pytest.mark.parametrize("name", SCHEMAS)
def test_no_line_is_printed_twice(reports: dict[str, dict[str, list[str]]], name: str) -> None:
    doubled = [sample for sample, lines in reports[name].items() if len(set(lines)) < len(lines)]
    assert doubled == []


def test_a_limit_checked_beside_and_inside_an_anyof_is_said_once(
    reports: dict[str, dict[str, list[str]]],
) -> None:
    assert reports["dependabot-2.0"]["commit-message.prefix-max-length-exceeded"] == [
        '/updates/0/commit-message/prefix: "-------10|-------20|-------30|-------40|-------50|+" is too long '
        "(maxLength 50)"
    ]


def test_an_object_missing_one_of_its_keys_lists_them(
    reports: dict[str, dict[str, list[str]]],
) -> None:
    assert reports["dependabot-2.0"]["allow-no-subkeys-present"] == [
        f'/updates/0/allow/0: {{}} {BARE}; alternatives: [0] "dependency-name" is a required property; '
        '[1] "dependency-type" is a required property'
    ]


def test_the_alternative_a_cause_lies_in_is_named_by_its_definition(
    reports: dict[str, dict[str, list[str]]],
) -> None:
    assert reports["github-workflow"]["permissions-event-has-wrong-property-keys"] == [
        '/permissions/files: additional property "files" is not allowed '
        "(in oneOf alternative 1 at /permissions: github-workflow.json#/definitions/permissions-event)"
    ]
    assert reports["github-workflow"]["reusable-workflow-uses-has-wrong-filetype"] == [
        '/jobs/build-and-publish/uses: "./.github/workflows/somefile.exe" does not match the pattern '
        '"^(.+\\\\/)+(.+)\\\\.(ya?ml)(@.+)?$" (in oneOf alternative 1 at /jobs/build-and-publish: '
        "github-workflow.json#/definitions/reusableWorkflowCallJob)"
    ]


def test_a_step_without_run_or_uses_names_what_it_needs(
    reports: dict[str, dict[str, list[str]]],
) -> None:
    (line,) = reports["github-workflow"]["steps-must-contain-run-or-uses"]
    assert line.startswith(
        f'/jobs/a/steps/0: {{"name": "Checkout out monorepo"}} {BARE} (in oneOf alternative 0 '
        "at /jobs/a: "
    )
    assert (
        '; alternatives: [0] "uses" is a required property; [1] "run" is a required property'
        in line
    )
