"""The copied checkers run on Python 3.10 as on 3.11: their regular expressions use no construct
3.11 added (possessive quantifiers, atomic groups), each is free of backtracking blow-up as it
is used (generator/regex/risk.py, anchored where the checker anchors it), and a module that
asserts every format gives, run by a Python 3.10 interpreter, the answers of the official suite's
optional format tests (on-demand: skipped where no 3.10 interpreter is installed)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.formats import checkers
from generator.regex.ecma import parse
from generator.regex.risk import _assess_body

from ..suite import suite_dir
from ..test_types import _python_310

PATTERNS = {name: value for name, value in vars(checkers).items() if isinstance(value, re.Pattern)}
# The patterns the checkers run with re.search (every start position); the others are anchored.
SEARCHED = {"_FMT_BAD_TILDE_RE", "_FMT_WIDTH_RE", "_FMT_IRI_EXCLUDED_RE", "_FMT_IDN_DOTS_RE"}
_NEW_IN_311 = {re._constants.POSSESSIVE_REPEAT, re._constants.ATOMIC_GROUP}  # type: ignore[attr-defined]


def _opcodes(parsed: Any) -> set[Any]:
    """Every opcode in a parsed pattern (re._parser's tree), nested ones included."""
    found = set()
    for op, av in parsed:
        found.add(op)
        for part in av if isinstance(av, (list, tuple)) else ():
            if isinstance(part, re._parser.SubPattern):  # type: ignore[attr-defined]
                found |= _opcodes(part)
            elif isinstance(part, (list, tuple)):
                for inner in part:
                    if isinstance(inner, re._parser.SubPattern):  # type: ignore[attr-defined]
                        found |= _opcodes(inner)
    return found


def test_the_checkers_hold_patterns() -> None:
    assert len(PATTERNS) >= 30


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_no_construct_python_3_10_lacks(name: str) -> None:
    parsed = re._parser.parse(PATTERNS[name].pattern, PATTERNS[name].flags)  # type: ignore[attr-defined]
    assert not _opcodes(parsed) & _NEW_IN_311, name


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_no_backtracking_blow_up(name: str) -> None:
    # (the risk analysis reads ECMA-262 syntax: a \U escape beyond the BMP read as the BMP's last)
    source = PATTERNS[name].pattern.replace("\\U0010ffff", "\\uffff")
    parsed = parse(source)
    risk = _assess_body(parsed, parsed.body, search=name in SEARCHED)
    assert not risk.risky, f"{name}: {risk.reason}"


FORMATS = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "uuid",
]
# Run by the 3.10 interpreter: the module's answer for each value of the suite's cases.
_RUNNER = """
import json, sys
sys.path.insert(0, sys.argv[1])
import every_format
cases = json.load(open(sys.argv[2]))
print(json.dumps([every_format.is_valid({name: value}) for name, value in cases]))
"""


def _suite_cases() -> list[tuple[str, Any, bool]]:
    root = suite_dir()
    assert root is not None
    cases = []
    for name in FORMATS:
        path = root / "tests" / "draft2020-12" / "optional" / "format" / f"{name}.json"
        for group in json.loads(path.read_text(encoding="utf-8")):
            cases += [(name, test["data"], test["valid"]) for test in group["tests"]]
    return cases


def test_a_module_asserting_every_format_runs_on_python_3_10(tmp_path: Path) -> None:
    interpreter = _python_310()
    if interpreter is None:
        pytest.skip(
            "no Python 3.10 interpreter here (STRAIGHTLINE_PYTHON310, python3.10 or pyenv's)"
        )
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {name: {"format": name} for name in FORMATS},
    }
    source = generator.compile_source(json.dumps(schema), format_assertion=True)
    (tmp_path / "every_format.py").write_text(source, encoding="utf-8")
    cases = _suite_cases()
    assert len(cases) > 500
    (tmp_path / "cases.json").write_text(json.dumps([[name, value] for name, value, _ in cases]))
    (tmp_path / "run.py").write_text(_RUNNER)
    ran = subprocess.run(
        [interpreter, str(tmp_path / "run.py"), str(tmp_path), str(tmp_path / "cases.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    answers = json.loads(ran.stdout)
    wrong = [
        (name, value) for (name, value, valid), answer in zip(cases, answers) if answer != valid
    ]
    assert not wrong, wrong[:10]
    sys.path.insert(0, str(tmp_path))  # the same module, here on 3.11: the same answers
    try:
        import every_format  # type: ignore[import-not-found]

        assert [every_format.is_valid({name: value}) for name, value, _ in cases] == answers
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("every_format", None)
