"""The SchemaStore corpus, on demand: every schema of a SchemaStore checkout compiled (as the CLI
writes modules, black included) and run over its own test instances.

Skipped unless STRAIGHTLINE_SCHEMASTORE names a checkout of SchemaStore/schemastore (or a copy of
its src/schemas/json, src/test and src/negative_test); nothing is fetched, and references
resolve from the corpus only (tests/corpus/schemastore.py). The whole run takes minutes:

    STRAIGHTLINE_SCHEMASTORE=/path/to/schemastore .venv/bin/python -m pytest tests/corpus -q -s
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .schemastore import Corpus, SchemaResult, load_corpus, report, run_corpus

ROOT = os.environ.get("STRAIGHTLINE_SCHEMASTORE")
pytestmark = pytest.mark.skipif(
    not ROOT or not (Path(ROOT) / "src" / "schemas" / "json").is_dir(),
    reason="the SchemaStore corpus runs on demand: set STRAIGHTLINE_SCHEMASTORE to a checkout of "
    "SchemaStore/schemastore (with src/schemas/json, src/test, src/negative_test)",
)

# Schemas refused on purpose, each with its reason (README, "Real schemas: the SchemaStore
# corpus"); a refusal not listed here, or one with another code, fails the test.
DELIBERATE_REFUSALS: dict[str, str] = {
    # (none: cloudify.json, refused for a reference loop before, compiles with a warning since
    # issue 29, tests/test_cloudify.py)
}


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    assert ROOT is not None
    return load_corpus(Path(ROOT))


@pytest.fixture(scope="module")
def results(corpus: Corpus) -> list[SchemaResult]:
    found = run_corpus(corpus, format=True)
    print(
        "\n"
        + report(found, format=True, skipped=sum(1 for n in corpus.schemas if n in corpus.skiptest))
    )
    return found


def test_no_compile_or_validation_crashes_or_hangs(results: list[SchemaResult]) -> None:
    crashes = [f"{r.name}: {r.message}" for r in results if r.status in ("crash", "hang")]
    crashes += [f"{r.name}: {c}" for r in results for c in r.crashes]
    assert crashes == []


def test_every_refusal_is_a_remote_reference_or_deliberate(results: list[SchemaResult]) -> None:
    refused = {r.name: r.code for r in results if r.status == "refused"}
    unexpected = {
        name: code for name, code in refused.items() if DELIBERATE_REFUSALS.get(name) != code
    }
    assert unexpected == {}, [r.message for r in results if r.name in unexpected]
    assert all(r.code == "unresolvable-ref" for r in results if r.status == "remote-ref")


def test_each_schema_file_is_read(corpus: Corpus, results: list[SchemaResult]) -> None:
    assert corpus.unreadable == {}
    assert len(results) == len([n for n in corpus.schemas if n not in corpus.skiptest]) > 0


def test_where_a_verdict_differs_from_its_label_the_reference_interpreter_agrees(
    results: list[SchemaResult],
) -> None:
    # a label the compiled module does not meet is the corpus expecting more than the drafts
    # assert (format validation, mostly); the compiled module must still say what the oracle says
    disagreements = [
        f"{r.name}/{m.file}: module {m.verdict}, reference {m.reference}"
        for r in results
        for m in r.mismatches
        if m.reference is not m.verdict
    ]
    assert disagreements == []
    assert sum(r.instances for r in results) > 0
