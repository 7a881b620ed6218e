"""The benchmark cases: a schema, the straightline profile to compile it with, and instances
whose expected answer (valid or not) the case declares.

Cases are listed by name first and loaded only when selected, so `--case math.add` never reads
the multi-megabyte shared data.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .handwritten import HANDWRITTEN

ROOT = Path(__file__).resolve().parent.parent
DATA_ENV = "STRAIGHTLINE_BENCH_DATA"


@dataclass
class Instance:
    name: str
    text: str  # the pristine JSON text, kept to detect and undo an implementation's mutation
    expected_valid: bool
    value: Any = field(init=False, repr=False)  # one parsed value, shared by every implementation
    canonical: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.restore()
        # A sorted dump tells apart what == does not (1, 1.0 and True are all equal).
        self.canonical = json.dumps(self.value, sort_keys=True)

    def restore(self) -> None:
        self.value = json.loads(self.text)

    def is_pristine(self) -> bool:
        try:
            return json.dumps(self.value, sort_keys=True) == self.canonical
        except (TypeError, ValueError):  # a validator put a non-JSON value into it
            return False

    @property
    def size_bytes(self) -> int:
        return len(self.text.encode("utf-8"))


@dataclass
class Case:
    name: str
    source: str  # where the schema comes from, for the report
    schema_text: str
    profile: str  # the straightline profile it is compiled with
    instances: list[Instance]
    handwritten: Callable[[Any], bool] | None = None
    note: str = ""

    def fresh_schema(self) -> Any:
        """A private copy: some peers (fastjsonschema) rewrite the schema they are given."""
        return json.loads(self.schema_text)

    def declared_draft(self) -> str:
        """The draft its $schema names (draft 2020-12 when none)."""
        return draft_profile(self.fresh_schema())

    def largest_instance(self) -> Instance | None:
        return max(self.instances, key=lambda i: i.size_bytes, default=None)


# --- the project's own contracts -------------------------------------------------------------

# (instance name, value, expected valid)
Rows = tuple[tuple[str, Any, bool], ...]

MATH_ADD_INPUT: Rows = (
    ("two ints", {"left": 1, "right": 2}, True),
    ("negative and zero", {"left": -5, "right": 0}, True),
    ("integral float 1.0", {"left": 1.0, "right": 2}, True),
    ("big ints 2**70", {"left": 2**70, "right": -(2**70)}, True),
    ("missing right", {"left": 1}, False),
    ("string for int", {"left": "1", "right": 2}, False),
    ("extra field", {"left": 1, "right": 2, "carry": 0}, False),
    ("bool for int", {"left": True, "right": 2}, False),
    ("fractional float", {"left": 1.5, "right": 2}, False),
    ("null for int", {"left": 1, "right": None}, False),
    ("array not object", [1, 2], False),
)

MATH_ADD_OUTPUT: Rows = (
    ("int total", {"total": 3}, True),
    ("integral float total", {"total": 3.0}, True),
    ("empty object", {}, False),
    ("string total", {"total": "3"}, False),
    ("extra field", {"total": 3, "carry": 0}, False),
    ("bool total", {"total": False}, False),
    ("fractional total", {"total": 3.5}, False),
)

_FULL_COMPLETION = {
    "kind": "answer",
    "language": "en-GB",
    "confidence": 0.93,
    "retries": 2,
    "page_size": 20,
    "severity": None,
    "summary": "The sum is 42.",
    "tags": ["example.com", "api.example.org"],
    "span": [0, 12],
    "answer": {"text": "42"},
    "citations": ["https://example.com/a", {"doc": "manual.pdf", "page": 3}],
    "metadata": {"model": "m1", "temperature": 0.2, "cached": False},
    "identifier": "abc-123",
}
_MINIMAL_COMPLETION = {"kind": "answer", "answer": {"text": "42"}}


def _completion(**changes: Any) -> dict[str, Any]:
    """The full valid completion with some fields replaced."""
    return {**_FULL_COMPLETION, **changes}


STRUCTURED_COMPLETION: Rows = (
    ("minimal", _MINIMAL_COMPLETION, True),
    ("refusal", {"kind": "answer", "answer": {"refusal": "cannot say"}}, True),
    ("every field", _FULL_COMPLETION, True),
    (
        "bounds at their limits",
        _completion(confidence=1, retries=0, page_size=100, summary=None),
        True,
    ),
    ("missing answer", {"kind": "answer"}, False),
    ("wrong const", {"kind": "question", "answer": {"text": "42"}}, False),
    ("answer matches no oneOf branch", _completion(answer={"text": "a", "refusal": "b"}), False),
    ("extra field", {**_MINIMAL_COMPLETION, "extra": 1}, False),
    ("confidence at exclusiveMinimum", _completion(confidence=0), False),
    ("bool for integer", _completion(retries=True), False),
    ("retries at exclusiveMaximum", _completion(retries=10), False),
    ("page_size not multipleOf 10", _completion(page_size=15), False),
    ("duplicate tags", _completion(tags=["example.com", "example.com"]), False),
    ("span too long", _completion(span=[0, 12, 24]), False),
    ("span too short", _completion(span=[0]), False),
    ("language fails pattern", _completion(language="english"), False),
    ("identifier all digits", _completion(identifier="12345"), False),
    ("severity not in enum", _completion(severity="critical"), False),
    ("citation matches no anyOf branch", _completion(citations=[{"page": 1}]), False),
    ("metadata value null", _completion(metadata={"x": None}), False),
    ("empty summary", _completion(summary=""), False),
)


_SHA = "0123456789abcdef" * 4
_PACKAGE: dict[str, Any] = {
    "tool_key": "pdf.extract_tables",
    "version": 3,
    "owner_domain": "documents",
    "purpose": "Extract tables from PDF files.",
    "applies_when": "A case has PDF attachments.",
    "artifacts": {"source": {"uri": "git://tools/pdf", "sha256": _SHA, "revision": "r1"}},
    "entry": {
        "artifact": "source",
        "path": "src/tools/pdf/main.py",
        "runtime_id": "python",
        "runtime_version": "3.11",
        "kind": "managed_handler",
    },
    "input_schema": {"type": "object", "properties": {"file": {"type": "string"}}},
    "output_schema": {"type": "object"},
    "dependencies": [
        {"key": "pdfminer", "version": "2024.1", "sha256": _SHA},
        {"key": "tabula", "version": "1.0", "sha256": _SHA},
    ],
    "effect": "compute",
    "connector_operations": [],
    "uses_model": False,
    "repeatability": {"kind": "deterministic", "comparison": "exact"},
    "limits": {"timeout_ms": 30000, "max_output_bytes": 1048576},
    "tests": {"corpus_ref": "corpus/pdf", "result_ref": "results/pdf"},
    "provenance_refs": ["adr-017", "review-2024-03"],
}


def _package(**changes: Any) -> dict[str, Any]:
    """The valid source package with some fields replaced."""
    return {**json.loads(json.dumps(_PACKAGE)), **changes}


_BINARY_ARTIFACT = {
    "uri": "https://example.com/pdf.tar",
    "sha256": _SHA,
    "platform": "linux-x86_64",
}

TOOL_PACKAGE: Rows = (
    ("source package", _PACKAGE, True),
    (
        "binary connector package",
        _package(
            artifacts={"binary": _BINARY_ARTIFACT},
            entry={**_PACKAGE["entry"], "artifact": "binary", "kind": "restricted_process"},
            effect="connector",
            connector_operations=["mail.send", "mail.read"],
            uses_model=True,
            repeatability={
                "kind": "declared_variation",
                "comparison": "semantic",
                "tolerance_ref": "tol/1",
            },
        ),
        True,
    ),
    # each fails one allOf if/then rule, every field being valid on its own
    ("allOf: compute uses a model", _package(uses_model=True), False),
    ("allOf: compute with operations", _package(connector_operations=["mail.send"]), False),
    (
        "allOf: source entry, binary artifact",
        _package(artifacts={"binary": _BINARY_ARTIFACT}),
        False,
    ),
    (
        "allOf: binary artifact without platform",
        _package(
            artifacts={"binary": {k: v for k, v in _BINARY_ARTIFACT.items() if k != "platform"}},
            entry={**_PACKAGE["entry"], "artifact": "binary"},
        ),
        False,
    ),
    (
        "allOf: declared variation, no tolerance",
        _package(
            repeatability={"kind": "declared_variation", "comparison": "semantic"}, uses_model=False
        ),
        False,
    ),
    ("allOf: connector without operations", _package(effect="connector"), False),
    # a field fails
    ("entry path with ..", _package(entry={**_PACKAGE["entry"], "path": "src/../etc"}), False),
    (
        "bad sha256 in a dependency",
        _package(dependencies=[{"key": "k", "version": "1", "sha256": "A" * 64}]),
        False,
    ),
    ("missing provenance", {k: v for k, v in _PACKAGE.items() if k != "provenance_refs"}, False),
)


def _inline_instances(rows: Rows) -> list[Instance]:
    return [Instance(name, json.dumps(value), expected) for name, value, expected in rows]


# name -> (contract file under contracts/, straightline profile, instances)
CONTRACT_CASES: dict[str, tuple[str, str, Rows]] = {
    "math.add.input": ("octoscript/math.add.input.json", "octoscript", MATH_ADD_INPUT),
    "math.add.output": ("octoscript/math.add.output.json", "octoscript", MATH_ADD_OUTPUT),
    "strict.structured_completion": (
        "strict/structured_completion.json",
        "strict",
        STRUCTURED_COMPLETION,
    ),
    "tool-package": ("draft2020-12/tool-package.schema.json", "draft2020-12", TOOL_PACKAGE),
}


def _contract_case(name: str) -> Case:
    file, profile, rows = CONTRACT_CASES[name]
    path = ROOT / "contracts" / file
    return with_failing_instances(
        Case(
            name=name,
            source=str(path.relative_to(ROOT)),
            schema_text=path.read_text(encoding="utf-8"),
            profile=profile,
            instances=_inline_instances(rows),
            handwritten=HANDWRITTEN.get(name),
        )
    )


# --- the shared peer data (see its ORIGIN.md) ------------------------------------------------

# name -> (schema file, ((instance file, expected valid), ...), note)
SHARED_CASES: dict[str, tuple[str, tuple[tuple[str, bool], ...], str]] = {
    "fast": ("fast_schema.json", (("fast_valid.json", True), ("fast_invalid.json", False)), ""),
    "citm": ("citm_catalog_schema.json", (("citm_catalog.json", True),), ""),
    "geojson": ("geojson.json", (("canada.json", True),), ""),
    "swagger": ("swagger.json", (("kubernetes.json", True),), ""),
    "fhir": ("fhir.schema.json", (("patient-example-d.json", True),), ""),
    "recursive": ("recursive_schema.json", (("recursive_instance.json", True),), ""),
    "openapi": (
        "openapi.json",
        (),
        "its instance (over 4 MB) is not shipped: compile figures only",
    ),
}

# A $schema URI fragment -> the straightline profile that draft will be compiled with.
_DRAFT_PROFILES = (
    ("draft-04", "draft4"),
    ("draft-06", "draft6"),
    ("draft-07", "draft7"),
    ("draft/2019-09", "draft2019-09"),
    ("draft/2020-12", "draft2020-12"),
)
DEFAULT_DRAFT_PROFILE = "draft2020-12"


def draft_profile(schema: Any) -> str:
    """The straightline profile implied by `$schema`, draft 2020-12 when it names none we know."""
    uri = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(uri, str):
        for marker, profile in _DRAFT_PROFILES:
            if marker in uri:
                return profile
    return DEFAULT_DRAFT_PROFILE


def shared_data_dir() -> Path:
    """$STRAIGHTLINE_BENCH_DATA, else the copy vendored at bench/data (see its ORIGIN.md)."""
    configured = os.environ.get(DATA_ENV)
    return Path(configured) if configured else ROOT / "bench" / "data"


def _shared_case(name: str, directory: Path) -> Case:
    schema_file, instance_files, note = SHARED_CASES[name]
    schema_text = (directory / schema_file).read_text(encoding="utf-8")
    instances = [
        Instance(file, (directory / file).read_text(encoding="utf-8"), expected)
        for file, expected in instance_files
    ]
    return with_failing_instances(
        Case(
            name=name,
            source=str(directory / schema_file),
            schema_text=schema_text,
            profile=draft_profile(json.loads(schema_text)),
            instances=instances,
            note=note,
        )
    )


def _missing_shared_files(name: str, directory: Path) -> list[str]:
    schema_file, instance_files, _ = SHARED_CASES[name]
    wanted = [schema_file, *(file for file, _ in instance_files)]
    return [file for file in wanted if not (directory / file).is_file()]


# --- instances that fail early and late, made from a valid one -----------------------------------

# How many leaves from each end of an instance are tried for a failing change.
_TRIES = 64


def with_failing_instances(case: Case) -> Case:
    """The case with two more instances, made from its largest valid one: `fails early` changes
    the first value (a leaf, in document order) whose change makes the instance invalid, `fails
    late` the last. A leaf is changed to a value of another type (a string to 0, anything else to
    "x"); whether that makes the instance invalid is asked of straightline's own module (the
    harness then checks every implementation against that answer, so a wrong one would show as a
    disagreement). Deterministic: the same case always gets the same instances."""
    valid = [i for i in case.instances if i.expected_valid]
    if not valid:
        return case
    base = max(valid, key=lambda i: i.size_bytes)
    try:
        import generator

        is_valid = generator.compile_module(
            case.schema_text, profile=case.profile, format=False
        ).is_valid
    except Exception:  # a schema straightline cannot compile: the case keeps its instances
        return case
    for label, order in (("fails early", _leaves), ("fails late", _leaves_from_the_end)):
        found = _first_failing_change(base, order, is_valid)
        if found is not None:
            pointer, text = found
            case.instances.append(Instance(f"{label} ({pointer or '/'})", text, False))
    return case


def _first_failing_change(
    base: Instance, order: Callable[[Any], Any], is_valid: Callable[[Any], bool]
) -> tuple[str, str] | None:
    for tried, (pointer, container, key) in enumerate(order(json.loads(base.text))):
        if tried >= _TRIES:
            return None
        document = json.loads(base.text)
        target = document
        for token in _tokens(pointer)[:-1]:
            target = target[token]
        target[key] = 0 if isinstance(container[key], str) else "x"
        if not is_valid(document):
            return pointer, json.dumps(document)
    return None


def _tokens(pointer: str) -> list[Any]:
    return [
        int(t) if t.isdigit() and t != "" else t.replace("~1", "/").replace("~0", "~")
        for t in pointer.split("/")[1:]
    ]


def _leaves(value: Any, reverse: bool = False) -> Any:
    """(pointer, container, key) of every leaf (a value that is no object or array), in document
    order (or the reverse), iteratively: instances can be deep."""
    stack: list[tuple[str, Any, Any]] = [("", [value], 0)]
    while stack:
        pointer, container, key = stack.pop()
        node = container[key]
        if isinstance(node, dict):
            children = [
                (pointer + "/" + k.replace("~", "~0").replace("/", "~1"), node, k) for k in node
            ]
        elif isinstance(node, list):
            children = [(pointer + "/" + str(i), node, i) for i in range(len(node))]
        else:
            if pointer:
                yield pointer, container, key
            continue
        stack.extend(children if reverse else reversed(children))


def _leaves_from_the_end(value: Any) -> Any:
    return _leaves(value, reverse=True)


# --- selection --------------------------------------------------------------------------------

ALL_CASE_NAMES = (*CONTRACT_CASES, *SHARED_CASES)


def matches(name: str, pattern: str) -> bool:
    """`math.add` selects math.add.input and math.add.output; `fast` selects fast only."""
    return name == pattern or name.startswith(pattern + ".")


def unknown_patterns(patterns: list[str]) -> list[str]:
    return [p for p in patterns if not any(matches(name, p) for name in ALL_CASE_NAMES)]


def select_cases(
    patterns: list[str] | None,
) -> tuple[list[tuple[str, Callable[[], Case]]], list[str]]:
    """(name, loader) of the selected cases (all when no pattern), and notes on those skipped."""
    wanted = [n for n in ALL_CASE_NAMES if not patterns or any(matches(n, p) for p in patterns)]
    loaders: list[tuple[str, Callable[[], Case]]] = [
        (name, functools.partial(_contract_case, name)) for name in wanted if name in CONTRACT_CASES
    ]
    notes: list[str] = []
    shared_wanted = [n for n in wanted if n in SHARED_CASES]
    directory = shared_data_dir()
    if shared_wanted and not directory.is_dir():
        notes.append(
            f"shared bench data not found at {directory} (set {DATA_ENV}): "
            f"skipped {', '.join(shared_wanted)}"
        )
        return loaders, notes
    for name in shared_wanted:
        missing = _missing_shared_files(name, directory)
        if missing:
            notes.append(f"skipped {name}: missing {', '.join(missing)} in {directory}")
        else:
            loaders.append((name, functools.partial(_shared_case, name, directory)))
    return loaders, notes
