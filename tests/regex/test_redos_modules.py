"""The classic ReDoS patterns in compiled schemas: `pattern`, and `patternProperties` on each of
its paths (alone, in the pattern loop with additionalProperties false, beside
additionalProperties with a schema, and read by unevaluatedProperties), validated through the
generated module's is_valid, errors and validate on 10,000-character adversarial inputs. Each
call finishes well under a second (the limit asserted, 2 s, only catches a blow-up: Python's `re`
takes seconds from about 25 characters on and years at 10,000), and the module agrees with the
reference interpreter, which runs the same linear plans. Run with -s to see the figures."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest

import generator
from generator.reference import DraftReference, Reference
from generator.regex.simple import always_matches

from .test_risk import EMAIL

LIMIT = 2.0  # seconds: generous, only a hang (a super-linear blow-up) reaches it
N = 10_000

# (pattern, adversarial text of N characters or more that makes backtracking blow up)
CLASSICS = [
    (r"^(a+)+$", "a" * N + "!"),
    (r"(a|a)*b", "a" * N),
    (r"(\w+\s?)*$", "a " * (N // 2) + "!"),
    (r"^(\w+\s?)*$", "a " * (N // 2) + "!"),
    (r"^(([a-z])+.)+[A-Z]([a-z])+$", "a" * N),
    (EMAIL, "a" * N + "!"),
    (r"^([a-zA-Z0-9_\.\-])+@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$", "a@" + "a" * N + "!"),
    (r"^\S+@\S+\.\S+$", "a@" + "b." * (N // 2) + " "),
    (r"^(\s*([0-9a-zA-Z\+/=]){4}\s*)+$", "AAAA    " * (N // 8) + "!"),  # FHIR base64Binary
    (r"^[0]|([1-9][0-9]*)$", "1" * N + "x"),  # FHIR unsignedInt
]


def schemas(pattern: str) -> dict[str, tuple[dict[str, Any], Callable[[str], Any]]]:
    """Each place a pattern runs, as (schema, instance made of the adversarial text)."""
    return {
        "pattern": ({"type": "string", "pattern": pattern}, lambda s: s),
        "patternProperties": (
            {"patternProperties": {pattern: {"type": "integer"}}},
            lambda s: {s: "x"},
        ),
        "pattern loop": (
            {"patternProperties": {pattern: {"type": "integer"}}, "additionalProperties": False},
            lambda s: {s: 1},
        ),
        "additionalProperties": (
            {
                "properties": {"a": {}},
                "patternProperties": {pattern: {"type": "integer"}},
                "additionalProperties": {"type": "string"},
            },
            lambda s: {s: 1.5},
        ),
        "unevaluatedProperties": (
            {"patternProperties": {pattern: {"type": "integer"}}, "unevaluatedProperties": False},
            lambda s: {s: 1},
        ),
    }


def timed(what: str, call: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = call()
    elapsed = time.perf_counter() - started
    print(f"  {what}: {elapsed * 1000:.2f} ms")
    assert elapsed < LIMIT, f"{what} took {elapsed:.2f} s"
    return result


def locations(errors: list[Any]) -> list[tuple[str, str]]:
    return sorted((e.instance_location, e.keyword_location) for e in errors)


def check(module: Any, reference: Any, instance: Any, label: str) -> None:
    valid = timed(f"{label} is_valid", lambda: module.is_valid(instance))
    found = timed(f"{label} errors", lambda: module.errors(instance))
    expected = timed(f"{label} reference", lambda: reference.errors(instance))
    assert locations(found) == locations(expected)
    assert valid is (not found)
    if valid:
        timed(f"{label} validate", lambda: module.validate(instance))
    else:
        with pytest.raises(module.ValidationError):
            timed(f"{label} validate", lambda: module.validate(instance))


@pytest.mark.parametrize("pattern,text", CLASSICS, ids=[c[0][:32] for c in CLASSICS])
def test_redos_patterns_in_draft_schemas(pattern: str, text: str) -> None:
    assert len(text) >= N
    for where, (schema, instance_of) in schemas(pattern).items():
        module = generator.compile_module(schema, profile="draft2020-12", format=False)
        engines = (
            "_dfa_search" in module.__source__,
            "_nfa_search" in module.__source__,
            "_re.compile" in module.__source__,
        )
        if always_matches(pattern):
            # every string matches `(\w+\s?)*$` (at its end): nothing to run, in any place
            assert not any(engines), where
        else:
            assert engines[0] or engines[1]
        reference = DraftReference(schema, "draft2020-12")
        print(f"{pattern[:40]!r} in {where}, {len(text)} characters")
        for instance in (instance_of(text), instance_of(text[:-1]), instance_of(text[: N // 2])):
            check(module, reference, instance, where)


@pytest.mark.parametrize("pattern,text", CLASSICS, ids=[c[0][:32] for c in CLASSICS])
def test_redos_patterns_in_strict_schemas(pattern: str, text: str) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}}}
    module = generator.compile_module(schema, profile="strict", format=False)
    reference = Reference(schema, "strict")
    print(f"{pattern[:40]!r} in strict, {len(text)} characters")
    for instance in ({"s": text}, {"s": text[:-1]}):
        check(module, reference, instance, "strict pattern")


def test_the_answers_are_those_of_re_where_re_can_decide() -> None:
    """On short inputs (re decides them at once) the modules answer as `re` does."""
    from generator.regex import compile_pattern

    for pattern, text in CLASSICS:
        module = generator.compile_module({"pattern": pattern}, format=False)
        search = compile_pattern(pattern).search
        for length in range(0, 14):
            for sample in (text[:length], text[-length:] if length else "", "a" * length + "@x.co"):
                assert module.is_valid(sample) is (search(sample) is not None), (pattern, sample)


def test_a_module_of_every_engine_passes_mypy_strict(tmp_path) -> None:
    """The matchers, their table constants (annotated with the matchers' table types) and the str
    tests are type-precise: mypy --strict accepts the module."""
    import os
    import subprocess
    import sys

    pytest.importorskip("mypy")
    schema = {
        "properties": {
            "dfa": {"type": "string", "pattern": r"^(a+)+$"},
            "nfa": {"pattern": r"(a|b)*a(a|b){14}c"},
            "str": {"type": "string", "pattern": r"^x-|^(get|put)$|^[A-Z]{2}$"},
            "names": {
                "patternProperties": {r"^(a|a)*b$": {"type": "integer"}, r"^\d+$": {}},
                "additionalProperties": False,
            },
            "seen": {"patternProperties": {r"(\w+\s?)*$": True}, "unevaluatedProperties": False},
        },
    }
    source = generator.compile_source(schema)
    for engine in (
        "_dfa_search(",
        "_nfa_search(",
        "startswith(",
        ".isdigit()",
        "_DfaTable",
        "_NfaTable",
    ):
        assert engine in source, engine
    (tmp_path / "engines.py").write_text(source)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "--python-version",
            "3.10",
            "engines.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
