"""Access to the official JSON Schema Test Suite, vendored at tests/JSON-Schema-Test-Suite
(STRAIGHTLINE_TEST_SUITE may point at another copy). A missing suite is a test failure, never a
skip: the README's conformance claims are tested by every clone."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from generator.load import load_json

from .conftest import ROOT

DRAFTS = ("draft2020-12", "draft2019-09", "draft7", "draft6", "draft4")
REMOTE_BASE = "http://localhost:1234/"


VENDORED = ROOT / "tests" / "JSON-Schema-Test-Suite"


def suite_dir() -> Path:
    """$STRAIGHTLINE_TEST_SUITE, else the vendored copy (whether or not it is there)."""
    configured = os.environ.get("STRAIGHTLINE_TEST_SUITE")
    return Path(configured) if configured else VENDORED


MISSING = "the JSON Schema Test Suite is missing at {} (vendored at tests/JSON-Schema-Test-Suite)"


def remotes() -> dict[str, Any]:
    """remotes/ served as http://localhost:1234/<path>, from a local registry."""
    root = suite_dir()
    mapping = {}
    for file in sorted((root / "remotes").rglob("*.json")):
        mapping[REMOTE_BASE + file.relative_to(root / "remotes").as_posix()] = load_json(
            file.read_bytes()
        )
    return mapping


def suite_files(draft: str) -> list[Path]:
    root = suite_dir()
    return sorted((root / "tests" / draft).glob("*.json"))


def optional_files(draft: str) -> list[Path]:
    """Every optional file of a draft's suite: optional/*.json and optional/format/*.json."""
    root = suite_dir() / "tests" / draft / "optional"
    return sorted(root.glob("*.json")) + sorted((root / "format").glob("*.json"))


def optional_options(path: Path) -> dict[str, Any]:
    """The format options the suite expects for an optional file: format assertion for the format
    tests, content assertion for content.json (draft 7), none for the others (format-assertion.json
    turns assertion on through its meta-schema's $vocabulary, which is what it tests)."""
    if path.parent.name == "format":
        return {"format_assertion": True}
    if path.name == "content.json":
        return {"content_assertion": True}
    return {}


def file_id(path: Path) -> str:
    """A suite file as test ids name it: `ref.json`, `optional/bignum.json`,
    `optional/format/email.json`."""
    parts = path.parts
    return "/".join(parts[parts.index("optional") :]) if "optional" in parts else path.name


def groups(path: Path) -> Iterator[tuple[str, Any, list[dict[str, Any]]]]:
    for group in load_json(path.read_bytes()):
        yield group["description"], group["schema"], group["tests"]


def known_failures() -> dict[str, str]:
    """`draft/file.json::group::test` -> reason. The goal is an empty file."""
    return json.loads((Path(__file__).parent / "known_failures.json").read_text(encoding="utf-8"))
