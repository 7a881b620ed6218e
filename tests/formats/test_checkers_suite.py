"""Every case of the official suite's optional format and content tests, for the five drafts,
against generator/formats/checkers.py through the registry (the draft's checker for the schema's
`format`; a value that is not a string, or an unknown format, passes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator import formats
from generator.load import load_json

from ..suite import DRAFTS, suite_dir

# "draft/file.json::group::test" -> why the case cannot pass. The goal, reached, is none.
KNOWN_FAILURES: dict[str, str] = {}


def _format_files() -> list[tuple[str, Path]]:
    root = suite_dir()
    if root is None:
        return []
    return [
        (draft, path)
        for draft in DRAFTS
        for path in sorted((root / "tests" / draft / "optional" / "format").glob("*.json"))
    ]


def _answer(draft: str, schema: dict[str, Any], value: Any) -> bool:
    """What a generated module answers for `format` alone: checkers see strings only."""
    check = formats.checker(schema["format"], draft)
    if check is None or not isinstance(value, str):
        return True
    return check(value)


def _mismatches(draft: str, path: Path, answer: Any) -> list[str]:
    wrong = []
    for group in load_json(path.read_bytes()):
        for test in group["tests"]:
            key = f"{draft}/{path.name}::{group['description']}::{test['description']}"
            right = answer(draft, group["schema"], test["data"]) == test["valid"]
            if key in KNOWN_FAILURES and right:
                wrong.append(f"{key}: listed as a known failure, but passes")
            elif key not in KNOWN_FAILURES and not right:
                wrong.append(
                    f"{key}: {test['data']!r} should be {'valid' if test['valid'] else 'invalid'}"
                )
    return wrong


@pytest.mark.parametrize(
    ("draft", "path"), _format_files(), ids=[f"{d}/{p.stem}" for d, p in _format_files()]
)
def test_optional_format_file(draft: str, path: Path) -> None:
    assert _mismatches(draft, path, _answer) == []


def _content_answer(draft: str, schema: dict[str, Any], value: Any) -> bool:
    check = formats.content_checker(schema.get("contentEncoding"), schema.get("contentMediaType"))
    if check is None or not isinstance(value, str):
        return True
    return check(value)


def test_optional_content_file() -> None:
    """Only draft 7 has optional content tests (content is an annotation from 2019-09 on)."""
    root = suite_dir()
    assert root is not None
    path = root / "tests" / "draft7" / "optional" / "content.json"
    assert _mismatches("draft7", path, _content_answer) == []


def test_optional_content_files_are_the_registered_assertion_drafts() -> None:
    """The suite tests content assertion exactly where the registry says it asserts."""
    root = suite_dir()
    assert root is not None
    with_content = {
        d for d in DRAFTS if (root / "tests" / d / "optional" / "content.json").exists()
    }
    for spec in [*formats.CONTENT_ENCODINGS.values(), *formats.CONTENT_MEDIA_TYPES.values()]:
        assert set(spec.assertion_drafts) == with_content


def test_registered_drafts_are_the_suites() -> None:
    """A format is registered for exactly the drafts whose suite has tests of it (regex's tests
    are in two files); every format the suite names, but "unknown", is registered."""
    tested: dict[str, set[str]] = {}
    for draft, path in _format_files():
        for group in load_json(path.read_bytes()):
            tested.setdefault(group["schema"]["format"], set()).add(draft)
    assert set(tested) - {"unknown"} == set(formats.FORMATS)
    for name, spec in formats.FORMATS.items():
        assert set(spec.drafts) == tested[name], name
