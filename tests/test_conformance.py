"""Every required test of drafts 2020-12, 2019-09, 7, 6 and 4 of the official JSON Schema Test
Suite, and every optional one (optional/ and optional/format/, with format and content assertion
switched on where the suite tests them asserting), through the generated modules and the reference
interpreter (remotes served from a local registry, never the network), and the suite's output tests
of 2020-12 and 2019-09 through the modules' output()."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.format_options import format_options
from generator.load import load_json
from generator.reference import DraftReference

from .errors.structure import structure
from .suite import (
    DRAFTS,
    MISSING,
    file_id,
    groups,
    known_failures,
    optional_files,
    optional_options,
    remotes,
    suite_dir,
    suite_files,
)

CASES = [(draft, path) for draft in DRAFTS for path in suite_files(draft)]


def test_the_suite_is_present_for_every_draft() -> None:
    """A missing suite fails here (the cases below would be an empty list, not a skip)."""
    assert (suite_dir() / "tests").is_dir(), MISSING.format(suite_dir())
    for draft in DRAFTS:
        assert len(suite_files(draft)) >= 30, f"{draft}: too few suite files in {suite_dir()}"
    assert (suite_dir() / "remotes").is_dir(), MISSING.format(suite_dir())


@functools.lru_cache(maxsize=1)
def _remotes() -> dict[str, Any]:
    return remotes()


def _locations(errors: list[Any]) -> list[tuple[str, str]]:
    return sorted((e.instance_location, e.keyword_location) for e in errors)


def run_file(
    draft: str,
    path: Path,
    compile_: Any,
    compare_with_reference: bool = False,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """Failures (`id: what happened`) of one suite file, minus the known ones. With
    `compare_with_reference`, the generated module's errors must also be exactly the reference
    interpreter's: locations, keyword, params, message and context (a differential test over every
    case of the suite). `options` are format options, given to the compiler and the reference alike.
    """
    known = known_failures()
    failures = []
    options = options or {}
    for description, schema, tests in groups(path):
        group_id = f"{draft}/{file_id(path)}::{description}"
        reference = (
            DraftReference(
                schema, draft, registry=_remotes(), format_options=format_options(**options)
            )
            if compare_with_reference
            else None
        )
        try:
            module = compile_(schema, draft, **options)
        except Exception as exc:  # noqa: BLE001 - every failure is reported below
            for test in tests:
                test_id = f"{group_id}::{test['description']}"
                if test_id not in known:
                    failures.append(f"{test_id}: compile failed: {type(exc).__name__}: {exc}")
            continue
        for test in tests:
            test_id = f"{group_id}::{test['description']}"
            try:
                valid = module.is_valid(test["data"])
                found = module.errors(test["data"])
            except Exception as exc:  # noqa: BLE001
                outcome = f"raised {type(exc).__name__}: {exc}"
            else:
                if valid != test["valid"]:
                    outcome = f"is_valid gave {valid}, expected {test['valid']}"
                elif valid != (not found):
                    outcome = f"is_valid gave {valid} but errors() gave {len(found)} errors"
                elif reference is not None and structure(found) != structure(
                    reference.errors(test["data"])
                ):
                    outcome = (
                        f"errors {structure(found)} differ from the reference's "
                        f"{structure(reference.errors(test['data']))}"
                    )
                else:
                    continue
            if test_id not in known:
                failures.append(f"{test_id}: {outcome}")
    return failures


def compile_in_memory(schema: Any, draft: str, **options: Any) -> Any:
    return generator.compile_module(
        schema, profile=draft, registry=_remotes(), format=False, **options
    )


@pytest.mark.parametrize("draft,path", CASES, ids=[f"{d}/{p.name}" for d, p in CASES])
def test_suite_file_through_generated_modules(draft: str, path: Path) -> None:
    failures = run_file(draft, path, compile_in_memory, compare_with_reference=True)
    assert not failures, "\n".join(failures)


OPTIONAL_CASES = [(draft, path) for draft in DRAFTS for path in optional_files(draft)]


def test_the_optional_suite_is_present_for_every_draft() -> None:
    """The optional files the README reports on are all there (an empty list would pass silently)."""
    for draft in DRAFTS:
        names = {file_id(p) for p in optional_files(draft)}
        assert {
            "optional/bignum.json",
            "optional/ecmascript-regex.json",
            "optional/float-overflow.json",
            "optional/id.json",
            "optional/non-bmp-regex.json",
            "optional/format/email.json",
            "optional/format/unknown.json",
        } <= names, draft
    assert len(OPTIONAL_CASES) >= 120


@pytest.mark.parametrize(
    "draft,path", OPTIONAL_CASES, ids=[f"{d}/{file_id(p)}" for d, p in OPTIONAL_CASES]
)
def test_optional_suite_file(draft: str, path: Path) -> None:
    failures = run_file(
        draft, path, compile_in_memory, compare_with_reference=True, options=optional_options(path)
    )
    assert not failures, "\n".join(failures)


def test_known_failures_are_still_failures() -> None:
    """The known-failures file lists only tests that really fail (and each with a reason)."""
    for test_id, reason in known_failures().items():
        assert reason.strip(), test_id


def _disk_compiler(tmp_path: Path) -> Any:
    """A compile function that writes the formatted source to a file and imports it."""
    counter = 0

    def compile_to_disk(schema: Any, draft_: str, **options: Any) -> Any:
        nonlocal counter
        counter += 1
        target = tmp_path / f"suite_module_{counter}.py"
        target.write_text(
            generator.compile_source(schema, profile=draft_, registry=_remotes(), **options),
            encoding="utf-8",
        )
        spec = importlib.util.spec_from_file_location(target.stem, target)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return compile_to_disk


@pytest.mark.parametrize("draft", DRAFTS)
def test_modules_written_to_disk_and_imported(draft: str, tmp_path: Path) -> None:
    """As users do: formatted source written to a file and imported (a sample of each draft)."""
    compile_to_disk = _disk_compiler(tmp_path)
    sample = [
        p
        for p in suite_files(draft)
        if p.name in ("ref.json", "properties.json", "items.json", "anyOf.json")
    ]
    failures = [f for path in sample for f in run_file(draft, path, compile_to_disk)]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("draft", ["draft2020-12", "draft7", "draft4"])
def test_format_modules_written_to_disk_and_imported(draft: str, tmp_path: Path) -> None:
    """The checkers copied into a formatted module (laid out by black) behave as in memory."""
    compile_to_disk = _disk_compiler(tmp_path)
    names = (
        "email.json",
        "hostname.json",
        "date-time.json",
        "ipv6.json",
        "uri.json",
        "content.json",
    )
    sample = [p for p in optional_files(draft) if p.name in names]
    assert len(sample) >= 5
    failures = [
        f
        for path in sample
        for f in run_file(draft, path, compile_to_disk, options=optional_options(path))
    ]
    assert not failures, "\n".join(failures)


# -- the output tests: the output formats (output-tests/<draft>/content, `basic`) ----------------
OUTPUT_DRAFTS = (
    "draft2020-12",
    "draft2019-09",
)  # (v1/: the next release's formats, not these drafts')
OUTPUT_CASES = [
    (draft, path)
    for draft in OUTPUT_DRAFTS
    for path in sorted((suite_dir() / "output-tests" / draft / "content").glob("*.json"))
]


def test_the_output_tests_are_present() -> None:
    for draft in OUTPUT_DRAFTS:
        assert len([p for d, p in OUTPUT_CASES if d == draft]) >= 4, MISSING.format(suite_dir())


def output_failures(draft: str, path: Path) -> list[str]:
    """Failures of one output-test file: each test's `basic` output (module.output) must be valid
    under the test's schema for it, which refers to the draft's output schema (served locally)."""
    output_schema = load_json(
        (suite_dir() / "output-tests" / draft / "output-schema.json").read_bytes()
    )
    registry = {output_schema["$id"]: output_schema}
    known = known_failures()
    failures = []
    for description, schema, tests in groups(path):
        module = generator.compile_module(schema, profile=draft, format=False)
        for test in tests:
            test_id = f"output:{draft}/content/{path.name}::{description}::{test['description']}"
            checker = generator.compile_module(
                test["output"]["basic"], profile=draft, registry=registry, format=False
            )
            produced = module.output(test["data"], "basic")
            problems = [f"{e.instance_location}: {e.message}" for e in checker.errors(produced)]
            if problems and test_id not in known:
                failures.append(f"{test_id}: {problems} in {produced}")
            elif not problems and test_id in known:
                failures.append(f"{test_id}: passes, but is listed in known_failures.json")
    return failures


@pytest.mark.parametrize("draft,path", OUTPUT_CASES, ids=[f"{d}/{p.name}" for d, p in OUTPUT_CASES])
def test_output_suite_file(draft: str, path: Path) -> None:
    failures = output_failures(draft, path)
    assert not failures, "\n".join(failures)
